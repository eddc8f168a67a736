"""The board as an SVG picture (``agot map``): a map of Westeros and the tracks beside it.

Every area is drawn as a region shaped like the board's geography (``shape`` in board.yaml,
:mod:`agot_adjudicator.render.geometry`): lands on parchment, seas in blue with waves, coasts
in a dark line, borders between lands in a thin one, a river where two lands touch without being
adjacent, and a dashed connector for the one adjacency no flat map can draw as a shared border.
A land a house controls (R13.1) is tinted in its colour and carries its badge. Each area shows
its castle (R3.5), supply barrels and power crowns (R3.4, R3.8), home shield (R5.6), units as
shapes per kind (R0.4; routed units apart, R6.10), power token (R5.5), neutral force (R0.6,
R12.2) and, when asked, its order (R4). A side panel shows the round, the wildling threat (R0.8),
the three influence tracks with their special tokens (R1.4, R4.2), the supply track (R9.2) and
each house's power, castles, hand size and discards. The map alone is the view ``#map`` of the
same file (``board.svg#map``), which the site shows beside the panel's facts written as a page.

:func:`render_round_svg` draws a round as played (:mod:`agot_adjudicator.render.play`): the
board the battles were fought on, the orders as revealed, marches (ship transport through the
seas it used), attacks, battles, raids, retreats and units destroyed, each battle labelled once
where no name is covered.

Every label, title, caption and legend line is written in the picture's language (``lang``:
``en``, ``zh-Hans``, ``zh-Hant``) through the message catalogs and the glossary. Pure and
deterministic: no I/O, no font fetched or embedded (English names the generic family only;
Chinese names a CJK family first, :data:`FONTS`), elements in the ruleset's fixed order, numbers
printed the same way everywhere. Elements carry ids and ``data-*`` attributes
(``id="area-winterfell"``, ``data-units="footman,knight"``) so that tests and scripts can read
the picture.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from agot_adjudicator.engine.board import castle_count, controller
from agot_adjudicator.model.ruleset import TRACK_TOKENS, TRACKS, UNIT_TYPES, Area, Ruleset
from agot_adjudicator.model.state import AreaState, GameState
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.geometry import (
    LAND_SIZE,
    MARGIN,
    Box,
    MapLayout,
    area_box,
    border_segment,
    borders,
    map_layout,
    segment_meets_box,
)
from agot_adjudicator.render.language import PHASE_TITLES, Names, sep, speaker, tr
from agot_adjudicator.render.language import house as house_name
from agot_adjudicator.render.play import (
    Outcome,
    RoundPlay,
    battle_board,
    outcome_text,
    overlay,
    round_play,
)
from agot_adjudicator.render.svg import (
    HALO,
    HOUSE_STYLES,
    HOUSE_TINTS,
    INK,
    OUTLINE,
    _el,
    _n,
    _text,
    _wide,
    _wrap,
    arrow,
    badge,
    barrel,
    castle_icon,
    crown,
    halo,
    house_letter,
    house_style,
    label_box,
    neutral_token,
    order_label,
    order_token,
    path,
    power_token,
    shield,
    text_width,
    unit_glyph,
    units_text,
    wrap_items,
)

__all__ = ["FONT", "FONTS", "HOUSE_STYLES", "Outcome", "RoundPlay", "area_box", "border_segment",
           "borders", "house_letter", "house_style", "layout_problems", "order_label",
           "outcome_text", "render_round_svg", "render_svg", "round_play"]

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


# --- names in the picture's language ----------------------------------------------------------

def _house_name(house: str | None) -> str:
    """A house as the board names it: ``Baratheon`` (its glossary name in Chinese)."""
    return house_name(house)


def _area_name(area: Area, area_id: str) -> str:
    """An area's name: the ruleset's in English, the glossary's in Chinese."""
    names = speaker()
    return names.area(area_id) if names is not None else area.name


def _phase(phase: str) -> str:
    """A phase as ``{phase} phase`` reads it: the id in English, the phase's title in Chinese."""
    if speaker() is None:
        return phase
    return tr(PHASE_TITLES[phase]) if phase in PHASE_TITLES else phase


def _ruleset_title(ruleset: Ruleset) -> str:
    if ruleset.title == DEFAULT_TITLE:
        return tr("A Game of Thrones: The Board Game, first edition (2003)")
    return ruleset.title


def _westeros_name(card: str) -> str:
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


def layout_problems(ruleset: Ruleset, gap: float = 6.0) -> list[str]:
    """Where a map of boxes would mislead: boxes closer than ``gap``, or a border line through a
    third box. A map of shapes: an area whose content box leaves its outline."""
    problems = []
    lay = map_layout(ruleset)
    ids = ruleset.area_ids
    if lay.shaped:
        for a in ids:
            box = lay.rooms[a]
            corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
            if not all(lay.contains(a, p) for p in corners):
                problems.append(f"the content box of {a} leaves its outline")
        return problems
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
            if c not in (a, b) and segment_meets_box(seg, area_box(ruleset.areas[c]), 4.0):
                problems.append(f"border {a}-{b} crosses {c}")
    return problems


