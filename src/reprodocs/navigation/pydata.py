"""pydata-sphinx-theme's sidebar in linear time (see :mod:`reprodocs.navigation`).

pydata-sphinx-theme, from 0.15.4 (the base of pytorch_sphinx_theme2 0.4.13)
to 0.24.0 (``KNOWN_VERSIONS``), never asks for ``toctree()`` for its
sidebar. On every page, the page context's
``generate_toctree_html("sidebar", ...)`` finds the page's top-level section
(walking a parent map it builds anew over every toctree of the site), resolves
each toctree of a copy of the section page's table of contents with Sphinx's
``TocTree.resolve``, renders them and edits the HTML with BeautifulSoup; then
``str()`` of the soup goes into the page. Each page costs the size of its
section. From 0.21.0, when not collapsing, the theme keeps the first soup of
each directory and section and, for the next page, moves the current page's
marks in it: each page still costs a search through the whole section's soup
and its ``str()``. ``suppress_sidebar_toctree``, asked on every page, walks
the parent map again and, unless ``includehidden``, resolves the section once
more.

Here each section is resolved once per build and option set and each page's
sidebar written from it (:mod:`reprodocs.navigation.pydata_toctree_html`,
with :mod:`reprodocs.navigation.pydata_sidebar`'s writer);
``suppress_sidebar_toctree`` is the theme's own answer for the first page of
each section, kept for the others
(:mod:`reprodocs.navigation.pydata_suppress`); the header links are the
theme's own, reused where they are the same
(:mod:`reprodocs.navigation.pydata_header`). The calls' arguments are read
by :mod:`reprodocs.navigation.pydata_calls`. This module is the adapter's
entry: its setup, which versions and builders it serves, and the page
context's functions replaced with those.

What is served: ``generate_toctree_html("sidebar", startdepth,
show_nav_level, maxdepth=..., collapse=..., titles_only=...,
includehidden=...)`` for the html and dirhtml builders, with any
``startdepth`` from 1, and with 0 (the whole site, which the theme takes from
the page's ``toctree()``) where ``toctree()`` is this extension's; every
other call, a pydata-sphinx-theme version this module does not know, and
pages below a document whose table of contents holds ``only`` nodes (as for
``toctree()``) get the theme's own function, and the build log says so once.
"""

from __future__ import annotations

import functools
import itertools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state
from reprodocs.navigation import outcomes
from reprodocs.navigation.markdown_copies import remembering
from reprodocs.navigation.pydata_header import PydataHeaders, page_header
from reprodocs.navigation.pydata_suppress import SuppressAnswers, page_suppress
from reprodocs.navigation.pydata_toctree_html import PydataSidebars, page_sidebar
from reprodocs.navigation.serving import renders_html_menu

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder

    from reprodocs.navigation.registry import Registry

#: The pydata-sphinx-theme versions whose ``toctree.py`` this module mirrors,
#: each with whether it marks the current page's link ``aria-current="page"``
#: (from 0.22.0). Their sidebar is 0.15.4's otherwise: later versions changed
#: the header menu and the page's own table of contents, and from 0.21.0 the
#: theme keeps a page's soup for the next page of its directory and section
#: when not collapsing, moving the current page's marks (the same HTML).
KNOWN_VERSIONS: dict[str, bool] = {
    "0.15.4": False,
    "0.16.1": False,
    "0.17.1": False,
    "0.18.0": False,
    "0.19.0": False,
    "0.20.0": False,
    "0.21.0": False,
    "0.22.0": True,
    "0.23.0": True,
    "0.24.0": True,
}

#: Where pydata-sphinx-theme 0.21.0 and later keep the sidebars they write,
#: "per build" but on the application, so for its whole life.
THEME_SIDEBAR_CACHE = "_pst_sidebar_toctree_cache"


