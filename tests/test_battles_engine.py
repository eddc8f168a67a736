"""Battles (R6) called directly: support, strength, Blade, ties, casualties, retreats, R6.12."""

from __future__ import annotations

from typing import Any

import pytest
from builders import action_game
from builders import fight as shared_fight

from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import Pending
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import GameState

RS = load_ruleset()
# Fiefdoms at the start (5 players): greyjoy, tyrell, stark, baratheon, lannister.


def game(areas: dict[str, dict[str, Any]], **changes: Any) -> GameState:
    """A 5-player state in the action phase with only ``areas`` on the board; supply 6."""
    s = action_game(RS, areas)
    for key, value in changes.items():
        setattr(s, key, value)
    return s


def fight(s: GameState, origin: str, target: str, units: list[str], **options: Any) -> Context:
    return shared_fight(RS, s, origin, target, units, **options)


def events(ctx: Context, type_: str) -> list[dict[str, Any]]:
    return [e for e in ctx.events if e["type"] == type_]


def summary(ctx: Context) -> dict[str, Any]:
    (battle,) = events(ctx, "battle")
    return battle


# --- R6.2 support --------------------------------------------------------------------------

def test_rulebook_support_example_strengths() -> None:
    """Rulebook, support example: Tyrell 7 (2 knights, King's Landing 2, March +1) against
    Lannister 6 (footman 1, The Reach 3, Harrenhal 2)."""
    s = game({
        "searoad_marches": {"house": "tyrell", "units": ["knight", "knight"], "order": "march_plus1"},
        "blackwater": {"house": "lannister", "units": ["footman"], "order": "march_minus1"},
        "kings_landing": {"house": "tyrell", "units": ["knight"], "order": "support"},
        "the_reach": {"house": "lannister", "units": ["footman", "knight"], "order": "support"},
        "harrenhal": {"house": "stark", "units": ["knight"], "order": "support"},
    })
    ctx = fight(s, "searoad_marches", "blackwater", ["knight", "knight"], march="march_plus1",
                cards={"tyrell": "queen_of_thorns", "lannister": "cersei_lannister"},
                plans={"stark": {"support": {"harrenhal": ["lannister"]}}})
    sides = summary(ctx)["sides"]
    assert sides["attacker"]["total"] == 7
    assert sides["defender"]["total"] == 6
    assert [x["area"] for x in sides["defender"]["support"]] == ["the_reach", "harrenhal"]
    assert summary(ctx)["winner"] == "tyrell"
    assert s.areas["blackwater"].house == "tyrell"


def test_support_refused_by_the_side_offered_it() -> None:
    s = game({
        "stoney_sept": {"house": "lannister", "units": ["footman", "footman"]},
        "harrenhal": {"house": "stark", "units": ["footman"]},
        "blackwater": {"house": "baratheon", "units": ["knight"], "order": "support"},
    })
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman", "footman"],
                cards={"lannister": "cersei_lannister", "stark": "catelyn_stark"},
                plans={"baratheon": {"support": {"blackwater": ["stark"]}},
                       "stark": {"accept_support": False}})
    assert events(ctx, "support_refused")[0]["refused_by"] == "stark"
    assert summary(ctx)["winner"] == "lannister"


def test_ships_support_a_land_battle() -> None:
    s = game({
        "stoney_sept": {"house": "lannister", "units": ["footman", "footman"]},
        "riverrun": {"house": "stark", "units": ["footman", "footman"]},
        "ironmans_bay": {"house": "greyjoy", "units": ["ship", "ship"], "order": "support"},
    })
    ctx = fight(s, "stoney_sept", "riverrun", ["footman", "footman"],
                cards={"lannister": "cersei_lannister", "stark": "catelyn_stark"},
                plans={"greyjoy": {"support": {"ironmans_bay": ["lannister"]}}})
    assert summary(ctx)["sides"]["attacker"]["total"] == 4
    assert summary(ctx)["winner"] == "lannister"


