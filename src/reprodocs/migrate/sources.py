"""The source files: found at or under the paths given (:func:`source_files`),
read in their encoding (:func:`read_source`), migrated by their kind
(:func:`migrate_source`), and written back in one step through
:mod:`reprodocs.base.files`, as the same file to its users
(:func:`write_atomically`)."""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

from reprodocs.base.files import replace_file
from reprodocs.base.i18n import __
from reprodocs.base.walk import Met, files_at
from reprodocs.migrate.markdown_tables import migrate_markdown
from reprodocs.migrate.model import Migration, ParseError
from reprodocs.migrate.owners import module_name
from reprodocs.migrate.python import migrate_python
from reprodocs.migrate.rewrite import rewrite_text, worth_reading
from reprodocs.migrate.settings import DEFAULT_SETTINGS, Settings

SUFFIXES = (".rst", ".md", ".py")

#: What the name of a temporary file holds, between the name of the file whose
#: new text it is and a random part: ``.functional.py.reprodocs-migrate.k3x9q_2a``.
TEMPORARY_MARK = ".reprodocs-migrate."


#: A file found at or under the paths given: *problem* is why it cannot be
#: migrated; *not_followed* says what a symbolic link found in a directory,
#: and left alone, is; *unseen*: what it holds is unknown.
Source = Met


def source_files(paths: Iterable[str]) -> Iterator[Source]:
    """The ``.rst``, ``.md`` and ``.py`` files at or under *paths*, in order, each with
    the reason it cannot be used, if any, as :func:`reprodocs.base.walk.files_at`
    finds them: hidden directories and ``__pycache__`` not entered; in a
    directory, a symbolic link not followed (the file it points to is found
    where it is, if it is under one of the directories given, or else the
    link is reported as not followed); a symbolic link given as a path
    followed. A path given must name a regular ``.rst``, ``.md`` or ``.py`` file."""
    for met in files_at(list(paths), SUFFIXES):
        if not met.given or met.problem:
            yield met
        elif met.path.suffix not in SUFFIXES:
            yield Source(met.path, str(__("not a .rst, .md or .py file")))
        elif not met.regular:
            yield Source(met.path, str(__("not a regular file")))
        else:
            yield Source(met.path)


def read_source(path: Path) -> tuple[str, str]:
    """A file's text (line endings untouched) and its encoding: a Python
    file's declared one (PEP 263), UTF-8 for reStructuredText and Markdown."""
    data = path.read_bytes()
    if path.suffix == ".py":
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as error:
            raise ParseError(error.lineno or 1, error.msg) from None
    else:
        encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError as error:
        raise ParseError(data.count(b"\n", 0, error.start) + 1, str(error)) from None


def read_leniently(path: Path) -> str | None:
    """What can be read of a file that could not be read as a source: its
    bytes decoded as UTF-8, whatever they are; None if none could be read."""
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None


def migrate_source(
    path: Path,
    text: str,
    settings: Settings = DEFAULT_SETTINGS,
    module: tuple[str, bool] | None = None,
) -> Migration:
    """The migration of *text*, the file *path*'s (a Python file's *module*
    and whether it is a package: by the folders around it where not given).
    A file that may hold no form migrate reads is not parsed: so a file
    this Python cannot parse (newer syntax, say) is no error there, unless
    the plan adds entries to it. A Markdown file's catalog tables are
    migrated (:mod:`~reprodocs.migrate.markdown_tables`), nothing else of it."""
    if path.suffix == ".md":
        return migrate_markdown(text, settings)
    if not worth_reading(text) and not (settings.plan and settings.plan.entries):
        return Migration(text)
    if path.suffix == ".py":
        name, package = module or module_name(path)
        migration = migrate_python(text, settings, name, package)
    else:
        migration = rewrite_text(text, settings)
    for note in migration.notes:
        note.path = path
    for found in migration.lists:
        found.path = path
    return migration


def migrate_file(path: Path, settings: Settings = DEFAULT_SETTINGS) -> tuple[str, Migration, str]:
    """A file's text, its migration, and its encoding."""
    text, encoding = read_source(path)
    return text, migrate_source(path, text, settings), encoding


class NotRewritten(Exception):
    """A file whose new text is not written, for a reason that is no error of
    the system's (it is read-only, it has other names, ...): it is left as is."""