# --- where an area's contents go ----------------------------------------------------------------

NAME_SIZE, NAME_MIN = 16.0, 11.0


@dataclass
class Slots:
    """Where an area's name, icons, units and tokens are drawn (all inside its content box)."""

    block: Box
    name_lines: list[tuple[float, float, str]]
    name_size: float
    vertical: bool
    name_box: Box
    icons_y: float
    units: tuple[float, float]
    routed: tuple[float, float]
    order: tuple[float, float]
    token: tuple[float, float]
    stuff_box: Box
    """Where the units and tokens are: labels keep off it when they can."""


def _name_lines(name: str, room: float) -> tuple[list[str], float]:
    """The name in one line at the largest size that fits ``room`` (16 to 11 px), else in two
    lines broken between words (or, in Chinese, at the middle)."""
    for size in (NAME_SIZE, 15.0, 14.0, 13.0, 12.0, NAME_MIN):
        if text_width(name, size, True) <= room:
            return [name], size
    if " " in name:
        words = name.split(" ")
        cut = min(range(1, len(words)), key=lambda i: abs(
            text_width(" ".join(words[:i]), 10, True) - text_width(" ".join(words[i:]), 10, True)))
        lines = [" ".join(words[:cut]), " ".join(words[cut:])]
    else:
        half = (len(name) + 1) // 2
        lines = [name[:half], name[half:]]
    for size in (15.0, 14.0, 13.0, 12.0, NAME_MIN):
        if all(text_width(line, size, True) <= room for line in lines):
            return lines, size
    return lines, NAME_MIN


def area_slots(layout: MapLayout, ruleset: Ruleset, area_id: str, name: str) -> Slots:
    """The places of an area's contents inside its content box (board.yaml ``xy``/``size``)."""
    area = ruleset.areas[area_id]
    left, top, right, bottom = layout.rooms[area_id]
    width, height = right - left, bottom - top
    cx = (left + right) / 2
    tall = area.is_sea and width < 130 and height > 2.4 * width
    if tall:  # a long strip of sea: the name runs along it, the units below it
        size = min(NAME_SIZE + 2, max(NAME_MIN, width * 0.22))
        length = (len(name) * size * 1.05 if speaker() is not None
                  else text_width(name, size, True))
        ny = top + 8
        name_box = (cx - size * 0.7, ny, cx + size * 0.7, ny + length + size * 0.4)
        below = ny + length + 24
        block = (left, top, right, bottom)
        return Slots(block, [(cx, ny, name)], size, True, name_box, below,
                     (cx - 30, below + 4), (cx - 30, below + 28), (cx, below + 54),
                     (cx, below + 84), (left, below - 12, right, below + 100))
    block_w = min(width, 176.0)
    block_h = min(height, 98.0 if area.is_land else 78.0)
    bx = cx - block_w / 2
    by = top + (height - block_h) / 2
    block = (bx, by, bx + block_w, by + block_h)
    lines, size = _name_lines(name, block_w - 8)
    ys = [by + size + 1 + i * (size + 2) for i in range(len(lines))]
    widest = max(text_width(line, size, True) for line in lines)
    name_box = (cx - widest / 2 - 2, by + 1, cx + widest / 2 + 2, ys[-1] + size * 0.3)
    base = ys[-1] + 4
    icons_y = base + 12
    row = icons_y + (26 if area.is_land else 8)
    if len(lines) > 1 and area.is_land:
        row = icons_y + 24
    units = (bx + 30, row)
    routed = (bx + 44, row + 22)
    order = (bx + block_w - 18, row)
    token = (bx + 14, row)
    stuff = (bx, icons_y - 10, bx + block_w, min(block[3], row + 30))
    return Slots(block, [(cx, y, line) for y, line in zip(ys, lines, strict=True)], size,
                 False, name_box, icons_y, units, routed, order, token, stuff)


# --- areas -----------------------------------------------------------------------------------

def _ground(state: GameState, ruleset: Ruleset, area_id: str) -> str:
    """The colour an area is filled with: the sea, a land's parchment, or the tint of the house
    that controls it (R13.1)."""
    area = ruleset.areas[area_id]
    if area.is_sea:
        return SEA_FILL
    ctrl = controller(state, ruleset, area_id)
    return HOUSE_TINTS.get(ctrl, LAND_FILL) if ctrl else LAND_FILL


