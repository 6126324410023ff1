"""pydata-sphinx-theme's ``suppress_sidebar_toctree``, served (see
:mod:`reprodocs.navigation.pydata`).

The theme asks it on every page: it walks the parent map again and, unless
``includehidden``, resolves the page's section to see whether anything is
left. That answer depends on the section and the arguments, not on the
page: here it is the theme's own for the first page of each section,
kept for the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reprodocs.base.state import build_state
from reprodocs.navigation.pydata_calls import (
    OPTIONS,
    ancestor,
    fall_back,
    suppress_arguments,
    unknown_options,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.builders.html import StandaloneHTMLBuilder


@dataclass
class SuppressAnswers:
    """Per build: the theme's answers, by section page and arguments."""

    answers: dict[tuple[str, int, frozenset[tuple[str, Any]]], Any] = field(default_factory=dict)


def page_suppress(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    theme_suppress: Callable[..., Any],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """The page context's ``suppress_sidebar_toctree(...)``: whether the page
    has no sidebar, the theme's answer for its section and arguments."""
    try:
        startdepth, options = suppress_arguments(*args, **kwargs)
        arguments = frozenset(options.items())
    except TypeError:
        return theme_suppress(*args, **kwargs)
    if type(startdepth) is not int or startdepth < 1:
        what = f"suppress_sidebar_toctree(startdepth={startdepth!r})"
        return fall_back(builder, pagename, what, theme_suppress, args, kwargs)
    section_page = ancestor(builder, pagename, startdepth)
    if section_page is None:
        return True
    if options.get("includehidden", False):
        return False
    if not options.keys() <= OPTIONS:
        what = f"suppress_sidebar_toctree({unknown_options(options)})"
        return fall_back(builder, pagename, what, theme_suppress, args, kwargs)
    answers = build_state(builder.env, SuppressAnswers).answers
    key = (section_page, startdepth, arguments)
    if key not in answers:
        answers[key] = theme_suppress(*args, **kwargs)
    return answers[key]
