"""House card texts (R6.4): code keyed by card id and timing window.

The numbers of a card (printed strength, swords, fortifications) are data
(``ruleset.house_cards``); only the *texts* live here. Texts are grouped by
the timing window of R6.4:

- ``cancel`` — resolves first (The Queen of Thorns);
- ``immediately`` and ``strength`` — resolve next, each house in Fiefdoms
  order; they return :class:`Effect` values that :mod:`battles` applies
  before strengths are compared;
- ``on_win`` — resolve after the winner is known (only the winner's card
  can have one that acts); they may ask decisions and change the board.

"Opponent" is always the other side's attacker or defender, never a
supporter (R6.4). A text whose card was cancelled does nothing; a text that
does not apply in the situation (Robb Stark while defending) returns no
effect. Every strength/immediate text only changes numbers or removes
pieces, so their relative order cannot change an outcome; the Fiefdoms
order fixes only the order of the events.

Rulings (judgment calls, listed in the man page):

- Salladhor Saan zeroes the *ships* of areas supporting the opponent; the
  +1 of a Support★ order there still counts (it is the order's, not a ship's).
- Ser Loras Tyrell destroys an opponent's standing footman in the battle
  (never a supporter's, never a routed one); with no such footman it does
  nothing. If it removes that side's last fighting unit, that side loses
  at once (R6.4 Decision).
- Brienne of Tarth removes the opponent's Defense order only when the
  opponent is the defender (an attacker has no order in the embattled area).
- Catelyn Stark doubles the Stark Defense order only when Stark defends.
- The Queen of Thorns cancels the opponent's text whatever its window,
  "if you win" texts included.
- ``on_win`` texts resolve after the winner is known and *before*
  casualties, retreats and the discarding of the played cards (R6.12): so
  Maester Luwin cannot take back the card being played, and Melisandre sees
  the loser's hand without the card it played.
- Cersei Lannister may remove any order of the loser except the March order
  being resolved and the orders in the embattled area (removed anyway,
  R6.11). Default: the first such order in the fixed area order.
- Renly Baratheon upgrades one standing Baratheon footman that fought in the
  battle, if a knight is left in the unit pool (R0.4). Options ``upgrade`` /
  ``none``; default ``upgrade``.
- Melisandre costs 1 available power; without it the text does nothing.
  Default: decline.
- Asha Greyjoy: any Support or Consolidate Power order of another house in
  an area adjacent to the embattled area. Default: the first in area order.
- Maester Luwin: any card of the Stark discard pile. Default: the first in
  the data order of the cards (strongest first).
- A ``card_choices`` plan lists ids in preference; the first one that is
  legal applies; ``[]`` or a list with nothing legal declines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from agot_adjudicator.engine.board import gain_power
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request, named
from agot_adjudicator.model.text import Msg

ROLES = ("attacker", "defender")
NONE = "none"
"""The answer that declines an optional card text."""


def opponent(role: str) -> str:
    """The other side of a battle.

    >>> opponent("attacker")
    'defender'
    """
    return "defender" if role == "attacker" else "attacker"


@dataclass(frozen=True)
class Attack:
    """A march that starts a battle (R6.1).

    ``units`` have already left ``origin`` (they stand nowhere while the battle
    is fought); ``key`` prefixes the battle's decision ids (``r3/march@lannisport``).
    """

    key: str
    attacker: str
    origin: str
    target: str
    units: tuple[str, ...]
    march_order: str


@dataclass
class Fight:
    """A battle being fought (R6): the :class:`Attack` that started it, the defender, the
    fighting units and cards of both sides, and (once known) the winning role.

    ``units`` maps a role to the *standing* units that fight (routed units
    never fight, R6.10); for the attacker they are off the board until the
    battle ends.
    """

    attack: Attack
    defender: str
    units: dict[str, list[str]]
    cards: dict[str, str] = field(default_factory=dict)
    cancelled: list[str] = field(default_factory=list)
    winner: str | None = None
    returned: dict[str, list[str]] = field(default_factory=dict)
    """Cards a role took back into its hand during the battle (Maester Luwin, R6.4)."""
    last_in_hand: dict[str, bool] = field(default_factory=dict)
    """Per role: whether the card it played was the last in its hand when played (R6.12)."""
    discarded_by: dict[str, str] = field(default_factory=dict)
    """Per role: the card text that discarded a card of its hand during the battle (Melisandre
    of Asshai, R6.4)."""

    @property
    def key(self) -> str:
        return self.attack.key

    @property
    def area(self) -> str:
        """The embattled area."""
        return self.attack.target

    @property
    def origin(self) -> str:
        return self.attack.origin

    @property
    def march_order(self) -> str:
        return self.attack.march_order

    @property
    def houses(self) -> dict[str, str]:
        """Role → house."""
        return {"attacker": self.attack.attacker, "defender": self.defender}

    def house(self, role: str) -> str:
        return self.attack.attacker if role == "attacker" else self.defender

    @property
    def loser(self) -> str:
        """The losing role; only once the winner is known."""
        assert self.winner is not None, "the battle is not decided yet"
        return opponent(self.winner)


class EffectKind(StrEnum):
    """What a cancel, immediate or strength text can do (R6.4): the one list of the kinds, which
    :mod:`battles` applies and the report words (each has exactly one applier and one line)."""

    CANCEL_TEXT = "cancel_text"
    """Cancel the opponent's card text (The Queen of Thorns)."""
    DESTROY_FOOTMAN = "destroy_footman"
    """Destroy one of the opponent's fighting footmen (Ser Loras Tyrell)."""
    REMOVE_DEFENSE_ORDER = "remove_defense_order"
    """Remove the defender's Defense order (Brienne of Tarth)."""
    UNIT_STRENGTH = "unit_strength"
    """Each attacking ``unit`` counts ``value`` (Robb Stark, Vargo Hoat, Victarion Greyjoy)."""
    DEFENSE_MULTIPLIER = "defense_multiplier"
    """The Defense order counts ``value`` times (Catelyn Stark)."""
    ZERO_SUPPORTING_SHIPS = "zero_supporting_ships"
    """Ships supporting the opponent add nothing (Salladhor Saan)."""
    ZERO_PRINTED_STRENGTH = "zero_printed_strength"
    """The opponent's printed card strength is 0 (Balon Greyjoy)."""


