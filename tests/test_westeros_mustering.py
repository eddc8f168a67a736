"""Mustering (R3.5): points per castle, costs, ships, upgrades, supply and unit limits, pending."""

from __future__ import annotations

import pytest
from builders import answer, clear, put, run_westeros, westeros_game

from agot_adjudicator.engine.context import HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError, Pending
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import AreaState

RS = load_ruleset()


def game(houses=None):
    return westeros_game(RS, houses, I="mustering")


def units(s, area_id):
    return s.areas[area_id].units if area_id in s.areas else []


def run(s, plans=None, **decider):
    inputs = Inputs({h: HouseInput(plans={"musters": m}) for h, m in (plans or {}).items()})
    return run_westeros(RS, s, inputs, **decider)


def nothing_else(s, houses=("stark", "baratheon", "greyjoy", "tyrell")):
    """Plans that muster nothing for the other houses."""
    return {h: {} for h in houses if h in s.houses}


def lannister_example(s):
    """Rulebook (simplified Chinese), mustering example: Lannister (supply 3) first in order of play."""
    clear(s, "lannister")
    s.tracks["iron_throne"] = ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    put(s, "lannister", "lannisport", "footman")
    put(s, "lannister", "harrenhal", "footman")
    put(s, "lannister", "riverrun", "knight", "knight", "knight")
    put(s, "lannister", "stoney_sept", "footman")
    put(s, "lannister", "sunset_sea", "ship")
    s.houses["lannister"].supply = 3


def test_rulebook_example_lannister_musters_footman_ship_upgrade_and_ship():
    s = game()
    lannister_example(s)
    plans = nothing_else(s)
    plans["lannister"] = {"lannisport": ["footman", "ship:the_golden_sound"],
                          "harrenhal": ["upgrade"], "riverrun": ["ship:the_golden_sound"]}
    ctx = run(s, plans)
    assert units(s, "lannisport") == ["footman", "footman"]
    assert units(s, "harrenhal") == ["knight"]
    assert units(s, "riverrun") == ["knight", "knight", "knight"]
    assert units(s, "the_golden_sound") == ["ship", "ship"]
    done = {e["castle"]: (e["spent"], e["lost"]) for e in ctx.events
            if e["type"] == "muster_done" and e["house"] == "lannister"}
    assert done == {"harrenhal": (1, 0), "lannisport": (2, 0), "riverrun": (1, 1)}


def test_rulebook_example_riverrun_last_point_cannot_be_spent():
    s = game()
    lannister_example(s)
    plans = nothing_else(s)
    plans["lannister"] = {"lannisport": ["footman", "ship:the_golden_sound"],
                          "harrenhal": ["upgrade"],
                          "riverrun": ["ship:the_golden_sound", "ship:the_golden_sound"]}
    with pytest.raises(Pending) as stop:
        run(s, plans)
    [decision] = stop.value.decisions
    assert decision.request.id == "r2/mustering/riverrun/lannister"
    assert "supply limit" in decision.reason
    # Ironman's Bay holds Greyjoy ships; the knights are all on the board.
    for other, why in ((["ship:ironmans_bay"], "another house's ships"),
                       (["upgrade"], "no footman"), (["footman"], "supply limit")):
        fresh = game()
        lannister_example(fresh)
        plans["lannister"]["riverrun"] = ["ship:the_golden_sound", *other]
        with pytest.raises(Pending) as stop:
            run(fresh, plans)
        [decision] = stop.value.decisions
        assert decision.request.id == "r2/mustering/riverrun/lannister"
        assert why in decision.reason


def test_points_of_a_castle_cannot_be_overspent():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s, {**nothing_else(s), "lannister": {"lannisport": ["knight", "footman"]}})
    assert "gives 2 mustering points" in stop.value.decisions[0].reason


def test_city_gives_one_point():
    s = game()
    with pytest.raises(AnswerError, match="gives 1 mustering point"):
        run(s, {h: {} for h in ("lannister", "baratheon", "greyjoy", "tyrell")},
            answers={"r2/mustering/white_harbor/stark": answer(["knight"]),
                     "r2/mustering/winterfell/stark": answer([])})


def test_ship_needs_an_adjacent_sea_without_other_houses_ships():
    s = game()
    put(s, "greyjoy", "the_golden_sound", "ship")
    with pytest.raises(Pending) as stop:
        run(s, {**nothing_else(s), "lannister": {"lannisport": ["ship:the_golden_sound"]}})
    assert "holds another house's ships" in stop.value.decisions[0].reason


def test_ship_into_a_sea_not_adjacent_is_refused():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s, {**nothing_else(s), "lannister": {"lannisport": ["ship:sunset_sea"]}})
    assert "is not a sea area next to lannisport" in stop.value.decisions[0].reason


def test_ship_without_a_sea_name_goes_to_the_only_legal_sea():
    s = game()
    run(s, {**nothing_else(s), "lannister": {"lannisport": ["ship"]}})
    assert units(s, "the_golden_sound") == ["ship", "ship"]


