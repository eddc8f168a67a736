"""Wildling attack (R3.7, R8): Night's Watch bids, ties, reward, losses, threat reset."""

from __future__ import annotations

import pytest
from builders import answer, run_westeros, westeros_game

from agot_adjudicator.engine.context import GameOver, HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError, Pending
from agot_adjudicator.engine.wildlings import losses_by_priority, required_payment
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import AreaState

RS = load_ruleset()
HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell")


def game(threat=6, houses=None):
    s = westeros_game(RS, houses, I="supply", II="game_of_thrones", III="wildling_attack")
    s.wildling_threat = threat  # no card above bears the icon
    return s


def inputs(bids, plans=None):
    plans = plans or {}
    return Inputs({h: HouseInput(wildlings=b, plans=plans.get(h, {})) for h, b in bids.items()})


def run(s, houses=None, **decider):
    return run_westeros(RS, s, houses, **decider)


def events(ctx, type_):
    return [e for e in ctx.events if e["type"] == type_]


def power(s):
    return {h: s.houses[h].power for h in s.houses}


def test_nights_watch_wins_when_bids_equal_the_threat_and_bids_go_to_the_pool():
    s = game(threat=4)
    s.houses["stark"].discards = ["eddard_stark"]
    s.houses["stark"].hand.remove("eddard_stark")
    ctx = run(s, inputs({"stark": 1, "lannister": 0, "baratheon": 1, "greyjoy": 1, "tyrell": 1},
                        {"stark": {"wildling_reward": []}}),
              answers={"r2/wildlings/highest/tie_break/baratheon": answer("stark")})
    before = {e["house"]: e["power"] for e in events(ctx, "power_gained")}
    [nw] = events(ctx, "nights_watch")
    assert (nw["strength"], nw["threat"], nw["winner"]) == (4, 4, "nights_watch")
    assert power(s) == {h: before[h] - b for h, b in
                        {"stark": 1, "lannister": 0, "baratheon": 1, "greyjoy": 1, "tyrell": 1}.items()}
    assert s.wildling_threat == 0


def test_highest_bidder_takes_a_discarded_card_back():
    s = game(threat=2)
    hs = s.houses["stark"]
    hs.hand = [c for c in hs.hand if c not in ("eddard_stark", "robb_stark")]
    hs.discards = ["eddard_stark", "robb_stark"]
    run(s, inputs({"stark": 1, "lannister": 0, "baratheon": 0, "greyjoy": 0, "tyrell": 1},
                  {"stark": {"wildling_reward": ["catelyn_stark", "robb_stark"]}}),
        answers={"r2/wildlings/highest/tie_break/baratheon": answer("stark")})
    assert "robb_stark" in hs.hand and hs.discards == ["eddard_stark"]


def test_reward_default_is_the_strongest_discarded_card():
    s = game(threat=0)
    hs = s.houses["stark"]
    hs.hand = [c for c in hs.hand if c not in ("eddard_stark", "catelyn_stark")]
    hs.discards = ["catelyn_stark", "eddard_stark"]
    ctx = run(s, inputs({"stark": 1, "lannister": 0, "baratheon": 0, "greyjoy": 0, "tyrell": 0}),
              nmr=("stark",))
    assert events(ctx, "card_returned")[0]["card"] == "eddard_stark"


def test_highest_bidder_tie_is_broken_by_the_iron_throne_holder():
    s = game(threat=2)
    for h in ("stark", "tyrell"):
        card = s.houses[h].hand.pop(0)
        s.houses[h].discards = [card]
    with pytest.raises(Pending) as stop:
        run(s.copy(), inputs({"stark": 1, "lannister": 0, "baratheon": 0, "greyjoy": 0, "tyrell": 1}))
    assert [d.request.id for d in stop.value.decisions] == ["r2/wildlings/highest/tie_break/baratheon"]
    assert stop.value.decisions[0].request.options == ("stark", "tyrell")
    ctx = run(s, inputs({"stark": 1, "lannister": 0, "baratheon": 0, "greyjoy": 0, "tyrell": 1},
                        {"baratheon": {"tie_break": ["tyrell", "stark", "baratheon"]},
                         "tyrell": {"wildling_reward": []}}))
    assert events(ctx, "tie_broken")[0]["chosen"] == "tyrell"
    assert events(ctx, "card_returned")[0] == {**events(ctx, "card_returned")[0], "house": "tyrell",
                                               "card": None, "reason": "declined"}