@dataclass(frozen=True)
class Effect:
    """What a cancel/immediate/strength text does; ``target`` is the role it acts on."""

    kind: EffectKind
    target: str
    unit: str | None = None
    value: int = 0


Text = Callable[[Fight, str], list[Effect]]


def _queen_of_thorns(fight: Fight, role: str) -> list[Effect]:
    return [Effect(EffectKind.CANCEL_TEXT, opponent(role))]


def _ser_loras(fight: Fight, role: str) -> list[Effect]:
    if "footman" in fight.units[opponent(role)]:
        return [Effect(EffectKind.DESTROY_FOOTMAN, opponent(role))]
    return []


def _brienne(fight: Fight, role: str) -> list[Effect]:
    return [Effect(EffectKind.REMOVE_DEFENSE_ORDER, "defender")] if role == "attacker" else []


def _attacking_unit(unit: str, value: int) -> Text:
    def text(fight: Fight, role: str) -> list[Effect]:
        return [Effect(EffectKind.UNIT_STRENGTH, role, unit, value)] if role == "attacker" else []
    return text


def _catelyn(fight: Fight, role: str) -> list[Effect]:
    return [Effect(EffectKind.DEFENSE_MULTIPLIER, role, value=2)] if role == "defender" else []


def _salladhor(fight: Fight, role: str) -> list[Effect]:
    return [Effect(EffectKind.ZERO_SUPPORTING_SHIPS, opponent(role))]


def _balon(fight: Fight, role: str) -> list[Effect]:
    return [Effect(EffectKind.ZERO_PRINTED_STRENGTH, opponent(role))]


TEXTS: dict[tuple[str, str], Text] = {
    ("queen_of_thorns", "cancel"): _queen_of_thorns,
    ("ser_loras_tyrell", "immediately"): _ser_loras,
    ("brienne_of_tarth", "immediately"): _brienne,
    ("robb_stark", "strength"): _attacking_unit("knight", 3),
    ("vargo_hoat", "strength"): _attacking_unit("footman", 2),
    ("victarion_greyjoy", "strength"): _attacking_unit("ship", 2),
    ("catelyn_stark", "strength"): _catelyn,
    ("salladhor_saan", "strength"): _salladhor,
    ("balon_greyjoy", "strength"): _balon,
}
"""Texts that resolve before strengths are compared, keyed by (card id, window)."""

WINDOWS = ("cancel", "immediately", "strength")


def texts_for(card: str, window: str) -> Text | None:
    """The text of ``card`` in ``window``, or None (no text there)."""
    return TEXTS.get((card, window))


# --- "if you win" texts -------------------------------------------------------------------

def _card_plan(ctx: Context, house: str, card: str, options: list[str]) -> object:
    """The ``card_choices`` plan of ``house`` for ``card`` as a candidate answer."""
    plans = ctx.inputs.plan(house, "card_choices") or {}
    if card not in plans:
        return NO_PLAN
    for choice in plans[card]:
        if choice in options:
            return choice
    return NONE


def _ask_card(ctx: Context, fight: Fight, role: str, options: list[str], default: str,
              prompt: Msg) -> str:
    house, card = fight.house(role), fight.cards[role]
    options = [*options, NONE]
    request = Request(f"{fight.key}/card/{card}/{house}", house, "card_choice",
                      Msg("{card} (won the battle in {area}): {question}",
                          card=named(ctx.ruleset.house_cards[card].name, "card", card),
                          area=fight.area, question=prompt), tuple(options), default)
    choice: str = ctx.ask(request, _card_plan(ctx, house, card, options))
    return choice


def _ser_jaime(ctx: Context, fight: Fight, role: str) -> None:
    house = fight.house(role)
    gained = gain_power(ctx, house, 2)
    ctx.emit("power_gained", "R6.4", house=house, power=gained, source="ser_jaime_lannister")


