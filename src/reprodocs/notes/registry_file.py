"""Registry entries from a data file (``reprodocs_registry_file``), for
projects whose operations have no Python docstring to hold a
``nondeterministic-entry``. TOML, read with the standard library::

    [[entry]]
    op = "torch.nn.MaxUnpool1d"
    deterministic-algorithms = "raises"
    alert = ["max_unpooling2d_forward_out"]

Each key is an option of ``nondeterministic-entry``
(:func:`reprodocs.base.entry_schema.entry_option_names`) and takes the value it
takes there: a string, or for those taking several values an array of
strings (or one string with commas). Values are read by the directive's own
converters, so that a value is right or wrong in both places alike."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reprodocs.base.entry_schema import (
    BACKEND,
    LABEL,
    OP,
    PASS,
    entry_option_names,
    several_values,
)
from reprodocs.base.i18n import __
from reprodocs.base.report import checked_setting, setting_location, warn
from reprodocs.base.vocabulary import ENTRY_DIRECTIVE, ENTRY_DIRECTIVES, SEPARATOR
from reprodocs.notes.declared_fields import declared_fields
from reprodocs.notes.domain import new_note, notes_domain
from reprodocs.notes.labels import naming_problem
from reprodocs.notes.options import converter

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from reprodocs.base.entry_schema import Field

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
    each as (line, message); line 0 for a file that cannot be read."""

    entries: list[FileEntry] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)


def read_registry_file(path: Path, declared: tuple[Field, ...] = ()) -> RegistryFile:
    """The entries of the file at *path*; a file that cannot be read is one problem."""
    found = RegistryFile()
    try:
        data = path.read_bytes()
    except OSError as error:
        found.problems.append((0, __("cannot read it: %s") % error.strerror))
        return found
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        found.problems.append((data.count(b"\n", 0, error.start) + 1, __("not UTF-8")))
        return found
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found.problems.append((error_line(error, text), __("not TOML: %s") % error))
        return found
    lines = [text.count("\n", 0, match.start()) + 1 for match in _HEADER.finditer(text)]
    tables = document.pop(TABLE, [])
    for key in document:
        found.problems.append(
            (
                key_line(text, key),
                __("unknown key %r (the entries are [[%s]] tables)") % (key, TABLE),
            )
        )
    if not isinstance(tables, list):
        problem = __("%r must be an array of tables ([[%s]])") % (TABLE, TABLE)
        found.problems.append((key_line(text, TABLE), problem))
        return found
    for index, table in enumerate(tables):
        line = lines[index] if index < len(lines) else key_line(text, TABLE)
        entry = read_entry(table, line, found.problems, declared)
        if entry is not None:
            found.entries.append(entry)
    return found


def error_line(error: tomllib.TOMLDecodeError, text: str) -> int:
    """The line a TOML error is on: its ``lineno`` (Python 3.14), else the
    line its message names ("at line 3, column 5"), else the last line
    ("at end of document")."""
    line = getattr(error, "lineno", None)
    if isinstance(line, int):
        return line
    said = re.search(r"at line (\d+)", str(error))
    return int(said.group(1)) if said else text.count("\n") + 1


def key_line(text: str, key: str) -> int:
    """The line where the top-level *key* is written (as ``key =`` or as a
    table's header); 1 if it cannot be told (a dotted or quoted key)."""
    written = re.compile(rf"^[ \t]*(?:\[+[ \t]*)?{re.escape(key)}[ \t]*[=\].]", re.MULTILINE)
    match = written.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def read_entry(
    table: object, line: int, problems: list[tuple[int, str]], declared: tuple[Field, ...] = ()
) -> FileEntry | None:
    """One entry, or None when it cannot be one, each reason a problem. As
    in a directive, an entry with a wrong option is not in the registry:
    its problems say so, naming its operation."""
    if not isinstance(table, dict):
        problems.append((line, __("an entry must be a table")))
        return None
    options: dict[str, Any] = {}
    wrong: list[str] = []
    for key, value in table.items():
        if key not in entry_option_names(declared):
            known = ", ".join(entry_option_names(declared))
            wrong.append(__("unknown option %r (known: %s)") % (key, known))
            continue
        text = option_text(key, value, declared)
        if text is None:
            message = (
                __("%s must be a string, or an array of strings")
                if key in several_values(declared)
                else __("%s must be a string")
            )
            wrong.append(message % key)
            continue
        try:
            options[key] = converter(key, declared)(text)
        except ValueError as error:
            wrong.append(f"{key}: {error}")
    if (misnamed := naming_problem(options)) is not None:
        wrong.append(misnamed)
    operation = options.get(OP.option) or options.get(LABEL.option)
    if not operation:
        problems += [(line, problem) for problem in wrong]
        if misnamed is None:  # an empty label says it already
            problems.append(
                (line, __("an entry must name its operation (op) or its label (label)"))
            )
        return None
    problems += [(line, left_out(operation, problem)) for problem in wrong]
    return None if wrong else FileEntry(line, options)


def left_out(operation: str, reason: str) -> str:
    """The problem *reason* of an entry of *operation*, which it leaves out
    of the registry."""
    return __("%s is not in the registry: %s") % (operation, reason)


def option_text(key: str, value: object, declared: tuple[Field, ...] = ()) -> str | None:
    """*value* as the directive's option would be written; None if it cannot be."""
    if isinstance(value, str):
        return value
    if (
        key in several_values(declared)
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
    problem is a warning at the file and its line; a file that cannot be
    read, at the setting in conf.py."""
    name = checked_setting(
        app, SETTING, lambda value: value is None or isinstance(value, str), __("a path"), None
    )
    entries = notes_domain(app.env).file_entries
    entries.clear()
    if not name:
        return
    path = Path(app.confdir, name)
    declared = declared_fields(app.env)
    found = read_registry_file(path, declared)
    for line, problem in found.problems:
        if line:
            warn("registry_file", "%s", problem, location=f"{path}:{line}")
        else:  # a file that cannot be read has no line: where conf.py names it
            warn("registry_file", "%s: %s", path, problem, location=setting_location(app, SETTING))
    default = ENTRY_DIRECTIVES[ENTRY_DIRECTIVE]
    # No operation for an entry named by its label.
    preset = {BACKEND.option: default.backend, PASS.option: default.affected_pass, OP.option: ""}
    for entry in found.entries:
        entries.append(
            new_note(
                {**preset, **entry.options},
                declared,
                directive=ENTRY_DIRECTIVE,
                docname="",
                line=entry.line,
                source=str(path),
                renders=False,
            )
        )
