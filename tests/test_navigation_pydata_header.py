"""pydata-sphinx-theme's header links with ``reprodocs.navigation``
(``reprodocs.navigation.pydata_header``): the theme's own, reused on the
pages of the same directory and section, every page byte-identical."""

from __future__ import annotations

import functools

from reprodocs.base.state import build_state
from reprodocs.navigation.pydata_header import PydataHeaders
from test_navigation_pydata import ROOT, assert_same, build, pydata_settings, written


def count_headers(app, change=None, priority=505) -> dict[str, int]:
    """Counts the calls of the page's generate_header_nav_html: the theme's
    own (wrapped between the theme's handler and the extension's), each
    changed by *change* (pagename, html) if given; with priority=515, the
    extension's."""
    calls = {"theme": 0}

    def wrap(app, pagename, templatename, context, doctree):
        theme_header = context["generate_header_nav_html"]

        @functools.wraps(theme_header)
        def counted(*args, **kwargs):
            calls["theme"] += 1
            html = theme_header(*args, **kwargs)
            return change(pagename, html) if change else html

        context["generate_header_nav_html"] = counted

    app.connect("html-page-context", wrap, priority=priority)
    return calls


def test_header_links_are_the_theme_s_written_once_per_directory_and_section(
    make_app, rootdir, tmp_path
):
    """The header's links, with a dropdown (its id numbered per call on a
    page): the theme's own on the first page of each directory and
    top-level section, compared on the second, reused on the others. (With
    dirhtml every page is a directory of its own: nothing is reused, and the
    byte-for-byte comparisons above cover it.)"""
    settings = pydata_settings({"header_links_before_dropdown": 1})
    _, without = build(make_app, rootdir / ROOT, tmp_path / "without", "html", settings)
    assert b'id="pst-nav-more-links"' in without["index.html"]
    app = make_app("html", srcdir=rootdir / ROOT, builddir=tmp_path / "with", freshenv=True,
                   confoverrides={**settings, "extensions": ["reprodocs.navigation"]})  # fmt: skip
    theme = count_headers(app)
    pages = count_headers(app, priority=515)
    app.build()
    assert_same(written(app.outdir), without)
    state = build_state(app.env, PydataHeaders)
    assert theme["theme"] == len(state.headers) + len(state.compared)
    assert len(state.compared) >= 5  # so many keys had a second page
    assert theme["theme"] < pages["theme"] - 5
    assert "header links" not in app.status.getvalue()


def test_header_links_differing_on_a_page_are_the_theme_s(make_app, rootdir, tmp_path):
    """Broken on purpose (the theme's header names the page): the second
    page of a directory and section differs from the first, the log says
    so, and every page has the theme's own."""

    def naming(pagename, html):
        return f"{html}<!-- {pagename} -->"

    settings = pydata_settings({})
    app = make_app("html", srcdir=rootdir / ROOT, builddir=tmp_path / "without", freshenv=True,
                   confoverrides=settings)  # fmt: skip
    count_headers(app, naming)
    app.build()
    without = written(app.outdir)
    app = make_app("html", srcdir=rootdir / ROOT, builddir=tmp_path / "with", freshenv=True,
                   confoverrides={**settings, "extensions": ["reprodocs.navigation"]})  # fmt: skip
    count_headers(app, naming)
    app.build()
    assert_same(written(app.outdir), without)
    assert app.status.getvalue().count("header links on") == 1
