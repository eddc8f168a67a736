"""Fewer stops (issue 14, item 3): a stop asks every decision that does not depend on an answer
still missing (docs/protocol.md P1 *Asking together*; RUL-3.6-2, RUL-3.6-3, RUL-8.4-4), and
asking earlier never changes an outcome."""

from __future__ import annotations

import pytest
from builders import answer, westeros_game

from agot_adjudicator.engine.context import HouseInput, Inputs
from agot_adjudicator.engine.decisions import AnswerError
from agot_adjudicator.engine.round import resolve
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import TRACKS

RS = load_ruleset()
HOUSES = ["baratheon", "lannister", "stark", "tyrell", "greyjoy"]


def _ids(result) -> list[str]:
    return [p.request.id for p in result.pending]


def test_every_bid_of_the_westeros_phase_is_asked_at_the_first_stop():
    """RUL-3.6-2: a Clash of Kings followed by a Wildling Attack asks the three tracks' bids and
    the wildling bids in one stop; a later bid is offered the house's whole power."""
    s = westeros_game(RS, II="clash_of_kings", III="wildling_attack")
    result = resolve(RS, s, Inputs())
    asked = _ids(result)
    for key in [*(f"clash_of_kings/{t}" for t in TRACKS), "wildlings"]:
        for house in s.order_of_play():
            if s.houses[house].power:
                assert f"r2/{key}/bid/{house}" in asked
    later = next(p.request for p in result.pending if "kings_court" in p.request.id)
    assert later.options == tuple(range(s.houses[later.house].power + 1))
    assert "together at most your power" in later.prompt


def test_known_earlier_bids_narrow_the_later_offer_and_an_overspend_is_an_error():
    s = westeros_game(RS, II="clash_of_kings")
    house = s.order_of_play()[0]
    power = s.houses[house].power
    inputs = Inputs({house: HouseInput(plans={})})
    answers = {f"r2/clash_of_kings/iron_throne/bid/{house}": answer(power - 2)}
    result = resolve(RS, s, inputs, answers)
    fief = next(p.request for p in result.pending
                if p.request.id == f"r2/clash_of_kings/fiefdoms/bid/{house}")
    assert fief.options == (0, 1, 2)
    # with all its power bid on the Iron Throne, the house is not asked for the later tracks
    answers = {f"r2/clash_of_kings/iron_throne/bid/{house}": answer(power)}
    assert not any(house in i and "fiefdoms" in i for i in _ids(resolve(RS, s, inputs, answers)))
    # answering every bid, one house overspending its power: exit 1 when its track comes
    every = {f"r2/clash_of_kings/{t}/bid/{h}": answer(0) for t in TRACKS for h in HOUSES}
    every[f"r2/clash_of_kings/iron_throne/bid/{house}"] = answer(power)
    every[f"r2/clash_of_kings/fiefdoms/bid/{house}"] = answer(1)
    with pytest.raises(AnswerError, match="fiefdoms/bid"):
        resolve(RS, s, Inputs(), every, defaults=True)


def test_a_bid_answered_ahead_for_a_house_left_without_power_is_used():
    """RUL-3.6-2: the 0 answered ahead for a track where the house has no power left is checked
    and used, not reported as an answer no decision asked for."""
    s = westeros_game(RS, II="clash_of_kings")
    every = {f"r2/clash_of_kings/{t}/bid/{h}": answer(0) for t in TRACKS for h in HOUSES}
    house = s.order_of_play()[0]
    every[f"r2/clash_of_kings/iron_throne/bid/{house}"] = answer(s.houses[house].power)
    result = resolve(RS, s, Inputs(), every, defaults=True)
    assert result.status == "complete" and not result.unused_answers


def _tied(first: int) -> dict:
    """Iron Throne bids: the first two houses bid ``first`` each, the rest 0 (ties everywhere)."""
    bids = {}
    for i, h in enumerate(HOUSES):
        bids[h] = HouseInput(bids={"iron_throne": first if i < 2 else 0, "fiefdoms": 0,
                                   "kings_court": 0})
    return bids


