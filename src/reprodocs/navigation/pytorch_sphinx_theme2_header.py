"""pytorch_sphinx_theme2's header menu, rendered once per directory and entries.

pytorch_sphinx_theme2 (0.4.13) gives pydata-sphinx-theme's header its own
``navbar-nav.html``: every entry of the root document's toctrees, each with a
dropdown of the children of its toctree (``hierarchical_header_nav``, which
the theme builds for each page, its own section marked current). pydata
includes the template twice on every page: in the header, and in the primary
sidebar for small screens, every entry shown
(``theme_header_links_before_dropdown=999``). Under a large section, each
page writes every link of it twice through the template's loop and the
builder's ``pathto``: most of the build's time (docs/performance.rst).

What the template writes depends on the page only through what it reads
(``jinja2.meta``): the entries, two theme options, and ``pathto``, whose
links are relative to the page's directory, but for the link to the page
itself ("#"). So here the page's ``theme_navbar_center`` names, instead of
the theme's template, one that asks :func:`header_menu` for it. The first
page of each directory, entries and options gets the theme's template,
rendered with the page's context; its ``pathto`` answers with :class:`Link`,
a ``str`` that stays itself in the template's output, so that where each link
was written is known. A page of the same key gets that HTML with the links to
the first page and to itself made its own: its own ``pathto``'s answers, put
where those links were written.

A link the template writes through a macro (an entry's own link, not its
children's) cannot be found that way: the pages such links point to get the
theme's template, rendered for them. The second page of each key is compared
with the theme's own; on a difference the key's pages get the theme's own
from then on. A template that reads anything else or includes another (a
project's own ``navbar-nav.html``), and a builder other than html and
dirhtml, get the theme's own. The log says so, once per build.

Each menu a page holds is also remembered for its Markdown copy
(:mod:`reprodocs.navigation.markdown_copies`), which the theme converts
without it.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from jinja2 import Template, TemplateError, meta, pass_context

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state
from reprodocs.navigation import outcomes
from reprodocs.navigation.markdown_copies import remember
from reprodocs.navigation.serving import renders_html_menu

if TYPE_CHECKING:
    from collections.abc import Callable

    from jinja2.runtime import Context
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.navigation.registry import Registry

#: The theme's template of the header's menu, and where the page says it is
#: written (pydata-sphinx-theme's ``navbar_center``, template names).
HEADER_MENU = "navbar-nav.html"
HEADER_PLACE = "theme_navbar_center"
#: The page context's entries of the menu (empty, the template calls
#: pydata-sphinx-theme's ``generate_header_nav_html``, served by
#: :mod:`reprodocs.navigation.pydata`).
HEADER_ENTRIES = "hierarchical_header_nav"
LINKS_BEFORE_DROPDOWN = "theme_header_links_before_dropdown"
#: What pytorch_sphinx_theme2 0.4.13's template reads (``jinja2.meta``).
TEMPLATE_READS = frozenset(
    {
        "pathto",
        HEADER_ENTRIES,
        LINKS_BEFORE_DROPDOWN,
        "theme_enable_navbar_dropdowns",
        "generate_header_nav_html",
    }
)
#: The theme options the template reads (``pathto`` is the page's links;
#: pydata's function is only called without entries, never served).
OPTIONS = tuple(sorted(TEMPLATE_READS - {"pathto", "generate_header_nav_html", HEADER_ENTRIES}))
#: The theme's module, and its function listing an entry's children.
THEME = "pytorch_sphinx_theme2"
CHILDREN = "_get_toctree_children"
#: pydata-sphinx-theme's copy for small screens (sections/sidebar-primary.html).
SMALL_SCREENS = 999
#: Its name as a kind of menu a page holds.
SMALL = "header for small screens"
#: What the page's ``theme_navbar_center`` names instead of the theme's template.
SERVED = "{{ reprodocs_header_menu() }}"


def setup_pytorch_sphinx_theme2_header(app: Sphinx, registry: Registry) -> None:
    app.connect("env-get-updated", list_children_once)
    app.connect("build-finished", restore_theme_children)
    # After the theme's own html-page-context handlers (priority 500), which
    # fill in the entries and pydata's lists of templates.
    app.connect("html-page-context", serve_header_menu, priority=700)
    registry.add(HeaderMenus)


class Link(str):
    """What ``pathto(target)`` answered, staying itself through the
    template's output (Jinja writes ``str(value)``)."""

    target: str

    def __new__(cls, value: str, target: str) -> Self:
        link = super().__new__(cls, value)
        link.target = target
        return link

    def __str__(self) -> str:
        return self


