"""html_theme_options of the wrong type or shape: one located warning each,
the build goes on with the option's default (or without the bad entry; a
boolean as sphinx_rtd_theme reads it), the configuration is left as it is,
and -W fails the build."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import sphinx
from bs4 import BeautifulSoup
from sphinx.cmd.build import build_main
from sphinx.util.console import strip_colors

from conftest import parse_html, text_of
from reprodocs.theme import options

#: Lines added to the theme root's conf.py (its line 6 assigns the options):
#: "Edit on GitHub" links, so that vcs_pageview_mode shows.
GITHUB_CONTEXT = (
    'html_context = {"display_github": True, "github_user": "user", "github_repo": "repo",'
    ' "github_version": "main", "conf_py_path": "/docs/"}\n'
)
OPTIONS_LINE = 6

#: Sphinx's own warning about html_theme_options that is not a dict (7.2: "has
#: type `set', defaults to `dict'"; 7.3 on: "has type `set'; expected `dict'").
SPHINX_TYPE_WARNING = "The config value `html_theme_options' has type"


@pytest.fixture
def theme_project(rootdir, tmp_path) -> Callable[[str | None], Path]:
    """A copy of tests/roots/test-theme whose conf.py assigns
    ``html_theme_options = <source>`` at line 6 (not at all for None), and
    whose nested page has a section (for titles_only) and a hidden toctree
    (for includehidden)."""

    projects = iter(range(100))

    def write(source: str | None) -> Path:
        srcdir = tmp_path / f"src{next(projects)}"
        shutil.copytree(rootdir / "test-theme", srcdir)
        conf = srcdir / "conf.py"
        lines = conf.read_text(encoding="utf-8").splitlines(keepends=True)
        assert len(lines) == OPTIONS_LINE - 1
        options = "" if source is None else f"html_theme_options = {source}\n"
        conf.write_text("".join(lines) + options + GITHUB_CONTEXT, encoding="utf-8")
        nested = srcdir / "nested.rst"
        hidden_toctree = "\n.. toctree::\n   :hidden:\n\n   hidden\n"
        nested.write_text(nested.read_text() + hidden_toctree + "\nA section\n---------\n\nText.\n")
        (srcdir / "hidden.rst").write_text("Hidden page\n===========\n", encoding="utf-8")
        return srcdir

    return write


@pytest.fixture
def build_options(make_app, theme_project, tmp_path):
    """Build the project with html_theme_options assigned in conf.py (or
    given as a configuration override); return the app."""

    def build(source: str | None, **overrides):
        srcdir = theme_project(source)
        app = make_app(
            "html",
            srcdir=srcdir,
            builddir=srcdir.with_name(srcdir.name.replace("src", "build")),
            freshenv=True,
            confoverrides=overrides,
        )
        app.build()
        return app

    return build


def theme_warnings(app) -> list[str]:
    """The build's warnings, one a line, without Sphinx's own about the
    setting's type and without the type suffix (Sphinx 7.2 prints none)."""
    warnings = strip_colors(app.warning.getvalue())
    for failure in ("Traceback", "Theme error", "Extension error", "Exception occurred"):
        assert failure not in warnings
    return [
        line.removesuffix(" [reprodocs.theme]")
        for line in warnings.splitlines()
        if line and SPHINX_TYPE_WARNING not in line
    ]


def page(app, name: str = "index") -> BeautifulSoup:
    return parse_html(Path(app.outdir, f"{name}.html"))


def menu_titles(soup: BeautifulSoup) -> list[str]:
    return [text_of(a) for a in soup.select("#reprodocs-side-menu a")]


# -- What the page shows for each option at its default ------------------------------------


def no_site_menu(soup: BeautifulSoup) -> bool:
    return soup.select_one("#reprodocs-site-menu") is None


def no_site_footer(soup: BeautifulSoup) -> bool:
    return soup.select_one(".reprodocs-site-footer") is None


