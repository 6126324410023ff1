"""``python -m reprodocs migrate`` on trees laid out as PyTorch lays them out
(tests/migrate/pytorch-1.4 and tests/migrate/pytorch-2): the diff, the
rewrite, what it leaves alone, and the built notes before and after."""

from __future__ import annotations

import io
import locale
import os
import shutil
import signal
import stat
import subprocess
import sys
import tokenize
from collections import defaultdict
from gettext import NullTranslations
from pathlib import Path

import pytest
import sphinx.locale
from sphinx.testing.util import SphinxTestApp

from conftest import notes_in, parse_html, text_of
from reprodocs import migrate
from reprodocs.__main__ import main

if sys.platform != "win32":
    import fcntl

TREES = Path(__file__).parent / "migrate"


@pytest.fixture
def tree(tmp_path):
    """A copy of a PyTorch-shaped tree ("pytorch-1.4" or "pytorch-2")."""

    def copy(name: str, to: str = "pytorch") -> Path:
        return Path(shutil.copytree(TREES / name, tmp_path / to))

    return copy


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["migrate", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# Diff, write, idempotence


def test_diff_mode_prints_a_unified_diff_and_changes_nothing(tree, capsys, monkeypatch):
    root = tree("pytorch-2")
    monkeypatch.chdir(root)
    before = snapshot(root)

    status, out, err = run(capsys, ".")

    assert status == migrate.LEGACY_NOTES_REMAIN
    assert err == ""
    assert snapshot(root) == before
    headers = [line for line in out.splitlines() if line.startswith(("--- ", "+++ "))]
    assert headers == [
        "--- torch/_tensor_docs.py",
        "+++ torch/_tensor_docs.py",
        "--- torch/_torch_docs.py",
        "+++ torch/_torch_docs.py",
        "--- torch/nn/functional.py",
        "+++ torch/nn/functional.py",
    ]
    removed = [line[1:] for line in out.splitlines() if line.startswith("-") and line[1:2] != "-"]
    added = [line[1:] for line in out.splitlines() if line.startswith("+") and line[1:2] != "+"]
    assert removed == [
        "Note:",
        "    {forward_reproducibility_note}",
        "Note:",
        "    {backward_reproducibility_note}",
        "Note:",
        "    {cudnn_reproducibility_note}",
        "    Note:",
        "        {backward_reproducibility_note}",
        "    Note:",
        "        {cudnn_reproducibility_note}",
        "    Note:",
        "        {backward_reproducibility_note}",
        "    .. note::",
        "        {backward_reproducibility_note}",
        "    Note:",
        "        {cudnn_reproducibility_note}",
    ]
    assert added == [
        ".. cuda-deterministic::",
        ".. cuda-deterministic-backward::",
        ".. cudnn-deterministic::",
        "    .. cuda-deterministic-backward::",
        "    .. cudnn-deterministic::",
        "    .. cuda-deterministic-backward::",
        "    .. cuda-deterministic-backward::",
        "",
        "    .. cudnn-deterministic::",
    ]


def test_the_diff_is_what_write_mode_writes(tree, capsys, monkeypatch):
    root = tree("pytorch-1.4")
    monkeypatch.chdir(root)
    before = snapshot(root)
    _, diff, _ = run(capsys, "torch", "docs")

    status, out, err = run(capsys, "--write", "torch", "docs")

    assert (status, err) == (migrate.NOTHING_TO_MIGRATE, "")
    after = snapshot(root)
    changed = sorted(name for name in before if before[name] != after[name])
    assert changed == [
        "docs/source/tensors.rst",
        "torch/_torch_docs.py",
        "torch/nn/functional.py",
    ]
    assert sorted(out.splitlines()) == [f"rewrote {name}" for name in changed]
    in_the_order_of_the_arguments = [changed[1], changed[2], changed[0]]
    assert diff == "".join(
        migrate.unified_diff(Path(name), before[name].decode(), after[name].decode())
        for name in in_the_order_of_the_arguments
    )


def test_write_mode_rewrites_the_2_x_placeholders(tree, capsys):
    root = tree("pytorch-2")
    status, _, _ = run(capsys, "--write", str(root))
    assert status == migrate.NOTHING_TO_MIGRATE
    functional = (root / "torch/nn/functional.py").read_text()

    # A note block whose body is the placeholder becomes the directive, at
    # the block's indentation, in both note forms.
    assert (
        """
    See :class:`~torch.nn.CTCLoss` for details.

    .. cudnn-deterministic::

    .. cuda-deterministic-backward::

    Args:
"""
        in functional
    )
    assert (
        '''
    r"""Compute grid sample.

    .. cuda-deterministic-backward::

    .. note::
        NaN values in :attr:`grid` would be interpreted as ``-1``.
'''
        in functional
    )
    # A note block right after another one is set apart from it.
    assert (
        """
    Note:
        {depthwise_separable_note}

    .. cudnn-deterministic::

    Note:
        ``padding='valid'`` is the same as no padding.
"""
        in functional
    )
    # The calls that format the docstrings are unchanged.
    assert functional.count(".format(**reproducibility_notes)") == 3
    assert "{groups_note}" in functional
    assert "{tf32_note}" in functional


def test_code_outside_string_literals_is_never_changed(tree, capsys):
    root = tree("pytorch-2")
    sources = {p: p.read_text() for p in root.rglob("*.py")}
    run(capsys, "--write", str(root))

    for path, old in sources.items():
        new = path.read_text()
        assert code_tokens(new) == code_tokens(old), path
    # A one-line string holding the 1.4 form is code, not documentation.
    root = tree("pytorch-1.4", to="old")
    run(capsys, "--write", str(root))
    functional = (root / "torch/nn/functional.py").read_text()
    assert 'NOTE_FILE = ".. include:: cuda_deterministic_backward.rst"' in functional
    assert "# The notes are pulled in with ``.. include:: cuda_deterministic_backward.rst``" in (
        functional
    )


def code_tokens(source: str) -> list[tuple[int, str]]:
    return [
        (token.type, token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type != tokenize.STRING
    ]


def test_migration_is_idempotent(tree, capsys):
    for name in ("pytorch-1.4", "pytorch-2"):
        root = tree(name, to=name)
        assert run(capsys, "--write", str(root))[0] == migrate.NOTHING_TO_MIGRATE
        migrated = snapshot(root)

        assert run(capsys, str(root)) == (migrate.NOTHING_TO_MIGRATE, "", "")
        assert run(capsys, "--write", str(root)) == (migrate.NOTHING_TO_MIGRATE, "", "")
        assert snapshot(root) == migrated


def test_unrelated_includes_literal_blocks_and_comments_are_untouched(tree, capsys):
    root = tree("pytorch-1.4")
    run(capsys, "--write", str(root))
    tensors = (root / "docs/source/tensors.rst").read_text()

    assert ".. include:: _includes/tensor_intro.rst" in tensors
    assert tensors.count(".. include:: cuda_deterministic.rst") == 2  # literal block, comment
    assert tensors.count(".. cuda-deterministic::") == 1
    for name in migrate.INCLUDED_NOTES:
        note_file = root / "docs/source" / name
        assert note_file.read_bytes() == (TREES / "pytorch-1.4/docs/source" / name).read_bytes()


# Bad input: reported with path and line, the rest migrated, nothing half-written


def test_unparsable_files_are_reported_and_the_others_migrated(tree, capsys, monkeypatch):
    root = tree("pytorch-1.4")
    monkeypatch.chdir(root)
    broken_python = Path("torch/broken.py")
    broken_python.write_text('"""\n.. include:: cuda_deterministic.rst\n"""\nx = (\n')
    broken_rst = Path("docs/source/broken.rst")
    broken_rst.write_bytes(b"Title\n=====\n\n\xff\n\n.. include:: cuda_deterministic.rst\n")
    before = snapshot(Path("."))

    status, _, err = run(capsys, "--write", "torch", "docs")

    assert status == migrate.FILE_ERROR
    python_error, rst_error = err.splitlines()  # in the order of the arguments
    assert python_error == "torch/broken.py:4: cannot migrate it: '(' was never closed"
    assert rst_error.startswith("docs/source/broken.rst:4: cannot migrate it: ")
    assert "can't decode byte 0xff" in rst_error
    after = snapshot(Path("."))
    assert after[str(broken_python)] == before[str(broken_python)]
    assert after[str(broken_rst)] == before[str(broken_rst)]
    assert b".. cuda-deterministic::" in after["torch/_torch_docs.py"]


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
        "notes.txt: cannot migrate it: not a .rst or .py file",
    ]
    assert "+++ docs/source/tensors.rst" in out


def test_a_failed_write_leaves_the_file_whole(tree, capsys, monkeypatch):
    root = tree("pytorch-2")
    before = snapshot(root)

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(migrate.os, "replace", fail)
    status, _, err = run(capsys, "--write", str(root))

    assert status == migrate.FILE_ERROR
    assert err.count("No space left on device") == 3
    assert snapshot(root) == before  # no file changed, no temporary file left


def test_what_cannot_be_rewritten_safely_is_reported_and_left(tmp_path, capsys):
    source = tmp_path / "notes.py"
    source.write_text(
        "def f():\n"
        '    """Summary.\n'
        "\n"
        "    Note:\n"
        "        Text, then {backward_reproducibility_note}\n"
        "\n"
        "    {cudnn_reproducibility_note}\n"
        "    and more text in the same paragraph.\n"
        "\n"
        "    .. include:: cuda_deterministic.rst\n"
        "       :start-line: 2\n"
        "\n"
        "    A paragraph, then\n"
        "    .. include:: cuda_deterministic.rst\n"
        "\n"
        "    {{backward_reproducibility_note}} is a literal brace.\n"
        '    """\n'
        "\n"
        "\n"
        'ESCAPED = "Note:\\n    {forward_reproducibility_note}\\n"\n'
        'ESCAPED_DOC = """Summary.\\n\\n.. include:: cuda_deterministic.rst\\n"""\n'
        'ONE_LINE = """{backward_reproducibility_note}"""  # code, not prose\n'
    )
    before = source.read_bytes()

    status, out, err = run(capsys, "--write", str(source))

    assert (status, out) == (migrate.LEGACY_NOTES_REMAIN, "")
    assert source.read_bytes() == before
    assert err.splitlines() == [
        f"{source}:5: left as is: {{backward_reproducibility_note}} is not a paragraph of its own",
        f"{source}:7: left as is: {{cudnn_reproducibility_note}} is not a paragraph of its own",
        f"{source}:10: left as is: this include has options or content",
        f"{source}:14: left as is: this include is part of a paragraph",
        f"{source}:21: left as is: this string's escape sequences change its lines",
    ]


# Encodings, line endings and permissions are kept


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
        b'def f():\n    """R\xe9sum\xe9.\n\n    .. cuda-deterministic::\n    """\n'
    )


