"""The reprodocs HTML theme's markup, from html_theme_options (no browser)."""

from __future__ import annotations

import re
import runpy
import zipfile
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from sphinx.util.console import strip_colors

from conftest import DEMO, parse_html, text_of

#: The links every page has whatever the options: the credits line.
CREDITS = {
    "https://www.sphinx-doc.org/",
    "https://github.com/readthedocs/sphinx_rtd_theme",
    "https://readthedocs.org",
}

EVERY_OPTION = {
    "logo": "logo.svg",
    "header_links": [
        {"title": "Home page", "url": "https://example.org/"},
        {"title": "Section", "url": "https://example.org/docs", "current": True},
        {
            "title": "Group",
            "children": [
                {
                    "title": "Child one",
                    "url": "https://example.org/one",
                    "description": "The first child",
                },
                {"title": "Child two", "url": "https://example.org/two"},
            ],
        },
    ],
    "repository_url": "https://example.org/repo",
    "repository_label": "Code",
    "version_url": "https://example.org/versions",
    "resources": [{"title": "Card", "text": "Card text", "url": "https://example.org/card"}],
    "footer_columns": [
        {
            "title": "Column",
            "url": "https://example.org/column",
            "links": [{"title": "Column link", "url": "https://example.org/column/link"}],
        }
    ],
    "social_links": [
        {"name": "GitHub", "url": "https://example.org/gh", "icon": "github"},
        {"name": "Forum", "url": "https://example.org/forum"},
    ],
}


@pytest.fixture
def build_theme(make_app, rootdir, tmp_path):
    """Build tests/roots/test-theme with these theme options (and other
    configuration overrides); return the app."""

    def build(options: dict | None = None, buildername: str = "html", **overrides):
        if options is not None:
            overrides["html_theme_options"] = options
        app = make_app(
            buildername,
            srcdir=rootdir / "test-theme",
            builddir=tmp_path / "build",
            freshenv=True,
            confoverrides=overrides,
        )
        app.build()
        return app

    return build


def page(app, name: str = "index"):
    return parse_html(Path(app.outdir, f"{name}.html"))


def test_theme_is_registered_by_entry_point():
    (theme,) = entry_points(group="sphinx.html_themes", name="reprodocs")
    assert theme.value == "reprodocs.theme"


def test_nothing_project_specific_without_options(build_theme):
    app = build_theme()
    assert app.warning.getvalue() == ""
    soup = page(app)
    assert text_of(soup.select_one("header .reprodocs-logo")) == "Theme test"
    assert soup.select_one("#reprodocs-site-menu") is None
    assert soup.select_one(".reprodocs-site-footer") is None
    assert text_of(soup.select_one(".wy-side-nav-search .version")) == "Version 2.0"
    assert soup.select_one(".wy-side-nav-search .version a") is None
    external = {a["href"] for a in soup.select("a[href]") if "://" in a["href"]}
    assert external == CREDITS
    # The menu button controls what exists.
    assert soup.select_one(".reprodocs-menu-button")["aria-controls"] == "reprodocs-side-menu"
    assert soup.select_one("#reprodocs-side-menu") is not None


def test_each_option_renders(build_theme):
    app = build_theme(EVERY_OPTION)
    assert app.warning.getvalue() == ""
    soup = page(app)

    header = soup.select_one("header.reprodocs-header")
    assert header.select_one(".reprodocs-logo img")["src"] == "_static/logo.svg"
    assert header.select_one(".reprodocs-logo img")["alt"] == "Theme test"
    menu = header.select_one("nav#reprodocs-site-menu")
    assert menu["aria-label"]
    links = {text_of(a): a for a in menu.select(":scope > ul > li > a")}
    assert links["Home page"]["href"] == "https://example.org/"
    assert links["Section"]["aria-current"] == "true"
    assert "aria-current" not in links["Home page"].attrs
    assert links["Code"]["href"] == "https://example.org/repo"

    button = menu.select_one(".reprodocs-dropdown > button")
    assert text_of(button) == "Group"
    assert button["type"] == "button"
    assert button["aria-expanded"] == "false"
    group = soup.find(id=button["aria-controls"])
    children = group.select("a")
    assert [a["href"] for a in children] == ["https://example.org/one", "https://example.org/two"]
    assert text_of(children[0].select_one(".reprodocs-dropdown-title")) == "Child one"
    assert text_of(children[0].select_one(".reprodocs-dropdown-description")) == "The first child"
    assert children[1].select_one(".reprodocs-dropdown-description") is None

    version = soup.select_one(".wy-side-nav-search .version a")
    assert version["href"] == "https://example.org/versions"
    assert text_of(version) == "Version 2.0"

    footer = soup.select_one("footer.reprodocs-site-footer")
    (card,) = footer.select(".reprodocs-resources > li")
    assert card.select_one("h2 a")["href"] == "https://example.org/card"
    assert text_of(card) == "Card Card text"
    (column,) = footer.select(".reprodocs-footer-links > div:not(:has(.reprodocs-social-links))")
    assert column.select_one("h2 a")["href"] == "https://example.org/column"
    assert [a["href"] for a in column.select("ul a")] == ["https://example.org/column/link"]
    github, forum = footer.select(".reprodocs-social-links a")
    assert github.select_one("svg[aria-hidden=true]") is not None
    assert text_of(github.select_one(".reprodocs-visually-hidden")) == "GitHub"
    assert forum.select_one("svg") is None and text_of(forum) == "Forum"

    controlled = soup.select_one(".reprodocs-menu-button")["aria-controls"].split()
    assert controlled == ["reprodocs-site-menu", "reprodocs-side-menu"]


