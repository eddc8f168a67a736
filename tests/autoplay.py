"""Seeded random players that play whole games through the decision protocol and check invariants.

A development tool, not part of the installed package: the tests (``from autoplay import
Driver``; ``tests/`` is on pytest's path), the benchmarks and ``scenarios/games/make_demo.py``
use it.

The driver is a moderator with random players (docs/protocol.md P1): each round it
writes every house's ``agot-orders/1`` submission (random orders, bids and
plans, some of which no longer fit by the time they are used), runs
:func:`agot_adjudicator.workflow.adjudicate.adjudicate_docs`, and while the run stops on
pending decisions it picks a random *legal* answer for each one, adds it to
an ``answers:`` document (or the house's own section) and runs again, until
the round is complete; then it goes on from the next state until the game
ends (R2.2, R11). After every run it checks the invariants of
:func:`state_violations` (R0, R9, R10, R12, R13) and that the inputs were not
mutated; on a sample of runs it re-runs and compares the outputs byte for byte.

Randomness belongs to the driver (``random.Random(seed)``); the engine's own
randomness stays derived from the game seed (docs/protocol.md P3).

Long profile::

    python tests/autoplay.py --games 1000 --players 3 4 5 --seed 0
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.engine.board import controlled_areas, destinations
from agot_adjudicator.engine.decisions import PendingDecision, Request
from agot_adjudicator.engine.planning import RESTRICTED_KIND, stars_allowed
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.errors import InputError
from agot_adjudicator.io.reading import Document
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.validation import state_problems
from agot_adjudicator.model.ruleset import DECKS, TRACKS, UNIT_TYPES, Ruleset, supply_fits
from agot_adjudicator.model.state import GameState, without
from agot_adjudicator.render.report import render_log, render_pending
from agot_adjudicator.workflow.adjudicate import Adjudication, RunOptions, adjudicate_docs

MAX_RUNS_PER_ROUND = 200
"""A round that needs more re-runs than this is reported as stuck (an invariant)."""

ORDERS_FORMAT = "agot-orders/1"


class InvariantViolation(AssertionError):
    """An invariant broke; the message names the seed, the players and the round to reproduce."""


# --- invariants --------------------------------------------------------------------------------

def state_violations(state: GameState, ruleset: Ruleset, *, complete: bool,
                     schema: bool = True, supply: bool = True) -> list[str]:
    """Broken invariants of a state: limits (R0.3, R0.4), placement, tracks (R12.3), cards (R0.5),
    decks (R1.3), supply (R9.2, R5.8: unless ``supply`` is false, at a stop while a Supply card's
    reductions are pending) and, at a phase boundary (``complete``), the app's state checks."""
    out: list[str] = []
    houses = list(state.houses)
    for track in TRACKS:
        if sorted(state.tracks[track]) != sorted(houses):
            out.append(f"{track} track {state.tracks[track]} is not a permutation of {houses}")
    counts = {h: Counter() for h in houses}
    armies: dict[str, list[int]] = {h: [] for h in houses}
    tokens = Counter()
    for area_id, here in state.areas.items():
        area = ruleset.areas[area_id]
        if here.units:
            if here.house not in state.houses:
                out.append(f"{area_id}: units of {here.house}, not a house in play")
                continue
            for unit in here.units:
                if (unit == "ship") != area.is_sea:
                    out.append(f"{area_id}: a {unit} in a {area.kind} area")
            if without(here.units, here.routed) is None:
                out.append(f"{area_id}: routed {here.routed} not among units {here.units}")
            if here.neutral_force is not None:
                out.append(f"{area_id}: units share the area with a neutral force")
            counts[here.house].update(here.units)
            armies[here.house].append(len(here.units))
        elif here.routed:
            out.append(f"{area_id}: routed units without units")
        if here.power_token is not None:
            if area.is_sea:
                out.append(f"{area_id}: a power token at sea (R5.5)")
            if here.units and here.house != here.power_token:
                out.append(f"{area_id}: {here.power_token} power token with {here.house} units")
            tokens[here.power_token] += 1
        if complete and here.order is not None and state.phase != "action":
            out.append(f"{area_id}: order {here.order} left on the board after the round")
    for house in houses:
        hs = state.houses[house]
        for unit in UNIT_TYPES:
            if counts[house][unit] > ruleset.unit_limits[unit]:
                out.append(f"{house}: {counts[house][unit]} × {unit} on the board (R0.4)")
        if not 0 <= hs.power <= ruleset.max_power:
            out.append(f"{house}: available power {hs.power} outside 0..{ruleset.max_power}")
        if hs.power + tokens[house] > ruleset.power_tokens_per_house:
            out.append(f"{house}: {hs.power} available + {tokens[house]} on the board > "
                       f"{ruleset.power_tokens_per_house} power tokens (R0.3)")
        if sorted(hs.hand + hs.discards) != sorted(ruleset.cards_by_house[house]):
            out.append(f"{house}: hand {hs.hand} + discards {hs.discards} are not its 7 cards")
        if not hs.hand:
            out.append(f"{house}: empty hand (R6.12 returns the discards)")
        if not 0 <= hs.supply <= ruleset.max_supply_level():
            out.append(f"{house}: supply level {hs.supply} off the track")
        if supply and not supply_fits(ruleset, hs.supply, armies[house]):
            out.append(f"{house}: armies {sorted(armies[house], reverse=True)} exceed supply "
                       f"{hs.supply} (R9)")
    for deck in DECKS:
        expected = sorted(c.card for c in ruleset.decks[deck] for _ in range(c.count))
        if sorted(state.decks[deck]) != expected:
            out.append(f"deck {deck} is not the ruleset's deck")
    if not 0 <= state.wildling_threat <= ruleset.threat_max:
        out.append(f"wildling threat {state.wildling_threat} outside 0..{ruleset.threat_max}")
    placed = Counter((a.house, a.order) for a in state.areas.values() if a.order is not None)
    for (house, order), n in sorted(placed.items()):
        if n > ruleset.order_tokens[order].count:
            out.append(f"{house}: {n} {order} orders on the board (R0.2)")
    if state.wildling_threat % ruleset.threat_step:
        out.append(f"wildling threat {state.wildling_threat} is not on the track (R0.8)")
    if complete:
        out.extend(end_violations(state, ruleset))
        doc = Document("next-state", state.to_dict(ruleset), "")
        if schema:
            out.extend(f"schema: {p}" for p in schema_problems(doc, "state"))
        out.extend(f"state check: {p}" for p in state_problems(doc, ruleset))
    return out


