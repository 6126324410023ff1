"""Python files: the legacy notes in their string literals rewritten. The
source is read with ``tokenize``, so only the text inside string literals
is ever changed; only multi-line string literals (docstrings and the like)
are looked at, and only through their source text. A literal whose escape
sequences would make its value read otherwise is left as is and reported."""

from __future__ import annotations

import ast
import io
import re
import tokenize

from reprodocs.base.i18n import __
from reprodocs.base.python_syntax import parse_python
from reprodocs.migrate.model import Migration, Notice, ParseError
from reprodocs.migrate.owners import Owner, docstring_owners
from reprodocs.migrate.rewrite import rewrite_text
from reprodocs.migrate.settings import DEFAULT_SETTINGS, Settings
from reprodocs.migrate.text import StringLiteral

#: A string literal that can hold prose: triple-quoted (f-strings and bytes never do).
_PROSE_LITERAL = re.compile(r"""([rRuU]?)('''|\"\"\")(.*)\2\Z""", re.DOTALL)


def migrate_python(
    source: str, settings: Settings = DEFAULT_SETTINGS, module: str = "", package: bool = False
) -> Migration:
    """A Python file's source, the legacy notes in its string literals
    rewritten; *module* is its name (for the operations its docstrings are
    on), *package* whether it is a package's ``__init__.py``."""
    tree, tokens = _parse(source)
    # Where tokenize's lines start: after each "\n" (str.splitlines() would
    # also break at a form feed and other characters).
    line_starts = [0, *(match.end() for match in re.finditer("\n", source))]
    owners = _owners_by_character(docstring_owners(tree, module, package), source, line_starts)
    result = Migration(source)
    pieces, position = [], 0
    shift = 0  # how many lines the literals rewritten so far added
    for token in tokens:
        if token.type != tokenize.STRING:
            continue
        operations = next(
            (owner.names for owner in reversed(owners) if owner.start <= token.start < owner.end),
            (),
        )
        line = token.start[0]
        result.moved[line] = line + shift
        literal = StringLiteral(line, line + shift, operations)
        migration = _migrate_literal(token, settings, literal)
        if migration is None:
            continue
        result.add(migration)
        shift += migration.text.count("\n") - token.string.count("\n")
        if migration.text != token.string:
            start = line_starts[token.start[0] - 1] + token.start[1]
            end = line_starts[token.end[0] - 1] + token.end[1]
            pieces += [source[position:start], migration.text]
            position = end
    pieces.append(source[position:])
    result.text = "".join(pieces)
    return result


def _parse(source: str) -> tuple[ast.Module, list[tokenize.TokenInfo]]:
    """The syntax tree and the tokens of *source*; :class:`ParseError` if
    this Python cannot read it."""
    try:
        tree = parse_python(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except tokenize.TokenError as error:
        message, (line, _) = error.args
        raise ParseError(line, message) from None
    except (SyntaxError, ValueError) as error:
        raise ParseError.of_python(error, source) from None
    return tree, tokens


def _owners_by_character(owners: list[Owner], source: str, line_starts: list[int]) -> list[Owner]:
    """*owners* with columns in characters, as tokenize counts them (ast
    counts UTF-8 bytes), sorted by where they start."""

    def column(position: tuple[int, int]) -> tuple[int, int]:
        line, offset = position
        start = line_starts[line - 1] if line - 1 < len(line_starts) else len(source)
        text = source[start : start + offset * 4]  # enough characters for *offset* bytes
        return line, len(text.encode("utf-8")[:offset].decode("utf-8", errors="ignore"))

    return sorted(
        (Owner(column(owner.start), column(owner.end), owner.names) for owner in owners),
        key=lambda owner: owner.start,
    )


def _migrate_literal(
    token: tokenize.TokenInfo, settings: Settings, literal: StringLiteral
) -> Migration | None:
    """A string literal's token, rewritten; None when it holds no prose (a
    string of one line is code's)."""
    match = _PROSE_LITERAL.match(token.string)
    if not match:
        return None
    prefix, quotes, body = match.groups()
    value = ast.literal_eval(token.string)
    if "\n" not in value:
        return None
    migration = rewrite_text(body, settings, literal)
    by_value = rewrite_text(value, settings, literal)
    new = f"{prefix}{quotes}{migration.text}{quotes}"
    if ast.literal_eval(new) != by_value.text:
        message = __("left as is: this string's escape sequences change its lines")
        return Migration(token.string, [Notice(token.start[0], str(message))])
    migration.text = new
    return migration
