"""Where warnings about a note point: the file the note is written in and its
line there, for a note in an included file, in an autodoc docstring or in a
MyST page, whether the warning comes from the directive or later from the
stored note (duplicates and conflicts across pages, the drift check)."""

from __future__ import annotations

import os
import pickle
import re

import pytest
from sphinx.util.console import strip_colors

from conftest import (
    exported_index,
    note_paragraph,
    notes_in,
    parse_html,
    text_of,
)
from reprodocs.notes.domain import Note

#: reprodocs' message for text after a directive's name.
ARGUMENT = "{} takes no argument (use :op: to name the operation): {}"

#: The warning type Sphinx 7.3 and later print after the message.
TYPE_SUFFIX = re.compile(r" \[[\w.-]+\]$")


def located_warnings(app) -> list[str]:
    """The build's located warnings and errors, one line each ("file:line:
    WARNING: message", a docutils error's first line), without the type Sphinx
    7.3 and later append; the build must not have printed a traceback."""
    text = strip_colors(app.warning.getvalue())
    assert "Traceback" not in text
    assert "Exception" not in text
    return [
        TYPE_SUFFIX.sub("", line)
        for line in text.splitlines()
        if ": WARNING: " in line or ": ERROR: " in line
    ]


def absolute_location(warning: str) -> str:
    """*warning* with a path relative to the working directory made absolute
    (docutils writes an included file's path so in its own errors)."""
    path, separator, rest = warning.partition(":")
    if separator and not os.path.isabs(path) and os.path.isfile(path):
        return os.path.abspath(path) + separator + rest
    return warning


@pytest.fixture
def files(app):
    """The test root's files, as the warnings name them."""
    srcdir = app.srcdir
    return {
        "index": str(srcdir / "index.rst"),
        "inc": str(srcdir / "inc.rst"),
        "another": str(srcdir / "another.rst"),
        # autodoc's name for a docstring; its lines count from the docstring's first.
        "noted": f"{srcdir / 'locmod.py'}:docstring of locmod.noted",
        # A module without a source file: docutils knows no file, only this name.
        "nofile": "docstring of nofile.func",
    }


@pytest.mark.sphinx("html", testroot="locations", freshenv=True)
def test_included_note_is_located_in_the_included_file(app, files):
    app.build()
    warnings = located_warnings(app)
    inc, index = files["inc"], files["index"]
    expected = [
        f"{inc}:3: WARNING: " + ARGUMENT.format("cuda-deterministic", "torch.inc_argument"),
        # The earlier note is in the including page's own file.
        (
            f"{inc}:5: WARNING: cuda-deterministic-backward: this page already carries "
            "this note (in index, line 9)"
        ),
        f"{inc}:12: WARNING: nondeterministic: torch.included already carries this note (line 9)",
        # After the included file, the page's own lines again (not 15 plus its length).
        f"{index}:15: WARNING: " + ARGUMENT.format("cuda-deterministic", "torch.after_include"),
        (
            f"{index}:15: WARNING: cuda-deterministic: this page already carries this note "
            f"(in {inc}, line 3)"
        ),
    ]
    for warning in expected:
        assert warning in warnings, "\n".join(warnings)
    # docutils' own error for an invalid option (its path relative to the
    # working directory), at the included file's line too.
    assert f'{inc}:15: ERROR: Error in "cudnn-deterministic" directive:' in [
        absolute_location(warning) for warning in warnings
    ], "\n".join(warnings)
    # Nothing about a note points at another line of the including page.
    assert {w.split(": ")[0] for w in warnings if w.startswith(index)} == {f"{index}:15"}


@pytest.mark.sphinx("html", testroot="locations", freshenv=True)
def test_docstring_note_is_located_in_its_docstring(app, files):
    app.build()
    warnings = located_warnings(app)
    noted, nofile = files["noted"], files["nofile"]
    expected = [
        f"{noted}:5: WARNING: " + ARGUMENT.format("cuda-deterministic", "locmod.noted"),
        f"{noted}:5: WARNING: cuda-deterministic: locmod.noted already carries this note (line 3)",
        f"{nofile}:3: WARNING: " + ARGUMENT.format("cudnn-deterministic", "nofile_argument"),
    ]
    for warning in expected:
        assert warning in warnings, "\n".join(warnings)


@pytest.mark.sphinx("html", testroot="locations", freshenv=True)
def test_warnings_from_stored_notes_point_where_the_note_is(app, files):
    """The domain's duplicates and conflicts across pages and the drift check
    warn after reading, from the stored notes, at the directive-time places."""
    app.build()
    warnings = located_warnings(app)
    inc, noted, nofile = files["inc"], files["noted"], files["nofile"]
    expected = [
        # The drift check (reprodocs_known_ops names none of them).
        f"{inc}:9: WARNING: nondeterministic: torch.included is not in reprodocs_known_ops",
        f"{noted}:3: WARNING: cuda-deterministic: locmod.noted is not in reprodocs_known_ops",
        f"{nofile}:3: WARNING: cudnn-deterministic: nofile.func is not in reprodocs_known_ops",
        # Across pages: another.rst's notes come first.
        (
            f"{inc}:9: WARNING: nondeterministic: torch.included is noted with :pass: backward "
            "here but forward in another (line 7)"
        ),
        (
            f"{noted}:3: WARNING: cuda-deterministic: locmod.noted is already noted in another "
            "(line 13)"
        ),
    ]
    for warning in expected:
        assert warning in warnings, "\n".join(warnings)


