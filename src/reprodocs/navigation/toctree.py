"""Sphinx's ``toctree()`` menu, resolved once per build and derived per page
in the same HTML (see :mod:`reprodocs.navigation`)."""

from __future__ import annotations

import array
import functools
import hashlib
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment.adapters.toctree import TocTree
from sphinx.util.osutil import relative_uri

from reprodocs.base.state import build_state

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Iterator

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: The keyword arguments of the page context's ``toctree()`` served here.
OPTIONS = frozenset({"collapse", "maxdepth", "titles_only", "includehidden"})

#: For how many directories the lists written for no page are kept (the most recently
#: used). Pages are written in sorted order, so a directory's pages come
#: together, interleaved only with its subdirectories': a few directories
#: render each one about once, while memory stays bounded (not collapsing,
#: a directory's lists hold the whole menu).
SHARED_DIRECTORIES = 8


@dataclass(frozen=True)
class BuildFacts:
    """What every menu of a build is made with, each found once per build."""

    #: Each document's toctree parent, the last one Sphinx finds.
    parent_of: dict[str, str]
    #: See ``Menu.whole_copies_differ``.
    whole_copies_differ: set[str]
    #: How many documents' addresses are in each directory.
    directories: Counter[str]

    @classmethod
    def of(cls, builder: StandaloneHTMLBuilder) -> BuildFacts:
        env = builder.env
        return cls(
            parent_of=parent_map(env),
            whole_copies_differ=whole_copies_differ(env),
            directories=Counter(
                builder.get_target_uri(docname).rpartition("/")[0] for docname in env.found_docs
            ),
        )


@dataclass
class ResolvedMenus:
    """Per build: the menus resolved, by (titles_only, includehidden), and
    the build's facts, once found."""

    resolved: dict[tuple[bool, bool], Menu] = field(default_factory=dict)
    facts: BuildFacts | None = None


def build_facts(builder: StandaloneHTMLBuilder) -> BuildFacts:
    """The build's facts: the parent map, the documents whose entries Sphinx
    copies whole and the directories' sizes (found on first use)."""
    state = build_state(builder.env, ResolvedMenus)
    if state.facts is None:
        state.facts = BuildFacts.of(builder)
    return state.facts


def fingerprint(env: BuildEnvironment) -> str:
    """A digest of everything any page's menu can show, whatever the options:
    every document's table of contents (its title, sections, toctrees with
    their options and entries, section numbers), title and ``:tocdepth:``.
    Read from the environment, without resolving any menu: a theme that asks
    for none costs nothing more."""
    digest = hashlib.sha256(env.config.root_doc.encode())
    for docname in sorted(env.tocs):
        tocdepth = env.metadata.get(docname, {}).get("tocdepth", 0)
        title = env.titles[docname].astext() if docname in env.titles else ""
        digest.update(repr((docname, tocdepth, title)).encode())
        digest.update(env.tocs[docname].pformat().encode())
    # A digest, not hash(): it is compared with the one of an earlier process.
    return digest.hexdigest()


# -- A page's menu, derived from the resolved one ----------------------------------------


@dataclass(eq=False, slots=True)
class MenuLink:
    """A toctree's ``<a>``: what its start tag depends on, and the rest."""

    internal: bool
    uri: str  #: an external link's address
    docname: str | None  #: the document an internal link goes to
    anchor: str  #: "#section" or ""
    inner: str  #: the rendered section number, title and end tag

    def html(self, builder: StandaloneHTMLBuilder, page_uri: str, current: bool) -> str:
        return start_tag(self.href(builder, page_uri), self.internal, current) + self.inner

    def href(self, builder: StandaloneHTMLBuilder, page_uri: str) -> str:
        if self.docname is None:
            return self.uri
        # What builder.get_relative_uri(page, docname) gives, from the address.
        return relative_uri(page_uri, builder.get_target_uri(self.docname)) + self.anchor