def project_name_as_logo(soup: BeautifulSoup) -> bool:
    logo = soup.select_one("header .reprodocs-logo")
    return logo.select_one("img") is None and text_of(logo) == "Theme test"


def plain_version(soup: BeautifulSoup) -> bool:
    version = soup.select_one(".wy-side-nav-search .version")
    return version.select_one("a") is None and text_of(version) == "Version 2.0"


def documents_only_in_menu(soup: BeautifulSoup) -> bool:
    # titles_only: on the nested page, its section is not in the menu.
    return "A section" not in menu_titles(soup) and "Nested page" in menu_titles(soup)


def menu_collapsed(soup: BeautifulSoup) -> bool:
    # collapse_navigation: from the index, the plain page's entries are not shown.
    return menu_titles(soup) == ["Plain page"]


def buttons_at_the_bottom(soup: BeautifulSoup) -> bool:
    (buttons,) = soup.select(".reprodocs-prev-next")
    return buttons.parent.name == "footer" and buttons.select_one('a[rel="next"]') is not None


def no_external_link_style(soup: BeautifulSoup) -> bool:
    return soup.select_one(".rst-content.style-external-links") is None


def blob_edit_link(soup: BeautifulSoup) -> bool:
    edit = soup.select_one(".wy-breadcrumbs-aside a")
    return edit["href"] == "https://github.com/user/repo/blob/main/docs/index.rst"


def no_repository_link(soup: BeautifulSoup) -> bool:
    return soup.select_one(".reprodocs-repository") is None


def column_without_links(soup: BeautifulSoup) -> bool:
    titles = [text_of(h) for h in soup.select(".reprodocs-footer-links h2")]
    return titles == ["Column"] and not soup.select(".reprodocs-footer-links li")


#: The end of each kind of warning, and the booleans' expectation.
DEFAULT = "; the default is used"
LEFT_OUT = "; it is left out"
ENTRY_LEFT_OUT = "; the entry is left out"
READ_AS_FALSE = "; False is used, as sphinx_rtd_theme reads it"
READ_AS_TRUE = "; True is used, as sphinx_rtd_theme reads it"
BOOLEAN = 'True or False (or "true"/"false", "yes"/"no", "on"/"off", 1/0)'
BUTTONS = '"bottom", "top", "both" or None'
OPTIONS = "html_theme_options"