def test_wildlings_win_every_house_loses_two_points_the_lowest_bidder_four():
    s = game(threat=6)
    plans = {h: {"wildling_losses": ["footman", "ship", "knight"]} for h in HOUSES}
    ctx = run(s, inputs({"stark": 1, "lannister": 1, "baratheon": 1, "greyjoy": 0, "tyrell": 1},
                        plans))
    losses = {e["house"]: (e["owed"], e["points"]) for e in events(ctx, "wildling_losses")}
    assert losses == {"baratheon": (2, 2), "lannister": (2, 2), "stark": (2, 2), "tyrell": (2, 2),
                      "greyjoy": (4, 4)}
    assert s.wildling_threat == 0


def test_lowest_bidder_tie_is_broken_by_the_iron_throne_holder():
    s = game(threat=12)
    plans = {h: {"wildling_losses": ["footman", "ship", "knight"]} for h in HOUSES}
    plans["baratheon"]["tie_break"] = ["stark", "greyjoy", "tyrell", "lannister", "baratheon"]
    ctx = run(s, inputs({"stark": 0, "lannister": 0, "baratheon": 1, "greyjoy": 0, "tyrell": 1},
                        plans))
    # Baratheon ranks lannister last among the tied (stark, lannister, greyjoy).
    assert events(ctx, "tie_broken")[0]["chosen"] == "lannister"
    owed = {e["house"]: e["owed"] for e in events(ctx, "wildling_losses")}
    assert owed["lannister"] == 4 and owed["stark"] == 2 and owed["greyjoy"] == 2


def test_lowest_bidder_tie_without_a_plan_is_pending_for_the_holder():
    s = game(threat=12)
    with pytest.raises(Pending) as stop:
        run(s, inputs({"stark": 0, "lannister": 0, "baratheon": 1, "greyjoy": 1, "tyrell": 1}))
    # RUL-8.4-4: with the losses of the houses outside the tie, who owe 2 whoever is picked
    assert [d.request.id for d in stop.value.decisions] == [
        "r2/wildlings/lowest/tie_break/baratheon", "r2/wildlings/losses/baratheon",
        "r2/wildlings/losses/tyrell", "r2/wildlings/losses/greyjoy"]


def test_house_with_fewer_units_than_it_owes_removes_everything_unasked():
    s = game(threat=12)
    for area_id in [a for a in s.areas if s.areas[a].house == "stark"]:
        del s.areas[area_id]
    s.areas["winterfell"] = AreaState(house="stark", units=["footman"])
    s.areas["white_harbor"] = AreaState(house="stark", units=["footman"])
    with pytest.raises(Pending) as stop:
        run(s.copy(), inputs({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1}))
    assert "r2/wildlings/losses/stark" not in [d.request.id for d in stop.value.decisions]
    ctx = run(s, inputs({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1}),
              defaults=True)
    stark = next(e for e in events(ctx, "wildling_losses") if e["house"] == "stark")
    assert (stark["owed"], stark["points"]) == (4, 2)
    assert not any(a.house == "stark" for a in s.areas.values())


def test_missing_losses_are_pending_together_in_order_of_play():
    s = game(threat=12)
    with pytest.raises(Pending) as stop:
        run(s, inputs({"stark": 0, "lannister": 1, "baratheon": 2, "greyjoy": 1, "tyrell": 1}))
    assert [d.request.id for d in stop.value.decisions] == [
        "r2/wildlings/losses/baratheon", "r2/wildlings/losses/lannister", "r2/wildlings/losses/stark",
        "r2/wildlings/losses/tyrell", "r2/wildlings/losses/greyjoy"]


