"""The items of the hand-kept lists matched to the notes (:func:`match_lists`):
each matched note gets what its item says (``:deterministic-algorithms:``,
``:when:``, ``:with:``, ``:cases:``, and ``:listed-as:`` and ``:aliases:``
where the list names it otherwise); each item no note can say gets an
entry that renders nothing (:mod:`reprodocs.migrate.entries`); each list
keeps only the items whose words no entry can say; the report says what
became of each item, and why."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import ANY_BACKEND, DETERMINISTIC, SEPARATOR
from reprodocs.migrate.devices_and_passes import DEVICE_BACKENDS, devices_named, pass_named
from reprodocs.migrate.docstrings import Docstring, ProseNote
from reprodocs.migrate.entries import entry_options, writable
from reprodocs.migrate.messages import Report
from reprodocs.migrate.model import (
    ALGORITHMS_OPTION,
    ALIASES_OPTION,
    OP_OPTION,
    FoundNote,
    HandKeptList,
    Listing,
    ListItem,
    Options,
    Plan,
    UnreadFile,
    collapse,
)
from reprodocs.migrate.names import kin, names_match, operation_word

#: What this migration gives notes, by ``id``.
_Assigned = dict[int, Listing]
#: The note each item is matched to, by the item's ``id``.
_Matched = dict[int, FoundNote]
#: A place in a file: its path and line.
Place = tuple[Path, int]


def fits(note: FoundNote, condition: str) -> int:
    """How well a note (without ``:deterministic-algorithms:``) fits an
    item's *condition* (its words after "with" and "when"), the higher the
    better: 0 not at all (a backward-pass note for a condition on calling
    the operation, a CUDA note for a condition naming CPU tensors only); a
    note on the very pass the condition is about (differentiating, or
    calling the operation) fits better than one on both passes, and one
    whose device the condition names better than one it does not."""
    wanted = pass_named(condition) or "forward"
    if note.affected_pass not in (wanted, "both"):
        return 0
    named = devices_named(condition)
    backends = {name.strip().lower() for name in note.backend.split(SEPARATOR)}
    if (
        named
        and ANY_BACKEND not in backends
        and not any(backends & DEVICE_BACKENDS[device] for device in named)
    ):
        return 0
    return 2 * (2 if note.affected_pass == wanted else 1) + bool(named)


@dataclass
class ListsOutcome:
    """What :func:`match_lists` decided: the plans; the items matched to a
    note, those given an entry (with the docstring holding it, None where
    it takes the item's place) and those kept by hand, with their lists;
    and the notes in neither list."""

    lists: list[HandKeptList] = field(default_factory=list)
    plans: dict[Path, Plan] = field(default_factory=dict)
    matched: list[tuple[ListItem, FoundNote]] = field(default_factory=list)
    entries: list[tuple[ListItem, Docstring | None]] = field(default_factory=list)
    kept: list[tuple[ListItem, HandKeptList]] = field(default_factory=list)
    unlisted: list[FoundNote] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)
    #: The options planned for each item's note or entry, by the item's ``id``.
    options_of: dict[int, Options] = field(default_factory=dict)

    def plan(self, path: Path) -> Plan:
        return self.plans.setdefault(path, Plan())


def match_lists(
    notes: list[FoundNote],
    lists: list[HandKeptList],
    list_directives: int = 0,
    unwritten: Collection[Place] = (),
    docstrings: Mapping[str, Docstring] | None = None,
    unread: Sequence[UnreadFile] = (),
) -> ListsOutcome:
    """Match the items of the hand-kept *lists* to the *notes*.

    An item's notes are those of its operation (:func:`names_match`), or,
    where it has none and no note in prose in its docstring, those of
    another form of it (:func:`~reprodocs.migrate.names.kin`: PyTorch's
    list names ``torch.index_add`` of the note on ``torch.Tensor.index_add_``).
    An item is matched to a note of its that already says the same; else to
    the one, saying nothing yet, that fits its condition best
    (:func:`fits`): the best fitting pair of all first, then the next
    among those left, so that each note takes one item. An item two notes
    fit equally well is matched to neither, and kept by hand: no one
    decides for it. An item no note fits gets an entry that renders
    nothing, at the end of its operation's docstring (*docstrings*, by the
    name the list gives) or, where none can take it, in its place in the
    list. Nothing is left that a second run would match.

    *unwritten* holds the places (file and line) where options or entries
    could not be written: their notes are matched to nothing (nor are
    their items to another form's), and those docstrings take no entry.

    An item whose docstring or notes a file of *unread* may hold is held
    back (:func:`held_by`): kept by hand, nothing of it written anywhere,
    its notes not said to be in neither list.
    """
    usable = [note for note in notes if (note.path, note.line) not in unwritten]
    places = docstrings or {}
    outcome = ListsOutcome(lists)
    held = _hold_back(outcome, lists, notes, unread)
    open_items = [
        (item, found, _candidates(item, notes, places.get(item.operation), unwritten))
        for found in lists
        for item in found.items
        if id(item) not in held
    ]
    assigned, matched = _match(open_items)
    _place_items(outcome, open_items, (assigned, matched), places, unwritten)
    released = _release(outcome, usable, assigned, places, unwritten)
    usable = [note for note in usable if id(note) not in released]
    _plan_options(outcome, usable, assigned)
    for found in lists:
        _plan_list(outcome, found)
    # The notes of each item that could not take what it says, for the report.
    blocked = {
        id(item): [n for n in _candidates(item, notes, None) if (n.path, n.line) in unwritten]
        for item, _, _ in open_items
    }
    _report_items(outcome, open_items, (assigned, matched), blocked, places)
    if lists or list_directives:
        _report_unlisted(outcome, [note for note in notes if id(note) not in held], assigned)
    outcome.reports.sort(key=lambda report: (str(report.path), report.line))
    return outcome


def held_by(operation: str, unread: Sequence[UnreadFile]) -> UnreadFile | None:
    """The first file of *unread* that may document *operation*, in any
    of its forms (:func:`~reprodocs.migrate.names.kin`): one whose text
    holds its name, or that could not be read at all."""
    word = operation_word(operation)
    return next((file for file in unread if file.words is None or word in file.words), None)


def _hold_back(
    outcome: ListsOutcome,
    lists: list[HandKeptList],
    notes: list[FoundNote],
    unread: Sequence[UnreadFile],
) -> set[int]:
    """Keep by hand each list an item of which a file of *unread* may
    decide (:func:`held_by`), whole, saying why of each item: the list
    stays as written, and a later run migrates it as a clean one would. The
    ``id`` of those items and of their notes."""
    held: set[int] = set()
    for found in lists:
        deciding = [
            held_by(item.operation, unread) if item.operation else None for item in found.items
        ]
        first = next((file for file in deciding if file is not None), None)
        if first is None:
            continue
        for item, file in zip(found.items, deciding, strict=True):
            outcome.kept.append((item, found))
            if file is not None:
                message = __(
                    "%s: kept by hand for now: %s could not be read or parsed, and may hold its "
                    "docstring or a note on it (run migrate again once it can be)"
                ) % (item.operation, file.location)
            else:
                message = __(
                    "%s: kept by hand for now, as its whole list: %s could not be read or "
                    "parsed (run migrate again once it can be)"
                ) % (item.operation or item.text, first.location)
            outcome.reports.append(Report(found.path, item.line, message, True, found.line))
            held |= {id(item), *map(id, _candidates(item, notes, None))}
    return held


def _place_items(
    outcome: ListsOutcome,
    open_items: list[_OpenItem],
    decided: tuple[_Assigned, _Matched],
    docstrings: Mapping[str, Docstring],
    unwritten: Collection[Place],
) -> None:
    """Each item matched to its note, given an entry, or kept by hand, as *decided*."""
    assigned, matched = decided
    for item, found, candidates in open_items:
        if id(item) in matched:
            outcome.matched.append((item, matched[id(item)]))
        elif _gets_entry(item, candidates, assigned):
            _plan_entry(outcome, item, found, docstrings.get(item.operation), unwritten)
        else:
            outcome.kept.append((item, found))


def _candidates(
    item: ListItem,
    notes: list[FoundNote],
    docstring: Docstring | None,
    unwritten: Collection[Place] = (),
) -> list[FoundNote]:
    """The notes of an item's operation that can be written (not
    *unwritten*): those naming it exactly, if any; else those where a
    package re-exports it; else, if it has no note of its own (in prose
    in its *docstring* or not), those of another form of it."""
    if not item.operation:
        return []
    found: list[FoundNote] = []
    for level in (2, 1):
        found = found or [
            n for n in notes if any(names_match(item.operation, m) == level for m in n.operations)
        ]
    if not found and not (docstring is not None and docstring.prose_note is not None):
        found = [n for n in notes if any(kin(item.operation, name) for name in n.operations)]
    return [note for note in found if (note.path, note.line) not in unwritten]


def _release(
    outcome: ListsOutcome,
    notes: list[FoundNote],
    assigned: _Assigned,
    docstrings: Mapping[str, Docstring],
    unwritten: Collection[Place],
) -> set[int]:
    """Each entry standing in a list's place (:attr:`FoundNote.list_place`)
    whose item a free note or the docstring of its operation can say now
    (its file can be written since, say) leaves the list's place for it,
    matched as a clean run matches the items (:func:`_match`): the tree
    converges. The ``id`` of the entries that leave."""
    others = [note for note in notes if not note.list_place]
    open_items: list[_OpenItem] = []
    entries: dict[int, FoundNote] = {}
    for entry in notes:
        operation = entry.options.get(OP_OPTION, "")
        kind = entry.options.get(ALGORITHMS_OPTION, "").lower()
        if not entry.list_place or kind != entry.list_place or not operation:
            continue
        listing = Listing.of_options(kind, entry.options)
        item = ListItem(
            entry.line, operation, operation, listing.when, "", listing.with_words, listing.cases
        )
        docstring = docstrings.get(operation)
        # Only an entry as migrate wrote it: one edited since, or given
        # alerts, says what a note or another entry would not keep.
        written = entry_options(Listing.of_item(kind, item), docstring, operation)
        if {name: collapse(value) for name, value in written} != {
            name: collapse(value) for name, value in entry.options.items()
        }:
            continue
        candidates = _candidates(item, others, docstring, unwritten)
        open_items.append((item, HandKeptList(entry.line, kind, [item]), candidates))
        entries[id(item)] = entry
    matched: _Matched = {}
    while pairs := _best_pairs(open_items, assigned, matched):
        _, _, item, found, note = min(pairs, key=lambda pair: pair[:2])
        matched[id(item)] = note
        assigned[id(note)] = _listing(found.kind, item, note)
    released: set[int] = set()
    for item, found, candidates in open_items:
        docstring = docstrings.get(item.operation)
        if id(item) not in matched:
            if not docstring or not _gets_entry(item, candidates, assigned):
                continue
            if (docstring.path, docstring.line) in unwritten:
                continue
            options = entry_options(Listing.of_item(found.kind, item), docstring, item.operation)
            if not writable(docstring, options):
                continue
            outcome.plan(docstring.path).entries.setdefault(docstring.line, []).append(options)
        entry = entries[id(item)]
        outcome.plan(entry.path).released.add(entry.line)
        released.add(id(entry))
    return released


def _listing(kind: str, item: ListItem, note: FoundNote) -> Listing:
    """What *note* says, given the item: its name, if the note's operation is another."""
    other = not any(names_match(item.operation, name) for name in note.operations)
    return Listing.of_item(kind, item, item.operation if other else "")


