"""The issue-14 examples, file by file: `agot validate` says what `agot adjudicate` enforces
(RUL-P1-2, RUL-P1-3): the same located line for what it refuses, a located warning for a plan
entry it drops or asks again."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from agot_adjudicator.cli import main
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.present import state_text

HEAD = "format: agot-orders/1\nround: {round}\n"


def _write(tmp_path: Path, name: str, text: str, round_: int = 1) -> Path:
    path = tmp_path / name
    path.write_text(HEAD.format(round=round_) + text)
    return path


def _state(tmp_path: Path, ruleset: Ruleset, state: GameState) -> Path:
    path = tmp_path / "state.yaml"
    path.write_text(state_text(state, ruleset))
    return path


def _both(state: Path, *files: Path) -> tuple[Result, Result]:
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(state), *map(str, files)])
    run = runner.invoke(main, ["adjudicate", str(state), *map(str, files), "-o",
                               str(state.parent / "next.yaml")])
    return checked, run


def _errors(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


@pytest.fixture
def start(tmp_path: Path, ruleset: Ruleset) -> Path:
    """Round 1 of a 5-player game (planning phase)."""
    return _state(tmp_path, ruleset, new_game(ruleset, list(ruleset.houses), 1, "t"))


def _westeros(tmp_path: Path, ruleset: Ruleset, **top: str) -> Path:
    """Round 2's Westeros phase of a 5-player game with ``top`` cards on top of their decks."""
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    s.round, s.phase = 2, "westeros"
    for deck, card in top.items():
        s.decks[deck].remove(card)
        s.decks[deck].insert(0, card)
    return _state(tmp_path, ruleset, s)


def test_answer_for_another_houses_decision_is_refused_by_both(tmp_path, start):
    stark = _write(tmp_path, "stark.yaml", "house: stark\nanswers:\n"
                   "  r1/orders/lannister: {lannisport: march_0}\n")
    checked, run = _both(start, stark)
    line = (f"error: {stark}:5:24: $.answers[\"r1/orders/lannister\"]: stark cannot answer "
            "r1/orders/lannister: it is lannister's decision")
    assert checked.exit_code == run.exit_code == 1
    assert _errors(checked) == _errors(run) == [line]
    assert not (tmp_path / "next.yaml").exists()


def test_stale_answer_is_refused_by_both(tmp_path, start):
    answers = _write(tmp_path, "answers.yaml", "answers:\n  r2/orders/stark: {}\n")
    checked, run = _both(start, answers)
    assert checked.exit_code == run.exit_code == 1
    assert _errors(checked) == _errors(run)
    assert "decision ids of this round start with r1/" in checked.stderr


def test_illegal_orders_answer_is_refused_by_both(tmp_path, start):
    answers = _write(tmp_path, "answers.yaml", "answers:\n"
                     "  r1/orders/stark: {winterfell: march_0, karhold: raid}\n")
    checked, run = _both(start, answers)
    assert checked.exit_code == run.exit_code == 1
    assert _errors(checked) == _errors(run)
    assert "stark has no units in karhold" in checked.stderr


def test_illegal_answer_met_by_the_run_is_refused_by_both(tmp_path, start, ruleset):
    """A March answer is checked when the march is asked, on the board then: validate runs the
    round in memory as far as adjudicate would and reports the same refusal (RUL-P1-3)."""
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    orders = []
    for house in s.order_of_play():
        # no ★ orders, nothing a raid or a support is asked about: only Stark's march is asked
        def token(a: str) -> str:
            if a == "winterfell":
                return "march_0"
            return "defense_plus1" if ruleset.areas[a].is_sea else "consolidate_power"
        body = "".join(f"  {a}: {token(a)}\n" for a in ruleset.area_ids if s.area(a).house == house)
        orders.append(_write(tmp_path, f"{house}.yaml", f"house: {house}\norders:\n{body}"
                             "plans: {raven: null}\n"))
    answers = _write(tmp_path, "answers.yaml", "answers:\n"
                     "  r1/march@winterfell/stark: {moves: {the_eyrie: [knight]}}\n")
    checked, run = _both(start, *orders, answers)
    assert run.exit_code == 1, run.output
    assert checked.exit_code == 1
    assert _errors(checked) == _errors(run)
    assert "r1/march@winterfell/stark" in _errors(checked)[0]


def test_far_march_plan_warns_and_adjudicate_does_not_refuse(tmp_path, start):
    lannister = _write(tmp_path, "lannister.yaml", "house: lannister\norders:\n"
                       "  lannisport: march_0\n"
                       "plans:\n  marches:\n    - {from: lannisport, moves: {harrenhal: [footman]}}\n")
    checked, run = _both(start, lannister)
    assert checked.exit_code == 0
    assert (f"warning: {lannister}:8:45: $.plans.marches[0].moves.harrenhal: harrenhal is not "
            "adjacent to lannisport and no ship transport can reach it: this move can never "
            "happen (R5.3, R5.4)") in checked.stderr.splitlines()
    assert run.exit_code == 3


