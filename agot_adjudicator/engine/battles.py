"""Battles (R6): support, strength, house cards, Valyrian Steel Blade; casualties, retreats and
occupation in :mod:`aftermath`.

:func:`resolve_battle` is called by a march (R5.3) whose units enter an area
held by another house's units. It leaves the outcome on the board; the
caller removes the March order.

Steps (R6.2–R6.13):

1. support, asked through :func:`support.declare_support` (R6.2);
2. both house cards, asked together (R6.4), then their texts: cancelling
   texts, then immediate/strength texts in Fiefdoms order
   (:mod:`house_cards`), then printed strengths;
3. the Valyrian Steel Blade (R6.5), then the winner (R6.6, ties to the
   higher Fiefdoms position);
4. the winner's "if you win" text; casualties (R6.7); retreats (R6.8,
   R6.9) with routing (R6.10); occupation (R6.11); the played cards go to
   the discard pile, or the hand comes back (R6.12).

Decisions (ids start with the march key, e.g. ``r3/march@lannisport``):

- ``{key}/support@{area}/{house}`` — see :mod:`support`;
- ``{key}/house_card/{house}`` — both asked together. Plan ``house_cards``:
  a list of rules ``{at: AREA, card}``, ``{against: HOUSE, card}``,
  ``{priority: [cards]}``; the first rule whose card is still in hand
  applies (``at`` = the embattled area, ``against`` = the other side).
  **Default:** the first card in hand in data order (strongest first).
- ``{key}/blade/{house}`` — ``true``/``false``. Asked only when the Blade is
  unused this round, its holder fights, and +1 turns the holder's loss into
  a win (otherwise it is not used and nothing is asked). Plan ``blade``:
  ``auto``/``always`` use it then, ``never`` does not; or a mapping from the
  embattled area to one of those. **Default:** ``false`` (never).
- ``{key}/casualties/{house}`` — a list of unit types, as many as the
  casualties. Asked only when there is a real choice. Plan ``casualties``:
  unit types in order of preference, or explicit ``{area, unit}`` (area =
  the embattled area; for an attacker also its origin); the plan must name
  enough units or it no longer fits. **Default:** cheapest first —
  footman, ship, knight.
- ``{key}/retreat/{house}`` — the area the defender's survivors retreat to.
  Options are the legal areas (R6.9) that lose the fewest units to supply;
  asked only with two or more options. Plan ``retreats: {battle_area:
  [areas in preference]}``. **Default:** the first option in the fixed id
  order.
- ``{key}/retreat_losses/{house}`` — which retreating units the supply
  limit destroys (R5.8, R6.9), like casualties (same plan and default).
- ``{key}/card/{card_id}/{house}`` — choices asked by "if you win" texts,
  see :mod:`house_cards`.

Events: ``support_declared`` (and ``support_refused``), ``house_cards_revealed``,
``house_card_text`` / ``house_card_text_cancelled``, ``unit_destroyed``,
``order_removed``, ``valyrian_steel_blade_used``, ``battle`` (the summary:
``totals`` per house, ``sides`` with each side's strength by units, order,
each supporting area, card and blade, ``winner``, ``decided_by`` =
strength / fiefdoms_tie_break / last_unit_destroyed), the winner's card events, ``casualties``, ``retreat``,
``area_occupied``, ``power_token_returned``, ``house_card_discarded`` /
``hand_recycled``.

Rulings (judgment calls, listed in the man page):

- Rules of R6.4 "as a loss" (Ser Loras kills the last fighting unit): no
  Blade, no casualties; the loser's routed units, if any, must retreat and
  are destroyed; the winner's "if you win" text still resolves.
- A defender's routed units in the embattled area add nothing, cannot be
  casualties, and are destroyed if the defender loses (R6.9, R6.10).
- Retreat legality (R6.9): an adjacent area of the right kind (ships: sea;
  footmen/knights: land, also by ship transport, R5.4) that holds no other
  house's units, power token or neutral force, and is not the attacker's
  origin. Among legal areas only those losing the fewest units to supply
  are offered.
- Supply on retreat: the largest number of survivors that fits is kept; the
  rest are destroyed (chosen like casualties). A beaten attacker's
  survivors going home (R6.8) are checked the same way.
- A beaten attacker's survivors are routed in their origin, merged with
  whatever stands there (a power token it left stays).
- On victory the attacker occupies the area: the defender's order is
  removed (R6.11), an enemy power token there returns to its pool.
- Played cards stay in front of their owners until the end of the battle;
  then they are discarded, or, when a card was the last in hand, all seven
  come back and the discard pile is emptied (R6.12).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from agot_adjudicator.engine import board
from agot_adjudicator.engine.aftermath import (
    attacker_retreats,
    defender_retreats,
    occupy,
    take_casualties,
)
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request
from agot_adjudicator.engine.house_cards import (
    ON_WIN,
    ROLES,
    WINDOWS,
    Attack,
    Effect,
    EffectKind,
    Fight,
    opponent,
    texts_for,
)
from agot_adjudicator.engine.support import Declaration, declare_support
from agot_adjudicator.model.state import sort_units
from agot_adjudicator.model.text import Msg


@dataclass(frozen=True)
class Strength:
    """One side's strength in a battle, broken down (R6.3): units, order, support, then the
    house card (R6.4) and the Valyrian Steel Blade (R6.5) once known."""

    house: str
    units: dict[str, dict[str, int]]
    """Unit type → ``count`` and ``strength`` of each."""
    units_strength: int
    order: dict[str, Any] | None
    """The March or Defense order: ``order`` and ``bonus``; None without one."""
    support: list[dict[str, Any]]
    """Per Support order backing this side: ``area``, ``house``, ``strength``."""
    card: dict[str, Any] | None = None
    """The house card: ``card`` and printed ``strength``; None before the cards."""
    blade: int = 0

    @property
    def total(self) -> int:
        bonus: int = self.order["bonus"] if self.order else 0
        card: int = self.card["strength"] if self.card else 0
        support: int = sum(x["strength"] for x in self.support)
        return (self.units_strength + bonus + support
                + card + self.blade)

    def with_blade(self) -> Strength:
        """This side with the Blade's +1 (R6.5)."""
        return replace(self, blade=self.blade + 1)

    def to_event(self) -> dict[str, Any]:
        """The breakdown as the ``battle`` event's ``sides`` entry."""
        out: dict[str, Any] = {"house": self.house, "units": self.units,
                               "units_strength": self.units_strength, "order": self.order,
                               "support": self.support}
        if self.card is not None:
            out["card"] = self.card
            out["blade"] = self.blade
        out["total"] = self.total
        return out


