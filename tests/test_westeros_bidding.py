"""Clash of Kings (R3.6, R7): secret bids per track, ties by the Iron Throne holder, tokens, pool."""

from __future__ import annotations

import pytest
from builders import answer, run_westeros, westeros_game

from agot_adjudicator.engine.context import HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError, Pending
from agot_adjudicator.io.rulesets import load_ruleset

RS = load_ruleset()
HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell")


def game(houses=None):
    return westeros_game(RS, houses, II="clash_of_kings")


def bids(**per_house):
    """HouseInputs from ``house=(iron_throne, fiefdoms, kings_court)``."""
    return {h: HouseInput(bids=dict(zip(("iron_throne", "fiefdoms", "kings_court"), b, strict=True)))
            for h, b in per_house.items()}


def run(s, houses=None, **decider):
    return run_westeros(RS, s, Inputs(houses or {}), **decider)


def test_highest_bids_take_the_first_positions_and_bid_power_goes_to_the_pool():
    s = game()
    for h, p in zip(HOUSES, (5, 6, 7, 8, 9), strict=True):
        s.houses[h].power = p
    ctx = run(s, bids(stark=(5, 0, 0), lannister=(4, 1, 1), baratheon=(3, 2, 2), greyjoy=(2, 3, 3),
                      tyrell=(1, 4, 4)))
    assert s.tracks["iron_throne"] == ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]
    assert s.tracks["fiefdoms"] == ["tyrell", "greyjoy", "baratheon", "lannister", "stark"]
    assert s.tracks["kings_court"] == ["tyrell", "greyjoy", "baratheon", "lannister", "stark"]
    assert {h: s.houses[h].power for h in HOUSES} == {"stark": 0, "lannister": 0, "baratheon": 0,
                                                      "greyjoy": 0, "tyrell": 0}
    passed = [(e["token"], e["old"], e["new"]) for e in ctx.events if e["type"] == "token_passed"]
    assert passed == [("iron_throne", "baratheon", "stark"),
                      ("valyrian_steel_blade", "greyjoy", "tyrell"),
                      ("messenger_raven", "lannister", "tyrell")]


def test_rulebook_example_fiefdoms_tie_placed_by_the_new_iron_throne_holder():
    """Rulebook: Greyjoy won the Iron Throne; Lannister 4, Baratheon 3, Stark 3, Tyrell 2, Greyjoy 0."""
    s = game()
    houses = bids(greyjoy=(5, 0, 0), lannister=(0, 4, 0), baratheon=(0, 3, 0), stark=(0, 3, 0),
                  tyrell=(0, 2, 0))
    houses["greyjoy"] = HouseInput(bids={"iron_throne": 5, "fiefdoms": 0, "kings_court": 0},
                                   plans={"tie_break": ["greyjoy", "baratheon", "stark"]})
    ctx = run(s, houses, answers={
        "r2/clash_of_kings/iron_throne/tie_break/baratheon": answer(
            ["lannister", "baratheon", "stark", "tyrell"]),
        "r2/clash_of_kings/kings_court/tie_break/greyjoy": answer(
            ["lannister", "stark", "baratheon", "tyrell", "greyjoy"])})
    assert s.tracks["iron_throne"][0] == "greyjoy"
    assert s.tracks["fiefdoms"] == ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    assert s.holder("fiefdoms") == "lannister"
    ties = [e for e in ctx.events if e["type"] == "tie_broken"]
    assert [(e["about"], e["by"]) for e in ties] == [
        ("clash_of_kings/iron_throne", "baratheon"), ("clash_of_kings/fiefdoms", "greyjoy"),
        ("clash_of_kings/kings_court", "greyjoy")]


def test_old_holder_breaks_the_iron_throne_tie_even_if_it_loses_the_throne():
    s = game()
    houses = bids(stark=(3, 0, 0), lannister=(3, 0, 0), baratheon=(1, 0, 0), greyjoy=(0, 0, 0),
                  tyrell=(2, 0, 0))
    houses["baratheon"] = HouseInput(bids={"iron_throne": 1, "fiefdoms": 0, "kings_court": 0},
                                     plans={"tie_break": ["stark", "lannister", "tyrell", "greyjoy",
                                                          "baratheon"]})
    houses["stark"] = HouseInput(bids={"iron_throne": 3, "fiefdoms": 0, "kings_court": 0},
                                 plans={"tie_break": ["lannister", "greyjoy", "baratheon", "tyrell",
                                                      "stark"]})
    run(s, houses)
    # Baratheon (old holder) put Stark first; Stark (new holder) breaks the later ties.
    assert s.tracks["iron_throne"] == ["stark", "lannister", "tyrell", "baratheon", "greyjoy"]
    assert s.tracks["fiefdoms"] == ["lannister", "greyjoy", "baratheon", "tyrell", "stark"]


def test_missing_bids_are_pending_together_with_ids_per_track_and_house():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s, bids(stark=(1, 1, 1)) | {"lannister": HouseInput(bids={"iron_throne": 2})})
    ids = [d.request.id for d in stop.value.decisions]
    assert ids[:3] == [
        "r2/clash_of_kings/iron_throne/bid/baratheon", "r2/clash_of_kings/iron_throne/bid/tyrell",
        "r2/clash_of_kings/iron_throne/bid/greyjoy"]
    assert stop.value.decisions[0].request.options == tuple(range(6))
    # RUL-3.6-2: the later tracks' missing bids come in the same stop, track by track
    assert ids[3:] == [f"r2/clash_of_kings/{t}/bid/{h}" for t in ("fiefdoms", "kings_court")
                       for h in ("baratheon", "lannister", "tyrell", "greyjoy")]
    lannister = next(d.request for d in stop.value.decisions
                     if d.request.id == "r2/clash_of_kings/fiefdoms/bid/lannister")
    assert lannister.options == tuple(range(4))  # 5 power, 2 bid on the Iron Throne


