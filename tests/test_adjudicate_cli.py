"""`agot adjudicate`: the re-run protocol (docs/protocol.md P1), exit codes, outputs, determinism."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from agot_adjudicator.cli import main

DATA = Path(__file__).resolve().parent / "data" / "round1"


@pytest.fixture
def game(runner, tmp_path: Path) -> Path:
    state = tmp_path / "state.yaml"
    assert runner.invoke(main, ["new", "--seed", "1", "-o", str(state)]).exit_code == 0
    (tmp_path / "orders.yaml").write_text((DATA / "orders.yaml").read_text())
    return tmp_path


def _run(runner, d: Path, *extra: str):
    return runner.invoke(main, ["adjudicate", str(d / "state.yaml"), str(d / "orders.yaml"),
                                *extra, "-o", str(d / "next.yaml"), "--report",
                                str(d / "report.md"), "--log", str(d / "log.jsonl")])


def test_missing_raven_answer_stops_with_exit_3_and_writes_no_state(runner, game):
    result = _run(runner, game)
    assert result.exit_code == 3, result.output
    assert "id: r1/raven/lannister" in result.stdout
    assert "answers:" in result.stdout
    assert not (game / "next.yaml").exists()
    assert "Stopped: decisions pending" in (game / "report.md").read_text()


def test_rerun_with_answer_reproduces_events_and_completes(runner, game):
    _run(runner, game)
    stopped = (game / "log.jsonl").read_text().splitlines()
    (game / "answers.yaml").write_text(
        "format: agot-orders/1\nround: 1\nanswers:\n  r1/raven/lannister: null\n")
    result = _run(runner, game, str(game / "answers.yaml"))
    assert result.exit_code == 0, result.output
    full = (game / "log.jsonl").read_text().splitlines()
    assert full[:len(stopped)] == stopped
    nxt = YAML(typ="safe").load((game / "next.yaml").read_text())
    assert nxt["round"] == 2 and nxt["phase"] == "westeros"
    assert nxt["areas"]["winterfell"] == {"power_token": "stark"}


def test_nmr_applies_the_default_and_logs_it(runner, game):
    result = _run(runner, game, "--nmr", "lannister")
    assert result.exit_code == 0, result.output
    log = (game / "log.jsonl").read_text()
    assert '"type":"default_applied"' in log and "r1/raven/lannister" in log


def test_answer_never_asked_is_an_error(runner, game):
    (game / "answers.yaml").write_text(
        "format: agot-orders/1\nround: 1\nanswers:\n  r1/raven/lannister: null\n"
        "  r1/raid@winterfel/stark: []\n")
    result = _run(runner, game, str(game / "answers.yaml"))
    assert result.exit_code == 1
    assert "answers.yaml:5:28: $.answers[\"r1/raid@winterfel/stark\"]" in result.stderr
    assert "no area 'winterfel' on the board (did you mean 'winterfell'?)" in result.stderr
    assert not (game / "next.yaml").exists()


def test_answer_never_asked_is_an_error_on_a_complete_run(runner, game):
    (game / "answers.yaml").write_text(
        "format: agot-orders/1\nround: 1\nanswers:\n  r1/raven/lannister: null\n"
        "  r1/raid@winterfell/stark: []\n")
    result = _run(runner, game, str(game / "answers.yaml"))
    assert result.exit_code == 1
    assert "never asked" in result.stderr
    assert not (game / "next.yaml").exists()


@pytest.mark.parametrize(("answer_id", "message"), [
    ("r2/raven/lannister", "decision ids of this round start with r1/"),
    ("r1/raven/lanister", "a decision id ends with the deciding house (did you mean 'lannister'?)"),
    ("r1/raids/next@winterfell+pyk/stark", "no area 'pyk' on the board (did you mean 'pyke'?)"),
])
def test_answer_ids_are_checked_even_when_the_run_stops(runner, game, answer_id, message):
    (game / "answers.yaml").write_text(
        f"format: agot-orders/1\nround: 1\nanswers:\n  {answer_id}: null\n")
    result = _run(runner, game, str(game / "answers.yaml"))
    assert result.exit_code == 1, result.output
    assert message in result.stderr


def test_illegal_answer_names_its_location_and_options(runner, game):
    (game / "answers.yaml").write_text(
        "format: agot-orders/1\nround: 1\nanswers:\n  r1/raven/lannister: {area: pyke, order: raid}\n")
    result = _run(runner, game, str(game / "answers.yaml"))
    assert result.exit_code == 1
    assert "answers.yaml:4:23:" in result.stderr and "lannister has no order in pyke" in result.stderr


def test_output_over_an_input_is_refused(runner, game):
    result = runner.invoke(main, ["adjudicate", str(game / "state.yaml"), str(game / "orders.yaml"),
                                  "-o", str(game / "state.yaml")])
    assert result.exit_code == 2
    assert "refusing to write" in result.stderr


def test_westeros_phase_order_without_units_validate_warns_and_adjudicate_asks(runner, tmp_path):
    """R4.4: orders sent before the Westeros phase are checked after its cards; `validate` and
    `adjudicate` agree (one check, workflow.validate.house_problems): a warning, not exit 1,
    and the run asks for the orders again with the reason."""
    state = tmp_path / "state.yaml"
    assert runner.invoke(main, ["new", "--seed", "1", "-o", str(state)]).exit_code == 0
    data = YAML(typ="safe").load(state.read_text())
    data["round"], data["phase"] = 2, "westeros"
    with state.open("w") as f:
        YAML().dump(data, f)
    orders = tmp_path / "stark.yaml"
    orders.write_text("format: agot-orders/1\nround: 2\nhouse: stark\n"
                      "orders: {winterfell: march_0, karhold: raid}\n")
    checked = runner.invoke(main, ["validate", str(state), str(orders)])
    assert checked.exit_code == 0, checked.output
    assert ("stark has no units in karhold (no units there); orders go only where the house "
            "has units (R4.1) (now, before the Westeros phase; if it still does not fit after "
            "the cards, these orders are asked again, R4.4)") in checked.stderr
    run = runner.invoke(main, ["adjudicate", str(state), str(orders), "-o",
                               str(tmp_path / "next.yaml")])
    assert run.exit_code == 3, run.output
    assert "id: r2/orders/stark" in run.stdout
    assert "stark has no units in karhold" in run.stdout
