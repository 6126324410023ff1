"""furo's navigation tree in time independent of the site's size (see
:mod:`reprodocs.navigation`).

furo's ``html-page-context`` handler asks the page's ``toctree()`` for the
whole menu (served linearly by this extension), then hands its HTML to
``furo.navigation.get_navigation_tree``: BeautifulSoup parses it, adds a
checkbox, a label and an icon to every item holding a list (numbered in
document order), marks the last current item ``current-page`` and writes it
out again. Each page costs a parse of the whole menu, and the function's
``lru_cache(maxsize=None)``, keyed by a menu that differs on every page,
keeps every page's tree for the rest of the process.

Here furo's handler is given an empty menu to transform (a string it returns
at once), and its result is then replaced by the same tree derived from the
menu this extension resolved once per build (``reprodocs.navigation.toctree``):
each link's title is read by BeautifulSoup once per build, each item's
checkbox number is fixed (furo's tree holds every list whatever the page), the
items off the page's branch are written once per directory and the page
splices its own branch in, with furo's marks (``current``, ``current-page``,
``checked``). The menu furo's handler would have got is still derived for
each page, as ``toctree()`` serves it (a join of strings kept per directory):
it says whether the page's menu is the extension's or Sphinx's own, and it is
what the self-check below hands furo. Nothing of furo's is patched: only the
page's context is read and written, before and after furo's handler.

furo versions this module was not checked against get furo's own tree; so
do the pages Sphinx's own ``toctree()`` serves; and the first page of each
source directory is compared with furo's own tree, computed there as well:
on a difference furo's own is used from then on, for the rest of the build.
The build log says so once.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state
from reprodocs.navigation import outcomes, serving
from reprodocs.navigation.pages import PageWriter
from reprodocs.navigation.serving import page_toctree
from reprodocs.navigation.toctree import marks, resolved_menu

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from bs4.formatter import HTMLFormatter
    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder

    from reprodocs.navigation.registry import Registry
    from reprodocs.navigation.toctree import Menu, MenuItem, MenuList

#: The furo releases whose navigation tree this module writes (their
#: ``_compute_navigation_tree`` and ``get_navigation_tree`` read).
KNOWN_FURO = frozenset({"2025.12.19"})

#: Why a page's tree is furo's own: the page's menu is Sphinx's own, or not
#: one whose tree this module writes; a page's tree differed.
TREE_NOT_WRITTEN = "furo's tree of a menu reprodocs does not write"
TREE_DIFFERS = "furo's tree differing from furo's own"

#: The arguments furo's ``_compute_navigation_tree`` calls ``toctree()`` with.
FURO_TOCTREE: dict[str, Any] = {
    "collapse": False,
    "titles_only": True,
    "maxdepth": -1,
    "includehidden": True,
}


def setup_furo(app: Sphinx, registry: Registry) -> None:
    """``before_furo`` runs after ``reprodocs.navigation`` serves
    ``toctree()`` (priority 400) and before furo's handler (the default, 500);
    ``after_furo`` after furo's."""
    app.connect("html-page-context", before_furo, priority=450)
    app.connect("html-page-context", after_furo, priority=501)
    registry.add(FuroTrees)


@dataclass
class FuroTrees:
    """Per build: furo's tree for the menu resolved, and whether a page
    differed from furo's own."""

    tree: _FuroMenu | None = None
    #: True once a page differed from furo's own: furo's own from then on.
    differs: bool = False


# -- Around furo's handler ----------------------------------------------------------------


@dataclass(eq=False)
class _FuroAsks:
    """The page's ``toctree()`` while furo's handler runs: the first call with
    furo's arguments gets an empty menu (which furo's ``get_navigation_tree``
    returns as it is, without parsing or caching anything new); every other
    call, the served ``toctree()``."""

    served: Callable[..., str]
    asked: bool = False

    def __call__(self, **kwargs: Any) -> str:
        if not self.asked and kwargs == FURO_TOCTREE:
            self.asked = True
            return ""
        return self.served(**kwargs)


