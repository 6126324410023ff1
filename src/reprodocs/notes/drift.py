"""The drift check: the notes against the list of operations that really are
nondeterministic (``reprodocs_known_ops``), in both directions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reprodocs.base.i18n import __
from reprodocs.base.report import warn
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
    list or as a path relative to the configuration directory of a file
    holding one name per line (blank lines and ``#`` comments ignored)."""
    known = app.config.reprodocs_known_ops
    if isinstance(known, str):
        path = Path(app.confdir, known)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            warn(
                "known_ops",
                __("reprodocs_known_ops: cannot read %s: %s"),
                path,
                error.strerror,
            )
            return
        known = [name for line in lines if (name := line.partition("#")[0].strip())]
    if known is not None:
        build_state(app.env, KnownOps).names = frozenset(known)


def check_known_ops(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn for every note on an operation that is not known to be
    nondeterministic, and every known operation without a note."""
    known = build_state(env, KnownOps).names
    if known is None:
        return
    noted = set()
    for note in notes_domain(env).notes():
        if not note.operation:
            continue
        noted.add(note.operation)
        if note.operation not in known:
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
