"""The index's rows, collected from the registry's entries (the notes, the
entries that render nothing, the registry file's) for the build's builder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from reprodocs.notes.conditions import shown
from reprodocs.notes.domain import notes_domain, python_objects
from reprodocs.notes.index_rows import Row, Target

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.notes.domain import Note


def collect(app: Sphinx, env: BuildEnvironment) -> tuple[Row, ...]:
    """The index of the entries the build's builder shows, in the index's
    order (:attr:`Row.order <reprodocs.notes.index_rows.Row.order>`):
    by operation, labelled entries as written; rows showing the same are one."""
    rows = {}
    for note in notes_domain(env).notes():
        if not shown(app, note):
            continue
        row = row_of(app, env, note)
        rows[row.shown] = row
    return tuple(sorted(rows.values(), key=lambda row: row.order))


def row_of(app: Sphinx, env: BuildEnvironment, note: Note) -> Row:
    """*note*'s row: where its operation and the name its lists show are
    documented."""
    # A page-level note, or an operation not documented as a Python
    # object, links to the page the note stands on (none for a file's).
    # Documented nowhere: a note is linked to where it is written; an
    # entry that renders nothing is not linked (nothing is there), unless
    # it is labelled: its target is there (reprodocs.notes.labels).
    shows = note.renders or note.anchor
    written = Target(note.docname, note.anchor, "") if shows else Target("", "", "")
    target = documented_at(env, note.operation) or written
    title = env.titles[note.docname].astext() if note.docname in env.titles else ""
    return Row(
        note,
        target,
        title,
        # Where the listed name is documented; else the operation's place.
        listed_target=documented_at(env, note.listed_as) or target,
        registry_file=None if note.docname else registry_file_line(app, note),
    )


def registry_file_line(app: Sphinx, note: Note) -> tuple[str, int]:
    """Where an entry of the registry file is written: the file relative to
    the configuration folder (the path conf.py gives, whichever machine
    builds), and its line."""
    return Path(os.path.relpath(note.source, app.confdir)).as_posix(), note.line


def documented_at(env: BuildEnvironment, name: str) -> Target | None:
    """Where the Python object *name* is documented; None if it is not."""
    documented = python_objects(env).get(name) if name else None
    if documented is None:
        return None
    return Target(documented.docname, documented.node_id, documented.objtype)