def before_furo(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``, before furo's handler."""
    furo = app.extensions.get("furo")
    if furo is None:
        return
    served = context.get("toctree")
    if not (isinstance(served, functools.partial) and served.func is page_toctree):
        # Not a builder whose menu the extension serves (singlehtml...).
        if served is not None:
            outcomes.fall_back(
                app.env,
                pagename,
                f"furo's tree with the {app.builder.name} builder",
                __(
                    "reprodocs.navigation: furo's navigation tree with the %s builder is "
                    "furo's own, in the time furo takes"
                ),
                app.builder.name,
            )
        return
    outcomes.recognise(app.env, f"furo {furo.version}")
    if furo.version not in KNOWN_FURO:
        outcomes.fall_back(
            app.env,
            pagename,
            "a furo version it does not know",
            __(
                "reprodocs.navigation: furo's navigation tree is furo's own, in the time furo "
                "takes: furo %s is not a version reprodocs knows (%s)"
            ),
            furo.version,
            ", ".join(sorted(KNOWN_FURO)),
        )
        return
    if build_state(app.env, FuroTrees).differs:
        outcomes.record_fallback(app.env, pagename, TREE_DIFFERS)
        return
    context["toctree"] = _FuroAsks(served)


def after_furo(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``, after furo's handler: the page's tree in place of
    the empty one furo made."""
    asks = context.get("toctree")
    if not isinstance(asks, _FuroAsks):
        return
    served = asks.served
    context["toctree"] = served
    if not (asks.asked and context.get("furo_navigation_tree") == ""):
        # furo's handler did not ask (or ran before before_furo): its tree,
        # if it made one, is its own.
        outcomes.fall_back(
            app.env,
            pagename,
            "furo's handler not asking for the menu",
            __(
                "reprodocs.navigation: furo's navigation tree on %s (and any other such page) "
                "is furo's own: furo's handler did not ask for the menu where reprodocs "
                "expected it"
            ),
            pagename,
        )
        return
    builder = cast("StandaloneHTMLBuilder", app.builder)  # served: html or dirhtml
    context["furo_navigation_tree"] = navigation_tree(builder, pagename, served)


def navigation_tree(
    builder: StandaloneHTMLBuilder, pagename: str, served: Callable[..., str]
) -> str:
    """The page's tree: written here, or furo's own where this module does
    not write the same."""
    env = builder.env
    # The menu furo's handler would have got from the served toctree() (None
    # where the page's is Sphinx's own): furo's tree is served on the same
    # pages, and the self-check transforms it. Looked up where page_toctree
    # looks it up, so that both are the one function.
    menu: str | None = serving.menu_html(builder, pagename, **FURO_TOCTREE)
    tree = None if menu is None else page_tree(builder, pagename)
    if menu is None or tree is None:
        message = __(
            "reprodocs.navigation: furo's navigation tree on %s (and any other such page) is "
            "furo's own, in the time furo takes"
        )
        outcomes.fall_back(env, pagename, TREE_NOT_WRITTEN, message, pagename)
        # furo's own, as its handler would have made it (cache and all).
        return _furo_function("get_navigation_tree")(
            served(**FURO_TOCTREE) if menu is None else menu
        )
    if build_state(env, outcomes.Outcomes).claim_check(("furo", pagename.rpartition("/")[0])):
        # furo's own, without its cache (which would keep it).
        own = _furo_function("get_navigation_tree", uncached=True)(menu)
        if own != tree:
            build_state(env, FuroTrees).differs = True
            message = __(
                "reprodocs.navigation: furo's navigation tree is furo's own from %s on, in the "
                "time furo takes: reprodocs' tree for that page is not the same"
            )
            outcomes.fall_back(env, pagename, TREE_DIFFERS, message, pagename)
            return own
    outcomes.served(env, pagename)
    return tree


def _furo_function(name: str, *, uncached: bool = False) -> Callable[[str], str]:
    function = getattr(importlib.import_module("furo.navigation"), name)
    if uncached:
        function = getattr(function, "__wrapped__", function)
    return cast("Callable[[str], str]", function)


# -- furo's tree, from the resolved menu ---------------------------------------------------


def page_tree(builder: StandaloneHTMLBuilder, pagename: str) -> str | None:
    """What furo's ``get_navigation_tree`` makes of the menu
    ``toctree.menu_html`` gives *pagename* with furo's arguments (where it
    gives one); None where furo's tree is not one this module writes."""
    menu = resolved_menu(builder, titles_only=True, includehidden=True)
    if not menu.lists:
        return ""
    state = build_state(builder.env, FuroTrees)
    if state.tree is None or state.tree.menu is not menu:
        state.tree = _FuroMenu.of(menu)
    tree = state.tree
    if not tree.written:
        return None
    # Not collapsing, every list is shown whatever the page: only the marks
    # and the links' addresses differ from page to page.
    current, _expanded, marked = marks(menu, pagename, None)
    current_items = [item for items in marked.values() for item in items if id(item) in current]
    # furo's "current-page": the last item marked current, in document order.
    last = max(current_items, key=lambda item: tree.order[id(item)], default=None)
    page = _FuroPage.for_page(builder, menu, pagename, False, tree=tree, last_current=last)
    return "".join(part for top in menu.lists for part in page.list_html(top, 1, -1))


@dataclass(eq=False)
class _FuroMenu:
    """furo's tree for one resolved menu (``toctree()`` with furo's
    arguments), for no page in particular: each link's title as
    BeautifulSoup writes it, each caption, each item's checkbox."""

    menu: Menu
    #: The ``<a>``'s content and end tag, as BeautifulSoup writes them, by link.
    titles: dict[int, str] = field(default_factory=dict)
    #: The text of the ``<a>``, by link.
    texts: dict[int, str] = field(default_factory=dict)
    captions: dict[int, str] = field(default_factory=dict)  #: by list
    #: The checkbox and label after an item's first child, unchecked and
    #: checked, by item holding a list (as furo numbers them).
    switches: dict[int, tuple[str, str]] = field(default_factory=dict)
    order: dict[int, int] = field(default_factory=dict)  #: by item: its place in the tree
    #: False when furo's tree is one this module does not write (an item
    #: holding lists but no link at all: furo fails on it).
    written: bool = True

    @classmethod
    def of(cls, menu: Menu) -> _FuroMenu:
        from bs4 import BeautifulSoup  # furo's own dependency

        tree = cls(menu)
        for ul, item in _walk(menu.lists):
            if ul is not None:
                if ul.caption:
                    tree.captions[id(ul)] = str(BeautifulSoup(ul.caption, "html.parser"))
                continue
            assert item is not None
            tree.order[id(item)] = len(tree.order)
            if item.link is not None:
                # As furo's parse reads the title: in an <a> of its own.
                a = BeautifulSoup("<a>" + item.link.inner, "html.parser").a
                assert a is not None
                tree.titles[id(item.link)] = a.decode_contents() + "</a>"
                tree.texts[id(item.link)] = a.get_text()
        for _ul, item in _walk(menu.lists):
            if item is not None and any(ul.shown for ul in item.lists):
                text = tree.first_text(item)
                if text is None:
                    tree.written = False
                    continue
                number = len(tree.switches) + 1
                tree.switches[id(item)] = (
                    _switch(number, text, False),
                    _switch(number, text, True),
                )
        return tree

    def first_text(self, item: MenuItem) -> str | None:
        """The text of the first link in *item* (furo's ``li.find("a").text``)."""
        if item.link is not None:
            return self.texts[id(item.link)]
        for ul in item.lists:
            if ul.shown:
                for child in ul.items:
                    if (text := self.first_text(child)) is not None:
                        return text
        return None


def _walk(lists: list[MenuList]) -> Iterator[tuple[MenuList | None, MenuItem | None]]:
    """The lists shown and their items, in document order."""
    for ul in lists:
        if ul.shown:
            yield ul, None
            for item in ul.items:
                yield None, item
                yield from _walk(item.lists)


def _switch(number: int, text: str, checked: bool) -> str:
    """furo's checkbox and label, as BeautifulSoup writes them (attributes
    sorted, values escaped and quoted by its "minimal" formatter)."""
    name = f"toctree-checkbox-{number}"
    return (
        f"<input aria-label={_attribute('Toggle navigation of ' + text)}"
        + (' checked=""' if checked else "")
        + f' class="toctree-checkbox" id="{name}" name="{name}" role="switch" type="checkbox"/>'
        + f'<label for="{name}"><span class="icon"><svg><use href="#svg-arrow-right"></use>'
        + "</svg></span></label>"
    )


def _attribute(value: str) -> str:
    """An attribute's value as BeautifulSoup writes it, quotes and all."""
    minimal = _minimal_formatter()
    return minimal.quoted_attribute_value(minimal.attribute_value(value))


@functools.cache
def _minimal_formatter() -> HTMLFormatter:
    """The formatter furo's ``str(soup)`` writes with."""
    from bs4.formatter import HTMLFormatter  # furo's own dependency

    return HTMLFormatter.REGISTRY["minimal"]


@dataclass(eq=False)
class _FuroPage(PageWriter):
    """furo's tree for one page: the menu not collapsing, written as furo
    writes it."""

    tree: _FuroMenu | None = None
    last_current: MenuItem | None = None

    def for_no_page(self, page_uri: str) -> _FuroPage:
        return dataclasses.replace(super().for_no_page(page_uri), last_current=None)

    def list_start(self, ul: MenuList, depth: int) -> str:
        caption = cast("_FuroMenu", self.tree).captions[id(ul)] if ul.caption else ""
        if id(ul) in self.current:
            return caption + '<ul class="current">\n'
        return caption + (f'<ul class="{ul.compact}">\n' if ul.compact else "<ul>\n")

    def item_html(self, item: MenuItem, depth: int, maxdepth: int) -> Iterator[str]:
        tree = cast("_FuroMenu", self.tree)
        current = id(item) in self.current
        classes = item.classes + (" current" if current else "")
        switches = tree.switches.get(id(item))
        if switches is not None:
            classes += " has-children"
        if item is self.last_current:
            classes += " current-page"
        yield f"<li class={_attribute(classes)}>"
        switch = "" if switches is None else switches[current]
        lists = [ul for ul in item.lists if ul.shown]
        # furo inserts the checkbox and its label after the item's first child.
        if item.link is not None:
            link = item.link
            if id(link) in self.current:
                classes = "current reference internal"
            else:
                classes = "reference internal" if link.internal else "reference external"
            href = link.href(self.builder, self.page_uri) or "#"
            yield f'<a class="{classes}" href={_attribute(href)}>'
            yield tree.titles[id(link)]
            yield switch
            for ul in lists:
                yield from self.list_html(ul, depth + 1, maxdepth)
        elif lists:
            yield from self.list_html(lists[0], depth + 1, maxdepth, end="</ul>")
            yield switch
            yield "\n"
            for ul in lists[1:]:
                yield from self.list_html(ul, depth + 1, maxdepth)
        yield "</li>\n"
