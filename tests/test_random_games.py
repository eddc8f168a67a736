"""Random whole games through the decision protocol, invariants checked after every run
; and regression tests for the engine bugs the random games found."""

from __future__ import annotations

import pytest
from autoplay import InvariantViolation, play_game, state_violations
from builders import answer, westeros_game

from agot_adjudicator.engine.context import Context, HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError, Decider, Pending
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.engine.westeros import resolve_westeros_phase
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import AreaState

RS = load_ruleset()

QUICK_GAMES = [(seed, players) for seed in range(51) for players in (3, 4, 5)
               if seed % 3 == players - 3]
"""51 games: seeds 0..50, 3, 4 and 5 players in turn (17 each)."""


@pytest.mark.parametrize(("seed", "players"), QUICK_GAMES,
                         ids=[f"seed{s}-{p}p" for s, p in QUICK_GAMES])
def test_random_game_keeps_invariants_to_the_end(seed, players):
    record = play_game(seed, players, RS, determinism_rate=0.05)
    assert record.final is not None and record.final.phase == "ended"
    assert record.winner and all(h in record.final.houses for h in record.winner)
    assert 1 <= record.rounds <= RS.rounds
    assert record.answered > 0


def test_invariants_catch_a_broken_state():
    """The invariant checker itself can fail (R0.3, R0.4, R0.5, R12.2)."""
    s = new_game(RS, list(RS.players[4]), 1, "t")
    assert state_violations(s, RS, complete=True) == []
    s.houses["stark"].power = 21
    s.houses["stark"].hand.pop()
    s.areas["ironmans_bay"].house, s.areas["ironmans_bay"].units = "stark", ["ship"]
    s.areas["winterfell"].units = ["footman"] * 11
    found = " | ".join(state_violations(s, RS, complete=True))
    for text in ("available power 21", "not its 7 cards", "share the area with a neutral force",
                 "12 × footman", "exceed supply"):
        assert text in found


def test_violation_names_the_seed_to_reproduce():
    from autoplay import Driver

    err = Driver(42, 4, RS).fail(7, "boom")
    assert isinstance(err, InvariantViolation)
    assert "seed 42" in str(err) and "round 7" in str(err) and "--seed 42" in str(err)


# --- regressions found by the random games ------------------------------------------------------

def mustering_game(houses):
    return westeros_game(RS, houses, I="mustering")


given = answer


def muster(s, answers, plans):
    inputs = Inputs({h: HouseInput(plans={"musters": m}) for h, m in plans.items()})
    ctx = Context(RS, s, inputs, Decider({k: given(v) for k, v in answers.items()}))
    resolve_westeros_phase(ctx)
    return ctx


def test_no_ship_mustered_into_the_ships_of_a_house_not_in_play():
    """R3.5 + R12.2: Greyjoy's ships in Ironman's Bay are a neutral force in a 4-player game,
    so Seagard cannot muster a ship there (random games put one in and broke the state)."""
    s = mustering_game(list(RS.players[4]))
    assert s.areas["ironmans_bay"].neutral_force is not None
    s.areas["seagard"] = AreaState(house="stark", units=["footman"])
    with pytest.raises(AnswerError, match="ironmans_bay"):
        muster(s, {"r2/mustering/seagard/stark": ["ship:ironmans_bay"]},
               {h: {} for h in s.houses})


def test_direct_muster_answer_made_illegal_by_an_earlier_muster_is_asked_again():
    """docs/protocol.md P1: Lannister (earlier in order of play) takes the empty Golden Sound first;
    Stark's answer, legal when asked, is asked again with the reason, not refused (exit 1)."""
    s = mustering_game(list(RS.players[5]))
    del s.areas["the_golden_sound"]
    s.areas["riverrun"] = AreaState(house="stark", units=["footman"])
    answers = {"r2/mustering/lannisport/lannister": ["ship:the_golden_sound"],
               "r2/mustering/riverrun/stark": ["ship:the_golden_sound"]}
    plans = {h: {} for h in s.houses if h not in ("lannister", "stark")}
    plans["stark"] = {"winterfell": [], "white_harbor": []}
    with pytest.raises(Pending) as stop:
        muster(s, answers, plans)
    (pending,) = stop.value.decisions
    assert pending.request.id == "r2/mustering/riverrun/stark"
    assert "no longer fits" in pending.reason and "the_golden_sound" in pending.reason


