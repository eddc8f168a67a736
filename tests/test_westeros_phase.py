"""Westeros phase (R3.1–R3.3, R3.8–R3.12): reveal, threat, Winter is Coming, simple cards."""

from __future__ import annotations

import pytest
from builders import put_on_top, run_westeros

from agot_adjudicator.engine.chance import shuffle
from agot_adjudicator.engine.context import Inputs
from agot_adjudicator.engine.round import resolve
from agot_adjudicator.engine.setup import full_deck, new_game
from agot_adjudicator.errors import AgotError
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import TRACKS
from agot_adjudicator.model.state import AreaState

RS = load_ruleset()


def game(seed=1, houses=None):
    s = new_game(RS, houses or list(RS.houses), seed, "t")
    s.round, s.phase = 2, "westeros"
    return s


force = put_on_top


def run(s, inputs=None, **decider):
    return run_westeros(RS, s, inputs, **decider)


def types(ctx, type_):
    return [e for e in ctx.events if e["type"] == type_]


def test_phase_reveals_three_cards_resolves_in_deck_order_and_ends_in_planning():
    s = game()
    force(s, I="supply", II="game_of_thrones", III="sea_of_storms")
    ctx = run(s)
    assert s.phase == "planning"
    assert s.revealed == {"I": "supply", "II": "game_of_thrones", "III": "sea_of_storms"}
    resolved = [(e["deck"], e["card"]) for e in types(ctx, "westeros_card_resolved")]
    assert resolved == [("I", "supply"), ("II", "game_of_thrones"), ("III", "sea_of_storms")]
    reveals = [e["deck"] for e in types(ctx, "westeros_card_revealed")]
    first_resolve = ctx.events.index(types(ctx, "westeros_card_resolved")[0])
    assert reveals == ["I", "II", "III"]
    assert all(ctx.events.index(e) < first_resolve for e in types(ctx, "westeros_card_revealed"))


def test_resolved_cards_go_to_the_bottom_of_their_decks():
    s = game()
    force(s, I="mustering", II="clash_of_kings", III="rains_of_autumn")
    before = {d: list(s.decks[d]) for d in s.decks}
    run(s, defaults=True)
    for deck, cards in before.items():
        assert s.decks[deck] == cards[1:] + cards[:1]


def test_each_revealed_card_with_the_wildling_icon_advances_the_threat_one_step():
    s = game()
    force(s)  # three Last Days of Summer, each with the icon in the reconstruction
    s.wildling_threat = 2
    ctx = run(s)
    assert s.wildling_threat == 8
    assert [(e["old"], e["new"]) for e in types(ctx, "wildling_threat_advanced")] == [(2, 4), (4, 6),
                                                                                        (6, 8)]


def test_card_without_the_icon_does_not_advance_the_threat():
    s = game()
    force(s, I="supply", II="game_of_thrones", III="sea_of_storms")
    s.wildling_threat = 4
    run(s)
    assert s.wildling_threat == 6  # only Sea of Storms bears it


def test_threat_is_capped_at_twelve():
    s = game()
    force(s)
    s.wildling_threat = 10
    ctx = run(s)
    assert s.wildling_threat == 12
    assert [e["capped"] for e in types(ctx, "wildling_threat_advanced")] == [False, True, True]


def test_last_days_of_summer_changes_nothing_but_the_threat():
    s = game()
    force(s)
    before = s.copy()
    run(s)
    assert s.areas == before.areas and s.houses == before.houses and s.tracks == before.tracks
    assert s.restrictions == []


@pytest.mark.parametrize("card", ["sea_of_storms", "storm_of_swords", "feast_for_crows",
                                  "rains_of_autumn"])
def test_restriction_cards_are_recorded_for_the_round(card):
    s = game()
    force(s, III=card)
    run(s)
    assert s.restrictions == [card]


def _seed_with_winter_twice():
    deck = full_deck(RS, "I")
    deck.remove("winter_is_coming")
    deck.insert(0, "winter_is_coming")
    for seed in range(5000):
        first = shuffle(deck, seed, 3, "I")
        if first[0] != "winter_is_coming":
            continue
        second = shuffle(first, seed, 4, "I")
        if second[0] != "winter_is_coming":
            return seed, deck, second
    raise AssertionError("no seed found")


def test_winter_is_coming_twice_in_a_row_reshuffles_until_another_card():
    seed, deck, final = _seed_with_winter_twice()
    s = game(seed)
    force(s)
    s.decks["I"] = list(deck)
    assert s.shuffles == 3
    ctx = run(s)
    assert [e["counter"] for e in types(ctx, "deck_shuffled")] == [3, 4]
    assert s.shuffles == 5
    assert s.revealed["I"] == final[0]
    assert s.decks["I"] == final[1:] + final[:1]
    assert [e["card"] for e in types(ctx, "westeros_card_revealed") if e["deck"] == "I"] == [
        "winter_is_coming", "winter_is_coming", final[0]]