def _effective(note: FoundNote, assigned: _Assigned) -> Listing | None:
    """What a note says in a list: what its options say, or what this
    migration gives it; None when it says nothing."""
    if id(note) in assigned:
        return assigned[id(note)]
    kind = note.options.get(ALGORITHMS_OPTION, "").lower()
    return Listing.of_options(kind, note.options) if kind else None


_OpenItem = tuple[ListItem, HandKeptList, list[FoundNote]]


def _match(open_items: list[_OpenItem]) -> tuple[_Assigned, _Matched]:
    """The items matched to notes, and what the notes are given for it."""
    assigned: _Assigned = {}
    matched: _Matched = {}
    for item, found, ops in open_items:  # notes that say it already
        if item.condition is None:
            continue
        same = [n for n in ops if _effective(n, assigned) == _listing(found.kind, item, n)]
        if same:
            matched[id(item)] = same[0]
    # The best fitting pair of all is matched (the first item of equals),
    # and the rest weighed again.
    while pairs := _best_pairs(open_items, assigned, matched):
        _, _, item, found, note = min(pairs, key=lambda pair: pair[:2])
        matched[id(item)] = note
        assigned[id(note)] = _listing(found.kind, item, note)
    return assigned, matched


def _words(item: ListItem) -> str:
    return f"{item.with_words} {item.condition or ''}"


