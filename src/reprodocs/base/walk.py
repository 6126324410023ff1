"""The files under a directory, as the commands search it (migrate,
check-alerts): in name order, hidden directories and ``__pycache__`` not
entered, symbolic links not followed.

A link is passed over in silence only when the search of one of the
directories given reaches the file or directory it points to on its own;
every other link met is said, by name: one leading elsewhere, one leading
nowhere (its target does not exist) and one that loops. A link given as a
path is the caller's: it was named, so it is followed."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from reprodocs.base.i18n import __

if TYPE_CHECKING:
    from collections.abc import Iterator


class Met(NamedTuple):
    """A file met in a directory: to be read, or why not. *problem*: what
    cannot be read (a directory that cannot be listed, a file that is not a
    regular one); *not_followed*: what a symbolic link passed over is;
    *unseen*: what it holds is unknown (a directory that could not be
    listed, a file that could not be looked at), so it may hold anything."""

    path: Path
    problem: str | None = None
    not_followed: str | None = None
    unseen: bool = False
    #: Named as a path, not met in a directory (and so taken whatever its
    #: suffix, each command saying which it reads); *regular*: a regular
    #: file (one met in a directory that is not is a *problem*).
    given: bool = False
    regular: bool = True


def is_skipped(name: str) -> bool:
    """Whether a directory of this name is not entered."""
    return name.startswith(".") or name == "__pycache__"


def files_at(paths: list[str], suffixes: tuple[str, ...]) -> Iterator[Met]:
    """The files at *paths*, in order: each directory searched
    (:func:`files_under`, the directories given its *roots*), each other
    path as given (a symbolic link followed: it was named); a path that
    cannot be looked up, with why (*unseen* unless it does not exist).
    Each once, where first met: a file under two of the paths (a
    directory and one in it, a path given twice) was read twice."""
    seen: set[str] = set()
    for met in _met_at(paths, suffixes):
        key = met_key(met)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        yield met


def met_key(met: Met) -> str | None:
    """What *met* is, wherever met: a file to read, its real path; a link
    not followed or a file with a problem met in a directory, its own path
    (said once); None for a path given with a problem (always said)."""
    if not (met.problem or met.not_followed):
        return os.path.realpath(met.path)
    return None if met.given else f"met {os.path.abspath(met.path)}"


def _met_at(paths: list[str], suffixes: tuple[str, ...]) -> Iterator[Met]:
    """:func:`files_at`'s files, those met twice included."""
    roots = [os.path.realpath(name) for name in paths if os.path.isdir(name)]
    for name in paths:
        path = Path(name)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            yield Met(path, str(__("no such file or directory")), given=True)
            continue
        except OSError as error:
            yield Met(path, error.strerror or str(error), unseen=True, given=True)
            continue
        if stat.S_ISDIR(mode):
            yield from files_under(path, suffixes, roots)
        else:
            yield Met(path, given=True, regular=stat.S_ISREG(mode))


def files_under(top: Path, suffixes: tuple[str, ...], roots: list[str]) -> Iterator[Met]:
    """The files named with one of *suffixes* under the directory *top*, and
    the links not followed; *roots* are the real paths of the directories
    searched (a link into one of them is passed over: its file is found
    there)."""
    try:
        with os.scandir(top) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as error:
        yield Met(top, problem=error.strerror or str(error), unseen=True)
        return
    directories = []
    for entry in entries:
        path = Path(top, entry.name)
        try:
            if entry.is_symlink():
                said = link_not_followed(path, suffixes, roots)
                if said:
                    yield Met(path, not_followed=said)
            elif entry.is_dir(follow_symlinks=False):
                if not is_skipped(entry.name):
                    directories.append(path)
            elif entry.name.endswith(suffixes):
                regular = entry.is_file(follow_symlinks=False)
                yield Met(path) if regular else Met(path, problem=__("not a regular file"))
        except OSError as error:
            yield Met(path, problem=error.strerror or str(error), unseen=True)
    for directory in directories:
        yield from files_under(directory, suffixes, roots)


def link_not_followed(path: Path, suffixes: tuple[str, ...], roots: list[str]) -> str | None:
    """What the symbolic link *path* is, said because it is not followed:
    None for a link whose target the search reaches, or a link to a file
    not named as the files searched (no concern of it)."""
    try:
        is_directory = stat.S_ISDIR(path.stat().st_mode)  # follows the link
    except OSError as error:
        if error.errno == errno.ELOOP:
            return str(__("a symbolic link that loops"))
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return str(__("a symbolic link to %s, which does not exist") % os.path.realpath(path))
        raise
    target = os.path.realpath(path)
    if not (is_directory or path.name.endswith(suffixes)):
        return None
    if is_reached(target, roots, () if is_directory else suffixes):
        return None
    return str(__("a symbolic link to %s") % target)


def is_reached(target: str, roots: list[str], suffixes: tuple[str, ...]) -> bool:
    """Whether the search of one of the directories *roots* (real paths)
    reaches the real path *target* on its own: a directory (*suffixes*
    empty), or a file named with one of *suffixes*."""
    directory = not suffixes
    for root in roots:
        try:
            relative = os.path.relpath(target, root)
        except ValueError:  # on another drive
            continue
        if relative == os.curdir and directory:
            return True
        parts = relative.split(os.sep)
        if parts[0] == os.pardir or relative == os.curdir:
            continue
        if not any(is_skipped(part) for part in (parts if directory else parts[:-1])) and (
            directory or parts[-1].endswith(suffixes)
        ):
            return True
    return False
