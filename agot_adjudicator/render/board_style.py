"""What the board pictures share (``agot map``, :mod:`.picture`, :mod:`.panel`): their fonts and
colours, and the names of houses, areas, phases and cards in the picture's language (the
glossary through :class:`~agot_adjudicator.render.language.Names`)."""

from __future__ import annotations

from agot_adjudicator.model.ruleset import Area, Ruleset
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import PHASE_TITLES, speaker, tr
from agot_adjudicator.render.language import house as house_name

PANEL_WIDTH = 380.0
FONT = "sans-serif"
"""The generic family only: no font is named, fetched or embedded (English pictures)."""
FONTS = {
    "en": FONT,
    "zh-Hans": "'Noto Sans CJK SC', 'Noto Sans CJK TC', 'Source Han Sans SC', 'PingFang SC', "
               "'Microsoft YaHei', sans-serif",
    "zh-Hant": "'Noto Sans CJK TC', 'Noto Sans CJK SC', 'Source Han Sans TC', 'PingFang TC', "
               "'Microsoft JhengHei', sans-serif",
}
"""The ``font-family`` of a picture by language: a Chinese picture names CJK-capable families
first (the Noto Sans CJK subsets that :mod:`agot_adjudicator.render.png` ships and the site
embeds, then the usual system ones)."""

LAND_FILL, LAND_STROKE = "#efe3c4", "#7a6a4f"
SEA_FILL, SEA_STROKE, SEA_INK = "#c6dcf1", "#3f6a96", "#173a61"
COAST = "#4a3b26"
RIVER = "#3d7fc1"
PAPER = "#ffffff"
TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
TOKEN_NAMES = {"iron_throne": "Iron Throne", "valyrian_steel_blade": "Valyrian Steel Blade",
               "messenger_raven": "Messenger Raven"}
CASTLE_WORDS = {"stronghold": N_("stronghold"), "city": N_("city")}
KIND_WORDS = {"land": N_("land"), "sea": N_("sea")}
DEFAULT_TITLE = "A Game of Thrones: The Board Game, first edition (2003)"
PROVISIONAL = "#b00020"
"""The colour of a stopped run's caption (``now.svg``)."""
BATTLE_INK = "#a00000"
RAID_INK = "#5a2d82"
WILDLING_INK = "#1f4e79"


def house_label(house: str | None) -> str:
    """A house as the board names it: ``Baratheon`` (its glossary name in Chinese)."""
    return house_name(house)


def area_label(area: Area, area_id: str) -> str:
    """An area's name: the ruleset's in English, the glossary's in Chinese."""
    names = speaker()
    return names.area(area_id) if names is not None else area.name


def phase_label(phase: str) -> str:
    """A phase as ``{phase} phase`` reads it: the id in English, the phase's title in Chinese."""
    if speaker() is None:
        return phase
    return tr(PHASE_TITLES[phase]) if phase in PHASE_TITLES else phase


def ruleset_title(ruleset: Ruleset) -> str:
    if ruleset.title == DEFAULT_TITLE:
        return tr("A Game of Thrones: The Board Game, first edition (2003)")
    return ruleset.title


def westeros_name(card: str) -> str:
    """A Westeros card by its name (``Sea of Storms``; the glossary's in Chinese)."""
    names = speaker()
    if names is not None:
        return names.westeros(card)
    return card.replace("_", " ").capitalize()


def order_name(ruleset: Ruleset, order_id: str) -> str:
    """An order's name in an area's tooltip: ``march +1 (special)``."""
    names = speaker()
    if names is not None:
        return names.order(order_id)
    token = ruleset.order_tokens[order_id]
    words = token.kind.replace("_", " ")
    if token.kind in ("march", "support") or token.bonus:
        words += f" {token.bonus:+d}" if token.bonus else " 0"
    return words + (" (special)" if token.special else "")
