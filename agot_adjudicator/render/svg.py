"""SVG pieces the pictures are drawn with: elements and numbers written the same on every machine,
text measured by East Asian width, the house colours and the drawn tokens (units, castles,
barrels, crowns, shields, power and order tokens, R0.2–R0.6).

Pure and deterministic, stdlib only. Used by :mod:`agot_adjudicator.render.picture` (the board)
and :mod:`agot_adjudicator.render.play` (the round as played).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from agot_adjudicator.model.ruleset import UNIT_TYPES, Ruleset
from agot_adjudicator.render.language import sep, speaker, tr

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""left, top, right, bottom."""

# --- numbers and elements --------------------------------------------------------------------


def _n(value: float) -> str:
    """A number as SVG text, the same on every platform: rounded to a tenth, without ``.0``.

    >>> _n(3.0), _n(2.25), _n(-0.5), _n(-0.04), _n(7)
    ('3', '2.2', '-0.5', '0', '7')
    """
    if type(value) is int:
        return str(value)
    text = f"{value:.1f}"
    if text.endswith(".0"):
        return "0" if text == "-0.0" else text[:-2]
    return text


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` escaped for XML character data (what ``xml.sax.saxutils.escape``
    does, without importing ``xml.sax``, which imports the network stack: issue 33).

    >>> escape("a < b & c > d")
    'a &lt; b &amp; c &gt; d'
    """
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, as ``xml.sax.saxutils.quoteattr`` writes it:
    escaped, line breaks and tabs as character references, in double quotes (single quotes
    when the value holds a double quote and no single one).

    >>> print(quoteattr('say "hi"'), quoteattr("it's \\"x\\""), quoteattr("a\\nb"))
    'say "hi"' "it's &quot;x&quot;" "a&#10;b"
    """
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"{}"'.format(text.replace('"', "&quot;"))


_NEEDS_QUOTING = re.compile("[&<>\"'\n\r\t]")


def _attrs(attrs: Sequence[tuple[str, object]]) -> str:
    """Attributes as SVG text: None left out, numbers by :func:`_n` (never quoted), text
    quoted only when it must be."""
    parts = []
    for key, value in attrs:
        if value is None:
            continue
        if type(value) is str:  # the common kinds first (a picture writes ~3,000)
            parts.append(f" {key}={_q(value)}")
        elif isinstance(value, int | float) and type(value) is not bool:
            parts.append(f' {key}="{_n(value)}"')
        else:
            parts.append(f" {key}={_q(str(value))}")
    return "".join(parts)


def _q(text: str) -> str:
    """``text`` as a quoted attribute value (through :func:`quoteattr` only when it must be)."""
    return quoteattr(text) if _NEEDS_QUOTING.search(text) else f'"{text}"'


def _el(tag: str, attrs: Sequence[tuple[str, object]], text: str | None = None) -> str:
    if text is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{escape(text)}</{tag}>"


INK = "#1a1a1a"
"""The colour of text on light ground."""


def _text(x: float, y: float, text: str, size: float = 12, *, anchor: str = "start",
          weight: str | None = None, fill: str = INK,
          extra: Sequence[tuple[str, object]] = ()) -> str:
    bold = "" if weight is None else f" font-weight={_q(weight)}"
    return (f"<text x=\"{_n(x)}\" y=\"{_n(y)}\" font-size=\"{_n(size)}\" "
            f"text-anchor={_q(anchor)}{bold} fill={_q(fill)}{_attrs(extra) if extra else ''}>"
            f"{escape(text)}</text>")


def halo(colour: str, width: float = 3.5) -> tuple[tuple[str, object], ...]:
    """A text's outline in the colour of the ground behind it, drawn under the letters (what
    the contrast test reads as the text's background)."""
    return (("stroke", colour), ("stroke-width", width), ("stroke-linejoin", "round"),
            ("paint-order", "stroke"))


HALO = halo("#ffffff", 3)
"""A white outline behind text drawn over a busy ground."""


def path(points: Sequence[tuple[float, float]], closed: bool = True) -> str:
    """An SVG path's ``d`` through ``points``: the first point, then each step from the last
    (relative, in tenths of a pixel, so that the steps add up to the points exactly).

    >>> path([(0, 0), (10, 0), (10, 5)]), path([(1.25, 2), (0.5, 3.1)], closed=False)
    ('M0 0l10 0 0 5Z', 'M1.2 2l-0.7 1.1')
    """
    tenths = [(round(x * 10), round(y * 10)) for x, y in points]
    if not tenths:
        return ""
    x0, y0 = tenths[0]
    steps = [f"{_tenths(bx - ax)} {_tenths(by - ay)}"
             for (ax, ay), (bx, by) in itertools.pairwise(tenths)]
    d = f"M{_tenths(x0)} {_tenths(y0)}" + ("l" + " ".join(steps) if steps else "")
    return d.replace(" -", "-") + ("Z" if closed else "")


def _tenths(count: int) -> str:
    """``count`` tenths as :func:`_n` writes ``count / 10``, without a float.

    >>> [_tenths(t) for t in (0, 30, 25, -5, -10, 1234)]
    ['0', '3', '2.5', '-0.5', '-1', '123.4']
    """
    if count % 10 == 0:  # (a whole number: the map's corners mostly are)
        return str(count // 10)
    whole, tenth = divmod(abs(count), 10)
    return f"-{whole}.{tenth}" if count < 0 else f"{whole}.{tenth}"


# --- text measure ----------------------------------------------------------------------------

def _wide(char: str) -> bool:
    """Whether a character is East Asian wide or full-width (drawn about 1em wide).

    >>> _wide("临"), _wide("，"), _wide("W"), _wide("·")
    (True, True, False, False)
    """
    return unicodedata.east_asian_width(char) in ("W", "F")


def _em_units(text: str, wide: float) -> float:
    """The width of ``text`` in units of a narrow character: ``wide`` units for each wide
    character, 1 for any other.

    >>> _em_units("Winterfell", 1.5), _em_units("临冬城", 1.5)
    (10, 4.5)
    """
    return sum(wide if _wide(c) else 1 for c in text)


def _columns(text: str) -> int:
    """Terminal-style columns: 2 for a wide character, 1 for any other."""
    return len(text) if text.isascii() else sum(2 if _wide(c) else 1 for c in text)


_NARROW = {" ": 0.32, "'": 0.28, ",": 0.32, ".": 0.32, ":": 0.34, ";": 0.34, "i": 0.3,
           "l": 0.3, "j": 0.32, "f": 0.4, "t": 0.42, "r": 0.45, "I": 0.34, "(": 0.4, ")": 0.4,
           "·": 0.34, "–": 0.55, "—": 1.0, "★": 0.9, "⚔": 1.0, "✕": 0.85,
           "m": 0.92, "w": 0.85, "M": 0.92, "W": 1.0}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` drawn at ``size`` px (a generous estimate for the sans-serif
    families browsers pick, and the DejaVu Sans the PNGs use): a wide character 1em, capitals
    about 0.72em, lower case about 0.58em, bold 8 % wider.

    >>> round(text_width("Winterfell", 10), 1), text_width("临冬城", 10)
    (49.1, 30.0)
    """
    em = 0.0
    for c in text:
        if not c.isascii() and _wide(c):  # (no ASCII character is wide)
            em += 1.0
        elif c in _NARROW:
            em += _NARROW[c]
        elif c.isupper():
            em += 0.72
        elif c.isdigit():
            em += 0.64
        else:
            em += 0.58
    return em * size * (1.08 if bold and not all(_wide(c) for c in text) else 1.0)


_NO_LINE_START = set("，。、；：！？）」』》〉…·,.;:!?)")
"""Punctuation that never starts a line of wrapped Chinese text."""
_PIECES = re.compile(r" +|[!-~]+|[^ ]")


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap (deterministic) to ``width`` columns. A text with wide (CJK) characters
    counts them 2 columns and may break between any two characters, never before closing
    punctuation.

    >>> _wrap("aa bb cc", 5)
    ['aa bb', 'cc']
    >>> _wrap("一二三四。五", 8)
    ['一二三四。', '五']
    """
    if text.isascii() or not any(_wide(c) for c in text):
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


