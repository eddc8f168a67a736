"""Wildling attack (R3.7, R8): the Night's Watch bids against the threat; reward or losses.

:func:`resolve_wildling_attack`:

1. Every house bids 0..available power in secret, together (R8.1): decision
   ``r{n}/wildlings/bid/{house}``, plan: the house's ``wildlings:`` bid,
   default 0; a house with no power bids 0 unasked. The Night's Watch
   strength is the sum. All bid power goes to the pool (R8.5).
2. **Ruling (R8.2):** the Night's Watch wins when its strength is at least
   the threat (so a threat of 0 is always beaten).
3. Night's Watch victory (R8.3): the highest bidder may take one card of its
   discard pile back into its hand. Tied highest bidders: the Iron Throne
   holder picks one (decision ``r{n}/wildlings/highest/tie_break/{holder}``).
   (Not asked when no tied house has a discarded card.)
   The reward is decision ``r{n}/wildlings/reward/{house}``: a discarded card,
   or ``none``; plan ``plans.wildling_reward`` (cards in order of preference,
   the first one in the discard pile; ``[]`` = none). **Default:** the
   discarded card with the highest printed strength, ties in the ruleset's
   card order. A house with no discards gets nothing and is not asked.
4. Wildling victory (R8.4): every house removes units worth 2 mustering
   points (knight 2, footman 1, ship 1), the lowest bidder 4 — tied lowest
   bidders: the Iron Throne holder picks one (decision
   ``r{n}/wildlings/lowest/tie_break/{holder}``). **Rulings:** a house that has
   less removes everything it has (not asked); no overpaying, except a knight
   for a single remaining point when no footman or ship can pay it
   (:func:`required_payment`). Decision ``r{n}/wildlings/losses/{house}``,
   all houses together, answered with ``{area, unit}`` entries or unit types
   in order of preference; plan ``plans.wildling_losses``. A type list takes,
   for each unit, the first listed type that still lets the rest be paid
   exactly, from the area where the house has the most units (ties: fixed
   area id order). **Default:** ``[footman, ship, knight]``. Losses are
   applied in order of play, then R11.2 is checked.
5. The threat returns to 0 (R3.7, R8.5).

Tie-break plans: the holder's ``plans.tie_break`` ranks houses, highest
first; it applies when it names every tied house: the first named takes the
reward, the last named is the lowest bidder. **Default** for both ties:
the order of play (the first tied house in order of play takes the reward,
the last one is the lowest bidder).

Events: ``bids_revealed``, ``nights_watch`` (strength, threat, winner),
``tie_broken``, ``card_returned``, ``wildling_losses``, ``unit_destroyed``,
``wildling_threat_set``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from agot_adjudicator.engine.bids import collect_bids, pay_bids, wildlings_what
from agot_adjudicator.engine.board import LOSS_ORDER, check_instant_win
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Pending, PendingDecision, Request
from agot_adjudicator.engine.supply import (
    ENTRY,
    Unit,
    as_entries,
    destroy_unit,
    resolve_units_or_types,
    units_of,
)
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import Msg

POINTS = {"footman": 1, "knight": 2, "ship": 1}
"""Mustering points of a unit removed for the wildlings (R8.4)."""
NONE = "none"


def exact_possible(singles: int, knights: int, owe: int) -> bool:
    """Whether ``knights`` (2 each) and ``singles`` (1 each) can pay exactly ``owe``.

    >>> exact_possible(0, 2, 3), exact_possible(1, 1, 3)
    (False, True)
    """
    return any(0 <= owe - 2 * k <= singles for k in range(knights + 1))


def required_payment(units: list[Unit], owe: int) -> int:
    """What a house with ``units`` pays when it owes ``owe`` points (R8.4 and its rulings).

    Everything if it has no more than it owes; else exactly ``owe`` when
    possible, else ``owe + 1`` (a knight for the last point).

    >>> required_payment([("a", "knight"), ("b", "knight")], 3)
    4
    >>> required_payment([("a", "footman")], 2)
    1
    """
    knights = sum(1 for _, u in units if u == "knight")
    singles = len(units) - knights
    total = 2 * knights + singles
    if total <= owe:
        return total
    return owe if exact_possible(singles, knights, owe) else owe + 1


def losses_by_priority(units: list[Unit], owe: int, priority: list[str]) -> list[Unit] | str:
    """The units a type ``priority`` removes (see the module docstring), or why it cannot.

    ``required_payment`` already allows for a knight paying a last single
    point, so every step can look for an exact payment of what is left.

    >>> losses_by_priority([("a", "footman"), ("b", "knight")], 2, ["footman", "knight"])
    [('b', 'knight')]
    """
    need = required_payment(units, owe)
    pool = list(units)
    out: list[Unit] = []
    while need > 0:
        chosen = None
        for unit in priority:
            candidates = [u for u in pool if u[1] == unit]
            if not candidates or POINTS[unit] > need:
                continue
            rest = list(pool)
            rest.remove(candidates[0])
            knights = sum(1 for _, u in rest if u == "knight")
            if exact_possible(len(rest) - knights, knights, need - POINTS[unit]):
                chosen = unit
                break
        if chosen is None:
            left = sorted({u for _, u in pool})
            f = {"unit_types": list(priority), "count": need, "units": left}
            return (Msg("the types listed ({unit_types}) cannot pay {count} more points; units "
                        "left: {units}", **f) if need > 1 else
                    Msg("the types listed ({unit_types}) cannot pay {count} more point; units "
                        "left: {units}", **f))
        size = {a: sum(1 for b, _ in pool if b == a) for a, _ in pool}
        areas = [a for a, u in pool if u == chosen]
        area = max(areas, key=lambda a: (size[a], -areas.index(a)))
        pool.remove((area, chosen))
        out.append((area, chosen))
        need -= POINTS[chosen]
    return out


def losses_for(state: GameState, units: list[Unit], house: str, owe: int,
               value: Any, ruleset: Ruleset) -> list[Unit] | str:
    """The units an answer or plan removes for the wildlings, or why it is not legal (R8.4)."""
    need = required_payment(units, owe)

    def check_units(items: list[Unit]) -> str | None:
        paid = sum(POINTS[u] for _, u in items)
        if paid != need:
            f = {"house": house, "owe": owe, "need": need, "paid": paid}
            return (Msg("{house} owes {owe} points and must remove units worth {need}; these "
                        "are worth {paid}", **f) if owe > 1 else
                    Msg("{house} owes {owe} point and must remove units worth {need}; these "
                        "are worth {paid}", **f))
        return None

    return resolve_units_or_types(state, ruleset, house, value,
                                  by_types=lambda priority: losses_by_priority(units, owe, priority),
                                  check_units=check_units)


TIE_PROMPTS = {
    "highest": lambda holder, tied: Msg(
        "{holder} holds the Iron Throne: {tied} tie as highest bidders; choose the one who may "
        "take a card back.", holder=holder, tied=tied),
    "lowest": lambda holder, tied: Msg(
        "{holder} holds the Iron Throne: {tied} tie as lowest bidders; choose the one who "
        "removes 4 points of units.", holder=holder, tied=tied),
}
"""The Iron Throne holder's question when the highest or the lowest bidders tie (R8.3, R8.4)."""


