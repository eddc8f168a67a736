"""End of the game (R11): the round-10 ranking and the instant win."""

from __future__ import annotations

import pytest

from agot_adjudicator.engine.board import check_instant_win
from agot_adjudicator.engine.context import Context, GameOver, Inputs
from agot_adjudicator.engine.decisions import Decider
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.engine.victory import end_of_game
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import AreaState, winner_reason

RS = load_ruleset()


def game(houses=None):
    s = new_game(RS, houses or list(RS.houses), 1, "t")
    for area in list(s.areas):
        if s.areas[area].house is not None:
            del s.areas[area]
    s.round = 10
    return s


def hold(s, house, *areas):
    for area in areas:
        s.areas[area] = AreaState(house=house, units=["footman"])


def ended(s):
    ctx = Context(RS, s, Inputs(), Decider())
    end_of_game(ctx)
    return ctx


@pytest.mark.parametrize("stark, lannister, winners, reason, said", [  # (supply, power)
    ((2, 9), (3, 1), ["lannister"], "by_supply", "tie on castles broken by supply (R11.1)"),
    ((3, 6), (3, 5), ["stark"], "by_power", "tie on castles and supply broken by power (R11.1)"),
    ((3, 6), (3, 6), ["lannister", "stark"], "shared",
     "tie on castles, supply and power: a shared win (R11.1)"),
])
def test_castle_ties_go_to_supply_then_power_then_a_shared_win(stark, lannister, winners, reason,
                                                                said):
    s = game()
    hold(s, "stark", "moat_cailin", "white_harbor")
    hold(s, "lannister", "riverrun", "harrenhal")
    s.houses["stark"].supply, s.houses["stark"].power = stark
    s.houses["lannister"].supply, s.houses["lannister"].power = lannister
    ctx = ended(s)
    assert s.phase == "ended" and s.winner["houses"] == winners and s.winner["reason"] == reason
    assert winner_reason(s.winner) == said   # the code's sentence, as the report says it
    [event] = [e for e in ctx.events if e["type"] == "game_ended"]
    assert event["winners"] == winners


def test_most_castle_areas_wins_whatever_the_supply_and_power():
    s = game()
    hold(s, "tyrell", "oldtown", "the_reach")
    s.houses["stark"].supply, s.houses["stark"].power = 6, 20
    ended(s)
    assert s.winner["houses"] == ["tyrell"] and s.winner["castles"]["tyrell"] == 3
    assert s.winner["reason"] == "most_castles" and winner_reason(s.winner) == \
        f"most areas with a castle (3) after round {s.round} (R11.1)"


@pytest.mark.parametrize("players, castles, wins", [(5, 6, False), (5, 7, True), (4, 7, True),
                                                    (3, 7, False), (3, 8, True)])
def test_instant_win_needs_seven_castle_areas_or_eight_with_three_players(players, castles, wins):
    houses = {5: None, 4: ["stark", "lannister", "baratheon", "tyrell"],
              3: ["stark", "lannister", "baratheon"]}[players]
    s = game(houses)
    s.round = 4
    extra = ["moat_cailin", "white_harbor", "flints_finger", "seagard", "riverrun", "harrenhal",
             "crackclaw_point"][:castles - 1]
    hold(s, "stark", *extra)
    ctx = Context(RS, s, Inputs(), Decider())
    if wins:
        with pytest.raises(GameOver):
            check_instant_win(ctx)
        assert s.winner["houses"] == ["stark"] and s.phase == "ended"
        assert s.winner["reason"] == "instant_win" and s.winner["castles"] == {"stark": castles}
        assert winner_reason(s.winner) == f"controls {castles} areas with a castle (R11.2)"
    else:
        check_instant_win(ctx)
        assert s.winner is None
