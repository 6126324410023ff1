"""PyTorch's legacy reproducibility notes rewritten as reprodocs directives
(``python -m reprodocs migrate``).

Two forms are rewritten:

* PyTorch 1.4's ``.. include:: cuda_deterministic_backward.rst`` (and
  ``cuda_deterministic.rst``, ``cudnn_deterministic.rst``, under any relative
  path), in reStructuredText files and in Python string literals;
* PyTorch 2.x's ``{forward_reproducibility_note}``,
  ``{backward_reproducibility_note}`` and ``{cudnn_reproducibility_note}``
  placeholders, in Python string literals. A note block (``Note:`` or
  ``.. note::``) whose whole body is the placeholder becomes the directive,
  which renders the note itself; a placeholder forming a paragraph of its own
  becomes the directive in place.

The rewriting works line by line on the source text; Python files are read
with ``tokenize``, so only the text inside string literals is ever changed.
The replacements hold no brace, so ``.format(**reproducibility_notes, ...)``
calls keep working. Anything that looks like a legacy note but cannot be
rewritten safely is left as is and reported as a :class:`Notice`.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import errno
import io
import os
import re
import stat
import sys
import tempfile
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple, TextIO

from reprodocs.base.i18n import __

if sys.platform != "win32":
    import fcntl

#: The note files PyTorch 1.4 included, and the directive each one becomes.
INCLUDED_NOTES = {
    "cuda_deterministic_backward.rst": "cuda-deterministic-backward",
    "cuda_deterministic.rst": "cuda-deterministic",
    "cudnn_deterministic.rst": "cudnn-deterministic",
}

#: PyTorch 2.x's placeholders (the keys of ``torch._torch_docs.reproducibility_notes``),
#: and the directive each one becomes.
PLACEHOLDERS = {
    "forward_reproducibility_note": "cuda-deterministic",
    "backward_reproducibility_note": "cuda-deterministic-backward",
    "cudnn_reproducibility_note": "cudnn-deterministic",
}

SUFFIXES = (".rst", ".py")

_INCLUDE = re.compile(r"\.\.\s+include::\s+(\S+)\s*$")
_PLACEHOLDER_LINE = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}\s*$")
_ONE_LINE_NOTE = re.compile(r"\.\.\s+note::\s+\{(" + "|".join(PLACEHOLDERS) + r")\}\s*$")
_PLACEHOLDER = re.compile(r"\{+(" + "|".join(PLACEHOLDERS) + r")\}+")
_NOTE_HEADER = re.compile(r"(?:Note:|\.\.\s+note::)\s*$")
_EXPLICIT_MARKUP = re.compile(r"\.\.(?:\s|$)")
_DIRECTIVE = re.compile(r"\.\.\s+(?:[\w-]+:)?([\w-]+)::")
_LINE_ENDING = re.compile(r"(\r\n|\r|\n)")
_NOT_A_COMMENT = re.compile(r"\.\.\s+(?:[\w:.+-]+::|_|\||\[)")

#: Directives whose content is not reStructuredText: nothing in it is rewritten.
LITERAL_DIRECTIVES = frozenset(
    {
        "code",
        "code-block",
        "sourcecode",
        "parsed-literal",
        "literalinclude",
        "math",
        "raw",
        "doctest",
        "testcode",
        "testoutput",
        "testsetup",
        "testcleanup",
        "productionlist",
        "csv-table",
        "graphviz",
        "graph",
        "digraph",
    }
)


@dataclass(frozen=True)
class Notice:
    """A legacy note left as is, because rewriting it could change its meaning."""

    line: int
    message: str


@dataclass
class Migration:
    """A file's text after migration, and what was left as is."""

    text: str
    notices: list[Notice] = field(default_factory=list)


