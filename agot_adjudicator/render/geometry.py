"""The map's geometry, read from the board data: each area's outline and content box, the
borders between areas by kind (coast, land, river, sea), where a move crosses from one area to
the next, and where a label may go without covering a name.

An area's outline is its ``shape`` (board.yaml, drawn by ``tools/board_geometry.py`` from a
hand-drawn grid: the areas tile the map and share their borders point for point). A ruleset
without shapes (an older or a hand-made one) is drawn as before: each area a box at its ``xy``
(default size 150 × 92) and each border a line between the facing sides of two boxes.

Pure and deterministic; computed once per board layout (:func:`map_layout`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from agot_adjudicator.model.ruleset import Area, Ruleset

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""left, top, right, bottom."""

LAND_SIZE = (150.0, 92.0)
"""Width and height of an area's box when board.yaml gives no ``size``."""
MARGIN = 16.0


def area_box(area: Area) -> Box:
    """The area's content box on the map: left, top, right, bottom."""
    x, y = area.xy or (0.0, 0.0)
    w, h = area.size or LAND_SIZE
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def grow(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not).

    >>> overlaps((0, 0, 10, 10), (9, 9, 20, 20)), overlaps((0, 0, 10, 10), (10, 0, 20, 10))
    (True, False)
    """
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: Box, outer: Box) -> bool:
    return (inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


class Outline:
    """An area's outline ready for point tests: its rings' edges (horizontal ones left out),
    filed by the horizontal band of the map they span, so that a test reads only the edges a
    point's row can cross. Inside means inside an odd number of rings (even-odd rule; holes
    are islands).

    >>> square = Outline([[(0, 0), (10, 0), (10, 10), (0, 10)]])
    >>> square.contains((5, 5)), square.contains((15, 5)), square.contains((5, 10))
    (True, False, False)
    """

    BAND = 40.0
    """The height of a band, in px."""

    def __init__(self, rings: Sequence[Sequence[Point]]) -> None:
        bands: dict[int, list[tuple[float, float, float, float]]] = {}
        for ring in rings:
            for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
                if y1 != y2:
                    for band in range(math.floor(min(y1, y2) / self.BAND),
                                      math.floor(max(y1, y2) / self.BAND) + 1):
                        bands.setdefault(band, []).append((x1, y1, x2, y2))
        self._bands = {band: tuple(edges) for band, edges in bands.items()}

    def contains(self, point: Point) -> bool:
        """Whether ``point`` lies inside (an edge crossed by the ray to its left, even-odd)."""
        x, y = point
        hit = False
        for x1, y1, x2, y2 in self._bands.get(math.floor(y / self.BAND), ()):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
        return hit


def ring_area(ring: Sequence[Point]) -> float:
    return abs(sum(a[0] * b[1] - b[0] * a[1]
                   for a, b in zip(ring, [*ring[1:], ring[0]], strict=True))) / 2


def polyline_length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def point_along(points: Sequence[Point], fraction: float) -> Point:
    """The point ``fraction`` (0..1) of the way along a polyline."""
    total = polyline_length(points)
    if total == 0:
        return points[0]
    goal = total * fraction
    for a, b in itertools.pairwise(points):
        step = math.dist(a, b)
        if step >= goal and step > 0:
            t = goal / step
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        goal -= step
    return points[-1]


def _segment_box_hit(seg: tuple[float, float, float, float], box: Box) -> tuple[float, float, bool]:
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


def segment_meets_box(seg: tuple[float, float, float, float], box: Box, margin: float = 0) -> bool:
    """Whether a segment passes through a box grown by ``margin``."""
    t_in, t_out, outside = _segment_box_hit(seg, grow(box, margin))
    return not outside and t_in < t_out


# --- borders ---------------------------------------------------------------------------------

def borders(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Every adjacency once, as (a, b) with a before b in the ruleset's area order."""
    order = {a: i for i, a in enumerate(ruleset.area_ids)}
    return [(a, b) for a in ruleset.area_ids for b in ruleset.areas[a].adjacent
            if order[a] < order[b]]


def border_segment(ruleset: Ruleset, a: str, b: str) -> tuple[float, float, float, float]:
    """The line drawn for the border of ``a`` and ``b`` on a map of boxes: between the facing
    sides of their boxes."""
    return border_segment_of(area_box(ruleset.areas[a]), area_box(ruleset.areas[b]))


