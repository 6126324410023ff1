"""The linear-time menu is Sphinx's own ``toctree()`` menu, page by page."""

from __future__ import annotations

import itertools
import shutil

import pytest
from bs4 import BeautifulSoup

from reprodocs.navigation.pages import menu_html

OPTIONS = [
    dict(zip(("collapse", "maxdepth", "titles_only", "includehidden"), values, strict=True))
    for values in itertools.product((True, False), (0, 1, 2, 4, ""), (False, True), (False, True))
]


def structure(html: str) -> list:
    """The menu as a reader gets it: every tag with its classes and href, and
    the text, in order; formatting whitespace aside."""
    soup = BeautifulSoup(html, "lxml")
    items = []
    for element in soup.find_all(True):
        if element.name in ("html", "body"):
            continue
        items.append((element.name, tuple(element.get("class", ())), element.get("href")))
    return [items, " ".join(soup.get_text(" ").split())]


def warnings_of(app) -> str:
    # SphinxTestApp.warning is public from Sphinx 7.3; 7.2 keeps the stream
    # private as _warning.
    stream = getattr(app, "warning", None) or app._warning
    return stream.getvalue()


def capture_menus(app, options_sets) -> list:
    """Have every page's ``toctree()`` called with every option set, both
    Sphinx's own (before the extension serves the page) and the extension's
    (after it): a list of (page, options, Sphinx's menu, ours, whether ours
    came from the linear menu rather than from Sphinx's)."""
    pairs = []
    sphinx_toctrees = {}

    def before(app, pagename, templatename, context, doctree):
        sphinx_toctrees[pagename] = context.get("toctree")

    def after(app, pagename, templatename, context, doctree):
        sphinx_toctree = sphinx_toctrees.pop(pagename)
        if sphinx_toctree is None:
            return
        assert context["toctree"] is not sphinx_toctree  # the extension serves it
        for options in options_sets:
            linear = menu_html(
                app.builder, pagename, **{**options, "maxdepth": int(options["maxdepth"] or 0)}
            )
            pairs.append(
                (
                    pagename,
                    options,
                    sphinx_toctree(**options),
                    context["toctree"](**options),
                    linear is not None,
                )
            )

    app.connect("html-page-context", before, priority=100)
    app.connect("html-page-context", after, priority=900)
    return pairs


@pytest.fixture
def menus(make_app, rootdir, tmp_path, request):
    """For every page and every option set: (Sphinx's menu, ours)."""
    builder = request.param
    app = make_app(
        builder,
        srcdir=rootdir / "test-navigation",
        builddir=tmp_path,
        freshenv=True,
        confoverrides={"extensions": ["reprodocs.navigation"]},
    )
    pairs = capture_menus(app, OPTIONS)
    app.build()
    assert warnings_of(app) == ""
    return pairs


@pytest.mark.parametrize("menus", ["html", "dirhtml"], indirect=True)
def test_menu_is_sphinx_menu_on_every_page(menus):
    pages = {page for page, *_ in menus}
    assert {"index", "notes/first", "notes/nested", "api/op_b", "api/other", "hidden/one"} <= pages
    for pagename, options, sphinx_menu, our_menu, linear in menus:
        assert linear, (pagename, options)
        assert our_menu == sphinx_menu, (pagename, options)
    # The comparison has something to compare: current marks and collapsed branches.
    assert any('class="current reference internal"' in sphinx for _, _, sphinx, *_ in menus)
    assert any(a[2] != b[2] for a, b in itertools.pairwise(menus))


MENU_OPTIONS = [
    {
        "collapse_navigation": True,
        "navigation_depth": 4,
        "titles_only": False,
        "includehidden": True,
    },
    {
        "collapse_navigation": False,
        "navigation_depth": 2,
        "titles_only": True,
        "includehidden": False,
    },
    {
        "collapse_navigation": True,
        "navigation_depth": -1,
        "titles_only": True,
        "includehidden": True,
    },
]


