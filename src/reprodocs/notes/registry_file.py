"""Registry entries from a data file (``reprodocs_registry_file``), for
projects whose operations have no Python docstring to hold a
``nondeterministic-entry``. TOML, read with the standard library::

    [[entry]]
    op = "torch.nn.MaxUnpool1d"
    deterministic-algorithms = "raises"
    alert = ["max_unpooling2d_forward_out"]

Each key is an option of ``nondeterministic-entry``
(:data:`reprodocs.base.vocabulary.ENTRY_OPTIONS`) and takes the value it
takes there: a string, or for those taking several values an array of
strings (or one string with commas). Values are read by the directive's own
converters, so that a value is right or wrong in both places alike."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reprodocs.base.i18n import __
from reprodocs.base.report import checked_setting, warn
from reprodocs.base.vocabulary import (
    ENTRY_DIRECTIVE,
    ENTRY_DIRECTIVES,
    ENTRY_OPTIONS,
    SEPARATOR,
    SEVERAL_VALUES,
)
from reprodocs.notes.domain import Note, notes_domain
from reprodocs.notes.options import CONVERTERS, single_line

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: The setting naming the file, relative to the configuration directory.
SETTING = "reprodocs_registry_file"

#: The array of tables holding the entries.
TABLE = "entry"
_HEADER = re.compile(rf"^[ \t]*\[\[[ \t]*{TABLE}[ \t]*\]\]", re.MULTILINE)


@dataclass(frozen=True)
class FileEntry:
    """An entry of the file: its options as the directive's converters give
    them, and the line of its ``[[entry]]`` header (0 if not found)."""

    line: int
    options: dict[str, Any]


@dataclass
class RegistryFile:
    """What a registry file holds: its entries, and what is wrong in it,
    each as (line, message); line 0 for the whole file."""

    entries: list[FileEntry] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)


def read_registry_file(path: Path) -> RegistryFile:
    """The entries of the file at *path*; a file that cannot be read is one problem."""
    found = RegistryFile()
    try:
        text = path.read_bytes().decode("utf-8-sig")
        document = tomllib.loads(text)
    except OSError as error:
        found.problems.append((0, __("cannot read it: %s") % error.strerror))
        return found
    except UnicodeDecodeError:
        found.problems.append((0, __("not UTF-8")))
        return found
    except tomllib.TOMLDecodeError as error:
        found.problems.append((0, __("not TOML: %s") % error))
        return found
    lines = [text.count("\n", 0, match.start()) + 1 for match in _HEADER.finditer(text)]
    tables = document.pop(TABLE, [])
    for key in document:
        found.problems.append(
            (0, __("unknown key %r (the entries are [[%s]] tables)") % (key, TABLE))
        )
    if not isinstance(tables, list):
        found.problems.append((0, __("%r must be an array of tables ([[%s]])") % (TABLE, TABLE)))
        return found
    for index, table in enumerate(tables):
        line = lines[index] if index < len(lines) else 0
        entry = read_entry(table, line, found.problems)
        if entry is not None:
            found.entries.append(entry)
    return found


def read_entry(table: object, line: int, problems: list[tuple[int, str]]) -> FileEntry | None:
    """One entry, or None when it cannot be one (each reason a problem);
    a wrong option is left out, as in a directive."""
    if not isinstance(table, dict):
        problems.append((line, __("an entry must be a table")))
        return None
    options: dict[str, Any] = {}
    for key, value in table.items():
        if key not in ENTRY_OPTIONS:
            known = ", ".join(ENTRY_OPTIONS)
            problems.append((line, __("unknown option %r (known: %s)") % (key, known)))
            continue
        text = option_text(key, value)
        if text is None:
            message = (
                __("%s must be a string, or an array of strings")
                if key in SEVERAL_VALUES
                else __("%s must be a string")
            )
            problems.append((line, message % key))
            continue
        try:
            options[key] = CONVERTERS.get(key, single_line)(text)
        except ValueError as error:
            problems.append((line, f"{key}: {error}"))
    if not options.get("op"):
        problems.append((line, __("an entry must name its operation (op)")))
        return None
    return FileEntry(line, options)


def option_text(key: str, value: object) -> str | None:
    """*value* as the directive's option would be written; None if it cannot be."""
    if isinstance(value, str):
        return value
    if (
        key in SEVERAL_VALUES
        and isinstance(value, list)
        and value
        and all(isinstance(item, str) for item in value)
    ):
        return f"{SEPARATOR} ".join(value)  # a comma in one makes two, as in a directive
    return None


def load_registry_file(app: Sphinx) -> None:
    """``builder-inited``, so on every build: the registry file's entries, in
    the environment (each build reads the file anew: an edit to it changes the
    index, whose pages are then written again, and nothing is re-read). Each
    problem is a warning at the file and its entry's line."""
    name = checked_setting(
        app, SETTING, lambda value: value is None or isinstance(value, str), __("a path"), None
    )
    entries = notes_domain(app.env).file_entries
    entries.clear()
    if not name:
        return
    path = Path(app.confdir, name)
    found = read_registry_file(path)
    for line, problem in found.problems:
        warn("registry_file", "%s", problem, location=f"{path}:{line}" if line else str(path))
    default = ENTRY_DIRECTIVES[ENTRY_DIRECTIVE]
    for entry in found.entries:
        options = entry.options
        entries.append(
            Note(
                operation=options["op"],
                directive=ENTRY_DIRECTIVE,
                backend=options.get("backend", default.backend),
                affected_pass=options.get("pass", default.affected_pass),
                docname="",
                line=entry.line,
                source=str(path),
                deterministic_algorithms=options.get("deterministic-algorithms", ""),
                when=options.get("when", ""),
                aliases=options.get("aliases", ()),
                listed_as=options.get("listed-as", ""),
                with_condition=options.get("with", ""),
                cases=options.get("cases", ()),
                alerts=options.get("alert", ()),
                renders=False,
            )
        )