def test_land_units_never_support_at_sea() -> None:
    s = game({
        "sunset_sea": {"house": "greyjoy", "units": ["ship", "ship"]},
        "the_golden_sound": {"house": "lannister", "units": ["ship"]},
        "lannisport": {"house": "lannister", "units": ["knight", "knight"], "order": "support"},
        "riverrun": {"house": "stark", "units": ["ship"], "order": "support"},
    })
    s.areas["riverrun"].units = ["knight"]
    ctx = fight(s, "sunset_sea", "the_golden_sound", ["ship", "ship"],
                cards={"greyjoy": "balon_greyjoy", "lannister": "cersei_lannister"})
    assert not [i for i in ctx.decider.asked if "support@" in i]
    assert summary(ctx)["sides"]["defender"]["support"] == []
    assert summary(ctx)["winner"] == "greyjoy"


def test_routed_units_add_no_support() -> None:
    s = game({
        "stoney_sept": {"house": "lannister", "units": ["footman", "footman"]},
        "harrenhal": {"house": "stark", "units": ["footman"]},
        "blackwater": {"house": "stark", "units": ["knight", "footman"], "routed": ["knight"],
                       "order": "support"},
    })
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman", "footman"],
                cards={"lannister": "cersei_lannister", "stark": "catelyn_stark"},
                plans={"stark": {"support": {"blackwater": ["stark"]}}})
    assert summary(ctx)["sides"]["defender"]["support"][0]["strength"] == 1
    # 2 vs 2: Stark is above Lannister on Fiefdoms.
    assert summary(ctx)["winner"] == "stark"


def test_rains_of_autumn_supporting_footmen_add_nothing() -> None:
    s = game({
        "stoney_sept": {"house": "lannister", "units": ["footman", "footman"]},
        "harrenhal": {"house": "stark", "units": ["footman"]},
        "blackwater": {"house": "stark", "units": ["footman"], "order": "support"},
    }, restrictions=["rains_of_autumn"])
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman", "footman"],
                cards={"lannister": "cersei_lannister", "stark": "catelyn_stark"},
                plans={"stark": {"support": {"blackwater": ["stark"]}}})
    assert summary(ctx)["sides"]["defender"]["total"] == 1
    assert summary(ctx)["winner"] == "lannister"


# --- R6.3, R6.6 strength and ties -------------------------------------------------------------

def test_tie_goes_to_higher_fiefdoms_position() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
              "harrenhal": {"house": "tyrell", "units": ["footman", "footman"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight"],
                cards={"lannister": "lannister_captain", "tyrell": "margaery_tyrell"})
    assert summary(ctx)["decided_by"] == "fiefdoms_tie_break"
    assert summary(ctx)["winner"] == "tyrell"
    s2 = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
               "harrenhal": {"house": "tyrell", "units": ["footman", "footman"]}},
              tracks={**s.tracks, "fiefdoms": ["lannister", "greyjoy", "tyrell", "stark",
                                               "baratheon"]})
    ctx2 = fight(s2, "stoney_sept", "harrenhal", ["knight"],
                 cards={"lannister": "lannister_captain", "tyrell": "margaery_tyrell"})
    assert summary(ctx2)["winner"] == "lannister"


def test_march_and_defense_modifiers_count() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "footman"]},
              "harrenhal": {"house": "stark", "units": ["footman"], "order": "defense_plus2"}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "footman"], march="march_minus1",
                cards={"lannister": "cersei_lannister", "stark": "maester_luwin"})
    sides = summary(ctx)["sides"]
    assert sides["attacker"]["total"] == 2 and sides["defender"]["total"] == 3
    assert summary(ctx)["winner"] == "stark"


# --- R6.5 Valyrian Steel Blade ---------------------------------------------------------------

def _blade_state() -> GameState:
    # Greyjoy holds the Blade (Fiefdoms 1); 2 vs 3 before the Blade.
    return game({"pyke": {"house": "greyjoy", "units": ["footman", "footman"]},
                 "ironmans_bay": {"house": "greyjoy", "units": ["ship"]},
                 "riverrun": {"house": "lannister", "units": ["footman", "footman", "footman"]}})


def test_blade_decides_the_battle_with_plan_auto() -> None:
    s = _blade_state()
    ctx = fight(s, "pyke", "riverrun", ["footman", "footman"],
                cards={"greyjoy": "victarion_greyjoy", "lannister": "cersei_lannister"},
                plans={"greyjoy": {"blade": "auto"}})
    assert summary(ctx)["sides"]["attacker"]["blade"] == 1
    assert summary(ctx)["winner"] == "greyjoy"  # 3 vs 3, Greyjoy first on Fiefdoms
    assert s.blade_used is True
    assert s.areas["riverrun"].house == "greyjoy"


