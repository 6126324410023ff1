"""reprodocs.migrate.command: ``python -m reprodocs migrate``, its arguments,
diff and write modes, what it says and its exit status; the lists' plan
kept whole when a note's options cannot be written."""

from __future__ import annotations

import locale
import re
import subprocess
import sys
from collections import defaultdict
from gettext import NullTranslations
from pathlib import Path

import pytest
import sphinx.locale

import migrate_support
from migrate_support import LISTS, reports, run, snapshot
from reprodocs import migrate
from reprodocs.__main__ import main

# The fixtures these tests take, by their names.
tree = migrate_support.tree


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


def test_migration_is_idempotent(tree, capsys):
    for name in ("pytorch-1.4", "pytorch-2"):
        root = tree(name, to=name)
        assert run(capsys, "--write", str(root))[0] == migrate.NOTHING_TO_MIGRATE
        migrated = snapshot(root)

        assert run(capsys, str(root)) == (migrate.NOTHING_TO_MIGRATE, "", "")
        assert run(capsys, "--write", str(root)) == (migrate.NOTHING_TO_MIGRATE, "", "")
        assert snapshot(root) == migrated


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


def test_wording_takes_a_set_name(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["migrate", "--wording", "pytorch 2", str(tmp_path)])
    assert exit_.value.code == 2
    assert "--wording: not the name of a wording set: 'pytorch 2'" in capsys.readouterr().err


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


def test_a_note_that_cannot_take_its_options_in_a_file_without_a_list_is_left(tmp_path, capsys):
    # Once the note is left without options, its file has nothing planned:
    # it is migrated as it would be without the lists (this once ran for ever).
    (tmp_path / "ops.py").write_text(
        'def split():\n    """Split.\n\n    .. cuda-deterministic::\n    """\n'
    )
    (tmp_path / "mode.rst").write_text(
        "The following normally-nondeterministic operations will throw a\n"
        "RuntimeError when ``mode=True``:\n"
        "\n"
        "* :func:`ops.split` when called with ``\\\\d`` on a CUDA tensor\n"
    )
    before = snapshot(tmp_path)

    status, out, err = run(capsys, "--write", str(tmp_path))

    assert (status, out, snapshot(tmp_path)) == (migrate.LEGACY_NOTES_REMAIN, "", before)
    assert err.splitlines() == [
        (
            f"{tmp_path / 'mode.rst'}:1: the list of operations that throw a RuntimeError "
            "stays as it is: no note would be in it (kept by hand: 1)"
        ),
        (
            f"{tmp_path / 'mode.rst'}:4: ops.split: its note could not be written with the "
            "options: the item stays in the list, kept by hand"
        ),
        (
            f"{tmp_path / 'ops.py'}:4: left as is: the options of this note would change its "
            "string's escapes"
        ),
        f"{tmp_path / 'ops.py'}:4: in neither list: the cuda-deterministic note of ops.split",
    ]
