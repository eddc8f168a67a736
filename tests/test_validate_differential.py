"""``agot validate`` agrees with ``agot adjudicate`` (issue 14, item 2; RUL-P1-2, RUL-P1-3).

Many seeded submissions, legal ones from the random players of
:mod:`agot_adjudicator.workflow.autoplay` and mutated ones (orders moved, bids
raised, plans pointing at wrong areas, answers with wrong ids, shapes, houses
or values), go in process to both :func:`validate_docs` and
:func:`adjudicate_docs` on states of every phase a round starts in (round 1's
planning phase, a later round's Westeros phase, and that round's planning phase
after the cards). The verdicts must agree:

- validate reports an error iff adjudicate refuses the input (exit 1) once every
  decision is reached (``--defaults``); every problem adjudicate reports on the
  run as it is is one of validate's, same location, same words;
- a plan entry a mutation pointed where it can never apply is a validate
  warning located at that entry, and adjudicate never refuses it (it drops it or
  asks again);
- a march plan that adjudicate asks again because its destination can never be
  reached from its origin is one validate warned about.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from agot_adjudicator.engine.context import Context, Inputs
from agot_adjudicator.engine.decisions import Decider
from agot_adjudicator.engine.westeros import resolve_westeros_phase
from agot_adjudicator.errors import IllegalInput, Problem
from agot_adjudicator.io.reading import Document, parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.adjudicate import adjudicate_docs
from agot_adjudicator.workflow.autoplay import (
    ORDERS_FORMAT,
    Driver,
    GameRecord,
    RandomPlayer,
    own_areas,
)
from agot_adjudicator.workflow.validate import validate_docs

SEEDS = range(6)
NEVER_ASKED = "was never asked for (a typo, or stale?)"
MUTANTS_PER_STATE = 14

Data = dict[str, Any]
Mutation = Callable[[random.Random, GameState, Ruleset, list[Data]], "str | None"]
"""Changes the submissions in place; returns the JSON path of a plan it made useless, ``""``
for any other change, or None when it does not apply."""


def located(name: str, data: Data) -> Document:
    """A document parsed from its YAML text, so that problems carry line and column."""
    return parse_text(name, yaml.safe_dump(data, sort_keys=False).encode())


def planning_after_cards(state: GameState, ruleset: Ruleset) -> GameState:
    """The board the orders are for: ``state``'s Westeros phase resolved with the defaults."""
    s = state.copy()
    resolve_westeros_phase(Context(ruleset, s, Inputs(), Decider(defaults=True)))
    return s


def house_doc(docs: list[Data], rng: random.Random, key: str | None = None) -> Data | None:
    mine = [d for d in docs if "house" in d and (key is None or key in d)]
    return rng.choice(mine) if mine else None


# --- mutations --------------------------------------------------------------------------------

def move_order(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng, "orders")
    if doc is None or not doc["orders"]:
        return None
    area = rng.choice(sorted(doc["orders"]))
    token = doc["orders"].pop(area)
    doc["orders"][rng.choice(rs.area_ids)] = token or rng.choice(list(rs.order_tokens))
    return ""


def swap_token(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng, "orders")
    if doc is None or not doc["orders"]:
        return None
    doc["orders"][rng.choice(sorted(doc["orders"]))] = rng.choice(list(rs.order_tokens))
    return ""


def raise_bid(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng)
    if doc is None:
        return None
    power = state.houses[doc["house"]].power
    if rng.random() < 0.5:
        doc["bids"] = {t: rng.randint(0, power + 2) for t in TRACKS}
    else:
        doc["wildlings"] = rng.randint(0, power + 2)
    return ""


def far_march(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng, "plans")
    marches = (doc or {}).get("plans", {}).get("marches")
    if not marches:
        return None
    i = rng.randrange(len(marches))
    origin = marches[i]["from"]
    far = [a for a in rs.area_ids if a != origin and a not in rs.areas[origin].adjacent
           and rs.areas[a].is_sea == rs.areas[origin].is_sea
           and (rs.areas[origin].is_sea or not any(rs.areas[s].is_sea for s in rs.areas[a].adjacent))]
    dest = rng.choice(far)
    unit = "ship" if rs.areas[origin].is_sea else "footman"
    marches[i]["moves"] = {dest: [unit]}
    return f"$.plans.marches[{i}].moves.{dest}"


def land_raid_at_sea(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng, "plans")
    raids = (doc or {}).get("plans", {}).get("raids")
    land = [i for i, r in enumerate(raids or []) if rs.areas[r["from"]].is_land
            and any(rs.areas[a].is_sea for a in rs.areas[r["from"]].adjacent)]
    if not land:
        return None
    i = rng.choice(land)
    origin = raids[i]["from"]
    raids[i]["targets"] = [rng.choice([a for a in rs.areas[origin].adjacent if rs.areas[a].is_sea])]
    return f"$.plans.raids[{i}].targets[0]"


