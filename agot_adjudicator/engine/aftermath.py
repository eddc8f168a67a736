"""After a battle (R6.7–R6.11): the loser's casualties, the retreats with routing and the
supply limit, and the winning attacker's occupation of the embattled area.

Decisions (ids start with the march key, e.g. ``r3/march@lannisport``): the casualties
and the retreat of a battle, and the units lost to the supply limit on a retreat or a march
(:func:`kept_by_supply`, also asked by :mod:`marches`); see :mod:`battles` for their plans
and defaults.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from agot_adjudicator.engine import board
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Check, Request
from agot_adjudicator.engine.house_cards import (
    Fight,
    opponent,
)
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState, sort_units
from agot_adjudicator.model.text import Msg

# --- casualties ------------------------------------------------------------------------------

def default_units(pool: Sequence[str], count: int) -> list[str]:
    """The ``count`` cheapest units of ``pool`` (footman, ship, knight).

    >>> default_units(["knight", "ship", "footman"], 2)
    ['footman', 'ship']
    """
    ranked = sorted(pool, key=board.LOSS_ORDER.index)
    return sort_units(ranked[:count])


def plan_units(plan: Sequence[Any] | None, pool: Sequence[str], count: int,
               areas: Sequence[str]) -> Any:
    """The units a ``casualties`` plan picks from ``pool`` (or NO_PLAN; a short pick if it
    cannot name ``count`` units, which the request then refuses).

    >>> plan_units(["knight", "footman"], ["footman", "knight", "knight"], 2, ["x"])
    ['knight', 'knight']
    >>> plan_units([{"area": "x", "unit": "footman"}], ["footman", "knight"], 1, ["x"])
    ['footman']
    """
    if plan is None:
        return NO_PLAN
    left = list(pool)
    picked: list[str] = []
    for item in plan:
        if len(picked) == count:
            break
        if isinstance(item, str):
            while item in left and len(picked) < count:
                left.remove(item)
                picked.append(item)
        elif item.get("area") in areas and item.get("unit") in left:
            left.remove(item["unit"])
            picked.append(item["unit"])
    return sort_units(picked)


def _units_check(pool: Sequence[str], count: int) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return Msg("{answer} is not a list of unit types", answer=repr(value))
        if len(value) != count:
            return Msg("{named} units named; exactly {count} must be chosen", named=len(value),
                       count=count)
        left = list(pool)
        for unit in value:
            if unit not in left:
                return Msg("no {unit} left to choose among {pool}", unit=unit,
                           pool=sort_units(list(pool)))
            left.remove(unit)
        return None
    return check


def choose_units(ctx: Context, decision_id: str, kind: str, house: str, pool: Sequence[str],
                 count: int, prompt: Msg, areas: Sequence[str]) -> list[str]:
    """Which ``count`` units of ``pool`` ``house`` loses (asked only when there is a choice)."""
    pool = sort_units(list(pool))
    if count <= 0:
        return []
    if count >= len(pool):
        return list(pool)
    if len(set(pool)) == 1:
        return pool[:count]
    options = sorted({tuple(c) for c in itertools.combinations(pool, count)})
    request = Request(decision_id, house, kind, prompt, tuple(list(o) for o in options),
                      default_units(pool, count), check=_units_check(pool, count),
                      example=default_units(pool, count))
    plan = plan_units(ctx.inputs.plan(house, "casualties"), pool, count, areas)
    return sort_units(list(ctx.ask(request, plan)))


def take_casualties(ctx: Context, fight: Fight, loser: str) -> None:
    """R6.7: the loser loses winner's swords − loser's forts of its fighting units."""
    rs = ctx.ruleset
    winner = opponent(loser)
    swords = rs.house_cards[fight.cards[winner]].swords
    forts = rs.house_cards[fight.cards[loser]].forts
    count = max(0, swords - forts)
    house = fight.house(loser)
    pool = fight.units[loser]
    areas = [fight.area] + ([fight.origin] if loser == "attacker" else [])
    dead = choose_units(ctx, f"{fight.key}/casualties/{house}", "casualties", house, pool,
                        min(count, len(pool)),
                        Msg("you lost the battle in {area}: choose {count} casualties among "
                            "{pool}.", area=fight.area, count=count, pool=sort_units(list(pool))),
                        areas)
    for unit in dead:
        pool.remove(unit)
    if loser == "defender" and dead:
        with ctx.state.edit(fight.area) as here:
            for unit in dead:
                here.units.remove(unit)
    ctx.emit("casualties", "R6.7", house=house, area=fight.area, swords=swords, forts=forts,
             count=count, units=dead)


# --- retreats --------------------------------------------------------------------------------

def kept_by_supply(ctx: Context, house: str, to: str, units: int, leaving: str | None) -> int:
    """How many of ``units`` arriving in ``to`` fit ``house``'s supply (R5.8, R9).

    ``leaving`` is an area the units are leaving (its units of ``house`` are
    not counted).
    """
    counts = board.unit_counts(ctx.state, house)
    if leaving is not None:
        counts.pop(leaving, None)
    for k in range(units, -1, -1):
        trial = dict(counts)
        trial[to] = trial.get(to, 0) + k
        if board.within_supply(ctx.state, ctx.ruleset, house, trial):
            return k
    return 0


def retreat_areas(ctx: Context, fight: Fight) -> list[str]:
    """Legal retreat areas for the defender's survivors (R6.9, R5.4, R5.5), in id order."""
    return retreat_options(ctx.state, ctx.ruleset, fight.house("defender"), fight.area,
                           fight.origin)