@dataclass(frozen=True)
class Border:
    """One drawn border: ``kind`` is ``coast`` (a land and a sea), ``land`` (two adjacent
    lands, a bridged river too), ``river`` (a river border without a crossing, R5.11, or two
    lands that touch but are not adjacent),
    ``sea`` (two seas) or ``link`` (an adjacency drawn as a connector: on a map of boxes, or the
    one the board's geometry cannot draw as a shared border)."""

    kind: str
    a: str
    b: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class MapLayout:
    """Everything the pictures place on the map."""

    shaped: bool
    rings: dict[str, tuple[tuple[Point, ...], ...]]
    rooms: dict[str, Box]
    borders: tuple[Border, ...]
    bounds: Box
    """The map's extent (left, top, right, bottom)."""
    _outlines: dict[str, Outline] = field(init=False, repr=False, compare=False)
    """The :class:`Outline` of each area asked about, made from its ``rings``."""
    shared: dict[tuple[str, str], tuple[Border, ...]] = field(init=False, repr=False,
                                                              compare=False)
    """The borders of each pair of areas that touch (the pair in sorted order)."""
    _crossings: dict[tuple[str, str], list[Point]] = field(init=False, repr=False,
                                                           compare=False)
    """The points a move between a pair may cross at, worked out the first time it is asked."""

    def __post_init__(self) -> None:
        shared: dict[tuple[str, str], list[Border]] = {}
        for border in self.borders:
            shared.setdefault(_pair(border.a, border.b), []).append(border)
        object.__setattr__(self, "_outlines", {})
        object.__setattr__(self, "shared", {k: tuple(v) for k, v in shared.items()})
        object.__setattr__(self, "_crossings", {})

    def crossing(self, a: str, b: str, near: Point | None = None) -> Point | None:
        """Where a move from ``a`` to ``b`` crosses between them: the point of their shared
        border (away from its ends) nearest to ``near``, else the middle of their longest
        shared border (or of their connector); None if they do not touch."""
        key = _pair(a, b)
        shared = self.shared.get(key)
        if not shared:
            return None
        if near is None:
            longest = max(shared, key=lambda border: polyline_length(border.points))
            return point_along(longest.points, 0.5)
        candidates = self._crossings.get(key)
        if candidates is None:
            candidates = self._crossings[key] = [point_along(border.points, k / 20)
                                                 for border in shared for k in range(3, 18)]
        return min(candidates, key=lambda p: (math.dist(p, near), p))

    def inside_point(self, area: str, near: Point, step: float = 10.0) -> Point:
        """``near`` if it lies in ``area``, else the nearest point found in it (rings outward,
        in a fixed order), else ``near``."""
        if self.contains(area, near):
            return near
        for radius in range(1, 40):
            count = 8 + 4 * radius
            for k in range(count):
                angle = 2 * math.pi * k / count
                p = (near[0] + radius * step * math.cos(angle),
                     near[1] + radius * step * math.sin(angle))
                if self.contains(area, p):
                    return p
        return near

    def room_centre(self, area: str) -> Point:
        box = self.rooms[area]
        return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)

    def contains(self, area: str, point: Point) -> bool:
        return self.outline(area).contains(point)

    def outline(self, area: str) -> Outline:
        """The :class:`Outline` of ``area`` (made the first time it is asked for)."""
        made = self._outlines.get(area)
        if made is None:
            made = self._outlines[area] = Outline(self.rings[area])
        return made


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _pairs(flat: Sequence[float]) -> tuple[Point, ...]:
    return tuple((float(flat[i]), float(flat[i + 1])) for i in range(0, len(flat) - 1, 2))


def _layout_key(ruleset: Ruleset) -> tuple:
    return tuple((a, ruleset.areas[a].kind, ruleset.areas[a].adjacent, ruleset.areas[a].xy,
                  ruleset.areas[a].size, ruleset.areas[a].shape, ruleset.areas[a].rivers)
                 for a in ruleset.area_ids)


def map_layout(ruleset: Ruleset) -> MapLayout:
    """The map's layout for ``ruleset`` (computed once per layout)."""
    return _map_layout(_layout_key(ruleset))


