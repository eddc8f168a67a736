"""Bidding (R7) and the Clash of Kings (R3.6): secret bids of available power, ties, tracks.

:func:`~agot_adjudicator.engine.bids.collect_bids` asks a simultaneous secret bid of every
house (also used against the wildlings, R8.1); a house with no available power bids 0
without being asked. Bid power goes to the pool at once (R7.3, R8.5).

Clash of Kings (:func:`resolve_clash_of_kings`): the Iron Throne track, then
Fiefdoms, then King's Court. Per track:

- decision ``r{n}/clash_of_kings/{track}/bid/{house}`` (0..available power),
  all houses together; plan: the house's ``bids.{track}`` (a ``bids:``
  section may give all three tracks at once, their sum within the power the
  house has at the start; a track it leaves out is asked). Default: 0.
- highest bid takes position 1, and so on (R7.1); houses with equal bids are
  placed by the Iron Throne holder — the *old* holder during the Iron Throne
  bid, since the token passes only when that track is complete (R7.2):
  decision ``r{n}/clash_of_kings/{track}/tie_break/{holder}``, one per track,
  answered with every tied house in the order to place them (several tie
  groups in one list: only the order inside each group matters). Plan: the
  holder's ``plans.tie_break`` when it names every tied house. **Default:**
  tied houses keep their relative order on that track before the bid.
- position 1 holds the track's special token (R7.3): event ``token_passed``
  when it changes hands.

Events: ``bids_revealed``, ``tie_broken``, ``track_set``, ``token_passed``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from agot_adjudicator.engine.bids import bid_request, collect_bids, pay_bids, wildlings_what
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Pending, PendingDecision, Request
from agot_adjudicator.model.naming import listed
from agot_adjudicator.model.ruleset import DECKS, TRACK_TOKENS, TRACKS
from agot_adjudicator.model.text import Msg

TRACK_BIDS = {"iron_throne": Msg("the Iron Throne track"), "fiefdoms": Msg("the Fiefdoms track"),
              "kings_court": Msg("the King's Court track")}
"""What a track's bid is for, in a prompt."""


def tie_groups(bids: dict[str, int]) -> list[list[str]]:
    """Groups of houses (in the given order) that made the same bid, highest bid first.

    >>> tie_groups({"a": 1, "b": 3, "c": 1})
    [['b'], ['a', 'c']]
    """
    values = sorted(set(bids.values()), reverse=True)
    return [[h for h in bids if bids[h] == v] for v in values]


def tie_break_plan(ctx: Context, holder: str, tied: list[str]) -> Any:
    """The holder's ``plans.tie_break`` restricted to ``tied``, or NO_PLAN if it has none.

    A plan that leaves out a tied house is passed on as it is (so the
    decision becomes pending with the reason).
    """
    plan = ctx.inputs.plan(holder, "tie_break", None)
    if plan is None:
        return NO_PLAN
    return [h for h in plan if h in tied]


