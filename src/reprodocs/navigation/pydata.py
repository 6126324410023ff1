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
sidebar written from it (:mod:`reprodocs.navigation.pydata_sidebar`);
``suppress_sidebar_toctree`` is the theme's own answer for the first page of
each section, kept for the others; the header links are the theme's own,
reused where they are the same (:mod:`reprodocs.navigation.pydata_header`).

What is served: ``generate_toctree_html("sidebar", startdepth,
show_nav_level, maxdepth=..., collapse=..., titles_only=...,
includehidden=...)`` for the html and dirhtml builders, with any
``startdepth`` from 1, and with 0 (the whole site, which the theme takes from
the page's ``toctree()``) where ``toctree()`` is this extension's; every
other call, a pydata-sphinx-theme version this module does not know, and
pages below a document whose table of contents holds ``only`` nodes (as for
``toctree()``) get the theme's own function, and the build log says so once.

The self-check compares pages with the theme's own sidebar, which costs what
the section costs: the first page of each section and option set, and the
first page of each kind in an option set (one whose own link the sidebar
marks current, one it does not list: versions mark them differently) where
the first page of its section was of the other kind. On a difference the
theme's own is used for that section and options from then on, and the log
says so.
"""

from __future__ import annotations

import functools
import itertools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from reprodocs.base import __version__
from reprodocs.base.i18n import __
from reprodocs.base.state import build_state
from reprodocs.navigation import outcomes
from reprodocs.navigation.markdown_copies import remembering
from reprodocs.navigation.pydata_header import page_header
from reprodocs.navigation.pydata_sidebar import Section, SidebarPage, section
from reprodocs.navigation.serving import page_toctree, renders_html_menu
from reprodocs.navigation.toctree import build_facts, toctree_ancestors

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.util.typing import ExtensionMetadata

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

#: The keyword arguments of ``generate_toctree_html`` and
#: ``suppress_sidebar_toctree`` served here (passed on to ``TocTree.resolve``).
OPTIONS = frozenset({"collapse", "maxdepth", "titles_only", "includehidden"})

#: Where pydata-sphinx-theme 0.21.0 and later keep the sidebars they write,
#: "per build" but on the application, so for its whole life.
THEME_SIDEBAR_CACHE = "_pst_sidebar_toctree_cache"

#: Why a page's sidebar is the theme's own after one differed.
SIDEBAR_DIFFERS = "sidebar differing from the theme's own"

#: (ancestor, show_nav_level, collapse, maxdepth, titles_only, includehidden)
_Key = tuple[str, int, bool, int, bool, bool]


def setup(app: Sphinx) -> ExtensionMetadata:
    # After pydata-sphinx-theme's add_toctree_functions (priority 500).
    app.connect("html-page-context", serve_pydata_sidebar, priority=510)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


@dataclass
class PydataSidebars:
    """Per build: the sections resolved and what the theme answered."""

    #: The resolved sections, by (section page, titles_only, includehidden).
    sections: dict[tuple[str, bool, bool], Section] = field(default_factory=dict)
    #: The theme's suppress_sidebar_toctree, by section page and arguments.
    suppressed: dict[tuple[str, int, frozenset[tuple[str, Any]]], Any] = field(default_factory=dict)
    #: The option sets (a key but its section) whose sidebar differed on a
    #: page: the theme's own on every page with them.
    differs: set[tuple[Any, ...]] = field(default_factory=set)
    #: The theme's version, once looked up.
    version: str | None = None


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
    if not _serves(app, pagename):
        return
    builder = cast("StandaloneHTMLBuilder", app.builder)  # checked by _serves
    context["generate_toctree_html"] = remembering(
        app,
        pagename,
        templatename,
        context,
        functools.partial(page_sidebar, builder, pagename, context, theme_sidebar),
    )
    context["suppress_sidebar_toctree"] = functools.partial(
        page_suppress, builder, pagename, theme_suppress
    )
    theme_header = context.get("generate_header_nav_html")
    if _is_pydata(theme_header) and _is_sphinx_pathto(context.get("pathto")):
        context["generate_header_nav_html"] = functools.partial(
            page_header, builder, pagename, context, theme_header, itertools.count()
        )


def _serves(app: Sphinx, pagename: str) -> bool:
    """Whether the theme's version and the builder are served; if not, the
    page's sidebar is the theme's own and the log says so."""
    state = build_state(app.env, PydataSidebars)
    if state.version is None:
        state.version = _pydata_version()
    outcomes.recognise(app.env, f"pydata-sphinx-theme {state.version}")
    if state.version not in KNOWN_VERSIONS:
        outcomes.theme_own(
            app.env,
            pagename,
            "a pydata-sphinx-theme version it does not know",
            __(
                "reprodocs.navigation: pydata-sphinx-theme %s is not a version it knows (%s): "
                "its sidebar is the theme's own, in the time the theme takes"
            ),
            state.version,
            ", ".join(KNOWN_VERSIONS),
        )
        return False
    if not renders_html_menu(app.builder):
        outcomes.theme_own(
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


def _pydata_version() -> str:
    # Imported already: the page's functions come from it.
    return str(getattr(sys.modules.get("pydata_sphinx_theme"), "__version__", "unknown"))


def _sidebar_arguments(
    kind: Any, startdepth: Any = 1, show_nav_level: Any = 1, **kwargs: Any
) -> tuple[Any, Any, Any, dict[str, Any]]:
    """``generate_toctree_html``'s signature."""
    return kind, startdepth, show_nav_level, kwargs


def _suppress_arguments(startdepth: Any = 1, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """``suppress_sidebar_toctree``'s signature."""
    return startdepth, kwargs


def _unserved(
    kind: Any,
    startdepth: Any,
    show_nav_level: Any,
    options: dict[str, Any],
    context: dict[str, Any],
) -> str | None:
    """What of a ``generate_toctree_html`` call this module does not serve
    (None if it serves the call)."""
    if kind != "sidebar" or type(kind) is not str:
        return f"generate_toctree_html({kind!r})"
    if type(startdepth) is not int or startdepth < 0:
        return f"generate_toctree_html(startdepth={startdepth!r})"
    if type(show_nav_level) is not int:
        return f"generate_toctree_html(show_nav_level={show_nav_level!r})"
    if not options.keys() <= OPTIONS:
        unknown = ", ".join(f"{name}=..." for name in sorted(options.keys() - OPTIONS))
        return f"generate_toctree_html({unknown})"
    toctree = context.get("toctree")
    if startdepth == 0 and not (
        isinstance(toctree, functools.partial) and toctree.func is page_toctree
    ):
        # The theme edits what the page's toctree() gives: here the same
        # menu only if that is this extension's (and so Sphinx's) menu.
        return "generate_toctree_html(startdepth=0) with another toctree()"
    return None


def _maxdepth(startdepth: int, options: dict[str, Any]) -> int:
    """The depth asked for, as the theme's ``get_nonroot_toctree`` reads it,
    or with ``startdepth=0`` as Sphinx's ``toctree()`` does."""
    if startdepth == 0:
        maxdepth = options.get("maxdepth", 0)
        return int(maxdepth if maxdepth != "" else 0)
    return int(options.get("maxdepth") or 0)


def _theme_own(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    what: str,
    theme_function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """The theme's own function, where this module does not give the same;
    the build log says so, once per build and kind."""
    outcomes.theme_own(
        builder.env,
        pagename,
        what,
        __(
            "reprodocs.navigation: pydata-sphinx-theme's %s on %s (and any other such page) "
            "is the theme's own, in the time the theme takes"
        ),
        what,
        pagename,
    )
    return theme_function(*args, **kwargs)


def page_sidebar(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    context: dict[str, Any],
    theme_sidebar: Callable[..., Any],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """The page context's ``generate_toctree_html(...)``: for the sidebar, the
    HTML the theme's soup writes (the template writes ``str()`` of what it
    gets); anything else is the theme's own."""
    try:
        kind, startdepth, show_nav_level, options = _sidebar_arguments(*args, **kwargs)
        hash(tuple(options.values()))  # the theme's functools.cache needs it
    except TypeError:
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    what = _unserved(kind, startdepth, show_nav_level, options, context)
    if what is not None:
        return _theme_own(builder, pagename, what, theme_sidebar, args, kwargs)
    try:
        maxdepth = _maxdepth(startdepth, options)
    except (TypeError, ValueError):
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    ancestor = "" if startdepth == 0 else _ancestor(builder, pagename, startdepth)
    if ancestor is None or (ancestor and ancestor not in builder.env.tocs):
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    key: _Key = (
        ancestor,
        show_nav_level,
        bool(options.get("collapse", True)),
        maxdepth,
        bool(options.get("titles_only", False)),
        bool(options.get("includehidden", False)),
    )
    what = _sidebar_unserved(builder, pagename, key)
    if what == SIDEBAR_DIFFERS:
        outcomes.own(builder.env, pagename, what)  # told when it differed
    elif what is not None:
        return _theme_own(builder, pagename, what, theme_sidebar, args, kwargs)
    else:
        return _sidebar(builder, pagename, key, maxdepth, theme_sidebar, args, kwargs)
    return theme_sidebar(*args, **kwargs)


def _sidebar_unserved(builder: StandaloneHTMLBuilder, pagename: str, key: _Key) -> str | None:
    """What makes the page's sidebar the theme's own (None if nothing)."""
    state = build_state(builder.env, PydataSidebars)
    if key[1:] in state.differs:
        return SIDEBAR_DIFFERS
    found = section(builder, state.sections, key[0], key[4], key[5])
    if found.unserved:
        return found.unserved
    if not found.menu.ancestors(pagename).isdisjoint(found.menu.whole_copies_differ):
        return "sidebar below a page with `only` in its table of contents"
    return None


def _sidebar(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    key: _Key,
    maxdepth: int,
    theme_sidebar: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """The page's sidebar, written from its section; the theme's own where
    they differ on a page the self-check compares: the
    first page of each section and option set, and the first of each kind
    (the page's own link marked current, or not listed) in an option set."""
    env = builder.env
    state = build_state(env, PydataSidebars)
    found = state.sections[key[0], key[4], key[5]]
    page = SidebarPage.for_page(
        builder,
        found.menu,
        pagename,
        key[2],
        section=found,
        show_nav_level=key[1],
        aria_current=KNOWN_VERSIONS[state.version or ""],
    )
    html = page.html(maxdepth)
    checks = build_state(env, outcomes.Outcomes)
    first_of_section = checks.due(("pydata", key))
    first_of_kind = checks.due(("pydata", key[1:], bool(page.current)))
    if not (first_of_section or first_of_kind):
        outcomes.served(env, pagename)
        return html
    theirs = theme_sidebar(*args, **kwargs)
    if str(theirs) != html:
        state.differs.add(key[1:])
        message = __(
            "reprodocs.navigation: pydata-sphinx-theme's sidebar on %s differs from the "
            "theme's own; on every page with these options it is the theme's own, in the "
            "time the theme takes"
        )
        outcomes.own(env, pagename, SIDEBAR_DIFFERS)
        outcomes.log_once(env, f"{SIDEBAR_DIFFERS} {key[1:]}", message, pagename)
        return theirs
    outcomes.served(env, pagename)
    return html


def _ancestor(builder: StandaloneHTMLBuilder, pagename: str, startdepth: int) -> str | None:
    """The theme's ``_get_ancestor_pagename``: the section page *startdepth*
    levels below the root, None if the page has none."""
    ancestors = toctree_ancestors(build_facts(builder).parent_of or {}, pagename)
    return ancestors[-startdepth] if len(ancestors) >= startdepth else None


def page_suppress(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    theme_suppress: Callable[..., Any],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """The page context's ``suppress_sidebar_toctree(...)``: whether the page
    has no sidebar. Without ``includehidden``, the theme resolves the section
    to see whether anything is left; that answer depends on the section and
    the arguments, not on the page, so it is the theme's for the first page of
    each section, kept for the others."""
    try:
        startdepth, options = _suppress_arguments(*args, **kwargs)
        arguments = frozenset(options.items())
    except TypeError:
        return theme_suppress(*args, **kwargs)
    if type(startdepth) is not int or startdepth < 1:
        what = f"suppress_sidebar_toctree(startdepth={startdepth!r})"
        return _theme_own(builder, pagename, what, theme_suppress, args, kwargs)
    ancestor = _ancestor(builder, pagename, startdepth)
    if ancestor is None:
        return True
    if options.get("includehidden", False):
        return False
    if not options.keys() <= OPTIONS:
        unknown = ", ".join(f"{name}=..." for name in sorted(options.keys() - OPTIONS))
        what = f"suppress_sidebar_toctree({unknown})"
        return _theme_own(builder, pagename, what, theme_suppress, args, kwargs)
    suppressed = build_state(builder.env, PydataSidebars).suppressed
    key = (ancestor, startdepth, arguments)
    if key not in suppressed:
        suppressed[key] = theme_suppress(*args, **kwargs)
    return suppressed[key]
