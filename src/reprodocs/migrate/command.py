"""``python -m reprodocs migrate``: its arguments, and the run, where all of
migrate's reading and writing happens; the rewriting itself is text to
text, in the modules it calls."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple, TextIO

from reprodocs.base.files import remove_stale_temporaries
from reprodocs.base.i18n import __
from reprodocs.migrate import messages
from reprodocs.migrate.alerts import Alerts, add_alerts, read_alerts
from reprodocs.migrate.docstrings import Docstring, docstrings, may_document
from reprodocs.migrate.matching import ListsOutcome, match_lists
from reprodocs.migrate.messages import Message
from reprodocs.migrate.model import (
    FoundNote,
    HandKeptList,
    Migration,
    Notice,
    ParseError,
    Plan,
    UnreadFile,
)
from reprodocs.migrate.names import names_match, operation_words
from reprodocs.migrate.owners import module_name
from reprodocs.migrate.runtime_text import listings
from reprodocs.migrate.settings import DEFAULT_WORDING, Settings
from reprodocs.migrate.sources import (
    TEMPORARY_MARK,
    NotRewritten,
    Source,
    migrate_file,
    migrate_source,
    read_leniently,
    read_source,
    source_files,
    write_atomically,
)


def wording_set(name: str) -> str:
    """A wording set's name, as ``reprodocs_wording`` takes it."""
    if not re.fullmatch(r"[\w.+-]+", name):
        raise argparse.ArgumentTypeError(str(__("not the name of a wording set: %r") % name))
    return name


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``migrate`` command, added to *commands* (the subparsers of
    ``python -m reprodocs``); it runs :func:`from_arguments`."""
    command = commands.add_parser(
        "migrate",
        help=str(__("rewrite PyTorch's legacy reproducibility notes as directives")),
        description=str(
            __(
                "Rewrite PyTorch 1.4's includes of the note files and PyTorch 2.x's "
                "reproducibility note placeholders as reprodocs directives, and the "
                "two lists of torch.use_deterministic_algorithms' docstring as "
                "nondeterministic-ops directives generating them from the notes. "
                "Without --write, print a unified diff and change nothing. Exit status: "
                "0 when no legacy note is left, 1 when some are (or items of the lists "
                "are kept by hand), 2 when a file could not be read, parsed or written."
            )
        ),
    )
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help=str(__("a .rst or .py file, or a directory"))
    )
    command.add_argument(
        "--write", action="store_true", help=str(__("rewrite the files instead of printing a diff"))
    )
    command.add_argument(
        "--wording",
        type=wording_set,
        default=DEFAULT_WORDING,
        metavar="SET",
        help=str(
            __(
                "the site's wording set (its reprodocs_wording; default: %(default)s): "
                "a rewritten note whose words were another set's gets :wording:"
            )
        ),
    )
    command.add_argument(
        "--alerts-from",
        action="append",
        default=[],
        metavar="SOURCE",
        help=str(
            __(
                "read the alerts the sources at SOURCE (a file or a directory; the option "
                "may be given more than once) raise and their tests expect, as check-alerts "
                "reads them, and write each item's where they tie it unambiguously (:alert:)"
            )
        ),
    )
    command.set_defaults(run=from_arguments)


def from_arguments(arguments: argparse.Namespace) -> int:
    """:func:`run`, as the command line asks; its exit status."""
    return run(
        arguments.paths,
        write=arguments.write,
        wording=arguments.wording,
        alerts_from=arguments.alerts_from,
    )


@dataclass
class _File:
    """A file read, with its migration without the lists' plan."""

    path: Path
    #: The file itself (*path* may be a symbolic link given), and its stat when read.
    target: Path
    stat_when_read: os.stat_result
    text: str
    encoding: str
    migration: Migration


class _Failed(NamedTuple):
    """A file that could not be read or parsed: what to say of it, and what
    it holds back (:func:`~reprodocs.migrate.matching.held_by`)."""

    message: Message
    unread: UnreadFile


def _failed(path: Path, line: int | None, reason: object) -> _Failed:
    """The file *path*, which could not be read or parsed (at *line*) for *reason*."""
    text = read_leniently(path)
    words = operation_words(text) if text is not None else None
    location = path if line is None else f"{path}:{line}"
    return _Failed(messages.cannot_migrate(location, reason), UnreadFile(path, line, words))


