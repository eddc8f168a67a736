"""Write the map geometry of ``board.yaml`` (each area's ``shape``, ``xy`` and ``size``) from the
hand-drawn grid ``tools/board_map.txt``.

    python tools/board_geometry.py            # rewrite the geometry lines of board.yaml
    python tools/board_geometry.py --check    # exit 1 if board.yaml is not what the grid gives

The grid is the board's geography drawn by hand, one character a cell (25 px): every cell
belongs to one area, so the areas tile the map, and two areas share a border exactly where their
cells touch. It is drawn from the board data, not copied from the printed board: each area
touches the areas it is adjacent to (``adjacent:``), seas touch only the areas they border, and
two lands touch without being adjacent only across a river (drawn as one). One adjacency cannot
be drawn as a shared border at all, because the adjacency graph of the first-edition board is not
planar (Oldtown, Highgarden, the Sunset Sea, Redwyne Straits and the Dornish Marches: any four of
them border each other): the picture draws that one as a connector across the corner of the sea
between them (``render/picture.py``; tests/test_map.py checks every adjacency is one or the other).

From the grid, each boundary between two areas is traced once (an arc from one junction of three
or more areas to the next), smoothed (midpoints of the cell edges, then two rounds of Chaikin's
corner cutting, junctions and the map's edge kept in place) and shared by both areas, so their
outlines meet exactly. ``shape`` is the outline as rings of ``x, y`` pairs (the first ring the
outside, any further ring a hole: an island), ``xy`` and ``size`` the centre and size of the
largest box inside the area that the picture lays out the area's name, icons, units and tokens
in. These are layout keys: the ruleset's content hash leaves them out, so redrawing the map never
changes which states a ruleset accepts. Deterministic: the same grid gives the same bytes.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRID = ROOT / "tools" / "board_map.txt"
BOARD = ROOT / "agot_adjudicator" / "data" / "first_edition" / "board.yaml"
OUTSIDE = "#"
COAST_WOBBLE, LAND_WOBBLE, SEA_WOBBLE = 0.44, 0.32, 0.3
"""How far (in cells) a coast, a border between lands and one between seas may wander."""

Point = tuple[float, float]


def read_grid(path: Path) -> tuple[int, dict[str, str], list[str]]:
    """The cell size, the legend (character → area id) and the rows of the grid file."""
    cell, legend, rows = 0, {}, []
    section = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if line.startswith("cell:"):
            cell = int(line.split(":", 1)[1])
        elif line.rstrip(":") in ("legend", "rows") and line.endswith(":"):
            section = line.rstrip(":")
        elif section == "legend":
            code, area = line.split()
            legend[code] = area
        elif section == "rows":
            row = ""
            for token in line.split():
                if token[0] not in legend:
                    raise SystemExit(f"{path}:{number}: unknown code {token[0]!r}")
                row += token[0] * int(token[1:])
            rows.append(row)
    if not rows or len({len(r) for r in rows}) != 1:
        raise SystemExit(f"{path}: rows of different lengths: {sorted({len(r) for r in rows})}")
    return cell, legend, rows


class Grid:
    """The grid's cells and the traced boundaries between its areas."""

    def __init__(self, rows: Sequence[str]) -> None:
        self.rows = list(rows)
        self.height, self.width = len(rows), len(rows[0])
        self.far: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}

    def code(self, c: int, r: int) -> str:
        if 0 <= r < self.height and 0 <= c < self.width:
            return self.rows[r][c]
        return OUTSIDE

    def is_node(self, x: int, y: int) -> bool:
        """Whether grid vertex (x, y) is a junction: three or more codes around it, or two in a
        checkerboard."""
        nw, ne = self.code(x - 1, y - 1), self.code(x, y - 1)
        sw, se = self.code(x - 1, y), self.code(x, y)
        codes = {nw, ne, sw, se}
        return len(codes) >= 3 or (len(codes) == 2 and nw == se and ne == sw)

    def rings(self, code: str) -> list[list[tuple[int, int]]]:
        """The boundary rings of an area (grid vertices), clockwise on screen around its
        cells; the far side of each edge goes into :attr:`far`."""
        edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for r in range(self.height):
            for c in range(self.width):
                if self.rows[r][c] != code:
                    continue
                sides = (((c, r), (c + 1, r), self.code(c, r - 1)),
                         ((c + 1, r), (c + 1, r + 1), self.code(c + 1, r)),
                         ((c + 1, r + 1), (c, r + 1), self.code(c, r + 1)),
                         ((c, r + 1), (c, r), self.code(c - 1, r)))
                for start, end, other in sides:
                    if other != code:
                        edges.setdefault(start, []).append(end)
                        self.far[(start, end)] = other
        rings = []
        while edges:
            start = min(edges)
            ring: list[tuple[int, int]] = []
            here, heading = start, (1, 0)
            while True:
                ring.append(here)
                options = edges[here]
                # at a checkerboard vertex, turn right: stay with the same cell
                nxt = max(options, key=lambda p, h=here, d=heading: (
                    _right_turn(d, (p[0] - h[0], p[1] - h[1])), p))
                options.remove(nxt)
                if not options:
                    del edges[here]
                heading, here = (nxt[0] - here[0], nxt[1] - here[1]), nxt
                if here == start:
                    break
            rings.append(ring)
        return rings