class ParseError(Exception):
    """A file that cannot be read as reStructuredText or Python."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


# The rewriting of reStructuredText lines


def _indent(line: str) -> int:
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _placeholders_in(line: str) -> list[str]:
    """The placeholders a line formats; ``{{...}}`` is a literal brace, not one."""
    return [m[1] for m in _PLACEHOLDER.finditer(line) if m[0].count("{") % 2 == 1]


class _Lines:
    """Lines of reStructuredText (without their line endings) rewritten in one
    pass; ``first_line`` is the number of the first one in the file."""

    def __init__(
        self,
        lines: list[str],
        endings: list[str],
        first_line: int,
        placeholders: bool,
        docstring: bool,
    ) -> None:
        self.lines = lines
        self.endings = endings
        self.first_line = first_line
        self.placeholders = placeholders
        self.indents = [_indent(line) for line in lines]
        if docstring and len(lines) > 1 and lines[0].strip():
            # A docstring's first line follows the quotes; it belongs to the
            # same margin as the lines after it (as in inspect.cleandoc).
            rest = [self.indents[i] for i in range(1, len(lines)) if lines[i].strip()]
            self.indents[0] = min(rest, default=0)
        self.out: list[str] = []  # the new lines, with their endings
        self.notices: list[Notice] = []

    def blank(self, i: int) -> bool:
        return not (0 <= i < len(self.lines)) or not self.lines[i].strip()

    def starts_block(self, i: int) -> bool:
        """Line *i* is not the continuation of a paragraph above it."""
        previous = i - 1
        return (
            self.blank(previous)
            or self.indents[previous] != self.indents[i]
            or bool(_EXPLICIT_MARKUP.match(self.lines[previous].lstrip()))
        )

    def next_non_blank(self, i: int) -> int:
        while i < len(self.lines) and self.blank(i):
            i += 1
        return i

    def notice(self, i: int, message: str) -> None:
        self.notices.append(Notice(self.first_line + i, message))

    def keep(self, i: int) -> None:
        self.out.append(self.lines[i] + self.endings[i])

    def explicit_markup_beside(self, i: int, j: int) -> bool:
        """Line *j* is explicit markup (``..``) indented as line *i*: the two need
        no blank line between them."""
        return (
            not self.blank(j)
            and self.indents[j] == self.indents[i]
            and bool(_EXPLICIT_MARKUP.match(self.lines[j].lstrip()))
        )

    def emit_directive(self, first: int, last: int, directive: str) -> int:
        """``.. directive::`` instead of lines *first* to *last*, indented as
        *first*, set apart by a blank line from text before and after it (not
        from a less indented line above, whose body it is, nor from explicit
        markup beside it); the next line to read."""
        line = self.lines[first]
        indent = line[: len(line) - len(line.lstrip())]
        if (
            self.out
            and self.out[-1].strip()
            and self.indents[first - 1] >= self.indents[first]
            and not self.explicit_markup_beside(first, first - 1)
        ):
            self.out.append(self.endings[first - 1])
        self.out.append(f"{indent}.. {directive}::{self.endings[last]}")
        if not self.blank(last + 1) and not self.explicit_markup_beside(first, last + 1):
            self.out.append(self.endings[last])
        return last + 1

    def rewrite(self) -> list[str]:
        i = 0
        literal_deeper_than: int | None = None
        while i < len(self.lines):
            if literal_deeper_than is not None:
                if self.blank(i) or self.indents[i] > literal_deeper_than:
                    self.keep(i)
                    i += 1
                    continue
                literal_deeper_than = None
            handled = self.include(i) or (self.placeholders and self.placeholder(i))
            if handled:
                i = handled
                continue
            if self.opens_literal_block(i):
                literal_deeper_than = self.indents[i]
            self.keep(i)
            i += 1
        return self.out

    def opens_literal_block(self, i: int) -> bool:
        """Line *i* starts a block whose indented content is not reStructuredText:
        a literal block after ``::``, a comment, a code directive."""
        text = self.lines[i].strip()
        if not _EXPLICIT_MARKUP.match(text):
            return text.endswith("::") and self.blank(i + 1)
        if directive := _DIRECTIVE.match(text):
            return directive[1] in LITERAL_DIRECTIVES
        return not _NOT_A_COMMENT.match(text)

    def include(self, i: int) -> int:
        """PyTorch 1.4's ``.. include:: <note file>``; the next line to read, or 0."""
        line = self.lines[i]
        match = _INCLUDE.match(line.lstrip())
        if not match or PurePosixPath(match[1]).name not in INCLUDED_NOTES:
            return 0
        if not self.starts_block(i):
            self.notice(i, str(__("left as is: this include is part of a paragraph")))
            return 0
        if not self.blank(i + 1) and self.indents[i + 1] > self.indents[i]:
            self.notice(i, str(__("left as is: this include has options or content")))
            return 0
        return self.emit_directive(i, i, INCLUDED_NOTES[PurePosixPath(match[1]).name])

    def placeholder(self, i: int) -> int:
        """PyTorch 2.x's placeholders on line *i*; the next line to read, or 0."""
        line = self.lines[i]
        names = _placeholders_in(line)
        if not names:
            if _NOTE_HEADER.match(line.lstrip()):
                return self.note_block(i)
            return 0
        if self.starts_block(i):
            if match := _PLACEHOLDER_LINE.match(line.lstrip()):
                alone = self.blank(i + 1) or self.indents[i + 1] < self.indents[i]
            elif match := _ONE_LINE_NOTE.match(line.lstrip()):  # the note's whole body?
                after = self.next_non_blank(i + 1)
                alone = after == len(self.lines) or self.indents[after] <= self.indents[i]
            if match and alone:
                return self.emit_directive(i, i, PLACEHOLDERS[match[1]])
        for name in names:
            self.notice(i, __("left as is: {%s} is not a paragraph of its own") % name)
        return 0

    def note_block(self, i: int) -> int:
        """A note block (``Note:``, ``.. note::``) whose body is one placeholder
        becomes the directive; the next line to read, or 0."""
        header = self.lines[i]
        if header.lstrip().startswith("..") and not self.starts_block(i):
            return 0  # a paragraph's text, not a directive
        body = self.next_non_blank(i + 1)
        if body >= len(self.lines) or self.indents[body] <= self.indents[i]:
            return 0
        match = _PLACEHOLDER_LINE.match(self.lines[body].lstrip())
        after = self.next_non_blank(body + 1)
        if not match or (after < len(self.lines) and self.indents[after] > self.indents[i]):
            return 0
        return self.emit_directive(i, body, PLACEHOLDERS[match[1]])


