"""furo's navigation tree with ``reprodocs.navigation``: the same pages, byte
for byte, without furo parsing the menu on every page."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import examples

pytest.importorskip("furo")

import furo
import furo.navigation

from reprodocs.base.state import build_state
from reprodocs.navigation import furo as navigation_furo
from reprodocs.navigation.furo import FURO_TOCTREE
from reprodocs.navigation.outcomes import SERVED, Outcomes
from test_navigation_trees import sites

pytestmark = pytest.mark.skipif(
    furo.__version__ not in navigation_furo.KNOWN_FURO,
    reason=f"furo {furo.__version__} is not a version reprodocs.navigation serves "
    "(its pages are furo's own; test_furo_version_unknown_gets_furo_own_tree checks that)",
)

#: A site with what furo's tree has to get right: nesting in subdirectories,
#: captions with markup and quotes, a numbered toctree, :tocdepth:, hidden
#: and titles-only toctrees, a page in two toctrees, "self", an external
#: link with quotes and ampersands, items without a list, an "only" around a
#: section and one around a toctree (the pages below that document get
#: Sphinx's menu, so furo's own tree).
NESTED = {
    "conf.py": 'project = "Furo tree"\nexclude_patterns = ["_build"]\nsmartquotes = False\n',
    "index.rst": """\
Furo's tree
===========

.. toctree::
   :caption: Guide "quoted" & 'single' <caption>
   :numbered:

   guide/index
   guide/tocdepth

.. toctree::
   :hidden:

   hidden/page

.. toctree::
   :caption: *API*
   :maxdepth: 1

   api/index
   Ext "quoted" & 'single' <https://example.org/?a=1&b="2">
   self

.. toctree::
   :titlesonly:
   :includehidden:

   extras/index
""",
    "guide/index.rst": """\
Guide ``code`` & *emphasis*
===========================

Guide section
-------------

.. toctree::

   a
   deep/index

Other guide section
-------------------

Text.
""",
    "guide/a.rst": "Page \"a\" & 'b' <c>\n===================\n\nA section\n---------\n",
    "guide/deep/index.rst": """\
Deep "quoted" & 'single'
========================

.. toctree::
   :maxdepth: 3

   x
   y
""",
    "guide/deep/x.rst": "X\n=\n\nX one\n-----\n\nX two\n~~~~~\n",
    "guide/deep/y.rst": "Y\n=\n",
    "guide/tocdepth.rst": """\
:tocdepth: 1

With tocdepth
=============

Hidden by tocdepth
------------------

.. toctree::

   deep/y
""",
    "hidden/page.rst": "Hidden page\n===========\n\nHidden section\n--------------\n",
    "api/index.rst": """\
API
===

.. toctree::
   :glob:

   op_*
   ../guide/a
""",
    **{
        f"api/op_{i}.rst": f"``op_{i}`` *{i}*\n{'=' * 20}\n\nSection {i}\n-----------\n"
        for i in range(6)
    },
    "extras/index.rst": """\
Extras
======

.. only:: html

   Only in html
   ------------

   .. toctree::

      one

.. only:: never

   .. toctree::

      two
""",
    "extras/one.rst": "Extra one\n=========\n",
    "extras/two.rst": ":orphan:\n\nExtra two\n=========\n",
}


def write(srcdir, files: dict[str, str]):
    for name, text in files.items():
        (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
        (srcdir / name).write_text(text, encoding="utf-8")
    return srcdir


def pages(outdir) -> dict[str, bytes]:
    return {str(path.relative_to(outdir)): path.read_bytes() for path in outdir.rglob("*.html")}


class Parses:
    """Counts the BeautifulSoup parses furo's navigation module makes."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        soup = furo.navigation.BeautifulSoup

        def counting(*args, **kwargs):
            self.count += 1
            return soup(*args, **kwargs)

        monkeypatch.setattr(furo.navigation, "BeautifulSoup", counting)


def served_pages(app) -> int:
    """How many pages' menus the build served (its summary's count)."""
    return list(build_state(app.env, Outcomes).pages.values()).count(SERVED)


def build(make_app, srcdir, outdir, builder="html", extension=True, setup=None):
    """A fresh furo build; the app, its pages, and how many entries furo's
    ``lru_cache`` kept."""
    furo.navigation.get_navigation_tree.cache_clear()
    app = make_app(
        builder,
        srcdir=srcdir,
        builddir=outdir,
        freshenv=True,
        confoverrides={
            "html_theme": "furo",
            "extensions": ["reprodocs.navigation"] if extension else [],
        },
    )
    if setup is not None:
        setup(app)
    app.build()
    return app, pages(app.outdir), furo.navigation.get_navigation_tree.cache_info().currsize


@pytest.fixture
def nested(tmp_path):
    return write(tmp_path / "nested", NESTED)


@pytest.fixture(params=["test-navigation", "nested"])
def site(request, rootdir, nested):
    return rootdir / "test-navigation" if request.param == "test-navigation" else nested


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_furo_pages_are_byte_identical_with_the_extension(
    make_app, site, tmp_path, monkeypatch, builder
):
    _, without, cached_without = build(make_app, site, tmp_path / "without", builder, False)
    parses = Parses(monkeypatch)
    app, with_extension, cached_with = build(make_app, site, tmp_path / "with", builder)
    assert len(without) >= 13
    assert with_extension.keys() == without.keys()
    for page, html in with_extension.items():
        assert html == without[page], page
    # Served from the resolved menu: furo parsed only the first page of each
    # source directory (the self-check), and (but for the pages whose menu
    # is Sphinx's own) its cache holds nothing but the empty menu.
    served = served_pages(app)
    directories = {docname.rpartition("/")[0] for docname in app.env.found_docs}
    own = len(without) - served  # pages below extras/index in the nested site
    assert served >= 12
    assert parses.count <= len(directories) + own
    assert cached_with <= 1 + own
    assert cached_without >= len(without) - 2  # genindex and search may share one


