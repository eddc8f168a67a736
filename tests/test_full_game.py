"""A complete 5-player game of 10 rounds through the command line (issue 5; docs/protocol.md P1–§3).

`agot new`, then every round: one submission file per house (orders, bids and
plans written before the round), `agot adjudicate` until it stops (exit 3,
pending YAML), the pending decisions answered in the moderator's answers file,
run again, until the round completes (exit 0) and the next state is written.
The random players of :mod:`autoplay` (tests/autoplay.py) choose; the CLI decides.
"""

from __future__ import annotations

import io
from pathlib import Path

from autoplay import Driver, state_violations
from ruamel.yaml import YAML

from agot_adjudicator.cli import main
from agot_adjudicator.io.reading import Document
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.workflow.adjudicate import adjudicate_docs
from agot_adjudicator.workflow.validate import load_state

SEED = 5
"""A seed whose game runs all 10 rounds (no instant win, R11.2) with the driver's players."""


def read_yaml(text: str):
    return YAML(typ="safe").load(io.StringIO(text))


def pending_ids(stdout: str) -> list[str]:
    return [p["id"] for p in read_yaml(stdout.split("\n# paste into")[0])["pending"]]


def test_five_player_game_of_ten_rounds_through_the_cli(runner, ruleset, tmp_path: Path):
    driver = Driver(SEED, 5, ruleset, plan_rate=0.7, nmr_rate=0.0)
    state_path = tmp_path / "round-01" / "state.yaml"
    state_path.parent.mkdir()
    new = runner.invoke(main, ["new", "--players", "5", "--seed", str(SEED), "-o", str(state_path)])
    assert new.exit_code == 0, new.output
    stops = answered = 0
    for round_ in range(1, ruleset.rounds + 1):
        _, state = load_state(str(state_path), ruleset)
        assert (state.round, state.phase) == (round_, "planning" if round_ == 1 else "westeros")
        folder = state_path.parent
        (folder / "orders").mkdir()
        orders, bodies = [], driver.submissions(state)
        for body in bodies:
            path = folder / "orders" / f"{body['house']}.yaml"
            path.write_text(dump_yaml(body))
            orders.append(str(path))
        state_doc = Document("state.yaml", state.to_dict(ruleset), "")
        answers_path = folder / "orders" / "answers.yaml"
        answers: dict = {}
        next_path = tmp_path / f"round-{round_ + 1:02d}" / "state.yaml"
        next_path.parent.mkdir()
        previous: dict = {}
        for _ in range(200):
            files = orders + ([str(answers_path)] if answers else [])
            run = runner.invoke(main, ["adjudicate", str(state_path), *files, "-o", str(next_path),
                                       "--report", str(folder / "report.md")])
            if run.exit_code == 0:
                break
            assert run.exit_code == 3, run.output
            assert not next_path.exists(), "a stopped run must not write the next state"
            stops += 1
            asked = pending_ids(run.stdout)
            # What the CLI printed is what the app layer reports for the same inputs; its
            # requests (with the state where the run stopped) let the players choose legally.
            docs = [Document(f"{i}", b, "") for i, b in enumerate(bodies)]
            if answers:
                docs.append(Document("answers", {"format": "agot-orders/1", "round": round_,
                                                 "answers": answers}, ""))
            stopped = adjudicate_docs(state_doc, docs, ruleset).result
            assert [p.request.id for p in stopped.pending] == asked
            # bids asked together (RUL-3.6-2) stay within each house's power together
            values = driver.player.answer_all(stopped.pending, stopped.state)
            for pd in stopped.pending:
                # An answered decision is resolved on the re-run, unless asked again with a reason.
                assert pd.request.id not in previous or pd.reason, pd.request.id
                answers[pd.request.id] = values[pd.request.id]
                answered += 1
            previous = dict(answers)
            answers_path.write_text(dump_yaml({"format": "agot-orders/1", "round": round_,
                                               "answers": answers}))
        else:
            raise AssertionError(f"round {round_} did not complete")
        assert "wrote" in run.output
        _, after = load_state(str(next_path), ruleset)
        assert state_violations(after, ruleset, complete=True) == []
        state_path = next_path
        if round_ < ruleset.rounds:
            assert (after.round, after.phase) == (round_ + 1, "westeros"), f"round {round_}"
    assert after.phase == "ended"
    assert after.winner and after.winner["houses"], "R11.1: the game ends with a winner"
    assert all(h in after.houses for h in after.winner["houses"])
    assert f"game over: {', '.join(after.winner['houses'])} won" in run.output
    assert stops > 10 and answered > 50
    # The finished game stays finished.
    again = runner.invoke(main, ["adjudicate", str(state_path), "-o", str(tmp_path / "after.yaml")])
    assert again.exit_code == 0, again.output