def start_tag(href: str, internal: bool, current: bool) -> str:
    """The ``<a>`` start tag docutils writes for a toctree's reference
    (Sphinx's ``visit_reference``; classes, then attributes sorted)."""
    classes = ("current " if current else "") + (
        "reference internal" if internal else "reference external"
    )
    return f'<a class="{classes}" href="{_attribute(href or "#")}">'


@dataclass(eq=False, slots=True)
class MenuItem:
    """A ``<li>``: its link, and the lists below it."""

    classes: str  #: "toctree-lN"
    link: MenuLink | None
    lists: list[MenuList] = field(default_factory=list)
    parent: MenuList | None = None
    position: int = 0  #: in its parent list
    #: For the top items of a document's table of contents (its title, and
    #: any other top-level section): the document and its ``:tocdepth:``.
    entry: tuple[str, Any] | None = None


@dataclass(eq=False, slots=True)
class MenuList:
    """A ``<ul>``, preceded by its caption (already rendered) if it has one."""

    caption: str
    items: list[MenuItem] = field(default_factory=list)
    parent: MenuItem | None = None
    #: The ``:maxdepth:`` of the toctree a top-level list comes from.
    toctree_maxdepth: int = -1
    #: False for a list holding nothing but a toctree left unresolved (a
    #: hidden one): Sphinx's writer leaves it out rather than write ``<ul></ul>``.
    shown: bool = True
    #: "simple" for a list left empty (its items were in ``only`` nodes):
    #: docutils' writer finds it compactable (``html_compact_lists``).
    compact: str = ""


@dataclass(eq=False, slots=True)
class Menu:
    """One resolved global tree, and where each document's links are in it."""

    lists: list[MenuList]
    links_to: dict[str, list[tuple[MenuItem, bool]]]  #: docname -> (item, is title link)
    #: Each document's toctree parent, the last one Sphinx finds.
    parent_of: dict[str, str]
    #: Documents without ``:tocdepth:`` whose table of contents holds ``only``
    #: nodes: on pages they lead to, Sphinx copies their entry whole, ``only``
    #: nodes and all, which changes what it shows there (``:titlesonly:``
    #: lifts toctrees out of them, items in them get no classes). Those pages
    #: get Sphinx's own menu.
    whole_copies_differ: set[str]
    #: How many documents' addresses are in each directory.
    directories: Counter[str]
    #: False when a link is not one this module renders as the builder does
    #: (attributes it does not write): Sphinx's own menu then, on every page.
    renders_as_sphinx: bool = True
    #: The lists' items as written where none is marked, by the writer (see
    #: :mod:`reprodocs.navigation.pages`), for the last directories used.
    shared: OrderedDict[str, dict[Hashable, tuple[str, array.array[int]]]] = field(
        default_factory=OrderedDict
    )

    @classmethod
    def empty(cls, builder: StandaloneHTMLBuilder) -> Menu:
        """A menu of no list yet, with the build's facts."""
        facts = build_facts(builder)
        return cls(
            lists=[],
            links_to={},
            parent_of=facts.parent_of,
            whole_copies_differ=facts.whole_copies_differ,
            directories=facts.directories,
        )

    def shared_in(self, directory: str) -> dict[Hashable, tuple[str, array.array[int]]]:
        """The shared lists written for *directory*, now the most recently
        used; those of the least recently used directory are dropped."""
        if directory in self.shared:
            self.shared.move_to_end(directory)
        else:
            self.shared[directory] = {}
            if len(self.shared) > SHARED_DIRECTORIES:
                self.shared.popitem(last=False)
        return self.shared[directory]

    def ancestors(self, docname: str) -> set[str]:
        """The page and the documents up its toctree chain (see
        :func:`toctree_ancestors`)."""
        return set(toctree_ancestors(self.parent_of, docname))