def test_option_text_is_escaped(build_theme):
    hostile = '<b>Bold</b> & "quoted"'
    url = 'https://example.org/?a=1&b="2"'
    app = build_theme(
        {
            "header_links": [{"title": hostile, "url": url}],
            "resources": [{"title": hostile, "text": "<script>alert(1)</script>", "url": url}],
            "social_links": [{"name": hostile, "url": url, "icon": "x"}],
        }
    )
    soup = page(app)
    link = soup.select_one("#reprodocs-site-menu a")
    assert link.get_text() == hostile and link.find("b") is None
    assert link["href"] == url
    card = soup.select_one(".reprodocs-resources li")
    assert text_of(card.select_one("p")) == "<script>alert(1)</script>"
    assert not [s for s in soup.find_all("script") if "alert" in s.get_text()]
    assert (
        soup.select_one(".reprodocs-social-links .reprodocs-visually-hidden").get_text() == hostile
    )


def test_mistaken_options_warn_and_are_left_out(build_theme):
    app = build_theme({"header_links": "Home", "resources": ["Docs", {"title": "Card"}]})
    warnings = app.warning.getvalue()
    assert "html_theme_options['header_links'] must be a list, not str" in warnings
    assert "html_theme_options['resources'][0] must be a dict, not str; it is left out" in warnings
    assert "html_theme_options['resources'][1] has no url" in warnings
    soup = page(app)
    assert soup.select_one("#reprodocs-site-menu a") is None
    assert [text_of(h) for h in soup.select(".reprodocs-resources h2")] == ["Card"]


def test_page_anatomy(build_theme):
    soup = page(build_theme(EVERY_OPTION))
    assert soup.select_one("body > header.reprodocs-header") is not None
    # One main landmark: a <main> element (its role for Sphinx's search).
    (main,) = soup.select('main, [role="main"]')
    assert main.name == "main" and main["id"] == "main-content"
    assert main.select_one("article h1").get_text().startswith("Welcome")
    assert soup.select_one(".reprodocs-skip-link")["href"] == "#main-content"
    # Every navigation landmark is named.
    for nav in soup.select('nav, [role="navigation"]'):
        assert nav.get("aria-label") or nav.get("aria-labelledby"), nav
    # Breadcrumbs: "Docs", the title; and the page's source.
    crumbs = soup.select(".wy-breadcrumbs > li.breadcrumb-item")
    assert [text_of(li) for li in crumbs] == ["Docs", "Welcome"]
    assert crumbs[-1]["aria-current"] == "page"
    assert soup.select_one(".wy-breadcrumbs-aside a")["href"] == "_sources/index.rst.txt"
    # The left menu keeps rtd's markup; its captions are headings with a level.
    menu = soup.select_one("nav.wy-nav-side .wy-menu.wy-menu-vertical#reprodocs-side-menu")
    assert text_of(menu.select_one("p.caption")) == "Guides"
    assert menu.select_one("li.toctree-l1 > a")["href"] == "plain.html"
    # In the menu and in the article alike.
    captions = soup.select('p.caption[role="heading"]')
    assert len(captions) == 2 and all(h.get("aria-level") == "2" for h in captions)
    assert soup.select_one("#rtd-search-form")["action"] == "search.html"
    # On this page: the sections.
    local = soup.select_one("nav.reprodocs-local-toc")
    assert soup.find(id=local["aria-labelledby"]).get_text() == "On this page"
    assert "First section" in text_of(local)
    # The footer under the article, inside the main landmark.
    footer = main.select_one("footer.reprodocs-page-footer")
    assert "© Copyright 2026, Nobody." in text_of(footer)
    assert "Built with Sphinx" in text_of(footer)
    assert footer.select_one('a[rel="next"]')["href"] == "plain.html"
    # One contentinfo landmark: the site footer.
    assert len(soup.select("body > footer")) == 1


