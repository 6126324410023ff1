"""Entries that render nothing (``.. nondeterministic-entry::``), written
for the items of the lists that no note matched: each in its operation's
docstring, at its end (:func:`append_entries`), or where no docstring of
the operation can take it, in the list's place (with ``:op:``). An entry's
options say what its item said (:func:`entry_options`)."""

from __future__ import annotations

from reprodocs.base.vocabulary import ANY_BACKEND, ENTRY_DIRECTIVE, SEPARATOR
from reprodocs.migrate.devices_and_passes import devices_named, pass_named
from reprodocs.migrate.docstrings import Docstring
from reprodocs.migrate.model import (
    ALERT_OPTION,
    BACKEND_OPTION,
    OP_OPTION,
    PASS_OPTION,
    Listing,
    Options,
)
from reprodocs.migrate.text import Rewriting, option_lines


def entry_options(
    listing: Listing,
    docstring: Docstring | None,
    operation: str = "",
    alerts: tuple[str, ...] = (),
) -> Options:
    """The options of the entry saying *listing*: ``:op:`` *operation* (if
    given), the backend its condition names (else its note in prose's, else
    ``any``), the pass it is about (else its note in prose's, else
    ``both``), what the list says, in the order its item says it ("with …
    when …"), and the *alerts*."""
    condition = f"{listing.with_words} {listing.when}"
    prose = docstring.prose_note if docstring else None
    backend = f"{SEPARATOR} ".join(devices_named(condition))
    affected_pass = pass_named(condition)
    if prose is not None:
        backend = backend or prose.backend
        affected_pass = affected_pass or ("backward" if prose.backward else None)
    return [
        *([(OP_OPTION, operation)] if operation else []),
        (BACKEND_OPTION, backend or ANY_BACKEND),
        (PASS_OPTION, affected_pass or "both"),
        *listing.options(),
        *([(ALERT_OPTION, f"{SEPARATOR} ".join(alerts))] if alerts else []),
    ]


def entry_lines(indent: str, options: Options) -> list[str]:
    """An entry directive with *options*, indented by *indent*."""
    return [f"{indent}.. {ENTRY_DIRECTIVE}::", *option_lines(indent + "   ", options)]


def writable(docstring: Docstring, options: Options) -> bool:
    """An entry with *options* can be written at the end of *docstring*:
    it is a string migrate rewrites, and formats nothing the entry says."""
    formatting = any(mark in value for _, value in options for mark in "{}%")
    return docstring.takes_entries and not (docstring.formatted and formatting)


def append_entries(rewriting: Rewriting) -> None:
    """The entries the plan gives the docstring being rewritten, after its
    last text, at its margin, each after a blank line; the whitespace that
    ends the string (before its closing quotes) kept after them."""
    literal = rewriting.literal
    planned = rewriting.plan.entries.get(literal.line, []) if literal else []
    if not planned or literal is None:
        return
    rewriting.found.entries_added.append(literal.line)
    written, lines = rewriting.out.written, rewriting.lines
    last = max(i for i, line in enumerate(written) if line.strip())
    margin = _margin(rewriting)
    new = []
    for options in planned:
        new += ["", *entry_lines(margin, options)]
    if not written[last].endswith(("\n", "\r")):  # the text ends on the quotes' line
        written[last] += lines.newline
        new.append(margin)
        written[last + 1 : last + 1] = [line + lines.newline for line in new[:-1]] + [new[-1]]
        return
    written[last + 1 : last + 1] = [line + lines.newline if line else lines.newline for line in new]


def _margin(rewriting: Rewriting) -> str:
    """The indentation of a docstring's text: that of its least indented
    line after the first (as inspect.cleandoc reads it), else that of its
    closing quotes."""
    lines = rewriting.lines
    rest = [i for i in range(1, len(lines)) if not lines.blank(i)]
    if rest:
        return lines.leading(min(rest, key=lambda i: lines.indents[i]))
    return lines[len(lines) - 1] if lines.blank(len(lines) - 1) else ""
