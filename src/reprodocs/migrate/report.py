"""What a run of migrate says: on standard output, a diff or a file
rewritten; on standard error, what is left as is, what cannot be migrated,
and the lists' report. Each thing said carries the exit status it makes."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TextIO

from reprodocs.base.i18n import __

#: Exit statuses of ``python -m reprodocs migrate``: no legacy note is left
#: (none was found, or all were written); some are left (in the diff,
#: reported as left as is, or items of the lists kept by hand); some file
#: could not be read, parsed or written.
NOTHING_TO_MIGRATE, LEGACY_NOTES_REMAIN, FILE_ERROR = 0, 1, 2


class Message(NamedTuple):
    """A thing said, with its line ending(s); *output*: on standard output,
    else on standard error; *status*: the exit status it makes, at least."""

    text: str
    status: int = NOTHING_TO_MIGRATE
    output: bool = False


@dataclass
class Report:
    """A line of migrate's report on the lists; *kept*: an item left to be
    kept by hand (a legacy line, as a notice is)."""

    path: Path
    line: int
    message: str
    kept: bool = False
    #: The line to report it at where its own is gone from the file as
    #: written (an item whose list became a directive: the list's line).
    anchor: int | None = None


def unified_diff(path: Path, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=str(path),
        tofile=str(path),
    )
    return "".join(
        line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        for line in lines
    )


def diff(path: Path, old: str, new: str) -> Message:
    """The change migrate would make to a file: legacy notes remain."""
    return Message(unified_diff(path, old, new), LEGACY_NOTES_REMAIN, output=True)


def rewrote(shown: object) -> Message:
    return Message(__("rewrote %s") % shown + "\n", output=True)


def cannot_migrate(location: object, reason: object) -> Message:
    return Message(__("%s: cannot migrate it: %s") % (location, reason) + "\n", FILE_ERROR)


def source_not_read(said: str) -> Message:
    """A source of ``--alerts-from`` that could not be read (*said*: which, and why)."""
    return Message(f"{said}\n", FILE_ERROR)


def not_followed(path: Path, link: str) -> Message:
    """A symbolic link passed over: *link* says what it is (:mod:`reprodocs.base.walk`)."""
    return Message(__("%s: not followed: %s") % (path, link) + "\n")


def at_line(path: Path, line: int, message: str, status: int) -> Message:
    """*message* on line *line* of a file."""
    return Message(f"{path}:{line}: {message}\n", status)


def say(messages: list[Message], stdout: TextIO, stderr: TextIO) -> int:
    """Write *messages*, in order; the exit status they make."""
    for message in messages:
        (stdout if message.output else stderr).write(message.text)
    return max((message.status for message in messages), default=NOTHING_TO_MIGRATE)
