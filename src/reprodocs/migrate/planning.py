"""The plan phase of a run (:mod:`~reprodocs.migrate.command`): the lists'
plan (:func:`~reprodocs.migrate.matching.match_lists`) and each file's
migration with it, decided once, before anything is written.

A plan holds only when every note and docstring it gives options or entries
can take them: a note in a string whose escapes the options would change
cannot, nor can any in a file that cannot be replaced (its refusal, known
when it was read). Those are taken out, and the items matched again
without them, until the plan holds; each round is text to text, and the
files of a run are few, so the rounds are too. Nothing is read or written
here: the write phase gets the texts to write and, for each file, the files
its plan relies on."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from reprodocs.base.i18n import __
from reprodocs.migrate.alerts import Alerts, add_alerts
from reprodocs.migrate.finding import Found, SourceText
from reprodocs.migrate.markdown_tables import Written, written_directives
from reprodocs.migrate.matching import ListsOutcome, Place, match_lists
from reprodocs.migrate.model import Catalog, Migration, Notice, Plan
from reprodocs.migrate.runtime_text import listings
from reprodocs.migrate.settings import Settings
from reprodocs.migrate.sources import migrate_source


@dataclass
class Planned:
    """What a run makes of its files: the lists' outcome; each file's
    migration with its plan (by path; a file left out is written as it
    is); the files that cannot be replaced although their plan would change
    them, with why; and the files each file's plan relies on being written
    first (a list's items leave it for notes and entries written there)."""

    outcome: ListsOutcome
    migrations: dict[Path, Migration] = field(default_factory=dict)
    refused: dict[Path, str] = field(default_factory=dict)
    relies_on: dict[Path, set[Path]] = field(default_factory=dict)
    #: The files the plan gave entries to, in the order it first did.
    given_entries: list[Path] = field(default_factory=list)
    #: The fields the Markdown catalog tables written need declared in
    #: ``reprodocs_entry_fields``, as (option, title), in the order first met.
    catalog_fields: list[tuple[str, str]] = field(default_factory=list)


def plan(
    found: Found,
    files: list[SourceText],
    alerts: Alerts | None,
    settings: Settings,
) -> Planned:
    """The lists' plan for *files* (every file the plan may change: those
    holding something and the Python files that may take entries), and
    each file's migration with it."""
    by_path = {file.path: file for file in files}
    unwritten: set[Place] = set()
    refused: dict[Path, str] = {}
    unwritable: dict[Path, list[Notice]] = {}
    given_entries: list[Path] = []
    while True:
        outcome = _match(found, unwritten, alerts)
        given_entries += [p for p, planned in outcome.plans.items() if planned.entries]
        migrations: dict[Path, Migration] = {}
        newly: set[Place] = set()
        for path, file in by_path.items():
            planned = outcome.plans.get(path)
            migration, missing = _apply(file, settings, planned or None)
            if path in refused or (migration.text != file.text and file.refusal):
                refused.setdefault(path, file.refusal or "")
                newly |= _places(found, path) - unwritten
                continue
            if missing:
                unwritable.setdefault(path, [])
                said = __(
                    "left as is: the options or entries planned here would change its string's "
                    "escapes"
                )
                unwritable[path] += [Notice(line, str(said)) for line in sorted(missing)]
                newly |= {(path, line) for line in missing}
            migrations[path] = migration
        if not newly:
            break
        unwritten |= newly
    for path, notices in unwritable.items():
        if path in migrations:
            migrations[path].notices += notices
    given = list(dict.fromkeys(given_entries))
    fields = _catalog(by_path, migrations, settings)
    return Planned(outcome, migrations, refused, _relies_on(outcome), given, fields)


def _catalog(
    by_path: dict[Path, SourceText], migrations: dict[Path, Migration], settings: Settings
) -> list[tuple[str, str]]:
    """The Markdown catalog tables planned, file after file: a file's
    migrated again where the tables of the files before it took a label
    its own take (then left as is and reported) or gave a field it has
    another title, or where another file's tables, or the entries and
    table directives already written in the run's files, take one of its
    fields (:class:`~reprodocs.migrate.model.Catalog`); the fields all of
    them need declared."""
    fields = _catalog_fields(migrations)
    written = _written_directives(by_path) if fields else Written()
    taken = Catalog()
    for path, migration in migrations.items():
        if not migration.tables:
            continue
        elsewhere = tuple(sorted({*_fields_elsewhere(fields, path), *written.fields}))
        if taken != Catalog() or elsewhere or written.chosen:
            catalog = replace(taken, elsewhere=elsewhere, chosen=tuple(sorted(written.chosen)))
            migration = migrate_source(path, by_path[path].text, replace(settings, catalog=catalog))
            migrations[path] = migration
        for table in migration.tables:
            labels = tuple((label, f"{path}:{table.line}") for label in table.labels)
            taken = Catalog((*taken.labels, *labels), (*taken.titles, *table.fields))
    declared: dict[str, str] = {}
    for option, title in taken.titles:
        declared.setdefault(option, title)
    return list(declared.items())


def _catalog_fields(migrations: dict[Path, Migration]) -> dict[Path, frozenset[str]]:
    """The fields (options) of each file's catalog tables written as entries."""
    return {
        path: frozenset(option for table in migration.tables for option, _ in table.fields)
        for path, migration in migrations.items()
        if migration.tables
    }


def _written_directives(by_path: dict[Path, SourceText]) -> Written:
    """The fields the entries already written in the run's files set, and
    those the table directives already written choose their rows by."""
    found = [written_directives(file.text) for file in by_path.values()]
    return Written(
        frozenset().union(*(each.fields for each in found)),
        frozenset().union(*(each.chosen for each in found)),
    )


def _fields_elsewhere(fields: dict[Path, frozenset[str]], path: Path) -> tuple[str, ...]:
    """The fields of the catalog tables of the files other than *path*."""
    return tuple(
        sorted({option for other, own in fields.items() if other != path for option in own})
    )


def _match(found: Found, unwritten: set[Place], alerts: Alerts | None) -> ListsOutcome:
    """The lists matched with the notes and docstrings not *unwritten*."""
    outcome = match_lists(
        found.notes,
        found.lists,
        found.list_directives,
        unwritten,
        found.docstrings,
        found.unread,
    )
    if alerts is not None:
        add_alerts(outcome, found.notes, alerts)
    # The lists' content (what help() shows) in line with the registry;
    # not while a file that could not be read may hold some of it.
    if found.runtime_lists and not found.unread:
        released = {(path, line) for path, p in outcome.plans.items() for line in p.released}
        notes = [note for note in found.notes if (note.path, note.line) not in released]
        listed = listings(notes, outcome.plans)
        for path in found.runtime_lists:
            outcome.plan(path).listed = listed
    return outcome


def _places(found: Found, path: Path) -> set[Place]:
    """The places of the notes and docstrings of the file *path*."""
    places = {(note.path, note.line) for note in found.notes}
    places |= {(docstring.path, docstring.line) for docstring in found.docstrings.values()}
    return {place for place in places if place[0] == path}


def _apply(
    file: SourceText, settings: Settings, planned: Plan | None
) -> tuple[Migration, set[int]]:
    """The file's migration with *planned*, and the lines of the notes and
    docstrings the plan gives options or entries that were left as is."""
    if planned is None:
        return file.migration, set()
    migration = migrate_source(file.path, file.text, replace(settings, plan=planned), file.module)
    wanted = set(planned.options) | set(planned.entries)
    written = {note.line for note in migration.notes} | set(migration.entries_added)
    return migration, wanted - written


def _relies_on(outcome: ListsOutcome) -> dict[Path, set[Path]]:
    """For each file holding a list, the other files whose notes and
    docstrings take what its items said (matched to a note, or given an
    entry in a docstring)."""
    list_of = {id(item): found.path for found in outcome.lists for item in found.items}
    taken = [(item, note.path) for item, note in outcome.matched]
    taken += [(item, docstring.path) for item, docstring in outcome.entries if docstring]
    relies_on: dict[Path, set[Path]] = {}
    for item, path in taken:
        holding = list_of.get(id(item))
        if holding is not None and holding != path:
            relies_on.setdefault(holding, set()).add(path)
    return relies_on
