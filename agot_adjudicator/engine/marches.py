"""Marches (R5.3–R5.8): moves, ship transport, power tokens, neutral forces, the supply rule.

Decision ``r3/march@{area}/{house}``: ``{moves: {AREA: [units]}, leave_power_token: bool}``.
Plan: the ``plans.marches`` entry with ``from: AREA``. Default: no move (the
order is removed). A march into another house's units starts a battle
(:mod:`agot_adjudicator.engine.battles`); into a neutral force, an attack (R5.7), which is no
battle: with the ruleset correction ``neutral_attack_beside_battle`` (RUL-5.3-1) one march may
attack neutral forces and also start its one battle. The decisions of a contest start with the
march's key ``r3/march@{origin}``; when one march has several, each neutral attack's start
with ``r3/march@{origin}/neutral@{area}``.
"""

from __future__ import annotations

from typing import Any

from agot_adjudicator.engine import aftermath, battles
from agot_adjudicator.engine.board import (
    UNIT_STRENGTH,
    check_instant_win,
    destinations,
    unit_counts,
    within_supply,
)
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request
from agot_adjudicator.engine.house_cards import Attack
from agot_adjudicator.engine.support import declare_support
from agot_adjudicator.engine.turns import round_robin
from agot_adjudicator.model.state import sort_units, without
from agot_adjudicator.model.text import Msg


def is_contested(ctx: Context, house: str, area_id: str) -> bool:
    """Whether entering ``area_id`` is a battle or a neutral-force attack (R5.3, R5.7)."""
    here = ctx.state.area(area_id)
    return bool(here.units and here.house != house) or here.neutral_force is not None


def march_problem(ctx: Context, house: str, origin: str, value: Any) -> str | None:
    """Why a march answer is illegal (R5.3–R5.8), or None."""
    s, rs = ctx.state, ctx.ruleset
    if not isinstance(value, dict) or not set(value) <= {"moves", "leave_power_token"}:
        return Msg("expected {shape}", shape=MARCH_SHAPE)
    moves = value.get("moves") or {}
    token = value.get("leave_power_token", False)
    if not isinstance(moves, dict) or not isinstance(token, bool):
        return Msg("expected {shape}", shape=MARCH_SHAPE)
    here = s.area(origin)
    moved: list[str] = []
    contested = []
    for dest, units in moves.items():
        if dest not in rs.areas:
            return Msg("no such area '{name}'", name=dest)
        if not isinstance(units, list) or not units or not all(
                u in UNIT_STRENGTH for u in units):
            return Msg("moves.{name}: expected a list of footman, knight, ship", name=dest)
        for unit in units:
            if dest not in destinations(s, rs, house, origin, unit):
                f = {"unit": unit, "origin": origin, "destination": dest}
                if unit != "ship" and dest in rs.areas[origin].rivers:
                    return Msg("a {unit} cannot move from {origin} to {destination}: a river "
                               "without a bridge runs between them (R5.11)", **f)
                return (Msg("a {unit} cannot move from {origin} to {destination} (not an "
                            "adjacent sea area)", **f) if unit == "ship" else
                        Msg("a {unit} cannot move from {origin} to {destination} (not an "
                            "adjacent land area and no ship transport)", **f))
        moved += units
        if is_contested(ctx, house, dest):
            contested.append(dest)
    if without(here.standing(), moved) is None:
        routed = (Msg(" ({count} routed cannot move)", count=len(here.routed)) if here.routed
                  else "")
        return Msg("{origin} has {units} able to move{routed}; cannot move {moved}",
                   origin=origin, units=_units(here.standing()), routed=routed,
                   moved=_units(moved))
    if ctx.ruleset.corrected("neutral_attack_beside_battle"):
        battles_started = [a for a in contested if s.area(a).neutral_force is None]
        if len(battles_started) > 1:
            return Msg("a march may start at most one battle (R5.3): {areas}",
                       areas=battles_started)
    elif len(contested) > 1:
        return Msg("a march may start at most one battle or attack (R5.3): {areas}",
                   areas=contested)
    counts = unit_counts(s, house)
    counts[origin] = counts.get(origin, 0) - len(moved)
    for dest, units in moves.items():
        counts[dest] = counts.get(dest, 0) + len(units)
    counts = {a: n for a, n in counts.items() if n > 0}
    if not within_supply(s, rs, house, counts):
        return Msg("the move would exceed the supply limit (R5.8)")
    if token and here.power_token != house:  # a token already there: the flag changes nothing
        rest = without(here.units, moved) or []
        if rs.areas[origin].is_sea:
            return Msg("no power tokens at sea (R5.5)")
        if rest:
            return Msg("a power token is left only when all footmen and knights leave (R5.5)")
        if s.houses[house].power < 1:
            return Msg("{house} has no available power token (R5.5)", house=house)
    return None