@dataclass
class Modifiers:
    """What the cards' texts changed, per role."""

    unit_values: dict[str, dict[str, int]]
    defense_multiplier: dict[str, int]
    zero_supporting_ships: list[str]
    zero_printed: list[str]
    lost_at_once: str | None = None

    @classmethod
    def none(cls) -> Modifiers:
        return cls({r: dict(board.UNIT_STRENGTH) for r in ROLES}, {r: 1 for r in ROLES}, [], [])


# --- entry point ---------------------------------------------------------------------------

def resolve_battle(ctx: Context, attack: Attack) -> None:
    """Fight the battle of ``attack`` and leave its outcome on the board (R6.1–R6.13).

    Asks support, house cards, Blade, casualties, retreat and card-text
    decisions (see the module docstring); may raise ``Pending`` or ``GameOver``.
    """
    s = ctx.state
    target = s.area(attack.target)
    defender = target.house
    assert defender is not None and target.units, "a battle needs a defending house"
    fight = Fight(attack, defender,
                  {"attacker": sort_units(list(attack.units)), "defender": target.standing()})
    declarations = declare_support(ctx, attack.key, attack.target, attack.attacker, defender)

    # Step 2: house cards (R6.4), chosen with the strengths so far known.
    before = {r: strength(ctx, fight, r, declarations, Modifiers.none(), with_card=False)
              for r in ROLES}
    ask_house_cards(ctx, fight, before)
    ctx.emit("house_cards_revealed", "R6.4", area=fight.area,
             cards={fight.house(r): fight.cards[r] for r in ROLES})
    mods = apply_card_texts(ctx, fight)

    totals = {r: strength(ctx, fight, r, declarations, mods) for r in ROLES}
    blade_role = None
    if mods.lost_at_once is not None:
        fight.winner = opponent(mods.lost_at_once)
    else:
        blade_role = ask_blade(ctx, fight, totals)
        if blade_role is not None:
            totals[blade_role] = totals[blade_role].with_blade()
        fight.winner = winner_of(ctx, fight, totals)
    emit_summary(ctx, fight, totals, mods)

    winner, loser = fight.winner, fight.loser
    on_win = ON_WIN.get(fight.cards[winner])
    if on_win is not None and winner not in fight.cancelled:
        on_win(ctx, fight, winner)
    elif on_win is not None:
        ctx.emit("house_card_text_cancelled", "R6.4", house=fight.house(winner),
                 card=fight.cards[winner], by="queen_of_thorns")

    if mods.lost_at_once is None:
        take_casualties(ctx, fight, loser)
    if loser == "attacker":
        attacker_retreats(ctx, fight)
    else:
        defender_retreats(ctx, fight)
        occupy(ctx, fight)
    discard_played_cards(ctx, fight)
    if loser == "defender" and ctx.ruleset.areas[fight.area].is_land:
        board.check_instant_win(ctx)


