"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agot_adjudicator.decisions import AnswerError, GivenAnswer
from agot_adjudicator.engine.context import HouseInput, Inputs
from agot_adjudicator.engine.round import Result, resolve
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import InputError, Problem, UsageError
from agot_adjudicator.files import Document, dump_yaml, load_yaml, same_file, schema_problems
from agot_adjudicator.ruleset import Ruleset
from agot_adjudicator.state import GameState
from agot_adjudicator.submissions import (
    Source,
    Submissions,
    bid_problems,
    collect,
    order_problems,
    plan_problems,
)
from agot_adjudicator.validation import state_problems

STATE_HEADER = ("agot game state (agot-state/1): the moderator's file; it holds the seed\n"
                "and the Westeros decks, so do not send it to players (send `agot show`).")


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
    if problems:
        raise InputError(problems)
    return docs


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
    try:
        docs = load_submissions(orders_paths)
    except InputError as exc:
        result.problems.extend(exc.problems)
        return result
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
    if not result.problems:
        result.warnings.extend(support_warnings(subs, state, ruleset))
    return result


def check_output(output: str, inputs: Sequence[str], *, in_place: bool = False) -> None:
    """Refuse to write an output over an input unless ``in_place`` (DESIGN.md §3)."""
    if in_place:
        return
    for path in inputs:
        if same_file(output, path):
            raise UsageError(f"refusing to write {output} over the input {path} "
                             "(use --in-place to allow it)")


def new_game_text(ruleset: Ruleset, houses: Sequence[str], seed: int, game_id: str) -> str:
    """The YAML text of a new game's starting state."""
    state = new_game(ruleset, list(houses), seed, game_id)
    return dump_yaml(state.to_dict(ruleset), header=STATE_HEADER)


def state_text(state: GameState, ruleset: Ruleset) -> str:
    return dump_yaml(state.to_dict(ruleset), header=STATE_HEADER)


def exists(path: str) -> bool:
    return Path(path).exists()


# --- adjudicate ----------------------------------------------------------------------------

@dataclass
class Adjudication:
    """Outcome of ``agot adjudicate`` before anything is written."""

    result: Result
    state_doc: Document
    docs: list[Document]
    inputs: Inputs = field(default_factory=Inputs)
    """What was submitted (the report's ``--private`` section shows one house's bids)."""


def engine_inputs(subs: Submissions) -> tuple[Inputs, dict[str, GivenAnswer]]:
    """Turn merged submissions into the engine's plain inputs and located answers."""
    houses = {h: HouseInput(orders=s.orders, bids=s.bids, wildlings=s.wildlings,
                            plans=dict(s.plans)) for h, s in subs.sections.items()}
    answers = {}
    for answer_id, answer in subs.answers.items():
        def locate(message: str, source: Source = answer.source) -> Problem:
            return source.problem(message)
        answers[answer_id] = GivenAnswer(answer.value, answer.house, locate)
    return Inputs(houses), answers


def adjudicate_files(state_path: str, orders_paths: Sequence[str], ruleset: Ruleset,
                     nmr: Sequence[str] = (), defaults: bool = False) -> Adjudication:
    """Load, check and resolve files; raise :class:`InputError` on any invalid input."""
    problems: list[Problem] = []
    state_doc = None
    try:
        state_doc = load_yaml(state_path)
        problems.extend(schema_problems(state_doc, "state"))
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        docs = load_submissions(orders_paths)
    except InputError as exc:
        problems.extend(exc.problems)
        docs = []
    if problems or state_doc is None:
        raise InputError(problems)
    return adjudicate_docs(state_doc, docs, ruleset, nmr, defaults)


def adjudicate_docs(state_doc: Document, docs: Sequence[Document], ruleset: Ruleset,
                    nmr: Sequence[str] = (), defaults: bool = False) -> Adjudication:
    """Check schema-valid documents against the rules and resolve (R2–R13)."""
    problems = state_problems(state_doc, ruleset)
    if problems:
        raise InputError(problems)
    state = GameState.from_dict(state_doc.data)
    for house in nmr:
        if house not in state.houses:
            raise UsageError(f"--nmr {house}: not a house in play "
                             f"({', '.join(state.order_of_play())})")
    subs, problems = collect(docs, state, ruleset)
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is None:
            continue
        if section.orders is not None and state.phase == "action":
            problems.append(section.sources["orders"].problem(
                "orders are placed in the planning phase; the state is in the action phase"))
        elif state.phase == "planning":
            problems.extend(order_problems(section, state, ruleset))
        problems.extend(bid_problems(section, state))
        problems.extend(plan_problems(section, ruleset))
    if problems:
        raise InputError(problems)
    inputs, answers = engine_inputs(subs)
    try:
        result = resolve(ruleset, state, inputs, answers, nmr=tuple(nmr), defaults=defaults)
    except AnswerError as exc:
        raise InputError(exc.problems) from None
    if result.status == "complete" and result.unused_answers:
        raise InputError([subs.answers[a].source.problem(
            f"answer to {a} was never asked for (a typo, or stale?)") for a in
            result.unused_answers])
    return Adjudication(result, state_doc, list(docs), inputs)
