"""``python -m reprodocs check-alerts SOURCE... --registry FILE``: the
registry (a build's ``nondeterministic.json``) against the alerts the
sources raise and the tests expect, and against the switches they branch
on where a project configures them. All reading and printing is here;
:mod:`~reprodocs.check_alerts.compare` decides.

Exit status: 0 when they agree, 1 when they disagree, 2 when a file (a
source, the registry, the configuration) cannot be read."""

from __future__ import annotations

import contextlib
import runpy
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from reprodocs.base.i18n import __
from reprodocs.base.walk import files_at
from reprodocs.check_alerts.branches import Site, file_sites
from reprodocs.check_alerts.compare import Comparison, Ignore, Located, compare
from reprodocs.check_alerts.formats import BRANCH_LISTS, FORMATS, REPORTS, Counts
from reprodocs.check_alerts.patterns import IGNORE_KEY, ConfigError, Patterns, patterns
from reprodocs.check_alerts.places import locate
from reprodocs.check_alerts.registry import RegistryError, registry_at
from reprodocs.check_alerts.scan import PYTHON_SUFFIXES, AlertCall, file_alert_calls
from reprodocs.check_alerts.ties import Tie, file_ties

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator, Sequence

#: The files scanned in a directory: C, C++, CUDA, Objective-C++ and Python.
SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh", ".mm")
SUFFIXES = (*SOURCE_SUFFIXES, *PYTHON_SUFFIXES)
#: Where the ignore rules are: pyproject.toml's table, conf.py's setting.
PYPROJECT_TABLE = ("tool", "reprodocs", "check-alerts")
CONF_SETTING = "reprodocs_check_alerts_ignore"
RULE_GLOBS = ("alert", "path", "operation")
#: How often the progress line is redrawn, in seconds.
PROGRESS_EVERY = 0.2


@dataclass
class Scan:
    """What the sources gave: the calls, the tests' ties, the files that
    could not be read (with why), and the links not followed."""

    calls: list[Located[AlertCall]] = field(default_factory=list)
    ties: list[Located[Tie]] = field(default_factory=list)
    #: The switches' sites, and the Python files read for them.
    sites: list[Located[Site]] = field(default_factory=list)
    python_files: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    files: int = 0


def add_command(commands: Any) -> None:
    """The ``check-alerts`` command, added to ``python -m reprodocs``'s."""
    parser = commands.add_parser(
        "check-alerts",
        help=str(__("check the registry against the alerts the code raises")),
        description=str(
            __(
                "Compare the registry (a build's nondeterministic.json) with the calls of "
                "alertNotDeterministic and alert_not_deterministic in C++, CUDA and Python "
                "sources and with torch's test_nondeterministic_alert_* tests. Exit status: "
                "0 when they agree, 1 when they disagree, 2 when a file cannot be read."
            )
        ),
    )
    parser.add_argument(
        "sources", nargs="+", metavar="SOURCE", help=str(__("a source file, or a directory"))
    )
    parser.add_argument(
        "--registry",
        required=True,
        type=Path,
        metavar="PATH",
        help=str(
            __(
                "nondeterministic.json, the HTML output directory holding it, or a docs "
                "source directory (with conf.py), which is built to read it"
            )
        ),
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=FORMATS[0],
        help=str(__("text (default), json, or github (workflow annotations)")),
    )
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=str(
            __(
                "the patterns and ignore rules: a pyproject.toml "
                "([tool.reprodocs.check-alerts]) or a conf.py (reprodocs_check_alerts_ignore, "
                "with the default patterns); default: the nearest pyproject.toml"
            )
        ),
    )
    parser.add_argument(
        "--list-branches",
        action="store_true",
        help=str(
            __(
                "list each switch's site and the entries covering it, by operation or "
                "label (text: before the findings; github: a notice on each site; json: "
                "always in its branches)"
            )
        ),
    )
    parser.set_defaults(run=run, usage_error=usage_error)


