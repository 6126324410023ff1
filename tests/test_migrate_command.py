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
from reprodocs.migrate import command

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
    # The placeholder stays as the note's :runtime-text:, what help() shows.
    assert added == [
        ".. cuda-deterministic::",
        "   :wording: pytorch-2",
        "   :runtime-text: {forward_reproducibility_note}",
        ".. cuda-deterministic-backward::",
        "   :wording: pytorch-2",
        "   :runtime-text: {backward_reproducibility_note}",
        ".. cudnn-deterministic::",
        "   :wording: pytorch-2",
        "   :runtime-text: {cudnn_reproducibility_note}",
        "    .. cuda-deterministic-backward::",
        "       :wording: pytorch-2",
        "       :runtime-text: {backward_reproducibility_note}",
        "    .. cudnn-deterministic::",
        "       :wording: pytorch-2",
        "       :runtime-text: {cudnn_reproducibility_note}",
        "    .. cuda-deterministic-backward::",
        "       :wording: pytorch-2",
        "       :runtime-text: {backward_reproducibility_note}",
        "    .. cuda-deterministic-backward::",
        "       :wording: pytorch-2",
        "       :runtime-text: {backward_reproducibility_note}",
        "",
        "    .. cudnn-deterministic::",
        "       :wording: pytorch-2",
        "       :runtime-text: {cudnn_reproducibility_note}",
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


def break_syntax(path: Path, monkeypatch) -> str:
    path.write_text(path.read_text() + "def broken(:\n")
    return f"{path}:{path.read_text().count(chr(10))}: cannot migrate it: invalid syntax"


def break_encoding(path: Path, monkeypatch) -> str:
    path.write_bytes(path.read_bytes() + b"# \xff\n")
    line = path.read_bytes().count(b"\n")
    return f"{path}:{line}: cannot migrate it: 'utf-8' codec can't decode byte 0xff"


def break_reading(path: Path, monkeypatch) -> str:
    read_bytes = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self == path:
            raise PermissionError(13, "Permission denied")
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    return f"{path}: cannot migrate it: [Errno 13] Permission denied"


#: Each file, and the operations of the lists it may document (or whose
#: notes it may hold, in any of their forms).
DEPENDING_ON = {
    # Notes as placeholders: interpolate's, and ctc_loss's (torch.nn.CTCLoss
    # in the list), conv1d's (torch.nn.Conv1d).
    "torch/nn/functional.py": [
        "torch.nn.functional.interpolate",
        "torch.nn.CTCLoss",
        "torch.nn.Conv1d",
    ],
    # No legacy note: only the docstrings of operations the lists name.
    "torch/nn/modules/pooling.py": ["torch.nn.AvgPool3d", "torch.nn.MaxUnpool1d"],
}
#: Every operation the lists name.
HELD_BY_ANY = [
    *DEPENDING_ON["torch/nn/functional.py"],
    *DEPENDING_ON["torch/nn/modules/pooling.py"],
    "torch.nn.ConvTranspose1d",
    "torch.Tensor.put_",
    "torch.Tensor.scatter_add_",
    "torch.index_add",
    "torch.histc",
    "torch.bincount",
    "torch.cumsum",
    "torch.median",
]


@pytest.mark.parametrize("broken", DEPENDING_ON)
@pytest.mark.parametrize("fault", [break_syntax, break_encoding, break_reading])
def test_a_file_that_cannot_be_read_holds_back_what_depends_on_it(
    tree, capsys, monkeypatch, broken, fault
):
    clean = tree(LISTS, to="clean")
    assert run(capsys, "--write", str(clean / "torch"))[0] == migrate.NOTHING_TO_MIGRATE
    root = tree(LISTS)
    monkeypatch.chdir(root)
    original = Path(broken).read_bytes()
    with monkeypatch.context() as patched:
        said = fault(Path(broken), patched)
        before = Path(broken).stat().st_mtime_ns, Path(broken).stat().st_ino

        status, _, err = run(capsys, "--write", "torch")

        assert status == migrate.FILE_ERROR
        assert [line for line in err.splitlines() if said in line]
        assert (Path(broken).stat().st_mtime_ns, Path(broken).stat().st_ino) == before
        # Its operations stay in their lists, kept by hand; no entry or
        # option of theirs is written anywhere. (A file that could not be
        # read at all may hold any.)
        held = DEPENDING_ON[broken] if fault is not break_reading else HELD_BY_ANY
        for operation in held:
            assert (
                f"{operation}: kept by hand for now: {said.partition(': cannot')[0]} could not be "
                "read or parsed"
            ) in err
        written = "".join(p.read_text(errors="replace") for p in Path("torch").rglob("*.py"))
        for operation in held:
            assert not re.search(rf":(op|listed-as|aliases): {re.escape(operation)}\n", written)

    # Once it is fixed, a second run gives what a run on the fixed tree gives.
    Path(broken).write_bytes(original)
    assert run(capsys, "--write", "torch")[0] == migrate.NOTHING_TO_MIGRATE
    assert snapshot(root) == snapshot(clean)


def test_a_file_that_may_document_a_listed_operation_and_cannot_be_parsed_is_reported(
    tree, capsys, monkeypatch
):
    # It holds no legacy note: it is parsed for the docstrings only. Without
    # --write too; and survey() holds its items back alike.
    monkeypatch.chdir(tree(LISTS))
    said = break_syntax(Path("torch/nn/modules/pooling.py"), monkeypatch)

    status, out, err = run(capsys, "torch")

    assert status == migrate.FILE_ERROR
    assert said in err.splitlines()
    assert ":op: torch.nn.AvgPool3d" not in out
    # The whole list the pooling items are in: it stays as written.
    outcome = migrate.survey(["torch"])
    kept = [item.operation for item, _ in outcome.kept]
    assert {"torch.nn.AvgPool3d", "torch.nn.MaxUnpool1d", "torch.histc"} <= set(kept)
    assert {found.kind for _, found in outcome.kept} == {"raises"}


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

    # Where the reported lines are in the files as written: each item on its
    # own line, now in its list directive's content (what help() shows);
    # ctc_loss's note below conv1d's, which gained its :runtime-text:.
    moved = {line: line + 4 for line in (36, 37, 38, 40, 41, 43)}
    moved |= {line: line + 8 for line in (46, 47, 48, 54, 55, 56, 58, 59, 61, 62)}

    expected = [line.replace("functional.py:26:", "functional.py:27:") for line in reports(moved)]
    assert status == migrate.NOTHING_TO_MIGRATE
    assert err.splitlines() == expected
    init = Path("torch/__init__.py").read_text().splitlines()
    assert init[32].startswith("    The following") and init[46].startswith("    The following")
    migrated = snapshot(root)

    # Run again: nothing to change; nothing left to report but the notes in
    # neither list.
    for arguments in ([], ["--write"]):
        status, out, err = run(capsys, *arguments, "torch", "docs")
        assert (status, out) == (migrate.NOTHING_TO_MIGRATE, "")
        assert snapshot(root) == migrated
        assert err.splitlines() == [line for line in expected if "in neither list" in line]
        assert init[35].strip() == init[49].strip() == ".. nondeterministic-ops::"


def test_wording_takes_a_set_name(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["migrate", "--wording", "pytorch 2", str(tmp_path)])
    assert exit_.value.code == 2
    assert "--wording: not the name of a wording set: 'pytorch 2'" in capsys.readouterr().err


def test_an_item_whose_note_cannot_be_written_gets_an_entry_in_its_list(tree, capsys, monkeypatch):
    # torch/nn/modules/conv.py is read-only: Conv1d's note keeps its legacy
    # form, and ConvTranspose1d's docstring takes no entry, so their items
    # get entries in the list's place (written after the notes).
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
        "        * :func:`torch.index_add` when called on CUDA tensor\n"
        "\n"
        "    .. nondeterministic-entry::\n"
        "       :op: torch.nn.Conv1d\n"
    ) in init
    assert ":op: torch.nn.ConvTranspose1d\n" in init
    assert "torch/nn/modules/conv.py: cannot migrate it: read-only (mode 0444)" in err
    assert (
        "torch/__init__.py:40: torch.nn.Conv1d: its note in torch/nn/modules/conv.py could not be "
        "written with what the list says: an entry naming it (:op:) takes its place in the list: "
        "no docstring of it in the files migrated can take one"
    ) in err.splitlines()
    assert (
        "torch/nn/modules/conv.py:15: in neither list: the cudnn-deterministic note of "
        "torch.nn.modules.conv.Conv1d"
    ) in err.splitlines()
    assert (
        "act deterministically: items from notes: 2, from entries added: 3, kept by hand: 0 (of 5)"
    ) in err


