"""Round-robin turns in order of play (R5.2, R5.3): which order a house resolves next."""

from __future__ import annotations

from collections.abc import Callable

from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request
from agot_adjudicator.model.text import Msg

PLAN_KEYS = {"raid": "raids", "march": "marches"}
"""Order kinds resolved in turns (R5.2, R5.3) → their plan key (``plans.marches``), which also
names their "which next" decision (``r3/marches/next@a+b/stark``; MARCH-019)."""


def areas_with(ctx: Context, house: str, kind: str) -> list[str]:
    """Areas (fixed id order) holding an order of ``kind`` of ``house``."""
    s, rs = ctx.state, ctx.ruleset
    return [a for a in rs.area_ids if (here := s.areas.get(a)) is not None and here.house == house
            and here.order and rs.order_tokens[here.order].kind == kind]


NEXT_PROMPTS = {
    "raid": lambda house: Msg("{house}: which raid order resolves now?", house=house),
    "march": lambda house: Msg("{house}: which march order resolves now?", house=house),
}
"""The "which next" prompt of each order kind resolved in turns (:data:`PLAN_KEYS`)."""


def choose_next(ctx: Context, house: str, candidates: list[str], kind: str,
                moot: Callable[[str, list[str]], str | None] | None = None) -> str:
    """Which of ``candidates`` (areas with ``kind`` orders) ``house`` resolves now.

    Decision ``r3/{key}/next@a+b/{house}`` (named by the choice, not its turn), ``key``
    from :data:`PLAN_KEYS`; plan: the first area of ``plans.{key}`` still among the candidates;
    default: the first candidate in fixed id order. ``moot(house, candidates)``: why the order
    cannot matter (then it is not asked, RUL-P1-5), or None.
    """
    if len(candidates) == 1:
        return candidates[0]
    key = PLAN_KEYS[kind]
    plans = ctx.inputs.plan(house, key) or []
    plan = next((p["from"] for p in plans if p["from"] in candidates), NO_PLAN)
    request = Request(ctx.rid(key, "next@" + "+".join(candidates), house), house, f"{kind}_next",
                      NEXT_PROMPTS[kind](house),
                      tuple(candidates), candidates[0],
                      moot=moot(house, candidates) if moot is not None else None)
    choice: str = ctx.ask(request, plan)
    return choice


def round_robin(ctx: Context, kind: str, resolve_one: Callable[[str, str], None],
                moot: Callable[[str, list[str]], str | None] | None = None) -> None:
    """Resolve every ``kind`` order: in order of play, one per house per turn (R5.2, R5.3);
    ``moot``: see :func:`choose_next`."""
    while True:
        progressed = False
        for house in ctx.order_of_play():
            candidates = areas_with(ctx, house, kind)
            if not candidates:
                continue
            area = choose_next(ctx, house, candidates, kind, moot)
            resolve_one(house, area)
            progressed = True
        if not progressed:
            return