def run(
    paths: Iterable[str],
    write: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    wording: str = DEFAULT_WORDING,
    alerts_from: Iterable[str] = (),
) -> int:
    """Migrate the files at *paths*: print a unified diff of each change, or
    with *write* make it; report what is left as is and every file that cannot
    be read, parsed or written, on *stderr*, and go on. *wording* is the
    site's wording set (its ``reprodocs_wording``); the sources at
    *alerts_from* tie the alerts written (:mod:`~reprodocs.migrate.alerts`).

    Every file is read first, so that the items of the lists can be matched
    to notes in any file (:func:`match_lists`); the lists' report follows
    each file's notices, with the lines of the file as it is after the run.

    The exit status: 0 when no legacy note is left (none was found, or all were
    written); 1 when some are left (the diff shows them, or they are reported
    as left as is, or items of the lists are kept by hand); 2 when some file
    could not be read, parsed or written. A file that could not be read or
    parsed holds back every item of the lists it may decide (kept by hand).
    """
    settings = Settings(wording)
    paths = list(paths)
    found, unread = _read_all(paths, settings, write)
    files = [file for file in found if isinstance(file, _File)]
    alerts = _alerts(list(alerts_from), stderr or sys.stderr)
    lists = _Lists(files, paths, alerts, unread)
    found += [failed.message for failed in lists.failed]
    found += _files_given_entries(lists, files, settings)
    said, moved = _migrate_all(found, settings, write, lists)
    said_list = [messages.source_not_read(error) for error in alerts.errors] if alerts else []
    for index, file in enumerate(found):
        said_list += said[index]
        if isinstance(file, _File):
            said_list += _lists_report(file.path, lists.outcome, moved.get(file.path, {}))
    return messages.say(said_list, stdout or sys.stdout, stderr or sys.stderr)


def _migrate_all(
    found: list[_File | Message], settings: Settings, write: bool, lists: _Lists
) -> tuple[dict[int, list[Message]], dict[Path, dict[int, int]]]:
    """Each file found migrated: what to say of it (by its index), and where
    the lines of each file written went."""
    # The files whose notes get options are written before those holding the
    # lists: an item leaves its list only once its note says what it said.
    holding_lists = {found_list.path for found_list in lists.lists}
    order = sorted(
        range(len(found)),
        key=lambda index: getattr(found[index], "path", None) in holding_lists,
    )
    said: dict[int, list[Message]] = {}
    moved: dict[Path, dict[int, int]] = {}
    for index in order:
        file = found[index]
        if isinstance(file, Message):
            said[index] = [file]
        else:
            said[index], written = _migrate(file, settings, write, lists)
            if written:
                moved[file.path] = written
    return said, moved


def survey(
    paths: Iterable[str], wording: str = DEFAULT_WORDING, alerts_from: Iterable[str] = ()
) -> ListsOutcome:
    """The lists' migration of the files at *paths*, decided and not made
    (what files that cannot be read or parsed may decide is held back), with
    the alerts the sources at *alerts_from* tie."""
    paths = list(paths)
    found, unread = _read_all(paths, Settings(wording), write=False)
    files = [file for file in found if isinstance(file, _File)]
    return _Lists(files, paths, _alerts(list(alerts_from), sys.stderr), unread).outcome


def _alerts(paths: list[str], progress: TextIO) -> Alerts | None:
    """What the sources at *paths* raise and their tests expect; None without any."""
    return read_alerts(paths, progress) if paths else None