def _fills(layout: MapLayout, state: GameState, ruleset: Ruleset) -> str:
    out = ["<g id=\"regions\">"]
    for area_id in ruleset.area_ids:
        area = ruleset.areas[area_id]
        d = "".join(path(ring) for ring in layout.rings[area_id])
        fill = _ground(state, ruleset, area_id)
        attrs: list[tuple[str, object]] = [("id", f"shape-{area_id}"), ("d", d),
                                           ("fill", fill), ("fill-rule", "evenodd")]
        if not layout.shaped:
            attrs += [("stroke", SEA_STROKE if area.is_sea else LAND_STROKE),
                      ("stroke-width", 1.5)]
        elif area.is_land:  # the borders between lands: each land's outline, thin
            attrs += [("stroke", LAND_STROKE), ("stroke-width", 1.2), ("stroke-linejoin", "round")]
        out.append(_el("path", attrs))
        if area.is_sea:
            out.append(_el("path", [("d", d), ("fill", "url(#waves)"), ("fill-rule", "evenodd")]))
    out.append("</g>")
    return "".join(out)


BORDER_STYLE = {
    "coast": (("stroke", COAST), ("stroke-width", 2.2)),
    "land": (("stroke", LAND_STROKE), ("stroke-width", 1.2)),
    "river": (("stroke", RIVER), ("stroke-width", 3.2), ("stroke-linecap", "round")),
    "sea": (("stroke", SEA_STROKE), ("stroke-width", 1.2), ("stroke-dasharray", "6 4")),
}


def _borders(layout: MapLayout, ruleset: Ruleset) -> str:
    out = ["<g id=\"borders\" fill=\"none\" stroke-linejoin=\"round\">"]
    for border in layout.borders:
        a, b = border.a, border.b
        if border.kind == "link":
            (x1, y1), (x2, y2) = border.points[0], border.points[-1]
            sea = ruleset.areas[a].is_sea or ruleset.areas[b].is_sea
            style: Sequence[tuple[str, object]] = (
                ("stroke", SEA_STROKE if sea else LAND_STROKE), ("stroke-width", 2),
                ("stroke-dasharray", "5 3" if sea else None))
            if layout.shaped:
                style = (("stroke", COAST), ("stroke-width", 2), ("stroke-dasharray", "3 3"))
            out.append(_el("line", [("id", f"border-{a}--{b}"), ("class", "link"),
                                    ("data-areas", f"{a} {b}"), ("x1", x1), ("y1", y1),
                                    ("x2", x2), ("y2", y2), *style]))
            if layout.shaped:
                for x, y in (border.points[0], border.points[-1]):
                    out.append(_el("circle", [("cx", x), ("cy", y), ("r", 3), ("fill", COAST)]))
            continue
        if border.kind == "land":
            continue  # drawn by the lands' outlines
        out.append(_el("path", [("class", border.kind), ("data-areas", f"{a} {b}"),
                                ("d", path(border.points, closed=False)),
                                *BORDER_STYLE[border.kind]]))
    out.append("</g>")
    return "".join(out)


def _unit_rows(x: float, y: float, house: str, units: Sequence[str], routed: Sequence[str],
               routed_at: tuple[float, float]) -> str:
    """Badge and each standing unit type with its count at (x, y); the routed ones at
    ``routed_at``."""
    parts = [badge(x - 12, y, house)]
    standing = Counter(units)
    for unit in routed:
        standing[unit] -= 1

    def glyphs(cx: float, cy: float, group: Counter[str], is_routed: bool) -> None:
        for unit in UNIT_TYPES:
            if group[unit] > 0:
                attrs = [("class", "unit"), ("data-unit", unit), ("data-count", group[unit]),
                         ("data-routed", "true" if is_routed else None)]
                parts.append(f"<g{_attrs_text(attrs)}>"
                             + unit_glyph(cx + 6, cy, unit, house, is_routed, 1.1)
                             + _text(cx + 15, cy + 4.5, str(group[unit]), 13, weight="bold",
                                     extra=HALO) + "</g>")
                cx += 29

    glyphs(x, y, standing, False)
    if routed:
        rx, ry = routed_at
        parts.append(_text(rx - 12, ry + 4, tr("r"), 10, weight="bold",
                           extra=[("font-style", "italic"), *HALO]))
        glyphs(rx, ry, Counter(routed), True)
    return "".join(parts)


def _attrs_text(attrs: Sequence[tuple[str, object]]) -> str:
    from agot_adjudicator.render.svg import _attrs

    return _attrs(attrs)


def _icons(area: Area, cx: float, y: float, ctrl: str | None) -> str:
    """Castle, barrels, crowns, the home shield and the controller's badge, in one centred row."""
    pieces: list[tuple[float, Callable[[float], str]]] = []
    if area.castle:
        kind = area.castle
        pieces.append((24.0 if kind == "stronghold" else 13.0,
                       lambda x: castle_icon(x, y - 7, kind)))
    for _ in range(area.supply if area.is_land else 0):
        pieces.append((9.0, lambda x: barrel(x, y)))
    for _ in range(area.power if area.is_land else 0):
        pieces.append((14.0, lambda x: crown(x, y + 1)))
    if area.home_of:
        home = area.home_of
        pieces.append((16.0, lambda x: shield(x, y - 9, home)))
    if ctrl is not None:
        owner = ctrl
        pieces.append((16.0, lambda x: (
            f"<g class=\"controller\" data-house=\"{owner}\">" + badge(x + 8, y, owner, 15)
            + "</g>")))
    gap = 4.0
    total = sum(w for w, _ in pieces) + gap * max(len(pieces) - 1, 0)
    x = cx - total / 2
    out = []
    for w, draw in pieces:
        out.append(draw(x))
        x += w + gap
    return "".join(out)


