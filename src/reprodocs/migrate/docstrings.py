"""Where an operation is documented in a run's Python files: its docstring,
which takes the entry of a list's item that no note matched (an entry
stays next to its operation), and the note it may hold written as prose,
not as a placeholder (``torch.nn.MaxUnpool1d``'s "This operation may behave
nondeterministically ..."). Pure: the command reads the files."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from reprodocs.base.python_syntax import parse_python
from reprodocs.migrate.model import ParseError
from reprodocs.migrate.names import names_match
from reprodocs.migrate.owners import docstring_owners

#: Prose saying the operation may be nondeterministic ("may select a
#: nondeterministic algorithm", "may behave nondeterministically"); not
#: prose about something else ("to prevent nondeterministic behavior").
_MAY_BE_NONDETERMINISTIC = re.compile(r"\bmay\b[^.]{0,60}?\bnondeterministic", re.IGNORECASE)
_DIRECTIVE_OR_OPTION = re.compile(r"\s*(?:\.\.\s|:[\w-]+:(?:\s|$))")
_TRIPLE_QUOTED = re.compile(r"[rRuU]?(?:'''|\"\"\")")


@dataclass(frozen=True)
class ProseNote:
    """A note written as prose: its file, the line of its first words
    saying so, and the backend and pass those name ("" and None where they
    name none)."""

    path: Path
    line: int
    backend: str
    backward: bool | None


@dataclass(frozen=True)
class Docstring:
    """An operation's docstring: its file, the line its string starts on,
    the operation as the file names it, its note in prose if any, and
    whether an entry can be written at its end (a triple-quoted string of
    several lines, not ending in a paragraph that introduces a literal
    block, and not formatted where the entry has braces)."""

    path: Path
    line: int
    operation: str
    prose_note: ProseNote | None
    takes_entries: bool
    formatted: bool = False


def may_document(text: str, short_names: Collection[str]) -> bool:
    """*text* may hold the docstring of an operation whose last name is in
    *short_names*: it defines it (``class``, ``def``), gives it a docstring
    (``add_docstr(torch.histc,``, ``add_docstr_all("put_",``, ``histc.__doc__``)
    or binds it (``histc = _add_docstr(``). A file without any is not parsed."""
    present = tuple(sorted(name for name in short_names if name in text))
    return bool(present) and _documenting(present).search(text) is not None


@functools.lru_cache(maxsize=256)
def _documenting(short_names: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(map(re.escape, short_names))
    return re.compile(
        rf"(?:class|def)\s+(?:{names})\b|[\"'](?:{names})[\"']|\.(?:{names})\s*[,)]"
        rf"|\b(?:{names})(?:\.__doc__\s*=|\s*=\s*\w*add_docstr)"
    )


def docstrings(
    text: str, path: Path, module: str, package: bool, operations: Collection[str]
) -> list[Docstring]:
    """The docstrings in *text* (the Python file *path*, the module
    *module*) of the *operations* (as a list names them: ``torch.nn.Conv1d``
    is ``torch.nn.modules.conv.Conv1d``'s); :class:`ParseError` if this
    Python cannot parse it (it may hold them: nothing of them is decided)."""
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError) as error:
        raise ParseError.of_python(error, text) from None
    owners = [
        (owner, named)
        for owner in docstring_owners(tree, module, package)
        if (named := [n for n in owner.names if any(names_match(op, n) for op in operations)])
    ]
    if not owners:
        return []
    expressions = _expressions(tree)
    lines = _LINES.split(text)
    found = []
    for owner, named in owners:
        whole = expressions.get((*owner.start, *owner.end))
        parts = _parts(whole) if whole else []
        strings = [part for part, _ in parts if _is_string(part)]
        if not strings:
            continue
        end, formatted = parts[-1]
        last = end if _is_string(end) else None
        # Literals written one after the other are one string: its last
        # literal is where its text ends.
        pieces = _literals(_segment(lines, last)) if last else []
        offset, literal = pieces[-1] if pieces and last else (0, "")
        found.append(
            Docstring(
                path,
                (last or strings[0]).lineno + offset,
                named[0],
                next(
                    filter(None, (prose_note(str(n.value), path, n.lineno) for n in strings)), None
                ),
                bool(literal) and _takes_entries(literal),
                formatted,
            )
        )
    return found


def _parts(expression: ast.expr, formatted: bool = False) -> list[tuple[ast.expr, bool]]:
    """The parts a docstring *expression* joins, in order, each with whether
    it is formatted on the way (``.format()``, ``%``: braces or percent
    signs in it are then no text): its strings, and any other expression
    (a name, a call) as it is."""
    if (
        isinstance(expression, ast.Call)
        and isinstance(expression.func, ast.Attribute)
        and expression.func.attr == "format"
    ):
        return _parts(expression.func.value, True)
    if isinstance(expression, ast.BinOp) and isinstance(expression.op, ast.Mod):
        return _parts(expression.left, True)
    if isinstance(expression, ast.BinOp) and isinstance(expression.op, ast.Add):
        return _parts(expression.left, formatted) + _parts(expression.right, formatted)
    return [(expression, formatted)]


def _is_string(node: ast.expr | None) -> TypeGuard[ast.Constant]:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


#: Where Python's lines end (not at a form feed, as str.splitlines would).
_LINES = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")


def _segment(lines: list[str], node: ast.expr) -> str:
    """*node*'s source, from the file's *lines* (as ast.get_source_segment
    gives it, without splitting the file again for each node; its columns
    count UTF-8 bytes)."""
    end_line, end_column = node.end_lineno or node.lineno, node.end_col_offset or 0
    first = lines[node.lineno - 1].encode()
    if end_line == node.lineno:
        return first[node.col_offset : end_column].decode()
    last = lines[end_line - 1].encode()[:end_column].decode()
    return first[node.col_offset :].decode() + "".join(lines[node.lineno : end_line - 1]) + last


def _literals(source: str) -> list[tuple[int, str]]:
    """The string literals of a string's *source*: each one's line (from
    the first, 0) and source."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return []
    return [(token.start[0] - 1, token.string) for token in tokens if token.type == tokenize.STRING]


def prose_note(value: str, path: Path, first_line: int) -> ProseNote | None:
    """The first note in prose in a docstring's *value* (its first line is
    line *first_line* of the file *path*), and what it names."""
    lines = value.splitlines()
    for number, line in enumerate(lines):
        if "nondetermini" not in line.lower() or _DIRECTIVE_OR_OPTION.match(line):
            continue
        paragraph = " ".join(_paragraph(lines, number))
        if not _MAY_BE_NONDETERMINISTIC.search(paragraph):
            continue
        backend = "cuDNN" if re.search(r"cudnn", paragraph, re.IGNORECASE) else ""
        backend = backend or ("CUDA" if "CUDA" in paragraph else "")
        backward = True if re.search(r"backward", paragraph) else None
        return ProseNote(path, first_line + number, backend, backward)
    return None


def _paragraph(lines: list[str], number: int) -> list[str]:
    start = number
    while start > 0 and lines[start - 1].strip():
        start -= 1
    end = number
    while end + 1 < len(lines) and lines[end + 1].strip():
        end += 1
    return lines[start : end + 1]


def _takes_entries(literal: str) -> bool:
    """An entry can be written at the end of the string *literal*."""
    if not _TRIPLE_QUOTED.match(literal):
        return False
    value = ast.literal_eval(literal)
    text = [line for line in value.splitlines() if line.strip()]
    return "\n" in value and bool(text) and not text[-1].rstrip().endswith("::")


def _expressions(tree: ast.Module) -> dict[tuple[int, ...], ast.expr]:
    """*tree*'s expressions by where they start and end."""
    return {
        (node.lineno, node.col_offset, node.end_lineno or 0, node.end_col_offset or 0): node
        for node in ast.walk(tree)
        if isinstance(node, ast.expr)
    }
