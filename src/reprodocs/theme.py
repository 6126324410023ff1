"""The reprodocs HTML theme: ``html_theme = "reprodocs"``.

A thin child of sphinx_rtd_theme (``templates/theme``): its layout overrides
rtd's blocks to give pages the anatomy of PyTorch 1.4's (header bar, left
menu, breadcrumbs, footer, resources row, site footer, mobile menu), valid,
accessible, without trackers or requests to other sites, and with a dark mode.
Sphinx loads this module through the ``sphinx.html_themes`` entry point.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import TYPE_CHECKING

from sphinx.util import logging

from reprodocs import __version__
from reprodocs.wording import templates_dir

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

THEME_DIR = templates_dir() / "theme"

#: The options that are lists of entries, and the keys each entry needs.
#: The templates skip an entry that is not a mapping; these warnings say why.
LIST_OPTIONS: dict[str, tuple[str, ...]] = {
    "header_links": ("title",),
    "resources": ("title", "url"),
    "footer_columns": ("title",),
    "social_links": ("name", "url"),
}

logger = logging.getLogger(__name__)


def setup(app: Sphinx) -> ExtensionMetadata:
    # First, so that rtd's setup has run when ours changes what it set.
    app.setup_extension("sphinx_rtd_theme")
    app.add_html_theme("reprodocs", str(THEME_DIR))
    # rtd makes the permalink sign a FontAwesome glyph: every page with a
    # heading would download the 77 KB icon font. Sphinx's own sign instead.
    app.config.html_permalinks_icon = "¶"
    app.connect("builder-inited", check_theme_options)
    # The menu in linear time, the same as Sphinx's (reprodocs/navigation.py).
    app.setup_extension("reprodocs.navigation")
    # After the menu extension, so that it corrects the menu it made.
    app.connect("html-page-context", give_captions_a_level, priority=600)
    app.connect("html-page-context", leave_out_jquery_shim)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def check_theme_options(app: Sphinx) -> None:
    """Warn about entries of the list options that the templates cannot show."""
    if app.config.html_theme != "reprodocs":
        return
    options = app.config.html_theme_options
    for option, required in LIST_OPTIONS.items():
        value = options.get(option, [])
        if not isinstance(value, (list, tuple)):
            warn(f"html_theme_options[{option!r}] must be a list, not {type(value).__name__}")
            continue
        for position, entry in enumerate(value):
            where = f"html_theme_options[{option!r}][{position}]"
            if not isinstance(entry, Mapping):
                warn(f"{where} must be a dict, not {type(entry).__name__}; it is left out")
                continue
            missing = [key for key in required if not entry.get(key)]
            if option == "header_links" and not entry.get("url") and not entry.get("children"):
                missing.append("url (or children)")
            if missing:
                warn(f"{where} has no {', '.join(missing)}")


#: Sphinx writes a toctree's caption as ``<p class="caption" role="heading">``
#: without the aria-level that role requires (axe: aria-required-attr,
#: critical), in the left menu and in the article alike.
CAPTION = ' role="heading">'
CAPTION_WITH_LEVEL = ' role="heading" aria-level="2">'


def give_captions_a_level(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: object
) -> None:
    """Add the level to the captions of the page's toctrees and of the menu's.

    Sphinx's writer gives no hook for that attribute, so its output is
    corrected; text never contains the pattern, which has a raw quote mark.
    """
    if "body" in context:
        context["body"] = context["body"].replace(CAPTION, CAPTION_WITH_LEVEL)
    if toctree := context.get("toctree"):
        context["toctree"] = lambda **kwargs: toctree(**kwargs).replace(CAPTION, CAPTION_WITH_LEVEL)


#: sphinxcontrib-jquery's shim of the jQuery helpers Sphinx 5 had. rtd's
#: JavaScript, the only jQuery code the theme brings, does not use it, and
#: it is 4 KB of every page's 300 KB budget.
JQUERY_SHIM = "_sphinx_javascript_frameworks_compat.js"


def leave_out_jquery_shim(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree: object
) -> None:
    if "script_files" in context:
        context["script_files"] = [
            script
            for script in context["script_files"]
            if posixpath.basename(getattr(script, "filename", script)) != JQUERY_SHIM
        ]


def warn(message: str) -> None:
    logger.warning(message, type="reprodocs", subtype="theme")