def wrap_items(head: str, items: Sequence[str], separator: str, width: int) -> list[str]:
    """``head`` then ``items`` joined by ``separator``, wrapped to ``width`` columns between
    items only, never inside one (a card's name stays on one line; a name longer than a line
    gets its own).

    >>> wrap_items("discards: ", ["Eddard Stark", "Robb Stark", "Catelyn Stark"], ", ", 28)
    ['discards: Eddard Stark,', 'Robb Stark, Catelyn Stark']
    >>> wrap_items("弃牌：", ["艾德·史塔克", "席恩·葛雷乔伊"], "、", 16)
    ['弃牌：艾德·史塔克、', '席恩·葛雷乔伊']
    """
    lines = [head]
    for i, item in enumerate(items):
        piece = item + (separator if i < len(items) - 1 else "")
        if lines[-1] and lines[-1] != head and _columns(lines[-1] + piece.rstrip()) > width:
            lines[-1] = lines[-1].rstrip()
            lines.append(piece)
        else:
            lines[-1] += piece
    return [line.rstrip() for line in lines]


# --- house colours ---------------------------------------------------------------------------

HOUSE_STYLES: dict[str, tuple[str, str, str]] = {
    "stark": ("#ececec", "#111111", "S"),
    "baratheon": ("#ffd700", "#111111", "B"),
    "tyrell": ("#66b34a", "#111111", "T"),
    "lannister": ("#9e1b1b", "#ffffff", "L"),
    "greyjoy": ("#1c1c1c", "#ffffff", "G"),
}
"""Fill, ink and letter per house: the printed colours (Stark white/grey, Baratheon yellow,
Tyrell green, Lannister red, Greyjoy black), far apart in lightness (CIE L* about 94, 87, 66,
34, 10), so they stay apart in a grey print and for the common colour blindnesses (protanopia,
deuteranopia, tritanopia: every pair at least 25 ΔE apart, tests/test_map.py), and lettered.
Ink on fill meets WCAG AA (4.5:1)."""

