"""check-alerts' findings as text (one a line, as compilers print them), as
JSON, or as GitHub Actions workflow commands (annotations on the lines)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from reprodocs.base.i18n import __

if TYPE_CHECKING:
    from reprodocs.check_alerts.compare import Comparison, Coverage, Finding, Ignore

FORMATS = ("text", "json", "github")
#: The JSON report's version; bumped on incompatible changes.
JSON_VERSION = 1


@dataclass(frozen=True)
class Counts:
    """What was read: files scanned, alerts raised, tests' ties, entries,
    and the switches' sites (None: no switch configured)."""

    files: int
    calls: int
    ties: int
    entries: int
    branches: int | None = None


def location(finding: Finding) -> str:
    """A source's or the registry file's "path:line", or the entry's docs."""
    return finding.path if finding.line is None else f"{finding.path}:{finding.line}"


def rule_text(rule: Ignore) -> str:
    globs = [f"{key} = {value!r}" for key in ("alert", "path", "operation")
             if (value := getattr(rule, key)) is not None]  # fmt: skip
    return f"{rule.where}: {', '.join(globs)} ({rule.reason})"


def text(comparison: Comparison, counts: Counts, errors: list[str]) -> str:
    """The findings, one a line, and the counts. The *errors* are not in
    it: the command writes them on standard error, as compilers do."""
    lines = [f"{location(f)}: {f.kind}: {f.message}" for f in comparison.findings]
    lines += [
        __("%s: this ignore rule matched nothing") % rule_text(rule) for rule in comparison.unused
    ]
    summary = __(
        "check-alerts: %d findings, %d ignored; %d alerts raised in %d files, "
        "%d tied by tests, %d entries"
    ) % (
        len(comparison.findings),
        len(comparison.ignored),
        counts.calls,
        counts.files,
        counts.ties,
        counts.entries,
    )
    if counts.branches is not None:
        covered = sum(1 for branch in comparison.branches if branch.entries)
        summary += __("; %d switch sites, %d covered") % (counts.branches, covered)
    lines.append(summary)
    return "\n".join(lines) + "\n"


def as_json(comparison: Comparison, counts: Counts, errors: list[str]) -> str:
    """One JSON document, whatever happened: *errors* are the files that
    could not be read (nothing compared when the registry or the
    configuration is one of them)."""
    document = {
        "version": JSON_VERSION,
        "errors": errors,
        "findings": [asdict(finding) for finding in comparison.findings],
        "ignored": [
            {**asdict(finding), "reason": rule.reason, "rule": rule.where}
            for finding, rule in comparison.ignored
        ],
        "unused_ignores": [asdict(rule) for rule in comparison.unused],
        "branches": [
            {"path": branch.site.path, **asdict(branch.site.item), "entries": list(branch.entries)}
            for branch in comparison.branches
        ],
        "counts": asdict(counts),
    }
    return unpaired_escaped(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"


#: A surrogate that pairs with none: a byte of a file name that is not
#: UTF-8, as Python reads such names (``surrogateescape``).
_UNPAIRED = re.compile("[\ud800-\udfff]")


def unpaired_shown(match: re.Match[str]) -> str:
    """An unpaired surrogate as text: the byte of a file name it stands
    for (``\\xff``), or U+FFFD for one that stands for none."""
    if "\udc80" <= match[0] <= "\udcff":
        return match[0].encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "\ufffd"


def unpaired_escaped(document: str) -> str:
    """The JSON *document* with each unpaired surrogate (only ever inside
    a string) written as JSON's escape: the document is then UTF-8 however
    standard output encodes, and Python reads the name back as it was."""
    return _UNPAIRED.sub(lambda match: f"\\u{ord(match[0]):04x}", document)


def escaped(value: str, property_value: bool = False) -> str:
    """*value* in a workflow command (GitHub's escaping of data and
    properties), each unpaired surrogate as :func:`unpaired_shown` shows it."""
    value = _UNPAIRED.sub(unpaired_shown, value)
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if property_value else value


def github(comparison: Comparison, counts: Counts, errors: list[str]) -> str:
    """An annotation for each finding (on its line where it has one) and
    each error, a warning for each unused rule, and the counts."""
    lines = [f"::error title={escaped('check-alerts error', True)}::{escaped(e)}" for e in errors]
    for finding in comparison.findings:
        properties = [f"title={escaped('check-alerts ' + finding.kind, True)}"]
        if finding.line is not None:
            properties[:0] = [f"file={escaped(finding.path, True)}", f"line={finding.line}"]
        message = (
            finding.message if finding.line is not None else f"{finding.path}: {finding.message}"
        )
        lines.append(f"::error {','.join(properties)}::{escaped(message)}")
    for rule in comparison.unused:
        lines.append(f"::warning title=check-alerts::{escaped(rule_text(rule))}")
    return "\n".join([*lines, text(comparison, counts, []).splitlines()[-1]]) + "\n"


def branch_text(branch: Coverage) -> str:
    """A site, what the code does with it, and the entries covering it."""
    site = branch.site.item
    covering = ", ".join(branch.entries) or __("no entry")
    scope = site.scope or __("the module")
    return f"{site.kind} on {site.switch} in {scope}: {covering}"


def branch_list(comparison: Comparison) -> str:
    """Each switch's site, one a line, at its path and line."""
    return "".join(
        f"{b.site.path}:{b.site.item.line}: {branch_text(b)}\n" for b in comparison.branches
    )


def github_branches(comparison: Comparison) -> str:
    """Each switch's site as a notice on its line."""
    title = escaped("check-alerts branch", True)
    return "".join(
        f"::notice file={escaped(b.site.path, True)},line={b.site.item.line},"
        f"title={title}::{escaped(branch_text(b))}\n"
        for b in comparison.branches
    )


def json_branches(comparison: Comparison) -> str:
    """Nothing: the JSON report has the sites always (``"branches"``)."""
    return ""


REPORTS = {"text": text, "json": as_json, "github": github}
#: ``--list-branches``, in each format: printed before the report.
BRANCH_LISTS = {"text": branch_list, "json": json_branches, "github": github_branches}
