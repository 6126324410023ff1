"""pytorch_sphinx_theme2's Markdown copies without parsing the sidebar again.

When the build is done, pytorch_sphinx_theme2 (0.4.13) converts every page it
wrote into Markdown for LLMs (its ``llm_generation``: ``<page>.md`` and
``llms-full.txt``). ``_convert_single_doc`` reads the page and
``_html_to_markdown`` parses all of it with BeautifulSoup, removes its
``<nav>``, ``<aside>``, header and footer, and converts what is left of the
article. On PyTorch's docs the sidebar is nearly all of a page (about 2,800
links, 400 KB of a 430 KB page): parsed only to be removed, once the sidebar
is served in linear time it was most of the build (4.6 times the theme without
a sidebar, on PyTorch's tree).

Here the conversion is given each page without the sidebar
:mod:`reprodocs.navigation.pydata` wrote into it, known by its length and
digest (a page that does not hold it whole, once, is converted as it is).
That is the same Markdown only because the sidebar sits where the theme's
conversion removes it; so before the theme converts anything, the first page
of each layout (template and sidebars) is converted both ways and compared,
and a layout whose Markdown differs is converted whole, and the log says so.

This is the one place where reprodocs replaces a theme's functions: the two
names above in ``pytorch_sphinx_theme2.llm_generation``, only while the
theme's ``build-finished`` handler runs, each calling the theme's own. The
theme converts pages in worker processes; forked ones inherit the pages'
sidebars from :data:`CONVERTING`, others (``spawn``, ``forkserver``)
convert whole pages, as the theme does. Pages written by parallel writing
processes are converted whole too.
"""

from __future__ import annotations

import contextvars
import hashlib
import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from reprodocs.base import __version__
from reprodocs.base.state import build_state

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

logger = logging.getLogger(__name__)

#: The theme's module and the two functions replaced while it converts.
THEME_MODULE = "pytorch_sphinx_theme2.llm_generation"
CONVERT_PAGE = "_convert_single_doc"
HTML_TO_MARKDOWN = "_html_to_markdown"

#: How much of a sidebar's start is looked for in its page.
_PREFIX = 256


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("env-get-updated", forget_sidebars)
    # Around the theme's _generate_llms_txt (priority 500).
    app.connect("build-finished", convert_without_sidebars, priority=400)
    app.connect("build-finished", restore_theme_functions, priority=600)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


@dataclass(frozen=True)
class Sidebar:
    """A sidebar as written into a page: enough to find it there again."""

    length: int
    prefix: str
    digest: bytes

    @classmethod
    def of(cls, html: str) -> Sidebar:
        return cls(len(html), html[:_PREFIX], _digest(html))

    def removed_from(self, page: str) -> str | None:
        """The page without this sidebar, None unless it holds it once."""
        found = [
            start
            for start in _occurrences(page, self.prefix)
            if _digest(page[start : start + self.length]) == self.digest
        ]
        if len(found) != 1:
            return None
        return page[: found[0]] + page[found[0] + self.length :]


def _occurrences(text: str, part: str) -> list[int]:
    starts = []
    start = text.find(part)
    while start != -1:
        starts.append(start)
        start = text.find(part, start + 1)
    return starts


def _digest(html: str) -> bytes:
    return hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass
class WrittenSidebars:
    """Per build: the sidebar written into each page, and each page's layout."""

    #: By page name.
    sidebars: dict[str, Sidebar] = field(default_factory=dict)
    #: The pages of each layout (template name and sidebars), first one first.
    layouts: dict[tuple[str, tuple[str, ...]], list[str]] = field(default_factory=dict)


@dataclass
class Converting:
    """While the theme converts: what its worker processes need to know."""

    #: The sidebar of each page that may be converted without it.
    without_sidebar: dict[str, Sidebar] = field(default_factory=dict)
    #: The theme's functions replaced here.
    theme_own: dict[str, Callable[..., Any]] = field(default_factory=dict)


#: The one module-level state, read by the theme's worker processes (which
#: have no build to ask): empty outside the theme's build-finished handler.
CONVERTING = Converting()

#: The page being converted, in this process.
_converting: contextvars.ContextVar[Sidebar | None] = contextvars.ContextVar(
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
    if not makes_markdown(app) or pagename not in app.env.all_docs:
        return sidebar  # the theme converts documents only, not genindex or search
    state = build_state(app.env, WrittenSidebars)

    def written(*args: Any, **kwargs: Any) -> Any:
        html = sidebar(*args, **kwargs)
        if isinstance(html, str) and html:
            if pagename not in state.sidebars:
                layout = (templatename, tuple(map(str, context.get("sidebars") or ())))
                state.layouts.setdefault(layout, []).append(pagename)
            state.sidebars[pagename] = Sidebar.of(html)
        return html

    return written


def forget_sidebars(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: forget the sidebars of the last build."""
    state = build_state(env, WrittenSidebars)
    state.sidebars.clear()
    state.layouts.clear()
    return []


def convert_without_sidebars(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, before the theme's: check each layout, then have
    the theme convert the pages of those that pass without their sidebar."""
    state = build_state(app.env, WrittenSidebars)
    theme = _theme_module() if exception is None and state.sidebars else None
    if theme is None:
        return
    to_markdown = getattr(theme, HTML_TO_MARKDOWN)
    for (templatename, _sidebars), pagenames in state.layouts.items():
        first = pagenames[0]
        if not _same_markdown(app, to_markdown, first, state.sidebars[first]):
            logger.info(
                "reprodocs.navigation: pytorch_sphinx_theme2's Markdown copy of %s differs "
                "without its sidebar; the pages written with %s and these sidebars are "
                "converted whole, in the time the theme takes",
                first,
                templatename,
            )
            continue
        CONVERTING.without_sidebar.update((name, state.sidebars[name]) for name in pagenames)
    if CONVERTING.without_sidebar:
        for name, replacement in REPLACEMENTS.items():
            CONVERTING.theme_own[name] = getattr(theme, name)
            setattr(theme, name, replacement)


def restore_theme_functions(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``, after the theme's: its functions back, the
    sidebars forgotten."""
    theme = _theme_module()
    if theme is not None:
        for name, function in CONVERTING.theme_own.items():
            setattr(theme, name, function)
    vars(CONVERTING).update(vars(Converting()))


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
    app: Sphinx, to_markdown: Callable[[str], str], pagename: str, sidebar: Sidebar
) -> bool:
    """Whether the theme's Markdown of the written page is the same without
    its sidebar."""
    try:
        page = (app.outdir / app.builder.get_target_uri(pagename)).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    lean = sidebar.removed_from(page)
    return lean is not None and to_markdown(lean) == to_markdown(page)


def convert_page(args: tuple[str, str]) -> Any:
    """The theme's ``_convert_single_doc(args)``, with the page's sidebar
    known to :func:`html_to_markdown`."""
    token = _converting.set(CONVERTING.without_sidebar.get(args[0]))
    try:
        return _theme_own(CONVERT_PAGE)(args)
    finally:
        _converting.reset(token)


def html_to_markdown(html_content: str) -> Any:
    """The theme's ``_html_to_markdown``, given the page without its sidebar."""
    sidebar = _converting.get()
    lean = sidebar.removed_from(html_content) if sidebar is not None else None
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