def controller(state: GameState, ruleset: Ruleset, area_id: str) -> str | None:
    """R13.1 restated independently of the engine: units, else power token, else home (R5.6)."""
    area, here = ruleset.areas[area_id], state.area(area_id)
    if area.is_sea:
        return None
    if here.units:
        return here.house
    if here.power_token is not None:
        return here.power_token
    if here.neutral_force is None and area.home_of in state.houses:
        return area.home_of
    return None


def castles(state: GameState, ruleset: Ruleset) -> Counter:
    """Areas with a castle controlled per house (R11)."""
    return Counter(controller(state, ruleset, a) for a in ruleset.area_ids if ruleset.areas[a].castle)


def end_violations(state: GameState, ruleset: Ruleset) -> list[str]:
    """At a round boundary: no routed units (R6.10); R11.2 not met unless the game ended; the
    winner is the one R11.1 names (or met R11.2)."""
    out = [f"{a}: routed units after the round (R6.10)" for a, here in state.areas.items()
           if here.routed]
    count = castles(state, ruleset)
    needed = ruleset.instant_win_castles[state.players]
    if state.phase != "ended":
        out.extend(f"{h} controls {count[h]} castle areas but the game did not end (R11.2)"
                   for h in state.order_of_play() if count[h] >= needed)
        return out
    winners = list((state.winner or {}).get("houses", []))
    if not winners:
        return [*out, "the game ended without a winner (R11)"]
    if any(count[h] >= needed for h in winners):
        return out
    key = {h: (count[h], state.houses[h].supply, state.houses[h].power) for h in state.houses}
    best = max(key.values())
    expected = sorted(h for h in key if key[h] == best)
    if state.round != ruleset.rounds or sorted(winners) != expected:
        out.append(f"winners {winners} in round {state.round}; R11.1 names {expected} ({key})")
    return out


