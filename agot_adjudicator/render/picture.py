"""The board as an SVG picture (``agot map``): a map of Westeros and the tracks beside it.

Every area is drawn as a region shaped like the board's geography (``shape`` in board.yaml,
:mod:`agot_adjudicator.render.geometry`): lands on parchment, seas in blue with waves, coasts
in a dark line, borders between lands in a thin one, a river border (R5.11) in blue, and a dashed
connector for the one adjacency no flat map can draw as a shared border.
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

from agot_adjudicator.engine.board import controller
from agot_adjudicator.model.ruleset import UNIT_TYPES, Area, Ruleset
from agot_adjudicator.model.state import AreaState, GameState
from agot_adjudicator.render.board_style import (
    CASTLE_WORDS,
    COAST,
    FONT,
    FONTS,
    KIND_WORDS,
    LAND_FILL,
    LAND_STROKE,
    PANEL_WIDTH,
    PAPER,
    RIVER,
    SEA_FILL,
    SEA_INK,
    SEA_STROKE,
    area_label,
    house_label,
    order_name,
    phase_label,
    ruleset_title,
)
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
from agot_adjudicator.render.language import Names, sep, speaker, tr
from agot_adjudicator.render.panel import legend, side_panel
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
    _attrs,
    _el,
    _n,
    _text,
    badge,
    barrel,
    castle_icon,
    crown,
    escape,
    halo,
    house_letter,
    house_style,
    neutral_token,
    order_label,
    order_token,
    path,
    power_token,
    quoteattr,
    shield,
    text_width,
    unit_glyph,
    units_text,
)

__all__ = ["FONT", "FONTS", "HOUSE_STYLES", "Outcome", "RoundPlay", "area_box", "border_segment",
           "borders", "house_letter", "house_style", "layout_problems", "order_label",
           "outcome_text", "render_round_svg", "render_svg", "round_play"]

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

def _ground(area: Area, ctrl: str | None) -> str:
    """The colour an area is filled with: the sea, a land's parchment, or the tint of the house
    that controls it (``ctrl``, R13.1)."""
    if area.is_sea:
        return SEA_FILL
    return HOUSE_TINTS.get(ctrl, LAND_FILL) if ctrl else LAND_FILL


def _region(layout: MapLayout, area_id: str, area: Area, d: str) -> tuple[str, str]:
    """An area's region (and a sea's waves) as SVG before and after its fill, the one part a
    state changes (:func:`_fills`)."""
    head = "<path" + _attrs([("id", f"shape-{area_id}"), ("d", d)])
    tail: list[tuple[str, object]] = [("fill-rule", "evenodd")]
    if not layout.shaped:
        tail += [("stroke", SEA_STROKE if area.is_sea else LAND_STROKE), ("stroke-width", 1.5)]
    elif area.is_land:  # the borders between lands: each land's outline, thin
        tail += [("stroke", LAND_STROKE), ("stroke-width", 1.2), ("stroke-linejoin", "round")]
    rest = _attrs(tail) + "/>"
    if area.is_sea:
        rest += _el("path", [("d", d), ("fill", "url(#waves)"), ("fill-rule", "evenodd")])
    return head, rest


def _fills(board: StaticBoard, grounds: dict[str, str]) -> str:
    """Every area's region on its ground (``grounds``: area → fill)."""
    return ("<g id=\"regions\">"
            + "".join(head + _attrs((("fill", grounds[area_id]),)) + rest
                      for area_id, (head, rest) in board.regions.items())
            + "</g>")


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
                parts.append(f"<g{_attrs(attrs)}>"
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


def _icons(static: tuple[str, str, float], y: float, ctrl: str | None) -> str:
    """Castle, barrels, crowns, the home shield and the controller's badge, in one centred row
    (``static``: :func:`_static_icons`, drawn once)."""
    plain, shifted, badge_x = static
    if ctrl is None:
        return plain
    return (shifted + f"<g class=\"controller\" data-house=\"{ctrl}\">"
            + badge(badge_x + 8, y, ctrl, 15) + "</g>")


def _static_icons(area: Area, cx: float, y: float) -> tuple[str, str, float]:
    """An area's castle, barrels, crowns and home shield centred alone, and centred with a
    controller's badge after them (the row's parts and the badge's left edge)."""
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
    gap = 4.0
    drawn = []
    for count in (len(pieces), len(pieces) + 1):  # alone, then with the badge (16 wide)
        total = sum(w for w, _ in pieces) + (16.0 if count > len(pieces) else 0.0) \
            + gap * max(count - 1, 0)
        x = cx - total / 2
        out = []
        for w, draw in pieces:
            out.append(draw(x))
            x += w + gap
        drawn.append(("".join(out), x))
    return drawn[0][0], drawn[1][0], drawn[1][1]


def _order_shown(state: GameState, here: AreaState, house: str | None, show_orders: bool
                 ) -> str | None:
    """The order drawn in an area for ``house`` (None: the moderator): its id, ``hidden``
    (face down) or None."""
    if show_orders and here.order is not None and here.house is not None:
        return here.order if can_see_order(state, house, here.house) else "hidden"
    return None


def _area(board: StaticBoard, area_id: str, here: AreaState, ctrl: str | None, ground: str,
          order_shown: str | None) -> str:
    """One area's group: tooltip, name, icons, units, tokens and the order shown
    (``ctrl``: the house that controls it; ``ground``: its fill)."""
    ruleset, slots = board.ruleset, board.slots[area_id]
    area = ruleset.areas[area_id]
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
    parts = [f"<g{_attrs(attrs)}>",
             _el("title", [], _area_title(ruleset, area, here, ctrl, order_shown,
                                          board.facts[area_id]))]
    if area.is_land:
        parts.append(_icons(board.icons[area_id], slots.icons_y, ctrl))
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
        parts.append(_text(x, ty + 4, house_label(nf.house) if nf.house else tr("neutral"), 10,
                           extra=[("font-style", "italic"), *halo(ground)]))
        parts.append("</g>")
    if order_shown is not None and here.house is not None:
        label = None if order_shown == "hidden" else order_label(ruleset, order_shown)
        ox, oy = slots.order
        parts.append(f"<g class=\"order\" data-order=\"{order_shown}\">"
                     + order_token(ox, oy, label, here.house) + "</g>")
    parts.append("</g>")
    return "".join(parts)


def _name(ruleset: Ruleset, area_id: str, slots: Slots, ground: str) -> str:
    """An area's name, drawn above a round's arrows (so that no arrow hides it), on a halo of
    the area's own ground."""
    area = ruleset.areas[area_id]
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
                         f"{_attrs(halo(ground))}>{spans}</text>")
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