def side_menus(app) -> dict[str, list]:
    """Every page's left menu, as :func:`structure` sees it."""
    menus = {}
    for page in sorted(app.outdir.rglob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "lxml")
        menu = soup.select_one(".wy-menu-vertical")
        if menu is not None:
            menus[str(page.relative_to(app.outdir))] = structure(menu.decode_contents())
    return menus


@pytest.mark.parametrize("options", MENU_OPTIONS)
def test_theme_menu_is_sphinx_rtd_theme_menu(make_app, rootdir, tmp_path, options):
    srcdir = rootdir / "test-navigation"
    menus = {}
    for theme in ("sphinx_rtd_theme", "reprodocs"):
        app = make_app(
            "html",
            srcdir=srcdir,
            builddir=tmp_path / theme,
            freshenv=True,
            confoverrides={"html_theme": theme, "html_theme_options": options},
        )
        app.build()
        menus[theme] = side_menus(app)
    assert len(menus["reprodocs"]) >= 13
    assert menus["reprodocs"] == menus["sphinx_rtd_theme"]


def test_new_page_appears_in_every_menu_after_an_incremental_build(make_app, rootdir, tmp_path):
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-navigation", srcdir)
    # The extension with a theme that does not set it up itself.
    options = {"html_theme": "sphinx_rtd_theme", "extensions": ["reprodocs.navigation"]}
    make_app("html", srcdir=srcdir, freshenv=True, confoverrides=options).build()
    (srcdir / "notes" / "added.rst").write_text("Added later\n===========\n")
    index = srcdir / "index.rst"
    index.write_text(
        index.read_text().replace("   notes/second\n", "   notes/second\n   notes/added\n")
    )
    app = make_app("html", srcdir=srcdir, confoverrides=options)  # incremental, as sphinx-build
    app.build()
    menus = side_menus(app)
    assert "notes/added.html" in menus
    for page, (_elements, text) in menus.items():
        assert "Added later" in text, page


def rewritten_by_an_edit(make_app, srcdir, options) -> set[str]:
    """The pages an incremental build writes after a change that leaves the
    menu as it was (a paragraph added to a page)."""
    app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides=options)
    app.build()
    pages = list(app.outdir.rglob("*.html"))
    before = {page: page.stat().st_mtime_ns for page in pages}
    op_b = srcdir / "api" / "op_b.rst"
    op_b.write_text(op_b.read_text() + "\nMore.\n")
    make_app("html", srcdir=srcdir, confoverrides=options).build()
    return {
        str(page.relative_to(app.outdir))
        for page in pages
        if page.stat().st_mtime_ns != before[page]
    }


def test_unchanged_menu_rewrites_what_sphinx_rewrites(make_app, rootdir, tmp_path):
    rewritten = {}
    for extensions in ([], ["reprodocs.navigation"]):
        srcdir = tmp_path / str(len(extensions))
        shutil.copytree(rootdir / "test-navigation", srcdir)
        rewritten[len(extensions)] = rewritten_by_an_edit(
            make_app, srcdir, {"html_theme": "sphinx_rtd_theme", "extensions": extensions}
        )
    # The page, its toctree parent, and the pages Sphinx always writes (and,
    # on some Sphinx versions, the root).
    assert {"api/op_b.html", "api/index.html"} <= rewritten[1]
    assert "notes/first.html" not in rewritten[1]
    assert rewritten[1] == rewritten[0]


def test_what_is_left_to_sphinx_is_told_once_in_each_build(make_app, rootdir, tmp_path):
    """The log's line for a menu left to Sphinx (here on the pages below a
    page whose table of contents holds an ``only``) comes once per build,
    also when one application builds twice."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-navigation", srcdir)
    (srcdir / "notes" / "first.rst").write_text(
        "First\n=====\n\n.. only:: html\n\n   Only in HTML\n   ------------\n",
        encoding="utf-8",
    )
    options = {"html_theme": "sphinx_rtd_theme", "extensions": ["reprodocs.navigation"]}
    app = make_app("html", srcdir=srcdir, confoverrides=options)
    told = "is Sphinx's own"
    app.build()
    assert app.status.getvalue().count(told) == 1
    app.build(force_all=True)
    assert app.status.getvalue().count(told) == 2
