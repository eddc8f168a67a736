"""Shared helpers for the benchmarks: the child environment, the floors, the round's input files.

The floors (all measured the same way as the command they are compared with):

- ``interpreter``: ``python -c pass`` — interpreter start, ``site`` and its ``.pth`` files;
- ``run`` (**the** import floor of the targets, issue 33): ``python -c "import click, yaml,
  fastjsonschema, tabulate, wcwidth"`` — the libraries a run really imports (ruamel.yaml and
  jsonschema are imported only for a file a run refuses);
- ``deps`` (kept for the history of bench/README.md): ``python -c "import click, ruamel.yaml,
  jsonschema, tabulate"`` — the bare import floor issue 3 defined, 1.3–1.5 x ``run``;
- ``package``: ``python -c "import agot_adjudicator"``, the bare interpreter plus our (empty)
  package import — a stricter figure, printed for comparison;
- ``cli``: ``python -m agot_adjudicator --version`` — click parses the command line, no work.

Children run in this checkout's root (``python -m`` puts the working directory first on the
path) with bytecode caching on (``PYTHONPYCACHEPREFIX`` in a temporary folder, after one
warm-up run), as an installed package has its ``.pyc`` files: without it every run recompiles
our ~40 modules, which is not what a user measures.

Every figure is paired (issue 33): the commands of one benchmark run in turns — one run of each,
then the next turn — after a warm-up turn, so a change of the machine's load touches all of them
alike; the ratios divide medians measured in the same turns.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
PY = sys.executable
AGOT = [PY, "-m", "agot_adjudicator"]

FLOORS = {
    "run": [PY, "-c", "import click, yaml, fastjsonschema, tabulate, wcwidth"],
    "interpreter": [PY, "-c", "pass"],
    "package": [PY, "-c", "import agot_adjudicator"],
    "cli": [*AGOT, "--version"],
    "deps": [PY, "-c", "import click, ruamel.yaml, jsonschema, tabulate"],
}


def child_env(cache_dir: Path) -> dict[str, str]:
    """The environment of the measured processes: this checkout first on the path, pyc cached."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache_dir)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_times(cmd: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of ``cmd`` over ``runs`` runs, after a
    warm-up run. CPU time is the steadier figure on a shared machine."""
    walls, cpus = [], []
    for i in range(runs + 1):
        cpu, start = _children_cpu(), time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, env=env, cwd=ROOT)
        elapsed, used = time.perf_counter() - start, _children_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr.decode()}")
        if i:
            walls.append(elapsed)
            cpus.append(used)
    return statistics.median(walls), statistics.median(cpus)


def paired_times(cmds: dict[str, list[str]], runs: int,
                 env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Median wall and CPU time of each command, measured in turns: a warm-up turn, then ``runs``
    turns each running every command once (in order), so the commands share the machine's load."""
    walls: dict[str, list[float]] = {name: [] for name in cmds}
    cpus: dict[str, list[float]] = {name: [] for name in cmds}
    for turn in range(runs + 1):
        for name, cmd in cmds.items():
            cpu, start = _children_cpu(), time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, env=env, cwd=ROOT)
            elapsed, used = time.perf_counter() - start, _children_cpu() - cpu
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}:\n"
                                 f"{done.stderr.decode()}")
            if turn:
                walls[name].append(elapsed)
                cpus[name].append(used)
    return {name: (statistics.median(walls[name]), statistics.median(cpus[name]))
            for name in cmds}


def median_seconds(cmd: list[str], runs: int, env: dict[str, str]) -> float:
    """Median wall time of ``cmd`` over ``runs`` runs (after one warm-up run)."""
    return median_times(cmd, runs, env)[0]


def round_files(work: Path) -> dict[str, Path]:
    """Copy the benchmark round (bench/data: a 5-player state, orders with battles) into ``work``."""
    out = {}
    for name in ("state.yaml", "orders.yaml"):
        shutil.copy(DATA / name, work / name)
        out[name.removesuffix(".yaml")] = work / name
    return out


def adjudicate_cmd(files: dict[str, Path], work: Path) -> list[str]:
    """``agot adjudicate`` of the benchmark round with every output (state, report, log)."""
    return [*AGOT, "adjudicate", str(files["state"]), str(files["orders"]), "--defaults",
            "-o", str(work / "next.yaml"), "--report", str(work / "report.md"),
            "--log", str(work / "log.jsonl")]


def load() -> str:
    """The machine's load averages, to judge how quiet the measurement was."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def print_times(label: str, note: str, wall: float, cpu: float,
                floors: dict[str, tuple[float, float]], target: float) -> None:
    """The floors, the command's medians and its ratios; the target applies to the ``run``
    floor (the imports a run makes); ``deps`` is issue 3's floor, kept for the history."""
    print("                     wall ms   cpu ms")
    for name, (w, c) in floors.items():
        print(f"floor {name:12s} {w * 1000:8.1f} {c * 1000:8.1f}   {' '.join(FLOORS[name][1:])}")
    print(f"{label:18s} {wall * 1000:8.1f} {cpu * 1000:8.1f}   ({note})")
    for name, (w, c) in floors.items():
        mark = f"  (target <= {target:g})" if name == "run" else ""
        print(f"ratio to {name:9s} {wall / w:8.2f} {cpu / c:8.2f}{mark}")
