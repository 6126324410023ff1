"""The reprodocs HTML theme: ``html_theme = "reprodocs"``.

A thin child of sphinx_rtd_theme (``templates/theme``): rtd's stylesheet and
markup, in a layout of its own that gives pages the anatomy of PyTorch 1.4's
(header bar, left menu, breadcrumbs, footer, resources row, site footer,
mobile menu), valid, accessible, without trackers, requests to other sites or
inline code (pages work under a strict Content-Security-Policy), translated,
and with a dark mode. Sphinx loads this module through the
``sphinx.html_themes`` entry point.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.locale import get_translator
from sphinx.writers.html5 import HTML5Translator

from reprodocs import __version__
from reprodocs.report import warn
from reprodocs.wording import CATALOG, LOCALE_DIR, __, templates_dir

if TYPE_CHECKING:
    from docutils.nodes import Element
    from sphinx.application import Sphinx

    # Private, for the type only: what Sphinx 7.2 and later put in script_files.
    from sphinx.builders.html._assets import _JavaScript
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


def setup(app: Sphinx) -> ExtensionMetadata:
    # First, so that rtd's setup has run when ours changes what it set.
    app.setup_extension("sphinx_rtd_theme")
    app.add_html_theme("reprodocs", str(THEME_DIR))
    # rtd makes the permalink sign a FontAwesome glyph: every page with a
    # heading would download the 77 KB icon font. Sphinx's own sign instead.
    app.config.html_permalinks_icon = "¶"  # type: ignore[attr-defined, unused-ignore]
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))
    app.connect("builder-inited", check_theme_options)
    # The menu in linear time, the same as Sphinx's (reprodocs/navigation.py).
    app.setup_extension("reprodocs.navigation")
    app.connect("builder-inited", give_captions_a_level)
    app.connect("html-page-context", translate_theme_words)
    app.connect("html-page-context", leave_out_scripts)
    app.connect("html-page-context", inline_scripts_to_files)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def check_theme_options(app: Sphinx) -> None:
    """Warn about entries of the list options that the templates cannot show."""
    if app.config.html_theme != "reprodocs":
        return
    options = app.config.html_theme_options
    for option, required in LIST_OPTIONS.items():
        value = options.get(option, [])
        if not isinstance(value, (list, tuple)):
            warn(
                "theme",
                __("html_theme_options[%r] must be a list, not %s"),
                option,
                type(value).__name__,
            )
            continue
        for position, entry in enumerate(value):
            where = f"html_theme_options[{option!r}][{position}]"
            if not isinstance(entry, Mapping):
                warn(
                    "theme",
                    __("%s must be a dict, not %s; it is left out"),
                    where,
                    type(entry).__name__,
                )
                continue
            missing = [key for key in required if not entry.get(key)]
            if option == "header_links" and not entry.get("url") and not entry.get("children"):
                missing.append(__("url (or children)"))
            if missing:
                warn("theme", __("%s has no %s"), where, ", ".join(missing))


def give_captions_a_level(app: Sphinx) -> None:
    """Have this theme's HTML translator write toctree captions (in the
    article and in the menu alike) as headings with a level."""
    if not _uses_this_theme(app):
        return
    base = app.builder.get_translator_class()  # the project's own, if it set one
    if not issubclass(base, CaptionLevel):
        translator = type(f"CaptionLevel{base.__name__}", (CaptionLevel, base), {})
        app.set_translator(app.builder.name, translator, override=True)


class CaptionLevel(HTML5Translator):
    """Sphinx writes a toctree's caption as ``<p class="caption"
    role="heading">`` without the aria-level that role requires (axe:
    aria-required-attr, critical); every heading role it writes gets one.

    Sphinx's ``visit_title`` passes the role to docutils' ``starttag`` as
    the keyword ``ROLE`` (Sphinx 7.2 to 9; tests/test_theme.py checks the
    captions on each line).
    """

    def starttag(
        self,
        node: Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **attributes: Any,
    ) -> str:
        if attributes.get("ROLE") == "heading":
            attributes.setdefault("aria-level", "2")
        return super().starttag(node, tagname, suffix, empty, **attributes)


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
    if "script_files" not in context or not _uses_this_theme(app):
        return
    left_out = JQUERY_FILES if templatename == "search.html" else JQUERY_FILES | {HIGHLIGHTER}
    context["script_files"] = [
        script
        for script in context["script_files"]
        if posixpath.basename(getattr(script, "filename", script) or "") not in left_out
    ]


#: The ``type`` values of a script element a browser runs.
JAVASCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module"})


def inline_scripts_to_files(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """An inline script an extension adds (``app.add_js_file(None,
    body=...)``, as sphinx.ext.mathjax does for ``mathjax3_config``) is
    written to a file of its own in ``_static``, which the page loads
    instead: a Content-Security-Policy without 'unsafe-inline' refuses it."""
    if "script_files" in context and _uses_this_theme(app):
        context["script_files"] = [
            _from_file(app.outdir, script) for script in context["script_files"]
        ]


def _from_file(outdir: str | os.PathLike[str], script: _JavaScript | str) -> _JavaScript | str:
    if isinstance(script, str):  # as an extension may have left it
        return script
    attributes = script.attributes
    body = attributes.get("body")
    if not body or script.filename:
        return script
    if attributes.get("type", "").lower() not in JAVASCRIPT_TYPES:
        return script  # a data block, which no policy refuses
    filename = f"_static/reprodocs-inline-{hashlib.sha256(body.encode()).hexdigest()[:16]}.js"
    path = Path(outdir, filename)
    if not path.exists():  # named by its content: the same file for every page
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")  # parallel writers
        partial.write_text(body, encoding="utf-8")
        partial.replace(path)
    others = {key: value for key, value in attributes.items() if key != "body"}
    return type(script)(filename, priority=script.priority, **others)


def _uses_this_theme(app: Sphinx) -> bool:
    theme = getattr(app.builder, "theme", None)
    return theme is not None and theme.name == "reprodocs"
