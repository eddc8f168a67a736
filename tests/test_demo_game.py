"""The shipped demo game (scenarios/games/demo): replayed in CI; any single changed value is caught.

The demo is five houses over ten rounds, played through `agot adjudicate --game`
with submissions and pasted answers (scenarios/games/make_demo.py), ending
with a winner (R11.1).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from recorded import REGENERATE
from ruamel.yaml import YAML
from tamper import changed, leaves

from agot_adjudicator.cli import main
from agot_adjudicator.io.gamedir import round_dirs
from agot_adjudicator.render.diff import explain_state_texts
from agot_adjudicator.workflow.replay import check_round, check_start, replay_game

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"


def test_demo_replays_and_ends_with_a_winner(runner):
    result = runner.invoke(main, ["replay", str(DEMO)])
    assert result.exit_code == 0, f"{REGENERATE}\n{result.output}"
    assert "the record is consistent" in result.stdout
    dirs = round_dirs(DEMO)
    assert len(dirs) == 11
    final = YAML(typ="safe").load((dirs[-1].path / "state.yaml").read_text())
    assert final["phase"] == "ended" and final["round"] == 10
    assert final["winner"]["houses"] and final["winner"]["reason"] == "most_castles"  # R11.1
    for rd in dirs[:-1]:
        assert {p.stem for p in rd.orders()} >= set(final["houses"]), rd.name
        assert (rd.path / "board.svg").is_file() and (rd.path / "report.md").is_file()
        assert (rd.path / "moves.svg").is_file()


@pytest.fixture
def demo(tmp_path) -> Path:
    copy = tmp_path / "demo"
    shutil.copytree(DEMO, copy)
    return copy


def _bump(path: Path, where: list, new) -> None:
    yaml = YAML()
    data = yaml.load(path.read_text())
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = new(node[where[-1]])
    with path.open("w") as handle:
        yaml.dump(data, handle)


@pytest.mark.parametrize(("file", "where", "new", "named"), [
    ("round-05/state.yaml", ["houses", "stark", "power"], lambda v: v + 1, "houses.stark.power"),
    ("round-07/state.yaml", ["wildling_threat"], lambda v: (v + 2) % 12, "wildling_threat"),
    ("round-03/orders/tyrell.yaml", ["round"], lambda v: v, None),
])
def test_a_changed_value_fails_replay_and_is_named(runner, demo, file, where, new, named):
    path = demo / file
    if named is None:  # a submission: append a harmless comment — its hash no longer matches
        path.write_text(path.read_text() + "# edited after the fact\n")
    else:
        _bump(path, where, new)
    result = runner.invoke(main, ["replay", str(demo)])
    assert result.exit_code == 4, result.output
    folder = Path(file).parts[0]
    number = int(folder.split("-")[1])
    if named is None:
        assert f"{folder}: MISMATCH" in result.stdout
        assert "tyrell.yaml changed after" in result.stdout
    else:
        previous = f"round-{number - 1:02d}"
        assert f"{previous}: MISMATCH" in result.stdout
        assert f"{file} is not what adjudicating {previous} gives" in result.stdout
        assert named in result.stdout


@pytest.mark.parametrize("number", [1, 4, 8, 10])
def test_single_value_changes_in_a_round_are_caught(demo, ruleset, number):
    """Change one scalar at a time in a round's state and submissions (a sample spread over
    each file): a round check that reads the file — the round it starts (and, for a state,
    the round that produced it, or round 1's check against `agot new`) — must fail."""
    dirs = round_dirs(demo)
    rd = dirs[number - 1]
    files = [rd.state, *rd.orders()]
    for path in files:
        original = path.read_text()
        scalars = list(leaves(YAML(typ="safe").load(original)))
        for where, value in scalars[::max(1, len(scalars) // 4)]:
            _bump(path, list(where), lambda _v, v=value: changed(v))
            checks = [check_round(rd, dirs[number], ruleset, explain_state_texts)]
            if path == rd.state:
                checks.append(check_start(rd, ruleset, explain_state_texts) if number == 1 else
                              check_round(dirs[number - 2], rd, ruleset, explain_state_texts))
            assert any(c.failed for c in checks), \
                f"{path.relative_to(demo)}: changing {'.'.join(map(str, where))} went unnoticed"
            path.write_text(original)
    assert replay_game(str(demo), ruleset).ok, REGENERATE


def test_adjudicating_an_ended_game_is_refused(runner, demo):
    result = runner.invoke(main, ["adjudicate", "--game", str(demo)])
    assert result.exit_code == 2
    assert "the game has ended" in result.stderr
    assert not (demo / "round-12").exists()