def test_a_track_left_out_of_the_bids_section_is_asked_after_the_earlier_tracks():
    s = game()
    houses = bids(stark=(1, 1, 1), baratheon=(1, 1, 1), greyjoy=(1, 1, 1), tyrell=(1, 1, 1))
    houses["lannister"] = HouseInput(bids={"iron_throne": 2})
    with pytest.raises(Pending) as stop:
        run(s, houses)
    # RUL-3.6-3: the tie-break, with the later bids still missing
    assert [d.request.id for d in stop.value.decisions] == [
        "r2/clash_of_kings/iron_throne/tie_break/baratheon",
        "r2/clash_of_kings/fiefdoms/bid/lannister", "r2/clash_of_kings/kings_court/bid/lannister"]
    with pytest.raises(Pending) as stop:
        run(game(), houses, answers={"r2/clash_of_kings/iron_throne/tie_break/baratheon": answer(
            ["baratheon", "stark", "tyrell", "greyjoy"])})
    assert [d.request.id for d in stop.value.decisions] == [
        "r2/clash_of_kings/fiefdoms/bid/lannister", "r2/clash_of_kings/kings_court/bid/lannister"]
    assert stop.value.decisions[0].request.options == tuple(range(4))


def test_bid_over_available_power_is_pending_with_the_reason():
    s = game()
    s.houses["stark"].power = 2
    houses = bids(stark=(3, 0, 0), lannister=(0, 0, 0), baratheon=(0, 0, 0), greyjoy=(0, 0, 0),
                  tyrell=(0, 0, 0))
    with pytest.raises(Pending) as stop:
        run(s, houses)
    [decision] = stop.value.decisions
    assert decision.request.id == "r2/clash_of_kings/iron_throne/bid/stark"
    assert "the plan no longer fits" in decision.reason


def test_house_without_power_bids_zero_unasked():
    s = game()
    s.houses["greyjoy"].power = 0
    ctx = run(s, bids(stark=(3, 2, 0), lannister=(2, 1, 0), baratheon=(1, 0, 0), tyrell=(4, 0, 1)),
              answers={"r2/clash_of_kings/fiefdoms/tie_break/tyrell": answer(["baratheon", "tyrell",
                                                                               "greyjoy"]),
                       "r2/clash_of_kings/kings_court/tie_break/tyrell": answer(
                           ["stark", "lannister", "baratheon", "greyjoy"])})
    assert not any("greyjoy" in i and "/bid/" in i for i in ctx.decider.asked)
    assert s.tracks["iron_throne"][-1] == "greyjoy"


def test_tie_break_answer_must_list_every_tied_house():
    s = game()
    houses = bids(stark=(1, 0, 0), lannister=(1, 0, 0), baratheon=(2, 0, 0), greyjoy=(3, 0, 0),
                  tyrell=(4, 0, 0))
    with pytest.raises(AnswerError, match="missing tied house: lannister"):
        run(s, houses, answers={"r2/clash_of_kings/iron_throne/tie_break/baratheon": answer(["stark"])})


def test_tie_break_plan_missing_a_tied_house_is_pending_with_the_reason():
    s = game()
    houses = bids(stark=(1, 0, 0), lannister=(1, 0, 0), baratheon=(2, 0, 0), greyjoy=(3, 0, 0),
                  tyrell=(4, 0, 0))
    houses["baratheon"] = HouseInput(bids={"iron_throne": 2, "fiefdoms": 0, "kings_court": 0},
                                     plans={"tie_break": ["stark"]})
    with pytest.raises(Pending) as stop:
        run(s, houses)
    decision = stop.value.decisions[0]  # then the later ties (RUL-3.6-3)
    assert decision.request.id == "r2/clash_of_kings/iron_throne/tie_break/baratheon"
    assert "missing tied house: lannister" in decision.reason


def test_several_tie_groups_are_placed_by_one_answer():
    s = game()
    houses = bids(stark=(2, 0, 0), lannister=(2, 0, 0), baratheon=(1, 0, 0), greyjoy=(1, 0, 0),
                  tyrell=(3, 0, 0))
    run(s, houses, defaults=True, answers={
        "r2/clash_of_kings/iron_throne/tie_break/baratheon": answer(
            ["greyjoy", "lannister", "baratheon", "stark"])})
    assert s.tracks["iron_throne"] == ["tyrell", "lannister", "stark", "greyjoy", "baratheon"]


def test_defaults_bid_zero_and_ties_keep_the_previous_track_order():
    s = game()
    before = {t: list(v) for t, v in s.tracks.items()}
    ctx = run(s, defaults=True)
    assert s.tracks == before
    assert {h: s.houses[h].power for h in s.houses} == {h: 5 for h in s.houses}
    assert sum(1 for e in ctx.events if e["type"] == "default_applied") == 15 + 3


def test_three_player_clash_of_kings_uses_three_positions():
    s = game(["stark", "lannister", "baratheon"])
    run(s, bids(stark=(1, 0, 0), lannister=(0, 1, 0), baratheon=(2, 0, 1)),
        answers={"r2/clash_of_kings/fiefdoms/tie_break/baratheon": answer(["baratheon", "stark"]),
                 "r2/clash_of_kings/kings_court/tie_break/baratheon": answer(["stark", "lannister"])})
    assert s.tracks == {"iron_throne": ["baratheon", "stark", "lannister"],
                        "fiefdoms": ["lannister", "baratheon", "stark"],
                        "kings_court": ["baratheon", "stark", "lannister"]}
