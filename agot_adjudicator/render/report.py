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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.engine.events import Event
from agot_adjudicator.engine.house_cards import EffectKind
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.areas import AreaLabels, area_rows
from agot_adjudicator.render.i18n import translator
from agot_adjudicator.render.language import (
    PHASE_TITLES,
    Names,
    about,
    by_house,
    decision_kind,
    entries,
    house,
    houses,
    human,
    option,
    plain,
    reason,
    say,
    sep,
    speaker,
    tr,
    unit,
    units,
)
from agot_adjudicator.render.tables import columns, table

FORMATS = ("markdown", "text")


# --- one line per event ----------------------------------------------------------------------

Line = Callable[[Event, Names], str]


def _battle(e: Event, nm: Names) -> str:
    a, d = e["attacker"], e["defender"]
    text = tr("Battle in {area}: {attacker} attacks from {origin}, {defender} defends; {winner} "
              "wins {won} to {lost}", area=nm.area(e["area"]), attacker=house(a),
              origin=nm.area(e["origin"]), defender=house(d), winner=house(e["winner"]),
              won=e["totals"][e["winner"]], lost=e["totals"][e["loser"]])
    if e["decided_by"] == "fiefdoms_tie_break":
        text += tr(" (tie: higher on Fiefdoms, order {houses}, R6.6)", houses=houses(e["fiefdoms"]))
    elif e["decided_by"] == "last_unit_destroyed":
        text += tr(" ({loser}'s last fighting unit was destroyed by a card text)",
                   loser=house(e["loser"]))
    return text + tr(".")


CARD_TEXT_LINES: dict[EffectKind, Callable[[Event, str, str, Names], str]] = {
    EffectKind.CANCEL_TEXT: lambda e, who, on, nm: tr(
        "{who} cancels the text of {card} ({on}).", who=who, card=nm.card(e["cancelled"]), on=on),
    EffectKind.DESTROY_FOOTMAN: lambda e, who, on, nm: (
        tr("{who} destroys a {on} footman in the battle; {on} has no fighting unit left and loses "
           "at once.", who=who, on=on) if e.get("loses_at_once")
        else tr("{who} destroys a {on} footman in the battle.", who=who, on=on)),
    EffectKind.REMOVE_DEFENSE_ORDER: lambda e, who, on, nm: tr(
        "{who} removes {on}'s {order} order.", who=who, on=on, order=nm.order(e["order"])),
    EffectKind.UNIT_STRENGTH: lambda e, who, on, nm: tr(
        "{who}: each attacking {on} {unit} counts {value}.", who=who, on=on, unit=unit(e["unit"]),
        value=e["value"]),
    EffectKind.DEFENSE_MULTIPLIER: lambda e, who, on, nm: tr(
        "{who}: {on}'s Defense order counts ×{value}.", who=who, on=on, value=e["value"]),
    EffectKind.ZERO_SUPPORTING_SHIPS: lambda e, who, on, nm: tr(
        "{who}: ships supporting {on} add 0.", who=who, on=on),
    EffectKind.ZERO_PRINTED_STRENGTH: lambda e, who, on, nm: tr(
        "{who}: the printed strength of {card} ({on}) is 0.", who=who, card=nm.card(e["zeroed"]),
        on=on),
}
"""The report line of each kind of card effect (``house_card_text`` events)."""


def _card_text(e: Event, nm: Names) -> str:
    who = tr("{card} ({house})", card=nm.card(e["card"]), house=house(e["house"]))
    on = house(e.get("on"))
    if e["effect"] in CARD_TEXT_LINES:
        return CARD_TEXT_LINES[EffectKind(e["effect"])](e, who, on, nm)
    return tr("{who} has no effect: {reason}.", who=who,
              reason=reason(e.get("reason", "nothing to act on")))


def _card_returned(e: Event, nm: Names) -> str:
    if e["house"] is None:
        return tr("No house card comes back: {reason}.", reason=reason(e["reason"]))
    if e["card"] is None:
        return tr("{house} takes no card back: {reason}.", house=house(e["house"]),
                  reason=reason(e["reason"]))
    return tr("{house} takes {card} back into its hand.", house=house(e["house"]),
              card=nm.card(e["card"]))


def _discarded(e: Event, nm: Names) -> str:
    if e.get("by"):
        return tr("{payer} pays {paid} power ({by}): {house} discards {card} from its hand.",
                  payer=house(e["payer"]), paid=e["paid"], by=nm.card(e["by"]),
                  house=house(e["house"]), card=nm.card(e["card"]))
    return tr("{house} discards {card}.", house=house(e["house"]), card=nm.card(e["card"]))


