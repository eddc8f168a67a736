"""The package's folders are its layers; imports point down the list, never up, and never in a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import agot_adjudicator

PACKAGE = Path(agot_adjudicator.__file__).parent
LAYERS = ("cli", "workflow", "render", "io", "engine", "model")
"""Top to bottom; a module may import its own layer and the layers below it."""


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        targets = graph.setdefault(module, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("agot_adjudicator."):
                targets.add(str(node.module))
    return graph


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_lives_in_a_layer():
    loose = sorted(m for m in _imports() if _layer(m) is None
                   and m not in {"agot_adjudicator", "agot_adjudicator.__main__", "agot_adjudicator.errors"})
    assert loose == []


def test_imports_point_down_the_layers():
    upward = sorted(f"{m} imports {t}" for m, ts in _imports().items() for t in ts
                    if _layer(m) and _layer(t) and LAYERS.index(_layer(t)) < LAYERS.index(_layer(m)))
    assert upward == []


def test_engine_imports_only_engine_and_model():
    outside = sorted(f"{m} imports {t}" for m, ts in _imports().items() if _layer(m) == "engine"
                     for t in ts if _layer(t) not in ("engine", "model") and t != "agot_adjudicator.errors")
    assert outside == []


def test_no_import_cycle():
    graph = _imports()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target):], target])
            elif target not in state:
                visit(target, [*stack, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
