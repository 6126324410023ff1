"""The find phase of a run (:mod:`~reprodocs.migrate.command`): over the
files read, the notes, the hand-kept lists and the docstrings of the
operations the lists name. Text to results: no file is read or written
here; what the read phase knows of each file (its text, its module, whether
it can be replaced) comes with it (:class:`SourceText`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from reprodocs.migrate import messages
from reprodocs.migrate.docstrings import Docstring, docstrings, may_document
from reprodocs.migrate.messages import Message
from reprodocs.migrate.model import (
    OP_OPTION,
    FoundNote,
    HandKeptList,
    Migration,
    ParseError,
    UnreadFile,
)
from reprodocs.migrate.names import names_match, operation_words


@dataclass
class SourceText:
    """A file read: its text, what it was when read, and its migration
    without the lists' plan."""

    path: Path
    #: The file itself (*path* may be a symbolic link given), and its stat when read.
    target: Path
    stat_when_read: os.stat_result
    text: str
    encoding: str
    #: A Python file's module and whether it is a package (by the folders
    #: around it, :func:`~reprodocs.migrate.owners.module_name`); None for
    #: reStructuredText.
    module: tuple[str, bool] | None
    migration: Migration
    #: Why it cannot be replaced with a new text (read-only, hard links, ...),
    #: as the read phase of a run with ``--write`` found it; None if it can.
    refusal: str | None = None

    def holds_something(self) -> bool:
        """Whether the file has something to change, report or match."""
        migration = self.migration
        return bool(
            migration.text != self.text or migration.notices or migration.notes or migration.lists
        )


class Failed(NamedTuple):
    """A file that could not be read or parsed: what to say of it, and what
    it holds back (:func:`~reprodocs.migrate.matching.held_by`)."""

    message: Message
    unread: UnreadFile


def failed(path: Path, line: int | None, reason: object, text: str | None) -> Failed:
    """The file *path*, which could not be read or parsed (at *line*) for
    *reason*; *text*: what could be read of it, None if nothing."""
    words = operation_words(text) if text is not None else None
    location = path if line is None else f"{path}:{line}"
    return Failed(messages.cannot_migrate(location, reason), UnreadFile(path, line, words))


@dataclass
class Found:
    """What the files of a run hold: the notes, the hand-kept lists, how
    many list directives there are and which files hold those whose content
    is what help() shows; the docstrings of the operations the lists name
    (by those names); the Python files that may hold some but could not be
    parsed; and every file that could not be read or parsed."""

    notes: list[FoundNote]
    lists: list[HandKeptList]
    list_directives: int
    runtime_lists: list[Path]
    docstrings: dict[str, Docstring] = field(default_factory=dict)
    failed: list[Failed] = field(default_factory=list)
    unread: list[UnreadFile] = field(default_factory=list)


def find(
    files: Iterable[SourceText], python_files: Iterable[SourceText], unread: Iterable[UnreadFile]
) -> Found:
    """What *files* (those holding something) hold, with the docstrings in
    *python_files* (every Python file read) of the operations their lists
    name; *unread*: the files the read phase could not read or parse."""
    files = list(files)
    found = Found(
        [note for file in files for note in file.migration.notes],
        [found for file in files for found in file.migration.lists],
        sum(file.migration.list_directives for file in files),
        [file.path for file in files if file.migration.runtime_lists],
    )
    # The operations of the lists' items, and of the entries standing in
    # their place (which their docstrings may take now).
    operations = {item.operation for found in found.lists for item in found.items}
    operations |= {note.options.get(OP_OPTION, "") for note in found.notes if note.list_place}
    found.docstrings, found.failed = _docstrings(python_files, operations - {""})
    found.unread = [*unread, *(failure.unread for failure in found.failed)]
    return found


def _docstrings(
    python_files: Iterable[SourceText], operations: set[str]
) -> tuple[dict[str, Docstring], list[Failed]]:
    """The docstrings, in *python_files*, of *operations*, by those names:
    one naming the operation exactly before one a package re-exports (the
    first of equals); and the files that may hold some but cannot be parsed."""
    short_names = {name.rpartition(".")[2] for name in operations}
    best: dict[str, tuple[int, Docstring]] = {}
    failures: list[Failed] = []
    for file in python_files if operations else ():
        if file.module is None or not may_document(file.text, short_names):
            continue
        module, package = file.module
        try:
            documented = docstrings(file.text, file.path, module, package, operations)
        except ParseError as error:
            failures.append(failed(file.path, error.line, error.message, file.text))
            continue
        for docstring in documented:
            for name in operations:
                level = names_match(name, docstring.operation)
                if level > best.get(name, (0, docstring))[0]:
                    best[name] = (level, docstring)
    return {name: docstring for name, (_, docstring) in best.items()}, failures
