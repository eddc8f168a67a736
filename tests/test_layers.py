"""The package's folders are its layers; imports point down the list, never up, and never in a cycle.

The import graph sees every form: ``import agot_adjudicator.a.b``, ``from agot_adjudicator.a
import b`` (the module ``b``), ``from agot_adjudicator.a.b import name``, relative imports
(``from . import b``, ``from .b import name``), imports inside functions and under
``if TYPE_CHECKING:``, and a module named as a string (``"agot_adjudicator.cli.views:show"``,
the command line's lazy registry; ``import_module("agot_adjudicator.x")``). The one
exception is the package's own ``__init__``: its lazy library names (``_EXPORTS``, PEP 562)
are the facade over every layer, loaded on first use, and not followed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import agot_adjudicator

PACKAGE = Path(agot_adjudicator.__file__).parent
LAYERS = ("cli", "workflow", "render", "io", "engine", "model")
"""Top to bottom; a module may import its own layer and the layers below it."""

NAMED = re.compile(r"agot_adjudicator(?:\.\w+)+(?=(?::\w+)?$)")
"""A string that names a module of the package (optionally ``:attribute``)."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts).removesuffix(".__init__")] = path
    return out


def imported(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The package modules that ``tree`` (the source of ``module``) imports, in every form.

    >>> known = {"agot_adjudicator.engine", "agot_adjudicator.engine.wildlings",
    ...          "agot_adjudicator.engine.bidding", "agot_adjudicator.model.text"}
    >>> src = '''
    ... from agot_adjudicator.engine import wildlings
    ... def f():
    ...     from . import bidding
    ...     from ..model.text import Msg
    ...     import agot_adjudicator.model.text
    ... REGISTRY = {"x": "agot_adjudicator.engine.bidding:resolve"}
    ... '''
    >>> sorted(imported(ast.parse(src), "agot_adjudicator.engine.x", False, known))
    ['agot_adjudicator.engine.bidding', 'agot_adjudicator.engine.wildlings', 'agot_adjudicator.model.text']
    """
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                module != "agot_adjudicator":
            named = NAMED.match(node.value)
            if named and named.group(0) in known:
                found.add(named.group(0))
    return {m for m in found if m in known and m != module}


def _imports() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {module: imported(ast.parse(path.read_text(encoding="utf-8")), module,
                             path.name == "__init__.py", known)
            for module, path in modules.items()}


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


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> modules it imports), each found once.

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b', 'a']]
    """
    state: dict[str, int] = {}
    found: list[list[str]] = []

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                found.append([*stack[stack.index(target):], target])
            elif target not in state:
                visit(target, [*stack, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found


def test_no_import_cycle():
    assert cycles(_imports()) == []


def test_the_graph_sees_the_command_registry_and_function_level_imports():
    """The test would see a cycle through a lazy import: the registry's modules and the
    imports inside functions are edges of the graph."""
    graph = _imports()
    assert "agot_adjudicator.cli.adjudicate" in graph["agot_adjudicator.cli"]
    assert "agot_adjudicator.workflow.record" in graph["agot_adjudicator.cli.adjudicate"]
