"""Fuzz the demo game: mutate its recorded files for N minutes and count the outcomes.

    python bench/fuzz_demo.py [MINUTES] [SEED]      # default 1 minute, seed 0

Not part of the test suite (it runs for minutes). Each run copies one round of
``scenarios/games/demo`` (its state, submissions, report, log and picture, and
the next round's state), changes one file, then runs one of:

- ``agot validate STATE ORDERS...``,
- ``agot adjudicate STATE ORDERS... -o NEXT --report R --log L`` (files mode),
- ``agot replay --custom-start GAME`` on the two-round copy.

Changes: a byte flipped, random bytes inserted, a line deleted or doubled, the
file cut short, invalid UTF-8, a YAML value replaced by an odd one (list, map,
boolean, null, huge or negative number, long or non-ASCII text, a nested
list), a key added. Runs happen in this process (click's test runner), each
under a 20-second alarm. Printed: runs per command and exit code, and the
failures that must stay at zero: a traceback, a hang (the alarm), files
written by a run that failed (exit 1/2), and a replay that accepted a
changed record (exit 0).
"""

from __future__ import annotations

import collections
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from agot_adjudicator.cli import main  # noqa: E402
from agot_adjudicator.io.reading import load_yaml  # noqa: E402

DEMO = ROOT / "scenarios" / "games" / "demo"
ODD: list[Any] = [[], {}, [["footman"]], {"a": [1]}, True, False, None, 10**40, -1, -(10**6),
                  "x" * 3000, "ünï", "<img src=x onerror=alert(1)>", 0, [None], [True],
                  {"moves": {"riverrun": [["footman"]]}}, 1.5, "", "raid", "winterfell"]


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def leaves(data: Any, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(leaves(value, (*path, key)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.extend(leaves(value, (*path, i)))
    return out


def set_at(data: Any, path: tuple, value: Any) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def mutate(path: Path, rng: random.Random) -> str:
    raw = path.read_bytes()
    kind = rng.choice(["flip", "insert", "delete_line", "double_line", "cut", "latin1",
                       "value", "value", "value", "key"])
    if kind in ("value", "key") and path.suffix == ".yaml":
        try:
            data = load_yaml(path).data
        except Exception:
            kind = "flip"
        else:
            if kind == "key":
                target = data
                spots = [p for p in leaves(data) if isinstance(_get(data, p), dict)]
                if spots:
                    target = _get(data, rng.choice(spots))
                target[rng.choice(["zzz", "moves", "answers", "r1/x/stark", "1"])] = \
                    rng.choice(ODD)
            else:
                spots = leaves(data)
                if spots:
                    set_at(data, rng.choice(spots), rng.choice(ODD))
            path.write_text(json.dumps(data, ensure_ascii=rng.random() < 0.5), encoding="utf-8")
            return kind
    if kind in ("value", "key"):
        kind = "flip"
    lines = raw.split(b"\n")
    if kind == "flip" and raw:
        i = rng.randrange(len(raw))
        raw = raw[:i] + bytes([raw[i] ^ (1 << rng.randrange(8))]) + raw[i + 1:]
    elif kind == "insert":
        i = rng.randrange(len(raw) + 1)
        raw = raw[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + raw[i:]
    elif kind == "delete_line" and lines:
        del lines[rng.randrange(len(lines))]
        raw = b"\n".join(lines)
    elif kind == "double_line" and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        raw = b"\n".join(lines)
    elif kind == "cut":
        raw = raw[:rng.randrange(len(raw) + 1)]
    elif kind == "latin1":
        raw = raw + "é".encode("latin-1")
    path.write_bytes(raw)
    return kind


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def copy_round(number: int, work: Path) -> Path:
    game = work / "game"
    shutil.copytree(DEMO / f"round-{number:02d}", game / "round-01")
    shutil.copytree(DEMO / f"round-{number + 1:02d}", game / "round-02")
    return game


def main_loop(minutes: float, seed: int) -> int:
    rng = random.Random(seed)
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    failures: list[str] = []
    signal.signal(signal.SIGALRM, _alarm)
    runner = CliRunner(env={"LC_ALL": "C.UTF-8"})  # English, as the demo is recorded
    end = time.monotonic() + minutes * 60
    runs = 0
    with tempfile.TemporaryDirectory(prefix="agot-fuzz-") as tmp:
        while time.monotonic() < end:
            runs += 1
            work = Path(tmp) / str(runs)
            game = copy_round(rng.randint(1, 9), work)
            rd = game / "round-01"
            command = rng.choice(["validate", "adjudicate", "adjudicate", "replay"])
            candidates = [rd / "state.yaml", *sorted((rd / "orders").glob("*.yaml"))]
            if command == "replay":
                candidates += [rd / "report.md", rd / "log.jsonl", rd / "board.svg",
                               game / "round-02" / "state.yaml"]
            target = rng.choice(candidates)
            before = target.read_bytes()
            change = mutate(target, rng)
            changed = target.read_bytes() != before
            orders = [str(p) for p in sorted((rd / "orders").glob("*.yaml"))]
            out = work / "out"
            if command == "validate":
                args = ["validate", str(rd / "state.yaml"), *orders]
            elif command == "adjudicate":
                out.mkdir()
                args = ["adjudicate", str(rd / "state.yaml"), *orders, "-o", str(out / "n.yaml"),
                        "--report", str(out / "r.md"), "--log", str(out / "l.jsonl")]
            else:
                args = ["replay", "--custom-start", str(game)]
            signal.alarm(20)
            try:
                result = runner.invoke(main, args, catch_exceptions=True)
                signal.alarm(0)
            except Hang:
                counts[(command, "HANG")] += 1
                failures.append(f"hang: {command} after {change} of {target.name}")
                continue
            if isinstance(result.exception, Hang):
                counts[(command, "HANG")] += 1
                failures.append(f"hang: {command} after {change} of {target.name}")
                continue
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                counts[(command, "TRACEBACK")] += 1
                failures.append(f"traceback: {command} after {change} of {target.name}: "
                                f"{type(result.exception).__name__}: {result.exception}"[:300])
                continue
            code = result.exit_code
            counts[(command, str(code))] += 1
            if command == "adjudicate" and code in (1, 2) and any(out.iterdir()):
                counts[(command, "WROTE ON ERROR")] += 1
                failures.append(f"wrote on error: {change} of {target.name}")
            if command == "replay" and code == 0 and changed:
                counts[(command, "ACCEPTED A CHANGE")] += 1
                failures.append(f"replay accepted: {change} of {target.relative_to(game)}")
            shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz_demo: {runs} runs in {minutes:g} min (seed {seed})")
    print(f"{'command':<12} {'outcome':<20} {'runs':>7}")
    for (command, outcome), n in sorted(counts.items()):
        print(f"{command:<12} {outcome:<20} {n:>7}")
    bad = sum(n for (c, o), n in counts.items() if not o.isdigit())
    print(f"failures (traceback, hang, wrote on error, accepted change): {bad}")
    for line in failures[:20]:
        print(f"  {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    sys.exit(main_loop(minutes, seed))
