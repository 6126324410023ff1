"""With ``reprodocs.navigation``, a site's pages are byte-identical to the
same site's pages without it, theme by theme."""

from __future__ import annotations

import pytest
from docutils import nodes

from conftest import pytorch_sphinx_theme2_settings
from reprodocs.navigation import serving

THEMES = {
    "sphinx_rtd_theme": {},
    "alabaster": {},
    "classic": {"html_sidebars": {"**": ["globaltoc.html", "searchbox.html"]}},
    "furo": {},
}


@pytest.fixture
def linear_menus(monkeypatch) -> list[str]:
    """The menus the extension serves from the linear menu (not Sphinx's)."""
    served = []

    def recording(*args, **kwargs):
        html = menu_html(*args, **kwargs)
        if html is not None:
            served.append(html)
        return html

    menu_html = serving.menu_html
    monkeypatch.setattr(serving, "menu_html", recording)
    return served


def pages(outdir) -> dict[str, bytes]:
    return {str(path.relative_to(outdir)): path.read_bytes() for path in outdir.rglob("*.html")}


def build(make_app, rootdir, outdir, builder, confoverrides, setup=None) -> dict[str, bytes]:
    app = make_app(
        builder,
        srcdir=rootdir / "test-navigation",
        builddir=outdir,
        freshenv=True,
        confoverrides=confoverrides,
    )
    if setup is not None:
        setup(app)
    app.build()
    return pages(app.outdir)


@pytest.mark.parametrize(
    ("theme", "builder"),
    [(theme, "html") for theme in THEMES] + [("sphinx_rtd_theme", "dirhtml")],
)
def test_pages_are_byte_identical_with_the_extension(
    make_app, rootdir, tmp_path, linear_menus, theme, builder
):
    if theme == "furo":
        pytest.importorskip("furo")
    options = {"html_theme": theme, **THEMES[theme]}
    without = build(make_app, rootdir, tmp_path / "without", builder, options)
    with_extension = build(
        make_app,
        rootdir,
        tmp_path / "with",
        builder,
        {**options, "extensions": ["reprodocs.navigation"]},
    )
    assert len(without) >= 13
    assert len(linear_menus) >= 13  # the extension served the menus
    assert with_extension.keys() == without.keys()
    for page, html in with_extension.items():
        assert html == without[page], page


class visited_by_dirhtml_only(nodes.Element):
    """A node whose visitors are registered for the dirhtml builder by its
    name, as an extension may do: Sphinx then gives that builder's
    translator these alone, not those registered for the html format."""


def test_a_menu_the_builder_cannot_render_whole_is_sphinx_s_own(make_app, rootdir, tmp_path):
    """The extension renders all of a menu's links in one document, with its
    own node's visitors (registered for the html format): where the builder
    does not have them, the menu is Sphinx's own, and the log says so."""
    built = {}
    for name, extensions in (("without", []), ("with", ["reprodocs.navigation"])):
        app = make_app(
            "dirhtml",
            srcdir=rootdir / "test-navigation",
            builddir=tmp_path / name,
            confoverrides={"html_theme": "sphinx_rtd_theme", "extensions": extensions},
        )
        app.add_node(
            visited_by_dirhtml_only, override=True, dirhtml=(lambda self, node: None, None)
        )
        app.build()
        built[name] = (pages(app.outdir), app.status.getvalue())
    (without, _), (with_extension, log) = built["without"], built["with"]
    assert len(without) >= 13
    assert with_extension == without
    assert log.count("toctree() on api/index (and any other such page) is Sphinx's own") == 1


def serve_sphinx_menu(app) -> None:
    """Undo the extension's work on every page: the pages as the reprodocs
    theme would write them with Sphinx's own ``toctree()``."""
    sphinx_toctrees = {}

    def before(app, pagename, templatename, context, doctree):
        sphinx_toctrees[pagename] = context.get("toctree")

    def after(app, pagename, templatename, context, doctree):
        if (toctree := sphinx_toctrees.pop(pagename)) is not None:
            context["toctree"] = toctree

    # Around the extension's handler (500), before the theme's own (600).
    app.connect("html-page-context", before, priority=499)
    app.connect("html-page-context", after, priority=501)


def test_reprodocs_theme_pages_are_those_with_sphinx_menu(
    make_app, rootdir, tmp_path, linear_menus
):
    options = {"html_theme": "reprodocs"}
    linear = build(make_app, rootdir, tmp_path / "linear", "html", options)
    assert len(linear_menus) >= 13
    sphinx = build(make_app, rootdir, tmp_path / "sphinx", "html", options, serve_sphinx_menu)
    assert len(linear) >= 13
    assert linear == sphinx


def test_pytorch_sphinx_theme2_pages_are_byte_identical_with_the_extension(
    make_app, rootdir, tmp_path, linear_menus
):
    """pytorch_sphinx_theme2 (on pydata-sphinx-theme 0.15.4) never calls
    ``toctree()``: its sidebar asks Sphinx's ``TocTree.resolve`` itself (for
    the pages under a top-level page, as under api/ here) and its header lists
    the root's toctree entries from the environment. The extension serves
    both (reprodocs.navigation.pydata and .pytorch_sphinx_theme2_header)
    and changes no page."""
    options = pytorch_sphinx_theme2_settings()
    without = build(
        make_app,
        rootdir,
        tmp_path / "without",
        "html",
        {**options, "extensions": ["pytorch_sphinx_theme2"]},
    )
    with_extension = build(
        make_app,
        rootdir,
        tmp_path / "with",
        "html",
        {**options, "extensions": ["pytorch_sphinx_theme2", "reprodocs.navigation"]},
    )
    assert len(without) >= 13
    # The theme's own sidebar, from TocTree, on a page below api/index.
    assert b'class="bd-docs-nav' in without["api/op_a.html"]
    assert b"toctree-l1" in without["api/op_a.html"]
    assert linear_menus == []  # the theme asked for no menu
    assert with_extension.keys() == without.keys()
    for page, html in with_extension.items():
        assert html == without[page], page