@lru_cache(maxsize=8)
def _map_layout(key: tuple) -> MapLayout:
    ids = [k[0] for k in key]
    kind = {k[0]: k[1] for k in key}
    adjacent = {k[0]: k[2] for k in key}
    rivers = {k[0]: k[6] for k in key}
    areas = {k[0]: Area(k[0], k[0], k[1], k[2], xy=k[3], size=k[4], shape=k[5]) for k in key}
    rooms = {a: area_box(areas[a]) for a in ids}
    shaped = all(areas[a].shape for a in ids)
    if not shaped:
        rings: dict[str, tuple[tuple[Point, ...], ...]] = {
            a: (((rooms[a][0], rooms[a][1]), (rooms[a][2], rooms[a][1]),
                      (rooms[a][2], rooms[a][3]), (rooms[a][0], rooms[a][3])),) for a in ids}
        links = []
        for a, b in _pairs_of(ids, adjacent):
            seg = border_segment_of(rooms[a], rooms[b])
            links.append(Border("link", a, b, ((seg[0], seg[1]), (seg[2], seg[3]))))
        boxes = list(rooms.values())
        bounds = (min(0.0, min(b[0] for b in boxes) - MARGIN),
                  min(0.0, min(b[1] for b in boxes) - MARGIN),
                  max(b[2] for b in boxes) + MARGIN, max(b[3] for b in boxes) + MARGIN)
        return MapLayout(False, rings, rooms, tuple(links), bounds)
    rings = {a: tuple(_pairs(ring) for ring in (areas[a].shape or ())) for a in ids}
    edges: dict[tuple[Point, Point], list[str]] = {}
    for a in ids:
        for ring in rings[a]:
            for p, q in zip(ring, [*ring[1:], ring[0]], strict=True):
                edges.setdefault((min(p, q), max(p, q)), []).append(a)
    by_pair: dict[tuple[str, str], list[tuple[Point, Point]]] = {}
    order = {a: i for i, a in enumerate(ids)}
    for edge, owners in edges.items():
        if len(owners) == 2 and owners[0] != owners[1]:
            a, b = sorted(owners, key=order.__getitem__)
            by_pair.setdefault((a, b), []).append(edge)
    drawn = []
    for (a, b), pair_edges in sorted(by_pair.items(), key=lambda kv: (order[kv[0][0]],
                                                                      order[kv[0][1]])):
        if kind[a] == "sea" and kind[b] == "sea":
            what = "sea"
        elif kind[a] == "sea" or kind[b] == "sea":
            what = "coast"
        else:
            what = "land" if b in adjacent[a] and b not in rivers[a] else "river"
        for line in _chains(pair_edges):
            drawn.append(Border(what, a, b, line))
    touching = set(by_pair)
    for a, b in _pairs_of(ids, adjacent):
        if (a, b) not in touching:  # drawn as a connector between their nearest points
            p, q = _nearest(rings[a], rings[b])
            drawn.append(Border("link", a, b, (p, q)))
    points = [p for a in ids for ring in rings[a] for p in ring]
    bounds = (min(p[0] for p in points), min(p[1] for p in points),
              max(p[0] for p in points), max(p[1] for p in points))
    return MapLayout(True, rings, rooms, tuple(drawn), bounds)