#: Each wrong value: conf.py's source for html_theme_options, the warnings it
#: gives, the page it is checked on and what that page shows.
WRONG = {
    # html_theme_options itself: a set (braces around a bare name) and a list.
    "a set": (
        '{"logo"}',
        [f"{OPTIONS} must be a dict, not set{DEFAULT}"],
        "index",
        project_name_as_logo,
    ),
    "a list": (
        '[("logo", "logo.svg")]',
        [f"{OPTIONS} must be a dict, not list{DEFAULT}"],
        "index",
        project_name_as_logo,
    ),
    # No container at all: replaced by the default in the configuration too,
    # where alabaster, always loaded, looks a key up in it on every page.
    "None": (
        "None",
        [f"{OPTIONS} must be a dict, not None{DEFAULT}"],
        "index",
        project_name_as_logo,
    ),
    "a number": (
        "5",
        [f"{OPTIONS} must be a dict, not int{DEFAULT}"],
        "index",
        project_name_as_logo,
    ),
    # Options of the wrong type.
    "header_links a number": (
        '{"header_links": 5}',
        [f"{OPTIONS}['header_links'] must be a list, not int{DEFAULT}"],
        "index",
        no_site_menu,
    ),
    "resources a dict": (
        '{"resources": {"title": "Card", "url": "https://example.org/"}}',
        [f"{OPTIONS}['resources'] must be a list, not dict{DEFAULT}"],
        "index",
        no_site_footer,
    ),
    "footer_columns a list of lists": (
        '{"footer_columns": [[1, 2, 3]]}',
        [f"{OPTIONS}['footer_columns'][0] must be a dict, not list{LEFT_OUT}"],
        "index",
        no_site_footer,
    ),
    "logo a number": (
        '{"logo": 7}',
        [f"{OPTIONS}['logo'] must be a string, not int{DEFAULT}"],
        "index",
        project_name_as_logo,
    ),
    "social_links a string": (
        '{"social_links": "github"}',
        [f"{OPTIONS}['social_links'] must be a list, not str{DEFAULT}"],
        "index",
        no_site_footer,
    ),
    "version_url a list": (
        '{"version_url": ["a"]}',
        [f"{OPTIONS}['version_url'] must be a string, not list{DEFAULT}"],
        "index",
        plain_version,
    ),
    "repository_url a number": (
        '{"repository_url": 5}',
        [f"{OPTIONS}['repository_url'] must be a string, not int{DEFAULT}"],
        "index",
        no_repository_link,
    ),
    "navigation_depth a word": (
        '{"navigation_depth": "deep"}',
        [f"{OPTIONS}['navigation_depth'] must be an integer, not 'deep'{DEFAULT}"],
        "plain",
        lambda soup: "Nested page" in menu_titles(soup),
    ),
    "prev_next_buttons_location elsewhere": (
        '{"prev_next_buttons_location": "left"}',
        [f"{OPTIONS}['prev_next_buttons_location'] must be {BUTTONS}, not 'left'{DEFAULT}"],
        "index",
        buttons_at_the_bottom,
    ),
    "vcs_pageview_mode a number": (
        '{"vcs_pageview_mode": 5}',
        [f"{OPTIONS}['vcs_pageview_mode'] must be a string, not int{DEFAULT}"],
        "index",
        blob_edit_link,
    ),
    # Malformed entries.
    "a link without its keys": (
        '{"social_links": [{"icon": "github"}]}',
        [f"{OPTIONS}['social_links'][0] has no name, url{LEFT_OUT}"],
        "index",
        no_site_footer,
    ),
    "an empty header link": (
        '{"header_links": [{}]}',
        [f"{OPTIONS}['header_links'][0] has no title, url (or children){LEFT_OUT}"],
        "index",
        no_site_menu,
    ),
    "a header link without a url": (
        '{"header_links": [{"title": "Home"}]}',
        [f"{OPTIONS}['header_links'][0] has no url (or children){LEFT_OUT}"],
        "index",
        no_site_menu,
    ),
    "a link as a tuple": (
        '{"social_links": [("GitHub", "https://github.com/")]}',
        [f"{OPTIONS}['social_links'][0] must be a dict, not tuple{LEFT_OUT}"],
        "index",
        no_site_footer,
    ),
    "a link None": (
        '{"resources": [None]}',
        [f"{OPTIONS}['resources'][0] must be a dict, not None{LEFT_OUT}"],
        "index",
        no_site_footer,
    ),
    "a url not a string": (
        '{"social_links": [{"name": "GitHub", "url": 5}]}',
        [f"{OPTIONS}['social_links'][0]['url'] must be a string, not int{ENTRY_LEFT_OUT}"],
        "index",
        no_site_footer,
    ),
    "a title not a string": (
        '{"header_links": [{"title": {"en": "Home"}, "url": "https://example.org/"}]}',
        [f"{OPTIONS}['header_links'][0]['title'] must be a string, not dict{ENTRY_LEFT_OUT}"],
        "index",
        no_site_menu,
    ),
    "children not a list": (
        '{"header_links": [{"title": "Group", "children": 5}]}',
        [f"{OPTIONS}['header_links'][0]['children'] must be a list, not int{ENTRY_LEFT_OUT}"],
        "index",
        no_site_menu,
    ),
    "children all wrong": (
        '{"header_links": [{"title": "Group", "children": [None, {"url": 5}]}]}',
        [
            f"{OPTIONS}['header_links'][0]['children'][0] must be a dict, not None{LEFT_OUT}",
            f"{OPTIONS}['header_links'][0]['children'][1]['url'] must be a string, not int"
            + ENTRY_LEFT_OUT,
        ],
        "index",
        no_site_menu,
    ),
    "links of a column not a list": (
        '{"footer_columns": [{"title": "Column", "links": "https://example.org/"}]}',
        [f"{OPTIONS}['footer_columns'][0]['links'] must be a list, not str{LEFT_OUT}"],
        "index",
        column_without_links,
    ),
}


