"""reprodocs.migrate.sources: files found, read and written back as the
same files (encodings, line endings, owner, mode, links), or reported and
left; nothing half-written."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import migrate_support
from migrate_support import run, snapshot
from reprodocs import migrate
from reprodocs.migrate import command

if sys.platform != "win32":
    import fcntl


# The fixtures these tests take, by their names.
tree = migrate_support.tree


def test_files_without_legacy_notes_are_not_parsed(tree, capsys, monkeypatch):
    # As PyTorch 2.13's torch/testing/_internal/py312_intrinsics.py, in Python
    # 3.12's syntax, is to Python 3.11: here a file no Python parses. It names
    # no note, so there is nothing to migrate in it, and no error.
    monkeypatch.chdir(tree("pytorch-2"))
    Path("torch/newer.py").write_text("def f[T](x: T) -> T: (\n")
    Path("docs/source/unfinished.rst").write_text(".. note::\n\n   .. include:: other.rst\n")

    status, out, err = run(capsys, "torch", "docs")

    assert status == migrate.LEGACY_NOTES_REMAIN  # the tree's own notes, in the diff
    assert "newer.py" not in out + err
    assert "unfinished.rst" not in out + err


def test_paths_that_are_not_sources_are_reported(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree("pytorch-1.4"))
    Path("notes.txt").write_text(".. include:: cuda_deterministic.rst\n")

    status, out, err = run(capsys, "missing.rst", "notes.txt", "docs/source/tensors.rst")

    assert status == migrate.FILE_ERROR
    assert err.splitlines() == [
        "missing.rst: cannot migrate it: no such file or directory",
        "notes.txt: cannot migrate it: not a .rst, .md or .py file",
    ]
    assert "+++ docs/source/tensors.rst" in out


def test_a_failed_write_leaves_the_file_whole(tree, capsys, monkeypatch):
    root = tree("pytorch-2")
    before = snapshot(root)

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    status, _, err = run(capsys, "--write", str(root))

    assert status == migrate.FILE_ERROR
    assert err.count("No space left on device") == 3
    assert snapshot(root) == before  # no file changed, no temporary file left


def test_line_endings_encoding_and_permissions_are_kept(tmp_path, capsys):
    crlf = tmp_path / "api.rst"
    crlf.write_bytes(b"API\r\n===\r\n\r\n.. include:: cuda_deterministic.rst\r\nText\r\n")
    crlf.chmod(0o640)
    latin1 = tmp_path / "legacy.py"
    latin1.write_bytes(
        b"# -*- coding: latin-1 -*-\n"
        b'def f():\n    """R\xe9sum\xe9.\n\n    Note:\n        {forward_reproducibility_note}\n    """\n'
    )

    run(capsys, "--write", str(tmp_path))

    assert crlf.read_bytes() == (b"API\r\n===\r\n\r\n.. cuda-deterministic::\r\n\r\nText\r\n")
    assert stat.S_IMODE(crlf.stat().st_mode) == 0o640
    assert latin1.read_bytes() == (
        b"# -*- coding: latin-1 -*-\n"
        b'def f():\n    """R\xe9sum\xe9.\n\n    .. cuda-deterministic::\n'
        b"       :wording: pytorch-2\n"
        b'       :runtime-text: {forward_reproducibility_note}\n    """\n'
    )


#: A docstring's 2.x note, before and after migration.
NOTED = 'def f():\n    """Summary.\n\n    Note:\n        {backward_reproducibility_note}\n    """\n'
MIGRATED = (
    'def f():\n    """Summary.\n\n    .. cuda-deterministic-backward::\n'
    "       :wording: pytorch-2\n"
    '       :runtime-text: {backward_reproducibility_note}\n    """\n'
)


needs_root = pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() != 0,
    reason="giving a file to another user (chown) needs root",
)


def temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if migrate.TEMPORARY_MARK in p.name)


