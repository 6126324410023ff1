"""pydata-sphinx-theme's sidebar with ``reprodocs.navigation``: every page
byte-identical to the theme's own, the sidebar written from sections resolved
once per build (for pydata-sphinx-theme and for pytorch_sphinx_theme2, which
builds on it).

The test extra installs the newest pydata-sphinx-theme a venv's Sphinx
allows (0.24.0 on Sphinx 9); on 7.2.6, .venv-sphinx72 holds
pytorch_sphinx_theme2, which pins 0.15.4 (``make test-sphinx72``). Where pydata-sphinx-theme is not installed
these tests fail; a version the extension does not know fails them too.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import os
import shutil

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import examples, pytorch_sphinx_theme2_settings, require_nvidia_sphinx_theme
from reprodocs.navigation import pydata, pydata_sidebar
from reprodocs.navigation.outcomes import Outcomes
from test_navigation_trees import sites


def test_the_installed_pydata_sphinx_theme_is_served() -> None:
    """The test extra's pydata-sphinx-theme is one whose sidebar the
    extension serves: otherwise every comparison below would compare the
    theme with itself."""
    import pydata_sphinx_theme

    assert pydata_sphinx_theme.__version__ in pydata.KNOWN_VERSIONS
    # `make test-pydata` puts the version it tests first on the path.
    wanted = os.environ.get("REPRODOCS_PYDATA_VERSION", pydata_sphinx_theme.__version__)
    assert pydata_sphinx_theme.__version__ == wanted
    assert importlib.metadata.version("pydata-sphinx-theme") == wanted


ROOT = "test-navigation-pydata"

#: html_theme_options of the sidebar: show_nav_level 0 (parts), 1 and 2,
#: collapse_navigation, navigation_depth, sidebar_includehidden.
SIDEBAR_OPTIONS = [
    {},
    {"show_nav_level": 0},
    {"show_nav_level": 2, "collapse_navigation": True},
    {"show_nav_level": 0, "collapse_navigation": True, "sidebar_includehidden": False},
    {"navigation_depth": 1},
    {"navigation_depth": 2, "show_nav_level": 2, "sidebar_includehidden": False},
    {"collapse_navigation": True, "navigation_depth": 0, "show_nav_level": 3},
]


@pytest.fixture
def served(monkeypatch) -> dict[str, int]:
    """Every page's sidebar from the extension alone (no page compared with
    the theme's own by the self-check, which would hide a difference); counts
    the sidebars it wrote and the sections the theme resolved itself."""
    import pydata_sphinx_theme.toctree as theme_toctree

    counts = {"linear": 0, "theme": 0}
    monkeypatch.setattr(Outcomes, "claim_check", lambda self, key: False)
    html = pydata_sidebar.SidebarPage.html

    def linear(self, maxdepth):
        counts["linear"] += 1
        return html(self, maxdepth)

    resolve = theme_toctree.get_nonroot_toctree

    def theme(*args, **kwargs):
        counts["theme"] += 1
        return resolve(*args, **kwargs)

    monkeypatch.setattr(pydata_sidebar.SidebarPage, "html", linear)
    monkeypatch.setattr(theme_toctree, "get_nonroot_toctree", theme)
    return counts


def written(outdir) -> dict[str, bytes]:
    """What a build wrote that a sidebar can be in: every page, and
    pytorch_sphinx_theme2's Markdown copies, llms.txt and llms-full.txt."""
    return {
        str(path.relative_to(outdir)): path.read_bytes()
        for path in sorted(outdir.rglob("*"))
        if path.suffix in {".html", ".md"} or path.name in {"llms.txt", "llms-full.txt"}
    }


def build(make_app, srcdir, outdir, builder, confoverrides):
    app = make_app(
        builder, srcdir=srcdir, builddir=outdir, freshenv=True, confoverrides=confoverrides
    )
    app.build()
    return app, written(app.outdir)


def assert_same(with_extension: dict[str, bytes], without: dict[str, bytes]) -> None:
    assert with_extension.keys() == without.keys()
    for page, content in with_extension.items():
        assert content == without[page], page


def pydata_settings(options: dict) -> dict:
    # A templates_path of the build's own: pydata-sphinx-theme's setup()
    # appends its components folder to the one it finds, which without this
    # is Sphinx's default list, shared by every later build in the process
    # (whose themes would then find pydata's breadcrumbs.html).
    return {
        "html_theme": "pydata_sphinx_theme",
        "html_theme_options": dict(options),
        "templates_path": [],
    }