def test_nested_site_gets_furo_own_tree_below_only(make_app, nested, tmp_path):
    app, html, _ = build(make_app, nested, tmp_path / "out")
    served = served_pages(app)
    # extras/index and the pages below it: their menu is Sphinx's own.
    assert served == len(html) - 3
    log = app.status.getvalue()
    assert log.count("furo's navigation tree on extras/index (and any other such page)") == 1
    # What the comparison compares: checkboxes, current marks, quotes.
    page = html["guide/deep/x.html"].decode()
    assert 'class="toctree-l1 current has-children"' in page
    assert 'class="toctree-l3 current current-page"' in page
    assert 'aria-label="Toggle navigation of 1. Guide code &amp; emphasis"' in page
    label = "Toggle navigation of 1.1.2. Deep &quot;quoted&quot; &amp; 'single'"
    assert f'aria-label="{label}"' in page
    assert """href='https://example.org/?a=1&amp;b="2"'""" in page
    assert 'checked=""' in page


def test_cache_does_not_grow_per_page(make_app, rootdir, tmp_path):
    """furo's ``get_navigation_tree`` keeps, without the extension, one tree
    per page for the whole process; with it, only the empty menu."""
    srcdir = rootdir / "test-navigation"
    _, without, cached_without = build(make_app, srcdir, tmp_path / "without", extension=False)
    _, with_extension, cached_with = build(make_app, srcdir, tmp_path / "with")
    assert with_extension == without
    assert cached_without >= len(without) - 2
    assert cached_with == 1
    assert furo.navigation.get_navigation_tree("") == ""


def test_furo_version_unknown_gets_furo_own_tree(make_app, rootdir, tmp_path, monkeypatch):
    monkeypatch.setattr(navigation_furo, "KNOWN_FURO", frozenset({"1999.1.1"}))
    srcdir = rootdir / "test-navigation"
    _, without, _ = build(make_app, srcdir, tmp_path / "without", extension=False)
    app, with_extension, cached = build(make_app, srcdir, tmp_path / "with")
    assert with_extension == without
    assert served_pages(app) == 0
    assert cached >= len(without) - 2  # furo's own, cache and all
    log = app.status.getvalue()
    assert log.count(f"furo {furo.__version__} is not a version reprodocs knows") == 1


def test_tree_differing_from_furo_own_gets_furo_own(make_app, rootdir, tmp_path, monkeypatch):
    """The first page of each directory is compared with furo's own tree; on
    a difference, furo's own for the rest of the build, and the log says so."""
    srcdir = rootdir / "test-navigation"
    _, without, _ = build(make_app, srcdir, tmp_path / "without", extension=False)
    switch = navigation_furo._switch
    monkeypatch.setattr(
        navigation_furo, "_switch", lambda *args: switch(*args).replace("switch", "toggle")
    )
    app, with_extension, _ = build(make_app, srcdir, tmp_path / "with")
    assert with_extension == without
    assert served_pages(app) == 0
    log = app.status.getvalue()
    assert log.count("reprodocs' tree for that page is not the same") == 1


def test_singlehtml_gets_furo_own_tree(make_app, rootdir, tmp_path):
    app, _, _ = build(make_app, rootdir / "test-navigation", tmp_path / "out", "singlehtml")
    assert served_pages(app) == 0
    log = app.status.getvalue()
    assert log.count("furo's navigation tree with the singlehtml builder is furo's own") == 1


def test_templates_get_the_served_toctree_back(make_app, rootdir, tmp_path):
    """After furo's handler, the page's ``toctree()`` is the one the extension
    serves again (templates may call it too)."""
    seen = []

    def record(app, pagename, templatename, context, doctree):
        seen.append(context["toctree"])

    def setup(app):
        app.connect("html-page-context", record, priority=900)

    build(make_app, rootdir / "test-navigation", tmp_path / "out", setup=setup)
    assert len(seen) >= 13
    assert all(type(toctree).__name__ == "partial" for toctree in seen)


def furo_trees(app) -> list[tuple[str, str, str]]:
    """Every page's (page, furo's own tree from Sphinx's own menu, the tree
    furo's page gets with the extension)."""
    sphinx_toctrees = {}
    trees = []

    def before(app, pagename, templatename, context, doctree):
        sphinx_toctrees[pagename] = context.get("toctree")

    def after(app, pagename, templatename, context, doctree):
        sphinx_toctree = sphinx_toctrees.pop(pagename)
        own = furo.navigation.get_navigation_tree.__wrapped__(sphinx_toctree(**FURO_TOCTREE))
        trees.append((pagename, own, context["furo_navigation_tree"]))

    app.connect("html-page-context", before, priority=100)
    app.connect("html-page-context", after, priority=900)
    return trees


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(files=sites(), builder=st.sampled_from(("html", "dirhtml")))
def test_tree_is_furo_tree_on_generated_trees(make_app, tmp_path_factory, files, builder):
    srcdir = write(tmp_path_factory.mktemp("site"), files)
    app = make_app(
        builder,
        srcdir=srcdir,
        freshenv=True,
        confoverrides={"html_theme": "furo", "extensions": ["reprodocs.navigation"]},
    )
    trees = furo_trees(app)
    app.build()
    assert {page for page, *_ in trees} >= {"index"}
    for pagename, own, ours in trees:
        assert ours == own, pagename