def event_violations(events: Sequence[dict[str, Any]]) -> list[str]:
    """Broken invariants of a run's events: each track is set in bid order (R7.1), the Night's
    Watch is the sum of the wildling bids, winning on a tie (R8.1, R8.2), and the Blade and the
    Raven serve at most once a round (R4.6, R6.5)."""
    out: list[str] = []
    once = Counter(e["type"] for e in events if e["type"] in (
        "valyrian_steel_blade_used", "raven_swap", "raven_kept"))
    if once["valyrian_steel_blade_used"] > 1 or once["raven_swap"] + once["raven_kept"] > 1:
        out.append(f"the Blade or the Raven used more than once in a round: {dict(once)}")
    bids: dict[str, dict[str, int]] = {}
    for event in events:
        if event["type"] == "bids_revealed":
            bids[event["about"]] = event["bids"]
        elif event["type"] == "track_set":
            given = bids.get(f"clash_of_kings/{event['track']}", {})
            ranked = [given.get(h, 0) for h in event["order"]]
            if ranked != sorted(ranked, reverse=True):
                out.append(f"{event['track']} track {event['order']} is not in bid order {given}")
        elif event["type"] == "nights_watch":
            strength = sum(bids.get("wildlings", {}).values())
            won = event["strength"] >= event["threat"]
            if event["strength"] != strength or event["winner"] != ("nights_watch" if won
                                                                    else "wildlings"):
                out.append(f"night's watch {event} does not follow from bids {bids.get('wildlings')}")
    return out


# --- random players ----------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """Answer values as plain YAML data (tuples become lists)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def own_areas(state: GameState, ruleset: Ruleset, house: str) -> list[str]:
    """Areas holding ``house``'s units, in the fixed area id order."""
    return [a for a in ruleset.area_ids if state.area(a).house == house and state.area(a).units]