def test_never_legal_direct_muster_answer_is_still_an_error():
    s = mustering_game(list(RS.players[5]))
    s.areas["riverrun"] = AreaState(house="stark", units=["footman"])
    with pytest.raises(AnswerError, match="the_golden_sound"):
        muster(s, {"r2/mustering/riverrun/stark": ["ship:the_golden_sound"]},
               {h: {} for h in s.houses if h != "stark"})


def test_muster_answer_made_moot_by_an_earlier_muster_is_not_an_unused_answer():
    """docs/protocol.md P1: Stark was asked about Riverrun (a ship into the empty Golden Sound was its
    only option); after Lannister's ship takes the sea nothing can be mustered there, and the
    answer given is consumed (muster_impossible), not refused as 'never asked for'."""
    s = mustering_game(list(RS.players[5]))
    del s.areas["the_golden_sound"]
    s.houses["stark"].supply = 0  # armies (2, 2)
    s.areas["winterfell"] = AreaState(house="stark", units=["footman", "knight"])
    s.areas["white_harbor"] = AreaState(house="stark", units=["footman", "footman"])
    s.areas["riverrun"] = AreaState(house="stark", units=["knight"])
    answers = {"r2/mustering/lannisport/lannister": ["ship:the_golden_sound"],
               "r2/mustering/riverrun/stark": ["ship:the_golden_sound"]}
    plans = {h: {} for h in s.houses if h != "lannister"}
    ctx = muster(s, answers, plans)
    assert ctx.decider.unused_answers() == []
    impossible = [e for e in ctx.events if e["type"] == "muster_impossible"]
    assert [(e["house"], e["castle"]) for e in impossible] == [("stark", "riverrun")]


def test_instant_win_mid_march_leaves_a_valid_final_state():
    """R11.2 ends the game at once, in the middle of the action phase: the orders still on the
    board are removed (as R5.10 would), so the final state passes the state checks (random
    games wrote final states that `agot show` refused: 'orders are on the board only in the
    action phase')."""
    from agot_adjudicator.engine.round import resolve
    from agot_adjudicator.io.reading import Document
    from agot_adjudicator.io.validation import state_problems

    s = new_game(RS, list(RS.players[5]), 1, "t")
    s.phase = "action"
    del s.areas["stoney_sept"]
    for area_id in ("winterfell", "white_harbor", "moat_cailin", "flints_finger", "seagard",
                    "riverrun", "stoney_sept"):
        s.areas[area_id] = AreaState(house="stark", units=["footman"])
    s.areas["winterfell"].order = "consolidate_power"
    s.areas["stoney_sept"].order = "march_0"
    s.areas["the_shivering_sea"].order = "support"
    plans = {"marches": [{"from": "stoney_sept", "moves": {"harrenhal": ["footman"]}}]}
    result = resolve(RS, s, Inputs({"stark": HouseInput(plans=plans)}))
    assert result.status == "complete"
    assert result.state.phase == "ended" and result.state.winner["houses"] == ["stark"]
    assert all(a.order is None for a in result.state.areas.values())
    doc = Document("final", result.state.to_dict(RS), "")
    assert state_problems(doc, RS) == []


def test_failed_neutral_attack_cannot_break_the_supply_limit():
    """R5.7 + R5.8: Baratheon (supply 2: armies 3, 2, 2) marches from Storm's End (3 footmen):
    one footman joins Kingswood (an army of 2), one attacks King's Landing (5, by ship) and fails. Going
    back would make four armies of 2, so it is destroyed (random games found the supply limit
    broken, and then every later march of the house refused, even 'no move')."""
    from agot_adjudicator.engine.round import resolve
    from agot_adjudicator.model.ruleset import supply_fits

    s = new_game(RS, list(RS.players[5]), 1, "t")
    s.phase = "action"
    s.houses["baratheon"].supply = 2
    s.areas["storms_end"] = AreaState(house="baratheon", units=["footman"] * 3, order="march_0")
    s.areas["blackwater_bay"] = AreaState(house="baratheon", units=["ship"])  # transport (R5.4)
    plans = {"marches": [{"from": "storms_end",
                          "moves": {"kingswood": ["footman"], "kings_landing": ["footman"]}}]}
    result = resolve(RS, s, Inputs({"baratheon": HouseInput(plans=plans)}))
    assert result.status == "complete", result.pending
    attack = next(e for e in result.events if e["type"] == "neutral_attack")
    assert not attack["won"]
    lost = [e for e in result.events if e["type"] == "unit_destroyed"]
    assert [(e["area"], e["units"], e["rule"]) for e in lost] == [("storms_end", ["footman"], "R5.8")]
    after = result.state
    assert after.areas["storms_end"].units == ["footman"]
    sizes = [len(a.units) for a in after.areas.values() if a.house == "baratheon"]
    assert supply_fits(RS, 2, sizes)


