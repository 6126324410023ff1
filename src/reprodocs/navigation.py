"""The global navigation menu in linear time.

Sphinx's ``toctree()`` template function, which sphinx_rtd_theme calls on every
page, resolves the whole global toctree again for each page: it deep-copies the
table of contents of every document, marks the current branch, prunes it and
renders it through docutils. The work per page grows with the size of the site,
so a build grows with the square of it.

Here the tree is resolved once per build, by Sphinx's own code and for no page
in particular; each link is rendered once. A page's menu is then derived from
it: the current branch marked and expanded exactly as Sphinx marks and prunes
it, the links made relative to the page. A collapsed branch costs one cached
string, so a page costs about the same whatever the size of the site.
"""

from __future__ import annotations

import array
import collections
import functools
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.environment.adapters.toctree import TocTree
from sphinx.util.osutil import relative_uri

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.builders.html import StandaloneHTMLBuilder

#: Stands for a link's address in the resolved tree: "<marker><n><marker>",
#: n indexing the linked document, followed by the link's anchor.
_URI_MARKER = "reprodocsuri"
#: Stands for a link's extra classes ("current") in its rendered HTML.
_CLASS_MARKER = "reprodocsclass"


@dataclass(eq=False, slots=True)
class _Link:
    """A rendered ``<a>``, with markers for what depends on the page."""

    html: str
    docname: str | None  #: the document linked to; None for an external link
    anchor: str  #: "#section" or ""

    def render(self, builder: StandaloneHTMLBuilder, page_uri: str, current: int) -> str:
        html = self.html.replace(_CLASS_MARKER + " ", "current " * current)
        if self.docname is None:
            return html
        # What builder.get_relative_uri(page, docname) gives, from the address.
        uri = relative_uri(page_uri, builder.get_target_uri(self.docname)) + self.anchor
        return html.replace(_URI_MARKER, _attribute(uri or "#"))


@dataclass(eq=False, slots=True)
class _Item:
    """A ``<li>``: its link, and the lists below it."""

    classes: str  #: "toctree-lN"
    link: _Link | None
    lists: list[_List] = field(default_factory=list)
    parent: _List | None = None
    position: int = 0  #: in its parent list


@dataclass(eq=False, slots=True)
class _List:
    """A ``<ul>``, preceded by its caption (already rendered) if it has one."""

    caption: str
    items: list[_Item] = field(default_factory=list)
    parent: _Item | None = None
    #: The ``:maxdepth:`` of the toctree a top-level list comes from.
    toctree_maxdepth: int = -1


@dataclass(eq=False, slots=True)
class _Menu:
    """One resolved global tree, and where each document's links are in it."""

    lists: list[_List]
    links_to: dict[str, list[tuple[_Item, bool]]]  #: docname -> (item, is title link)
    #: The items of a list as rendered where none is marked, and their
    #: offsets, by (list, directory of the page's address, collapse, maxdepth).
    unmarked: dict[tuple[int, str, bool, int], tuple[str, array.array]] = field(
        default_factory=dict
    )
    #: How many documents' addresses are in each directory.
    directories: collections.Counter[str] = field(default_factory=collections.Counter)
    #: Each document's toctree parent, the last one Sphinx finds.
    parent_of: dict[str, str] = field(default_factory=dict)

    def ancestors(self, docname: str) -> set[str]:
        """Sphinx's ``_get_toctree_ancestors``: the page and the documents up
        its toctree chain."""
        ancestors: set[str] = set()
        while docname in self.parent_of and docname not in ancestors:
            ancestors.add(docname)
            docname = self.parent_of[docname]
        return ancestors


def menu_html(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    *,
    collapse: bool = True,
    maxdepth: int | str = 0,
    titles_only: bool = False,
    includehidden: bool = False,
) -> str:
    """What ``toctree(...)`` returns for *pagename*, in the same HTML."""
    menu = _resolved_menu(builder, bool(titles_only), bool(includehidden))
    if menu is None:
        return ""
    # As Sphinx: when collapsing, documents that do not lead to the page keep
    # no nested lists, so nothing below them is marked either.
    ancestors = menu.ancestors(pagename) if collapse else None
    current, expanded, marked = _marks(menu, pagename, ancestors)
    page = _PageContext(
        builder,
        builder.get_target_uri(pagename),
        menu,
        bool(collapse),
        current,
        expanded,
        marked,
        ancestors,
    )
    return "".join(
        part
        for top in menu.lists
        # As Sphinx: the toctree's own :maxdepth: unless one is asked for.
        for part in page.list_html(
            top, depth=1, maxdepth=int(maxdepth or 0) or top.toctree_maxdepth
        )
    )


