"""The note directives in reStructuredText, autodoc and MyST, in HTML."""

from __future__ import annotations

import pytest
from sphinx.util.console import strip_colors

from conftest import BACKWARD_TEXT, notes_in, parse_html, text_of
from reprodocs.notes.domain import Note


def note_paragraph(note):
    """The note's first paragraph after its title: the wording."""
    return note.select("p")[1]


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_backward_note_matches_pytorch_1_4(app):
    app.build()
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))

    assert note["class"] == ["admonition", "note"]
    title, paragraph = note.find_all("p")
    assert title["class"] == ["admonition-title"]
    assert title.get_text() == "Note"
    assert text_of(paragraph) == BACKWARD_TEXT
    link = paragraph.find("a")
    assert link["class"] == ["reference", "internal"]
    assert link["href"] == "notes/randomness.html"
    assert link.find("span", class_="doc").get_text() == "Reproducibility"


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_each_preset_has_its_1_4_wording(app):
    app.build()
    soup = parse_html(app.outdir / "api.html")
    wording = {
        note.find_parent("dl")["class"][0]
        + " "
        + note.find_parent("dd").find_previous_sibling("dt")["id"]: text_of(note_paragraph(note))
        for note in notes_in(soup)
    }
    see_also = "Please see the notes on Reproducibility for background."
    assert wording["py torch.nn.functional.grid_sample"] == BACKWARD_TEXT
    assert wording["py torch.bincount"] == (
        "When using the CUDA backend, this operation may induce nondeterministic "
        "behaviour that is not easily switched off. " + see_also
    )
    cudnn = [text_of(note_paragraph(n)) for n in notes_in(soup) if "CuDNN" in n.get_text()]
    assert cudnn == [
        "In some circumstances when using the CUDA backend with CuDNN, this operator "
        "may select a nondeterministic algorithm to increase performance. If this is "
        "undesirable, you can try to make the operation deterministic (potentially at "
        "a performance cost) by setting torch.backends.cudnn.deterministic = True. " + see_also
    ]


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_general_form_is_the_mechanism_of_the_presets(app):
    app.build()
    soup = parse_html(app.outdir / "api.html")
    preset = soup.find("dt", id="torch.nn.functional.ctc_loss").find_next("div", class_="note")
    general = soup.find("dt", id="torch.nn.functional.grid_sample").find_next("div", class_="note")
    assert str(preset) == str(general)


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_options_and_content(app):
    app.build()
    soup = parse_html(app.outdir / "api.html")
    note = soup.find("dt", id="torch.Tensor.index_add_").find_next("div", class_="note")
    wording, content = note.select("p")[1:]
    assert text_of(wording).startswith(
        "When using the ROCm backend, this operation may induce nondeterministic "
        "behaviour that is not easily switched off."
    )
    assert text_of(wording).endswith(
        "A deterministic alternative is Tensor.index_add_() with sorted indices."
    )
    assert wording.find("a", href="#torch.Tensor.index_add_") is not None
    assert text_of(content) == "Sort index first to make it deterministic."
    assert content.find("em").get_text() == "index"


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_each_note_knows_its_operation(app):
    app.build()
    notes = sorted(app.env.get_domain("reprodocs").notes())
    assert notes == sorted(
        [
            Note("", "cuda-deterministic-backward", "CUDA", "backward", "index", 11),
            Note(
                "torch.nn.functional.ctc_loss",
                "cuda-deterministic-backward",
                "CUDA",
                "backward",
                "api",
                10,
            ),
            Note("torch.nn.functional.ctc_loss", "cudnn-deterministic", "cuDNN", "both", "api", 12),
            Note(
                "torch.nn.functional.grid_sample", "nondeterministic", "CUDA", "backward", "api", 18
            ),
            Note("torch.bincount", "cuda-deterministic", "CUDA", "forward", "api", 28),
            Note("torch.Tensor.index_add_", "nondeterministic", "ROCm", "forward", "api", 38),
            Note("torch.Tensor.put_", "nondeterministic", "MPS", "both", "page", 4),
        ]
    )


@pytest.mark.sphinx(
    "html",
    testroot="notes",
    freshenv=True,
    confoverrides={"reprodocs_reproducibility_doc": "page"},
)
def test_link_target_is_configurable(app):
    app.build()
    paragraph = note_paragraph(notes_in(parse_html(app.outdir / "index.html"))[0])
    assert paragraph.find("a")["href"] == "page.html"
    assert "A page-level note" in paragraph.find("a").get_text()


@pytest.mark.sphinx(
    "html",
    testroot="notes",
    freshenv=True,
    confoverrides={"reprodocs_reproducibility_doc": "notes/missing"},
)
def test_missing_target_is_sphinx_own_located_warning(app):
    app.build()
    warnings = app.warning.getvalue()
    assert "index.rst:11: WARNING: unknown document: '/notes/missing'" in warnings
    assert "Traceback" not in warnings
    # The text is kept, without a link.
    paragraph = note_paragraph(notes_in(parse_html(app.outdir / "index.html"))[0])
    assert paragraph.find("a") is None
    assert "Please see the notes on" in text_of(paragraph)


@pytest.mark.sphinx("html", testroot="override", freshenv=True)
def test_project_templates_override_the_wording(app):
    app.build()
    assert app.warning.getvalue() == ""
    paragraph = note_paragraph(notes_in(parse_html(app.outdir / "index.html"))[0])
    assert text_of(paragraph) == "Our own wording on CUDA (backward), see Reproducibility."
    assert paragraph.find("a")["href"] == "notes/randomness.html"


@pytest.mark.sphinx("html", testroot="notes", freshenv=True, confoverrides={"language": "zh_CN"})
def test_zh_cn_translation_keeps_the_link(app):
    app.build()
    assert app.warning.getvalue() == ""
    note = notes_in(parse_html(app.outdir / "index.html"))[0]
    assert note.select_one("p.admonition-title").get_text() == "备注"
    paragraph = note_paragraph(note)
    assert text_of(paragraph) == (
        "使用 CUDA 后端时，该操作可能在反向传播中产生不易关闭的非确定性行为。"
        "背景信息请参阅 Reproducibility 说明。"
    )
    assert paragraph.find("a")["href"] == "notes/randomness.html"


@pytest.mark.sphinx("html", testroot="autodoc", freshenv=True)
def test_notes_in_autodoc_docstrings(app):
    app.build()
    assert app.warning.getvalue() == ""
    soup = parse_html(app.outdir / "index.html")
    on = {
        note.find_parent("dd").find_previous_sibling("dt")["id"]: text_of(note_paragraph(note))
        for note in notes_in(soup)
    }
    assert on["fakefunctional.embedding_bag"] == BACKWARD_TEXT
    assert on["fakefunctional.conv2d"].startswith("In some circumstances")
    assert on["fakefunctional.Conv2d"].startswith("In some circumstances")
    assert on["fakefunctional.Conv2d.forward"].startswith("In some circumstances")
    operations = {(n.operation, n.directive) for n in app.env.get_domain("reprodocs").notes()}
    assert operations == {
        ("fakefunctional.embedding_bag", "cuda-deterministic-backward"),
        ("fakefunctional.conv2d", "cudnn-deterministic"),
        ("fakefunctional.Conv2d", "cudnn-deterministic"),
        ("fakefunctional.Conv2d.forward", "nondeterministic"),
    }


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