def _best_pairs(
    open_items: list[_OpenItem], assigned: _Assigned, matched: _Matched
) -> list[tuple[int, int, ListItem, HandKeptList, FoundNote]]:
    """Each unmatched item's best free note, where one alone is best: how
    well it fits (negated), the item's order, the item, its list, the note."""
    pairs = []
    for order, (item, found, ops) in enumerate(open_items):
        if id(item) in matched or item.condition is None:
            continue
        free = [(fits(n, _words(item)), n) for n in ops if _effective(n, assigned) is None]
        best = max((score for score, _ in free), default=0)
        chosen = [n for score, n in free if score == best]
        if best and len(chosen) == 1:
            pairs.append((-best, order, item, found, chosen[0]))
    return pairs


def _gets_entry(item: ListItem, candidates: list[FoundNote], assigned: _Assigned) -> bool:
    """An unmatched item gets an entry: its words can be an entry's, and no
    free note of its fits it (several fitting equally are left to a person)."""
    if item.condition is None or not item.operation:
        return False
    return not any(
        fits(note, _words(item)) for note in candidates if _effective(note, assigned) is None
    )


def _plan_entry(
    outcome: ListsOutcome,
    item: ListItem,
    found: HandKeptList,
    docstring: Docstring | None,
    unwritten: Collection[Place],
) -> None:
    """The entry of an item, naming its operation: at the end of its
    operation's docstring, or where that cannot take it, in the item's place."""
    # Named (``:op:``) even in its operation's docstring: after an object
    # directive in it (``.. function:: median(input, dim)``, napoleon's
    # "Attributes" section), Sphinx no longer knows which object it is on.
    options = entry_options(Listing.of_item(found.kind, item), docstring, item.operation)
    if (
        docstring is not None
        and (docstring.path, docstring.line) not in unwritten
        and writable(docstring, options)
    ):
        outcome.plan(docstring.path).entries.setdefault(docstring.line, []).append(options)
        outcome.entries.append((item, docstring))
    else:
        outcome.plan(found.path).item_entries[item.line] = options
        outcome.entries.append((item, None))
    outcome.options_of[id(item)] = options


