"""The directives already there: a note directive is kept, with the options
the lists' plan gives it added after its own; an entry that renders
nothing is kept, and read as a note is; a list directive filtered by
``:deterministic-algorithms:`` is kept, and counted (the lists' report
names the notes in neither list when the tree has one)."""

from __future__ import annotations

import re

from reprodocs.base.vocabulary import (
    DETERMINISTIC_ALGORITHMS,
    ENTRY_DIRECTIVE,
    ENTRY_DIRECTIVES,
    LIST_DIRECTIVE,
    note_options,
)
from reprodocs.migrate.model import (
    ALGORITHMS_OPTION,
    BACKEND_OPTION,
    FORMAT_OPTION,
    OP_OPTION,
    PASS_OPTION,
    FoundNote,
)
from reprodocs.migrate.runtime_text import refreshed
from reprodocs.migrate.text import Lines, ListDirectiveSeen, Rewriting, indent_of, option_lines

_NOTE_DIRECTIVE = re.compile(r"\.\.\s+(" + "|".join(ENTRY_DIRECTIVES) + r")::(?:\s|$)")
_LIST_DIRECTIVE = re.compile(r"\.\.\s+" + LIST_DIRECTIVE + r"::\s*$")
_OPTION = re.compile(r":([\w-]+):(?:\s+(.*))?$")


def marked(text: str) -> bool:
    """*text* names a note or list directive (or is not worth reading for them)."""
    return any(f"{name}::" in text for name in (*ENTRY_DIRECTIVES, LIST_DIRECTIVE))


def directive_options(lines: Lines, i: int) -> tuple[dict[str, str], int, str]:
    """The options of the directive on line *i*: their values, the last
    line they take (*i* without options), and their indentation."""
    options: dict[str, str] = {}
    last, name, indent = i, "", ""
    j = i + 1
    while j < len(lines) and not lines.blank(j) and lines.indents[j] > lines.indents[i]:
        text = lines[j].strip()
        if option := _OPTION.match(text):
            name = option[1]
            options[name] = (option[2] or "").strip()
            indent = indent or lines.leading(j)
        elif name and lines.indents[j] > indent_of(indent):  # the value goes on
            options[name] = f"{options[name]} {text}".strip()
        else:
            break  # content (without the blank line after the options)
        last = j
        j += 1
    return options, last, indent or lines.leading(i) + "   "


def note_directive(rewriting: Rewriting, i: int) -> int | None:
    """A note directive on line *i*, kept, with the options the plan gives
    it; the next line to read, or None where line *i* starts none."""
    lines, out = rewriting.lines, rewriting.out
    match = _NOTE_DIRECTIVE.match(lines.stripped(i))
    if not match or not lines.starts_block(i):
        return None
    directive = match[1]
    options, last, indent = directive_options(lines, i)
    backend, affected_pass = ENTRY_DIRECTIVES[directive]
    if BACKEND_OPTION in note_options(directive):  # not fixed by a preset
        backend = options.get(BACKEND_OPTION) or backend
        affected_pass = (options.get(PASS_OPTION) or affected_pass).lower()
    operations = (options[OP_OPTION],) if options.get(OP_OPTION) else rewriting.scopes.operations()
    note_line = rewriting.line_number(i)
    note = FoundNote(note_line, directive, operations, backend, affected_pass, options)
    note.list_place = _in_list_place(rewriting, i, last) if directive == ENTRY_DIRECTIVE else ""
    rewriting.found.notes.append(note)
    if note_line in rewriting.plan.released:  # a note or docstring says it now
        out.drop_blank_line_at_end()
        return last + 1
    added = rewriting.plan.options.get(note_line, [])
    if not added:
        out.keep(i, last)
        return last + 1
    out.keep(i, last - 1)
    out.emit([lines[last], *option_lines(indent, added)], last)
    return last + 1


def _in_list_place(rewriting: Rewriting, i: int, last: int) -> str:
    """The kind of the list in whose items' place the entry on lines *i*
    to *last* stands (right after its directive, the items kept by hand or
    other such entries, at the directive's indent); "" for none."""
    lines, place = rewriting.lines, rewriting.list_place
    if place is None or lines.previous_non_blank(i - 1) != place.last:
        return ""
    if lines.indents[i] != place.indent:
        return ""
    rewriting.list_place = place._replace(last=last)
    return place.kind


def list_directive(rewriting: Rewriting, i: int) -> int | None:
    """A list directive on line *i*, kept; one filtered by
    ``:deterministic-algorithms:`` may be followed by the items of its
    list still kept by hand. The next line to read, or None where line *i*
    starts none."""
    lines = rewriting.lines
    if not _LIST_DIRECTIVE.match(lines.stripped(i)) or not lines.starts_block(i):
        return None
    options, options_last, _ = directive_options(lines, i)
    last = content_end(lines, i, options_last)  # its items as help() shows them
    kind = options.get(ALGORITHMS_OPTION, "").lower()
    if kind not in DETERMINISTIC_ALGORITHMS:
        rewriting.out.keep(i, last)
        return last + 1
    rewriting.found.list_directives += 1
    rewriting.list_directive = ListDirectiveSeen(i, last, lines.indents[i], kind)
    rewriting.list_place = rewriting.list_directive
    # Its content in line with the registry, where nothing but its kind
    # chooses its items (migrate does not filter by backend or pass).
    first = lines.next_non_blank(options_last + 1)
    new = None
    if last > options_last and set(options) <= {ALGORITHMS_OPTION, FORMAT_OPTION}:
        rewriting.found.runtime_lists += 1
        expected = rewriting.plan.listed.get(kind)
        content = lines.contents[first : last + 1]
        new = refreshed(content, expected) if expected is not None else None
    if new is None:
        rewriting.out.keep(i, last)
    else:
        rewriting.out.keep(i, first - 1)
        rewriting.out.emit(new, last)
    return last + 1


def content_end(lines: Lines, i: int, last: int) -> int:
    """The last line of the content of the directive on line *i* whose
    options end on line *last* (*last* without content)."""
    j = lines.next_non_blank(last + 1)
    if j == last + 1:  # content follows a blank line
        return last
    while j < len(lines) and lines.indents[j] > lines.indents[i]:
        last = j
        j = lines.next_non_blank(j + 1)
    return last