def _raid(e: Event, nm: Names) -> str:
    if "target" not in e:
        return tr("{house}'s raid in {area} removes nothing.", house=house(e["house"]),
                  area=nm.area(e["area"]))
    return tr("{house} raids from {area}: {victim}'s {order} in {target} is removed.",
              house=house(e["house"]), area=nm.area(e["area"]), victim=house(e["victim"]),
              order=nm.order(e["removed"]), target=nm.area(e["target"]))


def _retreat(e: Event, nm: Names) -> str:
    lost = e.get("destroyed") or []
    who, area = house(e["house"]), nm.area(e["area"])
    if e["to"] is None and not e["units"]:
        if lost:
            return tr("{house}'s survivors from {area} are destroyed ({units}).", house=who,
                      area=area, units=units(lost))
        return tr("{house}'s survivors from {area} are all destroyed.", house=who, area=area)
    text = (tr("{house}'s survivors from {area} retreat to {to}: {units}, routed", house=who,
               area=area, to=nm.area(e["to"]), units=units(e["units"])) if e["units"] else
            tr("{house}'s survivors from {area} retreat to {to}: {units}", house=who, area=area,
               to=nm.area(e["to"]), units=units(e["units"])))
    return text + (tr("; the supply limit destroys {units}.", units=units(lost)) if lost
                   else tr("."))


def _power_gained(e: Event, nm: Names) -> str:
    if "icons" in e:
        return tr("{house} gains {gained} power for {icons} power icons (now {power}).",
                  house=house(e["house"]), gained=e["gained"], icons=e["icons"], power=e["power"])
    return tr("{house} gains {power} power ({source}).", house=house(e["house"]),
              power=e["power"], source=nm.card(e["source"]))


def _unit_destroyed(e: Event, nm: Names) -> str:
    if "unit" in e:
        return tr("{house}'s {unit} in {area} is destroyed ({cause}).", house=house(e["house"]),
                  unit=unit(e["unit"]), area=nm.area(e["area"]), cause=reason(e["cause"]))
    return tr("{house}'s {units} in {area} destroyed: {reason}.", house=house(e["house"]),
              units=units(e["units"]), area=nm.area(e["area"]), reason=reason(e["reason"]))


def _support(e: Event, nm: Names) -> str:
    who, area, battle = house(e["house"]), nm.area(e["area"]), nm.area(e["battle"])
    if e["side"] is None:
        return tr("{house}'s Support order in {area} supports no one in {battle}.", house=who,
                  area=area, battle=battle)
    return tr("{house}'s Support order in {area} supports {side} in {battle} (+{strength}).",
              house=who, area=area, side=house(e["side"]), battle=battle, strength=e["strength"])


def _neutral(e: Event, nm: Names) -> str:
    st = e["strength"]
    fields = dict(house=house(e["house"]), area=nm.area(e["area"]), origin=nm.area(e["origin"]),
                  units=st["units"], march=st["march"], support=st["support"], total=st["total"],
                  neutral=e["neutral"])
    if e["won"]:
        return tr("{house} attacks the neutral force in {area} from {origin}: units {units}, march "
                  "{march:+d}, support {support} = {total} against {neutral}: it is removed.",
                  **fields)
    return tr("{house} attacks the neutral force in {area} from {origin}: units {units}, march "
              "{march:+d}, support {support} = {total} against {neutral}: the attack fails.",
              **fields)


def _tie(e: Event, nm: Names) -> str:
    choice = houses(e["order"]) if "order" in e else house(e["chosen"])
    return tr("{by} (Iron Throne) breaks the tie on {about}: {choice}.", by=house(e["by"]),
              about=about(e["about"]), choice=choice)


def _game_ended(e: Event, nm: Names) -> str:
    message = (N_("The game ends: {winners} wins (castles: {castles}; supply: {supply}; power: "
                  "{power}).") if len(e["winners"]) == 1 else
               N_("The game ends: {winners} win (castles: {castles}; supply: {supply}; power: "
                  "{power})."))
    return tr(message, winners=houses(e["winners"]), castles=by_house(e["castles"]),
              supply=by_house(e["supply"]), power=by_house(e["power"]))


MUSTERED = {(False, False): N_("{house} musters a {unit} in {area} (mustering at {castle})."),
            (False, True): N_("{house} musters a {unit} in {area} (mustering at {area})."),
            (True, False): N_("{house} upgrades a footman to a knight in {area} (mustering at "
                              "{castle})."),
            (True, True): N_("{house} upgrades a footman to a knight in {area} (mustering at "
                             "{area}).")}
