"""The registry against the code: what the sources raise, what the tests
expect, the switches the code branches on, and what the entries say,
compared into findings. Pure: the command reads the files and prints the
findings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Generic, TypeVar

from reprodocs.base.i18n import __
from reprodocs.check_alerts.branches import covers, entry_names, module_parts, names, placed

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from reprodocs.check_alerts.branches import Site
    from reprodocs.check_alerts.places import Place
    from reprodocs.check_alerts.registry import Entry
    from reprodocs.check_alerts.scan import AlertCall
    from reprodocs.check_alerts.ties import Tie

#: The kinds of finding, in the order they are reported.
UNREADABLE = "unreadable-call"
UNDOCUMENTED = "undocumented-alert"
STALE = "stale-entry"
STILL_RAISED = "still-raised"
WITHOUT_ALERT = "entry-without-alert"
UNCOVERED = "uncovered-branch"
WITHOUT_BRANCH = "entry-without-branch"
MISSING_PLACE = "missing-place"
#: The files an entry-without-branch finding names at most (a package's are many).
SHOWN_FILES = 3
KINDS = (
    UNREADABLE,
    UNDOCUMENTED,
    STALE,
    STILL_RAISED,
    WITHOUT_ALERT,
    UNCOVERED,
    WITHOUT_BRANCH,
    MISSING_PLACE,
)


T = TypeVar("T")


@dataclass(frozen=True)
class Located(Generic[T]):
    """Something read from a file, with the file's path."""

    path: str
    item: T


@dataclass(frozen=True)
class Ignore:
    """An ignore rule: findings about an alert, a source path or an
    operation matching its glob are left out, for its reason."""

    reason: str
    alert: str | None = None
    path: str | None = None
    operation: str | None = None
    where: str = ""  #: where the rule is written, for the report

    def covers(self, finding: Finding) -> bool:
        return any(
            glob is not None and value is not None and fnmatchcase(value, glob)
            for glob, value in (
                (self.alert, finding.alert),
                (self.path, finding.path if finding.line is not None else None),
                (self.operation, finding.operation),
            )
        )


@dataclass(frozen=True)
class Finding:
    """One disagreement: its kind, where (a source's file and line, an
    entry's line in the registry file, or the entry's docs with line None),
    and what about."""

    kind: str
    path: str
    line: int | None
    message: str
    alert: str | None = None
    operation: str | None = None
    docs: str | None = None


