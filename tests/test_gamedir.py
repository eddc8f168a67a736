"""Game directories, `agot replay`, `agot whatif`, `agot reveal` and the hash chain (docs/protocol.md P4)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from tamper import changed, leaves

from agot_adjudicator.cli import main
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.workflow.replay import replay_game

DATA = Path(__file__).resolve().parent / "data" / "round1"
RAVEN = "format: agot-orders/1\nround: 1\nanswers:\n  r1/raven/lannister: null\n"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """A three-round record: round 1 from orders + an answer, rounds 2 and 3 by --defaults."""
    from click.testing import CliRunner

    runner = CliRunner()
    game = tmp_path_factory.mktemp("rec") / "game"
    assert runner.invoke(main, ["new", "--seed", "1", "--game", str(game)]).exit_code == 0
    orders = game / "round-01" / "orders"
    shutil.copy(DATA / "orders.yaml", orders / "orders.yaml")
    (orders / "answers.yaml").write_text(RAVEN)
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 0
    for _ in range(2):
        result = runner.invoke(main, ["adjudicate", "--game", str(game), "--defaults"])
        assert result.exit_code == 0, result.output
    return game


@pytest.fixture
def game(recorded, tmp_path) -> Path:
    copy = tmp_path / "game"
    shutil.copytree(recorded, copy)
    return copy


def test_new_game_dir_layout(game):
    assert sorted(p.name for p in game.iterdir()) == [".agot.lock", "players.yaml", "round-01",
                                                      "round-02", "round-03", "round-04",
                                                      "rulesets"]
    kept = [p.name for p in (game / "rulesets").iterdir()]
    assert kept == [load_ruleset().sha256]
    first = game / "round-01"
    assert {p.name for p in first.iterdir()} == {"state.yaml", "orders", "report.md", "log.jsonl",
                                                 "board.svg", "moves.svg", "mail",
                                                 "decisions.yaml"}
    assert not (game / "round-04" / "report.md").exists()


def test_next_state_carries_the_hash_chain(game):
    nxt = YAML(typ="safe").load((game / "round-02" / "state.yaml").read_text())
    first = game / "round-01"
    assert nxt["chain"]["previous_state"] == hashlib.sha256(
        (first / "state.yaml").read_bytes()).hexdigest()
    assert nxt["chain"]["submissions"] == [
        {"file": name, "sha256": hashlib.sha256((first / "orders" / name).read_bytes()).hexdigest()}
        for name in ("answers.yaml", "orders.yaml")]
    assert "options" not in nxt["chain"]
    assert nxt["chain"]["decisions"] == {"file": "decisions.yaml", "sha256": hashlib.sha256(
        (first / "decisions.yaml").read_bytes()).hexdigest()}
    # --defaults is recorded per decision in the round's ledger, not as a run option (RUL-P2-2)
    third = YAML(typ="safe").load((game / "round-03" / "state.yaml").read_text())
    assert "options" not in third["chain"]
    ledger = YAML(typ="safe").load((game / "round-02" / "decisions.yaml").read_text())
    assert {d["id"] for d in ledger["decisions"] if d["by"] == "default"} >= {
        "r2/orders/stark", "r2/orders/lannister", "r2/orders/baratheon"}
    report = (first / "report.md").read_text()
    out_digest = hashlib.sha256((game / "round-02" / "state.yaml").read_bytes()).hexdigest()
    assert f"state out: sha256 `{out_digest}`" in report


def test_replay_of_an_untouched_record_exits_0(runner, game):
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 0, result.output
    assert "the record is consistent" in result.stdout
    assert "round-04" in result.stdout and "pending" in result.stdout


def _edit(path: Path, change) -> None:
    yaml = YAML()
    data = yaml.load(path.read_text())
    change(data)
    with path.open("w") as handle:
        yaml.dump(data, handle)


@pytest.mark.parametrize(("where", "change", "expect"), [
    ("round-01/orders/orders.yaml",
     lambda d: d["houses"]["stark"]["orders"].update(white_harbor="defense_plus1"),
     ["round-01: MISMATCH", "orders.yaml changed after"]),
    ("round-01/orders/answers.yaml", lambda d: d["answers"].update({"r1/raven/lannister": None,
                                                                     "r1/raven/stark": None}),
     ["round-01: MISMATCH"]),
    ("round-02/state.yaml", lambda d: d["houses"]["stark"].update(power=d["houses"]["stark"]["power"] + 1),
     ["round-01: MISMATCH", "round-02/state.yaml is not what adjudicating round-01 gives",
      "round-02: MISMATCH", "round-02/state.yaml changed after"]),
    ("round-01/state.yaml", lambda d: d["game"].update(seed=2),
     ["round-01 (start): MISMATCH", "round-01/state.yaml changed after"]),
    ("round-04/state.yaml", lambda d: d.update(wildling_threat=d["wildling_threat"] + 2),
     ["round-03: MISMATCH"]),
])
def test_a_changed_value_is_named(runner, game, where, change, expect):
    _edit(game / where, change)
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 4, result.output
    for text in expect:
        assert text in result.stdout


def test_a_changed_report_is_named(runner, game):
    report = game / "round-02" / "report.md"
    report.write_text(report.read_text().replace("round 2", "round two", 1))
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 4
    assert "round-02/report.md differs" in result.stdout


def test_a_removed_submission_is_named(runner, game):
    (game / "round-01" / "orders" / "answers.yaml").unlink()
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 4
    assert "leave decisions pending: r1/raven/lannister" in result.stdout


@pytest.mark.parametrize("where", ["round-01/state.yaml", "round-02/state.yaml",
                                   "round-03/state.yaml", "round-04/state.yaml",
                                   "round-01/orders/orders.yaml"])
def test_every_single_value_change_is_caught(game, ruleset, tmp_path, where):
    """Change one scalar at a time (ten leaves spread over the file) in a recorded file:
    replay must fail."""
    path = game / where
    original = path.read_text()
    scalars = list(leaves(YAML(typ="safe").load(original)))
    assert scalars
    for path_in_doc, value in scalars[::max(1, len(scalars) // 10)]:
        def change(data, p=path_in_doc, v=value):
            node = data
            for key in p[:-1]:
                node = node[key]
            node[p[-1]] = changed(v)
        _edit(path, change)
        outcome = replay_game(str(game), ruleset)
        assert not outcome.ok, f"{where}: changing {'.'.join(map(str, path_in_doc))} went unnoticed"
        path.write_text(original)
    assert replay_game(str(game), ruleset).ok


def test_adjudicate_game_pending_then_complete(runner, tmp_path):
    game = tmp_path / "g"
    assert runner.invoke(main, ["new", "--seed", "1", "--game", str(game)]).exit_code == 0
    shutil.copy(DATA / "orders.yaml", game / "round-01" / "orders" / "orders.yaml")
    result = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 3
    pending = game / "round-01" / "pending.yaml"
    assert "r1/raven/lannister" in pending.read_text()
    assert not (game / "round-02").exists()
    (game / "round-01" / "orders" / "answers.yaml").write_text(RAVEN)
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 0
    assert not pending.exists()
    assert (game / "round-02" / "state.yaml").exists()


@pytest.mark.parametrize("args", [["adjudicate", "--game", "{g}", "x.yaml"],
                                  ["adjudicate", "--game", "{g}", "-o", "n.yaml"],
                                  ["adjudicate"],
                                  ["new", "--seed", "1"],
                                  ["new", "--seed", "1", "--game", "{g}"],
                                  ["replay", "{g}/round-01"]])
def test_game_dir_usage_errors(runner, game, args):
    result = runner.invoke(main, [a.replace("{g}", str(game)) for a in args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_gap_in_round_folders_is_a_usage_error(runner, game):
    shutil.rmtree(game / "round-02")
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 2
    assert "round-02 is missing" in result.stderr


def test_whatif_same_and_different(runner, game, tmp_path):
    first = game / "round-01"
    args = ["whatif", str(first / "state.yaml"), str(first / "orders" / "orders.yaml"),
            str(first / "orders" / "answers.yaml"), "--published", str(game / "round-02" / "state.yaml")]
    same = runner.invoke(main, args)
    assert same.exit_code == 0, same.output
    assert "no difference" in same.stdout
    late = tmp_path / "orders.yaml"
    late.write_text((first / "orders" / "orders.yaml").read_text().replace(
        "white_harbor: support", "white_harbor: defense_plus1"))
    args[2] = str(late)
    differ = runner.invoke(main, [*args, "-o", str(tmp_path / "alt.yaml")])
    assert differ.exit_code == 4, differ.output
    assert "what differs" in differ.stdout
    assert (tmp_path / "alt.yaml").exists()


def test_reveal_refuses_before_the_end(runner, game):
    state = str(game / "round-02" / "state.yaml")
    refused = runner.invoke(main, ["reveal", state])
    assert refused.exit_code == 2 and "has not ended" in refused.stderr
    shown = runner.invoke(main, ["reveal", state, "--force"])
    assert shown.exit_code == 0
    digest = hashlib.sha256(b"agot-seed:game-e1f12bcb:1").hexdigest()
    assert "seed: 1" in shown.stdout and digest in shown.stdout
