"""Planning phase (R4): orders placed simultaneously, revealed, then the Messenger Raven (R4.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Pending, PendingDecision, Request
from agot_adjudicator.model.naming import listed, suggest
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import RESTRICTIONS, GameState
from agot_adjudicator.model.text import Msg

RESTRICTED_KIND = {card: r.forbids for card, r in RESTRICTIONS.items() if r.forbids is not None}
"""Order kinds that a Westeros card forbids for the round (R3.9–R3.11)."""


def stars_allowed(state: GameState, ruleset: Ruleset, house: str) -> int:
    """Special (★) orders allowed by the house's King's Court position (R4.2, R12.3)."""
    position = state.tracks["kings_court"].index(house)
    stars = ruleset.kings_court_stars
    return stars[position] if position < len(stars) else 0


def order_errors(state: GameState, ruleset: Ruleset, house: str,
                 orders: Mapping[str, str | None],
                 restrictions: Sequence[str] | None = None, *,
                 lasting: bool = False) -> list[tuple[str | None, str]]:
    """R4.1–R4.4 problems of a house's orders, as (area or None, message) pairs.

    ``lasting``: only the problems no Westeros card can cure, for orders sent before the
    Westeros phase (R4.4): an area with none of the house's units may receive them by a
    muster (R3.5), and a Clash of Kings may move the house on the King's Court track (R4.2).
    """
    out: list[tuple[str | None, str]] = []
    used: dict[str, int] = {}
    stars = 0
    active = state.restrictions if restrictions is None else restrictions
    forbidden = {RESTRICTED_KIND[r]: r for r in active if r in RESTRICTED_KIND}
    for area_id, order in orders.items():
        if area_id not in ruleset.areas:
            out.append((area_id, Msg("no such area '{name}'{hint}", name=area_id,
                                     hint=suggest(area_id, ruleset.areas))))
            continue
        here = state.area(area_id)
        if (here.house != house or not here.units) and not lasting:
            holder = Msg("{house} units", house=here.house) if here.units else Msg("no units")
            out.append((area_id, Msg("{house} has no units in {area} ({there} there); orders go "
                                     "only where the house has units (R4.1)", house=house,
                                     area=area_id, there=holder)))
            continue
        if order is None:
            continue
        if order not in ruleset.order_tokens:
            out.append((area_id, Msg("'{name}' is not an order{hint} (expected one of: {ids})",
                                     name=order, hint=suggest(order, ruleset.order_tokens),
                                     ids=listed(ruleset.order_tokens))))
            continue
        token = ruleset.order_tokens[order]
        used[order] = used.get(order, 0) + 1
        if used[order] == token.count + 1:
            f = {"house": house, "count": token.count, "order": order}
            out.append((area_id, Msg("{house} has only {count} '{order}' orders (R0.2)", **f)
                        if token.count > 1 else
                        Msg("{house} has only {count} '{order}' order (R0.2)", **f)))
        stars += token.special
        if token.kind == "consolidate_power" and ruleset.areas[area_id].is_sea:
            out.append((area_id, Msg("'{order}' cannot be placed at sea: Consolidate Power only "
                                     "on land (R4.3)", order=order)))
        if token.kind == "support" and ruleset.support_forbidden(area_id):
            out.append((area_id, Msg("'{order}' cannot be placed on {area}: an island has no "
                                     "land neighbour to support (R4.1, R6.2)", order=order,
                                     area=area_id)))
        if token.kind in forbidden:
            out.append((area_id, Msg("'{order}': no {order_kind} orders may be placed this "
                                     "round ({westeros_card}, R4.4)", order=order,
                                     order_kind=ORDER_KINDS.get(token.kind, token.kind.replace('_', ' ')),
                                     westeros_card=forbidden[token.kind])))
    allowed = stars_allowed(state, ruleset, house)
    if stars > allowed and not lasting:
        f = {"house": house, "count": stars, "allowed": allowed}
        out.append((None, Msg("{house} placed {count} special order; its King's Court "
                              "position allows {allowed} (R4.2)", **f) if stars == 1 else
                    Msg("{house} placed {count} special orders; its King's Court "
                        "position allows {allowed} (R4.2)", **f)))
    return out


def orders_problem(state: GameState, ruleset: Ruleset, house: str, value: Any) -> str | None:
    """Why ``value`` cannot answer ``house``'s orders decision on ``state`` (R4.1–R4.4), or None.

    The check of the ``orders`` request; ``agot validate`` calls it on a direct answer too.
    """
    if not isinstance(value, dict):
        return Msg("expected a mapping of area: order")
    errors = order_errors(state, ruleset, house, value)
    return problems_text([Msg("{place}: {problem}", place=a, problem=m) if a else m
                          for a, m in errors])


ORDER_KINDS = {"march": Msg("march"), "defense": Msg("defense"), "support": Msg("support"),
               "raid": Msg("raid"), "consolidate_power": Msg("consolidate power")}
"""Order kinds in a sentence ("no raid orders may be placed")."""


RAVEN_SHAPE = "{area: AREA, order: ORDER}"
"""A Raven answer's shape, as a player writes it."""


def problems_text(problems: Sequence[str]) -> str | None:
    """Several reasons as one: joined by ``; `` (None when there are none)."""
    if not problems:
        return None
    out = problems[0]
    for p in problems[1:]:
        out = Msg("{first}; {then}", first=out, then=p)
    return out


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
                          Msg("Place {house}'s orders (one per area with its units: {areas}).",
                              house=house, areas=mine), default={}, check=_orders_check(ctx, house),
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
        return Msg("expected null or {shape}", shape=RAVEN_SHAPE)
    if value["area"] not in mine:
        return Msg("{house} has no order in {area} (its orders: {areas})", house=house,
                   area=value["area"], areas=mine)
    unused = unused_tokens(state, ruleset, house)
    if value["order"] not in unused:
        return Msg("'{order}' is not an unused {house} order (unused: {unused})",
                   order=value["order"], house=house, unused=listed(unused))
    orders = {a: state.area(a).order for a in mine}
    orders[value["area"]] = value["order"]
    errors = order_errors(state, ruleset, house, orders)
    return problems_text([m for _, m in errors])


def _raven_shape(value: Any) -> str | None:
    if value is None or (isinstance(value, dict) and set(value) == {"area", "order"}):
        return None
    return Msg("expected null or {shape}", shape=RAVEN_SHAPE)


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
                      Msg("Messenger Raven, asked with the orders: once every order is revealed "
                          "{house} may replace one of its orders with an unused order token. "
                          "Answer null to keep them, {shape} to swap, or leave it out to "
                          "decide when the orders are revealed.", house=house,
                          shape="{area, order}"), default=None, check=_raven_shape)
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
            ctx.ask(Request(ctx.rid("raven", house), house, "raven", Msg("no order to replace"),
                            default=None, check=lambda v: None if v is None else
                            Msg("{house} placed no order that the Raven could replace",
                                house=house)))
        return
    unused = unused_tokens(s, ctx.ruleset, house)

    def check(value: Any) -> str | None:
        return raven_problem(s, ctx.ruleset, house, value)

    plans = ctx.inputs.of(house).plans
    plan = plans.get("raven", NO_PLAN)
    swaps = tuple(swap for swap in ({"area": a, "order": o} for a in mine for o in unused)
                  if check(swap) is None)
    request = Request(ctx.rid("raven", house), house, "raven",
                      Msg("Messenger Raven: {house} may replace one of its orders ({areas}) "
                          "with an unused order token, or answer null.", house=house, areas=mine),
                      default=None, check=check,
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
