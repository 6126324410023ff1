"""The build log's one line of what ``reprodocs.navigation`` did
(``reprodocs.navigation.outcomes``): the theme recognised and the pages
served, or why not, counted right when pages are written in parallel."""

from __future__ import annotations

import tempfile

from bs4 import BeautifulSoup

from reprodocs.base.state import build_state
from reprodocs.navigation import furo as navigation_furo
from reprodocs.navigation.outcomes import DATES, SERVED, Outcomes, summary


def build(make_app, rootdir, tmp_path, root, confoverrides, builder="html", parallel=0):
    app = make_app(
        builder,
        srcdir=rootdir / root,
        builddir=tmp_path / "out",
        freshenv=True,
        parallel=parallel,
        confoverrides={"extensions": ["reprodocs.navigation"], **confoverrides},
    )
    app.build()
    return app


def summary_line(app) -> str:
    """The build log's one summary line of the navigation."""
    (line,) = [
        line
        for line in app.status.getvalue().splitlines()
        if line.startswith("reprodocs.navigation: ")
        and (": menus served on " in line or line.endswith("no page asked for a menu it serves"))
    ]
    return line


def pages_with(app, selector: str) -> int:
    """How many written pages hold a menu (*selector*, in the parsed HTML)."""
    return sum(
        BeautifulSoup(path.read_bytes(), "html.parser").select_one(selector) is not None
        for path in app.outdir.rglob("*.html")
    )


def test_served_toctree_menus_are_counted(make_app, rootdir, tmp_path):
    app = build(make_app, rootdir, tmp_path, "test-navigation", {"html_theme": "sphinx_rtd_theme"})
    pages = pages_with(app, "div.wy-menu-vertical")
    assert pages >= 13
    assert summary_line(app) == (
        f"reprodocs.navigation: sphinx_rtd_theme (toctree()): menus served on {pages} of "
        f"{pages} pages"
    )


PYDATA = {"html_theme": "pydata_sphinx_theme", "templates_path": []}


def pydata_line(app) -> str:
    """guide/advanced/a gets the theme's own sidebar (an ``only`` in its table
    of contents); every other page with a sidebar the extension's."""
    import pydata_sphinx_theme

    pages = pages_with(app, "nav.bd-docs-nav")
    assert pages >= 20
    reason = "sidebar below a page with `only` in its table of contents"
    return (
        f"reprodocs.navigation: pydata-sphinx-theme {pydata_sphinx_theme.__version__}: "
        f"menus served on {pages - 1} of {pages} pages; the theme's own on 1: {reason} (1)"
    )


def test_a_fallback_is_counted_with_its_reason(make_app, rootdir, tmp_path):
    app = build(make_app, rootdir, tmp_path, "test-navigation-pydata", PYDATA)
    assert summary_line(app) == pydata_line(app)


def test_pages_written_in_parallel_are_counted(make_app, rootdir, tmp_path, monkeypatch):
    """Written by forked processes (``-j 2``), each page's outcome reaches the
    main process: the line is the serial build's, though the main process
    wrote only some of the pages itself; the processes' files are gone."""
    folders = tmp_path / "tmp"
    folders.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folders))
    app = build(make_app, rootdir, tmp_path, "test-navigation-pydata", PYDATA, parallel=2)
    assert summary_line(app) == pydata_line(app)
    written_here = build_state(app.env, Outcomes).pages
    assert 0 < len(written_here) < pages_with(app, "nav.bd-docs-nav")
    assert not list(folders.iterdir())


def test_a_theme_not_served_says_why(make_app, rootdir, tmp_path, monkeypatch):
    import furo

    monkeypatch.setattr(navigation_furo, "KNOWN_FURO", frozenset({"1999.1.1"}))
    app = build(make_app, rootdir, tmp_path, "test-navigation", {"html_theme": "furo"})
    pages = pages_with(app, "div.sidebar-tree")
    assert pages >= 13
    assert summary_line(app) == (
        f"reprodocs.navigation: furo {furo.__version__}: menus served on 0 of {pages} pages; "
        f"the theme's own on {pages}: a furo version it does not know ({pages})"
    )


def test_a_builder_not_served_says_why(make_app, rootdir, tmp_path):
    import pydata_sphinx_theme

    app = build(make_app, rootdir, tmp_path, "test-navigation-pydata", PYDATA, "singlehtml")
    assert [path.name for path in app.outdir.glob("*.html")] == ["index.html"]
    assert summary_line(app) == (
        f"reprodocs.navigation: pydata-sphinx-theme {pydata_sphinx_theme.__version__}: menus "
        "served on 0 of 1 pages; the theme's own on 1: the sidebar with the singlehtml "
        "builder (1)"
    )


def test_a_theme_asking_for_no_menu(make_app, rootdir, tmp_path):
    settings = {"html_theme": "basic", "html_sidebars": {"**": []}}
    app = build(make_app, rootdir, tmp_path, "test-navigation", settings)
    assert summary_line(app) == (
        "reprodocs.navigation: basic (toctree()): no page asked for a menu it serves"
    )


def test_the_theme_s_own_on_a_page_wins_over_served():
    """A page with two menus, one served and one the theme's own, counts as
    the theme's own, with the first reason given."""
    state = Outcomes()
    for page, outcome in [("a", SERVED), ("a", "x"), ("a", "y"), ("a", SERVED), ("b", SERVED)]:
        state.record(page, outcome)
    assert state.pages == {"a": "x", "b": SERVED}
    assert summary(["t"], state.pages) == (
        "reprodocs.navigation: t: menus served on 1 of 2 pages; the theme's own on 1: x (1)"
    )


def test_dates_are_counted_apart_from_the_menus():
    state = Outcomes()
    state.record("a", SERVED)
    state.record("a", SERVED, DATES)
    state.record("b", "why", DATES)
    assert summary(["t"], state.pages, state.dates) == (
        "reprodocs.navigation: t: menus served on 1 of 1 pages; dates served on 1 of 2 pages; "
        "the theme's own dates on 1: why (1)"
    )