def _pairs_of(ids: Sequence[str], adjacent: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    order = {a: i for i, a in enumerate(ids)}
    return [(a, b) for a in ids for b in adjacent[a] if b in order and order[a] < order[b]]


def border_segment_of(box_a: Box, box_b: Box) -> tuple[float, float, float, float]:
    """A line between the facing sides of two boxes (12 px inside each)."""
    def anchor(one: Box, other: Box) -> tuple[float, float]:
        inset = 12.0
        lo, hi = max(one[0], other[0]), min(one[2], other[2])
        tx = (lo + hi) / 2 if lo < hi else (other[0] + other[2]) / 2
        lo, hi = max(one[1], other[1]), min(one[3], other[3])
        ty = (lo + hi) / 2 if lo < hi else (other[1] + other[3]) / 2
        return (_clamp(tx, one[0] + inset, one[2] - inset),
                _clamp(ty, one[1] + inset, one[3] - inset))
    (x1, y1), (x2, y2) = anchor(box_a, box_b), anchor(box_b, box_a)
    return (x1, y1, x2, y2)


def _chains(edges: Iterable[tuple[Point, Point]]) -> list[tuple[Point, ...]]:
    """Edges joined into polylines (each as long as it runs), in a fixed order."""
    links: dict[Point, list[Point]] = {}
    distinct: set[tuple[Point, Point]] = set()
    for p, q in edges:
        links.setdefault(p, []).append(q)
        links.setdefault(q, []).append(p)
        distinct.add((min(p, q), max(p, q)))
    for neighbours in links.values():
        neighbours.sort()
    used: set[tuple[Point, Point]] = set()
    lines = []
    ends = sorted(p for p, n in links.items() if len(n) != 2)
    for start in itertools.chain(ends, sorted(links)):
        if len(used) == len(distinct):  # every edge is on a line
            break
        for nxt in links[start]:
            if (min(start, nxt), max(start, nxt)) in used:
                continue
            line = [start]
            here, step = start, nxt
            while True:
                used.add((min(here, step), max(here, step)))
                line.append(step)
                here = step
                ahead = [n for n in links[here] if (min(here, n), max(here, n)) not in used]
                if len(links[here]) != 2 or not ahead:
                    break
                step = ahead[0]
            lines.append(tuple(line))
    return lines


def _nearest(a: Sequence[Sequence[Point]], b: Sequence[Sequence[Point]]) -> tuple[Point, Point]:
    return min(((p, q) for ring in a for p in ring for r in b for q in r),
               key=lambda pq: (math.dist(*pq), pq))


# --- labels ----------------------------------------------------------------------------------

def place_box(width: float, height: float, near: Point, obstacles: Sequence[Box],
              bounds: Box, *, avoid: Sequence[Box] = (), region: MapLayout | None = None,
              area: str | None = None, step: float = 10.0, reach: float = 300.0) -> Box:
    """A box of ``width`` × ``height`` as close to ``near`` as it can be: inside ``bounds``,
    over none of ``obstacles`` (names, other labels: never covered), over as little of
    ``avoid`` as it can (units, tokens), and inside ``area`` when one is given and a place
    there is free. Candidates go out from ``near`` ring by ring, in a fixed order, so the
    choice is deterministic; each run of :data:`RUN` candidates is tested only against the
    boxes that meet the run's extent."""
    half_w, half_h = width / 2, height / 2
    span = reach + width + height
    near_box = (near[0] - span, near[1] - span, near[0] + span, near[1] + span)
    obstacles = _meeting(obstacles, near_box)
    avoid = _meeting(avoid, near_box)
    lo_x, hi_x = bounds[0] + half_w + 1, bounds[2] - half_w - 1
    lo_y, hi_y = bounds[1] + half_h + 1, bounds[3] - half_h - 1
    outline = region.outline(area) if region is not None and area is not None else None
    best_cost, best = math.inf, None
    radius = 0.0
    while radius <= reach:
        count = 1 if radius == 0 else max(8, int(2 * math.pi * radius / step))
        xs, ys, costs = _ring(near, radius, count, (lo_x, lo_y, hi_x, hi_y))
        for first in range(0, count, RUN):
            last = min(first + RUN, count)
            if min(costs[first:last]) >= best_cost:
                continue
            extent = (min(xs[first:last]) - half_w, min(ys[first:last]) - half_h,
                      max(xs[first:last]) + half_w, max(ys[first:last]) + half_h)
            blocking, avoided = _meeting(obstacles, extent), _meeting(avoid, extent)
            for i in range(first, last):
                cost = costs[i]
                if cost >= best_cost:
                    continue
                box = (xs[i] - half_w, ys[i] - half_h, xs[i] + half_w, ys[i] + half_h)
                if blocking and _meeting(blocking, box):
                    continue
                if avoided:
                    cost += 120 * len(_meeting(avoided, box))
                    if cost >= best_cost:
                        continue
                if outline is not None and not (
                        outline.contains((box[0], box[1])) and outline.contains((box[2], box[1]))
                        and outline.contains((box[2], box[3]))
                        and outline.contains((box[0], box[3]))):
                    cost += 60
                if cost < best_cost:
                    best_cost, best = cost, box
        if best is not None and best_cost <= radius:  # nothing further out can cost less
            return best
        radius += step
    if best is not None:
        return best
    cx = _clamp(near[0], bounds[0] + half_w, bounds[2] - half_w)
    cy = _clamp(near[1], bounds[1] + half_h, bounds[3] - half_h)
    return (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


RUN = 8
"""How many neighbouring candidates of a ring :func:`place_box` tests together."""


def _ring(near: Point, radius: float, count: int, within: Box
          ) -> tuple[list[float], list[float], list[float]]:
    """The centres of ``count`` candidates on a ring round ``near``, each moved into ``within``
    (left, top, right, bottom), and their distances from ``near``."""
    lo_x, lo_y, hi_x, hi_y = within
    x0, y0 = near
    turn = 2 * math.pi
    angles = [turn * k / count for k in range(count)]
    xs = [x0 + radius * math.cos(angle) for angle in angles]
    ys = [y0 + radius * math.sin(angle) for angle in angles]
    if not lo_x <= x0 - radius <= x0 + radius <= hi_x:  # (a ring within needs no moving)
        xs = [max(lo_x, min(hi_x, x)) for x in xs]
    if not lo_y <= y0 - radius <= y0 + radius <= hi_y:
        ys = [max(lo_y, min(hi_y, y)) for y in ys]
    return xs, ys, [math.dist((x, y), near) for x, y in zip(xs, ys, strict=True)]


def _meeting(boxes: Sequence[Box], box: Box) -> list[Box]:
    """The boxes of ``boxes`` that overlap ``box`` (:func:`overlaps`), in their order."""
    left, top, right, bottom = box
    return [o for o in boxes if o[0] < right and left < o[2] and o[1] < bottom and top < o[3]]
