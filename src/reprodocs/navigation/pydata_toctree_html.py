"""pydata-sphinx-theme's ``generate_toctree_html("sidebar", ...)``, served
(see :mod:`reprodocs.navigation.pydata`): each page's sidebar written from
its section, resolved once per build and option set
(:mod:`reprodocs.navigation.pydata_sidebar`), and compared with the theme's
own by the self-check.

The self-check compares pages with the theme's own sidebar, which costs what
the section costs: the first page of each section and option set, and the
first page of each kind in an option set (one whose own link the sidebar
marks current, one it does not list: versions mark them differently) where
the first page of its section was of the other kind. On a difference the
theme's own is used for that section and options from then on, and the log
says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state
from reprodocs.navigation import outcomes
from reprodocs.navigation.pydata_calls import (
    ancestor,
    fall_back,
    maxdepth,
    sidebar_arguments,
    unserved_sidebar,
)
from reprodocs.navigation.pydata_sidebar import Section, SidebarPage, section

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.builders.html import StandaloneHTMLBuilder

#: Why a page's sidebar is the theme's own after one differed.
SIDEBAR_DIFFERS = "sidebar differing from the theme's own"

#: (ancestor, show_nav_level, collapse, maxdepth, titles_only, includehidden)
_Key = tuple[str, int, bool, int, bool, bool]


@dataclass
class PydataSidebars:
    """Per build: the sections resolved, and the option sets that differed."""

    #: The resolved sections, by (section page, titles_only, includehidden).
    sections: dict[tuple[str, bool, bool], Section] = field(default_factory=dict)
    #: The option sets (a key but its section) whose sidebar differed on a
    #: page: the theme's own on every page with them.
    differs: set[tuple[Any, ...]] = field(default_factory=set)


def page_sidebar(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    context: dict[str, Any],
    theme_sidebar: Callable[..., Any],
    aria_current: bool,
    *args: Any,
    **kwargs: Any,
) -> Any:
    """The page context's ``generate_toctree_html(...)``: for the sidebar, the
    HTML the theme's soup writes (the template writes ``str()`` of what it
    gets), the current page's link marked ``aria-current`` if
    *aria_current* (as the theme's version does); anything else is the
    theme's own."""
    try:
        kind, startdepth, show_nav_level, options = sidebar_arguments(*args, **kwargs)
        hash(tuple(options.values()))  # the theme's functools.cache needs it
    except TypeError:
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    what = unserved_sidebar(kind, startdepth, show_nav_level, options, context)
    if what is not None:
        return fall_back(builder, pagename, what, theme_sidebar, args, kwargs)
    try:
        depth = maxdepth(startdepth, options)
    except (TypeError, ValueError):
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    section_page = "" if startdepth == 0 else ancestor(builder, pagename, startdepth)
    if section_page is None or (section_page and section_page not in builder.env.tocs):
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    key: _Key = (
        section_page,
        show_nav_level,
        bool(options.get("collapse", True)),
        depth,
        bool(options.get("titles_only", False)),
        bool(options.get("includehidden", False)),
    )
    what = _sidebar_unserved(builder, pagename, key)
    if what == SIDEBAR_DIFFERS:
        outcomes.record_fallback(builder.env, pagename, what)  # told when it differed
    elif what is not None:
        return fall_back(builder, pagename, what, theme_sidebar, args, kwargs)
    else:
        return _sidebar(builder, pagename, key, aria_current, theme_sidebar, args, kwargs)
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
    aria_current: bool,
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
        aria_current=aria_current,
    )
    html = page.html(key[3])
    checks = build_state(env, outcomes.Outcomes)
    first_of_section = checks.claim_check(("pydata", key))
    first_of_kind = checks.claim_check(("pydata", key[1:], bool(page.current)))
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
        outcomes.record_fallback(env, pagename, SIDEBAR_DIFFERS)
        outcomes.log_once(env, f"{SIDEBAR_DIFFERS} {key[1:]}", message, pagename)
        return theirs
    outcomes.served(env, pagename)
    return html
