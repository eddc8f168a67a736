"""Benchmark: ``agot adjudicate`` of a full 5-player round, ``agot validate`` of its files and
``agot status`` of the demo game's round 10 (its
five houses' orders sent, the round not run), against the floors, paired in one run.

Not a test (pytest does not collect bench/). Run: ``python bench/bench_adjudicate.py [RUNS]``.
The round (bench/data) has a Westeros phase, orders for five houses, raids, marches, two battles
and consolidations; adjudicate writes the next state, the report and the log. The floors and the
commands run in turns (bench/_common.py). Targets (issue 33), against the ``run`` floor (the
imports a run makes): adjudicate <= 1.3 x, validate and status <= 1.2 x.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    AGOT,
    FLOORS,
    ROOT,
    adjudicate_cmd,
    child_env,
    load,
    paired_times,
    print_times,
    round_files,
)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        work = Path(tmp)
        env = child_env(work / "pycache")
        files = round_files(work)
        game = work / "demo"
        shutil.copytree(ROOT / "scenarios" / "games" / "demo", game)
        shutil.rmtree(game / "round-11")  # round 10 is then the current round, all orders sent
        print(f"runs: {runs} (median, after a warm-up turn, paired); {load()}")
        cmds = {**FLOORS,
                "adjudicate": adjudicate_cmd(files, work),
                "validate": [*AGOT, "validate", str(files["state"]), str(files["orders"])],
                "status": [*AGOT, "status", "--game", str(game), "--now", "2026-12-01T00:00:00Z"]}
        times = paired_times(cmds, runs, env)
        floors = {name: times[name] for name in FLOORS}
        for name, note, target in (("adjudicate", "full round, 3 outputs", 1.3),
                                   ("validate", "the round's two files", 1.2),
                                   ("status", "the demo game", 1.2)):
            print()
            print_times(f"agot {name}", note, *times[name], floors, target)
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
