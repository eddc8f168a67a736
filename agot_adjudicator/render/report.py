"""Render events (and pending decisions) as a report (Markdown or plain text), a JSON Lines
log, and paste-ready YAML.

The report never decides anything: every line comes from an event (one line
per event, naming its R-rule; a ``battle`` event also renders its strength
table), then the board and tracks from the state after the run. So the
report and the log (``--log``) cannot disagree.

The report holds public information only: never hands, bids before they are
revealed, the Westeros decks, the seed, plans or the prompts of pending
decisions (a Melisandre prompt lists the loser's hand). ``private=HOUSE``
appends that house's own hand, its submitted bids and its pending questions.

Event log: JSON Lines, one event per line. Every event starts with ``type``,
``rule`` (an R-rule, or a protocol id such as ``P2``; see ``agot rules``), ``round`` and
``phase``, then the fields listed for its type in
:data:`~agot_adjudicator.engine.events.EVENT_FIELDS`, where events are defined (a test checks
that table against every event the engine emits). Ids are the ruleset's ids.

The demo game (``scenarios/games/demo``) records reports and logs byte for byte: after changing
a sentence on purpose, run ``python scenarios/regenerate.py`` and commit the result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.engine.events import Event
from agot_adjudicator.engine.house_cards import EffectKind
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.tables import columns, table
from agot_adjudicator.render.views import area_rows, units_text

PHASE_TITLES = {"westeros": "Westeros phase", "planning": "Planning phase",
                "action": "Action phase", "ended": "End of the game"}
FORMATS = ("markdown", "text")

"""The event log's documentation: event type → field → meaning (after ``type``, ``rule``,
``round``, ``phase``)."""


# --- names -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Names:
    """Readable names for ruleset ids."""

    ruleset: Ruleset

    def area(self, area_id: Any) -> str:
        if area_id is None:
            return "nowhere"
        area = self.ruleset.areas.get(area_id)
        return area.name if area is not None else str(area_id)

    def card(self, card_id: Any) -> str:
        card = self.ruleset.house_cards.get(card_id)
        return card.name if card is not None else human(card_id)

    def order(self, order_id: Any) -> str:
        token = self.ruleset.order_tokens.get(order_id)
        if token is None:
            return human(order_id)
        text = human(token.kind).title()
        if token.kind in ("march", "defense") or token.bonus:
            text += f" {token.bonus:+d}"
        return text + ("★" if token.special else "")


def human(value: Any) -> str:
    """``clash_of_kings`` → ``clash of kings``; None → ``none``.

    >>> human("game_of_thrones")
    'game of thrones'
    """
    return "none" if value is None else str(value).replace("_", " ")


def house(value: Any) -> str:
    """A house id as a name: ``stark`` → ``Stark``."""
    return "no one" if value is None else str(value).capitalize()


def about(value: str) -> str:
    """``clash_of_kings/iron_throne`` → ``clash of kings, iron throne``."""
    return human(value).replace("/", ", ")


def plain(value: Any) -> str:
    """Any answer value as plain words (no brackets or quotes).

    >>> plain({"winterfell": "march_0", "the_reach": None})
    'winterfell march 0, the reach none'
    >>> plain([])
    'nothing'
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{human(k)} {plain(v)}" for k, v in value.items()) or "nothing"
    return human(value)


def houses(values: Sequence[Any]) -> str:
    return ", ".join(house(v) for v in values) if values else "no one"


def units(values: Sequence[str]) -> str:
    return units_text(list(values)) if values else "no units"


def entries(values: Sequence[Mapping[str, str]], nm: Names) -> str:
    return ", ".join(f"a {v['unit']} in {nm.area(v['area'])}" for v in values) or "nothing"


def by_house(mapping: Mapping[str, Any]) -> str:
    return ", ".join(f"{house(h)} {v}" for h, v in mapping.items()) or "none"


# --- one line per event ----------------------------------------------------------------------

Line = Callable[[Event, Names], str]


