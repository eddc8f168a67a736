"""The board as an SVG picture (``agot map``): a schematic map and the tracks beside it.

Every area of the ruleset is a box at its ``xy`` (board.yaml), land and sea
filled differently; a border (adjacency) is a line between the facing sides of
two boxes. Each box shows the area's castle, supply barrels and power crowns
(R3.4, R3.5, R3.8), home shield (R5.6), controller (R13.1), units (R0.4; routed
units apart, R6.10), power token (R5.5), neutral force (R0.6, R12.2) and, when
asked, its order (R4). A side panel shows the round, the wildling threat (R0.8),
the three influence tracks with their special tokens (R1.4, R4.2), the supply
track (R9.2) and each house's power, castles, hand size and discards.
:func:`render_round_svg` draws a round as played over the board it started
from: the orders as revealed, marches, attacks and battle results, raids,
retreats and units destroyed, read from the round's public event log.

Every label, title, caption and legend line is written in the picture's language
(``lang``: ``en``, ``zh-Hans``, ``zh-Hant``) through the message catalogs and the
glossary (:mod:`agot_adjudicator.render.language`'s ``tr`` and ``Names``); English
pictures are the same bytes as before the catalogs existed. Boxes and wrapping measure
text by East Asian width (a wide character counts as about 1em), so Chinese labels fit.

Pure and deterministic: no I/O, no font fetched or embedded (English names the generic
family only; Chinese names a CJK family first, :data:`FONTS`), elements in the
ruleset's fixed order, numbers printed the same way everywhere. Stdlib only.
Elements carry ids and ``data-*`` attributes (``id="area-winterfell"``,
``data-units="footman,knight"``) so that tests and scripts can read the picture.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from agot_adjudicator.engine.board import controller
from agot_adjudicator.model.ruleset import TRACK_TOKENS, TRACKS, UNIT_TYPES, Area, Ruleset
from agot_adjudicator.model.state import AreaState, GameState, sort_units
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import PHASE_TITLES, Names, sep, speaker, tr

LAND_SIZE = (150.0, 92.0)
"""Width and height of an area's box when board.yaml gives no ``size``."""
MARGIN = 16.0
PANEL_WIDTH = 360.0
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
first (the Noto Sans CJK subsets that :mod:`agot_adjudicator.render.png` ships, then the
usual system ones); nothing is fetched or embedded."""

HOUSE_STYLES: dict[str, tuple[str, str, str]] = {
    "stark": ("#ececec", "#111111", "S"),
    "baratheon": ("#ffd700", "#111111", "B"),
    "tyrell": ("#5aa83c", "#111111", "T"),
    "lannister": ("#9e1b1b", "#ffffff", "L"),
    "greyjoy": ("#1c1c1c", "#ffffff", "G"),
}
"""Fill, ink and letter per house: the printed colours (Stark white/grey, Baratheon
yellow, Tyrell green, Lannister red, Greyjoy black), far apart in lightness
(about 236, 203, 133, 66, 28 in grey) and lettered, so a grey print stays legible."""

LAND_FILL, LAND_STROKE = "#f4ecd6", "#7a6a4f"
SEA_STROKE = "#3f6a96"
ORDER_CODES = {"march": "M", "defense": "D", "support": "S", "raid": "R", "consolidate_power": "C"}
TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
TOKEN_NAMES = {"iron_throne": "Iron Throne", "valyrian_steel_blade": "Valyrian Steel Blade",
               "messenger_raven": "Messenger Raven"}
CASTLE_WORDS = {"stronghold": N_("stronghold"), "city": N_("city")}
KIND_WORDS = {"land": N_("land"), "sea": N_("sea")}
DEFAULT_TITLE = "A Game of Thrones: The Board Game, first edition (2003)"
PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}
HALO = (("stroke", "#ffffff"), ("stroke-width", 3), ("stroke-linejoin", "round"),
        ("paint-order", "stroke"))
"""A white outline behind text drawn over the sea's waves."""


# --- small helpers ---------------------------------------------------------------------------

def _n(value: float) -> str:
    """A number as SVG text, the same on every platform.

    >>> _n(3.0), _n(2.25), _n(-0.5)
    ('3', '2.2', '-0.5')
    """
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


_NEEDS_QUOTING = re.compile("[&<>\"'\n\r\t]")


def _attrs(attrs: Sequence[tuple[str, object]]) -> str:
    parts = []
    for key, value in attrs:
        if value is None:
            continue
        if isinstance(value, int | float) and not isinstance(value, bool):
            text = str(value) if type(value) is int else _n(value)
        else:
            text = str(value)
        quoted = quoteattr(text) if _NEEDS_QUOTING.search(text) else f'"{text}"'
        parts.append(f" {key}={quoted}")
    return "".join(parts)


def _el(tag: str, attrs: Sequence[tuple[str, object]], text: str | None = None) -> str:
    if text is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{escape(text)}</{tag}>"


def _wide(char: str) -> bool:
    """Whether a character is East Asian wide or full-width (drawn about 1em wide).

    >>> _wide("临"), _wide("，"), _wide("W"), _wide("·")
    (True, True, False, False)
    """
    return unicodedata.east_asian_width(char) in ("W", "F")


def _em_units(text: str, wide: float) -> float:
    """The width of ``text`` in units of a narrow character: ``wide`` units for each wide
    character, 1 for any other (so an all-narrow text measures its length, as before).

    >>> _em_units("Winterfell", 1.5), _em_units("临冬城", 1.5)
    (10, 4.5)
    """
    return sum(wide if _wide(c) else 1 for c in text)


def _columns(text: str) -> int:
    """Terminal-style columns: 2 for a wide character, 1 for any other."""
    return sum(2 if _wide(c) else 1 for c in text)


def _house_name(house: str | None) -> str:
    """A house as the picture names it: its id in English (as the picture always did), its
    glossary name in Chinese (``no one`` for None)."""
    names = speaker()
    if names is None:
        return str(house)
    if house is None:
        return tr("no one")
    return names.glossary("house", house) if house in names.ruleset.glossary.ids("house") else house


def house_letter(house: str) -> str:
    """The letter on a house's badges, shields and tokens: ``S`` for Stark in English, the
    first character of its glossary name in Chinese (史)."""
    names = speaker()
    if names is not None and house in names.ruleset.glossary.ids("house"):
        return names.glossary("house", house)[:1]
    return house_style(house)[2]


def _area_name(area: Area, area_id: str) -> str:
    """An area's name: the ruleset's in English, the glossary's in Chinese."""
    names = speaker()
    return names.area(area_id) if names is not None else area.name


def _phase(phase: str) -> str:
    """A phase as ``{phase} phase`` reads it: the id in English, the phase's title in Chinese
    (whose sentences hold no word "phase")."""
    if speaker() is None:
        return phase
    return tr(PHASE_TITLES[phase]) if phase in PHASE_TITLES else phase


def _ruleset_title(ruleset: Ruleset) -> str:
    """The ruleset's title; the packaged one's in the picture's language."""
    if ruleset.title == DEFAULT_TITLE:
        return tr("A Game of Thrones: The Board Game, first edition (2003)")
    return ruleset.title


def _westeros_name(card: str) -> str:
    """A Westeros card: ``sea of storms`` in English (as the picture always wrote it), its
    glossary name in Chinese."""
    names = speaker()
    return names.westeros(card) if names is not None else card.replace("_", " ")


PROVISIONAL = "#b00020"
"""The colour of a stopped run's caption (``now.svg``)."""


def _text(x: float, y: float, text: str, size: float = 12, *, anchor: str = "start",
          weight: str | None = None, fill: str = "#111111", extra: Sequence[tuple[str, object]] = ()
          ) -> str:
    return _el("text", [("x", x), ("y", y), ("font-size", size), ("text-anchor", anchor),
                        ("font-weight", weight), ("fill", fill), *extra], text)