#: Sphinx 7.2 copies html_theme_options before it loads the theme: a value
#: without copy() stops it there, before reprodocs can do anything.
COPIED_BEFORE_THE_THEME_LOADS = pytest.mark.skipif(
    sphinx.version_info < (7, 3),
    reason="Sphinx 7.2 calls html_theme_options.copy() before it loads the theme "
    "(after warning about its type); a set and a list have one",
)

#: The WRONG cases Sphinx 7.2 stops on itself.
WITHOUT_COPY = {"None", "a number"}


@pytest.mark.parametrize(
    ("source", "expected", "name", "shows_default"),
    [
        pytest.param(
            *case,
            id=case_id,
            marks=COPIED_BEFORE_THE_THEME_LOADS if case_id in WITHOUT_COPY else (),
        )
        for case_id, case in WRONG.items()
    ],
)
def test_a_wrong_option_is_one_located_warning(
    build_options, source, expected, name, shows_default
):
    app = build_options(source)
    conf = Path(app.confdir, "conf.py")
    assert theme_warnings(app) == [f"{conf}:{OPTIONS_LINE}: WARNING: {m}" for m in expected]
    assert shows_default(page(app, name))


@COPIED_BEFORE_THE_THEME_LOADS
@pytest.mark.parametrize(("source", "kind"), [('"logo"', "str"), ('("logo",)', "tuple")])
def test_options_neither_dict_nor_set_nor_list(build_options, source, kind):
    app = build_options(source)
    conf = Path(app.confdir, "conf.py")
    expected = f"{OPTIONS} must be a dict, not {kind}{DEFAULT}"
    assert theme_warnings(app) == [f"{conf}:{OPTIONS_LINE}: WARNING: {expected}"]
    assert project_name_as_logo(page(app))


@pytest.mark.parametrize("source", ["{}", None])
def test_the_defaults_shown_are_those_without_options(build_options, source):
    """The pages the checks above compare with: no options at all."""
    app = build_options(source)
    assert theme_warnings(app) == []
    for _, _, name, shows_default in WRONG.values():
        if shows_default is not column_without_links:  # the column is an option's
            assert shows_default(page(app, name)), shows_default


def test_without_conf_py_line_the_warning_has_no_location(build_options):
    app = build_options(None, html_theme_options={"logo": 7})
    assert theme_warnings(app) == [f"WARNING: {OPTIONS}['logo'] must be a string, not int{DEFAULT}"]
    assert project_name_as_logo(page(app))


def test_good_entries_stay_beside_bad_ones(build_options):
    app = build_options(
        """{
    "header_links": [
        "Home",
        {"title": "Docs", "url": "https://example.org/docs", "current": "maybe"},
        {"title": "Group", "children": [
            {"title": "Child"},
            {"title": "Good", "url": "https://example.org/good", "description": 3},
        ]},
    ],
    "resources": [{"title": "Card", "text": "Text"}],
    "footer_columns": [{"title": "Column", "url": 5, "links": [
        {"title": "Link", "url": ["https://example.org/"]},
        {"title": "Kept", "url": "https://example.org/kept"},
    ]}],
}"""
    )
    conf = Path(app.confdir, "conf.py")
    assert theme_warnings(app) == [
        f"{conf}:{OPTIONS_LINE}: WARNING: {OPTIONS}{message}"
        for message in [
            f"['header_links'][0] must be a dict, not str{LEFT_OUT}",
            f"['header_links'][1]['current'] must be {BOOLEAN}, not 'maybe'{READ_AS_FALSE}",
            f"['header_links'][2]['children'][0] has no url{LEFT_OUT}",
            "['header_links'][2]['children'][1]['description'] must be a string, not int"
            + LEFT_OUT,
            "['resources'][0] has no url; its title is not a link",
            f"['footer_columns'][0]['url'] must be a string, not int{LEFT_OUT}",
            "['footer_columns'][0]['links'][0]['url'] must be a string, not list" + ENTRY_LEFT_OUT,
        ]
    ]
    soup = page(app)
    menu = soup.select_one("#reprodocs-site-menu")
    docs = menu.select_one(":scope > ul > li > a")
    assert text_of(docs) == "Docs" and "aria-current" not in docs.attrs
    children = menu.select(".reprodocs-dropdown li a")
    assert [(text_of(a), a["href"]) for a in children] == [("Good", "https://example.org/good")]
    assert menu.select_one(".reprodocs-dropdown-description") is None
    card = soup.select_one(".reprodocs-resources h2")
    assert text_of(card) == "Card" and card.select_one("a") is None
    column = soup.select_one(".reprodocs-footer-links > div")
    assert text_of(column.select_one("h2")) == "Column" and column.select_one("h2 a") is None
    assert [text_of(a) for a in column.select("li a")] == ["Kept"]