"""A ``mustered`` event's sentence by (an upgrade, mustered at the castle itself): the same
English words either way, a template of its own when the castle is the area, so that a
translation need not name the area twice (征召一名步兵, not …（使用临冬城的征召点数）)."""


def _mustered(e: Event, nm: Names) -> str:
    key = (e["unit"] == "upgrade", e["castle"] == e["area"])
    fields = dict(house=house(e["house"]), area=nm.area(e["area"]), castle=nm.area(e["castle"]))
    if not key[0]:
        fields["unit"] = unit(e["unit"])
    return tr(MUSTERED[key], **fields)


def _nights_watch(e: Event, nm: Names) -> str:
    if e["winner"] == "nights_watch":
        return tr("The Night's Watch ({strength}) against a threat of {threat}: the Night's Watch "
                  "holds.", strength=e["strength"], threat=e["threat"])
    return tr("The Night's Watch ({strength}) against a threat of {threat}: the wildlings win.",
              strength=e["strength"], threat=e["threat"])


def _revealed(e: Event, nm: Names) -> str:
    if e["wildling"]:
        return tr("Westeros deck {deck}: {card} (wildling icon).", deck=e["deck"],
                  card=nm.westeros(e["card"]))
    return tr("Westeros deck {deck}: {card}.", deck=e["deck"], card=nm.westeros(e["card"]))


def _threat_advanced(e: Event, nm: Names) -> str:
    fields = dict(card=nm.westeros(e["card"]), old=e["old"], new=e["new"])
    if e["capped"]:
        return tr("{card} bears a wildling icon: the threat goes from {old} to {new} (its maximum).",
                  **fields)
    return tr("{card} bears a wildling icon: the threat goes from {old} to {new}.", **fields)


def _orders_removed(e: Event, nm: Names) -> str:
    listed = sep().join(tr("{order} in {area}", order=nm.order(o), area=nm.area(a))
                        for a, o in e["orders"].items()) or tr("none")
    return tr("The remaining orders are removed: {orders}.", orders=listed)


def _cards_revealed(e: Event, nm: Names) -> str:
    cards = tr("; ").join(tr("{house}: {card}", house=house(h), card=nm.card(c))
                          for h, c in e["cards"].items())
    return tr("House cards for {area}: {cards}.", area=nm.area(e["area"]), cards=cards)


