"""The board at the stop (docs/protocol.md P4, issue 14 item 1): a stopped round writes its
provisional state (now.yaml) and picture (now.svg) in the same commit as pending.yaml; the
views and `validate --game` read the board as it stands; a provisional state is never a
record or an input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agot_adjudicator.cli import main
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import AreaState
from agot_adjudicator.workflow.present import state_text

RS = load_ruleset()
SEED = 7  # round 2's cards: I mustering, II game of thrones (III is put on top below)

MUSTERS = """format: agot-orders/1
round: 2
houses:
  stark:
    plans:
      musters: {white_harbor: [footman]}
  lannister:
    plans:
      musters: {}
  baratheon:
    plans:
      musters: {}
"""
"""Every house's Mustering plan (R3.5): Stark musters a footman in White Harbor, which holds
only its power token before the Westeros phase."""

STARK_ORDERS = """format: agot-orders/1
round: 2
house: stark
orders: {white_harbor: defense_plus1, winterfell: march_0, the_shivering_sea: support}
"""


def round_two_state() -> str:
    """A 3-player round-2 state in the Westeros phase (R3): Mustering comes up; Stark's White
    Harbor holds only a Stark power token (R3.5: a castle it controls, no unit in it)."""
    s = new_game(RS, list(RS.players[3]), SEED, "stopgame")
    s.round, s.phase = 2, "westeros"
    assert s.decks["I"][0] == "mustering" and s.decks["II"][0] == "game_of_thrones"
    deck = s.decks["III"]
    deck.insert(0, deck.pop(deck.index("last_days_of_summer")))
    s.set_area("white_harbor", AreaState(house=None, units=[], power_token="stark"))
    s.houses["stark"].power -= 1
    return state_text(s, RS)


@pytest.fixture
def stopped(runner, tmp_path) -> Path:
    """A game directory whose round stopped after the Westeros phase, asking for orders."""
    game = tmp_path / "game"
    (game / "round-01" / "orders").mkdir(parents=True)
    (game / "round-01" / "state.yaml").write_text(round_two_state())
    (game / "round-01" / "orders" / "musters.yaml").write_text(MUSTERS)
    result = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 3, result.output
    return game


def rd(game: Path) -> Path:
    return game / "round-01"


def test_the_stop_writes_the_board_as_it_stands(stopped):
    now = (rd(stopped) / "now.yaml").read_text()
    assert now.startswith("# agot PROVISIONAL state")
    assert "\nprovisional:\n  stopped: planning\n" in now
    assert "r2/orders/stark" in now and "\nchain:" not in now
    picture = (rd(stopped) / "now.svg").read_text()
    assert picture.startswith("<?xml") and 'id="provisional"' in picture
    assert "provisional (the board at a stop)</title>" in picture
    assert (rd(stopped) / "pending.yaml").is_file()
    assert not (stopped / "round-02").exists()


def test_show_game_shows_the_mustered_footman(runner, stopped):
    shown = runner.invoke(main, ["show", "--game", str(stopped)])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("Provisional: the board as it stands in round 2, stopped "
                                   "in the planning phase")
    row = next(line for line in shown.stdout.splitlines() if "White Harbor" in line)
    assert "footman" in row
    before = runner.invoke(main, ["show", str(rd(stopped) / "state.yaml")])
    row = next(line for line in before.output.splitlines() if "White Harbor" in line)
    assert "footman" not in row


def test_an_order_for_the_mustered_unit_validates_on_the_board_now(runner, stopped, tmp_path):
    orders = tmp_path / "stark.yaml"
    orders.write_text(STARK_ORDERS)
    now = runner.invoke(main, ["validate", "--game", str(stopped), str(orders)])
    assert now.exit_code == 0, now.output
    assert "against the board as it stands" in now.output
    assert "now.yaml" in now.output
    # Against the round's state.yaml (before the Westeros phase) it is refused in planning.
    data = (rd(stopped) / "state.yaml").read_text().replace("phase: westeros", "phase: planning")
    planning = tmp_path / "planning.yaml"
    planning.write_text(data)
    before = runner.invoke(main, ["validate", str(planning), str(orders)])
    assert before.exit_code == 1
    assert "stark has no units in white_harbor" in before.output
    # And adjudicate takes it: the round goes on from the board as it stands, to the next stop
    # (--defaults covers the decisions of the stop it is given at, RUL-P2-2).
    shutil.copy(orders, rd(stopped) / "orders" / "stark.yaml")
    result = runner.invoke(main, ["adjudicate", "--game", str(stopped), "--defaults"])
    assert result.exit_code == 3, result.output
    assert "r2/orders/" not in result.output and "r2/march@winterfell/stark" in result.output


def test_validate_game_defaults_to_the_rounds_files(runner, stopped):
    result = runner.invoke(main, ["validate", "--game", str(stopped)])
    assert result.exit_code == 0, result.output
    assert "ok: 1 submission file(s) against the board as it stands" in result.output


def test_template_and_map_now_use_the_board_as_it_stands(runner, stopped, tmp_path):
    sketch = runner.invoke(main, ["template", "--game", str(stopped), "--house", "stark"])
    assert sketch.exit_code == 0, sketch.output
    assert "white_harbor" in sketch.output
    before = runner.invoke(main, ["template", str(rd(stopped) / "state.yaml"), "--house", "stark"])
    assert sketch.output != before.output
    picture = tmp_path / "now.svg"
    drawn = runner.invoke(main, ["map", "--game", str(stopped), "--now", "--house", "stark",
                                 "-o", str(picture)])
    assert drawn.exit_code == 0, drawn.output
    assert picture.read_text().startswith("<?xml") and 'id="provisional"' in picture.read_text()
    of_state = tmp_path / "state.svg"
    assert runner.invoke(main, ["map", str(rd(stopped) / "state.yaml"), "-o", str(of_state)]).exit_code == 0
    assert 'id="provisional"' not in of_state.read_text()
    refused = runner.invoke(main, ["map", "--game", str(stopped), "--house", "stark",
                                   "-o", str(picture)])
    assert refused.exit_code == 2 and "--now" in refused.output


@pytest.mark.parametrize("house", ["stark", "lannister", "baratheon"])
def test_house_views_of_the_provisional_board_keep_secrets(runner, stopped, tmp_path, house):
    """show/map --house and template show a house only what it may see: no other hand, no
    deck, no seed (the provisional state holds them all)."""
    from agot_adjudicator.io.reading import load_yaml
    from agot_adjudicator.model.state import GameState

    state = GameState.from_dict(load_yaml(str(rd(stopped) / "now.yaml")).data)
    shown = runner.invoke(main, ["show", "--game", str(stopped), "--house", house]).output
    picture = tmp_path / "p.svg"
    runner.invoke(main, ["map", "--game", str(stopped), "--now", "--house", house,
                         "-o", str(picture)])
    sketch = runner.invoke(main, ["template", "--game", str(stopped), "--house", house]).output
    for other in state.houses:
        if other == house:
            continue
        for card in state.houses[other].hand:
            if card in state.houses[house].hand:
                continue
            for text in (shown, picture.read_text(), sketch):
                assert card not in text, (other, card)
    for text in (shown, picture.read_text(), sketch):
        assert "Westeros decks" not in text and "Seed:" not in text
        assert "winter_is_coming, supply" not in text  # deck I's order, top first
    full = runner.invoke(main, ["show", "--game", str(stopped)]).output
    assert "Westeros decks" in full and "Seed: 7" in full  # the moderator's view: it can fail
    assert "winter_is_coming, supply" in full


def test_the_stop_files_go_with_pending_yaml(runner, stopped, tmp_path):
    (rd(stopped) / "orders" / "stark.yaml").write_text(STARK_ORDERS)
    for _ in range(10):  # each run defaults what its stop owes (RUL-P2-2)
        result = runner.invoke(main, ["adjudicate", "--game", str(stopped), "--defaults"])
        if result.exit_code == 0:
            break
        assert result.exit_code == 3, result.output
    assert result.exit_code == 0, result.output
    for name in ("pending.yaml", "now.yaml", "now.svg"):
        assert not (rd(stopped) / name).exists()
    assert (stopped / "round-02" / "state.yaml").is_file()
    shown = runner.invoke(main, ["show", "--game", str(stopped)])
    assert shown.exit_code == 0 and not shown.stdout.startswith("Provisional")


def test_a_stopped_round_replays_and_ignores_the_stop_files(runner, stopped):
    result = runner.invoke(main, ["replay", "--custom-start", str(stopped)])
    assert result.exit_code == 0, result.output
    assert "pending" in result.output
    (rd(stopped) / "now.yaml").write_text("anything: at all\n")  # not part of the record
    (rd(stopped) / "now.svg").unlink()
    again = runner.invoke(main, ["replay", "--custom-start", str(stopped)])
    assert again.exit_code == 0 and again.output == result.output


def test_the_stop_files_are_committed_with_pending_yaml(stopped, monkeypatch):
    """A run interrupted at any write point leaves the stop's files all there or none; one
    finished by the next run leaves them with pending.yaml (io/commit.py)."""
    from agot_adjudicator.io import commit
    from agot_adjudicator.workflow.record import run_game_round

    names = ("pending.yaml", "now.yaml", "now.svg")
    for name in names:
        (rd(stopped) / name).unlink()
    real = commit._fs
    for stop_at in range(1, 80):  # the commit holds each house view too (issue 30)
        calls = {"n": 0}

        def failing(op, *args, limit=stop_at, calls=calls):
            calls["n"] += 1
            if calls["n"] == limit:
                raise OSError("stopped here")
            return real(op, *args)

        monkeypatch.setattr(commit, "_fs", failing)
        try:
            run_game_round(str(stopped), RS)
            finished = True
        except OSError:
            finished = False
        monkeypatch.setattr(commit, "_fs", real)
        commit.recover(stopped)  # the next writer finishes a committed run, drops the rest
        there = [(rd(stopped) / n).exists() for n in names]
        assert all(there) or not any(there), (stop_at, there)
        if finished:
            assert all(there)
            break
        for name in names:
            (rd(stopped) / name).unlink(missing_ok=True)
    else:
        pytest.fail("the run never finished")


# --- a provisional state is no record -------------------------------------------------------

def test_adjudicate_refuses_a_provisional_state(runner, stopped, tmp_path):
    out = tmp_path / "next.yaml"
    result = runner.invoke(main, ["adjudicate", str(rd(stopped) / "now.yaml"), "-o", str(out)])
    assert result.exit_code == 1
    assert "now.yaml" in result.output and "provisional" in result.output
    assert "not a round's record" in result.output
    assert not out.exists()


def test_validate_state_refuses_a_provisional_state(runner, stopped):
    result = runner.invoke(main, ["validate", str(rd(stopped) / "now.yaml")])
    assert result.exit_code == 1
    assert "provisional" in result.output and "validate --game" in result.output


def test_a_provisional_state_as_a_rounds_state_is_refused(runner, stopped):
    before = sorted(p.relative_to(stopped) for p in stopped.rglob("*"))
    shutil.copy(rd(stopped) / "now.yaml", rd(stopped) / "state.yaml")
    for args in (["replay", "--custom-start", str(stopped)], ["adjudicate", "--game", str(stopped)]):
        result = runner.invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert "round-01/state.yaml" in result.output
        assert "a provisional state" in result.output
        assert "Traceback" not in result.output
    assert sorted(p.relative_to(stopped) for p in stopped.rglob("*")) == before


def test_a_stale_provisional_state_is_refused(runner, stopped):
    state = rd(stopped) / "state.yaml"
    state.write_text(state.read_text().replace("wildling_threat: 0", "wildling_threat: 4"))
    result = runner.invoke(main, ["show", "--game", str(stopped)])
    assert result.exit_code == 1
    assert "stale" in result.output and "agot adjudicate --game" in result.output


def test_files_mode_writes_the_provisional_state_with_now(runner, stopped, tmp_path):
    now = tmp_path / "now.yaml"
    result = runner.invoke(main, ["adjudicate", str(rd(stopped) / "state.yaml"),
                                  str(rd(stopped) / "orders" / "musters.yaml"),
                                  "-o", str(tmp_path / "next.yaml"), "--now", str(now)])
    assert result.exit_code == 3
    assert now.read_text() == (rd(stopped) / "now.yaml").read_text()
    shown = runner.invoke(main, ["show", str(now), "--house", "stark"])
    assert shown.exit_code == 0 and shown.stdout.startswith("Provisional")


ACTION_ORDERS = """format: agot-orders/1
round: 2
houses:
  stark:
    orders: {white_harbor: defense_plus1, winterfell: march_0, the_shivering_sea: support}
  lannister:
    orders: {lannisport: consolidate_power, stoney_sept: defense_plus1, the_golden_sound: support}
  baratheon:
    orders: {dragonstone: consolidate_power, kingswood: defense_plus1, shipbreaker_bay: support}
