"""What check-alerts looks for in the sources, as a project configures it
in its ``[tool.reprodocs.check-alerts]`` table: the functions whose calls
raise an alert (``alert-functions``, PyTorch's by default) and the switches
a library's code branches on to select its deterministic path
(``switches``, none by default: Megatron-LM's are
``torch.are_deterministic_algorithms_enabled()`` and
``config.deterministic_mode``).

Read apart from the ignore rules and from the entries: what a switch's
branch is compared with (an entry's object today; the files an entry
names, once entries name them) is :mod:`reprodocs.check_alerts.branches`'."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from reprodocs.base.i18n import __

#: PyTorch's functions whose calls raise an alert: ATen's (C++, CUDA) and torch's (Python).
ALERT_FUNCTIONS = ("alertNotDeterministic", "alert_not_deterministic")

#: The table's keys: the patterns (here) and the ignore rules (the command's).
ALERT_FUNCTIONS_KEY = "alert-functions"
SWITCHES_KEY = "switches"
IGNORE_KEY = "ignore"
KEYS = (ALERT_FUNCTIONS_KEY, SWITCHES_KEY, IGNORE_KEY)


class ConfigError(ValueError):
    """Configuration that cannot be read: the message names the file and the key."""


@dataclass(frozen=True)
class Switch:
    """A switch as configured: a dotted name (``config.deterministic_mode``)
    or the call of one without arguments
    (``torch.are_deterministic_algorithms_enabled()``). Any expression
    whose dotted name ends with its parts is it: ``self.config.deterministic_mode``
    is ``config.deterministic_mode``."""

    text: str
    parts: tuple[str, ...]
    call: bool


@dataclass(frozen=True)
class Patterns:
    """What the sources are scanned for."""

    alert_functions: tuple[str, ...] = ALERT_FUNCTIONS
    switches: tuple[Switch, ...] = ()


def switch(text: str) -> Switch | None:
    """The switch *text* writes, or None if it is not a dotted name or the
    call of one without arguments."""
    try:
        expression = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):  # Recursion: too deep for the parser
        return None
    call = isinstance(expression, ast.Call)
    if isinstance(expression, ast.Call):
        if expression.args or expression.keywords:
            return None
        expression = expression.func
    parts = dotted(expression)
    return Switch(text.strip(), parts, call) if parts else None


def dotted(node: ast.AST) -> tuple[str, ...]:
    """The names of a dotted name (``a.b.c``: a, b, c); () for any other expression."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ()
    return (node.id, *reversed(names))


def patterns(table: Any, where: str) -> Patterns:
    """The patterns of a ``[tool.reprodocs.check-alerts]`` *table* (None: no
    table), written at *where* (the file and the table, for the messages);
    ConfigError names the key that is wrong."""
    if table is None:
        return Patterns()
    if not isinstance(table, dict):
        raise ConfigError(__("%s: must be a table") % where)
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(
            __("%s: unknown keys: %s (known: %s)") % (where, ", ".join(unknown), ", ".join(KEYS))
        )
    functions = strings(table, ALERT_FUNCTIONS_KEY, where, ALERT_FUNCTIONS)
    for index, name in enumerate(functions):
        if not name.isidentifier():
            raise ConfigError(
                __("%s.%s[%d]: %r is not a function's name")
                % (where, ALERT_FUNCTIONS_KEY, index, name)
            )
    switches = []
    for index, text in enumerate(strings(table, SWITCHES_KEY, where, ())):
        read = switch(text)
        if read is None:
            raise ConfigError(
                __("%s.%s[%d]: %r is neither a dotted name nor its call without arguments")
                % (where, SWITCHES_KEY, index, text)
            )
        switches.append(read)
    return Patterns(tuple(dict.fromkeys(functions)), tuple(dict.fromkeys(switches)))


def strings(
    table: dict[str, Any], key: str, where: str, default: tuple[str, ...]
) -> tuple[str, ...]:
    """The list of strings at *key* (*default* if absent)."""
    value = table.get(key, default)
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ConfigError(__("%s.%s: must be a list of strings") % (where, key))
    return tuple(value)