def test_ship_without_a_sea_name_is_ambiguous_with_two_legal_seas():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s, {**nothing_else(s), "stark": {"winterfell": ["ship"]},
                "lannister": {}})
    assert "name the sea" in stop.value.decisions[0].reason


def test_earlier_house_in_order_of_play_can_take_the_sea_a_later_plan_named():
    s = game()
    # Iron Throne: baratheon, lannister, stark, tyrell, greyjoy. Stark's White Harbor and
    # Baratheon's Dragonstone do not share a sea; use Lannister (2nd) and Greyjoy (5th):
    del s.areas["the_golden_sound"]
    put(s, "greyjoy", "riverrun", "footman")
    plans = nothing_else(s)
    plans["lannister"] = {"lannisport": ["ship:the_golden_sound"]}
    plans["greyjoy"] = {"riverrun": ["ship:the_golden_sound"]}
    with pytest.raises(Pending) as stop:
        run(s, plans)
    [decision] = stop.value.decisions
    assert decision.request.id == "r2/mustering/riverrun/greyjoy"
    assert "holds another house's ships" in decision.reason


def test_upgrade_needs_a_footman_in_that_castle_area():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s, {**nothing_else(s), "lannister": {"lannisport": ["upgrade", "upgrade"]}})
    assert "no footman of lannister in lannisport left to upgrade" in stop.value.decisions[0].reason


def test_upgrade_keeps_army_size_and_costs_one():
    s = game()
    run(s, {**nothing_else(s), "lannister": {"lannisport": ["upgrade", "footman"]}})
    assert units(s, "lannisport") == ["footman", "knight", "knight"]


def test_unit_limit_stops_mustering_a_fifth_knight():
    s = game()
    put(s, "lannister", "harrenhal", "knight", "knight")
    put(s, "lannister", "searoad_marches", "knight")
    with pytest.raises(Pending) as stop:
        run(s, {**nothing_else(s), "lannister": {"lannisport": ["knight"]}})
    assert "all 4 of its knights" in stop.value.decisions[0].reason


def test_supply_limit_stops_a_muster():
    s = game()
    s.houses["stark"].supply = 0  # armies [2, 2]
    put(s, "stark", "white_harbor", "footman", "footman")
    put(s, "stark", "the_shivering_sea", "ship", "ship")
    plans = {**nothing_else(s), "stark": {"winterfell": ["footman"]}, "lannister": {}}
    with pytest.raises(Pending) as stop:
        run(s, plans)
    assert "supply limit" in stop.value.decisions[0].reason


def test_castle_where_nothing_can_be_mustered_is_not_asked():
    s = game()
    s.houses["stark"].supply = 3  # [3, 2, 2, 2], all used; all four knights on the board
    put(s, "stark", "winterfell", "footman", "footman", "footman")
    put(s, "stark", "white_harbor", "footman", "footman")
    put(s, "stark", "castle_black", "knight", "knight")
    put(s, "stark", "karhold", "knight", "knight")
    put(s, "stark", "the_shivering_sea", "ship")
    put(s, "stark", "bay_of_ice", "ship")
    put(s, "greyjoy", "the_narrow_sea", "ship")
    with pytest.raises(Pending) as stop:
        run(s)
    ids = [d.request.id for d in stop.value.decisions]
    assert not any(i.endswith("/stark") for i in ids)
    ctx = run(s.copy(), defaults=True)
    assert [e["castle"] for e in ctx.events if e["type"] == "muster_impossible"] == [
        "white_harbor", "winterfell"]


def test_all_missing_musters_are_pending_together_in_order_of_play():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s)
    assert [d.request.id for d in stop.value.decisions] == [
        "r2/mustering/dragonstone/baratheon", "r2/mustering/lannisport/lannister",
        "r2/mustering/white_harbor/stark", "r2/mustering/winterfell/stark",
        "r2/mustering/highgarden/tyrell", "r2/mustering/pyke/greyjoy"]


def test_defaults_muster_nothing():
    s = game()
    before = {a: list(v.units) for a, v in s.areas.items()}
    ctx = run(s, defaults=True)
    assert {a: list(v.units) for a, v in s.areas.items()} == before
    assert len([e for e in ctx.events if e["type"] == "default_applied"]) == 6


def test_nmr_applies_the_default_only_to_that_house():
    s = game()
    with pytest.raises(Pending) as stop:
        run(s, nmr=("stark",))
    assert not any(d.request.house == "stark" for d in stop.value.decisions)


def test_musters_plan_covers_every_castle_unlisted_ones_muster_nothing():
    s = game()
    plans = {**nothing_else(s), "lannister": {}}
    plans["stark"] = {"winterfell": ["knight"]}
    run(s, plans)
    assert units(s, "winterfell") == ["footman", "knight", "knight"]
    assert units(s, "white_harbor") == ["footman"]


def test_muster_into_a_castle_held_by_a_power_token_only():
    s = game()
    s.areas["riverrun"] = AreaState(power_token="lannister")
    run(s, {**nothing_else(s), "lannister": {"lannisport": [], "riverrun": ["footman", "footman"]}})
    assert units(s, "riverrun") == ["footman", "footman"]
    assert s.areas["riverrun"].house == "lannister"