def marks(
    menu: Menu, pagename: str, ancestors: set[str] | None
) -> tuple[set[int], set[int], dict[int, list[MenuItem]]]:
    """Sphinx's ``_toctree_add_classes`` for *pagename*: "current" on the
    branches of its title links, "iscurrent" on those of all its links; and
    the items so marked, by list. With *ancestors* (when collapsing), links
    below an entry Sphinx pruned first are gone."""
    current: set[int] = set()
    expanded: set[int] = set()
    marked: dict[int, dict[int, MenuItem]] = {}
    for item, is_title in menu.links_to.get(pagename, ()):
        if ancestors is not None and any(
            prunes(above, ancestors) for above in branch(item) if above is not item
        ):
            continue
        if is_title:
            current.add(id(item.link))
            current.update(id(node) for node in branch(item))
        if id(item) not in expanded:
            expanded.update(id(node) for node in branch(item))
        for node in branch(item):
            if isinstance(node, MenuItem) and node.parent is not None:
                marked.setdefault(id(node.parent), {})[id(node)] = node
    return current, expanded, {ul: list(items.values()) for ul, items in marked.items()}


def prunes(item: MenuItem | MenuList, ancestors: set[str]) -> bool:
    """Whether Sphinx, collapsing, drops the lists below *item*
    (``_toctree_standard_entry``): the top items of a document's entry, unless
    the document leads to the page and has no ``:tocdepth:``."""
    if not isinstance(item, MenuItem) or item.entry is None:
        return False
    docname, tocdepth = item.entry
    return not (docname in ancestors and tocdepth <= 0)


def branch(item: MenuItem) -> Iterator[MenuItem | MenuList]:
    node: MenuItem | MenuList | None = item
    while node is not None:
        yield node
        node = node.parent


# -- Resolving the tree once per build ---------------------------------------------------


class _LinkRecorder:
    """Stands in for the builder while Sphinx resolves the tree, for no page in
    particular: an internal link's address becomes the number of its target
    in *docnames*; the page's own address is made from it later."""

    def __init__(self, docnames: list[str], tags: Any) -> None:
        self.docnames = docnames
        self.tags = tags  # Sphinx 8 and later read the tags (for "only") from the builder

    def get_relative_uri(self, from_: str, to: str, typ: str | None = None) -> str:
        self.docnames.append(to)
        return str(len(self.docnames) - 1)


#: A docname no document has: the tree is resolved for no page in particular.
_NO_PAGE = "\x00"


def resolved_menu(
    builder: StandaloneHTMLBuilder, *, titles_only: bool, includehidden: bool
) -> Menu:
    """What ``global_toctree_for_doc`` resolves, for no page in particular and
    not yet pruned to a depth (the marks of a page are set before pruning):
    once per build and options."""
    menus = build_state(builder.env, ResolvedMenus).resolved
    key = (titles_only, includehidden)
    if key not in menus:
        env = builder.env
        # Not env.master_doctree: a cached property, which would be pickled
        # with the environment when read before the end of the reading phase.
        toctrees = env.get_doctree(env.config.root_doc).findall(addnodes.toctree)
        menus[key] = resolve_into(
            Menu.empty(builder), builder, toctrees, titles_only, includehidden
        )
    return menus[key]


def resolve_into(
    menu: Menu,
    builder: StandaloneHTMLBuilder,
    toctrees: Iterable[addnodes.toctree],
    titles_only: bool,
    includehidden: bool,
) -> Menu:
    """*menu*, its lists those of *toctrees* resolved by Sphinx's own
    ``TocTree.resolve`` for no page in particular, unpruned, each link
    rendered once."""
    docnames: list[str] = []
    recorder = _LinkRecorder(docnames, builder.tags)
    render = _Renderer(builder, docnames)
    adapter = TocTree(builder.env)
    for toctree_node in toctrees:
        resolved = adapter.resolve(
            _NO_PAGE,
            recorder,  # type: ignore[arg-type]
            toctree_node,
            prune=False,
            titles_only=titles_only,
            collapse=False,
            includehidden=includehidden,
        )
        if resolved is None:
            continue
        caption: nodes.title | None = None
        for child in resolved.children:
            if isinstance(child, nodes.title):
                caption = child
            elif isinstance(child, nodes.bullet_list):
                top = _list(child, None, render, menu)
                if caption is not None:
                    render.caption(top, caption)
                top.toctree_maxdepth = toctree_node.get("maxdepth", -1)
                menu.lists.append(top)
                caption = None
        _release(resolved)
    menu.renders_as_sphinx = render.render()
    return menu


