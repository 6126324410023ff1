"""pydata-sphinx-theme's sidebar in linear time (see :mod:`reprodocs.navigation`).

pydata-sphinx-theme, from 0.15.4 (the base of pytorch_sphinx_theme2 0.4.13)
to 0.24.0 (``KNOWN_VERSIONS``), never asks for ``toctree()`` for its
sidebar. On every page, the page context's
``generate_toctree_html("sidebar", ...)`` finds the page's top-level section
(walking a parent map it builds anew over every toctree of the site), deep-copies
the section page's table of contents, resolves each of its toctrees with
Sphinx's ``TocTree.resolve``, renders them and edits the HTML with
BeautifulSoup: ``active`` beside ``current``, links to sections removed,
Bootstrap classes on the top lists, the lists of an entry put in a
``<details>`` with a ``<summary>``, opened down to ``show_nav_level`` and along
the page's branch; with ``show_nav_level=0``, each captioned toctree is made a
part of its own. Then ``str()`` of the soup goes into the page. Each page costs
the size of its section. From 0.21.0, when not collapsing, the theme keeps
the first soup of each directory and section and, for the next page, moves
the current page's marks in it: each page still costs a search through the
whole section's soup and its ``str()``. ``suppress_sidebar_toctree``, asked on every page,
walks the parent map again and, unless ``includehidden``, resolves the
section once more.

Here each section is resolved once per build and option set, by Sphinx's own
code and for no page in particular, as :mod:`reprodocs.navigation.toctree`
resolves the global menu (and with its model of it); each link and caption is
rendered once by the builder, then written once as BeautifulSoup writes it.
A page's sidebar is then written from that model: the page's branch marked as
Sphinx marks it and as the theme's soup edits mark it, entries pruned as
Sphinx prunes them, links made relative to the page, the parts off the page's
branch shared by the pages of a directory. ``suppress_sidebar_toctree`` is the
theme's own answer for the first page of each section, kept for the others.

What is served: ``generate_toctree_html("sidebar", startdepth,
show_nav_level, maxdepth=..., collapse=..., titles_only=...,
includehidden=...)`` for the html and dirhtml builders, with any
``startdepth`` from 1, and with 0 (the whole site, which the theme takes from
the page's ``toctree()``) where ``toctree()`` is this extension's; every
other call, a pydata-sphinx-theme version this module does not know, and
pages below a document whose table of contents holds ``only`` nodes (as for
``toctree()``) get the theme's own function, and the build log says so once.
Two pages of each section and option set are compared with the theme's own
sidebar (``SELF_CHECK``): the first whose own link the sidebar marks current
and the first it does not list; on a difference the theme's own is used for
that section and options from then on, and the log says so. Two pages each:
the theme's own sidebar of a section costs what that section costs (on
PyTorch's API section, over a second), and the tests compare every page.
"""

from __future__ import annotations

import array
import functools
import itertools
import re
import sys
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from sphinx import addnodes
from sphinx.util import logging

