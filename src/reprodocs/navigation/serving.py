"""The page context's ``toctree()``, served from the linear menu
(:mod:`reprodocs.navigation.toctree`) for the html and dirhtml builders;
Sphinx's own for anything else, and the build log says so."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

from sphinx.builders.dirhtml import DirectoryHTMLBuilder
from sphinx.builders.html import StandaloneHTMLBuilder

from reprodocs.base.i18n import __
from reprodocs.navigation import outcomes
from reprodocs.navigation.pages import menu_html
from reprodocs.navigation.toctree import OPTIONS

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

# menu_html is looked up here by page_toctree and by furo's tree alike, so
# that both are the one function (and a test can record it in one place).
__all__ = ["menu_html", "page_toctree", "renders_html_menu", "serve_menu", "sphinx_menu"]


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
    outcomes.served(builder.env, pagename)
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
    outcomes.fall_back(
        builder.env,
        pagename,
        what,
        __(
            "reprodocs.navigation: %s on %s (and any other such page) is Sphinx's own, "
            "in the time Sphinx takes"
        ),
        what,
        pagename,
    )
    return sphinx_toctree(**kwargs)