def house_style(house: str) -> tuple[str, str, str]:
    """Fill, ink and letter of a house (grey for neutral units and houses the table lacks)."""
    return HOUSE_STYLES.get(house, ("#a8a8a8", "#111111", house[:1].upper()))


def _units_text(units: Sequence[str]) -> str:
    """``1 footman, 2 knights`` (步兵×1、骑士×2 in Chinese)."""
    counts = Counter(units)
    names = speaker()

    def name(u: str) -> str:
        if names is not None:
            return names.counted("unit", u)
        return u if counts[u] == 1 else PLURAL[u]

    return sep().join(tr("{count} {unit}", count=counts[u], unit=name(u)) for u in UNIT_TYPES
                      if counts[u])


def order_label(ruleset: Ruleset, order_id: str) -> str:
    """Short label of an order token (R0.2).

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> rs = load_ruleset()
    >>> [order_label(rs, o) for o in ("march_plus1", "defense_plus2", "support", "raid")]
    ['M+1★', 'D+2★', 'S0', 'R']
    """
    token = ruleset.order_tokens[order_id]
    bonus = ""
    if token.kind in ("march", "support") or token.bonus:
        bonus = f"{token.bonus:+d}" if token.bonus else "0"
    return _order_code(ruleset, order_id) + bonus + ("★" if token.special else "")


def _order_code(ruleset: Ruleset, order_id: str) -> str:
    """The letter of an order's kind: ``M`` for March in English; in Chinese the first
    character of the token's glossary name (行 for 行军)."""
    names = speaker()
    if names is not None and order_id in names.ruleset.glossary.ids("order"):
        return names.glossary("order", order_id)[:1]
    return ORDER_CODES.get(ruleset.order_tokens[order_id].kind, "?")


def order_name(ruleset: Ruleset, order_id: str) -> str:
    """An order's name in an area's tooltip: ``march +1 (special)`` (the glossary's name in
    Chinese)."""
    names = speaker()
    if names is not None:
        return names.order(order_id)
    token = ruleset.order_tokens[order_id]
    words = token.kind.replace("_", " ")
    if token.kind in ("march", "support") or token.bonus:
        words += f" {token.bonus:+d}" if token.bonus else " 0"
    return words + (" (special)" if token.special else "")


# --- geometry --------------------------------------------------------------------------------

Box = tuple[float, float, float, float]


def area_box(area: Area) -> Box:
    """The area's box on the map: left, top, right, bottom."""
    x, y = area.xy or (0.0, 0.0)
    w, h = area.size or LAND_SIZE
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


def border_segment(ruleset: Ruleset, a: str, b: str) -> tuple[float, float, float, float]:
    """The line drawn for the border of ``a`` and ``b``: between the facing sides of their boxes."""
    def anchor(one: Box, other: Box) -> tuple[float, float]:
        inset = 12.0
        lo, hi = max(one[0], other[0]), min(one[2], other[2])
        tx = (lo + hi) / 2 if lo < hi else (other[0] + other[2]) / 2
        lo, hi = max(one[1], other[1]), min(one[3], other[3])
        ty = (lo + hi) / 2 if lo < hi else (other[1] + other[3]) / 2
        return (_clamp(tx, one[0] + inset, one[2] - inset), _clamp(ty, one[1] + inset, one[3] - inset))
    box_a, box_b = area_box(ruleset.areas[a]), area_box(ruleset.areas[b])
    (x1, y1), (x2, y2) = anchor(box_a, box_b), anchor(box_b, box_a)
    return (x1, y1, x2, y2)


def _clip(seg: tuple[float, float, float, float], box: Box) -> tuple[float, float, bool]:
    """Liang–Barsky clipping of a segment against a box: the parameters (0..1 along it) where
    it enters and leaves, and whether it runs parallel to a side, outside it."""
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t_in, t_out, outside = 0.0, 1.0, False
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            outside = outside or q < 0
            continue
        t = q / p
        if p < 0:
            t_in = max(t_in, t)
        else:
            t_out = min(t_out, t)
    return t_in, t_out, outside


def _segment_meets_box(seg: tuple[float, float, float, float], box: Box, margin: float) -> bool:
    """Whether a segment passes through a box grown by ``margin``."""
    grown = (box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)
    t_in, t_out, outside = _clip(seg, grown)
    return not outside and t_in < t_out