@dataclass
class RandomPlayer:
    """Random but legal choices for every kind of decision, from a driver-owned ``random.Random``."""

    rng: random.Random
    ruleset: Ruleset
    aggression: float = 0.5
    """Probability that a moving unit picks a battle (or neutral force) when one is in reach."""

    # Orders and plans written before the round (R4, docs/protocol.md P1) --------------------------
    def orders(self, state: GameState, house: str) -> dict[str, str | None]:
        """Random orders within the tokens (R0.2), ★ limit (R4.2), restrictions (R4.4), R4.3,
        and no Support on an island when the ruleset says so (R4.1, RUL-4.1-2)."""
        rs, rng = self.ruleset, self.rng
        pool = [t for t, tok in rs.order_tokens.items() for _ in range(tok.count)]
        stars = stars_allowed(state, rs, house)
        forbidden = [RESTRICTED_KIND[r] for r in state.restrictions if r in RESTRICTED_KIND]
        out: dict[str, str | None] = {}
        for area_id in own_areas(state, rs, house):
            if rng.random() < 0.08:
                out[area_id] = None
                continue
            fits = [t for t in pool if rs.order_tokens[t].kind not in forbidden
                    and (stars > 0 or not rs.order_tokens[t].special)
                    and not (rs.order_tokens[t].kind == "consolidate_power" and rs.areas[area_id].is_sea)
                    and not (rs.order_tokens[t].kind == "support" and rs.support_forbidden(area_id))]
            if not fits:
                out[area_id] = None
                continue
            weights = [4 if rs.order_tokens[t].kind == "march" else 1 for t in fits]
            token = rng.choices(fits, weights)[0]
            pool.remove(token)
            stars -= rs.order_tokens[token].special
            out[area_id] = token
        return out

    def bids(self, power: int) -> dict[str, int]:
        left, out = power, {}
        for track in TRACKS:
            out[track] = self.rng.randint(0, left)
            left -= out[track]
        return out

    def march(self, state: GameState, house: str, origin: str) -> dict[str, Any]:
        """Random moves of the standing units, at most one battle or attack (R5.3–R5.5)."""
        rs, rng = self.ruleset, self.rng
        here = state.area(origin)
        moves: dict[str, list[str]] = {}
        contested: str | None = None
        standing = here.standing()
        rng.shuffle(standing)
        stay = rng.choice((0.0, 0.3, 0.6))
        for unit in standing:
            if rng.random() < stay:
                continue
            options = []
            for dest in destinations(state, rs, house, origin, unit):
                there = state.area(dest)
                fight = bool(there.units and there.house != house) or there.neutral_force is not None
                if fight and contested not in (None, dest):
                    continue
                options.append((dest, fight))
            if not options:
                continue
            fights = [o for o in options if o[1]]
            dest, fight = rng.choice(fights if fights and rng.random() < self.aggression else options)
            if fight:
                contested = dest
            moves.setdefault(dest, []).append(unit)
        moved = [u for us in moves.values() for u in us]
        rest = without(here.units, moved) or []
        token = (bool(moved) and rs.areas[origin].is_land and not rest and here.power_token != house
                 and state.houses[house].power >= 1 and rng.random() < 0.5)
        return {"moves": moves, "leave_power_token": token}

    def musters(self, state: GameState, house: str, castle: str) -> list[str]:
        """A random list of mustering steps within the castle's points (R3.5)."""
        rs, rng = self.ruleset, self.rng
        points = rs.areas[castle].mustering_points
        seas = [a for a in rs.areas[castle].adjacent if rs.areas[a].is_sea
                and (not state.area(a).units or state.area(a).house == house)]
        out: list[str] = []
        while points > 0 and rng.random() < 0.85:
            choices = ["footman", "upgrade"] + [f"ship:{s}" for s in seas]
            if points >= 2:
                choices.append("knight")
            step = rng.choice(choices)
            out.append(step)
            points -= 2 if step == "knight" else 1
        return out

    def unit_types(self) -> list[str]:
        types = list(UNIT_TYPES)
        self.rng.shuffle(types)
        return types

    def plans(self, state: GameState, house: str, orders: dict[str, str | None] | None,
              rate: float) -> dict[str, Any]:
        """Random plans (docs/protocol.md P1); each kind given with probability ``rate``."""
        rs, rng = self.ruleset, self.rng
        hs = state.houses[house]
        plans: dict[str, Any] = {}

        def maybe(key: str, make: Any) -> None:
            if rng.random() < rate:
                plans[key] = make()

        hand = list(hs.hand)
        others = [h for h in state.order_of_play() if h != house]
        maybe("house_cards", lambda: ([{"against": rng.choice(others), "card": rng.choice(hand)}]
                                      if others and rng.random() < 0.3 else [])
              + [{"priority": rng.sample(hand, len(hand))}])
        maybe("blade", lambda: rng.choice(["auto", "never", "always"]))
        maybe("casualties", self.unit_types)
        maybe("supply_reductions", self.unit_types)
        maybe("wildling_losses", self.unit_types)
        maybe("tie_break", lambda: rng.sample(list(state.houses), len(state.houses)))
        maybe("wildling_reward", lambda: rng.sample(list(rs.cards_by_house[house]), 3))
        if rng.random() < 0.1:
            plans["accept_support"] = False
        mine = own_areas(state, rs, house)
        maybe("retreats", lambda: {a: rng.sample(list(rs.areas[a].adjacent), 1) for a in mine
                                   if rng.random() < 0.5})
        maybe("card_choices", lambda: {c: rng.sample([*rs.area_ids, *rs.house_cards], 3)
                                       for c in rng.sample(hand, min(2, len(hand)))})
        maybe("musters", lambda: {c: self.musters(state, house, c)
                                  for c in controlled_areas(state, rs, house)
                                  if rs.areas[c].castle and rng.random() < 0.7})
        if orders:
            kinds = {a: rs.order_tokens[o].kind for a, o in orders.items() if o is not None}
            maybe("marches", lambda: [{"from": a, **self.march(state, house, a)}
                                      for a, k in kinds.items() if k == "march"])
            maybe("raids", lambda: [{"from": a, "targets": rng.sample(
                list(rs.areas[a].adjacent), min(2, len(rs.areas[a].adjacent)))}
                for a, k in kinds.items() if k == "raid"])
            maybe("support", lambda: {a: rng.sample(list(state.houses), rng.randint(0, 2))
                                      for a, k in kinds.items() if k == "support"})
            if state.holder("kings_court") == house and rng.random() < rate:
                placed = [a for a, o in orders.items() if o is not None]
                plans["raven"] = (None if not placed or rng.random() < 0.5 else
                                  {"area": rng.choice(placed),
                                   "order": rng.choice(list(rs.order_tokens))})
        return {k: v for k, v in plans.items() if v not in ([], {})}

    # Direct answers to pending decisions --------------------------------------------------
    def answer(self, pending: PendingDecision, state: GameState) -> Any:
        """A random legal answer to ``pending`` on ``state`` (the state where the run stopped)."""
        request = pending.request
        for _ in range(30):
            value = _plain(self.candidate(request, state))
            if request.why_illegal(value) is None:
                return value
        value = _plain(request.default)
        why = request.why_illegal(value)
        if why is not None:
            raise InvariantViolation(f"{request.id}: the documented default {value!r} is illegal: "
                                     f"{why}")
        return value

    def answer_all(self, pending: Sequence[PendingDecision], state: GameState) -> dict[str, Any]:
        """Random legal answers to every decision of a stop, by id. The bids one house is asked
        in one stop (every bid of the Westeros phase is asked at once, RUL-3.6-2) together stay
        within its power at the stop."""
        out: dict[str, Any] = {}
        left = {h: hs.power for h, hs in state.houses.items()}
        for p in pending:
            request = p.request
            if request.kind == "bid" and request.options:
                top = min(left[request.house], max(request.options))
                out[request.id] = self.rng.randint(0, top)
                left[request.house] -= out[request.id]
            else:
                out[request.id] = self.answer(p, state)
        return out

    def candidate(self, request: Request, state: GameState) -> Any:
        rng, rs, house = self.rng, self.ruleset, request.house
        kind = request.kind
        parts = request.id.split("/")
        if kind == "orders":
            return self.orders(state, house)
        if kind == "march":
            origin = parts[1].removeprefix("march@")
            return self.march(state, house, origin)
        if kind == "muster":
            return self.musters(state, house, parts[2])
        if kind == "raid":
            options = list(request.options)
            return rng.sample(options, rng.randint(0, min(2, len(options))))
        if kind == "raven":
            mine = [a for a in own_areas(state, rs, house) if state.area(a).order]
            if not mine or rng.random() < 0.4:
                return None
            return {"area": rng.choice(mine), "order": rng.choice(list(rs.order_tokens))}
        if kind in ("supply_reduction", "wildling_losses"):
            if rng.random() < 0.5 or request.example is None:
                return self.unit_types()
            return request.example
        if kind == "tie_break" and not request.options:
            tied = list(request.default)
            return rng.sample(tied, len(tied))
        if request.options:
            return rng.choice(request.options)
        return request.default