def _right_turn(heading: tuple[int, int], turn: tuple[int, int]) -> int:
    """2 for a right turn (screen coordinates, y down), 1 straight on, 0 left."""
    cross = heading[0] * turn[1] - heading[1] * turn[0]
    return 2 if cross > 0 else 1 if cross == 0 else 0


def _midpoints(points: Sequence[Point], closed: bool) -> list[Point]:
    pairs = list(zip(points, [*points[1:], points[0]] if closed else points[1:], strict=False))
    return [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in pairs]


def _chaikin(points: list[Point], closed: bool, rounds: int = 2) -> list[Point]:
    """Chaikin's corner cutting; an open line keeps its two ends."""
    for _ in range(rounds):
        out: list[Point] = [] if closed else [points[0]]
        count = len(points) if closed else len(points) - 1
        for i in range(count):
            a, b = points[i], points[(i + 1) % len(points)]
            q = (a[0] * 0.75 + b[0] * 0.25, a[1] * 0.75 + b[1] * 0.25)
            r = (a[0] * 0.25 + b[0] * 0.75, a[1] * 0.25 + b[1] * 0.75)
            if closed or i > 0:
                out.append(q)
            if closed or i < count - 1:
                out.append(r)
        if not closed:
            out.append(points[-1])
        points = out
    return points


def _simplify(points: list[Point], tolerance: float) -> list[Point]:
    """Ramer–Douglas–Peucker on an open line (its ends kept)."""
    if len(points) < 3:
        return points
    (x1, y1), (x2, y2) = points[0], points[-1]
    dx, dy = x2 - x1, y2 - y1
    norm = (dx * dx + dy * dy) ** 0.5 or 1.0
    far, index = 0.0, 0
    for i, (x, y) in enumerate(points[1:-1], start=1):
        d = abs(dy * (x - x1) - dx * (y - y1)) / norm if (dx or dy) else \
            ((x - x1) ** 2 + (y - y1) ** 2) ** 0.5
        if d > far:
            far, index = d, i
    if far <= tolerance:
        return [points[0], points[-1]]
    return _simplify(points[:index + 1], tolerance)[:-1] + _simplify(points[index:], tolerance)


def _wobble(points: list[Point], closed: bool, amplitude: float, seed: str) -> list[Point]:
    """The midpoints of an arc's cell edges, each moved across its edge by a deterministic
    amount (up to ``amplitude`` cells, seeded by the arc): a coast that is not a ruler line."""
    rng = random.Random(zlib.crc32(seed.encode("ascii")))
    pairs = list(zip(points, [*points[1:], points[0]] if closed else points[1:], strict=False))
    out = []
    drift = 0.0
    for a, b in pairs:
        drift = max(-1.0, min(1.0, drift * 0.6 + rng.uniform(-0.8, 0.8)))
        dx, dy = b[0] - a[0], b[1] - a[1]
        out.append(((a[0] + b[0]) / 2 - dy * drift * amplitude,
                    (a[1] + b[1]) / 2 + dx * drift * amplitude))
    return out


