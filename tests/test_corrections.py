"""The ruleset corrections (manifest ``corrections``): on in the packaged ruleset, off for a
ruleset that does not list them, so records made before them replay unchanged.

- ``luwin_full_hand_return`` (R6.12, RUL-6.12-2): a last card brings all seven back even when
  Maester Luwin took a card back during the battle.
- ``support_not_on_islands`` (R4.1, R6.2, RUL-4.1-2): no Support order on Dragonstone, The Arbor
  or Pyke.
- ``last_card_when_played`` (R6.12, RUL-6.12-3, RUL-6.12-4): the hand comes back when the card
  played was the last in hand when played; a hand a card text emptied comes back at once.
- ``neutral_attack_beside_battle`` (R5.3, R5.7, RUL-5.3-1): one march may take a neutral
  force's area and start a battle.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from autoplay import RandomPlayer
from builders import action_game, fight

from agot_adjudicator.engine.planning import order_errors
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import CORRECTIONS, Ruleset

ROOT = Path(__file__).resolve().parent.parent
RS = load_ruleset()
OLD = dataclasses.replace(RS, corrections=())
BEFORE_28 = dataclasses.replace(RS, corrections=("support_not_on_islands", "luwin_full_hand_return"))
"""The corrections of the ruleset games were played under before issue 28 (a6b8a03d…)."""
ALL_STARK = list(RS.cards_by_house["stark"])


def test_packaged_ruleset_lists_every_correction() -> None:
    assert RS.corrections == CORRECTIONS


def _luwin_last_card(ruleset: Ruleset) -> tuple[list[str], list[str]]:
    s = action_game(ruleset, {"stoney_sept": {"house": "lannister", "units": ["footman"]},
                              "harrenhal": {"house": "stark", "units": ["knight"]}})
    s.houses["stark"].hand = ["maester_luwin"]
    s.houses["stark"].discards = [c for c in ALL_STARK if c != "maester_luwin"]
    ctx = fight(ruleset, s, "stoney_sept", "harrenhal", ["footman"],
                cards={"lannister": "cersei_lannister", "stark": "maester_luwin"},
                plans={"stark": {"card_choices": {"maester_luwin": ["eddard_stark"]}}})
    assert any(e["type"] == "house_card_returned" for e in ctx.events)
    return s.houses["stark"].hand, s.houses["stark"].discards


def test_luwin_as_last_card_brings_all_seven_back() -> None:
    hand, discards = _luwin_last_card(RS)
    assert sorted(hand) == sorted(ALL_STARK)
    assert discards == []


def test_luwin_as_last_card_without_the_correction_keeps_the_old_outcome() -> None:
    hand, discards = _luwin_last_card(OLD)
    assert hand == ["eddard_stark"]
    assert len(discards) == 6 and "maester_luwin" in discards


@pytest.mark.parametrize("island", ["dragonstone", "the_arbor", "pyke"])
@pytest.mark.parametrize("order", ["support", "support_plus1"])
def test_support_on_an_island_is_refused(island: str, order: str) -> None:
    house = RS.areas[island].home_of or "tyrell"
    s = action_game(RS, {island: {"house": house, "units": ["footman"]}})
    s.phase = "planning"
    s.tracks["kings_court"] = [house, *[h for h in s.tracks["kings_court"] if h != house]]
    errors = order_errors(s, RS, house, {island: order})
    assert [a for a, _ in errors] == [island]
    assert "R4.1" in errors[0][1]
    assert order_errors(s, OLD, house, {island: order}) == []


def test_random_players_never_support_on_an_island() -> None:
    s = action_game(RS, {"dragonstone": {"house": "baratheon", "units": ["footman", "knight"]}})
    s.phase = "planning"
    for seed in range(60):
        player = RandomPlayer(random.Random(seed), RS)
        order = player.orders(s, "baratheon").get("dragonstone")
        assert order is None or RS.order_tokens[order].kind != "support", seed


def test_template_says_no_support_on_the_island() -> None:
    from agot_adjudicator.engine.setup import new_game
    from agot_adjudicator.render.template import order_template

    s = new_game(RS, list(RS.houses), 1, "t")
    text = order_template(s, RS, "baratheon")
    assert "No Support order on an island (dragonstone)" in text
    assert "dragonstone: null" in text and "island: no support" in text
    assert "island: no support" not in order_template(s, OLD, "baratheon")


def test_ruleset_show_lists_the_corrections(tmp_path) -> None:
    from click.testing import CliRunner

    from agot_adjudicator.cli import main

    shown = CliRunner().invoke(main, ["ruleset", "show"])
    assert shown.exit_code == 0
    assert ("corrections: support_not_on_islands, luwin_full_hand_return, last_card_when_played, "
            "neutral_attack_beside_battle") in shown.stdout
    exported = tmp_path / "rs"
    assert CliRunner().invoke(main, ["ruleset", "export", str(exported)]).exit_code == 0
    manifest = exported / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").split("corrections:")[0], encoding="utf-8")
    old = CliRunner().invoke(main, ["--ruleset", str(exported), "ruleset", "show"])
    assert old.exit_code == 0, old.output
    assert "corrections: none" in old.stdout
    # Without the key the ruleset is another one: the corrections are part of its content hash.
    assert f"sha256: {RS.sha256}" in shown.stdout and RS.sha256 not in old.stdout


def _melisandre_takes_the_last_card(ruleset: Ruleset) -> tuple[list[str], list[dict]]:
    """Stark holds Eddard Stark and Maester Luwin, plays Luwin and loses to Melisandre, who
    discards Eddard Stark (issue 28 item 1, BATTLE-071)."""
    s = action_game(ruleset, {"stoney_sept": {"house": "baratheon", "units": ["knight"]},
                              "harrenhal": {"house": "stark", "units": ["footman"]}})
    s.houses["stark"].hand = ["eddard_stark", "maester_luwin"]
    s.houses["stark"].discards = [c for c in ALL_STARK if c not in s.houses["stark"].hand]
    ctx = fight(ruleset, s, "stoney_sept", "harrenhal", ["knight"],
                cards={"baratheon": "melisandre", "stark": "maester_luwin"},
                plans={"baratheon": {"card_choices": {"melisandre": ["eddard_stark"]}}})
    stark = [e for e in ctx.events if e.get("house") == "stark"
             and e["type"] in ("house_card_discarded", "hand_recycled", "hand_emptied")]
    assert s.houses["stark"].discards == [] and sorted(s.houses["stark"].hand) == sorted(ALL_STARK)
    return s.houses["stark"].hand, stark


def test_a_card_played_with_another_in_hand_is_discarded_though_melisandre_empties_the_hand():
    _, events = _melisandre_takes_the_last_card(RS)
    assert [(e["type"], e.get("card"), e.get("by")) for e in events] == [
        ("house_card_discarded", "eddard_stark", "melisandre"),
        ("house_card_discarded", "maester_luwin", None),
        ("hand_emptied", None, "melisandre")]


def test_before_the_correction_the_hand_emptied_by_melisandre_counted_as_the_last_card():
    _, events = _melisandre_takes_the_last_card(BEFORE_28)
    assert [(e["type"], e.get("card")) for e in events] == [
        ("house_card_discarded", "eddard_stark"), ("hand_recycled", "maester_luwin")]


@pytest.mark.parametrize("ruleset", [RS, BEFORE_28, OLD], ids=["packaged", "before-28", "none"])
def test_a_last_card_brings_the_hand_back_under_every_ruleset(ruleset: Ruleset) -> None:
    s = action_game(ruleset, {"stoney_sept": {"house": "lannister", "units": ["footman"]},
                              "harrenhal": {"house": "stark", "units": ["knight"]}})
    s.houses["stark"].hand = ["eddard_stark"]
    s.houses["stark"].discards = [c for c in ALL_STARK if c != "eddard_stark"]
    ctx = fight(ruleset, s, "stoney_sept", "harrenhal", ["footman"],
                cards={"lannister": "tywin_lannister", "stark": "eddard_stark"})
    assert [e["card"] for e in ctx.events if e["type"] == "hand_recycled"] == ["eddard_stark"]
    assert sorted(s.houses["stark"].hand) == sorted(ALL_STARK) and s.houses["stark"].discards == []


def _kings_landing_and_the_reach(ruleset: Ruleset):
    from agot_adjudicator.workflow.conformance import load_case, run_case

    case = load_case(ROOT / "scenarios" / "marches" / "MARCH-022.yaml").data
    return run_case(case, ruleset)


def test_one_march_takes_a_neutral_area_and_starts_a_battle():
    outcome = _kings_landing_and_the_reach(RS)
    assert outcome.status == "complete" and not outcome.differences, outcome.differences
    assert [e["type"] for e in outcome.events if e["type"] in ("neutral_attack", "battle")] == \
        ["neutral_attack", "battle"]


def test_before_the_correction_the_neutral_attack_was_the_marchs_one_contest():
    outcome = _kings_landing_and_the_reach(BEFORE_28)
    assert outcome.status == "error"
    assert "a march may start at most one battle or attack (R5.3): kings_landing, the_reach" \
        in outcome.error


def test_validate_accepts_what_adjudicate_does_with_both_moves(tmp_path):
    """Issue 28 item 3: a direct answer with a neutral attack and a battle is accepted by both
    (before, both refused it)."""
    from click.testing import CliRunner

    from agot_adjudicator.cli import main
    from agot_adjudicator.io.writing import dump_yaml
    from agot_adjudicator.workflow.conformance import build_state, load_case

    case = load_case(ROOT / "scenarios" / "marches" / "MARCH-022.yaml").data
    state = tmp_path / "state.yaml"
    state.write_text(dump_yaml(build_state(case["state"], RS)), encoding="utf-8")
    files = []
    for sub in case["submissions"]:
        path = tmp_path / f"{sub['house']}.yaml"
        path.write_text(dump_yaml({"format": "agot-orders/1", "round": 1, **sub}), encoding="utf-8")
        files.append(str(path))
    checked = CliRunner().invoke(main, ["validate", str(state), *files])
    assert checked.exit_code == 0, checked.output
    run = CliRunner().invoke(main, ["adjudicate", str(state), *files, "-o",
                                    str(tmp_path / "next.yaml")])
    assert run.exit_code == 0, run.output