def compare(make_app, rootdir, tmp_path, builder, settings, extensions=()):
    """The site built without and with the extension: (pages without, pages
    with, the application with)."""
    srcdir = rootdir / ROOT
    _, without = build(
        make_app,
        srcdir,
        tmp_path / "without",
        builder,
        {**settings, "extensions": list(extensions)},
    )
    app, with_extension = build(
        make_app,
        srcdir,
        tmp_path / "with",
        builder,
        {**settings, "extensions": [*extensions, "reprodocs.navigation"]},
    )
    return without, with_extension, app


def pages_with_sidebar(pages: dict[str, bytes]) -> int:
    return sum(b'class="bd-docs-nav' in html for html in pages.values())


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
@pytest.mark.parametrize("options", SIDEBAR_OPTIONS, ids=str)
def test_pydata_pages_are_byte_identical(make_app, rootdir, tmp_path, served, builder, options):
    without, with_extension, app = compare(
        make_app, rootdir, tmp_path, builder, pydata_settings(options)
    )
    assert len(without) >= 30
    assert "differs" not in app.status.getvalue()
    assert_same(with_extension, without)
    # Every sidebar but those below guide/advanced/a (an `only` in its table
    # of contents: the theme's own) came from the extension.
    assert served["linear"] >= pages_with_sidebar(without) - 1 >= 20


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
@pytest.mark.parametrize("options", [SIDEBAR_OPTIONS[0], SIDEBAR_OPTIONS[3]], ids=str)
def test_pydata_pages_with_other_calls_are_byte_identical(
    make_app, rootdir, tmp_path, served, builder, options
):
    """A template asking for more: titles_only=False (the links to sections,
    which the theme removes), startdepth=2, suppress_sidebar_toctree with
    startdepth=2, startdepth=0 (the page's toctree()), kind="raw" (the
    theme's own), positional arguments."""
    settings = {**pydata_settings(options), "templates_path": ["_variant"]}
    without, with_extension, app = compare(make_app, rootdir, tmp_path, builder, settings)
    linux = "guide/install/linux.html" if builder == "html" else "guide/install/linux/index.html"
    assert b'<div class="second">' in without[linux]
    assert_same(with_extension, without)
    log = app.status.getvalue()
    assert "differs" not in log
    assert "generate_toctree_html('raw')" in log
    assert "startdepth" not in log


@pytest.mark.parametrize("options", [SIDEBAR_OPTIONS[0], SIDEBAR_OPTIONS[3]], ids=str)
def test_pytorch_sphinx_theme2_pages_are_byte_identical(
    make_app, rootdir, tmp_path, served, options
):
    settings = pytorch_sphinx_theme2_settings()
    settings["html_theme_options"] = {**settings["html_theme_options"], **options}
    without, with_extension, app = compare(
        make_app, rootdir, tmp_path, "html", settings, extensions=["pytorch_sphinx_theme2"]
    )
    assert "guide/install/linux.md" in without
    assert "llms.txt" in without
    assert "llms-full.txt" in without
    assert b"toctree-l2" in without["guide/install/linux.html"]
    assert "differs" not in app.status.getvalue()
    assert_same(with_extension, without)
    assert served["linear"] >= pages_with_sidebar(without) - 1 >= 20


def nvidia_settings() -> dict:
    """nvidia-sphinx-theme set up as Megatron-LM's docs/conf.py sets it up
    (its version switcher and icon links; the public docs features, which
    load NVIDIA's scripts, left off). Made anew for each build: the theme
    writes its logo into the options it is given, and refuses a logo it
    did not write."""
    return {
        "html_theme": "nvidia_sphinx_theme",
        "html_theme_options": {
            "switcher": {"json_url": "../versions1.json", "version_match": "nightly"},
            "icon_links": [
                {"name": "GitHub", "url": "https://github.com/NVIDIA/Megatron-LM/",
                 "icon": "fa-brands fa-github"},
            ],
        },
        "templates_path": [],
    }  # fmt: skip