@dataclass
class _PageContext:
    builder: StandaloneHTMLBuilder
    page_uri: str  #: the page's address, relative to the output root
    menu: _Menu
    collapse: bool
    current: dict[int, int] = field(default_factory=dict)  #: id -> times marked "current"
    expanded: set[int] = field(default_factory=set)  #: ids Sphinx marks "iscurrent"
    #: The marked items, by their list's id.
    marked: dict[int, list[_Item]] = field(default_factory=dict)
    #: The documents leading to the page (when collapsing).
    ancestors: set[str] | None = None

    def list_html(self, ul: _List, depth: int, maxdepth: int) -> Iterator[str]:
        yield ul.caption
        yield '<ul class="current">\n' if id(ul) in self.current else "<ul>\n"
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
    ) -> tuple[str, array.array] | None:
        """The list's items as on a page where none is marked, and where each
        item starts: the same on every page whose address has the same
        directory, so rendered once for them all. None for a page alone in its
        directory (with dirhtml, every page), which renders its items itself."""
        directory = self.page_uri.rpartition("/")[0]
        if self.menu.directories[directory] < 2:
            return None
        key = (id(ul), directory, self.collapse, maxdepth)
        if key not in self.menu.unmarked:
            # From an address in that directory that no document has.
            nowhere = f"{directory}/\x00" if directory else "\x00"
            unmarked = _PageContext(self.builder, nowhere, self.menu, self.collapse)
            parts = ["".join(unmarked.item_html(item, depth, maxdepth)) for item in ul.items]
            offsets = array.array("Q", itertools.accumulate(map(len, parts), initial=0))
            self.menu.unmarked[key] = ("".join(parts), offsets)
        return self.menu.unmarked[key]

    def item_html(self, item: _Item, depth: int, maxdepth: int) -> Iterator[str]:
        marks = self.current.get(id(item), 0)
        yield f'<li class="{item.classes}{" current" * marks}">'
        if item.link is not None:
            yield item.link.render(self.builder, self.page_uri, self.current.get(id(item.link), 0))
        for ul in item.lists:
            # Sphinx's _toctree_copy: a nested list is kept within maxdepth and,
            # when collapsing, only on the current branch.
            within = depth + 1 <= maxdepth or maxdepth <= 0
            on_branch = id(item) in self.expanded  # so is every list below it
            if on_branch and self.ancestors is not None and _prunes(item, self.ancestors):
                on_branch = False
            if within and (not self.collapse or on_branch):
                yield from self.list_html(ul, depth + 1, maxdepth)
        yield "</li>\n"


def _marks(
    menu: _Menu, pagename: str, ancestors: set[str] | None
) -> tuple[dict[int, int], set[int], dict[int, list[_Item]]]:
    """Sphinx's ``_toctree_add_classes`` for *pagename*: "current" on the
    branches of its title links, "iscurrent" on those of all its links; and
    the items so marked, by list. With *ancestors* (when collapsing), links
    below a document outside them are gone, as Sphinx pruned them first."""
    current: dict[int, int] = {}
    expanded: set[int] = set()
    marked: dict[int, dict[int, _Item]] = {}
    for item, is_title in menu.links_to.get(pagename, ()):
        if ancestors is not None and any(
            _prunes(above, ancestors) for above in _branch(item) if above is not item
        ):
            continue
        if is_title:
            current[id(item.link)] = current.get(id(item.link), 0) + 1
            for node in _branch(item):
                current[id(node)] = current.get(id(node), 0) + 1
        if id(item) not in expanded:
            expanded.update(id(node) for node in _branch(item))
        for node in _branch(item):
            if isinstance(node, _Item) and node.parent is not None:
                marked.setdefault(id(node.parent), {})[id(node)] = node
    return current, expanded, {ul: list(items.values()) for ul, items in marked.items()}


def _prunes(item: _Item | _List, ancestors: set[str]) -> bool:
    """Whether Sphinx, collapsing, drops the lists below *item*: the entry of a
    document that does not lead to the page (``_toctree_standard_entry``)."""
    return (
        isinstance(item, _Item)
        and item.link is not None
        and item.link.docname is not None
        and not item.link.anchor
        and item.link.docname not in ancestors
    )


def _branch(item: _Item) -> Iterator[_Item | _List]:
    node: _Item | _List | None = item
    while node is not None:
        yield node
        node = node.parent


# -- Resolving the tree once per build ------------------------------------------------


class _MarkingBuilder:
    """Stands in for the builder while Sphinx resolves the tree: links get
    markers instead of addresses relative to some page."""

    def __init__(self, docnames: list[str], tags: Any) -> None:
        self.docnames = docnames
        self.tags = tags  # Sphinx 8 reads the tags (for "only") from the builder

    def get_relative_uri(self, from_: str, to: str, typ: str | None = None) -> str:
        self.docnames.append(to)
        return f"{_URI_MARKER}{len(self.docnames) - 1}{_URI_MARKER}"


#: A docname no document has: the tree is resolved for no page in particular.
_NO_PAGE = "\x00"


def _resolved_menu(
    builder: StandaloneHTMLBuilder, titles_only: bool, includehidden: bool
) -> _Menu | None:
    cache = _build_cache(builder)
    key = (titles_only, includehidden)
    if key not in cache:
        cache[key] = _resolve(builder, titles_only, includehidden)
    return cache[key]


def _build_cache(builder: StandaloneHTMLBuilder) -> dict[Any, _Menu | None]:
    """The menus of the current build: dropped when the environment is read
    again (see :func:`forget_menus`)."""
    return builder.__dict__.setdefault("_reprodocs_menus", {})