# --- house cards ---------------------------------------------------------------------------

def hand_in_order(ctx: Context, house: str) -> list[str]:
    """The cards in ``house``'s hand, in data order."""
    hand = ctx.state.houses[house].hand
    return [c for c in ctx.ruleset.cards_by_house[house] if c in hand]


def plan_house_card(rules: Sequence[dict[str, Any]] | None, hand: list[str], area: str,
                    against: str) -> Any:
    """The card the first applicable ``house_cards`` rule picks, or NO_PLAN.

    >>> plan_house_card([{"at": "riverrun", "card": "a"}, {"priority": ["c", "b"]}],
    ...                 ["b", "c"], "harrenhal", "stark")
    'c'
    """
    for rule in rules or []:
        if "priority" in rule:
            for card in rule["priority"]:
                if card in hand:
                    return card
        elif "at" in rule:
            if rule["at"] == area and rule["card"] in hand:
                return rule["card"]
        elif rule.get("against") == against and rule.get("card") in hand:
            return rule["card"]
    return NO_PLAN


def ask_house_cards(ctx: Context, fight: Fight, before: dict[str, Strength]) -> None:
    """Ask both sides for a house card at once (R6.4), each told both sides' strength
    ``before`` cards (the request's ``facts``: their breakdowns by role); fill
    ``fight.cards``."""
    facts = {r: before[r].to_event() for r in ROLES}
    items = []
    for role in ROLES:
        house, other = fight.house(role), fight.house(opponent(role))
        hand = hand_in_order(ctx, house)
        assert hand, f"{house} holds no house card: the state checks refuse it (RUL-6.12-4)"
        prompt = Msg("{attacker} attacks {area} ({defender} defends, strength {strength} to "
                     "{against} before cards). Choose a house card.",
                     attacker=fight.house("attacker"), area=fight.area,
                     defender=fight.house("defender"), strength=before["attacker"].total,
                     against=before["defender"].total)
        request = Request(f"{fight.key}/house_card/{house}", house, "house_card", prompt,
                          tuple(hand), hand[0], reveals=(fight.house("defender"),),
                          facts=facts)
        plan = plan_house_card(ctx.inputs.plan(house, "house_cards"), hand, fight.area, other)
        items.append((request, plan))
    for role, card in zip(ROLES, ctx.ask_together(items), strict=True):
        fight.cards[role] = card
        fight.last_in_hand[role] = ctx.state.houses[fight.house(role)].hand == [card]


def apply_card_texts(ctx: Context, fight: Fight) -> Modifiers:
    """Resolve cancel, immediate and strength texts in R6.4 order; return the modifiers."""
    mods = Modifiers.none()
    fiefdoms = ctx.state.tracks["fiefdoms"]
    in_order = sorted(ROLES, key=lambda r: fiefdoms.index(fight.house(r)))
    for window in WINDOWS:
        for role in in_order:
            text = texts_for(fight.cards[role], window)
            if text is None:
                continue
            if role in fight.cancelled:
                ctx.emit("house_card_text_cancelled", "R6.4", house=fight.house(role),
                         card=fight.cards[role], by="queen_of_thorns")
                continue
            for effect in text(fight, role):
                apply_effect(ctx, fight, role, effect, mods)
    return mods


def apply_effect(ctx: Context, fight: Fight, role: str, effect: Effect, mods: Modifiers) -> None:
    """Apply one card effect of ``role``'s card and emit ``house_card_text``."""
    detail = APPLIERS[effect.kind](ctx, fight, role, effect, mods)
    if detail is None:  # nothing to act on: the applier said so
        return
    ctx.emit("house_card_text", "R6.4", house=fight.house(role), card=fight.cards[role],
             effect=effect.kind.value, on=fight.house(effect.target), **detail)


Detail = dict[str, Any]


def _cancel_text(ctx: Context, fight: Fight, role: str, effect: Effect, mods: Modifiers) -> Detail:
    fight.cancelled.append(effect.target)
    return {"cancelled": fight.cards[effect.target]}