def _area(state: GameState, ruleset: Ruleset, layout: MapLayout, area_id: str,
          house: str | None, show_orders: bool, slots: Slots) -> str:
    """One area's group: tooltip, name, icons, units, tokens and (if asked) its order."""
    area = ruleset.areas[area_id]
    here: AreaState = state.area(area_id)
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
    parts = [f"<g{_attrs_text(attrs)}>",
             _el("title", [], _area_title(ruleset, area, here, ctrl, order_shown))]
    ground = _ground(state, ruleset, area_id)
    cx = (slots.block[0] + slots.block[2]) / 2
    if area.is_land:
        parts.append(_icons(area, cx, slots.icons_y, ctrl))
    if here.units and here.house is not None:
        parts.append(_unit_rows(slots.units[0], slots.units[1], here.house, here.units,
                                here.routed, slots.routed))
    tx, ty = slots.token
    if here.power_token is not None:
        parts.append(f"<g class=\"power-token\" data-house=\"{here.power_token}\">"
                     + power_token(tx, ty, here.power_token) + "</g>")
    if here.neutral_force is not None:
        nf = here.neutral_force
        parts.append(f"<g class=\"neutral-force\" data-strength=\"{nf.strength}\">")
        parts.append(neutral_token(tx + 4, ty, nf.strength))
        x = tx + 22
        if nf.house:  # a house not in play (R12.2): its units in grey, then its name
            counts = Counter(nf.units)
            for unit in UNIT_TYPES:
                if counts[unit]:
                    parts.append(unit_glyph(x + 4, ty, unit, "neutral"))
                    parts.append(_text(x + 12, ty + 4.5, str(counts[unit]), 12, weight="bold",
                                       extra=HALO))
                    x += 26
        parts.append(_text(x, ty + 4, _house_name(nf.house) if nf.house else tr("neutral"), 10,
                           extra=[("font-style", "italic"), *halo(ground)]))
        parts.append("</g>")
    if order_shown is not None and here.house is not None:
        label = None if order_shown == "hidden" else order_label(ruleset, order_shown)
        ox, oy = slots.order
        parts.append(f"<g class=\"order\" data-order=\"{order_shown}\">"
                     + order_token(ox, oy, label, here.house) + "</g>")
    parts.append("</g>")
    return "".join(parts)


def _name(state: GameState, ruleset: Ruleset, area_id: str, slots: Slots) -> str:
    """An area's name, drawn above a round's arrows (so that no arrow hides it), on a halo of
    the area's own ground."""
    area = ruleset.areas[area_id]
    ground = _ground(state, ruleset, area_id)
    ink = SEA_INK if area.is_sea else INK
    style = [("font-style", "italic")] if area.is_sea else []
    parts = [f"<g class=\"name\" data-area=\"{area_id}\">"]
    for x, y, line in slots.name_lines:
        if slots.vertical and speaker() is not None:  # Chinese: set upright, one above another
            step = slots.name_size * 1.05
            spans = "".join(f"<tspan x=\"{_n(x)}\" y=\"{_n(y + (i + 1) * step)}\">"
                            f"{escape(c)}</tspan>" for i, c in enumerate(line))
            parts.append(f"<text font-size=\"{_n(slots.name_size)}\" "
                         f"text-anchor=\"middle\" font-weight=\"bold\" fill=\"{ink}\""
                         f"{_attrs_text(halo(ground))}>{spans}</text>")
        elif slots.vertical:  # English: read from the bottom up
            length = slots.name_box[3] - slots.name_box[1]
            mid = y + length / 2
            parts.append(_text(x + slots.name_size * 0.35, mid, line, slots.name_size,
                               anchor="middle", weight="bold", fill=ink,
                               extra=[("transform", f"rotate(-90 {_n(x + slots.name_size * 0.35)}"
                                                    f" {_n(mid)})"), *style, *halo(ground)]))
        else:
            parts.append(_text(x, y, line, slots.name_size, anchor="middle", weight="bold",
                               fill=ink, extra=[*style, *halo(ground)]))
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
        text += tr("; {house}: {units}", house=_house_name(here.house),
                   units=units_text(here.units))
        if here.routed:
            text += tr(" ({units} routed)", units=units_text(here.routed))
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
          done: bool = False) -> str:
    fill = "#222222" if on else "#d9d2c2" if done else "#ffffff"
    return (_el("rect", [("x", x), ("y", y), ("width", w), ("height", h), ("rx", 3),
                         ("fill", fill), ("stroke", "#555555"), ("stroke-width", 1)])
            + _text(x + w / 2, y + h / 2 + 4, label, 11, anchor="middle",
                    weight="bold" if on else None, fill="#ffffff" if on else "#333333"))