LINES: dict[str, Line] = {
    "area_occupied": lambda e, nm: tr("{house} occupies {area} with {units}.",
                                      house=house(e["house"]), area=nm.area(e["area"]),
                                      units=units(e["units"])),
    "battle": _battle,
    "bids_revealed": lambda e, nm: tr("Bids revealed ({about}): {bids}.", about=about(e["about"]),
                                      bids=by_house(e["bids"])),
    "card_returned": _card_returned,
    "card_text_no_effect": lambda e, nm: tr("{card} ({house}) has no effect: {reason}.",
                                            card=nm.card(e["card"]), house=house(e["house"]),
                                            reason=reason(e["reason"])),
    "casualties": lambda e, nm: tr("{house} loses the battle in {area}: {swords} swords − {forts} "
                                   "fortifications = {count} casualties: {units}.",
                                   house=house(e["house"]), area=nm.area(e["area"]),
                                   swords=e["swords"], forts=e["forts"], count=e["count"],
                                   units=units(e["units"])),
    "consolidate_power": lambda e, nm: tr("{house} consolidates power in {area}: +{power} (worth "
                                          "{worth}).", house=house(e["house"]),
                                          area=nm.area(e["area"]), power=e["power"],
                                          worth=e["worth"]),
    "deck_shuffled": lambda e, nm: tr("Westeros deck {deck} is shuffled.", deck=e["deck"]),
    "decided_without_asking": lambda e, nm: (
        tr("{decision} ({house}) is decided without asking: {value} is the only legal option.",
           decision=e["decision"], house=house(e["house"]), value=plain(e["value"]))
        if "value" in e else
        tr("{decision} ({house}) is decided without asking: it has only one legal option.",
           decision=e["decision"], house=house(e["house"]))),
    "default_applied": lambda e, nm: tr("No answer from {house} to {decision}: the default "
                                        "({value}) applies ({reason}).", house=house(e["house"]),
                                        decision=e["decision"], value=plain(e["value"]),
                                        reason=reason(e["reason"])),
    "game_already_ended": lambda e, nm: tr("The game has already ended; nothing to resolve."),
    "game_ended": _game_ended,
    "game_won": lambda e, nm: tr("{houses} controls {castles} areas with a castle and wins the "
                                 "game.", houses=houses(e["houses"]), castles=e["castles"]),
    "hand_emptied": lambda e, nm: tr("{house} has no card left in its hand ({by} discarded the "
                                     "last one): all its cards return to its hand.",
                                     house=house(e["house"]), by=nm.card(e["by"])),
    "hand_recycled": lambda e, nm: tr("{house} played its last card, {card}: all its cards return "
                                      "to its hand.", house=house(e["house"]),
                                      card=nm.card(e["card"])),
    "house_card_discarded": _discarded,
    "house_card_returned": lambda e, nm: tr("{house} takes {card} back from its discard pile "
                                            "({by}).", house=house(e["house"]),
                                            card=nm.card(e["card"]), by=nm.card(e["by"])),
    "house_card_text": _card_text,
    "house_card_text_cancelled": lambda e, nm: tr("The text of {card} ({house}) is cancelled by "
                                                  "{by}.", card=nm.card(e["card"]),
                                                  house=house(e["house"]), by=nm.card(e["by"])),
    "house_cards_revealed": _cards_revealed,
    "influence_tokens_removed": lambda e, nm: tr("Influence tokens are removed from the tracks."),
    "march_no_move": lambda e, nm: tr("{house}'s March order in {area} moves no units.",
                                      house=house(e["house"]), area=nm.area(e["area"])),
    "move": lambda e, nm: tr("{house} moves {units} from {origin} to {to}.",
                             house=house(e["house"]), units=units(e["units"]),
                             origin=nm.area(e["origin"]), to=nm.area(e["to"])),
    "muster_done": lambda e, nm: tr("{house} musters at {castle}: {spent} of {points} points used.",
                                    house=house(e["house"]), castle=nm.area(e["castle"]),
                                    spent=e["spent"], points=e["points"]),
    "muster_impossible": lambda e, nm: tr("{house} cannot muster at {castle}.",
                                          house=house(e["house"]), castle=nm.area(e["castle"])),
    "mustered": _mustered,
    "neutral_attack": _neutral,
    "nights_watch": _nights_watch,
    "order_removed": lambda e, nm: tr("{house}'s {order} order in {area} is removed ({by}).",
                                      house=house(e["house"]), order=nm.order(e["order"]),
                                      area=nm.area(e["area"]),
                                      by=nm.card(e["by"]) if e["by"] in nm.ruleset.house_cards
                                      else reason(e["by"])),
    "orders_removed": _orders_removed,
    "orders_revealed": lambda e, nm: tr("Orders are revealed."),
    "pillage": lambda e, nm: tr("{house} pillages {target} and gains {power} power.",
                                house=house(e["house"]), target=nm.area(e["target"]),
                                power=e["power"]),
    "power_gained": _power_gained,
    "power_token_placed": lambda e, nm: tr("{house} leaves a power token in {area}.",
                                           house=house(e["house"]), area=nm.area(e["area"])),
    "power_token_removed": lambda e, nm: tr("{by} removes {house}'s power token from {area}.",
                                            by=house(e["by"]), house=house(e["house"]),
                                            area=nm.area(e["area"])),
    "power_token_returned": lambda e, nm: tr("{house}'s power token in {area} returns to its pool.",
                                             house=house(e["house"]), area=nm.area(e["area"])),
    "raid": _raid,
    "raid_removed": lambda e, nm: tr("{house}'s raid in {area} is removed: {reason}.",
                                     house=house(e["house"]), area=nm.area(e["area"]),
                                     reason=reason(e["reason"])),
    "raven_kept": lambda e, nm: tr("{house} keeps its orders (Messenger Raven).",
                                   house=house(e["house"])),
    "raven_swap": lambda e, nm: tr("{house} uses the Messenger Raven: {old} in {area} becomes "
                                   "{new}.", house=house(e["house"]), old=nm.order(e["old"]),
                                   area=nm.area(e["area"]), new=nm.order(e["new"])),
    "restriction": lambda e, nm: tr("{card}: an order restriction this round.",
                                    card=nm.westeros(e["card"])),
    "retreat": _retreat,
    "round_ended": lambda e, nm: tr("The round ends; round {next} follows.", next=e["next_round"]),
    "supply_reduction": lambda e, nm: tr("{house} is over its supply (level {level}) and removes "
                                         "{units}.", house=house(e["house"]), level=e["level"],
                                         units=entries(e["units"], nm)),
    "supply_set": lambda e, nm: tr("{house}'s supply: {old} → {new}.", house=house(e["house"]),
                                   old=e["old"], new=e["new"]),
    "support_declared": _support,
    "support_refused": lambda e, nm: tr("{by} refuses the support of {house} from {area}.",
                                        by=house(e["refused_by"]), house=house(e["house"]),
                                        area=nm.area(e["area"])),
    "tie_broken": _tie,
    "token_passed": lambda e, nm: tr("The {token} passes from {old} to {new}.",
                                     token=nm.token(e["token"]), old=house(e["old"]),
                                     new=house(e["new"])),
    "track_set": lambda e, nm: tr("{track} track: {houses}.", track=nm.track(e["track"]),
                                  houses=houses(e["order"])),
    "unit_destroyed": _unit_destroyed,
    "unit_upgraded": lambda e, nm: tr("{house} upgrades a {unit} in {area} to a {to} ({by}).",
                                      house=house(e["house"]), unit=unit(e["unit"]),
                                      area=nm.area(e["area"]), to=unit(e["to"]),
                                      by=nm.card(e["by"])),
    "units_stand_up": lambda e, nm: tr("{house}'s routed {units} in {area} stand up.",
                                       house=house(e["house"]), units=units(e["units"]),
                                       area=nm.area(e["area"])),
    "valyrian_steel_blade_used": lambda e, nm: tr("{house} uses the Valyrian Steel Blade (+1) in "
                                                  "{area}.", house=house(e["house"]),
                                                  area=nm.area(e["area"])),
    "westeros_card_resolved": lambda e, nm: tr("{card} (deck {deck}) resolves.",
                                               card=nm.westeros(e["card"]), deck=e["deck"]),
    "westeros_card_revealed": _revealed,
    "westeros_card_to_bottom": lambda e, nm: tr("{card} goes to the bottom of deck {deck}.",
                                                card=nm.westeros(e["card"]), deck=e["deck"]),
    "westeros_phase": lambda e, nm: tr("The Westeros phase begins (wildling threat {threat}).",
                                       threat=e["threat"]),
    "westeros_phase_skipped": lambda e, nm: tr("There is no Westeros phase in the first round."),
    "wildling_losses": lambda e, nm: tr("{house} owes {owed} to the wildlings and removes {units} "
                                        "({points} points).", house=house(e["house"]),
                                        owed=e["owed"], units=entries(e["units"], nm),
                                        points=e["points"]),
    "wildling_threat_advanced": _threat_advanced,
    "wildling_threat_set": lambda e, nm: tr("The wildling threat goes from {old} to {new}.",
                                            old=e["old"], new=e["new"]),
    "winter_is_coming": lambda e, nm: tr("Winter is Coming: deck {deck} is shuffled and another "
                                         "card drawn.", deck=e["deck"]),
}
"""One sentence per event type (the rule is appended by :func:`event_line`)."""


