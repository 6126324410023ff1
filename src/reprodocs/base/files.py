"""Files a reader may see while they are written: whole, or not at all.

A new text is written to a temporary file beside the file, then renamed over
it. The temporary file is named after the file, with a mark saying whose it
is (``.nondeterministic.json.reprodocs-build.k3x9q_2a``), and locked while it
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
from pathlib import Path

if sys.platform != "win32":
    import fcntl

#: What the name of a build's temporary file holds, between the name of the
#: file whose new text it is and a random part.
BUILD_MARK = ".reprodocs-build."

#: What flock() fails with where the file system has no locks (some network
#: and FUSE file systems): writing goes on unlocked, and nothing is removed.
_NO_LOCKS = frozenset({errno.ENOLCK, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP})


def replace_file(path: Path, text: str) -> None:
    """Write *text* to *path* atomically: to a temporary file beside it, then
    renamed over it, so that a reader sees the old file or the new one,
    whole, and a killed build leaves no half-written file (and the next
    build of the file removes the temporary file a killed one left)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path.parent, BUILD_MARK, path.name)
    descriptor, temporary = create_temporary(path, BUILD_MARK)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.chmod(temporary, 0o666 & ~_umask())  # as open() would create it, not mkstemp's 0600
            if sys.platform == "win32":
                file.close()  # an open file cannot be renamed there
            # The lock is held until the temporary file has the file's name.
            os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


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
