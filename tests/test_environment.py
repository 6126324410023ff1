"""The notes kept in the environment: purged on re-read, merged in parallel reads."""

from __future__ import annotations

import shutil

from sphinx.util.console import strip_colors


def notes_of(app):
    return sorted(app.env.get_domain("reprodocs").notes())


def test_parallel_read_merges_the_same_notes(build_notes, make_app, notes_project, tmp_path):
    serial = build_notes()
    parallel_project = tmp_path / "parallel"
    shutil.copytree(notes_project, parallel_project, ignore=shutil.ignore_patterns("_build"))
    parallel = make_app("html", srcdir=parallel_project, freshenv=True, parallel=2)
    parallel.build()
    assert parallel.parallel == 2
    assert notes_of(parallel) == notes_of(serial)
    assert len(notes_of(serial)) == 7


def test_edited_and_removed_pages_drop_their_notes(build_notes, notes_project):
    app = build_notes()
    assert {n.docname for n in notes_of(app)} == {"index", "api", "page"}

    api = notes_project / "api.rst"
    api.write_text(api.read_text().replace(".. cudnn-deterministic::", ""))
    (notes_project / "page.rst").unlink()
    index = notes_project / "index.rst"
    index.write_text(index.read_text().replace("   page\n", ""))
    app.build()

    assert {n.docname for n in notes_of(app)} == {"index", "api"}
    assert "cudnn-deterministic" not in {n.directive for n in notes_of(app)}
    assert len(notes_of(app)) == 5


def test_the_same_note_on_an_operation_in_two_pages_warns(build_notes, notes_project):
    (notes_project / "again.rst").write_text(
        "Again\n=====\n\n.. nondeterministic::\n   :op: torch.bincount\n   :pass: forward\n\n"
        ".. nondeterministic::\n   :op: torch.nn.functional.grid_sample\n   :pass: forward\n"
    )
    index = notes_project / "index.rst"
    index.write_text(index.read_text().replace("   page\n", "   page\n   again\n"))
    app = build_notes()
    # Pages are compared in name order: "again" before "api".
    warnings = strip_colors(app.warning.getvalue())
    assert (
        "api.rst:28: WARNING: cuda-deterministic: torch.bincount is already noted in again (line 4)"
    ) in warnings
    assert (
        "api.rst:18: WARNING: nondeterministic: torch.nn.functional.grid_sample is noted "
        "with :pass: backward here but forward in again (line 8)"
    ) in warnings


def test_pickled_doctrees_hold_only_their_page(build_notes):
    """The wording is parsed in a scratch document; none of it may stay
    attached to it, or each pickled doctree drags the environment along."""
    app = build_notes()
    doctree = app.env.get_doctree("api")
    assert {id(node.document) for node in doctree.findall()} == {id(doctree)}
    with_notes = (app.doctreedir / "api.doctree").stat().st_size
    without_notes = (app.doctreedir / "notes" / "randomness.doctree").stat().st_size
    assert with_notes < 20 * without_notes
