"""Battles (R6): support, strength, house cards, Valyrian Steel Blade, casualties, retreats.

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

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from agot_adjudicator.engine import board
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Check, Request
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
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState, sort_units
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
    before = {r: strength(ctx, fight, r, declarations, Modifiers.none(), with_card=False).total
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


def ask_house_cards(ctx: Context, fight: Fight, before: dict[str, int]) -> None:
    """Ask both sides for a house card at once (R6.4); fill ``fight.cards``."""
    items = []
    for role in ROLES:
        house, other = fight.house(role), fight.house(opponent(role))
        hand = hand_in_order(ctx, house)
        assert hand, f"{house} holds no house card: the state checks refuse it (RUL-6.12-4)"
        prompt = Msg("{attacker} attacks {area} ({defender} defends, strength {strength} to "
                     "{against} before cards). Choose a house card.",
                     attacker=fight.house("attacker"), area=fight.area,
                     defender=fight.house("defender"), strength=before["attacker"],
                     against=before["defender"])
        request = Request(f"{fight.key}/house_card/{house}", house, "house_card", prompt,
                          tuple(hand), hand[0], reveals=(fight.house("defender"),))
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


# --- casualties ------------------------------------------------------------------------------

def default_units(pool: Sequence[str], count: int) -> list[str]:
    """The ``count`` cheapest units of ``pool`` (footman, ship, knight).

    >>> default_units(["knight", "ship", "footman"], 2)
    ['footman', 'ship']
    """
    ranked = sorted(pool, key=board.LOSS_ORDER.index)
    return sort_units(ranked[:count])


def plan_units(plan: Sequence[Any] | None, pool: Sequence[str], count: int,
               areas: Sequence[str]) -> Any:
    """The units a ``casualties`` plan picks from ``pool`` (or NO_PLAN; a short pick if it
    cannot name ``count`` units, which the request then refuses).

    >>> plan_units(["knight", "footman"], ["footman", "knight", "knight"], 2, ["x"])
    ['knight', 'knight']
    >>> plan_units([{"area": "x", "unit": "footman"}], ["footman", "knight"], 1, ["x"])
    ['footman']
    """
    if plan is None:
        return NO_PLAN
    left = list(pool)
    picked: list[str] = []
    for item in plan:
        if len(picked) == count:
            break
        if isinstance(item, str):
            while item in left and len(picked) < count:
                left.remove(item)
                picked.append(item)
        elif item.get("area") in areas and item.get("unit") in left:
            left.remove(item["unit"])
            picked.append(item["unit"])
    return sort_units(picked)


def _units_check(pool: Sequence[str], count: int) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return Msg("{answer} is not a list of unit types", answer=repr(value))
        if len(value) != count:
            return Msg("{named} units named; exactly {count} must be chosen", named=len(value),
                       count=count)
        left = list(pool)
        for unit in value:
            if unit not in left:
                return Msg("no {unit} left to choose among {pool}", unit=unit,
                           pool=sort_units(list(pool)))
            left.remove(unit)
        return None
    return check


def choose_units(ctx: Context, decision_id: str, kind: str, house: str, pool: Sequence[str],
                 count: int, prompt: Msg, areas: Sequence[str]) -> list[str]:
    """Which ``count`` units of ``pool`` ``house`` loses (asked only when there is a choice)."""
    pool = sort_units(list(pool))
    if count <= 0:
        return []
    if count >= len(pool):
        return list(pool)
    if len(set(pool)) == 1:
        return pool[:count]
    options = sorted({tuple(c) for c in itertools.combinations(pool, count)})
    request = Request(decision_id, house, kind, prompt, tuple(list(o) for o in options),
                      default_units(pool, count), check=_units_check(pool, count),
                      example=default_units(pool, count))
    plan = plan_units(ctx.inputs.plan(house, "casualties"), pool, count, areas)
    return sort_units(list(ctx.ask(request, plan)))


def take_casualties(ctx: Context, fight: Fight, loser: str) -> None:
    """R6.7: the loser loses winner's swords − loser's forts of its fighting units."""
    rs = ctx.ruleset
    winner = opponent(loser)
    swords = rs.house_cards[fight.cards[winner]].swords
    forts = rs.house_cards[fight.cards[loser]].forts
    count = max(0, swords - forts)
    house = fight.house(loser)
    pool = fight.units[loser]
    areas = [fight.area] + ([fight.origin] if loser == "attacker" else [])
    dead = choose_units(ctx, f"{fight.key}/casualties/{house}", "casualties", house, pool,
                        min(count, len(pool)),
                        Msg("you lost the battle in {area}: choose {count} casualties among "
                            "{pool}.", area=fight.area, count=count, pool=sort_units(list(pool))),
                        areas)
    for unit in dead:
        pool.remove(unit)
    if loser == "defender" and dead:
        with ctx.state.edit(fight.area) as here:
            for unit in dead:
                here.units.remove(unit)
    ctx.emit("casualties", "R6.7", house=house, area=fight.area, swords=swords, forts=forts,
             count=count, units=dead)


# --- retreats --------------------------------------------------------------------------------

def kept_by_supply(ctx: Context, house: str, to: str, units: int, leaving: str | None) -> int:
    """How many of ``units`` arriving in ``to`` fit ``house``'s supply (R5.8, R9).

    ``leaving`` is an area the units are leaving (its units of ``house`` are
    not counted).
    """
    counts = board.unit_counts(ctx.state, house)
    if leaving is not None:
        counts.pop(leaving, None)
    for k in range(units, -1, -1):
        trial = dict(counts)
        trial[to] = trial.get(to, 0) + k
        if board.within_supply(ctx.state, ctx.ruleset, house, trial):
            return k
    return 0


def retreat_areas(ctx: Context, fight: Fight) -> list[str]:
    """Legal retreat areas for the defender's survivors (R6.9, R5.4, R5.5), in id order."""
    return retreat_options(ctx.state, ctx.ruleset, fight.house("defender"), fight.area,
                           fight.origin)


