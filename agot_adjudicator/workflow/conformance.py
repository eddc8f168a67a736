"""AGoT-ATC conformance cases (``scenarios/**/*.yaml``, ``format: agot-scenario/1``).

A case builds a state from a new game (players, seed), optionally empties the
board, deep-merges a patch, puts named cards on top of the Westeros decks
(``deck_top``), runs the submissions through the same app layer as ``agot
adjudicate`` and compares a partial expectation, which may name a pending
decision's options and reason (``asked``). See ``scenarios/README.md``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import AgotError, InputError, MalformedInput, Problem
from agot_adjudicator.io.reading import MAX_BYTES, Document, parse_text
from agot_adjudicator.io.safefile import ReadRefused, read_bounded
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.workflow.adjudicate import RunOptions, adjudicate_docs
from agot_adjudicator.workflow.validate import read_yaml

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
    """The case's starting state as plain data (R1 setup, the patch, then ``deck_top``)."""
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
    data = deep_merge(data, spec.get("patch", {}))
    for deck, top in spec.get("deck_top", {}).items():
        data["westeros"]["decks"][deck] = put_on_top(data["westeros"]["decks"][deck], top, deck)
    return data


def put_on_top(pile: list[str], top: str | list[str], deck: str = "") -> list[str]:
    """``pile`` with one copy of each card of ``top`` moved to the top, in that order; the other
    cards keep their order (the seed's shuffle).

    >>> put_on_top(["a", "b", "c", "b"], ["b", "a"])
    ['b', 'a', 'c', 'b']
    """
    cards = [top] if isinstance(top, str) else list(top)
    rest = list(pile)
    for card in cards:
        if card not in rest:
            raise MalformedInput([Problem("scenario", None, None, f"$.state.deck_top.{deck}",
                                          f"deck {deck} holds no (more) '{card}'")])
        rest.remove(card)
    return cards + rest


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
    asked: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per pending id: its ``options`` (a list, empty when not listable) and ``reason``
    (why it is asked again, or None)."""
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
            raise MalformedInput(problems)
        run = adjudicate_docs(state_doc, docs, ruleset,
                              RunOptions(tuple(options.get("nmr", [])), bool(options.get("defaults", False))))
        result = run.result
        outcome = Outcome(result.status, list(result.events),
                          [p.request.id for p in result.pending],
                          state=result.state.to_dict(ruleset),
                          asked={p.request.id: {"options": list(p.request.options),
                                                "reason": p.reason} for p in result.pending})
    except AgotError as exc:
        outcome = Outcome("error", error=str(exc))
    compare(case.get("expect", {}), outcome)
    return outcome


def _asked_differences(decision: str, want: Mapping[str, Any], outcome: Outcome) -> list[str]:
    """How pending decision ``decision`` differs from ``want`` (``options``: exactly; ``reason``:
    a substring, or null for a decision asked for the first time)."""
    got = outcome.asked.get(decision)
    if got is None:
        return [f"asked.{decision}: not pending (pending: {', '.join(outcome.pending) or 'none'})"]
    out = []
    if "options" in want and got["options"] != want["options"]:
        out.append(f"asked.{decision}.options: expected {want['options']}, got {got['options']}")
    if "reason" in want:
        reason, expected = got["reason"], want["reason"]
        if expected is None and reason is not None:
            out.append(f"asked.{decision}.reason: expected none (asked the first time), got "
                       f"{reason!r}")
        elif expected is not None and (reason is None or expected not in reason):
            out.append(f"asked.{decision}.reason: expected a reason containing {expected!r}, "
                       f"got {reason!r}")
    return out


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
    for decision, want in expect.get("asked", {}).items():
        diff.extend(_asked_differences(decision, want, outcome))
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
    """Load and schema-check a case file (raises :class:`MalformedInput`)."""
    doc = read_yaml(str(path))
    problems = schema_problems(doc, "scenario")
    if problems:
        raise MalformedInput(problems)
    return doc


def case_files(root: Path) -> list[Path]:
    """Every case under ``root`` (``*.yaml``), sorted by path."""
    return sorted(p for p in root.rglob("*.yaml") if p.is_file())


def section_of(relative: Path) -> str:
    """A case's section: its folder under the suite root (``battles/support``), ``.`` at the root.

    >>> section_of(Path("battles/support/BATTLE-001.yaml")), section_of(Path("X.yaml"))
    ('battles/support', '.')
    """
    return "/".join(relative.parts[:-1]) or "."


# --- the compliance statement (`agot conformance`) -----------------------------------------

SUITE = "AGoT-ATC/1"


@dataclass
class SectionResult:
    """Cases of one section (top-level folder) and how they went."""

    name: str
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass
class SuiteResult:
    """A run of the whole suite: per-section results, rules cited, the suite's digest."""

    root: Path
    sections: dict[str, SectionResult]
    cited: list[str]
    digest: str
    failures: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(s.failed for s in self.sections.values())