# Files: read-only, owner and mode, hard links, symbolic links, killed runs

NOTED = 'def f():\n    """Summary.\n\n    Note:\n        {backward_reproducibility_note}\n    """\n'
MIGRATED = 'def f():\n    """Summary.\n\n    .. cuda-deterministic-backward::\n    """\n'

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
    for path in (tree / "sub/mine.py", outside / "theirs.py", outside / "also.py"):
        path.write_text(NOTED)
    (tree / "to_theirs.py").symlink_to("../outside/theirs.py")
    (tree / "to_outside").symlink_to("../outside", target_is_directory=True)
    (tree / "to_mine.py").symlink_to("sub/mine.py")  # migrated where it is
    (tree / "dangling.py").symlink_to("../nowhere.py")

    status, out, err = run(capsys, "--write", "tree")

    assert status == migrate.NOTHING_TO_MIGRATE  # a report, not an error
    assert out == "rewrote tree/sub/mine.py\n"
    real = tmp_path.resolve()
    assert err.splitlines() == [
        f"tree/dangling.py: not followed: a symbolic link to {real / 'nowhere.py'}",
        f"tree/to_outside: not followed: a symbolic link to {real / 'outside'}",
        f"tree/to_theirs.py: not followed: a symbolic link to {real / 'outside/theirs.py'}",
    ]
    assert (tree / "sub/mine.py").read_text() == MIGRATED
    assert (outside / "theirs.py").read_text() == (outside / "also.py").read_text() == NOTED
    assert all((tree / name).is_symlink() for name in ("to_theirs.py", "to_outside", "to_mine.py"))

    # Given with the directory it points into, a link's file is migrated there.
    status, out, err = run(capsys, "--write", "tree", "outside")
    assert (status, err) == (
        migrate.NOTHING_TO_MIGRATE,
        f"tree/dangling.py: not followed: a symbolic link to {real / 'nowhere.py'}\n",
    )
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
    read = migrate.migrate_file

    def read_then_edited(source):
        result = read(source)
        with source.open("a") as stream:
            stream.write("EDITED = True\n")
        return result

    monkeypatch.setattr(migrate, "migrate_file", read_then_edited)
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
    # link points into it, at nothing to migrate: it is passed over.)
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
        f"{tmp_path / 'pipe.rst'}: cannot migrate it: not a regular file",
    ]
    assert result.stdout == f"rewrote {tmp_path / 'notes.rst'}\n"