def test_local_toc_only_where_there_are_sections(build_theme):
    assert page(build_theme(), "plain").select_one(".reprodocs-local-toc") is None


def test_private_and_light_by_construction(build_theme):
    app = build_theme(EVERY_OPTION)
    soup = page(app)
    # Nothing is loaded from elsewhere.
    for tag, attribute in (("script", "src"), ("link", "href"), ("img", "src")):
        for element in soup.find_all(tag, attrs={attribute: True}):
            if tag == "link" and element.get("rel") in (["next"], ["prev"], ["index"], ["search"]):
                continue
            assert "//" not in element[attribute], element
    sources = [s["src"] for s in soup.find_all("script", src=True)]
    assert any(src.startswith("_static/reprodocs.js") for src in sources)
    for script in ("jquery.js", "_sphinx_javascript_frameworks_compat.js", "js/theme.js"):
        assert not [src for src in sources if src.startswith(f"_static/{script}")]
    # Sphinx's search-term highlighter: on the search page only (reprodocs.js
    # loads it on a page opened from the results).
    assert not [src for src in sources if "sphinx_highlight" in src]
    search_sources = [s["src"] for s in page(app, "search").find_all("script", src=True)]
    assert [src for src in search_sources if src.startswith("_static/sphinx_highlight.js")]
    # No FontAwesome glyph as the permalink sign.
    assert {a.get_text() for a in soup.select("a.headerlink")} == {"¶"}


def inline_code(soup) -> list:
    """What a Content-Security-Policy without 'unsafe-inline' refuses."""
    return [
        *(f"<script>{s.get_text()[:40]}" for s in soup.find_all("script") if not s.get("src")),
        *(f"<style>{s.get_text()[:40]}" for s in soup.find_all("style")),
        *(
            f"<{element.name} {name}>"
            for element in soup.find_all(True)
            for name in element.attrs
            if name.startswith("on") or name == "style"
        ),
    ]


@pytest.mark.parametrize(
    ("builder", "overrides"),
    [("html", {}), ("html", {"html_split_index": True}), ("dirhtml", {}), ("singlehtml", {})],
)
def test_no_page_has_inline_code_and_each_one_main(build_theme, builder, overrides):
    app = build_theme(buildername=builder, **overrides)
    pages = sorted(Path(app.outdir).rglob("*.html"))
    names = {path.relative_to(app.outdir).as_posix() for path in pages}
    if builder == "html":
        assert {"genindex.html", "py-modindex.html", "search.html"} <= names
        if overrides:
            assert {"genindex-all.html", "genindex-E.html"} <= names
    for path in pages:
        soup = parse_html(path)
        assert inline_code(soup) == [], path
        assert [main.name for main in soup.select('main, [role="main"]')] == ["main"], path


def test_sizes_a_document_asks_for_are_rules_of_the_pages_stylesheet(build_theme):
    # tests/roots/test-theme/plain.rst: a table's :widths: and :width:, an
    # image's :width:, a figure's :figwidth: (docutils writes style="...").
    app = build_theme()
    soup = page(app, "plain")
    (stylesheet,) = [
        link["href"]
        for link in soup.select('link[rel="stylesheet"]')
        if link["href"].startswith("_static/reprodocs-styles-")
    ]
    rules = {}
    for line in Path(app.outdir, stylesheet).read_text().splitlines():
        selector, _, declarations = line.partition(" { ")
        rules[selector.removeprefix(".")] = declarations.removesuffix(" }")

    def sizes(element) -> list[str]:
        return [rules[name] for name in element["class"] if name.startswith("reprodocs-style-")]

    table = soup.find("span", class_="caption-text", string="A table with column widths")
    table = table.find_parent("table")
    assert sizes(table) == ["width: 80% !important;"]
    assert [sizes(col) for col in table.select("col")] == [
        ["width: 30.0% !important;"],
        ["width: 70.0% !important;"],
    ]
    assert sizes(soup.find("img", alt="A pixel, 40 % wide")) == ["width: 40% !important;"]
    assert sizes(soup.select_one("main figure")) == ["width: 50% !important;"]
    assert sizes(soup.select_one("main figure img")) == ["width: 3em !important;"]
    # A page that asks for no size links no such stylesheet.
    assert not page(app).select('link[href^="_static/reprodocs-styles-"]')