def test_an_item_whose_note_would_change_a_string_s_escapes_gets_an_entry_in_its_list(
    tmp_path, capsys
):
    # The condition's backslash, written into a string that is not raw,
    # would read otherwise: the note is left as is, and its docstring takes
    # no entry; the list's own string, raw, takes it.
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
    assert status == migrate.LEGACY_NOTES_REMAIN  # split's note, left as is
    # The items stay, as the list directive's content (what help() shows).
    assert text.count("* :func:") == 2
    assert (
        "    .. nondeterministic-entry::\n"
        "       :op: ops.split\n"
        "       :backend: CUDA\n"
        "       :pass: forward\n"
        "       :deterministic-algorithms: raises\n"
        "       :when: called with ``\\\\d`` on a CUDA tensor\n"
        '    """\n'
    ) in text
    # The list directive's, the entry's, join's.
    assert text.count(":deterministic-algorithms: raises") == 3
    # The note's notice, then the lists' report.
    assert err.splitlines() == [
        (
            f"{source}:26: left as is: the options or entries planned here would change its "
            "string's escapes"
        ),
        (
            f"{source}:4: the list of operations that throw a RuntimeError: items from notes: 1, "
            "from entries added: 1, kept by hand: 0 (of 2)"
        ),
        (
            f"{source}:11: ops.split: its note in {source} could not be written with what the "
            "list says: an entry naming it (:op:) takes its place in the list: no docstring of "
            "it in the files migrated can take one"
        ),
        f"{source}:12: ops.join: from its cuda-deterministic note in {source}",
        f"{source}:26: in neither list: the cuda-deterministic note of ops.split",
    ]


