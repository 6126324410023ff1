"""The pages holding notes depend on their wording: an incremental build re-reads
them, and only them, when the template in use, the wording set or the catalog
changes, and nothing when a file is written again with the same bytes."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from sphinx.util.console import strip_colors

from conftest import REPO, notes_in, parse_html, sphinx_build_with
from reprodocs.notes import wording

#: The pages holding notes, and their notes.
NOTED = {
    "api/bincount": "cuda-deterministic",
    "api/ctc_loss": "cuda-deterministic-backward",
    "api/conv2d": "cudnn-deterministic",
    "api/grid_sample": "cuda-deterministic-backward",
    "api/index_add": "cuda-deterministic",
    "api/embedding_bag": "cuda-deterministic-backward",
    "api/scatter_add": "cuda-deterministic",
}
#: Pages without notes: the index, the Reproducibility page with its table...
UNNOTED = {"index", "notes/randomness", "api/plain", "guide"}

OWN_TEMPLATE = "Our wording, {{ version }}, on {{ backend }}; see {{ reproducibility }}.\n"


def write_project(srcdir: Path, own_template: bool) -> Path:
    (srcdir / "api").mkdir(parents=True)
    (srcdir / "notes").mkdir()
    conf = 'extensions = ["reprodocs"]\nproject = "Rereads"\n'
    if own_template:
        # The project's note.rst, and a template it includes.
        templates = srcdir / "_templates" / "reprodocs"
        templates.mkdir(parents=True)
        (templates / "note.rst").write_text('{% include "reprodocs/version.rst" %}')
        (templates / "version.rst").write_text('{% set version = "v1" %}' + OWN_TEMPLATE)
        conf += 'templates_path = ["_templates"]\n'
    (srcdir / "conf.py").write_text(conf)
    (srcdir / "index.rst").write_text(
        "Rereads\n=======\n\n.. toctree::\n   :glob:\n\n   notes/randomness\n   api/*\n   guide\n"
    )
    (srcdir / "notes" / "randomness.rst").write_text(
        "Reproducibility\n===============\n\n.. nondeterministic-ops::\n"
    )
    for docname, directive in NOTED.items():
        name = docname.removeprefix("api/")
        (srcdir / f"{docname}.rst").write_text(
            f"{name}\n{'=' * len(name)}\n\n.. py:function:: torch.{name}(input)\n\n"
            f"   .. {directive}::\n"
        )
    (srcdir / "api" / "plain.rst").write_text("Plain\n=====\n\n.. py:function:: torch.abs(x)\n")
    (srcdir / "guide.rst").write_text("Guide\n=====\n\nNo notes here.\n")
    return srcdir


def doctree_times(doctreedir: Path) -> dict[str, int]:
    """Each document's doctree and when it was written: a document read
    again has its doctree written again."""
    return {
        path.relative_to(doctreedir).with_suffix("").as_posix(): path.stat().st_mtime_ns
        for path in doctreedir.rglob("*.doctree")
    }


def rewrite_same_bytes(path: Path) -> None:
    """Write *path* again, unchanged, and make it look newer than any build."""
    path.write_bytes(path.read_bytes())
    future = path.stat().st_mtime_ns + 10**10
    os.utime(path, ns=(future, future))


def wording_on(outdir: Path, docname: str) -> str:
    (note,) = notes_in(parse_html(outdir / f"{docname}.html"))
    return " ".join(note.select("p")[1].get_text().split())


@pytest.fixture
def reread_by(make_app, tmp_path):
    """Build the project, apply a change, build again incrementally as a new
    sphinx-build run does; return the documents read again and the app."""

    def build(change, *, own_template=True, before=None, after=None, parallel=0):
        srcdir = write_project(tmp_path / "src", own_template)
        first = make_app("html", srcdir=srcdir, confoverrides=before or {}, parallel=parallel)
        first.build()
        assert first.warning.getvalue() == ""
        read_before = doctree_times(first.doctreedir)
        assert set(read_before) == set(NOTED) | UNNOTED
        first.cleanup()  # the next app registers Sphinx's nodes again, without warnings
        change(srcdir)
        app = make_app("html", srcdir=srcdir, confoverrides=after or {}, parallel=parallel)
        app.build()
        assert app.warning.getvalue() == ""
        read_after = doctree_times(app.doctreedir)
        return {name for name in read_after if read_after[name] != read_before[name]}, app

    return build


def edit_own_template(srcdir: Path) -> None:
    (srcdir / "_templates" / "reprodocs" / "note.rst").write_text(
        '{% set version = "v2" %}' + OWN_TEMPLATE
    )


def edit_included_template(srcdir: Path) -> None:
    (srcdir / "_templates" / "reprodocs" / "version.rst").write_text(
        '{% set version = "v2" %}' + OWN_TEMPLATE
    )


@pytest.mark.parametrize("change", [edit_own_template, edit_included_template])
def test_editing_the_project_template_rereads_every_noted_page_only(reread_by, change):
    reread, app = reread_by(change)
    assert reread == set(NOTED)
    for docname in NOTED:
        assert wording_on(app.outdir, docname).startswith("Our wording, v2, on")


def test_removing_the_project_template_gives_the_set_wording(reread_by):
    reread, app = reread_by(lambda src: (src / "_templates" / "reprodocs" / "note.rst").unlink())
    assert reread == set(NOTED)
    assert wording_on(app.outdir, "api/bincount").startswith("When using the CUDA backend")


def test_fixing_a_broken_template_rereads_the_noted_pages(make_app, tmp_path):
    srcdir = write_project(tmp_path / "src", own_template=True)
    note_rst = srcdir / "_templates" / "reprodocs" / "note.rst"
    note_rst.write_text("{% if %}broken\n")
    broken = make_app("html", srcdir=srcdir)
    broken.build()
    warnings = strip_colors(broken.warning.getvalue()).splitlines()
    assert len(warnings) == len(NOTED)
    for docname, directive in NOTED.items():
        assert (
            f"{srcdir / docname}.rst:6: WARNING: {directive}: cannot render reprodocs/note.rst"
            in ("\n".join(warnings))
        )
    before = doctree_times(broken.doctreedir)
    broken.cleanup()
    edit_own_template(srcdir)
    fixed = make_app("html", srcdir=srcdir)
    fixed.build()
    assert fixed.warning.getvalue() == ""
    after = doctree_times(fixed.doctreedir)
    assert {name for name in after if after[name] != before[name]} == set(NOTED)
    assert wording_on(fixed.outdir, "api/conv2d").startswith("Our wording, v2, on cuDNN")


def test_template_written_with_the_same_bytes_rereads_nothing(reread_by):
    def touch(srcdir: Path) -> None:
        for name in ("note.rst", "version.rst"):
            rewrite_same_bytes(srcdir / "_templates" / "reprodocs" / name)

    reread, app = reread_by(touch)
    assert reread == set()
    assert wording_on(app.outdir, "api/bincount").startswith("Our wording, v1, on")


def test_switching_the_set_rereads_every_noted_page_only(reread_by):
    reread, app = reread_by(
        lambda srcdir: None, own_template=False, after={"reprodocs_wording": "pytorch-2"}
    )
    assert reread == set(NOTED)
    for docname in NOTED:
        assert wording_on(app.outdir, docname).endswith("See Reproducibility for more information.")


def test_linking_another_page_rereads_every_noted_page_only(reread_by):
    reread, app = reread_by(
        lambda srcdir: None, own_template=False, after={"reprodocs_reproducibility_doc": "guide"}
    )
    assert reread == set(NOTED)
    for docname in NOTED:
        assert wording_on(app.outdir, docname).endswith(
            "Please see the notes on Guide for background."
        )
        (note,) = notes_in(parse_html(app.outdir / f"{docname}.html"))
        assert note.select_one("a.reference.internal")["href"] == "../guide.html"


def test_upgrading_reprodocs_rereads_every_noted_page_only(reread_by, monkeypatch):
    # New code may render the same templates differently.
    def upgrade(srcdir: Path) -> None:
        monkeypatch.setattr(wording, "__version__", "99.0.0")

    reread, _ = reread_by(upgrade, own_template=False)
    assert reread == set(NOTED)


def test_switching_the_set_under_the_project_template_rereads_nothing(reread_by):
    # The project's note.rst wins whatever the set: the wording did not change.
    reread, _ = reread_by(lambda srcdir: None, after={"reprodocs_wording": "pytorch-2"})
    assert reread == set()


def test_parallel_builds_reread_every_noted_page(reread_by, make_app):
    def edit_template_and_drop_a_note(srcdir: Path) -> None:
        edit_own_template(srcdir)
        (srcdir / "api" / "ctc_loss.rst").write_text("ctc_loss\n========\n\nNo note now.\n")

    reread, app = reread_by(edit_template_and_drop_a_note, parallel=2)
    assert reread == set(NOTED)  # ctc_loss as the edited page, the others for the wording
    for docname in set(NOTED) - {"api/ctc_loss"}:
        assert wording_on(app.outdir, docname).startswith("Our wording, v2, on")
    # The notes merged from both processes: the next template edit finds every
    # noted page again, and not the page that lost its note.
    before = doctree_times(app.doctreedir)
    (app.srcdir / "_templates" / "reprodocs" / "note.rst").write_text("Third {{ backend }}.\n")
    app.cleanup()
    again = make_app("html", srcdir=app.srcdir, parallel=2)
    again.build()
    after = doctree_times(again.doctreedir)
    assert {name for name in after if after[name] != before[name]} == set(NOTED) - {"api/ctc_loss"}
    assert wording_on(again.outdir, "api/conv2d") == "Third cuDNN."


def compiled_catalog(translations: dict[str, str]) -> bytes:
    """The shipped zh_CN catalog, compiled, with some translations changed."""
    with (REPO / "src/reprodocs/locale/zh_CN/LC_MESSAGES/reprodocs.po").open("rb") as po:
        catalog = read_po(po)
    for message, translation in translations.items():
        catalog[message].string = translation
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    return compiled.getvalue()


BACKWARD_MESSAGE = (
    "When using the %(backend)s backend, this operation may induce nondeterministic "
    "behaviour in its backward pass that is not easily switched off."
)


def test_updating_the_catalog_rereads_every_noted_page_only(installed_wheel, tmp_path):
    # A catalog changes when reprodocs is upgraded: here, in an installed wheel,
    # built by new processes (a process keeps the catalogs it has read).
    srcdir = write_project(tmp_path / "src", own_template=False)
    out, doctrees = tmp_path / "out", tmp_path / "doctrees"
    catalog = installed_wheel / "reprodocs" / "locale" / "zh_CN" / "LC_MESSAGES" / "reprodocs.mo"
    zh_cn = ("-W", "-D", "language=zh_CN")

    def reread_after(change) -> set[str]:
        before = doctree_times(doctrees) if doctrees.is_dir() else {}
        change()
        build = sphinx_build_with(
            installed_wheel, *zh_cn, "-d", str(doctrees), str(srcdir), str(out)
        )
        assert build.returncode == 0, build.stderr
        after = doctree_times(doctrees)
        return {name for name in after if after[name] != before.get(name)}

    assert reread_after(lambda: None) == set(NOTED) | UNNOTED
    assert reread_after(lambda: rewrite_same_bytes(catalog)) == set()
    updated = compiled_catalog({BACKWARD_MESSAGE: "新的译文：%(backend)s 反向传播。"})
    assert reread_after(lambda: catalog.write_bytes(updated)) == set(NOTED)
    assert wording_on(out, "api/ctc_loss").startswith("新的译文：CUDA 反向传播。")
    assert wording_on(out, "api/bincount").startswith("使用 CUDA 后端时")
