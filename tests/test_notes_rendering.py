"""The wording rendered and parsed once for equal notes: each note still
gets what parsing it alone gives, in its own page, at its own line."""

from __future__ import annotations

import pytest
from docutils import nodes
from sphinx import addnodes
from sphinx.util.console import strip_colors

from conftest import notes_in, parse_html, text_of, write_page_project


def write_pages(srcdir, pages: dict[str, str], conf: str = "") -> None:
    """A page project whose index lists *pages* (docname: body after a title)."""
    write_page_project(srcdir, ".. toctree::\n\n" + "".join(f"   {name}\n" for name in pages))
    for name, body in pages.items():
        (srcdir / f"{name}.rst").write_text(f"{name}\n{'=' * len(name)}\n\n{body}")
    with (srcdir / "conf.py").open("a") as file:
        file.write(conf)


@pytest.fixture
def build_pages(make_app, tmp_path):
    def build(pages: dict[str, str], conf: str = "", **kwargs):
        srcdir = tmp_path / "src"
        write_pages(srcdir, pages, conf)
        app = make_app("html", srcdir=srcdir, freshenv=True, **kwargs)
        app.build()
        return app

    return build


def wording(app, page: str):
    """The wording paragraph of the one note of *page*."""
    (note,) = notes_in(parse_html(app.outdir / f"{page}.html"))
    return note.select("p")[1]


def test_each_copy_belongs_to_its_page_and_line(build_pages):
    app = build_pages(
        {"a": ".. cuda-deterministic::\n", "b": "Text.\n\n.. cuda-deterministic::\n"},
        confoverrides={"reprodocs_reproducibility_doc": "missing"},
    )
    warnings = strip_colors(app.warning.getvalue())
    for page, line in (("a", 4), ("b", 6)):
        assert f"{app.srcdir / page}.rst:{line}: WARNING: unknown document: '/missing'" in warnings
        # The pickled doctree's cross-references are the page's own.
        doctree = app.env.get_doctree(page)
        xrefs = list(doctree.findall(addnodes.pending_xref))
        assert [xref["refdoc"] for xref in xrefs] == [page]
        assert all(node.document is doctree for node in xrefs[0].findall())


def test_copies_in_myst_pages_hold_no_other_page(make_app, tmp_path):
    # The wording of a MyST page is parsed in a document of its own, its
    # nodes then moved to the page: a copy kept from another page is moved too.
    srcdir = write_page_project(tmp_path / "src", ".. toctree::\n\n   a\n   b\n")
    for page in ("a", "b"):
        (srcdir / f"{page}.md").write_text(f"# {page}\n\n```{{cuda-deterministic}}\n```\n")
    with (srcdir / "conf.py").open("a") as file:
        file.write('extensions = ["myst_parser", "reprodocs"]\n')
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    for page in ("a", "b"):
        doctree = app.env.get_doctree(page)
        (note,) = doctree.findall(nodes.note)
        assert all(node.document is doctree for node in note.findall())


def test_roles_read_their_own_pages_module(build_pages):
    # The same :when: names a function of each page's current module.
    note = ".. cuda-deterministic::\n   :when: calling :func:`histc`\n"
    pages = {
        module: f".. py:currentmodule:: {module}\n\n.. py:function:: histc(x)\n\n{note}"
        for module in ("numpy", "torch")
    }
    app = build_pages(pages)
    assert app.warning.getvalue() == ""
    for module in pages:
        assert wording(app, module).find("a", string=None)["href"] == f"#{module}.histc"


def test_the_pages_default_role_is_read(build_pages):
    note = ".. cuda-deterministic::\n   :when: `x` is given\n"
    app = build_pages(
        {"a": f".. default-role:: code\n\n{note}", "b": f".. default-role:: literal\n\n{note}"}
    )
    assert app.warning.getvalue() == ""
    assert wording(app, "a").find("code")["class"][0] == "code"
    assert "code" not in wording(app, "b").find("code")["class"]


def test_a_condition_the_page_must_see_is_parsed_for_each_note(build_pages):
    # An auto-numbered footnote is numbered by its page's document.
    note = ".. cuda-deterministic::\n   :when: called [#]_\n\n.. [#] On CUDA.\n"
    app = build_pages({"a": note, "b": note})
    assert app.warning.getvalue() == ""
    for page in ("a", "b"):
        reference = wording(app, page).find("a", class_="footnote-reference")
        assert reference.get_text(strip=True).strip("[]") == "1"


def test_a_template_reading_the_operation_words_each_note(make_app, tmp_path):
    # note.rst includes the template that reads the operation.
    srcdir = tmp_path / "src"
    write_pages(
        srcdir,
        {name: f".. cuda-deterministic::\n   :op: torch.{name}\n" for name in ("a", "b")},
        'templates_path = ["_templates"]\n',
    )
    own = srcdir / "_templates" / "reprodocs"
    own.mkdir(parents=True)
    (own / "note.rst").write_text('{% include "reprodocs/operation.rst" %}')
    (own / "operation.rst").write_text("On {{ operation }}.\n")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert app.warning.getvalue() == ""
    assert [text_of(wording(app, page)) for page in ("a", "b")] == ["On torch.a.", "On torch.b."]


def test_an_application_building_again_renders_the_edited_template(make_app, tmp_path):
    srcdir = tmp_path / "src"
    write_pages(srcdir, {"a": ".. cuda-deterministic::\n"}, 'templates_path = ["_templates"]\n')
    template = srcdir / "_templates" / "reprodocs" / "note.rst"
    template.parent.mkdir(parents=True)
    template.write_text("First on {{ backend }}.\n")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    template.write_text("Second on {{ backend }}.\n")
    app.build()
    assert text_of(wording(app, "a")) == "Second on CUDA."