def test_a_note_that_cannot_take_its_options_in_a_file_without_a_list_is_left(tmp_path, capsys):
    # Once the note is left without options, its file has nothing planned:
    # it is migrated as it would be without the lists (this once ran for
    # ever); the item gets an entry in the list's place.
    (tmp_path / "ops.py").write_text(
        'def split():\n    """Split.\n\n    .. cuda-deterministic::\n    """\n'
    )
    (tmp_path / "mode.rst").write_text(
        "The following normally-nondeterministic operations will throw a\n"
        "RuntimeError when ``mode=True``:\n"
        "\n"
        "* :func:`ops.split` when called with ``\\\\d`` on a CUDA tensor\n"
    )
    before = (tmp_path / "ops.py").read_text()

    status, out, err = run(capsys, "--write", str(tmp_path))

    assert status == migrate.LEGACY_NOTES_REMAIN
    assert out == f"rewrote {tmp_path / 'mode.rst'}\n"
    assert (tmp_path / "ops.py").read_text() == before
    assert (
        (tmp_path / "mode.rst")
        .read_text()
        .endswith(
            ".. nondeterministic-entry::\n"
            "   :op: ops.split\n"
            "   :backend: CUDA\n"
            "   :pass: forward\n"
            "   :deterministic-algorithms: raises\n"
            "   :when: called with ``\\\\d`` on a CUDA tensor\n"
        )
    )
    assert err.splitlines() == [
        (
            f"{tmp_path / 'mode.rst'}:1: the list of operations that throw a RuntimeError: "
            "items from notes: 0, from entries added: 1, kept by hand: 0 (of 1)"
        ),
        (
            f"{tmp_path / 'mode.rst'}:8: ops.split: its note in {tmp_path / 'ops.py'} could not "
            "be written with what the list says: an entry naming it (:op:) takes its place in "
            "the list: no docstring of it in the files migrated can take one"
        ),
        (
            f"{tmp_path / 'ops.py'}:4: left as is: the options or entries planned here would "
            "change its string's escapes"
        ),
        f"{tmp_path / 'ops.py'}:4: in neither list: the cuda-deterministic note of ops.split",
    ]