def _docstrings(
    paths: list[str], lists: Iterable[HandKeptList], unread: Iterable[UnreadFile]
) -> tuple[dict[str, Docstring], list[_Failed]]:
    """The docstrings, in the Python files at *paths*, of the operations
    the items of *lists* name, by those names: one naming the operation
    exactly before one a package re-exports (the first of equals); and the
    files that may hold some but cannot be parsed (those already *unread* aside)."""
    operations = {item.operation for found in lists for item in found.items if item.operation}
    short_names = {name.rpartition(".")[2] for name in operations}
    found: dict[str, tuple[int, Docstring]] = {}
    failed: list[_Failed] = []
    passed_over = {file.path for file in unread}
    for source in source_files(paths) if operations else ():
        if source.problem or source.not_followed or source.path.suffix != ".py":
            continue
        if source.path in passed_over:
            continue  # reported where the file is read
        try:
            text, _ = read_source(source.path)
            if not may_document(text, short_names):
                continue
            module, package = module_name(source.path)
            documented = docstrings(text, source.path, module, package, operations)
        except ParseError as error:
            failed.append(_failed(source.path, error.line, error.message))
            continue
        except (OSError, UnicodeError) as error:
            failed.append(_failed(source.path, None, error))
            continue
        for docstring in documented:
            for name in operations:
                level = names_match(name, docstring.operation)
                if level > found.get(name, (0, docstring))[0]:
                    found[name] = (level, docstring)
    return {name: docstring for name, (_, docstring) in found.items()}, failed


def _files_given_entries(
    lists: _Lists, files: list[_File], settings: Settings
) -> list[_File | Message]:
    """The files the plan adds entries to that were not read for anything else."""
    read = {file.path for file in files}
    added: list[_File | Message] = []
    for path, plan in lists.outcome.plans.items():
        if plan.entries and path not in read:
            file = _read(Source(path), Path(os.path.realpath(path)), settings)
            added.append(file.message if isinstance(file, _Failed) else file)
    return added


def _found(files: Iterable[Migration]) -> tuple[list[FoundNote], list[HandKeptList], int]:
    """The notes, the hand-kept lists and how many list directives *files* have."""
    files = list(files)
    return (
        [note for migration in files for note in migration.notes],
        [found for migration in files for found in migration.lists],
        sum(migration.list_directives for migration in files),
    )


def _read_all(
    paths: Iterable[str], settings: Settings, write: bool
) -> tuple[list[_File | Message], list[UnreadFile]]:
    """Every file at *paths*, in order: read and migrated (without the lists'
    plan), or what to say of it; the files with nothing in them passed over.
    And the files that could not be read or parsed, or whose contents are
    unknown (a directory not listed). With *write*, each directory is first
    rid of the temporary files a killed run left."""
    found: list[_File | Message] = []
    unread: list[UnreadFile] = []
    cleaned: set[Path] = set()
    for source in source_files(paths):
        if source.not_followed:
            found.append(messages.not_followed(source.path, source.not_followed))
        elif source.problem:
            found.append(messages.cannot_migrate(source.path, source.problem))
            unread += [UnreadFile(source.path, None, None)] if source.unseen else []
        else:
            target = Path(os.path.realpath(source.path))  # a symbolic link given: its file
            if write and target.parent not in cleaned:
                remove_stale_temporaries(target.parent, TEMPORARY_MARK)
                cleaned.add(target.parent)
            file = _read(source, target, settings)
            if isinstance(file, _Failed):
                found.append(file.message)
                unread.append(file.unread)
            elif _holds_something(file):
                found.append(file)
    return found, unread


def _read(source: Source, target: Path, settings: Settings) -> _File | _Failed:
    path = source.path
    try:
        stat_when_read = os.stat(target)
        text, migration, encoding = migrate_file(path, settings)
    except ParseError as error:
        return _failed(path, error.line, error.message)
    except (OSError, UnicodeError) as error:
        return _failed(path, None, error)
    return _File(path, target, stat_when_read, text, encoding, migration)


def _holds_something(file: _File) -> bool:
    """The file has something to change, report or match."""
    migration = file.migration
    return bool(
        migration.text != file.text or migration.notices or migration.notes or migration.lists
    )


