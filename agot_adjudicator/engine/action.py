"""Action phase (R5): raids, marches (with battles), consolidate power, then clean-up (R5.10)."""

from __future__ import annotations

from agot_adjudicator.engine.board import controller, gain_power
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.marches import resolve_marches
from agot_adjudicator.engine.raids import resolve_raids


def consolidate_power(ctx: Context) -> None:
    """R5.9: each Consolidate Power order left in a controlled area gives 1 + its power icons."""
    s, rs = ctx.state, ctx.ruleset
    for house in ctx.order_of_play():
        for area_id in rs.area_ids:
            here = s.area(area_id)
            if here.house != house or here.order is None:
                continue
            if rs.order_tokens[here.order].kind != "consolidate_power":
                continue
            if controller(s, rs, area_id) != house:
                continue
            worth = 1 + rs.areas[area_id].power
            gained = gain_power(ctx, house, worth)
            s.areas[area_id].order = None
            ctx.emit("consolidate_power", "R5.9", house=house, area=area_id, worth=worth,
                     power=gained)


def end_of_action_phase(ctx: Context) -> None:
    """R5.10: every order still on the board is removed."""
    removed = {}
    for area_id in ctx.ruleset.area_ids:
        here = ctx.state.areas.get(area_id)
        if here is not None and here.order is not None:
            removed[area_id] = here.order
            here.order = None
    ctx.emit("orders_removed", "R5.10", orders=removed)


def resolve_action_phase(ctx: Context) -> None:
    """Run the action phase in rule order (R5.1)."""
    resolve_raids(ctx)
    resolve_marches(ctx)
    consolidate_power(ctx)
    end_of_action_phase(ctx)
