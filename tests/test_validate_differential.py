"""``agot validate`` agrees with ``agot adjudicate`` (issue 14, item 2; RUL-P1-2, RUL-P1-3).

Many seeded submissions, legal ones from the random players of
:mod:`autoplay` (tests/autoplay.py) and mutated ones (orders moved, bids
raised, plans pointing at wrong areas, answers with wrong ids, shapes, houses
or values), go in process to both :func:`validate_docs` and
:func:`adjudicate_docs` on states of every phase (round 1's planning phase, round 2's
Westeros phase, its planning phase after the cards, its action phase with the
orders placed: the provisional boards a stopped run leaves). The verdicts must agree:

- every problem adjudicate refuses the run as it is with (exit 1) is one of
  validate's, same location, same words;
- validate reports an error only if adjudicate refuses the input once every
  decision is reached (``--defaults``); one that only such a run meets is an
  answer beyond the first stop, which validate checks for id, house and shape
  (RUL-P1-3);
- a plan entry a mutation pointed where it can never apply is a validate
  warning located at that entry, and adjudicate never refuses it (it drops it or
  asks again);
- a muster or bid plan that adjudicate asks again in the Westeros phase (whose
  reason the board as it stands shows) is one validate warned about.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from autoplay import (
    ORDERS_FORMAT,
    Driver,
    GameRecord,
    RandomPlayer,
    own_areas,
)

from agot_adjudicator.engine.context import Context, HouseInput, Inputs
from agot_adjudicator.engine.decisions import Decider
from agot_adjudicator.engine.planning import resolve_planning_phase
from agot_adjudicator.engine.westeros import resolve_westeros_phase
from agot_adjudicator.errors import IllegalInput, Problem
from agot_adjudicator.io.reading import Document, parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.adjudicate import RunOptions, adjudicate_docs
from agot_adjudicator.workflow.validate import validate_docs

SEEDS = range(10)
VISIBLE_IN_WESTEROS = ("muster", "bid")
"""Plans the Westeros phase asks again only for a reason the board as it stands shows: no card
before a Mustering frees supply, units or seas; the power a wildling bid lacks is the track bids'
(RUL-P1-3)."""
MUTANTS_PER_STATE = 16

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


def action_after_orders(state: GameState, ruleset: Ruleset, player: RandomPlayer) -> GameState:
    """The board of the action phase: ``state``'s planning phase with random legal orders."""
    s = state.copy()
    houses = {h: HouseInput(orders=player.orders(s, h)) for h in s.order_of_play()}
    resolve_planning_phase(Context(ruleset, s, Inputs(houses), Decider(defaults=True)))
    return s


def action_submissions(state: GameState, ruleset: Ruleset, player: RandomPlayer) -> list[Data]:
    """Plans (and no orders) for an action-phase board, made for the orders on it."""
    out = []
    for house in state.order_of_play():
        orders = {a: v.order for a, v in state.areas.items() if v.house == house and v.order}
        plans = player.plans(state, house, orders, 0.8)
        out.append({"format": ORDERS_FORMAT, "round": state.round, "house": house,
                    **({"plans": plans} if plans else {})})
    return out


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
    if not far:
        return None
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
        run = adjudicate_docs(state_doc, docs, rs, RunOptions(defaults=defaults))
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
    if now:
        missing = [str(p) for p in now if p not in checked.problems]
        assert not missing, f"adjudicate refuses {missing}, validate does not say so: {what}"
    elif eventually:
        # The run as it is stops before the refused answer: the answers of decisions beyond
        # the first stop are checked when a run reaches them (RUL-P1-3 b, c).
        assert run.result.status == "pending", what
        tally["refused beyond the stop" + (", validate too" if checked.problems else "")] += 1
    tally["refused" if checked.problems else "accepted"] += 1
    if useless and not checked.problems:
        assert any(w.path == useless for w in checked.warnings), (
            f"no warning at {useless}: {[str(w) for w in checked.warnings]}: {what}")
        tally["useless plan warned"] += 1
    if run is not None and not checked.problems:
        files = {d["house"]: doc.name for d, doc in zip(docs_data, docs, strict=True)
                 if "house" in d}
        for pending in run.result.pending:
            request = pending.request
            if not pending.reason:
                continue
            tally["asked again"] += 1
            if state.phase == "westeros" and request.kind in VISIBLE_IN_WESTEROS:
                assert any(w.file == files.get(request.house) for w in checked.warnings), (
                    f"{request.id} asked again ({pending.reason}) without a warning: {what}")
                tally["asked again, warned"] += 1


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
        # all of a stop's answers together: the bids asked at once stay within the power
        answers.update(player.answer_all(run.result.pending, run.result.state))
    return docs


def states(seed: int, rs: Ruleset) -> list[GameState]:
    """Round 1 (planning), round 2 in its Westeros phase, after the cards, and in its action
    phase (the orders placed)."""
    players = 3 + seed % 3
    driver = Driver(seed, players, rs, nmr_rate=0.0, determinism_rate=0.0)
    first = driver.new_state()
    second = driver.play_round(first, GameRecord(seed, players))
    planning = planning_after_cards(second, rs)
    return [first, second, planning, action_after_orders(planning, rs, driver.player)]


@pytest.mark.parametrize("seed", SEEDS)
def test_validate_agrees_with_adjudicate(ruleset: Ruleset, seed: int) -> None:
    rng = random.Random(f"validate-differential:{seed}")
    tally: Counter = Counter()
    for state in states(seed, ruleset):
        driver = Driver(seed + 100, len(state.houses), ruleset, plan_rate=0.8)
        legal = (action_submissions(state, ruleset, driver.player) if state.phase == "action"
                 else driver.submissions(state))
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