HOUSE_TINTS: dict[str, str] = {
    "stark": "#e3e7ea",
    "baratheon": "#f6e7a6",
    "tyrell": "#d3e8c6",
    "lannister": "#f0cbc6",
    "greyjoy": "#cfcfcf",
}
"""The ground of a land a house controls (R13.1): a light tint of its colour, so the dark names
on it keep their contrast; the controller's badge beside the name says which house."""

NEUTRAL_STYLE = ("#a8a8a8", "#111111")


def house_style(house: str) -> tuple[str, str, str]:
    """Fill, ink and letter of a house (grey for neutral units and houses the table lacks)."""
    return HOUSE_STYLES.get(house, (*NEUTRAL_STYLE, house[:1].upper()))


def house_letter(house: str) -> str:
    """The letter on a house's badges, shields and tokens: ``S`` for Stark in English, the
    first character of its glossary name in Chinese (史)."""
    names = speaker()
    if names is not None and names.ruleset.words.has("house", house):
        return names.glossary("house", house)[:1]
    return house_style(house)[2]


OUTLINE = "#111111"
"""The outline of every drawn token: what makes a light token (Stark's) stand out on light
ground."""


# --- tokens ----------------------------------------------------------------------------------

def badge(x: float, y: float, house: str, size: float = 16) -> str:
    """A house badge: a square in the house colour with its letter, centred on (x, y)."""
    fill, ink, _ = house_style(house)
    half = size / 2
    return (f"<rect x=\"{_n(x - half)}\" y=\"{_n(y - half)}\" width=\"{_n(size)}\" "
            f"height=\"{_n(size)}\" rx=\"3\" fill={_q(fill)} stroke=\"{OUTLINE}\" "
            "stroke-width=\"1\"/>"
            + _text(x, y + size * 0.33, house_letter(house), size * 0.72, anchor="middle",
                    weight="bold", fill=ink))