def setup_pydata(app: Sphinx, registry: Registry) -> None:
    # After pydata-sphinx-theme's add_toctree_functions (priority 500).
    app.connect("html-page-context", serve_pydata_sidebar, priority=510)
    registry.add(
        PydataTheme, PydataSidebars, SuppressAnswers, PydataHeaders, forget=forget_theme_sidebars
    )


def _pydata_version() -> str:
    # Imported already: the page's functions come from it.
    return str(getattr(sys.modules.get("pydata_sphinx_theme"), "__version__", "unknown"))


@dataclass
class PydataTheme:
    """Per build: the theme's version, looked up when a page first has the
    theme's functions."""

    version: str = field(default_factory=_pydata_version)


def forget_theme_sidebars(app: Sphinx) -> None:
    """When a build starts: forget the sidebars the theme cached in the last
    one. The theme never forgets its own: an application that builds twice
    (Sphinx's test fixtures, sphinx-autobuild) would get the first build's
    sidebars from the theme wherever the theme writes them (its own pages,
    the self-check's comparisons, which would then differ from ours and give
    every page the stale one). Its private attribute is the only way; the
    tests run every known version with it."""
    if hasattr(app, THEME_SIDEBAR_CACHE):
        delattr(app, THEME_SIDEBAR_CACHE)


def serve_pydata_sidebar(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``, after pydata-sphinx-theme's: the page's sidebar
    functions, served from the sections resolved once."""
    theme_sidebar = context.get("generate_toctree_html")
    theme_suppress = context.get("suppress_sidebar_toctree")
    if not (_is_pydata(theme_sidebar) and _is_pydata(theme_suppress)):
        return
    if not _serve_or_fall_back(app, pagename):
        return
    builder = cast("StandaloneHTMLBuilder", app.builder)  # checked by _serve_or_fall_back
    aria_current = KNOWN_VERSIONS[build_state(app.env, PydataTheme).version]
    context["generate_toctree_html"] = remembering(
        app,
        pagename,
        templatename,
        context,
        functools.partial(page_sidebar, builder, pagename, context, theme_sidebar, aria_current),
    )
    context["suppress_sidebar_toctree"] = functools.partial(
        page_suppress, builder, pagename, theme_suppress
    )
    theme_header = context.get("generate_header_nav_html")
    if _is_pydata(theme_header) and _is_sphinx_pathto(context.get("pathto")):
        context["generate_header_nav_html"] = functools.partial(
            page_header, builder, pagename, context, theme_header, itertools.count()
        )


def _serve_or_fall_back(app: Sphinx, pagename: str) -> bool:
    """The theme recognised; where its version or the builder is not
    served, the page's sidebar is the theme's own and the log says so.
    Returns whether it is served."""
    version = build_state(app.env, PydataTheme).version
    outcomes.recognise(app.env, f"pydata-sphinx-theme {version}")
    if version not in KNOWN_VERSIONS:
        outcomes.fall_back(
            app.env,
            pagename,
            "a pydata-sphinx-theme version it does not know",
            __(
                "reprodocs.navigation: pydata-sphinx-theme %s is not a version it knows (%s): "
                "its sidebar is the theme's own, in the time the theme takes"
            ),
            version,
            ", ".join(KNOWN_VERSIONS),
        )
        return False
    if not renders_html_menu(app.builder):
        outcomes.fall_back(
            app.env,
            pagename,
            f"the sidebar with the {app.builder.name} builder",
            __(
                "reprodocs.navigation: pydata-sphinx-theme's sidebar with the %s builder is the "
                "theme's own, in the time the theme takes"
            ),
            app.builder.name,
        )
        return False
    return True


def _is_pydata(function: object) -> TypeGuard[Callable[..., Any]]:
    module = getattr(function, "__module__", None)  # any callable another extension put there
    return callable(function) and module == "pydata_sphinx_theme.toctree"


def _is_sphinx_pathto(function: object) -> bool:
    """Whether the page's ``pathto`` is the HTML builder's (relative to the
    page's directory), which the header's links are written with."""
    return callable(function) and getattr(function, "__module__", None) == "sphinx.builders.html"