# --- the driver --------------------------------------------------------------------------------

@dataclass
class GameRecord:
    """What one game did: rounds played, runs, answers given, the winner."""

    seed: int
    players: int
    rounds: int = 0
    runs: int = 0
    answered: int = 0
    stale_plans: int = 0
    kinds: Counter = field(default_factory=Counter)
    winner: list[str] = field(default_factory=list)
    final: GameState | None = None


def _fingerprint(*data: Any) -> str:
    """Exact text of plain data, to check that the engine did not mutate its inputs."""
    return json.dumps(data, sort_keys=True)


def _answers_moved(docs: Sequence[dict[str, Any]], round_: int) -> list[dict[str, Any]]:
    """The same submissions in reverse file order, every direct answer in one moderator file."""
    answers: dict[str, Any] = {}
    out = []
    for doc in reversed(docs):
        doc = copy.deepcopy(doc)
        answers.update(doc.pop("answers", {}))
        if "house" in doc:
            out.append(doc)
    if answers:
        out.append({"format": ORDERS_FORMAT, "round": round_, "answers": answers})
    return out


def _doc(name: str, data: dict[str, Any]) -> Document:
    """An in-memory document; its SHA-256 (for the hash chain) is of its canonical JSON."""
    digest = hashlib.sha256(_fingerprint(data).encode("utf-8")).hexdigest()
    return Document(name, data, digest)


