"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agot_adjudicator.errors import InputError, Problem, UsageError
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.submissions import (
    SECTION_KEYS,
    Submissions,
    answer_shape_problems,
    bid_problems,
    collect,
    order_problems,
    plan_problems,
)
from agot_adjudicator.io.validation import state_problems
from agot_adjudicator.io.writing import same_file
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState


def load_state(path: str, ruleset: Ruleset) -> tuple[Document, GameState]:
    """Load a state file: safe YAML, schema, then rule checks. Raises :class:`InputError`."""
    doc = load_yaml(path)
    problems = schema_problems(doc, "state")
    if not problems:
        problems = state_problems(doc, ruleset)
    if problems:
        raise InputError(problems)
    return doc, GameState.from_dict(doc.data)


def load_submissions(paths: Sequence[str]) -> list[Document]:
    """Load submission files; every problem of every file at once."""
    docs, problems = read_submissions(paths)
    if problems:
        raise InputError(problems)
    return docs


def read_submissions(paths: Sequence[str]) -> tuple[list[Document], list[Problem]]:
    """The submission files that load and pass their schema, and the problems of the others."""
    docs, problems = [], []
    for path in paths:
        try:
            doc = load_yaml(path)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        found = schema_problems(doc, "orders")
        if found:
            problems.extend(found)
        else:
            docs.append(doc)
    return docs, problems


@dataclass
class Validation:
    """Outcome of ``agot validate``: problems (exit 1) and warnings (stderr, exit 0)."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def support_warnings(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """Warnings for legal but probably unintended orders (R4.1, R6.2)."""
    warnings: list[Problem] = []
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is None or section.orders is None:
            continue
        src = section.sources["orders"]
        for area_id in ruleset.area_ids:
            here = state.area(area_id)
            if here.house == house and here.units and area_id not in section.orders:
                warnings.append(src.problem(f"no order for {area_id}, which holds {house} units"))
        for area_id, order in section.orders.items():
            if order is None or order not in ruleset.order_tokens or area_id not in ruleset.areas:
                continue
            if ruleset.order_tokens[order].kind != "support":
                continue
            land_units = all(u != "ship" for u in state.area(area_id).units)
            candidates = [a for a in ruleset.areas[area_id].adjacent
                          if not (land_units and ruleset.areas[a].is_sea)]
            if not any(state.area(a).units or state.area(a).neutral_force for a in candidates):
                warnings.append(src.problem(f"support order in {area_id}: no area it can support "
                                            "holds units or a neutral force, so no battle can "
                                            "use it (R6.2)", area_id))
    return warnings


def validate_files(state_path: str, orders_paths: Sequence[str], ruleset: Ruleset) -> Validation:
    """Check a state and submissions without resolving anything."""
    result = Validation()
    try:
        _, state = load_state(state_path, ruleset)
    except InputError as exc:
        result.problems.extend(exc.problems)
        state = None
    docs, problems = read_submissions(orders_paths)
    result.problems.extend(problems)
    if state is None:
        return result
    subs, problems = collect(docs, state, ruleset)
    result.problems.extend(problems)
    planning = state.phase in ("westeros", "planning")
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is None:
            continue
        if section.orders is not None and not planning:
            result.problems.append(section.sources["orders"].problem(
                f"orders are placed in the planning phase; the state is in the {state.phase} "
                "phase"))
        else:
            result.problems.extend(order_problems(section, state, ruleset))
        result.problems.extend(bid_problems(section, state))
        result.problems.extend(plan_problems(section, ruleset))
    result.problems.extend(answer_shape_problems(subs))
    if not result.problems:
        result.warnings.extend(support_warnings(subs, state, ruleset))
        result.warnings.extend(empty_submission_warnings(docs))
    return result


def empty_submission_warnings(docs: Sequence[Document]) -> list[Problem]:
    """A house file that submits nothing (an unfilled ``agot template``): the engine will ask."""
    return [doc.problem(["house"], f"{doc.data['house']} submits nothing here (no orders, bids, "
                        "plans or answers): its decisions will be asked for")
            for doc in docs if "house" in doc.data
            and not any(k in doc.data for k in SECTION_KEYS) and not doc.data.get("answers")]


def check_output(output: str, inputs: Sequence[str], *, in_place: bool = False) -> None:
    """Refuse to write an output over an input unless ``in_place`` (DESIGN.md §3)."""
    if in_place:
        return
    for path in inputs:
        if same_file(output, path):
            raise UsageError(f"refusing to write {output} over the input {path} "
                             "(use --in-place to allow it)")


def load_state_lenient(path: str, ruleset: Ruleset) -> tuple[GameState, list[Problem]]:
    """Load a state that must be schema-valid; its rule problems are returned, not raised.

    For comparing states (``agot diff``): a state that breaks a rule, or was
    made with another ruleset, can still be compared value by value.
    """
    doc = load_yaml(path)
    problems = schema_problems(doc, "state")
    if problems:
        raise InputError(problems)
    return GameState.from_dict(doc.data), state_problems(doc, ruleset)