def _tie_request(ctx: Context, tied: list[str], which: str, holder: str) -> tuple[Request, Any]:
    """The Iron Throne holder's pick among ``tied`` (the highest or the lowest bidders), and the
    plan that answers it."""
    plan: Any = NO_PLAN
    ranking = ctx.inputs.plan(holder, "tie_break", None)
    if ranking is not None and all(h in ranking for h in tied):
        ordered = [h for h in ranking if h in tied]
        plan = ordered[0] if which == "highest" else ordered[-1]
    default = tied[0] if which == "highest" else tied[-1]
    request = Request(ctx.rid("wildlings", which, "tie_break", holder), holder, "tie_break",
                      TIE_PROMPTS[which](holder, tied), tuple(tied), default)
    return request, plan


def _pick_tied(ctx: Context, tied: list[str], which: str) -> str:
    """The Iron Throne holder picks one of ``tied`` (the highest or the lowest bidder)."""
    holder = ctx.state.holder("iron_throne")
    chosen: str = ctx.ask(*_tie_request(ctx, tied, which, holder))
    ctx.emit("tie_broken", "R8.3" if which == "highest" else "R8.4",
             about=f"wildlings/{which}", by=holder, chosen=chosen)
    return chosen


def _reward_request(ctx: Context, winner: str) -> tuple[Request, Any] | None:
    """The reward decision of ``winner`` and its plan; None without discarded cards (R8.3)."""
    s, rs = ctx.state, ctx.ruleset
    discards = list(s.houses[winner].discards)
    if not discards:
        return None
    order = list(rs.cards_by_house[winner])
    default = max(discards, key=lambda c: (rs.house_cards[c].strength, -order.index(c)))
    plan: Any = NO_PLAN
    wanted = ctx.inputs.plan(winner, "wildling_reward", None)
    if wanted is not None:
        available = [c for c in wanted if c in discards]
        plan = available[0] if available else (wanted[0] if wanted else NONE)
    request = Request(ctx.rid("wildlings", "reward", winner), winner, "wildling_reward",
                      Msg("The Night's Watch holds; {winner}, the highest bidder, may take one "
                          "discarded house card back ({discards}) or none.", winner=winner,
                          discards=discards),
                      (*discards, NONE), default)
    return request, plan


