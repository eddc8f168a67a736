"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.decisions import AnswerError, GivenAnswer
from agot_adjudicator.diff import Change, diff_states
from agot_adjudicator.engine.context import HouseInput, Inputs
from agot_adjudicator.engine.round import Result, resolve
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import InputError, Problem, UsageError
from agot_adjudicator.files import Document, dump_yaml, load_yaml, same_file, schema_problems
from agot_adjudicator.naming import suggest
from agot_adjudicator.ruleset import Ruleset
from agot_adjudicator.state import GameState
from agot_adjudicator.submissions import (
    SECTION_KEYS,
    Source,
    Submissions,
    answer_id_problems,
    bid_problems,
    collect,
    order_problems,
    plan_problems,
)
from agot_adjudicator.template import order_template
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


def diff_files(a_path: str, b_path: str, ruleset: Ruleset) -> tuple[list[Change], list[Problem]]:
    """The differences between two state files, and the rule problems found in them (warnings)."""
    loaded, problems, warnings = [], [], []
    for path in (a_path, b_path):
        try:
            state, found = load_state_lenient(path, ruleset)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        loaded.append(state)
        warnings.extend(found)
    if problems:
        raise InputError(problems)
    return diff_states(loaded[0], loaded[1], ruleset), warnings


def template_text(state_path: str, house: str, ruleset: Ruleset, schema_ref: str) -> str:
    """The order file skeleton of ``house`` for the state in ``state_path`` (``agot template``)."""
    doc, state = load_state(state_path, ruleset)
    if house not in state.houses:
        raise UsageError(f"--house {house}: not a house in play{suggest(house, state.houses)} "
                         f"({', '.join(state.order_of_play())})")
    if state.phase == "ended":
        raise InputError([doc.problem(["phase"], f"the game has ended (round {state.round}): "
                                      "there is nothing to submit")])
    return order_template(state, ruleset, house, schema_ref)


def new_game_text(ruleset: Ruleset, houses: Sequence[str], seed: int, game_id: str) -> str:
    """The YAML text of a new game's starting state."""
    state = new_game(ruleset, list(houses), seed, game_id)
    return dump_yaml(state.to_dict(ruleset), header=STATE_HEADER)


def state_text(state: GameState, ruleset: Ruleset) -> str:
    return dump_yaml(state.to_dict(ruleset), header=STATE_HEADER)


def map_svg(state_path: str, ruleset: Ruleset, house: str | None = None,
            orders: bool = False) -> str:
    """``agot map``: the SVG picture of a state file's board (see :mod:`agot_adjudicator.svgmap`)."""
    from agot_adjudicator.svgmap import render_svg

    _, state = load_state(state_path, ruleset)
    if house is not None and house not in state.houses:
        raise UsageError(f"--house {house}: not a house in play ({', '.join(state.order_of_play())})")
    return render_svg(state, ruleset, house=house, orders=orders)


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
    problems.extend(answer_id_problems(subs, state, ruleset))
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
    if result.status == "complete":
        result.state.chain = chain_record(state_doc, docs, nmr, defaults)
    return Adjudication(result, state_doc, list(docs), inputs)


def chain_record(state_doc: Document, docs: Sequence[Document], nmr: Sequence[str] = (),
                 defaults: bool = False) -> dict[str, Any]:
    """The hash chain a next state carries: SHA-256 of the state it came from and of every
    submission file (by file name), and the ``--nmr``/``--defaults`` used, so a record cannot
    be changed unnoticed and ``agot replay`` can run it again."""
    subs = sorted((Path(d.name).name, d.sha256) for d in docs)
    chain: dict[str, Any] = {
        "previous_state": state_doc.sha256,
        "submissions": [{"file": name, "sha256": digest} for name, digest in subs]}
    if nmr or defaults:
        chain["options"] = {"nmr": sorted(set(nmr)), "defaults": defaults}
    return chain


@dataclass
class Outputs:
    """The texts an adjudication writes: next state (complete runs only), report, log, pending."""

    state: str | None
    report: str
    log: str
    pending: str | None
    board: str | None = None


BOARD_FILE = "board.svg"


