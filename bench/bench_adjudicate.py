"""Benchmark: median wall time of ``agot adjudicate`` on a full 5-player round, against the floors.

Not a test (pytest does not collect bench/). Run: ``python bench/bench_adjudicate.py [RUNS]``.
The round (bench/data) has a Westeros phase, orders for five houses, raids, marches, two battles
and consolidations; it writes the next state, the report and the log. The ratio's floor is the
``python -c "import click, ruamel.yaml, jsonschema, tabulate"`` (issue 3's bare import floor;
see bench/_common.py for every floor).
Target: adjudicate <= 1.5 x floor.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import FLOORS, adjudicate_cmd, child_env, load, median_times, print_times, round_files


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        work = Path(tmp)
        env = child_env(work / "pycache")
        files = round_files(work)
        print(f"runs: {runs} (median, after a warm-up run); {load()}")
        floors = {name: median_times(cmd, runs, env) for name, cmd in FLOORS.items()}
        wall, cpu = median_times(adjudicate_cmd(files, work), runs, env)
        print_times("agot adjudicate", "full round, 3 outputs", wall, cpu, floors, 1.5)
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