from reprodocs.base import __version__
from reprodocs.base.state import build_state, new_build_state
from reprodocs.navigation.pytorch_sphinx_theme2 import remembering
from reprodocs.navigation.serving import page_toctree, renders_html_menu
from reprodocs.navigation.toctree import (
    UNMARKED_DIRECTORIES,
    _Item,
    _Link,
    _List,
    _marks,
    _Menu,
    _prunes,
    _resolved_menu,
    parent_map,
    resolve_into,
    whole_copies_differ,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

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

#: Whether two pages of each section and option set (see ``page_sidebar``)
#: are also written by the theme's own function and compared (the tests turn it off, to compare
#: the extension's own sidebar on every page).
SELF_CHECK = True

#: What ``add_collapse_checkboxes`` puts before an entry's lists.
_TOGGLE = (
    '<span class="toctree-toggle" role="presentation">'
    '<i class="fa-solid fa-chevron-down"></i></span>'
)
_SUMMARY = f"<summary>{_TOGGLE}</summary>"

#: (ancestor, show_nav_level, collapse, maxdepth, titles_only, includehidden)
_Key = tuple[str, int, bool, int, bool, bool]
#: (the page's directory, its top-level section, the page if the header
#: links to it, the external links, the arguments, the call on the page)
_HeaderKey = tuple[str, str | None, str | None, str, tuple[Any, ...], int]


def setup(app: Sphinx) -> ExtensionMetadata:
    # After pydata-sphinx-theme's add_toctree_functions (priority 500).
    app.connect("html-page-context", serve_pydata_sidebar, priority=510)
    app.connect("env-get-updated", forget_sidebars)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


@dataclass
class PydataSidebars:
    """Per build: what the sidebars of pydata-sphinx-theme are made from."""

    #: Each document's toctree parent, the last one Sphinx finds (as the
    #: theme's _get_toctree_ancestors finds it on every call).
    parent_of: dict[str, str] | None = None
    #: How many documents' addresses are in each directory.
    directories: Counter[str] | None = None
    #: See ``_Menu.whole_copies_differ``.
    whole_copies_differ: set[str] | None = None
    #: The resolved sections, by (section page, titles_only, includehidden).
    sections: dict[tuple[str, bool, bool], _Section] = field(default_factory=dict)
    #: The theme's suppress_sidebar_toctree, by section page and arguments.
    suppressed: dict[tuple[str, int, frozenset[tuple[str, Any]]], Any] = field(default_factory=dict)
    #: The sections and options whose first page was compared, with whether
    #: that page's own link was marked current.
    checked: set[tuple[_Key, bool]] = field(default_factory=set)
    #: The theme's header links, by what they depend on (``_HeaderKey``);
    #: None where two pages differed (the theme's own).
    headers: dict[_HeaderKey, str | None] = field(default_factory=dict)
    #: The keys whose header links a second page compared.
    headers_compared: set[_HeaderKey] = field(default_factory=set)
    #: The pages the root document's toctrees list (the header's links).
    header_pages: frozenset[str] | None = None
    #: The sections and options whose sidebar differed: the theme's own.
    differs: set[_Key] = field(default_factory=set)
    #: What the log has told of.
    logged: set[str] = field(default_factory=set)
    #: The theme's version, once looked up.
    version: str | None = None

    def ancestors(self, env: BuildEnvironment, docname: str) -> list[str]:
        """Sphinx's ``_get_toctree_ancestors``, in its order: the page and
        the documents up its toctree chain, without the root."""
        if self.parent_of is None:
            self.parent_of = parent_map(env)
        ancestors: list[str] = []
        seen: set[str] = set()
        while docname in self.parent_of and docname not in seen:
            ancestors.append(docname)
            seen.add(docname)
            docname = self.parent_of[docname]
        return ancestors

    def ancestor(self, env: BuildEnvironment, docname: str, startdepth: int) -> str | None:
        """The theme's ``_get_ancestor_pagename``: the section page
        *startdepth* levels below the root, None if the page has none."""
        ancestors = self.ancestors(env, docname)
        return ancestors[-startdepth] if len(ancestors) >= startdepth else None


#: Where pydata-sphinx-theme 0.21.0 and later keep the sidebars they write,
#: "per build" but on the application, so for its whole life.
THEME_SIDEBAR_CACHE = "_pst_sidebar_toctree_cache"


def forget_sidebars(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: forget the sections of the last build, and the
    sidebars the theme cached in it. The theme never forgets its own: an
    application that builds twice (Sphinx's test fixtures, sphinx-autobuild)
    would get the first build's sidebars from the theme wherever the theme
    writes them (its own pages, the self-check's comparisons, which would
    then differ from ours and give every page the stale one). Its private
    attribute is the only way; the tests run every known version with it."""
    new_build_state(env, PydataSidebars)
    if hasattr(app, THEME_SIDEBAR_CACHE):
        delattr(app, THEME_SIDEBAR_CACHE)
    return []


def serve_pydata_sidebar(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``, after pydata-sphinx-theme's: the page's sidebar
    functions, served from the sections resolved once."""
    theme_sidebar = context.get("generate_toctree_html")
    theme_suppress = context.get("suppress_sidebar_toctree")
    if not (_is_pydata(theme_sidebar) and _is_pydata(theme_suppress)):
        return
    state = build_state(app.env, PydataSidebars)
    if state.version is None:
        state.version = _pydata_version()
    if state.version not in KNOWN_VERSIONS:
        _log_once(
            state,
            "version",
            "reprodocs.navigation: pydata-sphinx-theme %s is not a version it knows (%s): "
            "its sidebar is the theme's own, in the time the theme takes",
            state.version,
            ", ".join(KNOWN_VERSIONS),
        )
        return
    if not renders_html_menu(app.builder):
        _log_once(
            state,
            "builder",
            "reprodocs.navigation: pydata-sphinx-theme's sidebar with the %s builder is the "
            "theme's own, in the time the theme takes",
            app.builder.name,
        )
        return
    builder = cast("StandaloneHTMLBuilder", app.builder)  # checked just above
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


def _log_once(state: PydataSidebars, what: str, message: str, *args: object) -> None:
    if what not in state.logged:
        state.logged.add(what)
        logger.info(message, *args)


def _theme_own(
    state: PydataSidebars,
    pagename: str,
    what: str,
    theme_function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """The theme's own function, where this module does not give the same;
    the build log says so, once per build and kind."""
    _log_once(
        state,
        what,
        "reprodocs.navigation: pydata-sphinx-theme's %s on %s (and any other such page) "
        "is the theme's own, in the time the theme takes",
        what,
        pagename,
    )
    return theme_function(*args, **kwargs)


def _sidebar_arguments(
    kind: Any, startdepth: Any = 1, show_nav_level: Any = 1, **kwargs: Any
) -> tuple[Any, Any, Any, dict[str, Any]]:
    """``generate_toctree_html``'s signature."""
    return kind, startdepth, show_nav_level, kwargs


def _suppress_arguments(startdepth: Any = 1, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """``suppress_sidebar_toctree``'s signature."""
    return startdepth, kwargs


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
    state = build_state(builder.env, PydataSidebars)
    try:
        kind, startdepth, show_nav_level, options = _sidebar_arguments(*args, **kwargs)
        hash(tuple(options.values()))  # the theme's functools.cache needs it
    except TypeError:
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    what = _unserved(kind, startdepth, show_nav_level, options, context)
    if what is not None:
        return _theme_own(state, pagename, what, theme_sidebar, args, kwargs)
    try:
        maxdepth = _maxdepth(startdepth, options)
    except (TypeError, ValueError):
        return theme_sidebar(*args, **kwargs)  # which raises as the theme does
    collapse = bool(options.get("collapse", True))
    titles_only = bool(options.get("titles_only", False))
    includehidden = bool(options.get("includehidden", False))
    if startdepth == 0:
        ancestor = ""  # the whole site: the page's toctree() menu
    else:
        found = state.ancestor(builder.env, pagename, startdepth)
        if found is None or found not in builder.env.tocs:
            return theme_sidebar(*args, **kwargs)  # which raises as the theme does
        ancestor = found
    key: _Key = (ancestor, show_nav_level, collapse, maxdepth, titles_only, includehidden)
    if key in state.differs:
        return theme_sidebar(*args, **kwargs)
    section = _section(builder, state, ancestor, titles_only, includehidden)
    if section.unserved:
        return _theme_own(state, pagename, section.unserved, theme_sidebar, args, kwargs)
    leading_to_page = set(state.ancestors(builder.env, pagename))
    if not leading_to_page.isdisjoint(section.menu.whole_copies_differ):
        what = "sidebar below a page with `only` in its table of contents"
        return _theme_own(state, pagename, what, theme_sidebar, args, kwargs)
    aria_current = KNOWN_VERSIONS[state.version or ""]
    page = _page(
        builder, section, pagename, leading_to_page, collapse, show_nav_level, aria_current
    )
    html = page.html(maxdepth)
    # Both kinds of page are compared: one whose own link the sidebar marks
    # current, and one it does not list (a section's root page, often the
    # first written, whose sidebar has no marked link).
    check = (key, bool(page.current))
    if SELF_CHECK and check not in state.checked:
        state.checked.add(check)
        theirs = theme_sidebar(*args, **kwargs)
        if str(theirs) != html:
            state.differs.add(key)
            logger.info(
                "reprodocs.navigation: pydata-sphinx-theme's sidebar on %s differs from the "
                "theme's own; on the pages of its section (%s) with these options it is the "
                "theme's own, in the time the theme takes",
                pagename,
                ancestor or "the whole site",
            )
            return theirs
    return html


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
    state = build_state(builder.env, PydataSidebars)
    try:
        startdepth, options = _suppress_arguments(*args, **kwargs)
        arguments = frozenset(options.items())
    except TypeError:
        return theme_suppress(*args, **kwargs)
    if type(startdepth) is not int or startdepth < 1:
        what = f"suppress_sidebar_toctree(startdepth={startdepth!r})"
        return _theme_own(state, pagename, what, theme_suppress, args, kwargs)
    ancestor = state.ancestor(builder.env, pagename, startdepth)
    if ancestor is None:
        return True
    if options.get("includehidden", False):
        return False
    if not options.keys() <= OPTIONS:
        unknown = ", ".join(f"{name}=..." for name in sorted(options.keys() - OPTIONS))
        what = f"suppress_sidebar_toctree({unknown})"
        return _theme_own(state, pagename, what, theme_suppress, args, kwargs)
    key = (ancestor, startdepth, arguments)
    if key not in state.suppressed:
        state.suppressed[key] = theme_suppress(*args, **kwargs)
    return state.suppressed[key]


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
    HTML, reused on the pages it is the same for. The theme writes it anew on
    each page, walking a parent map of the whole site that it builds anew
    (Sphinx's ``_get_toctree_ancestors``); what it writes depends on the page
    only through the page's top-level section (the link marked active), the
    link to the page itself (only a page the header lists), the links' paths
    (relative to the page's directory) and the dropdown's id (numbered per
    call on the page). The first page of each such key gets the theme's own,
    the second is compared with it; on a difference the key's pages get the
    theme's own from then on, and the log says so."""
    state = build_state(builder.env, PydataSidebars)
    call = next(calls)
    try:
        arguments = (args, tuple(sorted(kwargs.items())))
        hash(arguments)
    except TypeError:
        return theme_header(*args, **kwargs)  # which raises as the theme does
    env = builder.env
    if builder.config.root_doc not in env.tocs:
        return theme_header(*args, **kwargs)  # which raises as the theme does
    if state.header_pages is None:
        state.header_pages = _header_pages(env, builder.config.root_doc)
    top = state.ancestors(env, pagename)[-1:]
    key: _HeaderKey = (
        builder.get_target_uri(pagename).rpartition("/")[0],
        top[0] if top else None,
        pagename if pagename in state.header_pages else None,
        repr(context.get("theme_external_links")),
        arguments,
        call,
    )
    if key not in state.headers:
        html = theme_header(*args, **kwargs)
        if isinstance(html, str):
            state.headers[key] = html
        return html
    html = state.headers[key]
    if html is not None and key in state.headers_compared:
        return html
    theirs = theme_header(*args, **kwargs)
    state.headers_compared.add(key)
    if theirs == html or html is None:
        return theirs
    state.headers[key] = None
    _log_once(
        state,
        "header",
        "reprodocs.navigation: pydata-sphinx-theme's header links on %s differ from "
        "those of another page of the same directory and section; on such pages they "
        "are the theme's own",
        pagename,
    )
    return theirs


def _header_pages(env: BuildEnvironment, root_doc: str) -> frozenset[str]:
    """The pages the root document's toctrees list, as the theme's header
    links them (``self`` is the root document)."""
    return frozenset(
        toctree["parent"] if page == "self" else page
        for toctree in env.tocs[root_doc].findall(addnodes.toctree)
        for _title, page in toctree["entries"]
    )


# -- A section, resolved once per build --------------------------------------------------


@dataclass(eq=False)
class _Section:
    """A section page's toctrees, resolved for no page in particular (the
    model of :mod:`reprodocs.navigation.toctree`), and its links and captions
    as BeautifulSoup writes them."""

    menu: _Menu
    #: The inside of each link and its end tag, by the link's id.
    inner: dict[int, str] = field(default_factory=dict)
    #: Each caption's ``<p>``, and the whole caption with the text after it,
    #: by its list's id.
    captions: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: What makes every page of the section the theme's own ("" if nothing).
    unserved: str = ""
    #: The items of a list as written where none is marked (see
    #: ``toctree._Menu.unmarked``): by directory, then by (list, collapse,
    #: maxdepth, show_nav_level).
    unmarked: OrderedDict[str, dict[tuple[int, bool, int, int], tuple[str, array.array[int]]]] = (
        field(default_factory=OrderedDict)
    )

    def unmarked_in(
        self, directory: str
    ) -> dict[tuple[int, bool, int, int], tuple[str, array.array[int]]]:
        if directory in self.unmarked:
            self.unmarked.move_to_end(directory)
        else:
            self.unmarked[directory] = {}
            if len(self.unmarked) > UNMARKED_DIRECTORIES:
                self.unmarked.popitem(last=False)
        return self.unmarked[directory]


def _section(
    builder: StandaloneHTMLBuilder,
    state: PydataSidebars,
    ancestor: str,
    titles_only: bool,
    includehidden: bool,
) -> _Section:
    key = (ancestor, titles_only, includehidden)
    if key not in state.sections:
        if ancestor:
            menu = _resolve_section(builder, state, ancestor, titles_only, includehidden)
        else:
            # The whole site: the model the page's toctree() is served from.
            menu = _resolved_menu(builder, titles_only=titles_only, includehidden=includehidden)
        state.sections[key] = _as_soup_writes(menu)
    return state.sections[key]


def _resolve_section(
    builder: StandaloneHTMLBuilder,
    state: PydataSidebars,
    ancestor: str,
    titles_only: bool,
    includehidden: bool,
) -> _Menu:
    """What the theme's ``get_nonroot_toctree`` resolves, for no page in
    particular and not yet pruned to a depth (as ``toctree._resolve`` does for
    the root document)."""
    env = builder.env
    state.ancestors(env, ancestor)  # the parent map, made once
    if state.whole_copies_differ is None:
        state.whole_copies_differ = whole_copies_differ(env)
    menu = _Menu(
        lists=[],
        links_to={},
        parent_of=state.parent_of or {},
        whole_copies_differ=state.whole_copies_differ,
    )
    # As the theme: the toctrees of a copy of the section page's table of
    # contents (resolving one moves its caption's translation id).
    toctrees = env.tocs[ancestor].deepcopy().findall(addnodes.toctree)
    return resolve_into(menu, builder, toctrees, titles_only, includehidden)


def _as_soup_writes(menu: _Menu) -> _Section:
    """The section, with its links and captions as BeautifulSoup writes them."""
    section = _Section(menu)
    if not menu.renders_as_sphinx:
        section.unserved = "sidebar with a link the builder writes with other attributes"
        return section
    for top in menu.lists:
        if top.caption:
            caption = _soup_caption(top.caption)
            if caption is None:
                section.unserved = "sidebar with a caption of other markup"
                return section
            section.captions[id(top)] = caption
    for item in _items(menu.lists):
        if item.link is None:
            section.unserved = "sidebar with an entry without a link"
            return section
        inner = _soup_inner(item.link.inner)
        if inner is None:
            section.unserved = "sidebar with a link of other markup"
            return section
        section.inner[id(item.link)] = inner
    return section


def _items(lists: list[_List]) -> Iterator[_Item]:
    for ul in lists:
        for item in ul.items:
            yield item
            yield from _items(item.lists)


@functools.lru_cache(maxsize=4096)
def _soup_inner(inner: str) -> str | None:
    """A link's inside and end tag, as rendered by the builder, as the
    theme's ``str(soup)`` writes them (entities, attribute order, quoting);
    None if the HTML is not one link."""
    from bs4 import BeautifulSoup, Tag

    soup = BeautifulSoup(f'<a class="reference internal" href="#">{inner}', "html.parser")
    if len(soup.contents) != 1 or not isinstance(soup.contents[0], Tag):
        return None
    return soup.contents[0].decode_contents() + "</a>"


def _soup_caption(caption: str) -> tuple[str, str] | None:
    """A caption as the theme's ``str(soup)`` writes it: its ``<p>`` alone,
    and with the text after it; None if it is not one ``<p class="caption">``."""
    from bs4 import BeautifulSoup, Tag

    soup = BeautifulSoup(caption, "html.parser")
    first = soup.contents[0] if soup.contents else None
    rest = soup.contents[1:]
    if not (
        isinstance(first, Tag)
        and first.name == "p"
        and "caption" in first.get_attribute_list("class")
    ):
        return None
    if any(isinstance(node, Tag) for node in rest):
        return None
    whole = soup.decode()
    element = first.decode()
    return (element, whole) if whole.startswith(element) else None


@functools.lru_cache(maxsize=65536)
def _quoted(href: str) -> str:
    """An ``href`` value as BeautifulSoup writes it (``&``, ``<``, ``>`` as
    entities; quoted with ``'`` if it holds ``"``, unless it holds both)."""
    if not _SPECIAL.search(href):
        return f'"{href}"'
    from bs4 import BeautifulSoup

    tag = str(BeautifulSoup("", "html.parser").new_tag("a", attrs={"href": href}))
    return tag.removeprefix("<a href=").removesuffix("></a>")


_SPECIAL = re.compile("[&<>\"']")


# -- A page's sidebar ---------------------------------------------------------------------


def _page(
    builder: StandaloneHTMLBuilder,
    section: _Section,
    pagename: str,
    leading_to_page: set[str],
    collapse: bool,
    show_nav_level: int,
    aria_current: bool,
) -> _SidebarPage:
    # As Sphinx: when collapsing, a document's entry keeps its lists only if
    # it leads to the page (and has no :tocdepth:).
    ancestors = leading_to_page if collapse else None
    current, expanded, marked = _marks(section.menu, pagename, ancestors)
    return _SidebarPage(
        builder,
        builder.get_target_uri(pagename),
        section,
        collapse,
        show_nav_level,
        aria_current,
        current,
        expanded,
        marked,
        ancestors,
    )


@functools.cache
def _level(classes: str) -> int | None:
    """N of an item's ``toctree-lN`` class."""
    match = re.search(r"(?:^|\s)toctree-l(\d+)(?:\s|$)", classes)
    return int(match.group(1)) if match else None


@dataclass
class _SidebarPage:
    builder: StandaloneHTMLBuilder
    page_uri: str  #: the page's address, relative to the output root
    section: _Section
    collapse: bool
    show_nav_level: int
    #: Whether the current page's link says ``aria-current="page"``.
    aria_current: bool
    current: set[int] = field(default_factory=set)  #: ids Sphinx gives the class "current"
    expanded: set[int] = field(default_factory=set)  #: ids Sphinx marks "iscurrent"
    #: The marked items, by their list's id.
    marked: dict[int, list[_Item]] = field(default_factory=dict)
    #: The documents leading to the page (when collapsing).
    ancestors: set[str] | None = None
    #: Whether an ``<li class="current ...">`` was written since last reset.
    wrote_current: bool = False

    def html(self, maxdepth: int) -> str:
        """What ``str(generate_toctree_html("sidebar", ...))`` is."""
        tops: list[tuple[_List, str, bool]] = []
        for top in self.section.menu.lists:
            if not top.shown:
                continue
            self.wrote_current = False
            # As Sphinx: the toctree's own :maxdepth: unless one is asked for.
            html = "".join(self.list_html(top, 1, maxdepth or top.toctree_maxdepth, top=True))
            tops.append((top, html, self.wrote_current))
        captions = self.section.captions
        if self.show_nav_level == 0 and any(id(top) in captions for top, _, _ in tops):
            # The theme's parts: each captioned toctree in an item of a new
            # list, its caption in the summary (the others are left out).
            parts = ['<ul class="list-caption">']
            for top, html, current in tops:
                if id(top) in captions:
                    parts += [
                        '<li class="toctree-l0 has-children">',
                        "<details open>" if current else "<details>",
                        f"<summary>{captions[id(top)][0]}{_TOGGLE}</summary>",
                        html.removesuffix("\n"),  # the newline is the list's sibling
                        "</details></li>",
                    ]
            parts.append("</ul>")
            return "".join(parts)
        return "".join(
            (captions[id(top)][1] if id(top) in captions else "") + html for top, html, _ in tops
        )

    def list_html(self, ul: _List, depth: int, maxdepth: int, top: bool = False) -> Iterator[str]:
        if not ul.shown:
            return
        classes = "current" if id(ul) in self.current else ul.compact
        if top:
            classes = f"{classes} nav bd-sidenav" if classes else "nav bd-sidenav"
        yield f'<ul class="{classes}">\n' if classes else "<ul>\n"
        marked = self.marked.get(id(ul), ())
        shared = self.unmarked_items(ul, depth, maxdepth)
        if shared is None:
            for item in ul.items:
                yield from self.item_html(item, depth, maxdepth)
        else:
            # The shared HTML, with this page's own items (its branch) spliced in.
            html, offsets = shared
            start = 0
            for item in sorted(marked, key=lambda item: item.position):
                yield html[start : offsets[item.position]]
                yield from self.item_html(item, depth, maxdepth)
                start = offsets[item.position + 1]
            yield html[start:]
        yield "</ul>\n"

    def unmarked_items(
        self, ul: _List, depth: int, maxdepth: int
    ) -> tuple[str, array.array[int]] | None:
        """The list's items as on a page where none is marked, and where each
        starts: the same on every page whose address has the same directory
        (see ``toctree._PageContext.unmarked_items``)."""
        directory = self.page_uri.rpartition("/")[0]
        if _directories(self.builder)[directory] < 2:
            return None
        rendered = self.section.unmarked_in(directory)
        key = (id(ul), self.collapse, maxdepth, self.show_nav_level)
        if key not in rendered:
            nowhere = f"{directory}/\x00" if directory else "\x00"
            unmarked = _SidebarPage(
                self.builder,
                nowhere,
                self.section,
                self.collapse,
                self.show_nav_level,
                self.aria_current,
            )
            parts = ["".join(unmarked.item_html(item, depth, maxdepth)) for item in ul.items]
            offsets = array.array("Q", itertools.accumulate(map(len, parts), initial=0))
            rendered[key] = ("".join(parts), offsets)
        return rendered[key]

    def item_html(self, item: _Item, depth: int, maxdepth: int) -> Iterator[str]:
        link = cast("_Link", item.link)  # a section with a link-less entry is not served
        if link.anchor or (not link.internal and "#" in link.uri and link.uri != "#"):
            # The theme removes an entry whose link's address holds "#"
            # (a section's); the newline after it stays.
            yield "\n"
            return
        # Sphinx's _toctree_copy: a nested list is kept within maxdepth and,
        # when collapsing, only on the current branch.
        within = depth + 1 <= maxdepth or maxdepth <= 0
        on_branch = id(item) in self.expanded
        if on_branch and self.ancestors is not None and _prunes(item, self.ancestors):
            on_branch = False
        keeps = within and (not self.collapse or on_branch)
        lists = [ul for ul in item.lists if ul.shown] if keeps else []
        current = id(item) in self.current
        classes = item.classes.split()
        if current:
            classes += ["current", "active"]
            self.wrote_current = True
        if lists:
            classes.append("has-children")
        yield f'<li class="{" ".join(classes)}">' if classes else "<li>"
        yield self.link_html(link, id(link) in self.current)
        if lists:
            level = _level(item.classes)
            opened = current or (level is not None and level < self.show_nav_level)
            yield '<details open="open">' if opened else "<details>"
            yield _SUMMARY
            for ul in lists:
                yield from self.list_html(ul, depth + 1, maxdepth)
            yield "</details>"
        yield "</li>\n"

    def link_html(self, link: _Link, current: bool) -> str:
        kind = "reference internal" if link.internal else "reference external"
        href = link.href(self.builder, self.page_uri) or "#"
        if not current:
            return f'<a class="{kind}" href={_quoted(href)}>' + self.section.inner[id(link)]
        # BeautifulSoup writes attributes in alphabetical order.
        marks = 'aria-current="page" ' if self.aria_current else ""
        return (
            f'<a {marks}class="current {kind}" href={_quoted(href)}>' + self.section.inner[id(link)]
        )


def _directories(builder: StandaloneHTMLBuilder) -> Counter[str]:
    """How many documents' addresses are in each directory, once per build."""
    state = build_state(builder.env, PydataSidebars)
    if state.directories is None:
        state.directories = Counter(
            builder.get_target_uri(docname).rpartition("/")[0] for docname in builder.env.found_docs
        )
    return state.directories