def test_card_revealed_after_winter_is_coming_advances_the_threat_too():
    s = game()
    force(s, II="game_of_thrones", III="sea_of_storms")
    deck = [c for c in s.decks["I"] if c != "winter_is_coming"]
    s.decks["I"] = ["winter_is_coming", *deck]
    for seed in range(5000):
        top = shuffle(s.decks["I"], seed, s.shuffles, "I")[0]
        if top == "last_days_of_summer":
            s.seed = seed
            break
    ctx = run(s)
    assert s.revealed["I"] == "last_days_of_summer"
    advanced = [e["deck"] for e in types(ctx, "wildling_threat_advanced")]
    assert advanced == ["I", "III"]
    assert s.wildling_threat == 4


def test_deck_of_only_winter_is_coming_is_an_error():
    s = game()
    force(s)
    s.decks["I"] = ["winter_is_coming"] * 10
    with pytest.raises(AgotError, match="only Winter is Coming"):
        run(s)


def test_game_of_thrones_gives_one_power_per_crown_icon_controlled():
    s = game()
    force(s, II="game_of_thrones")
    expected = {}
    for house in s.houses:
        icons = sum(RS.areas[a].power for a in RS.area_ids
                    if (a in s.areas and s.areas[a].house == house)
                    or (RS.areas[a].home_of == house and a not in s.areas))
        expected[house] = 5 + icons
    ctx = run(s)
    assert {h: s.houses[h].power for h in s.houses} == expected
    assert [e["house"] for e in types(ctx, "power_gained")] == s.order_of_play()


def test_game_of_thrones_stops_at_twenty_available_power():
    s = game()
    force(s, II="game_of_thrones")
    s.houses["stark"].power = 19
    s.areas["castle_black"] = AreaState(house="stark", units=["footman"])
    ctx = run(s)
    assert s.houses["stark"].power == 20
    stark = next(e for e in types(ctx, "power_gained") if e["house"] == "stark")
    assert stark["icons"] == 2 and stark["gained"] == 1


def test_round_one_has_no_westeros_phase():
    s = game()
    s.round = 1
    before = {d: list(s.decks[d]) for d in s.decks}
    ctx = run(s)
    assert s.phase == "planning" and s.decks == before
    assert types(ctx, "westeros_phase_skipped")


def test_engine_does_not_mutate_its_input_state():
    s = game()
    force(s, I="supply", II="clash_of_kings", III="wildling_attack")
    snapshot = s.copy()
    resolve(RS, s, Inputs(), defaults=True)
    assert s == snapshot


def test_same_inputs_give_the_same_events():
    s = game(seed=9)
    force(s, I="winter_is_coming", II="clash_of_kings", III="wildling_attack")
    a = run(s.copy(), defaults=True)
    b = run(s.copy(), defaults=True)
    assert a.events == b.events and a.state == b.state


def test_a_pending_muster_gathers_the_clash_of_kings_bids_in_the_same_round():
    from agot_adjudicator.engine.decisions import Pending
    s = game()
    force(s, I="mustering", II="clash_of_kings")
    with pytest.raises(Pending) as stop:
        run(s)
    ids = [d.request.id for d in stop.value.decisions]
    musters = [i for i in ids if "/mustering/" in i]
    assert musters and ids[:len(musters)] == musters
    assert ids[len(musters):] == [f"r2/clash_of_kings/{t}/bid/{h}" for t in TRACKS
                                  for h in s.order_of_play()]  # every bid at once, RUL-3.6-2
    assert s.houses["stark"].power == 5 and s.phase == "westeros"   # the scratch run kept nothing


def test_gathered_wildling_bids_but_never_the_losses_that_depend_on_the_units():
    from agot_adjudicator.engine.context import HouseInput
    from agot_adjudicator.engine.decisions import Pending

    def stopped(inputs=None):
        s = game()
        force(s, I="supply", III="wildling_attack")
        s.wildling_threat = 12
        # Stark (1 barrel: armies 3, 2) with an army of 4: a reduction is pending
        s.areas["winterfell"] = AreaState(house="stark", units=["footman", "footman", "footman", "knight"])
        with pytest.raises(Pending) as stop:
            run(s, inputs)
        return s, [d.request.id for d in stop.value.decisions]

    s, ids = stopped()
    assert ids == ["r2/supply/reduce/stark"] + [f"r2/wildlings/bid/{h}" for h in s.order_of_play()]
    # bids in, the wildlings win (1 < 12): the losses depend on the reduction, so are not gathered
    _, ids = stopped(Inputs({h: HouseInput(wildlings=0 if h == "stark" else 1) for h in s.houses}))
    assert ids == ["r2/supply/reduce/stark"]
    # a tie for the lowest bid waits for the reveal (RUL-3.4-4, RUL-P7-4): asked now, it would
    # tell the holder who bid lowest before the bids are seen
    _, ids = stopped(Inputs({h: HouseInput(wildlings=0) for h in s.houses}))
    assert ids == ["r2/supply/reduce/stark"]


def test_gathering_keeps_reruns_deterministic():
    from agot_adjudicator.engine.decisions import Pending
    a, b = game(), game()
    for s in (a, b):
        force(s, I="mustering", II="clash_of_kings", III="wildling_attack")
    outs = []
    for s in (a, b):
        with pytest.raises(Pending) as stop:
            run(s)
        outs.append([d.to_dict() for d in stop.value.decisions])
    assert outs[0] == outs[1]
