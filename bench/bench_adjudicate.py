"""Benchmark: median wall time of `agot adjudicate` on a full 5-player round vs the import floor.

Not a test (pytest does not collect bench/). Run: ``python bench/bench_adjudicate.py [N]``.
Prints the floor (``python -c "import click, ruamel.yaml, jsonschema, tabulate"``), the
adjudicate median, and their ratio (target ≤ 1.5).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDERS = ROOT / "tests" / "data" / "round1" / "orders.yaml"
ANSWERS = "format: agot-orders/1\nround: 1\nanswers:\n  r1/raven/lannister: null\n"


def median_seconds(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    work = Path(tempfile.mkdtemp(prefix="agot-bench-"))
    try:
        agot = [sys.executable, "-m", "agot_adjudicator"]
        subprocess.run([*agot, "new", "--seed", "1", "-o", str(work / "s.yaml")], check=True,
                       capture_output=True)
        shutil.copy(ORDERS, work / "o.yaml")
        (work / "a.yaml").write_text(ANSWERS)
        floor = median_seconds([sys.executable, "-c",
                                "import click, ruamel.yaml, jsonschema, tabulate"], runs)
        adjudicate = median_seconds([*agot, "adjudicate", str(work / "s.yaml"), str(work / "o.yaml"),
                                     str(work / "a.yaml"), "-o", str(work / "n.yaml"), "--report",
                                     str(work / "r.md"), "--log", str(work / "l.jsonl")], runs)
        print(f"runs: {runs}")
        print(f"import floor:            {floor * 1000:8.1f} ms")
        print(f"agot adjudicate (round): {adjudicate * 1000:8.1f} ms")
        print(f"ratio:                   {adjudicate / floor:8.2f}  (target <= 1.5)")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