def _battle(e: Event, nm: Names) -> str:
    a, d = e["attacker"], e["defender"]
    text = (f"Battle in {nm.area(e['area'])}: {house(a)} attacks from {nm.area(e['origin'])}, "
            f"{house(d)} defends; {house(e['winner'])} wins {e['totals'][e['winner']]} to "
            f"{e['totals'][e['loser']]}")
    if e["decided_by"] == "fiefdoms_tie_break":
        text += f" (tie: higher on Fiefdoms, order {houses(e['fiefdoms'])}, R6.6)"
    elif e["decided_by"] == "last_unit_destroyed":
        text += f" ({house(e['loser'])}'s last fighting unit was destroyed by a card text)"
    return text + "."


CARD_TEXT_LINES: dict[EffectKind, Callable[[Event, str, str, Names], str]] = {
    EffectKind.CANCEL_TEXT: lambda e, who, on, nm: (
        f"{who} cancels the text of {nm.card(e['cancelled'])} ({on})."),
    EffectKind.DESTROY_FOOTMAN: lambda e, who, on, nm: (
        f"{who} destroys a {on} footman in the battle"
        + (f"; {on} has no fighting unit left and loses at once." if e.get("loses_at_once")
           else ".")),
    EffectKind.REMOVE_DEFENSE_ORDER: lambda e, who, on, nm: (
        f"{who} removes {on}'s {nm.order(e['order'])} order."),
    EffectKind.UNIT_STRENGTH: lambda e, who, on, nm: (
        f"{who}: each attacking {on} {e['unit']} counts {e['value']}."),
    EffectKind.DEFENSE_MULTIPLIER: lambda e, who, on, nm: (
        f"{who}: {on}'s Defense order counts ×{e['value']}."),
    EffectKind.ZERO_SUPPORTING_SHIPS: lambda e, who, on, nm: f"{who}: ships supporting {on} add 0.",
    EffectKind.ZERO_PRINTED_STRENGTH: lambda e, who, on, nm: (
        f"{who}: the printed strength of {nm.card(e['zeroed'])} ({on}) is 0."),
}
"""The report line of each kind of card effect (``house_card_text`` events)."""


def _card_text(e: Event, nm: Names) -> str:
    who, on = f"{nm.card(e['card'])} ({house(e['house'])})", house(e.get("on"))
    if e["effect"] in CARD_TEXT_LINES:
        return CARD_TEXT_LINES[EffectKind(e["effect"])](e, who, on, nm)
    return f"{who} has no effect: {e.get('reason', 'nothing to act on')}."


def _card_returned(e: Event, nm: Names) -> str:
    if e["house"] is None:
        return f"No house card comes back: {e['reason']}."
    if e["card"] is None:
        return f"{house(e['house'])} takes no card back: {e['reason']}."
    return f"{house(e['house'])} takes {nm.card(e['card'])} back into its hand."


def _discarded(e: Event, nm: Names) -> str:
    if e.get("by"):
        return (f"{house(e['payer'])} pays {e['paid']} power ({nm.card(e['by'])}): "
                f"{house(e['house'])} discards {nm.card(e['card'])} from its hand.")
    return f"{house(e['house'])} discards {nm.card(e['card'])}."


def _raid(e: Event, nm: Names) -> str:
    if "target" not in e:
        return f"{house(e['house'])}'s raid in {nm.area(e['area'])} removes nothing."
    return (f"{house(e['house'])} raids from {nm.area(e['area'])}: {house(e['victim'])}'s "
            f"{nm.order(e['removed'])} in {nm.area(e['target'])} is removed.")


def _retreat(e: Event, nm: Names) -> str:
    lost = e.get("destroyed") or []
    if e["to"] is None and not e["units"]:
        what = f"are destroyed ({units(lost)})" if lost else "are all destroyed"
        return f"{house(e['house'])}'s survivors from {nm.area(e['area'])} {what}."
    text = (f"{house(e['house'])}'s survivors from {nm.area(e['area'])} retreat to "
            f"{nm.area(e['to'])}: {units(e['units'])}" + (", routed" if e["units"] else ""))
    return text + (f"; the supply limit destroys {units(lost)}." if lost else ".")


def _power_gained(e: Event, nm: Names) -> str:
    if "icons" in e:
        return (f"{house(e['house'])} gains {e['gained']} power for {e['icons']} power icons "
                f"(now {e['power']}).")
    return f"{house(e['house'])} gains {e['power']} power ({nm.card(e['source'])})."