def view_text(state: GameState, house: str | None, orders: bool, revealed: bool = False) -> str:
    """Who may see the picture: a house's view, the moderator's (orders face up before they
    are revealed, R4.5) or the public view (what every house may see; ``revealed``: a round as
    played, its orders revealed)."""
    if house is not None:
        return tr("View of {house} (what {house} may see)", house=_house_name(house))
    if orders and not revealed and state.phase == "planning" and any(
            a.order is not None for a in state.areas.values()):
        return tr("Moderator's view")
    return tr("Public view")


def _heading(state: GameState, play: RoundPlay | None) -> str:
    """What the picture shows, by round: ``Game demo · the board after round 4`` for a board at
    the start of a round (before its Westeros phase), ``round 5 · action phase`` mid-round."""
    if play is not None:
        return tr("Game {game} · round {round} as played", game=state.game_id, round=play.round)
    if state.phase == "ended":
        return tr("Game {game} · the board at the end of the game", game=state.game_id)
    if state.phase == "westeros" and state.round > 1:
        return tr("Game {game} · the board after round {round}", game=state.game_id,
                  round=state.round - 1)
    return tr("Game {game} · round {round} · {phase} phase", game=state.game_id,
              round=state.round, phase=_phase(state.phase))


def _panel(state: GameState, ruleset: Ruleset, x: float, top: float, house: str | None,
           orders: bool, play: RoundPlay | None = None,
           provisional: bool = False) -> tuple[str, float]:
    """The side panel at ``x``; returns its SVG and its bottom (``play``: a round picture's;
    ``provisional``: a stopped run's board, P4)."""
    out: list[str] = ["<g id=\"panel\">"]
    y = top + 14
    for line in _wrap(_ruleset_title(ruleset), 46):
        out.append(_text(x, y, line, 13, weight="bold"))
        y += 17
    y += 3
    out.append(_text(x, y, _heading(state, play), 12, extra=[("id", "heading")]))
    y += 18
    if play is not None:
        for line in _wrap(tr("The board the battles were fought on (after mustering and the "
                             "wildlings), the orders as revealed, what moved, fought and fell"),
                          60):
            out.append(_text(x, y, line, 11, extra=[("font-style", "italic")]))
            y += 14
        out[-1] = out[-1].replace("<text ", "<text id=\"round-view\" ", 1)
        y += 2
    out.append(_text(x, y, view_text(state, house, orders, play is not None), 12, weight="bold",
                     extra=[("id", "view"), ("data-house", house)]))
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
    current = play.round if play is not None else state.round
    after = play is None and state.phase == "westeros" and state.round > 1
    out.append(_text(x, y, tr("Round"), 12, weight="bold"))
    out.append(f"<g id=\"track-round\" data-round=\"{current}\">")
    for r in range(1, ruleset.rounds + 1):
        out.append(_cell(x + 92 + (r - 1) * 27, y - 14, 25, 20, str(r),
                         on=r == current and not after, done=r < current or (after and r == current)))
    out.append("</g>")
    y += 28
    out.append(_text(x, y, tr("Wildling threat"), 12, weight="bold"))
    out.append(f"<g id=\"track-wildlings\" data-threat=\"{state.wildling_threat}\">")
    for i, level in enumerate(range(0, ruleset.threat_max + 1, ruleset.threat_step)):
        out.append(_cell(x + 120 + i * 33, y - 14, 30, 20, str(level),
                         on=level == state.wildling_threat))
    out.append("</g>")
    y += 22
    if play is not None:
        round_lines, y = _round_facts(play, x, y + 6)
        out.append(round_lines)
        y += 4
        out.append(_text(x, y + 8, tr("Tracks and houses at the start of round {round}",
                                      round=play.round), 11, extra=[("font-style", "italic")]))
        y += 18
    y += 8
    names = speaker()
    for track in TRACKS:
        token = TRACK_TOKENS[track]
        holder = state.holder(track)
        used = {"valyrian_steel_blade": state.blade_used, "messenger_raven": state.raven_used}
        token_name = names.token(token) if names is not None else TOKEN_NAMES[token]
        note = (tr("{token}: {house}", token=token_name, house=_house_name(holder))
                + (tr(" (used this round)") if used.get(token) else ""))
        track_name = names.track(track) if names is not None else TRACK_NAMES[track]
        out.append(_text(x, y, track_name, 12, weight="bold"))
        out.append(_text(x + 100, y, note, 10, extra=[("font-style", "italic")]))
        order = state.tracks[track]
        out.append(f"<g id=\"track-{track}\" data-houses=\"{','.join(order)}\">")
        for pos, h in enumerate(order):
            cx = x + pos * 72
            fill, ink, _ = house_style(h)
            letter = house_letter(h)
            out.append(_el("rect", [("x", cx), ("y", y + 6), ("width", 68), ("height", 30),
                                    ("rx", 4), ("fill", fill), ("stroke", OUTLINE),
                                    ("stroke-width", 1), ("data-position", pos + 1),
                                    ("data-house", h)]))
            out.append(_text(cx + 5, y + 20, str(pos + 1), 9, fill=ink))
            starred = track == "kings_court" and pos < len(ruleset.kings_court_stars)
            stars = ruleset.kings_court_stars[pos] if starred else 0
            letter_x = cx + 27 if stars >= 3 and _wide(letter) else cx + 34
            out.append(_text(letter_x, y + 22, letter, 13, anchor="middle", weight="bold",
                             fill=ink))
            out.append(_text(cx + 34, y + 33, _house_name(h), 8, anchor="middle", fill=ink))
            if starred:
                out.append(_text(cx + 64, y + 18, "★" * stars, 8, anchor="end", fill=ink))
        out.append("</g>")
        y += 58
    out.append(_text(x, y, tr("Supply"), 12, weight="bold"))
    out.append(_text(x + 60, y, tr("(level: allowed army sizes, R9.2)"), 10,
                     extra=[("font-style", "italic")]))
    out.append("<g id=\"track-supply\">")
    levels = len(ruleset.supply_track)
    col = min(50.0, (PANEL_WIDTH - 10) / max(levels, 1))
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
        out.append(_text(lx + (col - 3) / 2, y + 20, str(level), 11, anchor="middle",
                         weight="bold"))
        out.append(_text(lx + (col - 3) / 2, y + 33, sizes, 8, anchor="middle"))
        for i, h in enumerate(by_level.get(level, [])):
            out.append(f"<g id=\"supply-{h}\" data-house=\"{h}\" "
                       f"data-level=\"{state.houses[h].supply}\">"
                       + badge(lx + (col - 3) / 2, y + 50 + 20 * i, h, 17) + "</g>")
    out.append("</g>")
    y += 56 + 20 * tallest
    out.append(_text(x, y, tr("Houses"), 12, weight="bold"))
    out.append(_text(x + 60, y, tr("power · castles · cards in hand"), 10,
                     extra=[("font-style", "italic")]))
    y += 8
    for h in state.order_of_play():
        hs = state.houses[h]
        castles = castle_count(state, ruleset, h)
        tokens = sum(1 for a in ruleset.area_ids if state.area(a).power_token == h)
        attrs = [("id", f"house-{h}"), ("data-power", hs.power), ("data-castles", castles),
                 ("data-hand", len(hs.hand)), ("data-discards", ",".join(hs.discards)),
                 ("data-power-tokens-on-board", tokens)]
        out.append(f"<g{_attrs_text(attrs)}>")
        out.append(badge(x + 9, y + 14, h, 18))
        out.append(_text(x + 24, y + 18, _house_name(h), 12, weight="bold"))
        out.append(_text(x + 114, y + 18, tr("power {count}", count=hs.power), 11))
        out.append(_text(x + 184, y + 18, tr("castles {count}", count=castles), 11))
        out.append(_text(x + 260, y + 18, tr("cards {count}", count=len(hs.hand)), 11))
        y += 20
        if hs.discards:
            cards = [names.card(c) if names is not None
                     else ruleset.house_cards[c].name if c in ruleset.house_cards else c
                     for c in hs.discards]
            head = tr("discards: {cards}", cards="")
            for line in wrap_items(head, cards, sep(), 60):
                out.append(_text(x + 24, y + 12, line, 9))
                y += 12
        if tokens:
            out.append(_text(x + 24, y + 12, tr("power tokens on the board: {count}",
                                                 count=tokens), 9))
            y += 12
        out.append("</g>")
        y += 4
    y += 16
    if play is None:
        facts = []
        if state.revealed:
            revealed = tr("; ").join(f"{d} {_westeros_name(state.revealed[d])}"
                                     for d in ("I", "II", "III") if d in state.revealed)
            facts.append(tr("Westeros cards: {cards}", cards=revealed))
        facts.append(tr("Restrictions this round: {cards}",
                        cards=sep().join(_westeros_name(r) for r in state.restrictions)
                        or tr("none")))
        out.append("<g id=\"westeros\">")
        for fact in facts:
            for line in _wrap(fact, 62):
                out.append(_text(x, y, line, 10))
                y += 13
        out.append("</g>")
        y += 12
    legend, y = _legend(ruleset, x, y, play is not None)
    out.append(legend)
    out.append("</g>")
    return "".join(out), y