def test_later_tie_breaks_wait_for_their_bids_to_be_revealed():
    """RUL-3.6-3, RUL-P7-4: the later tracks' tie-breaks are not asked with the first, even
    when the holder and every bid are known: their question would tell the holder who tied
    on a track whose bids are not revealed yet (and those bids may still change)."""
    s = westeros_game(RS, II="clash_of_kings")
    inputs = _tied(1)
    inputs["baratheon"] = HouseInput(bids={"iron_throne": 2, "fiefdoms": 0, "kings_court": 0})
    result = resolve(RS, s, Inputs(inputs))
    assert _ids(result) == ["r2/clash_of_kings/iron_throne/tie_break/baratheon"]
    assert [e["about"] for e in result.events if e["type"] == "bids_revealed"] == [
        "clash_of_kings/iron_throne"]
    asked = "\n".join(str(d.request.prompt) for d in result.pending)
    assert "Fiefdoms" not in asked and "King's Court" not in asked


def test_the_later_bids_still_missing_are_asked_with_a_tie_break():
    """RUL-3.6-2, RUL-3.6-3: a tie-break that stops asks the later tracks' bids still missing:
    asking a bid tells nothing."""
    s = westeros_game(RS, II="clash_of_kings")
    inputs = {h: HouseInput(bids={"iron_throne": i.bids["iron_throne"]})
              for h, i in _tied(1).items()}
    inputs["baratheon"] = HouseInput(bids={"iron_throne": 2})
    result = resolve(RS, s, Inputs(inputs))
    ids = _ids(result)
    assert ids[0] == "r2/clash_of_kings/iron_throne/tie_break/baratheon"
    assert sorted(ids[1:]) == sorted(f"r2/clash_of_kings/{t}/bid/{h}"
                                     for t in ("fiefdoms", "kings_court") for h in HOUSES)


def test_a_tie_for_the_iron_throne_holds_back_the_later_tie_breaks():
    """RUL-3.6-3: a tie for the first place decides the holder, who breaks the later ties."""
    s = westeros_game(RS, II="clash_of_kings")
    result = resolve(RS, s, Inputs(_tied(1)))
    assert _ids(result) == ["r2/clash_of_kings/iron_throne/tie_break/baratheon"]


def test_wildling_decisions_wait_for_the_wildling_bids_to_be_revealed():
    """RUL-3.6-3, RUL-P7-4: with a Wildling Attack after the Clash, its tie-breaks and losses
    are not asked with the Clash's tie-break: who bid lowest is not known before the reveal."""
    s = westeros_game(RS, II="clash_of_kings", III="wildling_attack")
    s.wildling_threat = 10
    inputs = _tied(1)
    inputs["baratheon"] = HouseInput(bids={"iron_throne": 2, "fiefdoms": 0, "kings_court": 0},
                                     wildlings=1)
    inputs = {h: HouseInput(bids=i.bids, wildlings=1 if h == "baratheon" else 0)
              for h, i in inputs.items()}
    result = resolve(RS, s, Inputs(inputs))
    assert _ids(result) == ["r2/clash_of_kings/iron_throne/tie_break/baratheon"]


@pytest.mark.parametrize("seed", range(4))
def test_answers_given_at_once_or_stop_by_stop_give_the_same_round(seed):
    """Asking earlier never changes an outcome: the answers a stop-by-stop run collected, given
    all at once, complete the round with the same state and events."""
    from autoplay import Driver

    driver = Driver(seed, 3 + seed % 3, RS, nmr_rate=0.0)
    state = driver.new_state()
    for _ in range(4):
        docs = driver.submissions(state)
        inputs = Inputs({d["house"]: HouseInput(orders=d.get("orders"), bids=d.get("bids"),
                                                wildlings=d.get("wildlings"),
                                                plans=d.get("plans", {})) for d in docs})
        given: dict = {}
        for _ in range(100):
            result = resolve(RS, state, inputs, {k: answer(v) for k, v in given.items()})
            if result.status == "complete":
                break
            given.update(driver.player.answer_all(result.pending, result.state))
        once = resolve(RS, state, inputs, {k: answer(v) for k, v in given.items()})
        assert once.status == "complete" and not once.unused_answers
        assert once.state.to_dict(RS) == result.state.to_dict(RS)
        assert once.events == result.events
        state = result.state
        if state.phase == "ended":
            break


