"""Secret bids of available power (R7.1, R7.3, R8.1, R8.5): the step the Clash of Kings
(:mod:`.bidding`) and the wildlings (:mod:`.wildlings`) share.

Decision ``r{n}/{key...}/bid/{house}``, options 0..available power, default 0; every house
bids at once, and bid power goes back to the pool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import Request
from agot_adjudicator.model.text import Msg


def bid_request(ctx: Context, key: tuple[str, ...], what: str, house: str, power: int,
                note: str = "") -> Request:
    """The secret bid of ``house`` for ``what``: 0..``power``, default 0 (R7.1, R8.1)."""
    return Request(ctx.rid(*key, "bid", house), house, "bid",
                   Msg("{house}: secret bid for {what} (0 to {power} available power{note}).",
                       house=house, what=what, power=power, note=note),
                   tuple(range(power + 1)), 0)


def collect_bids(ctx: Context, key: tuple[str, ...], what: str,
                 plan_of: Callable[[str], Any]) -> dict[str, int]:
    """Every house's secret bid (R7.1, R8.1), asked together; returns house → bid in order of play.

    Decision id ``r{n}/{key...}/bid/{house}``; options 0..available power;
    default 0. A house with 0 power bids 0 and is not asked, unless a direct answer was
    given (asked ahead, RUL-3.6-2): it is then checked (it must be 0) and used.
    """
    s = ctx.state
    houses = ctx.order_of_play()
    items = []
    asked = []
    for house in houses:
        power = s.houses[house].power
        request = bid_request(ctx, key, what, house, power)
        if power == 0 and request.id not in ctx.decider.answers:
            continue
        items.append((request, plan_of(house)))
        asked.append(house)
    answers = ctx.ask_together(items)
    given = dict(zip(asked, answers, strict=True))
    return {h: int(given.get(h, 0)) for h in houses}


def pay_bids(ctx: Context, bids: dict[str, int]) -> None:
    """Bid power goes back to the pool (R7.3, R8.5)."""
    for house, bid in bids.items():
        ctx.state.houses[house].power -= bid


def wildlings_what(threat: int) -> Msg:
    """What the wildling bid is for (its prompt): :mod:`.wildlings` asks it, :mod:`.bidding`
    asks it ahead."""
    return Msg("the Night's Watch against a wildling threat of {threat}", threat=threat)