answers:
  r2/raven/lannister: null
"""


def test_a_stop_in_the_action_phase_validates_against_the_rounds_state(runner, stopped):
    """Stopped on Stark's march (no plan, R5.3): the orders are placed and revealed, so
    `validate --game` checks the files as adjudicate reads them, from the round's state.yaml
    through what the committed runs resolved to the stop (RUL-P4-3, RUL-P8-8)."""
    (rd(stopped) / "orders" / "orders.yaml").write_text(ACTION_ORDERS)
    result = runner.invoke(main, ["adjudicate", "--game", str(stopped)])
    assert result.exit_code == 3, result.output
    assert "r2/march@winterfell/stark" in result.stdout
    assert "\n  stopped: action\n" in (rd(stopped) / "now.yaml").read_text()
    shown = runner.invoke(main, ["show", "--game", str(stopped), "--house", "lannister"])
    assert "stopped in the action phase" in shown.stdout
    row = next(line for line in shown.stdout.splitlines() if "Winterfell" in line)
    assert "march_0" in row  # revealed orders are public (R4.5)
    checked = runner.invoke(main, ["validate", "--game", str(stopped)])
    assert checked.exit_code == 0, checked.output
    assert "ok: 2 submission file(s) against the board as it stands" in checked.stdout
    assert "round-01/now.yaml, provisional: round 2, action phase" in checked.stdout
    # Against the action-phase board itself, the orders would be refused.
    from agot_adjudicator.io.reading import load_yaml
    from agot_adjudicator.model.state import GameState
    from agot_adjudicator.workflow.validate import validate_files

    board = GameState.from_dict(load_yaml(str(rd(stopped) / "now.yaml")).data)
    files = [str(p) for p in sorted((rd(stopped) / "orders").iterdir())]
    direct = validate_files(str(rd(stopped) / "now.yaml"), files, RS, board=board)
    assert any("planning phase" in p.message for p in direct.problems)


def test_a_stop_without_now_yaml_shows_the_rounds_state_and_says_so(runner, stopped):
    """A round stopped by an agot that wrote no now.yaml: the views read state.yaml, noted."""
    (rd(stopped) / "now.yaml").unlink()
    shown = runner.invoke(main, ["show", "--game", str(stopped)])
    assert shown.exit_code == 0
    assert not shown.stdout.startswith("Provisional")
    assert "without now.yaml" in shown.stderr and "westeros phase" in shown.stdout


@pytest.mark.parametrize("seed,players", [(3, 3), (29, 5)])
def test_every_stop_of_a_random_game_gives_a_board_the_views_accept(seed, players, tmp_path,
                                                                   monkeypatch):
    """Whole seeded games (tests/autoplay.py): at every stop the provisional state is
    schema-valid, passes the state checks a stop may leave (RUL-P4-1), is refused as a
    record, and shows and draws for every house."""
    import autoplay

    from agot_adjudicator.errors import IllegalInput
    from agot_adjudicator.render.picture import render_svg
    from agot_adjudicator.render.views import show_text
    from agot_adjudicator.workflow.adjudicate import render_outputs
    from agot_adjudicator.workflow.present import load_board
    from agot_adjudicator.workflow.validate import load_state

    real = autoplay.adjudicate_docs
    seen = {"stops": 0, "phases": set()}

    def checked(*args, **kwargs):
        run = real(*args, **kwargs)
        if run.result.status == "pending":
            out = render_outputs(run, RS, now=True)
            assert out.now is not None
            path = tmp_path / "now.yaml"
            path.write_text(out.now)
            board = load_board(path, RS)  # raises on a problem: the test fails
            assert board.provisional
            for house in board.state.houses:
                show_text(board.state, RS, house)
            render_svg(board.state, RS, house=board.state.order_of_play()[-1], orders=True)
            with pytest.raises(IllegalInput):
                load_state(str(path), RS)
            seen["stops"] += 1
            seen["phases"].add(board.state.phase)
        return run

    monkeypatch.setattr(autoplay, "adjudicate_docs", checked)
    autoplay.play_game(seed, players, RS, determinism_rate=0.0)
    assert seen["stops"] > 5 and len(seen["phases"]) >= 2, seen