def _round_facts(play: RoundPlay, x: float, y: float) -> tuple[str, float]:
    """The round's Westeros cards, restriction, bids and the wildlings' attack (R3, R7, R8)."""
    out = ["<g id=\"westeros\">"]
    lines: list[tuple[list[str], str | None]] = []
    if play.cards:  # lists broken between their items, never inside a name
        cards = [f"{deck} {_westeros_name(card)}" for deck, card, _ in play.cards]
        lines.append((wrap_items(tr("Westeros cards: {cards}", cards=""), cards, tr("; "), 62),
                      None))
    restricted = [_westeros_name(r) for r in play.restrictions] or [tr("none")]
    lines.append((wrap_items(tr("Restrictions this round: {cards}", cards=""), restricted,
                             sep(), 62), "restrictions"))
    for about, bids in play.bids:
        listed = [f"{_house_name(h)} {v}" for h, v in bids.items()]
        lines.append((wrap_items(tr("Bids ({about}): {bids}", about=_about(about), bids=""),
                                 listed, sep(), 62), None))
    if play.wildlings is not None:
        w = play.wildlings
        said = (tr("Wildlings: the Night's Watch {strength} against {threat}, the Watch holds",
                   strength=w["strength"], threat=w["threat"])
                if w["winner"] == "nights_watch" else
                tr("Wildlings: the Night's Watch {strength} against {threat}, the wildlings win",
                   strength=w["strength"], threat=w["threat"]))
        lines.append((_wrap(said, 62), None))
    for wrapped, ident in lines:
        for i, line in enumerate(wrapped):
            extra = [("id", ident)] if ident and i == 0 else []
            out.append(_text(x, y, line, 10, extra=extra))
            y += 13
    out.append("</g>")
    return "".join(out), y


