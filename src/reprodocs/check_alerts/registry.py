"""The registry as check-alerts reads it: the operations of a
``nondeterministic.json`` that a reprodocs build wrote, each with what
deterministic mode does to it and the alerts it names (``:alert:``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reprodocs.base.i18n import __
from reprodocs.base.vocabulary import DETERMINISTIC, RAISES

if TYPE_CHECKING:
    from pathlib import Path

#: The versions of nondeterministic.json read; version 2 names no alerts.
VERSIONS = (2, 3)


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

    @property
    def raises(self) -> bool:
        return self.mode == RAISES

    @property
    def deterministic(self) -> bool:
        return self.mode == DETERMINISTIC


def read_registry(path: Path) -> list[Entry]:
    """The entries of the registry at *path*; RegistryError if it cannot be
    read (the message names the file and what is wrong)."""
    try:
        document = json.loads(path.read_bytes())
    except OSError as error:
        raise RegistryError(__("%s: cannot read it: %s") % (path, error.strerror)) from None
    except ValueError as error:
        raise RegistryError(__("%s: not JSON: %s") % (path, error)) from None
    if not isinstance(document, dict) or document.get("version") not in VERSIONS:
        versions = " or ".join(map(str, VERSIONS))
        raise RegistryError(__("%s: not a nondeterministic.json of version %s") % (path, versions))
    operations = document.get("operations")
    if not isinstance(operations, list):
        raise RegistryError(__("%s: its operations are not a list") % path)
    return [entry(path, index, operation) for index, operation in enumerate(operations)]


def entry(path: Path, index: int, operation: Any) -> Entry:
    where = f"{path}: operations[{index}]"
    if not isinstance(operation, dict) or not isinstance(operation.get("name"), str | None):
        raise RegistryError(__("%s: not an operation") % where)
    alerts = operation.get("alerts") or []
    aliases = operation.get("aliases") or []
    if not all(isinstance(name, str) for name in (*alerts, *aliases)):
        raise RegistryError(__("%s: its alerts and aliases must be strings") % where)
    return Entry(
        name=operation["name"] or "",
        mode=operation.get("deterministic_algorithms") or "",
        docs=str(operation.get("uri") or operation.get("docname") or ""),
        alerts=tuple(alerts),
        aliases=tuple(aliases),
    )
