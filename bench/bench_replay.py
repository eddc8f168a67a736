"""Benchmark: median time of ``agot replay`` of the ten-round demo game, against the floors.

Not a test (pytest does not collect bench/). Run: ``python bench/bench_replay.py [RUNS]``.
The replay re-adjudicates all ten rounds of ``scenarios/games/demo`` (and round 1 against
``agot new``), renders each round's report, log and board picture and compares every file byte
for byte. The ratio's floor is the bare interpreter plus ``import agot_adjudicator`` (see
bench/_common.py). Target: replay <= 3 x floor.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import AGOT, FLOORS, ROOT, child_env, load, median_times, print_times

DEMO = ROOT / "scenarios" / "games" / "demo"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        env = child_env(Path(tmp) / "pycache")
        print(f"runs: {runs} (median, after a warm-up run); {load()}")
        floors = {name: median_times(FLOORS[name], runs, env) for name in ("deps", "package", "cli")}
        wall, cpu = median_times([*AGOT, "replay", str(DEMO)], runs, env)
        print_times("agot replay", "10 rounds, 4 files each", wall, cpu, floors, 3)
        print(f"per round          {wall * 100:8.1f} {cpu * 100:8.1f}   (ms)")
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