@pytest.mark.sphinx("html", testroot="locations", freshenv=True)
def test_stored_note_keeps_its_page_and_its_file(app, files):
    app.build()
    notes = app.env.get_domain("reprodocs").notes_by_doc["index"]
    assert notes == [
        Note("", "cuda-deterministic-backward", "CUDA", "backward", "index", 9),
        Note("", "cuda-deterministic", "CUDA", "forward", "index", 3, files["inc"]),
        Note("torch.included", "nondeterministic", "CUDA", "backward", "index", 9, files["inc"]),
        Note("locmod.noted", "cuda-deterministic", "CUDA", "forward", "index", 3, files["noted"]),
        Note("nofile.func", "cudnn-deterministic", "cuDNN", "both", "index", 3, files["nofile"]),
    ]
    assert [note.location for note in notes] == [
        ("index", 9),
        f"{files['inc']}:3",
        f"{files['inc']}:9",
        f"{files['noted']}:3",
        f"{files['nofile']}:3",
    ]
    # Plain data, pickled with the environment.
    assert pickle.loads(pickle.dumps(notes)) == notes
    # The table and nondeterministic.json link to the page, not the file.
    (entry,) = [
        operation
        for operation in exported_index(app.outdir)["operations"]
        if operation["name"] == "torch.included" and operation["pass"] == "backward"
    ]
    assert (entry["docname"], entry["uri"]) == ("index", "index.html#torch.included")


@pytest.mark.sphinx(
    "html",
    testroot="locations",
    freshenv=True,
    confoverrides={"reprodocs_reproducibility_doc": "missing"},
)
def test_wording_warnings_point_at_the_note(app, files):
    """Sphinx's own warning about the wording's link, from the note's nodes."""
    app.build()
    warnings = located_warnings(app)
    unknown = "WARNING: unknown document: '/missing'"
    inc, noted = files["inc"], files["noted"]
    for location in (f"{inc}:3", f"{inc}:9", f"{files['index']}:15", f"{noted}:3", f"{noted}:5"):
        assert f"{location}: {unknown}" in warnings, "\n".join(warnings)


@pytest.mark.sphinx("html", testroot="locations-myst", freshenv=True)
def test_myst_text_after_the_name_warns_and_is_dropped(app):
    app.build()
    warnings = located_warnings(app)
    page = str(app.srcdir / "index.md")
    ours = [warning for warning in warnings if "takes no argument" in warning]
    assert ours == [
        f"{page}:7: WARNING: " + ARGUMENT.format("cuda-deterministic", "torch.md_argument"),
        f"{page}:16: WARNING: " + ARGUMENT.format("cudnn-deterministic", "torch.colon_argument"),
        f"{page}:20: WARNING: " + ARGUMENT.format("nondeterministic", "torch.with_options"),
    ]
    # The text is dropped, content written below the opening line is kept, and
    # the notes are what they would be without the text.
    html = parse_html(app.outdir / "index.html")
    texts = [text_of(note) for note in notes_in(html)]
    dropped = ("torch.md_argument", "torch.colon_argument", "torch.with_options")
    assert not any(name in text for text in texts for name in dropped)
    assert "Content written below the opening line, not an argument." in texts[1]
    assert texts[3].endswith("The content after the options.")
    assert app.env.get_domain("reprodocs").notes_by_doc["index"] == [
        Note("", "cuda-deterministic", "CUDA", "forward", "index", 7),
        Note("", "cuda-deterministic-backward", "CUDA", "backward", "index", 10),
        Note("torch.fenced", "cudnn-deterministic", "cuDNN", "both", "index", 16),
        Note("", "nondeterministic", "ROCm", "forward", "index", 20),
    ]


# reStructuredText parsed in a MyST page


@pytest.mark.sphinx("html", testroot="myst", freshenv=True)
def test_notes_in_myst_pages_are_worded_in_rst(app):
    app.build()
    assert app.warning.getvalue() == ""
    soup = parse_html(app.outdir / "index.html")
    forward, page_level = notes_in(soup)
    assert text_of(note_paragraph(forward)).startswith(
        "When using the CUDA backend, this operation may induce nondeterministic behaviour that"
    )
    # The :doc: role was parsed as reStructuredText, not left as Markdown text.
    assert note_paragraph(forward).find("a")["href"] == "notes/randomness.html"
    assert ":doc:" not in forward.get_text()
    # The directive's own content is the host's Markdown.
    assert page_level.find("strong").get_text() == "Markdown"
    operations = {
        (n.operation, n.backend, n.affected_pass) for n in app.env.get_domain("reprodocs").notes()
    }
    assert operations == {
        ("torch.bincount", "CUDA", "forward"),
        ("torch.nn.functional.pad", "ROCm", "backward"),
    }


@pytest.mark.sphinx(
    "html",
    testroot="myst",
    freshenv=True,
    confoverrides={"reprodocs_reproducibility_doc": "notes/missing"},
)
def test_messages_from_the_wording_in_myst_are_located_at_the_directive(app):
    app.build()
    warnings = strip_colors(app.warning.getvalue())
    assert "index.md:11: WARNING: unknown document: '/notes/missing'" in warnings
    assert "index.md:15: WARNING: unknown document: '/notes/missing'" in warnings