def _unit_destroyed(e: Event, nm: Names) -> str:
    if "unit" in e:
        return f"{house(e['house'])}'s {e['unit']} in {nm.area(e['area'])} is destroyed ({e['cause']})."
    return f"{house(e['house'])}'s {units(e['units'])} in {nm.area(e['area'])} destroyed: {e['reason']}."


def _support(e: Event, nm: Names) -> str:
    who = f"{house(e['house'])}'s Support order in {nm.area(e['area'])}"
    if e["side"] is None:
        return f"{who} supports no one in {nm.area(e['battle'])}."
    return f"{who} supports {house(e['side'])} in {nm.area(e['battle'])} (+{e['strength']})."


def _neutral(e: Event, nm: Names) -> str:
    st = e["strength"]
    return (f"{house(e['house'])} attacks the neutral force in {nm.area(e['area'])} from "
            f"{nm.area(e['origin'])}: units {st['units']}, march {st['march']:+d}, support "
            f"{st['support']} = {st['total']} against {e['neutral']}: "
            + ("it is removed." if e["won"] else "the attack fails."))


def _tie(e: Event, nm: Names) -> str:
    choice = houses(e["order"]) if "order" in e else house(e["chosen"])
    return f"{house(e['by'])} (Iron Throne) breaks the tie on {about(e['about'])}: {choice}."


def _game_ended(e: Event, nm: Names) -> str:
    return (f"The game ends: {houses(e['winners'])} win{'s' if len(e['winners']) == 1 else ''} "
            f"(castles: {by_house(e['castles'])}; supply: {by_house(e['supply'])}; "
            f"power: {by_house(e['power'])}).")


