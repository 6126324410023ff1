"""pytorch_sphinx_theme2's Markdown copies, converted without the menus.

When the build is done, pytorch_sphinx_theme2 (0.4.13) converts every page it
wrote into Markdown for LLMs (its ``llm_generation``: ``<page>.md`` and
``llms-full.txt``). ``_convert_single_doc`` reads the page and
``_html_to_markdown`` parses all of it with BeautifulSoup, removes its
``<nav>``, ``<aside>``, header and footer, and converts what is left of the
article. On a site with large sections the sidebar is nearly all of a page:
parsed only to be removed, once the sidebar is served in linear time it was
most of the build (figures in docs/performance.rst).

The header's menu is the other part of a page that grows with the site: the
theme's ``navbar-nav.html`` lists every child of the root's toctree entries,
twice (the header, and its copy for small screens, which shows every
link): under a large section, most of the page.

Here the conversion is given each page without these menus, the pieces of
it that are known exactly: the sidebar :mod:`reprodocs.navigation.pydata`
wrote into it, and the header's menu in each of its two forms, as
:mod:`reprodocs.navigation.pytorch_sphinx_theme2_header` wrote it (a project
whose ``navbar-nav.html`` is not the theme's keeps its header in the
conversion). Each is found by its length and digest (a page that does not
hold each of them whole is converted as it is). That is the same Markdown
only because the menus sit where the theme's conversion removes them; so
before the theme converts anything, the first page of each layout (template,
sidebars, pieces) is converted both ways and compared, and a layout whose
Markdown differs is converted whole, and the log says so.

What is left of a page once its menus are removed is still several times its
article (pydata-sphinx-theme's ``<article>``, which the conversion keeps and
converts; the rest of the page it removes): its head, the header's frame,
the secondary sidebar, the footer. So the conversion is given, where it
gives the same Markdown, only the page's article: the text from its one
``<article`` tag to its one ``</article>`` (a page with more than one, or
none, is converted whole). Whether it does is checked as above, on the
first page of each layout: what surrounds the article is the layout's (its
template's), the same on each of its pages; a layout whose article alone
differs is converted without its menus if that is the same.

Here reprodocs replaces two of the theme's functions (as it replaces one
other, :mod:`reprodocs.navigation.pytorch_sphinx_theme2_header`): the two
names above in ``pytorch_sphinx_theme2.llm_generation``, only while the
theme's ``build-finished`` handler runs, each calling the theme's own. The
theme converts pages in worker processes; forked ones inherit the pages'
pieces from :data:`CONVERTING`, others (``spawn``, ``forkserver``)
convert whole pages, as the theme does. Pages written by parallel writing
processes are converted whole too.
"""

from __future__ import annotations

import contextvars
import hashlib
import importlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from sphinx.application import Sphinx

    from reprodocs.navigation.registry import Registry

logger = logging.getLogger(__name__)

#: The theme's module and the two functions replaced while it converts.
THEME_MODULE = "pytorch_sphinx_theme2.llm_generation"
CONVERT_PAGE = "_convert_single_doc"
HTML_TO_MARKDOWN = "_html_to_markdown"

#: How much of a piece's start is looked for in its page.
_PREFIX = 256

#: The article's tags, as an HTML parser reads them (in any ASCII case, as
#: HTML's names are): its start tag's name, its end tag whole.
_ARTICLE = "[aA][rR][tT][iI][cC][lL][eE]"
_ARTICLE_TAGS = re.compile(rf"<{_ARTICLE}(?=[\s/>])|</{_ARTICLE}\s*>")


def setup_markdown_copies(app: Sphinx, registry: Registry) -> None:
    # Around the theme's _generate_llms_txt (priority 500).
    app.connect("build-finished", convert_without_menus, priority=400)
    app.connect("build-finished", restore_theme_functions, priority=600)
    registry.add(WrittenPieces)


@dataclass(frozen=True)
class Piece:
    """A menu as written into a page: enough to find it there again."""

    length: int
    prefix: str
    digest: bytes

    @classmethod
    def of(cls, html: str) -> Piece:
        return cls(len(html), html[:_PREFIX], _digest(html))

    def removed_from(self, page: str) -> str | None:
        """The page without this piece wherever it is written whole, None
        where it is nowhere."""
        kept = []
        end = 0
        for start in _occurrences(page, self.prefix):
            if start >= end and _digest(page[start : start + self.length]) == self.digest:
                kept.append(page[end:start])
                end = start + self.length
        if not kept:
            return None
        kept.append(page[end:])
        return "".join(kept)