def _about(about: str) -> str:
    """What a bidding was for: a track's name or ``wildlings``."""
    names = speaker()
    part = about.split("/")[-1]
    if part in TRACK_NAMES:
        return names.track(part) if names is not None else TRACK_NAMES[part]
    return tr("wildlings")


def _legend(ruleset: Ruleset, x: float, y: float, round_picture: bool = False
            ) -> tuple[str, float]:
    routed_mark = tr("r")
    out = ["<g id=\"legend\">", _text(x, y, tr("Legend"), 12, weight="bold")]
    sample = (order_label(ruleset, "march_plus1") if speaker() is not None
              and "march_plus1" in ruleset.order_tokens else "M+1★")
    y += 18
    rows: list[tuple[Callable[[float], str], str]] = [
        (lambda y: unit_glyph(x + 8, y, "footman", "stark") + unit_glyph(x + 26, y, "knight", "stark")
         + unit_glyph(x + 44, y, "ship", "stark"), tr("footman · knight · ship (count beside)")),
        (lambda y: _text(x + 2, y + 4, routed_mark, 10, weight="bold",
                         extra=[("font-style", "italic")])
         + unit_glyph(x + 16, y, "footman", "stark", True)
         + unit_glyph(x + 34, y, "knight", "stark", True), tr("routed units (R6.10)")),
        (lambda y: castle_icon(x + 2, y - 7, "stronghold") + castle_icon(x + 32, y - 7, "city"),
         tr("stronghold · city (R3.5)")),
        (lambda y: barrel(x + 4, y) + crown(x + 22, y + 1), tr("supply barrel · power crown")),
        (lambda y: shield(x + 4, y - 8, "lannister") + badge(x + 38, y, "lannister", 15),
         tr("home area (R5.6) · the house that controls a land, its ground tinted (R13.1)")),
        (lambda y: power_token(x + 12, y, "baratheon"), tr("power token (R5.5)")),
        (lambda y: neutral_token(x + 12, y, 5, 10), tr("neutral force and its strength (R5.7)")),
        (lambda y: order_token(x + 12, y, sample, "stark") + order_token(x + 42, y, None, "stark"),
         tr("order (March, Defense, Support, Raid, Consolidate; ★ special) · face down")),
        (lambda y: _el("path", [("d", f"M{_n(x)} {_n(y)}h24"), ("stroke", COAST),
                                ("stroke-width", 2.2)])
         + _el("path", [("d", f"M{_n(x + 30)} {_n(y)}h24"), ("stroke", RIVER),
                        ("stroke-width", 3.2)]),
         tr("coast · river: no march or retreat across (R5.11)")),
    ]
    if round_picture:
        rows += [
            (lambda y: arrow([(x, y), (x + 54, y)], "tyrell"),
             tr("march, or attack into a battle (R5.3, R6)")),
            (lambda y: arrow([(x, y), (x + 54, y)], "tyrell", retreat=True),
             tr("retreat (R6.8, R6.9)")),
            (lambda y: arrow([(x, y), (x + 54, y)], "tyrell", dash="2 4", width=2.5),
             tr("raid and the order it removed (R5.2)")),
            (lambda y: _legend_label(x + 27, y, "⚔ 3–2", BATTLE_INK),
             tr("battle: winner and strengths (R6.6)")),
            (lambda y: _legend_label(x + 27, y, f"✕ {house_letter('tyrell')} 1", BATTLE_INK),
             tr("units destroyed, by house letter")),
            (lambda y: _legend_label(x + 27, y, f"✕ {house_letter('tyrell')} 1", WILDLING_INK),
             tr("units lost to the wildlings or to supply in the Westeros phase (R8.4, R3.4)")),
        ]
    for glyphs, label in rows:
        out.append(glyphs(y))
        lines = _wrap(label, 50)
        for i, line in enumerate(lines):
            out.append(_text(x + 64, y + 4 + 12 * i - 6 * (len(lines) - 1), line, 10))
        y += 28 + 6 * max(len(lines) - 2, 0)
    for i, h in enumerate(HOUSE_STYLES):
        out.append(badge(x + 9 + i * 76, y, h, 16))
        out.append(_text(x + 19 + i * 76, y + 4, _house_name(h), 9))
    y += 20
    out.append("</g>")
    return "".join(out), y


