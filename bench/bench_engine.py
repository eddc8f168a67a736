"""Benchmark: engine rounds per second as a library (no files, no CLI), next to the import floor.

Not a test. Run: ``python bench/bench_engine.py [SECONDS]``. Loads the benchmark round once
(bench/data), then calls ``engine.round.resolve`` on it repeatedly for about SECONDS seconds
(default 5) and prints rounds per second. Target: >= 200 rounds/s. For scale it prints one
round's engine time as a ratio of the import floor (bare interpreter + ``import agot_adjudicator``).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import DATA, FLOORS, child_env, load, median_seconds

from agot_adjudicator.engine.round import resolve
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.io.submissions import collect
from agot_adjudicator.workflow.adjudicate import engine_inputs
from agot_adjudicator.workflow.validate import load_state, load_submissions


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    ruleset = load_ruleset()
    _, state = load_state(str(DATA / "state.yaml"), ruleset)
    docs = load_submissions([str(DATA / "orders.yaml")])
    subs, problems = collect(docs, state, ruleset)
    assert not problems, problems
    inputs, answers = engine_inputs(subs)
    first = resolve(ruleset, state, inputs, answers, defaults=True)
    assert first.status == "complete", first.status
    rounds, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < budget:
        result = resolve(ruleset, state, inputs, answers, defaults=True)
        rounds += 1
    assert result.state.to_dict(ruleset) == first.state.to_dict(ruleset), "not deterministic"
    per_second = rounds / elapsed
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        floor = median_seconds(FLOORS["package"], 7, child_env(Path(tmp)))
    print(f"{load()}")
    print(f"engine: {rounds} rounds in {elapsed:.2f} s = {per_second:8.1f} rounds/s  (target >= 200); "
          f"{len(first.events)} events a round")
    print(f"one round: {1000 / per_second:.2f} ms = {1 / per_second / floor:.4f} x the import floor "
          f"({floor * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