def _cersei(ctx: Context, fight: Fight, role: str) -> None:
    loser = fight.house(opponent(role))
    s = ctx.state
    options = [a for a in ctx.ruleset.area_ids
               if a in s.areas and s.areas[a].house == loser and s.areas[a].order is not None
               and a != fight.area and not (a == fight.origin and opponent(role) == "attacker")]
    if not options:
        return
    choice = _ask_card(ctx, fight, role, options, options[0],
                       Msg("remove one order of {house} (give the area).", house=loser))
    if choice == NONE:
        return
    here = s.areas[choice]
    removed, here.order = here.order, None
    ctx.emit("order_removed", "R6.4", area=choice, house=loser, order=removed,
             by="cersei_lannister")


def _knights_in_play(ctx: Context, house: str, fight: Fight) -> int:
    on_board = sum(a.units.count("knight") for a in ctx.state.areas.values() if a.house == house)
    attacking = fight.units["attacker"].count("knight") if fight.house("attacker") == house else 0
    return on_board + attacking


def _renly(ctx: Context, fight: Fight, role: str) -> None:
    house = fight.house(role)
    if "footman" not in fight.units[role]:
        return
    if _knights_in_play(ctx, house, fight) >= ctx.ruleset.unit_limits["knight"]:
        ctx.emit("card_text_no_effect", "R0.4", card="renly_baratheon", house=house,
                 reason="no knight left in the unit pool")
        return
    choice = _ask_card(ctx, fight, role, ["upgrade"], "upgrade",
                       Msg("upgrade one footman that fought in {area} to a knight?",
                           area=fight.area))
    if choice == NONE:
        return
    units = fight.units[role]
    units.remove("footman")
    units.append("knight")
    if role == "defender":
        with ctx.state.edit(fight.area) as here:
            here.units.remove("footman")
            here.units.append("knight")
    ctx.emit("unit_upgraded", "R6.4", house=house, area=fight.area, unit="footman",
             to="knight", by="renly_baratheon")


def _melisandre(ctx: Context, fight: Fight, role: str) -> None:
    house = fight.house(role)
    loser_role = opponent(role)
    loser = fight.house(loser_role)
    if ctx.state.houses[house].power < 1:
        ctx.emit("card_text_no_effect", "R6.4", card="melisandre", house=house,
                 reason="no available power to pay")
        return
    hand = [c for c in ctx.state.houses[loser].hand if c != fight.cards[loser_role]]
    if not hand:
        return
    choice = _ask_card(ctx, fight, role, hand, NONE,
                       Msg("pay 1 power to discard one card of {house}'s hand (options list "
                           "it).", house=loser))
    if choice == NONE:
        return
    ctx.state.houses[house].power -= 1
    loser_state = ctx.state.houses[loser]
    loser_state.hand.remove(choice)
    loser_state.discards.append(choice)
    fight.discarded_by[loser_role] = "melisandre"
    ctx.emit("house_card_discarded", "R6.4", house=loser, card=choice, by="melisandre",
             paid=1, payer=house)


def _asha(ctx: Context, fight: Fight, role: str) -> None:
    house = fight.house(role)
    s, rs = ctx.state, ctx.ruleset
    options = []
    for area_id in rs.areas[fight.area].adjacent:
        here = s.area(area_id)
        if here.order is None or here.house in (None, house):
            continue
        if rs.order_tokens[here.order].kind in ("support", "consolidate_power"):
            options.append(area_id)
    if not options:
        return
    choice = _ask_card(ctx, fight, role, options, options[0],
                       Msg("remove one Support or Consolidate Power order of another house "
                           "next to {area} (give the area).", area=fight.area))
    if choice == NONE:
        return
    here = s.areas[choice]
    removed, here.order = here.order, None
    ctx.emit("order_removed", "R6.4", area=choice, house=here.house, order=removed,
             by="asha_greyjoy")


def _luwin(ctx: Context, fight: Fight, role: str) -> None:
    house = fight.house(role)
    hs = ctx.state.houses[house]
    options = [c for c in ctx.ruleset.cards_by_house[house] if c in hs.discards]
    if not options:
        return
    choice = _ask_card(ctx, fight, role, options, options[0],
                       Msg("take one card of your discard pile back into your hand."))
    if choice == NONE:
        return
    hs.discards.remove(choice)
    hs.hand.append(choice)
    hs.hand.sort(key=ctx.ruleset.cards_by_house[house].index)
    fight.returned.setdefault(role, []).append(choice)
    ctx.emit("house_card_returned", "R6.4", house=house, card=choice, by="maester_luwin")


OnWin = Callable[[Context, Fight, str], None]

ON_WIN: dict[str, OnWin] = {
    "ser_jaime_lannister": _ser_jaime,
    "cersei_lannister": _cersei,
    "renly_baratheon": _renly,
    "melisandre": _melisandre,
    "asha_greyjoy": _asha,
    "maester_luwin": _luwin,
}
""""If you win" texts (R6.4), keyed by card id."""