def _legend_label(x: float, y: float, text: str, colour: str) -> str:
    w = 10 + text_width(text, 11, True)
    return label_box((x - w / 2, y - 9, x + w / 2, y + 9), text, colour)


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
    return _picture(state, ruleset, house, orders, maker=maker, provisional=provisional,
                    lang=lang)


def render_round_svg(state: GameState, events: Sequence[Any], ruleset: Ruleset,
                     maker: str | None = None, *, lang: str = "en") -> str:
    """The round as played, over the board it was fought on: ``state`` is the round's start
    (``round-NN/state.yaml``), ``events`` its log; the board drawn has the Westeros phase's
    musters and losses applied (:func:`~agot_adjudicator.render.play.battle_board`) and the
    orders as revealed (R4.5, after the Raven, R4.6). Arrows show marches (ship transport
    through the seas it used, R5.4), attacks, raids (with the order removed) and retreats; each
    battle has one label with its winner and strengths; crosses list the units destroyed, and
    the units lost to the wildlings or to supply are marked as such. Public information only.
    ``maker`` and ``lang``: as for :func:`render_svg`."""
    play = round_play(events, state.round)
    return _picture(battle_board(state, play, ruleset), ruleset, None, True, play, maker,
                    lang=lang)


def _picture(state: GameState, ruleset: Ruleset, house: str | None, orders: bool,
             play: RoundPlay | None = None, maker: str | None = None, provisional: bool = False,
             lang: str = "en") -> str:
    with Names(ruleset, lang).speaking():
        return _drawing(state, ruleset, house, orders, play, maker, provisional, FONTS[lang])


def _defs() -> str:
    return ("<defs>"
            "<pattern id=\"waves\" width=\"28\" height=\"14\" patternUnits=\"userSpaceOnUse\">"
            "<path d=\"M0 9 Q7 5 14 9 T28 9\" fill=\"none\" stroke=\"#9dbfe2\" "
            "stroke-width=\"1.1\"/></pattern></defs>")


def _drawing(state: GameState, ruleset: Ruleset, house: str | None, orders: bool,
             play: RoundPlay | None, maker: str | None, provisional: bool, font: str) -> str:
    layout = map_layout(ruleset)
    left, top, right, bottom = layout.bounds
    panel_x = right + 24
    panel, panel_bottom = _panel(state, ruleset, panel_x, top, house, orders, play, provisional)
    width = panel_x + PANEL_WIDTH - left
    height = max(bottom, panel_bottom + MARGIN) - top
    what = (tr("round {round} as played: orders as revealed, marches, battles, raids",
               round=play.round)
            if play is not None else tr("round {round}, {phase} phase", round=state.round,
                                        phase=_phase(state.phase))
            + (tr(", provisional (the board at a stop)") if provisional else ""))
    slots = {a: area_slots(layout, ruleset, a, _area_name(ruleset.areas[a], a))
             for a in ruleset.area_ids}
    out = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        *([f"<!-- written by {escape(maker)} -->"] if maker else []),
        f"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{_n(width)}\" "
        f"height=\"{_n(height)}\" viewBox=\"{_n(left)} {_n(top)} {_n(width)} {_n(height)}\" "
        f"font-family={quoteattr(font)} data-game={quoteattr(state.game_id)} "
        f"data-round=\"{state.round}\" data-phase={quoteattr(state.phase)}>",
        _el("title", [], tr("{title} — game {game}, {what}", title=_ruleset_title(ruleset),
                            game=state.game_id, what=what)),
        _el("view", [("id", "map"), ("viewBox", f"{_n(left)} {_n(top)} {_n(right - left)} "
                                                 f"{_n(bottom - top)}")]),
        _defs(),
        _el("rect", [("x", left), ("y", top), ("width", width), ("height", height),
                     ("fill", PAPER)]),
        _fills(layout, state, ruleset),
        _borders(layout, ruleset),
        "<g id=\"areas\">",
    ]
    for area_id in ruleset.area_ids:
        out.append(_area(state, ruleset, layout, area_id, house, orders, slots[area_id]))
    out.append("</g>")
    arrows, labels = "", ""
    if play is not None:
        arrows, labels = overlay(play, state, ruleset, layout, slots)
    out.append(arrows)
    out.append("<g id=\"names\">")
    for area_id in ruleset.area_ids:
        out.append(_name(state, ruleset, area_id, slots[area_id]))
    out.append("</g>")
    out.append(labels)
    out.append(panel)
    out.append("</svg>")
    return "\n".join(out) + "\n"


LAND_BOX = LAND_SIZE
"""The default size of an area's box (board.yaml without ``size``)."""
