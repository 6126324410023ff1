"""pydata-sphinx-theme's header links, the theme's own HTML reused on the
pages it is the same for (see :mod:`reprodocs.navigation.pydata`, which
serves the page context's ``generate_header_nav_html``).

The theme writes them anew on each page, walking a parent map of the whole
site that it builds anew (Sphinx's ``_get_toctree_ancestors``); what it
writes depends on the page only through the page's top-level section (the
link marked active), the link to the page itself (only a page the header
lists), the links' paths (relative to the page's directory) and the
dropdown's id (numbered per call on the page). The first page of each such
key gets the theme's own, the second is compared with it; on a difference
the key's pages get the theme's own from then on, and the log says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sphinx import addnodes

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state
from reprodocs.navigation import outcomes
from reprodocs.navigation.toctree import build_facts, toctree_ancestors

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment

#: (the page's directory, its top-level section, the page if the header
#: links to it, the external links, the arguments, the call on the page)
_HeaderKey = tuple[str, str | None, str | None, str, tuple[Any, ...], int]


@dataclass
class PydataHeaders:
    """Per build: the theme's header links, by what they depend on."""

    #: By key; None where two pages differed (the theme's own).
    headers: dict[_HeaderKey, str | None] = field(default_factory=dict)
    #: The keys whose header links a second page compared.
    compared: set[_HeaderKey] = field(default_factory=set)
    #: The pages the root document's toctrees list (the header's links).
    header_pages: frozenset[str] | None = None


def page_header(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    context: dict[str, Any],
    theme_header: Callable[..., Any],
    calls: Iterator[int],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """The page context's ``generate_header_nav_html(...)``: the theme's own
    HTML, reused on the pages of the same key."""
    call = next(calls)
    try:
        arguments = (args, tuple(sorted(kwargs.items())))
        hash(arguments)
    except TypeError:
        return theme_header(*args, **kwargs)  # which raises as the theme does
    env = builder.env
    if builder.config.root_doc not in env.tocs:
        return theme_header(*args, **kwargs)  # which raises as the theme does
    key = _key(builder, pagename, context, arguments, call)
    state = build_state(env, PydataHeaders)
    if key not in state.headers:
        html = theme_header(*args, **kwargs)
        if isinstance(html, str):
            state.headers[key] = html
        return html
    html = state.headers[key]
    if html is not None and key in state.compared:
        return html
    theirs = theme_header(*args, **kwargs)
    state.compared.add(key)
    if theirs == html or html is None:
        return theirs
    state.headers[key] = None
    outcomes.log_once(
        env,
        "header",
        __(
            "reprodocs.navigation: pydata-sphinx-theme's header links on %s differ from "
            "those of another page of the same directory and section; on such pages they "
            "are the theme's own"
        ),
        pagename,
    )
    return theirs


def _key(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    context: dict[str, Any],
    arguments: tuple[Any, ...],
    call: int,
) -> _HeaderKey:
    env = builder.env
    state = build_state(env, PydataHeaders)
    if state.header_pages is None:
        state.header_pages = _header_pages(env, builder.config.root_doc)
    top = toctree_ancestors(build_facts(builder).parent_of, pagename)[-1:]
    return (
        builder.get_target_uri(pagename).rpartition("/")[0],
        top[0] if top else None,
        pagename if pagename in state.header_pages else None,
        repr(context.get("theme_external_links")),
        arguments,
        call,
    )


def _header_pages(env: BuildEnvironment, root_doc: str) -> frozenset[str]:
    """The pages the root document's toctrees list, as the theme's header
    links them (``self`` is the root document)."""
    return frozenset(
        toctree["parent"] if page == "self" else page
        for toctree in env.tocs[root_doc].findall(addnodes.toctree)
        for _title, page in toctree["entries"]
    )
