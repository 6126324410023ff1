"""The directives' vocabulary: their names, their options and the values
those take, written once. The notes' directives build their option specs
from it, migrate writes it, the documentation's tables and the tests read
it. Plain data: migrate reads it without Sphinx or docutils."""

from __future__ import annotations

from typing import NamedTuple


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

#: The values of ``:pass:``.
PASSES = ("forward", "backward", "both")

#: The values of ``:deterministic-algorithms:``: under
#: ``torch.use_deterministic_algorithms(True)`` the operation throws a
#: RuntimeError, or uses a deterministic implementation.
RAISES, DETERMINISTIC = "raises", "deterministic"
DETERMINISTIC_ALGORITHMS = (RAISES, DETERMINISTIC)

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
NOTE_ONLY_OPTIONS = ("backend", "pass")

#: The options every note directive takes, the presets included.
COMMON_OPTIONS = ("op", "alternative", "deterministic-algorithms", "when", "wording")

#: The registry's options, which every entry takes, a note or not: the
#: names the operation also goes by, the one the lists show, the words of
#: its item beyond ``:when:``, and the alerts it raises.
REGISTRY_OPTIONS = ("aliases", "listed-as", "with", "cases", "alert")

#: The option of a note that renders its text: that text as ``help()``
#: shows it (:mod:`reprodocs.base.runtime_text`), checked, not rendered.
RUNTIME_TEXT_OPTION = "runtime-text"

#: The options of an entry that renders nothing (``nondeterministic-entry``,
#: and each entry of a registry file).
ENTRY_OPTIONS = ("op", "backend", "pass", "deterministic-algorithms", "when", *REGISTRY_OPTIONS)

#: The options taking several values, separated by commas.
SEVERAL_VALUES = ("backend", "aliases", "cases", "alert")
SEPARATOR = ","

#: The options of the list directive: the notes it shows, and how.
LIST_OPTIONS = ("backend", "pass", "deterministic-algorithms", "format")


def note_options(directive: str) -> tuple[str, ...]:
    """The options the note directive *directive* takes, in the docs' order."""
    if directive == ENTRY_DIRECTIVE:
        return ENTRY_OPTIONS
    own = NOTE_ONLY_OPTIONS if directive == NOTE_DIRECTIVE else ()
    return (*own, *COMMON_OPTIONS, *REGISTRY_OPTIONS, RUNTIME_TEXT_OPTION)
