"""pytorch_sphinx_theme2's Markdown copies with ``reprodocs.navigation``
(``reprodocs.navigation.markdown_copies``):
converted from each page's article, or from the page without the sidebar the
extension wrote into it and the header's menu, byte-identical to the theme's
own (every ``.md``, llms.txt, llms-full.txt).

Run in .venv-sphinx72, the 7.2.6 line's venv, which holds the theme (``make
test-sphinx72``, ``make test-pytorch2``); elsewhere skipped, loudly.
"""

from __future__ import annotations

import functools
import multiprocessing
import shutil
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from conftest import pytorch_sphinx_theme2_settings
from reprodocs.navigation import markdown_copies as markdown
from test_navigation_pydata import ROOT, assert_same, build
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
    process and in its worker processes: the article alone ("article"), or
    the menus the page held ("sidebar", "header", both, or "none"), the root
    page's empty sidebar counted as none."""
    record = tmp_path / "converted.txt"
    to_markdown = theme._html_to_markdown

    def spy(html):
        held = []
        if html.startswith("<article"):
            held.append("article")
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


def test_pages_are_converted_from_their_article(make_app, rootdir, tmp_path, theme, converted):
    """Alone, the theme parses every page's sidebar and header menu; with the
    extension each page's article alone, and the menus of the first page of
    each layout, by the check; the theme's functions are its own again after
    the build."""
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
    # Two layouts, each one's first page checked (converted whole and from
    # its article): the pages with the extension's sidebar, and those
    # without (first guide/advanced/a, whose sidebar is the theme's own;
    # then the two whose sidebar is empty).
    checks = ["sidebar and header", "article"] * 2
    assert sorted(served) == sorted(checks + ["article"] * documents)
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


def test_a_layout_whose_article_alone_differs_is_converted_without_menus(
    make_app, rootdir, tmp_path, theme, converted, monkeypatch
):
    """A conversion that reads the page beyond its article (here, whether it
    has a footer) but not its menus: the pages are converted without their
    menus, and the Markdown is the theme's."""
    spy = theme._html_to_markdown
    monkeypatch.setattr(theme, "_html_to_markdown", lambda html: f"{spy(html)} {'<footer' in html}")
    srcdir = rootdir / ROOT
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    documents = len(converted())
    app, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    served = converted()
    assert "article" in served  # tried on the first page of each layout
    assert served.count("none") >= documents - 2  # then the pages without their menus
    assert "converted whole" not in app.status.getvalue()
    assert_same(with_extension, without)


def test_a_page_of_two_articles_is_converted_whole(make_app, rootdir, tmp_path, theme, converted):
    """A page whose own HTML holds an article too (raw HTML) is converted
    whole, the other pages of its layout from their article."""
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / ROOT, srcdir)
    (srcdir / "zz_articles.rst").write_text(
        ":orphan:\n\nArticles\n========\n\n.. raw:: html\n\n   <article><p>Quoted</p></article>\n",
        encoding="utf-8",
    )
    _, without = build(make_app, srcdir, tmp_path / "without", "html", theme_settings())
    documents = len(converted())
    _, with_extension = build(
        make_app, srcdir, tmp_path / "with", "html", theme_settings("reprodocs.navigation")
    )
    checks = ["sidebar and header", "article"] * 2
    # (the page's sidebar is empty: it is in no toctree)
    whole = ["header"]
    assert sorted(converted()) == sorted(checks + ["article"] * (documents - 1) + whole)
    assert "Quoted" in without["zz_articles.md"].decode()
    assert_same(with_extension, without)


@pytest.mark.parametrize(
    ("page", "article"),
    [
        ('<main><article class="a">x</article></main>', '<article class="a">x</article>'),
        ("<ARTICLE\n>x</Article >", "<ARTICLE\n>x</Article >"),
        ("<p>no article</p>", None),
        ("<article>a</article><article>b</article>", None),
        ("</article><article>", None),
        ("<article>unclosed", None),
        ("<articles>x</article>", None),
    ],
)
def test_article_of(page, article):
    assert markdown.article_of(page) == article


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
