"""The one way reprodocs warns.

Every warning is of type ``reprodocs`` with a subtype naming the misuse, so
that ``suppress_warnings = ["reprodocs.duplicate"]`` silences one kind, and
carries its location (file and line) where it has one; ``-W`` makes each a
failure. Messages are translatable: the callers pass them through ``__``.
"""

from __future__ import annotations

import ast
import reprlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from reprodocs.base.i18n import __

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils.nodes import Node
    from sphinx.application import Sphinx

logger = logging.getLogger("reprodocs")


def warn(
    subtype: str,
    message: str,
    *args: object,
    location: str | tuple[str | None, int | None] | Node | None = None,
) -> None:
    """Warn *message* % *args*, of type ``reprodocs.<subtype>``, at *location*."""
    logger.warning(message, *args, location=location, type="reprodocs", subtype=subtype)


def setting_location(app: Sphinx, name: str) -> str | None:
    """Where conf.py assigns *name*, as "path:line" (a location the logger
    takes as it is: no document exists yet); None when it is set otherwise."""
    conf_py = Path(app.confdir, "conf.py")
    if name in app.config.overrides or not conf_py.is_file():
        return None
    try:
        tree = ast.parse(conf_py.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None  # Sphinx executed it, so it was readable then; never fail a warning
    # The last top-level assignment is the value Sphinx uses; one nested (in an
    # ``if``, say) only where there is none at top level.
    top_level = [node for node in tree.body if _assigns(node, name)]
    statements = [node for node in ast.walk(tree) if isinstance(node, ast.stmt)]
    nested = [node for node in statements if _assigns(node, name)]
    found = top_level[-1:] or nested[:1]
    return f"{conf_py}:{found[0].lineno}" if found else None


def _assigns(statement: ast.stmt, name: str) -> bool:
    """Whether *statement* assigns the name *name* (``=``, ``+=``, ``x: T =``)."""
    targets = getattr(statement, "targets", [getattr(statement, "target", None)])
    return any(isinstance(t, ast.Name) and t.id == name for t in targets)


def checked_setting(
    app: Sphinx, name: str, is_valid: Callable[[Any], bool], expected: str, default: object
) -> Any:
    """The value of configuration value *name* if *is_valid* accepts it; else
    a warning at its line in conf.py saying what it must be (*expected*,
    already translated), as the theme's options are warned about, and
    *default*. The configuration is left as it is."""
    value = getattr(app.config, name)
    if is_valid(value):
        return value
    warn(
        "config",
        __("%s must be %s, not %s; the default is used"),
        name,
        expected,
        shown(value),
        location=setting_location(app, name),
    )
    return default


def shown(value: object, accepted: tuple[type, ...] = ()) -> str:
    """A wrong value as a warning shows it: itself if None or of a type
    the setting takes in some form (*accepted*: a string that is not one of
    the words expected), else only its type's name (not a whole dict)."""
    if value is None or isinstance(value, accepted):
        return reprlib.repr(value)
    return type(value).__name__