LINES: dict[str, Line] = {
    "area_occupied": lambda e, nm: f"{house(e['house'])} occupies {nm.area(e['area'])} with "
                                   f"{units(e['units'])}.",
    "battle": _battle,
    "bids_revealed": lambda e, nm: f"Bids revealed ({about(e['about'])}): {by_house(e['bids'])}.",
    "card_returned": _card_returned,
    "card_text_no_effect": lambda e, nm: f"{nm.card(e['card'])} ({house(e['house'])}) has no "
                                         f"effect: {e['reason']}.",
    "casualties": lambda e, nm: (f"{house(e['house'])} loses the battle in {nm.area(e['area'])}: "
                                 f"{e['swords']} swords − {e['forts']} fortifications = "
                                 f"{e['count']} casualties: {units(e['units'])}."),
    "consolidate_power": lambda e, nm: (f"{house(e['house'])} consolidates power in "
                                        f"{nm.area(e['area'])}: +{e['power']} "
                                        f"(worth {e['worth']})."),
    "deck_shuffled": lambda e, nm: f"Westeros deck {e['deck']} is shuffled.",
    "default_applied": lambda e, nm: (f"No answer from {house(e['house'])} to {e['decision']}: "
                                      f"the default ({plain(e['value'])}) applies "
                                      f"({e['reason']})."),
    "game_already_ended": lambda e, nm: "The game has already ended; nothing to resolve.",
    "game_ended": _game_ended,
    "game_won": lambda e, nm: (f"{houses(e['houses'])} controls {e['castles']} areas with a "
                               "castle and wins the game."),
    "hand_recycled": lambda e, nm: (f"{house(e['house'])} played its last card, "
                                    f"{nm.card(e['card'])}: all its cards return to its hand."),
    "house_card_discarded": _discarded,
    "house_card_returned": lambda e, nm: (f"{house(e['house'])} takes {nm.card(e['card'])} back "
                                          f"from its discard pile ({nm.card(e['by'])})."),
    "house_card_text": _card_text,
    "house_card_text_cancelled": lambda e, nm: (f"The text of {nm.card(e['card'])} "
                                                f"({house(e['house'])}) is cancelled by "
                                                f"{nm.card(e['by'])}."),
    "house_cards_revealed": lambda e, nm: (f"House cards for {nm.area(e['area'])}: "
                                           + "; ".join(f"{house(h)}: {nm.card(c)}"
                                                       for h, c in e["cards"].items()) + "."),
    "influence_tokens_removed": lambda e, nm: "Influence tokens are removed from the tracks.",
    "march_no_move": lambda e, nm: (f"{house(e['house'])}'s March order in {nm.area(e['area'])} "
                                    "moves no units."),
    "move": lambda e, nm: (f"{house(e['house'])} moves {units(e['units'])} from "
                           f"{nm.area(e['origin'])} to {nm.area(e['to'])}."),
    "muster_done": lambda e, nm: (f"{house(e['house'])} musters at {nm.area(e['castle'])}: "
                                  f"{e['spent']} of {e['points']} points used."),
    "muster_impossible": lambda e, nm: (f"{house(e['house'])} cannot muster at "
                                        f"{nm.area(e['castle'])}."),
    "mustered": lambda e, nm: (f"{house(e['house'])} upgrades a footman to a knight in "
                               f"{nm.area(e['area'])} (mustering at {nm.area(e['castle'])})."
                               if e["unit"] == "upgrade" else
                               f"{house(e['house'])} musters a {e['unit']} in {nm.area(e['area'])}"
                               f" (mustering at {nm.area(e['castle'])})."),
    "neutral_attack": _neutral,
    "nights_watch": lambda e, nm: (f"The Night's Watch ({e['strength']}) against a threat of "
                                   f"{e['threat']}: "
                                   + ("the Night's Watch holds." if e["winner"] == "nights_watch"
                                      else "the wildlings win.")),
    "order_removed": lambda e, nm: (f"{house(e['house'])}'s {nm.order(e['order'])} order in "
                                    f"{nm.area(e['area'])} is removed ({nm.card(e['by'])})."),
    "orders_removed": lambda e, nm: ("The remaining orders are removed: "
                                     + (", ".join(f"{nm.order(o)} in {nm.area(a)}"
                                                  for a, o in e["orders"].items()) or "none")
                                     + "."),
    "orders_revealed": lambda e, nm: "Orders are revealed.",
    "pillage": lambda e, nm: (f"{house(e['house'])} pillages {nm.area(e['target'])} and gains "
                              f"{e['power']} power."),
    "power_gained": _power_gained,
    "power_token_placed": lambda e, nm: (f"{house(e['house'])} leaves a power token in "
                                         f"{nm.area(e['area'])}."),
    "power_token_removed": lambda e, nm: (f"{house(e['by'])} removes {house(e['house'])}'s power "
                                          f"token from {nm.area(e['area'])}."),
    "power_token_returned": lambda e, nm: (f"{house(e['house'])}'s power token in "
                                           f"{nm.area(e['area'])} returns to its pool."),
    "raid": _raid,
    "raid_removed": lambda e, nm: (f"{house(e['house'])}'s raid in {nm.area(e['area'])} is "
                                   f"removed: {e['reason']}."),
    "raven_kept": lambda e, nm: f"{house(e['house'])} keeps its orders (Messenger Raven).",
    "raven_swap": lambda e, nm: (f"{house(e['house'])} uses the Messenger Raven: "
                                 f"{nm.order(e['old'])} in {nm.area(e['area'])} becomes "
                                 f"{nm.order(e['new'])}."),
    "restriction": lambda e, nm: f"{human(e['card']).capitalize()}: an order restriction this round.",
    "retreat": _retreat,
    "round_ended": lambda e, nm: f"The round ends; round {e['next_round']} follows.",
    "supply_reduction": lambda e, nm: (f"{house(e['house'])} is over its supply (level "
                                       f"{e['level']}) and removes {entries(e['units'], nm)}."),
    "supply_set": lambda e, nm: f"{house(e['house'])}'s supply: {e['old']} → {e['new']}.",
    "support_declared": _support,
    "support_refused": lambda e, nm: (f"{house(e['refused_by'])} refuses the support of "
                                      f"{house(e['house'])} from {nm.area(e['area'])}."),
    "tie_broken": _tie,
    "token_passed": lambda e, nm: (f"The {human(e['token'])} passes from {house(e['old'])} to "
                                   f"{house(e['new'])}."),
    "track_set": lambda e, nm: f"{human(e['track']).title()} track: {houses(e['order'])}.",
    "unit_destroyed": _unit_destroyed,
    "unit_upgraded": lambda e, nm: (f"{house(e['house'])} upgrades a {e['unit']} in "
                                    f"{nm.area(e['area'])} to a {e['to']} ({nm.card(e['by'])})."),
    "units_stand_up": lambda e, nm: (f"{house(e['house'])}'s routed {units(e['units'])} in "
                                     f"{nm.area(e['area'])} stand up."),
    "valyrian_steel_blade_used": lambda e, nm: (f"{house(e['house'])} uses the Valyrian Steel "
                                                f"Blade (+1) in {nm.area(e['area'])}."),
    "westeros_card_resolved": lambda e, nm: (f"{human(e['card']).capitalize()} (deck {e['deck']}) "
                                             "resolves."),
    "westeros_card_revealed": lambda e, nm: (f"Westeros deck {e['deck']}: "
                                             f"{human(e['card']).capitalize()}"
                                             + (" (wildling icon)" if e["wildling"] else "") + "."),
    "westeros_card_to_bottom": lambda e, nm: (f"{human(e['card']).capitalize()} goes to the "
                                              f"bottom of deck {e['deck']}."),
    "westeros_phase": lambda e, nm: f"The Westeros phase begins (wildling threat {e['threat']}).",
    "westeros_phase_skipped": lambda e, nm: "There is no Westeros phase in the first round.",
    "wildling_losses": lambda e, nm: (f"{house(e['house'])} owes {e['owed']} to the wildlings and "
                                      f"removes {entries(e['units'], nm)} ({e['points']} points)."),
    "wildling_threat_advanced": lambda e, nm: (f"{human(e['card']).capitalize()} bears a wildling "
                                               f"icon: the threat goes from {e['old']} to "
                                               f"{e['new']}" + (" (its maximum)" if e["capped"]
                                                                else "") + "."),
    "wildling_threat_set": lambda e, nm: f"The wildling threat goes from {e['old']} to {e['new']}.",
    "winter_is_coming": lambda e, nm: (f"Winter is Coming: deck {e['deck']} is shuffled and "
                                       "another card drawn."),
}
"""One sentence per event type (the rule is appended by :func:`event_line`)."""