def unit_glyph(x: float, y: float, unit: str, house: str, routed: bool = False,
               scale: float = 1.0) -> str:
    """Footman: a round pawn; knight: a diamond shield; ship: a hull with a sail. Routed: laid
    down and struck through (R6.10)."""
    style = f"fill={_q(house_style(house)[0])} stroke=\"{OUTLINE}\" stroke-width=\"1.2\"/>"
    s = scale
    if unit == "footman":
        glyph = f"<circle cx=\"{_n(x)}\" cy=\"{_n(y)}\" r=\"{_n(5.5 * s)}\" {style}"
    elif unit == "knight":
        glyph = (f"<path d=\"M{_n(x)} {_n(y - 7 * s)}L{_n(x + 6 * s)} {_n(y)}"
                 f"L{_n(x)} {_n(y + 7 * s)}L{_n(x - 6 * s)} {_n(y)}Z\" {style}")
    else:
        glyph = (f"<path d=\"M{_n(x - 7 * s)} {_n(y - 1 * s)}L{_n(x + 7 * s)} "
                 f"{_n(y - 1 * s)}L{_n(x + 4 * s)} {_n(y + 5 * s)}"
                 f"L{_n(x - 4 * s)} {_n(y + 5 * s)}ZM{_n(x)} {_n(y - 1 * s)}"
                 f"L{_n(x)} {_n(y - 8 * s)}L{_n(x + 5 * s)} {_n(y - 3 * s)}"
                 f"L{_n(x)} {_n(y - 3 * s)}\" {style}")
    if not routed:
        return glyph
    return (f"<g transform=\"rotate(90 {_n(x)} {_n(y)})\" opacity=\"0.75\">{glyph}</g>"
            + _el("path", [("d", f"M{_n(x - 7 * s)} {_n(y + 7 * s)}L{_n(x + 7 * s)} "
                                 f"{_n(y - 7 * s)}"), ("stroke", OUTLINE), ("stroke-width", 1.8)]))


def castle_icon(x: float, y: float, castle: str) -> str:
    """Stronghold: two towers and a wall; city: one tower. (x, y) is the top-left corner."""
    if castle == "stronghold":
        d = f"M{_n(x)} {_n(y + 14)}V{_n(y)}h4v3h2v-3h4v6h4v-6h4v3h2v-3h4V{_n(y + 14)}Z"
    else:
        d = f"M{_n(x)} {_n(y + 14)}V{_n(y + 2)}h3v3h2v-3h3v3h2v-3h3V{_n(y + 14)}Z"
    return _el("path", [("d", d), ("fill", "#6b6b6b"), ("stroke", OUTLINE), ("stroke-width", 1)])


CASTLE_WIDTH = {"stronghold": 24.0, "city": 13.0}


def barrel(x: float, y: float) -> str:
    """A supply barrel (R3.4); (x, y) is its left side, middle."""
    return (_el("rect", [("x", x), ("y", y - 6), ("width", 9), ("height", 12), ("rx", 3),
                         ("fill", "#a0682e"), ("stroke", "#3b2410"), ("stroke-width", 1)])
            + _el("path", [("d", f"M{_n(x)} {_n(y - 2)}h9M{_n(x)} {_n(y + 2)}h9"),
                           ("stroke", "#3b2410"), ("stroke-width", 1)]))


def crown(x: float, y: float) -> str:
    """A power crown (R3.8); (x, y) is its left side, middle."""
    d = (f"M{_n(x)} {_n(y + 5)}L{_n(x)} {_n(y - 4)}L{_n(x + 3.5)} {_n(y)}L{_n(x + 7)} {_n(y - 6)}"
         f"L{_n(x + 10.5)} {_n(y)}L{_n(x + 14)} {_n(y - 4)}L{_n(x + 14)} {_n(y + 5)}Z")
    return _el("path", [("d", d), ("fill", "#e3b925"), ("stroke", "#5a4500"), ("stroke-width", 1)])