class _Lists:
    """The lists' matching over the files of a run, decided again whenever a
    note's options turn out not to be written."""

    def __init__(
        self,
        files: list[_File],
        paths: list[str],
        alerts: Alerts | None,
        unread: list[UnreadFile],
    ) -> None:
        self.notes, self.lists, self.list_directives = _found(file.migration for file in files)
        #: The files holding list directives whose content is what help() shows.
        self.runtime_lists = [file.path for file in files if file.migration.runtime_lists]
        self.docstrings, self.failed = _docstrings(paths, self.lists, unread)
        #: The files that could not be read or parsed: what they may decide is held back.
        self.unread = [*unread, *(failed.unread for failed in self.failed)]
        self.alerts = alerts
        #: The places (file, line) whose options or entries could not be written.
        self.unwritten: set[tuple[Path, int]] = set()
        self.outcome = self._match()

    def _match(self) -> ListsOutcome:
        outcome = match_lists(
            self.notes,
            self.lists,
            self.list_directives,
            self.unwritten,
            self.docstrings,
            self.unread,
        )
        if self.alerts is not None:
            add_alerts(outcome, self.notes, self.alerts)
        # The lists' content (what help() shows) in line with the registry;
        # not while a file that could not be read may hold some of it.
        if self.runtime_lists and not self.unread:
            listed = listings(self.notes, outcome.plans)
            for path in self.runtime_lists:
                outcome.plan(path).listed = listed
        return outcome

    def plan(self, path: Path) -> Plan | None:
        """The plan for a file; None where it changes nothing."""
        plan = self.outcome.plans.get(path)
        return plan if plan else None

    def not_written(self, path: Path, lines: Iterable[int] | None = None) -> None:
        """The notes and docstrings of *path* on *lines* (or all) take no
        options or entries."""
        if lines is None:
            places = [(note.path, note.line) for note in self.notes]
            places += [(found.path, found.line) for found in self.docstrings.values()]
            lines = [line for where, line in places if where == path]
        self.unwritten |= {(path, line) for line in lines}
        self.outcome = self._match()


def _migrate(
    file: _File, settings: Settings, write: bool, lists: _Lists
) -> tuple[list[Message], dict[int, int]]:
    """The file migrated with the lists' plan, written or shown as a diff;
    what to say of it, and where its lines went (if written)."""
    migration = _with_plan(file, settings, lists)
    said_list = []
    moved: dict[int, int] = {}
    try:
        if migration.text != file.text and write:
            write_atomically(file.target, migration.text, file.encoding, file.stat_when_read)
            shown = f"{file.path} -> {file.target}" if file.path.is_symlink() else file.path
            said_list.append(messages.rewrote(shown))
            moved = migration.moved
        elif migration.text != file.text:
            said_list.append(messages.diff(file.path, file.text, migration.text, migration.moved))
    except (NotRewritten, OSError, UnicodeError) as error:
        # Nothing of the plan is written there: not what was planned, nor
        # what would be planned there instead.
        lists.not_written(file.path)
        return [messages.cannot_migrate(file.path, error)], {}
    for notice in migration.notices:
        line = moved.get(notice.line, notice.line)
        said_list.append(
            messages.at_line(file.path, line, notice.message, messages.LEGACY_NOTES_REMAIN)
        )
    return said_list, moved


def _with_plan(file: _File, settings: Settings, lists: _Lists) -> Migration:
    """The file's migration with the lists' plan. A note or docstring that
    could not take what the plan gives it (its string's escapes) is
    reported, and the lists matched again without it, until the plan holds."""
    unwritable: list[Notice] = []
    migration, missing = _apply(file, settings, lists.plan(file.path))
    while missing:
        message = __(
            "left as is: the options or entries planned here would change its string's escapes"
        )
        unwritable += [Notice(line, str(message)) for line in sorted(missing)]
        lists.not_written(file.path, missing)
        migration, missing = _apply(file, settings, lists.plan(file.path))
    migration.notices += unwritable
    return migration


def _apply(file: _File, settings: Settings, plan: Plan | None) -> tuple[Migration, set[int]]:
    """The file's migration with *plan*, and the lines of the notes and
    docstrings the plan gives options or entries that were left as is."""
    if plan is None:
        return file.migration, set()
    migration = migrate_source(file.path, file.text, replace(settings, plan=plan))
    planned = set(plan.options) | set(plan.entries)
    written = {note.line for note in migration.notes} | set(migration.entries_added)
    return migration, planned - written


def _lists_report(path: Path, outcome: ListsOutcome, moved: dict[int, int]) -> list[Message]:
    """The lists' report on a file, at its lines as written."""
    return [
        messages.at_line(
            path,
            moved.get(found.line) or moved.get(found.anchor or found.line, found.line),
            found.message,
            messages.LEGACY_NOTES_REMAIN if found.kept else messages.NOTHING_TO_MIGRATE,
        )
        for found in outcome.reports
        if found.path == path
    ]
