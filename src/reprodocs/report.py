"""The one way reprodocs warns.

Every warning is of type ``reprodocs`` with a subtype naming the misuse, so
that ``suppress_warnings = ["reprodocs.duplicate"]`` silences one kind, and
carries its location (file and line) where it has one; ``-W`` makes each a
failure. Messages are translatable: the callers pass them through ``__``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util import logging

if TYPE_CHECKING:
    from docutils.nodes import Node

logger = logging.getLogger("reprodocs")


def warn(
    subtype: str,
    message: str,
    *args: object,
    location: str | tuple[str | None, int | None] | Node | None = None,
) -> None:
    """Warn *message* % *args*, of type ``reprodocs.<subtype>``, at *location*."""
    logger.warning(message, *args, location=location, type="reprodocs", subtype=subtype)
