"""Planning phase (R4): orders placed simultaneously, revealed, then the Messenger Raven (R4.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Pending, PendingDecision, Request
from agot_adjudicator.model.naming import one_of, suggest
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import RESTRICTIONS, GameState

RESTRICTED_KIND = {card: r.forbids for card, r in RESTRICTIONS.items() if r.forbids is not None}
"""Order kinds that a Westeros card forbids for the round (R3.9–R3.11)."""


def stars_allowed(state: GameState, ruleset: Ruleset, house: str) -> int:
    """Special (★) orders allowed by the house's King's Court position (R4.2, R12.3)."""
    position = state.tracks["kings_court"].index(house)
    stars = ruleset.kings_court_stars
    return stars[position] if position < len(stars) else 0


def order_errors(state: GameState, ruleset: Ruleset, house: str,
                 orders: Mapping[str, str | None],
                 restrictions: Sequence[str] | None = None) -> list[tuple[str | None, str]]:
    """R4.1–R4.4 problems of a house's orders, as (area or None, message) pairs."""
    out: list[tuple[str | None, str]] = []
    used: dict[str, int] = {}
    stars = 0
    active = state.restrictions if restrictions is None else restrictions
    forbidden = {RESTRICTED_KIND[r]: r for r in active if r in RESTRICTED_KIND}
    for area_id, order in orders.items():
        if area_id not in ruleset.areas:
            out.append((area_id, f"no such area '{area_id}'{suggest(area_id, ruleset.areas)}"))
            continue
        here = state.area(area_id)
        if here.house != house or not here.units:
            holder = f"{here.house} units" if here.units else "no units"
            out.append((area_id, f"{house} has no units in {area_id} ({holder} there); orders go "
                                 "only where the house has units (R4.1)"))
            continue
        if order is None:
            continue
        if order not in ruleset.order_tokens:
            out.append((area_id, f"'{order}' is not an order{suggest(order, ruleset.order_tokens)} "
                                 f"(expected one of: {one_of(ruleset.order_tokens)})"))
            continue
        token = ruleset.order_tokens[order]
        used[order] = used.get(order, 0) + 1
        if used[order] == token.count + 1:
            plural = "s" if token.count > 1 else ""
            out.append((area_id, f"{house} has only {token.count} '{order}' order{plural} (R0.2)"))
        stars += token.special
        if token.kind == "consolidate_power" and ruleset.areas[area_id].is_sea:
            out.append((area_id, f"'{order}' cannot be placed at sea: Consolidate Power only on "
                                 "land (R4.3)"))
        if token.kind == "support" and ruleset.support_forbidden(area_id):
            out.append((area_id, f"'{order}' cannot be placed on {area_id}: an island has no land "
                                 "neighbour to support (R4.1, R6.2)"))
        if token.kind in forbidden:
            out.append((area_id, f"'{order}': no {token.kind.replace('_', ' ')} orders may be "
                                 f"placed this round ({forbidden[token.kind]}, R4.4)"))
    allowed = stars_allowed(state, ruleset, house)
    if stars > allowed:
        out.append((None, f"{house} placed {stars} special order{'s' if stars != 1 else ''}; "
                          "its King's Court position "
                          f"allows {allowed} (R4.2)"))
    return out


def orders_problem(state: GameState, ruleset: Ruleset, house: str, value: Any) -> str | None:
    """Why ``value`` cannot answer ``house``'s orders decision on ``state`` (R4.1–R4.4), or None.

    The check of the ``orders`` request; ``agot validate`` calls it on a direct answer too.
    """
    if not isinstance(value, dict):
        return "expected a mapping of area: order"
    errors = order_errors(state, ruleset, house, value)
    return "; ".join(f"{a}: {m}" if a else m for a, m in errors) or None


def _orders_check(ctx: Context, house: str) -> Any:
    def check(value: Any) -> str | None:
        return orders_problem(ctx.state, ctx.ruleset, house, value)
    return check


def example_orders(state: GameState, ruleset: Ruleset, house: str,
                   areas: Sequence[str]) -> dict[str, str | None]:
    """A legal example for the pending YAML: per area the first token that still fits (R4.1–R4.4)."""
    chosen: dict[str, str | None] = {}
    for area_id in areas:
        chosen[area_id] = None
        for token in ruleset.order_tokens:
            trial = {**chosen, area_id: token}
            if not order_errors(state, ruleset, house, trial):
                chosen = trial
                break
    return chosen


def houses_with_units(ctx: Context) -> list[str]:
    return [h for h in ctx.order_of_play()
            if any(a.house == h and a.units for a in ctx.state.areas.values())]


def place_orders(ctx: Context) -> None:
    """R4.1–R4.5: every house's orders, asked together, placed and revealed at once."""
    items = []
    houses = houses_with_units(ctx)
    for house in houses:
        mine = [a for a in ctx.ruleset.area_ids
                if ctx.state.area(a).house == house and ctx.state.area(a).units]
        submitted = ctx.inputs.of(house).orders
        request = Request(ctx.rid("orders", house), house, "orders",
                          f"Place {house}'s orders (one per area with its units: "
                          f"{', '.join(mine)}).", default={}, check=_orders_check(ctx, house),
                          example=example_orders(ctx.state, ctx.ruleset, house, mine))
        items.append((request, dict(submitted) if submitted is not None else NO_PLAN))
    try:
        answers = ctx.ask_together(items)
    except Pending as pending:
        raven = raven_ahead(ctx)
        raise Pending([*pending.decisions, *([raven] if raven else [])]) from None
    revealed: dict[str, dict[str, str]] = {}
    for house, orders in zip(houses, answers, strict=True):
        placed = {a: o for a, o in sorted(orders.items(), key=lambda kv:
                                          ctx.ruleset.area_ids.index(kv[0])) if o is not None}
        for area_id, order in placed.items():
            ctx.state.areas[area_id].order = order
        revealed[house] = placed
    ctx.emit("orders_revealed", "R4.5", orders=revealed)