def test_nvidia_sphinx_theme_pages_are_byte_identical(make_app, rootdir, tmp_path, served):
    """nvidia-sphinx-theme (Megatron-LM's) inherits pydata-sphinx-theme and
    asks its whole-site sidebar (``startdepth=0``, the page's ``toctree()``),
    never suppressed: the extension serves it from its own ``toctree()``."""
    require_nvidia_sphinx_theme()
    import nvidia_sphinx_theme

    assert nvidia_sphinx_theme.__version__ == "0.0.9.post1"
    srcdir = rootdir / ROOT
    # As Megatron's conf.py: the theme found by its entry point, in no extensions.
    _, without = build(make_app, srcdir, tmp_path / "without", "html", nvidia_settings())
    settings = {**nvidia_settings(), "extensions": ["reprodocs.navigation"]}
    app, with_extension = build(make_app, srcdir, tmp_path / "with", "html", settings)
    assert b"version-switcher" in without["index.html"]
    assert b"toctree-l2" in without["guide/install/linux.html"]
    log = app.status.getvalue()
    assert "differs" not in log
    assert "startdepth" not in log
    assert_same(with_extension, without)
    assert served["linear"] >= pages_with_sidebar(without) - 1 >= 20


def test_sections_are_resolved_once_not_per_page(make_app, rootdir, tmp_path, served):
    """Collapsing, the theme resolves the section on every page (not
    collapsing, from 0.21.0, once per directory and section); with the
    extension it resolves nothing itself but the sidebars below
    guide/advanced/a (its own)."""
    srcdir = rootdir / ROOT
    collapsing = pydata_settings({"collapse_navigation": True})
    build(make_app, srcdir, tmp_path / "without", "html", collapsing)
    theme_alone = served["theme"]
    served.update(linear=0, theme=0)
    settings = {**collapsing, "extensions": ["reprodocs.navigation"]}
    build(make_app, srcdir, tmp_path / "with", "html", settings)
    assert theme_alone >= 25
    assert served["theme"] == 1  # guide/advanced/a
    assert served["linear"] == theme_alone - 1


def test_unknown_pydata_version_gets_the_theme_s_own(
    make_app, rootdir, tmp_path, served, monkeypatch
):
    monkeypatch.setattr(pydata, "KNOWN_VERSIONS", {"0.0.0": False})
    without, with_extension, app = compare(make_app, rootdir, tmp_path, "html", pydata_settings({}))
    log = app.status.getvalue()
    assert log.count("is not a version it knows") == 1
    assert served["linear"] == 0
    assert_same(with_extension, without)


@pytest.mark.parametrize("self_check", [False, True], ids=["served", "self-checked"])
def test_a_second_build_forgets_the_sections(make_app, rootdir, tmp_path, monkeypatch, self_check):
    """The same application building again after a title changed (its
    environment object kept), as sphinx-autobuild does: every sidebar shows
    the new title, served (no page compared) and self-checked (compared with
    the theme's, which must not be the first build's). (Only the sidebars
    are compared: pydata-sphinx-theme adds a script per page to the
    application, so the second build's pages hold the first one's too.)"""
    if not self_check:
        monkeypatch.setattr(Outcomes, "claim_check", lambda self, key: False)
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / ROOT, srcdir)
    settings = {**pydata_settings({}), "extensions": ["reprodocs.navigation"]}
    app = make_app("html", srcdir=srcdir, builddir=tmp_path / "with", freshenv=True,
                   confoverrides=settings)  # fmt: skip
    app.build()
    assert b"Advanced B</a>" in (app.outdir / "guide/index.html").read_bytes()
    (srcdir / "guide/advanced/b.rst").write_text("Retitled B\n==========\n", encoding="utf-8")
    # From 0.21.0 the theme keeps its own soups on the application, across
    # builds: the sidebars below guide/advanced/a (the theme's own) would show
    # the old title, were the extension not to forget them too.
    app.build()
    _, without = build(make_app, srcdir, tmp_path / "without", "html", pydata_settings({}))
    assert b"Retitled B</a>" in without["guide/index.html"]
    with_extension = written(app.outdir)
    assert with_extension.keys() == without.keys()
    for page, html in with_extension.items():
        assert sidebar(html) == sidebar(without[page]), page
    assert "differs" not in app.status.getvalue()


def sidebar(html: bytes) -> list[str]:
    return [str(nav) for nav in BeautifulSoup(html, "html.parser").select("nav.bd-docs-nav")]


# -- Generated trees, every option, page by page -----------------------------------------

#: Calls of generate_toctree_html: (args, kwargs).
SIDEBAR_CALLS = [
    (("sidebar",), {"startdepth": startdepth, "show_nav_level": index % 4, **options})
    for startdepth in (1, 2)
    for index, options in enumerate(
        dict(zip(("collapse", "maxdepth", "titles_only", "includehidden"), values, strict=True))
        for values in itertools.product((True, False), (0, 1, 2), (True, False), (True, False))
    )
] + [
    (("sidebar", 0, level), {"maxdepth": maxdepth, "collapse": collapse, "titles_only": True})
    for level, maxdepth, collapse in [(0, 2, False), (1, 0, True), (2, "", False)]
]
SUPPRESS_CALLS = [
    ((), {"startdepth": startdepth, "includehidden": includehidden, "collapse": collapse})
    for startdepth in (1, 2)
    for includehidden in (True, False)
    for collapse in (True, False)
]


