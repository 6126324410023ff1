"""The drift check: the notes against the list of operations that really are
nondeterministic (``reprodocs_known_ops``), in both directions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reprodocs.base.i18n import __
from reprodocs.base.report import checked_setting, warn
from reprodocs.base.state import build_state
from reprodocs.notes.domain import notes_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


@dataclass
class KnownOps:
    """Per build: the operations ``reprodocs_known_ops`` names; None for no check."""

    names: frozenset[str] | None = None


def read_known_ops(app: Sphinx) -> None:
    """``builder-inited``: the operations ``reprodocs_known_ops`` names, as a
    list of names or as the path, relative to the configuration directory, of
    a UTF-8 file holding one name per line (blank lines and ``#`` comments
    ignored). Anything else is warned about, and nothing is checked."""
    known = checked_setting(
        app,
        "reprodocs_known_ops",
        lambda value: (
            value is None
            or isinstance(value, str)
            or (isinstance(value, (list, tuple)) and all(isinstance(name, str) for name in value))
        ),
        __("a list of operation names or the path of a file of them"),
        None,
    )
    if isinstance(known, str):
        known = read_names(Path(app.confdir, known))
    if known is not None:
        build_state(app.env, KnownOps).names = frozenset(name.strip() for name in known)


def read_names(path: Path) -> list[str] | None:
    """The names in file *path*, or None (and a warning) if it cannot be read."""
    try:
        # utf-8-sig: a byte order mark, as some editors write, is not a name's.
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except OSError as error:
        reason = error.strerror or str(error)
    except UnicodeDecodeError:
        reason = __("it is not UTF-8 text")
    else:
        return [name for line in lines if (name := line.partition("#")[0].strip())]
    warn("known_ops", __("reprodocs_known_ops: cannot read %s: %s"), path, reason)
    return None


def check_known_ops(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``, so on every build, also one that reads nothing: warn
    for every entry on an operation that is not known to be nondeterministic
    (by none of its names, its aliases included), and every known operation
    no entry names."""
    known = build_state(env, KnownOps).names
    if known is None:
        return
    noted: set[str] = set()
    for note in notes_domain(env).notes():
        if not note.operation:
            continue
        noted.update(note.names)
        if known.isdisjoint(note.names):
            warn(
                "unknown_op",
                __("%s: %s is not in reprodocs_known_ops"),
                note.directive,
                note.operation,
                location=note.location,
            )
    for operation in sorted(known - noted):
        warn(
            "missing_note",
            __("reprodocs_known_ops: %s has no nondeterminism note"),
            operation,
        )
