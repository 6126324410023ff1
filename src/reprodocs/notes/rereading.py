"""Pages holding notes depend on the wording: the template in use, the wording
set, the catalog of the language. Sphinx re-reads a page when its source
changes, and ``note_dependency`` compares file times, so a touched template
would re-read every noted page; here the wording's content is compared.

It is compared twice. The digest the doctrees were read with is kept in the
``reprodocs`` domain (the main process alone computes and stores it, before
reading, so it needs no purge or merge: the noted pages themselves are the
domain's notes, which are). The digest the output directory's pages were
written with is kept by ``reprodocs.base.written``: another builder sharing
the doctrees, or a build killed before writing, may have left them behind.
Either differing, the noted pages are read and written again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reprodocs.base import written
from reprodocs.notes.domain import notes_domain
from reprodocs.notes.wording import wording_fingerprint

if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def reread_when_wording_changes(
    app: Sphinx,
    env: BuildEnvironment,
    added: AbstractSet[str],
    changed: AbstractSet[str],
    removed: AbstractSet[str],
) -> list[str]:
    """``env-get-outdated``: every page holding a note, when the wording
    differs from the one its notes were read with, or its page written with."""
    domain = notes_domain(env)
    fingerprint = wording_fingerprint(env)
    output_differs = written.differs(app, "wording", fingerprint)
    written.record(app, "wording", fingerprint)
    if fingerprint == domain.data["wording"] and not output_differs:
        return []
    domain.data["wording"] = fingerprint
    return sorted(docname for docname in domain.notes_by_doc if docname not in removed)
