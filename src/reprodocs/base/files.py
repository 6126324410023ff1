"""Files a reader may see while they are written: whole, or not at all.

A new text is written to a temporary file beside the file, then renamed over
it: the build's files so, and the files migrate rewrites. The temporary file
is named after the file, with a mark saying whose it is
(``.nondeterministic.json.reprodocs-build.k3x9q_2a``), and locked while it
is written (but on Windows): a writer killed before the rename leaves it
unlocked, and the next writer of that file removes it, while those of
writers still running, which hold their lock until the rename, are left.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

if sys.platform != "win32":
    import fcntl

#: What the name of a build's temporary file holds, between the name of the
#: file whose new text it is and a random part.
BUILD_MARK = ".reprodocs-build."

#: What flock() fails with where the file system has no locks (some network
#: and FUSE file systems): writing goes on unlocked, and nothing is removed.
_NO_LOCKS = frozenset({errno.ENOLCK, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP})


def replace_file(
    path: Path,
    text: str,
    *,
    encoding: str = "utf-8",
    mark: str = BUILD_MARK,
    finish: Callable[[str], None] | None = None,
) -> None:
    """Write *text* to *path* atomically: to a temporary file beside it named
    with *mark*, synced to disk, then renamed over it, so that a reader sees
    the old file or the new one, whole, and a killed writer leaves no
    half-written file (and the next writer of the file removes the temporary
    file a killed one left).

    *finish*, called with the temporary file's name before the rename, gives
    the new file what it must have, and may raise to leave *path* as it is;
    without it, the new file gets the mode open() would give it (not
    mkstemp's 0600)."""
    data = text.encode(encoding)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path.parent, mark, path.name)
    descriptor, temporary = create_temporary(path, mark)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
            (finish or _mode_of_a_new_file)(temporary)
            if sys.platform == "win32":
                file.close()  # an open file cannot be renamed there
            # The lock is held until the temporary file has the file's name.
            os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _mode_of_a_new_file(temporary: str) -> None:
    os.chmod(temporary, 0o666 & ~_umask())


def _umask() -> int:
    # The only way to read it is to set it; set back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def create_temporary(path: Path, mark: str) -> tuple[int, str]:
    """A new temporary file beside *path*, named after it with *mark*, open
    and (but on Windows) locked: a writer that finds it unlocked knows it is
    left over (:func:`remove_stale_temporaries`)."""
    for _ in range(10):
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}{mark}")
        if sys.platform == "win32":
            return descriptor, temporary  # an open file cannot be deleted there
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except OSError as error:
            if error.errno in _NO_LOCKS:
                return descriptor, temporary  # unlocked, but no remover can lock it either
            raise
        with contextlib.suppress(OSError):  # removed by another writer before it was locked
            if os.stat(temporary, follow_symlinks=False).st_ino == os.fstat(descriptor).st_ino:
                return descriptor, temporary
        os.close(descriptor)
    raise OSError(errno.EEXIST, "no temporary file could be created beside it")


def remove_stale_temporaries(directory: Path, mark: str, name: str = "") -> None:
    """Remove the temporary files with *mark* in *directory* (those of the
    file *name* only, if given) that no running writer holds: left by one
    that was killed."""
    prefix = f".{name}{mark}" if name else "."
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for found in names:
        if mark in found and found.startswith(prefix) and not found.endswith(mark):
            _remove_unless_held(directory / found)


def _remove_unless_held(temporary: Path) -> None:
    """Remove *temporary* unless a running writer holds it (its lock; on
    Windows, its being open)."""
    if sys.platform == "win32":
        with contextlib.suppress(OSError):  # open, so in use
            temporary.unlink()
        return
    try:
        descriptor = os.open(temporary, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return  # not ours to open (another user's), or gone
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        # Still the file locked: not renamed by its writer, nor replaced since.
        if os.stat(temporary, follow_symlinks=False).st_ino == status.st_ino:
            temporary.unlink()
    except OSError:
        pass  # locked: a running writer is writing it (or no locks here)
    finally:
        os.close(descriptor)
