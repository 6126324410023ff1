"""Where an entry says it lives: the files and folders its fields' values
name, and where they are among the sources scanned.

An entry that is not an API object (``:label:``, say Megatron-LM's "MoE
token unpermute (combine)") says where it lives in the fields its project
declares (``where``: "``megatron/core/transformer/moe/moe_utils.py``", two
files, a folder, or prose with a path inside: "rejected by
``--deterministic-mode`` (``megatron/training/determinism.py``)"). Its
places are the inline literals of those values (reST's ````…````) that look
like a relative path: a ``/`` in them or a name ending in ``.py``, no space,
not absolute, no ``..``, no URL. Words alone ("open gap") are no place.

A place is found among the directories given to check-alerts (its roots):
relative to a root's parent folders whose last names it starts with
(``megatron/core/…`` under the root ``megatron``), or to the root itself
when its first name is there (``megatron/…`` under the root ``.``). A place
so anchored that does not exist is missing; one anchored to no root is
outside what was scanned, and is not checked."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

#: An inline literal of reST: ````text````, its text neither starting nor
#: ending with a space.
_LITERAL = re.compile(r"``(\S(?:.*?\S)?)``")


def entry_places(values: Iterable[str]) -> tuple[str, ...]:
    """The places the field values *values* (reST inline text) name: each
    inline literal that looks like a relative path, once, in the order
    written."""
    found: dict[str, None] = {}
    for value in values:
        for literal in _LITERAL.findall(value):
            if looks_like_path(literal):
                found.setdefault(literal, None)
    return tuple(found)


def looks_like_path(text: str) -> bool:
    """Whether *text* reads as a relative path: a ``/`` in it, or a name
    ending in ``.py``; no space, not absolute, no ``..``, no URL."""
    if not text or any(character.isspace() for character in text):
        return False
    if text.startswith("/") or "://" in text or ".." in PurePosixPath(text).parts:
        return False
    return "/" in text or text.endswith(".py")


@dataclass(frozen=True)
class Place:
    """A place where the roots were looked in: the path found (absolute;
    None if not found), whether it is a folder, and whether the place is
    under a root (then, not found, it is missing)."""

    text: str
    path: str | None = None
    folder: bool = False
    rooted: bool = False
    #: For a missing ``….py``: the package of that name found in its place
    #: (the module was split), as the place would be written.
    package: str = ""

    @property
    def missing(self) -> bool:
        return self.rooted and self.path is None

    def holds(self, file: str) -> bool:
        """Whether the source *file* (as scanned) is this place or in it."""
        if self.path is None:
            return False
        found = os.path.abspath(file)
        return found == self.path or (self.folder and found.startswith(self.path + os.sep))


def locate(text: str, roots: Iterable[str]) -> Place:
    """The place *text* among the directories *roots* (the sources given;
    files among them are no root)."""
    parts = PurePosixPath(text).parts
    folder_wanted = text.endswith("/")
    rooted, package = False, ""
    for root in roots:
        base = Path(os.path.abspath(root))
        if not parts or not base.is_dir():
            continue
        names = base.parts[1:]  # without the anchor ("/")
        bases = [base.parents[length - 1] for length in range(min(len(parts), len(names)), 0, -1)
                 if parts[:length] == names[-length:]]  # fmt: skip
        if base.joinpath(parts[0]).exists():
            bases.append(base)
        for start in bases:
            rooted = True
            path = start.joinpath(*parts)
            if path.is_dir() or (path.is_file() and not folder_wanted):
                return Place(text, str(path), path.is_dir(), rooted=True)
            if path.suffix == ".py" and path.with_suffix("").is_dir():
                package = f"{text.removesuffix('.py')}/"
    return Place(text, rooted=rooted, package=package)
