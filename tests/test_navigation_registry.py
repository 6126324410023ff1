"""The registry the theme adapters register with
(``reprodocs.navigation.registry``), and the core that names no adapter."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from reprodocs.base.state import build_state
from reprodocs.navigation.registry import Registry

NAVIGATION = Path(__file__).parents[1] / "src" / "reprodocs" / "navigation"
#: The navigation's own modules, which its core may use as it likes.
CORE = {"outcomes", "registry", "serving", "toctree", "pages"}


class Environment:
    """Stands in for a build's environment (any object a weak reference can hold)."""


@dataclass
class Kept:
    pages: list[str] = field(default_factory=list)


def test_a_build_start_makes_each_registered_state_anew_and_forgets_the_caches():
    registry = Registry()
    forgotten = []
    registry.add(Kept, forget=forgotten.append)
    env = Environment()
    app = SimpleNamespace(env=env)
    build_state(env, Kept).pages.append("index")
    last = build_state(env, Kept)

    assert registry.renew(app, env) == [Kept]

    assert build_state(env, Kept) is not last
    assert build_state(env, Kept).pages == []
    assert forgotten == [app]


def test_the_core_takes_only_each_adapter_s_setup_function():
    """``reprodocs.navigation``'s ``setup()`` is a table of contents: of a
    theme adapter, it imports the setup function alone (not its state nor
    its caches), which registers the rest."""
    tree = ast.parse((NAVIGATION / "__init__.py").read_text(encoding="utf-8"))
    taken = {
        (node.module.rpartition(".")[2], alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("reprodocs.navigation.")
        for alias in node.names
    }
    adapters = {(module, name) for module, name in taken if module not in CORE}
    assert adapters
    assert all(name == f"setup_{module}" for module, name in adapters), adapters