def test_messages_are_in_the_console_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sphinx.locale, "translators", defaultdict(NullTranslations))
    monkeypatch.setattr(locale, "setlocale", lambda *args: "zh_CN.UTF-8")
    monkeypatch.setattr(locale, "getlocale", lambda *args: ("zh_CN", "UTF-8"))
    missing = tmp_path / "missing.rst"

    assert run(capsys, str(missing)) == (
        migrate.FILE_ERROR,
        "",
        f"{missing}：无法迁移：没有该文件或目录\n",
    )


def test_python_m_reprodocs_migrate(tree):
    root = tree("pytorch-1.4")
    result = subprocess.run(
        [sys.executable, "-m", "reprodocs", "migrate", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == migrate.LEGACY_NOTES_REMAIN
    assert "+.. cuda-deterministic::" in result.stdout
    assert result.stderr == ""


# The migrated docs, built: the same notes as before


BACKWARD_1_4 = (
    "When using the CUDA backend, this operation may induce nondeterministic behaviour in "
    "its backward pass that is not easily switched off. Please see the notes on "
    "Reproducibility for background."
)
FORWARD_1_4 = (
    "When using the CUDA backend, this operation may induce nondeterministic behaviour "
    "that is not easily switched off. Please see the notes on Reproducibility for background."
)
CUDNN_1_4 = (
    "In some circumstances when using the CUDA backend with CuDNN, this operator may select "
    "a nondeterministic algorithm to increase performance. If this is undesirable, you can "
    "try to make the operation deterministic (potentially at a performance cost) by setting "
    "torch.backends.cudnn.deterministic = True."
)
#: The sentence (and link) reprodocs' cuDNN note has and PyTorch 1.4's file had not.
SEE_ALSO_1_4 = " Please see the notes on Reproducibility for background."
BACKWARD_2 = (
    "This operation may produce nondeterministic gradients when given tensors on a CUDA "
    "device. See Reproducibility for more information."
)
FORWARD_2 = (
    "This operation may behave nondeterministically when given tensors on a CUDA device. "
    "See Reproducibility for more information."
)
CUDNN_2 = (
    "In some circumstances when given tensors on a CUDA device and using CuDNN, this "
    "operator may select a nondeterministic algorithm to increase performance. If this is "
    "undesirable, you can try to make the operation deterministic (potentially at a "
    "performance cost) by setting torch.backends.cudnn.deterministic = True. See "
    "Reproducibility for more information."
)


def forget_torch() -> dict:
    """Unload the torch package (the demo's, or a tree's) and return it."""
    names = [name for name in sys.modules if name == "torch" or name.startswith("torch.")]
    return {name: sys.modules.pop(name) for name in names}


@pytest.fixture
def build_docs():
    """Build a tree's docs/source (autodoc imports the tree's own torch
    package, never one imported before); return what the HTML pages say of
    each object: its notes, {object id: [(text, link targets), ...]}, and the
    rest of its description, {object id: text}."""
    imported_before = forget_torch()

    def build(root: Path, **confoverrides) -> tuple[dict, dict]:
        forget_torch()
        warnings = io.StringIO()  # app.warning is Sphinx 7.3 on
        # Each build's global state undone before the next one starts
        # (make_app would undo both at the end, in an order Sphinx 7.2 gets wrong).
        app = SphinxTestApp(
            "html",
            srcdir=root / "docs/source",
            freshenv=True,
            confoverrides=confoverrides,
            status=io.StringIO(),
            warning=warnings,
        )
        try:
            app.build()
        finally:
            app.cleanup()
        assert warnings.getvalue() == ""
        notes: dict[str, list[tuple[str, list[str]]]] = {}
        prose: dict[str, str] = {}
        for page in sorted(app.outdir.glob("*.html")):
            soup = parse_html(page)
            for note in notes_in(soup):
                term = note.find_parent("dd").find_previous_sibling("dt")
                paragraphs = note.find_all("p")[1:]  # after the title, "Note"
                text = " ".join(text_of(p) for p in paragraphs)
                notes.setdefault(term["id"], []).append(
                    (text, [a["href"] for a in note.find_all("a")])
                )
                note.decompose()
            for term in soup.select("dl > dt[id]"):
                prose[term["id"]] = text_of(term.find_next_sibling("dd"))
        return notes, prose

    yield build
    forget_torch()
    sys.modules.update(imported_before)


REPRODUCIBILITY_LINK = ["notes/randomness.html"]


def test_migrated_1_4_notes_render_the_included_files(tree, capsys, build_docs):
    original = tree("pytorch-1.4", to="original")
    migrated = tree("pytorch-1.4", to="migrated")
    run(capsys, "--write", str(migrated))

    before, prose_before = build_docs(original)
    after, prose_after = build_docs(migrated)

    assert prose_after == prose_before

    backward = (BACKWARD_1_4, REPRODUCIBILITY_LINK)
    forward = (FORWARD_1_4, REPRODUCIBILITY_LINK)
    assert before == {
        "torch.bincount": [forward],
        "torch.Tensor.index_add_": [forward],
        "torch.nn.functional.embedding_bag": [backward],
        "torch.nn.functional.ctc_loss": [(CUDNN_1_4, []), backward],
        "torch.nn.functional.pad": [backward],
    }
    # The same notes, but for the cuDNN one's added link to Reproducibility.
    cudnn = (CUDNN_1_4 + SEE_ALSO_1_4, REPRODUCIBILITY_LINK)
    assert after == {**before, "torch.nn.functional.ctc_loss": [cudnn, backward]}


def test_migrated_2_x_notes_render_the_2_x_sentences(tree, capsys, build_docs):
    original = tree("pytorch-2", to="original")
    migrated = tree("pytorch-2", to="migrated")
    run(capsys, "--write", str(migrated))

    before, prose_before = build_docs(original)
    after, prose_after = build_docs(migrated, reprodocs_wording="pytorch-2")

    assert prose_after == prose_before
    assert "This operator supports TensorFloat32." in prose_after["torch.nn.functional.conv1d"]

    backward = (BACKWARD_2, REPRODUCIBILITY_LINK)
    cudnn = (CUDNN_2, REPRODUCIBILITY_LINK)
    assert before == {
        "torch.bincount": [backward],
        "torch.Tensor.index_add_": [(FORWARD_2, REPRODUCIBILITY_LINK)],
        "torch.nn.functional.conv1d": [
            cudnn,
            (
                "This operator supports complex data types i.e. complex32, complex64, complex128.",
                [],
            ),
        ],
        "torch.nn.functional.embedding_bag": [backward],
        "torch.nn.functional.ctc_loss": [cudnn, backward],
        "torch.nn.functional.grid_sample": [
            backward,
            ("NaN values in grid would be interpreted as -1.", []),
        ],
        "torch.nn.functional.Conv2d": [
            ("A depthwise convolution when groups == in_channels.", []),
            cudnn,
            ("padding='valid' is the same as no padding.", []),
        ],
    }
    assert after == before


def test_a_docstring_first_line_is_at_the_docstring_margin(tmp_path, capsys):
    # The first line follows the quotes; read as unindented, its "::" would make
    # the whole docstring a literal block.
    source = tmp_path / "example.py"
    source.write_text(
        "def f():\n"
        '    """Example::\n'
        "\n"
        "        >>> f()\n"
        "\n"
        "    .. include:: cuda_deterministic.rst\n"
        '    """\n'
    )
    run(capsys, "--write", str(source))
    assert source.read_text().splitlines()[5] == "    .. cuda-deterministic::"


def test_a_one_line_note_of_a_placeholder_becomes_the_directive(tmp_path, capsys):
    source = tmp_path / "ops.py"
    source.write_text(
        "def f():\n"
        '    """Summary.\n'
        "\n"
        "    .. note:: {cudnn_reproducibility_note}\n"
        "\n"
        "    .. note:: {backward_reproducibility_note}\n"
        "\n"
        "       The note goes on.\n"
        '    """\n'
    )
    status, _, err = run(capsys, "--write", str(source))

    lines = source.read_text().splitlines()
    assert lines[3] == "    .. cudnn-deterministic::"
    assert lines[5] == "    .. note:: {backward_reproducibility_note}"
    assert status == migrate.LEGACY_NOTES_REMAIN
    assert err == (
        f"{source}:6: left as is: {{backward_reproducibility_note}} is not a paragraph of its own\n"
    )


def test_a_form_feed_is_not_a_line_break(tmp_path, capsys):
    # str.splitlines() breaks lines at a form feed; Python does not.
    source = tmp_path / "paged.py"
    source.write_text(
        '\x0c\ndef f():\n    """Summary.\n\n    Note:\n        {cudnn_reproducibility_note}\n    """\n'
    )
    run(capsys, "--write", str(source))
    assert (
        source.read_text()
        == '\x0c\ndef f():\n    """Summary.\n\n    .. cudnn-deterministic::\n    """\n'
    )
