"""Raids (R5.2): round-robin in order of play; remove adjacent Raid, Support or Consolidate orders.

Decision ``r3/raid@{area}/{house}``: the targets (a list: at most one, two for
Raid★). Plan: ``plans.raids[].targets`` in preference, the first legal ones
are used; ``targets: []`` raids nothing. Default: no target.
"""

from __future__ import annotations

import itertools
from typing import Any

from agot_adjudicator.engine.board import gain_power, order_reach
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request
from agot_adjudicator.engine.turns import round_robin
from agot_adjudicator.model.naming import listed
from agot_adjudicator.model.text import Msg

RAIDABLE = ("raid", "support", "consolidate_power")


raid_reach = order_reach
"""Areas a Raid order in an area can reach (R5.2), in id order: adjacent ones, and from land
only land areas (:func:`~agot_adjudicator.engine.board.order_reach`, shared with support)."""


def legal_targets(ctx: Context, house: str, area_id: str) -> list[str]:
    """Adjacent areas (direct adjacency) with another house's Raid, Support or Consolidate order.

    A raid from land cannot target a sea area (R5.2).
    """
    s, rs = ctx.state, ctx.ruleset
    out = []
    for other in raid_reach(rs, area_id):
        here = s.area(other)
        if here.order is None or here.house == house:
            continue
        if rs.order_tokens[here.order].kind not in RAIDABLE:
            continue
        out.append(other)
    return out


def _plan(ctx: Context, house: str, area_id: str, legal: list[str], limit: int) -> Any:
    for entry in ctx.inputs.plan(house, "raids") or []:
        if entry["from"] != area_id:
            continue
        wanted = list(entry.get("targets", []))
        chosen = [t for t in wanted if t in legal][:limit]
        return chosen if chosen or not wanted else wanted[:limit]
    return NO_PLAN


def resolve_raid(ctx: Context, house: str, area_id: str) -> None:
    """Resolve the Raid order of ``house`` in ``area_id`` (R5.2)."""
    s, rs = ctx.state, ctx.ruleset
    order = s.areas[area_id].order
    assert order is not None
    limit = 2 if rs.order_tokens[order].special else 1
    legal = legal_targets(ctx, house, area_id)
    if not legal:
        s.areas[area_id].order = None
        ctx.emit("raid_removed", "R5.2", house=house, area=area_id, reason="no legal target")
        return

    def check(value: Any) -> str | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return Msg("expected a list of areas")
        if len(value) > limit or len(set(value)) != len(value):
            return (Msg("at most {limit} different targets", limit=limit) if limit > 1 else
                    Msg("at most {limit} different target", limit=limit))
        bad = [v for v in value if v not in legal]
        return (Msg("cannot raid {areas} (legal: {legal})", areas=bad, legal=listed(legal))
                if bad else None)

    request = Request(ctx.rid(f"raid@{area_id}", house), house, "raid",
                      Msg("{house}'s {order} in {area}: choose up to {limit} of the adjacent "
                          "orders to remove ({areas}), or [].", house=house, order=order,
                          area=area_id, limit=limit, areas=legal), tuple(legal), [],
                      check=check, example=legal[:limit],
                      choices=tuple([[], *([t] for t in legal),
                                     *([a, b] for a, b in itertools.permutations(legal, 2)
                                       if limit > 1)]))
    targets = ctx.ask(request, _plan(ctx, house, area_id, legal, limit))
    s.areas[area_id].order = None
    if not targets:
        ctx.emit("raid", "R5.2", house=house, area=area_id, targets=[])
    for target in targets:
        victim = s.areas[target]
        removed = victim.order
        assert removed is not None
        victim.order = None
        ctx.emit("raid", "R5.2", house=house, area=area_id, target=target, victim=victim.house,
                 removed=removed)
        if rs.order_tokens[removed].kind == "consolidate_power":
            gained = gain_power(ctx, house, 1)
            ctx.emit("pillage", "R5.2", house=house, target=target, power=gained)


def resolve_raids(ctx: Context) -> None:
    """Every Raid order, round-robin in order of play (R5.2). Which raid a house resolves next
    is not asked when none of them has a target: targets only leave the board, so each will
    be removed doing nothing, in any order (RUL-P1-5)."""
    def moot(house: str, candidates: list[str]) -> str | None:
        if any(legal_targets(ctx, house, a) for a in candidates):
            return None
        return "no raid has a target: the order changes nothing"

    round_robin(ctx, "raid", lambda house, area: resolve_raid(ctx, house, area), moot)
