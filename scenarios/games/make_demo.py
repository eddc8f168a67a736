"""Play a new demo game (``scenarios/games/demo``) through the moderator's workflow.

    python scenarios/games/make_demo.py [--seed 1] [--out scenarios/games/demo]

This makes a new game: every file of the demo may change, the players' submissions included.
After a change of wording, layout or pictures, run ``python scenarios/regenerate.py`` instead:
it re-renders the recorded game from its recorded submissions and changes only what the change
changes. Play a new demo only when the recorded submissions no longer complete a round (the
regeneration then says so) or when the demo should show something it does not.

What a PBEM moderator does each round, with random but legal players
(:class:`agot_adjudicator.workflow.autoplay.RandomPlayer`) in place of the people:

1. every house mails a submission (orders, bids, plans) — written to
   ``round-NN/orders/HOUSE.yaml``;
2. the moderator runs ``agot adjudicate --game DIR``; while it stops (exit 3)
   the houses answer the pending decisions, which the moderator pastes into
   ``round-NN/orders/answers.yaml``, and runs it again;
3. when the round completes, ``round-(NN+1)/state.yaml``, the report, the log
   and the pictures (board.svg, moves.svg) are written, and the next round starts;
4. the round's mail (``round-NN/mail/``: report.txt, and HOUSE.txt and HOUSE.eml for each
   house) is written with it. The demo keeps the texts and leaves the ``.eml`` files out: each
   is its house's text with board.svg attached (about 120 KB), and replay checks the mail
   files that are present (docs/formats.md, *Mail*).

The game is played to its end (R2.2, R11). ``agot replay DIR`` must then exit 0;
the test suite replays the committed directory. The script imports this checkout's package,
not an installed copy.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))  # this checkout's package, even after `pip install .`

from click.testing import CliRunner  # noqa: E402

from agot_adjudicator.cli.commands import main as agot  # noqa: E402
from agot_adjudicator.io.gamedir import current_round  # noqa: E402
from agot_adjudicator.io.rulesets import load_ruleset  # noqa: E402
from agot_adjudicator.io.writing import dump_yaml  # noqa: E402
from agot_adjudicator.workflow.adjudicate import adjudicate_game  # noqa: E402
from agot_adjudicator.workflow.autoplay import Driver  # noqa: E402
from agot_adjudicator.workflow.validate import load_state  # noqa: E402

MAX_RUNS = 60


def run_cli(*args: str) -> int:
    result = CliRunner(env={"LC_ALL": "C.UTF-8"}).invoke(agot, list(args))  # English
    if result.exit_code not in (0, 3):
        raise SystemExit(f"agot {' '.join(args)} failed ({result.exit_code}):\n{result.output}")
    return result.exit_code


def play(out: Path, seed: int) -> None:
    ruleset = load_ruleset()
    if out.exists():
        shutil.rmtree(out)
    run_cli("new", "--players", "5", "--seed", str(seed), "--game-id", "demo",
            "--game", str(out), "--no-secrets")  # a public demo: no house secrets
    driver = Driver(seed, 5, ruleset, nmr_rate=0.0, aggression=0.6)
    while True:
        rd = current_round(out)
        _, state = load_state(str(rd.state), ruleset)
        if state.phase == "ended":
            break
        for body in driver.submissions(state):
            text = dump_yaml(body, header=f"{body['house']}'s submission for round {state.round}")
            (rd.orders_dir / f"{body['house']}.yaml").write_text(text, encoding="utf-8")
        answers: dict[str, object] = {}
        for _ in range(MAX_RUNS):
            game = adjudicate_game(str(out), ruleset)
            result = game.run.result
            if result.status == "complete":
                break
            # every decision of the stop at once; bids asked together stay within the power
            answers.update(driver.player.answer_all(result.pending, result.state))
            text = dump_yaml({"format": "agot-orders/1", "round": state.round,
                              "answers": answers},
                             header="the moderator's answers file: decisions the houses mailed "
                                    "back after each stop")
            (rd.orders_dir / "answers.yaml").write_text(text, encoding="utf-8")
        else:
            raise SystemExit(f"{rd.name}: not complete after {MAX_RUNS} runs")
        run_cli("adjudicate", "--game", str(out))
        for eml in sorted((rd.path / "mail").glob("*.eml")):
            eml.unlink()  # the text plus board.svg: kept out of the repository (see above)
        print(f"{rd.name}: round {state.round} adjudicated, {len(answers)} answer(s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "demo")
    args = parser.parse_args(argv)
    play(args.out, args.seed)
    (args.out / ".agot.lock").unlink(missing_ok=True)  # the writers' lock: not part of the record
    return run_cli("replay", str(args.out))


if __name__ == "__main__":
    sys.exit(main())
