"""The items of the hand-kept lists matched to the notes (:func:`match_lists`):
each matched note gets ``:deterministic-algorithms:`` and ``:when:``, each
list keeps the items no note matched, and the report says why of each."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import DETERMINISTIC
from reprodocs.migrate.model import (
    ALGORITHMS_OPTION,
    WHEN_OPTION,
    FoundNote,
    HandKeptList,
    ListItem,
    Plan,
)
from reprodocs.migrate.report import Report
from reprodocs.migrate.text import collapse

#: Conditions about the backward pass (differentiating, gradients).
_BACKWARD_CONDITION = re.compile(r"differentiat|backward|gradient|requires[ _]grad", re.IGNORECASE)
#: Devices a condition may name, and the backends of the notes that can be
#: about tensors on them (PyTorch's ROCm tensors are "CUDA tensors").
_DEVICES = {
    "cuda": {"cuda", "cudnn", "rocm", "miopen", "hip"},
    "cpu": {"cpu"},
    "mps": {"mps"},
    "xpu": {"xpu"},
    "xla": {"xla"},
}

#: What this migration gives notes, by ``id``: ``:deterministic-algorithms:`` and ``:when:``.
_Assigned = dict[int, tuple[str, str]]
#: The note each item is matched to, by the item's ``id``.
_Matched = dict[int, FoundNote]


def names_match(item: str, note: str) -> int:
    """2 when the list's *item* names the operation *note* (one of a note's
    names) exactly, 1 when it names it where a package re-exports it
    (``torch.nn.Conv1d`` for ``torch.nn.modules.conv.Conv1d``), else 0."""
    if item == note:
        return 2
    wanted, named = item.split("."), note.split(".")
    extra = len(named) - len(wanted)
    if extra <= 0:
        return 0
    return int(
        any(
            named[:k] == wanted[:k] and named[k + extra :] == wanted[k:]
            for k in range(1, len(wanted))
        )
    )


def fits(note: FoundNote, condition: str) -> int:
    """How well a note (without ``:when:``) fits an item's *condition*, the
    higher the better: 0 not at all (a backward-pass note for a condition on
    calling the operation, a CUDA note for a condition naming CPU tensors
    only); a note on the very pass the condition is about (differentiating,
    or calling the operation) fits better than one on both passes, and one
    whose device the condition names better than one it does not."""
    wanted = "backward" if _BACKWARD_CONDITION.search(condition) else "forward"
    if note.affected_pass not in (wanted, "both"):
        return 0
    named = {word for word in re.findall(r"[A-Za-z]+", condition.lower()) if word in _DEVICES}
    if named and not any(note.backend.lower() in _DEVICES[device] for device in named):
        return 0
    return 2 * (2 if note.affected_pass == wanted else 1) + bool(named)


@dataclass
class ListsOutcome:
    """What :func:`match_lists` decided: the plans, the items matched to a
    note and those kept by hand, with their lists, and the notes in neither."""

    lists: list[HandKeptList] = field(default_factory=list)
    plans: dict[Path, Plan] = field(default_factory=dict)
    matched: list[tuple[ListItem, FoundNote]] = field(default_factory=list)
    kept: list[tuple[ListItem, HandKeptList]] = field(default_factory=list)
    unlisted: list[FoundNote] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)


def match_lists(
    notes: list[FoundNote],
    lists: list[HandKeptList],
    list_directives: int = 0,
    unwritten: Collection[int] = (),
) -> ListsOutcome:
    """Match the items of the hand-kept *lists* to the *notes*.

    An item is matched to a note of its operation (:func:`names_match`)
    that already says the same (its ``:deterministic-algorithms:`` and
    ``:when:``); else to the note of its operation, without those options,
    that fits its condition best (:func:`fits`): the best fitting pair of
    all first, then the next among those left, so that each note takes one
    item (one condition). An item two notes fit equally well is matched to
    neither: no one decides for it. Nothing is left that a second run
    would match.

    The plan gives each matched legacy or option-less note
    ``:deterministic-algorithms:`` and ``:when:``, and each list the items
    it keeps (those matched to no note). The reports name every item kept
    and why, every note in neither list (when the tree has the lists, as
    hand-kept lists or as directives), and sum up each list.

    *unwritten* holds (by ``id``) the notes whose options could not be
    written (their file could not be): the items matched to them stay in
    their lists, so that no item is lost.
    """
    assigned, matched = _match(notes, lists)
    # The items of unwritten notes lose them; the notes, what they were given.
    lost = {i for i, note in matched.items() if id(note) in unwritten and id(note) in assigned}
    for item_id in lost:
        del matched[item_id]
    for note_id in unwritten:
        assigned.pop(note_id, None)

    outcome = ListsOutcome(lists)
    _plan_options(outcome, notes, assigned)
    listed = {effective[0] for note in notes if (effective := _effective(note, assigned))}
    for found in lists:
        _decide_list(outcome, found, found.kind in listed, matched, lost)
        for item in found.items:
            if id(item) not in matched:
                why = _why_kept(item, _candidates(item, notes), assigned, id(item) in lost)
                outcome.reports.append(Report(found.path, item.line, why, kept=True))
    if lists or list_directives:
        _report_unlisted(outcome, notes, assigned)
    outcome.reports.sort(key=lambda report: (str(report.path), report.line))
    return outcome


def _candidates(item: ListItem, notes: list[FoundNote]) -> list[FoundNote]:
    """The notes of an item's operation: those naming it exactly, if any."""
    if not item.operation:
        return []
    exact = [n for n in notes if any(names_match(item.operation, m) == 2 for m in n.operations)]
    if exact:
        return exact
    return [n for n in notes if any(names_match(item.operation, m) for m in n.operations)]