def retreat_options(s: GameState, rs: Ruleset, house: str, area: str,
                    origin: str | None = None) -> list[str]:
    """Where ``house``'s units beaten in ``area`` may retreat (R6.9, R5.4, R5.5, R5.11), in id
    order: never across a river without a bridge, which no unit crosses.

    ``origin``, the attacker's origin, is never legal; None when not known yet
    (the order template lists the options before any battle).
    """
    at_sea = rs.areas[area].is_sea
    near = list(rs.areas[area].march_adjacent)
    if not at_sea:
        near += board.transport_reach(s, rs, house, area)
    out = []
    for area_id in rs.area_ids:
        if area_id not in near or area_id == origin:
            continue
        if rs.areas[area_id].is_sea != at_sea:
            continue
        here = s.area(area_id)
        if here.neutral_force is not None:
            continue
        if here.units and here.house != house:
            continue
        if here.power_token is not None and here.power_token != house:
            continue
        out.append(area_id)
    return out


def _destroy(ctx: Context, house: str, area: str, units: Sequence[str], reason: str,
             rule: str) -> None:
    if units:
        ctx.emit("unit_destroyed", rule, house=house, area=area, units=sort_units(list(units)),
                 reason=reason)


def _place_routed(ctx: Context, house: str, area_id: str, units: Sequence[str]) -> None:
    with ctx.state.edit(area_id) as here:
        here.house = house
        here.units = sort_units([*here.units, *units])
        here.routed = sort_units([*here.routed, *units])


