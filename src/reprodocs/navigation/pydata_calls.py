"""pydata-sphinx-theme's page functions' calls, read (see
:mod:`reprodocs.navigation.pydata`): their arguments, what of them is
served, the section page they ask for, and the theme's own function where a
call is not served."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from reprodocs.base.i18n import __
from reprodocs.navigation import outcomes
from reprodocs.navigation.serving import page_toctree
from reprodocs.navigation.toctree import build_facts, toctree_ancestors

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.builders.html import StandaloneHTMLBuilder

#: The keyword arguments of ``generate_toctree_html`` and
#: ``suppress_sidebar_toctree`` served here (passed on to ``TocTree.resolve``).
OPTIONS = frozenset({"collapse", "maxdepth", "titles_only", "includehidden"})


def sidebar_arguments(
    kind: Any, startdepth: Any = 1, show_nav_level: Any = 1, **kwargs: Any
) -> tuple[Any, Any, Any, dict[str, Any]]:
    """``generate_toctree_html``'s signature."""
    return kind, startdepth, show_nav_level, kwargs


def suppress_arguments(startdepth: Any = 1, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """``suppress_sidebar_toctree``'s signature."""
    return startdepth, kwargs


def unserved_sidebar(
    kind: Any,
    startdepth: Any,
    show_nav_level: Any,
    options: dict[str, Any],
    context: dict[str, Any],
) -> str | None:
    """What of a ``generate_toctree_html`` call this adapter does not serve
    (None if it serves the call)."""
    if kind != "sidebar" or type(kind) is not str:
        return f"generate_toctree_html({kind!r})"
    if type(startdepth) is not int or startdepth < 0:
        return f"generate_toctree_html(startdepth={startdepth!r})"
    if type(show_nav_level) is not int:
        return f"generate_toctree_html(show_nav_level={show_nav_level!r})"
    if not options.keys() <= OPTIONS:
        return f"generate_toctree_html({unknown_options(options)})"
    toctree = context.get("toctree")
    if startdepth == 0 and not (
        isinstance(toctree, functools.partial) and toctree.func is page_toctree
    ):
        # The theme edits what the page's toctree() gives: here the same
        # menu only if that is this extension's (and so Sphinx's) menu.
        return "generate_toctree_html(startdepth=0) with another toctree()"
    return None


def unknown_options(options: dict[str, Any]) -> str:
    """The keyword arguments not served, as the log names them."""
    return ", ".join(f"{name}=..." for name in sorted(options.keys() - OPTIONS))


def maxdepth(startdepth: int, options: dict[str, Any]) -> int:
    """The depth asked for, as the theme's ``get_nonroot_toctree`` reads it,
    or with ``startdepth=0`` as Sphinx's ``toctree()`` does."""
    if startdepth == 0:
        depth = options.get("maxdepth", 0)
        return int(depth if depth != "" else 0)
    return int(options.get("maxdepth") or 0)


def ancestor(builder: StandaloneHTMLBuilder, pagename: str, startdepth: int) -> str | None:
    """The theme's ``_get_ancestor_pagename``: the section page *startdepth*
    levels below the root, None if the page has none."""
    ancestors = toctree_ancestors(build_facts(builder).parent_of, pagename)
    return ancestors[-startdepth] if len(ancestors) >= startdepth else None


def fall_back(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    what: str,
    theme_function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """The theme's own function, where this adapter does not give the same;
    the build log says so, once per build and kind."""
    outcomes.fall_back(
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