def test_blade_is_asked_when_it_changes_the_outcome_and_default_is_never() -> None:
    s = _blade_state()
    with pytest.raises(Pending) as stop:
        fight(s, "pyke", "riverrun", ["footman", "footman"], defaults=False,
              cards={"greyjoy": "victarion_greyjoy", "lannister": "cersei_lannister"})
    assert [d.request.id for d in stop.value.decisions] == ["r1/march@pyke/blade/greyjoy"]
    s = _blade_state()
    ctx = fight(s, "pyke", "riverrun", ["footman", "footman"],
                cards={"greyjoy": "victarion_greyjoy", "lannister": "cersei_lannister"})
    assert summary(ctx)["winner"] == "lannister" and s.blade_used is False


def test_blade_once_per_round_and_not_asked_when_useless() -> None:
    s = _blade_state()
    s.blade_used = True
    ctx = fight(s, "pyke", "riverrun", ["footman", "footman"],
                cards={"greyjoy": "victarion_greyjoy", "lannister": "cersei_lannister"})
    assert summary(ctx)["winner"] == "lannister"
    s = _blade_state()
    ctx = fight(s, "pyke", "riverrun", ["footman", "footman"],
                cards={"greyjoy": "victarion_greyjoy", "lannister": "tywin_lannister"})
    assert not [i for i in ctx.decider.asked if "/blade/" in i]  # 2 vs 3: +1 would not win


# --- R6.7 casualties -------------------------------------------------------------------------

def test_casualties_are_swords_minus_forts_and_default_is_cheapest() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
              "harrenhal": {"house": "stark", "units": ["footman", "knight", "footman"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                cards={"lannister": "tywin_lannister", "stark": "ser_rodrik_cassel"})
    (cas,) = events(ctx, "casualties")
    assert (cas["swords"], cas["forts"], cas["count"], cas["units"]) == (2, 1, 1, ["footman"])
    assert sorted(s.areas["blackwater"].units) == ["footman", "knight"]
    assert s.areas["blackwater"].routed == ["footman", "knight"]


def test_casualties_pending_then_plan_then_answer() -> None:
    def run(**kw: Any) -> tuple[Context, GameState]:
        s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
                  "harrenhal": {"house": "stark", "units": ["footman", "knight", "footman"]}})
        cards = {"lannister": "tywin_lannister", "stark": "ser_rodrik_cassel"}
        kw.setdefault("plans", {}).setdefault("stark", {})["retreats"] = {"harrenhal": ["riverrun"]}
        return fight(s, "stoney_sept", "harrenhal", ["knight", "knight"], cards=cards,
                     defaults=False, **kw), s
    with pytest.raises(Pending) as stop:
        run()
    (pending,) = stop.value.decisions
    assert pending.request.id == "r1/march@stoney_sept/casualties/stark"
    assert ["footman"] in pending.request.options and ["knight"] in pending.request.options
    ctx, _ = run(plans={"stark": {"casualties": ["knight", "footman"]}})
    assert events(ctx, "casualties")[0]["units"] == ["knight"]
    ctx, _ = run(answers={"r1/march@stoney_sept/casualties/stark": ["knight"]},
                 plans={"stark": {"casualties": ["footman"]}})
    assert events(ctx, "casualties")[0]["units"] == ["knight"]


def test_casualties_never_routed_units() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
              "harrenhal": {"house": "stark", "units": ["footman", "knight"], "routed": ["knight"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                cards={"lannister": "tywin_lannister", "stark": "catelyn_stark"})
    assert events(ctx, "casualties")[0]["units"] == ["footman"]
    destroyed = events(ctx, "unit_destroyed")
    assert destroyed[0]["units"] == ["knight"] and destroyed[0]["rule"] == "R6.9"
    assert s.areas["harrenhal"].units == ["knight", "knight"]
    assert "blackwater" not in s.areas


def test_beaten_attacker_returns_routed_to_origin_and_keeps_its_power_token() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman", "footman"]},
              "harrenhal": {"house": "stark", "units": ["knight", "knight"]}})
    s.areas["stoney_sept"].power_token = "lannister"
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman", "footman"],
                cards={"lannister": "cersei_lannister", "stark": "greatjon_umber"})
    assert events(ctx, "casualties")[0]["units"] == ["footman"]
    origin = s.areas["stoney_sept"]
    assert (origin.house, origin.units, origin.routed, origin.power_token) == (
        "lannister", ["footman"], ["footman"], "lannister")