def without_pieces(page: str, pieces: tuple[Piece, ...]) -> str | None:
    """The page without each of these pieces, None unless it holds each."""
    for piece in pieces:
        lean = piece.removed_from(page)
        if lean is None:
            return None
        page = lean
    return page


def article_of(page: str) -> str | None:
    """The page's one article, from the start of its tag to the end of its
    end tag; None unless it holds one of each, in that order."""
    tags = list(_ARTICLE_TAGS.finditer(page))
    if len(tags) != 2 or tags[0].group()[1] == "/" or tags[1].group()[1] != "/":
        return None
    return page[tags[0].start() : tags[1].end()]


def _occurrences(text: str, part: str) -> list[int]:
    starts = []
    start = text.find(part)
    while start != -1:
        starts.append(start)
        start = text.find(part, start + 1)
    return starts


def _digest(html: str) -> bytes:
    return hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).digest()


#: A page's layout: its template, its sidebars, the kinds of its pieces.
Layout = tuple[str, tuple[str, ...], tuple[str, ...]]


@dataclass
class WrittenPieces:
    """Per build: the menus written into each page, and its template and
    sidebars."""

    #: By page name, then kind ("sidebar", "header").
    pieces: dict[str, dict[str, Piece]] = field(default_factory=dict)
    #: By page name: its template and sidebars.
    templates: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    def record(self, pagename: str, templatename: str, context: dict[str, Any]) -> dict[str, Piece]:
        """The page's pieces, to be filled in."""
        self.templates[pagename] = (templatename, tuple(map(str, context.get("sidebars") or ())))
        return self.pieces.setdefault(pagename, {})

    def layouts(self) -> dict[Layout, list[str]]:
        """The pages of each layout, in the order they were written."""
        layouts: dict[Layout, list[str]] = {}
        for pagename, pieces in self.pieces.items():
            if pieces:
                layout = (*self.templates[pagename], tuple(sorted(pieces)))
                layouts.setdefault(layout, []).append(pagename)
        return layouts

    def of(self, pagename: str) -> tuple[Piece, ...]:
        return tuple(piece for _kind, piece in sorted(self.pieces[pagename].items()))


#: How a page is given to the conversion: its article alone, or the page
#: without its menus.
ARTICLE = "article"
WITHOUT_MENUS = "without menus"


@dataclass(frozen=True)
class Lean:
    """How a page is given to the conversion (``form``), and its menus."""

    form: str
    pieces: tuple[Piece, ...]

    def of(self, page: str) -> str | None:
        """What the conversion is given of *page*; None: the page whole (a
        page of the article's form without one article: the form checked
        was the article's)."""
        if self.form == ARTICLE:
            return article_of(page)
        return without_pieces(page, self.pieces)


@dataclass
class Converting:
    """While the theme converts: what its worker processes need to know."""

    #: Each page that may be converted without all of it: how.
    without_pieces: dict[str, Lean] = field(default_factory=dict)
    #: The theme's functions replaced here.
    theme_own: dict[str, Callable[..., Any]] = field(default_factory=dict)


#: The one module-level state, read by the theme's worker processes (which
#: have no build to ask): empty outside the theme's build-finished handler.
CONVERTING = Converting()

#: How the page being converted is given, in this process.
_converting: contextvars.ContextVar[Lean | None] = contextvars.ContextVar(
    "reprodocs_converting", default=None
)


def makes_markdown(app: Sphinx) -> bool:
    """Whether the theme will convert the pages (its extension is loaded)."""
    return "pytorch_sphinx_theme2" in app.extensions


def remembering(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    sidebar: Callable[..., Any],
) -> Callable[..., Any]:
    """The page's sidebar function, remembering what it writes into the page
    (for :mod:`reprodocs.navigation.pydata`, which serves it)."""
    if not converts(app, pagename):
        return sidebar

    def written(*args: Any, **kwargs: Any) -> Any:
        html = sidebar(*args, **kwargs)
        remember(app, pagename, templatename, context, "sidebar", html)
        return html

    return written


