"""The package's layout holds: three products around a small base
(docs/architecture.rst), each importable without the others."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "src" / "reprodocs"
#: The products and the commands, each importing only the base and itself.
PRODUCTS = ("notes", "navigation", "theme", "migrate", "check_alerts")
#: The modules that may use another product besides, and which: one
#: module at the crossing (migrate writes the alerts check-alerts reads).
CROSSINGS = {"reprodocs.migrate.alerts": "check_alerts"}


def imported_modules(path: Path) -> set[str]:
    """The reprodocs modules *path* imports, by full name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from package import module` imports that module
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules or {node.module})
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == "reprodocs" or name.startswith("reprodocs.")}


def owner(module: str) -> str:
    """The part of the package a module belongs to: base, a product, or the rest."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ("base", *PRODUCTS) else "root"


MODULES = {
    ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): path
    for path in PACKAGE.rglob("*.py")
}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_only(module):
    imports = imported_modules(MODULES[module])
    assert "reprodocs" not in imports, "no module imports the package root"
    if owner(module) == "base":
        assert {owner(name) for name in imports} <= {"base"}, imports
    elif owner(module) in PRODUCTS:
        allowed = {"base", owner(module), *filter(None, [CROSSINGS.get(module)])}
        assert {owner(name) for name in imports} <= allowed, imports


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_points_back_up(module):
    """No module imports a package it is part of (its own package's
    ``__init__`` included), nor imports relatively."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    relative = [
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level
    ]
    assert not relative
    assert not [name for name in imported_modules(MODULES[module]) if module.startswith(name + ".")]


@pytest.mark.parametrize(
    ("module", "not_loaded"),
    [
        ("reprodocs.navigation", ["reprodocs.notes", "reprodocs.theme"]),
        ("reprodocs.theme", ["reprodocs.notes"]),
        ("reprodocs.migrate", ["reprodocs.notes", "sphinx.builders.html", "jinja2"]),
        ("reprodocs.check_alerts.command", ["reprodocs.notes", "sphinx.builders.html", "jinja2"]),
        ("reprodocs.__main__", ["reprodocs.notes", "sphinx.builders.html", "jinja2"]),
    ],
)
def test_a_product_loads_alone(module, not_loaded):
    code = f"import sys, {module}; print(sorted(m for m in {not_loaded!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# -- Sizes a reader can hold, names private to their module, one of each ----


#: The most lines a module, a class and a function may have.
LIMITS = {"module": 600, "class": 200, "function": 60}

#: What is over a limit, by ``kind:module[:name]``, and why it may be: nothing.
OVER_LIMITS: dict[str, str] = {}


def sizes(module: str) -> dict[str, int]:
    """The lines of *module* and of each of its classes and functions, by
    ``kind:module[:name]``."""
    source = MODULES[module].read_text(encoding="utf-8")
    found = {f"module:{module}": len(source.splitlines())}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            found[f"{kind}:{module}:{node.name}"] = lines
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_classes_and_functions_are_small(module):
    over = {name for name, lines in sizes(module).items() if lines > LIMITS[name.partition(":")[0]]}
    assert over <= OVER_LIMITS.keys(), over


def test_every_exception_to_the_limits_is_still_needed():
    measured = {name: lines for module in MODULES for name, lines in sizes(module).items()}
    stale = {name for name in OVER_LIMITS if measured.get(name, 0) <= LIMITS[name.split(":")[0]]}
    assert not stale, "no longer over its limit: remove it from OVER_LIMITS"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_is_imported_from_another_module(module):
    """A module that imports another's underscore names is one module in two
    files (``_``, gettext's, is a name like any other)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reprodocs")
        for alias in node.names
        if alias.name.startswith("_") and alias.name != "_" and not alias.name.startswith("__")
    ]
    assert not private


def calls_to(tree: ast.AST, *names: str) -> list[int]:
    """The lines calling ``os.<name>`` for each of *names*."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in names
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "os"
    ]


#: The one atomic write (a temporary file renamed over the target).
ATOMIC_WRITERS = {"reprodocs.base.files"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_files_are_replaced_in_one_place(module):
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    if module not in ATOMIC_WRITERS:
        assert not calls_to(tree, "replace", "rename")


#: The directives' names and options, as the vocabulary defines them.
def vocabulary_words() -> set[str]:
    from reprodocs.base import vocabulary

    return {
        *vocabulary.NOTE_DIRECTIVES,
        vocabulary.ENTRY_DIRECTIVE,
        vocabulary.LIST_DIRECTIVE,
        *(f":{option}:" for option in {*vocabulary.COMMON_OPTIONS, *vocabulary.LIST_OPTIONS}),
        *(f":{option}:" for option in vocabulary.REGISTRY_OPTIONS),
        *(f":{option}:" for option in vocabulary.NOTE_ONLY_OPTIONS),
        f":{vocabulary.RUNTIME_TEXT_OPTION}:",
    }


def string_constants(tree: ast.AST) -> set[str]:
    """The strings of *tree*, docstrings aside."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    }


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"reprodocs.base.vocabulary"}))
def test_directive_names_are_spelled_in_the_vocabulary_only(module):
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    assert not string_constants(tree) & vocabulary_words()


def test_no_two_test_functions_share_a_name():
    """A test is named by its function alone in ``-k``, reports and the
    docs, and a second function of one name in a file replaces the first."""
    tests = Path(__file__).parent
    files_by_name: dict[str, list[str]] = {}
    for path in sorted(tests.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                "test"
            ):
                files_by_name.setdefault(node.name, []).append(str(path.relative_to(tests)))
    assert {name: files for name, files in files_by_name.items() if len(files) > 1} == {}
