"""Which operation a note is on: in a reStructuredText file, the Python
object directive around it (:class:`ObjectScopes`); in a Python file, the
object whose docstring holds it (:func:`docstring_owners`)."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

#: Python's object directives, whose content is about the object they name.
_OBJECT_DIRECTIVE = re.compile(
    r"\.\.\s+(?:py:)?(auto)?(function|class|method|classmethod|staticmethod|attribute|"
    r"property|data|exception|decorator|decoratormethod)::\s+([\w.]+)"
)
_MODULE_DIRECTIVE = re.compile(
    r"\.\.\s+(?:py:)?(?:currentmodule|module|automodule)::\s+([\w.]+)\s*$"
)
#: Object directives naming a member of a class (which autodoc finds in the module).
_MEMBER_KINDS = frozenset(
    {"method", "classmethod", "staticmethod", "attribute", "property", "decoratormethod"}
)

#: The classes of ``torch._C`` PyTorch adds docstrings to, and their public names.
PUBLIC_NAMES = {"torch._C.TensorBase": "torch.Tensor", "torch._C._TensorBase": "torch.Tensor"}


class ObjectScopes:
    """The object a line of reStructuredText documents: *documented* (a
    docstring's owner), or in a file, the object directive around the line,
    named as Sphinx names it in the current module."""

    def __init__(self, documented: tuple[str, ...] = ()) -> None:
        self.documented = documented
        self.module = ""
        #: The object directives around the line: each one's indentation and name.
        self.scopes: list[tuple[int, str]] = []

    def follow(self, text: str, indent: int) -> None:
        """Follow the current module and the object directives to a non-blank
        line, *text* stripped, indented by *indent*."""
        while self.scopes and indent <= self.scopes[-1][0]:
            self.scopes.pop()
        if module := _MODULE_DIRECTIVE.match(text):
            self.module = module[1]
        elif found := _OBJECT_DIRECTIVE.match(text):
            auto, kind, name = found.groups()
            if self.scopes:
                name = f"{self.scopes[-1][1]}.{name}"
            elif not (auto and "." in name and kind not in _MEMBER_KINDS) and self.module:
                # autodoc takes a dotted name of a module-level object as
                # absolute; Sphinx's own directives put it in the current module.
                name = f"{self.module}.{name}"
            self.scopes.append((indent, name))

    def operations(self) -> tuple[str, ...]:
        """The names of the object the current line documents."""
        return (self.scopes[-1][1],) if self.scopes else self.documented


class Owner(NamedTuple):
    """A stretch of a Python file, (line, column) to (line, column), whose
    string literals document the operation *names* (the first to report)."""

    start: tuple[int, int]
    end: tuple[int, int]
    names: tuple[str, ...]


def public_name(name: str) -> str:
    """*name*, under the public name of the ``torch._C`` class it is in, if any."""
    for private, public in PUBLIC_NAMES.items():
        if name == private or name.startswith(private + "."):
            return public + name[len(private) :]
    return name


def module_name(path: Path) -> tuple[str, bool]:
    """The module a Python file is, by the packages (folders with an
    ``__init__.py``) around it; and whether it is a package itself."""
    path = Path(os.path.abspath(path))
    package = path.name == "__init__.py"
    parts = [] if package else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.name:
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts), package


def docstring_owners(tree: ast.Module, module: str, package: bool = False) -> list[Owner]:
    """Where the string literals of a module's source document an operation:
    the docstrings of its functions and classes (and the module's), a class's
    ``__doc__ = ...``, ``obj.__doc__ = ...``, the second argument of
    ``add_docstr(obj, ...)`` (``name = _add_docstr(...)`` names ``name`` too)
    and of a helper such as PyTorch's ``add_docstr_all("method", ...)``
    (``add_docstr(getattr(cls, method), docstr)``)."""
    finder = _OwnerFinder(module, package)
    finder.visit(tree.body, "", False, True)
    return finder.owners


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


class _OwnerFinder:
    """One walk of a module's statements, following its imports, helpers and
    scopes, collecting the :class:`Owner` of each documenting literal."""

    def __init__(self, module: str, package: bool) -> None:
        self.module = module
        self.here = module if package else module.rpartition(".")[0]
        self.imports: dict[str, str] = {}
        #: Docstring helpers (``add_docstr_all``) and the object they document members of.
        self.helpers: dict[str, str] = {}
        self.owners: list[Owner] = []

    def qualified(self, name: str) -> str:
        return f"{self.module}.{name}" if self.module else name

    def dotted(self, node: ast.expr) -> str:
        """The full name an expression (``nn.functional``) names; "" if none."""
        if isinstance(node, ast.Name):
            return self.imports.get(node.id) or self.qualified(node.id)
        if isinstance(node, ast.Attribute):
            base = self.dotted(node.value)
            return base and f"{base}.{node.attr}"
        return ""

    def own(self, expr: ast.expr | None, names: Iterable[str]) -> None:
        public = tuple(dict.fromkeys(public_name(name) for name in names if name))
        if expr is not None and public and expr.end_lineno is not None:
            start, end = (expr.lineno, expr.col_offset), (expr.end_lineno, expr.end_col_offset or 0)
            self.owners.append(Owner(start, end, public))

    def helper(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Note a function whose one statement is ``add_docstr(getattr(obj,
        name), docstr)``: a call of it documents ``obj.<name>``."""
        params = [arg.arg for arg in node.args.args]
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and _is_str(s.value))]
        if len(params) < 2 or len(body) != 1 or not isinstance(body[0], ast.Expr):
            return
        call = body[0].value
        if not (isinstance(call, ast.Call) and _call_name(call).endswith("add_docstr")):
            return
        if len(call.args) == 2 and isinstance(call.args[0], ast.Call):
            inner = call.args[0]
            if (
                _call_name(inner) == "getattr"
                and len(inner.args) == 2
                and isinstance(inner.args[1], ast.Name)
                and inner.args[1].id == params[0]
                and (prefix := self.dotted(inner.args[0]))
            ):
                self.helpers[node.name] = prefix

    def statement(self, node: ast.stmt, scope: str, in_class: bool) -> None:
        """An assignment or expression: ``__doc__ = ...``, ``add_docstr(...)``
        and calls of the helpers in it."""
        value = getattr(node, "value", None)
        if value is None:
            return
        targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
        for target in targets:
            if in_class and isinstance(target, ast.Name) and target.id == "__doc__":
                self.own(value, [scope])
            elif isinstance(target, ast.Attribute) and target.attr == "__doc__":
                self.own(value, [self.dotted(target.value)])
        for call in ast.walk(value):
            if not isinstance(call, ast.Call) or len(call.args) < 2:
                continue
            name = _call_name(call)
            if name.endswith("add_docstr"):
                assigned = [self.qualified(t.id) for t in targets if isinstance(t, ast.Name)]
                names = [*(assigned if not scope else []), self.dotted(call.args[0])]
                self.own(call.args[1], names)
            elif (
                name in self.helpers
                and isinstance(method := call.args[0], ast.Constant)
                and isinstance(method.value, str)
            ):
                self.own(call.args[1], [f"{self.helpers[name]}.{method.value}"])

    def imported(self, node: ast.Import | ast.ImportFrom) -> None:
        """Note the full names an import binds."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.partition(".")[0]
                self.imports[alias.asname or top] = alias.name if alias.asname else top
            return
        base = node.module or ""
        if node.level:
            parent = self.here.split(".")[: len(self.here.split(".")) - node.level + 1]
            base = ".".join([*parent, *([base] if base else [])])
        for alias in node.names:
            self.imports[alias.asname or alias.name] = f"{base}.{alias.name}"

    def visit(self, body: list[ast.stmt], scope: str, in_class: bool, documented: bool) -> None:
        """The statements *body* of *scope* (a class's with *in_class*; whose
        first string is its docstring with *documented*)."""
        if documented and body and isinstance(body[0], ast.Expr) and _is_str(body[0].value):
            self.own(body[0].value, [scope or self.module])
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.imported(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{scope}.{node.name}" if scope else self.qualified(node.name)
                if not scope and not isinstance(node, ast.ClassDef):
                    self.helper(node)
                self.visit(node.body, name, isinstance(node, ast.ClassDef), True)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                self.statement(node, scope, in_class)
            else:  # if, for, with, try...: the same scope
                for part in ("body", "orelse", "finalbody", "handlers", "cases"):
                    for child in getattr(node, part, []) or []:
                        inner = getattr(child, "body", None)
                        if isinstance(child, ast.stmt):
                            self.visit([child], scope, in_class, False)
                        elif inner:  # an except handler, a match case
                            self.visit(inner, scope, in_class, False)