def rewrite_text(
    text: str, first_line: int = 1, *, placeholders: bool = False, docstring: bool = False
) -> Migration:
    """*text* (reStructuredText) with its legacy notes rewritten; its line
    endings are kept. With *placeholders*, PyTorch 2.x's placeholders too; a
    *docstring*'s first line counts as indented like the lines after it."""
    parts = _LINE_ENDING.split(text)
    contents, endings = parts[0::2], [*parts[1::2], ""]
    lines = _Lines(contents, endings, first_line, placeholders, docstring)
    return Migration("".join(lines.rewrite()), lines.notices)


# Files


def migrate_rst(text: str) -> Migration:
    """A reStructuredText file's text, its includes of the note files rewritten."""
    return rewrite_text(text)


def migrate_python(source: str) -> Migration:
    """A Python file's source, the legacy notes in its string literals rewritten.

    Only multi-line string literals (docstrings and the like) are looked at,
    and only through their source text; a literal whose escape sequences would
    make its value read otherwise is left as is and reported.
    """
    try:
        ast.parse(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except SyntaxError as error:
        raise ParseError(error.lineno or 1, error.msg) from None
    except tokenize.TokenError as error:
        message, (line, _) = error.args
        raise ParseError(line, message) from None
    except ValueError as error:  # a null byte, before Python 3.12
        raise ParseError(source.count("\n", 0, source.find("\0")) + 1, str(error)) from None

    # Where tokenize's lines start: after each "\n" (str.splitlines() would
    # also break at a form feed and other characters).
    line_starts = [0, *(match.end() for match in re.finditer("\n", source))]
    pieces, position, notices = [], 0, []
    for token in tokens:
        if token.type != tokenize.STRING:
            continue
        migration = _migrate_literal(token)
        if migration is None:
            continue
        notices += migration.notices
        if migration.text != token.string:
            start = line_starts[token.start[0] - 1] + token.start[1]
            end = line_starts[token.end[0] - 1] + token.end[1]
            pieces += [source[position:start], migration.text]
            position = end
    pieces.append(source[position:])
    return Migration("".join(pieces), notices)


#: A string literal that can hold prose: triple-quoted (f-strings and bytes never do).
_PROSE_LITERAL = re.compile(r"""([rRuU]?)('''|\"\"\")(.*)\2\Z""", re.DOTALL)


def _migrate_literal(token: tokenize.TokenInfo) -> Migration | None:
    """A string literal's token, rewritten; None when it holds no prose (a
    string of one line is code's)."""
    match = _PROSE_LITERAL.match(token.string)
    if not match:
        return None
    prefix, quotes, body = match.groups()
    value = ast.literal_eval(token.string)
    if "\n" not in value:
        return None
    migration = rewrite_text(body, token.start[0], placeholders=True, docstring=True)
    by_value = rewrite_text(value, token.start[0], placeholders=True, docstring=True)
    literal = f"{prefix}{quotes}{migration.text}{quotes}"
    if ast.literal_eval(literal) != by_value.text:
        message = __("left as is: this string's escape sequences change its lines")
        notice = Notice(token.start[0], str(message))
        return Migration(token.string, [notice])
    return Migration(literal, migration.notices)


def read_source(path: Path) -> tuple[str, str]:
    """A file's text (line endings untouched) and its encoding: a Python
    file's declared one (PEP 263), UTF-8 for reStructuredText."""
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


def migrate_file(path: Path) -> tuple[str, Migration, str]:
    """A file's text, its migration, and its encoding. A file that names no
    note file and no placeholder holds no legacy note: it is not parsed, so a
    file this Python cannot parse (newer syntax, say) is no error there."""
    text, encoding = read_source(path)
    if not any(name in text for name in (*INCLUDED_NOTES, *PLACEHOLDERS)):
        return text, Migration(text), encoding
    migrate = migrate_python if path.suffix == ".py" else migrate_rst
    return text, migrate(text), encoding


#: What the name of a temporary file holds, between the name of the file whose
#: new text it is and a random part: ``.functional.py.reprodocs-migrate.k3x9q_2a``.
TEMPORARY_MARK = ".reprodocs-migrate."


class NotRewritten(Exception):
    """A file whose new text is not written, for a reason that is no error of
    the system's (it is read-only, it has other names, ...): it is left as is."""


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


def _create_temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside *path*, named after it, open and (but on
    Windows) locked: a run that finds it unlocked knows it is left over."""
    for _ in range(10):
        descriptor, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}{TEMPORARY_MARK}"
        )
        if sys.platform == "win32":
            return descriptor, temporary  # an open file cannot be deleted there
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            if os.stat(temporary, follow_symlinks=False).st_ino == os.fstat(descriptor).st_ino:
                return descriptor, temporary
        except OSError:  # removed by another run before it was locked: another name
            pass
        os.close(descriptor)
    raise OSError(errno.EEXIST, "no temporary file could be created beside it")


def remove_stale_temporaries(directory: Path) -> None:
    """Remove the temporary files in *directory* that no running migrate
    holds: left by one that was killed."""
    try:
        names = [name for name in os.listdir(directory) if TEMPORARY_MARK in name]
    except OSError:
        return
    for name in names:
        if not name.startswith(".") or name.endswith(TEMPORARY_MARK):
            continue
        temporary = directory / name
        if sys.platform == "win32":
            with contextlib.suppress(OSError):  # open, so in use
                temporary.unlink()
            continue
        try:
            descriptor = os.open(temporary, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue  # not ours to open (another user's), or gone
        try:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                continue
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.stat(temporary, follow_symlinks=False).st_ino == status.st_ino:
                temporary.unlink()
        except OSError:
            pass  # locked: a running migrate is writing it
        finally:
            os.close(descriptor)


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
    data = text.encode(encoding)
    descriptor, temporary = _create_temporary(target)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            _keep_identity(temporary, status, target)
            if _changed(status, os.stat(target), metadata=True):
                raise NotRewritten(__("it changed while it was being migrated (run migrate again)"))
            if sys.platform == "win32":
                stream.close()  # an open file cannot be renamed there
            # The lock is held until the temporary file has the file's name.
            os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class Source(NamedTuple):
    """A file found at or under the paths given: *problem* is why it cannot be
    migrated; *not_followed* says what a symbolic link found in a directory, and
    left alone, points to."""

    path: Path
    problem: str | None = None
    not_followed: str | None = None


def _skipped(name: str) -> bool:
    """A directory the walk does not enter."""
    return name.startswith(".") or name == "__pycache__"


def _walked(target: str, roots: list[str], directory: bool) -> bool:
    """The walk of one of the directories *roots* (real paths) reaches the
    real path *target*, a directory or a file, on its own."""
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
        folders = parts if directory else parts[:-1]
        if not any(_skipped(part) for part in folders) and (
            directory or parts[-1].endswith(SUFFIXES)
        ):
            return True
    return False


def _walk(top: Path, roots: list[str]) -> Iterator[Source]:
    errors: list[OSError] = []  # directories os.walk could not list
    for directory, subdirectories, files in os.walk(top, onerror=errors.append):
        yield from _unlisted(errors, Path(directory))
        subdirectories[:] = sorted(d for d in subdirectories if not _skipped(d))
        links = [d for d in subdirectories if os.path.islink(os.path.join(directory, d))]
        for name in sorted([*links, *(f for f in files if f.endswith(SUFFIXES))]):
            path = Path(directory, name)
            try:
                mode = path.lstat().st_mode
            except OSError as error:
                yield Source(path, error.strerror or str(error))
                continue
            if stat.S_ISLNK(mode):
                target = os.path.realpath(path)
                if not _walked(target, roots, os.path.isdir(target)):
                    yield Source(path, not_followed=target)
            elif not stat.S_ISREG(mode):
                yield Source(path, "not a regular file")
            else:
                yield Source(path)
    yield from _unlisted(errors, top)


def _unlisted(errors: list[OSError], directory: Path) -> Iterator[Source]:
    for error in errors:
        yield Source(Path(error.filename or directory), error.strerror or str(error))
    errors.clear()


def source_files(paths: Iterable[str]) -> Iterator[Source]:
    """The ``.rst`` and ``.py`` files at or under *paths*, in order, each with
    the reason it cannot be used, if any. Hidden directories and
    ``__pycache__`` are not entered. In a directory, a symbolic link is not
    followed: the file it points to is found where it is, if it is under one of
    the directories given, or else the link is reported as not followed. A
    symbolic link given as a path is followed."""
    paths = list(paths)
    roots = [os.path.realpath(name) for name in paths if os.path.isdir(name)]
    for name in paths:
        path = Path(name)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            yield Source(path, str(__("no such file or directory")))
            continue
        except OSError as error:
            yield Source(path, error.strerror or str(error))
            continue
        if stat.S_ISDIR(mode):
            yield from _walk(path, roots)
        elif path.suffix not in SUFFIXES:
            yield Source(path, str(__("not a .rst or .py file")))
        elif not stat.S_ISREG(mode):
            yield Source(path, "not a regular file")
        else:
            yield Source(path)


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


#: Exit statuses of ``python -m reprodocs migrate``.
NOTHING_TO_MIGRATE, LEGACY_NOTES_REMAIN, FILE_ERROR = 0, 1, 2


def run(
    paths: Iterable[str],
    write: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Migrate the files at *paths*: print a unified diff of each change, or
    with *write* make it; report what is left as is and every file that cannot
    be read, parsed or written, on *stderr*, and go on.

    The exit status: 0 when no legacy note is left (none was found, or all were
    written); 1 when some are left (the diff shows them, or they are reported
    as left as is); 2 when some file could not be read, parsed or written.
    """
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    status = NOTHING_TO_MIGRATE
    cleaned: set[Path] = set()  # the directories rid of stale temporary files

    def cannot_migrate(location: object, reason: object) -> None:
        nonlocal status
        print(__("%s: cannot migrate it: %s") % (location, reason), file=stderr)
        status = FILE_ERROR

    for path, problem, not_followed in source_files(paths):
        if not_followed:
            print(__("%s: not followed: a symbolic link to %s") % (path, not_followed), file=stderr)
            continue
        if problem:
            cannot_migrate(path, problem)
            continue
        try:
            target = Path(os.path.realpath(path))  # a symbolic link given: its file
            if write and target.parent not in cleaned:
                remove_stale_temporaries(target.parent)
                cleaned.add(target.parent)
            read = os.stat(target)
            old, migration, encoding = migrate_file(path)
            if migration.text != old:
                if write:
                    write_atomically(target, migration.text, encoding, read)
                    shown = f"{path} -> {target}" if path.is_symlink() else path
                    print(__("rewrote %s") % shown, file=stdout)
                else:
                    stdout.write(unified_diff(path, old, migration.text))
                    status = max(status, LEGACY_NOTES_REMAIN)
        except ParseError as error:
            cannot_migrate(f"{path}:{error.line}", error.message)
            continue
        except (NotRewritten, OSError, UnicodeError) as error:
            cannot_migrate(path, error)
            continue
        for notice in migration.notices:
            print(f"{path}:{notice.line}: {notice.message}", file=stderr)
            status = max(status, LEGACY_NOTES_REMAIN)
    return status
