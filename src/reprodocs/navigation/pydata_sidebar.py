"""pydata-sphinx-theme's sidebar, written from a section resolved once per
build (see :mod:`reprodocs.navigation.pydata`, which serves it).

A section page's toctrees are resolved by Sphinx's own code, for no page in
particular, into the model of :mod:`reprodocs.navigation.toctree`; each link
and caption is rendered once by the builder, then written once as the
theme's BeautifulSoup writes it. A page's sidebar is written from that model
by :class:`SidebarPage`: the page's branch marked as Sphinx marks it and as
the theme's soup edits mark it (``active`` beside ``current``, links to
sections removed, Bootstrap classes on the top lists, an entry's lists in a
``<details>`` opened down to ``show_nav_level`` and along the page's branch,
each captioned toctree a part of its own with ``show_nav_level=0``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from sphinx import addnodes

from reprodocs.navigation.pages import PageWriter
from reprodocs.navigation.toctree import (
    Menu,
    MenuItem,
    MenuLink,
    MenuList,
    resolve_into,
    resolved_menu,
)

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterator

    from sphinx.builders.html import StandaloneHTMLBuilder

#: What ``add_collapse_checkboxes`` puts before an entry's lists.
TOGGLE = (
    '<span class="toctree-toggle" role="presentation">'
    '<i class="fa-solid fa-chevron-down"></i></span>'
)
_SUMMARY = f"<summary>{TOGGLE}</summary>"


# -- A section, resolved once per build --------------------------------------------------


@dataclass(eq=False)
class Section:
    """A section page's toctrees, resolved for no page in particular, and
    its links and captions as BeautifulSoup writes them."""

    menu: Menu
    #: The inside of each link and its end tag, by the link's id.
    inner: dict[int, str] = field(default_factory=dict)
    #: Each caption's ``<p>``, and the whole caption with the text after it,
    #: by its list's id.
    captions: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: What makes every page of the section the theme's own ("" if nothing).
    unserved: str = ""


def section(
    builder: StandaloneHTMLBuilder,
    sections: dict[tuple[str, bool, bool], Section],
    ancestor: str,
    titles_only: bool,
    includehidden: bool,
) -> Section:
    """The section of the *ancestor* page ("": the whole site, the model the
    page's ``toctree()`` is served from), once per build and options."""
    key = (ancestor, titles_only, includehidden)
    if key not in sections:
        if ancestor:
            env = builder.env
            # As the theme's get_nonroot_toctree: the toctrees of a copy of
            # the section page's table of contents (resolving one moves its
            # caption's translation id).
            toctrees = env.tocs[ancestor].deepcopy().findall(addnodes.toctree)
            menu = resolve_into(Menu.empty(builder), builder, toctrees, titles_only, includehidden)
        else:
            menu = resolved_menu(builder, titles_only=titles_only, includehidden=includehidden)
        sections[key] = _as_soup_writes(menu)
    return sections[key]


def _as_soup_writes(menu: Menu) -> Section:
    """The section, with its links and captions as BeautifulSoup writes them."""
    section = Section(menu)
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


def _items(lists: list[MenuList]) -> Iterator[MenuItem]:
    for ul in lists:
        for item in ul.items:
            yield item
            yield from _items(item.lists)


@functools.lru_cache(maxsize=4096)
def _soup_inner(inner: str) -> str | None:
    """A link's inside and end tag, as rendered by the builder, as the
    theme's ``str(soup)`` writes them (entities, attribute order, quoting);
    None if the HTML is not one link. Plain text (no markup, entity or
    control character) is written as it is, without a parse."""
    text = inner.removesuffix("</a>")
    if text != inner and text.isprintable() and not _MARKUP.search(text):
        return inner
    from bs4 import BeautifulSoup, Tag

    soup = BeautifulSoup(f'<a class="reference internal" href="#">{inner}', "html.parser")
    if len(soup.contents) != 1 or not isinstance(soup.contents[0], Tag):
        return None
    return soup.contents[0].decode_contents() + "</a>"


_MARKUP = re.compile("[<>&]")


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
def quoted(href: str) -> str:
    """An ``href`` value as BeautifulSoup writes it (``&``, ``<``, ``>`` as
    entities; quoted with ``'`` if it holds ``"``, unless it holds both)."""
    if not _SPECIAL.search(href):
        return f'"{href}"'
    from bs4 import BeautifulSoup

    tag = str(BeautifulSoup("", "html.parser").new_tag("a", attrs={"href": href}))
    return tag.removeprefix("<a href=").removesuffix("></a>")


_SPECIAL = re.compile("[&<>\"']")


# -- A page's sidebar ---------------------------------------------------------------------


@functools.cache
def _level(classes: str) -> int | None:
    """N of an item's ``toctree-lN`` class."""
    match = re.search(r"(?:^|\s)toctree-l(\d+)(?:\s|$)", classes)
    return int(match.group(1)) if match else None


@dataclass(eq=False)
class SidebarPage(PageWriter):
    """What ``str(generate_toctree_html("sidebar", ...))`` is for one page."""

    section: Section | None = None
    show_nav_level: int = 1
    #: Whether the current page's link says ``aria-current="page"``.
    aria_current: bool = False
    #: Whether an ``<li class="current ...">`` was written since last reset.
    wrote_current: bool = False

    def variant(self) -> Hashable:
        return (self.collapse, self.show_nav_level)

    def html(self, maxdepth: int) -> str:
        """The sidebar: each top list after its caption, or with
        ``show_nav_level=0`` and captions, the theme's parts. (Joined once:
        a sidebar may be most of the page.)"""
        captions = cast("Section", self.section).captions
        tops = [top for top in self.menu.lists if top.shown]
        if self.show_nav_level == 0 and any(id(top) in captions for top in tops):
            return self.parts_html(tops, maxdepth)
        parts: list[str] = []
        for top in tops:
            if id(top) in captions:
                parts.append(captions[id(top)][1])
            # As Sphinx: the toctree's own :maxdepth: unless one is asked for.
            parts.extend(self.list_html(top, 1, maxdepth or top.toctree_maxdepth))
        return "".join(parts)

    def parts_html(self, tops: list[MenuList], maxdepth: int) -> str:
        """The theme's parts: each captioned toctree in an item of a new
        list, its caption in the summary (the others are left out), opened
        where it holds the current page."""
        captions = cast("Section", self.section).captions
        parts = ['<ul class="list-caption">']
        for top in (top for top in tops if id(top) in captions):
            self.wrote_current = False
            html = "".join(self.list_html(top, 1, maxdepth or top.toctree_maxdepth))
            parts += [
                '<li class="toctree-l0 has-children">',
                "<details open>" if self.wrote_current else "<details>",
                f"<summary>{captions[id(top)][0]}{TOGGLE}</summary>",
                html.removesuffix("\n"),  # the newline is the list's sibling
                "</details></li>",
            ]
        parts.append("</ul>")
        return "".join(parts)

    def list_start(self, ul: MenuList, depth: int) -> str:
        classes = "current" if id(ul) in self.current else ul.compact
        if depth == 1:
            classes = f"{classes} nav bd-sidenav" if classes else "nav bd-sidenav"
        return f'<ul class="{classes}">\n' if classes else "<ul>\n"

    def item_html(self, item: MenuItem, depth: int, maxdepth: int) -> Iterator[str]:
        link = cast("MenuLink", item.link)  # a section with a link-less entry is not served
        if link.anchor or (not link.internal and "#" in link.uri and link.uri != "#"):
            # The theme removes an entry whose link's address holds "#"
            # (a section's); the newline after it stays.
            yield "\n"
            return
        keeps = self.keeps_lists(item, depth, maxdepth)
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

    def link_html(self, link: MenuLink, current: bool) -> str:
        kind = "reference internal" if link.internal else "reference external"
        href = quoted(link.href(self.builder, self.page_uri) or "#")
        inner = cast("Section", self.section).inner[id(link)]
        if not current:
            return f'<a class="{kind}" href={href}>' + inner
        # BeautifulSoup writes attributes in alphabetical order.
        marks = 'aria-current="page" ' if self.aria_current else ""
        return f'<a {marks}class="current {kind}" href={href}>' + inner