def _reward(ctx: Context, bids: dict[str, int]) -> None:
    s, rs = ctx.state, ctx.ruleset
    top = max(bids.values())
    tied = [h for h in bids if bids[h] == top]
    if len(tied) > 1 and not any(s.houses[h].discards for h in tied):
        ctx.emit("card_returned", "R8.3", house=None, card=None,
                 reason=f"no discarded cards among the highest bidders ({', '.join(tied)})")
        return
    winner = tied[0] if len(tied) == 1 else _pick_tied(ctx, tied, "highest")
    asked = _reward_request(ctx, winner)
    if asked is None:
        ctx.emit("card_returned", "R8.3", house=winner, card=None, reason="no discarded cards")
        return
    card = ctx.ask(*asked)
    if card == NONE:
        ctx.emit("card_returned", "R8.3", house=winner, card=None, reason="declined")
        return
    hs = s.houses[winner]
    hs.discards.remove(card)
    hs.hand.append(card)
    hs.hand.sort(key=list(rs.cards_by_house[winner]).index)
    ctx.emit("card_returned", "R8.3", house=winner, card=card)


LOSS_CHOICES = 400
"""Losses of a house are listed for asking ahead (RUL-P1-4) only up to this many candidates."""


def loss_choices(state: GameState, ruleset: Ruleset, units: list[Unit], house: str,
                 owe: int) -> tuple[list[dict[str, str]], ...]:
    """Every distinct legal payment of ``owe`` as ``{area, unit}`` entries, or ``()`` when there
    are too many to try (R8.4)."""
    most = min(owe, len(units))
    if sum(math.comb(len(units), k) for k in range(1, most + 1)) > LOSS_CHOICES:
        return ()
    seen: list[tuple[Unit, ...]] = []
    for k in range(1, most + 1):
        for picked in itertools.combinations(units, k):
            if picked not in seen and isinstance(
                    losses_for(state, units, house, owe, as_entries(list(picked)), ruleset),
                    list):
                seen.append(picked)
    return tuple(as_entries(list(p)) for p in seen)


