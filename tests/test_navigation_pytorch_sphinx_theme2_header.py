"""pytorch_sphinx_theme2's header menu with ``reprodocs.navigation``
(``reprodocs.navigation.pytorch_sphinx_theme2_header``): rendered once per
directory and entries, every page byte-identical to the theme's own.

Run in .venv-sphinx72, the 7.2.6 line's venv, which holds the theme (``make
test-sphinx72``, ``make test-pytorch2``); elsewhere skipped, loudly.
"""

from __future__ import annotations

import pytest

from reprodocs.navigation import pytorch_sphinx_theme2_header as header
from test_navigation_markdown_copies import theme, theme_settings
from test_navigation_pydata import ROOT, assert_same, build, written

__all__ = ["theme"]  # a fixture, imported for the tests below


@pytest.fixture
def served_menus(theme, monkeypatch):
    """The pages whose header menu was the first page's of their key, with
    their own links (a list of page names, once per form)."""
    served: list[str] = []
    for_page = header.Recorded.for_page

    def spy(self, pagename, pathto, entries):
        html = for_page(self, pagename, pathto, entries)
        if html is not None:
            served.append(pagename)
        return html

    monkeypatch.setattr(header.Recorded, "for_page", spy)
    return served


def test_header_menu_is_rendered_once_per_directory_and_entries(
    make_app, rootdir, tmp_path, theme, served_menus
):
    """Most pages get the menu of the first page of their directory and
    section with their own links, byte for byte the theme's; the theme's
    function listing the entries' children is its own again after the build."""
    children = header_module_children()
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    app, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    assert_same(with_extension, without)
    pages = len(app.env.all_docs)
    # Both forms of the menu, on every page but the first of each key.
    assert len(served_menus) >= pages
    assert set(served_menus) >= {"api/op_b", "api/op_c", "guide/install/linux"}
    assert "header menu" not in app.status.getvalue()
    assert header_module_children() is children


def header_module_children():
    import pytorch_sphinx_theme2

    return pytorch_sphinx_theme2._get_toctree_children


def test_header_menu_that_differs_is_the_theme_s(make_app, rootdir, tmp_path, theme, monkeypatch):
    """The second page of each key is compared with the theme's own menu:
    on a difference (here, one made up), the key's pages get the theme's
    own, the log says so once, and the pages are the theme's."""
    for_page = header.Recorded.for_page
    monkeypatch.setattr(
        header.Recorded, "for_page", lambda *args: f"{for_page(*args)}<!-- changed -->"
    )
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    app, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    assert app.status.getvalue().count("header menu on") == 1
    assert_same(with_extension, without)


def with_own_header_menu(make_app, rootdir, tmp_path, template: str):
    """The pages of a project with its own ``navbar-nav.html`` (*template*),
    built with the extension (its app, and pages) and without it (pages)."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "navbar-nav.html").write_text(template, encoding="utf-8")
    settings = theme_settings()
    settings["templates_path"] = [str(templates), *settings["templates_path"]]
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", settings)
    app, with_extension = build(
        make_app,
        srcdir,
        tmp_path / "with",
        "html",
        {**settings, "extensions": [*settings["extensions"], "reprodocs.navigation"]},
    )
    return app, with_extension, without


def test_a_project_s_own_header_menu_is_its_own(make_app, rootdir, tmp_path, theme):
    """A project's own navbar-nav.html that reads what a key does not hold
    (here, the page's name) is rendered as the theme renders it; the log
    says why, once."""
    app, with_extension, without = with_own_header_menu(
        make_app,
        rootdir,
        tmp_path,
        '<nav><a href="{{ pathto(pagename) }}">{{ pagename }}</a>'
        "{% for item in hierarchical_header_nav %}{{ item.title }}{% endfor %}</nav>",
    )
    log = app.status.getvalue()
    assert log.count("the header menu navbar-nav.html reads pagename") == 1
    assert b">api/op_a</a>" in with_extension["api/op_a.html"]
    assert_same(with_extension, without)


@pytest.mark.slow
def test_headers_written_by_parallel_processes_are_the_theme_s(make_app, rootdir, tmp_path, theme):
    """Written by two processes (``-j 2``), each with the menus it rendered
    itself, the pages and their Markdown copies are the theme's alone, also
    built with ``-j 2`` (see the same test for pydata-sphinx-theme)."""
    srcdir = rootdir / ROOT
    alone = make_app("html", srcdir=srcdir, builddir=tmp_path / "without", freshenv=True,
                     parallel=2, confoverrides=theme_settings())  # fmt: skip
    alone.build()
    app = make_app(
        "html",
        srcdir=srcdir,
        builddir=tmp_path / "with",
        freshenv=True,
        parallel=2,
        confoverrides=theme_settings("reprodocs.navigation"),
    )
    assert app.is_parallel_allowed("write")
    app.build()
    assert_same(written(app.outdir), written(alone.outdir))


def test_a_header_menu_asking_pathto_for_more_is_the_theme_s(make_app, rootdir, tmp_path, theme):
    """A ``navbar-nav.html`` that asks ``pathto`` for a resource, not a
    page's link, is the theme's own on every page; the log says so once."""
    app, with_extension, without = with_own_header_menu(
        make_app,
        rootdir,
        tmp_path,
        '<nav><img src="{{ pathto("_static/logo.png", 1) }}" alt="">'
        "{% for item in hierarchical_header_nav %}"
        '<a href="{{ pathto(item.url) }}">{{ item.title }}</a>{% endfor %}</nav>',
    )
    assert app.status.getvalue().count("asks pathto for more than a page's link") == 1
    assert b'src="../_static/logo.png"' in with_extension["api/op_a.html"]
    assert_same(with_extension, without)
