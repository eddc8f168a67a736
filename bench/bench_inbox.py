"""Benchmark: ``agot inbox`` of 100 and of 1,000 messages — intake linear in messages (issue 33).

Not a test (pytest does not collect bench/). Run: ``python bench/bench_inbox.py [RUNS] [SMALL]``.
Makes a 3-player game (``agot new --players 3 --seed 7``) and SMALL (default 100) and 10 x SMALL
mail messages, the three houses in turn, each with its secret and orders for the first round
(two versions of each house's orders alternate, so every message changes the stored
submission), each message its own ``Date:`` and ``Message-ID``. Each turn copies the fresh game
twice and runs ``agot inbox --game COPY MBOX`` on the small mbox and on the large one (the
paired runs of bench/_common.py). Target: the large run <= 11 x the small one (linear: 10 x
the messages, plus the start-up once).
"""

from __future__ import annotations

import mailbox
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import AGOT, ROOT, _children_cpu, child_env, load

ORDERS = {  # two versions of each house's first orders (no special order: none is needed)
    house: (f"{a}: march_0\n{b}: support\n{sea}: defense_plus1\n",
            f"{a}: consolidate_power\n{b}: defense_plus1\n{sea}: support\n")
    for house, (a, b, sea) in {"stark": ("winterfell", "white_harbor", "the_shivering_sea"),
                               "lannister": ("lannisport", "stoney_sept", "the_golden_sound"),
                               "baratheon": ("dragonstone", "kingswood", "shipbreaker_bay")}.items()
}


def message(n: int, house: str, secret: str) -> EmailMessage:
    orders = ORDERS[house][(n // len(ORDERS)) % 2]
    body = (f"format: agot-orders/1\nround: 1\nhouse: {house}\nsecret: {secret}\norders:\n"
            + "".join(f"  {line}\n" for line in orders.splitlines()))
    msg = EmailMessage()
    msg["From"] = f"{house}@example.org"
    msg["To"] = "gm@example.org"
    msg["Subject"] = f"orders {n}"
    msg["Date"] = f"Tue, 01 Dec 2026 {n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d} +0000"
    msg["Message-ID"] = f"<bench-{n}@example.org>"
    msg.set_content(body)
    return msg


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    small = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        work = Path(tmp)
        env = child_env(work / "pycache")
        game, secrets_file = work / "game", work / "secrets.txt"
        subprocess.run([*AGOT, "new", "--players", "3", "--seed", "7", "--game", str(game),
                        "--secrets-out", str(secrets_file)], check=True, env=env, cwd=ROOT,
                       capture_output=True)
        secrets = dict(line.split(": ", 1) for line in secrets_file.read_text().splitlines()
                       if not line.startswith("#"))
        houses = sorted(ORDERS)
        boxes = {}
        for count in (small, 10 * small):
            path = work / f"{count}.mbox"
            box = mailbox.mbox(path)
            for n in range(count):
                house = houses[n % len(houses)]
                box.add(message(n, house, secrets[house]))
            box.flush()
            box.close()
            boxes[count] = path
        print(f"runs: {runs} (median, after a warm-up turn, paired); {load()}")
        times: dict[int, list[tuple[float, float]]] = {c: [] for c in boxes}
        verdicts = {}
        for turn in range(runs + 1):
            for count, box_path in boxes.items():
                copy = work / f"game-{count}"
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(game, copy)
                cmd = [*AGOT, "inbox", "--game", str(copy), "--received",
                       "2026-12-01T12:00:00Z", str(box_path)]
                cpu, start = _children_cpu(), time.perf_counter()
                done = subprocess.run(cmd, capture_output=True, env=env, cwd=ROOT, text=True)
                wall, used = time.perf_counter() - start, _children_cpu() - cpu
                if done.returncode not in (0, 1):
                    raise SystemExit(f"inbox exited {done.returncode}:\n{done.stderr}")
                verdicts[count] = (done.returncode, sum(
                    1 for line in (copy / "messages" / "index.jsonl").read_text().splitlines()
                    if '"verdict": "accepted"' in line))
                if turn:
                    times[count].append((wall, used))
        print("                     wall ms   cpu ms   per message (ms)")
        medians = {}
        for count, pairs in times.items():
            wall = statistics.median(w for w, _ in pairs)
            cpu = statistics.median(c for _, c in pairs)
            medians[count] = (wall, cpu)
            print(f"inbox {count:5d} messages {wall * 1000:8.0f} {cpu * 1000:8.0f}   "
                  f"{wall * 1000 / count:6.2f} {cpu * 1000 / count:6.2f}   "
                  f"(exit {verdicts[count][0]}, {verdicts[count][1]} accepted)")
        (sw, sc), (lw, lc) = medians[small], medians[10 * small]
        print(f"ratio {10 * small} / {small}      {lw / sw:8.2f} {lc / sc:8.2f}   (target <= 11)")
        print(f"after load: {load()}")


if __name__ == "__main__":
    main()