def _generic(e: Event, nm: Names) -> str:
    """Fallback for an event type without a sentence (a new one): its fields as words."""
    fields = "; ".join(f"{k} {plain(v)}" for k, v in e.items()
                       if k not in ("type", "rule", "round", "phase"))
    return f"{human(e['type']).capitalize()}: {fields}."


def event_line(event: Event, names: Names) -> str:
    """One line for an event, ending with its rule: ``Stark moves 1 knight … (R5.3).``"""
    with names.speaking():
        line = LINES.get(event["type"], _generic)(event, names)
        return tr("{line} ({rule}).", line=line.removesuffix(".").removesuffix("。"),
                  rule=event["rule"])


def report_title(game_id: Any, round_: Any) -> str:
    """The title of a round's report: ``Game demo — round 1``."""
    return tr("Game {game} — round {round}", game=game_id, round=round_)


# --- tables ----------------------------------------------------------------------------------

def _table(rows: list[list[Any]], headers: list[str], fmt: str, width: int | None = None) -> str:
    return table(rows, headers, "github" if fmt == "markdown" else "simple",
                 None if fmt == "markdown" else width)


def _units_cell(side: Mapping[str, Any]) -> str:
    if speaker() is not None:
        parts = [tr("{unit}×{count} (each {strength})", unit=unit(u), count=v["count"],
                    strength=v["strength"]) for u, v in side["units"].items()]
    else:
        parts = [f"{v['count']} {u if v['count'] == 1 else {'footman': 'footmen'}.get(u, u + 's')} "
                 f"× {v['strength']}" for u, v in side["units"].items()]
    return (" + ".join(parts) or tr("no units")) + f" = {side['units_strength']}"