def _destroy_footman(ctx: Context, fight: Fight, role: str, effect: Effect,
                     mods: Modifiers) -> Detail:
    target = effect.target
    fight.units[target].remove("footman")
    if target == "defender":
        with ctx.state.edit(fight.area) as here:
            here.units.remove("footman")
    detail: Detail = {"unit": "footman"}
    if not fight.units[target] and mods.lost_at_once is None:
        mods.lost_at_once = target
        detail["loses_at_once"] = True
    return detail


def _remove_defense_order(ctx: Context, fight: Fight, role: str, effect: Effect,
                          mods: Modifiers) -> Detail | None:
    order = ctx.state.area(fight.area).order
    if order is None or ctx.ruleset.order_tokens[order].kind != "defense":
        ctx.emit("house_card_text", "R6.4", house=fight.house(role), card=fight.cards[role],
                 effect="none", reason="no Defense order to remove")
        return None
    with ctx.state.edit(fight.area) as here:
        here.order = None
    ctx.emit("order_removed", "R6.4", area=fight.area, house=fight.house(effect.target),
             order=order, by=fight.cards[role])
    return {"order": order}


def _unit_strength(ctx: Context, fight: Fight, role: str, effect: Effect,
                   mods: Modifiers) -> Detail:
    assert effect.unit is not None
    mods.unit_values[effect.target][effect.unit] = effect.value
    return {"unit": effect.unit, "value": effect.value}


def _defense_multiplier(ctx: Context, fight: Fight, role: str, effect: Effect,
                        mods: Modifiers) -> Detail:
    mods.defense_multiplier[effect.target] = effect.value
    return {"value": effect.value}


def _zero_supporting_ships(ctx: Context, fight: Fight, role: str, effect: Effect,
                           mods: Modifiers) -> Detail:
    mods.zero_supporting_ships.append(effect.target)
    return {}


def _zero_printed_strength(ctx: Context, fight: Fight, role: str, effect: Effect,
                           mods: Modifiers) -> Detail:
    mods.zero_printed.append(effect.target)
    return {"zeroed": fight.cards[effect.target]}


APPLIERS: dict[EffectKind, Callable[[Context, Fight, str, Effect, Modifiers], Detail | None]] = {
    EffectKind.CANCEL_TEXT: _cancel_text,
    EffectKind.DESTROY_FOOTMAN: _destroy_footman,
    EffectKind.REMOVE_DEFENSE_ORDER: _remove_defense_order,
    EffectKind.UNIT_STRENGTH: _unit_strength,
    EffectKind.DEFENSE_MULTIPLIER: _defense_multiplier,
    EffectKind.ZERO_SUPPORTING_SHIPS: _zero_supporting_ships,
    EffectKind.ZERO_PRINTED_STRENGTH: _zero_printed_strength,
}
"""How each kind of card effect changes the battle (R6.4); returns the event's details, or
None when the effect found nothing to act on (and said so)."""


# --- strength --------------------------------------------------------------------------------

def strength(ctx: Context, fight: Fight, role: str, declarations: Sequence[Declaration],
             mods: Modifiers, *, with_card: bool = True) -> Strength:
    """One side's strength broken down (R6.3): units, order, support, and the card (R6.4)."""
    rs, s = ctx.ruleset, ctx.state
    house = fight.house(role)
    values = mods.unit_values[role]
    units: dict[str, dict[str, int]] = {
        u: {"count": fight.units[role].count(u), "strength": values[u]}
             for u in ("footman", "knight", "ship") if u in fight.units[role]}
    unit_total = sum(v["count"] * v["strength"] for v in units.values())
    if role == "attacker":
        order: dict[str, Any] | None = {"order": fight.march_order,
                                        "bonus": rs.order_tokens[fight.march_order].bonus}
    else:
        here = s.area(fight.area)
        order = None
        if here.order is not None and rs.order_tokens[here.order].kind == "defense":
            order = {"order": here.order,
                     "bonus": rs.order_tokens[here.order].bonus * mods.defense_multiplier[role]}
    support = []
    for d in declarations:
        if d.side != house:
            continue
        value = d.strength
        if role in mods.zero_supporting_ships:
            value -= s.area(d.area).standing().count("ship")
        support.append({"area": d.area, "house": d.house, "strength": value})
    card = None
    if with_card:
        printed = 0 if role in mods.zero_printed else rs.house_cards[fight.cards[role]].strength
        card = {"card": fight.cards[role], "strength": printed}
    return Strength(house, units, unit_total, order, support, card)


def winner_of(ctx: Context, fight: Fight, totals: dict[str, Strength]) -> str:
    """The winning role: higher total, ties to the higher Fiefdoms position (R6.6)."""
    a, d = totals["attacker"].total, totals["defender"].total
    if a != d:
        return "attacker" if a > d else "defender"
    fiefdoms = ctx.state.tracks["fiefdoms"]
    return min(ROLES, key=lambda r: fiefdoms.index(fight.house(r)))


