"""The theme's changes to the HTML Sphinx writes, as a mixin put in front of
the builder's translator (the project's own, if it set one) at
``builder-inited``, as pydata-sphinx-theme does."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from reprodocs.base.state import build_state
from reprodocs.theme.context import uses_this_theme

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.writers.html5 import HTML5Translator

    _Translator = HTML5Translator
else:
    _Translator = object

#: The permalink sign sphinx_rtd_theme's setup puts in ``html_permalinks_icon``
#: (whatever the project set): a FontAwesome glyph. This theme loads no icon
#: font (77 KB on every page with a heading), so its pages show Sphinx's sign.
RTD_PERMALINK_ICON = "\uf0c1"
PERMALINK_ICON = "¶"


@dataclass
class PageStyles:
    """Per build: the inline styles of each page being written (class name ->
    declarations), from its translator until the page is assembled
    (``reprodocs.theme.csp``); pages without any have no entry."""

    by_page: dict[str, dict[str, str]] = field(default_factory=dict)


def setup_translators(app: Sphinx) -> None:
    """``builder-inited``: the builder writes pages with the theme's mixin in
    front of its translator."""
    if not uses_this_theme(app.builder):
        return
    base = app.builder.get_translator_class()
    if not issubclass(base, ThemeTranslatorMixin):
        translator = type(f"Theme{base.__name__}", (ThemeTranslatorMixin, base), {})
        app.set_translator(app.builder.name, translator, override=True)


class ThemeTranslatorMixin(_Translator):
    """Three changes in the tags Sphinx's HTML translator writes.

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
    (``reprodocs.theme.csp.inline_styles_to_a_file``).

    A permalink shows Sphinx's sign where sphinx_rtd_theme set its
    FontAwesome glyph (see ``RTD_PERMALINK_ICON``).
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
            page = build_state(self.builder.env, PageStyles).by_page
            page.setdefault(getattr(self.builder, "current_docname", ""), {})[name] = style
            attributes["classes"] = [*attributes.get("classes", []), name]
        return super().starttag(node, tagname, suffix, empty, **attributes)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.html_permalinks_icon == RTD_PERMALINK_ICON:
            self.config = cast("Config", _WithSphinxPermalinkIcon(self.config))


class _WithSphinxPermalinkIcon:
    """The project's configuration as the translator reads it, with Sphinx's
    permalink sign (the project's configuration itself is left as it is)."""

    html_permalinks_icon = PERMALINK_ICON

    def __init__(self, config: Config) -> None:
        self._config = config

    def __getattr__(self, name: str) -> Any:
        return getattr(self._config, name)
