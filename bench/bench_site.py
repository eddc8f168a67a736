"""Benchmark: ``agot site`` of the ten-round demo game — build time and page weight (issue 31).

Not a test (pytest does not collect bench/). Run: ``python bench/bench_site.py [RUNS]``.

Build time: the median wall and CPU time of ``agot site`` (the whole record replayed first, as
``agot replay``, then eleven pages, twenty pictures, the step-through, the stylesheet) without
the PNG copies, with them, and in Chinese (with the web font slices), each into a fresh folder;
``agot replay`` alone is the floor it cannot go under (target, issue 33: site <= 1.2 x
replay), all in turns (paired, bench/_common.py). Also one ``agot map --game … -o F.png``.

Page weight: what a browser fetches to show a page — the HTML (the maps are drawn into it), the
stylesheet and, for a Chinese page, the web font slices whose characters the page uses (a slice
is fetched only for a page that uses one of its characters, ``unicode-range``); pictures a page
only links to (the SVG and PNG copies) are not fetched. The index's step-through
(``rounds.svg``, loaded lazily) is counted with the index. And the whole site on disk.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import AGOT, ROOT, child_env, load, paired_times

DEMO = ROOT / "scenarios" / "games" / "demo"


def page_weights(site: Path) -> dict[str, tuple[int, int]]:
    """Bytes fetched to show each page of ``site`` (see the module docstring): the page with
    its stylesheet and images, and the web font slices it uses (fetched once, then cached)."""
    css = (site / "style.css").read_text(encoding="utf-8")
    faces = [(m.group(1), m.group(2)) for m in re.finditer(
        r"src: url\((fonts/[^)]+)\) format\(\"woff2\"\); unicode-range: ([^;]+);", css)]

    def covers(ranges: str, text: str) -> bool:
        points = {ord(c) for c in text}
        for part in ranges.split(", "):
            lo, _, hi = part[2:].partition("-")
            if any(int(lo, 16) <= p <= int(hi or lo, 16) for p in points):
                return True
        return False

    out = {}
    for page in sorted(site.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        own = len(page.read_bytes()) + len(css.encode("utf-8"))
        own += sum((site / img).stat().st_size for img in re.findall(r'<img src="([^"]+)"', text))
        fonts = sum((site / f).stat().st_size for f, ranges in faces if covers(ranges, text))
        out[page.name] = (own, fonts)
    return out


def folder_size(site: Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        env = child_env(Path(tmp) / "pycache")
        print(f"runs: {runs} (median, after a warm-up run); {load()}")
        print("                          wall ms   cpu ms")
        cases = [("agot replay (floor)", ["replay", str(DEMO)], None),
                 ("agot site --no-png", ["site", "--game", str(DEMO), "--no-png"], "site"),
                 ("agot site (PNG)", ["site", "--game", str(DEMO), "--png"], "png"),
                 ("agot site zh-Hans", ["site", "--game", str(DEMO), "--no-png", "--lang",
                                        "zh-Hans"], "zh"),
                 ("agot map -o .png", ["map", "--game", str(DEMO), "--round", "5"], "map")]
        built: dict[str, Path] = {}
        cmds = {}
        for label, args, out in cases:
            target = Path(tmp) / (out or "none")
            if out == "map":
                args = [*args, "-o", str(Path(tmp) / "r5.png")]
            elif out is not None:
                args = [*args, "-o", str(target)]
                built[out] = target
            cmds[label] = [*AGOT, *args]
        times = paired_times(cmds, runs, env)  # in turns: the ratios share the machine's load
        for label, (wall, cpu) in times.items():
            print(f"{label:24s} {wall * 1000:8.1f} {cpu * 1000:8.1f}")
        (rw, rc), (sw, sc) = times["agot replay (floor)"], times["agot site --no-png"]
        print(f"site --no-png / replay   {sw / rw:8.2f} {sc / rc:8.2f}   (target <= 1.2)")
        print()
        for name, site in (("English", built["png"]), ("Chinese", built["zh"])):
            weights = page_weights(site)
            rounds = [w for p, (w, _) in weights.items() if p.startswith("round-")]
            fonts = max(f for _, f in weights.values())
            print(f"{name}: index {weights['index.html'][0] / 1024:.0f} KiB (its step-through "
                  f"included), round pages median {statistics.median(rounds) / 1024:.0f} KiB "
                  f"(max {max(rounds) / 1024:.0f}), web fonts {fonts / 1024:.0f} KiB (once), "
                  f"site on disk {folder_size(site) / 1024 / 1024:.1f} MiB "
                  f"({len(list(site.rglob('*.*')))} files)")
        fonts = json.loads((ROOT / "agot_adjudicator" / "data" / "fonts" / "web" / "slices.json")
                           .read_text(encoding="utf-8"))
        carried = len(list((built["zh"] / "fonts").glob("*.woff2")))
        print(f"web font slices carried by the Chinese site: {carried} of "
              f"{sum(1 for f in fonts if f['family'] == 'Noto Sans CJK SC')}")
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