def forget_menus(app: Any, env: Any) -> None:
    """``env-updated``: the tree may have changed."""
    if app.builder is not None:
        app.builder.__dict__.pop("_reprodocs_menus", None)


def fingerprint(builder: StandaloneHTMLBuilder, *, titles_only: bool, includehidden: bool) -> str:
    """A digest of everything the menu of these options can show on any page:
    links, titles, captions, nesting. Pages whose own sources did not change
    still need writing again when it changes (Sphinx only rewrites the changed
    pages' toctree parents)."""
    menu = _resolved_menu(builder, titles_only, includehidden)
    if menu is None:
        return ""

    def items(ul: _List) -> Iterator[tuple]:
        yield ("list", ul.caption, ul.toctree_maxdepth)
        for item in ul.items:
            link = item.link
            yield ("item", item.classes, link and (link.html, link.docname, link.anchor))
            for nested in item.lists:
                yield from items(nested)
            yield ("end",)

    # A digest, not hash(): it is compared with the one of an earlier process.
    entries = tuple(entry for top in menu.lists for entry in items(top))
    return hashlib.sha256(repr(entries).encode()).hexdigest()


def _resolve(
    builder: StandaloneHTMLBuilder, titles_only: bool, includehidden: bool
) -> _Menu | None:
    """What ``global_toctree_for_doc`` resolves, for no page in particular and
    not yet pruned to a depth: the marks of a page are set before pruning."""
    env = builder.env
    docnames: list[str] = []
    marking = _MarkingBuilder(docnames, builder.tags)
    render = _Renderer(builder, docnames)
    menu = _Menu(lists=[], links_to={})
    for parent, children in env.toctree_includes.items():
        menu.parent_of |= dict.fromkeys(children, parent)
    menu.directories.update(
        builder.get_target_uri(docname).rpartition("/")[0] for docname in env.found_docs
    )
    adapter = TocTree(env)
    # Not env.master_doctree: a cached property, which would be pickled with
    # the environment when read before the end of the reading phase.
    for toctree in env.get_doctree(env.config.root_doc).findall(addnodes.toctree):
        resolved = adapter.resolve(
            _NO_PAGE,
            marking,  # type: ignore[arg-type]
            toctree,
            prune=False,
            titles_only=titles_only,
            collapse=False,
            includehidden=includehidden,
        )
        if resolved is None:
            continue
        caption = ""
        for child in resolved.children:
            if isinstance(child, nodes.title):
                caption = render.node(child)
            elif isinstance(child, nodes.bullet_list):
                top = _list(child, caption, None, render, menu)
                top.toctree_maxdepth = toctree.get("maxdepth", -1)
                menu.lists.append(top)
                caption = ""
    return menu if menu.lists else None


def _list(node: nodes.bullet_list, caption: str, parent, render, menu: _Menu) -> _List:
    ul = _List(caption=caption, parent=parent)
    for child in node.children:
        if isinstance(child, nodes.list_item):
            item = _item(child, ul, render, menu)
            item.position = len(ul.items)
            ul.items.append(item)
    return ul


def _item(node: nodes.list_item, parent: _List, render, menu: _Menu) -> _Item:
    classes = " ".join(node["classes"])
    item = _Item(classes=classes, link=None, parent=parent)
    for child in node.children:
        if isinstance(child, addnodes.compact_paragraph):
            for reference in child.findall(nodes.reference):
                item.link = render.link(reference)
                if item.link.docname is not None:
                    is_title = not item.link.anchor
                    menu.links_to.setdefault(item.link.docname, []).append((item, is_title))
                break
        elif isinstance(child, nodes.bullet_list):
            item.lists.append(_list(child, "", item, render, menu))
    return item


class _Renderer:
    """Renders nodes as the builder renders them, once each."""

    def __init__(self, builder: StandaloneHTMLBuilder, docnames: list[str]) -> None:
        self.builder = builder
        self.docnames = docnames

    def node(self, node: nodes.Element) -> str:
        # In a toctree's paragraph, as in the tree: the HTML of captions and
        # links depends on it.
        paragraph = addnodes.compact_paragraph("", "", node.deepcopy(), toctree=True)
        return self.builder.render_partial(paragraph)["fragment"]

    def link(self, reference: nodes.reference) -> _Link:
        refuri = reference.get("refuri", "")
        docname = None
        anchor = ""
        if refuri.startswith(_URI_MARKER):
            number, _, anchor = refuri[len(_URI_MARKER) :].partition(_URI_MARKER)
            docname = self.docnames[int(number)]
            reference["refuri"] = _URI_MARKER
        reference["classes"] = [_CLASS_MARKER, *reference["classes"]]
        return _Link(self.node(reference), docname, anchor)


@functools.cache
def _attribute_table() -> dict[int, str]:
    # As docutils' HTML writer escapes attribute values.
    return {
        ord("&"): "&amp;",
        ord("<"): "&lt;",
        ord('"'): "&quot;",
        ord(">"): "&gt;",
        ord("@"): "&#64;",
    }


def _attribute(value: str) -> str:
    return value.translate(_attribute_table())