def test_a_list_is_not_written_when_a_file_its_plan_relies_on_could_not_be(
    tree, capsys, monkeypatch
):
    # A write that fails unforeseen (the disk full): the list's file, which
    # relies on the notes there, is held back whole, and nothing is matched
    # again; a second run gives what a clean run gives.
    clean = tree(LISTS, to="clean")
    assert run(capsys, "--write", str(clean / "torch"))[0] == migrate.NOTHING_TO_MIGRATE
    root = tree(LISTS)
    monkeypatch.chdir(root)
    before = snapshot(root)
    conv = Path("torch/nn/modules/conv.py")
    write = command.write_atomically

    def disk_full(path, *args):
        if path == conv.resolve():
            raise OSError(28, "No space left on device")
        write(path, *args)

    with monkeypatch.context() as patched:
        patched.setattr(command, "write_atomically", disk_full)
        status, out, err = run(capsys, "--write", "torch")

    assert status == migrate.FILE_ERROR
    assert f"{conv}: cannot migrate it: [Errno 28] No space left on device" in err.splitlines()
    assert (
        "torch/__init__.py: cannot migrate it: its lists' plan relies on "
        f"{conv}, which could not be written (run migrate again)"
    ) in err.splitlines()
    assert "rewrote torch/__init__.py" not in out
    after = snapshot(root)
    assert after["torch/__init__.py"] == before["torch/__init__.py"]
    assert after[str(conv)] == before[str(conv)]

    assert run(capsys, "--write", "torch")[0] == migrate.NOTHING_TO_MIGRATE
    assert snapshot(root) == snapshot(clean)


#: Files whose notes and docstrings take items of the lists: a note and a
#: docstring (conv.py), notes named otherwise (functional.py: :aliases:),
#: a note and an entry of one operation (_tensor_docs.py: put_), docstrings
#: taking entries (_torch_docs.py: histc, bincount).
TAKING_ITEMS = [
    "torch/nn/modules/conv.py",
    "torch/nn/functional.py",
    "torch/_tensor_docs.py",
    "torch/_torch_docs.py",
]


@pytest.mark.parametrize("read_only", TAKING_ITEMS)
def test_a_read_only_file_made_writable_converges_to_a_clean_migration(
    tree, capsys, monkeypatch, read_only
):
    # Read-only, its items' entries stand in the lists' place; once it is
    # writable, a second run moves them to its notes and docstrings, as a
    # clean run places them.
    clean = tree(LISTS, to="clean")
    assert run(capsys, "--write", str(clean / "torch"))[0] == migrate.NOTHING_TO_MIGRATE
    root = tree(LISTS)
    monkeypatch.chdir(root)
    path = Path(read_only)
    original = path.read_bytes()
    path.chmod(0o444)

    status, _, err = run(capsys, "--write", "torch")

    assert status == migrate.FILE_ERROR
    assert f"{path}: cannot migrate it: read-only (mode 0444)" in err.splitlines()
    assert path.read_bytes() == original
    assert snapshot(root) != snapshot(clean)

    path.chmod(0o644)
    assert run(capsys, "--write", "torch")[0] == migrate.NOTHING_TO_MIGRATE
    assert snapshot(root) == snapshot(clean)
    assert run(capsys, "--write", "torch")[1] == ""  # and stays so


def test_an_entry_in_a_list_s_place_edited_by_hand_stays(tree, capsys, monkeypatch):
    # Someone changed what migrate wrote there: moving it to the note would
    # drop the change, so it stays, and the note is in neither list.
    monkeypatch.chdir(tree(LISTS))
    conv = Path("torch/nn/modules/conv.py")
    conv.chmod(0o444)
    assert run(capsys, "--write", "torch")[0] == migrate.FILE_ERROR
    conv.chmod(0o644)
    init = Path("torch/__init__.py")
    edited = init.read_text().replace(
        "       :op: torch.nn.Conv1d\n       :backend: CUDA\n",
        "       :op: torch.nn.Conv1d\n       :backend: CUDA, XPU\n",
    )
    assert edited != init.read_text()
    init.write_text(edited)

    status, _, err = run(capsys, "--write", "torch")

    # The other entry there, as migrate wrote it, goes to its docstring.
    assert "       :op: torch.nn.Conv1d\n       :backend: CUDA, XPU\n" in init.read_text()
    assert ":op: torch.nn.ConvTranspose1d" not in init.read_text()
    assert (
        ":deterministic-algorithms:" not in conv.read_text().partition("class ConvTranspose1d")[0]
    )
    assert (
        "torch/nn/modules/conv.py:15: in neither list: the cudnn-deterministic note of "
        "torch.nn.modules.conv.Conv1d"
    ) in err.splitlines()
    assert status == migrate.NOTHING_TO_MIGRATE