def test_theme_conf_booleans_and_numbers_as_strings(build_options):
    """What theme.conf and ``-D html_theme_options.name=value`` give: strings."""
    app = build_options(
        '{"titles_only": "False", "collapse_navigation": "false", "navigation_depth": "1",'
        ' "style_external_links": "TRUE", "prev_next_buttons_location": None}'
    )
    assert theme_warnings(app) == []
    soup = page(app)
    assert soup.select_one(".rst-content.style-external-links") is not None
    assert soup.select_one('a[rel="next"]') is None
    assert menu_titles(soup) == ["Plain page"]  # depth 1, not collapsed
    assert "A section" in menu_titles(page(build_options('{"titles_only": "false"}'), "nested"))


#: Every spelling of a boolean option's words, in several cases, and others.
WORDS = [
    *(case(word) for word in ("true", "1", "yes", "on", "false", "0", "no", "off")
      for case in (str.lower, str.upper, str.title)),
    "maybe", "", " true", "y", "2",
]  # fmt: skip


BOOLEANS = [name for name, check in options.OPTIONS.items() if check is options.boolean]


@pytest.mark.parametrize("name", BOOLEANS)
@pytest.mark.parametrize("word", WORDS, ids=repr)
def test_a_boolean_word_means_what_sphinx_rtd_theme_reads(name, word):
    """sphinx_rtd_theme's templates read a boolean option with Sphinx's
    ``tobool`` filter (a private function, the filter's only definition)."""
    from sphinx.jinja2glue import _tobool

    used = options.checked_options({name: word}, None)[name]
    assert used is _tobool(word)


@pytest.mark.parametrize(
    ("value", "used"), [(5, True), (0.0, False), ([], False), ({"a": 1}, True)], ids=repr
)
def test_a_boolean_of_another_type_means_what_sphinx_rtd_theme_reads(value, used):
    assert options.checked_options({"titles_only": value}, None)["titles_only"] is used


#: Each boolean and numeric option with words as ``-D`` gives them, and the
#: value sphinx_rtd_theme reads each as (``tobool``, ``int``): every
#: spelling of true and false, in some case, at least once.
COMMAND_LINE_WORDS = [
    ("titles_only", "0", False),
    ("titles_only", "Yes", True),
    ("collapse_navigation", "off", False),
    ("collapse_navigation", "ON", True),
    ("includehidden", "no", False),
    ("includehidden", "True", True),
    ("style_external_links", "1", True),
    ("style_external_links", "FALSE", False),
    ("navigation_depth", "1", 1),
    ("navigation_depth", " 3 ", 3),
]


def test_the_command_line_words_cover_every_boolean_and_number():
    assert {name for name, _, _ in COMMAND_LINE_WORDS} == {
        name
        for name, check in options.OPTIONS.items()
        if check in (options.boolean, options.integer)
    }
    spellings = {word.strip().lower() for _, word, value in COMMAND_LINE_WORDS if value in (0, 1)}
    assert spellings == options.TRUE_WORDS | options.FALSE_WORDS