def _loss_items(ctx: Context, owes: dict[str, int]) -> tuple[list[tuple[Request, Any]], list[str],
                                                             dict[str, list[Unit]]]:
    """The losses decisions of the houses of ``owes`` (in order of play) with their plans, the
    houses asked, and the units of those that must remove everything (not asked, R8.4)."""
    s, rs = ctx.state, ctx.ruleset
    forced: dict[str, list[Unit]] = {}
    items = []
    asked = []
    for house in ctx.order_of_play():
        if house not in owes:
            continue
        units = units_of(s, rs, house)
        owe = owes[house]
        if required_payment(units, owe) == sum(POINTS[u] for _, u in units):
            forced[house] = units
            continue

        def check(value: Any, house: str = house, units: list[Unit] = units,
                  owe: int = owe) -> str | None:
            result = losses_for(s, units, house, owe, value, rs)
            return result if isinstance(result, str) else None

        default = list(LOSS_ORDER)
        example = losses_by_priority(units, owe, default)
        request = Request(ctx.rid("wildlings", "losses", house), house, "wildling_losses",
                          Msg("The wildlings win: {house} removes units worth {owe} mustering "
                              "points (knight 2, footman 1, ship 1): list {entries} entries, or "
                              "unit types in order of preference.", house=house, owe=owe,
                              entries=ENTRY), default=default, check=check,
                          example=as_entries(example) if isinstance(example, list) else None,
                          choices=loss_choices(s, rs, units, house, owe))
        plan = ctx.inputs.plan(house, "wildling_losses", None)
        items.append((request, NO_PLAN if plan is None else plan))
        asked.append(house)
    return items, asked, forced


def _missing(ctx: Context, items: list[tuple[Request, Any]]) -> list[PendingDecision]:
    """The decisions of ``items`` that have no answer yet (looked up, not asked)."""
    out = []
    for request, plan in items:
        ok, _, pending = ctx.decider.probe(request, plan)
        if not ok:
            assert pending is not None
            out.append(pending)
    return out


def _losses(ctx: Context, bids: dict[str, int]) -> None:
    """R8.4. A pending lowest-bidder tie-break also asks the losses of the houses outside the
    tie, which owe 2 whoever is picked (RUL-8.4-4)."""
    s, rs = ctx.state, ctx.ruleset
    low = min(bids.values())
    tied = [h for h in bids if bids[h] == low]
    if len(tied) > 1:
        holder = s.holder("iron_throne")
        ok, _, pending = ctx.decider.probe(*_tie_request(ctx, tied, "lowest", holder))
        if not ok:
            assert pending is not None
            items, _, _ = _loss_items(ctx, {h: 2 for h in bids if h not in tied})
            raise Pending([pending, *_missing(ctx, items)])
    lowest = tied[0] if len(tied) == 1 else _pick_tied(ctx, tied, "lowest")
    owes = {h: 4 if h == lowest else 2 for h in bids}
    items, asked, forced = _loss_items(ctx, owes)
    answers = dict(zip(asked, ctx.ask_together(items), strict=True))
    for house in ctx.order_of_play():
        units = units_of(s, rs, house)
        if house in forced:
            removed = forced[house]
        else:
            result = losses_for(s, units, house, owes[house], answers[house], rs)
            assert not isinstance(result, str), result
            removed = result
        ctx.emit("wildling_losses", "R8.4", house=house, owed=owes[house],
                 units=as_entries(removed), points=sum(POINTS[u] for _, u in removed))
        for area_id, unit in removed:
            destroy_unit(ctx, house, area_id, unit, "R8.4", "wildlings")
    check_instant_win(ctx)


def resolve_wildling_attack(ctx: Context) -> None:
    """Resolve a Wildling Attack card at the current threat (R3.7, R8), then reset the threat."""
    s = ctx.state
    threat = s.wildling_threat

    def plan_of(house: str) -> Any:
        bid = ctx.inputs.of(house).wildlings
        return NO_PLAN if bid is None else bid

    bids = collect_bids(ctx, ("wildlings",), wildlings_what(threat), plan_of)
    strength = sum(bids.values())
    ctx.reveal_bids("wildlings", "R8.1", bids)
    pay_bids(ctx, bids)
    won = strength >= threat
    ctx.emit("nights_watch", "R8.2", strength=strength, threat=threat,
             winner="nights_watch" if won else "wildlings")
    if won:
        _reward(ctx, bids)
    else:
        _losses(ctx, bids)
    s.wildling_threat = 0
    ctx.emit("wildling_threat_set", "R8.5", old=threat, new=0)