def _plan_options(outcome: ListsOutcome, notes: list[FoundNote], assigned: _Assigned) -> None:
    """The options each note is given, in the plan of its file: what its
    item says, and, where the list names it otherwise, that name as an
    alias, unless it is another entry's operation."""
    operations = {name for note in notes for name in note.operations[:1]}
    operations |= {item.operation for item, _ in outcome.entries}
    for note in notes:
        listing = assigned.get(id(note))
        if listing is None:
            continue
        options = listing.options()
        alias = listing.listed_as
        if alias and alias not in operations and alias not in note.options.get(ALIASES_OPTION, ""):
            options.append((ALIASES_OPTION, alias))
        outcome.plan(note.path).options[note.line] = options
        for item, matched in outcome.matched:
            if matched is note:
                outcome.options_of[id(item)] = options


def _plan_list(outcome: ListsOutcome, found: HandKeptList) -> None:
    """What becomes of a list: replaced by its directive, keeping by hand
    only the items no note or entry says, where any is said (or it is the
    remainder of a directive); else it stays as it is."""
    kept = [item.line for item, kept_in in outcome.kept if kept_in is found]
    if found.remainder or len(kept) < len(found.items):
        outcome.plan(found.path).kept[found.line] = kept
    else:
        for item in found.items:  # the list stays: no entry is written
            outcome.plan(found.path).item_entries.pop(item.line, None)


