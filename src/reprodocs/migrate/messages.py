"""What a run of migrate says: on standard output, a diff or a file
rewritten; on standard error, what is left as is, what cannot be migrated,
and the lists' report. Each thing said carries the exit status it makes."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple, TextIO

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


#: A difflib opcode: what to do (equal, replace, delete, insert) with which lines.
Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
#: A line, as migrate reads them: its line ending is "\r\n", "\r" or "\n"
#: (not a form feed, as for str.splitlines).
_LINE = re.compile(r"[^\n\r]*(?:\r\n?|\n)|[^\n\r]+")
#: The lines of context around each change.
CONTEXT = 3


def unified_diff(path: Path, old: str, new: str, moved: Mapping[int, int] | None = None) -> str:
    """A unified diff of the file *path*'s text, *old* to *new*: one hunk
    per change (and its context). *moved* says where the old text's lines
    went in the new (the migration's, by line number): each line the same
    on both sides anchors the diff, and only the lines between anchors are
    compared, with difflib but without its junk heuristic (which, on a
    file of more than 200 lines where some repeat, makes the whole file
    one hunk). Without *moved*, the whole text is compared so."""
    a, b = _lines(old), _lines(new)
    groups = list(_Anchored(_opcodes(a, b, moved or {})).get_grouped_opcodes(CONTEXT))
    if not groups:
        return ""
    out = [f"--- {path}\n", f"+++ {path}\n"]
    for group in groups:
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [f" {line}" for line in a[i1:i2]]
                continue
            out += [f"-{line}" for line in a[i1:i2]]
            out += [f"+{line}" for line in b[j1:j2]]
    return "".join(
        line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        for line in out
    )


def _lines(text: str) -> list[str]:
    return _LINE.findall(text)


def _range(start: int, stop: int) -> str:
    """A hunk's range of lines, as unified diffs write it."""
    length = stop - start
    return f"{start + (length > 0)},{length}" if length != 1 else str(start + 1)


def _opcodes(a: list[str], b: list[str], moved: Mapping[int, int]) -> list[Opcode]:
    """The opcodes turning lines *a* into *b*: the lines *moved* pairs that
    are the same (each after the last), equal; between them, what difflib
    finds once the runs of lines equal at either end are set aside."""
    codes: list[Opcode] = []
    i = j = 0  # the first lines after the last anchor
    for old_line, new_line in sorted(moved.items()):
        anchor_i, anchor_j = old_line - 1, new_line - 1
        if not (i <= anchor_i < len(a) and j <= anchor_j < len(b)) or a[anchor_i] != b[anchor_j]:
            continue
        if (anchor_i, anchor_j) != (i, j):
            codes += _between(a, b, (i, anchor_i), (j, anchor_j))
        codes.append(("equal", anchor_i, anchor_i + 1, anchor_j, anchor_j + 1))
        i, j = anchor_i + 1, anchor_j + 1
    return _merged([*codes, *_between(a, b, (i, len(a)), (j, len(b)))])


def _between(
    a: list[str], b: list[str], old: tuple[int, int], new: tuple[int, int]
) -> list[Opcode]:
    """The opcodes turning ``a[slice(*old)]`` into ``b[slice(*new)]``."""
    (i1, i2), (j1, j2) = old, new
    start_i, start_j = i1, j1
    while i1 < i2 and j1 < j2 and a[i1] == b[j1]:
        i1, j1 = i1 + 1, j1 + 1
    end_i, end_j = i2, j2
    while i2 > i1 and j2 > j1 and a[i2 - 1] == b[j2 - 1]:
        i2, j2 = i2 - 1, j2 - 1
    matcher = difflib.SequenceMatcher(None, a[i1:i2], b[j1:j2], autojunk=False)
    changed = matcher.get_opcodes() if i1 < i2 or j1 < j2 else []
    return [
        ("equal", start_i, i1, start_j, j1),
        *((tag, i1 + k1, i1 + k2, j1 + l1, j1 + l2) for tag, k1, k2, l1, l2 in changed),
        ("equal", i2, end_i, j2, end_j),
    ]


def _merged(codes: list[Opcode]) -> list[Opcode]:
    """*codes* without empty ones, runs of equal lines one opcode."""
    merged: list[Opcode] = []
    for code in codes:
        tag, i1, i2, j1, j2 = code
        if i1 == i2 and j1 == j2:
            continue
        if merged and tag == "equal" == merged[-1][0]:
            merged[-1] = ("equal", merged[-1][1], i2, merged[-1][3], j2)
        else:
            merged.append(code)
    return merged


class _Anchored(difflib.SequenceMatcher[str]):
    """difflib's grouping of opcodes into hunks, for opcodes found otherwise."""

    def __init__(self, opcodes: list[Opcode]) -> None:
        super().__init__(None, [], [], autojunk=False)
        self.found = opcodes

    def get_opcodes(self) -> list[Opcode]:
        return list(self.found)


def diff(path: Path, old: str, new: str, moved: Mapping[int, int] | None = None) -> Message:
    """The change migrate would make to a file (*moved*: where its lines
    went, :func:`unified_diff`): legacy notes remain."""
    return Message(unified_diff(path, old, new, moved), LEGACY_NOTES_REMAIN, output=True)


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


def fields_to_declare(fields: list[tuple[str, str]]) -> Message:
    """The declaration of the fields the Markdown catalog tables written as
    entries need (option, title), for the site's conf.py, which migrate
    never edits."""
    lines = [
        f'    {{"option": {json.dumps(option)}, "title": {json.dumps(title, ensure_ascii=False)}, '
        '"kind": "line"},\n'
        for option, title in fields
    ]
    said = __("the catalog tables' entries need these fields declared in conf.py:")
    return Message(f"{said}\nreprodocs_entry_fields = [\n{''.join(lines)}]\n")


def at_line(path: Path, line: int, message: str, status: int) -> Message:
    """*message* on line *line* of a file."""
    return Message(f"{path}:{line}: {message}\n", status)


def say(messages: list[Message], stdout: TextIO, stderr: TextIO) -> int:
    """Write *messages*, in order; the exit status they make."""
    for message in messages:
        (stdout if message.output else stderr).write(message.text)
    return max((message.status for message in messages), default=NOTHING_TO_MIGRATE)