@dataclass(frozen=True)
class Recorded:
    """The theme's menu for the first page of a key, and where its links are."""

    pagename: str
    #: The first page's entries.
    entries: list[dict[str, Any]]
    html: str
    #: By target page: where the template wrote ``pathto(target)``.
    links: dict[str, list[tuple[int, int]]]
    #: The pages the template linked other than through ``pathto``'s own
    #: output (through a macro): a page among them needs its own rendering.
    hidden: frozenset[str]

    def for_page(self, pagename: str, pathto: Callable[[str], str], entries: Any) -> str | None:
        """The menu of another page of the key, None if it needs its own (it
        is linked other than through ``pathto``, or its entries differ)."""
        if pagename in self.hidden or entries != self.entries:
            return None
        spans = sorted(
            (start, end, target)
            for target in {self.pagename, pagename}
            for start, end in self.links.get(target, ())
        )
        parts = []
        written = 0
        for start, end, target in spans:
            parts += [self.html[written:start], pathto(target)]
            written = end
        parts.append(self.html[written:])
        return "".join(parts)


#: (the page's directory, the options, each entry but its lists)
_Key = tuple[str, tuple[Any, ...], tuple[tuple[tuple[str, Any], ...], ...]]


@dataclass
class HeaderMenus:
    """Per build: the header menus rendered once per key."""

    #: The theme's template and the one named instead, once looked up (None:
    #: not served).
    templates: tuple[Template, Template] | None = None
    looked_up: bool = False
    #: By key: the first page's menu; None where the key's pages get the
    #: theme's own (it differed on the second).
    recorded: dict[_Key, Recorded | None] = field(default_factory=dict)
    #: The theme's lists of each entry's children, by entry.
    children: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: The keys whose second page was compared.
    compared: set[_Key] = field(default_factory=set)


class ListedOnce:
    """The theme's ``_get_toctree_children(app, docname)``, called once per
    entry in a build: for each page a new list of the same children (which
    the theme and its template only read; new ones would cost a page as
    much as the theme's own, in the garbage collector's time)."""

    def __init__(self, theme_own: Callable[[Sphinx, str], Any]) -> None:
        self.theme_own = theme_own

    def __call__(self, app: Sphinx, docname: str) -> Any:
        listed = build_state(app.env, HeaderMenus).children
        if docname not in listed:
            listed[docname] = self.theme_own(app, docname)
        children = listed[docname]
        return list(children) if isinstance(children, list) else children


