"""The game over time, for the site's index: line charts of castles, supply and power per house
per round (plain SVG, readable without script), the ranked final standings with the tie-break
in words (R11.1), and the game's step-through: one animated SVG that shows every round's
picture in turn (SMIL, no script), made from the round pictures themselves.

Pure and deterministic, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape

from agot_adjudicator.render.language import house, sep, tr
from agot_adjudicator.render.svg import OUTLINE, _n, house_letter, house_style, text_width

CHART_INK, CHART_GRID, CHART_PAPER = "#1a1a1a", "#b9b2a3", "#ffffff"
CASING = 6.0
"""The dark line under each house's line: it keeps a light house colour (Stark's) readable on
the white chart (WCAG 4.5:1 for the line's edge)."""


def line_chart(title: str, series: Mapping[str, Sequence[int]], rounds: Sequence[int],
               ident: str, *, top: int | None = None) -> str:
    """An inline SVG line chart: one line per house (in its colour, on a dark casing, its letter
    at the end), x the rounds, y the value; with a title and a text alternative."""
    width, height = 560.0, 250.0
    left, right, up, down = 40.0, 60.0, 30.0, 34.0
    highest = max([1, *(v for values in series.values() for v in values)]) if top is None else top
    step = 1 if highest <= 8 else 2 if highest <= 16 else 5
    highest = ((highest + step - 1) // step) * step
    plot_w, plot_h = width - left - right, height - up - down
    count = max(len(rounds), 2)

    def x(i: int) -> float:
        return left + plot_w * i / (count - 1)

    def y(v: float) -> float:
        return up + plot_h * (1 - v / highest)

    summary = tr("; ").join(f"{house(h)}: {sep().join(str(v) for v in values)}"
                            for h, values in series.items())
    out = [f'<svg class="chart" id="{ident}" viewBox="0 0 {_n(width)} {_n(height)}" role="img" '
           f'aria-labelledby="{ident}-title {ident}-desc" xmlns="http://www.w3.org/2000/svg">',
           f'<title id="{ident}-title">{escape(title)}</title>',
           f'<desc id="{ident}-desc">{escape(summary)}</desc>',
           f'<rect width="{_n(width)}" height="{_n(height)}" fill="{CHART_PAPER}"/>',
           f'<text x="{_n(left)}" y="18" font-size="15" font-weight="bold" fill="{CHART_INK}">'
           f"{escape(title)}</text>"]
    for v in range(0, highest + 1, step):
        out.append(f'<path d="M{_n(left)} {_n(y(v))}h{_n(plot_w)}" stroke="{CHART_GRID}" '
                   'stroke-width="1"/>')
        out.append(f'<text x="{_n(left - 6)}" y="{_n(y(v) + 4)}" font-size="12" '
                   f'text-anchor="end" fill="{CHART_INK}">{v}</text>')
    for i, r in enumerate(rounds):
        out.append(f'<text x="{_n(x(i))}" y="{_n(height - down + 18)}" font-size="12" '
                   f'text-anchor="middle" fill="{CHART_INK}">{r}</text>')
    out.append(f'<text x="{_n(left + plot_w / 2)}" y="{_n(height - 3)}" font-size="12" '
               f'text-anchor="middle" fill="{CHART_INK}">{escape(tr("round"))}</text>')
    ends: list[tuple[float, str]] = []
    for offset, (h, values) in enumerate(series.items()):
        fill, ink, _ = house_style(h)
        # lines that share a value are side-stepped a little so that each stays visible
        shift = (offset - (len(series) - 1) / 2) * 1.6
        pts = " ".join(f"{_n(x(i))},{_n(y(v) + shift)}" for i, v in enumerate(values))
        out.append(f'<g class="series" data-house="{h}" data-values="'
                   f'{",".join(str(v) for v in values)}">')
        out.append(f'<polyline points="{pts}" fill="none" stroke="{OUTLINE}" '
                   f'stroke-width="{_n(CASING)}" stroke-linejoin="round" stroke-linecap="round"/>')
        out.append(f'<polyline class="line" points="{pts}" fill="none" stroke="{fill}" '
                   'stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>')
        for i, v in enumerate(values):
            out.append(f'<circle cx="{_n(x(i))}" cy="{_n(y(v) + shift)}" r="3.5" fill="{fill}" '
                       f'stroke="{OUTLINE}" stroke-width="1.2"/>')
        out.append("</g>")
        if values:
            ends.append((y(values[-1]), h))
    placed: list[float] = []
    for end_y, h in sorted(ends):  # the letters at the right end, never on top of each other
        yy = max(end_y, (placed[-1] + 17) if placed else up)
        placed.append(yy)
        fill, ink, _ = house_style(h)
        lx = left + plot_w + 14
        out.append(f'<rect x="{_n(lx - 8)}" y="{_n(yy - 8)}" width="16" height="16" rx="3" '
                   f'fill="{fill}" stroke="{OUTLINE}" stroke-width="1"/>'
                   f'<text x="{_n(lx)}" y="{_n(yy + 4.5)}" font-size="12" font-weight="bold" '
                   f'text-anchor="middle" fill="{ink}">{escape(house_letter(h))}</text>'
                   f'<text x="{_n(lx + 12)}" y="{_n(yy + 4.5)}" font-size="11" '
                   f'fill="{CHART_INK}">{escape(_short(house(h)))}</text>')
    out.append("</svg>")
    return "".join(out)


def _short(name: str) -> str:
    """A house's name cut to fit the chart's margin."""
    return name if text_width(name, 11) <= 44 else name[:5]


def ranking(final: Mapping[str, Mapping[str, int]], order: Sequence[str]) -> list[tuple[str, int, str]]:
    """The final standings by R11.1 — most castles, then supply, then available power; equal on
    all three, the same place — as (house, place, why ahead of the next house)."""
    castles, supply, power = (final.get(k) or {} for k in ("castles", "supply", "power"))

    def key(h: str) -> tuple[int, int, int]:
        return (castles.get(h, 0), supply.get(h, 0), power.get(h, 0))

    ranked = sorted(order, key=lambda h: (tuple(-v for v in key(h)), order.index(h)))
    out = []
    place = 1
    for i, h in enumerate(ranked):
        if i and key(h) != key(ranked[i - 1]):
            place = i + 1
        below = ranked[i + 1] if i + 1 < len(ranked) else None
        out.append((h, place, _why(key(h), key(below)) if below else ""))
    return out


def _why(mine: tuple[int, int, int], theirs: tuple[int, int, int]) -> str:
    """Why a house ranks above the next one, in words."""
    if mine[0] != theirs[0]:
        return tr("more castles ({mine} to {theirs})", mine=mine[0], theirs=theirs[0])
    if mine[1] != theirs[1]:
        return tr("equal castles ({castles}), higher supply ({mine} to {theirs})",
                  castles=mine[0], mine=mine[1], theirs=theirs[1])
    if mine[2] != theirs[2]:
        return tr("equal castles and supply, more power ({mine} to {theirs})", mine=mine[2],
                  theirs=theirs[2])
    return tr("equal on castles, supply and power: the same place")


# --- the step-through -------------------------------------------------------------------------

def _part(svg: str, ident: str) -> str:
    """The element ``<g id=ident>`` of one of our pictures, whole (its nested groups too)."""
    start = svg.find(f'<g id="{ident}"')
    if start < 0:
        return ""
    depth, i = 0, start
    pattern = re.compile(r"<g[\s>]|</g>")
    for m in pattern.finditer(svg, start):
        depth += 1 if m.group(0) != "</g>" else -1
        if depth == 0:
            i = m.end()
            break
    return svg[start:i]


SECONDS = 3
"""How long each round is shown in the step-through."""


def step_through(pictures: Sequence[tuple[int, str]], title: str) -> str | None:
    """One animated SVG with every round's picture as played (map only), shown in turn,
    ``SECONDS`` each, with the round number; the borders and names drawn once, each round's
    grounds, units, tokens and arrows in its own frame. None for pictures of an older release
    (without the map's view)."""
    if not pictures:
        return None
    first = pictures[0][1]
    view = re.search(r'<view id="map" viewBox="([^"]+)"', first)
    if view is None:
        return None
    x0, y0, w, h = (float(v) for v in view.group(1).split())
    total = SECONDS * len(pictures)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(w / 2)}" '
           f'height="{_n(h / 2 + 40)}" viewBox="{_n(x0)} {_n(y0 - 80)} {_n(w)} {_n(h + 80)}" '
           'font-family="sans-serif">',
           f"<title>{escape(title)}</title>",
           f'<rect x="{_n(x0)}" y="{_n(y0 - 80)}" width="{_n(w)}" height="{_n(h + 80)}" '
           'fill="#ffffff"/>']
    for i, (number, svg) in enumerate(pictures):
        frame = "".join(_part(svg, ident) for ident in ("regions", "areas", "round-play"))
        frame = re.sub(r' id="[^"]*"', "", frame)
        frame = re.sub(r"<text[^>]*>.*?</text>|<title>.*?</title>", "", frame, flags=re.S)
        frame = frame.replace('fill="url(#waves)"', 'fill="none"')
        on, off = i / len(pictures), (i + 1) / len(pictures)
        if i == 0:
            times, values = f"0;{off:.4f}", "1;0"
        else:
            times, values = f"0;{on:.4f};{off:.4f}", "0;1;0"
        out.append(f'<g class="frame" data-round="{number}" opacity="{1 if i == 0 else 0}">'
                   f'<animate attributeName="opacity" dur="{total}s" repeatCount="indefinite" '
                   f'calcMode="discrete" keyTimes="{times}" values="{values}"/>'
                   f'<text x="{_n(x0 + 20)}" y="{_n(y0 - 24)}" font-size="48" font-weight="bold" '
                   f'fill="#1a1a1a">{escape(tr("Round {round}", round=number))}</text>'
                   f"{frame}</g>")
    out.append(_part(first, "borders"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