# --- RUL-P1-4: asking ahead in the Planning and Action phases ------------------------------

def _case(name: str, answers: dict | None = None, expect: dict | None = None) -> list[str]:
    """Run scenario ``name`` with moderator ``answers`` added; the differences from ``expect``."""
    import copy
    from pathlib import Path

    from agot_adjudicator.workflow.conformance import load_case, run_case

    root = Path(__file__).resolve().parents[1] / "scenarios" / "protocol"
    case = copy.deepcopy(load_case(root / f"{name}.yaml").data)
    if answers:
        case["submissions"].append({"answers": answers})
    if expect is not None:
        case["expect"] = expect
    return run_case(case, RS).differences


CARDS = ["r1/march@winterfell/house_card/stark", "r1/march@winterfell/house_card/baratheon"]


def test_the_raven_stop_asks_an_independent_first_battle_ahead_and_the_answers_are_used():
    assert not _case("PROTO-020")
    # answered together (a swap that cannot touch the battle, both cards): the round completes
    answers = {"r1/raven/lannister": {"area": "lannisport", "order": "raid"},
               CARDS[0]: "eddard_stark", CARDS[1]: "stannis_baratheon"}
    assert not _case("PROTO-020", answers, {
        "status": "complete",
        "events": [{"type": "raven_swap", "house": "lannister"},
                   {"type": "house_cards_revealed", "area": "castle_black"},
                   {"type": "battle", "area": "castle_black"}]})
    # the cards left empty: asked again, as a plain stop, when the battle comes
    assert not _case("PROTO-020", {"r1/raven/lannister": None}, {
        "status": "pending", "pending": CARDS,
        "asked": {CARDS[0]: {"reason": None}}})


def test_a_raven_that_can_change_the_first_battle_is_asked_alone_then_the_battle():
    assert not _case("PROTO-021")
    # the swap takes the support away: the cards are asked next, on the changed battle
    assert not _case("PROTO-021", {"r1/raven/lannister": {"area": "karhold",
                                                          "order": "consolidate_power"}},
                     {"status": "pending", "pending": CARDS})


def test_a_battle_is_not_revealed_ahead_to_the_raven_holder_that_defends_it():
    assert not _case("PROTO-022")


def test_ahead_decisions_are_marked_and_left_out_of_the_public_report():
    from pathlib import Path

    from agot_adjudicator.model.state import GameState
    from agot_adjudicator.render.report import render_report
    from agot_adjudicator.workflow.conformance import build_state, load_case

    root = Path(__file__).resolve().parents[1] / "scenarios" / "protocol"
    case = load_case(root / "PROTO-020.yaml").data
    state = GameState.from_dict(build_state(case["state"], RS))
    inputs = Inputs({s["house"]: HouseInput(orders=s["orders"], plans=s.get("plans", {}))
                     for s in case["submissions"]})
    result = resolve(RS, state, inputs)
    assert [(p.request.id, p.ahead) for p in result.pending] == [
        ("r1/raven/lannister", False), (CARDS[0], True), (CARDS[1], True)]
    assert result.pending[1].to_dict()["ahead"] is True
    public = render_report("r1", result.events, result.state, RS, result.pending)
    assert "r1/raven/lannister" in public and "winterfell" not in public.split("Stopped")[1]


def test_nothing_is_asked_ahead_past_bids_not_revealed_yet():
    """RUL-3.4-4, RUL-P7-4: a Mustering stop asks ahead what cannot depend on it, but not a
    tie-break that would follow the Clash of Kings' reveal: with every bid in (and tied), its
    question would tell the holder who tied before anyone saw the bids."""
    s = westeros_game(RS, I="mustering", II="clash_of_kings")
    result = resolve(RS, s, Inputs(_tied(1)))
    ids = _ids(result)
    assert ids and all("/mustering/" in i or i.startswith("r2/muster") for i in ids), ids
    assert not any("tie_break" in i for i in ids)