MARCH_SHAPE = "{moves: {AREA: [units]}, leave_power_token: true|false}"
"""A march answer's shape, as a player writes it."""


def _units(units: list[str]) -> list[str] | Msg:
    """Units for a sentence's field: the sorted unit types, or ``no units``."""
    return sort_units(units) if units else Msg("no units")


def march_basis(ctx: Context, house: str) -> tuple[Any, ...]:
    """What :func:`march_problem` reads besides the answer: every area's units, routed units,
    house, neutral force and power token, and the house's supply and power (never the orders),
    so that two march requests with the same prompt and basis accept the same answers."""
    s = ctx.state
    board = tuple((a, here.house, tuple(here.units), tuple(here.routed), here.power_token,
                   here.neutral_force is not None)
                  for a in ctx.ruleset.area_ids if (here := s.areas.get(a)) is not None)
    return board, s.houses[house].supply, s.houses[house].power


def _plan(ctx: Context, house: str, origin: str) -> Any:
    for entry in ctx.inputs.plan(house, "marches") or []:
        if entry["from"] == origin:
            return {"moves": dict(entry.get("moves", {})),
                    "leave_power_token": entry.get("leave_power_token", False)}
    return NO_PLAN


def _enter(ctx: Context, house: str, dest: str, units: list[str], origin: str) -> None:
    """Units enter an area free of other houses' units (R5.3, R5.5)."""
    with ctx.state.edit(dest) as area:
        if area.power_token is not None and area.power_token != house:
            ctx.emit("power_token_removed", "R5.5", area=dest, house=area.power_token, by=house)
            area.power_token = None
        area.house = house
        area.units = sort_units(area.units + units)
    ctx.emit("move", "R5.3", house=house, origin=origin, to=dest, units=sort_units(units))


def attack_neutral(ctx: Context, house: str, origin: str, dest: str, units: list[str],
                   order: str, key: str | None = None) -> bool:
    """R5.7: units + march modifier + support ≥ the neutral force's strength takes the area.

    ``key`` starts the ids of the attack's decisions (support, retreat losses): the march's
    key ``r3/march@{origin}`` unless the march has other contests (RUL-5.3-1)."""
    s, rs = ctx.state, ctx.ruleset
    neutral = s.area(dest).neutral_force
    assert neutral is not None
    key = key or ctx.rid(f"march@{origin}")
    support = declare_support(ctx, key, dest, house, None)
    backing = sum(d.strength for d in support if d.side == house)
    own = sum(UNIT_STRENGTH[u] for u in units)
    bonus = rs.order_tokens[order].bonus
    total = own + bonus + backing
    won = total >= neutral.strength
    ctx.emit("neutral_attack", "R5.7", house=house, origin=origin, area=dest,
             strength={"units": own, "march": bonus, "support": backing, "total": total},
             neutral=neutral.strength, won=won)
    if won:
        area = s.areas[dest]
        area.neutral_force = None
        _enter(ctx, house, dest, units, origin)
    else:
        # The units go back; those the supply limit cannot hold there are destroyed, as for a
        # beaten attacker's retreat (R5.8, R6.8, R6.9).
        kept = aftermath.kept_by_supply(ctx, house, origin, len(units), None)
        if kept < len(units):
            lost = aftermath.choose_units(
                ctx, f"{key}/retreat_losses/{house}", "retreat_losses",
                house, units, len(units) - kept,
                Msg("only {count} of your units {listed} can go back to {origin} within your "
                    "supply limit: choose the ones destroyed.", count=kept,
                    listed=Msg("[{units}]", units=[Msg("'{unit}'", unit=u) for u in units]),
                    origin=origin), [dest, origin])
            ctx.emit("unit_destroyed", "R5.8", house=house, area=origin, units=sort_units(lost),
                     reason="supply limit on the way back from a failed attack")
            units = without(units, lost) or []
        if units:
            with s.edit(origin) as back:
                back.house = house
                back.units = sort_units(back.units + units)
    return won