def test_the_occupation_event_keeps_the_units_that_moved_in() -> None:
    """R6.11: the area_occupied event is a record of the moment; a later change of the area in
    the same round (casualties of another battle there, R6.7; supply, R9) does not rewrite it."""
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                cards={"lannister": "tywin_lannister", "stark": "catelyn_stark"})
    (occupied,) = events(ctx, "area_occupied")
    assert occupied["units"] == ["knight", "knight"]
    with ctx.state.edit("harrenhal") as here:
        here.units.remove("knight")  # as casualties are taken (battles.py, supply.py)
    assert occupied["units"] == ["knight", "knight"]


# --- R6.9, R6.10 retreats --------------------------------------------------------------------

def test_retreat_plan_skips_an_illegal_area() -> None:
    """The plan's first choice (the attacker's origin) is not legal: the next one is used.
    The options asked without a plan are BATTLE-017's (same board)."""
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"]},
              "crackclaw_point": {"house": "baratheon", "units": ["footman"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                cards={"lannister": "cersei_lannister", "stark": "catelyn_stark"},
                plans={"stark": {"retreats": {"harrenhal": ["stoney_sept", "riverrun"]}}})
    assert events(ctx, "retreat")[0]["to"] == "riverrun"
    assert s.areas["riverrun"].routed == ["footman"]
    assert s.areas["harrenhal"].house == "lannister"


def test_retreat_by_ship_transport() -> None:
    # Pyke is an island: the only way out is through Greyjoy ships.
    s = game({"riverrun": {"house": "stark", "units": ["knight", "knight", "knight"]},
              "pyke": {"house": "greyjoy", "units": ["footman"]},
              "ironmans_bay": {"house": "greyjoy", "units": ["ship"]},
              "the_golden_sound": {"house": "baratheon", "units": ["ship"]}})
    # (How Stark got to Pyke is the march's business.) Greyjoy's ship in Ironman's Bay carries
    # the survivor to Flint's Finger, Greywater Watch or Seagard; Riverrun is the origin.
    ctx = fight(s, "riverrun", "pyke", ["knight", "knight", "knight"],
                cards={"stark": "eddard_stark", "greyjoy": "balon_greyjoy"},
                plans={"greyjoy": {"retreats": {"pyke": ["seagard"]}}})
    assert summary(ctx)["winner"] == "stark"
    assert events(ctx, "retreat")[0]["to"] == "seagard"
    assert s.areas["seagard"].routed == ["footman"]


def test_no_legal_retreat_destroys_the_survivors() -> None:
    s = game({"riverrun": {"house": "stark", "units": ["knight", "knight"]},
              "pyke": {"house": "greyjoy", "units": ["footman", "footman"]}})
    ctx = fight(s, "riverrun", "pyke", ["knight", "knight"],
                cards={"stark": "robb_stark", "greyjoy": "balon_greyjoy"})
    assert events(ctx, "retreat")[0]["destroyed"] == ["footman", "footman"]
    assert s.areas["pyke"].house == "stark"


def test_rulebook_routed_knight_attacked_again_is_destroyed() -> None:
    """Rulebook (simplified Chinese): a routed Tyrell knight in Storm's End with a Tyrell footman; Baratheon
    attacks with two knights carried from Dragonstone; the footman defends alone (1) and
    the routed knight, unable to retreat again, is destroyed."""
    s = game({"dragonstone": {"house": "baratheon", "units": ["knight", "knight"]},
              "shipbreaker_bay": {"house": "baratheon", "units": ["ship"]},
              "storms_end": {"house": "tyrell", "units": ["footman", "knight"],
                             "routed": ["knight"]}})
    ctx = fight(s, "dragonstone", "storms_end", ["knight", "knight"],
                cards={"baratheon": "robert_baratheon", "tyrell": "margaery_tyrell"},
                plans={"tyrell": {"retreats": {"storms_end": ["kingswood"]}}})
    assert summary(ctx)["sides"]["defender"]["units_strength"] == 1
    assert summary(ctx)["winner"] == "baratheon"
    assert events(ctx, "unit_destroyed")[0]["units"] == ["knight"]
    assert s.areas["kingswood"].units == ["footman"]
    assert s.areas["storms_end"].units == ["knight", "knight"]


def test_defender_win_keeps_its_order_and_routed_units() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman"]},
              "harrenhal": {"house": "stark", "units": ["knight", "footman"], "routed": ["footman"],
                            "order": "defense_plus1"}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman"],
                cards={"lannister": "cersei_lannister", "stark": "maester_luwin"})
    assert summary(ctx)["winner"] == "stark"
    here = s.areas["harrenhal"]
    assert (here.order, here.routed) == ("defense_plus1", ["footman"])


