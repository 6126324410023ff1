"""reprodocs' message catalog: ``_`` for the words of documents, ``__`` for
the console's (Sphinx's two kinds of translatable message)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.locale import get_translation, get_translator

from reprodocs.base.paths import LOCALE_DIR

if TYPE_CHECKING:
    from sphinx.application import Sphinx

CATALOG = "reprodocs"

#: Messages shown in documents, and messages shown on the console.
_ = get_translation(CATALOG)
__ = get_translation(CATALOG, "console")


def add_catalog(app: Sphinx) -> None:
    """Have Sphinx load the catalog in the project's language."""
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))  # Sphinx 7.2 takes only str


def gettext(message: str) -> str:
    """*message* in the current build's language, looked up at each call: a
    process (a test session) may hold several applications."""
    return get_translator(CATALOG).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form of :func:`gettext`."""
    return get_translator(CATALOG).ngettext(singular, plural, n)
