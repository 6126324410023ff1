"""The package's layout holds: three products around a small base
(docs/architecture.rst), each importable without the others."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "src" / "reprodocs"
PRODUCTS = ("notes", "navigation", "theme")


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
        assert {owner(name) for name in imports} <= {"base", owner(module)}, imports


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
        ("reprodocs.__main__", ["reprodocs.notes", "sphinx.builders.html", "jinja2"]),
    ],
)
def test_a_product_loads_alone(module, not_loaded):
    code = f"import sys, {module}; print(sorted(m for m in {not_loaded!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


#: Test names the navigation's tests still share, each between these two
#: files alone; the navigation's own layout step renames them (then these
#: entries go). Any other name shared fails.
SHARED_UNTIL_RENAMED = {
    "test_pages_are_byte_identical_with_the_extension": [
        "test_navigation_furo.py",
        "test_navigation_themes.py",
    ],
    "test_pages_written_by_parallel_processes_are_the_theme_s": [
        "test_navigation_pydata.py",
        "test_navigation_pytorch_sphinx_theme2.py",
    ],
}


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
    shared = {name: files for name, files in files_by_name.items() if len(files) > 1}
    assert {
        name: files for name, files in shared.items() if SHARED_UNTIL_RENAMED.get(name) != files
    } == {}
