"""Every builder renders the notes, warning-free, with the link resolved."""

from __future__ import annotations

import pytest
import sphinx

from conftest import notes_in, parse_html, text_of

WORDING = "this operation may induce nondeterministic behaviour in its backward pass"


def collapsed(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("builder", ["html", "dirhtml", "singlehtml", "epub"])
def test_html_like_builders(build_notes, builder):
    app = build_notes(builder)
    assert app.warning.getvalue() == ""
    page = {
        "html": "index.html",
        "dirhtml": "index.html",
        "singlehtml": "index.html",
        "epub": "index.xhtml",
    }[builder]
    notes = notes_in(parse_html(app.outdir / page))
    assert notes
    link = notes[0].select("p")[1].find("a")
    assert link.get_text() == "Reproducibility"
    expected = {
        "html": "notes/randomness.html",
        "dirhtml": "notes/randomness/",
        # Sphinx 7.3 made singlehtml's links fragments of the page they are on.
        "singlehtml": ("" if sphinx.version_info >= (7, 3) else "index.html")
        + "#document-notes/randomness",
        "epub": "notes/randomness.xhtml",
    }[builder]
    assert link["href"] == expected
    assert WORDING in text_of(notes[0])


@pytest.mark.parametrize(
    ("builder", "output"),
    [
        ("text", "index.txt"),
        ("latex", "notestest.tex"),
        ("man", "notestest.1"),
        ("texinfo", "notestest.texi"),
    ],
)
def test_other_builders(build_notes, builder, output):
    app = build_notes(builder)
    assert app.warning.getvalue() == ""
    written = collapsed((app.outdir / output).read_text(encoding="utf-8"))
    # man and texinfo escape hyphens or break lines differently; compare words.
    assert collapsed(WORDING.replace("-", "")) in written.replace("\\-", "").replace("-", "")
    assert "Reproducibility" in written


def test_latex_links_to_the_reproducibility_chapter(build_notes):
    app = build_notes("latex")
    tex = (app.outdir / "notestest.tex").read_text(encoding="utf-8")
    assert r"\hyperref[\detokenize{notes/randomness::doc}]" in tex
