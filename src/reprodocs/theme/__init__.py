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

from typing import TYPE_CHECKING

from reprodocs.base import __version__
from reprodocs.base.i18n import add_catalog
from reprodocs.base.paths import templates
from reprodocs.theme import context, csp, options, translator

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx_rtd_theme")
    app.add_html_theme("reprodocs", str(templates("theme")))
    add_catalog(app)
    app.connect("builder-inited", options.check_theme_options)
    # The menu in linear time, the same as Sphinx's (reprodocs.navigation).
    app.setup_extension("reprodocs.navigation")
    app.connect("builder-inited", translator.setup_translators)
    app.connect("html-page-context", context.translate_theme_words)
    app.connect("html-page-context", context.leave_out_scripts)
    app.connect("html-page-context", csp.inline_scripts_to_files)
    app.connect("html-page-context", csp.inline_styles_to_a_file)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
