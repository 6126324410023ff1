"""Entries named by a label rather than an API object (``:label:``, say
Megatron-LM's "MoE token unpermute (combine)"): the hyperlink target the
entry leaves where it is written, what makes a label misused, and the
check that no two entries share one.

A label is not an operation's name: an entry with one has no operation,
so the checks on operations (their repeats and contradictions across
pages, ``reprodocs_known_ops``, check-alerts) pass it by."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from reprodocs.base.entry_schema import LABEL, OP
from reprodocs.base.i18n import __
from reprodocs.base.report import warn
from reprodocs.base.vocabulary import ENTRY_DIRECTIVE
from reprodocs.notes.domain import notes_domain
from reprodocs.notes.index_table import free_id

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from reprodocs.notes.domain import Note


def anchor_of(label: str, taken: Mapping[str, object]) -> str:
    """The id of the target an entry labelled *label* leaves where it is
    written: the entry directive's name and the label's, numbered when the
    page has it already (*taken*: the page's ids)."""
    return free_id(nodes.make_id(f"{ENTRY_DIRECTIVE}-{label}"), taken)


def placed_targets(document: nodes.document, note: Note, recorded: bool) -> list[nodes.Node]:
    """The hyperlink target a labelled entry leaves where it is written, in
    *document* (its row links to it); none for another entry, or one not
    recorded in the registry."""
    if not (recorded and note.anchor):
        return []
    target = nodes.target("", "", ids=[note.anchor])
    document.note_implicit_target(target)
    return [target]


def naming_problem(options: Mapping[str, object]) -> str | None:
    """Why the entry *options* make is misnamed: both an operation and a
    label, or an empty label; None if it is not."""
    if LABEL.option not in options:
        return None
    if not options[LABEL.option]:
        return __("%s is empty") % LABEL.option
    if options.get(OP.option):
        return __("%s and %s both name the entry; give one of them") % (OP.option, LABEL.option)
    return None


def warn_misnamed(directive: str, options: Mapping[str, object], location: str) -> bool:
    """Warn at *location*, and tell, if the entry of *directive* is
    misnamed (:func:`naming_problem`): it is then not in the registry, as
    an entry with a wrong option."""
    problem = naming_problem(options)
    if problem is not None:
        warn("label", "%s: %s", directive, problem, location=location)
    return problem is not None


def repeated_labels(notes: Iterable[Note]) -> list[tuple[Note, Note]]:
    """Each entry of *notes* whose label an earlier one has, with that one."""
    first: dict[str, Note] = {}
    repeated = []
    for note in notes:
        if note.label and (earlier := first.setdefault(note.label, note)) is not note:
            repeated.append((note, earlier))
    return repeated


def check_labels_unique(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``, so on every build: warn at each entry whose label
    an earlier one has (a label names one entry, and its row's target).
    Returns None: what an ``env-updated`` handler returns, Sphinx writes."""
    for note, earlier in repeated_labels(notes_domain(env).notes()):
        warn(
            "label",
            __("%s: the label %r is already the entry's in %s (line %d)"),
            note.directive,
            note.label,
            earlier.place,
            earlier.line,
            location=note.location,
        )
