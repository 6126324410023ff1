"""Markdown (MyST) catalog tables, as Megatron-LM's determinism catalog
keeps them by hand, written as labelled entries and the
``nondeterministic-ops`` directive generating the table from them.

A GitHub-flavoured pipe table (a header row, a delimiter row with as many
cells, body rows holding a pipe; outside fenced and indented code), as
MyST reads one, is a catalog table when its first
heading starts with "Operation". Each row becomes a
``nondeterministic-entry`` written where the table was: its first cell the
label (its words), each other cell the value of the field its column is
(the heading slugified, as a project declares it in ``reprodocs_entry_fields``),
converted to inline reStructuredText (:mod:`~reprodocs.migrate.markdown_inline`).
The directive that follows shows those columns, the first under its
heading, and the rows having a field no other catalog table of the file,
or of another file of the run, has, nor an entry already written. A table
that cannot be written so (one with no rows, one with a value in a field
a table directive already written chooses its rows by, among them) is
left as it is and reported."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

from reprodocs.base.entry_schema import LABEL
from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import (
    COLUMNS_OPTION,
    ENTRY_DIRECTIVE,
    ENTRY_DIRECTIVES,
    HAVING_OPTION,
    LIST_DIRECTIVE,
    OPERATION_COLUMN,
    OPTION_NAME,
    SEPARATOR,
    taken_names,
)
from reprodocs.migrate.markdown_inline import Unconvertible, plain_text, to_rst
from reprodocs.migrate.model import Catalog, CatalogTable, Migration, Notice
from reprodocs.migrate.settings import DEFAULT_SETTINGS, Settings

#: A line with its line ending.
_LINE = re.compile(r"[^\n\r]*(?:\r\n?|\n)|[^\n\r]+")
#: A fence opening or closing fenced code (CommonMark: up to three spaces).
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
#: A delimiter row's cell.
_DELIMITER_CELL = re.compile(r":?-+:?")
#: A pipe no backslash escapes.
_PIPE = re.compile(r"(?<!\\)\|")
#: A directive's first line: MyST's (a fence of backticks, tildes or
#: colons and the name in braces) or reStructuredText's; its name.
_DIRECTIVE = re.compile(r"\s*(?:(?:`{3,}|~{3,}|:{3,})\{([\w:-]+)\}|\.\.\s+([\w:-]+)::)")
#: An option's line in a directive, either syntax.
_OPTION_LINE = re.compile(r"\s*:([\w-]+):(.*)")
#: The first heading of a catalog table starts so (case aside).
CATALOG_HEADING = "operation"
#: The characters a MyST option's value may not start with unquoted
#: (a quoted or block scalar), and what may not follow a space (a comment).
_QUOTED_START = tuple("'\"|>#")


class _Table(NamedTuple):
    """A pipe table of the text: its first line's index, its last's, its
    headings and rows (cells as written, pipes unescaped)."""

    first: int
    last: int
    headings: list[str]
    rows: list[list[str]]
    #: A line that is not blank and has no pipe follows the last row: MyST
    #: reads it as a row, unless it starts another block.
    followed: bool = False
    #: The spaces its header row is indented by (a table in a list item).
    indent: str = ""

    @property
    def catalog(self) -> bool:
        return plain_text(self.headings[0]).lower().startswith(CATALOG_HEADING)


class _Written(NamedTuple):
    """A table written as entries and a directive: its lines, and what it took."""

    lines: list[str]
    table: CatalogTable


class Written(NamedTuple):
    """What the entries and table directives already written in a text
    take: the options the entries set, the fields the table directives
    choose their rows by (``:having:``)."""

    fields: frozenset[str] = frozenset()
    chosen: frozenset[str] = frozenset()


def written_directives(text: str) -> Written:
    """The entries and table directives written in *text*, MyST or
    reStructuredText (a docstring's too), wherever they are: a fenced
    example counts, which can only leave a table as it is."""
    fields: set[str] = set()
    chosen: set[str] = set()
    lines = text.splitlines()
    for index, line in enumerate(lines):
        opening = _DIRECTIVE.match(line)
        if opening is None:
            continue
        name = opening[1] or opening[2]
        for option, value in _options_after(lines, index):
            if name in ENTRY_DIRECTIVES:
                fields.add(option)
            elif name == LIST_DIRECTIVE and option == HAVING_OPTION:
                chosen |= {part.partition("=")[0].strip() for part in value.split(SEPARATOR)}
    return Written(frozenset(fields), frozenset(chosen))


def _options_after(lines: list[str], index: int) -> list[tuple[str, str]]:
    """The options on the lines after a directive's first line *index*."""
    found = []
    for line in lines[index + 1 :]:
        option = _OPTION_LINE.match(line)
        if option is None:
            break
        found.append((option[1], option[2].strip()))
    return found


def marked(text: str) -> bool:
    """*text* may hold a catalog table."""
    return "|" in text and CATALOG_HEADING in text.lower()


def migrate_markdown(text: str, settings: Settings = DEFAULT_SETTINGS) -> Migration:
    """*text*, Markdown, with each catalog table written as entries and a
    table directive, the others and anything else kept; a catalog table
    that cannot be is kept and reported (a notice)."""
    migration = Migration(text)
    if not marked(text):
        return migration
    lines = _LINE.findall(text)
    ending = next((line[len(line.rstrip("\r\n")) :] for line in lines if line.strip()), "\n")
    tables = [table for table in _tables(lines) if table.catalog]
    written_here = written_directives(text) if tables else Written()
    catalog = replace(
        settings.catalog,
        elsewhere=(*settings.catalog.elsewhere, *sorted(written_here.fields)),
        chosen=(*settings.catalog.chosen, *sorted(written_here.chosen)),
    )
    out: list[str] = []
    at = 0
    for table in tables:
        for index in range(at, table.first):
            migration.moved[index + 1] = len(out) + 1
            out.append(lines[index])
        others = {
            _slug(heading)
            for other in tables
            if other is not table
            for heading in other.headings[1:]
        } | set(catalog.elsewhere)
        written = _written(table, others, catalog, ending)
        at = table.first
        if isinstance(written, Notice):
            migration.notices.append(written)
            continue
        migration.moved[table.first + 1] = len(out) + 1
        out += written.lines
        at = table.last + 1
        migration.tables.append(written.table)
        catalog = _taken(catalog, written.table)
    for index in range(at, len(lines)):
        migration.moved[index + 1] = len(out) + 1
        out.append(lines[index])
    migration.text = "".join(out)
    return migration


def _taken(catalog: Catalog, table: CatalogTable) -> Catalog:
    """*catalog* with what *table* (of this file) took."""
    labels = tuple((label, str(__("line %d") % table.line)) for label in table.labels)
    return replace(
        catalog, labels=(*catalog.labels, *labels), titles=(*catalog.titles, *table.fields)
    )


def _tables(lines: list[str]) -> list[_Table]:
    """The pipe tables of *lines*, outside fenced code."""
    found: list[_Table] = []
    fence = ""
    index = 0
    while index < len(lines):
        line = lines[index].rstrip("\r\n")
        opening = _FENCE.match(line)
        if fence:
            if opening and opening[1][0] == fence[0] and len(opening[1]) >= len(fence):
                fence = "" if not line[opening.end() :].strip() else fence
            index += 1
            continue
        if opening:
            fence = opening[1]
            index += 1
            continue
        table = _table_at(lines, index)
        if table is None:
            index += 1
            continue
        found.append(table)
        index = table.last + 1
    return found


def _table_at(lines: list[str], index: int) -> _Table | None:
    """The pipe table whose header row is line *index*; None if none is."""
    if index + 1 >= len(lines) or "|" not in lines[index]:
        return None
    if len(lines[index]) - len(lines[index].lstrip(" ")) >= 4:
        return None  # indented code
    headings = _cells(lines[index])
    delimiter = _cells(lines[index + 1])
    if len(headings) != len(delimiter) or not all(
        _DELIMITER_CELL.fullmatch(cell) for cell in delimiter
    ):
        return None
    last = index + 1
    rows = []
    while last + 1 < len(lines) and "|" in lines[last + 1]:
        last += 1
        rows.append(_cells(lines[last]))
    followed = last + 1 < len(lines) and bool(lines[last + 1].strip())
    indent = lines[index][: len(lines[index]) - len(lines[index].lstrip(" "))]
    return _Table(index, last, headings, rows, followed, indent)


def _cells(line: str) -> list[str]:
    """A row's cells: split at each pipe no backslash escapes (the
    outer ones left out), ``\\|`` read as ``|``, stripped."""
    row = line.strip()
    row = row.removeprefix("|")
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip().replace("\\|", "|") for cell in _PIPE.split(row)]