def _report_items(
    outcome: ListsOutcome,
    open_items: list[_OpenItem],
    decided: tuple[_Assigned, _Matched],
    blocked: dict[int, list[FoundNote]],
    docstrings: Mapping[str, Docstring],
) -> None:
    """Each list's summary, and what became of each of its items, as
    *decided* (what the notes are given, the note of each item matched)."""
    assigned, matched = decided
    entries = {id(item): docstring for item, docstring in outcome.entries}
    for found in outcome.lists:
        outcome.reports.append(_list_summary(outcome, found))
    for item, found, candidates in open_items:
        if id(item) in matched:
            message = _from_note(item, matched[id(item)])
        elif id(item) in entries:
            placed = entries[id(item)]
            prose = docstrings[item.operation].prose_note if item.operation in docstrings else None
            message = _entry_added(item, candidates, placed, prose, blocked[id(item)])
        else:
            message = _why_kept(item, candidates, assigned)
        kept = id(item) not in matched and id(item) not in entries
        outcome.reports.append(Report(found.path, item.line, message, kept, found.line))


def _list_summary(outcome: ListsOutcome, found: HandKeptList) -> Report:
    name = list_name(found.kind)
    mine = {id(item) for item in found.items}
    noted = sum(id(item) in mine for item, _ in outcome.matched)
    entries = sum(id(item) in mine for item, _ in outcome.entries)
    kept = len(found.items) - noted - entries
    if found.line in outcome.plan(found.path).kept:
        summary = __("%s: items from notes: %d, from entries added: %d, kept by hand: %d (of %d)")
        summary %= (name, noted, entries, kept, len(found.items))
    else:
        summary = __("%s stays as it is: no note or entry would be in it (kept by hand: %d)")
        summary %= (name, len(found.items))
    return Report(found.path, found.line, summary)


def _from_note(item: ListItem, note: FoundNote) -> str:
    if any(names_match(item.operation, name) for name in note.operations):
        return __("%s: from its %s note in %s") % (item.operation, note.directive, note.path)
    return __("%s: from the %s note of %s in %s, which the list names so (:listed-as:)") % (
        item.operation,
        note.directive,
        note.operations[0],
        note.path,
    )


def _entry_added(
    item: ListItem,
    notes: list[FoundNote],
    placed: Docstring | None,
    prose: ProseNote | None,
    blocked: list[FoundNote],
) -> str:
    """Why an item gets an entry, and where (the docstring it is *placed*
    in, None for the list's place); *prose*: its note in prose; *blocked*:
    its notes that could not be written with what it says."""
    if placed is None:
        where = __(
            "an entry naming it (:op:) takes its place in the list: no docstring of it in the "
            "files migrated can take one"
        )
    else:
        where = __("an entry that renders nothing is added to its docstring in %s") % placed.path
    if prose is not None:
        why = __("%s has a note in prose (%s:%d), whose words are kept") % (
            item.operation,
            prose.path,
            prose.line,
        )
    elif blocked:
        why = __("%s: its note in %s could not be written with what the list says") % (
            item.operation,
            blocked[0].path,
        )
    elif not notes:
        why = __("%s has no note") % item.operation
    elif any(fits(note, _words(item)) for note in notes):
        why = __("%s: its notes that fit its condition say another item (%s)") % (
            item.operation,
            _directives(notes),
        )
    else:
        why = __("%s: its notes do not fit its condition (%s)") % (
            item.operation,
            _directives(notes),
        )
    return f"{why}: {where}"


def _directives(notes: list[FoundNote]) -> str:
    return ", ".join(dict.fromkeys(note.directive for note in notes))


def _why_kept(item: ListItem, notes: list[FoundNote], assigned: _Assigned) -> str:
    """Why an item stays in its list, kept by hand (a report's message)."""
    kept = __("the item stays in the list, kept by hand")
    if not item.operation:
        return f"{item.problem}: {item.text}: {kept}"
    if item.condition is None:
        return f"{item.operation}: {item.problem}: {kept}"
    free = [n for n in notes if fits(n, _words(item)) and _effective(n, assigned) is None]
    message = __("%s has several notes that fit its condition equally (%s): %s")
    return message % (item.operation, _directives(free), kept)


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


def list_name(kind: str) -> str:
    if kind == DETERMINISTIC:
        return str(__("the list of operations that act deterministically"))
    return str(__("the list of operations that throw a RuntimeError"))
