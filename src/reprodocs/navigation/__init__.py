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

This module owns the menu's whole life: it serves the page context's
``toctree(...)`` for the html and dirhtml builders (other builders, and
arguments it does not know, get Sphinx's own, and the build log says so
once), keeps the resolved menus for one build, and has every page written
again when the menu changed since the output directory's pages were written.
It needs neither the notes extension nor the theme.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

from sphinx.builders.dirhtml import DirectoryHTMLBuilder
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util import logging

from reprodocs.base import __version__, written
from reprodocs.base.state import build_state
from reprodocs.navigation.toctree import OPTIONS, Menus, fingerprint, menu_html

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("reprodocs.base.written")
    # After Sphinx numbers the sections of numbered toctrees (its own
    # env-get-updated handler): the menu shows the numbers.
    app.connect("env-get-updated", rewrite_pages_when_menu_changes, priority=900)
    app.connect("html-page-context", serve_menu)
    app.setup_extension("reprodocs.navigation.furo")  # after serve_menu: furo's tree
    app.setup_extension("reprodocs.navigation.pydata")  # pydata-sphinx-theme's sidebar
    # pytorch_sphinx_theme2's Markdown copies of the pages, without their sidebar
    app.setup_extension("reprodocs.navigation.pytorch_sphinx_theme2")
    # Reading is untouched and nothing is kept in the environment. The menus
    # are resolved when a page first asks for one; writing in parallel, the
    # main process writes the first page itself and the writing processes
    # inherit them (or resolve their own): the pages are the same.
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def serve_menu(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``: the page's ``toctree()`` from the linear menu."""
    sphinx_toctree = context.get("toctree")
    if sphinx_toctree is not None and renders_html_menu(app.builder):
        builder = cast("StandaloneHTMLBuilder", app.builder)  # checked just above
        context["toctree"] = functools.partial(page_toctree, builder, pagename, sphinx_toctree)


def renders_html_menu(builder: object) -> bool:
    """Whether the builder renders the menu as the html and dirhtml builders
    do (singlehtml and others have their own way)."""
    return type(builder) in {StandaloneHTMLBuilder, DirectoryHTMLBuilder}


def page_toctree(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    sphinx_toctree: Callable[..., str],
    **kwargs: Any,
) -> str:
    """The page context's ``toctree(**kwargs)``, as Sphinx's
    ``_get_local_toctree`` reads its arguments; anything else is Sphinx's."""
    if not kwargs.keys() <= OPTIONS:
        unknown = ", ".join(sorted(kwargs.keys() - OPTIONS))
        return sphinx_menu(builder, pagename, sphinx_toctree, kwargs, f"toctree({unknown}=...)")
    maxdepth = kwargs.get("maxdepth", 0)
    try:
        maxdepth = int(maxdepth if maxdepth != "" else 0)
    except (TypeError, ValueError):
        return sphinx_toctree(**kwargs)  # which raises as Sphinx does
    html = menu_html(
        builder,
        pagename,
        collapse=kwargs.get("collapse", True),
        maxdepth=maxdepth,
        titles_only=kwargs.get("titles_only", False),
        includehidden=kwargs.get("includehidden", False),
    )
    if html is None:
        return sphinx_menu(builder, pagename, sphinx_toctree, kwargs, "toctree()")
    return html


def sphinx_menu(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    sphinx_toctree: Callable[..., str],
    kwargs: dict[str, Any],
    what: str,
) -> str:
    """Sphinx's own menu, where this extension cannot give the same; the
    build log says so, once per build and kind."""
    logged = build_state(builder.env, Menus).fallbacks
    if what not in logged:
        logged.add(what)
        logger.info(
            "reprodocs.navigation: %s on %s (and any other such page) is Sphinx's own, "
            "in the time Sphinx takes",
            what,
            pagename,
        )
    return sphinx_toctree(**kwargs)


def rewrite_pages_when_menu_changes(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: forget the menus of the last build; when the menu
    differs from the one the output's pages were written with (a page
    added, removed or retitled since), have every page written again, not
    only those Sphinx rewrites (the changed pages' toctree parents)."""
    build_state(env, Menus).resolved.clear()
    if not renders_html_menu(app.builder):
        return []
    return sorted(env.found_docs) if written.changed(app, "menu", fingerprint(env)) else []