def order_problem(value: Any, tied: list[str]) -> str | None:
    """Why ``value`` does not list every tied house exactly once, or None."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return Msg("expected a list of the tied houses: {tied}", tied=listed(tied))
    extra = [v for v in value if v not in tied]
    if extra:
        return Msg("{house} is not tied (tied: {tied})", house=extra[0], tied=listed(tied))
    if len(set(value)) != len(value):
        return Msg("a house is listed twice")
    left = [h for h in tied if h not in value]
    if left:
        return (Msg("missing tied houses: {houses}", houses=listed(left)) if len(left) > 1
                else Msg("missing tied house: {houses}", houses=listed(left)))
    return None


def tie_break_request(ctx: Context, bids: dict[str, int], key: tuple[str, ...], what: str,
                      default_order: list[str], holder: str) -> tuple[Request, Any] | None:
    """The tie-break ``holder`` decides for ``bids`` (R7.2) and its plan, or None without a tie."""
    groups = tie_groups(bids)
    tied = [h for g in groups if len(g) > 1 for h in g]
    if not tied:
        return None
    default = [h for h in default_order if h in tied]
    described = _joined([Msg("{houses} bid {bid}", houses=g, bid=bids[g[0]])
                         for g in groups if len(g) > 1])
    request = Request(ctx.rid(*key, "tie_break", holder), holder, "tie_break",
                      Msg("{holder} holds the Iron Throne and places the tied houses for {what} "
                          "({bids}): list them, highest position first.", holder=holder,
                          what=what, bids=described),
                      default=default, check=lambda v: order_problem(v, tied), example=default,
                      choices=tuple(list(p) for p in itertools.permutations(default)))
    return request, tie_break_plan(ctx, holder, tied)


def _joined(parts: Sequence[Msg]) -> Msg:
    """Sentence parts joined by ``; ``."""
    out = parts[0]
    for part in parts[1:]:
        out = Msg("{first}; {then}", first=out, then=part)
    return out


def rank(ctx: Context, bids: dict[str, int], key: tuple[str, ...], what: str,
         default_order: list[str]) -> list[str]:
    """Houses ordered by bid, highest first; ties placed by the Iron Throne holder (R7.1, R7.2).

    Decision ``r{n}/{key...}/tie_break/{holder}`` (one for all tie groups);
    default: ``default_order`` among the tied houses.
    """
    groups = tie_groups(bids)
    holder = ctx.state.holder("iron_throne")
    asked = tie_break_request(ctx, bids, key, what, default_order, holder)
    if asked is None:
        return [g[0] for g in groups]
    answer = ctx.ask(*asked)
    ctx.emit("tie_broken", "R7.2", about="/".join(key), by=holder, order=list(answer))
    position = {h: i for i, h in enumerate(answer)}
    return [h for g in groups for h in sorted(g, key=lambda h: position.get(h, 0))]


def _bid_plan(ctx: Context, track: str) -> Callable[[str], Any]:
    def plan_of(house: str) -> Any:
        bids = ctx.inputs.of(house).bids
        if bids is None or track not in bids:
            return NO_PLAN
        return bids[track]
    return plan_of


def resolve_track(ctx: Context, track: str) -> None:
    """Bid for one influence track and set it (R3.6, R7)."""
    s = ctx.state
    key = ("clash_of_kings", track)
    bids = collect_bids(ctx, key, TRACK_BIDS[track], _bid_plan(ctx, track))
    ctx.reveal_bids("/".join(key), "R7.1", bids)
    pay_bids(ctx, bids)
    before = list(s.tracks[track])
    old_holder = before[0]
    order = rank(ctx, bids, key, TRACK_BIDS[track], before)
    s.tracks[track] = order
    ctx.emit("track_set", "R7.1", track=track, order=list(order))
    if order[0] != old_holder:
        ctx.emit("token_passed", "R7.3", token=TRACK_TOKENS[track], old=old_holder, new=order[0])


def _wildling_plan(ctx: Context) -> Callable[[str], Any]:
    def plan_of(house: str) -> Any:
        bid = ctx.inputs.of(house).wildlings
        return NO_PLAN if bid is None else bid
    return plan_of


def _bid_rounds(ctx: Context, tracks: Sequence[str],
                wildlings: bool) -> list[tuple[tuple[str, ...], Msg, Callable[[str], Any]]]:
    out: list[tuple[tuple[str, ...], Msg, Callable[[str], Any]]] = [
        (("clash_of_kings", t), TRACK_BIDS[t], _bid_plan(ctx, t)) for t in tracks]
    if wildlings:
        out.append((("wildlings",), wildlings_what(ctx.state.wildling_threat), _wildling_plan(ctx)))
    return out


BIDS_NOTE = Msg("; this Westeros phase's bids together at most your power")


def probe_bids(ctx: Context, tracks: Sequence[str], wildlings: bool,
               note: str = "") -> tuple[list[dict[str, int] | None], list[PendingDecision]]:
    """Every bid still to come this Westeros phase, looked up without asking (RUL-3.6-2).

    Per bid (the ``tracks`` in order, then the wildlings' if ``wildlings``): house → bid when
    every house's is known, else None; and the decisions still missing. A house's later bids
    are offered 0..the power its known earlier bids leave (all of it while one is missing);
    a house left with no power is not asked, as :func:`collect_bids` does.
    """
    s = ctx.state
    rounds = _bid_rounds(ctx, tracks, wildlings)
    known: list[dict[str, int] | None] = [{} for _ in rounds]
    missing: list[list[PendingDecision]] = [[] for _ in rounds]
    for house in ctx.order_of_play():
        left, exact = s.houses[house].power, True
        for i, (key, what, plan_of) in enumerate(rounds):
            request = bid_request(ctx, key, what, house, left, note if not exact or i else "")
            if left == 0 and exact and request.id not in ctx.decider.answers:
                value: Any = 0
            else:
                ok, value, pending = ctx.decider.probe(request, plan_of(house))
                if not ok:
                    assert pending is not None
                    missing[i].append(pending)
                    known[i] = None
                    exact = False
                    continue
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= left:
                exact = False  # the real ask says what is wrong with it
                value = 0
            bids = known[i]
            if bids is not None:
                bids[house] = value
            if exact:
                left -= value
    return known, [d for per_bid in missing for d in per_bid]


def _wildlings_follow(ctx: Context) -> bool:
    """Whether a Wildling Attack was revealed in a deck after the Clash of Kings (R3.1)."""
    revealed = [ctx.state.revealed.get(d) for d in DECKS]
    if "clash_of_kings" not in revealed:
        return False
    return "wildling_attack" in revealed[revealed.index("clash_of_kings") + 1:]


def _bids_ahead(ctx: Context, track: str, wildlings: bool) -> list[PendingDecision]:
    """With ``track``'s tie-break pending: the later tracks' bids, and a Wildling Attack's that
    follows, still missing (RUL-3.6-2, RUL-3.6-3). Their tie-breaks and the wildling card's
    decisions wait until those bids are revealed: their question would tell the deciding house
    who tied, or who bid highest or lowest, before the reveal (RUL-P7-4)."""
    later = list(TRACKS[TRACKS.index(track) + 1:])
    _, missing = probe_bids(ctx, later, wildlings, note=BIDS_NOTE)
    return missing


def resolve_clash_of_kings(ctx: Context) -> None:
    """Resolve a Clash of Kings card (R3.6): bid for each track in turn (R7).

    A track whose bids are missing stops with every bid of the Westeros phase still to come
    (the later tracks and a Wildling Attack's that follows, RUL-3.6-2); a track whose bids are
    all in is resolved (and revealed) first. A tie-break that stops also asks the later bids
    still missing, never a decision that follows bids not revealed yet (RUL-3.6-3).
    """
    ctx.emit("influence_tokens_removed", "R3.6")
    wildlings = _wildlings_follow(ctx)
    for i, track in enumerate(TRACKS):
        known, missing = probe_bids(ctx, TRACKS[i:], wildlings, note=BIDS_NOTE)
        if known[0] is None:  # this track's bids are missing: ask every bid still to come
            raise Pending(missing)
        try:
            resolve_track(ctx, track)
        except Pending as pending:
            if any(d.request.kind != "tie_break" for d in pending.decisions):
                raise
            raise Pending([*pending.decisions, *_bids_ahead(ctx, track, wildlings)]) from None