def _slug(heading: str) -> str:
    """A heading as a field's option: its words, lower-case, joined by hyphens."""
    return "-".join(re.findall(r"[a-z0-9]+", plain_text(heading).lower()))


def _written(table: _Table, others: set[str], catalog: Catalog, ending: str) -> _Written | Notice:
    """*table* as entries and a table directive; or why it stays as it is."""
    line = table.first + 1
    if table.followed:
        message = __(
            "left as is: line %d, right after its rows, may be a row or not (a blank line between them says)"
        )
        return Notice(line, str(message % (table.last + 2)))
    if not table.rows:
        # Any column would choose its rows (every row has a value): the
        # directive would show the project's other entries with that field,
        # or a sentence saying no operation is noted at all.
        return Notice(line, str(__("left as is: it has no rows to write as entries")))
    try:
        columns = _columns(table, catalog)
        entries = _entries(table, columns, catalog)
        _not_chosen_already(columns, entries, catalog)
    except _LeftAsIs as problem:
        return Notice(line, str(__("left as is: %s") % problem))
    having = next(
        (
            option
            for index, (option, _) in enumerate(columns.fields, start=1)
            if option not in others and all(_cell(row, index).strip() for row in table.rows)
        ),
        None,
    )
    if having is None:
        message = __(
            "left as is: no column has a value in every row and is no other catalog table's "
            "nor an entry's already written (in this file or another of the run), to choose "
            "the rows of its table by (:%s:)"
        )
        return Notice(line, str(message % HAVING_OPTION))
    directive = [
        (COLUMNS_OPTION, f"{SEPARATOR} ".join(columns.shown)),
        (HAVING_OPTION, having),
    ]
    out = [text for entry in entries for text in (*_block(ENTRY_DIRECTIVE, entry), "")]
    out += _block(LIST_DIRECTIVE, directive)
    labels = tuple(entry[0][1] for entry in entries)
    # Indented as the table was: one in a list item stays in it.
    written = [(table.indent + text if text else text) + ending for text in out]
    return _Written(written, CatalogTable(line, labels, columns.fields))


