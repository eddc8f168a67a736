"""Benchmark: median time of ``agot replay`` of the ten-round demo game, against the floors.

Not a test (pytest does not collect bench/). Run: ``python bench/bench_replay.py [RUNS]``.
The replay re-adjudicates all ten rounds of ``scenarios/games/demo`` (and round 1 against
``agot new``), renders each round's report, log and board picture and compares every file byte
for byte. The floors and the replay run in turns (paired, bench/_common.py). Target (issue 33):
replay <= 3 x the ``run`` floor (the imports a run makes); bench/bench_limit.py compares it with
its physical limit.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import AGOT, FLOORS, ROOT, child_env, load, paired_times, print_times

DEMO = ROOT / "scenarios" / "games" / "demo"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        env = child_env(Path(tmp) / "pycache")
        print(f"runs: {runs} (median, after a warm-up turn, paired); {load()}")
        names = ("run", "deps", "package", "cli")
        times = paired_times({**{n: FLOORS[n] for n in names},
                              "replay": [*AGOT, "replay", str(DEMO)]}, runs, env)
        floors = {name: times[name] for name in names}
        wall, cpu = times["replay"]
        print_times("agot replay", "10 rounds, 4 files each", wall, cpu, floors, 3)
        print(f"per round          {wall * 100:8.1f} {cpu * 100:8.1f}   (ms)")
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