def write_atomically(
    path: Path, text: str, encoding: str, read: os.stat_result | None = None
) -> None:
    """Replace the content of *path* (of the file it links to, if a symbolic
    link) in one step: readers see the old file or the new one, never a part.
    The new file keeps the owner, group, mode and extended attributes.

    Raise :class:`NotRewritten`, leaving the file as is, when it cannot stay
    the same file to its users (read-only, hard links), cannot keep its
    owner, or has changed since *read*, its stat when it was read.
    """
    target = Path(os.path.realpath(path))
    status = os.stat(target)
    if read is not None and _changed(read, status, metadata=False):
        raise NotRewritten(__("it changed while it was being migrated (run migrate again)"))
    _check_rewritable(target, status)

    def keep_identity(temporary: str) -> None:
        _keep_identity(temporary, status, target)
        if _changed(status, os.stat(target), metadata=True):
            raise NotRewritten(__("it changed while it was being migrated (run migrate again)"))

    replace_file(target, text, encoding=encoding, mark=TEMPORARY_MARK, finish=keep_identity)


def refusal(path: Path, status: os.stat_result) -> str | None:
    """Why the file *path* (stat *status*) cannot be replaced with a new
    text and stay the same file to its users, as :func:`write_atomically`
    would refuse it; None if it can. Asked when it is read, so that a run
    plans nothing there; :func:`write_atomically` asks again."""
    try:
        _check_rewritable(path, status)
    except NotRewritten as error:
        return str(error)
    except OSError as error:
        return str(error)
    return None


def _changed(before: os.stat_result, after: os.stat_result, *, metadata: bool) -> bool:
    """The file was replaced or written to between the two stats (with
    *metadata*, also chmod-ed, chown-ed, ...)."""
    fields = ["st_dev", "st_ino", "st_size", "st_mtime_ns"]
    if metadata:
        fields += ["st_ctime_ns", "st_mode", "st_uid", "st_gid", "st_nlink"]
    return any(getattr(before, name) != getattr(after, name) for name in fields)


def _check_rewritable(path: Path, status: os.stat_result) -> None:
    """Raise :class:`NotRewritten` unless the file at *path* (stat *status*)
    can be replaced with its new text and stay the same file to its users: a
    regular file, writable, with no other name."""
    if not stat.S_ISREG(status.st_mode):
        raise NotRewritten(__("not a regular file"))
    if not status.st_mode & 0o222:
        raise NotRewritten(__("read-only (mode %04o)") % stat.S_IMODE(status.st_mode))
    if not os.access(path, os.W_OK):
        raise NotRewritten(__("no permission to write it"))
    # The new file is made in the directory and renamed over the old: a
    # directory without write permission (even for root, who may write it)
    # says its files are not to be replaced.
    directory = os.stat(path.parent)
    if not directory.st_mode & 0o222:
        message = __("its directory is read-only (mode %04o)")
        raise NotRewritten(message % stat.S_IMODE(directory.st_mode))
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise NotRewritten(__("no permission to write in its directory"))
    if status.st_nlink > 1:
        raise NotRewritten(
            __("it has %d hard links, whose other names would keep the old text") % status.st_nlink
        )


def _keep_identity(temporary: str, status: os.stat_result, original: Path) -> None:
    """Give the new file *temporary* the owner, group, mode and extended
    attributes (ACLs among them) of *original*, whose stat is *status*."""
    if sys.platform != "win32":
        new = os.stat(temporary)
        if (new.st_uid, new.st_gid) != (status.st_uid, status.st_gid):
            try:
                os.chown(temporary, status.st_uid, status.st_gid)
            except PermissionError:
                raise NotRewritten(
                    __(
                        "its owner and group (uid %d, gid %d) cannot be given to a new "
                        "file by this user"
                    )
                    % (status.st_uid, status.st_gid)
                ) from None
    os.chmod(temporary, stat.S_IMODE(status.st_mode))  # after chown, which clears set-id bits
    if sys.platform == "linux":
        _keep_extended_attributes(temporary, original)


def _keep_extended_attributes(temporary: str, original: Path) -> None:
    try:
        names = os.listxattr(original)
    except OSError as error:
        if error.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return
        raise
    for name in names:
        value = os.getxattr(original, name)
        try:
            if os.getxattr(temporary, name) == value:
                continue  # given to the new file already (an SELinux label, say)
        except OSError:
            pass
        try:
            os.setxattr(temporary, name, value)
        except OSError:
            raise NotRewritten(__("its extended attribute %s cannot be kept") % name) from None
