"""The 35 house cards (R6.4): each one changes the outcome of some battle.

Cards without text are checked by their numbers: the printed strength turns
a battle, the swords set the loser's casualties, the forts reduce them.
Each card with a text has its own test, named after the card and the outcome
its text changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from builders import action_game
from builders import fight as shared_fight

from agot_adjudicator.engine import house_cards
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import Pending
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import GameState

RS = load_ruleset()
PLAIN = [c for c, card in RS.house_cards.items() if card.when is None]
WITH_TEXT = [c for c, card in RS.house_cards.items() if card.when is not None]


def game(areas: dict[str, dict[str, Any]], *, fiefdoms: list[str] | None = None) -> GameState:
    s = action_game(RS, areas)
    if fiefdoms is not None:
        s.tracks["fiefdoms"] = [*fiefdoms, *[h for h in s.tracks["fiefdoms"] if h not in fiefdoms]]
    return s


def fight(s: GameState, origin: str, target: str, units: list[str], cards: dict[str, str],
          **options: Any) -> Context:
    return shared_fight(RS, s, origin, target, units, cards=cards, **options)


def events(ctx: Context, type_: str) -> list[dict[str, Any]]:
    return [e for e in ctx.events if e["type"] == type_]


def winner(ctx: Context) -> str:
    (battle,) = events(ctx, "battle")
    return battle["winner"]


def sides(ctx: Context) -> dict[str, Any]:
    (battle,) = events(ctx, "battle")
    return battle["sides"]


def test_every_card_is_covered_and_every_text_is_code() -> None:
    """Each card with a text has its own test, named ``test_<card id>_<what it changes>``."""
    assert len(PLAIN) + len(WITH_TEXT) == 35
    tests = [name for name in globals() if name.startswith("test_")]
    assert [c for c in WITH_TEXT if not any(t.startswith(f"test_{c}_") for t in tests)] == []
    for card_id in WITH_TEXT:
        when = RS.house_cards[card_id].when
        if when == "on_win":
            assert card_id in house_cards.ON_WIN
        else:
            assert house_cards.texts_for(card_id, when) is not None, card_id


# --- cards without text: numbers -------------------------------------------------------------

def _inert_zero(house: str) -> tuple[str, str]:
    """Another house and one of its 0-strength cards whose text does nothing when it loses."""
    return ("stark", "maester_luwin") if house == "lannister" else ("lannister", "cersei_lannister")


def _two_swords(house: str) -> tuple[str, str]:
    return ("lannister", "tywin_lannister") if house == "greyjoy" else ("greyjoy", "euron_crows_eye")


ATTACKERS = {1: ["footman", "knight"], 2: ["knight", "knight"], 3: ["footman", "knight", "knight"]}


@pytest.mark.parametrize("card_id", PLAIN)
def test_printed_strength_wins_and_swords_kill(card_id: str) -> None:
    card = RS.house_cards[card_id]
    other, zero = _inert_zero(card.house)
    # Defender: 3 footmen + the card; attacker: 2 + strength, first on Fiefdoms (wins ties).
    s = game({"stoney_sept": {"house": other, "units": ATTACKERS[card.strength]},
              "harrenhal": {"house": card.house, "units": ["footman"] * 3}},
             fiefdoms=[other, card.house])
    ctx = fight(s, "stoney_sept", "harrenhal", list(ATTACKERS[card.strength]),
                {other: zero, card.house: card_id})
    assert winner(ctx) == card.house
    assert len(events(ctx, "casualties")[0]["units"]) == card.swords


@pytest.mark.parametrize("card_id", [c for c in PLAIN if RS.house_cards[c].forts])
def test_forts_reduce_casualties(card_id: str) -> None:
    card = RS.house_cards[card_id]
    other, big = _two_swords(card.house)
    s = game({"stoney_sept": {"house": other, "units": ["knight", "knight", "knight"]},
              "harrenhal": {"house": card.house, "units": ["footman"] * 3}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight", "knight"],
                {other: big, card.house: card_id}, march="march_plus1")
    assert winner(ctx) == other
    assert events(ctx, "casualties")[0]["count"] == 2 - card.forts


# --- cards with a text ---------------------------------------------------------------------------

def test_robb_stark_knights_at_3_win_the_battle() -> None:
    s = game({"stoney_sept": {"house": "stark", "units": ["knight", "knight"]},
              "harrenhal": {"house": "lannister", "units": ["footman", "footman", "footman", "knight"],
                            "order": "defense_plus2"}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                {"stark": "robb_stark", "lannister": "cersei_lannister"})
    assert sides(ctx)["attacker"]["units"]["knight"] == {"count": 2, "strength": 3}
    assert winner(ctx) == "stark"  # 6 + 2 against 7


def test_vargo_hoat_footmen_at_2_win_the_battle() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman"] * 3},
              "harrenhal": {"house": "stark", "units": ["footman", "knight"],
                            "order": "defense_plus2"}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman"] * 3,
                {"lannister": "vargo_hoat", "stark": "maester_luwin"})
    assert sides(ctx)["attacker"]["total"] == 6
    assert winner(ctx) == "lannister"


def test_victarion_greyjoy_ships_at_2_win_the_sea_battle() -> None:
    s = game({"ironmans_bay": {"house": "greyjoy", "units": ["ship", "ship"]},
              "the_golden_sound": {"house": "lannister", "units": ["ship"] * 3}})
    ctx = fight(s, "ironmans_bay", "the_golden_sound", ["ship", "ship"],
                {"greyjoy": "victarion_greyjoy", "lannister": "cersei_lannister"})
    assert sides(ctx)["attacker"]["total"] == 4
    assert winner(ctx) == "greyjoy"
    assert s.areas["the_golden_sound"].units == ["ship", "ship"]


def test_catelyn_stark_doubled_defense_wins_the_tie() -> None:
    s = game({"pyke": {"house": "greyjoy", "units": ["footman", "footman"]},
              "riverrun": {"house": "stark", "units": ["footman"], "order": "defense_plus1"}})
    s.houses["greyjoy"].hand.remove("balon_greyjoy")
    ctx = fight(s, "pyke", "riverrun", ["footman", "footman"],
                {"greyjoy": "victarion_greyjoy", "stark": "catelyn_stark"},
                plans={"greyjoy": {"blade": "never"}})
    assert sides(ctx)["defender"]["order"] == {"order": "defense_plus1", "bonus": 2}
    assert winner(ctx) == "stark"  # 3 against 2; without Catelyn 2-2 goes to Greyjoy


def test_salladhor_saan_zeroes_supporting_ships_and_wins() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman"]},
              "riverrun": {"house": "baratheon", "units": ["footman", "footman"]},
              "the_golden_sound": {"house": "lannister", "units": ["ship", "ship"],
                                   "order": "support"}})
    ctx = fight(s, "stoney_sept", "riverrun", ["footman"],
                {"lannister": "cersei_lannister", "baratheon": "salladhor_saan"},
                plans={"lannister": {"support": {"the_golden_sound": ["lannister"]}}})
    assert sides(ctx)["attacker"]["support"] == [
        {"area": "the_golden_sound", "house": "lannister", "strength": 0}]
    assert winner(ctx) == "baratheon"  # 1 against 2; without Salladhor 3 against 2


def test_salladhor_keeps_the_support_star_bonus() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman"]},
              "riverrun": {"house": "baratheon", "units": ["footman", "footman"]},
              "the_golden_sound": {"house": "greyjoy", "units": ["ship", "ship"],
                                   "order": "support_plus1"}})
    ctx = fight(s, "stoney_sept", "riverrun", ["footman"],
                {"lannister": "cersei_lannister", "baratheon": "salladhor_saan"},
                plans={"greyjoy": {"support": {"the_golden_sound": ["lannister"]}}})
    assert sides(ctx)["attacker"]["support"][0]["strength"] == 1
    assert winner(ctx) == "baratheon"  # 2 against 2: Baratheon is above Lannister


def test_balon_greyjoy_zeroes_the_printed_strength_and_wins() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
              "riverrun": {"house": "greyjoy", "units": ["footman"] * 3}})
    ctx = fight(s, "stoney_sept", "riverrun", ["knight"],
                {"lannister": "tywin_lannister", "greyjoy": "balon_greyjoy"})
    assert sides(ctx)["attacker"]["card"] == {"card": "tywin_lannister", "strength": 0}
    assert winner(ctx) == "greyjoy"  # 2 against 3; without Balon 5 against 3


def test_queen_of_thorns_cancels_robb_and_wins() -> None:
    s = game({"stoney_sept": {"house": "stark", "units": ["knight", "knight"]},
              "harrenhal": {"house": "tyrell", "units": ["footman", "footman", "footman", "knight"],
                            "order": "defense_plus2"}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                {"stark": "robb_stark", "tyrell": "queen_of_thorns"})
    assert events(ctx, "house_card_text_cancelled")[0]["card"] == "robb_stark"
    assert winner(ctx) == "tyrell"  # 6 against 7; with Robb's text 8 against 7


def test_queen_of_thorns_cancels_balon() -> None:
    s = game({"highgarden": {"house": "tyrell", "units": ["knight", "footman"]},
              "searoad_marches": {"house": "greyjoy", "units": ["footman", "footman"]}})
    ctx = fight(s, "highgarden", "searoad_marches", ["knight", "footman"],
                {"tyrell": "queen_of_thorns", "greyjoy": "balon_greyjoy"})
    (cancelled,) = events(ctx, "house_card_text_cancelled")
    assert (cancelled["house"], cancelled["card"]) == ("greyjoy", "balon_greyjoy")
    texts = events(ctx, "house_card_text")
    assert [t["effect"] for t in texts] == ["cancel_text"]
    assert winner(ctx) == "tyrell"


def test_queen_of_thorns_cancels_an_if_you_win_text() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight", "knight"]},
              "harrenhal": {"house": "tyrell", "units": ["footman"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight", "knight"],
                {"lannister": "ser_jaime_lannister", "tyrell": "queen_of_thorns"})
    assert winner(ctx) == "lannister"
    assert not events(ctx, "power_gained") and s.houses["lannister"].power == 5


def test_ser_loras_tyrell_kills_the_last_defender_and_wins() -> None:
    # Stark would win 1 + 4 + 3 against 1 + 2; Loras kills its only footman first.
    s = game({"highgarden": {"house": "tyrell", "units": ["footman"]},
              "the_reach": {"house": "stark", "units": ["footman"]},
              "blackwater": {"house": "stark", "units": ["knight", "knight"], "order": "support"}})
    ctx = fight(s, "highgarden", "the_reach", ["footman"],
                {"tyrell": "ser_loras_tyrell", "stark": "eddard_stark"},
                plans={"stark": {"support": {"blackwater": ["stark"]}}})
    (battle,) = events(ctx, "battle")
    assert battle["decided_by"] == "last_unit_destroyed" and battle["winner"] == "tyrell"
    assert not events(ctx, "casualties")
    assert s.areas["the_reach"].house == "tyrell"


def test_ser_loras_weakens_without_killing_the_last_unit() -> None:
    s = game({"highgarden": {"house": "tyrell", "units": ["footman"]},
              "the_reach": {"house": "stark", "units": ["footman"] * 3}},
             fiefdoms=["stark", "tyrell"])
    ctx = fight(s, "highgarden", "the_reach", ["footman"],
                {"tyrell": "ser_loras_tyrell", "stark": "maester_luwin"})
    assert sides(ctx)["defender"]["units_strength"] == 2
    assert winner(ctx) == "tyrell"  # 3 against 2; without Loras 3-3 goes to Stark


def test_ser_loras_kills_the_last_attacker() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman"]},
              "harrenhal": {"house": "tyrell", "units": ["knight"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman"],
                {"lannister": "tywin_lannister", "tyrell": "ser_loras_tyrell"})
    assert winner(ctx) == "tyrell"
    assert "stoney_sept" not in s.areas


def test_brienne_of_tarth_removes_the_defense_order_and_wins() -> None:
    s = game({"highgarden": {"house": "tyrell", "units": ["footman", "footman"]},
              "the_reach": {"house": "stark", "units": ["footman"], "order": "defense_plus2"}},
             fiefdoms=["stark", "tyrell"])
    ctx = fight(s, "highgarden", "the_reach", ["footman", "footman"],
                {"tyrell": "brienne_of_tarth", "stark": "catelyn_stark"})
    assert events(ctx, "order_removed")[0]["by"] == "brienne_of_tarth"
    assert sides(ctx)["defender"]["order"] is None
    assert winner(ctx) == "tyrell"  # 2 against 1; with the order (doubled) 2 against 5


def test_ser_jaime_lannister_winner_gains_2_power() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
              "harrenhal": {"house": "stark", "units": ["footman"]}})
    ctx = fight(s, "stoney_sept", "harrenhal", ["knight"],
                {"lannister": "ser_jaime_lannister", "stark": "maester_luwin"})
    assert events(ctx, "power_gained")[0]["power"] == 2
    assert s.houses["lannister"].power == 7


def test_cersei_lannister_winner_removes_a_chosen_order() -> None:
    def state() -> GameState:
        return game({"stoney_sept": {"house": "lannister", "units": ["knight"]},
                     "harrenhal": {"house": "stark", "units": ["footman"], "order": "support"},
                     "winterfell": {"house": "stark", "units": ["footman"], "order": "support"},
                     "white_harbor": {"house": "stark", "units": ["footman"],
                                      "order": "consolidate_power"}})
    cards = {"lannister": "cersei_lannister", "stark": "maester_luwin"}
    with pytest.raises(Pending) as stop:
        fight(state(), "stoney_sept", "harrenhal", ["knight"], cards, defaults=False)
    (pending,) = stop.value.decisions
    assert pending.request.id == "r1/march@stoney_sept/card/cersei_lannister/lannister"
    assert pending.request.options == ("white_harbor", "winterfell", "none")
    s = state()
    fight(s, "stoney_sept", "harrenhal", ["knight"], cards,
          plans={"lannister": {"card_choices": {"cersei_lannister": ["winterfell"]}}})
    assert s.areas["winterfell"].order is None
    assert s.areas["white_harbor"].order == "consolidate_power"


def test_renly_baratheon_winner_upgrades_a_footman() -> None:
    s = game({"kingswood": {"house": "baratheon", "units": ["footman", "knight"]},
              "storms_end": {"house": "stark", "units": ["footman"]}})
    ctx = fight(s, "kingswood", "storms_end", ["footman", "knight"],
                {"baratheon": "renly_baratheon", "stark": "maester_luwin"})
    assert events(ctx, "unit_upgraded")[0]["to"] == "knight"
    assert s.areas["storms_end"].units == ["knight", "knight"]


def test_renly_needs_a_knight_in_the_pool() -> None:
    s = game({"kingswood": {"house": "baratheon", "units": ["footman", "knight"]},
              "dragonstone": {"house": "baratheon", "units": ["knight", "knight", "knight"]},
              "storms_end": {"house": "stark", "units": ["footman"]}})
    ctx = fight(s, "kingswood", "storms_end", ["footman", "knight"],
                {"baratheon": "renly_baratheon", "stark": "maester_luwin"})
    assert not events(ctx, "unit_upgraded")
    assert s.areas["storms_end"].units == ["footman", "knight"]


def test_melisandre_winner_discards_a_chosen_card() -> None:
    s = game({"kingswood": {"house": "baratheon", "units": ["knight"]},
              "storms_end": {"house": "stark", "units": ["footman"]}})
    fight(s, "kingswood", "storms_end", ["knight"],
          {"baratheon": "melisandre", "stark": "maester_luwin"},
          plans={"baratheon": {"card_choices": {"melisandre": ["eddard_stark"]}}})
    assert "eddard_stark" not in s.houses["stark"].hand
    assert s.houses["stark"].discards == ["eddard_stark", "maester_luwin"]
    assert s.houses["baratheon"].power == 4


def test_melisandre_without_power_does_nothing() -> None:
    s = game({"kingswood": {"house": "baratheon", "units": ["knight"]},
              "storms_end": {"house": "stark", "units": ["footman"]}})
    s.houses["baratheon"].power = 0
    ctx = fight(s, "kingswood", "storms_end", ["knight"],
                {"baratheon": "melisandre", "stark": "maester_luwin"},
                plans={"baratheon": {"card_choices": {"melisandre": ["eddard_stark"]}}})
    assert events(ctx, "card_text_no_effect")[0]["card"] == "melisandre"
    assert "eddard_stark" in s.houses["stark"].hand


def test_asha_greyjoy_winner_removes_a_chosen_order() -> None:
    s = game({"pyke": {"house": "greyjoy", "units": ["knight"]},
              "riverrun": {"house": "stark", "units": ["footman"]},
              "lannisport": {"house": "lannister", "units": ["footman"], "order": "support"},
              "stoney_sept": {"house": "lannister", "units": ["footman"],
                              "order": "consolidate_power"}})
    fight(s, "pyke", "riverrun", ["knight"], {"greyjoy": "asha_greyjoy", "stark": "maester_luwin"},
          plans={"lannister": {"support": {"lannisport": []}},
                 "greyjoy": {"card_choices": {"asha_greyjoy": ["stoney_sept"]}}})
    assert s.areas["stoney_sept"].order is None
    assert s.areas["lannisport"].order == "support"


def test_maester_luwin_takes_back_a_discarded_card() -> None:
    s = game({"stoney_sept": {"house": "lannister", "units": ["footman"]},
              "harrenhal": {"house": "stark", "units": ["knight"]}})
    stark = s.houses["stark"]
    stark.hand.remove("eddard_stark")
    stark.discards = ["eddard_stark"]
    ctx = fight(s, "stoney_sept", "harrenhal", ["footman"],
                {"lannister": "cersei_lannister", "stark": "maester_luwin"})
    assert events(ctx, "house_card_returned")[0]["card"] == "eddard_stark"
    assert "eddard_stark" in stark.hand and stark.discards == ["maester_luwin"]



def test_every_effect_kind_has_one_applier_and_one_report_line() -> None:
    """Card effect kinds are defined once (house_cards.EffectKind) and dispatched by tables."""
    from agot_adjudicator.engine.battles import APPLIERS
    from agot_adjudicator.render.event_lines import CARD_TEXT_LINES

    kinds = list(house_cards.EffectKind)
    assert list(APPLIERS) == kinds
    assert list(CARD_TEXT_LINES) == kinds