def run(arguments: argparse.Namespace) -> int:
    """Compare, and print the report in the format asked: errors too, so
    that a tool reading JSON gets JSON whatever happened."""
    try:
        config = arguments.config or nearest_pyproject(Path.cwd())
        wanted, rules = read_patterns(config), read_rules(config)
        entries = registry_at(arguments.registry)
    except (ConfigError, RegistryError) as error:  # nothing to compare against
        return report(arguments.format, None, Counts(0, 0, 0, 0), [str(error)])
    scan = scan_sources(arguments.sources, sys.stderr, wanted)
    for notice in scan.notices:
        print(notice, file=sys.stderr)
    switched = bool(wanted.switches)
    places = {text: locate(text, arguments.sources) for entry in entries for text in entry.places}
    comparison = compare(
        scan.calls,
        scan.ties,
        entries,
        rules,
        scan.sites if switched else None,
        scan.python_files,
        alerts=bool(wanted.alert_functions),
        places=places,
    )
    counts = Counts(
        scan.files,
        len(scan.calls),
        len(scan.ties),
        len(entries),
        len(scan.sites) if switched else None,
    )
    if arguments.list_branches:
        sys.stdout.write(BRANCH_LISTS[arguments.format](comparison))
    return report(arguments.format, comparison, counts, scan.errors)


def usage_error(arguments: Sequence[str], message: str) -> None:
    """A command line argparse rejects, reported in the format it asks for
    (JSON, GitHub) where it asks for one; argparse then prints the usage on
    standard error and exits with status 2."""
    form = asked_format(arguments)
    if form != "text":
        report(form, None, Counts(0, 0, 0, 0), [__("check-alerts: %s") % message])


def asked_format(arguments: Sequence[str]) -> str:
    """The ``--format`` *arguments* ask for ("text" if none can be told): the
    last given, also as argparse reads an abbreviation of it (``--form``)."""
    asked = "text"
    for index, argument in enumerate(arguments):
        name, equals, value = argument.partition("=")
        if name.startswith("--f") and "--format".startswith(name):
            value = value if equals else "".join(arguments[index + 1 : index + 2])
            asked = value if value in FORMATS else asked
    return asked


def report(form: str, comparison: Comparison | None, counts: Counts, errors: list[str]) -> int:
    """Print the report in the format *form* (*comparison* None: nothing
    could be compared); the exit status: 2 when a file could not be read
    (*errors*), else 1 when there are findings."""
    if form == "text":
        for error in errors:
            print(error, file=sys.stderr)
        if comparison is None:
            return 2  # no counts: nothing was compared
    sys.stdout.write(REPORTS[form](comparison or Comparison([], [], []), counts, errors))
    if errors:
        return 2
    return 1 if comparison and comparison.findings else 0


def source_files(paths: list[str], scan: Scan) -> Iterator[Path]:
    """The files of *paths*: each file given (whatever its suffix), and each
    source file under a directory given, searched as migrate searches
    (:func:`reprodocs.base.walk.files_at`: links in a directory not followed,
    each passed over said in *scan*'s notices; what cannot be read, in its
    errors)."""
    for met in files_at(paths, SUFFIXES):
        if met.not_followed:
            scan.notices.append(__("%s: not followed: %s") % (met.path, met.not_followed))
        elif met.given and met.problem and not met.unseen:
            scan.errors.append(__("%s: no such file or directory") % met.path)
        elif met.problem:
            scan.errors.append(__("%s: cannot read it: %s") % (met.path, met.problem))
        else:
            yield met.path


def scan_sources(paths: list[str], progress: TextIO, wanted: Patterns | None = None) -> Scan:
    """What the files of *paths* hold of the patterns *wanted* (PyTorch's
    by default): the tests' ties only where alert functions are looked for."""
    wanted = wanted or Patterns()
    scan = Scan()
    shown = progress.isatty()
    last = time.monotonic()
    for path in source_files(paths, scan):
        try:
            data = path.read_bytes()
        except OSError as error:
            scan.errors.append(__("%s: cannot read it: %s") % (path, error.strerror))
            continue
        scan.files += 1
        calls = file_alert_calls(data, path.suffix, wanted.alert_functions)
        scan.calls += (Located(str(path), call) for call in calls)
        if path.suffix == ".py" and wanted.alert_functions:
            try:
                scan.ties += (Located(str(path), tie) for tie in file_ties(data, str(path)))
            except (SyntaxError, ValueError) as error:
                scan.errors.append(__("%s: cannot read its tests: %s") % (path, error))
        if path.suffix == ".py" and wanted.switches:
            scan.python_files.append(str(path))
            try:
                sites = file_sites(data, wanted.switches)
            except (SyntaxError, ValueError) as error:
                scan.errors.append(__("%s: cannot read its branches: %s") % (path, error))
            else:
                scan.sites += (Located(str(path), site) for site in sites)
        if shown and time.monotonic() - last > PROGRESS_EVERY:
            last = time.monotonic()
            progress.write("\r" + __("check-alerts: %d files scanned") % scan.files)
    if shown:
        progress.write("\r\033[K")
    return scan


