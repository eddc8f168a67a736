"""File-level use cases between the CLI and the pure engine: load, check, run, write."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.engine.board import can_ever_move, controlled_areas, transport_reach
from agot_adjudicator.engine.context import Context, HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError, Decider, GivenAnswer
from agot_adjudicator.engine.mustering import apply_musters, can_muster_anything, parse_musters
from agot_adjudicator.engine.planning import raven_problem
from agot_adjudicator.engine.raids import legal_targets, raid_reach
from agot_adjudicator.engine.round import Result, resolve
from agot_adjudicator.engine.support import support_reach
from agot_adjudicator.errors import IllegalInput, InputError, MalformedInput, Problem, UsageError
from agot_adjudicator.io.names import ids_from_names
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.submissions import (
    SECTION_KEYS,
    HouseSection,
    Source,
    Submissions,
    answer_id_problems,
    answer_value_problems,
    bid_problems,
    collect,
    order_problems,
    plan_problems,
)
from agot_adjudicator.io.validation import AREA_KIND_WORDS, PHASE_WORDS, state_problems
from agot_adjudicator.io.writing import same_file
from agot_adjudicator.model.naming import NameIndex, name_index
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import Msg

ORDER_KIND_WORDS = {"march": Msg("march"), "raid": Msg("raid"), "support": Msg("support"),
                    "defense": Msg("defense"), "consolidate_power": Msg("consolidate power")}
"""An order's kind in a sentence ("no raid order in ...")."""


def read_yaml(path: str) -> Document:
    """Read a file as safe YAML; a file that cannot be read or parsed is :class:`MalformedInput`."""
    try:
        return load_yaml(path)
    except MalformedInput:
        raise
    except InputError as exc:
        raise MalformedInput(exc.problems) from None


def load_state(path: str, ruleset: Ruleset,
               read: Callable[[str], Document] = read_yaml) -> tuple[Document, GameState]:
    """Load a state file: safe YAML, schema (:class:`MalformedInput`), then rule checks
    (:class:`IllegalInput`). ``read``: how a file is read (:func:`read_yaml`; a record's files
    are read once per command, :class:`~agot_adjudicator.io.recorded.RecordedFiles`)."""
    doc = read(path)
    problems = schema_problems(doc, "state")
    if problems:
        raise MalformedInput(problems)
    problems = state_problems(doc, ruleset)
    if problems:
        raise IllegalInput(problems)
    return doc, GameState.from_dict(doc.data)


def load_submissions(paths: Sequence[str],
                     read: Callable[[str], Document] = read_yaml) -> list[Document]:
    """Load submission files; every problem of every file at once (:class:`MalformedInput`)."""
    docs, problems = read_submissions(paths, read=read)
    if problems:
        raise MalformedInput(problems)
    return docs


def read_submissions(paths: Sequence[str], names: NameIndex | None = None,
                     notes: list[Problem] | None = None,
                     read: Callable[[str], Document] = read_yaml,
                     ) -> tuple[list[Document], list[Problem]]:
    """The submission files that load and pass their schema, and the problems of the others.

    ``names`` (``agot validate``): a file that writes display names (``卡林湾``, ``Moat
    Cailin``, ``行军 +1★``) is read as its id form, as ``agot inbox`` would store it
    (RUL-P8-2), with a note in ``notes`` naming what was read as which id; a name that names
    nothing is then a located problem. A file in ids is read as it always was."""
    docs, problems = [], []
    for path in paths:
        try:
            doc = read(path)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        if names is not None:
            named, renamed, unknown = ids_from_names(doc, names)
            if renamed and notes is not None:
                notes.append(doc.problem((), Msg(
                    "names read as ids, as `agot inbox` stores this file: {renamed}; "
                    "`agot adjudicate` reads a file in ids only", renamed=[
                        f"{r.written} → {r.id}" for r in renamed])))
            if unknown:  # a name that names nothing (with a suggestion), even among ids
                problems.extend(unknown)
                continue
            doc = named
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
    malformed: list[Problem] = field(default_factory=list)
    """The problems that are malformed input (YAML, schema); the others are illegal input."""
    notes: list[Problem] = field(default_factory=list)
    """What was read differently from the file's text (names read as ids), for stderr."""

    def error(self) -> InputError:
        """The error that refuses these problems, of the class that names their kind."""
        illegal = [p for p in self.problems if p not in self.malformed]
        return InputError.of(self.malformed, illegal)


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
                warnings.append(src.problem(Msg("no order for {area}, which holds {house} units",
                                                area=area_id, house=house)))
        for area_id, order in section.orders.items():
            if order is None or order not in ruleset.order_tokens or area_id not in ruleset.areas:
                continue
            if ruleset.order_tokens[order].kind != "support":
                continue
            candidates = support_reach(ruleset, area_id)
            if not any(state.area(a).units or state.area(a).neutral_force for a in candidates):
                warnings.append(src.problem(Msg(
                    "support order in {area}: no area it can support holds units or a neutral "
                    "force, so no battle can use it (R6.2)", area=area_id), area_id))
    return warnings