def ask_blade(ctx: Context, fight: Fight, totals: dict[str, Strength]) -> str | None:
    """The role that uses the Valyrian Steel Blade (R6.5), or None; marks it used."""
    s = ctx.state
    holder = s.holder("fiefdoms")
    if s.blade_used or holder not in fight.houses.values():
        return None
    role = "attacker" if fight.house("attacker") == holder else "defender"
    if winner_of(ctx, fight, totals) == role:
        return None
    boosted = {**totals, role: totals[role].with_blade()}
    if winner_of(ctx, fight, boosted) != role:
        return None
    plan: Any = ctx.inputs.plan(holder, "blade")
    if isinstance(plan, dict):
        plan = plan.get(fight.area)
    candidate: Any = NO_PLAN if plan is None else plan in ("auto", "always")
    request = Request(f"{fight.key}/blade/{holder}", holder, "blade",
                      Msg("battle in {area}: {strength} to {against}; the Valyrian Steel Blade "
                          "(+1, once per round) would win it for you. Use it?", area=fight.area,
                          strength=totals["attacker"].total, against=totals["defender"].total),
                      (True, False), False)
    if not ctx.ask(request, candidate):
        return None
    s.blade_used = True
    ctx.emit("valyrian_steel_blade_used", "R6.5", house=holder, area=fight.area)
    return role


def emit_summary(ctx: Context, fight: Fight, totals: dict[str, Strength],
                 mods: Modifiers) -> None:
    """The ``battle`` event: both sides' strength broken down, the winner and why."""
    assert fight.winner is not None
    a, d = totals["attacker"].total, totals["defender"].total
    if mods.lost_at_once is not None:
        decided = "last_unit_destroyed"
    elif a == d:
        decided = "fiefdoms_tie_break"
    else:
        decided = "strength"
    ctx.emit("battle", "R6", area=fight.area, origin=fight.origin,
             attacker=fight.house("attacker"), defender=fight.house("defender"),
             totals={fight.house(r): totals[r].total for r in ROLES},
             sides={r: totals[r].to_event() for r in ROLES}, winner=fight.house(fight.winner),
             loser=fight.house(fight.loser), decided_by=decided,
             fiefdoms=[h for h in ctx.state.tracks["fiefdoms"] if h in fight.houses.values()])


# --- R6.12 -----------------------------------------------------------------------------------

def discard_played_cards(ctx: Context, fight: Fight) -> None:
    """Both played cards go to their discard piles; a last card brings the hand back (R6.12).

    With the ruleset correction ``last_card_when_played`` (RUL-6.12-3), the hand comes back
    exactly when the card played was the last in hand when it was played, whatever a card text
    did to the hand since (Maester Luwin taking one back, Melisandre of Asshai discarding one);
    a hand that a card text, not the play, left empty comes back whole at once, after the
    played card is discarded (RUL-6.12-4), so that a house always holds a card to play.
    Without it, the rulesets before: with ``luwin_full_hand_return`` (RUL-6.12-2) the cards
    Luwin returned do not count, else only an empty hand at the end of the battle does.
    Events ``house_card_discarded``, ``hand_recycled``, ``hand_emptied``.
    """
    for role in ROLES:
        house, card = fight.house(role), fight.cards[role]
        hs = ctx.state.houses[house]
        hs.hand.remove(card)
        if ctx.ruleset.corrected("last_card_when_played"):
            last = fight.last_in_hand[role]
        elif ctx.ruleset.corrected("luwin_full_hand_return"):
            last = not [c for c in hs.hand if c not in fight.returned.get(role, ())]
        else:
            last = not hs.hand
        if last:
            _whole_hand_back(ctx, house)
            ctx.emit("hand_recycled", "R6.12", house=house, card=card, hand=list(hs.hand))
            continue
        hs.discards.append(card)
        ctx.emit("house_card_discarded", "R6.12", house=house, card=card)
        if not hs.hand:  # a card text emptied it (RUL-6.12-4): only with last_card_when_played
            _whole_hand_back(ctx, house)
            ctx.emit("hand_emptied", "R6.12", house=house, by=fight.discarded_by.get(role),
                     hand=list(hs.hand))


def _whole_hand_back(ctx: Context, house: str) -> None:
    """All of ``house``'s cards in its hand again, its discard pile empty (R6.12)."""
    hs = ctx.state.houses[house]
    hs.hand = list(ctx.ruleset.cards_by_house[house])
    hs.discards = []
