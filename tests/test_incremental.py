"""The index stays exact: incremental builds give what a fresh build gives,
parallel builds what serial builds give, and builds are reproducible."""

from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest
import sphinx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples, exported_index, html_mtimes, parse_html

DIRECTIVES = ["cuda-deterministic-backward", "cuda-deterministic", "cudnn-deterministic"]
PAGES = ["alpha", "beta", "gamma", "delta"]

CONF = 'extensions = ["reprodocs"]\nproject = "Incremental"\n'
INDEX = """Incremental
===========

.. toctree::
   :glob:

   notes/randomness
   api/*
"""
RANDOMNESS = """Reproducibility
===============

.. nondeterministic-ops::

Backward only
-------------

.. nondeterministic-ops::
   :pass: backward
"""


def page_source(
    name: str, title: str, function_notes: list[str], page_notes: list[tuple[str, str]]
) -> str:
    """An API page: one function (each page its own) with notes, and page-level notes."""
    lines = [
        title,
        "=" * len(title),
        "",
        f".. py:function:: torch.{name}(input)",
        "",
        "   Does things.",
        "",
    ]
    for directive in function_notes:
        lines += [f"   .. {directive}::", ""]
    for directive, operation in page_notes:
        lines += [f".. {directive}::"] + ([f"   :op: {operation}"] if operation else []) + [""]
    return "\n".join(lines)


note = st.sampled_from(DIRECTIVES)
page_content = st.tuples(
    st.sampled_from(["Alpha ops", "Beta ops", "Zeta ops"]),  # the title
    st.lists(note, max_size=2, unique=True),  # notes on the page's function
    st.lists(st.tuples(note, st.sampled_from(["", "torch.shared"])), max_size=2, unique=True),
)
#: (action, page, content): write a page (new or not), delete it, or edit
#: words that are no note.
edit = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(PAGES), page_content),
    st.tuples(st.sampled_from(["delete", "touch"]), st.sampled_from(PAGES), st.none()),
)


def write_project(srcdir: Path) -> None:
    (srcdir / "notes").mkdir(parents=True)
    (srcdir / "api").mkdir()
    (srcdir / "conf.py").write_text(CONF)
    (srcdir / "index.rst").write_text(INDEX)
    (srcdir / "notes" / "randomness.rst").write_text(RANDOMNESS)
    (srcdir / "api" / "alpha.rst").write_text(
        page_source("alpha", "Alpha ops", ["cuda-deterministic"], [])
    )


def apply(srcdir: Path, step) -> None:
    action, name, content = step
    path = srcdir / "api" / f"{name}.rst"
    if action == "write":
        title, function_notes, page_notes = content
        path.write_text(page_source(name, title, function_notes, page_notes))
    elif action == "delete":
        path.unlink(missing_ok=True)
    elif path.exists():  # touch: a change that changes no note
        path.write_text(path.read_text() + "\nMore words.\n")


def index_of(outdir: Path) -> tuple[str, str]:
    """What the index shows: the JSON export and the Reproducibility page's article."""
    article = parse_html(outdir / "notes" / "randomness.html").find("div", role="main")
    exported_index(outdir)  # valid at every step
    return (outdir / "nondeterministic.json").read_text(), str(article)


@pytest.mark.slow
@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(edit, min_size=1, max_size=5))
def test_incremental_builds_give_the_fresh_index(make_app, tmp_path_factory, steps):
    work = tmp_path_factory.mktemp("incremental")
    srcdir = work / "src"
    write_project(srcdir)
    make_app("html", srcdir=srcdir, freshenv=True).build()
    for number, step in enumerate(steps):
        apply(srcdir, step)
        # Incremental, as a new sphinx-build run is: the pickled environment
        # is loaded, nothing is read again but what changed.
        app = make_app("html", srcdir=srcdir)
        app.build()
        fresh_src = work / f"fresh-{number}"
        shutil.copytree(srcdir, fresh_src, ignore=shutil.ignore_patterns("_build"))
        fresh = make_app("html", srcdir=fresh_src, freshenv=True)
        fresh.build()
        assert index_of(app.outdir) == index_of(fresh.outdir), steps[: number + 1]


