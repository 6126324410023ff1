"""What the theme's templates get from each page's context: its words in
the reader's language, and only the scripts the page needs."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.locale import get_translator

from reprodocs.base.i18n import CATALOG
from reprodocs.base.paths import templates

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def uses_this_theme(builder: object) -> bool:
    """Whether *builder* writes pages in this theme or in one inheriting
    from it (a child theme gets the theme's options checked, its words, its
    translator and its strict-CSP files alike)."""
    theme = getattr(builder, "theme", None)
    if theme is None:
        return False
    ours = templates("theme").resolve()
    return any(Path(directory).resolve() == ours for directory in theme.get_theme_dirs())


def translate_theme_words(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """Give the templates ``reprodocs_gettext``: every word of the theme is a
    message of the reprodocs catalog (``make catalog`` extracts them)."""
    context["reprodocs_gettext"] = theme_gettext


def theme_gettext(message: str) -> str:
    """A message of the theme in the reader's language: the reprodocs
    catalog's translation, else that of Sphinx's catalog, where the messages
    the theme shares with Sphinx and sphinx_rtd_theme have more languages."""
    translated = get_translator(CATALOG).gettext(message)
    return get_translator().gettext(message) if translated == message else translated


#: sphinxcontrib-jquery's files, which sphinx_rtd_theme adds to every page
#: for its theme.js. This theme's pages do not use jQuery: 94 KB of each.
JQUERY_FILES = frozenset({"jquery.js", "_sphinx_javascript_frameworks_compat.js"})
#: Sphinx's highlighter of search terms: needed on the search page (which
#: records the terms) and on a page opened from its results, where
#: reprodocs.js loads it. Left out of every page's scripts, 5 KB lighter.
HIGHLIGHTER = "sphinx_highlight.js"


def leave_out_scripts(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """Leave jQuery out of every page, Sphinx's highlighter out of all but
    the search page."""
    if "script_files" not in context or not uses_this_theme(app.builder):
        return
    left_out = JQUERY_FILES if templatename == "search.html" else JQUERY_FILES | {HIGHLIGHTER}
    context["script_files"] = [
        script
        for script in context["script_files"]
        if posixpath.basename(getattr(script, "filename", script) or "") not in left_out
    ]
