"""``python -m reprodocs migrate`` on trees laid out as PyTorch lays them out
(tests/migrate/pytorch-1.4 and tests/migrate/pytorch-2): the diff, the
rewrite, what it leaves alone, and the built notes before and after."""

from __future__ import annotations

import io
import locale
import os
import re
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
from reprodocs.migrate import command
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
    # The site's wording is PyTorch 1.4's (the default --wording): each note
    # keeps the 2.x placeholder's words with :wording:.
    assert added == [
        ".. cuda-deterministic::",
        "   :wording: pytorch-2",
        ".. cuda-deterministic-backward::",
        "   :wording: pytorch-2",
        ".. cudnn-deterministic::",
        "   :wording: pytorch-2",
        "    .. cuda-deterministic-backward::",
        "       :wording: pytorch-2",
        "    .. cudnn-deterministic::",
        "       :wording: pytorch-2",
        "    .. cuda-deterministic-backward::",
        "       :wording: pytorch-2",
        "    .. cuda-deterministic-backward::",
        "       :wording: pytorch-2",
        "",
        "    .. cudnn-deterministic::",
        "       :wording: pytorch-2",
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
    status, _, _ = run(capsys, "--write", "--wording", "pytorch-2", str(root))
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

    monkeypatch.setattr(os, "replace", fail)
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
        b'def f():\n    """R\xe9sum\xe9.\n\n    .. cuda-deterministic::\n'
        b'       :wording: pytorch-2\n    """\n'
    )


# Files: read-only, owner and mode, hard links, symbolic links, killed runs

