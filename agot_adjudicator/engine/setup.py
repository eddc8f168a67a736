"""A new game's starting state (R1, R12)."""

from __future__ import annotations

from agot_adjudicator.engine.chance import shuffle
from agot_adjudicator.model.ruleset import DECKS, TRACKS, Ruleset
from agot_adjudicator.model.state import AreaState, GameState, HouseState, NeutralForce, sort_units

UNIT_STRENGTH = {"footman": 1, "knight": 2, "ship": 1}
"""Combat strength of a standing unit (R6.3); also the R12.2 neutral strength."""


def full_deck(ruleset: Ruleset, deck: str) -> list[str]:
    """The cards of ``deck`` in data order (before any shuffle)."""
    return [c.card for c in ruleset.decks[deck] for _ in range(c.count)]


def new_game(ruleset: Ruleset, houses: list[str], seed: int, game_id: str) -> GameState:
    """The starting state for the given houses in play (R1, R12), decks shuffled from ``seed``.

    The game starts at round 1 in the planning phase (R2.1: round 1 has no
    Westeros phase). Houses not in play leave their starting units as neutral
    forces (R12.2) and no influence tokens; tracks close their gaps (R12.3).
    """
    in_play = [h for h in ruleset.houses if h in houses]
    tracks = {t: [h for h in ruleset.tracks_five_players[t] if h in in_play] for t in TRACKS}
    areas: dict[str, AreaState] = {}
    for area_id, strength in ruleset.neutral_forces.items():
        areas[area_id] = AreaState(neutral_force=NeutralForce(strength))
    for house in ruleset.houses:
        for area_id, units in ruleset.house_setup[house].units.items():
            if house in in_play:
                areas[area_id] = AreaState(house=house, units=sort_units(list(units)))
            else:
                strength = sum(UNIT_STRENGTH[u] for u in units)
                areas[area_id] = AreaState(neutral_force=NeutralForce(
                    strength, house, sort_units(list(units))))
    house_states = {
        h: HouseState(power=ruleset.start_power, supply=ruleset.house_setup[h].supply,
                      hand=list(ruleset.cards_by_house[h]))
        for h in in_play
    }
    decks = {}
    counter = 0
    for deck in DECKS:
        decks[deck] = shuffle(full_deck(ruleset, deck), seed, counter, deck)
        counter += 1
    ordered = {a: areas[a] for a in ruleset.area_ids if a in areas}
    return GameState(
        ruleset_name=ruleset.name, ruleset_sha256=ruleset.sha256, game_id=game_id, seed=seed,
        round=ruleset.start_round, phase="planning", tracks=tracks, houses=house_states,
        areas=ordered, decks=decks, wildling_threat=ruleset.start_threat, shuffles=counter,
    )