def plan_without_order(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng, "orders")
    if doc is None:
        return None
    free = [a for a in own_areas(state, rs, doc["house"]) if doc["orders"].get(a) is None
            and a not in doc["orders"]] + [a for a in rs.area_ids if a not in doc["orders"]]
    area = free[0] if rng.random() < 0.5 else rng.choice(free)
    plans = doc.setdefault("plans", {})
    plans.pop("raven", None)
    kind = rng.choice(["support", "marches", "raids"])
    if kind == "support":
        plans.setdefault("support", {})[area] = [doc["house"]]
        return f"$.plans.support.{area}"
    entries = [e for e in plans.get(kind, []) if e["from"] != area]
    entries.append({"from": area, "moves": {}} if kind == "marches" else {"from": area, "targets": []})
    plans[kind] = entries
    return f"$.plans.{kind}[{len(entries) - 1}].from"


def wrong_plan_ids(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng)
    if doc is None:
        return None
    plans = doc.setdefault("plans", {})
    choice = rng.randrange(3)
    if choice == 0:
        plans["musters"] = {rng.choice(rs.area_ids): ["footman"]}
    elif choice == 1:
        plans["house_cards"] = [{"priority": [rng.choice(list(rs.house_cards))]}]
    else:
        plans["tie_break"] = [rng.choice(list(rs.houses)) for _ in range(3)]
    return ""


