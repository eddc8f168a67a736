"""Benchmark: two checkouts of agot, every command in the same turns (before and after a change).

Not a test (pytest does not collect bench/). Run:
``python bench/bench_compare.py BEFORE_CHECKOUT [RUNS]`` (e.g. a ``git worktree`` or an
unpacked ``git archive`` of main). This checkout is "after". Each turn runs the floors (``run``,
``deps``), the replay's limit (bench/bench_limit.py), and for each checkout ``agot replay`` and
``agot site --no-png`` of its own demo, ``agot adjudicate`` and ``agot validate`` of the bench
round and ``agot status`` of its demo's round 10 (round-11 removed: all orders sent, not run);
medians after a warm-up turn (bench/_common.py), with each command's ratio to the ``run``
floor, ``deps`` and the limit, and site / replay for each checkout.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import FLOORS, PY, ROOT, child_env, load, paired_times, round_files


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit("usage: python bench/bench_compare.py BEFORE_CHECKOUT [RUNS]")
    trees = {"before": Path(sys.argv[1]).resolve(), "after": ROOT}
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        work = Path(tmp)
        env = child_env(work / "pycache")
        env.pop("PYTHONPATH", None)  # each command runs in its own checkout
        files = round_files(work)
        cmds = {"run": FLOORS["run"], "deps": FLOORS["deps"],
                "limit": [PY, str(ROOT / "bench" / "bench_limit.py"), "--child"]}
        for name, root in trees.items():
            game = work / f"game-{name}"
            shutil.copytree(root / "scenarios" / "games" / "demo", game)
            shutil.rmtree(game / "round-11")

            def agot(args: str, root: Path = root) -> list[str]:
                return ["sh", "-c", f"cd '{root}' && PYTHONPATH=. exec '{PY}' -m "
                                    f"agot_adjudicator {args}"]

            cmds[f"replay {name}"] = agot("replay scenarios/games/demo")
            cmds[f"site {name}"] = agot(f"site --game scenarios/games/demo --no-png "
                                        f"-o '{work}/site-{name}'")
            cmds[f"adjudicate {name}"] = agot(
                f"adjudicate '{files['state']}' '{files['orders']}' --defaults "
                f"-o '{work}/next-{name}.yaml' --report '{work}/report-{name}.md' "
                f"--log '{work}/log-{name}.jsonl'")
            cmds[f"validate {name}"] = agot(f"validate '{files['state']}' '{files['orders']}'")
            cmds[f"status {name}"] = agot(f"status --game '{game}' --now 2026-12-01T00:00:00Z")
        print(f"runs: {runs} (median, after a warm-up turn, paired); {load()}")
        times = paired_times(cmds, runs, env)
        print(f"after load: {load()}")
    (fw, fc), (dw, dc), (lw, lc) = times["run"], times["deps"], times["limit"]
    print("                       wall ms   cpu ms    / run (wall cpu)  / deps        / limit")
    for name, (wall, cpu) in times.items():
        print(f"{name:20s} {wall * 1000:8.1f} {cpu * 1000:8.1f}   {wall / fw:6.2f} {cpu / fc:5.2f}"
              f"   {wall / dw:6.2f} {cpu / dc:5.2f}   {wall / lw:6.2f} {cpu / lc:5.2f}")
    for name in trees:
        (rw, rc), (sw, sc) = times[f"replay {name}"], times[f"site {name}"]
        print(f"site / replay, {name}: wall {sw / rw:.2f}, cpu {sc / rc:.2f}  (target <= 1.2)")


if __name__ == "__main__":
    main()
