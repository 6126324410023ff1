"""What the tests of migrate share (tests/test_migrate_*.py, one per module
of reprodocs.migrate): the trees laid out as PyTorch lays them out
(tests/migrate/pytorch-1.4, pytorch-2 and pytorch-2.13), running the command,
building the docs before and after. A test module takes a fixture by
naming it (``tree = migrate_support.tree``)."""

from __future__ import annotations

import io
import re
import shutil
import sys
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from conftest import notes_in, parse_html, text_of
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


def forget_torch() -> dict:
    """Unload the torch package (the demo's, or a tree's) and return it."""
    names = [name for name in sys.modules if name == "torch" or name.startswith("torch.")]
    return {name: sys.modules.pop(name) for name in names}


def built_without_warning(srcdir: Path, **confoverrides) -> Path:
    """Build *srcdir*'s HTML, with no warning; return the output directory."""
    warnings = io.StringIO()  # app.warning is Sphinx 7.3 on
    # Each build's global state undone before the next one starts
    # (make_app would undo both at the end, in an order Sphinx 7.2 gets wrong).
    app = SphinxTestApp(
        "html",
        srcdir=srcdir,
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


@pytest.fixture
def build_html():
    """Build a tree's docs/source (autodoc imports the tree's own torch
    package, never one imported before), with no warning; return the
    output directory."""
    imported_before = forget_torch()

    def build(root: Path, **confoverrides) -> Path:
        forget_torch()
        return built_without_warning(root / "docs/source", **confoverrides)

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


#: The tree of the lists of torch.use_deterministic_algorithms: its
#: docstring's two lists, notes as placeholders in _torch_docs.py,
#: _tensor_docs.py, nn/functional.py and nn/modules/conv.py, an include and
#: two directives already there in docs/source.
LISTS = "pytorch-2.13"


MIGRATED_INIT = """\
    The following normally-nondeterministic operations will act
    deterministically when ``mode=True``:

    .. nondeterministic-ops::
       :format: list
       :deterministic-algorithms: deterministic

        * :class:`torch.nn.Conv1d` when called on CUDA tensor
        * :class:`torch.nn.ConvTranspose1d` when called on CUDA tensor
        * :func:`torch.Tensor.put_` with ``accumulate=True`` when called on a CPU
          tensor
        * :func:`torch.Tensor.scatter_add_` when called on a CUDA tensor
        * :func:`torch.index_add` when called on CUDA tensor

    The following normally-nondeterministic operations will throw a
    :class:`RuntimeError` when ``mode=True``:

    .. nondeterministic-ops::
       :format: list
       :deterministic-algorithms: raises

        * :class:`torch.nn.AvgPool3d` when attempting to differentiate a CUDA tensor
        * :class:`torch.nn.MaxUnpool1d`
        * :func:`torch.nn.functional.interpolate` when attempting to differentiate a CUDA tensor
          and one of the following modes is used:

          - ``linear``
          - ``bilinear``

        * :class:`torch.nn.CTCLoss` when attempting to differentiate a CUDA tensor
        * :meth:`torch.Tensor.put_` when ``accumulate=False``
        * :func:`torch.Tensor.put_` when ``accumulate=True`` and called on a CUDA
          tensor
        * :func:`torch.histc` when called on a CUDA tensor
        * :func:`torch.bincount` when called on a CUDA tensor and ``weights``
          tensor is given
        * :func:`torch.cumsum` when called on a CUDA tensor when dtype is floating point or complex
        * :func:`torch.median` with indices output when called on a CUDA tensor

    .. nondeterministic-entry::
       :op: torch.median
       :backend: CUDA
       :pass: forward
       :deterministic-algorithms: raises
       :with: indices output
       :when: called on a CUDA tensor

    Note that deterministic operations"""


LIST_REPORTS = [
    "torch/__init__.py:{33}: the list of operations that act deterministically: items from notes: 3, from entries added: 2, kept by hand: 0 (of 5)",
    "torch/__init__.py:{36}: torch.nn.Conv1d: from its cudnn-deterministic note in torch/nn/modules/conv.py",
    "torch/__init__.py:{37}: torch.nn.ConvTranspose1d has a note in prose (torch/nn/modules/conv.py:32), whose words are kept: an entry that renders nothing is added to its docstring in torch/nn/modules/conv.py",
    "torch/__init__.py:{38}: torch.Tensor.put_: its notes do not fit its condition (cuda-deterministic): an entry that renders nothing is added to its docstring in torch/_tensor_docs.py",
    "torch/__init__.py:{40}: torch.Tensor.scatter_add_: from its cuda-deterministic note in torch/_tensor_docs.py",
    "torch/__init__.py:{41}: torch.index_add: from the cuda-deterministic note of torch.Tensor.index_add_ in torch/_tensor_docs.py, which the list names so (:listed-as:)",
    "torch/__init__.py:{43}: the list of operations that throw a RuntimeError: items from notes: 6, from entries added: 4, kept by hand: 0 (of 10)",
    "torch/__init__.py:{46}: torch.nn.AvgPool3d: from its cuda-deterministic-backward note in docs/source/nn.rst",
    "torch/__init__.py:{47}: torch.nn.MaxUnpool1d: from its nondeterministic note in docs/source/nn.rst",
    "torch/__init__.py:{48}: torch.nn.functional.interpolate: from its cuda-deterministic-backward note in torch/nn/functional.py",
    "torch/__init__.py:{54}: torch.nn.CTCLoss: from the cuda-deterministic-backward note of torch.nn.functional.ctc_loss in torch/nn/functional.py, which the list names so (:listed-as:)",
    "torch/__init__.py:{55}: torch.Tensor.put_: its notes that fit its condition say another item (cuda-deterministic): an entry that renders nothing is added to its docstring in torch/_tensor_docs.py",
    "torch/__init__.py:{56}: torch.Tensor.put_: from its cuda-deterministic note in torch/_tensor_docs.py",
    "torch/__init__.py:{58}: torch.histc has no note: an entry that renders nothing is added to its docstring in torch/_torch_docs.py",
    "torch/__init__.py:{59}: torch.bincount: its notes do not fit its condition (cuda-deterministic-backward): an entry that renders nothing is added to its docstring in torch/_torch_docs.py",
    "torch/__init__.py:{61}: torch.cumsum: from its cuda-deterministic note in docs/source/torch.rst",
    "torch/__init__.py:{62}: torch.median has no note: an entry naming it (:op:) takes its place in the list: no docstring of it in the files migrated can take one",
    "torch/_torch_docs.py:{26}: in neither list: the cuda-deterministic-backward note of torch.bincount",
    "torch/nn/functional.py:{15}: in neither list: the cudnn-deterministic note of torch.nn.functional.conv1d",
    "torch/nn/functional.py:{26}: in neither list: the cudnn-deterministic note of torch.nn.functional.ctc_loss",
]


def reports(lines: dict[int, int] | None = None) -> list[str]:
    return [
        re.sub(r"\{(\d+)\}", lambda m: str((lines or {}).get(int(m[1]), int(m[1]))), line)
        for line in LIST_REPORTS
    ]
