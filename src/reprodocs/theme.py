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
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.locale import get_translator
from sphinx.writers.html5 import HTML5Translator

from reprodocs import __version__
from reprodocs.report import warn
from reprodocs.wording import CATALOG, LOCALE_DIR, __, templates_dir

if TYPE_CHECKING:
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
    app.connect("builder-inited", use_theme_translator)
    app.connect("html-page-context", translate_theme_words)
    app.connect("html-page-context", leave_out_scripts)
    app.connect("html-page-context", inline_scripts_to_files)
    app.connect("html-page-context", inline_styles_to_a_file)
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


def use_theme_translator(app: Sphinx) -> None:
    """Have the builder write pages with this theme's HTML translator, on top
    of the project's own if it set one."""
    if not _uses_this_theme(app):
        return
    base = app.builder.get_translator_class()  # the project's own, if it set one
    if not issubclass(base, ThemeTranslator):
        translator = type(f"Theme{base.__name__}", (ThemeTranslator, base), {})
        app.set_translator(app.builder.name, translator, override=True)


#: The inline styles of each document being written (class name ->
#: declarations), from the translator that writes its body until the page is
#: assembled (html-page-context); documents without any have no entry.
_page_styles: weakref.WeakKeyDictionary[nodes.document, dict[str, str]] = (
    weakref.WeakKeyDictionary()
)


class ThemeTranslator(HTML5Translator):
    """Sphinx's HTML translator, with two changes in the tags it writes.

    A toctree's caption is ``<p class="caption" role="heading">`` without the
    aria-level that role requires (axe: aria-required-attr, critical): every
    heading role gets one. Sphinx's ``visit_title`` passes the role to
    docutils' ``starttag`` as the keyword ``ROLE`` (Sphinx 7.2 to 9;
    tests/test_theme.py checks the captions on each line).

    docutils writes the sizes a document asks for (a table's ``:widths:`` and
    ``:width:``, an image's ``:width:``, a figure's ``:figwidth:``) as
    ``style`` attributes, which a Content-Security-Policy without
    'unsafe-inline' refuses. Each becomes a class, named by its declarations,
    and the declarations a rule of the page's stylesheet
    (``inline_styles_to_a_file``).
    """

    def starttag(
        self,
        node: nodes.Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **attributes: Any,
    ) -> str:
        if attributes.get("ROLE") == "heading":
            attributes.setdefault("aria-level", "2")
        if style := attributes.pop("style", None):
            name = f"reprodocs-style-{hashlib.sha256(style.encode()).hexdigest()[:12]}"
            _page_styles.setdefault(self.document, {})[name] = style
            attributes["classes"] = [*attributes.get("classes", []), name]
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


def inline_styles_to_a_file(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """The page's inline styles (see ``ThemeTranslator``) as the rules of a
    stylesheet in ``_static``, named by its content, which layout.html links
    as ``reprodocs_stylesheet``. A page without a document (the index,
    search) has none."""
    if not isinstance(doctree, nodes.document) or not (styles := _page_styles.pop(doctree, None)):
        return
    rules = "".join(
        f".{name} {{ {_important(declarations)} }}\n" for name, declarations in styles.items()
    )
    context["reprodocs_stylesheet"] = _static_file(app.outdir, "reprodocs-styles", ".css", rules)


def _important(declarations: str) -> str:
    """*declarations* as strong as they were in a ``style`` attribute, over
    the stylesheets' rules."""
    return " ".join(
        f"{declaration.strip()} !important;"
        for declaration in declarations.split(";")
        if declaration.strip()
    )


def _static_file(outdir: str | os.PathLike[str], stem: str, suffix: str, text: str) -> str:
    """The path, relative to *outdir*, of a file in ``_static`` holding
    *text*, named by its content: the same file for every page that needs it."""
    filename = f"_static/{stem}-{hashlib.sha256(text.encode()).hexdigest()[:16]}{suffix}"
    path = Path(outdir, filename)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")  # parallel writers
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return filename


def _from_file(outdir: str | os.PathLike[str], script: _JavaScript | str) -> _JavaScript | str:
    if isinstance(script, str):  # as an extension may have left it
        return script
    attributes = script.attributes
    body = attributes.get("body")
    if not body or script.filename:
        return script
    if attributes.get("type", "").lower() not in JAVASCRIPT_TYPES:
        return script  # a data block, which no policy refuses
    filename = _static_file(outdir, "reprodocs-inline", ".js", body)
    others = {key: value for key, value in attributes.items() if key != "body"}
    return type(script)(filename, priority=script.priority, **others)


def _uses_this_theme(app: Sphinx) -> bool:
    theme = getattr(app.builder, "theme", None)
    return theme is not None and theme.name == "reprodocs"