def list_children_once(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: while the pages are written (the environment no
    longer changes), the theme's function listing an entry's children for
    the header answers once per entry. The theme calls it for every entry on
    every page, making each child's title text: under a large section, a
    good part of the build. It is the theme's private function, replaced
    by its name in the theme's module (which the theme calls it by) until
    the build finishes; a theme without it lists them itself."""
    theme = sys.modules.get(THEME) if THEME in app.extensions else None
    theme_own = getattr(theme, CHILDREN, None)
    if callable(theme_own) and not isinstance(theme_own, ListedOnce):
        setattr(theme, CHILDREN, ListedOnce(theme_own))
    return []


def restore_theme_children(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the theme's own function back."""
    theme = sys.modules.get(THEME)
    replaced = getattr(theme, CHILDREN, None)
    if isinstance(replaced, ListedOnce):
        setattr(theme, CHILDREN, replaced.theme_own)


def serve_header_menu(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``, after the theme's: the page's header menu named
    as one :func:`header_menu` writes."""
    place = context.get(HEADER_PLACE)
    if not (isinstance(place, list) and HEADER_MENU in place and context.get(HEADER_ENTRIES)):
        return
    if THEME in app.extensions:
        outcomes.recognise(app.env, f"{THEME} {app.extensions[THEME].version}")
    state = build_state(app.env, HeaderMenus)
    if not renders_html_menu(app.builder):
        outcomes.fall_back(
            app.env,
            pagename,
            f"the header menu with the {app.builder.name} builder",
            __(
                "reprodocs.navigation: pytorch_sphinx_theme2's header menu with the %s builder "
                "is the theme's own, in the time the theme takes"
            ),
            app.builder.name,
        )
        return
    templates = _templates(app, state)
    if templates is None:
        outcomes.record_fallback(app.env, pagename, "a header menu template of its own")
        return
    theme_template, served = templates
    context[HEADER_PLACE] = [served if name == HEADER_MENU else name for name in place]
    context["reprodocs_header_menu"] = pass_context(
        functools.partial(header_menu, app, state, theme_template, pagename, templatename, context)
    )


def _templates(app: Sphinx, state: HeaderMenus) -> tuple[Template, Template] | None:
    """The theme's template, if it reads only what a key holds, and the one
    named instead."""
    if not state.looked_up:
        state.looked_up = True
        environment = app.builder.templates.environment
        try:
            template = environment.get_template(HEADER_MENU)
            source, _filename, _uptodate = environment.loader.get_source(environment, HEADER_MENU)
            tree = environment.parse(source)
        except (TemplateError, OSError):
            return None  # the page's own rendering says what is wrong
        reads = meta.find_undeclared_variables(tree)
        includes = [str(name) for name in meta.find_referenced_templates(tree)]
        if reads <= TEMPLATE_READS and not includes:
            state.templates = (template, environment.from_string(SERVED))
        else:
            outcomes.log_once(
                app.env,
                "a header menu template of its own",
                __(
                    "reprodocs.navigation: the header menu %s reads %s: it is the theme's "
                    "own, in the time the theme takes"
                ),
                HEADER_MENU,
                ", ".join(sorted(reads - TEMPLATE_READS) + includes),
            )
    return state.templates


def header_menu(
    app: Sphinx,
    state: HeaderMenus,
    template: Template,
    pagename: str,
    templatename: str,
    page_context: dict[str, Any],
    context: Context,
) -> str:
    """The page's header menu, in either form (the context of the template
    that includes it tells which): the theme's, or that of the first page of
    its key with the page's own links."""
    pathto = context.get("pathto")
    entries = context.get(HEADER_ENTRIES)
    key = _key(app.builder.get_target_uri(pagename), context, entries)
    if key is None or not callable(pathto):
        html = _theme_own(template, context)
    elif key not in state.recorded:
        html, recorded = _recorded(template, context, pathto, pagename)
        if isinstance(recorded, Recorded):
            state.recorded[key] = recorded
        elif recorded is not None:
            outcomes.log_once(
                app.env,
                "header menu unshared",
                __(
                    "reprodocs.navigation: pytorch_sphinx_theme2's header menu %s; it is the "
                    "theme's own on each page, in the time the theme takes"
                ),
                recorded,
            )
    else:
        html = _served(app, state, key, template, context, pathto, pagename)
    small = context.get(LINKS_BEFORE_DROPDOWN) == SMALL_SCREENS
    remember(app, pagename, templatename, page_context, SMALL if small else "header", html)
    return html


def _key(uri: str, context: Context, entries: Any) -> _Key | None:
    """What the menu depends on besides its links and the entries' lists of
    children (compared as a whole): the page's directory, the options, each
    entry's title, target and marks; None if any is not a plain value."""
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        return None
    key = (
        uri.rpartition("/")[0],
        tuple(context.get(name) for name in OPTIONS),
        tuple(
            tuple((name, value) for name, value in entry.items() if not isinstance(value, list))
            for entry in entries
        ),
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _served(
    app: Sphinx,
    state: HeaderMenus,
    key: _Key,
    template: Template,
    context: Context,
    pathto: Callable[[str], str],
    pagename: str,
) -> str:
    recorded = state.recorded[key]
    entries = context.get(HEADER_ENTRIES)
    html = recorded.for_page(pagename, pathto, entries) if recorded is not None else None
    if html is None:
        return _theme_own(template, context)
    if key in state.compared:
        return html
    state.compared.add(key)
    theirs = _theme_own(template, context)
    if theirs != html:
        state.recorded[key] = None
        outcomes.log_once(
            app.env,
            "header menu differs",
            __(
                "reprodocs.navigation: pytorch_sphinx_theme2's header menu on %s differs from "
                "that of %s; on the pages of its directory and entries it is the theme's own"
            ),
            pagename,
            recorded.pagename,  # type: ignore[union-attr]
        )
    return theirs


def _theme_own(template: Template, context: Context) -> str:
    """The theme's template, rendered as the page's ``{% include %}`` would."""
    return "".join(template.generate(context.get_all()))


def _recorded(
    template: Template, context: Context, pathto: Callable[..., str], pagename: str
) -> tuple[str, Recorded | str | None]:
    """The theme's menu for this page, and where its links are; None if
    another page cannot have it because a link to this page is hidden (the
    next page of the key is recorded instead), or why no page can."""
    called: dict[str, int] = {}
    other_calls = False

    def recording_pathto(*args: Any, **kwargs: Any) -> str:
        nonlocal other_calls
        answer = pathto(*args, **kwargs)
        if len(args) != 1 or kwargs or not isinstance(args[0], str):
            other_calls = True
            return answer
        called[args[0]] = called.get(args[0], 0) + 1
        return Link(answer, args[0])

    parts: list[str] = []
    links: dict[str, list[tuple[int, int]]] = {}
    length = 0
    for part in template.generate({**context.get_all(), "pathto": recording_pathto}):
        if type(part) is Link:
            links.setdefault(part.target, []).append((length, length + len(part)))
        parts.append(part)
        length += len(part)
    html = "".join(parts)
    hidden = frozenset(
        target for target, calls in called.items() if calls > len(links.get(target, ()))
    )
    if other_calls:
        return html, "asks pathto for more than a page's link"
    if pagename in hidden:
        return html, None
    return html, Recorded(pagename, context.get(HEADER_ENTRIES), html, links, hidden)