def _generic(e: Event, nm: Names) -> str:
    """Fallback for an event type without a sentence (a new one): its fields as words."""
    fields = "; ".join(f"{k} {plain(v)}" for k, v in e.items()
                       if k not in ("type", "rule", "round", "phase"))
    return f"{human(e['type']).capitalize()}: {fields}."


def event_line(event: Event, names: Names) -> str:
    """One line for an event, ending with its rule: ``Stark moves 1 knight … (R5.3).``"""
    line = LINES.get(event["type"], _generic)(event, names)
    return f"{line[:-1] if line.endswith('.') else line} ({event['rule']})."


# --- tables ----------------------------------------------------------------------------------

def _table(rows: list[list[Any]], headers: list[str], fmt: str, width: int | None = None) -> str:
    return table(rows, headers, "github" if fmt == "markdown" else "simple",
                 None if fmt == "markdown" else width)


def _units_cell(side: Mapping[str, Any]) -> str:
    parts = [f"{v['count']} {u if v['count'] == 1 else {'footman': 'footmen'}.get(u, u + 's')} "
             f"× {v['strength']}" for u, v in side["units"].items()]
    return (" + ".join(parts) or "no units") + f" = {side['units_strength']}"


def battle_table(event: Event, names: Names, fmt: str = "markdown",
                 width: int | None = None) -> str:
    """The strength table of a ``battle`` event (R6.3–R6.6): units, order, each supporting
    area, house card, Blade, total, and the tie-break when used — one column per side."""
    sides = event["sides"]
    roles = ("attacker", "defender")
    rows: list[list[Any]] = [["units", *(_units_cell(sides[r]) for r in roles)]]
    orders = []
    for r in roles:
        order = sides[r]["order"]
        orders.append(f"{names.order(order['order'])}: {order['bonus']:+d}" if order else "none")
    rows.append(["order", *orders])
    supporters = [(s["area"], s["house"]) for r in roles for s in sides[r]["support"]]
    for area, owner in supporters:
        cells = []
        for r in roles:
            found = [s for s in sides[r]["support"] if s["area"] == area]
            cells.append(f"+{found[0]['strength']}" if found else "")
        rows.append([f"support from {names.area(area)} ({house(owner)})", *cells])
    rows.append(["house card", *(f"{names.card(sides[r]['card']['card'])}: "
                                 f"+{sides[r]['card']['strength']}" for r in roles)])
    rows.append(["Valyrian Steel Blade", *(("+1" if sides[r]["blade"] else "") for r in roles)])
    rows.append(["total", *(sides[r]["total"] for r in roles)])
    if event["decided_by"] == "fiefdoms_tie_break":
        rows.append(["tie-break: Fiefdoms (R6.6)",
                     *("higher, wins" if sides[r]["house"] == event["winner"] else "lower"
                       for r in roles)])
    elif event["decided_by"] == "last_unit_destroyed":
        rows.append(["last fighting unit destroyed (R6.4)",
                     *("loses at once" if sides[r]["house"] == event["loser"] else ""
                       for r in roles)])
    headers = ["", *(f"{r}: {house(sides[r]['house'])}" for r in roles)]
    return _table(rows, headers, fmt, width)