def _supply_cut(ctx: Context, fight: Fight, house: str, to: str, units: list[str],
                leaving: str | None) -> list[str]:
    """Survivors after the supply limit (R5.8): the rest are destroyed (a choice if mixed)."""
    keep = kept_by_supply(ctx, house, to, len(units), leaving)
    if keep >= len(units):
        return units
    lost = choose_units(ctx, f"{fight.key}/retreat_losses/{house}", "retreat_losses", house,
                        units, len(units) - keep,
                        Msg("only {count} of your units ({units}) can retreat to {area} within "
                            "your supply limit: choose the ones destroyed.", count=keep,
                            units=units, area=to), [fight.area, to])
    rest = list(units)
    for unit in lost:
        rest.remove(unit)
    _destroy(ctx, house, to, lost, "supply limit on retreat", "R6.9")
    return rest


def attacker_retreats(ctx: Context, fight: Fight) -> None:
    """R6.8/R6.10: a beaten attacker's survivors go back to their origin, routed."""
    house = fight.house("attacker")
    units = _supply_cut(ctx, fight, house, fight.origin, list(fight.units["attacker"]), None)
    if units:
        _place_routed(ctx, house, fight.origin, units)
    ctx.emit("retreat", "R6.8", house=house, area=fight.area, to=fight.origin if units else None,
             units=sort_units(units), routed=True)


def defender_retreats(ctx: Context, fight: Fight) -> None:
    """R6.9/R6.10: a beaten defender's survivors retreat together to one legal area, routed;
    its units already routed there are destroyed; the embattled area is emptied."""
    s = ctx.state
    house = fight.house("defender")
    with s.edit(fight.area) as here:
        _destroy(ctx, house, fight.area, here.routed, "routed units cannot retreat again", "R6.9")
        here.units = []
        order, here.order = here.order, None
        if here.power_token is not None and here.power_token != fight.house("attacker"):
            here.power_token = None
    survivors = list(fight.units["defender"])
    if order is not None:
        ctx.emit("order_removed", "R6.11", area=fight.area, house=house, order=order,
                 by="battle lost")
    if not survivors:
        return
    legal = retreat_areas(ctx, fight)
    if not legal:
        _destroy(ctx, house, fight.area, survivors, "no legal retreat", "R6.9")
        ctx.emit("retreat", "R6.9", house=house, area=fight.area, to=None, units=[],
                 destroyed=survivors)
        return
    losses = {a: len(survivors) - kept_by_supply(ctx, house, a, len(survivors), None)
              for a in legal}
    fewest = min(losses.values())
    options = [a for a in legal if losses[a] == fewest]
    to = options[0]
    if len(options) > 1:
        plan: Any = NO_PLAN
        prefs = (ctx.inputs.plan(house, "retreats") or {}).get(fight.area)
        if prefs is not None:
            fitting = [a for a in prefs if a in options]
            plan = fitting[0] if fitting else (prefs[0] if prefs else NO_PLAN)
        request = Request(f"{fight.key}/retreat/{house}", house, "retreat",
                          Msg("you lost {area}: retreat {units} to one of these areas.",
                              area=fight.area, units=survivors),
                          tuple(options), options[0])
        to = ctx.ask(request, plan)
    kept = _supply_cut(ctx, fight, house, to, survivors, None)
    if kept:
        _place_routed(ctx, house, to, kept)
    lost = list(survivors)
    for unit in kept:
        lost.remove(unit)
    ctx.emit("retreat", "R6.9", house=house, area=fight.area, to=to, units=sort_units(kept),
             destroyed=sort_units(lost), routed=True)


def occupy(ctx: Context, fight: Fight) -> None:
    """R6.11: the winning attacker's units stand in the embattled area."""
    s = ctx.state
    house = fight.house("attacker")
    with s.edit(fight.area) as here:
        if here.power_token is not None and here.power_token != house:
            ctx.emit("power_token_returned", "R5.5", area=fight.area, house=here.power_token)
            here.power_token = None
        here.house = house
        here.units = sort_units(list(fight.units["attacker"]))
        here.routed = []
        here.order = None
    ctx.emit("area_occupied", "R6.11", house=house, area=fight.area, units=here.units)


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
