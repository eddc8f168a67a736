"""Supply (R3.4, R9): new supply levels, reductions by choice, plan, default; pending ids."""

from __future__ import annotations

import pytest
from builders import answer, clear, put, run_westeros, westeros_game

from agot_adjudicator.engine.context import HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError, Pending
from agot_adjudicator.engine.supply import plan_reduction
from agot_adjudicator.io.rulesets import load_ruleset

RS = load_ruleset()


def game(houses=None):
    return westeros_game(RS, houses, I="supply")


def run(s, inputs=None, **decider):
    return run_westeros(RS, s, inputs, **decider)


def lannister_example(s):
    """Rulebook, supply example: Lannister at 5 loses Riverrun and Seagard, drops to 3."""
    clear(s, "lannister")
    s.houses["lannister"].supply = 5
    put(s, "lannister", "harrenhal", "footman", "footman", "knight", "knight")
    put(s, "lannister", "the_golden_sound", "ship", "ship", "ship")
    put(s, "lannister", "searoad_marches", "knight", "knight")
    put(s, "lannister", "stoney_sept", "footman", "footman")
    # Lannisport (home, 2 barrels) + Searoad Marches (1) = 3 barrels


def test_supply_level_is_set_from_barrels_in_order_of_play():
    s = game()
    s.houses["stark"].supply = 4
    ctx = run(s)
    events = [e for e in ctx.events if e["type"] == "supply_set"]
    assert [e["house"] for e in events] == s.order_of_play()
    assert s.houses["stark"].supply == 1
    assert {e["house"]: e["new"] for e in events} == {"stark": 1, "lannister": 2, "baratheon": 1,
                                                       "greyjoy": 2, "tyrell": 3}


def test_supply_rises_when_more_barrels_are_controlled():
    s = game()
    put(s, "stark", "blackwater", "footman")  # 2 barrels
    run(s)
    assert s.houses["stark"].supply == 3


def test_rulebook_example_lannister_destroys_a_ship_and_a_footman():
    s = game()
    lannister_example(s)
    plan = [{"area": "the_golden_sound", "unit": "ship"}, {"area": "harrenhal", "unit": "footman"}]
    ctx = run(s, Inputs({"lannister": HouseInput(plans={"supply_reductions": plan})}))
    assert s.houses["lannister"].supply == 3
    assert s.areas["harrenhal"].units == ["footman", "knight", "knight"]
    assert s.areas["the_golden_sound"].units == ["ship", "ship"]
    destroyed = [(e["area"], e["unit"]) for e in ctx.events if e["type"] == "unit_destroyed"]
    assert destroyed == [("the_golden_sound", "ship"), ("harrenhal", "footman")]


def test_type_priority_reduction_removes_the_fewest_units_in_the_listed_order():
    s = game()
    lannister_example(s)
    ctx = run(s, Inputs({"lannister": HouseInput(plans={"supply_reductions": ["ship", "footman",
                                                                               "knight"]})}))
    destroyed = sorted((e["area"], e["unit"]) for e in ctx.events if e["type"] == "unit_destroyed")
    assert destroyed == [("harrenhal", "footman"), ("the_golden_sound", "ship")]


def test_missing_reduction_is_pending_for_the_house_over_its_limit_only():
    s = game()
    lannister_example(s)
    with pytest.raises(Pending) as stop:
        run(s)
    assert [d.request.id for d in stop.value.decisions] == ["r2/supply/reduce/lannister"]
    example = stop.value.decisions[0].request.example
    assert len(example) == 2


def test_reduction_that_destroys_more_than_needed_is_not_legal():
    s = game()
    lannister_example(s)
    too_many = [{"area": "the_golden_sound", "unit": "ship"}, {"area": "harrenhal", "unit": "footman"},
                {"area": "stoney_sept", "unit": "footman"}]
    with pytest.raises(Pending) as stop:
        run(s.copy(), Inputs({"lannister": HouseInput(plans={"supply_reductions": too_many})}))
    assert "need not be destroyed" in stop.value.decisions[0].reason
    with pytest.raises(AnswerError, match="need not be destroyed"):
        run(s.copy(), answers={"r2/supply/reduce/lannister": answer(too_many)})


def test_reduction_that_leaves_armies_over_the_limit_is_not_legal():
    s = game()
    lannister_example(s)
    with pytest.raises(AnswerError, match="still exceed"):
        run(s, answers={"r2/supply/reduce/lannister": answer([{"area": "harrenhal",
                                                                "unit": "knight"}])})


def test_reduction_naming_a_unit_not_on_the_board_is_not_legal():
    s = game()
    lannister_example(s)
    with pytest.raises(AnswerError, match="no ship in harrenhal"):
        run(s, answers={"r2/supply/reduce/lannister": answer([{"area": "harrenhal", "unit": "ship"},
                                                               {"area": "harrenhal", "unit": "footman"}])})


def test_type_list_that_cannot_make_the_armies_fit_is_pending_with_the_reason():
    s = game()
    lannister_example(s)
    with pytest.raises(Pending) as stop:
        run(s, Inputs({"lannister": HouseInput(plans={"supply_reductions": ["knight"]})}))
    assert "beyond the types listed" in stop.value.decisions[0].reason


def test_default_reduction_loses_the_cheapest_units():
    s = game()
    lannister_example(s)
    ctx = run(s, defaults=True)
    destroyed = sorted((e["area"], e["unit"]) for e in ctx.events if e["type"] == "unit_destroyed")
    assert destroyed == [("harrenhal", "footman"), ("the_golden_sound", "ship")]
    assert any(e["type"] == "default_applied" and e["decision"] == "r2/supply/reduce/lannister"
               for e in ctx.events)


def test_reduction_disbands_an_army_when_there_are_too_many_armies():
    s = game()
    clear(s, "stark")
    # Stark: Winterfell (1 barrel) only -> supply 1: [3, 2]
    put(s, "stark", "winterfell", "footman", "footman")
    put(s, "stark", "white_harbor", "footman", "footman")
    put(s, "stark", "the_shivering_sea", "ship", "ship")
    units = plan_reduction(s, RS, "stark", 1, ["ship", "footman", "knight"])
    assert units == [("the_shivering_sea", "ship")]


def test_reduction_prefers_cutting_the_smallest_armies_to_fit():
    s = game()
    clear(s, "stark")
    put(s, "stark", "winterfell", "footman", "footman", "footman")
    put(s, "stark", "white_harbor", "footman", "footman", "footman")
    # supply 1: [3, 2]: one footman from one army of three
    units = plan_reduction(s, RS, "stark", 1, ["footman"])
    assert units == [("white_harbor", "footman")]


def test_supply_reduction_never_empties_an_area():
    s = game()
    clear(s, "stark")
    put(s, "stark", "winterfell", "footman", "footman")
    put(s, "stark", "white_harbor", "footman", "footman")
    put(s, "stark", "the_shivering_sea", "ship", "ship")
    both = [{"area": "the_shivering_sea", "unit": "ship"}, {"area": "the_shivering_sea", "unit": "ship"}]
    with pytest.raises(AnswerError, match="need not be destroyed"):
        run(s, answers={"r2/supply/reduce/stark": answer(both)})


def test_supply_reduction_answer_in_another_house_file_is_refused():
    s = game()
    lannister_example(s)
    plan = [{"area": "the_golden_sound", "unit": "ship"}, {"area": "harrenhal", "unit": "footman"}]
    with pytest.raises(AnswerError, match="cannot answer"):
        run(s, answers={"r2/supply/reduce/lannister": answer(plan, house="stark")})
