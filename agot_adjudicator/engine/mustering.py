"""Mustering (R3.5): new units in the castle areas each house controls, within supply and limits.

In order of play, each house musters in each castle area it controls (fixed
area id order): a stronghold gives 2 mustering points, a city 1, spent only
in that area. Costs: footman 1, knight 2, ship 1, upgrade (a footman already
in that area becomes a knight) 1. A ship goes to a sea area adjacent to the
castle area that holds no other house's ships. Nothing may be mustered that
would break the supply limit (R9) or the unit limits (R0.4); unspent points
are lost.

Decision ``r{n}/mustering/{area}/{house}``, one per castle area; the answer
is a list of ``footman``, ``knight``, ``upgrade``, ``ship:SEA`` (``ship``
alone when exactly one sea is legal), applied in the listed order; ``[]``
musters nothing. Plan: ``plans.musters.{area}``. **Ruling:** a house that
gives a ``musters`` plan musters nothing in the castle areas it does not list;
a house without one is asked for every castle area. A castle area where
nothing at all can be mustered is not asked about (event ``muster_impossible``).

The decisions are asked together (pending all at once), but each answer is
checked when its turn comes, after the musters before it in order of play:
a plan that no longer fits then (say, an earlier house put a ship into the
sea it named) becomes pending with the reason. So does a direct answer that
was legal on the board before this card's musters but no longer fits when its
turn comes (docs/protocol.md P1: "asked again with the reason"); a direct answer that
was never legal is an error (exit 1). **Default**
(``--nmr``/``--defaults``): muster nothing.

Events: ``mustered`` (one per unit or upgrade), ``muster_done`` (points
spent and lost per area).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from agot_adjudicator.engine.board import armies, controlled_areas, unit_counts, within_supply
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import (
    NO_PLAN,
    AnswerError,
    Pending,
    PendingDecision,
    Request,
)
from agot_adjudicator.model.naming import listed
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState, sort_units
from agot_adjudicator.model.text import Msg

COSTS = {"footman": 1, "knight": 2, "ship": 1, "upgrade": 1}
"""Mustering costs (R3.5)."""


@dataclass(frozen=True)
class Muster:
    """One mustering step: ``kind`` (footman, knight, ship, upgrade) placed in ``area``."""

    kind: str
    area: str


def ship_seas(state: GameState, ruleset: Ruleset, house: str, castle: str) -> list[str]:
    """Sea areas adjacent to ``castle`` where ``house`` may muster a ship (no other house's ships,
    nor the ships of a house not in play, which are a neutral force: R3.5, R12.2)."""
    s, rs = state, ruleset
    return [a for a in rs.area_ids if a in rs.areas[castle].adjacent and rs.areas[a].is_sea
            and (not s.area(a).units or s.area(a).house == house)
            and s.area(a).neutral_force is None]


def _on_board(state: GameState, house: str, unit: str) -> int:
    return sum(a.units.count(unit) for a in state.areas.values() if a.house == house)


def parse_musters(ctx: Context, house: str, castle: str, value: Any) -> list[Muster] | str:
    """The steps an answer musters in ``castle`` for ``house`` (R3.5), or why it is not legal.

    Checked against the board as it is now, steps in the listed order.
    """
    s, rs = ctx.state, ctx.ruleset
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return Msg("expected a list of: {steps}", steps=STEPS)
    points = rs.areas[castle].mustering_points
    seas = ship_seas(ctx.state, ctx.ruleset, house, castle)
    counts = unit_counts(s, house)
    added = {"footman": 0, "knight": 0, "ship": 0}
    footmen_here = s.area(castle).units.count("footman") if s.area(castle).house == house else 0
    upgrades = 0
    spent = 0
    steps: list[Muster] = []
    for item in value:
        kind, _, sea = item.partition(":")
        if kind not in COSTS or (sea and kind != "ship"):
            return Msg("'{step}' is not one of: {steps}", step=item, steps=STEPS)
        spent += COSTS[kind]
        if spent > points:
            cost = sum(COSTS[v.partition(':')[0]] for v in value if v.partition(':')[0] in COSTS)
            return _too_dear(castle, points, list(value), cost)
        if kind == "upgrade":
            if footmen_here - upgrades < 1:
                return Msg("no footman of {house} in {castle} left to upgrade", house=house,
                           castle=castle)
            upgrades += 1
            unit, where = "knight", castle
        elif kind == "ship":
            if not sea:
                if len(seas) != 1:
                    return (Msg("name the sea for the ship (ship:SEA); legal: {seas}",
                                seas=listed(seas)) if seas
                            else Msg("no sea area next to {castle} can take a ship of {house}",
                                     castle=castle, house=house))
                sea = seas[0]
            if sea not in seas:
                why = (Msg("is not a sea area next to {castle}", castle=castle)
                       if sea not in rs.areas or sea not in rs.areas[castle].adjacent
                       or not rs.areas[sea].is_sea else Msg("holds another house's ships"))
                return (Msg("a ship cannot be mustered into {sea}: it {why} (legal: {seas})",
                            sea=sea, why=why, seas=listed(seas)) if seas else
                        Msg("a ship cannot be mustered into {sea}: it {why}", sea=sea, why=why))
            unit, where = "ship", sea
        else:
            unit, where = kind, castle
        added[unit] += 1
        limit = rs.unit_limits[unit]
        if _on_board(s, house, unit) + added[unit] - (upgrades if unit == "footman" else 0) > limit:
            return Msg("{house} has all {limit} of its {unit}s on the board (R0.4)",
                       house=house, limit=limit, unit=unit)
        if kind != "upgrade":
            counts[where] = counts.get(where, 0) + 1
            if not within_supply(s, rs, house, counts):
                return Msg("{step} would break {house}'s supply limit (level {level}, R9)",
                           step=item, house=house, level=s.houses[house].supply)
        steps.append(Muster(kind, where))
    return steps


STEPS = "footman, knight, upgrade, ship:SEA"
"""The steps an answer lists, as a player writes them."""
CASTLE_KINDS = {"stronghold": Msg("stronghold"), "city": Msg("city")}


def _too_dear(castle: str, points: int, steps: list[str], cost: int) -> Msg:
    """Why ``steps`` cost more than ``castle`` gives (R3.5)."""
    f = {"castle": castle, "points": points, "steps": steps, "cost": cost}
    if points > 1:
        return (Msg("{castle} gives {points} mustering points; {steps} costs {cost}", **f)
                if len(steps) == 1 else
                Msg("{castle} gives {points} mustering points; {steps} cost {cost}", **f))
    return (Msg("{castle} gives {points} mustering point; {steps} costs {cost}", **f)
            if len(steps) == 1 else
            Msg("{castle} gives {points} mustering point; {steps} cost {cost}", **f))


def _muster_prompt(ctx: Context, house: str, castle: str, castle_kind: Msg, points: int,
                   seas: list[str]) -> Msg:
    """What the muster question says: the castle and its points, the steps possible now, the
    house's units still off the board and its armies against the supply limit (R0.4, R3.5,
    R9), so that a player can answer without the board at hand."""
    s, rs = ctx.state, ctx.ruleset

    def legal(step: str) -> bool:
        return not isinstance(parse_musters(ctx, house, castle, [step]), str)

    steps: list[Msg] = [Msg("a {unit}", unit=u) for u in ("footman", "knight") if legal(u)]
    if legal("upgrade"):
        steps.append(Msg("an upgrade"))
    open_seas = [a for a in seas if legal(f"ship:{a}")]
    if open_seas:
        steps.append(Msg("a ship ({seas})", seas=open_seas))
    left = {unit: rs.unit_limits[unit] - _on_board(s, house, unit) for unit in rs.unit_limits}
    level = min(s.houses[house].supply, rs.max_supply_level())
    allowed = sorted(rs.supply_track[level], reverse=True)
    now = sorted((a for a in armies(s, house) if a >= 2), reverse=True)
    costs = (Msg("footman 1, knight 2, upgrade 1, ship 1 (into {seas}); [] for nothing.",
                 seas=seas) if seas else
             Msg("footman 1, knight 2, upgrade 1, ship 1; [] for nothing."))
    f = {"house": house, "castle": castle, "castle_kind": castle_kind, "points": points}
    tail = Msg("possible now: {steps}; off the board: {footmen} footmen, {knights} knights, "
               "{ships} ships; supply level {level} allows armies of {allowed} (now: {armies}). "
               "{costs}", steps=steps or Msg("nothing"), footmen=left.get("footman", 0),
               knights=left.get("knight", 0), ships=left.get("ship", 0), level=level,
               allowed=allowed or [0], armies=now or Msg("none"), costs=costs)
    if points > 1:
        return Msg("{house} musters in {castle} ({castle_kind}, {points} points): {tail}",
                   **f, tail=tail)
    return Msg("{house} musters in {castle} ({castle_kind}, {points} point): {tail}", **f,
               tail=tail)


def can_muster_anything(ctx: Context, house: str, castle: str) -> bool:
    """Whether any single mustering step is legal in ``castle``."""
    seas = ship_seas(ctx.state, ctx.ruleset, house, castle)
    options = ["footman", "knight", "upgrade"] + [f"ship:{a}" for a in seas]
    return any(not isinstance(parse_musters(ctx, house, castle, [o]), str) for o in options)


def apply_musters(ctx: Context, house: str, castle: str, steps: list[Muster]) -> None:
    """Place the mustered units (R3.5); emit ``mustered`` per step and ``muster_done``."""
    s = ctx.state
    for step in steps:
        with s.edit(step.area) as here:
            if step.kind == "upgrade":
                here.units.remove("footman")
                here.units.append("knight")
            else:
                here.units.append(step.kind)
            here.house = house
            here.units = sort_units(here.units)
        ctx.emit("mustered", "R3.5", house=house, castle=castle, unit=step.kind, area=step.area)
    points = ctx.ruleset.areas[castle].mustering_points
    spent = sum(COSTS[step.kind] for step in steps)
    ctx.emit("muster_done", "R3.5", house=house, castle=castle, points=points, spent=spent,
             lost=points - spent)


def _plan(ctx: Context, house: str, castle: str) -> Any:
    plan = ctx.inputs.plan(house, "musters", None)
    if plan is None:
        return NO_PLAN
    return list(plan.get(castle, []))


def resolve_mustering(ctx: Context) -> None:
    """Resolve a Mustering card (R3.5); all missing answers are pending together."""
    s, rs = ctx.state, ctx.ruleset
    missing: list[PendingDecision] = []
    asked_before = any(a.startswith(ctx.rid("mustering", "")) for a in ctx.decider.answers)
    before = replace(ctx, state=s.copy()) if asked_before else ctx  # the board before the musters
    for house in ctx.order_of_play():
        castles = [a for a in controlled_areas(s, rs, house) if rs.areas[a].castle]
        for castle in castles:
            points = rs.areas[castle].mustering_points
            if not can_muster_anything(ctx, house, castle):
                ctx.emit("muster_impossible", "R3.5", house=house, castle=castle, points=points)
                if ctx.rid("mustering", castle, house) in ctx.decider.answers:
                    # asked in an earlier run, before the musters ahead of it left no room
                    ctx.decider.used.append(ctx.rid("mustering", castle, house))
                continue

            def check(value: Any, house: str = house, castle: str = castle) -> str | None:
                result = parse_musters(ctx, house, castle, value)
                return result if isinstance(result, str) else None

            seas = ship_seas(ctx.state, ctx.ruleset, house, castle)
            kind = rs.areas[castle].castle
            assert kind is not None  # mustering is asked of castle areas only (R3.5)
            # the pending YAML's example: the first that is legal ([] always is)
            examples = [["footman"] * points, ["footman"], ["upgrade"],
                        *([f"ship:{a}"] for a in seas), []]
            request = Request(
                ctx.rid("mustering", castle, house), house, "muster",
                _muster_prompt(ctx, house, castle, CASTLE_KINDS[kind], points, seas),
                default=[], check=check,
                example=next(c for c in examples if check(c) is None))
            try:
                answer = ctx.ask(request, _plan(ctx, house, castle))
            except Pending as pending:
                missing.extend(pending.decisions)
                continue
            except AnswerError:
                direct = ctx.decider.answers[request.id]
                given = direct.value
                if direct.house not in (None, house) or isinstance(
                        parse_musters(before, house, castle, given), str):
                    raise
                why = check(given)
                missing.append(PendingDecision(request, Msg(
                    "the answer {answer} no longer fits after the musters before it: {why}",
                    answer=repr(given), why=why)))
                continue
            steps = parse_musters(ctx, house, castle, answer)
            assert not isinstance(steps, str), steps
            apply_musters(ctx, house, castle, steps)
    if missing:
        raise Pending(missing)
