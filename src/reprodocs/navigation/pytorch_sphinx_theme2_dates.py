"""pytorch_sphinx_theme2's per-page git dates, from one walk of the history.

With ``add_last_updated = True``, pytorch_sphinx_theme2 (0.4.13) writes under
each page's title "Created On: ... | Last Updated On: ...", asking its
function ``get_git_dates`` for the page's source (the page's
``sourcename`` in ``srcdir``, ``.txt`` removed): two ``git log`` processes
per page, the second (``--follow``) walking the whole history. On a large
history that is most of the build (docs/performance.rst).

Here that function is replaced by its name in the theme's module (which its
page handler calls it by) while the pages are written, and answers from one
walk of the history for every page (:mod:`reprodocs.navigation.git_history`),
made once per build by the main process: while the sources are read, in a
thread whose git processes run beside the reading, or, with ``-j`` (whose
processes are forked, which a thread must not outlive), when the first page
is written; the writing processes inherit it. The theme's handler does
the rest as it does, so the pages are its own byte for byte. Where git has no
history (no git, no repository, a page outside it) every date is ``Unknown``,
as the theme's failing calls make it. Where the walk cannot answer as git
would (a path git reads as a pattern, a rename git says nothing clear of, a
source the walk did not expect, git failing), the page's dates are the
theme's own, and the log says why once per build.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state, new_build_state
from reprodocs.navigation import outcomes
from reprodocs.navigation.git_history import GLOB, UNKNOWN, History, walk
from reprodocs.navigation.serving import renders_html_menu

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.navigation.registry import Registry

#: The theme's module, its function giving a file's dates, and its setting.
THEME = "pytorch_sphinx_theme2"
GIT_DATES = "get_git_dates"
SETTING = "add_last_updated"
#: What the log calls a page's git dates.
WHAT = "pytorch_sphinx_theme2's git dates"


def setup_pytorch_sphinx_theme2_dates(app: Sphinx, registry: Registry) -> None:
    """It registers no per-build state: ``serve_theme_dates`` makes its
    ``Dates`` anew before the sources are read, not when the pages are."""
    # Before the sources are read: the history is walked meanwhile.
    app.connect("env-before-read-docs", serve_theme_dates)
    # Before the theme's own build-finished handlers (500), which fork.
    app.connect("build-finished", restore_theme_dates, priority=100)
    # Before the theme's handler (priority 500), which asks for the dates.
    app.connect("html-page-context", walk_before_first_page, priority=400)


@dataclass
class Dates:
    """Per build: the page being written, and the walk's answers per source
    path as the theme names it (or why the theme's own)."""

    page: str | None = None
    walked: bool = False
    #: The walk under way while the sources are read, if it is.
    walking: threading.Thread | None = None
    answers: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: Source paths whose dates are the theme's own, and why.
    own: dict[str, str] = field(default_factory=dict)
    #: Why every page's dates are the theme's own, if they are.
    reason: str | None = None


class ServedDates:
    """The theme's ``get_git_dates(file_path)``, answered from the walk."""

    def __init__(self, theme_own: Callable[[str], tuple[str, str]], env: BuildEnvironment) -> None:
        self.theme_own = theme_own
        self.env = env

    def __call__(self, file_path: str) -> tuple[str, str]:
        state = build_state(self.env, Dates)
        why = state.reason or state.own.get(file_path)
        if why is None and file_path not in state.answers:
            why = "a source the walk did not expect"
        if why is not None:
            outcomes.fall_back(
                self.env,
                state.page,
                why,
                __(
                    "reprodocs.navigation: %s on %s (and any other such page) are the theme's own: %s"
                ),
                WHAT,
                state.page,
                why,
                kind=outcomes.DATES,
            )
            return self.theme_own(file_path)
        if state.page is not None:
            outcomes.served(self.env, state.page, outcomes.DATES)
        return state.answers[file_path]


def serve_theme_dates(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> bool:
    """``env-before-read-docs``, where a build starts (its dates' state made
    anew here, not after reading as the menus' are): the theme's
    ``get_git_dates`` served here while the pages are written, where the
    theme writes dates with the html or dirhtml builder. Reading in one
    process, the history is walked meanwhile, in a thread whose git
    processes run beside the reading; with ``-j`` (whose processes are
    forked), when the first page is written. Returns whether it serves."""
    state = new_build_state(env, Dates)
    theme = sys.modules.get(THEME) if THEME in app.extensions else None
    theme_own = getattr(theme, GIT_DATES, None)
    if not (callable(theme_own) and getattr(app.config, SETTING, False)):
        return False
    if not renders_html_menu(app.builder):
        outcomes.log_once(
            env,
            GIT_DATES,
            __("reprodocs.navigation: %s with the %s builder are the theme's own"),
            WHAT,
            app.builder.name,
        )
        return False
    # One left by a build that never finished answers for this one.
    own = theme_own.theme_own if isinstance(theme_own, ServedDates) else theme_own
    setattr(theme, GIT_DATES, ServedDates(own, env))
    if app.parallel <= 1:
        sources = theme_sources(app)
        state.walking = threading.Thread(target=walk_into, args=(state, os.getcwd(), sources))
        state.walking.start()
    return True


def restore_theme_dates(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the theme's own function back (the walk ended,
    if no page was written)."""
    walking = build_state(app.env, Dates).walking
    if walking is not None:
        walking.join()
    theme = sys.modules.get(THEME)
    replaced = getattr(theme, GIT_DATES, None)
    if isinstance(replaced, ServedDates):
        setattr(theme, GIT_DATES, replaced.theme_own)


def walk_before_first_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """``html-page-context``: the page the theme's dates are asked for; on
    the first page, the history walked for every page. (It returns nothing:
    what this event's handlers return is the page's template.)"""
    if isinstance(getattr(sys.modules.get(THEME), GIT_DATES, None), ServedDates):
        state = build_state(app.env, Dates)
        state.page = pagename
        walk_once(app, state)


def walk_once(app: Sphinx, state: Dates) -> bool:
    """The history walked for every page, once per build (or the walk under
    way waited for). Returns whether it walked now."""
    if state.walking is not None:
        state.walking.join()
        state.walking = None
    if state.walked:
        return False
    walk_into(state, os.getcwd(), theme_sources(app))  # where the theme's git runs
    return True


def walk_into(state: Dates, cwd: str, sources: list[str]) -> None:
    """The history of the repository *cwd* is in, walked for the theme's
    *sources*: their answers, or why the theme's own, in *state*."""
    state.walked = True
    try:
        history = walk(cwd)
        if isinstance(history, str):
            state.reason = history
        elif history is None:  # no git or no repository: every call of the theme's fails
            state.answers = dict.fromkeys(sources, (UNKNOWN, UNKNOWN))
        else:
            answer(state, history, sources)
    except Exception as error:  # noqa: BLE001 (lost in a thread; the theme answers instead)
        state.reason = f"the walk failed ({type(error).__name__})"


def answer(state: Dates, history: History, sources: list[str]) -> None:
    """Each source's dates from the walk, as git answers for its path."""
    relative: dict[str, str] = {}
    for source in sources:
        path = in_repository(history.toplevel, source)
        if path is None:
            state.answers[source] = (UNKNOWN, UNKNOWN)  # git: outside the repository
        elif GLOB & set(path):
            state.own[source] = "a path git reads as a pattern"
        else:
            relative[source] = path
    dates, uncertain = history.dates_of(set(relative.values()))
    for source, path in relative.items():
        if path in uncertain:
            state.own[source] = "a rename git does not tell clearly"
        else:
            state.answers[source] = dates[path]


def theme_sources(app: Sphinx) -> list[str]:
    """The paths the theme asks git about, for every document."""
    return [path for path in map(theme_source(app), sorted(app.env.found_docs)) if path]


def theme_source(app: Sphinx) -> Callable[[str], str | None]:
    """The path the theme asks git about for a document: its ``sourcename``
    as the html builder makes it, ``.txt`` removed, in ``srcdir`` (None
    where the page has no ``sourcename``: the theme asks nothing)."""
    config = app.config

    def source(docname: str) -> str | None:
        if not config.html_copy_source:
            return None
        suffix = app.env.doc2path(docname, False)[len(docname) :]
        name = docname + suffix
        if suffix != config.html_sourcelink_suffix:
            name += config.html_sourcelink_suffix
        name = name.removesuffix(".txt")
        return os.path.join(app.srcdir, name)

    return source


def in_repository(toplevel: str, path: str) -> str | None:
    """*path* relative to the work tree at *toplevel*, as git reads an
    absolute path (its folders' links followed), or None outside it."""
    if path.startswith(toplevel + os.sep):
        return path[len(toplevel) + 1 :].replace(os.sep, "/")
    folder, name = os.path.split(path)
    real_top, real_folder = os.path.realpath(toplevel), os.path.realpath(folder)
    if real_folder == real_top:
        return name
    if real_folder.startswith(real_top + os.sep):
        return f"{real_folder[len(real_top) + 1 :]}/{name}".replace(os.sep, "/")
    return None