def shield(x: float, y: float, house: str) -> str:
    """The home shield of ``house`` (R5.6); (x, y) is the top-left corner."""
    fill, ink, _ = house_style(house)
    d = f"M{_n(x)} {_n(y)}h16v8q0 7-8 10q-8-3-8-10Z"
    return (_el("path", [("d", d), ("fill", fill), ("stroke", OUTLINE), ("stroke-width", 1.2)])
            + _text(x + 8, y + 11, house_letter(house), 10, anchor="middle", weight="bold",
                    fill=ink))


def power_token(x: float, y: float, house: str) -> str:
    """A power token (R5.5): a double ring in the house colour with its letter."""
    fill, ink, _ = house_style(house)
    return (_el("circle", [("cx", x), ("cy", y), ("r", 9), ("fill", fill), ("stroke", OUTLINE),
                           ("stroke-width", 1.2)])
            + _el("circle", [("cx", x), ("cy", y), ("r", 6.5), ("fill", "none"), ("stroke", ink),
                             ("stroke-width", 0.8)])
            + _text(x, y + 3.5, house_letter(house), 9, anchor="middle", weight="bold",
                    fill=ink))


def octagon(x: float, y: float, r: float) -> str:
    """The points of a neutral force token's octagon (R0.6)."""
    k = r * 0.4142
    pts = [(x - k, y - r), (x + k, y - r), (x + r, y - k), (x + r, y + k), (x + k, y + r),
           (x - k, y + r), (x - r, y + k), (x - r, y - k)]
    return " ".join(f"{_n(px)},{_n(py)}" for px, py in pts)


def neutral_token(x: float, y: float, strength: int, r: float = 12) -> str:
    """A neutral force (R0.6): a grey octagon with its strength."""
    return (_el("polygon", [("points", octagon(x, y, r)), ("fill", "#5c5c5c"),
                            ("stroke", OUTLINE), ("stroke-width", 1.2)])
            + _text(x, y + r * 0.38, str(strength), r, anchor="middle", weight="bold",
                    fill="#ffffff"))


def order_token(x: float, y: float, label: str | None, house: str) -> str:
    """An order token: face up with its label, or face down (``label`` None) showing the house."""
    if label is None:
        fill, ink, _ = house_style(house)
        return (_el("circle", [("cx", x), ("cy", y), ("r", 14), ("fill", "#4a4a4a"),
                               ("stroke", OUTLINE), ("stroke-width", 1.2)])
                + _el("circle", [("cx", x), ("cy", y), ("r", 6), ("fill", fill),
                                 ("stroke", OUTLINE), ("stroke-width", 0.8)])
                + _text(x, y + 3.5, house_letter(house), 8, anchor="middle", weight="bold",
                        fill=ink))
    special = label.endswith("★")
    face = label.rstrip("★")
    out = (_el("circle", [("cx", x), ("cy", y), ("r", 14), ("fill", "#fffbe8"),
                          ("stroke", OUTLINE), ("stroke-width", 2.2 if special else 1.2)])
           + _text(x, y + (2 if special else 3.5), face, 10 if len(face) <= 2 else 9,
                   anchor="middle", weight="bold"))
    if special:
        out += _text(x, y + 11, "★", 8, anchor="middle")
    return out


# --- names a picture writes small -----------------------------------------------------------

ORDER_CODES = {"march": "M", "defense": "D", "support": "S", "raid": "R", "consolidate_power": "C"}
PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}


def units_text(units: Sequence[str]) -> str:
    """``1 footman, 2 knights`` (步兵×1、骑士×2 in Chinese)."""
    counts = Counter(units)
    names = speaker()

    def name(u: str) -> str:
        if names is not None:
            return names.glossary("unit", u)
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
    names = speaker()
    if names is not None and names.ruleset.words.has("order", order_id):
        return names.glossary("order", order_id)[:1]
    return ORDER_CODES.get(ruleset.order_tokens[order_id].kind, "?")



