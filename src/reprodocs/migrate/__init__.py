"""PyTorch's legacy reproducibility notes rewritten as reprodocs directives
(``python -m reprodocs migrate``).

Two legacy forms are rewritten: PyTorch 1.4's includes of the note files
(:mod:`~reprodocs.migrate.includes`), in reStructuredText files and in
Python string literals, and PyTorch 2.x's placeholders
(:mod:`~reprodocs.migrate.placeholders`), in Python string literals.

A directive written from a legacy note keeps the words it had: where the
site's wording (``--wording``, its ``reprodocs_wording``) is another set, it
gets ``:wording:`` naming the set whose words the note had (PyTorch 1.4's
for an include, PyTorch 2.x's for a placeholder).

The two lists hand-kept in ``torch.use_deterministic_algorithms``' docstring
(:mod:`~reprodocs.migrate.lists`) are read too: each item is matched, by
its operation and its condition, to a note (a legacy one, or a directive
already there: :mod:`~reprodocs.migrate.existing_directives`), which gets
``:deterministic-algorithms:`` and ``:when:``; each list becomes a
``.. nondeterministic-ops::`` directive generating it from the notes,
followed by the items no note matched, still kept by hand and reported
until someone writes their notes (:mod:`~reprodocs.migrate.matching`).

Markdown (MyST) files are read for their catalog tables, as Megatron-LM
keeps its determinism catalog (:mod:`~reprodocs.migrate.markdown_tables`):
each row becomes a labelled entry, each cell's markup converted to inline
reStructuredText (:mod:`~reprodocs.migrate.markdown_inline`), and the
table the ``nondeterministic-ops`` directive generating it; the run prints
the fields to declare.

The rewriting works line by line on the source text
(:mod:`~reprodocs.migrate.rewrite`); Python files are read with
``tokenize`` (:mod:`~reprodocs.migrate.python`), so only the text inside
string literals is ever changed. Anything that looks like a legacy note but
cannot be rewritten safely is left as is and reported as a :class:`Notice`.
A run is one pipeline, each phase once: read and write in
:mod:`~reprodocs.migrate.command` (the only part that reads and writes,
through :mod:`~reprodocs.migrate.sources`), find in
:mod:`~reprodocs.migrate.finding` and plan in
:mod:`~reprodocs.migrate.planning`, text to text between them.

This package holds no code: it names what its modules offer.
"""

from __future__ import annotations

from reprodocs.migrate.command import run, survey
from reprodocs.migrate.includes import INCLUDED_NOTES
from reprodocs.migrate.matching import ListsOutcome, fits, match_lists
from reprodocs.migrate.messages import (
    FILE_ERROR,
    LEGACY_NOTES_REMAIN,
    NOTHING_TO_MIGRATE,
    Report,
    unified_diff,
)
from reprodocs.migrate.model import (
    FoundNote,
    HandKeptList,
    ListItem,
    Migration,
    Notice,
    ParseError,
    Plan,
)
from reprodocs.migrate.names import kin, names_match
from reprodocs.migrate.placeholders import PLACEHOLDERS
from reprodocs.migrate.rewrite import rewrite_text
from reprodocs.migrate.settings import DEFAULT_WORDING, Settings
from reprodocs.migrate.sources import (
    SUFFIXES,
    TEMPORARY_MARK,
    NotRewritten,
    Source,
    migrate_file,
    migrate_source,
    read_source,
    source_files,
    write_atomically,
)

__all__ = [
    "DEFAULT_WORDING",
    "FILE_ERROR",
    "INCLUDED_NOTES",
    "LEGACY_NOTES_REMAIN",
    "NOTHING_TO_MIGRATE",
    "PLACEHOLDERS",
    "SUFFIXES",
    "TEMPORARY_MARK",
    "FoundNote",
    "HandKeptList",
    "ListItem",
    "ListsOutcome",
    "Migration",
    "NotRewritten",
    "Notice",
    "ParseError",
    "Plan",
    "Report",
    "Settings",
    "Source",
    "fits",
    "kin",
    "match_lists",
    "migrate_file",
    "migrate_source",
    "names_match",
    "read_source",
    "rewrite_text",
    "run",
    "source_files",
    "survey",
    "unified_diff",
    "write_atomically",
]
