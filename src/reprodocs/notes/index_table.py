"""The index table's columns, each by its name: its heading and its cell.

By default a table shows the operation, its backend, pass and note; what
deterministic mode does when an entry says it; and each field the entry's
schema gives a column (the alerts, the project's fields), where an entry
has a value. A table's ``:columns:`` chooses its columns by name, in its
order, each shown whether or not an entry has a value there; each of its
rows is then a hyperlink target (``nondeterministic-ops-<operation>``)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Protocol

from docutils import nodes

from reprodocs.base.entry_schema import ALGORITHMS, Field, by_option, fields
from reprodocs.base.i18n import _
from reprodocs.base.vocabulary import (
    BACKEND_COLUMN,
    LIST_DIRECTIVE,
    NOTE_COLUMN,
    OPERATION_COLUMN,
    PASS_COLUMN,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from reprodocs.notes.index_rows import Row, Target

#: The columns every table may show that are not a field's, by name.
OPERATION, NOTE = OPERATION_COLUMN, NOTE_COLUMN
#: What deterministic mode does (and when): the column of ``:deterministic-algorithms:``.
MODE = ALGORITHMS.option
#: The columns a table without ``:columns:`` always shows.
ALWAYS = (OPERATION, BACKEND_COLUMN, PASS_COLUMN, NOTE)


class Renderer(Protocol):
    """What a cell is made with: the page's links, conditions and parser."""

    def page_link(self, label: str, target: Target, literal: bool) -> nodes.Node: ...
    def deterministic_mode(self, entry: Row) -> list[nodes.Node]: ...
    def parsed(self, text: str, entry: Row, *, in_wording: bool = True) -> list[nodes.Node]: ...


#: The headings of the columns that are not a field's.
HEADINGS: dict[str, Callable[[], str]] = {
    OPERATION: lambda: _("Operation"),
    BACKEND_COLUMN: lambda: _("Backend"),
    PASS_COLUMN: lambda: _("Pass"),
    NOTE: lambda: _("Note"),
    MODE: lambda: _("With deterministic algorithms"),
}


def column_names(declared: tuple[Field, ...]) -> tuple[str, ...]:
    """Every name ``:columns:`` takes, the project's fields (*declared*) last."""
    return (*HEADINGS, *(field.option for field in fields(declared) if field.column))


def field_names(declared: tuple[Field, ...]) -> tuple[str, ...]:
    """Every name ``:having:`` takes: the options of the fields an entry
    keeps and exports, the project's (*declared*) last."""
    return tuple(field.option for field in fields(declared) if field.attribute and field.json_key)


def default_columns(entries: list[Row], declared: tuple[Field, ...]) -> list[str]:
    """The columns of a table without ``:columns:``: :data:`ALWAYS`, what
    deterministic mode does if an entry says it, and each field with a
    column where an entry has a value."""
    shown = list(ALWAYS)
    if any(entry.note.deterministic_algorithms for entry in entries):
        shown.append(MODE)
    shown += [
        field.option
        for field in fields(declared)
        if field.column and any(entry.note.value(field) for entry in entries)
    ]
    return shown


def heading(name: str, declared: tuple[Field, ...]) -> str:
    """The heading of the column *name*."""
    if name in HEADINGS:
        return HEADINGS[name]()
    field = by_option(name, declared)
    return field.column() if field and field.column else name


def cell_content(
    renderer: Renderer, entry: Row, name: str, declared: tuple[Field, ...]
) -> list[nodes.Node]:
    """What the column *name* shows of *entry*."""
    note = entry.note
    if name == OPERATION:
        return [renderer.page_link(entry.label, entry.target, literal=bool(note.operation))]
    if name == MODE:
        return renderer.deterministic_mode(entry)
    if name == NOTE:
        return [nodes.literal(note.directive, note.directive)]
    if name in (BACKEND_COLUMN, PASS_COLUMN):
        return [nodes.Text(note.backend if name == BACKEND_COLUMN else note.affected_pass)]
    field = by_option(name, declared)
    if field is None:
        return []
    # A project's field is in no note's wording: its problems are said here.
    parse = (
        functools.partial(renderer.parsed, entry=entry, in_wording=False)
        if field in declared
        else None
    )
    return shown_values(note.value(field), parse)


def shown_values(
    value: str | tuple[str, ...], parse: Callable[[str], list[nodes.Node]] | None = None
) -> list[nodes.Node]:
    """A field's value (its values, if several, separated by commas): each
    a literal, or inline text *parse* parses (a project's field's, parsed
    where the entry is written, as ``:when:``)."""
    shown: list[nodes.Node] = []
    values = ((value,) if value else ()) if isinstance(value, str) else value
    for index, each in enumerate(values):
        if index:
            shown.append(nodes.Text(", "))
        shown += parse(each) if parse else [nodes.literal(each, each)]
    return shown


def row_id(entry: Row, taken: Mapping[str, object]) -> str:
    """The id making a chosen table's row a hyperlink target: the
    directive's name and the operation's (its label, for a page's note),
    numbered when the page has it already (*taken*: the page's ids)."""
    return free_id(nodes.make_id(f"{LIST_DIRECTIVE}-{entry.label}"), taken)


def free_id(base: str, taken: Mapping[str, object]) -> str:
    """*base*, numbered (``base-2``, …) when *taken* (a page's ids) has it."""
    found, number = base, 1
    while found in taken:
        number += 1
        found = f"{base}-{number}"
    return found
