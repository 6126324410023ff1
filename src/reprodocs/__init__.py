"""reprodocs: document nondeterministic operations in Sphinx.

Three products around a small base (``reprodocs.base``):

* the notes extension, ``extensions = ["reprodocs"]`` (``reprodocs.notes``):
  the note directives, the table of nondeterministic operations,
  ``nondeterministic.json`` and the drift check;
* the navigation, ``extensions = ["reprodocs.navigation"]``: every theme's
  menu in linear time;
* the theme, ``html_theme = "reprodocs"`` (``reprodocs.theme``).

``python -m reprodocs migrate`` rewrites PyTorch's legacy notes
(``reprodocs.migrate``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reprodocs.base import __version__

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["__version__", "setup"]


def setup(app: Sphinx) -> ExtensionMetadata:
    """``extensions = ["reprodocs"]``: the notes extension."""
    # Imported here, not above: importing reprodocs.navigation, reprodocs.theme
    # or the migrate command imports this package, and must not load the notes.
    from reprodocs.notes import setup as setup_notes

    return setup_notes(app)