def battle_table(event: Event, names: Names, fmt: str = "markdown",
                 width: int | None = None) -> str:
    """The strength table of a ``battle`` event (R6.3–R6.6): units, order, each supporting
    area, house card, Blade, total, and the tie-break when used — one column per side."""
    sides = event["sides"]
    roles = ("attacker", "defender")
    rows: list[list[Any]] = [[tr("units"), *(_units_cell(sides[r]) for r in roles)]]
    orders = []
    for r in roles:
        order = sides[r]["order"]
        orders.append(f"{names.order(order['order'])}: {order['bonus']:+d}" if order else tr("none"))
    rows.append([tr("order"), *orders])
    supporters = [(s["area"], s["house"]) for r in roles for s in sides[r]["support"]]
    for area, owner in supporters:
        cells = []
        for r in roles:
            found = [s for s in sides[r]["support"] if s["area"] == area]
            cells.append(f"+{found[0]['strength']}" if found else "")
        rows.append([tr("support from {area} ({house})", area=names.area(area), house=house(owner)),
                     *cells])
    rows.append([tr("house card"), *(f"{names.card(sides[r]['card']['card'])}: "
                                     f"+{sides[r]['card']['strength']}" for r in roles)])
    rows.append([tr("Valyrian Steel Blade"), *(("+1" if sides[r]["blade"] else "") for r in roles)])
    rows.append([tr("total"), *(sides[r]["total"] for r in roles)])
    if event["decided_by"] == "fiefdoms_tie_break":
        rows.append([tr("tie-break: Fiefdoms (R6.6)"),
                     *(tr("higher, wins") if sides[r]["house"] == event["winner"] else tr("lower")
                       for r in roles)])
    elif event["decided_by"] == "last_unit_destroyed":
        rows.append([tr("last fighting unit destroyed (R6.4)"),
                     *(tr("loses at once") if sides[r]["house"] == event["loser"] else ""
                       for r in roles)])
    role = {"attacker": N_("attacker: {house}"), "defender": N_("defender: {house}")}
    headers = ["", *(tr(role[r], house=house(sides[r]["house"])) for r in roles)]
    return _table(rows, headers, fmt, width)


def _orders_table(event: Event, names: Names, fmt: str, width: int | None = None) -> str:
    rows = [[house(h), names.area(area), names.order(order)] for h, orders in event["orders"].items()
            for area, order in orders.items()]
    return _table(rows, [tr("house"), tr("area"), tr("order")], fmt, width)


BOARD_COLUMNS = ("area", "controlled by", "units", "order", "power token", "neutral force")
_COLUMN_NAMES = (N_("area"), N_("controlled by"), N_("units"), N_("order"), N_("power token"),
                 N_("neutral force"))


def board_tables(state: GameState, ruleset: Ruleset, fmt: str = "markdown",
                 width: int | None = None) -> str:
    """The board, the tracks and the houses after the run (public information only)."""
    nm = speaker() or Names(ruleset)
    rows = area_rows(state, ruleset, BOARD_COLUMNS,
                     None if nm.lang == "en" else _board_labels(nm))
    board = _table(rows, [tr(c) for c in BOARD_COLUMNS], fmt, width)
    tracks = _table([[i + 1, *(house(state.tracks[t][i]) for t in TRACKS)]
                     for i in range(len(state.houses))],
                    [tr("position"), *(tr(t) for t in _TRACK_HEADERS)], fmt, width)
    house_rows: list[list[Any]] = [
        [house(h), state.houses[h].power, state.houses[h].supply, len(state.houses[h].hand),
         sep().join(nm.card(c) for c in state.houses[h].discards)] for h in state.order_of_play()]
    hs = _table(house_rows, [tr("house"), tr("power"), tr("supply"), tr("cards in hand"), tr("discards")],
                fmt, width)
    return "\n\n".join([_heading(3, tr("Board"), fmt), board, _heading(3, tr("Tracks"), fmt),
                        tracks, tr("Wildling threat: {threat}.", threat=state.wildling_threat),
                        _heading(3, tr("Houses"), fmt), hs]) + "\n"


_TRACK_HEADERS = (N_("Iron Throne"), N_("Fiefdoms"), N_("King's Court"))


