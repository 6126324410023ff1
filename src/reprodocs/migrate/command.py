"""``python -m reprodocs migrate``: its arguments, and the run, one straight
pipeline whose phases each run once: read (here), find
(:mod:`~reprodocs.migrate.finding`), plan (:mod:`~reprodocs.migrate.planning`),
write (here) and report (:mod:`~reprodocs.migrate.messages`). All of
migrate's reading and writing happens here, at the two ends; the phases
between are text to text. The dry run and ``--write`` share every phase
but the writing."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, TextIO

from reprodocs.base.files import remove_stale_temporaries
from reprodocs.base.i18n import __
from reprodocs.migrate import messages
from reprodocs.migrate.alerts import Alerts, read_alerts
from reprodocs.migrate.finding import Failed, Found, SourceText, failed, find
from reprodocs.migrate.matching import ListsOutcome
from reprodocs.migrate.messages import Message
from reprodocs.migrate.model import Migration, ParseError, UnreadFile
from reprodocs.migrate.owners import module_name
from reprodocs.migrate.planning import Planned, plan
from reprodocs.migrate.settings import DEFAULT_WORDING, Settings
from reprodocs.migrate.sources import (
    TEMPORARY_MARK,
    NotRewritten,
    Source,
    migrate_source,
    read_leniently,
    read_source,
    refusal,
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
                "nondeterministic-ops directives generating them from the notes, and "
                "Markdown catalog tables as entries and the directive generating them. "
                "Without --write, print a unified diff and change nothing. Exit status: "
                "0 when no legacy note is left, 1 when some are (or items of the lists "
                "are kept by hand), 2 when a file could not be read, parsed or written."
            )
        ),
    )
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help=str(__("a .rst, .md or .py file, or a directory"))
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
class _Read:
    """What the read phase gives: in the order found, each file holding
    something (read, and found what it holds) or what to say of a path;
    every Python file read (the docstrings are found there); the files that
    could not be read or parsed, or whose contents are unknown."""

    found: list[SourceText | Message] = field(default_factory=list)
    python_files: list[SourceText] = field(default_factory=list)
    unread: list[UnreadFile] = field(default_factory=list)

    @property
    def files(self) -> list[SourceText]:
        return [file for file in self.found if isinstance(file, SourceText)]


class _Written(NamedTuple):
    """What the write phase did with a file: what to say of it, and where
    its lines went (if written)."""

    said: list[Message]
    moved: dict[int, int]


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
    to notes in any file; the plan is made once, for all files, and then
    written (:func:`_write_all`); the lists' report follows each file's
    notices, with the lines of the file as it is after the run.

    The exit status: 0 when no legacy note is left (none was found, or all were
    written); 1 when some are left (the diff shows them, or they are reported
    as left as is, or items of the lists are kept by hand); 2 when some file
    could not be read, parsed or written. A file that could not be read or
    parsed holds back every item of the lists it may decide (kept by hand).
    """
    stderr = stderr or sys.stderr
    phases = _read_find_plan(list(paths), Settings(wording), write, alerts_from, stderr)
    read, found, alerts, planned = phases
    written = _write_all(read, planned) if write else _diff_all(read, planned)
    said = [messages.source_not_read(error) for error in alerts.errors] if alerts else []
    for entry in [
        *read.found,
        *(failure.message for failure in found.failed),
        *_given(read, planned),
    ]:
        if isinstance(entry, Message):
            said.append(entry)
            continue
        file_written = written.get(entry.path, _Written([], {}))
        said += file_written.said
        said += _lists_report(entry.path, planned.outcome, file_written.moved)
    if planned.catalog_fields:
        said.append(messages.fields_to_declare(planned.catalog_fields))
    return messages.say(said, stdout or sys.stdout, stderr)


def survey(
    paths: Iterable[str], wording: str = DEFAULT_WORDING, alerts_from: Iterable[str] = ()
) -> ListsOutcome:
    """The lists' migration of the files at *paths*, decided and not made
    (what files that cannot be read or parsed may decide is held back), with
    the alerts the sources at *alerts_from* tie: the dry run's plan."""
    phases = _read_find_plan(list(paths), Settings(wording), False, alerts_from, sys.stderr)
    return phases.planned.outcome


class _Phases(NamedTuple):
    """What the phases before writing give."""

    read: _Read
    found: Found
    alerts: Alerts | None
    planned: Planned


def _read_find_plan(
    paths: list[str], settings: Settings, write: bool, alerts_from: Iterable[str], progress: TextIO
) -> _Phases:
    """The phases before writing, each once: the files at *paths* read
    (with *write*, each asked whether it can be replaced), what they hold
    found, and the plan made."""
    read = _read_all(paths, settings, write)
    found = find(read.files, read.python_files, read.unread)
    alerts = _alerts(list(alerts_from), progress)
    given = {docstring.path for docstring in found.docstrings.values()}
    files = read.files
    listed = {file.path for file in files}
    files += [file for file in read.python_files if file.path in given - listed]
    return _Phases(read, found, alerts, plan(found, files, alerts, settings))