def _static_facts(area: Area) -> list[str]:
    """What an area's tooltip says of it on every board: kind, castle, supply, power, home."""
    facts = [tr(KIND_WORDS[area.kind]) if area.kind in KIND_WORDS else area.kind,
             tr(CASTLE_WORDS[area.castle]) if area.castle in CASTLE_WORDS else area.castle or "",
             tr("{count} supply", count=area.supply) if area.supply else "",
             tr("{count} power", count=area.power) if area.power else "",
             tr("home of {house}", house=house_label(area.home_of)) if area.home_of else ""]
    return [f for f in facts if f]


def _area_title(ruleset: Ruleset, area: Area, here: AreaState, ctrl: str | None,
                order_shown: str | None, facts: list[str]) -> str:
    """An area's tooltip: its :func:`_static_facts` (``facts``), its controller and what is
    in it."""
    if ctrl:
        facts = [*facts, tr("controlled by {house}", house=house_label(ctrl))]
    text = tr("{name} ({facts})", name=area_label(area, area.id), facts=sep().join(facts))
    if here.units and here.house:
        text += tr("; {house}: {units}", house=house_label(here.house),
                   units=units_text(here.units))
        if here.routed:
            text += tr(" ({units} routed)", units=units_text(here.routed))
    if here.power_token:
        text += tr("; {house} power token", house=house_label(here.power_token))
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
        board = BOARDS.board(ruleset, lang)
        return _drawing(board, state, house, orders, play, maker, provisional, FONTS[lang])


class StaticBoard:
    """What every picture of one ruleset in one language draws alike, made once (issue 33):
    each area's region, the borders, where each area's contents go, its icons and the static
    part of its tooltip; its name on each ground, its group for each thing it holds and the
    legend where a panel puts it, made the first time a picture needs them. Made while the
    ruleset's names are spoken (:class:`~agot_adjudicator.render.language.Names`)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.layout = layout = map_layout(ruleset)
        self.slots = {a: area_slots(layout, ruleset, a, area_label(ruleset.areas[a], a))
                      for a in ruleset.area_ids}
        self.regions = {a: _region(layout, a, ruleset.areas[a],
                                   "".join(path(ring) for ring in layout.rings[a]))
                        for a in ruleset.area_ids}
        self.borders = _borders(layout, ruleset)
        self.icons = {}
        for a in ruleset.area_ids:
            block = self.slots[a].block
            self.icons[a] = _static_icons(ruleset.areas[a], (block[0] + block[2]) / 2,
                                          self.slots[a].icons_y)
        self.facts = {a: _static_facts(ruleset.areas[a]) for a in ruleset.area_ids}
        self._names: dict[tuple[str, str], str] = {}
        self._legends: dict[tuple[float, float, bool], tuple[str, float]] = {}
        self._areas: dict[tuple[str, str | None, str, str | None, str], str] = {}

    AREAS_KEPT = 4096
    """At most this many area groups are kept (then the board starts again)."""

    def area(self, area_id: str, here: AreaState, ctrl: str | None, ground: str,
             order_shown: str | None) -> str:
        """An area's group (:func:`_area`), drawn once for each thing it is drawn with: what
        stands in it (every field of ``here``, by its repr), its controller, ground and order
        shown."""
        key = (area_id, ctrl, ground, order_shown, repr(here))
        drawn = self._areas.get(key)
        if drawn is None:
            if len(self._areas) >= self.AREAS_KEPT:
                self._areas.clear()
            drawn = self._areas[key] = _area(self, area_id, here, ctrl, ground, order_shown)
        return drawn

    def name(self, area_id: str, ground: str) -> str:
        """An area's name on ``ground`` (:func:`_name`)."""
        key = (area_id, ground)
        if key not in self._names:
            self._names[key] = _name(self.ruleset, area_id, self.slots[area_id], ground)
        return self._names[key]

    def legend(self, x: float, y: float, round_picture: bool) -> tuple[str, float]:
        """The legend at (x, y) and its bottom (:func:`legend`)."""
        key = (x, y, round_picture)
        if key not in self._legends:
            self._legends[key] = legend(self.ruleset, x, y, round_picture)
        return self._legends[key]