# --- arrows and labels -----------------------------------------------------------------------

def _spline(points: Sequence[Point]) -> str:
    """A smooth path through ``points`` (Catmull–Rom as cubic Béziers)."""
    if len(points) == 2:
        (x1, y1), (x2, y2) = points
        return f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}"
    d = f"M{_n(points[0][0])} {_n(points[0][1])}"
    for i in range(len(points) - 1):
        p0 = points[i - 1] if i > 0 else points[i]
        p1, p2 = points[i], points[i + 1]
        p3 = points[i + 2] if i + 2 < len(points) else p2
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d += (f"C{_n(c1[0])} {_n(c1[1])} {_n(c2[0])} {_n(c2[1])} "
              f"{_n(p2[0])} {_n(p2[1])}")
    return d


def arrow(points: Sequence[Point], house: str, *, dash: str | None = None, width: float = 4.0,
          retreat: bool = False, attrs: Sequence[tuple[str, object]] = ()) -> str:
    """A line in the house colour on a dark casing through ``points``, with a head at its end:
    filled for a march or an attack, open (a chevron) and dashed for a retreat (R6.8, R6.9)."""
    if retreat:
        dash, width = "7 4", 3.0
    (xa, ya), (x2, y2) = points[-2], points[-1]
    length = max(((x2 - xa) ** 2 + (y2 - ya) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - xa) / length, (y2 - ya) / length
    head = 7 + width * 1.6
    bx, by = x2 - ux * head, y2 - uy * head
    wing = head * 0.55
    fill = house_style(house)[0]
    line = _spline([*points[:-1], (bx, by)] if not retreat else points)
    tip = (f"M{_n(x2)} {_n(y2)}L{_n(bx - uy * wing)} {_n(by + ux * wing)}"
           f"L{_n(bx + uy * wing)} {_n(by - ux * wing)}Z")
    parts = [f"<g{_attrs(attrs)}>",
             _el("path", [("d", line), ("stroke", OUTLINE), ("stroke-width", width + 2.4),
                          ("stroke-linecap", "round"), ("fill", "none"),
                          ("stroke-dasharray", dash)]),
             _el("path", [("d", line), ("stroke", fill), ("stroke-width", width),
                          ("stroke-linecap", "round"), ("fill", "none"),
                          ("stroke-dasharray", dash)])]
    if retreat:
        chevron = (f"M{_n(bx - uy * wing)} {_n(by + ux * wing)}L{_n(x2)} {_n(y2)}"
                   f"L{_n(bx + uy * wing)} {_n(by - ux * wing)}")
        parts += [_el("path", [("d", chevron), ("stroke", OUTLINE), ("stroke-width", 5.4),
                               ("fill", "none"), ("stroke-linecap", "round"),
                               ("stroke-linejoin", "round")]),
                  _el("path", [("d", chevron), ("stroke", fill), ("stroke-width", 3),
                               ("fill", "none"), ("stroke-linecap", "round"),
                               ("stroke-linejoin", "round")])]
    else:
        parts.append(_el("path", [("d", tip), ("fill", fill), ("stroke", OUTLINE),
                                  ("stroke-width", 1.2)]))
    parts.append("</g>")
    return "".join(parts)


LABEL_SIZE, LABEL_HEIGHT = 11.0, 18.0


def label_box(box: Box, text: str, colour: str) -> str:
    """A short note in a white box with a coloured frame."""
    left, top, right, bottom = box
    return (_el("rect", [("x", left), ("y", top), ("width", right - left),
                         ("height", bottom - top), ("rx", 4), ("fill", "#ffffff"),
                         ("stroke", colour), ("stroke-width", 1.6)])
            + _text((left + right) / 2, (top + bottom) / 2 + 4, text, LABEL_SIZE,
                    anchor="middle", weight="bold", fill=colour))


def label_width(text: str) -> float:
    return 12 + text_width(text, LABEL_SIZE, True)