@dataclass
class Driver:
    """Plays one seeded game to its end through :func:`adjudicate_docs`, checking invariants."""

    seed: int
    players: int
    ruleset: Ruleset
    plan_rate: float = 0.5
    determinism_rate: float = 0.05
    nmr_rate: float = 0.1
    """Probability that one house sends nothing all game and plays by the defaults (``--nmr``)."""
    aggression: float = 0.5
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"agot-autoplay:{self.seed}:{self.players}")
        self.player = RandomPlayer(self.rng, self.ruleset, self.aggression)
        houses = list(self.ruleset.players[self.players])
        self.nmr = (self.rng.choice(houses),) if self.rng.random() < self.nmr_rate else ()

    def fail(self, round_: int, message: str) -> InvariantViolation:
        return InvariantViolation(f"seed {self.seed}, {self.players} players, round {round_}: "
                                  f"{message} (reproduce: python tests/autoplay.py "
                                  f"--games 1 --players {self.players} --seed {self.seed})")

    def new_state(self) -> GameState:
        rs = self.ruleset
        return new_game(rs, list(rs.players[self.players]), self.seed, f"autoplay-{self.seed}")

    def submissions(self, state: GameState) -> list[dict[str, Any]]:
        """Every house's submission for the round, written before it starts."""
        out = []
        for house in state.order_of_play():
            if house in self.nmr:
                continue
            body: dict[str, Any] = {"format": ORDERS_FORMAT, "round": state.round, "house": house}
            orders = None
            if self.rng.random() < self.plan_rate:
                orders = self.player.orders(state, house)
                body["orders"] = orders
            power = state.houses[house].power
            if self.rng.random() < self.plan_rate:
                body["bids"] = self.player.bids(power)
            if self.rng.random() < self.plan_rate:
                body["wildlings"] = self.rng.randint(0, power)
            plans = self.player.plans(state, house, orders, self.plan_rate)
            if plans:
                body["plans"] = plans
            out.append(body)
        return out

    def run(self, state_data: dict[str, Any], docs_data: Sequence[dict[str, Any]],
            round_: int) -> Adjudication:
        """One ``adjudicate`` run; the inputs must come back unchanged."""
        before = _fingerprint(state_data, docs_data)
        try:
            run = adjudicate_docs(_doc("state.yaml", state_data),
                                      [_doc(f"orders-{i}.yaml", d) for i, d in enumerate(docs_data)],
                                      self.ruleset, RunOptions(self.nmr))
        except InputError as exc:
            raise self.fail(round_, f"input refused: {exc}") from None
        except Exception as exc:
            raise self.fail(round_, f"crash: {type(exc).__name__}: {exc}") from exc
        if _fingerprint(state_data, docs_data) != before:
            raise self.fail(round_, "the inputs were mutated")
        return run

    def outputs(self, run: Adjudication, *, chain: bool = True) -> str:
        """What a run writes, for byte comparison: the state's data as JSON (the YAML text is
        a function of it; compared in a subprocess by the tests), the event log, the pending YAML.
        ``chain=False`` leaves out the hash chain, which names the submission files by design."""
        r = run.result
        data = r.state.to_dict(self.ruleset)
        if not chain:
            data.pop("chain", None)
        return _fingerprint(data) + render_log(r.events) + render_pending(r.pending)

    def play_round(self, state: GameState, record: GameRecord) -> GameState:
        """Play one round to completion; return the next state."""
        rs = self.ruleset
        state_data = state.to_dict(rs)
        round_ = state.round
        house_docs = self.submissions(state)
        moderator: dict[str, Any] = {}
        answered: set[str] = set()
        for _ in range(MAX_RUNS_PER_ROUND):
            docs = copy.deepcopy(house_docs)
            if moderator:
                docs.append({"format": ORDERS_FORMAT, "round": round_, "answers": moderator})
            run = self.run(state_data, docs, round_)
            record.runs += 1
            result = run.result
            complete = result.status == "complete"
            schema = complete and (result.state.phase == "ended" or self.rng.random() < 0.3)
            reducing = any(p.request.kind == "supply_reduction" for p in result.pending)
            problems = state_violations(result.state, rs, complete=complete, schema=schema,
                                        supply=not reducing) + event_violations(result.events)
            if problems:
                raise self.fail(round_, f"after {record.runs} runs ({result.status}): "
                                + "; ".join(problems))
            if self.rng.random() < self.determinism_rate:
                again = self.run(copy.deepcopy(state_data), copy.deepcopy(docs), round_)
                if self.outputs(again) != self.outputs(run):
                    raise self.fail(round_, "re-running the same inputs gave different output")
                moved = self.run(state_data, _answers_moved(docs, round_), round_)
                if self.outputs(moved, chain=False) != self.outputs(run, chain=False):
                    raise self.fail(round_, "the same answers in other files (reversed, all in the "
                                    "moderator's file) gave different output")
            if result.status == "complete":
                return result.state
            values = self.player.answer_all(result.pending, result.state)
            for pd in result.pending:
                request = pd.request
                if request.house in self.nmr:
                    raise self.fail(round_, f"{request.id} asked of {request.house}, under --nmr")
                why = request.why_illegal(_plain(request.default))
                if why is not None:
                    raise self.fail(round_, f"{request.id}: the default {request.default!r} is "
                                    f"illegal: {why}")
                pasted = request.example if request.example is not None else request.default
                # musters are checked in turn (an example legal then may not be at the stop)
                why = None if request.kind == "muster" else request.why_illegal(_plain(pasted))
                if why is not None:
                    raise self.fail(round_, f"{request.id}: the ready-to-paste answer {pasted!r} "
                                    f"is illegal: {why}")
                if request.id in answered and not pd.reason:
                    raise self.fail(round_, f"{request.id} was answered and is pending again "
                                    "without a reason")
                if pd.reason:
                    record.stale_plans += 1
                value = values[request.id]
                answered.add(request.id)
                record.answered += 1
                record.kinds[request.kind] += 1
                section = next(d for d in house_docs if d["house"] == request.house)
                if request.id in moderator:
                    moderator[request.id] = value  # asked again with a reason: a new answer
                elif request.id in section.get("answers", {}):
                    section["answers"][request.id] = value
                elif self.rng.random() < 0.5:
                    moderator[request.id] = value
                else:
                    section.setdefault("answers", {})[request.id] = value
        raise self.fail(round_, f"the round did not complete in {MAX_RUNS_PER_ROUND} runs")

    def play(self) -> GameRecord:
        """Play the whole game (R2.2): until round 10 ends or a house wins at once (R11.2)."""
        record = GameRecord(self.seed, self.players)
        state = self.new_state()
        while state.phase != "ended":
            round_ = state.round
            if round_ > self.ruleset.rounds:
                raise self.fail(round_, "the game went past its last round without ending")
            state = self.play_round(state, record)
            record.rounds += 1
            if state.phase != "ended" and state.round != round_ + 1:
                raise self.fail(round_, f"next state is round {state.round}")
        if not state.winner or not state.winner.get("houses"):
            raise self.fail(state.round, "the game ended without a winner (R11)")
        if any(h not in state.houses for h in state.winner["houses"]):
            raise self.fail(state.round, f"winner {state.winner} is not a house in play")
        record.winner = list(state.winner["houses"])
        record.final = state
        return record


