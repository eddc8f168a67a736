"""Support (R6.2): who may support a battle or a neutral-force attack, their choices, strength.

Used by neutral-force attacks (R5.7) and battles (R6). Decision id per
Support order: ``{key}/support@{area}/{house}`` where ``key`` names the march
(``r3/march@lannisport``). Support declarations of one battle are
simultaneous and asked together.
"""

from __future__ import annotations

from dataclasses import dataclass

from agot_adjudicator.engine.board import UNIT_STRENGTH, order_reach
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request
from agot_adjudicator.model.text import Msg

NO_ONE = "none"


@dataclass(frozen=True)
class Declaration:
    """One Support order's choice for one battle: the side backed (a house) or None."""

    area: str
    house: str
    side: str | None
    strength: int


support_reach = order_reach
"""Areas where a Support order in an area can add strength (R6.2), in id order: adjacent ones;
footmen and knights never support a battle at sea, so from land only land areas (islands have
no land neighbours) (:func:`~agot_adjudicator.engine.board.order_reach`, shared with raids)."""


def support_areas(ctx: Context, target: str) -> list[str]:
    """Areas adjacent to ``target`` with a Support order whose units can support there (R6.2).

    Footmen and knights never support a battle at sea; islands have no land
    neighbours, so their land units support no one.
    """
    s, rs = ctx.state, ctx.ruleset
    out = []
    for area_id in rs.areas[target].adjacent:
        here = s.area(area_id)
        if here.order is None or rs.order_tokens[here.order].kind != "support" or not here.units:
            continue
        if target not in support_reach(rs, area_id):
            continue
        out.append(area_id)
    houses = ctx.order_of_play()
    return sorted(out, key=lambda a: (houses.index(s.area(a).house or ""), rs.area_ids.index(a)))


def support_strength(ctx: Context, area_id: str, target: str) -> int:
    """Strength a Support order in ``area_id`` adds to a battle in ``target`` (R6.2, R6.3, R3.12).

    Standing units only (routed add nothing); +1 for Support★; footmen add
    nothing under Rains of Autumn.
    """
    here = ctx.state.area(area_id)
    rains = "rains_of_autumn" in ctx.state.restrictions
    total = 0
    for unit in here.standing():
        if unit == "footman" and rains:
            continue
        if ctx.ruleset.areas[target].is_sea and unit != "ship":
            continue
        total += UNIT_STRENGTH[unit]
    assert here.order is not None
    return total + ctx.ruleset.order_tokens[here.order].bonus


def _plan_side(ctx: Context, house: str, area_id: str, options: list[str]) -> object:
    plan = ctx.inputs.plan(house, "support")
    if not plan or area_id not in plan:
        return NO_PLAN
    for preferred in plan[area_id]:
        if preferred in options:
            return preferred
    return NO_ONE


def declare_support(ctx: Context, key: str, target: str, attacker: str,
                    defender: str | None) -> list[Declaration]:
    """Ask every eligible Support order which side it backs; apply refusals (R6.2).

    ``defender`` is None for a neutral force (only the attacker can be backed).
    Default (``--nmr``/``--defaults``): back your own house if it fights, else no one.
    A side whose plans say ``accept_support: false`` refuses other houses' support.
    """
    areas = support_areas(ctx, target)
    items = []
    for area_id in areas:
        owner = ctx.state.area(area_id).house
        assert owner is not None
        sides = [attacker] + ([defender] if defender is not None else [])
        options = [*sides, NO_ONE]
        default = owner if owner in sides else NO_ONE
        prompt = (Msg("{attacker} attacks {target} held by {defender}; your Support order in "
                      "{area} may back {attacker} or {defender} or no one.", attacker=attacker,
                      target=target, defender=defender, area=area_id) if defender else
                  Msg("{attacker} attacks {target} (neutral force); your Support order in {area} "
                      "may back {attacker} or no one.", attacker=attacker, target=target,
                      area=area_id))
        request = Request(f"{key}/support@{area_id}/{owner}", owner, "support", prompt,
                          tuple(options), default, reveals=(owner, *sides[1:]))
        items.append((request, _plan_side(ctx, owner, area_id, options)))
    answers = ctx.ask_together(items)
    out = []
    for area_id, side in zip(areas, answers, strict=True):
        owner = ctx.state.area(area_id).house
        assert owner is not None
        chosen = None if side == NO_ONE else side
        if chosen is not None and chosen != owner and not ctx.inputs.plan(chosen, "accept_support",
                                                                          True):
            ctx.emit("support_refused", "R6.2", area=area_id, house=owner, refused_by=chosen)
            chosen = None
        strength = support_strength(ctx, area_id, target) if chosen is not None else 0
        out.append(Declaration(area_id, owner, chosen, strength))
        ctx.emit("support_declared", "R6.2", area=area_id, house=owner, side=chosen,
                 strength=strength, battle=target)
    return out