def _alerts(paths: list[str], progress: TextIO) -> Alerts | None:
    """What the sources at *paths* raise and their tests expect; None without any."""
    return read_alerts(paths, progress) if paths else None


def _given(read: _Read, planned: Planned) -> list[SourceText]:
    """The files the plan gave entries to that hold nothing else."""
    holding = {file.path for file in read.files}
    python = {file.path: file for file in read.python_files}
    return [python[path] for path in planned.given_entries if path not in holding]


def _read_all(paths: list[str], settings: Settings, write: bool) -> _Read:
    """The read phase: every file at *paths*, in order, read and found
    what it holds without the lists' plan, or what to say of it. With
    *write*, each directory is first rid of the temporary files a killed
    run left, and each file asked whether it can be replaced."""
    read = _Read()
    cleaned: set[Path] = set()
    for source in source_files(paths):
        if source.not_followed:
            read.found.append(messages.not_followed(source.path, source.not_followed))
        elif source.problem:
            read.found.append(messages.cannot_migrate(source.path, source.problem))
            read.unread += [UnreadFile(source.path, None, None)] if source.unseen else []
        else:
            target = Path(os.path.realpath(source.path))  # a symbolic link given: its file
            if write and target.parent not in cleaned:
                remove_stale_temporaries(target.parent, TEMPORARY_MARK)
                cleaned.add(target.parent)
            file = _read(source, target, settings, write)
            if isinstance(file, Failed):
                read.found.append(file.message)
                read.unread.append(file.unread)
                continue
            if file.holds_something():
                read.found.append(file)
            if file.module is not None:
                read.python_files.append(file)
    return read


def _read(source: Source, target: Path, settings: Settings, write: bool) -> SourceText | Failed:
    """A file read, and found what it holds without the lists' plan; with
    *write*, why it cannot be replaced, if it cannot."""
    path = source.path
    try:
        stat_when_read = os.stat(target)
        text, encoding = read_source(path)
        module = module_name(path) if path.suffix == ".py" else None
        migration = migrate_source(path, text, settings, module)
    except ParseError as error:
        return failed(path, error.line, error.message, read_leniently(path))
    except (OSError, UnicodeError) as error:
        return failed(path, None, error, read_leniently(path))
    refused = refusal(target, stat_when_read) if write else None
    return SourceText(path, target, stat_when_read, text, encoding, module, migration, refused)


def _diff_all(read: _Read, planned: Planned) -> dict[Path, _Written]:
    """The dry run's end: each file's change as a diff, and its notices."""
    done: dict[Path, _Written] = {}
    for file in [*read.files, *_given(read, planned)]:
        migration = planned.migrations.get(file.path, file.migration)
        said = []
        if migration.text != file.text:
            said.append(messages.diff(file.path, file.text, migration.text, migration.moved))
        done[file.path] = _Written(said + _notices(file, migration, {}), {})
    return done


def _write_all(read: _Read, planned: Planned) -> dict[Path, _Written]:
    """The write phase: each file's new text written, what it says of
    each file and where its lines went. A file whose plan relies on
    another file's (its lists' items leave them for notes and entries
    there) is written after it, and not at all if that file could not be:
    its items stay where they are until a later run."""
    files = [*read.files, *_given(read, planned)]
    order = sorted(files, key=lambda file: file.path in planned.relies_on)
    done: dict[Path, _Written] = {}
    not_written: set[Path] = set()
    for file in order:
        migration = planned.migrations.get(file.path, file.migration)
        problem: object = planned.refused.get(file.path)
        blocking = sorted(planned.relies_on.get(file.path, set()) & not_written)
        if problem is None and blocking and migration.text != file.text:
            problem = __(
                "its lists' plan relies on %s, which could not be written (run migrate again)"
            ) % ", ".join(map(str, blocking))
        said: list[Message] = []
        moved: dict[int, int] = {}
        try:
            if problem is not None:
                raise NotRewritten(problem)
            if migration.text != file.text:
                write_atomically(file.target, migration.text, file.encoding, file.stat_when_read)
                shown = f"{file.path} -> {file.target}" if file.path.is_symlink() else file.path
                said.append(messages.rewrote(shown))
                moved = migration.moved
        except (NotRewritten, OSError, UnicodeError) as error:
            not_written.add(file.path)
            done[file.path] = _Written([messages.cannot_migrate(file.path, error)], {})
            continue
        done[file.path] = _Written(said + _notices(file, migration, moved), moved)
    return done


def _notices(file: SourceText, migration: Migration, moved: dict[int, int]) -> list[Message]:
    """What the file's migration left as is, at its lines as written."""
    return [
        messages.at_line(
            file.path,
            moved.get(notice.line, notice.line),
            notice.message,
            messages.LEGACY_NOTES_REMAIN,
        )
        for notice in migration.notices
    ]


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