@pytest.mark.parametrize(("name", "word", "value"), COMMAND_LINE_WORDS, ids=repr)
def test_command_line_words_give_the_page_of_the_value_rtd_reads(build_options, name, word, value):
    """``-D html_theme_options.NAME=WORD`` gives the string WORD: the pages
    are those of the value sphinx_rtd_theme reads it as."""
    given = build_options(None, **{f"html_theme_options.{name}": word})
    assert theme_warnings(given) == []
    meant = build_options(f"{{{name!r}: {value!r}}}")
    for page_name in ("index", "nested"):
        assert Path(given.outdir, f"{page_name}.html").read_bytes() == (
            Path(meant.outdir, f"{page_name}.html").read_bytes()
        ), page_name


def test_the_command_line_words_change_the_pages(build_options):
    """The page comparison above can fail: each of those options, true and
    false, gives another page."""
    for name, _, value in COMMAND_LINE_WORDS[::2]:
        other = not value if isinstance(value, bool) else value + 2
        first, second = (build_options(f"{{{name!r}: {v!r}}}") for v in (value, other))
        assert any(
            Path(first.outdir, f"{p}.html").read_bytes()
            != Path(second.outdir, f"{p}.html").read_bytes()
            for p in ("index", "nested")
        ), name


@pytest.mark.parametrize(
    ("source", "warning", "page_name", "shows"),
    [
        (
            '{"titles_only": "maybe"}',
            f"['titles_only'] must be {BOOLEAN}, not 'maybe'{READ_AS_FALSE}",
            "nested",
            lambda soup: not documents_only_in_menu(soup),
        ),
        (
            '{"collapse_navigation": "sometimes"}',
            f"['collapse_navigation'] must be {BOOLEAN}, not 'sometimes'{READ_AS_FALSE}",
            "index",
            lambda soup: not menu_collapsed(soup),
        ),
        (
            '{"style_external_links": 5}',
            f"['style_external_links'] must be {BOOLEAN}, not int{READ_AS_TRUE}",
            "index",
            lambda soup: not no_external_link_style(soup),
        ),
    ],
)
def test_another_boolean_is_one_located_warning_saying_what_is_used(
    build_options, source, warning, page_name, shows
):
    app = build_options(source)
    conf = Path(app.confdir, "conf.py")
    assert theme_warnings(app) == [f"{conf}:{OPTIONS_LINE}: WARNING: {OPTIONS}{warning}"]
    assert shows(page(app, page_name))


def test_the_configuration_is_left_as_it_is(build_options):
    app = build_options('{"logo": 7, "header_links": [None], "navigation_depth": "2"}')
    assert app.config.html_theme_options == {
        "logo": 7,
        "header_links": [None],
        "navigation_depth": "2",
    }
    # The builder's own copy is what the templates get.
    assert app.builder.theme_options == {"header_links": [], "navigation_depth": 2}
    assert app.builder.globalcontext["theme_navigation_depth"] == 2
    assert not app.builder.globalcontext["theme_logo"]

    app = build_options('{"logo"}')
    assert app.config.html_theme_options == {"logo"}
    assert app.builder.theme_options == {}


def test_other_themes_are_not_checked(build_options):
    app = build_options('{"logo": 7}', html_theme="sphinx_rtd_theme")
    assert "html_theme_options['logo']" not in app.warning.getvalue()


def test_a_wrong_option_fails_a_build_with_W(theme_project, tmp_path, capsys):
    srcdir = theme_project('{"logo": 7}')
    assert build_main(["-q", "-b", "html", str(srcdir), str(tmp_path / "ok")]) == 0
    capsys.readouterr()
    assert build_main(["-q", "-W", "-b", "html", str(srcdir), str(tmp_path / "w")]) != 0
    errors = strip_colors(capsys.readouterr().err)
    assert "html_theme_options['logo'] must be a string, not int" in errors
    assert "Traceback" not in errors
