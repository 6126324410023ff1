"""The registry as check-alerts reads it: the operations of a
``nondeterministic.json`` that a reprodocs build wrote, each with what
deterministic mode does to it, the alerts it names (``:alert:``) and the
places its project's fields name (:mod:`~reprodocs.check_alerts.places`).

A build's JSON holds every entry of the docs, whichever way it is written:
in a page (MyST or reST), in a docstring, or in the registry file
(``reprodocs_registry_file``), labelled or named by its operation, with the
fields the project declares (``reprodocs_entry_fields``) as keys of its
own. Those fields are told from the JSON itself, as the keys reprodocs'
schema does not have: check-alerts runs no conf.py to learn them (a docs
folder given as the registry is built by Sphinx, in its own process)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reprodocs.base.entry_schema import ALERT, ALGORITHMS, ALIASES, LABEL, Field, json_keys
from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import DETERMINISTIC, JSON_NAME, RAISES
from reprodocs.check_alerts.places import entry_places

#: The versions of nondeterministic.json read; version 2 names no alerts.
VERSIONS = (2, 3)
#: The keys reprodocs' schema gives an operation; any other is a field the
#: project declares.
OWN_KEYS = frozenset(key.json_key if isinstance(key, Field) else key for key in json_keys())


class RegistryError(ValueError):
    """A registry that cannot be read: the message says why."""


@dataclass(frozen=True)
class Entry:
    """An operation of the registry, where its docs are, and its alerts."""

    name: str
    mode: str  #: RAISES, DETERMINISTIC or "" (the docs do not say)
    docs: str  #: the entry's page and anchor (the JSON's uri), or its document
    alerts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())
    #: An entry of the registry file: the file and the line it is written at.
    file: str = ""
    line: int | None = None
    #: What names an entry that is not an API object (its name is then "":
    #: no operation's, so no alert or switch is looked for by it).
    label: str = ""
    #: The files and folders the project's fields name (its places).
    places: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """What a finding calls the entry: its operation, else its label."""
        return self.name or self.label

    @property
    def location(self) -> tuple[str, int | None]:
        """Where a finding about the entry is: its line in the registry
        file, or its docs (no line)."""
        return (self.file, self.line) if self.file else (self.docs, None)

    @property
    def raises(self) -> bool:
        return self.mode == RAISES

    @property
    def deterministic(self) -> bool:
        return self.mode == DETERMINISTIC


def registry_at(path: Path) -> list[Entry]:
    """The entries of the registry *path* names: a ``nondeterministic.json``,
    the HTML output folder holding one, or a docs source folder (with a
    ``conf.py``), built for it; RegistryError if none can be read."""
    if not path.is_dir():
        return read_registry(path)
    if (path / JSON_NAME).is_file() or not (path / "conf.py").is_file():
        return read_registry(path / JSON_NAME)
    # Built here: the registry file's path, relative to conf.py's folder, is
    # made this folder's.
    with tempfile.TemporaryDirectory(prefix="reprodocs-registry-") as scratch:
        output, doctrees = Path(scratch, "html"), Path(scratch, "doctrees")
        # Its own process: conf.py and the extensions it loads run as in
        # sphinx-build, and leave nothing in this one.
        build = [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d", str(doctrees)]
        built = subprocess.run(
            [*build, str(path), str(output)], capture_output=True, text=True, check=False
        )
        if built.returncode != 0:
            said = built.stderr.strip().splitlines()[-1:] or [str(built.returncode)]
            raise RegistryError(__("%s: building the docs failed: %s") % (path, said[0]))
        if not (output / JSON_NAME).is_file():
            raise RegistryError(
                __("%s: the docs built write no %s (is reprodocs in their extensions?)")
                % (path, JSON_NAME)
            )
        return read_registry(output / JSON_NAME, confdir=path)


def read_registry(path: Path, confdir: Path | None = None) -> list[Entry]:
    """The entries of the registry at *path*; RegistryError if it cannot be
    read (the message names the file and what is wrong). The registry
    file's path, relative to the docs' configuration folder, is joined to
    *confdir* when it is known."""
    try:
        document = json.loads(path.read_bytes())
    except OSError as error:
        raise RegistryError(__("%s: cannot read it: %s") % (path, error.strerror)) from None
    except (ValueError, RecursionError) as error:  # RecursionError: nested too deep
        raise RegistryError(__("%s: not JSON: %s") % (path, error)) from None
    if not isinstance(document, dict) or document.get("version") not in VERSIONS:
        versions = " or ".join(map(str, VERSIONS))
        raise RegistryError(__("%s: not a nondeterministic.json of version %s") % (path, versions))
    operations = document.get("operations")
    if not isinstance(operations, list):
        raise RegistryError(__("%s: its operations are not a list") % path)
    return [entry(path, index, operation, confdir) for index, operation in enumerate(operations)]


def entry(path: Path, index: int, operation: Any, confdir: Path | None = None) -> Entry:
    where = f"{path}: operations[{index}]"
    if (
        not isinstance(operation, dict)
        or "name" not in operation  # required: null for a labelled entry
        or not all(isinstance(operation.get(key), str | None) for key in ("name", LABEL.json_key))
    ):
        raise RegistryError(__("%s: not an operation") % where)
    alerts = operation.get(ALERT.json_key) or []
    aliases = operation.get(ALIASES.json_key) or []
    # A string is no array: "foo" was read as the alerts "f", "o" and "o".
    if not all(isinstance(names, list) for names in (alerts, aliases)) or not all(
        isinstance(name, str) for name in (*alerts, *aliases)
    ):
        raise RegistryError(__("%s: its alerts and aliases must be arrays of strings") % where)
    file, line = registry_file(operation.get("registry_file"), where)
    return Entry(
        name=operation["name"] or "",
        mode=operation.get(ALGORITHMS.json_key) or "",
        docs=str(operation.get("uri") or operation.get("docname") or ""),
        alerts=tuple(alerts),
        aliases=tuple(aliases),
        file=str(confdir / file) if confdir and file else file,
        line=line,
        label=operation.get(LABEL.json_key) or "",
        places=entry_places(declared_values(operation, where)),
    )


def declared_values(operation: dict[str, Any], where: str) -> list[str]:
    """The values of the fields the project declares: the keys of
    *operation* that reprodocs' schema does not have, each a string, an
    array of strings, or null."""
    values: list[str] = []
    for key, value in operation.items():
        if key in OWN_KEYS or value is None:
            continue
        several = value if isinstance(value, list) else [value]
        if not all(isinstance(item, str) for item in several):
            raise RegistryError(
                __("%s: its field %r must be a string or an array of strings") % (where, key)
            )
        values += several
    return values


def registry_file(written: object, where: str) -> tuple[str, int | None]:
    """An entry's ``registry_file`` (absent before it was added): the file
    and the line, or ("", None) for an entry written elsewhere."""
    if written is None:
        return "", None
    if (
        not isinstance(written, dict)
        or not isinstance(written.get("path"), str)
        or not written["path"]
        or not isinstance(written.get("line"), int)
    ):
        raise RegistryError(__("%s: its registry_file must have a path and a line") % where)
    return written["path"], written["line"]