def play_game(seed: int, players: int, ruleset: Ruleset | None = None, **options: Any) -> GameRecord:
    """Play one seeded random game to its end; raise :class:`InvariantViolation` on a broken one."""
    return Driver(seed, players, ruleset or load_ruleset(), **options).play()


def main(argv: Sequence[str] | None = None) -> int:
    """The long profile: many random games, a summary; exit 1 on any invariant violation."""
    parser = argparse.ArgumentParser(prog="python tests/autoplay.py",
                                     description="Play seeded random games and check invariants.")
    parser.add_argument("--games", type=int, default=100, help="games to play (over all sizes)")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], choices=[3, 4, 5])
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--plan-rate", type=float, default=0.5,
                        help="probability of giving each plan in advance (else answered directly)")
    parser.add_argument("--determinism-rate", type=float, default=0.05,
                        help="share of runs re-run to compare outputs byte for byte")
    parser.add_argument("--nmr-rate", type=float, default=0.1,
                        help="probability that one house plays a whole game by the defaults (--nmr)")
    parser.add_argument("--aggression", type=float, default=0.5,
                        help="probability that a moving unit attacks when it can")
    args = parser.parse_args(argv)
    rs = load_ruleset()
    start, cpu = time.perf_counter(), time.process_time()
    winners: Counter = Counter()
    kinds: Counter = Counter()
    games = rounds = runs = answered = stale = instant = 0
    failures = 0
    for i in range(args.games):
        seed, players = args.seed + i, args.players[i % len(args.players)]
        try:
            record = play_game(seed, players, rs, plan_rate=args.plan_rate,
                               determinism_rate=args.determinism_rate, nmr_rate=args.nmr_rate,
                               aggression=args.aggression)
        except InvariantViolation as exc:
            failures += 1
            print(f"VIOLATION: {exc}", file=sys.stderr)
            continue
        except Exception as exc:  # a crash outside a run is reported with its seed too
            failures += 1
            print(f"CRASH: seed {seed}, {players} players: {type(exc).__name__}: {exc} "
                  f"(reproduce: --games 1 --players {players} --seed {seed})", file=sys.stderr)
            continue
        games += 1
        rounds += record.rounds
        runs += record.runs
        answered += record.answered
        stale += record.stale_plans
        kinds.update(record.kinds)
        winners.update(record.winner)
        instant += record.final is not None and record.final.winner is not None and \
            record.final.winner.get("reason") == "instant_win"
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"games: {games} completed, {failures} failed")
    print(f"rounds: {rounds}; runs: {runs}; decisions answered: {answered} "
          f"(of which plans that no longer fit: {stale})")
    print("winners: " + ", ".join(f"{h} {n}" for h, n in sorted(winners.items()))
          + f" ({instant} instant wins, R11.2)")
    print("answers by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"elapsed: {elapsed:.1f} s (CPU {cpu:.1f} s); {games / elapsed:.2f} games/s; "
          f"{rounds / elapsed:.1f} rounds/s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