def _board_labels(nm: Names) -> AreaLabels:
    """:func:`area_rows` with the glossary's names (a report not in English)."""
    return AreaLabels(area=nm.area, house=house, order=nm.order,
                      units=lambda held, routed: units(held) + (
                          tr(" ({units} routed)", units=units(routed)) if routed else ""))


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
    return tr("{heading}:", heading=text)


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
        for k, piece in enumerate(_pieces(word)):
            prefix = line + (("" if k else " ") if line.strip() else "")
            if line.strip() and columns(prefix + piece) > width:
                lines.append(line)
                line = text[:head] + indent + piece
            else:
                line = prefix + piece if line.strip() else line + piece
    lines.append(line)
    return "\n".join(lines)


_NO_LINE_START = frozenset("）」』】》〉，。、；：！？）)")
_NO_LINE_END = frozenset("（「『【《〈")


def _pieces(word: str) -> list[str]:
    """Where a word may break: nowhere unless it holds wide (CJK) characters, which break
    between any two of them, never before closing or after opening punctuation.

    >>> _pieces("Winterfell"), _pieces("临冬城（R6.4）。")
    (['Winterfell'], ['临', '冬', '城', '（R6.4）。'])
    """
    if all(columns(c) < 2 for c in word):
        return [word]
    pieces: list[str] = []
    for c in word:
        glue = bool(pieces) and (c in _NO_LINE_START or pieces[-1][-1] in _NO_LINE_END
                                 or (columns(c) < 2 and columns(pieces[-1][-1]) < 2))
        if glue:
            pieces[-1] += c
        else:
            pieces.append(c)
    return pieces


def _item(text: str, fmt: str, width: int | None) -> str:
    return text if fmt == "markdown" else wrap(text, width)


def card_text(effect: str | None) -> str:
    """A house card's text in the current language (the packaged cards' texts are in the
    catalogs; another ruleset's stay as written)."""
    return "" if not effect else tr(effect) if speaker() else effect


def private_section(private: Private, state: GameState, ruleset: Ruleset,
                    pending: Sequence[PendingDecision], fmt: str,
                    width: int | None = None) -> str:
    """One house's own hand, bids and pending questions (``--private HOUSE``)."""
    nm = speaker() or Names(ruleset)
    h = private.house
    out = [_heading(2, tr("Private to {house} — do not forward", house=house(h)), fmt)]
    hs = state.houses[h]
    rows = [[nm.card(c), ruleset.house_cards[c].strength, ruleset.house_cards[c].swords,
             ruleset.house_cards[c].forts, card_text(ruleset.house_cards[c].effect)]
            for c in ruleset.cards_by_house[h] if c in hs.hand]
    out += [_heading(3, tr("Hand"), fmt),
            _table(rows, [tr("card"), tr("strength"), tr("swords"), tr("forts"), tr("text")], fmt,
                   width)]
    bids = dict(private.bids or {})
    if private.wildlings is not None:
        bids["wildlings"] = private.wildlings
    out += [_heading(3, tr("Bids submitted"), fmt),
            _item(sep().join(f"{about(k) if speaker() else human(k)}: {v}"
                             for k, v in bids.items()), fmt, width)
            if bids else tr("none")]
    questions = []
    for p in pending:
        r = p.request
        if r.house != h:
            continue
        questions.append(_item(f"- {r.id}: {say(r.prompt)}"
                               + (tr(" ({reason})", reason=say(p.reason)) if p.reason else "")
                               + (tr(" (asked ahead: you may leave it for when its turn comes)")
                                  if p.ahead else ""), fmt, width))
        if r.options:  # in Chinese each id with its name beside it (option)
            questions.append(wrap("  " + tr("options: {options}", options=(
                ", " if speaker() is None else sep()).join(option(o) for o in r.options)),
                None if fmt == "markdown" else width, "    "))
        questions.append(_item("  " + tr("default: {value}", value=option(r.default)), fmt,
                               width))
    out += [_heading(3, tr("Your pending questions"), fmt), "\n".join(questions) or tr("none")]
    return "\n\n".join(out) + "\n"


def render_report(title: str, events: Sequence[Event], state: GameState, ruleset: Ruleset,
                  pending: Sequence[PendingDecision] = (), *, fmt: str = "markdown",
                  private: Private | None = None, width: int | None = None,
                  lang: str = "en") -> str:
    """The report of a run: events by phase (battles with their tables), then the board —
    or, when the run stopped, the decisions pending (ids only); ``private`` appends one
    house's own section. ``width`` (text only): lines wrapped and tables fitted to that many
    columns (the mail's 72). ``lang``: ``en`` (the default), ``zh-Hans`` or ``zh-Hant``
    (sentences from the catalogs, names from the glossary; ids, numbers and rule ids stay)."""
    if fmt not in FORMATS:
        raise ValueError(fmt)
    translator(lang)  # an unknown language is refused here
    with Names(ruleset, lang).speaking() as nm:
        return _render_report(title, events, state, ruleset, pending, fmt=fmt, private=private,
                              width=width, nm=nm)


