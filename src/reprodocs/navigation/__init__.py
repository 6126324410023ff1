"""The global navigation menu in linear time: ``extensions = ["reprodocs.navigation"]``.

Sphinx's ``toctree()`` template function, which sphinx_rtd_theme, alabaster,
classic's ``globaltoc.html``, furo and the reprodocs theme call on every page,
resolves the whole global toctree again for each page: it deep-copies the
table of contents of every document, marks the current branch, prunes it and
renders it through docutils. The work per page grows with the size of the
site, so a build grows with the square of it.

Here the tree is resolved once per build, by Sphinx's own code and for no page
in particular; each link is rendered once (``reprodocs.navigation.toctree``).
A page's menu is then derived from it: the current branch marked and expanded
exactly as Sphinx marks and prunes it, the links made relative to the page. A
collapsed branch costs one cached string, so a page costs about the same
whatever the size of the site.

This extension owns the menu's whole life: it serves the page context's
``toctree(...)`` for the html and dirhtml builders
(:mod:`reprodocs.navigation.serving`; other builders, and arguments it does
not know, get Sphinx's own, and the build log says so once per build and
writing process), keeps the resolved menus for one build, and has every page
written again when the menu changed since the output directory's pages were
written. The theme adapters serve the menus of the theme families that do not
ask ``toctree()`` for them: pydata-sphinx-theme (``pydata``), furo
(``furo``), pytorch_sphinx_theme2's header menu
(``pytorch_sphinx_theme2_header``) and its Markdown copies
(``markdown_copies``), and its per-page git dates
(``pytorch_sphinx_theme2_dates``). ``setup()`` calls each one's
``setup_<adapter>(app, registry)``, which connects its handlers and registers
its per-build state with the core (:mod:`reprodocs.navigation.registry`): the
core names none of them. Each page's menu is written by one writer
(``pages``), and where it cannot be the theme's byte for byte the theme's own
is used, by one policy (``outcomes``), which also tells the build log once
what the navigation did. It needs neither the notes extension nor the
theme.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from reprodocs.base import __version__, written
from reprodocs.base.i18n import add_catalog
from reprodocs.navigation import outcomes
from reprodocs.navigation.furo import setup_furo
from reprodocs.navigation.markdown_copies import setup_markdown_copies
from reprodocs.navigation.pydata import setup_pydata
from reprodocs.navigation.pytorch_sphinx_theme2_dates import setup_pytorch_sphinx_theme2_dates
from reprodocs.navigation.pytorch_sphinx_theme2_header import (
    setup_pytorch_sphinx_theme2_header,
)
from reprodocs.navigation.registry import Registry
from reprodocs.navigation.serving import renders_html_menu, serve_menu
from reprodocs.navigation.toctree import ResolvedMenus, fingerprint, setup_renderer

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    """The table of contents: the core's handlers, then each theme adapter's
    setup function, which connects its handlers and registers its per-build
    state with the core (:mod:`reprodocs.navigation.registry`)."""
    add_catalog(app)
    app.setup_extension("reprodocs.base.written")
    registry = Registry()
    registry.add(ResolvedMenus, outcomes.Outcomes)
    # After Sphinx numbers the sections of numbered toctrees (its own
    # env-get-updated handler): the menu shows the numbers.
    app.connect(
        "env-get-updated",
        functools.partial(start_build, registry),
        priority=900,
    )
    # Before the themes' own handlers (the default priority, 500), which may
    # ask for the menu (furo's does).
    app.connect("html-page-context", serve_menu, priority=400)
    setup_renderer(app)  # the menus' links, rendered by the builder at once
    # The theme adapters, in the order their handlers run at one priority.
    setup_furo(app, registry)  # furo's tree
    setup_pydata(app, registry)  # pydata-sphinx-theme's sidebar and header links
    # pytorch_sphinx_theme2's header menu, and its Markdown copies of the
    # pages without their menus
    setup_pytorch_sphinx_theme2_header(app, registry)
    setup_markdown_copies(app, registry)
    # pytorch_sphinx_theme2's per-page git dates, from one walk of the history
    setup_pytorch_sphinx_theme2_dates(app, registry)
    # What the navigation did, in the build's summary.
    app.connect("build-finished", outcomes.summarise)
    # Reading is untouched and nothing is kept in the environment. The menus
    # are resolved when a page first asks for one; writing in parallel, the
    # main process writes the first page itself and the writing processes
    # inherit them (or resolve their own): the pages are the same.
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def start_build(registry: Registry, app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``, the one place where a build starts afresh: every
    per-build state registered made anew (the last build's menus, and what
    its log told), the themes' own caches registered forgotten. Returns the
    pages to write again: every page when the menu differs from the one the
    output's pages were written with (a page added, removed or retitled
    since), not only those Sphinx rewrites (the changed pages' toctree
    parents); none otherwise."""
    registry.renew(app, env)
    outcomes.start(app, env)
    if not renders_html_menu(app.builder):
        return []
    menu = fingerprint(env)
    differs = written.differs(app, "menu", menu)
    written.record(app, "menu", menu)
    return sorted(env.found_docs) if differs else []
