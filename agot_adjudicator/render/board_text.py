"""The board in words, for a house's mail (issue 30 item 4): every area that holds something
— units, the order where revealed, a power token, a neutral force —, each house's castles,
supply and power, the house's own ★ allowance (R4.2) and the round's restrictions in words
(R3.9–R3.12). Public facts only (a state holds orders once they are revealed, P7); said in the
current language (:meth:`~agot_adjudicator.render.language.Names.speaking`)."""

from __future__ import annotations

from agot_adjudicator.engine.board import castle_count
from agot_adjudicator.engine.planning import stars_allowed
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import RESTRICTIONS, GameState
from agot_adjudicator.render.language import Names, house, lang, sep, tr, units
from agot_adjudicator.render.report import wrap
from agot_adjudicator.render.tables import columns


def board_text(state: GameState, ruleset: Ruleset, house_id: str, width: int = 72) -> str:
    """The board of ``state`` in words, with ``house_id``'s ★ allowance (see the module doc)."""
    names = Names(ruleset, lang())
    head = tr("The board in words")
    lines = [head, "-" * columns(head), ""]
    for area_id in ruleset.area_ids:
        here = state.area(area_id)
        parts = []
        if here.units:
            parts.append(tr("{house}: {units}", house=house(here.house),
                            units=units(list(here.units))))
        if here.order is not None:
            parts.append(tr("order {order}", order=names.order(here.order)))
        if here.power_token is not None:
            parts.append(tr("power token of {house}", house=house(here.power_token)))
        if here.neutral_force is not None:
            parts.append(tr("neutral force {strength}", strength=here.neutral_force.strength))
        if parts:
            lines.append(wrap(tr("- {area}: {what}", area=names.area(area_id),
                                 what=sep().join(parts)), width, "  "))
    lines.append("")
    for name in state.order_of_play():
        kept = state.houses[name]
        lines.append(wrap(tr("- {house}: areas with a castle {castles}, supply {supply}, "
                             "power {power}", house=house(name),
                             castles=castle_count(state, ruleset, name),
                             supply=kept.supply, power=kept.power), width, "  "))
    lines.append("")
    if house_id in state.houses and state.phase != "ended":
        position = state.tracks["kings_court"].index(house_id) + 1
        lines.append(wrap(tr("Special (★) orders allowed: {stars} (King's Court position "
                             "{position}, R4.2).", stars=stars_allowed(state, ruleset, house_id),
                             position=position), width, ""))
    for card in state.restrictions:
        lines.append(wrap(tr("This round ({card}): {text}.", card=names.westeros(card),
                             text=tr(RESTRICTIONS[card].text)), width, ""))
    if not state.restrictions:
        lines.append(tr("No Westeros card restricts orders this round."))
    return "\n".join(lines) + "\n"