def foreign_answer(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    doc = house_doc(docs, rng)
    others = [h for h in state.order_of_play() if doc is not None and h != doc["house"]]
    if not others:
        return None
    doc.setdefault("answers", {})[f"r{state.round}/orders/{rng.choice(others)}"] = {}
    return ""


def stale_answer(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    house = rng.choice(state.order_of_play())
    ids = [f"r{state.round + 1}/orders/{house}", f"r{state.round}/orders/nobody",
           f"r{state.round}/raid@atlantis/{house}"]
    docs.append({"format": ORDERS_FORMAT, "round": state.round,
                 "answers": {rng.choice(ids): None}})
    return ""


def misshapen_answer(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    house = rng.choice(state.order_of_play())
    answer_id, value = rng.choice([
        (f"r{state.round}/orders/{house}", ["march_0"]),
        (f"r{state.round}/clash_of_kings/iron_throne/bid/{house}", "three"),
        (f"r{state.round}/raven/{house}", {"area": True})])
    docs.append({"format": ORDERS_FORMAT, "round": state.round, "answers": {answer_id: value}})
    return ""


def orders_answer(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    """The house's orders as a direct answer (moved to the moderator's file), maybe changed."""
    doc = house_doc(docs, rng, "orders")
    if doc is None or state.phase != "planning":
        return None
    orders = doc.pop("orders")
    if orders and rng.random() < 0.7:
        area = rng.choice(sorted(orders))
        orders[area] = rng.choice(list(rs.order_tokens))
    docs.append({"format": ORDERS_FORMAT, "round": state.round,
                 "answers": {f"r{state.round}/orders/{doc['house']}": orders}})
    return ""


def bid_answers(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    if state.phase != "westeros" or state.round == 1:
        return None
    house = rng.choice(state.order_of_play())
    power = state.houses[house].power
    answers = {f"r{state.round}/clash_of_kings/{t}/bid/{house}": rng.randint(0, power)
               for t in TRACKS if rng.random() < 0.7}
    if not answers:
        return None
    docs.append({"format": ORDERS_FORMAT, "round": state.round, "answers": answers})
    return ""


def answer_elsewhere(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    """A moderator's answer moved into a house's file: its own (legal) or another's."""
    answers = next((d["answers"] for d in docs if "house" not in d and d.get("answers")), None)
    if not answers:
        return None
    answer_id = rng.choice(sorted(answers))
    doc = house_doc(docs, rng)
    if doc is None:
        return None
    doc.setdefault("answers", {})[answer_id] = answers.pop(answer_id)
    return ""


def answer_off_options(rng: random.Random, state: GameState, rs: Ruleset, docs: list[Data]) -> str | None:
    """A moderator's answer replaced by a value outside the decision's options, or a random id."""
    answers = next((d["answers"] for d in docs if "house" not in d and d.get("answers")), None)
    if not answers:
        return None
    answer_id = rng.choice(sorted(answers))
    value = answers[answer_id]
    if isinstance(value, bool):
        answers[answer_id] = not value
    elif isinstance(value, int):
        answers[answer_id] = value + rng.randint(1, 30)
    elif isinstance(value, str):
        answers[answer_id] = rng.choice([*rs.area_ids, *rs.house_cards, *rs.houses])
    elif isinstance(value, list):
        answers[answer_id] = [*value, rng.choice([*rs.area_ids, "footman", "knight", "ship"])]
    else:
        answers[answer_id] = None
    return ""


MUTATIONS: list[Mutation] = [answer_elsewhere, answer_off_options, move_order, swap_token,
                             raise_bid, far_march, land_raid_at_sea, plan_without_order,
                             wrong_plan_ids, foreign_answer, stale_answer, misshapen_answer,
                             orders_answer, bid_answers]


# --- the comparison ---------------------------------------------------------------------------

def refusal(state_doc: Document, docs: list[Document], rs: Ruleset, defaults: bool) -> \
        tuple[list[Problem] | None, Any]:
    try:
        run = adjudicate_docs(state_doc, docs, rs, defaults=defaults)
    except IllegalInput as exc:
        return exc.problems, None
    return None, run


def compare(state: GameState, docs_data: list[Data], rs: Ruleset, useless: str | None,
            tally: Counter) -> None:
    """Both verdicts on one input; ``useless``: the path of a plan entry that can never apply."""
    state_doc = located("state.yaml", state.to_dict(rs))
    docs = [located(f"orders-{i}.yaml", d) for i, d in enumerate(docs_data)]
    if any(schema_problems(d, "orders") for d in docs):
        tally["schema-invalid (skipped)"] += 1
        return
    checked = validate_docs(state_doc, docs, rs)
    now, run = refusal(state_doc, docs, rs, defaults=False)
    eventually, _ = refusal(state_doc, docs, rs, defaults=True)
    what = f"{state.phase} round {state.round}; submissions {docs_data}"
    assert not checked.problems or eventually, (
        f"validate refuses {[str(p) for p in checked.problems]}, adjudicate does not: {what}")
    if eventually and all(p.message.endswith(NEVER_ASKED) for p in eventually):
        # RUL-P1-3 (b): whether a decision comes at all is not on the board
        tally["never asked (validate cannot know)"] += 1
    else:
        assert bool(eventually) == bool(checked.problems), (
            f"adjudicate refuses {[str(p) for p in eventually or []]}, validate does not: {what}")
    if now:
        missing = [str(p) for p in now if p not in checked.problems]
        assert not missing, f"adjudicate refuses {missing}, validate does not say so: {what}"
    tally["refused" if checked.problems else "accepted"] += 1
    if useless and not checked.problems:
        assert any(w.path == useless for w in checked.warnings), (
            f"no warning at {useless}: {[str(w) for w in checked.warnings]}: {what}")
        tally["useless plan warned"] += 1
    if run is not None and not checked.problems:
        warned = {(w.file, w.path) for w in checked.warnings}
        for pending in run.result.pending:
            request = pending.request
            if request.kind == "march" and pending.reason and "never" in pending.reason:
                assert any(path.startswith("$.plans.marches") for _, path in warned), what
            if pending.reason:
                tally["asked again"] += 1


def answered(state: GameState, docs: list[Data], rs: Ruleset, player: RandomPlayer,
             stops: int) -> list[Data]:
    """``docs`` with a moderator's file answering the decisions of up to ``stops`` stops."""
    docs = copy.deepcopy(docs)
    answers: Data = {}
    docs.append({"format": ORDERS_FORMAT, "round": state.round, "answers": answers})
    state_doc = located("state.yaml", state.to_dict(rs))
    for _ in range(stops):
        run = adjudicate_docs(state_doc, [located(f"o{i}.yaml", d) for i, d in enumerate(docs)],
                              rs)
        if run.result.status == "complete":
            break
        for pending in run.result.pending:
            answers[pending.request.id] = player.answer(pending, run.result.state)
    return docs


def states(seed: int, rs: Ruleset) -> list[GameState]:
    """Round 1 (planning), round 2 in its Westeros phase and after the cards."""
    players = 3 + seed % 3
    driver = Driver(seed, players, rs, nmr_rate=0.0, determinism_rate=0.0)
    first = driver.new_state()
    second = driver.play_round(first, GameRecord(seed, players))
    return [first, second, planning_after_cards(second, rs)]


@pytest.mark.parametrize("seed", SEEDS)
def test_validate_agrees_with_adjudicate(ruleset: Ruleset, seed: int) -> None:
    rng = random.Random(f"validate-differential:{seed}")
    tally: Counter = Counter()
    for state in states(seed, ruleset):
        driver = Driver(seed + 100, len(state.houses), ruleset, plan_rate=0.8)
        legal = driver.submissions(state)
        compare(state, legal, ruleset, None, tally)
        stopped = answered(state, legal, ruleset, driver.player, rng.randint(1, 4))
        compare(state, stopped, ruleset, None, tally)
        for _ in range(MUTANTS_PER_STATE):
            docs = copy.deepcopy(legal if rng.random() < 0.5 else stopped)
            mutation = rng.choice(MUTATIONS)
            useless = mutation(rng, state, ruleset, docs)
            if useless is not None:
                tally[mutation.__name__] += 1
                compare(state, docs, ruleset, useless or None, tally)
    print(seed, dict(sorted(tally.items())))
    assert tally["refused"] and tally["accepted"], tally
