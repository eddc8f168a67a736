"""How ``short/`` was recorded: a 3-player game played with agot 0.1.0's own command line.

    python play_short.py AGOT GAME_DIR ROUNDS STOPS

``AGOT`` is the ``agot`` executable of release 0.1.0 (commit 38bc169 in its own
virtual environment). Each round the moderator runs ``agot adjudicate --game``;
while it stops (exit 3) the answers block of ``pending.yaml`` (its examples and
defaults) is pasted into ``orders/answers.yaml`` and the run repeated. The last
round is left stopped after ``STOPS`` runs, with its ``pending.yaml``. Recorded
with ``play_short.py .../agot short 3 2``.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML


def run(agot: str, *args: str) -> int:
    done = subprocess.run([agot, *args], capture_output=True, text=True, check=False)
    print(" ".join(args), "->", done.returncode)
    return done.returncode


def paste_answers(round_dir: Path, number: int) -> None:
    """Add the pending file's answers block to the round's answers file."""
    safe = YAML(typ="safe")
    text = (round_dir / "pending.yaml").read_text()
    answers = safe.load(text[text.index("\nanswers:"):])["answers"]
    target = round_dir / "orders" / "answers.yaml"
    merged = safe.load(target.read_text())["answers"] if target.exists() else {}
    merged.update(answers)
    buffer = io.StringIO()
    YAML().dump({"format": "agot-orders/1", "round": number, "answers": merged}, buffer)
    target.write_text("# the moderator's answers file: pasted from pending.yaml\n"
                      + buffer.getvalue())


def main(agot: str, game: Path, rounds: int, last_stops: int) -> None:
    run(agot, "new", "--game", str(game), "--players", "3", "--seed", "2026",
        "--game-id", "short")
    for number in range(1, rounds + 1):
        round_dir = game / f"round-{number:02d}"
        stops = 0
        while run(agot, "adjudicate", "--game", str(game)) == 3:
            stops += 1
            if number == rounds and stops >= last_stops:
                return
            paste_answers(round_dir, number)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