def suite_cases(root: Path) -> list[Path]:
    """The conformance cases under ``root`` (recorded games under ``games/`` are not cases)."""
    return [p for p in case_files(root) if "games" not in p.relative_to(root).parts]


def run_suite(root: Path, ruleset: Ruleset) -> SuiteResult:
    """Run every case under ``root`` in path order; nothing is written."""
    import contextlib
    import hashlib

    from agot_adjudicator.model.rules import RULE_IDS, rule_key

    digest = hashlib.sha256()
    results: dict[str, SectionResult] = {}
    failures: dict[str, list[str]] = {}
    cited: set[str] = set()
    for path in suite_cases(root):
        rel = path.relative_to(root)
        digest.update(f"{rel.as_posix()}\n".encode())
        with contextlib.suppress(ReadRefused):  # a FIFO: refused by the case's load below
            digest.update(read_bounded(path, MAX_BYTES))
        name = section_of(rel)
        section = results.setdefault(name, SectionResult(name))
        try:
            case = load_case(path).data
        except InputError as exc:
            section.failed.append(str(rel))
            failures[str(rel)] = [str(p) for p in exc.problems]
            continue
        if case.get("skip"):
            section.skipped.append(case["id"])
            continue
        cited.update(r for r in case["rules"] if r in RULE_IDS)
        try:
            outcome = run_case(case, ruleset, name=path.name)
        except Exception as exc:  # a case that crashes agot fails, and the suite goes on
            section.failed.append(case["id"])
            failures[case["id"]] = [f"crashed: {crash_line(exc)}"]
            continue
        if outcome.differences:
            section.failed.append(case["id"])
            failures[case["id"]] = list(outcome.differences)
        else:
            section.passed.append(case["id"])
    return SuiteResult(root, results, sorted(cited, key=rule_key), digest.hexdigest(), failures)


def crash_line(exc: BaseException) -> str:
    """The last line of the traceback of ``exc``: its type and message, where it was raised.

    >>> try:
    ...     [][0]
    ... except IndexError as exc:
    ...     crash_line(exc).startswith("IndexError: list index out of range (")
    True
    """
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1] \
        + where


def rulings_profile() -> list[tuple[str, str, str]]:
    """(ruling, question, choice) of every ruling in docs/rules.md (``RUL-6.2-1 (R6.2)``)."""
    from agot_adjudicator.model.rules import all_rulings

    rows = []
    for rule, ruling in all_rulings():
        question, choice, _ = ruling.parts
        rows.append((f"{ruling.id} ({rule.id})", question, choice))
    return rows


def statement_text(result: SuiteResult, ruleset: Ruleset, version: str) -> str:
    """The compliance statement: suite, ruleset, cases per section, rules covered, rulings."""
    from agot_adjudicator.model.rules import RULES
    from agot_adjudicator.render.tables import table

    rows: list[list[Any]] = [[s.name, len(s.passed) + len(s.failed) + len(s.skipped), len(s.passed),
             len(s.failed), len(s.skipped)] for s in result.sections.values()]
    total = [sum(r[i] for r in rows) for i in range(1, 5)]
    rows.append(["total", *total])
    missing = [f"{rule} {title}" for rule, title in RULES if rule not in result.cited]
    out = [f"agot {version} — conformance statement",
           f"suite: {SUITE}, {total[0]} cases in {result.root} (sha256 {result.digest})",
           f"ruleset: {ruleset.name} (sha256 {ruleset.sha256})",
           "",
           table(rows, ["section", "cases", "passed", "failed", "skipped"]),
           "",
           f"rules covered: {len(RULES) - len(missing)} of {len(RULES)} (R0–R13 of docs/rules.md)"]
    out.extend(f"  not covered: {m}" for m in missing)
    profile = rulings_profile()
    if profile:
        out += ["", f"rulings profile ({len(profile)} rulings, docs/rules.md):"]
        out.extend(f"  {rule}: {question} → {choice}" for rule, question, choice in profile)
    for case_id, differences in result.failures.items():
        out += ["", f"FAILED {case_id}:"]
        out.extend(f"  {line}" for line in differences[:20])
    out += ["", "verdict: " + ("every case passed" if result.ok else
                               f"{total[2]} case(s) failed")]
    return "\n".join(out) + "\n"