def test_one_knight_pays_two_points():
    s = game(threat=12)
    ctx = run(s, inputs({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1},
                        {h: {"wildling_losses": ["knight", "footman", "ship"]} for h in HOUSES}))
    lannister = next(e for e in events(ctx, "wildling_losses") if e["house"] == "lannister")
    assert lannister["units"] == [{"area": "lannisport", "unit": "knight"}]


def test_explicit_losses_must_be_worth_exactly_what_is_owed():
    s = game(threat=12)
    over = [{"area": "winterfell", "unit": "knight"}, {"area": "winterfell", "unit": "footman"}]
    with pytest.raises(AnswerError, match="owes 2 points and must remove units worth 2; these are "
                                          "worth 3"):
        run(s, inputs({"stark": 1, "lannister": 1, "baratheon": 1, "greyjoy": 0, "tyrell": 1}),
            defaults=True, answers={"r2/wildlings/losses/stark": answer(over)})


def test_knight_pays_a_last_single_point_only_when_nothing_else_can():
    units = [("a", "knight"), ("b", "knight")]
    assert required_payment(units, 3) == 4
    assert losses_by_priority(units, 3, ["footman", "knight"]) == [("a", "knight"), ("b", "knight")]
    units = [("a", "knight"), ("b", "knight"), ("c", "footman")]
    assert required_payment(units, 3) == 3
    assert losses_by_priority(units, 3, ["knight", "footman"]) == [("a", "knight"), ("c", "footman")]


def test_type_list_loses_units_from_the_largest_army_first():
    units = [("a", "footman"), ("b", "footman"), ("b", "footman"), ("b", "knight")]
    assert losses_by_priority(units, 2, ["footman", "knight"]) == [("b", "footman"), ("b", "footman")]


def test_defaults_bid_zero_and_lose_the_cheapest_units():
    s = game(threat=2)
    ctx = run(s, defaults=True)
    [nw] = events(ctx, "nights_watch")
    assert nw["strength"] == 0 and nw["winner"] == "wildlings"
    for e in events(ctx, "wildling_losses"):
        assert all(u["unit"] in ("footman", "ship") for u in e["units"]), e


def test_wildling_losses_can_give_a_home_area_back_and_win_the_game_at_once():
    s = game(threat=12)
    for area_id in [a for a in s.areas if s.areas[a].house in ("lannister", "stark")]:
        del s.areas[area_id]
    for area_id in ("riverrun", "seagard", "harrenhal", "the_reach", "oldtown", "flints_finger"):
        s.areas[area_id] = AreaState(house="lannister", units=["footman", "footman", "footman"])
    s.areas["lannisport"] = AreaState(house="stark", units=["knight"])
    s.areas["winterfell"] = AreaState(house="stark", units=["footman", "footman", "footman"])
    with pytest.raises(GameOver):
        run(s, inputs({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1},
                      {"stark": {"wildling_losses": [{"area": "lannisport", "unit": "knight"},
                                                     {"area": "winterfell", "unit": "footman"},
                                                     {"area": "winterfell", "unit": "footman"}]}}),
            defaults=True)
    assert s.winner["houses"] == ["lannister"]


@pytest.mark.parametrize("value, why", [
    ([{"area": "winterfell", "unit": "ship"}], "stark has no ship in winterfell"),
    ([], "the list of unit types is empty"),
    (["footman", "footman"], "a unit type is listed twice"),
    ("footman", "expected a list of unit types or of {area, unit} entries"),
])
def test_losses_and_supply_reductions_share_one_answer_resolver(value, why):
    from agot_adjudicator.engine.supply import reduction_for, units_of
    from agot_adjudicator.engine.wildlings import losses_for
    s = game()
    s.areas["winterfell"] = AreaState(house="stark", units=["footman", "footman", "knight"])
    assert losses_for(s, units_of(s, RS, "stark"), "stark", 2, value, RS) == why
    assert reduction_for(s, RS, "stark", 0, value) == why
