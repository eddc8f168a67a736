"""State builders and answers shared by the engine-level tests (Westeros, battles, random games)."""

from __future__ import annotations

from typing import Any

from agot_adjudicator.engine.context import Context, Inputs
from agot_adjudicator.engine.decisions import GivenAnswer
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.engine.westeros import resolve_westeros_phase
from agot_adjudicator.errors import Problem
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import AreaState, GameState

FILLER = {"I": "last_days_of_summer", "II": "last_days_of_summer", "III": "last_days_of_summer"}
"""Cards that change nothing but the threat: the top of a deck a test does not care about."""


def westeros_game(ruleset: Ruleset, houses: list[str] | None = None, seed: int = 1,
                  **top: str) -> GameState:
    """A new game moved to round 2's Westeros phase, ``top`` cards (``I="supply"``) on top of
    their decks and Last Days of Summer on the others."""
    s = new_game(ruleset, houses or list(ruleset.houses), seed, "t")
    s.round, s.phase = 2, "westeros"
    put_on_top(s, **top)
    return s


def put_on_top(s: GameState, **cards: str) -> None:
    """Move one copy of the given card to the top of each deck (others: Last Days of Summer)."""
    for deck in ("I", "II", "III"):
        card = cards.get(deck, FILLER[deck])
        s.decks[deck].remove(card)
        s.decks[deck].insert(0, card)


def action_game(ruleset: Ruleset, areas: dict[str, dict[str, Any]]) -> GameState:
    """A 5-player state in the action phase with only ``areas`` on the board; supply 6."""
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    s.areas = {a: AreaState.from_dict(v) for a, v in areas.items()}
    s.phase = "action"
    for hs in s.houses.values():
        hs.supply = 6
    return s


def fight(ruleset: Ruleset, s: GameState, origin: str, target: str, units: list[str], *,
          march: str = "march_0", cards: dict[str, str] | None = None,
          plans: dict[str, dict[str, Any]] | None = None, answers: dict[str, Any] | None = None,
          defaults: bool = True) -> Context:
    """Move ``units`` out of ``origin`` (its order goes with them) and fight for ``target`` (R6);
    ``cards`` become house-card plans; ``defaults`` (on unless a test checks a pending decision)
    answers what plans and ``answers`` do not. Returns the context with the events."""
    from agot_adjudicator.engine.battles import Attack, resolve_battle
    from agot_adjudicator.engine.context import HouseInput
    from agot_adjudicator.engine.decisions import Decider

    attacker = s.area(origin).house
    assert attacker is not None
    with s.edit(origin) as here:
        for u in units:
            here.units.remove(u)
        here.order = None
    plans = {h: dict(p) for h, p in (plans or {}).items()}
    for house, card in (cards or {}).items():
        plans.setdefault(house, {})["house_cards"] = [{"priority": [card]}]
    inputs = Inputs(houses={h: HouseInput(plans=p) for h, p in plans.items()})
    decider = Decider(answers={k: answer(v) for k, v in (answers or {}).items()},
                      defaults=defaults)
    ctx = Context(ruleset, s, inputs, decider)
    resolve_battle(ctx, Attack(f"r1/march@{origin}", attacker, origin, target, tuple(units),
                               march))
    return ctx


def run_westeros(ruleset: Ruleset, s: GameState, inputs: Inputs | None = None,
                 **decider: Any) -> Context:
    """Resolve the Westeros phase of ``s`` in place; the context holds the events."""
    from agot_adjudicator.engine.decisions import Decider

    ctx = Context(ruleset, s, inputs or Inputs(), Decider(**decider))
    resolve_westeros_phase(ctx)
    return ctx


def clear(s: GameState, house: str) -> None:
    """Take every unit and token of ``house`` off the board."""
    for area_id in list(s.areas):
        if s.areas[area_id].house == house:
            del s.areas[area_id]


def put(s: GameState, house: str, area_id: str, *units: str) -> None:
    s.areas[area_id] = AreaState(house=house, units=list(units))


def answer(value: Any, house: str | None = None) -> GivenAnswer:
    """A direct answer as if given in orders.yaml."""
    return GivenAnswer(value, house, lambda msg: Problem("orders.yaml", 1, 1, "$", msg))
