"""pytorch_sphinx_theme2's Markdown copies with ``reprodocs.navigation``:
converted from each page without the sidebar the extension wrote into it and
the header's menu, byte-identical to the theme's own (every ``.md``,
llms.txt, llms-full.txt).

Run in .venv-sphinx72, the 7.2.6 line's venv, which holds the theme (``make
test-sphinx72``, ``make test-pytorch2``); elsewhere skipped, loudly.
"""

from __future__ import annotations

import functools
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from conftest import pytorch_sphinx_theme2_settings
from reprodocs.navigation import markdown_copies as markdown
from reprodocs.navigation import pytorch_sphinx_theme2_header as header
from test_navigation_pydata import ROOT, assert_same, build, written
from test_navigation_trees import sites

#: What the theme writes around the sidebar; empty in a page given without it.
SIDEBAR_CONTAINER = '<div class="bd-toc-item navbar-nav">'
WITHOUT_SIDEBAR = SIDEBAR_CONTAINER + "</div>"
#: The start of the header's menu (navbar-nav.html).
HEADER_MENU = '<ul class="bd-navbar-elements navbar-nav">'


@pytest.fixture
def theme():
    pytorch_sphinx_theme2_settings()  # skips, loudly, where the theme is not installed
    from pytorch_sphinx_theme2 import llm_generation

    return llm_generation


def theme_settings(*extensions: str) -> dict:
    return {
        **pytorch_sphinx_theme2_settings(),
        "extensions": ["pytorch_sphinx_theme2", *extensions],
    }


@pytest.fixture
def converted(theme, monkeypatch, tmp_path):
    """What the theme's ``_html_to_markdown`` is given, page by page, in this
    process and in its worker processes: the menus the page held
    ("sidebar", "header", both, or "none"), the root page's empty sidebar
    counted as none."""
    record = tmp_path / "converted.txt"
    to_markdown = theme._html_to_markdown

    def spy(html):
        held = []
        if SIDEBAR_CONTAINER in html and WITHOUT_SIDEBAR not in html:
            held.append("sidebar")
        if HEADER_MENU in html:
            held.append("header")
        with record.open("a", encoding="utf-8") as file:
            file.write(" and ".join(held or ["none"]) + "\n")
        return to_markdown(html)

    monkeypatch.setattr(theme, "_html_to_markdown", spy)

    def read() -> list[str]:
        lines = record.read_text(encoding="utf-8").splitlines()
        record.unlink()
        return lines

    return read


def test_pages_are_converted_without_their_menus(make_app, rootdir, tmp_path, theme, converted):
    """Alone, the theme parses every page's sidebar and header menu; with the
    extension only the sidebars it did not write, and the menus of the first
    page of each layout, by the check; the theme's functions are its own
    again after the build."""
    convert_page = theme._convert_single_doc
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    alone = converted()
    app, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    served = converted()
    documents = len(alone)
    # (Two pages' sidebars are empty: the root page's, and lonely's.)
    assert sorted(alone) == ["header"] * 2 + ["sidebar and header"] * (documents - 2)
    assert documents >= 20
    # Two layouts, each one's first page checked (converted with its menus
    # and without): the pages with the extension's sidebar, and those
    # without (first guide/advanced/a, whose sidebar is the theme's own and
    # kept; then the two whose sidebar is empty).
    checks = ["sidebar and header", "none", "sidebar and header", "sidebar"]
    pages = ["sidebar"] + ["none"] * (documents - 1)
    assert sorted(served) == sorted(checks + pages)
    assert "converted whole" not in app.status.getvalue()
    assert_same(with_extension, without)
    assert theme._convert_single_doc is convert_page
    assert theme._html_to_markdown.__name__ == "spy"
    assert markdown.CONVERTING == markdown.Converting()


def test_a_layout_whose_markdown_differs_is_converted_whole(
    make_app, rootdir, tmp_path, theme, monkeypatch
):
    """A conversion that reads the sidebar (here, one that counts the page's
    characters) fails the check: every page is converted whole, the log
    says so once, and the Markdown is the theme's."""
    to_markdown = theme._html_to_markdown
    monkeypatch.setattr(theme, "_html_to_markdown", lambda html: f"{to_markdown(html)} {len(html)}")
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    app, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    assert app.status.getvalue().count("converted whole") == 1
    assert_same(with_extension, without)


@pytest.mark.slow
def test_worker_processes_started_afresh_convert_whole_pages(
    make_app, rootdir, tmp_path, theme, monkeypatch
):
    """Where the theme's worker processes are not forks of the build (spawn,
    as on macOS), they know no sidebar: the Markdown is still the theme's."""
    spawning = functools.partial(
        ProcessPoolExecutor, mp_context=multiprocessing.get_context("spawn")
    )
    monkeypatch.setattr(theme, "ProcessPoolExecutor", spawning)
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    _, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    assert_same(with_extension, without)


@pytest.mark.slow
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    # No shrinking: an example is a whole site; it is printed as generated.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(files=sites())
def test_markdown_is_the_theme_s_on_generated_trees(make_app, tmp_path_factory, theme, files):
    srcdir = tmp_path_factory.mktemp("site")
    for name, text in files.items():
        (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
        (srcdir / name).write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    _, without = build(make_app, srcdir, out / "without", "html", theme_settings())
    app, with_extension = build(
        make_app, srcdir, out / "with", "html", theme_settings("reprodocs.navigation")
    )
    assert "llms-full.txt" in without
    assert "converted whole" not in app.status.getvalue()
    assert_same(with_extension, without)


# -- The header's menu, rendered once per directory and entries ---------------------------


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


def test_a_project_s_own_header_menu_is_its_own(make_app, rootdir, tmp_path, theme):
    """A project's own navbar-nav.html that reads what a key does not hold
    (here, the page's name) is rendered as the theme renders it; the log
    says why, once."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "navbar-nav.html").write_text(
        '<nav><a href="{{ pathto(pagename) }}">{{ pagename }}</a>'
        "{% for item in hierarchical_header_nav %}{{ item.title }}{% endfor %}</nav>",
        encoding="utf-8",
    )
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
    log = app.status.getvalue()
    assert log.count("the header menu navbar-nav.html reads pagename") == 1
    assert b">api/op_a</a>" in with_extension["api/op_a.html"]
    assert_same(with_extension, without)


@pytest.mark.slow
def test_pages_written_by_parallel_processes_are_the_theme_s(make_app, rootdir, tmp_path, theme):
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
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "navbar-nav.html").write_text(
        '<nav><img src="{{ pathto("_static/logo.png", 1) }}" alt="">'
        "{% for item in hierarchical_header_nav %}"
        '<a href="{{ pathto(item.url) }}">{{ item.title }}</a>{% endfor %}</nav>',
        encoding="utf-8",
    )
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
    assert app.status.getvalue().count("asks pathto for more than a page's link") == 1
    assert b'src="../_static/logo.png"' in with_extension["api/op_a.html"]
    assert_same(with_extension, without)
