"""Events: what happened, in order, each naming the rule that produced it.

An event is a plain mapping with ``type``, ``rule``, ``round``, ``phase`` first,
then its own fields (ids from the ruleset, numbers, lists). The report and the
JSON Lines log are rendered from the events, so they cannot disagree. The event
types and their fields are listed in :data:`EVENT_FIELDS`.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]

_U = "units: list of unit types (footman, knight, ship)"
_ENTRIES = "units: list of {area, unit}"
EVENT_FIELDS: dict[str, dict[str, str]] = {
    "area_occupied": {"house": "the winning attacker", "area": "the embattled area", "units": _U},
    "battle": {
        "area": "embattled area", "origin": "area the attacker marched from",
        "attacker": "house", "defender": "house", "totals": "house → final strength",
        "sides": "attacker/defender → {house, units: {type: {count, strength}}, units_strength, "
                 "order: {order, bonus} or null, support: [{area, house, strength}], "
                 "card: {card, strength}, blade: 0/1, total}",
        "winner": "house", "loser": "house",
        "decided_by": "strength | fiefdoms_tie_break | last_unit_destroyed",
        "fiefdoms": "the two houses in Fiefdoms order (the tie-break, R6.6)"},
    "bids_revealed": {"about": "clash_of_kings/TRACK or wildlings", "bids": "house → power bid"},
    "card_returned": {"house": "house or null", "card": "house card or null",
                      "reason": "why no card came back (optional)"},
    "card_text_no_effect": {"card": "house card", "house": "its owner", "reason": "why"},
    "casualties": {"house": "the loser", "area": "embattled area", "swords": "winner's swords",
                   "forts": "loser's fortifications", "count": "swords − forts (≥ 0)",
                   "units": "the units destroyed"},
    "consolidate_power": {"house": "house", "area": "area of the order",
                          "worth": "power the order is worth", "power": "power gained"},
    "deck_shuffled": {"deck": "Westeros deck I/II/III", "counter": "shuffles so far (seeded)"},
    "decided_without_asking": {"decision": "decision id", "house": "house",
                               "kind": "decision kind",
                               "value": "its one legal value (not for a house card or a bid, "
                                        "revealed later)",
                               "reason": "why asking would change nothing"},
    "default_applied": {"decision": "decision id", "house": "house", "kind": "decision kind",
                        "value": "the default applied",
                        "reason": "nmr, defaults, recorded, or why the plan no longer fits"},
    "game_already_ended": {"winner": "the recorded winner"},
    "game_ended": {"winners": "houses", "castles": "house → castles", "supply": "house → supply",
                   "power": "house → power"},
    "game_won": {"houses": "the winner", "castles": "castles it controls"},
    "hand_emptied": {"house": "house", "by": "the card text that discarded its last card",
                     "hand": "the full hand, back at once (RUL-6.12-4)"},
    "hand_recycled": {"house": "house", "card": "the last card played", "hand": "the full hand"},
    "house_card_discarded": {"house": "owner", "card": "house card",
                             "by": "melisandre (optional)", "paid": "power paid (optional)",
                             "payer": "house that paid (optional)"},
    "house_card_returned": {"house": "house", "card": "house card", "by": "the card text"},
    "house_card_text": {
        "house": "owner", "card": "house card",
        "effect": "what the text did: a house_cards.EffectKind value, or none",
        "on": "house the text acts on", "cancelled": "card cancelled (cancel_text)",
        "unit": "unit type (destroy_footman, unit_strength)", "value": "new value",
        "loses_at_once": "true when the last fighting unit died (R6.4)",
        "order": "Defense order removed", "zeroed": "card whose strength became 0",
        "reason": "why it did nothing (effect none)"},
    "house_card_text_cancelled": {"house": "owner", "card": "house card",
                                  "by": "queen_of_thorns"},
    "house_cards_revealed": {"area": "embattled area", "cards": "house → card"},
    "influence_tokens_removed": {},
    "march_no_move": {"house": "house", "area": "area of the March order"},
    "move": {"house": "house", "origin": "from", "to": "into", "units": _U},
    "muster_done": {"house": "house", "castle": "castle area", "points": "mustering points",
                    "spent": "points used", "lost": "points left unused"},
    "muster_impossible": {"house": "house", "castle": "castle area", "points": "points"},
    "mustered": {"house": "house", "castle": "castle area",
                 "unit": "footman, knight, ship or upgrade", "area": "where it is placed"},
    "neutral_attack": {"house": "attacker", "origin": "from", "area": "neutral force area",
                       "strength": "{units, march, support, total}",
                       "neutral": "neutral force strength", "won": "true/false"},
    "nights_watch": {"strength": "sum of bids", "threat": "wildling threat",
                     "winner": "nights_watch or wildlings"},
    "order_removed": {"area": "area", "house": "owner", "order": "order token",
                      "by": "card id or 'battle lost'"},
    "orders_removed": {"orders": "area → order left on the board"},
    "orders_revealed": {"orders": "house → {area → order}"},
    "pillage": {"house": "raider", "target": "raided area", "power": "power gained"},
    "power_gained": {"house": "house", "power": "power gained (card text) or the new total",
                     "icons": "crown icons (Game of Thrones)", "gained": "power gained",
                     "source": "card id (card text)"},
    "power_token_placed": {"house": "house", "area": "area left"},
    "power_token_removed": {"area": "area", "house": "owner", "by": "house marching in"},
    "power_token_returned": {"area": "area", "house": "owner"},
    "raid": {"house": "raider", "area": "area of the Raid order",
             "target": "raided area", "victim": "its owner", "removed": "order removed",
             "targets": "[] when the raid removed nothing"},
    "raid_removed": {"house": "house", "area": "area", "reason": "why"},
    "raven_kept": {"house": "holder of the Messenger Raven"},
    "raven_swap": {"house": "holder", "area": "area", "old": "order", "new": "order"},
    "restriction": {"card": "Westeros card restricting orders this round"},
    "retreat": {"house": "house", "area": "embattled area", "to": "area or null",
                "units": "survivors that arrived (routed)", "destroyed": "units lost on the way",
                "routed": "true"},
    "round_ended": {"next_round": "number"},
    "supply_reduction": {"house": "house", "level": "supply level", "units": _ENTRIES},
    "supply_set": {"house": "house", "old": "level", "new": "level"},
    "support_declared": {"area": "supporting area", "house": "its owner",
                         "side": "house backed or null", "strength": "strength added",
                         "battle": "embattled area"},
    "support_refused": {"area": "supporting area", "house": "its owner",
                        "refused_by": "house that refused it"},
    "tie_broken": {"about": "what was tied", "by": "Iron Throne holder",
                   "order": "houses in order (tracks)", "chosen": "house chosen (wildlings)"},
    "token_passed": {"token": "special token", "old": "house", "new": "house"},
    "track_set": {"track": "track id", "order": "houses, position 1 first"},
    "unit_destroyed": {"house": "house", "area": "area", "unit": "one unit (supply, wildlings)",
                       "cause": "supply or wildlings", "units": "units (battles)",
                       "reason": "why (battles)"},
    "unit_upgraded": {"house": "house", "area": "area", "unit": "footman", "to": "knight",
                      "by": "card id"},
    "units_stand_up": {"area": "area", "house": "house", "units": _U},
    "valyrian_steel_blade_used": {"house": "holder", "area": "embattled area"},
    "westeros_card_resolved": {"deck": "deck", "card": "card"},
    "westeros_card_revealed": {"deck": "deck", "card": "card", "wildling": "wildling icon"},
    "westeros_card_to_bottom": {"deck": "deck", "card": "card"},
    "westeros_phase": {"threat": "wildling threat at the start"},
    "westeros_phase_skipped": {},
    "wildling_losses": {"house": "house", "owed": "points owed", "units": _ENTRIES,
                        "points": "points paid"},
    "wildling_threat_advanced": {"deck": "deck", "card": "card", "old": "threat", "new": "threat",
                                 "capped": "true when at the maximum"},
    "wildling_threat_set": {"old": "threat", "new": "threat"},
    "winter_is_coming": {"deck": "deck reshuffled"},
}
"""Every event type and its fields (after ``type``, ``rule``, ``round``, ``phase``), for the
log's readers; a test checks it against every ``emit`` in the engine and every report line."""


def make_event(type_: str, rule: str, round_: int, phase: str, **fields: Any) -> Event:
    """Build an event with its fixed leading keys.

    >>> make_event("pillage", "R5.2", 2, "action", house="stark", power=1)
    {'type': 'pillage', 'rule': 'R5.2', 'round': 2, 'phase': 'action', 'house': 'stark', 'power': 1}
    """
    event: Event = {"type": type_, "rule": rule, "round": round_, "phase": phase}
    event.update((key, _value(v)) for key, v in fields.items())
    return event


def _value(field: Any) -> Any:
    """A copy of a field's lists and mappings: an event records the moment it is emitted, not
    the state's list that later steps change in place (units taken as casualties, R6.7)."""
    if isinstance(field, list):
        return [_value(v) for v in field]
    if isinstance(field, dict):
        return {k: _value(v) for k, v in field.items()}
    return field
