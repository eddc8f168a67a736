"""Benchmark: the physical limit of ``agot replay`` of the demo, paired with the replay itself.

Not a test (pytest does not collect bench/). Run: ``python bench/bench_limit.py [RUNS]``.

The limit (issue 33) is what a replay cannot do without, in one process: read and SHA-256 every
recorded file of ``scenarios/games/demo``, parse each YAML file with PyYAML's C loader, import
the engine, resolve the ten rounds from the recorded states and submissions, and compare each
result with the recorded next state as data (not as text: no writer, no report, no picture).
It runs as ``python bench/bench_limit.py --child`` in a fresh process, as a command does, in
turns with ``agot replay`` of the demo and the floors (bench/_common.py). Target: replay <= 2 x
the limit, and <= 3 x the ``run`` floor.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "scenarios" / "games" / "demo"


def limit() -> int:
    """The limit's work; returns the number of rounds that matched (all ten, or it fails)."""
    import hashlib
    import itertools

    import yaml

    digests, data = {}, {}
    for path in sorted(DEMO.rglob("*")):
        if not path.is_file():
            continue
        raw = path.read_bytes()
        digests[path] = hashlib.sha256(raw).hexdigest()
        if path.suffix == ".yaml":
            data[path] = yaml.load(raw, Loader=yaml.CSafeLoader)

    from agot_adjudicator.engine.round import resolve
    from agot_adjudicator.io.reading import Document
    from agot_adjudicator.io.rulesets import load_ruleset
    from agot_adjudicator.io.submissions import collect
    from agot_adjudicator.model.state import GameState
    from agot_adjudicator.workflow.validate import engine_inputs

    ruleset = load_ruleset()
    matched = 0
    rounds = sorted(p for p in DEMO.iterdir() if p.name.startswith("round-"))
    for folder, following in itertools.pairwise(rounds):
        state = GameState.from_dict(data[folder / "state.yaml"])
        docs = [Document(str(p), data[p], digests[p])
                for p in sorted((folder / "orders").glob("*.yaml"))]
        subs, problems = collect(docs, state, ruleset)
        assert not problems, problems
        inputs, answers = engine_inputs(subs)
        result = resolve(ruleset, state, inputs, answers)
        expected = dict(data[following / "state.yaml"])
        got = result.state.to_dict(ruleset)
        for key in ("chain", "written_by"):  # the writer's and the chain's, not the engine's
            expected.pop(key, None)
            got.pop(key, None)
        assert result.status == "complete" and got == expected, folder.name
        matched += 1
    return matched


def main() -> None:
    sys.path.insert(0, str(HERE))
    from _common import AGOT, FLOORS, child_env, load, paired_times

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        env = child_env(Path(tmp) / "pycache")
        print(f"runs: {runs} (median, after a warm-up turn, paired); {load()}")
        cmds = {"run": FLOORS["run"], "deps": FLOORS["deps"],
                "limit": [sys.executable, str(Path(__file__).resolve()), "--child"],
                "replay": [*AGOT, "replay", str(DEMO)]}
        times = paired_times(cmds, runs, env)
    print("                     wall ms   cpu ms")
    for name, (wall, cpu) in times.items():
        print(f"{name:18s} {wall * 1000:8.1f} {cpu * 1000:8.1f}")
    (rw, rc), (lw, lc), (fw, fc) = times["replay"], times["limit"], times["run"]
    print(f"limit / run floor  {lw / fw:8.2f} {lc / fc:8.2f}")
    print(f"replay / limit     {rw / lw:8.2f} {rc / lc:8.2f}   (target <= 2)")
    print(f"replay / run floor {rw / fw:8.2f} {rc / fc:8.2f}   (target <= 3)")
    print(f"replay / deps      {rw / times['deps'][0]:8.2f} {rc / times['deps'][1]:8.2f}   "
          "(issue 3's floor, for the history)")
    print(f"after load: {load()}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        sys.path.insert(0, str(HERE.parent))
        print(limit(), "rounds")
    else:
        main()