def test_winner_occupies_removes_defender_order() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"], "order": "support"}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                cards={"lannister": "cersei_lannister", "stark": "maester_luwin"})
    assert s.areas["harrenhal"].order is None and s.areas["harrenhal"].house == "lannister"
    assert events(ctx, "order_removed")[0]["rule"] == "R6.11"


# --- R6.4, R6.12 house cards -----------------------------------------------------------------

def test_both_house_cards_pending_together_with_stable_ids() -> None:
    def state() -> GameState:
        return game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
                     "harrenhal": {"house": "stark", "units": ["footman"]},
                     "blackwater": {"house": "baratheon", "units": ["knight"], "order": "support"}})
    plans = {"baratheon": {"support": {"blackwater": ["stark"]}}}
    with pytest.raises(Pending) as stop:
        fight(state(), "stoney_sept", "harrenhal", ["knight"], plans=plans, defaults=False)
    ids = [d.request.id for d in stop.value.decisions]
    assert ids == ["r1/march@stoney_sept/house_card/lannister",
                   "r1/march@stoney_sept/house_card/stark"]
    assert stop.value.decisions[1].request.options[0] == "eddard_stark"
    ctx = fight(state(), "stoney_sept", "harrenhal", ["knight"], plans=plans,
                answers={ids[0]: "tywin_lannister", ids[1]: "eddard_stark"})
    (declared,) = events(ctx, "support_declared")
    assert (declared["area"], declared["side"], declared["strength"]) == ("blackwater", "stark", 2)
    assert summary(ctx)["winner"] == "stark"  # 2+3 vs 1+2+3


def test_house_card_plan_rules_first_applicable() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"]}})
    s.houses["stark"].hand.remove("eddard_stark")
    plans = {"stark": {"house_cards": [{"at": "winterfell", "card": "robb_stark"},
                                       {"against": "lannister", "card": "eddard_stark"},
                                       {"against": "lannister", "card": "greatjon_umber"},
                                       {"priority": ["lord_mormont"]}]},
             "lannister": {"house_cards": [{"at": "harrenhal", "card": "tyrion_lannister"}]}}
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight"], plans=plans)
    assert events(ctx, "house_cards_revealed")[0]["cards"] == {
        "lannister": "tyrion_lannister", "stark": "greatjon_umber"}


def test_played_cards_are_discarded() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"]}})
    fight(s, "stoney_sept", "harrenhal", ["knight"],
          cards={"lannister": "tyrion_lannister", "stark": "lord_mormont"})
    assert "lord_mormont" not in s.houses["stark"].hand
    assert s.houses["stark"].discards == ["lord_mormont"]


def test_last_card_brings_the_whole_hand_back() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"]}})
    stark = s.houses["stark"]
    stark.hand, stark.discards = ["lord_mormont"], [c for c in RS.cards_by_house["stark"]
                                                    if c != "lord_mormont"]
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight"],
                cards={"lannister": "tyrion_lannister", "stark": "lord_mormont"})
    assert events(ctx, "hand_recycled")[0]["house"] == "stark"
    assert stark.hand == list(RS.cards_by_house["stark"]) and stark.discards == []


def test_instant_win_checked_after_the_battle() -> None:
    from agot_adjudicator.engine.context import GameOver
    castles = ["lannisport", "riverrun", "seagard", "pyke", "highgarden", "sunspear"]
    areas = {a: {"house": "lannister", "units": ["footman"]} for a in castles[:-1]}
    areas["stoney_sept"] = {"house": "lannister", "units": ["knight", "knight"]}
    areas["harrenhal"] = {"house": "stark", "units": ["footman"]}
    areas["kings_landing"] = {"house": "lannister", "units": ["footman"]}
    s = game(areas)
    with pytest.raises(GameOver):
        fight(s, "stoney_sept", "harrenhal", ["knight", "knight"])
    assert s.winner is not None and s.winner["houses"] == ["lannister"]
