"""What each output directory's pages were written with.

Sphinx writes a page again when its source is newer than the page. What
reprodocs puts in pages (the menu, the table of notes, the notes' wording)
can change while no source does, so each product records a digest of it per
output directory, and has its pages written again when the digest differs
from the one recorded.

The record is a file in the output directory, replaced atomically after a
build that finished (``build-finished`` without an exception). A build killed
or failed half-way leaves the earlier record, so the next build writes the
pages again; builders sharing one doctree folder each keep their own.
A product that uses it calls ``app.setup_extension("reprodocs.base.written")``.

Known gap: a build of named files only (``sphinx-build SRC OUT FILE...``)
writes only those, yet records the digests as if it had written every page
it asked for; no event tells an extension that a build is of that kind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reprodocs.base.files import replace_file
from reprodocs.base.state import build_state
from reprodocs.base.version import __version__

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: The record's file name, in the output directory.
RECORD_NAME = ".reprodocs-written.json"


@dataclass
class Record:
    """Per build: the digests the output was written with, and this build's."""

    earlier: dict[str, str] | None = None  #: as the output directory holds them
    now: dict[str, str] = field(default_factory=dict)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("build-finished", save)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def changed(app: Sphinx, key: str, digest: str) -> bool:
    """Whether the output's pages were written with something other than
    *digest* for *key* (or not recorded); *digest* is recorded once the
    build finishes."""
    record = build_state(app.env, Record)
    if record.earlier is None:
        record.earlier = read(Path(app.outdir, RECORD_NAME))
    record.now[key] = digest
    return record.earlier.get(key) != digest


def read(path: Path) -> dict[str, str]:
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none, or not ours: every page is written again
    if not isinstance(recorded, dict):
        return {}
    return {key: value for key, value in recorded.items() if isinstance(value, str)}


def save(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: record what this build wrote its pages with."""
    record = build_state(app.env, Record)
    if exception is not None or not record.now:
        return
    earlier = record.earlier or {}
    record.earlier = {**earlier, **record.now}
    if record.earlier != earlier or not Path(app.outdir, RECORD_NAME).is_file():
        replace_file(Path(app.outdir, RECORD_NAME), json.dumps(record.earlier, indent=1) + "\n")