def borders(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Every border once, as (a, b) with a before b in the ruleset's area order."""
    order = {a: i for i, a in enumerate(ruleset.area_ids)}
    return [(a, b) for a in ruleset.area_ids for b in ruleset.areas[a].adjacent
            if order[a] < order[b]]


def layout_problems(ruleset: Ruleset, gap: float = 6.0) -> list[str]:
    """Where the map would mislead: boxes closer than ``gap``, or a border line through a third box."""
    problems = []
    ids = ruleset.area_ids
    for i, a in enumerate(ids):
        box_a = area_box(ruleset.areas[a])
        for b in ids[i + 1:]:
            box_b = area_box(ruleset.areas[b])
            if (box_a[0] < box_b[2] + gap and box_b[0] < box_a[2] + gap
                    and box_a[1] < box_b[3] + gap and box_b[1] < box_a[3] + gap):
                problems.append(f"boxes of {a} and {b} overlap or touch")
    for a, b in borders(ruleset):
        seg = border_segment(ruleset, a, b)
        for c in ids:
            if c not in (a, b) and _segment_meets_box(seg, area_box(ruleset.areas[c]), 4.0):
                problems.append(f"border {a}-{b} crosses {c}")
    return problems


# --- drawing pieces --------------------------------------------------------------------------

def _defs() -> str:
    return ("<defs>"
            "<pattern id=\"sea\" width=\"24\" height=\"12\" patternUnits=\"userSpaceOnUse\">"
            "<rect width=\"24\" height=\"12\" fill=\"#c4daf0\"/>"
            "<path d=\"M0 8 Q6 4 12 8 T24 8\" fill=\"none\" stroke=\"#9cbde0\" stroke-width=\"1.2\"/>"
            "</pattern></defs>")


def _badge(x: float, y: float, house: str, size: float = 16) -> str:
    """A house badge: a square in the house colour with its letter, centred on (x, y)."""
    fill, ink, _ = house_style(house)
    letter = house_letter(house)
    half = size / 2
    return (_el("rect", [("x", x - half), ("y", y - half), ("width", size), ("height", size),
                         ("rx", 3), ("fill", fill), ("stroke", "#000000"), ("stroke-width", 1)])
            + _text(x, y + size * 0.33, letter, size * 0.72, anchor="middle", weight="bold",
                    fill=ink))


def _unit_glyph(x: float, y: float, unit: str, house: str, routed: bool = False) -> str:
    """Footman: circle; knight: diamond; ship: hull. Routed: hollow and dashed (R6.10)."""
    style = [("fill", house_style(house)[0]), ("stroke", "#000000"), ("stroke-width", 1.2)]
    if unit == "footman":
        glyph = _el("circle", [("cx", x), ("cy", y), ("r", 5.5), *style])
    elif unit == "knight":
        glyph = _el("path", [("d", f"M{_n(x)} {_n(y - 7)}L{_n(x + 6)} {_n(y)}L{_n(x)} {_n(y + 7)}"
                                   f"L{_n(x - 6)} {_n(y)}Z"), *style])
    else:
        glyph = _el("path", [("d", f"M{_n(x - 7)} {_n(y - 1)}L{_n(x + 7)} {_n(y - 1)}L{_n(x + 4)} "
                                   f"{_n(y + 5)}L{_n(x - 4)} {_n(y + 5)}ZM{_n(x)} {_n(y - 1)}L{_n(x)} "
                                   f"{_n(y - 8)}L{_n(x + 5)} {_n(y - 3)}L{_n(x)} {_n(y - 3)}"), *style])
    if not routed:
        return glyph
    # laid down: the glyph turned on its side and struck through
    return (f"<g transform=\"rotate(90 {_n(x)} {_n(y)})\" opacity=\"0.75\">{glyph}</g>"
            + _el("path", [("d", f"M{_n(x - 7)} {_n(y + 7)}L{_n(x + 7)} {_n(y - 7)}"),
                           ("stroke", "#000000"), ("stroke-width", 1.8)]))


def _unit_rows(x: float, y: float, house: str, units: Sequence[str], routed: Sequence[str],
               routed_at: tuple[float, float]) -> str:
    """Badge and each standing unit type with its count at (x, y); the routed ones at ``routed_at``."""
    parts = [_badge(x + 8, y, house)]
    standing = Counter(units)
    for unit in routed:
        standing[unit] -= 1

    def glyphs(cx: float, cy: float, group: Counter[str], is_routed: bool) -> None:
        for unit in UNIT_TYPES:
            if group[unit] > 0:
                attrs = [("class", "unit"), ("data-unit", unit), ("data-count", group[unit]),
                         ("data-routed", "true" if is_routed else None)]
                parts.append(f"<g{_attrs(attrs)}>" + _unit_glyph(cx + 6, cy, unit, house, is_routed)
                             + _text(cx + 14, cy + 4.5, str(group[unit]), 13, weight="bold",
                                     extra=HALO) + "</g>")
                cx += 27

    glyphs(x + 22, y, standing, False)
    if routed:
        rx, ry = routed_at
        parts.append(_text(rx, ry + 4, tr("r"), 10, weight="bold",
                           extra=[("font-style", "italic"), *HALO]))
        glyphs(rx + 7, ry, Counter(routed), True)
    return "".join(parts)


def _castle_icon(x: float, y: float, castle: str) -> str:
    """Stronghold: two towers and a wall; city: one tower. (x, y) is the top-left corner."""
    if castle == "stronghold":
        d = (f"M{_n(x)} {_n(y + 14)}V{_n(y)}h4v3h2v-3h4v6h4v-6h4v3h2v-3h4V{_n(y + 14)}Z")
    else:
        d = f"M{_n(x)} {_n(y + 14)}V{_n(y + 2)}h3v3h2v-3h3v3h2v-3h3V{_n(y + 14)}Z"
    return _el("path", [("d", d), ("fill", "#6b6b6b"), ("stroke", "#111111"), ("stroke-width", 1)])


def _barrel(x: float, y: float) -> str:
    return (_el("rect", [("x", x), ("y", y - 6), ("width", 9), ("height", 12), ("rx", 3),
                         ("fill", "#a0682e"), ("stroke", "#3b2410"), ("stroke-width", 1)])
            + _el("path", [("d", f"M{_n(x)} {_n(y - 2)}h9M{_n(x)} {_n(y + 2)}h9"),
                           ("stroke", "#3b2410"), ("stroke-width", 1)]))


def _crown(x: float, y: float) -> str:
    d = (f"M{_n(x)} {_n(y + 5)}L{_n(x)} {_n(y - 4)}L{_n(x + 3.5)} {_n(y)}L{_n(x + 7)} {_n(y - 6)}"
         f"L{_n(x + 10.5)} {_n(y)}L{_n(x + 14)} {_n(y - 4)}L{_n(x + 14)} {_n(y + 5)}Z")
    return _el("path", [("d", d), ("fill", "#e3b925"), ("stroke", "#5a4500"), ("stroke-width", 1)])


def _shield(x: float, y: float, house: str) -> str:
    """The home shield of ``house`` (R5.6); (x, y) is the top-left corner."""
    fill, ink, _ = house_style(house)
    letter = house_letter(house)
    d = f"M{_n(x)} {_n(y)}h16v8q0 7-8 10q-8-3-8-10Z"
    return (_el("path", [("d", d), ("fill", fill), ("stroke", "#000000"), ("stroke-width", 1.2)])
            + _text(x + 8, y + 11, letter, 10, anchor="middle", weight="bold", fill=ink))


def _power_token(x: float, y: float, house: str) -> str:
    """A power token (R5.5): a double ring in the house colour with its letter."""
    fill, ink, _ = house_style(house)
    letter = house_letter(house)
    return (_el("circle", [("cx", x), ("cy", y), ("r", 9), ("fill", fill), ("stroke", "#000000"),
                           ("stroke-width", 1.2)])
            + _el("circle", [("cx", x), ("cy", y), ("r", 6.5), ("fill", "none"), ("stroke", ink),
                             ("stroke-width", 0.8)])
            + _text(x, y + 3.5, letter, 9, anchor="middle", weight="bold", fill=ink))


def _octagon(x: float, y: float, r: float) -> str:
    k = r * 0.4142
    pts = [(x - k, y - r), (x + k, y - r), (x + r, y - k), (x + r, y + k), (x + k, y + r),
           (x - k, y + r), (x - r, y + k), (x - r, y - k)]
    return " ".join(f"{_n(px)},{_n(py)}" for px, py in pts)


def _order_token(x: float, y: float, label: str | None, house: str) -> str:
    """An order token: face up with its label, or face down (``label`` None) showing the house."""
    if label is None:
        fill, ink, _ = house_style(house)
        letter = house_letter(house)
        return (_el("circle", [("cx", x), ("cy", y), ("r", 14), ("fill", "#4a4a4a"),
                               ("stroke", "#000000"), ("stroke-width", 1.2)])
                + _el("circle", [("cx", x), ("cy", y), ("r", 6), ("fill", fill),
                                 ("stroke", "#000000"), ("stroke-width", 0.8)])
                + _text(x, y + 3.5, letter, 8, anchor="middle", weight="bold", fill=ink))
    special = label.endswith("★")
    face = label.rstrip("★")
    out = (_el("circle", [("cx", x), ("cy", y), ("r", 14), ("fill", "#fffbe8"),
                          ("stroke", "#000000"), ("stroke-width", 2.2 if special else 1.2)])
           + _text(x, y + (2 if special else 3.5), face, 10 if len(face) <= 2 else 9,
                   anchor="middle", weight="bold"))
    if special:
        out += _text(x, y + 11, "★", 8, anchor="middle")
    return out


# --- areas -----------------------------------------------------------------------------------

WIDE_EM = 1.0 / 0.68
"""A wide (CJK) character's width in average bold Latin characters (1em against 0.68em)."""


def _name_size(name: str, room: float) -> float:
    """Font size that fits ``name`` (bold) in ``room`` pixels, between 8 and 14 (a wide
    character counts 1em, a narrow one 0.68em).

    >>> _name_size("Winterfell", 120), _name_size("临冬城", 120)
    (14.0, 14.0)
    >>> round(_name_size("The Shivering Sea", 100), 2), round(_name_size("颤抖海湾之地", 60), 2)
    (8.65, 10.0)
    """
    return max(8.0, min(14.0, room / (0.68 * max(_em_units(name, WIDE_EM), 1))))


def _area(state: GameState, ruleset: Ruleset, area_id: str, house: str | None,
          show_orders: bool) -> str:
    """One area's group: box, controller bar, name, icons, units, tokens and (if asked) its order."""
    area = ruleset.areas[area_id]
    here: AreaState = state.area(area_id)
    left, top, right, bottom = area_box(area)
    width, height = right - left, bottom - top
    cx, cy = (left + right) / 2, (top + bottom) / 2
    ctrl = controller(state, ruleset, area_id)
    order_shown: str | None = None
    if show_orders and here.order is not None and here.house is not None:
        order_shown = here.order if can_see_order(state, house, here.house) else "hidden"
    attrs: list[tuple[str, object]] = [
        ("id", f"area-{area_id}"), ("class", f"area {area.kind}"), ("data-kind", area.kind),
        ("data-castle", area.castle), ("data-supply", area.supply if area.is_land else None),
        ("data-power", area.power if area.is_land else None), ("data-home", area.home_of),
        ("data-controller", ctrl),
        ("data-house", here.house if here.units else None),
        ("data-units", ",".join(here.units) if here.units else None),
        ("data-routed", ",".join(here.routed) if here.routed else None),
        ("data-order", order_shown),
        ("data-power-token", here.power_token),
        ("data-neutral-force", here.neutral_force.strength if here.neutral_force else None),
    ]
    parts = [f"<g{_attrs(attrs)}>", _el("title", [], _area_title(ruleset, area, here, ctrl,
                                                                   order_shown))]
    fill = "url(#sea)" if area.is_sea else LAND_FILL
    parts.append(_el("rect", [("x", left), ("y", top), ("width", width), ("height", height),
                              ("rx", 10 if area.is_sea else 6), ("fill", fill),
                              ("stroke", SEA_STROKE if area.is_sea else LAND_STROKE),
                              ("stroke-width", 1.5)]))
    if ctrl is not None:
        cfill = house_style(ctrl)[0]
        parts.append(_el("rect", [("x", left + 1), ("y", top + 1), ("width", width - 2), ("height", 5),
                                  ("rx", 2), ("fill", cfill), ("stroke", "#000000"),
                                  ("stroke-width", 0.6), ("class", "controller")]))
    narrow = width < 100
    ftop = top if height <= LAND_SIZE[1] + 8 else cy - LAND_SIZE[1] / 2
    name = _area_name(area, area_id)
    if narrow:
        ny = top + height * 0.22
        size = _name_size(name, height * 0.35)
        parts.append(_text(cx + 4, ny, name, size, anchor="middle", weight="bold",
                           extra=[("transform", f"rotate(-90 {_n(cx)} {_n(ny)})"), *HALO]))
    else:
        name_left = left + (30 if area.castle == "stronghold" else 22 if area.castle else 6)
        name_right = right - (26 if area.home_of else 6)
        size = _name_size(name, name_right - name_left)
        if area.is_sea and size < 11 and " " in name:  # two lines rather than tiny text
            words = name.split(" ")
            cut = min(range(1, len(words)),
                      key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
            lines = [" ".join(words[:cut]), " ".join(words[cut:])]
            size = min(_name_size(line, name_right - name_left) for line in lines)
            for i, line in enumerate(lines):
                parts.append(_text(cx, ftop + 13 + i * (size + 2), line, size, anchor="middle",
                                   weight="bold", extra=HALO))
        else:
            parts.append(_text((name_left + name_right) / 2, ftop + 21, name, size,
                               anchor="middle", weight="bold", extra=HALO if area.is_sea else ()))
    if area.castle:
        parts.append(_castle_icon(left + 6, ftop + 9, area.castle))
    if area.home_of:
        parts.append(_shield(right - 22, ftop + 8, area.home_of))
    if area.is_land:
        x = left + 10
        for _ in range(area.supply):
            parts.append(_barrel(x, ftop + 40))
            x += 13
        if area.supply and area.power:
            x += 6
        for _ in range(area.power):
            parts.append(_crown(x, ftop + 41))
            x += 18
    if narrow:
        units_xy, routed_xy = (cx - 24, cy), (cx - 16, cy + 22)
        order_xy = (cx, cy + (54 if here.routed else 34))
    elif area.is_sea and width >= LAND_SIZE[0]:
        units_xy, routed_xy = (left + 8, ftop + 48), (left + 64, ftop + 48)
        order_xy = (right - 22, ftop + 48)
    elif area.is_sea:
        units_xy, routed_xy = (left + 8, ftop + 46), (left + 22, ftop + 68)
        order_xy = (right - 20, ftop + 70)
    else:
        units_xy, routed_xy = (left + 8, ftop + 62), (left + 32, ftop + 81)
        order_xy = (right - 20, ftop + 74)
    if here.units and here.house is not None:
        parts.append(_unit_rows(units_xy[0], units_xy[1], here.house, here.units, here.routed,
                                routed_xy))
    if here.power_token is not None:
        parts.append(f"<g class=\"power-token\" data-house=\"{here.power_token}\">"
                     + _power_token(left + 18, ftop + 80, here.power_token) + "</g>")
    if here.neutral_force is not None:
        nf = here.neutral_force
        parts.append(f"<g class=\"neutral-force\" data-strength=\"{nf.strength}\">")
        parts.append(_el("polygon", [("points", _octagon(left + 20, ftop + 74, 12)),
                                     ("fill", "#7d7d7d"), ("stroke", "#000000"),
                                     ("stroke-width", 1.2)]))
        parts.append(_text(left + 20, ftop + 78.5, str(nf.strength), 12, anchor="middle",
                           weight="bold", fill="#ffffff"))
        x = left + 38
        if nf.house:  # a house not in play (R12.2): its units in grey, then its name
            counts = Counter(nf.units)
            for unit in UNIT_TYPES:
                if counts[unit]:
                    parts.append(_unit_glyph(x + 4, ftop + 74, unit, "neutral"))
                    parts.append(_text(x + 12, ftop + 78.5, str(counts[unit]), 12, weight="bold",
                                       extra=HALO))
                    x += 26
        parts.append(_text(x, ftop + 78, _house_name(nf.house) if nf.house else tr("neutral"), 10,
                           extra=[("font-style", "italic"), *HALO]))
        parts.append("</g>")
    if order_shown is not None and here.house is not None:
        label = None if order_shown == "hidden" else order_label(ruleset, order_shown)
        parts.append(f"<g class=\"order\" data-order=\"{order_shown}\">"
                     + _order_token(order_xy[0], order_xy[1], label, here.house) + "</g>")
    parts.append("</g>")
    return "".join(parts)


def _area_title(ruleset: Ruleset, area: Area, here: AreaState, ctrl: str | None,
                order_shown: str | None) -> str:
    facts = [tr(KIND_WORDS[area.kind]) if area.kind in KIND_WORDS else area.kind,
             tr(CASTLE_WORDS[area.castle]) if area.castle in CASTLE_WORDS else area.castle or "",
             tr("{count} supply", count=area.supply) if area.supply else "",
             tr("{count} power", count=area.power) if area.power else "",
             tr("home of {house}", house=_house_name(area.home_of)) if area.home_of else "",
             tr("controlled by {house}", house=_house_name(ctrl)) if ctrl else ""]
    text = tr("{name} ({facts})", name=_area_name(area, area.id),
              facts=sep().join(f for f in facts if f))
    if here.units and here.house:
        text += tr("; {house}: {units}", house=_house_name(here.house), units=_units_text(here.units))
        if here.routed:
            text += tr(" ({units} routed)", units=_units_text(here.routed))
    if here.power_token:
        text += tr("; {house} power token", house=_house_name(here.power_token))
    if here.neutral_force:
        text += tr("; neutral force {strength}", strength=here.neutral_force.strength)
    if order_shown == "hidden":
        text += tr("; an order, face down")
    elif order_shown is not None:
        text += tr("; order: {order}", order=order_name(ruleset, order_shown))
    return text


def can_see_order(state: GameState, viewer: str | None, owner: str) -> bool:
    """Whether ``viewer`` (None: the moderator) may see the face of ``owner``'s order.

    Orders are placed face down and revealed together at the end of planning
    (R4.1, R4.5): before that only their owner (and the moderator) sees them.
    """
    return viewer is None or viewer == owner or state.phase != "planning"


# --- side panel ------------------------------------------------------------------------------

def _cell(x: float, y: float, w: float, h: float, label: str, *, on: bool,
          extra: Sequence[tuple[str, object]] = ()) -> str:
    return (_el("rect", [("x", x), ("y", y), ("width", w), ("height", h), ("rx", 3),
                         ("fill", "#222222" if on else "#ffffff"), ("stroke", "#555555"),
                         ("stroke-width", 1), *extra])
            + _text(x + w / 2, y + h / 2 + 4, label, 11, anchor="middle",
                    weight="bold" if on else None, fill="#ffffff" if on else "#333333"))


def _panel(state: GameState, ruleset: Ruleset, x: float, house: str | None,
           play: RoundPlay | None = None, provisional: bool = False) -> tuple[str, float]:
    """The side panel at ``x``; returns its SVG and its bottom (``play``: a round picture's;
    ``provisional``: a stopped run's board, P4)."""
    out: list[str] = ["<g id=\"panel\">"]
    y = MARGIN + 14
    for line in _wrap(_ruleset_title(ruleset), 44):
        out.append(_text(x, y, line, 13, weight="bold"))
        y += 17
    y += 3
    out.append(_text(x, y, tr("Game {game} · round {round} · {phase} phase", game=state.game_id,
                              round=state.round, phase=_phase(state.phase)), 12))
    y += 18
    view = (tr("Moderator's view") if house is None
            else tr("View of {house} (what {house} may see)", house=_house_name(house)))
    if play is not None:
        out.append(_text(x, y, tr("Round {round} as played: the board it started from,",
                                  round=play.round), 12,
                         extra=[("id", "round-view"), ("font-style", "italic")]))
        y += 16
        view = tr("the orders as revealed, what moved, fought and fell")
    out.append(_text(x, y, view, 12, extra=[("id", "view"), ("data-house", house),
                                           ("font-style", "italic")]))
    if provisional:
        y += 18
        out.append(_text(x, y, tr("Provisional: the board as a stopped run left it,"), 12,
                         weight="bold", fill=PROVISIONAL, extra=[("id", "provisional")]))
        y += 16
        out.append(_text(x, y, tr("not a record (pending decisions)"), 12, weight="bold",
                         fill=PROVISIONAL))
    if state.winner:
        y += 18
        winners = sep().join(_house_name(h) for h in state.winner["houses"])
        out.append(_text(x, y, tr("Winner: {houses}", houses=winners), 12, weight="bold",
                         extra=[("id", "winner")]))
    y += 28
    out.append(_text(x, y, tr("Round"), 12, weight="bold"))
    out.append(f"<g id=\"track-round\" data-round=\"{state.round}\">")
    for r in range(1, ruleset.rounds + 1):
        out.append(_cell(x + 92 + (r - 1) * 25, y - 14, 23, 20, str(r), on=r == state.round))
    out.append("</g>")
    y += 28
    out.append(_text(x, y, tr("Wildling threat"), 12, weight="bold"))
    out.append(f"<g id=\"track-wildlings\" data-threat=\"{state.wildling_threat}\">")
    for i, level in enumerate(range(0, ruleset.threat_max + 1, ruleset.threat_step)):
        out.append(_cell(x + 120 + i * 31, y - 14, 28, 20, str(level),
                         on=level == state.wildling_threat))
    out.append("</g>")
    y += 30
    for track in TRACKS:
        token = TRACK_TOKENS[track]
        holder = state.holder(track)
        used = {"valyrian_steel_blade": state.blade_used, "messenger_raven": state.raven_used}
        names = speaker()
        token_name = names.token(token) if names is not None else TOKEN_NAMES[token]
        note = (tr("{token}: {house}", token=token_name, house=_house_name(holder))
                + (tr(" (used this round)") if used.get(token) else ""))
        track_name = names.track(track) if names is not None else TRACK_NAMES[track]
        out.append(_text(x, y, track_name, 12, weight="bold"))
        out.append(_text(x + 92, y, note, 10, extra=[("font-style", "italic")]))
        order = state.tracks[track]
        out.append(f"<g id=\"track-{track}\" data-houses=\"{','.join(order)}\">")
        for pos, h in enumerate(order):
            cx = x + pos * 66
            fill, ink, _ = house_style(h)
            letter = house_letter(h)
            out.append(_el("rect", [("x", cx), ("y", y + 6), ("width", 62), ("height", 30),
                                    ("rx", 4), ("fill", fill), ("stroke", "#000000"),
                                    ("stroke-width", 1), ("data-position", pos + 1),
                                    ("data-house", h)]))
            out.append(_text(cx + 5, y + 20, str(pos + 1), 9, fill=ink))
            starred = track == "kings_court" and pos < len(ruleset.kings_court_stars)
            stars = ruleset.kings_court_stars[pos] if starred else 0
            # a wide (CJK) letter steps left of three stars
            letter_x = cx + 24 if stars >= 3 and _wide(letter) else cx + 31
            out.append(_text(letter_x, y + 22, letter, 13, anchor="middle", weight="bold", fill=ink))
            out.append(_text(cx + 31, y + 33, _house_name(h), 8, anchor="middle", fill=ink))
            if starred:
                out.append(_text(cx + 58, y + 18, "★" * stars, 8, anchor="end", fill=ink))
        out.append("</g>")
        y += 58
    out.append(_text(x, y, tr("Supply"), 12, weight="bold"))
    out.append(_text(x + 60, y, tr("(level: allowed army sizes, R9.2)"), 10,
                     extra=[("font-style", "italic")]))
    out.append("<g id=\"track-supply\">")
    levels = len(ruleset.supply_track)
    col = min(46.0, (PANEL_WIDTH - 10) / max(levels, 1))
    by_level: dict[int, list[str]] = {}
    for h in state.order_of_play():
        by_level.setdefault(min(state.houses[h].supply, levels - 1), []).append(h)
    tallest = max((len(v) for v in by_level.values()), default=0)
    for level in range(levels):
        lx = x + level * col
        sizes = " ".join(str(s) for s in ruleset.supply_track[level])
        out.append(_el("rect", [("x", lx), ("y", y + 6), ("width", col - 3),
                                ("height", 34 + 20 * tallest), ("rx", 3), ("fill", "#f7f3ea"),
                                ("stroke", "#777777"), ("stroke-width", 1)]))
        out.append(_text(lx + (col - 3) / 2, y + 20, str(level), 11, anchor="middle", weight="bold"))
        out.append(_text(lx + (col - 3) / 2, y + 33, sizes, 8, anchor="middle"))
        for i, h in enumerate(by_level.get(level, [])):
            out.append(f"<g id=\"supply-{h}\" data-house=\"{h}\" data-level=\"{state.houses[h].supply}\">"
                       + _badge(lx + (col - 3) / 2, y + 50 + 20 * i, h, 17) + "</g>")
    out.append("</g>")
    y += 56 + 20 * tallest
    out.append(_text(x, y, tr("Houses"), 12, weight="bold"))
    out.append(_text(x + 60, y, tr("power · castles · cards in hand"), 10,
                     extra=[("font-style", "italic")]))
    y += 8
    for h in state.order_of_play():
        hs = state.houses[h]
        castles = sum(1 for a in ruleset.area_ids if ruleset.areas[a].castle
                      and controller(state, ruleset, a) == h)
        tokens = sum(1 for a in ruleset.area_ids if state.area(a).power_token == h)
        attrs = [("id", f"house-{h}"), ("data-power", hs.power), ("data-castles", castles),
                 ("data-hand", len(hs.hand)), ("data-discards", ",".join(hs.discards)),
                 ("data-power-tokens-on-board", tokens)]
        out.append(f"<g{_attrs(attrs)}>")
        out.append(_badge(x + 9, y + 14, h, 18))
        speaking = speaker()
        out.append(_text(x + 24, y + 18, h.capitalize() if speaking is None else _house_name(h), 12,
                         weight="bold"))
        out.append(_text(x + 104, y + 18, tr("power {count}", count=hs.power), 11))
        out.append(_text(x + 170, y + 18, tr("castles {count}", count=castles), 11))
        out.append(_text(x + 238, y + 18, tr("cards {count}", count=len(hs.hand)), 11))
        y += 20
        if hs.discards:
            cards = sep().join(speaking.card(c) if speaking is not None
                               else ruleset.house_cards[c].name if c in ruleset.house_cards else c
                               for c in hs.discards)
            for line in _wrap(tr("discards: {cards}", cards=cards), 58):
                out.append(_text(x + 24, y + 12, line, 9))
                y += 12
        if tokens:
            out.append(_text(x + 24, y + 12, tr("power tokens on the board: {count}", count=tokens), 9))
            y += 12
        out.append("</g>")
        y += 4
    y += 16
    facts = []
    if state.revealed:
        cards = tr("; ").join(f"{d} {_westeros_name(state.revealed[d])}" for d in ("I", "II", "III")
                              if d in state.revealed)
        facts.append(tr("Westeros cards: {cards}", cards=cards))
    facts.append(tr("Restrictions this round: {cards}",
                    cards=sep().join(_westeros_name(r) for r in state.restrictions) or tr("none")))
    out.append("<g id=\"westeros\">")
    for fact in facts:
        for line in _wrap(fact, 60):
            out.append(_text(x, y, line, 10))
            y += 13
    out.append("</g>")
    y += 12
    legend, y = _legend(ruleset, x, y, play is not None)
    out.append(legend)
    out.append("</g>")
    return "".join(out), y


_NO_LINE_START = set("，。、；：！？）」』》〉…·,.;:!?)")
"""Punctuation that never starts a line of wrapped Chinese text."""
_PIECES = re.compile(r" +|[!-~]+|[^ ]")


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap (deterministic) to ``width`` columns. A text with wide (CJK) characters
    counts them 2 columns and may break between any two characters, never before closing
    punctuation.

    >>> _wrap("aa bb cc", 5)
    ['aa bb', 'cc']
    >>> _wrap("弃牌：艾德·史塔克、罗柏·史塔克", 16)
    ['弃牌：艾德·史塔', '克、罗柏·史塔克']
    >>> _wrap("一二三四。五", 8)
    ['一二三四。', '五']
    """
    if not any(_wide(c) for c in text):
        lines: list[str] = []
        for word in text.split(" "):
            if lines and len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return lines
    out: list[str] = [""]
    for piece in _PIECES.findall(text):
        fits = _columns(out[-1] + piece) <= width
        if fits or not out[-1] or piece in _NO_LINE_START:
            out[-1] += piece
        elif not piece.isspace():
            out.append(piece)
    return [line.rstrip() for line in out]


def _legend(ruleset: Ruleset, x: float, y: float, round_play: bool = False) -> tuple[str, float]:
    routed_mark = tr("r")
    out = ["<g id=\"legend\">", _text(x, y, tr("Legend"), 12, weight="bold")]
    sample = (order_label(ruleset, "march_plus1") if speaker() is not None
              and "march_plus1" in ruleset.order_tokens else "M+1★")
    y += 18
    rows: list[tuple[Callable[[float], str], str]] = [
        (lambda y: _unit_glyph(x + 8, y, "footman", "stark") + _unit_glyph(x + 26, y, "knight", "stark")
         + _unit_glyph(x + 44, y, "ship", "stark"), tr("footman · knight · ship (count beside)")),
        (lambda y: _text(x + 2, y + 4, routed_mark, 10, weight="bold", extra=[("font-style", "italic")])
         + _unit_glyph(x + 16, y, "footman", "stark", True)
         + _unit_glyph(x + 34, y, "knight", "stark", True), tr("routed units (R6.10)")),
        (lambda y: _castle_icon(x + 2, y - 7, "stronghold") + _castle_icon(x + 32, y - 7, "city"),
         tr("stronghold · city (R3.5)")),
        (lambda y: _barrel(x + 4, y) + _crown(x + 22, y + 1), tr("supply barrel · power crown")),
        (lambda y: _shield(x + 4, y - 8, "lannister")
         + _el("rect", [("x", x + 26), ("y", y - 3), ("width", 28), ("height", 5), ("rx", 2),
                        ("fill", house_style("lannister")[0]), ("stroke", "#000000"),
                        ("stroke-width", 0.6)]),
         tr("home area (R5.6) · top bar: controller (R13.1)")),
        (lambda y: _power_token(x + 12, y, "baratheon"), tr("power token (R5.5)")),
        (lambda y: _el("polygon", [("points", _octagon(x + 12, y, 10)), ("fill", "#7d7d7d"),
                                   ("stroke", "#000000")])
         + _text(x + 12, y + 4, "5", 10, anchor="middle", weight="bold", fill="#ffffff"),
         tr("neutral force and its strength (R5.7)")),
        (lambda y: _order_token(x + 12, y, sample, "stark") + _order_token(x + 42, y, None, "stark"),
         tr("order (March, Defense, Support, Raid, Consolidate; ★ special) · face down")),
        (lambda y: _el("line", [("x1", x), ("y1", y), ("x2", x + 24), ("y2", y),
                                ("stroke", LAND_STROKE), ("stroke-width", 2)])
         + _el("line", [("x1", x + 30), ("y1", y), ("x2", x + 54), ("y2", y),
                        ("stroke", SEA_STROKE), ("stroke-width", 2), ("stroke-dasharray", "5 3")]),
         tr("border between lands · with a sea")),
    ]
    if round_play:
        rows += [
            (lambda y: _arrow((x, y, x + 54, y), "tyrell"),
             tr("march, or attack into a battle (R5.3, R6)")),
            (lambda y: _arrow((x, y, x + 54, y), "tyrell", dash="6 4", width=2.5),
             tr("retreat (R6.8, R6.9)")),
            (lambda y: _arrow((x, y, x + 54, y), "tyrell", dash="2 4", width=2.5),
             tr("raid and the order it removed (R5.2)")),
            (lambda y: _label(x + 27, y, "⚔ 3–2", BATTLE_INK), tr("battle: winner and strengths (R6.6)")),
            (lambda y: _label(x + 27, y, f"✕ {house_letter('tyrell')} 1", BATTLE_INK),
             tr("units destroyed, by house letter")),
        ]
    for glyphs, label in rows:
        out.append(glyphs(y))
        lines = _wrap(label, 48)
        for i, line in enumerate(lines):
            out.append(_text(x + 64, y + 4 + 12 * i - 6 * (len(lines) - 1), line, 10))
        y += 28
    for i, h in enumerate(HOUSE_STYLES):
        out.append(_badge(x + 9 + i * 71, y, h, 16))
        out.append(_text(x + 19 + i * 71, y + 4, _house_name(h), 9))
    y += 20
    out.append("</g>")
    return "".join(out), y


# --- the picture -----------------------------------------------------------------------------

def render_svg(state: GameState, ruleset: Ruleset, house: str | None = None,
               orders: bool = False, maker: str | None = None, provisional: bool = False, *,
               lang: str = "en") -> str:
    """The SVG text of the board of ``state``: areas, borders, units, tokens and tracks.

    ``house``: draw only what that house may see (others' orders are face down
    until revealed, R4.1, R4.5; hands and decks are never drawn). ``orders``:
    draw the orders on the board (mid-round states). ``maker``: the release named in a
    ``<!-- written by … -->`` comment after the XML declaration. ``provisional``: the board of
    a stopped run (``now.yaml``, P4), captioned so it cannot pass for a round's record. ``lang``:
    the language of every label, title, caption and the legend (``en``, ``zh-Hans``,
    ``zh-Hant``), area and other names from the glossary. Raises ValueError for a house not
    in play.
    """
    if house is not None and house not in state.houses:
        raise ValueError(f"'{house}' is not a house in play ({', '.join(state.order_of_play())})")
    return _picture(state, ruleset, house, orders, maker=maker, provisional=provisional, lang=lang)


def _picture(state: GameState, ruleset: Ruleset, house: str | None, orders: bool,
             play: RoundPlay | None = None, maker: str | None = None, provisional: bool = False,
             lang: str = "en") -> str:
    with Names(ruleset, lang).speaking():
        return _drawing(state, ruleset, house, orders, play, maker, provisional, FONTS[lang])


def _drawing(state: GameState, ruleset: Ruleset, house: str | None, orders: bool,
             play: RoundPlay | None, maker: str | None, provisional: bool, font: str) -> str:
    boxes = [area_box(ruleset.areas[a]) for a in ruleset.area_ids]
    map_right = max(b[2] for b in boxes) + MARGIN
    map_bottom = max(b[3] for b in boxes) + MARGIN
    min_x = min(0.0, min(b[0] for b in boxes) - MARGIN)
    min_y = min(0.0, min(b[1] for b in boxes) - MARGIN)
    panel_x = map_right + 14
    panel, panel_bottom = _panel(state, ruleset, panel_x, house, play, provisional)
    width = panel_x + PANEL_WIDTH - min_x
    height = max(map_bottom, panel_bottom + MARGIN) - min_y
    what = (tr("round {round} as played: orders as revealed, marches, battles, raids", round=play.round)
            if play is not None else tr("round {round}, {phase} phase", round=state.round,
                                        phase=_phase(state.phase))
            + (tr(", provisional (the board at a stop)") if provisional else ""))
    out = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        *([f"<!-- written by {escape(maker)} -->"] if maker else []),
        f"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{_n(width)}\" "
        f"height=\"{_n(height)}\" viewBox=\"{_n(min_x)} {_n(min_y)} {_n(width)} {_n(height)}\" "
        f"font-family={quoteattr(font)} data-game={quoteattr(state.game_id)} "
        f"data-round=\"{state.round}\" data-phase={quoteattr(state.phase)}>",
        _el("title", [], tr("{title} — game {game}, {what}", title=_ruleset_title(ruleset),
                            game=state.game_id, what=what)),
        _defs(),
        _el("rect", [("x", min_x), ("y", min_y), ("width", width), ("height", height),
                     ("fill", "#ffffff")]),
        "<g id=\"borders\">",
    ]
    for a, b in borders(ruleset):
        x1, y1, x2, y2 = border_segment(ruleset, a, b)
        sea = ruleset.areas[a].is_sea or ruleset.areas[b].is_sea
        out.append(_el("line", [("id", f"border-{a}--{b}"), ("data-areas", f"{a} {b}"),
                                ("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2),
                                ("stroke", SEA_STROKE if sea else LAND_STROKE),
                                ("stroke-width", 2),
                                ("stroke-dasharray", "5 3" if sea else None)]))
    out.append("</g>")
    out.append("<g id=\"areas\">")
    for area_id in ruleset.area_ids:
        out.append(_area(state, ruleset, area_id, house, orders))
    out.append("</g>")
    if play is not None:
        out.append(_round_overlay(play, ruleset))
    out.append(panel)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the round as played (``agot map --game DIR --round N``) ---------------------------------

Outcome = tuple[str, Any, str]
"""An attack's outcome: ("wins", winner, score), ("taken", None, "") or ("holds", strength, "")."""


@dataclass
class RoundPlay:
    """What a round's event log says happened on the board, in event order.

    Only public events are read (the log is the public record): the orders as
    revealed (R4.5) and changed by the Messenger Raven (R4.6), marches (R5.3),
    attacks on neutral forces (R5.7), raids (R5.2), battles (R6), retreats
    (R6.8, R6.9) and units destroyed (R6.7, R5.8, R8.4, R9.3).
    """

    round: int
    orders: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Area → (house, order) as revealed, after the Raven's swap."""
    moves: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    """(house, origin, destination, units) of each march that moved units without a battle."""
    attacks: list[tuple[str, str, str, Outcome]] = field(default_factory=list)
    """(house, origin, area, outcome) of each battle and attack on a neutral force; the outcome
    as data, said by :func:`outcome_text`: ("wins", winner, score), ("taken", None, "") or
    ("holds", neutral strength, "")."""
    raids: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    """(house, area, target, order removed) of each raid that removed an order."""
    retreats: list[tuple[str, str, str]] = field(default_factory=list)
    """(house, embattled area, destination) of each retreat with survivors."""
    destroyed: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    """Area → [(house, units)] destroyed there this round (battles, supply, wildlings)."""


def round_play(events: Sequence[Mapping[str, Any]], round_number: int) -> RoundPlay:
    """Read a round's events (``log.jsonl``) into what the round picture draws."""
    play = RoundPlay(round_number)

    def lost(house: str, area: str, units: Sequence[str]) -> None:
        if not units:
            return
        entries = play.destroyed.setdefault(area, [])
        for i, (h, before) in enumerate(entries):
            if h == house:
                entries[i] = (h, sort_units([*before, *units]))
                return
        entries.append((house, sort_units(list(units))))

    for e in events:
        kind = e.get("type")
        if kind == "orders_revealed":
            for h, placed in e["orders"].items():
                for area, order in placed.items():
                    play.orders[area] = (h, order)
        elif kind == "raven_swap" and e["area"] in play.orders:
            play.orders[e["area"]] = (play.orders[e["area"]][0], e["new"])
        elif kind == "move":
            play.moves.append((e["house"], e["origin"], e["to"], list(e["units"])))
        elif kind == "battle":
            totals = e.get("totals") or {}
            score = "–".join(str(totals[h]) for h in (e["winner"], e["loser"]) if h in totals)
            play.attacks.append((e["attacker"], e["origin"], e["area"],
                                 ("wins", e["winner"], score)))
        elif kind == "neutral_attack":
            play.attacks.append((e["house"], e["origin"], e["area"],
                                 ("taken", None, "") if e["won"] else ("holds", e["neutral"], "")))
        elif kind == "raid" and e.get("target"):
            play.raids.append((e["house"], e["area"], e["target"], e.get("removed")))
        elif kind == "retreat":
            if e.get("to"):
                play.retreats.append((e["house"], e["area"], e["to"]))
            lost(e["house"], e["area"], e.get("destroyed") or [])
        elif kind == "casualties":
            lost(e["house"], e["area"], e["units"])
        elif kind == "unit_destroyed":
            lost(e["house"], e["area"], e.get("units") or [e["unit"]])
    return play


def render_round_svg(state: GameState, events: Sequence[Mapping[str, Any]],
                     ruleset: Ruleset, maker: str | None = None, *, lang: str = "en") -> str:
    """The round as played, over the board of the state it started from (``round-NN/state.yaml``).

    The orders are drawn as revealed (R4.5, after the Raven, R4.6); arrows show
    marches, attacks (with the battle's winner and strengths), raids (with the
    order removed) and retreats; a red cross lists the units destroyed in each
    area. Public information only: the event log is the public record. Units
    mustered during the round's Westeros phase appear on the next board only. ``maker`` and
    ``lang``: as for :func:`render_svg`.
    """
    play = round_play(events, state.round)
    shown = state.copy()
    for area_id in ruleset.area_ids:
        here = shown.areas.get(area_id)
        if here is not None and here.order is not None:
            here.order = None
    for area_id, (house, order) in play.orders.items():
        if area_id not in ruleset.areas or ruleset.order_tokens.get(order) is None:
            continue
        here = shown.areas.get(area_id) or AreaState()
        if here.house in (None, house):
            # Stored as is, not tidied: an order on an area whose units were mustered during
            # the Westeros phase is still drawn, with its house.
            shown.areas[area_id] = replace(here, house=house, order=order)
    return _picture(shown, ruleset, None, True, play, maker, lang=lang)


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _box_hit(x1: float, y1: float, x2: float, y2: float, box: Box) -> tuple[float, float]:
    """Where the segment from (x1, y1) outside ``box`` to (x2, y2) inside enters it: 0..1 along it."""
    t_in, t_out, _ = _clip((x1, y1, x2, y2), box)
    return t_in, t_out


def _arrow_ends(ruleset: Ruleset, origin: str, dest: str, shift: float = 0.0
                ) -> tuple[float, float, float, float]:
    """An arrow from inside ``origin`` to just inside ``dest``, moved ``shift`` to its side."""
    box_o, box_d = area_box(ruleset.areas[origin]), area_box(ruleset.areas[dest])
    (ox, oy), (dx, dy) = _centre(box_o), _centre(box_d)
    length = max(((dx - ox) ** 2 + (dy - oy) ** 2) ** 0.5, 1.0)
    ux, uy = (dx - ox) / length, (dy - oy) / length
    ox, oy, dx, dy = ox - uy * shift, oy + ux * shift, dx - uy * shift, dy + ux * shift
    _, leave = _box_hit(ox, oy, dx, dy, box_o)
    enter, _ = _box_hit(ox, oy, dx, dy, box_d)
    sx, sy = ox + (dx - ox) * leave / 2, oy + (dy - oy) * leave / 2
    reach = min(18.0, (1 - enter) * length / 2)
    ex, ey = ox + (dx - ox) * enter + ux * reach, oy + (dy - oy) * enter + uy * reach
    return sx, sy, ex, ey


def _arrow(ends: tuple[float, float, float, float], house: str, *, dash: str | None = None,
           width: float = 4.0, attrs: Sequence[tuple[str, object]] = ()) -> str:
    """A line in the house colour on a black casing, with a head at its end."""
    x1, y1, x2, y2 = ends
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = 7 + width * 1.6
    bx, by = x2 - ux * head, y2 - uy * head
    wing = head * 0.55
    fill = house_style(house)[0]
    line = f"M{_n(x1)} {_n(y1)}L{_n(bx)} {_n(by)}"
    tip = (f"M{_n(x2)} {_n(y2)}L{_n(bx - uy * wing)} {_n(by + ux * wing)}"
           f"L{_n(bx + uy * wing)} {_n(by - ux * wing)}Z")
    return (f"<g{_attrs(attrs)}>"
            + _el("path", [("d", line), ("stroke", "#000000"), ("stroke-width", width + 2.4),
                           ("stroke-linecap", "round"), ("fill", "none"), ("stroke-dasharray", dash)])
            + _el("path", [("d", line), ("stroke", fill), ("stroke-width", width),
                           ("stroke-linecap", "round"), ("fill", "none"), ("stroke-dasharray", dash)])
            + _el("path", [("d", tip), ("fill", fill), ("stroke", "#000000"), ("stroke-width", 1.2)])
            + "</g>")


def outcome_text(said: Outcome) -> str:
    """An attack's outcome (:attr:`RoundPlay.attacks`) in the current language: ``Stark wins
    3–2``, ``taken``, ``neutral 5 holds``."""
    what, who, score = said
    if what == "wins":
        winner = str(who).capitalize() if speaker() is None else _house_name(who)
        return tr("{winner} wins {score}", winner=winner, score=score).strip()
    if what == "taken":
        return tr("taken")
    return tr("neutral {strength} holds", strength=who)


LABEL_WIDE = 11 / 6.4
"""A wide character's width in a label (11px bold: 1em) in narrow characters (6.4px)."""


def _label(x: float, y: float, text: str, colour: str, anchor: str = "middle") -> str:
    """A short note in a white box with a coloured frame, centred on (x, y); the box is as wide
    as the text (East Asian width)."""
    w = 8 + 6.4 * _em_units(text, LABEL_WIDE)
    left = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (_el("rect", [("x", left), ("y", y - 9), ("width", w), ("height", 17), ("rx", 4),
                         ("fill", "#ffffff"), ("stroke", colour), ("stroke-width", 1.6)])
            + _text(left + w / 2, y + 4, text, 11, anchor="middle", weight="bold", fill=colour))


BATTLE_INK = "#a00000"
RAID_INK = "#5a2d82"


def _round_overlay(play: RoundPlay, ruleset: Ruleset) -> str:
    out = [f"<g id=\"round-play\" data-round=\"{play.round}\">"]
    pairs: Counter[tuple[str, str]] = Counter()

    def shift(a: str, b: str) -> float:
        """Side-step an arrow that shares its two areas with an earlier one."""
        key = (a, b) if a < b else (b, a)
        pairs[key] += 1
        return (pairs[key] - 1) * 9.0 * (1 if a < b else -1)

    known = ruleset.areas
    for house, origin, dest, units in play.moves:
        if origin in known and dest in known:
            out.append(_arrow(_arrow_ends(ruleset, origin, dest, shift(origin, dest)), house,
                              attrs=[("class", "move"), ("data-house", house),
                                     ("data-from", origin), ("data-to", dest),
                                     ("data-units", ",".join(units))]))
    for house, area, dest in play.retreats:
        if area in known and dest in known:
            out.append(_arrow(_arrow_ends(ruleset, area, dest, shift(area, dest)), house,
                              dash="6 4", width=2.5,
                              attrs=[("class", "retreat"), ("data-house", house),
                                     ("data-from", area), ("data-to", dest)]))
    for house, origin, area, _outcome in play.attacks:
        if origin in known and area in known:
            out.append(_arrow(_arrow_ends(ruleset, origin, area, shift(origin, area)), house,
                              attrs=[("class", "attack"), ("data-house", house),
                                     ("data-from", origin), ("data-to", area)]))
    for house, area, target, removed in play.raids:
        if area in known and target in known:
            ends = _arrow_ends(ruleset, area, target, shift(area, target))
            out.append(_arrow(ends, house, dash="2 4", width=2.5,
                              attrs=[("class", "raid"), ("data-house", house), ("data-from", area),
                                     ("data-to", target), ("data-removed", removed)]))
            mx, my = (ends[0] + ends[2]) / 2, (ends[1] + ends[3]) / 2
            note = (tr("raid ✕ {order}", order=order_label(ruleset, removed))
                    if removed in ruleset.order_tokens else tr("raid"))
            out.append(_label(mx, my, note, RAID_INK))
    for house, _origin, area, said in play.attacks:
        if area in known:
            box = area_box(known[area])
            out.append(f"<g class=\"battle\" data-area=\"{area}\" data-attacker=\"{house}\">"
                       + _label((box[0] + box[2]) / 2, box[1] + 4, "⚔ " + outcome_text(said),
                                BATTLE_INK)
                       + "</g>")
    for area in ruleset.area_ids:
        if area not in play.destroyed:
            continue
        box = area_box(known[area])
        text = tr("; ").join(f"{house_letter(h)} {_units_text(units)}" for h, units in play.destroyed[area])
        out.append(f"<g class=\"destroyed\" data-area=\"{area}\">"
                   + _label((box[0] + box[2]) / 2, box[3] - 4, "✕ " + text, BATTLE_INK) + "</g>")
    out.append("</g>")
    return "".join(out)