def _orders_table(event: Event, names: Names, fmt: str, width: int | None = None) -> str:
    rows = [[house(h), names.area(area), names.order(order)] for h, orders in event["orders"].items()
            for area, order in orders.items()]
    return _table(rows, ["house", "area", "order"], fmt, width)


BOARD_COLUMNS = ("area", "controlled by", "units", "order", "power token", "neutral force")


def board_tables(state: GameState, ruleset: Ruleset, fmt: str = "markdown",
                 width: int | None = None) -> str:
    """The board, the tracks and the houses after the run (public information only)."""
    board = _table(area_rows(state, ruleset, BOARD_COLUMNS), list(BOARD_COLUMNS), fmt, width)
    tracks = _table([[i + 1, *(house(state.tracks[t][i]) for t in TRACKS)]
                     for i in range(len(state.houses))],
                    ["position", "Iron Throne", "Fiefdoms", "King's Court"], fmt, width)
    rows = [[house(h), state.houses[h].power, state.houses[h].supply, len(state.houses[h].hand),
             ", ".join(Names(ruleset).card(c) for c in state.houses[h].discards)]
            for h in state.order_of_play()]
    hs = _table(rows, ["house", "power", "supply", "cards in hand", "discards"], fmt, width)
    return "\n\n".join([_heading(3, "Board", fmt), board, _heading(3, "Tracks", fmt), tracks,
                        f"Wildling threat: {state.wildling_threat}.", _heading(3, "Houses", fmt),
                        hs]) + "\n"


# --- the report ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Private:
    """What ``--private HOUSE`` appends: that house's submitted bids (the hand and pending
    questions come from the run)."""

    house: str
    bids: Mapping[str, int] | None = None
    wildlings: int | None = None


def _heading(level: int, text: str, fmt: str) -> str:
    if fmt == "markdown":
        return f"{'#' * level} {text}"
    if level == 1:
        return f"{text}\n{'=' * columns(text)}"
    if level == 2:
        return f"{text}\n{'-' * columns(text)}"
    return f"{text}:"


def wrap(text: str, width: int | None, indent: str = "  ") -> str:
    """``text`` (one line) broken at spaces into lines of at most ``width`` terminal columns
    (two for a wide character), the lines after the first indented by ``indent``; a word
    longer than a line stays whole. ``None``: unchanged.

    >>> print(wrap("- Stark moves 1 knight from Winterfell to Moat Cailin (R5.3).", 30))
    - Stark moves 1 knight from
      Winterfell to Moat Cailin
      (R5.3).
    """
    if width is None or columns(text) <= width:
        return text
    head = len(text) - len(text.lstrip(" "))
    lines: list[str] = []
    line = text[:head]
    for word in text[head:].split(" "):
        prefix = line + (" " if line.strip() else "")
        if line.strip() and columns(prefix + word) > width:
            lines.append(line)
            line = text[:head] + indent + word
        else:
            line = prefix + word if line.strip() else line + word
    lines.append(line)
    return "\n".join(lines)