def parent_map(env: BuildEnvironment) -> dict[str, str]:
    """Each document's toctree parent, the last one Sphinx finds (as
    ``_get_toctree_ancestors`` finds it)."""
    parent_of: dict[str, str] = {}
    for parent, children in env.toctree_includes.items():
        parent_of |= dict.fromkeys(children, parent)
    return parent_of


def toctree_ancestors(parent_of: dict[str, str], docname: str) -> list[str]:
    """Sphinx's ``_get_toctree_ancestors``, in its order: the page and the
    documents up its toctree chain, without the root (nor the page itself if
    it has no parent)."""
    found: list[str] = []
    seen: set[str] = set()
    while docname in parent_of and docname not in seen:
        found.append(docname)
        seen.add(docname)
        docname = parent_of[docname]
    return found


def whole_copies_differ(env: BuildEnvironment) -> set[str]:
    """See ``Menu.whole_copies_differ``."""
    return {
        docname
        for docname, toc in env.tocs.items()
        if env.metadata[docname].get("tocdepth", 0) <= 0
        and next(toc.findall(addnodes.only), None) is not None
    }


def _release(tree: nodes.Element) -> None:
    """Free the tree ``TocTree.resolve`` returned now, not at the cycle
    collector's next full collection: left there with the build's other
    garbage, it raised the peak memory. Without
    parent links its nodes hold no cycles. Each one is a copy Sphinx's
    ``_toctree_copy`` made for this call: the environment's tables of contents
    keep their own."""
    for node in list(tree.findall()):
        node.parent = None


def _list(
    node: nodes.bullet_list, parent: MenuItem | None, render: _Renderer, menu: Menu
) -> MenuList:
    ul = MenuList(caption="", parent=parent)
    ul.shown = not (len(node) == 1 and isinstance(node[0], addnodes.toctree))
    if len(node) == 0 and render.builder.config.html_compact_lists:
        ul.compact = "simple"
    for child in node.children:
        if isinstance(child, nodes.list_item):
            item = _item(child, ul, render, menu)
            item.position = len(ul.items)
            ul.items.append(item)
    return ul


def _item(node: nodes.list_item, parent: MenuList, render: _Renderer, menu: Menu) -> MenuItem:
    item = MenuItem(classes=" ".join(node["classes"]), link=None, parent=parent)
    for child in node.children:
        if isinstance(child, addnodes.compact_paragraph):
            for reference in child.findall(nodes.reference):
                item.link = render.link(reference)
                if item.link.docname is not None:
                    menu.links_to.setdefault(item.link.docname, []).append(
                        (item, not item.link.anchor)
                    )
                break
        elif isinstance(child, nodes.bullet_list):
            item.lists.append(_list(child, item, render, menu))
    item.entry = _entry(item, menu, render.builder.env)
    return item


def _entry(item: MenuItem, menu: Menu, env: BuildEnvironment) -> tuple[str, Any] | None:
    """The document whose entry *item* is a top item of: a link into a
    document from outside it (Sphinx's ``_toctree_standard_entry`` copies
    each document's table of contents, pruning below its top items)."""
    link = item.link
    if link is None or link.docname is None or link.docname not in env.tocs:
        return None
    above = item.parent.parent if item.parent is not None else None
    if above is not None and above.link is not None and above.link.docname == link.docname:
        return None  # a section within the document's entry
    return (link.docname, env.metadata[link.docname].get("tocdepth", 0))