NOTED = 'def f():\n    """Summary.\n\n    Note:\n        {backward_reproducibility_note}\n    """\n'
MIGRATED = (
    'def f():\n    """Summary.\n\n    .. cuda-deterministic-backward::\n'
    '       :wording: pytorch-2\n    """\n'
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

    def read_then_edited(source, *args):
        result = read(source, *args)
        with source.open("a") as stream:
            stream.write("EDITED = True\n")
        return result

    monkeypatch.setattr(command, "migrate_file", read_then_edited)
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
def build_html():
    """Build a tree's docs/source (autodoc imports the tree's own torch
    package, never one imported before), with no warning; return the
    output directory."""
    imported_before = forget_torch()

    def build(root: Path, **confoverrides) -> Path:
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
        return Path(app.outdir)

    yield build
    forget_torch()
    sys.modules.update(imported_before)


@pytest.fixture
def build_docs(build_html):
    """Build a tree's docs/source; return what the HTML pages say of each
    object: its notes, {object id: [(text, link targets), ...]}, and the
    rest of its description, {object id: text}."""

    def build(root: Path, **confoverrides) -> tuple[dict, dict]:
        outdir = build_html(root, **confoverrides)
        notes: dict[str, list[tuple[str, list[str]]]] = {}
        prose: dict[str, str] = {}
        for page in sorted(outdir.glob("*.html")):
            soup = parse_html(page)
            for note in notes_in(soup):
                description = note.find_parent("dd")
                # A note on no description: the page's.
                key = description.find_previous_sibling("dt")["id"] if description else page.name
                paragraphs = note.find_all("p")[1:]  # after the title, "Note"
                text = " ".join(text_of(p) for p in paragraphs)
                notes.setdefault(key, []).append((text, [a["href"] for a in note.find_all("a")]))
                note.decompose()
            for term in soup.select("dl > dt[id]"):
                prose[term["id"]] = text_of(term.find_next_sibling("dd"))
        return notes, prose

    return build


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
    run(capsys, "--write", "--wording", "pytorch-2", str(migrated))

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


def test_on_a_site_of_another_wording_migrated_notes_keep_their_words(tree, capsys, build_docs):
    # Migrated with the site's wording, PyTorch 1.4's (the default): each
    # 2.x note gets :wording: pytorch-2, and says what it said.
    original = tree("pytorch-2", to="original")
    migrated = tree("pytorch-2", to="migrated")
    run(capsys, "--write", str(migrated))

    before, prose_before = build_docs(original)
    after, prose_after = build_docs(migrated)

    assert (after, prose_after) == (before, prose_before)
    assert BACKWARD_2 in [text for text, _ in after["torch.bincount"]]


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
    assert lines[3:5] == ["    .. cudnn-deterministic::", "       :wording: pytorch-2"]
    assert lines[6] == "    .. note:: {backward_reproducibility_note}"
    assert status == migrate.LEGACY_NOTES_REMAIN
    # The line the note left as is has in the file as written.
    assert err == (
        f"{source}:7: left as is: {{backward_reproducibility_note}} is not a paragraph of its own\n"
    )


def test_a_form_feed_is_not_a_line_break(tmp_path, capsys):
    # str.splitlines() breaks lines at a form feed; Python does not.
    source = tmp_path / "paged.py"
    source.write_text(
        '\x0c\ndef f():\n    """Summary.\n\n    Note:\n        {cudnn_reproducibility_note}\n    """\n'
    )
    run(capsys, "--write", "--wording", "pytorch-2", str(source))
    assert (
        source.read_text()
        == '\x0c\ndef f():\n    """Summary.\n\n    .. cudnn-deterministic::\n    """\n'
    )


# The lists of torch.use_deterministic_algorithms (tests/migrate/pytorch-2.13:
# its docstring's two lists, notes as placeholders in _torch_docs.py,
# _tensor_docs.py, nn/functional.py and nn/modules/conv.py, an include and
# two directives already there in docs/source)

LISTS = "pytorch-2.13"


def items_of(found) -> list[tuple[int, str, str | None]]:
    return [(item.line, item.operation, item.condition) for item in found.items]


def test_the_two_lists_are_read_from_the_docstring(tree):
    root = tree(LISTS)
    _, migration, _ = migrate.migrate_file(root / "torch/__init__.py")

    deterministic, raises = migration.lists
    # Each list is known by its introduction, on line 33 and 43.
    assert (deterministic.kind, deterministic.line) == ("deterministic", 33)
    assert (raises.kind, raises.line) == ("raises", 43)
    assert items_of(deterministic) == [
        (36, "torch.nn.Conv1d", "called on CUDA tensor"),
        (37, "torch.nn.ConvTranspose1d", "called on CUDA tensor"),
        # "with ..." is no condition a :when: says ("when ..."): none.
        (38, "torch.Tensor.put_", None),
        (40, "torch.Tensor.scatter_add_", "called on a CUDA tensor"),
        (41, "torch.index_add", "called on CUDA tensor"),
    ]
    assert items_of(raises) == [
        (46, "torch.nn.AvgPool3d", "attempting to differentiate a CUDA tensor"),
        (47, "torch.nn.MaxUnpool1d", ""),  # always
        # Wrapped, with a list of modes: the modes after the colon.
        (
            48,
            "torch.nn.functional.interpolate",
            (
                "attempting to differentiate a CUDA tensor and one of the following modes is "
                "used: ``linear``, ``bilinear``"
            ),
        ),
        (54, "torch.nn.CTCLoss", "attempting to differentiate a CUDA tensor"),
        (55, "torch.Tensor.put_", "``accumulate=False``"),  # :meth:
        (56, "torch.Tensor.put_", "``accumulate=True`` and called on a CUDA tensor"),
        (58, "torch.histc", "called on a CUDA tensor"),
        (59, "torch.bincount", "called on a CUDA tensor and ``weights`` tensor is given"),
        (61, "torch.cumsum", "called on a CUDA tensor when dtype is floating point or complex"),
        (62, "torch.median", None),
    ]


def test_list_items_in_every_form_of_cross_reference():
    migration = migrate.rewrite_text(
        "The following normally-nondeterministic operations will throw a\n"
        ":class:`RuntimeError` when ``mode=True``:\n"
        "\n"
        "- :py:func:`~torch.histc` when called on a CUDA tensor\n"
        "- :meth:`put <torch.Tensor.put_>`\n"
        "  when ``accumulate=False``\n"
        "- ``torch.median`` when called on a CUDA tensor\n"
        "- :func:`torch.cumsum` when called on a CUDA tensor:\n"
        "\n"
        "  A paragraph, not a list.\n"
    )
    (found,) = migration.lists
    assert items_of(found) == [
        (4, "torch.histc", "called on a CUDA tensor"),
        (5, "torch.Tensor.put_", "``accumulate=False``"),
        (7, "", None),
        (8, "torch.cumsum", None),
    ]
    assert [item.problem for item in found.items] == [
        "",
        "",
        "it names no operation",
        "its condition is more than a line of text",
    ]


def test_no_other_list_is_read():
    migration = migrate.rewrite_text(
        "The following operations are fast:\n"
        "\n"
        "* :func:`torch.add`\n"
        "\n"
        "Operations that act deterministically::\n"
        "\n"
        "  * :func:`torch.sub` when called on a CUDA tensor\n"
    )
    assert migration.lists == []


def found_notes(root: Path) -> dict[tuple[str, int], tuple[str, tuple[str, ...]]]:
    notes = {}
    for source in migrate.source_files([str(root)]):
        for note in migrate.migrate_file(source.path)[1].notes:
            notes[str(note.path.relative_to(root)), note.line] = (note.directive, note.operations)
    return notes


def test_a_note_is_known_by_the_operation_it_is_on(tree):
    root = tree(LISTS)
    assert found_notes(root) == {
        # autodoc's object directives around a note, in the current module
        ("docs/source/nn.rst", 12): ("cuda-deterministic-backward", ("torch.nn.AvgPool3d",)),
        # :op: names it
        ("docs/source/nn.rst", 20): ("nondeterministic", ("torch.nn.MaxUnpool1d",)),
        ("docs/source/torch.rst", 14): ("cuda-deterministic", ("torch.cumsum",)),
        # add_docstr_all("put_", ...), which documents torch._C.TensorBase.put_
        ("torch/_tensor_docs.py", 20): ("cuda-deterministic", ("torch.Tensor.index_add_",)),
        ("torch/_tensor_docs.py", 33): ("cuda-deterministic", ("torch.Tensor.put_",)),
        ("torch/_tensor_docs.py", 51): ("cuda-deterministic", ("torch.Tensor.scatter_add_",)),
        ("torch/_torch_docs.py", 26): ("cuda-deterministic-backward", ("torch.bincount",)),
        # conv1d = _add_docstr(torch.conv1d, ...): both names
        ("torch/nn/functional.py", 15): (
            "cudnn-deterministic",
            ("torch.nn.functional.conv1d", "torch.conv1d"),
        ),
        ("torch/nn/functional.py", 26): ("cudnn-deterministic", ("torch.nn.functional.ctc_loss",)),
        ("torch/nn/functional.py", 29): (
            "cuda-deterministic-backward",
            ("torch.nn.functional.ctc_loss",),
        ),
        ("torch/nn/functional.py", 45): (
            "cuda-deterministic-backward",
            ("torch.nn.functional.interpolate",),
        ),
        # a class's __doc__ = (...), where the class is defined
        ("torch/nn/modules/conv.py", 15): (
            "cudnn-deterministic",
            ("torch.nn.modules.conv.Conv1d",),
        ),
    }


def test_names_match_exactly_or_where_a_package_re_exports_them():
    assert migrate.names_match("torch.histc", "torch.histc") == 2
    assert migrate.names_match("torch.nn.Conv1d", "torch.nn.modules.conv.Conv1d") == 1
    assert migrate.names_match("torch.nn.Conv1d.forward", "torch.nn.modules.conv.Conv1d.forward")
    assert not migrate.names_match("torch.index_add", "torch.Tensor.index_add_")
    assert not migrate.names_match("torch.nn.CTCLoss", "torch.nn.functional.ctc_loss")
    assert not migrate.names_match("torch.nn.Conv1d", "torch.nn.Conv1d.forward")
    assert not migrate.names_match("torch.nn.Conv1d", "torchvision.nn.Conv1d")


def option_block(text: str, directive_line: str) -> list[str]:
    """The directive line and its options, as they are in *text*."""
    lines = text.splitlines()
    start = lines.index(directive_line)
    end = start + 1
    while end < len(lines) and lines[end].strip().startswith(":"):
        end += 1
        while end < len(lines) and lines[end].startswith(" " * (len(directive_line) + 3)):
            end += 1  # an option's value goes on
    return lines[start:end]


def test_matched_notes_get_what_deterministic_mode_does_and_when(tree, capsys):
    root = tree(LISTS)
    status, _, _ = run(capsys, "--write", "--wording", "pytorch-2", str(root))
    assert status == migrate.LEGACY_NOTES_REMAIN  # items kept by hand

    conv = (root / "torch/nn/modules/conv.py").read_text()
    # torch.nn.Conv1d, as torch.nn re-exports torch.nn.modules.conv.Conv1d
    assert option_block(conv, "    .. cudnn-deterministic::") == [
        "    .. cudnn-deterministic::",
        "       :deterministic-algorithms: deterministic",
        "       :when: called on CUDA tensor",
    ]
    tensor_docs = (root / "torch/_tensor_docs.py").read_text()
    put, scatter_add = [
        option_block("\n".join(tensor_docs.splitlines()[start:]), ".. cuda-deterministic::")
        for start in (28, 45)
    ]
    # Of the three items of torch.Tensor.put_, its CUDA note fits the two of
    # the raises list; it goes to the one naming CUDA tensors. (The item on
    # CPU tensors fits no CUDA note.)
    assert put == [
        ".. cuda-deterministic::",
        "   :deterministic-algorithms: raises",
        "   :when: ``accumulate=True`` and called on a CUDA tensor",
    ]
    assert scatter_add == [
        ".. cuda-deterministic::",
        "   :deterministic-algorithms: deterministic",
        "   :when: called on a CUDA tensor",
    ]
    # A long condition is wrapped, as a field's body goes on.
    functional = (root / "torch/nn/functional.py").read_text()
    assert (
        "    .. cuda-deterministic-backward::\n"
        "       :deterministic-algorithms: raises\n"
        "       :when: attempting to differentiate a CUDA tensor and one of the following modes\n"
        "          is used: ``linear``, ``bilinear``\n"
        '    """\n'
    ) in functional
    # Directives already there get the options after their own.
    nn = (root / "docs/source/nn.rst").read_text()
    assert option_block(nn, "   .. cuda-deterministic-backward::") == [
        "   .. cuda-deterministic-backward::",
        "      :deterministic-algorithms: raises",
        "      :when: attempting to differentiate a CUDA tensor",
    ]
    # An item without a condition: no :when:.
    assert nn.endswith(
        ".. nondeterministic::\n"
        "   :op: torch.nn.MaxUnpool1d\n"
        "   :pass: forward\n"
        "   :deterministic-algorithms: raises\n"
    )
    # An include, as a placeholder, becomes a directive with the options.
    assert option_block(
        (root / "docs/source/torch.rst").read_text(), "   .. cuda-deterministic::"
    ) == [
        "   .. cuda-deterministic::",
        "      :deterministic-algorithms: raises",
        "      :when: called on a CUDA tensor when dtype is floating point or complex",
        "      :wording: pytorch-1.4",
    ]
    # The notes that are in neither list get no such option.
    for name in ("_torch_docs.py", "_tensor_docs.py", "nn/functional.py"):
        text = (root / "torch" / name).read_text()
        migrated = re.findall(r"\.\. (?:cuda|cudnn)-deterministic(?:-backward)?::", text)
        assert text.count(":deterministic-algorithms:") < len(migrated), name


MIGRATED_INIT = """\
    The following normally-nondeterministic operations will act
    deterministically when ``mode=True``:

        .. nondeterministic-ops::
           :format: list
           :deterministic-algorithms: deterministic

        * :class:`torch.nn.ConvTranspose1d` when called on CUDA tensor
        * :func:`torch.Tensor.put_` with ``accumulate=True`` when called on a CPU
          tensor
        * :func:`torch.index_add` when called on CUDA tensor

    The following normally-nondeterministic operations will throw a
    :class:`RuntimeError` when ``mode=True``:

        .. nondeterministic-ops::
           :format: list
           :deterministic-algorithms: raises

        * :class:`torch.nn.CTCLoss` when attempting to differentiate a CUDA tensor
        * :meth:`torch.Tensor.put_` when ``accumulate=False``
        * :func:`torch.histc` when called on a CUDA tensor
        * :func:`torch.bincount` when called on a CUDA tensor and ``weights``
          tensor is given
        * :func:`torch.median` with indices output when called on a CUDA tensor

    Note that deterministic operations"""


def test_the_lists_become_directives_and_the_items_without_a_note_stay(tree, capsys):
    root = tree(LISTS)
    run(capsys, "--write", str(root))

    assert MIGRATED_INIT in (root / "torch/__init__.py").read_text()


def test_nothing_is_dropped(tree, capsys):
    # Every item of the lists is, after migration, either a note's
    # (:deterministic-algorithms: and :when: as the item said) or still in
    # the list by hand, in its own words.
    root = tree(LISTS)
    before = migrate.migrate_file(root / "torch/__init__.py")[1].lists
    run(capsys, "--write", "--wording", "pytorch-2", str(root))

    said = set()
    for source in migrate.source_files([str(root)]):
        for note in migrate.migrate_file(source.path)[1].notes:
            if "deterministic-algorithms" in note.options:
                said.add(
                    (
                        note.operations[0].replace(".modules.conv", ""),
                        note.options["deterministic-algorithms"],
                        note.options.get("when", ""),
                    )
                )
    original = (TREES / LISTS / "torch/__init__.py").read_text().splitlines()
    after = (root / "torch/__init__.py").read_text()
    kept = [line for found in before for line in (i.line for i in found.items)]
    for found in before:
        for item in found.items:
            noted = (item.operation, found.kind, item.condition) in said
            by_hand = original[item.line - 1] in after.splitlines()
            assert noted != by_hand, item
            if by_hand:
                kept.remove(item.line)
    assert len(said) == 7
    assert len(kept) == 7  # the noted items


LIST_REPORTS = [
    (
        "torch/__init__.py:{33}: the list of operations that act deterministically: "
        "items from notes: 2, kept by hand: 3 (of 5)"
    ),
    (
        "torch/__init__.py:{37}: torch.nn.ConvTranspose1d has no note: "
        "the item stays in the list, kept by hand"
    ),
    (
        "torch/__init__.py:{38}: torch.Tensor.put_ has a note, but its condition does not begin "
        "with “when”: the item stays in the list, kept by hand"
    ),
    "torch/__init__.py:{41}: torch.index_add has no note: the item stays in the list, kept by hand",
    (
        "torch/__init__.py:{43}: the list of operations that throw a RuntimeError: "
        "items from notes: 5, kept by hand: 5 (of 10)"
    ),
    "torch/__init__.py:{54}: torch.nn.CTCLoss has no note: the item stays in the list, kept by hand",
    (
        "torch/__init__.py:{55}: torch.Tensor.put_ has no note left that fits its condition, another "
        "item has it (cuda-deterministic): the item stays in the list, kept by hand"
    ),
    "torch/__init__.py:{58}: torch.histc has no note: the item stays in the list, kept by hand",
    (
        "torch/__init__.py:{59}: torch.bincount has no note that fits its condition (its notes: "
        "cuda-deterministic-backward): the item stays in the list, kept by hand"
    ),
    "torch/__init__.py:{62}: torch.median has no note: the item stays in the list, kept by hand",
    (
        "torch/_tensor_docs.py:{20}: in neither list: the cuda-deterministic note of "
        "torch.Tensor.index_add_"
    ),
    (
        "torch/_torch_docs.py:{26}: in neither list: the cuda-deterministic-backward note of "
        "torch.bincount"
    ),
    (
        "torch/nn/functional.py:{15}: in neither list: the cudnn-deterministic note of "
        "torch.nn.functional.conv1d"
    ),
    (
        "torch/nn/functional.py:{26}: in neither list: the cudnn-deterministic note of "
        "torch.nn.functional.ctc_loss"
    ),
    (
        "torch/nn/functional.py:{29}: in neither list: the cuda-deterministic-backward note of "
        "torch.nn.functional.ctc_loss"
    ),
]


def reports(lines: dict[int, int] | None = None) -> list[str]:
    return [
        re.sub(r"\{(\d+)\}", lambda m: str((lines or {}).get(int(m[1]), int(m[1]))), line)
        for line in LIST_REPORTS
    ]


def test_items_without_a_note_and_notes_in_neither_list_are_reported(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree(LISTS))

    status, out, err = run(capsys, "torch", "docs")

    assert status == migrate.LEGACY_NOTES_REMAIN
    assert "+++ torch/__init__.py" in out
    assert err.splitlines() == reports()


def test_lists_migration_is_idempotent_and_reports_with_the_new_lines(tree, capsys, monkeypatch):
    root = tree(LISTS)
    monkeypatch.chdir(root)

    status, _, err = run(capsys, "--write", "torch", "docs")

    # Where the reported lines are in the files as written.
    moved = {33: 33, 37: 40, 38: 41, 41: 43, 43: 45, 54: 52, 55: 53, 58: 54, 59: 55, 62: 57}
    moved |= {20: 20, 26: 26, 15: 15, 29: 29}
    assert status == migrate.LEGACY_NOTES_REMAIN
    assert err.splitlines() == reports(moved)
    init = Path("torch/__init__.py").read_text().splitlines()
    for report in reports(moved)[:10]:
        line, operation = re.match(r"torch/__init__.py:(\d+): (\S+)", report).groups()
        if operation == "the":  # a list's report, at its introduction
            assert init[int(line) - 1].startswith("    The following")
        else:
            assert f"`{operation}`" in init[int(line) - 1]
    migrated = snapshot(root)

    # Run again: nothing to change, the same items and notes reported; each
    # list's report is at its directive now, and counts what is left.
    for arguments in ([], ["--write"]):
        status, out, err = run(capsys, *arguments, "torch", "docs")
        assert (status, out) == (migrate.LEGACY_NOTES_REMAIN, "")
        assert snapshot(root) == migrated
        again = reports(moved)
        again[0] = (
            "torch/__init__.py:36: the list of operations that act deterministically: "
            "items from notes: 0, kept by hand: 3 (of 3)"
        )
        again[4] = (
            "torch/__init__.py:48: the list of operations that throw a RuntimeError: "
            "items from notes: 0, kept by hand: 5 (of 5)"
        )
        assert err.splitlines() == again
        assert init[35].strip() == init[47].strip() == ".. nondeterministic-ops::"


def test_an_item_whose_note_is_written_later_leaves_the_list(tree, capsys):
    # After migration, someone writes torch.histc's note with what its item
    # said: migrate takes the item off the list kept by hand.
    root = tree(LISTS)
    run(capsys, "--write", str(root))
    torch_rst = root / "docs/source/torch.rst"
    torch_rst.write_text(
        torch_rst.read_text().replace(
            ".. autofunction:: histc\n",
            ".. autofunction:: histc\n\n"
            "   .. cuda-deterministic::\n"
            "      :deterministic-algorithms: raises\n"
            "      :when: called on a CUDA tensor\n",
        )
    )
    torch_rst_written = torch_rst.read_text()

    status, _, err = run(capsys, "--write", str(root))

    assert status == migrate.LEGACY_NOTES_REMAIN  # the other items kept by hand
    init = (root / "torch/__init__.py").read_text()
    assert ":func:`torch.histc`" not in init
    assert (
        MIGRATED_INIT.replace("        * :func:`torch.histc` when called on a CUDA tensor\n", "")
        in init
    )
    assert torch_rst.read_text() == torch_rst_written  # the note already said it
    assert "items from notes: 1, kept by hand: 4 (of 5)" in err
    assert "torch.histc" not in err


def test_a_remainder_whose_items_all_have_notes_goes(tmp_path, capsys):
    source = tmp_path / "mode.py"
    source.write_text(
        "def use_deterministic_algorithms(mode):\n"
        '    """Sets it.\n'
        "\n"
        "    The following normally-nondeterministic operations will throw a\n"
        "    :class:`RuntimeError` when ``mode=True``:\n"
        "\n"
        "        .. nondeterministic-ops::\n"
        "           :format: list\n"
        "           :deterministic-algorithms: raises\n"
        "\n"
        "        * :func:`mode.histc` when called on a CUDA tensor\n"
        "\n"
        "    Args:\n"
        "        mode (bool): on or off\n"
        '    """\n'
        "\n"
        "\n"
        "def histc():\n"
        '    """Histogram.\n'
        "\n"
        "    .. cuda-deterministic::\n"
        '    """\n'
    )

    status, _, err = run(capsys, "--write", str(source))

    assert status == migrate.NOTHING_TO_MIGRATE
    assert source.read_text().splitlines()[6:12] == [
        "        .. nondeterministic-ops::",
        "           :format: list",
        "           :deterministic-algorithms: raises",
        "",
        "    Args:",
        "        mode (bool): on or off",
    ]
    assert source.read_text().splitlines()[18:22] == [
        "    .. cuda-deterministic::",
        "       :deterministic-algorithms: raises",
        "       :when: called on a CUDA tensor",
        '    """',
    ]
    assert err == (
        f"{source}:7: the list of operations that throw a RuntimeError: "
        "items from notes: 1, kept by hand: 0 (of 1)\n"
    )


def test_a_list_no_note_would_be_in_stays_as_it_is(tree, capsys):
    # Replaced by its directive, the list would show no operation (only the
    # items kept by hand, after "no operation is noted").
    root = tree("pytorch-2")
    init = root / "torch/__init__.py"
    init.write_text(
        init.read_text() + '\n\ndef use_deterministic_algorithms(mode):\n    """Sets it.\n\n'
        "    The following normally-nondeterministic operations will act\n"
        "    deterministically when ``mode=True``:\n\n"
        "        * :func:`torch.gather` when called on a CUDA tensor that requires grad\n"
        '    """\n'
    )
    before = init.read_text()

    status, _, err = run(capsys, "--write", str(root))

    assert init.read_text() == before
    assert status == migrate.LEGACY_NOTES_REMAIN
    assert (
        f"{init}:26: the list of operations that act deterministically stays as it is: "
        "no note would be in it (kept by hand: 1)\n"
        f"{init}:29: torch.gather has no note: the item stays in the list, kept by hand\n"
    ) in err
    # Its notes are in neither list.
    assert "in neither list: the cuda-deterministic-backward note of torch.bincount" in err


def test_two_notes_that_fit_equally_are_left_to_a_person(tmp_path, capsys):
    page = tmp_path / "ops.rst"
    page.write_text(
        "The following normally-nondeterministic operations will throw a\n"
        "RuntimeError when ``mode=True``:\n"
        "\n"
        "* :func:`ops.f` when called on a CUDA tensor\n"
        "\n"
        ".. py:function:: ops.f()\n"
        "\n"
        "   .. nondeterministic::\n"
        "\n"
        "   .. nondeterministic::\n"
        "      :backend: ROCm\n"
    )
    before = page.read_text()

    status, out, err = run(capsys, "--write", str(page))

    assert (status, out, page.read_text()) == (migrate.LEGACY_NOTES_REMAIN, "", before)
    assert (
        f"{page}:4: ops.f has several notes that fit its condition equally (nondeterministic): "
        "the item stays in the list, kept by hand\n"
    ) in err


def wordings(text: str) -> list[str]:
    return re.findall(r":wording: (\S+)", text)


@pytest.mark.parametrize(
    ("site", "include", "placeholders"),
    [
        ("pytorch-1.4", [], ["pytorch-2"] * 9),  # the default
        ("pytorch-2", ["pytorch-1.4"], []),
        ("ours", ["pytorch-1.4"], ["pytorch-2"] * 9),
    ],
)
def test_a_note_keeps_its_words_where_the_site_has_others(
    tree, capsys, site, include, placeholders
):
    root = tree(LISTS)
    arguments = ["--wording", site] if site != "pytorch-1.4" else []
    run(capsys, "--write", *arguments, str(root))

    assert wordings((root / "docs/source/torch.rst").read_text()) == include
    python = [path.read_text() for path in sorted((root / "torch").rglob("*.py"))]
    assert [w for text in python for w in wordings(text)] == placeholders
    # A directive already there keeps the site's wording.
    assert wordings((root / "docs/source/nn.rst").read_text()) == []


def test_the_default_wording_is_the_extensions():
    from reprodocs.notes.wording import DEFAULT_SET

    assert migrate.DEFAULT_WORDING == DEFAULT_SET


def test_wording_takes_a_set_name(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["migrate", "--wording", "pytorch 2", str(tmp_path)])
    assert exit_.value.code == 2
    assert "--wording: not the name of a wording set: 'pytorch 2'" in capsys.readouterr().err


def list_items(page: Path) -> list[list[tuple[str, list[str]]]]:
    """The items of use_deterministic_algorithms' lists, each list's items
    (the generated ones and those kept by hand after them) with their links."""
    soup = parse_html(page)
    body = soup.find(id="torch.use_deterministic_algorithms").find_next_sibling("dd")
    return [
        [
            (" ".join(item.get_text().split()), [a["href"] for a in item.find_all("a")])
            for bullets in quote.find_all("ul")
            if bullets.find_parent("li") is None  # not the list of modes in an item
            for item in bullets.find_all("li", recursive=False)
        ]
        for quote in body.find_all("blockquote", recursive=False)
    ]


def test_the_lists_render_the_same_items_after_migration(tree, capsys, build_docs, build_html):
    original = tree(LISTS, to="original")
    migrated = tree(LISTS, to="migrated")
    run(capsys, "--write", "--wording", "pytorch-2", str(migrated))

    before = list_items(build_html(original, reprodocs_wording="pytorch-2") / "torch.html")
    after = list_items(build_html(migrated, reprodocs_wording="pytorch-2") / "torch.html")

    # Item for item the same words and links, in another order: the
    # generated items first, sorted as the table sorts, then those kept by
    # hand. The modes interpolate's item listed are words of its :when:.
    interpolate = (
        (
            "torch.nn.functional.interpolate() when attempting to differentiate a CUDA tensor and "
            "one of the following modes is used: linear bilinear"
        ),
        ["nn.functional.html#torch.nn.functional.interpolate"],
    )
    assert interpolate in before[1]
    inline = (interpolate[0].replace("linear bilinear", "linear, bilinear"), interpolate[1])
    assert sorted(after[0]) == sorted(before[0])
    assert sorted(after[1]) == sorted([inline if i == interpolate else i for i in before[1]])
    assert [text for text, _ in after[0][:2]] == [
        "torch.Tensor.scatter_add_() when called on a CUDA tensor",
        "torch.nn.Conv1d when called on CUDA tensor",
    ]
    # And each note is the same, but for what it now says of deterministic mode.
    notes_before, prose_before = build_docs(original, reprodocs_wording="pytorch-2")
    notes_after, prose_after = build_docs(migrated, reprodocs_wording="pytorch-2")
    assert set(notes_after) == set(notes_before)
    listed = {
        "torch.nn.Conv1d",
        "torch.Tensor.put_",
        "torch.Tensor.scatter_add_",
        "torch.nn.functional.interpolate",
        "torch.nn.AvgPool3d",
        "nn.html",  # torch.nn.MaxUnpool1d's, written on the page
        "torch.cumsum",
    }
    for name, notes in notes_before.items():
        if name not in listed:
            assert notes_after[name] == notes, name
    assert {name for name in prose_before if prose_after[name] != prose_before[name]} == {
        "torch.use_deterministic_algorithms"
    }


def test_an_item_whose_note_cannot_be_written_stays_in_its_list(tree, capsys, monkeypatch):
    # torch/nn/modules/conv.py is read-only: Conv1d's note keeps its legacy
    # form, so its item must stay in the list (written after the notes).
    monkeypatch.chdir(tree(LISTS))
    conv = Path("torch/nn/modules/conv.py")
    conv.chmod(0o444)
    before = conv.read_text()

    status, out, err = run(capsys, "--write", "torch", "docs")

    assert status == migrate.FILE_ERROR
    assert conv.read_text() == before
    assert "rewrote torch/__init__.py\n" in out
    init = Path("torch/__init__.py").read_text()
    assert (
        "           :deterministic-algorithms: deterministic\n"
        "\n"
        "        * :class:`torch.nn.Conv1d` when called on CUDA tensor\n"
        "        * :class:`torch.nn.ConvTranspose1d` when called on CUDA tensor\n"
    ) in init
    assert "torch/nn/modules/conv.py: cannot migrate it: read-only (mode 0444)" in err
    assert (
        "torch/__init__.py:40: torch.nn.Conv1d: its note could not be written with the options: "
        "the item stays in the list, kept by hand"
    ) in err.splitlines()
    assert (
        "torch/nn/modules/conv.py:15: in neither list: the cudnn-deterministic note of "
        "torch.nn.modules.conv.Conv1d"
    ) in err.splitlines()
    assert "act deterministically: items from notes: 1, kept by hand: 4 (of 5)" in err


def test_an_item_whose_note_would_change_a_string_s_escapes_stays_in_its_list(tmp_path, capsys):
    # The condition's backslash, written into a string that is not raw,
    # would read otherwise: the note is left as is, so the item stays.
    source = tmp_path / "ops.py"
    source.write_text(
        "def use_deterministic_algorithms(mode):\n"
        '    r"""Sets it.\n'
        "\n"
        "    The following normally-nondeterministic operations will throw a\n"
        "    :class:`RuntimeError` when ``mode=True``:\n"
        "\n"
        "        * :func:`ops.split` when called with ``\\\\d`` on a CUDA tensor\n"
        "        * :func:`ops.join` when called on a CUDA tensor\n"
        '    """\n'
        "\n"
        "\n"
        "def split():\n"
        '    """Split.\n'
        "\n"
        "    .. cuda-deterministic::\n"
        '    """\n'
        "\n"
        "\n"
        "def join():\n"
        '    """Join.\n'
        "\n"
        "    .. cuda-deterministic::\n"
        '    """\n'
    )

    status, _, err = run(capsys, "--write", str(source))

    text = source.read_text()
    assert status == migrate.LEGACY_NOTES_REMAIN
    assert "* :func:`ops.split` when called with ``\\\\d`` on a CUDA tensor\n" in text
    assert "* :func:`ops.join`" not in text
    assert text.count(":deterministic-algorithms: raises") == 2  # the list's, join's
    # The note's notice, then the lists' report.
    assert err.splitlines() == [
        f"{source}:18: left as is: the options of this note would change its string's escapes",
        (
            f"{source}:4: the list of operations that throw a RuntimeError: items from notes: 1, "
            "kept by hand: 1 (of 2)"
        ),
        (
            f"{source}:11: ops.split: its note could not be written with the options: the item "
            "stays in the list, kept by hand"
        ),
        f"{source}:18: in neither list: the cuda-deterministic note of ops.split",
    ]
