"""``python -m reprodocs migrate`` on trees laid out as PyTorch lays them out
(tests/migrate/pytorch-1.4 and tests/migrate/pytorch-2): the diff, the
rewrite, what it leaves alone, and the built notes before and after."""

from __future__ import annotations

import io
import locale
import shutil
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
