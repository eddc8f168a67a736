"""Board facts shared by every part of the round: control, power, supply, ship transport."""

from __future__ import annotations

from collections.abc import Callable

from agot_adjudicator.engine.context import Context, GameOver
from agot_adjudicator.model.ruleset import Ruleset, supply_fits
from agot_adjudicator.model.state import GameState, sort_units

UNIT_STRENGTH = {"footman": 1, "knight": 2, "ship": 1}
"""Strength of a standing unit in battle (R6.3)."""

LOSS_ORDER = ("footman", "ship", "knight")
"""Default order of unit types to lose (casualties R6.7, supply R3.4, wildlings R8.4): cheapest
mustering cost first. The one definition; plans may give another order."""


def controller(state: GameState, ruleset: Ruleset, area_id: str) -> str | None:
    """The house that controls a land area (R13.1, R5.6), or None; sea areas: None."""
    area = ruleset.areas[area_id]
    if area.is_sea:
        return None
    here = state.areas.get(area_id)
    if here is not None:
        if here.units and here.house is not None:
            return here.house
        if here.power_token is not None:
            return here.power_token
        if here.neutral_force is not None:
            return None
    if area.home_of in state.houses:
        return area.home_of
    return None


def controlled_areas(state: GameState, ruleset: Ruleset, house: str) -> list[str]:
    """Land areas controlled by ``house``, in the fixed id order."""
    return [a for a in ruleset.area_ids if controller(state, ruleset, a) == house]


def castle_count(state: GameState, ruleset: Ruleset, house: str) -> int:
    """Areas with a castle (city or stronghold) that ``house`` controls (R11, R13.1): the one
    home of this count (the victory checks, the reports, the pictures and the site read it)."""
    return castle_counts(state, ruleset).get(house, 0)


def castle_counts(state: GameState, ruleset: Ruleset) -> dict[str, int]:
    """House in play → the areas with a castle it controls (R11, R13.1), in order of play; the
    controller of each castle area looked up once.

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> from agot_adjudicator.engine.setup import new_game
    >>> rs = load_ruleset()
    >>> castle_counts(new_game(rs, list(rs.houses), 1, "t"), rs)
    {'baratheon': 1, 'lannister': 1, 'stark': 2, 'tyrell': 1, 'greyjoy': 1}
    """
    owners = [controller(state, ruleset, a) for a in ruleset.area_ids if ruleset.areas[a].castle]
    return {house: owners.count(house) for house in state.order_of_play()}


def barrels(state: GameState, ruleset: Ruleset, house: str) -> int:
    """Supply icons in the areas ``house`` controls (R3.4), capped at the top of the track."""
    total = sum(ruleset.areas[a].supply for a in controlled_areas(state, ruleset, house))
    return min(total, ruleset.max_supply_level())


def power_tokens_on_board(state: GameState, house: str) -> int:
    return sum(1 for a in state.areas.values() if a.power_token == house)


def power_gain(state: GameState, ruleset: Ruleset, house: str, amount: int) -> int:
    """How much of ``amount`` power ``house`` can gain now (R10.1): what keeps its available
    power within 20 and its tokens, available and on the board, within its 20."""
    hs = state.houses[house]
    pool = ruleset.power_tokens_per_house - hs.power - power_tokens_on_board(state, house)
    return max(0, min(amount, ruleset.max_power - hs.power, pool))


def gain_power(ctx: Context, house: str, amount: int) -> int:
    """Give ``house`` up to ``amount`` power from the pool (R10.1); return what it got."""
    gained = power_gain(ctx.state, ctx.ruleset, house, amount)
    ctx.state.houses[house].power += gained
    return gained


def crowns(state: GameState, ruleset: Ruleset, house: str) -> int:
    """The power (crown) icons of the land areas ``house`` controls (R3.8, R13.1)."""
    return sum(ruleset.areas[a].power for a in controlled_areas(state, ruleset, house))


def armies(state: GameState, house: str) -> list[int]:
    """Unit counts per area of ``house`` (every area; sizes < 2 are not armies, R9.1)."""
    counts = unit_counts(state, house)
    return [counts[a] for a in sorted(counts)]


def within_supply(state: GameState, ruleset: Ruleset, house: str,
                  counts: dict[str, int] | None = None) -> bool:
    """Whether ``house``'s armies fit its supply level (R9.2).

    ``counts`` (area → unit count) replaces the board's counts when given.
    """
    sizes = armies(state, house) if counts is None else [counts[a] for a in sorted(counts)]
    level = min(state.houses[house].supply, ruleset.max_supply_level())
    return supply_fits(ruleset, level, sizes)


def unit_counts(state: GameState, house: str) -> dict[str, int]:
    """Area → number of ``house``'s units there."""
    return {a: len(s.units) for a, s in state.areas.items() if s.house == house and s.units}