def test_clash_bids_and_wildling_bid_answers_beyond_power_refused_by_both(tmp_path, ruleset):
    state = _westeros(tmp_path, ruleset, II="clash_of_kings", III="wildling_attack")
    answers = _write(tmp_path, "answers.yaml", "answers:\n"
                     "  r2/clash_of_kings/iron_throne/bid/stark: 2\n"
                     "  r2/clash_of_kings/fiefdoms/bid/stark: 2\n"
                     "  r2/clash_of_kings/kings_court/bid/stark: 0\n"
                     "  r2/wildlings/bid/stark: 3\n", round_=2)
    checked, run = _both(state, answers)
    line = (f"error: {answers}:7:27: $.answers[\"r2/wildlings/bid/stark\"]: answer 3 to "
            "r2/wildlings/bid/stark: 3 is not one of: 0, 1")
    assert checked.exit_code == 1
    assert _errors(checked) == [line]
    # adjudicate stops first on the other houses' bids; with them given it refuses the same line
    others = "".join(f"  r2/clash_of_kings/{t}/bid/{h}: 0\n" for h in ruleset.houses
                     if h != "stark" for t in ("iron_throne", "fiefdoms", "kings_court"))
    ties = "".join(f"  {h}: {{plans: {{tie_break: [{', '.join(ruleset.houses)}]}}}}\n"
                   for h in ruleset.houses)
    more = _write(tmp_path, "more.yaml", "answers:\n" + others + "".join(
        f"  r2/wildlings/bid/{h}: 0\n" for h in ruleset.houses if h != "stark"), round_=2)
    plans = _write(tmp_path, "plans.yaml", "houses:\n" + ties, round_=2)
    checked, run = _both(state, answers, more, plans)
    assert checked.exit_code == run.exit_code == 1, run.output
    assert _errors(checked) == _errors(run) == [line]


def test_clash_bids_and_wildling_bid_in_sections_warn(tmp_path, ruleset):
    state = _westeros(tmp_path, ruleset)
    stark = _write(tmp_path, "stark.yaml", "house: stark\n"
                   "bids: {iron_throne: 3, fiefdoms: 1, kings_court: 0}\nwildlings: 3\n",
                   round_=2)
    checked, _ = _both(state, stark)
    assert checked.exit_code == 0
    assert (f"warning: {stark}:5:12: $.wildlings: stark bids 4 on the influence tracks and 3 "
            "against the wildlings, 7 in all, but has 5 available power: if a Clash of Kings "
            "comes before a Wildling Attack this round, the track bids are paid first and this "
            "wildling bid is asked again (R7.3, R8.1)") in checked.stderr.splitlines()


def test_muster_plan_for_a_castle_not_controlled_warns(tmp_path, ruleset):
    state = _westeros(tmp_path, ruleset, I="mustering")
    stark = _write(tmp_path, "stark.yaml", "house: stark\n"
                   "plans:\n  musters: {winterfell: [footman], lannisport: [knight]}\n", round_=2)
    checked, _ = _both(state, stark)
    assert checked.exit_code == 0
    assert (f"warning: {stark}:5:36: $.plans.musters.lannisport: stark does not control "
            "lannisport, and control does not change in the Westeros phase: this muster plan is "
            "never used (R3.5, R13.1)") in checked.stderr.splitlines()
    assert "winterfell" not in checked.stderr


def test_raven_plan_of_a_house_without_the_raven_warns(tmp_path, start, ruleset):
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    other = next(h for h in s.order_of_play() if h != s.holder("kings_court"))
    mine = next(a for a in ruleset.area_ids if s.area(a).house == other)
    plans = _write(tmp_path, f"{other}.yaml", f"house: {other}\n"
                   f"plans:\n  raven: {{area: {mine}, order: march_0}}\n")
    checked, _ = _both(start, plans)
    assert checked.exit_code == 0
    assert (f"{other} does not hold the Messenger Raven ({s.holder('kings_court')} is first on "
            "the King's Court track): this plan is never used (R4.6)") in checked.stderr


def test_raven_plan_that_does_not_fit_the_orders_warns(tmp_path, start, ruleset):
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    holder = s.holder("kings_court")
    mine = [a for a in ruleset.area_ids if s.area(a).house == holder]
    tokens = ["march_0", "defense_plus1", "defense_plus1"]
    body = "".join(f"  {a}: {t}\n" for a, t in zip(mine, tokens, strict=False))
    plans = _write(tmp_path, f"{holder}.yaml", f"house: {holder}\norders:\n{body}"
                   f"plans:\n  raven: {{area: {mine[1]}, order: march_0}}\n")
    checked, _ = _both(start, plans)
    assert checked.exit_code == 0, checked.stderr
    assert (f"with these orders this Raven plan never fits ('march_0' is not an unused {holder} "
            "order") in checked.stderr