def test_event_invariants_catch_a_wrong_track_and_a_wrong_nights_watch():
    """The event checks can fail: R7.1 (track in bid order) and R8.1/R8.2 (sum; tie holds)."""
    from autoplay import event_violations

    good = [{"type": "bids_revealed", "about": "clash_of_kings/fiefdoms", "bids": {"a": 1, "b": 3}},
            {"type": "track_set", "track": "fiefdoms", "order": ["b", "a"]},
            {"type": "bids_revealed", "about": "wildlings", "bids": {"a": 2, "b": 2}},
            {"type": "nights_watch", "strength": 4, "threat": 4, "winner": "nights_watch"}]
    assert event_violations(good) == []
    bad = [dict(e) for e in good]
    bad[1]["order"] = ["a", "b"]
    bad[3]["winner"] = "wildlings"
    found = event_violations(bad)
    assert len(found) == 2 and "bid order" in found[0] and "night's watch" in found[1]
    twice = [{"type": "valyrian_steel_blade_used"}] * 2
    assert "more than once" in event_violations(twice)[0]


@pytest.mark.parametrize("seed", range(6))
def test_game_of_defaults_completes_every_round_in_one_run(seed):
    """docs/protocol.md P1: with --nmr for every house, every missing answer takes its documented
    default, so each round completes in one run; the invariants hold all game."""
    from autoplay import Driver

    players = 3 + seed % 3
    driver = Driver(seed, players, RS)
    driver.nmr = tuple(RS.players[players])
    record = driver.play()
    assert record.runs == record.rounds and record.answered == 0
    assert record.final is not None and record.final.winner


def test_pasted_orders_and_raven_examples_are_legal():
    """docs/protocol.md P1: the pending YAML's ready-to-paste answers are legal as printed. The orders
    example was march_0 in every area (a house has one march_0, R0.2), the Raven's example could
    be a forbidden order (R4.4)."""
    from agot_adjudicator.engine.round import resolve

    s = new_game(RS, list(RS.players[5]), 1, "t")
    result = resolve(RS, s, Inputs())
    # the orders, and the Raven asked ahead with them (RUL-4.6-1): its paste value keeps them
    assert {p.request.kind for p in result.pending} == {"orders", "raven"}
    assert [p.ahead for p in result.pending if p.request.kind == "raven"] == [True]
    for pending in result.pending:
        request = pending.request
        assert request.why_illegal(request.example) is None, (request.id, request.example)
    s.restrictions = ["storm_of_swords"]  # no Defense orders (R3.10)
    holder = s.holder("kings_court")
    orders = {a: None for a in RS.area_ids if s.area(a).house == holder}
    orders[next(iter(orders))] = "raid"
    result = resolve(RS, s, Inputs({holder: HouseInput(orders=orders)}, ), {}, nmr=tuple(
        h for h in s.houses if h != holder))
    (raven,) = [p.request for p in result.pending if p.request.kind == "raven"]
    assert raven.example is not None and raven.why_illegal(raven.example) is None


def test_pasted_muster_example_is_legal():
    """docs/protocol.md P1: the muster example was ['footman'] even when a footman breaks the supply
    limit (R3.5, R9); it is now the first legal one (here an upgrade)."""
    from agot_adjudicator.engine.round import resolve

    s = mustering_game(list(RS.players[5]))
    s.houses["stark"].supply = 0  # armies (2, 2)
    s.areas["winterfell"] = AreaState(house="stark", units=["footman", "footman"])
    s.areas["white_harbor"] = AreaState(house="stark", units=["footman", "footman"])
    others = {h: HouseInput(plans={"musters": {}}) for h in s.houses if h != "stark"}
    result = resolve(RS, s, Inputs(others))
    requests = {p.request.id: p.request for p in result.pending}
    request = requests["r2/mustering/winterfell/stark"]
    assert request.example == ["upgrade"]
    assert all(r.why_illegal(r.example) is None for r in requests.values())