def nearest_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above *start* with check-alerts'
    table (or that is not TOML, which reading it says)."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                if check_alerts_table(candidate) is not None:
                    return candidate
            except (OSError, tomllib.TOMLDecodeError):
                return candidate
    return None


def check_alerts_table(path: Path) -> Any:
    """check-alerts' table in the TOML file *path* (None if it has none);
    TOMLDecodeError for a file that is not TOML (UTF-8 included)."""
    with path.open("rb") as file:
        data = file.read()
    try:
        table: Any = tomllib.loads(data.decode())
    except UnicodeDecodeError as error:  # tomllib.load lets it through
        raise tomllib.TOMLDecodeError(f"{error.reason} (at byte {error.start})") from None
    for key in PYPROJECT_TABLE:
        table = table.get(key) if isinstance(table, dict) else None
    return table


def read_patterns(path: Path | None) -> Patterns:
    """The patterns a pyproject.toml (or any TOML file) configures; a conf.py
    or none: the defaults (PyTorch's)."""
    if path is None or path.suffix != ".toml":
        return Patterns()
    try:
        return patterns(check_alerts_table(path), f"{path} [{'.'.join(PYPROJECT_TABLE)}]")
    except OSError as error:
        raise ConfigError(__("%s: cannot read it: %s") % (path, error.strerror)) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(__("%s: not TOML: %s") % (path, error)) from None


def read_rules(path: Path | None) -> list[Ignore]:
    """The ignore rules of a pyproject.toml or a conf.py; [] for None."""
    if path is None:
        return []
    try:
        if path.suffix == ".toml":
            # Each error names the key (``[tool.reprodocs.check-alerts].ignore[0]``),
            # as the patterns' do.
            where = f"{path} [{'.'.join(PYPROJECT_TABLE)}].{IGNORE_KEY}"
            table = check_alerts_table(path) or {}
            return rules(table.get(IGNORE_KEY, []) if isinstance(table, dict) else None, where)
        return rules(conf_setting(path), f"{path} {CONF_SETTING}")
    except OSError as error:
        raise ConfigError(__("%s: cannot read it: %s") % (path, error.strerror)) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(__("%s: not TOML: %s") % (path, error)) from None


def conf_setting(path: Path) -> Any:
    """conf.py's ignore rules: conf.py run as sphinx-build runs it (in its
    folder, with ``tags``), an error in it said in one line."""
    from sphinx.util.tags import Tags

    path.read_bytes()  # one that cannot be read is said so (OSError, by read_rules)
    try:
        # What it prints goes to standard error: standard output is the report's.
        with contextlib.chdir(path.resolve().parent), contextlib.redirect_stdout(sys.stderr):
            namespace = runpy.run_path(str(path.resolve()), init_globals={"tags": Tags()})
    except (Exception, SystemExit) as error:  # noqa: BLE001 -- conf.py may raise anything
        raise ConfigError(f"{path}: {type(error).__name__}: {error}") from None
    return namespace.get(CONF_SETTING, [])


def rules(value: Any, where: str) -> list[Ignore]:
    """Each rule of *value*: a table with a reason and at least one glob."""
    if not isinstance(value, list):
        raise ConfigError(__("%s: must be a list of rules (tables)") % where)
    found = []
    for index, rule in enumerate(value):
        rule_where = f"{where}[{index}]"
        if not isinstance(rule, dict):
            raise ConfigError(__("%s: must be a table") % rule_where)
        unknown = sorted(set(rule) - {"reason", *RULE_GLOBS})
        if unknown:
            raise ConfigError(__("%s: unknown keys: %s") % (rule_where, ", ".join(unknown)))
        if not isinstance(rule.get("reason"), str) or not rule["reason"].strip():
            raise ConfigError(__("%s: needs a reason (a string)") % rule_where)
        globs = {key: rule[key] for key in RULE_GLOBS if key in rule}
        if not globs or not all(isinstance(glob, str) and glob for glob in globs.values()):
            wanted = ", ".join(RULE_GLOBS)
            raise ConfigError(__("%s: needs one of %s, as a string") % (rule_where, wanted))
        found.append(Ignore(reason=rule["reason"], where=rule_where, **globs))
    return found
