"""One line per event of the log, in the reader's language (:func:`event_line`): what the
report and the site say of each event, with the rule it applies (R1–R13). Battles, raids,
retreats, musters, the wildlings, card texts and the rest each have their sentence; an event
without one is said generically (its type and fields)."""

from __future__ import annotations

from collections.abc import Callable

from agot_adjudicator.engine.events import Event
from agot_adjudicator.engine.house_cards import EffectKind
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import (
    Names,
    about,
    by_house,
    default_reason,
    entries,
    house,
    houses,
    human,
    plain,
    reason,
    sep,
    tr,
    unit,
    units,
)

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
              about=about(e["about"], nm), choice=choice)


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
    "bids_revealed": lambda e, nm: tr("Bids revealed ({about}): {bids}.", about=about(e["about"], nm),
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
                                        reason=default_reason(e["reason"])),
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