@pytest.fixture
def project(tmp_path) -> Path:
    srcdir = tmp_path / "src"
    write_project(srcdir)
    for name in ("beta", "gamma"):
        (srcdir / "api" / f"{name}.rst").write_text(
            page_source(name, f"{name.title()} ops", ["cudnn-deterministic"], [])
        )
    return srcdir


def rewritten_by(make_app, srcdir: Path, change) -> tuple[set[str], bool]:
    """The HTML pages an incremental build rewrites after *change*, and whether
    it rewrote nondeterministic.json."""
    app = make_app("html", srcdir=srcdir)
    app.build()
    before = html_mtimes(app.outdir)
    json_before = (app.outdir / "nondeterministic.json").stat().st_mtime_ns
    change()
    app = make_app("html", srcdir=srcdir)
    app.build()
    after = html_mtimes(app.outdir)
    json_rewritten = (app.outdir / "nondeterministic.json").stat().st_mtime_ns != json_before
    return {name for name in after if after[name] != before.get(name)}, json_rewritten


def test_a_note_edit_rewrites_only_what_sphinx_would_and_the_index(make_app, project):
    # Sphinx itself rewrites the edited page and its toctree parents...
    sphinx_rewrites, json_rewritten = rewritten_by(
        make_app, project, lambda: apply(project, ("touch", "beta", None))
    )
    assert "api/beta.html" in sphinx_rewrites
    assert "notes/randomness.html" not in sphinx_rewrites
    assert not json_rewritten
    # ... and a note edit adds the pages showing the index, nothing else.
    note_edit = ("write", "beta", ("Beta ops", ["cuda-deterministic-backward"], []))
    rewrites, json_rewritten = rewritten_by(make_app, project, lambda: apply(project, note_edit))
    assert rewrites == sphinx_rewrites | {"notes/randomness.html"}
    assert json_rewritten
    assert "api/gamma.html" not in rewrites


def differing_files(left: Path, right: Path) -> list[str]:
    """Files that differ between two output trees (environment pickles aside)."""
    different = []
    for path in left.rglob("*"):
        relative = path.relative_to(left)
        if path.is_dir() or relative.parts[0] == ".doctrees" or relative.name == ".buildinfo":
            continue
        if not filecmp.cmp(path, right / relative, shallow=False) and not (
            relative.name == "searchindex.js" and same_search_index(path, right / relative)
        ):
            different.append(str(relative))
    return different


def same_search_index(left: Path, right: Path) -> bool:
    """Whether two search indexes hold the same data, on Sphinx before 7.3 only:
    it writes the titles of a parallel build in the order the processes read
    them (from 7.3 on, the file itself must be identical)."""
    if sphinx.version_info >= (7, 3):
        return False

    def data(path: Path) -> object:
        text = path.read_text(encoding="utf-8")
        return json.loads(text.removeprefix("Search.setIndex(").removesuffix(")"))

    return data(left) == data(right)


def test_parallel_build_is_byte_identical(make_app, project, tmp_path):
    for number in range(6):  # enough pages for both processes to read some
        (project / "api" / f"extra{number}.rst").write_text(
            page_source(f"extra{number}", f"Extra {number}", DIRECTIVES[: number % 3 + 1], [])
        )
    serial = make_app("html", srcdir=project, builddir=tmp_path / "serial", freshenv=True)
    serial.build()
    parallel = make_app(
        "html", srcdir=project, builddir=tmp_path / "parallel", freshenv=True, parallel=2
    )
    parallel.build()
    assert differing_files(serial.outdir, parallel.outdir) == []
    assert differing_files(parallel.outdir, serial.outdir) == []


def test_demo_builds_are_reproducible(build_demo):
    first, second = build_demo(), build_demo(again=True)
    assert first != second
    assert differing_files(first, second) == []
    assert exported_index(first)["operations"]