def outcome(function, args, kwargs) -> str:
    try:
        return str(function(*args, **kwargs))
    except Exception as error:  # noqa: BLE001 (whatever the theme raises, ours must too)
        return f"raises {type(error).__name__}"


def capture_sidebars(app) -> list:
    """Have every page's sidebar functions called with every call above,
    the theme's own (before the extension serves the page) and the
    extension's: a list of (page, call, the theme's outcome, ours)."""
    pairs = []
    theirs = {}

    def before(app, pagename, templatename, context, doctree):
        theirs[pagename] = (context["generate_toctree_html"], context["suppress_sidebar_toctree"])

    def after(app, pagename, templatename, context, doctree):
        theme_sidebar, theme_suppress = theirs.pop(pagename)
        ours = (context["generate_toctree_html"], context["suppress_sidebar_toctree"])
        assert ours[0] is not theme_sidebar
        for (args, kwargs), (theme_function, our_function) in itertools.chain(
            zip(SIDEBAR_CALLS, itertools.repeat((theme_sidebar, ours[0]))),
            zip(SUPPRESS_CALLS, itertools.repeat((theme_suppress, ours[1]))),
        ):
            pairs.append(
                (
                    pagename,
                    (args, kwargs),
                    outcome(theme_function, args, kwargs),
                    outcome(our_function, args, kwargs),
                )
            )

    # Between pydata-sphinx-theme's handler (500) and the extension's (510).
    app.connect("html-page-context", before, priority=505)
    app.connect("html-page-context", after, priority=900)
    return pairs


@pytest.fixture
def uncached_theme(monkeypatch) -> None:
    """pydata-sphinx-theme without the sidebar cache of 0.21.0 and later,
    which writes a page of a directory from the first page's soup, moving
    only the current page's marks. That is not what the theme writes for the
    page where the first page's branch holds a document whose table of
    contents has ``only`` content (Sphinx copies it whole on the pages below
    it, see ``toctree.Menu.whole_copies_differ``): there the theme's cache
    shows the other page's sidebar, and the extension the page's own."""
    import pydata_sphinx_theme.toctree as theme_toctree

    if hasattr(theme_toctree, "_sidebar_cache_key"):
        monkeypatch.setattr(theme_toctree, "_sidebar_cache_key", lambda *args: None)


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    # No shrinking: an example is a whole site; it is printed as generated.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(files=sites(), builder=st.sampled_from(("html", "dirhtml")))
def test_sidebar_is_the_theme_s_on_generated_trees(
    make_app, tmp_path_factory, served, uncached_theme, files, builder
):
    srcdir = tmp_path_factory.mktemp("site")
    for name, text in files.items():
        (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
        (srcdir / name).write_text(text, encoding="utf-8")
    settings = pydata_settings({"navbar_center": []})  # its links need titled URLs
    settings["extensions"] = ["reprodocs.navigation"]
    app = make_app(builder, srcdir=srcdir, freshenv=True, confoverrides=settings)
    pairs = capture_sidebars(app)
    app.build()
    assert {page for page, *_ in pairs} >= {"index"}
    for pagename, call, theirs, ours in pairs:
        assert ours == theirs, (pagename, call)


@pytest.mark.slow
def test_pages_written_by_parallel_processes_are_the_theme_s(make_app, rootdir, tmp_path):
    """Written by two processes (``-j 2``), each with the sections it
    resolved itself, the pages are the theme's alone, also built with
    ``-j 2``. (Read in parallel, the environment lists a page's toctree
    parents in another order, and the theme marks the last one it finds:
    api/shared's header marks another section than in a serial build, with
    or without the extension.)"""
    settings = pydata_settings({"header_links_before_dropdown": 1})
    alone = make_app("html", srcdir=rootdir / ROOT, builddir=tmp_path / "without",
                     freshenv=True, parallel=2, confoverrides=settings)  # fmt: skip
    alone.build()
    app = make_app("html", srcdir=rootdir / ROOT, builddir=tmp_path / "with", freshenv=True,
                   parallel=2,
                   confoverrides={**settings, "extensions": ["reprodocs.navigation"]})  # fmt: skip
    assert app.is_parallel_allowed("write")
    app.build()
    assert_same(written(app.outdir), written(alone.outdir))
