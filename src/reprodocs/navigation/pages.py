"""A page's menu, written from a resolved one (:mod:`reprodocs.navigation.toctree`).

One writer for every theme: :class:`PageWriter` walks the menu's lists,
marked for the page as Sphinx marks them, and splices the page's own branch
into the lists as written for no page, which are the same on every page
whose address has the same directory and so are written once for them all
(kept on the menu for the last directories used). A theme's writer holds
only what differs in its HTML: the start of a list and the item.
:class:`SphinxPage` writes what Sphinx's ``toctree()`` writes.
"""

from __future__ import annotations

import array
import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from reprodocs.navigation.toctree import Menu, MenuItem, MenuList, marks, prunes, resolved_menu

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterator

    from sphinx.builders.html import StandaloneHTMLBuilder


@dataclass(eq=False)
class PageWriter:
    """A menu written for one page (or, with no marks, for no page)."""

    builder: StandaloneHTMLBuilder
    page_uri: str  #: the page's address, relative to the output root
    menu: Menu
    collapse: bool
    current: set[int] = field(default_factory=set)  #: ids Sphinx gives the class "current"
    expanded: set[int] = field(default_factory=set)  #: ids Sphinx marks "iscurrent"
    #: The marked items, by their list's id.
    marked: dict[int, list[MenuItem]] = field(default_factory=dict)
    #: The documents leading to the page (when collapsing).
    ancestors: set[str] | None = None

    @classmethod
    def for_page(
        cls, builder: StandaloneHTMLBuilder, menu: Menu, pagename: str, collapse: bool, **more: Any
    ) -> Self:
        """The writer of *pagename*'s menu, marked as Sphinx marks it. As
        Sphinx: when collapsing, a document's entry keeps no nested lists
        unless it leads to the page (and has no ``:tocdepth:``); nothing below
        it is marked either. Without collapsing, the documents leading to it
        change nothing."""
        ancestors = menu.ancestors(pagename) if collapse else None
        current, expanded, marked = marks(menu, pagename, ancestors)
        return cls(
            builder,
            builder.get_target_uri(pagename),
            menu,
            collapse,
            current,
            expanded,
            marked,
            ancestors,
            **more,
        )

    def for_no_page(self, page_uri: str) -> Self:
        """This writer, for an address no document has: nothing marked."""
        return dataclasses.replace(
            self, page_uri=page_uri, current=set(), expanded=set(), marked={}, ancestors=None
        )

    def variant(self) -> Hashable:
        """What, besides a list and the depth asked, its HTML depends on."""
        return self.collapse

    def list_start(self, ul: MenuList, depth: int) -> str:
        """The caption (if written here) and the ``<ul>`` start tag."""
        raise NotImplementedError

    def item_html(self, item: MenuItem, depth: int, maxdepth: int) -> Iterator[str]:
        """An item and the lists it keeps."""
        raise NotImplementedError

    def list_html(
        self, ul: MenuList, depth: int, maxdepth: int, end: str = "</ul>\n"
    ) -> Iterator[str]:
        if not ul.shown:
            return
        yield self.list_start(ul, depth)
        shared = self.shared_items(ul, depth, maxdepth)
        if shared is None:
            for item in ul.items:
                yield from self.item_html(item, depth, maxdepth)
        else:
            # The shared HTML, with this page's own items (its branch) spliced in.
            html, offsets = shared
            start = 0
            for item in sorted(self.marked.get(id(ul), ()), key=lambda item: item.position):
                yield html[start : offsets[item.position]]
                yield from self.item_html(item, depth, maxdepth)
                start = offsets[item.position + 1]
            yield html[start:]
        yield end

    def shared_items(
        self, ul: MenuList, depth: int, maxdepth: int
    ) -> tuple[str, array.array[int]] | None:
        """The list's items as on a page where none is marked, and where each
        item starts: the same on every page whose address has the same
        directory, so written once for them all. None for a page alone in its
        directory (with dirhtml, every page), which writes its items itself."""
        directory = self.page_uri.rpartition("/")[0]
        if self.menu.directories[directory] < 2:
            return None
        written = self.menu.shared_in(directory)
        key = (type(self), id(ul), depth, maxdepth, self.variant())
        if key not in written:
            # From an address in that directory that no document has.
            unmarked = self.for_no_page(f"{directory}/\x00" if directory else "\x00")
            parts = ["".join(unmarked.item_html(item, depth, maxdepth)) for item in ul.items]
            offsets = array.array("Q", itertools.accumulate(map(len, parts), initial=0))
            written[key] = ("".join(parts), offsets)
        return written[key]

    def keeps_lists(self, item: MenuItem, depth: int, maxdepth: int) -> bool:
        """Sphinx's ``_toctree_copy``: a nested list is kept within maxdepth
        and, when collapsing, only on the current branch."""
        within = depth + 1 <= maxdepth or maxdepth <= 0
        if not within or not self.collapse:
            return within
        on_branch = id(item) in self.expanded  # so is every list below it
        return on_branch and not (self.ancestors is not None and prunes(item, self.ancestors))


class SphinxPage(PageWriter):
    """The menu as Sphinx's ``toctree()`` writes it."""

    def list_start(self, ul: MenuList, depth: int) -> str:
        if id(ul) in self.current:
            return ul.caption + '<ul class="current">\n'
        return ul.caption + (f'<ul class="{ul.compact}">\n' if ul.compact else "<ul>\n")

    def item_html(self, item: MenuItem, depth: int, maxdepth: int) -> Iterator[str]:
        current = " current" if id(item) in self.current else ""
        yield f'<li class="{item.classes}{current}">'
        if item.link is not None:
            yield item.link.html(self.builder, self.page_uri, id(item.link) in self.current)
        if self.keeps_lists(item, depth, maxdepth):
            for ul in item.lists:
                yield from self.list_html(ul, depth + 1, maxdepth)
        yield "</li>\n"


def menu_html(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    *,
    collapse: object = True,
    maxdepth: int = 0,
    titles_only: object = False,
    includehidden: object = False,
) -> str | None:
    """What ``toctree(...)`` returns for *pagename*, in the same HTML; None
    where Sphinx's own is needed (see ``Menu.renders_as_sphinx`` and
    ``Menu.whole_copies_differ``)."""
    menu = resolved_menu(builder, titles_only=bool(titles_only), includehidden=bool(includehidden))
    if not menu.lists:
        return ""
    if not menu.renders_as_sphinx:
        return None
    if not menu.ancestors(pagename).isdisjoint(menu.whole_copies_differ):
        return None
    page = SphinxPage.for_page(builder, menu, pagename, bool(collapse))
    return "".join(
        part
        for top in menu.lists
        # As Sphinx: the toctree's own :maxdepth: unless one is asked for.
        for part in page.list_html(top, depth=1, maxdepth=maxdepth or top.toctree_maxdepth)
    )