def _item(text: str, fmt: str, width: int | None) -> str:
    return text if fmt == "markdown" else wrap(text, width)


def private_section(private: Private, state: GameState, ruleset: Ruleset,
                    pending: Sequence[PendingDecision], fmt: str,
                    width: int | None = None) -> str:
    """One house's own hand, bids and pending questions (``--private HOUSE``)."""
    nm = Names(ruleset)
    h = private.house
    out = [_heading(2, f"Private to {house(h)} — do not forward", fmt)]
    hs = state.houses[h]
    rows = [[nm.card(c), ruleset.house_cards[c].strength, ruleset.house_cards[c].swords,
             ruleset.house_cards[c].forts, ruleset.house_cards[c].effect or ""]
            for c in ruleset.cards_by_house[h] if c in hs.hand]
    out += [_heading(3, "Hand", fmt), _table(rows, ["card", "strength", "swords", "forts", "text"],
                                             fmt, width)]
    bids = dict(private.bids or {})
    if private.wildlings is not None:
        bids["wildlings"] = private.wildlings
    out += [_heading(3, "Bids submitted", fmt),
            _item(", ".join(f"{human(k)}: {v}" for k, v in bids.items()), fmt, width)
            if bids else "none"]
    questions = []
    for p in pending:
        r = p.request
        if r.house != h:
            continue
        questions.append(_item(f"- {r.id}: {r.prompt}" + (f" ({p.reason})" if p.reason else "")
                               + (" (asked ahead: you may leave it for when its turn comes)"
                                  if p.ahead else ""), fmt, width))
        if r.options:
            questions.append(wrap(f"  options: {', '.join(json.dumps(o) for o in r.options)}",
                                  None if fmt == "markdown" else width, "    "))
        questions.append(_item(f"  default: {json.dumps(r.default)}", fmt, width))
    out += [_heading(3, "Your pending questions", fmt), "\n".join(questions) or "none"]
    return "\n\n".join(out) + "\n"


def render_report(title: str, events: Sequence[Event], state: GameState, ruleset: Ruleset,
                  pending: Sequence[PendingDecision] = (), *, fmt: str = "markdown",
                  private: Private | None = None, width: int | None = None) -> str:
    """The report of a run: events by phase (battles with their tables), then the board —
    or, when the run stopped, the decisions pending (ids only); ``private`` appends one
    house's own section. ``width`` (text only): lines wrapped and tables fitted to that many
    columns (the mail's 72)."""
    if fmt not in FORMATS:
        raise ValueError(fmt)
    nm = Names(ruleset)
    code = "`" if fmt == "markdown" else ""
    out = [_heading(1, title, fmt)]
    phase = None
    for event in events:
        if (event["round"], event["phase"]) != phase:
            phase = (event["round"], event["phase"])
            out.append("\n" + _heading(2, f"Round {event['round']} — "
                                       f"{PHASE_TITLES.get(event['phase'], event['phase'])}",
                                       fmt) + "\n")
        out.append(_item(f"- {event_line(event, nm)}", fmt, width))
        if event["type"] == "orders_revealed":
            out.append("\n" + _orders_table(event, nm, fmt, width) + "\n")
        elif event["type"] == "battle":
            out.append("\n" + battle_table(event, nm, fmt, width) + "\n")
    if pending:
        out.append("\n" + _heading(2, "Stopped: decisions pending", fmt) + "\n")
        for p in pending:
            if p.ahead:  # a question asked ahead goes to its house only (RUL-P1-4, RUL-4.6-1)
                continue
            out.append(_item(f"- {code}{p.request.id}{code} — {house(p.request.house)} "
                             f"({p.request.kind})", fmt, width))
        out.append("\n" + wrap("Everything above happened; the rest of the round follows once "
                                "these are answered.", None if fmt == "markdown" else width, "")
                   + "\n")
    else:
        out.append("\n" + _heading(2, "After the run", fmt) + "\n")
        out.append(board_tables(state, ruleset, fmt, width))
    if private is not None:
        out.append("\n" + private_section(private, state, ruleset, pending, fmt, width))
    text = "\n".join(out).rstrip() + "\n"
    return markdown_safe(text) if fmt == "markdown" else text