def test_raid_target_without_an_order_on_an_action_board_warns(tmp_path, ruleset):
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    s.phase = "action"
    with s.edit("winterfell") as here:
        here.order = "raid"
    state = _state(tmp_path, ruleset, s)
    stark = _write(tmp_path, "stark.yaml", "house: stark\n"
                   "plans:\n  raids: [{from: winterfell, targets: [karhold]}]\n")
    checked, run = _both(state, stark)
    assert checked.exit_code == 0, checked.stderr
    assert (f"warning: {stark}:5:40: $.plans.raids[0].targets[0]: karhold holds no order the "
            "raid from winterfell can remove (legal targets now: none); orders only leave the "
            "board in the action phase, so this target is never used (R5.2)"
            ) in checked.stderr.splitlines()
    assert run.exit_code in (0, 3), run.output


def test_validate_accepts_every_recorded_round_of_the_demo_game(ruleset):
    """Every round of the demo game was adjudicated from its files (replay checks it), so
    validate refuses none of them; it runs their answers as adjudicate did (RUL-P1-2)."""
    from recorded import demo_ruleset

    from agot_adjudicator.workflow.validate import validate_files

    ruleset = demo_ruleset()
    demo = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
    rounds = [d for d in sorted(demo.glob("round-*")) if (d / "orders").is_dir()]
    assert len(rounds) >= 10
    for folder in rounds:
        orders = [str(p) for p in sorted((folder / "orders").glob("*.yaml"))]
        checked = validate_files(str(folder / "state.yaml"), orders, ruleset)
        assert checked.problems == [], (folder.name, [str(p) for p in checked.problems])


def test_a_state_with_an_empty_hand_is_refused_by_both_at_the_hand(tmp_path, ruleset):
    """Issue 28 item 2, RUL-6.12-4: validate said `ok` and adjudicate crashed (IndexError in
    the house card step); both now refuse the state at the hand, located, and write nothing."""
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    s.phase = "action"
    s.houses["stark"].discards, s.houses["stark"].hand = s.houses["stark"].hand, []
    s.areas["winterfell"].order = "defense_plus1"
    state = _state(tmp_path, ruleset, s)
    line = next(i for i, text in enumerate(state.read_text().splitlines(), 1)
                if text.strip().startswith("hand: []") and i > state.read_text()
                .splitlines().index("  stark:"))
    checked, run = _both(state)
    assert checked.exit_code == run.exit_code == 1, (checked.output, run.output)
    assert _errors(checked) == _errors(run)
    assert any(f"{state}:{line}:" in e and "$.houses.stark.hand: stark holds no house card" in e
               for e in _errors(run)), run.stderr
    assert "Traceback" not in run.output and not (tmp_path / "next.yaml").exists()


@pytest.mark.parametrize("bid, refused", [(2, False), (3, True)])
def test_a_wildling_bid_sent_early_counts_a_game_of_thrones(tmp_path, ruleset, bid, refused):
    """Issue 28 item 5, RUL-8.1-2: Stark holds 1 power; a Game of Thrones (deck II) can give it
    1 more before the Wildling Attack (deck III) takes the bids. A bid of 2 is taken by both
    (it was refused, exit 1); 3 is refused by both, saying what Stark can hold then."""
    s = new_game(ruleset, list(ruleset.houses), 1, "t")
    s.round, s.phase = 2, "westeros"
    for deck, card in {"I": "supply", "II": "game_of_thrones", "III": "wildling_attack"}.items():
        s.decks[deck].remove(card)
        s.decks[deck].insert(0, card)
    s.houses["stark"].power = 1
    state = _state(tmp_path, ruleset, s)
    orders = _write(tmp_path, "stark.yaml", f"house: stark\norders: {{}}\nwildlings: {bid}\n", 2)
    checked, run = _both(state, orders)
    if refused:
        assert checked.exit_code == run.exit_code == 1
        assert _errors(checked) == _errors(run) == [
            f"error: {orders}:5:12: $.wildlings: stark bids 3 against the wildlings but can hold "
            "at most 2 available power when the bid is taken (1 now, R8.1, R3.8)"]
    else:
        assert checked.exit_code == 0, checked.output
        assert run.exit_code == 3, run.output   # the other houses' decisions are still to come


def test_a_march_only_ships_could_carry_warns_when_no_ships_are_in_place(tmp_path, start):
    """Winterfell to Flint's Finger is a move by ship transport only (across the Bay of Ice,
    R5.4), and Stark starts with no ship there: the plan is accepted with a warning that it
    applies only if ships move into place first; by the Shivering Sea, where Stark has its
    ship, Widow's Watch draws none."""
    stark = _write(tmp_path, "stark.yaml", "house: stark\norders:\n  winterfell: march_0\n"
                   "plans:\n  marches:\n    - from: winterfell\n"
                   "      moves: {flints_finger: [footman], widows_watch: [knight]}\n")
    checked, _ = _both(start, stark)
    assert checked.exit_code == 0, checked.output
    lines = [line for line in checked.stderr.splitlines()
             if line.startswith("warning: ") and "$.plans.marches" in line]
    assert len(lines) == 1, lines
    assert "$.plans.marches[0].moves.flints_finger: flints_finger is reached from winterfell " \
           "only by ship transport" in lines[0]
    assert "no chain of stark's ships reaches it on this board" in lines[0]
