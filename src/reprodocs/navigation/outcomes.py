"""What the navigation did in a build, and its one fallback policy.

Every module that serves a theme's menu tells here, for each page, whether
the menu it wrote is this extension's or the theme's own (Sphinx's for
``toctree()``), and why: a menu this extension cannot give byte for byte as
the theme would is the theme's own, and the log says so once per build and
reason. A menu written from a model is compared with the theme's own on the
pages :meth:`Outcomes.claim_check` picks (the self-check): on a difference the
theme's own is used from then on. When the build has finished, one line of
the log says which themes were recognised and on how many pages the menus
were served, or why not.

Writing in parallel (``-j``), Sphinx writes pages in forked processes, whose
state never comes back to the main process (the public events give no way
back). So each writing process appends its pages' outcomes to a file of its
own, in a folder made for the build, and the main process reads them when
the build has finished.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from reprodocs.base.i18n import __
from reprodocs.base.state import build_state

if TYPE_CHECKING:
    from collections.abc import Hashable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

#: What a page's outcome is when its menus were served here.
SERVED = ""
#: What is served on a page, each counted apart: its menus, and
#: pytorch_sphinx_theme2's git dates (``pytorch_sphinx_theme2_dates``).
MENUS = "menus"
DATES = "dates"


@dataclass
class Outcomes:
    """Per build: each page's outcome (``SERVED`` or why the theme's own),
    the themes recognised, what the log told and the self-check compared."""

    pages: dict[str, str] = field(default_factory=dict)
    #: Each page's outcome for its dates, where they were asked for.
    dates: dict[str, str] = field(default_factory=dict)
    #: The themes whose menus this extension knows, as recognised ("furo 2025.12.19").
    themes: dict[str, None] = field(default_factory=dict)
    logged: set[str] = field(default_factory=set)
    checked: set[Hashable] = field(default_factory=set)
    #: The process the build runs in, and the folder of the writing
    #: processes' outcomes (made when the build may write in parallel).
    pid: int = field(default_factory=os.getpid)
    folder: Path | None = None
    #: This writing process's file (its descriptor), once opened.
    file: int | None = None

    def claim_check(self, key: Hashable) -> bool:
        """Claim the self-check of *key* for the page at hand: True for the
        first claim of each key (once per key and build, in each writing
        process), which compares the page with the theme's own."""
        if key in self.checked:
            return False
        self.checked.add(key)
        return True

    def record(self, pagename: str, outcome: str, kind: str = MENUS) -> None:
        """The page's outcome for its *kind*: the theme's own on a page wins
        over served, the first reason kept."""
        outcomes = self.dates if kind == DATES else self.pages
        if not outcomes.get(pagename):
            outcomes[pagename] = outcome
        if self.folder is not None and os.getpid() != self.pid:
            if self.file is None:
                path = self.folder / f"{os.getpid()}.tsv"
                self.file = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            line = f"{kind}\t{pagename}\t{outcome}\n"
            os.write(self.file, line.encode("utf-8", "surrogatepass"))


def start(app: Sphinx, env: BuildEnvironment) -> None:
    """A build starts (its state already made anew): writing in parallel, a
    folder for the writing processes' outcomes."""
    if app.parallel > 1:
        build_state(env, Outcomes).folder = Path(tempfile.mkdtemp(prefix="reprodocs-navigation-"))


def recognise(env: BuildEnvironment, theme: str) -> None:
    """A theme whose menus this extension knows, as the summary names it."""
    build_state(env, Outcomes).themes.setdefault(theme)


def served(env: BuildEnvironment, pagename: str, kind: str = MENUS) -> None:
    """The page's menu (or *kind*) was served here."""
    build_state(env, Outcomes).record(pagename, SERVED, kind)


def record_fallback(env: BuildEnvironment, pagename: str, what: str, kind: str = MENUS) -> None:
    """Record that the page's menu (or *kind*) is the theme's own because of
    *what*, which the log told already (see :func:`fall_back`)."""
    build_state(env, Outcomes).record(pagename, what, kind)


def log_once(env: BuildEnvironment, what: str, message: str, *args: object) -> None:
    """Tell the log, once per build (and writing process) and *what*."""
    logged = build_state(env, Outcomes).logged
    if what not in logged:
        logged.add(what)
        logger.info(message, *args)


def fall_back(
    env: BuildEnvironment,
    pagename: str | None,
    what: str,
    message: str,
    *args: object,
    kind: str = MENUS,
) -> None:
    """The fallback policy: the page's menu (or *kind*) is the theme's own
    because of *what*, recorded; the log says so once per build and *what*."""
    if pagename is not None:
        record_fallback(env, pagename, what, kind)
    log_once(env, what, message, *args)


def summarise(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: one line saying what the navigation did."""
    state = build_state(app.env, Outcomes)
    pages = dict(state.pages)
    dates = dict(state.dates)
    if state.folder is not None:
        for path in sorted(state.folder.glob("*.tsv")):
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                kind, _, line = line.partition("\t")
                pagename, _, outcome = line.partition("\t")
                outcomes = dates if kind == DATES else pages
                if not outcomes.get(pagename):
                    outcomes[pagename] = outcome
        shutil.rmtree(state.folder, ignore_errors=True)
        state.folder = None
    if exception is None:
        # A theme that asks for toctree() is served whatever its version.
        themes = list(state.themes) or [f"{app.config.html_theme} (toctree())"]
        logger.info(summary(themes, pages, dates))


def summary(themes: list[str], pages: dict[str, str], dates: dict[str, str] | None = None) -> str:
    """The summary's line, from the themes recognised and each page's
    outcome (its menus, and its dates where any page asked for them)."""
    theme = ", ".join(themes)
    if not pages:
        line = __("reprodocs.navigation: %s: no page asked for a menu it serves") % theme
    else:
        line = __("reprodocs.navigation: %s: menus served on %d of %d pages") % (
            theme,
            served_count(pages),
            len(pages),
        ) + fallbacks_part(pages, __("; the theme's own on %d: %s"))
    if dates:
        line += __("; dates served on %d of %d pages") % (served_count(dates), len(dates))
        line += fallbacks_part(dates, __("; the theme's own dates on %d: %s"))
    return line


def served_count(outcomes: dict[str, str]) -> int:
    """How many pages were served."""
    return sum(outcome == SERVED for outcome in outcomes.values())


def fallbacks_part(outcomes: dict[str, str], wording: str) -> str:
    """The summary's part saying where the theme's own was used, and why
    (*wording*: how many, and the reasons)."""
    reasons = Counter(outcome for outcome in outcomes.values() if outcome != SERVED)
    if not reasons:
        return ""
    named = "; ".join(f"{reason} ({count})" for reason, count in reasons.most_common())
    return wording % (reasons.total(), named)