class _LeftAsIs(Exception):
    """Why a catalog table cannot be written as entries."""


class _Columns(NamedTuple):
    """A catalog table's fields (option, title) after its first column,
    and the names its directive's ``:columns:`` gives (a heading where
    the field's title, or the first column's, is not the table's)."""

    fields: tuple[tuple[str, str], ...]
    shown: list[str]


def _columns(table: _Table, catalog: Catalog) -> _Columns:
    """The fields *table*'s columns are, and how its directive names them."""
    first = plain_text(table.headings[0])
    shown = [OPERATION_COLUMN if first == "Operation" else _heading(OPERATION_COLUMN, first)]
    titles = dict(reversed(catalog.titles))  # the first title given a field
    fields: list[tuple[str, str]] = []
    reserved = taken_names()
    for heading in table.headings[1:]:
        title, option = plain_text(heading), _slug(heading)
        if not OPTION_NAME.fullmatch(option):
            raise _LeftAsIs(__("the heading %r makes no option's name") % title)
        if option in reserved or option.replace("-", "_") in reserved:
            raise _LeftAsIs(
                __("the heading %r makes %r, a name of reprodocs' own") % (title, option)
            )
        if option in dict(fields):
            raise _LeftAsIs(__("two headings make the option %r") % option)
        fields.append((option, title))
        declared = titles.get(option, title)
        shown.append(option if declared == title else _heading(option, title))
    return _Columns(tuple(fields), shown)


def _heading(name: str, heading: str) -> str:
    """``name=Heading`` for ``:columns:``; a heading it cannot hold, a problem."""
    if SEPARATOR in heading:
        raise _LeftAsIs(
            __("the heading %r holds a comma, which :%s: cannot") % (heading, COLUMNS_OPTION)
        )
    return f"{name}={heading}"


def _cell(row: list[str], index: int) -> str:
    """A row's cell *index*: empty where the row has fewer cells (as GFM shows it)."""
    return row[index] if index < len(row) else ""


def _entries(table: _Table, columns: _Columns, catalog: Catalog) -> list[list[tuple[str, str]]]:
    """Each row of *table* as an entry's options: its label, then each
    field it has a value in, converted."""
    labelled = dict(catalog.labels)
    entries = []
    for number, row in enumerate(table.rows, start=1):
        if len(row) > len(table.headings):
            raise _LeftAsIs(__("row %d has more cells than the table has columns") % number)
        label = plain_text(_cell(row, 0))
        if not label:
            raise _LeftAsIs(__("row %d has no label (its first cell is empty)") % number)
        if label in labelled:
            raise _LeftAsIs(
                __("the label %r is already an entry's (%s)") % (label, labelled[label])
            )
        labelled[label] = str(__("row %d") % number)
        options = [(LABEL.option, label)]
        for index, (option, _) in enumerate(columns.fields, start=1):
            cell = _cell(row, index)
            try:
                value = to_rst(cell)
            except Unconvertible as problem:
                raise _LeftAsIs(__("row %d: %s") % (number, problem)) from None
            options += [(option, value)] if value else []
        entries.append(options)
    return entries


def _not_chosen_already(
    columns: _Columns, entries: list[list[tuple[str, str]]], catalog: Catalog
) -> None:
    """A problem if an entry of *entries* has a value in a field a table
    directive already written chooses its rows by: it would show the row."""
    for option, _ in columns.fields:
        if option in catalog.chosen and any(option in dict(entry) for entry in entries):
            raise _LeftAsIs(
                __(
                    "a table directive already written chooses its rows by %r (:%s:), "
                    "and would show this table's rows with a value there"
                )
                % (option, HAVING_OPTION)
            )


def _block(directive: str, options: list[tuple[str, str]]) -> list[str]:
    """A MyST directive with *options* and no content, as lines."""
    return [f"```{{{directive}}}", *(f":{name}: {_value(value)}" for name, value in options), "```"]


def _value(value: str) -> str:
    """*value* as a MyST option's: plain, or quoted where MyST would read
    it otherwise (a quote or block scalar, a comment)."""
    if value.startswith(_QUOTED_START) or " #" in value:
        return "'" + value.replace("'", "''") + "'"
    return value