def resolve_march(ctx: Context, house: str, origin: str) -> None:
    """Resolve the March order of ``house`` in ``origin`` (R5.3–R5.8)."""
    s, rs = ctx.state, ctx.ruleset
    order = s.areas[origin].order
    assert order is not None
    standing = s.area(origin).standing()
    request = Request(ctx.rid(f"march@{origin}", house), house, "march",
                      Msg("{house}'s {order} in {origin}: move any of {units} to adjacent "
                          "areas (ship transport allowed), at most one battle.", house=house,
                          order=order, origin=origin, units=_units(standing)),
                      default={"moves": {}, "leave_power_token": False},
                      check=lambda v: march_problem(ctx, house, origin, v),
                      example={"moves": {}, "leave_power_token": False},
                      basis=march_basis(ctx, house))
    choice = ctx.ask(request, _plan(ctx, house, origin))
    moves: dict[str, list[str]] = choice.get("moves") or {}
    moved = [u for units in moves.values() for u in units]
    with s.edit(origin) as here:
        here.order = None
        if moved:
            here.units = without(here.units, moved) or []
            if choice.get("leave_power_token") and here.power_token != house:
                here.power_token = house
                s.houses[house].power -= 1
                ctx.emit("power_token_placed", "R5.5", house=house, area=origin)
    if not moved:
        ctx.emit("march_no_move", "R5.3", house=house, area=origin)
        return
    ordered = sorted(moves, key=rs.area_ids.index)
    contests = [dest for dest in ordered if is_contested(ctx, house, dest)]
    for dest in ordered:
        if dest not in contests:
            _enter(ctx, house, dest, list(moves[dest]), origin)
    check_instant_win(ctx)
    # Neutral attacks first (entering an area is a move, not a battle: RUL-5.3-1), in the fixed
    # area order, then the battle; without the correction a march has one contest at most.
    key = ctx.rid(f"march@{origin}")
    neutral = [d for d in contests if s.area(d).neutral_force is not None]
    for dest in neutral:
        attack_neutral(ctx, house, origin, dest, sort_units(list(moves[dest])), order,
                       key if len(contests) == 1 else f"{key}/neutral@{dest}")
        check_instant_win(ctx)
    for dest in contests:
        if dest not in neutral:
            battles.resolve_battle(ctx, Attack(key, house, origin, dest,
                                                       tuple(sort_units(list(moves[dest]))),
                                                       order))
            check_instant_win(ctx)


def resolve_marches(ctx: Context) -> None:
    """Every March order, round-robin in order of play (R5.3); then routed units stand up."""
    round_robin(ctx, "march", lambda house, area: resolve_march(ctx, house, area))
    for area_id in ctx.ruleset.area_ids:
        here = ctx.state.areas.get(area_id)
        if here is not None and here.routed:
            ctx.emit("units_stand_up", "R6.10", area=area_id, house=here.house,
                     units=sort_units(here.routed))
            here.routed = []