def sea_reach(ruleset: Ruleset, origin: str,
              carries: Callable[[str], bool] | None = None) -> list[str]:
    """Land areas a chain of sea areas links to land area ``origin`` (ship transport, R5.4), in
    id order; ``carries(sea)`` says which seas hold a ship of the moving house (default: every
    sea, the board's links whatever the ships). ``origin`` itself is not included, a direct
    neighbour only when a chain reaches it too.

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> sea_reach(load_ruleset(), "pyke", lambda sea: sea == "ironmans_bay")
    ['flints_finger', 'greywater_watch', 'riverrun', 'seagard']
    """
    def usable(sea: str) -> bool:
        return ruleset.areas[sea].is_sea and (carries is None or carries(sea))

    seen = [a for a in ruleset.areas[origin].adjacent if usable(a)]
    for sea in seen:  # grows while it is read: a breadth-first walk of the usable seas
        seen.extend(a for a in ruleset.areas[sea].adjacent if a not in seen and usable(a))
    linked = [land for sea in seen for land in ruleset.areas[sea].adjacent
              if ruleset.areas[land].is_land and land != origin]
    return [a for a in ruleset.area_ids if a in linked]


def transport_reach(state: GameState, ruleset: Ruleset, house: str, origin: str) -> list[str]:
    """Land areas reachable from land area ``origin`` by ship transport (R5.4), in id order:
    chains of sea areas each holding a ship of ``house`` (:func:`sea_reach`)."""
    def has_own_ship(sea: str) -> bool:
        here = state.area(sea)
        return here.house == house and "ship" in here.units

    return sea_reach(ruleset, origin, has_own_ship)


def order_reach(ruleset: Ruleset, area_id: str) -> list[str]:
    """Areas a Raid or Support order in ``area_id`` acts on (R5.2, R6.2), in id order: the
    adjacent areas (rivers do not matter, R5.11; ship transport never counts, R5.4), and from
    land only land areas (a raid from land never reaches the sea; footmen and knights never
    support a battle at sea).

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> order_reach(load_ruleset(), "the_golden_sound")
    ['lannisport', 'riverrun', 'searoad_marches', 'ironmans_bay', 'sunset_sea']
    """
    area = ruleset.areas[area_id]
    return [a for a in ruleset.area_ids
            if a in area.adjacent and not (area.is_land and ruleset.areas[a].is_sea)]


def destinations(state: GameState, ruleset: Ruleset, house: str, origin: str, unit: str) -> list[str]:
    """Areas a unit of ``house`` in ``origin`` may move to (R5.3, R5.4, R5.11), in id order: ships
    to adjacent seas; footmen and knights to adjacent land areas not across a river without a
    bridge, and by ship transport."""
    area = ruleset.areas[origin]
    if unit == "ship":
        return [a for a in ruleset.area_ids if a in area.adjacent and ruleset.areas[a].is_sea]
    direct = [a for a in area.march_adjacent if ruleset.areas[a].is_land]
    by_sea = transport_reach(state, ruleset, house, origin) if area.is_land else []
    return [a for a in ruleset.area_ids if a in direct or a in by_sea]


def can_ever_move(ruleset: Ruleset, origin: str, destination: str) -> bool:
    """Whether some march could ever move a unit from ``origin`` to ``destination`` (R5.3, R5.4,
    R5.11), whatever the ships on the board: between adjacent seas, or from land to an adjacent
    land area not across a river without a bridge or to one a chain of sea areas reaches.

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> rs = load_ruleset()
    >>> can_ever_move(rs, "pyke", "oldtown"), can_ever_move(rs, "harrenhal", "the_eyrie")
    (True, False)
    """
    here, there = ruleset.areas[origin], ruleset.areas[destination]
    if here.is_sea or there.is_sea:
        return here.kind == there.kind and destination in here.adjacent
    return destination in here.march_adjacent or destination in sea_reach(ruleset, origin)


def check_instant_win(ctx: Context) -> None:
    """R11.2: a house controlling 7 castle areas (8 with 3 players) wins at once."""
    need = ctx.ruleset.instant_win_castles.get(ctx.state.players, 7)
    for house, count in castle_counts(ctx.state, ctx.ruleset).items():
        if count >= need:
            ctx.state.winner = {"houses": [house], "reason": "instant_win",
                                "round": ctx.state.round, "castles": {house: count}}
            ctx.state.phase = "ended"
            ctx.emit("game_won", "R11.2", houses=[house], castles=count)
            clear_board(ctx)
            raise GameOver(house)


def clear_board(ctx: Context) -> None:
    """The game ended at once (R11.2): remove the orders left on the board (as R5.10) and stand
    routed units up (as R6.10), so the final state is a valid state file."""
    removed = {}
    for area_id in ctx.ruleset.area_ids:
        here = ctx.state.areas.get(area_id)
        if here is None:
            continue
        if here.order is not None:
            removed[area_id], here.order = here.order, None
        if here.routed:
            ctx.emit("units_stand_up", "R6.10", area=area_id, house=here.house,
                     units=sort_units(here.routed))
            here.routed = []
    if removed:
        ctx.emit("orders_removed", "R11.2", orders=removed)
