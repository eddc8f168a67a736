"""Benchmark: median time of ``agot site`` for the ten-round demo game (issue 16: under 2 s).

Not a test (pytest does not collect bench/). Run: ``python bench/bench_site.py [RUNS]``.
The command replays the whole record first (as ``agot replay``), then writes the index, ten
round pages, twenty pictures and the stylesheet into a fresh folder each run. Also prints
``agot map --game … -o F.png`` (one PNG through resvg-py) for scale.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import AGOT, ROOT, child_env, load, median_times

DEMO = ROOT / "scenarios" / "games" / "demo"
TARGET = 2.0


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        env = child_env(Path(tmp) / "pycache")
        print(f"runs: {runs} (median, after a warm-up run); {load()}")
        site = [*AGOT, "site", "--game", str(DEMO), "-o", str(Path(tmp) / "site")]
        wall, cpu = median_times(site, runs, env)
        print("                     wall ms   cpu ms")
        print(f"{'agot site':18s} {wall * 1000:8.1f} {cpu * 1000:8.1f}   "
              f"(demo game, 10 rounds; target < {TARGET * 1000:.0f} ms wall)")
        png = [*AGOT, "map", "--game", str(DEMO), "--round", "5", "-o", str(Path(tmp) / "r5.png")]
        wall_png, cpu_png = median_times(png, runs, env)
        print(f"{'agot map -o .png':18s} {wall_png * 1000:8.1f} {cpu_png * 1000:8.1f}   (one round picture)")
        print(f"target met: {'yes' if wall < TARGET else 'NO'}")
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