def markdown_safe(text: str) -> str:
    """``&`` and ``<`` as entities: no name from input (a ruleset's, an id) becomes HTML in a
    Markdown viewer. Reports use neither character themselves.

    >>> markdown_safe("<img src=x onerror=alert(1)> & co")
    '&lt;img src=x onerror=alert(1)> &amp; co'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;")


def file_name_text(name: str) -> str:
    """A submission file name for the report's record: as it is when it is plain
    (letters, digits, ``._+-``), else JSON-quoted with ``<``, ``&`` and backquotes escaped.

    >>> file_name_text("stark.yaml")
    'stark.yaml'
    >>> print(file_name_text("<b>`x`.yaml"))
    "\\u003cb>\\u0060x\\u0060.yaml"
    """
    if _PLAIN_FILE.fullmatch(name):
        return name
    quoted = json.dumps(name, ensure_ascii=True)
    return quoted.replace("<", "\\u003c").replace("&", "\\u0026").replace("`", "\\u0060")


_PLAIN_FILE = re.compile(r"[A-Za-z0-9._+-]+")


LOG_FORMAT = "agot-log/2"
"""Version 2 starts with a ``record`` line naming its maker; version 1 (agot 0.1.0) had none."""


def is_record_line(event: Any) -> bool:
    """Whether a log line is the ``record`` line naming the release that wrote the log (not
    an event of the game)."""
    return isinstance(event, dict) and event.get("type") == "record" and "written_by" in event


def render_log(events: Sequence[Event], maker: str | None = None) -> str:
    """JSON Lines: one event per line, keys in event order (fields: ``events.EVENT_FIELDS``).

    With ``maker`` the first line is ``{"type":"record","format":"agot-log/2","written_by":…}``.
    """
    head = [{"type": "record", "format": LOG_FORMAT, "written_by": maker}] if maker else []
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in [*head, *events])


def _flow(value: Any) -> str:
    """``value`` as one line of YAML (flow style), for a comment."""
    import yaml

    text: str = yaml.safe_dump(value, default_flow_style=True, width=4096, allow_unicode=True,
                               sort_keys=False)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def paste_value(pending: PendingDecision) -> Any:
    """The value of a decision in the paste-ready block: its documented default (docs/protocol.md
    P2), which is the no-op where one exists (no orders, keep the orders, no move, no target,
    nothing mustered), so that pasting the block unedited does only what ``--defaults`` would
    (RUL-P2-1)."""
    return pending.request.default


def render_pending(pending: Sequence[PendingDecision]) -> str:
    """The pending decisions, then an ``answers:`` block ready to paste and fill in.

    Each value is the documented default (:func:`paste_value`); an example that would act
    (a swap, a march, orders) is a ``# e.g.`` comment line above its entry (RUL-P2-1).
    """
    text = dump_yaml({"pending": [p.to_dict() for p in pending]},
                     header=f"{len(pending)} decision(s) pending: add answers to a submission "
                            "file and run again.")
    text += "\n" + dump_yaml({}, header="paste into the moderator's answers file and edit: each "
                              "value is the documented default\n(a no-op where one exists: "
                              "pasted unedited it does what --defaults would); '# e.g.' shows an "
                              "answer that acts.").removesuffix("{}\n")
    return text + answers_block(pending)


def answers_block(pending: Sequence[PendingDecision]) -> str:
    """The ``answers:`` block ready to paste of ``pending`` (:func:`render_pending`; a house's
    mail holds the block of its own decisions only)."""
    lines = ["answers:"] if pending else ["answers: {}"]
    for p in pending:
        value = paste_value(p)
        example = p.request.example
        if example is not None and example != value:
            lines.append(f"  # e.g. {_flow(example)}")
        if value is None:  # written out: an empty value reads as a forgotten answer
            lines.append(f"  {p.request.id}: null")
            continue
        entry = dump_yaml({p.request.id: value}).rstrip("\n").split("\n")
        lines += ["  " + line for line in entry]
    return "\n".join(lines) + "\n"
