"""AGoT-ATC conformance cases (``scenarios/**/*.yaml``, ``format: agot-scenario/1``).

A case builds a state from a new game (players, seed), optionally empties the
board, deep-merges a patch, runs the submissions through the same app layer
as ``agot adjudicate`` and compares a partial expectation. See
``scenarios/README.md``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator import app
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import AgotError, InputError
from agot_adjudicator.files import Document, dump_yaml, load_yaml, parse_text, schema_problems
from agot_adjudicator.ruleset import Ruleset

_MISSING = object()


def deep_merge(base: Any, patch: Any) -> Any:
    """Mappings merge recursively, ``None`` deletes, anything else replaces.

    >>> deep_merge({"a": {"b": 1, "c": 2}}, {"a": {"c": None, "d": 3}})
    {'a': {'b': 1, 'd': 3}}
    """
    if not isinstance(base, dict) or not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif key in out:
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def build_state(spec: Mapping[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """The case's starting state as plain data (R1 setup, then the patch)."""
    players = spec.get("players", 5)
    state = new_game(ruleset, list(ruleset.players[players]), spec.get("seed", 1), "atc")
    data = state.to_dict(ruleset)
    if spec.get("empty_board"):
        for area_id in list(data["areas"]):
            area = data["areas"][area_id]
            if "neutral_force" in area:
                data["areas"][area_id] = {"neutral_force": area["neutral_force"]}
            else:
                del data["areas"][area_id]
    return deep_merge(data, spec.get("patch", {}))


def get_path(data: Any, dotted: str) -> Any:
    """Value at a dotted path (``areas.winterfell.units``, ``tracks.fiefdoms.0``), or _MISSING."""
    node = data
    for part in dotted.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _MISSING
    return node


def _matches(event: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    return all(k in event and event[k] == v for k, v in want.items())


@dataclass
class Outcome:
    """What a case produced and how it differed from its expectation."""

    status: str
    events: list[dict[str, Any]] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    error: str = ""
    state: dict[str, Any] | None = None
    differences: list[str] = field(default_factory=list)


def run_case(case: Mapping[str, Any], ruleset: Ruleset, name: str = "case") -> Outcome:
    """Run one case and compare it with its ``expect`` block."""
    state_data = build_state(case.get("state", {}), ruleset)
    state_doc = parse_text(f"{name}:state", dump_yaml(state_data).encode())
    docs: list[Document] = []
    for i, sub in enumerate(case.get("submissions", [])):
        body = {"format": "agot-orders/1", "round": state_data["round"], **sub}
        docs.append(parse_text(f"{name}:submissions[{i}]", dump_yaml(body).encode()))
    options = case.get("options", {})
    try:
        problems = schema_problems(state_doc, "state")
        for doc in docs:
            problems += schema_problems(doc, "orders")
        if problems:
            raise InputError(problems)
        run = app.adjudicate_docs(state_doc, docs, ruleset, tuple(options.get("nmr", [])),
                                  bool(options.get("defaults", False)))
        result = run.result
        outcome = Outcome(result.status, list(result.events),
                          [p.request.id for p in result.pending],
                          state=result.state.to_dict(ruleset))
    except AgotError as exc:
        outcome = Outcome("error", error=str(exc))
    compare(case.get("expect", {}), outcome)
    return outcome


def compare(expect: Mapping[str, Any], outcome: Outcome) -> None:
    """Fill ``outcome.differences`` with every way it differs from ``expect``."""
    diff = outcome.differences
    status = expect.get("status", "complete")
    if outcome.status != status:
        diff.append(f"status: expected {status}, got {outcome.status}"
                    + (f" ({outcome.error})" if outcome.error else "")
                    + (f" (pending: {', '.join(outcome.pending)})" if outcome.pending else ""))
    if "error" in expect and expect["error"] not in outcome.error:
        diff.append(f"error: expected a message containing {expect['error']!r}, got "
                    f"{outcome.error!r}")
    if "pending" in expect and outcome.pending != expect["pending"]:
        diff.append(f"pending: expected {expect['pending']}, got {outcome.pending}")
    position = 0
    for want in expect.get("events", []):
        found = next((i for i in range(position, len(outcome.events))
                      if _matches(outcome.events[i], want)), None)
        if found is None:
            diff.append(f"event not found (in order): {want}")
        else:
            position = found + 1
    for unwanted in expect.get("no_events", []):
        for event in outcome.events:
            if _matches(event, unwanted):
                diff.append(f"unexpected event: {event}")
    for dotted, value in expect.get("state", {}).items():
        got = get_path(outcome.state, dotted) if outcome.state is not None else _MISSING
        if value is None and got is _MISSING:
            continue
        if got != value:
            diff.append(f"state.{dotted}: expected {value!r}, got "
                        f"{'(absent)' if got is _MISSING else repr(got)}")
    if diff and outcome.events:
        diff.append("events were:\n" + "\n".join(f"  {e}" for e in outcome.events))


def load_case(path: Path) -> Document:
    """Load and schema-check a case file (raises :class:`InputError`)."""
    doc = load_yaml(path)
    problems = schema_problems(doc, "scenario")
    if problems:
        raise InputError(problems)
    return doc


def case_files(root: Path) -> list[Path]:
    """Every case under ``root`` (``*.yaml``), sorted by path."""
    return sorted(p for p in root.rglob("*.yaml") if p.is_file())


def sections(paths: Sequence[Path], root: Path) -> dict[str, int]:
    """Count of cases per top-level folder (section)."""
    counts: dict[str, int] = {}
    for p in paths:
        key = p.relative_to(root).parts[0] if len(p.relative_to(root).parts) > 1 else "."
        counts[key] = counts.get(key, 0) + 1
    return counts