def test_an_extensions_inline_script_is_loaded_from_a_file(make_app, rootdir, tmp_path):
    app = make_app("html", srcdir=rootdir / "test-theme", builddir=tmp_path / "build")
    body = "window.fromAnExtension = 1;"
    app.add_js_file(None, body=body, id="from-an-extension")
    app.add_js_file(None, body='{"data": 1}', type="application/json", id="data")
    app.build()
    soup = page(app)
    # Sphinx 7.2 lists a script added after the builder started twice (its
    # registry's and its builder's copy); later lines list it once.
    (src,) = {script["src"] for script in soup.select("script#from-an-extension")}
    assert Path(app.outdir, src.split("?")[0]).read_text() == body
    # A data block is no script: it stays.
    assert soup.select_one("script#data").get_text() == '{"data": 1}'


def test_a_child_theme_that_adds_nothing_writes_the_theme_s_pages(make_app, rootdir, tmp_path):
    # It inherits from reprodocs: the options checked, the words, the
    # translator and the strict-CSP files are the theme's alike.
    child = tmp_path / "themes" / "child"
    child.mkdir(parents=True)
    (child / "theme.conf").write_text("[theme]\ninherit = reprodocs\n")
    options = {"header_links": 5}  # a wrong value: warned and left out in both
    pages = {}
    for theme in ("reprodocs", "child"):
        app = make_app(
            "html",
            srcdir=rootdir / "test-theme",
            builddir=tmp_path / theme,
            freshenv=True,
            confoverrides={
                "html_theme": theme,
                "html_theme_path": [str(tmp_path / "themes")],
                "html_theme_options": options,
            },
        )
        app.build()
        assert "header_links" in strip_colors(app.warning.getvalue())
        out = Path(app.outdir)
        pages[theme] = {
            str(path.relative_to(out)): path.read_bytes()
            for path in sorted(out.rglob("*"))
            if path.is_file() and path.suffix in (".html", ".css", ".js")
        }
    assert pages["child"].keys() == pages["reprodocs"].keys()
    different = [
        name for name in pages["child"] if pages["child"][name] != pages["reprodocs"][name]
    ]
    assert different == []


def test_a_collapsed_module_index_is_marked_for_the_script(build_theme):
    app = build_theme()
    assert page(app, "py-modindex").html.has_attr("data-collapse-index")
    assert not page(app, "genindex").html.has_attr("data-collapse-index")


#: The theme's parts in which every word is the theme's, or the project's.
THEME_PARTS = (
    ".reprodocs-skip-link",
    "header.reprodocs-header",
    ".wy-side-nav-search",
    "#reprodocs-side-menu",
    "nav:has(> ul.wy-breadcrumbs)",
    "footer.reprodocs-page-footer",
    "footer.reprodocs-site-footer",
)
LABELS = ("aria-label", "title", "placeholder", "alt", "data-expand-label")


def strings_of(value) -> set[str]:
    """Every string in a configuration value, however nested."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = value.values()
    if isinstance(value, (list, tuple, type({}.values()))):
        return set().union(*map(strings_of, value))
    return set()


def test_the_theme_speaks_the_projects_language(build_demo):
    site = build_demo("language=zh_CN")
    conf = runpy.run_path(str(DEMO / "conf.py"))
    pages = {path: parse_html(path) for path in sorted(site.rglob("*.html"))}
    # The project's words: its options and name, its documents' titles and
    # toctree captions, the credits' names.
    project_words = strings_of([conf["html_theme_options"], conf["project"], conf["copyright"]])
    for soup in pages.values():
        project_words |= {text_of(h1).rstrip("¶ ") for h1 in soup.select("main h1")}
        project_words |= {text_of(caption) for caption in soup.select("p.caption")}
    project_words |= {"Sphinx", "Read the Docs"}
    project_words = {word for word in project_words if len(word) > 1}
    english = set()
    for path, soup in pages.items():
        assert soup.html["lang"] == "zh-CN"
        for part in (element for selector in THEME_PARTS for element in soup.select(selector)):
            strings = {text for text in part.find_all(string=True)} | {
                element[label]
                for element in [part, *part.find_all(True)]
                for label in LABELS
                if element.has_attr(label)
            }
            for string in strings:
                for word in sorted(project_words, key=len, reverse=True):
                    string = string.replace(word, "")
                if re.search("[A-Za-z]{2,}", string):
                    english.add((path.name, string.strip()))
    assert english == set()
    index = pages[site / "index.html"]
    assert text_of(index.select_one(".reprodocs-skip-link")) == "跳到正文"
    assert index.select_one(".reprodocs-color-scheme-button")["title"] == "深色模式"


@pytest.mark.slow
def test_wheel_carries_the_theme(wheel):
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    for name in (
        "theme.toml",
        "theme.conf",
        "layout.html",
        "static/reprodocs.css",
        "static/reprodocs.js",
    ):
        assert f"reprodocs/templates/theme/{name}" in names
    (entry_points_txt,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = archive.read(entry_points_txt).decode()
    assert "[sphinx.html_themes]" in text and "reprodocs = reprodocs.theme" in text