def render_outputs(run: Adjudication, ruleset: Ruleset, *, board: bool = False,
                   fmt: str = "markdown", private_house: str | None = None) -> Outputs:
    """Render everything a run writes; the report ends with the hash-chain record.

    ``board``: also draw the board after a complete round (``agot map``), linked
    from the report as ``board.svg`` (game directories). ``fmt`` is the report
    format (markdown or text); ``private_house`` appends that house's hand, bids
    and pending questions to the report.
    """
    from agot_adjudicator.report import Private, render_log, render_pending, render_report

    result = run.result
    title = f"Game {result.state.game_id} — round {run.state_doc.data['round']}"
    private = None
    if private_house is not None:
        if private_house not in result.state.houses:
            raise UsageError(f"--private {private_house}: not a house in play "
                             f"({', '.join(result.state.order_of_play())})")
        mine = run.inputs.of(private_house)
        private = Private(private_house, mine.bids, mine.wildlings)
    report = render_report(title, result.events, result.state, ruleset, result.pending, fmt=fmt,
                           private=private)
    state = None
    pending = None
    picture = None
    if result.status == "complete":
        state = state_text(result.state, ruleset)
        if board:
            from agot_adjudicator.svgmap import render_svg

            picture = render_svg(result.state, ruleset)
            report += (f"\n![The board after the round]({BOARD_FILE})\n" if fmt == "markdown"
                       else f"\nThe board after the round: {BOARD_FILE}\n")
    else:
        pending = render_pending(result.pending)
    report += record_text(run, state, fmt)
    return Outputs(state, report, render_log(result.events), pending, picture)


def record_text(run: Adjudication, next_state: str | None, fmt: str = "markdown") -> str:
    """The report's closing "Record" section: the hashes that chain this round to the last."""
    q = "`" if fmt == "markdown" else ""
    lines = ["", "## Record" if fmt == "markdown" else "Record\n------", "",
             f"- state in: {q}{Path(run.state_doc.name).name}{q} sha256 {q}{run.state_doc.sha256}{q}"]
    for doc in sorted(run.docs, key=lambda d: (Path(d.name).name, d.sha256)):
        lines.append(f"- submission: {q}{Path(doc.name).name}{q} sha256 {q}{doc.sha256}{q}")
    if next_state is not None:
        digest = hashlib.sha256(next_state.encode("utf-8")).hexdigest()
        lines.append(f"- state out: sha256 {q}{digest}{q}")
    else:
        lines.append("- state out: none (stopped on pending decisions)")
    return "\n".join(lines) + "\n"


# --- game directories, what-if ---------------------------------------------------------------

def start_game_dir(game_dir: str) -> Path:
    """Create ``DIR/round-01/orders/`` and return where round 1's state goes; refuse a used DIR."""
    from agot_adjudicator.gamedir import RoundDir, round_dir_name

    first = RoundDir(1, Path(game_dir) / round_dir_name(1))
    if first.path.exists():
        raise UsageError(f"{game_dir}: already holds a game ({first.path} exists)")
    first.orders_dir.mkdir(parents=True)
    return first.state


@dataclass
class GameRound:
    """An adjudication of a game directory's current round and where its outputs go."""

    run: Adjudication
    round: Any  # gamedir.RoundDir
    next_state: Path


def adjudicate_game(game_dir: str, ruleset: Ruleset, nmr: Sequence[str] = (),
                    defaults: bool = False) -> GameRound:
    """Adjudicate the current round of a game directory (DESIGN.md §2)."""
    from agot_adjudicator.gamedir import current_round

    rd = current_round(game_dir)  # the last folder with a state: its round is not adjudicated
    run = adjudicate_files(str(rd.state), [str(p) for p in rd.orders()], ruleset, nmr, defaults)
    if run.state_doc.data.get("phase") == "ended":
        raise UsageError(f"{rd.state}: the game has ended; nothing to adjudicate")
    return GameRound(run, rd, rd.following().state)


@dataclass
class WhatIf:
    """A re-run with corrected submissions and what differs from the published next state."""

    outputs: Outputs
    changes: list[str]


def whatif_files(state_path: str, orders_paths: Sequence[str], published_path: str,
                 ruleset: Ruleset, nmr: Sequence[str] = (), defaults: bool = False) -> WhatIf:
    """Adjudicate again and compare the result with the published next state."""
    from agot_adjudicator.replay import state_diff

    load_state(published_path, ruleset)
    run = adjudicate_files(state_path, orders_paths, ruleset, nmr, defaults)
    outputs = render_outputs(run, ruleset)
    if outputs.state is None:
        return WhatIf(outputs, [])
    published = Path(published_path).read_bytes().decode("utf-8")
    changes = [] if published == outputs.state else state_diff(published, outputs.state, ruleset)
    return WhatIf(outputs, changes)