def _render_report(title: str, events: Sequence[Event], state: GameState, ruleset: Ruleset,
                   pending: Sequence[PendingDecision], *, fmt: str, private: Private | None,
                   width: int | None, nm: Names) -> str:
    code = "`" if fmt == "markdown" else ""
    out = [_heading(1, title, fmt)]
    phase = None
    for event in events:
        if (event["round"], event["phase"]) != phase:
            phase = (event["round"], event["phase"])
            out.append("\n" + _heading(2, tr("Round {round} — {phase}", round=event["round"],
                                          phase=tr(PHASE_TITLES.get(str(event["phase"]),
                                                                    str(event["phase"])))),
                                       fmt) + "\n")
        out.append(_item(f"- {event_line(event, nm)}", fmt, width))
        if event["type"] == "orders_revealed":
            out.append("\n" + _orders_table(event, nm, fmt, width) + "\n")
        elif event["type"] == "battle":
            out.append("\n" + battle_table(event, nm, fmt, width) + "\n")
    if pending:
        out.append("\n" + _heading(2, tr("Stopped: decisions pending"), fmt) + "\n")
        for p in pending:
            if p.ahead:  # a question asked ahead goes to its house only (RUL-P1-4, RUL-4.6-1)
                continue
            out.append(_item(f"- {code}{p.request.id}{code} — "
                             + tr("{house} ({kind})", house=house(p.request.house),
                                  kind=decision_kind(p.request.kind)), fmt, width))
        out.append("\n" + wrap(tr("Everything above happened; the rest of the round follows once "
                                   "these are answered."), None if fmt == "markdown" else width, "")
                   + "\n")
    else:
        out.append("\n" + _heading(2, tr("After the run"), fmt) + "\n")
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


def pending_entry(pending: PendingDecision) -> dict[str, Any]:
    """A pending decision as ``pending.yaml`` lists it: keys, ids, options and defaults as
    they are (what the moderator pastes), the prompt and reason in the current language."""
    out = pending.to_dict()
    out["prompt"] = say(pending.request.prompt)
    if "reason" in out:
        out["reason"] = say(pending.reason)
    return out


def render_pending(pending: Sequence[PendingDecision]) -> str:
    """The pending decisions, then an ``answers:`` block ready to paste and fill in; prompts,
    reasons and comments in the current language (:meth:`Names.speaking`), keys and ids as
    they are.

    Each value is the documented default (:func:`paste_value`); an example that would act
    (a swap, a march, orders) is a ``# e.g.`` comment line above its entry (RUL-P2-1).
    """
    text = dump_yaml({"pending": [pending_entry(p) for p in pending]},
                     header=tr("{count} decision(s) pending: add answers to a submission file "
                               "and run again.", count=len(pending)))
    text += "\n" + dump_yaml({}, header=tr("paste into the moderator's answers file and edit: "
                                           "each value is the documented default\n(a no-op "
                                           "where one exists: pasted unedited it does what "
                                           "--defaults would); '# e.g.' shows an answer that "
                                           "acts.")).removesuffix("{}\n")
    return text + answers_block(pending)


def answers_block(pending: Sequence[PendingDecision]) -> str:
    """The ``answers:`` block ready to paste of ``pending`` (:func:`render_pending`; a house's
    mail holds the block of its own decisions only)."""
    lines = ["answers:"] if pending else ["answers: {}"]
    for p in pending:
        value = paste_value(p)
        example = p.request.example
        if example is not None and example != value:
            lines.append(f"  # {tr('e.g.')} {_flow(example)}")
        if value is None:  # written out: an empty value reads as a forgotten answer
            lines.append(f"  {p.request.id}: null")
            continue
        entry = dump_yaml({p.request.id: value}).rstrip("\n").split("\n")
        lines += ["  " + line for line in entry]
    return "\n".join(lines) + "\n"


def picture_links(fmt: str, links: Sequence[tuple[str, str]]) -> str:
    """What follows a report to name its pictures (``links``: label and file, the labels said
    in the speaker's language): Markdown images, or ``label: file`` lines in plain text
    (``mail/report.txt``, ``--format text``)."""
    if fmt == "markdown":
        return "".join(f"\n![{label}]({file})\n" for label, file in links)
    return "\n" + "".join(tr("{label}: {file}", label=label, file=file) + "\n"
                          for label, file in links)
