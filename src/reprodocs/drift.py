"""The drift check: the notes against the list of operations that really are
nondeterministic (``reprodocs_known_ops``), in both directions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reprodocs.domain import notes_domain
from reprodocs.report import warn
from reprodocs.wording import __

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment


def read_known_ops(app: Sphinx, config: Config) -> None:
    """Turn a path given as ``reprodocs_known_ops`` into the list it holds: one
    name per line, blank lines and ``#`` comments ignored. The path is relative
    to the configuration directory."""
    # Sphinx 7.2's Config types no attribute for a value (the ignores below);
    # later ones do.
    known = config.reprodocs_known_ops
    if not isinstance(known, str):
        return
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
        config.reprodocs_known_ops = None  # type: ignore[attr-defined, unused-ignore]
        return
    config.reprodocs_known_ops = [  # type: ignore[attr-defined, unused-ignore]
        name for line in lines if (name := line.partition("#")[0].strip())
    ]


def check_known_ops(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn for every note on an operation that is not known to be
    nondeterministic, and every known operation without a note."""
    known = app.config.reprodocs_known_ops
    if known is None:
        return
    known = set(known)
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