def remember(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], kind: str, html: object
) -> None:
    """A menu of this *kind* written into the page, for its conversion (one
    piece of each HTML: each is removed wherever it is written)."""
    if not (converts(app, pagename) and isinstance(html, str) and html):
        return
    piece = Piece.of(html)
    pieces = build_state(app.env, WrittenPieces).record(pagename, templatename, context)
    if piece not in pieces.values():
        pieces[kind] = piece


def converts(app: Sphinx, pagename: str) -> bool:
    """Whether the theme will convert this page (documents only, not genindex
    or search)."""
    return makes_markdown(app) and pagename in app.env.all_docs


def convert_without_menus(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before the theme's: check each layout, then have
    the theme convert the pages of those that pass without their menus."""
    state = build_state(app.env, WrittenPieces)
    theme = _theme_module() if exception is None and state.pieces else None
    if theme is None:
        return
    to_markdown = getattr(theme, HTML_TO_MARKDOWN)
    differing: list[tuple[str, tuple[str, ...], int]] = []
    for (_template, _sidebars, kinds), pagenames in state.layouts().items():
        first = pagenames[0]
        form = _same_markdown(app, to_markdown, first, state.of(first))
        if form is not None:
            CONVERTING.without_pieces.update(
                (name, Lean(form, state.of(name))) for name in pagenames
            )
        else:
            differing.append((first, kinds, len(pagenames)))
    if differing:
        first, kinds, _pages = differing[0]
        logger.info(
            __(
                "reprodocs.navigation: pytorch_sphinx_theme2's Markdown copy of %s differs "
                "without its menus (%s); %d pages, of its layout and any other where it "
                "differs, are converted whole, in the time the theme takes"
            ),
            first,
            ", ".join(kinds),
            sum(pages for _first, _kinds, pages in differing),
        )
    if CONVERTING.without_pieces:
        for name, replacement in REPLACEMENTS.items():
            CONVERTING.theme_own[name] = getattr(theme, name)
            setattr(theme, name, replacement)


def restore_theme_functions(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, after the theme's: its functions back, the
    pieces forgotten."""
    theme = _theme_module()
    if theme is not None:
        for name, function in CONVERTING.theme_own.items():
            setattr(theme, name, function)
    CONVERTING.without_pieces.clear()
    CONVERTING.theme_own.clear()


def _theme_module() -> ModuleType | None:
    try:
        theme = importlib.import_module(THEME_MODULE)
    except ImportError:
        return None
    has_both = callable(getattr(theme, CONVERT_PAGE, None)) and callable(
        getattr(theme, HTML_TO_MARKDOWN, None)
    )
    return theme if has_both else None


def _same_markdown(
    app: Sphinx, to_markdown: Callable[[str], str], pagename: str, pieces: tuple[Piece, ...]
) -> str | None:
    """How the written page gives the theme's Markdown: its article alone,
    or the page without its pieces; None: neither."""
    try:
        page = (app.outdir / app.builder.get_target_uri(pagename)).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    theirs = to_markdown(page)
    article = article_of(page)
    if article is not None and to_markdown(article) == theirs:
        return ARTICLE
    lean = without_pieces(page, pieces)
    return WITHOUT_MENUS if lean is not None and to_markdown(lean) == theirs else None


def convert_page(args: tuple[str, str]) -> Any:
    """The theme's ``_convert_single_doc(args)``, with how the page is given
    known to :func:`html_to_markdown`."""
    token = _converting.set(CONVERTING.without_pieces.get(args[0]))
    try:
        return _theme_own(CONVERT_PAGE)(args)
    finally:
        _converting.reset(token)


def html_to_markdown(html_content: str) -> Any:
    """The theme's ``_html_to_markdown``, given the page's article, or the
    page without its pieces."""
    how = _converting.get()
    lean = how.of(html_content) if how is not None else None
    return _theme_own(HTML_TO_MARKDOWN)(lean if lean is not None else html_content)


#: What replaces the theme's functions while it converts.
REPLACEMENTS: dict[str, Callable[..., Any]] = {
    CONVERT_PAGE: convert_page,
    HTML_TO_MARKDOWN: html_to_markdown,
}


def _theme_own(name: str) -> Callable[..., Any]:
    """The theme's function: kept here in this process and in the worker
    processes forked from it; in those started afresh, never replaced."""
    own = CONVERTING.theme_own.get(name)
    return own if own is not None else getattr(importlib.import_module(THEME_MODULE), name)