def smooth_arc(vertices: Sequence[tuple[int, int]], closed: bool, straight: bool,
               amplitude: float = 0.0) -> list[Point]:
    """An arc's smoothed points (grid units): junction ends kept, the map's edge kept straight;
    ``amplitude``: how far (in cells) the line may wander from the cell edges."""
    points: list[Point] = [(float(x), float(y)) for x, y in vertices]
    if straight:
        return _simplify(points, 0.01) if not closed else points
    seed = repr(tuple(vertices))
    if closed:
        smooth = _chaikin(_wobble(points, True, amplitude, seed), True)
        start = min(range(len(smooth)), key=lambda i: smooth[i])
        smooth = smooth[start:] + smooth[:start]
        return _simplify([*smooth, smooth[0]], 0.05)[:-1]
    middle = _wobble(points, False, amplitude, seed)
    if len(middle) > 2:  # the ends meet other arcs at a junction: they do not wander
        middle[0], middle[-1] = _midpoints(points[:2], False)[0], _midpoints(points[-2:], False)[0]
    smooth = _chaikin([points[0], *middle, points[-1]], False)
    return _simplify(smooth, 0.05)


def trace(rows: Sequence[str], legend: dict[str, str], cell: int
          ) -> dict[str, list[list[tuple[int, int]]]]:
    """Area id → its outline rings in pixels (rounded), the outside ring first. Every boundary
    between two areas is smoothed once and used by both."""
    grid = Grid(rows)
    arcs: dict[tuple[tuple[int, int], ...], list[Point]] = {}
    shapes: dict[str, list[list[tuple[int, int]]]] = {}
    for code in sorted(legend):
        rings_px = []
        for ring in grid.rings(code):
            n = len(ring)
            labels = [grid.far[(ring[i], ring[(i + 1) % n])] for i in range(n)]
            cuts = [i for i in range(n) if grid.is_node(*ring[i])
                    or labels[i] != labels[i - 1]]
            pieces: list[tuple[list[tuple[int, int]], bool, str]] = []
            if not cuts:
                pieces.append((ring, True, labels[0]))
            else:
                for k, i in enumerate(cuts):
                    j = cuts[(k + 1) % len(cuts)]
                    span = [ring[(i + m) % n] for m in range(((j - i) % n) or n)] + [ring[j]]
                    pieces.append((span, False, labels[i]))
            points: list[Point] = []
            for span, closed, other in pieces:
                straight = other == OUTSIDE
                amplitude = COAST_WOBBLE if (code.islower() != other.islower()) else (
                    SEA_WOBBLE if code.islower() else LAND_WOBBLE)
                if closed:  # an island's coast: one ring, the same for both sides
                    key = _closed_key(span)
                    if key not in arcs:
                        arcs[key] = smooth_arc(list(key), True, straight, amplitude)
                    points.extend(arcs[key])
                    continue
                forward = tuple(span)
                backward = forward[::-1]
                key = min(forward, backward)
                if key not in arcs:
                    arcs[key] = smooth_arc(list(key), False, straight, amplitude)
                smooth = arcs[key] if key == forward else arcs[key][::-1]
                points.extend(smooth[:-1])
            pixels: list[tuple[int, int]] = []
            for x, y in points:
                p = (round(x * cell), round(y * cell))
                if not pixels or pixels[-1] != p:
                    pixels.append(p)
            if len(pixels) > 1 and pixels[0] == pixels[-1]:
                pixels.pop()
            rings_px.append(pixels)
        rings_px.sort(key=lambda ring: -abs(_area(ring)))
        shapes[legend[code]] = rings_px
    return shapes


def _closed_key(span: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """A closed ring's canonical vertex order (the same for both areas it separates)."""
    i = min(range(len(span)), key=lambda k: span[k])
    forward = tuple(span[i:]) + tuple(span[:i])
    backward = (forward[0], *forward[1:][::-1])
    return min(forward, backward)


def _area(ring: Sequence[tuple[float, float]]) -> float:
    """The signed area of a ring (shoelace)."""
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, [*ring[1:], ring[0]], strict=True)) / 2