class _Renderer:
    """Renders the nodes of a menu as the builder renders them, each once.

    The builder's ``render_partial`` sets up a docutils document and its
    transforms for each call, which costs more than rendering a link: so
    each node is put in a ``_RenderedNode``, all of them are rendered in one
    call, and each takes the HTML written between its start and its end.
    Each node sits in a toctree's paragraph, as in the tree: the HTML of
    captions depends on it. A link is rendered whole, as in the tree; what
    follows its start tag is its ``inner``, if the start tag is the one
    :func:`start_tag` writes (if not, attributes this module does not write,
    Sphinx renders the menu).
    """

    def __init__(self, builder: StandaloneHTMLBuilder, docnames: list[str]) -> None:
        self.builder = builder
        self.docnames = docnames
        self.secnumber_suffix = builder.config.html_secnumber_suffix
        self.captions: list[tuple[MenuList, _RenderedNode]] = []
        #: Each link with its prefix (a section number) and the whole link, rendered.
        self.links: list[tuple[MenuLink, str, _RenderedNode]] = []

    def _node(self, *copies: nodes.Node) -> _RenderedNode:
        """*copies* (the paragraph becomes their parent) in a toctree's paragraph."""
        return _RenderedNode("", addnodes.compact_paragraph("", "", *copies, toctree=True))

    def caption(self, ul: MenuList, title: nodes.title) -> None:
        self.captions.append((ul, self._node(title.deepcopy())))

    def link(self, reference: nodes.reference) -> MenuLink:
        """The link, its ``inner`` written by ``render()``."""
        internal = bool(reference.get("internal"))
        refuri = reference.get("refuri", "")
        docname = None
        if internal:
            number, _, _ = refuri.partition("#")
            docname = self.docnames[int(number)]
        # Sphinx's visit_reference writes a numbered toctree's section number.
        secnumber = reference.get("secnumber")
        number = f"{'.'.join(map(str, secnumber))}{self.secnumber_suffix}" if secnumber else ""
        link = MenuLink(
            internal=internal,
            uri="" if internal else refuri,
            docname=docname,
            anchor=reference.get("anchorname", ""),
            inner="",
        )
        whole = reference.deepcopy()
        whole["refuri"] = link.anchor if internal else refuri
        self.links.append((link, number, self._node(whole)))
        return link

    def render(self) -> bool:
        """Render every node asked for, and tell whether every link was
        rendered as the builder does."""
        everything = _RenderedNode("")
        everything.extend(rendered for _, rendered in self.captions)
        everything.extend(whole for _, _, whole in self.links)
        if not everything.children:
            return True
        try:
            self.builder.render_partial(everything)
        except NotImplementedError:
            # No visitor for _RenderedNode: visitors registered for this
            # builder by name hide those registered for its format. Sphinx
            # renders the menu (or raises as it does).
            return False
        finally:
            _release(everything)
        for ul, rendered in self.captions:
            ul.caption = rendered.html
        as_builder = True
        for link, number, whole in self.links:
            tag = start_tag(link.anchor if link.internal else link.uri, link.internal, False)
            if whole.html.startswith(tag + number) and whole.html.endswith("</a>"):
                link.inner = whole.html[len(tag) :]
            else:
                as_builder = False
        return as_builder


class _RenderedNode(nodes.Element):
    """Its children, and the HTML the builder's translator writes for them
    (set by ``visit_rendered_node`` and ``depart_rendered_node``)."""

    html = ""


def visit_rendered_node(translator: Any, node: _RenderedNode) -> None:
    node["body_start"] = len(translator.body)


def depart_rendered_node(translator: Any, node: _RenderedNode) -> None:
    node.html = "".join(translator.body[node["body_start"] :])


def setup_renderer(app: Sphinx) -> None:
    """Register ``_RenderedNode`` for the HTML builders (the format: a
    handler registered for a builder's name would hide the format's
    handlers of every extension from that builder)."""
    app.add_node(_RenderedNode, html=(visit_rendered_node, depart_rendered_node))


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