def unused_tokens(state: GameState, ruleset: Ruleset, house: str) -> list[str]:
    """The ids of ``house``'s order tokens not all on the board (R0.2), in token order."""
    placed = [a.order for a in state.areas.values() if a.house == house and a.order]
    out = []
    for token_id, token in ruleset.order_tokens.items():
        if placed.count(token_id) < token.count:
            out.append(token_id)
    return out


def raven_problem(state: GameState, ruleset: Ruleset, house: str, value: Any) -> str | None:
    """Why ``value`` cannot answer ``house``'s Messenger Raven on ``state`` (orders placed), or
    None (R4.6). The check of the ``raven`` request; ``agot validate`` calls it on a plan too."""
    if value is None:
        return None
    mine = [a for a in ruleset.area_ids if state.area(a).house == house and state.area(a).order]
    if not isinstance(value, dict) or set(value) != {"area", "order"}:
        return "expected null or {area: AREA, order: ORDER}"
    if value["area"] not in mine:
        return f"{house} has no order in {value['area']} (its orders: {', '.join(mine)})"
    unused = unused_tokens(state, ruleset, house)
    if value["order"] not in unused:
        return f"'{value['order']}' is not an unused {house} order (unused: {one_of(unused)})"
    orders = {a: state.area(a).order for a in mine}
    orders[value["area"]] = value["order"]
    errors = order_errors(state, ruleset, house, orders)
    return "; ".join(m for _, m in errors) or None


def _raven_shape(value: Any) -> str | None:
    if value is None or (isinstance(value, dict) and set(value) == {"area", "order"}):
        return None
    return "expected null or {area: AREA, order: ORDER}"


def raven_ahead(ctx: Context) -> PendingDecision | None:
    """The Messenger Raven asked with the orders it follows (RUL-4.6-1), or None when its
    holder has a plan or an answer for it, holds no units or has used it.

    Its legal answers depend only on the holder's own orders (given in the same stop), its ★
    allowance and the restrictions; an answer is checked when its turn comes. The holder may
    leave it empty to decide once every order is revealed. Neither it nor the orders are asked
    ahead of the Westeros phase's last decisions: the orders are written on the board after
    it (issue 14: players order on the board as it stands)."""
    s = ctx.state
    house = s.holder("kings_court")
    if s.raven_used or house not in houses_with_units(ctx):
        return None
    request = Request(ctx.rid("raven", house), house, "raven",
                      f"Messenger Raven, asked with the orders: once every order is revealed "
                      f"{house} may replace one of its orders with an unused order token. "
                      "Answer null to keep them, {area, order} to swap, or leave it out to "
                      "decide when the orders are revealed.", default=None, check=_raven_shape)
    ok, _, pending = ctx.decider.probe(request, ctx.inputs.of(house).plans.get("raven",
                                                                                NO_PLAN))
    return None if ok or pending is None else replace(pending, ahead=True)


def messenger_raven(ctx: Context) -> None:
    """R4.6: the Raven's holder may replace one placed order by an unused token, once per round."""
    s = ctx.state
    if s.raven_used:
        return
    house = s.holder("kings_court")
    mine = [a for a in ctx.ruleset.area_ids if s.area(a).house == house and s.area(a).order]
    if not mine:
        if ctx.rid("raven", house) in ctx.decider.answers:  # asked ahead (RUL-4.6-1): keep
            ctx.ask(Request(ctx.rid("raven", house), house, "raven", "no order to replace",
                            default=None, check=lambda v: None if v is None else
                            f"{house} placed no order that the Raven could replace"))
        return
    unused = unused_tokens(s, ctx.ruleset, house)

    def check(value: Any) -> str | None:
        return raven_problem(s, ctx.ruleset, house, value)

    plans = ctx.inputs.of(house).plans
    plan = plans.get("raven", NO_PLAN)
    swaps = tuple(swap for swap in ({"area": a, "order": o} for a in mine for o in unused)
                  if check(swap) is None)
    request = Request(ctx.rid("raven", house), house, "raven",
                      f"Messenger Raven: {house} may replace one of its orders ({', '.join(mine)}) "
                      "with an unused order token, or answer null.", default=None, check=check,
                      example=swaps[0] if swaps else None, choices=(None, *swaps))
    choice = ctx.ask(request, plan)
    s.raven_used = True
    if choice is None:
        ctx.emit("raven_kept", "R4.6", house=house)
        return
    old = s.areas[choice["area"]].order
    s.areas[choice["area"]].order = choice["order"]
    ctx.emit("raven_swap", "R4.6", house=house, area=choice["area"], old=old, new=choice["order"])


def resolve_planning_phase(ctx: Context) -> None:
    """Run the planning phase (R4) and move to the action phase."""
    ctx.state.phase = "planning"
    place_orders(ctx)
    messenger_raven(ctx)
    ctx.state.phase = "action"