def _effective(note: FoundNote, assigned: _Assigned) -> tuple[str, str] | None:
    """A note's ``:deterministic-algorithms:`` and ``:when:``: its own, or
    those given by this migration; None when it has none."""
    if id(note) in assigned:
        return assigned[id(note)]
    kind = note.options.get(ALGORITHMS_OPTION, "").lower()
    if kind:
        return kind, collapse(note.options.get(WHEN_OPTION, ""))
    return None


def _match(notes: list[FoundNote], lists: list[HandKeptList]) -> tuple[_Assigned, _Matched]:
    """The items matched to notes, and what the notes are given for it."""
    assigned: _Assigned = {}
    matched: _Matched = {}
    open_items = [
        (item, found, _candidates(item, notes))
        for found in lists
        for item in found.items
        if item.condition is not None and item.operation
    ]
    for item, found, ops in open_items:  # notes that say it already
        same = [n for n in ops if _effective(n, assigned) == (found.kind, item.condition)]
        if same:
            matched[id(item)] = same[0]
    # The best fitting pair of all is matched (the first item of equals),
    # and the rest weighed again.
    while pairs := _best_pairs(open_items, assigned, matched):
        _, _, item, found, note = min(pairs, key=lambda pair: pair[:2])
        matched[id(item)] = note
        assigned[id(note)] = (found.kind, item.condition or "")
    return assigned, matched


def _best_pairs(
    open_items: list[tuple[ListItem, HandKeptList, list[FoundNote]]],
    assigned: _Assigned,
    matched: _Matched,
) -> list[tuple[int, int, ListItem, HandKeptList, FoundNote]]:
    """Each unmatched item's best free note, where one alone is best: how
    well it fits (negated), the item's order, the item, its list, the note."""
    pairs = []
    for order, (item, found, ops) in enumerate(open_items):
        if id(item) in matched or item.condition is None:
            continue
        free = [(fits(n, item.condition), n) for n in ops if _effective(n, assigned) is None]
        best = max((score for score, _ in free), default=0)
        chosen = [n for score, n in free if score == best]
        if best and len(chosen) == 1:
            pairs.append((-best, order, item, found, chosen[0]))
    return pairs


def _plan_options(outcome: ListsOutcome, notes: list[FoundNote], assigned: _Assigned) -> None:
    """The options each note is given, in the plan of its file."""
    for note in notes:
        if id(note) in assigned:
            kind, condition = assigned[id(note)]
            options = [(ALGORITHMS_OPTION, kind)]
            if condition:
                options.append((WHEN_OPTION, condition))
            plan = outcome.plans.setdefault(note.path, Plan())
            plan.options[note.line] = options


def _decide_list(
    outcome: ListsOutcome, found: HandKeptList, listed: bool, matched: _Matched, lost: set[int]
) -> None:
    """What becomes of a list: replaced by its directive, keeping the items
    matched to no note, where a note is *listed* in it (or it is the
    remainder of a directive); its summary, and its items, matched or kept."""
    name = _list_name(found.kind)
    if found.remainder or listed:
        taken = sum(id(item) in matched for item in found.items)
        plan = outcome.plans.setdefault(found.path, Plan())
        plan.kept[found.line] = [item.line for item in found.items if id(item) not in matched]
        summary = __("%s: items from notes: %d, kept by hand: %d (of %d)") % (
            name,
            taken,
            len(found.items) - taken,
            len(found.items),
        )
    else:  # the directive would list nothing: the list stays as it is
        summary = __("%s stays as it is: no note would be in it (kept by hand: %d)") % (
            name,
            len(found.items),
        )
    outcome.reports.append(Report(found.path, found.line, summary))
    for item in found.items:
        if id(item) in matched:
            outcome.matched.append((item, matched[id(item)]))
        else:
            outcome.kept.append((item, found))


def _report_unlisted(outcome: ListsOutcome, notes: list[FoundNote], assigned: _Assigned) -> None:
    """Each note in neither list."""
    for note in notes:
        if _effective(note, assigned) is None:
            outcome.unlisted.append(note)
            message = (
                __("in neither list: the %s note of %s") % (note.directive, note.operations[0])
                if note.operations
                else __("in neither list: a %s note on an operation migrate cannot tell")
                % note.directive
            )
            outcome.reports.append(Report(note.path, note.line, str(message)))


def _list_name(kind: str) -> str:
    if kind == DETERMINISTIC:
        return str(__("the list of operations that act deterministically"))
    return str(__("the list of operations that throw a RuntimeError"))


def _why_kept(item: ListItem, notes: list[FoundNote], assigned: _Assigned, lost: bool) -> str:
    """Why an item matched none of its operation's *notes* (a report's
    message); *lost*: it was matched to a note whose options could not be
    written."""
    kept = __("the item stays in the list, kept by hand")
    if lost:  # the note itself is reported where it is
        return __("%s: its note could not be written with the options: %s") % (
            item.operation,
            kept,
        )
    if not item.operation:
        return f"{item.problem}: {item.text}: {kept}"
    if not notes:
        return __("%s has no note: %s") % (item.operation, kept)
    if item.condition is None:
        return __("%s has a note, but %s: %s") % (item.operation, item.problem, kept)
    fitting = [n for n in notes if fits(n, item.condition)]
    free = [n for n in fitting if _effective(n, assigned) is None]
    named = ", ".join(dict.fromkeys(n.directive for n in (free or fitting or notes)))
    if len(free) > 1:
        message = __("%s has several notes that fit its condition equally (%s): %s")
    elif fitting:
        message = __("%s has no note left that fits its condition, another item has it (%s): %s")
    else:
        message = __("%s has no note that fits its condition (its notes: %s): %s")
    return message % (item.operation, named, kept)
