"""Where a library's code reads a switch (:mod:`~reprodocs.check_alerts.patterns`)
to select its deterministic path, and which entries cover each place.

A Python source is parsed (comments, strings and docstrings are no
reading); each expression that is a configured switch is a site, read for
its value (an assignment's target is not). Its kind says what the code does
with it: ``branch`` (the test of an ``if``, ``elif``, ``while``, a
conditional expression, a comprehension's or a ``case``'s guard, or part of
one), ``assert``, or ``value`` (passed on: assigned, returned, an
argument), which selects a path further on, under another name.

An entry covers a site when it names the object the site is in, an
object around it, its module, or a package holding it: its name is the
file's module (its last path parts, so that ``moe_utils.unpermute`` and
``megatron.core.transformer.moe.moe_utils.unpermute`` both name a site in
``…/megatron/core/transformer/moe/moe_utils.py``'s ``unpermute``) followed
by the start of the site's object path, or the names of folders the file
is in (``megatron.core.ssm.gated_delta_net`` covers
``…/gated_delta_net/gdn.py``). An entry whose fields name files or a
folder covers the sites in them too (:mod:`~reprodocs.check_alerts.places`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from reprodocs.base.python_syntax import parse_python
from reprodocs.check_alerts.patterns import Switch, dotted

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

BRANCH = "branch"
ASSERT = "assert"
VALUE = "value"


@dataclass(frozen=True)
class Site:
    """A switch read: its line, the switch as configured, what the code
    does with it, and the object it is in (``Class.method``; "" at module level)."""

    line: int
    switch: str
    kind: str
    scope: str


def file_sites(data: bytes, switches: tuple[Switch, ...]) -> list[Site]:
    """The sites of a Python file's bytes; [] at once for a file in which no
    switch's last name is written. SyntaxError or ValueError (null bytes,
    nesting too deep for Python's parser) for a file that cannot be read
    as Python."""
    if not any(switch.parts[-1].encode() in data for switch in switches):
        return []
    return sorted(sites(parse_python(data), switches), key=lambda site: site.line)


def sites(tree: ast.AST, switches: tuple[Switch, ...]) -> Iterator[Site]:
    """Each read of a switch in *tree*, in its scope and with its kind.
    Walked with a stack, not recursion: a long expression (a generated
    file's) is no deeper a call stack."""
    stack: list[tuple[ast.AST, tuple[str, ...], str | None]] = [(tree, (), None)]
    while stack:
        node, scope, kind = stack.pop()
        read = _switch_read(node, switches)
        if read is not None:
            yield Site(node.lineno, read.text, kind or VALUE, ".".join(scope))  # type: ignore[attr-defined]
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = {id(statement) for statement in node.body}
            inner = (*scope, node.name)
            # Decorators, defaults and bases are read where the object is defined.
            stack += ((child, inner if id(child) in body else scope, kind)
                      for child in ast.iter_child_nodes(node))  # fmt: skip
            continue
        tests = {id(test) for test in _tests(node)}
        test_kind = ASSERT if isinstance(node, ast.Assert) else BRANCH
        stack += ((child, scope, kind or (test_kind if id(child) in tests else None))
                  for child in ast.iter_child_nodes(node))  # fmt: skip


def _tests(node: ast.AST) -> tuple[ast.AST, ...]:
    """The expressions *node* branches on."""
    if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
        return (node.test,)
    if isinstance(node, ast.comprehension):
        return tuple(node.ifs)
    if isinstance(node, ast.match_case) and node.guard is not None:
        return (node.guard,)
    return ()


def _switch_read(node: ast.AST, switches: tuple[Switch, ...]) -> Switch | None:
    """The switch *node* reads, if it is one."""
    if isinstance(node, ast.Call):
        if node.args or node.keywords:
            return None
        parts, call = dotted(node.func), True
    elif isinstance(node, ast.Attribute | ast.Name):
        if not isinstance(node.ctx, ast.Load):
            return None
        parts, call = dotted(node), False
    else:
        return None
    for switch in switches:
        if switch.call == call and parts[-len(switch.parts) :] == switch.parts:
            return switch
    return None


def module_parts(path: str) -> tuple[str, ...]:
    """A source's path as a module's names (``a/b/__init__.py``: a, b)."""
    parts = PurePath(path).with_suffix("").parts
    return parts[:-1] if parts and parts[-1] == "__init__" else parts


def names(path: str, site: Site | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A site's module names and object names (for None, the module's alone)."""
    return module_parts(path), tuple(site.scope.split(".")) if site and site.scope else ()


def placed(name: str, module: tuple[str, ...]) -> tuple[str, ...] | None:
    """Where the entry *name* is in *module*: the object path after the
    module's names (() for the module itself, or a package holding it), or
    None if it names neither the module, an object of it nor a package
    holding it. The module's names are its last path parts, the package's
    any run of them."""
    wanted = tuple(name.split("."))
    for length in range(1, min(len(wanted), len(module)) + 1):
        if wanted[:length] == module[-length:]:
            return wanted[length:]
    runs = range(len(module) - len(wanted))
    return () if any(module[start : start + len(wanted)] == wanted for start in runs) else None


def covers(name: str, module: tuple[str, ...], scope: tuple[str, ...]) -> bool:
    """Whether the entry *name* names the object *scope* of *module*, an
    object around it, the module, or a package holding it."""
    rest = placed(name, module)
    return rest is not None and scope[: len(rest)] == rest


def entry_names(name: str, aliases: Iterable[str] = ()) -> tuple[str, ...]:
    """The names an entry is found by in the sources: its name and aliases
    (a labelled entry has none: its places say where it is)."""
    return tuple(place for place in (name, *aliases) if place)