class StaticBoards:
    """The static boards of a process, one per ruleset and language (each kept with the
    ruleset it was made for, so a ruleset made later under the same name gets its own)."""

    KEEP = 16
    """At most this many boards are kept (a process draws with one or two rulesets; tests with
    many more)."""

    def __init__(self) -> None:
        self._boards: dict[tuple[int, str], StaticBoard] = {}

    def board(self, ruleset: Ruleset, lang: str) -> StaticBoard:
        """The static board of ``ruleset`` in ``lang`` (made now if it is the first)."""
        key = (id(ruleset), lang)  # a kept board holds its ruleset: the id is not reused
        made = self._boards.get(key)
        if made is None:
            if len(self._boards) >= self.KEEP:  # the one made longest ago goes
                del self._boards[next(iter(self._boards))]
            made = self._boards[key] = StaticBoard(ruleset)
        return made


BOARDS = StaticBoards()
"""The one owner of the static boards (:class:`StaticBoards`)."""


def _defs() -> str:
    return ("<defs>"
            "<pattern id=\"waves\" width=\"28\" height=\"14\" patternUnits=\"userSpaceOnUse\">"
            "<path d=\"M0 9 Q7 5 14 9 T28 9\" fill=\"none\" stroke=\"#9dbfe2\" "
            "stroke-width=\"1.1\"/></pattern></defs>")


def _drawing(board: StaticBoard, state: GameState, house: str | None, orders: bool,
             play: RoundPlay | None, maker: str | None, provisional: bool, font: str) -> str:
    ruleset, layout, slots = board.ruleset, board.layout, board.slots
    ctrls = {a: controller(state, ruleset, a) for a in ruleset.area_ids}
    grounds = {a: _ground(ruleset.areas[a], ctrls[a]) for a in ruleset.area_ids}
    left, top, right, bottom = layout.bounds
    panel_x = right + 24
    panel, panel_bottom = side_panel(board.ruleset, board.legend, state, panel_x, top, house,
                                     orders, play, provisional)
    width = panel_x + PANEL_WIDTH - left
    height = max(bottom, panel_bottom + MARGIN) - top
    what = (tr("round {round} as played: orders as revealed, marches, battles, raids",
               round=play.round)
            if play is not None else tr("round {round}, {phase} phase", round=state.round,
                                        phase=phase_label(state.phase))
            + (tr(", provisional (the board at a stop)") if provisional else ""))
    out = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        *([f"<!-- written by {escape(maker)} -->"] if maker else []),
        f"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{_n(width)}\" "
        f"height=\"{_n(height)}\" viewBox=\"{_n(left)} {_n(top)} {_n(width)} {_n(height)}\" "
        f"font-family={quoteattr(font)} data-game={quoteattr(state.game_id)} "
        f"data-round=\"{state.round}\" data-phase={quoteattr(state.phase)}>",
        _el("title", [], tr("{title} — game {game}, {what}", title=ruleset_title(ruleset),
                            game=state.game_id, what=what)),
        _el("view", [("id", "map"), ("viewBox", f"{_n(left)} {_n(top)} {_n(right - left)} "
                                                 f"{_n(bottom - top)}")]),
        _defs(),
        _el("rect", [("x", left), ("y", top), ("width", width), ("height", height),
                     ("fill", PAPER)]),
        _fills(board, grounds),
        board.borders,
        "<g id=\"areas\">",
    ]
    for area_id in ruleset.area_ids:
        here = state.area(area_id)
        out.append(board.area(area_id, here, ctrls[area_id], grounds[area_id],
                              _order_shown(state, here, house, orders)))
    out.append("</g>")
    arrows, labels = "", ""
    if play is not None:
        arrows, labels = overlay(play, state, ruleset, layout, slots)
    out.append(arrows)
    out.append("<g id=\"names\">")
    for area_id in ruleset.area_ids:
        out.append(board.name(area_id, grounds[area_id]))
    out.append("</g>")
    out.append(labels)
    out.append(panel)
    out.append("</svg>")
    return "\n".join(out) + "\n"


LAND_BOX = LAND_SIZE
"""The default size of an area's box (board.yaml without ``size``)."""
