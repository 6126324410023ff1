"""The alerts migrate writes (``:alert:``, ``--alerts-from``): the sources
are read as check-alerts reads them (the calls of ``alertNotDeterministic``
and the tests expecting an alert), and each item's note or entry gets the
alerts they tie to its operation unambiguously
(:func:`~reprodocs.check_alerts.suggest.suggest_alerts`); the report says
which, and why not where none. The one module of migrate that uses
check-alerts."""

from __future__ import annotations

from typing import TextIO

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import SEPARATOR
from reprodocs.check_alerts.command import Scan, scan_sources
from reprodocs.check_alerts.registry import Entry
from reprodocs.check_alerts.suggest import suggest_alerts
from reprodocs.migrate.matching import ListsOutcome
from reprodocs.migrate.messages import Report
from reprodocs.migrate.model import ALERT_OPTION, FoundNote, ListItem
from reprodocs.migrate.names import names_match

#: What the sources raise and their tests expect.
Alerts = Scan


def read_alerts(paths: list[str], progress: TextIO) -> Alerts:
    """The calls and the tests' ties in the sources at *paths* (the files
    that cannot be read are in its errors)."""
    return scan_sources(paths, progress)


def add_alerts(outcome: ListsOutcome, notes: list[FoundNote], scan: Alerts) -> None:
    """Give each item's note or entry, planned in *outcome*, the alerts
    *scan* ties to its operation, and report on each item what it got or
    why nothing. The other notes (in neither list) are entries of the
    registry too: a test or call naming them is theirs, not an item's."""
    items = [
        (item, found, _aliases(item, outcome))
        for found in outcome.lists
        for item in found.items
        if id(item) in outcome.options_of
    ]
    entries = [Entry(item.operation, found.kind, "", (), aliases) for item, found, aliases in items]
    listed = {name for item, _, aliases in items for name in (item.operation, *aliases)}
    entries += [
        Entry(note.operations[0], "", "")
        for note in notes
        if note.operations and note.operations[0] not in listed
    ]
    suggestions = suggest_alerts(entries, scan.ties, scan.calls)
    for (item, found, _), suggestion in zip(items, suggestions, strict=False):
        if suggestion.alerts:
            written = f"{SEPARATOR} ".join(suggestion.alerts)
            outcome.options_of[id(item)].append((ALERT_OPTION, written))
            message = __("%s: :alert: %s (%s)") % (item.operation, written, suggestion.reason)
        else:
            message = __("%s: no :alert: written: %s") % (item.operation, suggestion.reason)
        outcome.reports.append(Report(found.path, item.line, message, False, found.line))
    outcome.reports.sort(key=lambda report: (str(report.path), report.line))


def _aliases(item: ListItem, outcome: ListsOutcome) -> tuple[str, ...]:
    """The other names of an item's operation: its note's, where the list
    names the note's operation otherwise."""
    return tuple(
        name
        for matched, note in outcome.matched
        if matched is item
        for name in note.operations[:1]
        if not names_match(item.operation, name)
    )
