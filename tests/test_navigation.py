"""The linear-time menu is Sphinx's own ``toctree()`` menu, page by page."""

from __future__ import annotations

import itertools

import pytest
from bs4 import BeautifulSoup

from reprodocs.navigation import forget_menus, menu_html

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


@pytest.fixture
def menus(make_app, rootdir, tmp_path, request):
    """For every page and every option set: (Sphinx's menu, ours)."""
    builder = request.param
    app = make_app(builder, srcdir=rootdir / "test-navigation", builddir=tmp_path, freshenv=True)
    pairs = []

    def capture(app, pagename, templatename, context, doctree):
        if "toctree" not in context:
            return
        for options in OPTIONS:
            pairs.append(
                (
                    pagename,
                    options,
                    context["toctree"](**options),
                    menu_html(app.builder, pagename, **options),
                )
            )

    app.connect("html-page-context", capture)
    app.connect("env-updated", forget_menus)
    app.build()
    assert app.warning.getvalue() == ""
    return pairs


@pytest.mark.parametrize("menus", ["html", "dirhtml"], indirect=True)
def test_menu_is_sphinx_menu_on_every_page(menus):
    pages = {page for page, *_ in menus}
    assert {"index", "notes/first", "notes/nested", "api/op_b", "api/other", "hidden/one"} <= pages
    for pagename, options, sphinx_menu, our_menu in menus:
        assert structure(our_menu) == structure(sphinx_menu), (pagename, options)
    # The comparison has something to compare: current marks and collapsed branches.
    assert any('class="current reference internal"' in sphinx for _, _, sphinx, _ in menus)
    assert any(sphinx != other for (_, _, sphinx, _), (_, _, other, _) in itertools.pairwise(menus))
