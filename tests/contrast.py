"""Colour checks shared by the picture and site tests: WCAG 2 contrast ratios, colour-blindness
simulation (Machado, Oliveira and Fernandes 2009, full severity) and CIELAB distances, and the
background each text of an SVG is drawn on, found from the SVG's own geometry."""

from __future__ import annotations

import itertools
import re
from xml.etree import ElementTree

SVG = "{http://www.w3.org/2000/svg}"

NAMED = {"white": "#ffffff", "black": "#000000"}


def rgb(colour: str) -> tuple[int, int, int]:
    colour = NAMED.get(colour, colour)
    if len(colour) == 4:
        colour = "#" + "".join(c * 2 for c in colour[1:])
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    r, g, b = (_linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def lab(colour: str, vision: str = "normal") -> tuple[float, float, float]:
    """CIELAB of a colour as seen with ``vision`` (normal or one of :data:`MACHADO`)."""
    linear = [_linear(c) for c in rgb(colour)]
    if vision != "normal":
        m = MACHADO[vision]
        linear = [min(max(sum(m[i][j] * linear[j] for j in range(3)), 0.0), 1.0)
                  for i in range(3)]
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def closest_pair(colours: dict[str, str], vision: str) -> tuple[float, str, str]:
    """The two colours that look most alike with ``vision`` and their ΔE (CIE76)."""
    seen = {k: lab(v, vision) for k, v in colours.items()}
    return min(((sum((p - q) ** 2 for p, q in zip(seen[a], seen[b], strict=False)) ** 0.5, a, b)
                for a, b in itertools.combinations(colours, 2)))


# --- what each text is drawn on -------------------------------------------------------------

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _points(d: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in _NUMBER.findall(d)]
    return list(zip(nums[::2], nums[1::2], strict=False))


def _in_polygon(p: tuple[float, float], ring: list[tuple[float, float]]) -> bool:
    x, y = p
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=False):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


_TOKEN = re.compile(r"[MmLlHhVvQqCcTtSsZz]|-?\d+(?:\.\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "Q": 4, "C": 6, "T": 2, "S": 4, "Z": 0}


def _rings(d: str) -> list[list[tuple[float, float]]]:
    """The points a path passes through (curves by their control and end points), one list per
    subpath; absolute and relative commands."""
    tokens = _TOKEN.findall(d)
    rings: list[list[tuple[float, float]]] = []
    x = y = 0.0
    i, command = 0, "M"
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                continue
        up = command.upper()
        args = [float(t) for t in tokens[i:i + _ARITY[up]]]
        i += _ARITY[up]
        rel = command.islower()
        if up == "H":
            x = args[0] + (x if rel else 0)
        elif up == "V":
            y = args[0] + (y if rel else 0)
        else:
            pts = [(args[k] + (x if rel else 0), args[k + 1] + (y if rel else 0))
                   for k in range(0, len(args), 2)]
            if up == "M":
                rings.append([])
                command = "l" if rel else "L"
            rings[-1].extend(pts[:-1])
            x, y = pts[-1]
        if not rings:
            rings.append([])
        rings[-1].append((x, y))
    return rings


class Shape:
    """A filled element that text may sit on."""

    def __init__(self, el: ElementTree.Element) -> None:
        self.fill = el.get("fill")
        tag = el.tag.replace(SVG, "")
        self.kind = tag
        if tag == "rect":
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            self.box = (x, y, x + float(el.get("width")), y + float(el.get("height")))
        elif tag == "circle":
            self.centre = (float(el.get("cx")), float(el.get("cy")))
            self.r = float(el.get("r"))
        elif tag == "polygon":
            self.rings = [_points(el.get("points"))]
        else:
            d = el.get("d", "")
            self.curved = bool(re.search(r"[QqCcTtSsAa]", d))
            self.rings = _rings(d)

    def contains(self, p: tuple[float, float]) -> bool:
        if self.kind == "rect":
            return self.box[0] <= p[0] <= self.box[2] and self.box[1] <= p[1] <= self.box[3]
        if self.kind == "circle":
            return (p[0] - self.centre[0]) ** 2 + (p[1] - self.centre[1]) ** 2 <= self.r ** 2
        if self.kind == "path" and self.curved:  # icons: their outline's box
            pts = [q for ring in self.rings for q in ring]
            return (min(q[0] for q in pts) <= p[0] <= max(q[0] for q in pts)
                    and min(q[1] for q in pts) <= p[1] <= max(q[1] for q in pts))
        return sum(_in_polygon(p, ring) for ring in self.rings if len(ring) > 2) % 2 == 1


def text_grounds(svg: str) -> list[tuple[str, str, str]]:
    """(text, its colour, the colour it is drawn on) for every text of a picture: the colour of
    its halo (an outline drawn under the letters) if it has one, else the topmost filled shape
    under the middle of its first letter."""
    root = ElementTree.fromstring(svg.encode("utf-8"))
    shapes: list[Shape] = []
    out = []

    def walk(el: ElementTree.Element, transformed: bool) -> None:
        for child in el:
            tag = child.tag.replace(SVG, "")
            moved = transformed or bool(child.get("transform"))
            if tag in ("defs", "title", "pattern", "clipPath", "view"):
                continue
            if tag in ("rect", "circle", "polygon", "path") and not moved:
                fill = child.get("fill")
                if fill and fill.startswith("#") and child.get("opacity") is None:
                    shapes.append(Shape(child))
            elif tag == "text":
                words = "".join(child.itertext())
                size = float(child.get("font-size", 12))
                spans = list(child.iter(f"{SVG}tspan"))
                x = float(child.get("x") or spans[0].get("x"))
                y = float(child.get("y") or spans[0].get("y"))
                if child.get("paint-order") == "stroke" and float(child.get("stroke-width", 0)) >= 2:
                    ground = child.get("stroke")
                elif moved:
                    continue
                else:
                    anchor = child.get("text-anchor", "start")
                    px = x + (size * 0.3 if anchor == "start" else
                              -size * 0.3 if anchor == "end" else 0)
                    under = [s for s in shapes if s.contains((px, y - size * 0.35))]
                    ground = under[-1].fill if under else "#ffffff"
                out.append((words, child.get("fill", "#000000"), ground))
            walk(child, moved)

    walk(root, False)
    return out