def _kinds(section: HouseSection, state: GameState, ruleset: Ruleset) -> dict[str, str | None] | None:
    """Order kind per area of the house's orders (submitted, or on the board in the action phase);
    None when unknown or when a Raven plan may change them."""
    if section.orders is not None:
        # A null order (an untouched template line) is not known yet to be final: no warning.
        orders = {a: o for a, o in section.orders.items() if o is not None}
        undecided = [a for a, o in section.orders.items() if o is None]
    elif state.phase == "action":
        orders = {a: v.order for a, v in state.areas.items() if v.house == section.house and v.order}
        undecided = []
    else:
        return None
    raven = section.plans.get("raven")
    if raven and raven.get("area") in orders:     # the Raven may swap one order in (R4.6)
        return None
    kinds: dict[str, str | None] = {a: None for a in undecided}
    kinds.update((a, ruleset.order_tokens[o].kind) for a, o in orders.items() if o in ruleset.order_tokens)
    return kinds


def plan_warnings(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """Plans that can never be used: an area or target their order can never reach (R5.2, R5.3, R6.2);
    and a march only ship transport carries where no ships of the house are in place (R5.4).

    The engine ignores such a plan entry (or asks again); ``validate`` points at it.
    """
    warnings: list[Problem] = []
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is not None:
            warnings.extend(_section_plan_warnings(section, state, ruleset))
    return warnings


def _section_plan_warnings(section: HouseSection, state: GameState, ruleset: Ruleset) -> list[Problem]:
    warnings: list[Problem] = []
    areas, house = ruleset.areas, section.house
    kinds = _kinds(section, state, ruleset)
    plans, src = section.plans, section.sources

    def unused(kind: str, area_id: str, tag: str, *path: str | int) -> None:
        if kinds is None or area_id not in areas or (area_id in kinds and kinds[area_id] is None):
            return
        if kinds.get(area_id) != kind:
            warnings.append(src[tag].problem(Msg(
                "{house} has no {kind} order in {area}: this plan is never used", house=house,
                kind=ORDER_KIND_WORDS.get(kind, kind.replace("_", " ")), area=area_id), *path))

    for i, raid in enumerate(plans.get("raids") or []):
        origin = raid["from"]
        unused("raid", origin, "plans.raids", i, "from")
        for j, target in enumerate(raid.get("targets") or []):
            if origin in areas and target in areas and areas[origin].is_land \
                    and areas[target].is_sea and target in areas[origin].adjacent:
                warnings.append(src["plans.raids"].problem(Msg(
                    "a raid from land ({origin}) never reaches the sea area {target} (R5.2)",
                    origin=origin, target=target), i, "targets", j))
    for i, march in enumerate(plans.get("marches") or []):
        origin = march["from"]
        unused("march", origin, "plans.marches", i, "from")
        if origin not in areas:
            continue
        for dest, units in (march.get("moves") or {}).items():
            if dest not in areas or dest == origin:
                continue
            wrong = [u for u in units or [] if (u == "ship") != areas[dest].is_sea]
            if wrong:
                warnings.append(src["plans.marches"].problem(Msg(
                    "{unit_types} cannot enter {area_kind} area {destination}: ships move at sea, "
                    "footmen and knights on land (R5.3)", unit_types=wrong,
                    area_kind=AREA_KIND_WORDS.get(areas[dest].kind, areas[dest].kind),
                    destination=dest), i, "moves", dest))
            elif not can_ever_move(ruleset, origin, dest):
                warnings.append(src["plans.marches"].problem(Msg(
                    "{destination} is not adjacent to {origin} and no ship transport can reach "
                    "it: this move can never happen (R5.3, R5.4)", destination=dest,
                    origin=origin), i, "moves", dest))
            elif areas[origin].is_land and dest not in areas[origin].march_adjacent \
                    and dest not in transport_reach(state, ruleset, house, origin):
                warnings.append(src["plans.marches"].problem(Msg(
                    "{destination} is reached from {origin} only by ship transport (a river "
                    "without a bridge or no border between them), and no chain of {house}'s "
                    "ships reaches it on this board: the move happens only if ships move into "
                    "place first (R5.4, R5.11)", destination=dest, origin=origin, house=house),
                    i, "moves", dest))
    for area_id in plans.get("support") or {}:
        unused("support", area_id, "plans.support", area_id)
    if state.phase == "westeros" and plans.get("musters"):
        controlled = controlled_areas(state, ruleset, house)
        for area_id in plans["musters"]:
            if area_id in areas and areas[area_id].castle and area_id not in controlled:
                warnings.append(src["plans.musters"].doc.problem(
                    [*src["plans.musters"].path, area_id],
                    Msg("{house} does not control {area}, and control does not change in the "
                        "Westeros phase: this muster plan is never used (R3.5, R13.1)",
                        house=house, area=area_id), key=True))
        warnings.extend(_muster_warnings(section, state, ruleset))
    raven = plans.get("raven")
    if raven and state.phase == "planning":
        holder = state.holder("kings_court")
        if holder != house:
            warnings.append(src["plans.raven"].problem(Msg(
                "{house} does not hold the Messenger Raven ({holder} is first on the King's "
                "Court track): this plan is never used (R4.6)", house=house, holder=holder)))
        elif section.orders is not None and None not in section.orders.values() \
                and not order_problems(section, state, ruleset):
            placed = state.copy()
            for area_id, order in section.orders.items():
                with placed.edit(area_id) as here:
                    here.order = order
            why = raven_problem(placed, ruleset, house, raven)
            if why is not None:
                warnings.append(src["plans.raven"].problem(Msg(
                    "with these orders this Raven plan never fits ({why}): the Raven is asked "
                    "again (R4.6)", why=why)))
    if state.phase == "action":
        warnings.extend(_raid_target_warnings(section, state, ruleset))
    return warnings


def _muster_warnings(section: HouseSection, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """The first castle whose muster plan does not fit the board as it stands, the house's
    earlier castles mustered as planned (R3.5). A Mustering card is in the first deck only
    (first edition; other rulesets are not checked), so no card before it frees supply, units
    or seas: if it comes, the plan is asked again. Checked with the engine's own rule
    (``parse_musters``) on a scratch copy."""
    decks = [d for d in ruleset.decks if any(c.card == "mustering" for c in ruleset.decks[d])]
    if state.round <= ruleset.start_round or decks[:1] != list(ruleset.decks)[:1] or len(decks) > 1:
        return []  # a ruleset with a card before the Mustering that may change the board
    house, plan = section.house, section.plans["musters"]
    ctx = Context(ruleset, state.copy(), Inputs(), Decider())
    for castle in controlled_areas(ctx.state, ruleset, house):
        if not ruleset.areas[castle].castle or castle not in plan \
                or not can_muster_anything(ctx, house, castle):
            continue
        steps = parse_musters(ctx, house, castle, list(plan[castle] or []))
        if isinstance(steps, str):
            return [section.sources["plans.musters"].problem(Msg(
                "if a Mustering card comes this round, this plan does not fit the board as it "
                "stands: {why}; it is asked again (R3.5)", why=steps), castle)]
        apply_musters(ctx, house, castle, steps)
    return []


def _raid_target_warnings(section: HouseSection, state: GameState,
                          ruleset: Ruleset) -> list[Problem]:
    """Raid plan targets holding no order the raid could remove, on an action-phase board: orders
    only leave the board in the action phase, so such a target never becomes legal (R5.2)."""
    warnings: list[Problem] = []
    ctx = Context(ruleset, state, Inputs(), Decider())
    for i, raid in enumerate(section.plans.get("raids") or []):
        origin = raid["from"]
        here = state.area(origin)
        if origin not in ruleset.areas or here.house != section.house or here.order is None \
                or ruleset.order_tokens[here.order].kind != "raid":
            continue
        legal = legal_targets(ctx, section.house, origin)
        for j, target in enumerate(raid.get("targets") or []):
            if target in ruleset.areas and target in raid_reach(ruleset, origin) \
                    and target not in legal:
                warnings.append(section.sources["plans.raids"].problem(Msg(
                    "{target} holds no order the raid from {origin} can remove (legal targets "
                    "now: {targets}); orders only leave the board in the action phase, so this "
                    "target is never used (R5.2)", target=target, origin=origin,
                    targets=list(legal) or Msg("none")), i, "targets", j))
    return warnings


def house_problems(section: HouseSection, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """What refuses one house's section before a run: the same for ``validate`` and ``adjudicate``.

    Orders are placed in the planning phase (R4). In a planning-phase state they
    must be legal now (R4.1–R4.4); in an action-phase state they are refused. In
    a Westeros-phase state the engine checks them only when the planning phase
    comes, after the cards have moved units and brought their restrictions: an
    order that no longer fits is then asked again (R4.4), so it is not refused
    here (``validate`` warns, :func:`early_order_warnings`). An ended game
    resolves nothing (R11), so its orders are not checked. Bids are checked
    against the power available now (R7.1, R8.1) and plans against the
    ruleset's ids.
    """
    problems: list[Problem] = []
    if section.orders is not None and state.phase == "action":
        problems.append(section.sources["orders"].problem(Msg(
            "orders are placed in the planning phase; the state is in the {phase} phase",
            phase=PHASE_WORDS.get(state.phase, state.phase))))
    elif state.phase == "planning":
        problems.extend(order_problems(section, state, ruleset))
    problems.extend(bid_problems(section, state, ruleset))
    problems.extend(plan_problems(section, ruleset))
    return problems


def early_order_warnings(section: HouseSection, state: GameState,
                         ruleset: Ruleset) -> list[Problem]:
    """Orders given before the Westeros phase that do not fit the board as it is now (R4.4).

    The engine checks them after the Westeros cards (which may muster, reduce
    units or forbid orders); one that still does not fit is asked again then.
    """
    return [Problem(p.file, p.line, p.column, p.path,
                    Msg("{problem} (now, before the Westeros phase; if it still does not fit "
                        "after the cards, these orders are asked again, R4.4)",
                        problem=p.message))
            for p in order_problems(section, state, ruleset)]


def validate_files(state_path: str, orders_paths: Sequence[str], ruleset: Ruleset, *,
                   board: GameState | None = None, names: bool = False,
                   read: Callable[[str], Document] = read_yaml) -> Validation:
    """Check a state and submissions as ``adjudicate`` would, writing nothing. ``board``: the
    state at ``state_path``, already loaded as the board as it stands now (``validate
    --game``, docs/protocol.md P4); it may be a stopped run's provisional state. ``names``:
    read a submission written in display names as its id form (:func:`read_submissions`),
    noting it in ``notes``. ``read``: how a file is read (the command's reader, which read the
    state for its ruleset: each file once, issue 33).
    """
    result = Validation()
    state_doc = None
    try:
        state_doc = read(state_path)
        found = schema_problems(state_doc, "state")
    except InputError as exc:
        found = exc.problems
    if found:
        state_doc = None
        result.problems.extend(found)
        result.malformed.extend(found)
    docs, problems = read_submissions(orders_paths, name_index(ruleset) if names else None,
                                      result.notes, read)
    result.problems.extend(problems)
    result.malformed.extend(problems)
    if state_doc is None:
        return result
    provisional = board is not None and "provisional" in state_doc.data
    checked = validate_docs(state_doc, docs, ruleset, run=not problems, provisional=provisional)
    result.problems.extend(checked.problems)
    result.warnings.extend(checked.warnings)
    if problems:
        result.warnings = []
    return result


def validate_docs(state_doc: Document, docs: Sequence[Document], ruleset: Ruleset, *,
                  run: bool = True, provisional: bool = False) -> Validation:
    """Check schema-valid documents as ``adjudicate_docs`` does, without writing anything.

    Errors are what ``agot adjudicate`` refuses (exit 1) with the same words and
    location (RUL-P1-2): the state's rule problems, then per submission
    :func:`house_problems` and
    :func:`~agot_adjudicator.io.submissions.answer_id_problems` (both shared with
    adjudicate); then, with direct answers, the refusals of the round run in memory
    as adjudicate runs it (:func:`run_round`), or if it refuses none, the answers the
    board as it stands refuses beyond its first stop
    (:func:`~agot_adjudicator.io.submissions.answer_value_problems`).
    Warnings (only when there is no error) point at what adjudicate would drop or
    ask again: plans that can never apply, orders before the Westeros phase that do
    not fit the board now (R4.4), bids that together exceed the power (R8.1).
    ``run=False``: not the in-memory run (some submission files did not load, so a
    run would answer other questions than adjudicate's).
    ``provisional``: ``state_doc`` is a stopped run's board as it stands (``now.yaml``,
    docs/protocol.md P4): checked as such, and answers only by their ids and values on it,
    since a run in memory would start mid-round (RUL-P4-1).
    """
    result = Validation()
    problems = state_problems(state_doc, ruleset, provisional=provisional)
    run = run and not provisional
    if problems:
        result.problems.extend(problems)
        return result
    state = GameState.from_dict(state_doc.data)
    subs, problems = collect(docs, state, ruleset)
    result.problems.extend(problems)
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is not None:
            result.problems.extend(house_problems(section, state, ruleset))
    result.problems.extend(answer_id_problems(subs, state, ruleset))
    if not result.problems and subs.answers and run:
        # adjudicate's own refusals first; then what the board refuses beyond its first stop
        result.problems.extend(answer_run_problems(subs, state, ruleset)
                               or answer_value_problems(subs, state, ruleset))
    if not result.problems:
        for house in state.order_of_play():
            if house in subs.sections and state.phase == "westeros":
                result.warnings.extend(early_order_warnings(subs.sections[house], state, ruleset))
        result.warnings.extend(support_warnings(subs, state, ruleset))
        result.warnings.extend(plan_warnings(subs, state, ruleset))
        result.warnings.extend(bid_warnings(subs, state, ruleset))
        result.warnings.extend(empty_submission_warnings(docs))
    return result


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


def run_round(subs: Submissions, state: GameState, ruleset: Ruleset, nmr: Sequence[str] = (),
              defaults: bool = False,
              recorded: dict[str, Any] | None = None) -> tuple[Inputs, Result]:
    """Resolve checked submissions (R2–R13); :class:`IllegalInput` for the direct answers the
    engine refuses: an illegal one when it is asked, and, when the round completes, one that
    no decision asked for (P1). ``adjudicate`` and ``validate`` both run this. ``recorded``:
    the defaults of the round's ledger (P2)."""
    inputs, answers = engine_inputs(subs)
    try:
        result = resolve(ruleset, state, inputs, answers, nmr=tuple(nmr), defaults=defaults,
                         recorded=recorded)
    except AnswerError as exc:
        raise IllegalInput(exc.problems) from None
    if result.status == "complete" and result.unused_answers:
        raise IllegalInput([subs.answers[a].source.problem(Msg(
            "answer to {id} was never asked for (a typo, or stale?)", id=a)) for a in
            result.unused_answers])
    return inputs, result


def answer_run_problems(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """The direct answers ``agot adjudicate`` refuses on this run, found by running it in memory.

    A direct answer is checked by the engine when its decision is asked, on the
    board as it is then (P1): an illegal value, or, when the round completes, an
    answer no decision asked for. Only those refusals are reported; nothing of the
    run's outcome is shown and nothing is written. Answers to decisions after the
    first stop are checked only by :func:`answer_value_problems` (RUL-P1-3).
    """
    try:
        run_round(subs, state, ruleset)
    except IllegalInput as exc:
        return list(exc.problems)
    return []


def bid_warnings(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """Track bids and a wildling bid that fit the power alone but not together (R7.3, R8.1).

    A Clash of Kings revealed before a Wildling Attack (first edition: decks II and
    III) resolves first and its bids are paid at once: a wildling bid above what is
    left no longer fits and is asked again. Whether both come this round is in the
    decks, which are secret; the warning says "if".
    """
    warnings: list[Problem] = []
    if state.phase != "westeros" or state.round <= ruleset.start_round:
        return warnings
    for house in state.order_of_play():
        section = subs.sections.get(house)
        if section is None or section.bids is None or section.wildlings is None:
            continue
        power = state.houses[house].power
        total = sum(section.bids.get(t, 0) for t in TRACKS)
        if total + section.wildlings > power:
            warnings.append(section.sources["wildlings"].problem(Msg(
                "{house} bids {total} on the influence tracks and {bid} against the wildlings, "
                "{sum} in all, but has {power} available power: if a Clash of Kings comes "
                "before a Wildling Attack this round, the track bids are paid first and this "
                "wildling bid is asked again (R7.3, R8.1)", house=house, total=total,
                bid=section.wildlings, sum=total + section.wildlings, power=power)))
    return warnings


def empty_submission_warnings(docs: Sequence[Document]) -> list[Problem]:
    """A house file that submits nothing (an unfilled ``agot template``): the engine will ask."""
    return [doc.problem(["house"], Msg("{house} submits nothing here (no orders, bids, plans or "
                                       "answers): its decisions will be asked for",
                                       house=doc.data["house"]))
            for doc in docs if "house" in doc.data
            and not any(k in doc.data for k in SECTION_KEYS) and not doc.data.get("answers")]


def check_output(output: str, inputs: Sequence[str], *, in_place: bool = False) -> None:
    """Refuse to write an output over an input unless ``in_place`` (docs/protocol.md P4)."""
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
    doc = read_yaml(path)
    problems = schema_problems(doc, "state")
    if problems:
        raise MalformedInput(problems)
    return GameState.from_dict(doc.data), state_problems(doc, ruleset)
