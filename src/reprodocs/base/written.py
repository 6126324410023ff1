"""What each output directory's pages were written with.

Sphinx writes a page again when its source is newer than the page. What
reprodocs puts in pages (the menu, the table of notes, the notes' wording)
can change while no source does, so each product records a digest of it per
output directory, and has its pages written again when the digest differs
from the one recorded.

The record is build bookkeeping, kept where Sphinx keeps its own: in the
doctree folder (beside the pickled environment), never in the output
directory, which is deployed as it is. It is one file per output directory
(named by a digest of the directory's path), so that builders sharing one
doctree folder each keep their own; it is replaced atomically after a build
that finished (``build-finished`` without an exception). A build killed or
failed half-way leaves the earlier record, so the next build writes the pages
again; so does a doctree folder deleted or new. A product that uses it calls
``app.setup_extension("reprodocs.base.written")``.

Known gap: a build of named files only (``sphinx-build SRC OUT FILE...``)
writes only those, yet records the digests as if it had written every page
it asked for; no event tells an extension that a build is of that kind.
"""

from __future__ import annotations

import contextlib
import hashlib
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

#: The records' folder, in the doctree folder.
RECORDS_FOLDER = "reprodocs-written"

#: Where earlier versions kept the record: in the output directory, deployed
#: with the site. Removed when a build records anew.
LEGACY_RECORD_NAME = ".reprodocs-written.json"


@dataclass
class Record:
    """Per build: the digests the output was written with, and this build's."""

    earlier: dict[str, str] | None = None  #: as the output directory holds them
    now: dict[str, str] = field(default_factory=dict)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("build-finished", save)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def differs(app: Sphinx, key: str, digest: str) -> bool:
    """Whether the output's pages were written with something other than
    *digest* for *key* (or not recorded). The output's record is read once
    per build."""
    return _earlier(app).get(key) != digest


def record(app: Sphinx, key: str, digest: str) -> None:
    """Record *digest* for *key*: the output's record holds it once the
    build finishes."""
    _earlier(app)  # read first: save() merges this build's digests into it
    build_state(app.env, Record).now[key] = digest


def _earlier(app: Sphinx) -> dict[str, str]:
    """The digests the output's pages were written with, read on first use."""
    state = build_state(app.env, Record)
    if state.earlier is None:
        state.earlier = read(record_path(app.doctreedir, app.outdir))
    return state.earlier


def record_path(doctreedir: str | Path, outdir: str | Path) -> Path:
    """The record of the output directory *outdir*, in *doctreedir*."""
    name = hashlib.sha256(str(Path(outdir).resolve()).encode("utf-8", "surrogateescape"))
    return Path(doctreedir, RECORDS_FOLDER, f"{name.hexdigest()[:24]}.json")


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
    path = record_path(app.doctreedir, app.outdir)
    if record.earlier != earlier or not path.is_file():
        replace_file(path, json.dumps(record.earlier, indent=1) + "\n")
    with contextlib.suppress(OSError):  # none (or not removable: left as it was)
        Path(app.outdir, LEGACY_RECORD_NAME).unlink()
