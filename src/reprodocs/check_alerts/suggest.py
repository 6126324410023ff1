"""Each entry's alerts (``:alert:``), where the tests or the sources tie
them to the operation unambiguously, and why not where they do not: for
``migrate``, which writes the entries. Pure.

The rules, conservative ("unambiguous" meaning a maintainer would agree
without looking):

- **Tests.** A test tied to exactly one entry (see
  :func:`~reprodocs.check_alerts.compare.tied_entries`) gives that entry
  the alert it expects; an entry gets all of its tests' alerts. A test tied
  to several entries (an operation listed under several conditions:
  ``torch.Tensor.put_``) gives none of them an alert: its name's case
  (``put_accumulate``) does not say which condition it tests. A test whose
  alert is a pattern (``"avg_pool3d_backward_" + torch.device(device).type``)
  gives the one call name it matches, or nothing when it matches none or
  several. The entry's mode does not matter: an entry acting
  deterministically gets the alert of the path it avoids.
- **Call sites**, for an entry that no test names. A call's name is cut
  into identifier words (``scatter_add_cuda``: scatter, add, cuda); an
  operation's short name (``scatter_add`` for ``torch.Tensor.scatter_add_``)
  is found in it as a run of whole words. The call is the operation's when
  the names found in it, less those inside a longer one found (``scatter``
  inside ``scatter_add``), are of that operation only; the entry gets the
  call's name when the operation has exactly one entry and its calls give
  exactly one name (a pattern's call counting as a name of its own). Adding
  a backend's suffix to a short name (``_histc_cuda``) is not guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reprodocs.base.i18n import __
from reprodocs.check_alerts.compare import entry_ties, matches, short_names

if TYPE_CHECKING:
    from collections.abc import Sequence

    from reprodocs.check_alerts.compare import Located
    from reprodocs.check_alerts.registry import Entry
    from reprodocs.check_alerts.scan import AlertCall
    from reprodocs.check_alerts.ties import Tie

WORDS = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True)
class Suggestion:
    """An entry's alerts to write, () when none can be said, and why."""

    entry: Entry
    alerts: tuple[str, ...]
    reason: str


def suggest_alerts(
    entries: Sequence[Entry], ties: Sequence[Located[Tie]], calls: Sequence[Located[AlertCall]]
) -> list[Suggestion]:
    """A suggestion for each of *entries*, in their order (see the rules above)."""
    entries = list(entries)
    names = sorted({c.item.alert for c in calls if c.item.alert and not c.item.pattern})
    owned = call_owners(calls, entries)
    sharing = {entry.name: sum(e.name == entry.name for e in entries) for entry in entries}
    suggestions = []
    for entry, tied in zip(entries, entry_ties(ties, entries), strict=True):
        if tied:
            suggestions.append(from_tests(entry, tied, names))
        else:
            suggestions.append(from_calls(entry, owned.get(entry.name, []), sharing[entry.name]))
    return suggestions


def from_tests(entry: Entry, tied: list[tuple[Located[Tie], int]], names: list[str]) -> Suggestion:
    """*entry*'s suggestion from its tests: each tie with how many entries it is tied to."""
    shared = sorted({tie.item.test for tie, count in tied if count > 1})
    if shared:
        reason = __("several entries of %s share its tests (%s)") % (entry.name, ", ".join(shared))
        return Suggestion(entry, (), reason)
    alerts: dict[str, None] = {}
    said, unsaid = [], []
    for tie in (tie for tie, _ in tied):
        where = f"{tie.item.test} at {tie.path}:{tie.item.line}"
        alert, why = tie_alert(tie.item, where, names)
        if alert is None:
            unsaid.append(why)
        elif alert not in alerts:
            alerts[alert] = None
            said.append(__("%r, tied by %s") % (alert, where))
    return Suggestion(entry, tuple(alerts), "; ".join([*said, *unsaid]))


def tie_alert(tie: Tie, where: str, names: list[str]) -> tuple[str | None, str]:
    """The alert *tie*'s test (*where*) expects, or None and why it cannot be said."""
    if tie.alert is None:
        return None, __("%s expects an alert whose name cannot be read: %s") % (where, tie.text)
    if not tie.pattern:
        return tie.alert, ""
    matching = [name for name in names if matches(tie, name)]
    if len(matching) == 1:
        return matching[0], ""
    if not matching:
        return None, __("%s expects alerts matching %r, which no call raises") % (where, tie.alert)
    return None, __("%s expects alerts matching %r, which several calls raise: %s") % (
        where,
        tie.alert,
        ", ".join(matching),
    )


def from_calls(entry: Entry, owned: list[Located[AlertCall]], entries: int) -> Suggestion:
    """*entry*'s suggestion from the calls that are its operation's (no test names it)."""
    names = sorted({call.item.alert or "" for call in owned})
    if not owned:
        return Suggestion(entry, (), __("no test or call names %s") % entry.name)
    if entries > 1:
        reason = __("no test names %s; its calls (%s) are of an operation with %d entries")
        return Suggestion(entry, (), reason % (entry.name, ", ".join(names), entries))
    if len(names) > 1:
        reason = __("no test names %s; several calls name it: %s") % (entry.name, ", ".join(names))
        return Suggestion(entry, (), reason)
    call = owned[0]
    if call.item.pattern:
        reason = __("no test names %s; its only call raises alerts matching %r")
        return Suggestion(entry, (), reason % (entry.name, names[0]))
    sites = ", ".join(f"{c.path}:{c.item.line}" for c in owned)
    reason = __("raised by the only call naming %s, at %s") % (entry.name, sites)
    return Suggestion(entry, (names[0],), reason)


def call_owners(
    calls: Sequence[Located[AlertCall]], entries: list[Entry]
) -> dict[str, list[Located[AlertCall]]]:
    """The readable calls of each operation (by name) they are unambiguously of."""
    spellings = [
        (entry.name, tuple(WORDS.findall(short)))
        for entry in entries
        for short in sorted(short_names(entry))
    ]
    owned: dict[str, list[Located[AlertCall]]] = {}
    for call in calls:
        if call.item.alert is None:
            continue
        owner = call_owner(tuple(WORDS.findall(call.item.alert)), spellings)
        if owner is not None:
            owned.setdefault(owner, []).append(call)
    return owned


def call_owner(words: tuple[str, ...], spellings: list[tuple[str, tuple[str, ...]]]) -> str | None:
    """The one operation whose short names are found in *words* (those inside
    a longer one found aside); None for none or several."""
    found = [
        (name, start, start + len(spelled))
        for name, spelled in spellings
        if spelled
        for start in range(len(words) - len(spelled) + 1)
        if words[start : start + len(spelled)] == spelled
    ]
    outer = {
        name
        for name, start, end in found
        if not any(s <= start and end <= e and e - s > end - start for _, s, e in found)
    }
    return outer.pop() if len(outer) == 1 else None