def test_a_read_only_file_is_reported_and_left(tmp_path, capsys):
    # Even for root, who may write it: 0444 says it is not to be changed.
    read_only, writable = tmp_path / "read_only.py", tmp_path / "writable.py"
    for path in (read_only, writable):
        path.write_text(NOTED)
    read_only.chmod(0o444)

    status, out, err = run(capsys, "--write", str(tmp_path))

    assert status == migrate.FILE_ERROR
    assert err == f"{read_only}: cannot migrate it: read-only (mode 0444)\n"
    assert out == f"rewrote {writable}\n"
    assert read_only.read_text() == NOTED
    assert stat.S_IMODE(read_only.stat().st_mode) == 0o444
    assert writable.read_text() == MIGRATED
    assert temporaries(tmp_path) == []


def test_a_file_in_a_read_only_directory_is_reported_and_left(tmp_path, capsys):
    # Even for root: the new file would be made in the directory.
    directory = tmp_path / "read_only"
    directory.mkdir()
    path = directory / "notes.py"
    path.write_text(NOTED)
    directory.chmod(0o555)
    try:
        status, out, err = run(capsys, "--write", str(path))
    finally:
        directory.chmod(0o755)

    assert (status, out) == (migrate.FILE_ERROR, "")
    assert err == f"{path}: cannot migrate it: its directory is read-only (mode 0555)\n"
    assert path.read_text() == NOTED
    assert temporaries(directory) == []


#: A legacy note of each kind of file, before and after: an include in
#: reStructuredText, a placeholder in a docstring.
LEGACY_FILES = {
    ".rst": (
        "API\n===\n\nR\u00e9sum\u00e9.\n\n.. include:: cuda_deterministic.rst\n\nText\n",
        "API\n===\n\nR\u00e9sum\u00e9.\n\n.. cuda-deterministic::\n\nText\n",
    ),
    ".py": (
        NOTED.replace("Summary", "R\u00e9sum\u00e9"),
        MIGRATED.replace("Summary", "R\u00e9sum\u00e9"),
    ),
}


#: How a file's text becomes its bytes: line endings, byte order mark,
#: encoding (for a Python file, the one its coding line declares).
FORMS = {
    "LF": lambda text: text.encode(),
    "CRLF": lambda text: text.replace("\n", "\r\n").encode(),
    "CR": lambda text: text.replace("\n", "\r").encode(),
    "BOM": lambda text: b"\xef\xbb\xbf" + text.encode(),
    "BOM CRLF": lambda text: b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode(),
    "latin-1 coding line": lambda text: ("# -*- coding: latin-1 -*-\n" + text).encode("latin-1"),
    "latin-1 coding line CRLF": lambda text: (
        "# -*- coding: latin-1 -*-\r\n" + text.replace("\n", "\r\n")
    ).encode("latin-1"),
}


@pytest.mark.parametrize(
    ("suffix", "form"),
    [(suffix, form) for suffix in LEGACY_FILES for form in FORMS if "coding" not in form]
    + [(".py", form) for form in FORMS if "coding" in form],
)
def test_every_byte_but_the_note_s_is_kept(tmp_path, capsys, suffix, form):
    legacy, migrated = LEGACY_FILES[suffix]
    path = tmp_path / f"notes{suffix}"
    path.write_bytes(FORMS[form](legacy))

    status, out, err = run(capsys, "--write", str(path))

    assert (status, out, err) == (migrate.NOTHING_TO_MIGRATE, f"rewrote {path}\n", "")
    assert path.read_bytes() == FORMS[form](migrated)
    assert run(capsys, "--write", str(path))[1] == ""  # nothing left to migrate


@pytest.mark.parametrize("suffix", LEGACY_FILES)
def test_a_utf_16_file_is_refused_and_left(tmp_path, capsys, suffix):
    path = tmp_path / f"notes{suffix}"
    data = LEGACY_FILES[suffix][0].encode("utf-16")
    path.write_bytes(data)

    status, out, err = run(capsys, "--write", str(path))

    assert (status, out) == (migrate.FILE_ERROR, "")
    assert err.startswith(f"{path}:1: cannot migrate it: ")
    assert path.read_bytes() == data


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda link: link.symlink_to("nowhere.py"), "no such file or directory"),
        (lambda link: link.symlink_to(link.name), "Too many levels of symbolic links"),
    ],
    ids=["dangling", "looping"],
)
def test_a_broken_symbolic_link_given_as_a_path_is_reported(tmp_path, capsys, make, reason):
    link, other = tmp_path / "link.py", tmp_path / "other.py"
    make(link)
    other.write_text(NOTED)

    status, out, err = run(capsys, "--write", str(link), str(other))

    assert (status, out) == (migrate.FILE_ERROR, f"rewrote {other}\n")
    assert err == f"{link}: cannot migrate it: {reason}\n"
    assert link.is_symlink()