@dataclass(frozen=True)
class Coverage:
    """A switch's site and the entries covering it (none: a finding), each
    by its operation, or its label (:attr:`Entry.title`)."""

    site: Located[Site]
    entries: tuple[str, ...]
    #: The covering entries' indexes in the registry (their titles may repeat).
    indexes: tuple[int, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Comparison:
    findings: list[Finding]
    ignored: list[tuple[Finding, Ignore]]
    unused: list[Ignore]
    branches: list[Coverage] = field(default_factory=list)


def compare(
    calls: Iterable[Located[AlertCall]],
    ties: Iterable[Located[Tie]],
    entries: list[Entry],
    rules: Iterable[Ignore] = (),
    sites: Iterable[Located[Site]] | None = None,
    scanned: Iterable[str] = (),
    alerts: bool = True,
    places: Mapping[str, Place] | None = None,
) -> Comparison:
    """Every finding about *calls*, *ties* and *entries*, and, where
    switches are looked for (*sites* not None), about the switches' sites;
    without those *rules* cover (kept apart, with the rule), and the rules
    that covered none. *scanned* are the Python files read for *sites*.
    With *alerts* False (no alert function configured)
    an entry naming no alert is no finding. *places* are the entries'
    places as found among the sources (:func:`~reprodocs.check_alerts.places.locate`)."""
    calls, ties, rules = list(calls), list(ties), list(rules)
    places = places or {}
    branches = coverage(sites, entries, places) if sites is not None else []
    found = [
        *unreadable(calls, ties),
        *undocumented(calls, ties, entries),
        *stale(calls, entries),
        *still_raised(calls, entries),
        *(without_alert(ties, entries) if alerts else ()),
        *uncovered(branches),
        *(without_branch(branches, entries, scanned, places) if sites is not None else ()),
        *missing_places(entries, places),
    ]
    findings, ignored, used = [], [], set()
    for finding in found:
        rule = next((rule for rule in rules if rule.covers(finding)), None)
        if rule is None:
            findings.append(finding)
        else:
            ignored.append((finding, rule))
            used.add(id(rule))
    unused = [rule for rule in rules if id(rule) not in used]
    return Comparison(findings, ignored, unused, branches)


def unreadable(calls: list[Located[AlertCall]], ties: list[Located[Tie]]) -> Iterable[Finding]:
    for call in calls:
        if call.item.alert is None:
            message = __("an alert whose name cannot be read: %s") % call.item.text
            yield Finding(UNREADABLE, call.path, call.item.line, message)
    for tie in ties:
        if tie.item.alert is None:
            message = __("%s expects an alert whose name cannot be read: %s")
            yield Finding(
                UNREADABLE, tie.path, tie.item.line, message % (tie.item.test, tie.item.text)
            )


def undocumented(
    calls: list[Located[AlertCall]], ties: list[Located[Tie]], entries: list[Entry]
) -> Iterable[Finding]:
    """Alerts raised, or expected by a test, that no entry names."""
    named = {alert for entry in entries for alert in entry.alerts}
    for call in calls:
        name = call.item.alert
        if name is not None and not any(matches(call.item, alert) for alert in named):
            message = (
                __("raises alerts matching %r, which no entry names")
                if call.item.pattern
                else __("raises the alert %r, which no entry names")
            ) % name
            yield Finding(UNDOCUMENTED, call.path, call.item.line, message, alert=name)
    for tie in ties:
        name = tie.item.alert
        if name is not None and not any(matches(tie.item, alert) for alert in named):
            message = __("%s expects the alert %r, which no entry names") % (tie.item.test, name)
            yield Finding(UNDOCUMENTED, tie.path, tie.item.line, message, alert=name)


def stale(calls: list[Located[AlertCall]], entries: list[Entry]) -> Iterable[Finding]:
    """Alerts of entries saying the operation raises, which no source raises."""
    for entry in entries:
        for alert in entry.alerts if entry.raises else ():
            if not any(matches(call.item, alert) for call in calls):
                message = __(
                    "%s is documented to throw a RuntimeError, yet no source raises its alert %r"
                ) % (entry.title, alert)
                yield Finding(STALE, *entry.location, message, alert, entry.name, entry.docs)


def still_raised(calls: list[Located[AlertCall]], entries: list[Entry]) -> Iterable[Finding]:
    """Calls raising an alert of an entry saying the operation acts deterministically."""
    for entry in entries:
        for alert in entry.alerts if entry.deterministic else ():
            for call in calls:
                if matches(call.item, alert):
                    message = __("raises %r, yet %s is documented to act deterministically") % (
                        alert,
                        entry.title,
                    )
                    yield Finding(
                        STILL_RAISED,
                        call.path,
                        call.item.line,
                        message,
                        alert,
                        entry.name,
                        entry.docs,
                    )


def without_alert(ties: list[Located[Tie]], entries: list[Entry]) -> Iterable[Finding]:
    """Entries naming no alert, with the alerts tests tie to their operation."""
    tests = entry_ties(ties, entries)
    for entry, tied in zip(entries, tests, strict=True):
        if entry.alerts or not entry.name:
            continue
        tested = sorted({tie.item.alert for tie, _ in tied if tie.item.alert})
        message = __("%s names no alert (:alert:)") % entry.name
        if tested:
            message += __("; its tests expect %s") % ", ".join(map(repr, tested))
        yield Finding(WITHOUT_ALERT, *entry.location, message, None, entry.name, entry.docs)


def matches(raised: AlertCall | Tie, alert: str) -> bool:
    """Whether a call or a test's name (a pattern, for an f-string) is *alert*."""
    name = raised.alert
    if name is None:
        return False
    if not raised.pattern:
        return name == alert
    return re.fullmatch(".*".join(map(re.escape, name.split("*"))), alert) is not None


def short_names(entry: Entry) -> set[str]:
    """An entry's names as torch's tests spell them: the last part, without
    an in-place method's underscore (``torch.Tensor.put_``: ``put``)."""
    return {name.rpartition(".")[2].rstrip("_") for name in (entry.name, *entry.aliases) if name}


def tie_length(tie: Tie, entry: Entry) -> int:
    """How much of *tie*'s test name *entry*'s names cover: a whole name, or
    a name and a case (``interpolate_bilinear``); 0 if none."""
    operation = tie.operation
    return max(
        (len(name) for name in short_names(entry)
         if operation == name or operation.startswith(f"{name}_")),
        default=0,
    )  # fmt: skip


def tied_entries(tie: Tie, entries: list[Entry]) -> list[Entry]:
    """The entries *tie*'s test is about: those whose name covers the most
    of it (``scatter_add`` is ``scatter_add_``'s test, not ``scatter_``'s)."""
    lengths = [tie_length(tie, entry) for entry in entries]
    longest = max(lengths, default=0)
    return [entry for entry, length in zip(entries, lengths, strict=True) if length == longest > 0]


def entry_ties(
    ties: Iterable[Located[Tie]], entries: list[Entry]
) -> list[list[tuple[Located[Tie], int]]]:
    """Each entry's tests, in *entries*' order: each tie tied to it, with how
    many entries that tie's test is tied to (several for an operation with
    several entries). Each test's entries are worked out once."""
    found: list[list[tuple[Located[Tie], int]]] = [[] for _ in entries]
    index = {id(entry): number for number, entry in enumerate(entries)}
    for tie in ties:
        tied = tied_entries(tie.item, entries)
        for entry in tied:
            found[index[id(entry)]].append((tie, len(tied)))
    return found


def coverage(
    sites: Iterable[Located[Site]], entries: list[Entry], places: Mapping[str, Place]
) -> list[Coverage]:
    """Each site with the entries covering it: naming its object, its
    module or a package holding it, or placed in its file or a folder
    holding it."""
    found = []
    for site in sites:
        module, scope = names(site.path, site.item)
        covering = tuple(
            index
            for index, entry in enumerate(entries)
            if any(covers(name, module, scope) for name in entry_names(entry.name, entry.aliases))
            or any(place in places and places[place].holds(site.path) for place in entry.places)
        )
        titles = tuple(entries[index].title for index in covering)
        found.append(Coverage(site, titles, covering))
    return found


def uncovered(branches: list[Coverage]) -> Iterable[Finding]:
    """Sites no entry covers."""
    for branch in branches:
        if not branch.entries:
            site = branch.site.item
            where = site.scope or __("the module")
            message = __("%s on %s in %s, which no entry covers") % (site.kind, site.switch, where)
            yield Finding(UNCOVERED, branch.site.path, site.line, message)


def without_branch(
    branches: list[Coverage],
    entries: list[Entry],
    scanned: Iterable[str],
    places: Mapping[str, Place] | None = None,
) -> Iterable[Finding]:
    """Entries naming a module scanned (*scanned*: the Python files) or an
    object of one, or placed in files or folders found, which no site is
    in. (An entry whose module or places were not scanned is not known to
    hold none.)"""
    places = places or {}
    modules = {module_parts(path): path for path in scanned}
    covering = {index for branch in branches for index in branch.indexes}
    for index, entry in enumerate(entries):
        if index in covering:
            continue
        named = entry_names(entry.name, entry.aliases)
        found = sorted({path for name in named for module, path in modules.items()
                        if placed(name, module) is not None})  # fmt: skip
        if found:
            message = __("%s reads no switch (%s)") % (entry.title, shown_files(found))
        else:
            found = [place for place in entry.places if place in places and places[place].path]
            if not found:
                continue
            message = __("%s: no switch is read in %s") % (entry.title, shown_files(found))
        yield Finding(WITHOUT_BRANCH, *entry.location, message, None, entry.title, entry.docs)


def shown_files(found: list[str]) -> str:
    """The first files of *found*, and how many more."""
    files = ", ".join(found[:SHOWN_FILES])
    if len(found) > SHOWN_FILES:
        files += __(" and %d more") % (len(found) - SHOWN_FILES)
    return files


def missing_places(entries: list[Entry], places: Mapping[str, Place]) -> Iterable[Finding]:
    """Places under a root of the sources that do not exist (a file become
    a package, a folder moved), at the entry naming each."""
    for entry in entries:
        for text in entry.places:
            if text in places and places[text].missing:
                message = __("%s names %s, which does not exist") % (entry.title, text)
                if places[text].package:
                    message += __(" (a package is there: %s)") % places[text].package
                yield Finding(
                    MISSING_PLACE, *entry.location, message, None, entry.title, entry.docs
                )