def retreat_options(s: GameState, rs: Ruleset, house: str, area: str,
                    origin: str | None = None) -> list[str]:
    """Where ``house``'s units beaten in ``area`` may retreat (R6.9, R5.4, R5.5, R5.11), in id
    order: never across a river without a bridge, which no unit crosses.

    ``origin``, the attacker's origin, is never legal; None when not known yet
    (the order template lists the options before any battle).
    """
    at_sea = rs.areas[area].is_sea
    near = list(rs.areas[area].march_adjacent)
    if not at_sea:
        near += board.transport_reach(s, rs, house, area)
    out = []
    for area_id in rs.area_ids:
        if area_id not in near or area_id == origin:
            continue
        if rs.areas[area_id].is_sea != at_sea:
            continue
        here = s.area(area_id)
        if here.neutral_force is not None:
            continue
        if here.units and here.house != house:
            continue
        if here.power_token is not None and here.power_token != house:
            continue
        out.append(area_id)
    return out


def _destroy(ctx: Context, house: str, area: str, units: Sequence[str], reason: str,
             rule: str) -> None:
    if units:
        ctx.emit("unit_destroyed", rule, house=house, area=area, units=sort_units(list(units)),
                 reason=reason)


def _place_routed(ctx: Context, house: str, area_id: str, units: Sequence[str]) -> None:
    with ctx.state.edit(area_id) as here:
        here.house = house
        here.units = sort_units([*here.units, *units])
        here.routed = sort_units([*here.routed, *units])


def _supply_cut(ctx: Context, fight: Fight, house: str, to: str, units: list[str],
                leaving: str | None) -> list[str]:
    """Survivors after the supply limit (R5.8): the rest are destroyed (a choice if mixed)."""
    keep = kept_by_supply(ctx, house, to, len(units), leaving)
    if keep >= len(units):
        return units
    lost = choose_units(ctx, f"{fight.key}/retreat_losses/{house}", "retreat_losses", house,
                        units, len(units) - keep,
                        Msg("only {count} of your units ({units}) can retreat to {area} within "
                            "your supply limit: choose the ones destroyed.", count=keep,
                            units=units, area=to), [fight.area, to])
    rest = list(units)
    for unit in lost:
        rest.remove(unit)
    _destroy(ctx, house, to, lost, "supply limit on retreat", "R6.9")
    return rest


def attacker_retreats(ctx: Context, fight: Fight) -> None:
    """R6.8/R6.10: a beaten attacker's survivors go back to their origin, routed."""
    house = fight.house("attacker")
    units = _supply_cut(ctx, fight, house, fight.origin, list(fight.units["attacker"]), None)
    if units:
        _place_routed(ctx, house, fight.origin, units)
    ctx.emit("retreat", "R6.8", house=house, area=fight.area, to=fight.origin if units else None,
             units=sort_units(units), routed=True)


def defender_retreats(ctx: Context, fight: Fight) -> None:
    """R6.9/R6.10: a beaten defender's survivors retreat together to one legal area, routed;
    its units already routed there are destroyed; the embattled area is emptied."""
    s = ctx.state
    house = fight.house("defender")
    with s.edit(fight.area) as here:
        _destroy(ctx, house, fight.area, here.routed, "routed units cannot retreat again", "R6.9")
        here.units = []
        order, here.order = here.order, None
        if here.power_token is not None and here.power_token != fight.house("attacker"):
            here.power_token = None
    survivors = list(fight.units["defender"])
    if order is not None:
        ctx.emit("order_removed", "R6.11", area=fight.area, house=house, order=order,
                 by="battle lost")
    if not survivors:
        return
    legal = retreat_areas(ctx, fight)
    if not legal:
        _destroy(ctx, house, fight.area, survivors, "no legal retreat", "R6.9")
        ctx.emit("retreat", "R6.9", house=house, area=fight.area, to=None, units=[],
                 destroyed=survivors)
        return
    losses = {a: len(survivors) - kept_by_supply(ctx, house, a, len(survivors), None)
              for a in legal}
    fewest = min(losses.values())
    options = [a for a in legal if losses[a] == fewest]
    to = options[0]
    if len(options) > 1:
        plan: Any = NO_PLAN
        prefs = (ctx.inputs.plan(house, "retreats") or {}).get(fight.area)
        if prefs is not None:
            fitting = [a for a in prefs if a in options]
            plan = fitting[0] if fitting else (prefs[0] if prefs else NO_PLAN)
        request = Request(f"{fight.key}/retreat/{house}", house, "retreat",
                          Msg("you lost {area}: retreat {units} to one of these areas.",
                              area=fight.area, units=survivors),
                          tuple(options), options[0])
        to = ctx.ask(request, plan)
    kept = _supply_cut(ctx, fight, house, to, survivors, None)
    if kept:
        _place_routed(ctx, house, to, kept)
    lost = list(survivors)
    for unit in kept:
        lost.remove(unit)
    ctx.emit("retreat", "R6.9", house=house, area=fight.area, to=to, units=sort_units(kept),
             destroyed=sort_units(lost), routed=True)


def occupy(ctx: Context, fight: Fight) -> None:
    """R6.11: the winning attacker's units stand in the embattled area."""
    s = ctx.state
    house = fight.house("attacker")
    with s.edit(fight.area) as here:
        if here.power_token is not None and here.power_token != house:
            ctx.emit("power_token_returned", "R5.5", area=fight.area, house=here.power_token)
            here.power_token = None
        here.house = house
        here.units = sort_units(list(fight.units["attacker"]))
        here.routed = []
        here.order = None
    ctx.emit("area_occupied", "R6.11", house=house, area=fight.area, units=here.units)
