"""Pages that work under a strict Content-Security-Policy (no
'unsafe-inline'): the inline scripts extensions add, and the style
attributes docutils writes, become files in ``_static`` that pages load."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

from reprodocs.base.files import replace_file
from reprodocs.base.state import build_state
from reprodocs.theme.context import uses_this_theme
from reprodocs.theme.translator import PageStyles

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    # Private: what Sphinx 7.2 and later put in script_files (_from_file
    # reads its attributes and priority and makes one with type(script)).
    from sphinx.builders.html._assets import _JavaScript

#: The ``type`` values of a script element a browser runs.
JAVASCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module"})


def inline_scripts_to_files(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: object
) -> None:
    """An inline script an extension adds (``app.add_js_file(None,
    body=...)``, as sphinx.ext.mathjax does for ``mathjax3_config``) is
    written to a file of its own in ``_static``, which the page loads
    instead: a Content-Security-Policy without 'unsafe-inline' refuses it."""
    if "script_files" in context and uses_this_theme(app.builder):
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
    styles = build_state(app.env, PageStyles).by_page.pop(pagename, None)
    if not isinstance(doctree, nodes.document) or not styles:
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
        replace_file(path, text)  # parallel writers each write a temporary file of their own
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
    # Sphinx's private asset class (no public way to make a script element
    # of a page; app.add_js_file is for every page): its constructor,
    # attributes and priority are the same from 7.2 to 9.x, and the theme's
    # tests run on each line (tests/test_theme.py, the inline scripts).
    return type(script)(filename, priority=script.priority, **others)