@needs_root
def test_owner_group_and_mode_are_kept(tmp_path, capsys):
    path = tmp_path / "theirs.py"
    path.write_text(NOTED)
    os.chown(path, 12345, 23456)
    path.chmod(0o2640)  # set-group-ID, which chown clears: set again after it

    status, out, _ = run(capsys, "--write", str(path))

    assert (status, out) == (migrate.NOTHING_TO_MIGRATE, f"rewrote {path}\n")
    assert path.read_text() == MIGRATED
    new = path.stat()
    assert (new.st_uid, new.st_gid, stat.S_IMODE(new.st_mode)) == (12345, 23456, 0o2640)


@pytest.mark.skipif(sys.platform != "linux", reason="extended attributes are copied on Linux")
def test_extended_attributes_are_kept(tmp_path, capsys):
    path = tmp_path / "labelled.py"
    path.write_text(NOTED)
    try:
        os.setxattr(path, "user.reprodocs", b"kept")
    except OSError as error:
        pytest.skip(f"{tmp_path} holds no user extended attributes: {error}")

    run(capsys, "--write", str(path))

    assert path.read_text() == MIGRATED
    assert os.getxattr(path, "user.reprodocs") == b"kept"


@needs_root
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs util-linux's setpriv")
def test_without_the_privilege_to_keep_an_owner_the_file_is_reported_and_left(tmp_path):
    # root without capabilities (setpriv) is a user who can give a new file
    # neither another owner (CAP_CHOWN) nor read a directory not open to it.
    theirs = tmp_path / "theirs.py"
    theirs.write_text(NOTED)
    theirs.chmod(0o666)  # writable for everyone, but its owner could not be kept
    os.chown(theirs, 12345, 12345)
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o000)
    (tmp_path / "ours.py").write_text(NOTED)

    without_capabilities = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"]
    command = [*without_capabilities, sys.executable, "-m", "reprodocs", "migrate"]
    result = subprocess.run(
        [*command, "--write", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    closed.chmod(0o700)

    assert result.returncode == migrate.FILE_ERROR
    assert result.stderr.splitlines() == [
        (
            f"{theirs}: cannot migrate it: its owner and group (uid 12345, gid 12345) "
            "cannot be given to a new file by this user"
        ),
        f"{closed}: cannot migrate it: Permission denied",
    ]
    assert result.stdout == f"rewrote {tmp_path / 'ours.py'}\n"
    assert theirs.read_text() == NOTED
    assert (theirs.stat().st_uid, theirs.stat().st_gid) == (12345, 12345)
    assert temporaries(tmp_path) == []


def test_a_file_with_hard_links_is_reported_and_left(tmp_path, capsys):
    # Replacing it would leave its other names with the old text; writing it
    # in place would change files elsewhere (a package cache, say) unasked.
    tree, elsewhere = tmp_path / "tree", tmp_path / "elsewhere"
    tree.mkdir()
    elsewhere.mkdir()
    path = tree / "linked.py"
    path.write_text(NOTED)
    os.link(path, elsewhere / "other-name.py")

    status, out, err = run(capsys, "--write", str(tree))

    assert (status, out) == (migrate.FILE_ERROR, "")
    assert err == (
        f"{path}: cannot migrate it: it has 2 hard links, whose other names would keep "
        "the old text\n"
    )
    assert path.read_text() == (elsewhere / "other-name.py").read_text() == NOTED
    assert path.stat().st_nlink == 2
    assert temporaries(tree) == []


def test_symbolic_links_in_a_directory_are_not_followed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tree, outside = Path("tree"), Path("outside")
    (tree / "sub").mkdir(parents=True)
    outside.mkdir()
    real = tmp_path.resolve()
    for path in (tree / "sub/mine.py", outside / "theirs.py", outside / "also.py"):
        path.write_text(NOTED)
    (tree / "to_theirs.py").symlink_to("../outside/theirs.py")
    (tree / "to_outside").symlink_to("../outside", target_is_directory=True)
    (tree / "to_mine.py").symlink_to("sub/mine.py")  # migrated where it is
    (tree / "dangling.py").symlink_to("../nowhere.py")
    # Leading nowhere, or looping, into the tree: said as well (issue 40),
    # whatever their names.
    (tree / "gone.py").symlink_to("sub/gone.py")
    (tree / "gone").symlink_to("sub/gone", target_is_directory=True)
    (tree / "sub/loop.rst").symlink_to("loop.rst")
    (tree / "sub/a").symlink_to("b")
    (tree / "sub/b").symlink_to("a")
    nowhere = [
        f"tree/dangling.py: not followed: a symbolic link to {real / 'nowhere.py'}, which does not exist",
        f"tree/gone: not followed: a symbolic link to {real / 'tree/sub/gone'}, which does not exist",
        f"tree/gone.py: not followed: a symbolic link to {real / 'tree/sub/gone.py'}, which does not exist",
        "tree/sub/a: not followed: a symbolic link that loops",
        "tree/sub/b: not followed: a symbolic link that loops",
        "tree/sub/loop.rst: not followed: a symbolic link that loops",
    ]  # fmt: skip

    status, out, err = run(capsys, "--write", "tree")

    assert status == migrate.NOTHING_TO_MIGRATE  # a report, not an error
    assert out == "rewrote tree/sub/mine.py\n"
    assert err.splitlines() == [
        *nowhere[:3],
        f"tree/to_outside: not followed: a symbolic link to {real / 'outside'}",
        f"tree/to_theirs.py: not followed: a symbolic link to {real / 'outside/theirs.py'}",
        *nowhere[3:],
    ]
    assert (tree / "sub/mine.py").read_text() == MIGRATED
    assert (outside / "theirs.py").read_text() == (outside / "also.py").read_text() == NOTED
    assert all((tree / name).is_symlink() for name in ("to_theirs.py", "to_outside", "to_mine.py"))

    # Given with the directory it points into, a link's file is migrated there.
    status, out, err = run(capsys, "--write", "tree", "outside")
    assert (status, err.splitlines()) == (migrate.NOTHING_TO_MIGRATE, nowhere)
    assert out == "rewrote outside/also.py\nrewrote outside/theirs.py\n"


def test_a_symbolic_link_given_as_a_path_is_followed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("real").mkdir()
    Path("real/notes.py").write_text(NOTED)
    Path("link.py").symlink_to("real/notes.py")

    assert run(capsys, "link.py")[1].startswith("--- link.py\n+++ link.py\n")
    status, out, err = run(capsys, "--write", "link.py")

    assert (status, err) == (migrate.NOTHING_TO_MIGRATE, "")
    assert out == f"rewrote link.py -> {tmp_path.resolve() / 'real/notes.py'}\n"
    assert Path("link.py").is_symlink()
    assert Path("real/notes.py").read_text() == MIGRATED


KILLED_AT = """
import os, signal, sys
from reprodocs.__main__ import main
setattr(os, sys.argv[1], lambda *args: os.kill(os.getpid(), signal.SIGKILL))
main(["migrate", "--write", sys.argv[2]])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("moment", ["fsync", "replace"])
def test_a_killed_write_leaves_the_file_whole_and_the_next_run_cleans_up(tmp_path, capsys, moment):
    path = tmp_path / "notes.py"
    path.write_text(NOTED)

    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AT, moment, str(tmp_path)], capture_output=True, check=False
    )

    assert killed.returncode == -signal.SIGKILL
    assert path.read_text() == NOTED
    (left,) = temporaries(tmp_path)
    assert left.startswith(".notes.py.reprodocs-migrate.")
    # Without --write nothing is changed, not even that.
    assert run(capsys, str(tmp_path))[0] == migrate.LEGACY_NOTES_REMAIN
    assert temporaries(tmp_path) == [left]

    assert run(capsys, "--write", str(tmp_path)) == (
        migrate.NOTHING_TO_MIGRATE,
        f"rewrote {path}\n",
        "",
    )
    assert path.read_text() == MIGRATED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.py"]


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_temporary_file_in_use_is_not_removed(tmp_path, capsys):
    # Another migrate, running, holds a lock on its temporary file; one that
    # was killed, or one of a file no longer there, holds none.
    (tmp_path / "notes.rst").write_text(".. include:: cuda_deterministic.rst\n")
    stale = tmp_path / ".notes.rst.reprodocs-migrate.k3x9q_2a"
    orphan = tmp_path / ".deleted.py.reprodocs-migrate.0a1b2c3d"
    in_use = tmp_path / ".notes.rst.reprodocs-migrate.running"
    for path in (stale, orphan, in_use):
        path.write_text("part of a new text")
    unrelated = tmp_path / ".notes.rst.orig"
    unrelated.write_text("a user's")

    with in_use.open() as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        status, _, _ = run(capsys, "--write", str(tmp_path))

    assert status == migrate.NOTHING_TO_MIGRATE
    assert temporaries(tmp_path) == [in_use.name]
    assert unrelated.read_text() == "a user's"


def test_a_file_changed_while_it_is_migrated_is_left(tmp_path, capsys, monkeypatch):
    path = tmp_path / "notes.py"
    path.write_text(NOTED)
    read = migrate.read_source

    def read_then_edited(source, *args):
        result = read(source, *args)
        with source.open("a") as stream:
            stream.write("EDITED = True\n")
        return result

    monkeypatch.setattr(command, "read_source", read_then_edited)
    status, out, err = run(capsys, "--write", str(path))

    assert (status, out) == (migrate.FILE_ERROR, "")
    assert err == (
        f"{path}: cannot migrate it: it changed while it was being migrated (run migrate again)\n"
    )
    assert path.read_text() == NOTED + "EDITED = True\n"
    assert temporaries(tmp_path) == []


def test_what_is_not_a_readable_file_is_reported_without_a_traceback(tmp_path):
    # A named pipe would block a reader for ever; names too long, links that
    # loop: each a line naming it, and the run goes on. (In the directory, the
    # looping link is not followed, and said so, as any link there.)
    os.mkfifo(tmp_path / "pipe.rst")
    (tmp_path / "loop.py").symlink_to("loop.py")
    too_long = tmp_path / ("n" * 300 + ".rst")
    (tmp_path / "notes.rst").write_text(".. include:: cuda_deterministic.rst\n")
    paths = [tmp_path / "pipe.rst", tmp_path / "loop.py", too_long, tmp_path]

    result = subprocess.run(
        [sys.executable, "-m", "reprodocs", "migrate", "--write", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == migrate.FILE_ERROR
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'pipe.rst'}: cannot migrate it: not a regular file",
        f"{tmp_path / 'loop.py'}: cannot migrate it: Too many levels of symbolic links",
        f"{too_long}: cannot migrate it: File name too long",
        f"{tmp_path / 'loop.py'}: not followed: a symbolic link that loops",
        f"{tmp_path / 'pipe.rst'}: cannot migrate it: not a regular file",
    ]
    assert result.stdout == f"rewrote {tmp_path / 'notes.rst'}\n"


def test_a_tree_given_with_a_folder_in_it_is_migrated_as_the_tree_alone(tree, capsys):
    """``migrate . torch``: each file under torch/ was read twice, planned
    twice; one copy was written and the other said to have changed
    meanwhile, the lists left by hand (exit status 2), and the next run
    wrote the items' entries a second time. Each file is read once."""
    alone, twice = tree(migrate_support.LISTS, "alone"), tree(migrate_support.LISTS, "twice")
    assert run(capsys, "--write", "--wording", "pytorch-2", str(alone))[0] == 0
    status, _, err = run(
        capsys, "--write", "--wording", "pytorch-2", str(twice), str(twice / "torch"),
        str(twice / "torch" / "__init__.py"),
    )  # fmt: skip
    assert status == 0
    assert "changed while it was being migrated" not in err
    assert snapshot(twice) == snapshot(alone)
