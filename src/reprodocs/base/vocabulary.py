"""The directives' vocabulary: their names, their options and the values
those take, written once. The notes' directives build their option specs
from it, migrate writes it, the documentation's tables and the tests read
it. The options that fill an entry's fields are the entry's schema's
(:mod:`reprodocs.base.entry_schema`), grouped here as the directives take
them. Plain data: migrate reads it without docutils."""

from __future__ import annotations

import re
from typing import NamedTuple

from reprodocs.base.entry_schema import (
    ALGORITHMS,
    BACKEND,
    COMMON,
    FIELDS,
    JSON_ORDER,
    NOTE_ONLY,
    PASS,
    RECORD_ATTRIBUTES,
    REGISTRY,
    entry_option_names,
    group_options,
)

# The values of ``:pass:`` and ``:deterministic-algorithms:``: the entry's
# schema holds them with its fields; the vocabulary, where the directives'
# values are looked up, names them too (re-exported, hence the aliases).
from reprodocs.base.entry_schema import DETERMINISTIC as DETERMINISTIC  # noqa: PLC0414
from reprodocs.base.entry_schema import DETERMINISTIC_ALGORITHMS as DETERMINISTIC_ALGORITHMS  # noqa: PLC0414
from reprodocs.base.entry_schema import PASSES as PASSES  # noqa: PLC0414
from reprodocs.base.entry_schema import RAISES as RAISES  # noqa: PLC0414


class Preset(NamedTuple):
    """What a note directive stands for unless its options say otherwise."""

    backend: str
    affected_pass: str


#: The general note directive, the only one taking ``:backend:`` and ``:pass:``.
NOTE_DIRECTIVE = "nondeterministic"
#: The presets: PyTorch 1.4's three notes.
CUDA_DETERMINISTIC_BACKWARD = "cuda-deterministic-backward"
CUDA_DETERMINISTIC = "cuda-deterministic"
CUDNN_DETERMINISTIC = "cudnn-deterministic"

#: Every note directive, the general one first, with its backend and pass.
NOTE_DIRECTIVES = {
    NOTE_DIRECTIVE: Preset("CUDA", "both"),
    CUDA_DETERMINISTIC_BACKWARD: Preset("CUDA", "backward"),
    CUDA_DETERMINISTIC: Preset("CUDA", "forward"),
    CUDNN_DETERMINISTIC: Preset("cuDNN", "both"),
}

#: The directive recording a registry entry that renders nothing where it
#: stands: listed, tabled, exported and checked like a note.
ENTRY_DIRECTIVE = "nondeterministic-entry"

#: Every directive recording an entry of the registry, with its backend and
#: pass unless its options say otherwise: the notes', and the entry that
#: renders nothing, whose are the general note's (as a registry file's are).
ENTRY_DIRECTIVES = {**NOTE_DIRECTIVES, ENTRY_DIRECTIVE: NOTE_DIRECTIVES[NOTE_DIRECTIVE]}

#: The directive generating the table and the lists from the registry.
LIST_DIRECTIVE = "nondeterministic-ops"

#: The file a build exports the registry to, in its HTML output folder,
#: and check-alerts reads.
JSON_NAME = "nondeterministic.json"

#: The values of the list directive's ``:format:``; the first is the default.
FORMATS = ("table", "list")

#: The usual spelling of well-known backends (``:backend:``), by lower-case
#: name. Other backends are kept as written.
BACKEND_SPELLINGS = {
    name.lower(): name
    for name in ("CUDA", "cuDNN", "ROCm", "MIOpen", "MPS", "XPU", "XLA", "CPU", "HIP")
}

#: The ``:backend:`` of an operation nondeterministic on every backend.
ANY_BACKEND = "any"

#: The options only the general note directive takes (the presets fix them).
NOTE_ONLY_OPTIONS = group_options(NOTE_ONLY)

#: The options every note directive takes, the presets included.
COMMON_OPTIONS = group_options(COMMON)

#: The registry's options, which every entry takes, a note or not: the
#: names the operation also goes by, the one the lists show, the words of
#: its item beyond ``:when:``, and the alerts it raises.
REGISTRY_OPTIONS = group_options(REGISTRY)

#: The option of a note that renders its text: that text as ``help()``
#: shows it (:mod:`reprodocs.base.runtime_text`), checked, not rendered.
RUNTIME_TEXT_OPTION = "runtime-text"

#: What separates several values of an option (those the entry's schema
#: says take several).
SEPARATOR = ","

#: The options of the list directive choosing a table's columns by name,
#: and its rows by the fields they have a value in.
COLUMNS_OPTION, HAVING_OPTION = "columns", "having"

#: The options of the list directive: the notes it shows, and how (the
#: format last).
LIST_OPTIONS = (
    BACKEND.option,
    PASS.option,
    ALGORITHMS.option,
    COLUMNS_OPTION,
    HAVING_OPTION,
    "format",
)


def note_options(directive: str) -> tuple[str, ...]:
    """The options the note directive *directive* takes, in the docs' order."""
    if directive == ENTRY_DIRECTIVE:
        return entry_option_names()
    own = group_options(NOTE_ONLY) if directive == NOTE_DIRECTIVE else ()
    return (*own, *group_options(COMMON), *group_options(REGISTRY), RUNTIME_TEXT_OPTION)


#: The index table's columns that are not a field's, by name (``:columns:``).
OPERATION_COLUMN, BACKEND_COLUMN, PASS_COLUMN, NOTE_COLUMN = "operation", "backend", "pass", "note"


#: A field's option name, as docutils reads one and a project declares it:
#: lower-case words joined by hyphens, a letter first (``fullmatch`` it).
OPTION_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def taken_names() -> frozenset[str]:
    """The names a project's field may not have (``reprodocs_entry_fields``,
    and the fields migrate makes of a Markdown catalog's columns):
    reprodocs' fields' options and JSON keys, the other options of its
    directives, the keys the export adds, the attributes of an entry's
    record and the table's own columns."""
    own = {name for field in FIELDS for name in (field.option, field.json_key) if name}
    attributes = {field.attribute for field in FIELDS if field.attribute}
    added = {key for key in JSON_ORDER if isinstance(key, str)}
    columns = (OPERATION_COLUMN, BACKEND_COLUMN, PASS_COLUMN, NOTE_COLUMN, ALGORITHMS.option)
    return frozenset(
        {
            *own,
            *attributes,
            *RECORD_ATTRIBUTES,
            *added,
            *LIST_OPTIONS,
            RUNTIME_TEXT_OPTION,
            *columns,
        }
    )