def room(rows: Sequence[str], code: str, cell: int, margin: int) -> tuple[int, int, int, int]:
    """The box an area's contents are laid out in (pixels: centre x, centre y, width, height):
    the largest rectangle of its cells at least 6 × 4 cells for a land, 5 × 3 for a sea (its
    size counted up to 8 × 5 cells, so that a larger area keeps its box near its middle), shrunk
    by ``margin``."""
    height, width = len(rows), len(rows[0])
    cells = [(c, r) for r in range(height) for c in range(width) if rows[r][c] == code]
    mid_c = sum(c for c, _ in cells) / len(cells) + 0.5
    mid_r = sum(r for _, r in cells) / len(cells) + 0.5
    heights = [0] * width
    best: tuple[float, ...] = ()
    for r in range(height):
        for c in range(width):
            heights[c] = heights[c] + 1 if rows[r][c] == code else 0
        for c0 in range(width):
            h = height
            for c1 in range(c0, width):
                h = min(h, heights[c1])
                if h == 0:
                    break
                w = c1 - c0 + 1
                # the whole rectangle's rows r-h+1..r; keep the candidate nearest the middle
                top = r - h + 1
                fits = (w >= 6 and h >= 4) if code.isupper() or code.isdigit() else \
                    (w >= 5 and h >= 3)
                score = min(w, 8) * min(h, 5)
                off = abs(c0 + w / 2 - mid_c) + abs(top + h / 2 - mid_r)
                candidate = (fits, score, -off, -c0, -top, w, h, c0, top)
                if not best or candidate > best:
                    best = candidate
    w, h, c0, top = (int(v) for v in best[5:])
    x0, y0 = c0 * cell + margin, top * cell + margin
    x1, y1 = (c0 + w) * cell - margin, (top + h) * cell - margin
    return (x0 + x1) // 2, (y0 + y1) // 2, x1 - x0, y1 - y0


def _in_ring(point: Point, ring: Sequence[tuple[int, int]]) -> bool:
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def inside_room(box: tuple[int, int, int, int], rings: Sequence[Sequence[tuple[int, int]]]
                ) -> tuple[int, int, int, int]:
    """``box`` (centre x, y, width, height) made smaller, 2 px a side at a time, until its
    corners and the middles of its sides lie inside the area's outline (the smoothed coast may
    cut a corner of the cells' rectangle)."""
    x, y, w, h = box
    for _ in range(12):
        points = [(x + dx * w / 2, y + dy * h / 2) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                  if dx or dy]
        if all(sum(_in_ring(p, ring) for ring in rings) % 2 == 1 for p in points):
            break
        w, h = w - 4, h - 4
    return x, y, w, h


def geometry_lines(shapes: dict[str, list[list[tuple[int, int]]]], rooms: dict[str, tuple]
                   ) -> dict[str, list[str]]:
    """The YAML lines of each area's layout keys (``xy``, ``size``, ``shape``)."""
    out = {}
    for area, rings in shapes.items():
        x, y, w, h = rooms[area]
        flat = ", ".join("[" + ", ".join(f"{v}" for p in ring for v in p) + "]" for ring in rings)
        out[area] = [f"    xy: [{x}, {y}]", f"    size: [{w}, {h}]", f"    shape: [{flat}]"]
    return out


LAYOUT_LINE = re.compile(r"^    (xy|size|shape):")


def rewrite_board(text: str, lines: dict[str, list[str]]) -> str:
    """board.yaml with each area's layout lines replaced (after its ``kind``); every other line
    as it was."""
    out: list[str] = []
    area = None
    for line in text.splitlines():
        head = re.match(r"^  ([a-z_]+):\s*$", line)
        if head:
            area = head.group(1)
        if area in lines and LAYOUT_LINE.match(line):
            continue
        out.append(line)
        if area in lines and line.startswith("    kind:"):
            out.extend(lines[area])
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if board.yaml's geometry is not what the grid gives")
    parser.add_argument("--grid", type=Path, default=GRID)
    parser.add_argument("--board", type=Path, default=BOARD)
    args = parser.parse_args(argv)
    cell, legend, rows = read_grid(args.grid)
    shapes = trace(rows, legend, cell)
    rooms = {legend[c]: inside_room(room(rows, c, cell, margin=10), shapes[legend[c]])
             for c in legend}
    text = args.board.read_text(encoding="utf-8")
    new = rewrite_board(text, geometry_lines(shapes, rooms))
    if args.check:
        if new != text:
            print(f"{args.board}: its map geometry is not what {args.grid} gives; run "
                  "`python tools/board_geometry.py`", file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.board.write_text(new, encoding="utf-8")
        print(f"wrote {args.board}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
