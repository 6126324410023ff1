"""The note directives in reStructuredText, autodoc and MyST, in HTML."""

from __future__ import annotations

import pytest
from sphinx.util.console import strip_colors

from conftest import (
    BACKWARD_TEXT,
    items,
    lists,
    note_paragraph,
    note_wording,
    notes_in,
    parse_html,
    text_of,
    write_page_project,
)
from reprodocs.notes.domain import Note


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


# The options that say what deterministic mode does, and when


def test_the_condition_is_inline_restructuredtext(build_page):
    app = build_page(
        ".. py:function:: torch.put(index)\n\n"
        "   .. nondeterministic::\n"
        "      :deterministic-algorithms: raises\n"
        "      :when: *index* has repeats and :func:`torch.put` is called\n"
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note.find("em").get_text() == "index"
    assert note.find("a", href="#torch.put").get_text() == "torch.put()"
    assert "When index has repeats and torch.put() is called, this operation" in note_wording(note)


def test_template_variables_stay_escaped(build_page):
    # Only :when: and :alternative: are reStructuredText; the rest is text.
    app = build_page(
        ".. nondeterministic::\n"
        "   :backend: *CUDA*\n"
        "   :op: torch.`x`\n"
        "   :deterministic-algorithms: raises\n"
        "   :when: ``<script>``\n"
    )
    assert app.warning.getvalue() == ""
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert "When using the *CUDA* backend" in note_wording(note)
    assert note.find("code", string="<script>")
    assert not note.find("script")


# Validation


#: (body, the directive and line the located error or warning names, text in it)
INVALID = {
    "deterministic-algorithms": (
        ".. nondeterministic::\n   :deterministic-algorithms: sometimes\n",
        "nondeterministic",
        8,
        'invalid option value: (option: "deterministic-algorithms"',
    ),
    "empty when": (".. cuda-deterministic::\n   :when:\n", "cuda-deterministic", 8, "when"),
    "empty wording": (
        ".. cudnn-deterministic::\n   :wording:\n",
        "cudnn-deterministic",
        8,
        "wording",
    ),
    "list format": (
        ".. nondeterministic-ops::\n   :format: grid\n",
        "nondeterministic-ops",
        8,
        'invalid option value: (option: "format"',
    ),
    "list filter": (
        ".. nondeterministic-ops::\n   :deterministic-algorithms: maybe\n",
        "nondeterministic-ops",
        8,
        'invalid option value: (option: "deterministic-algorithms"',
    ),
}


@pytest.mark.parametrize(
    ("body", "directive", "line", "text"), INVALID.values(), ids=INVALID.keys()
)
def test_invalid_values_are_located_errors(build_page, body, directive, line, text):
    app = build_page(body)
    warnings = strip_colors(app.warning.getvalue())
    assert "Traceback" not in warnings
    located = f'{app.srcdir / "index.rst"}:{line}: ERROR: Error in "{directive}" directive'
    assert located in warnings, warnings
    assert text in warnings
    assert (app.outdir / "index.html").is_file()


def test_a_wording_naming_no_set_is_a_located_warning(build_page):
    app = build_page(
        ".. cuda-deterministic::\n   :wording: pytorch-3\n   :when: called on a CUDA tensor\n",
        confoverrides={"reprodocs_wording": "pytorch-2"},
    )
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f"{app.srcdir / 'index.rst'}:8: WARNING: cuda-deterministic: :wording: pytorch-3 names "
        "no wording set (the sets are pytorch-1.4, pytorch-2); using the site's"
    ) in warnings
    assert warnings.count("WARNING") == 1
    # The site's wording is used, and the note is kept with its other options.
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert note_wording(note).startswith("This operation may behave nondeterministically")
    (kept,) = app.env.get_domain("reprodocs").notes()
    assert (kept.wording, kept.when) == ("", "called on a CUDA tensor")
    app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    silenced = {"suppress_warnings": ["reprodocs.wording"]}
    app = build_page(".. cuda-deterministic::\n   :wording: pytorch-3\n", confoverrides=silenced)
    assert app.warning.getvalue() == ""


@pytest.mark.parametrize("word", ["when", "When"])
def test_a_condition_starting_with_when_is_a_located_warning(build_page, word):
    app = build_page(
        ".. py:function:: torch.histc(input)\n\n"
        "   .. cuda-deterministic::\n"
        "      :deterministic-algorithms: raises\n"
        f"      :when: {word} called on a CUDA tensor\n\n"
        ".. nondeterministic-ops::\n   :format: list\n"
    )
    warnings = strip_colors(app.warning.getvalue())
    assert (
        f"{app.srcdir / 'index.rst'}:10: WARNING: cuda-deterministic: :when: {word} called on a "
        'CUDA tensor starts with "when", which the note adds; it is dropped'
    ) in warnings
    assert warnings.count("WARNING") == 1
    # The word is dropped: the note, the list and the index read as without it.
    (note,) = notes_in(parse_html(app.outdir / "index.html"))
    assert "When called on a CUDA tensor, this operation will throw" in note_wording(note)
    (raises,) = lists(parse_html(app.outdir / "index.html"))
    assert items(raises) == ["torch.histc() when called on a CUDA tensor"]
    (kept,) = app.env.get_domain("reprodocs").notes()
    assert kept.when == "called on a CUDA tensor"
    app.cleanup()  # the next app registers Sphinx's nodes again, without warnings
    silenced = {"suppress_warnings": ["reprodocs.when"]}
    app = build_page(".. cuda-deterministic::\n   :when: when called\n", confoverrides=silenced)
    assert app.warning.getvalue() == ""


def test_a_condition_only_starting_like_when_is_kept(build_page):
    app = build_page(
        ".. cuda-deterministic::\n   :op: torch.histc\n   :when: whenever it is called\n\n"
        ".. cuda-deterministic::\n   :op: torch.bincount\n   :when: when\n"
    )
    assert app.warning.getvalue() == ""
    assert [note.when for note in app.env.get_domain("reprodocs").notes()] == [
        "whenever it is called",
        "when",
    ]


def test_a_wording_naming_no_set_in_a_docstring_points_there(make_app, tmp_path):
    srcdir = write_page_project(tmp_path / "src", ".. autofunction:: regmod.histc\n")
    (srcdir / "regmod.py").write_text(
        'def histc(input):\n    """Histogram.\n\n    .. cuda-deterministic::\n'
        '       :wording: pytorch-3\n    """\n'
    )
    (srcdir / "conf.py").write_text(
        'import sys\nsys.path.insert(0, \'.\')\nextensions = ["sphinx.ext.autodoc", "reprodocs"]\n'
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(srcdir))
        app = make_app("html", srcdir=srcdir, freshenv=True)
        app.build()
    warnings = strip_colors(app.warning.getvalue())
    assert f"{srcdir / 'regmod.py'}:docstring of regmod.histc:3: WARNING: cuda-deterministic: " in (
        warnings
    )
