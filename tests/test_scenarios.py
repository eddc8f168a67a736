"""The AGoT-ATC conformance suite: one pytest id per case in scenarios/ (see scenarios/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agot_adjudicator.workflow.conformance import load_case, run_case, suite_cases

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
CASES = suite_cases(ROOT)


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(ROOT)) for p in CASES])
def test_scenario(path: Path, ruleset) -> None:
    doc = load_case(path)
    if doc.data.get("skip"):
        pytest.skip(doc.data["skip"])
    outcome = run_case(doc.data, ruleset, name=path.name)
    assert not outcome.differences, f"{doc.data['id']} ({', '.join(doc.data['rules'])}) — " \
        f"{doc.data['title']}:\n" + "\n".join(outcome.differences)


def test_case_ids_are_unique() -> None:
    ids = [load_case(p).data["id"] for p in CASES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_suite_is_not_empty() -> None:
    assert len(CASES) >= 1


def _case(path: str) -> dict:
    import copy
    return copy.deepcopy(load_case(ROOT / path).data)


def test_asked_catches_a_wrong_reason_and_wrong_options(ruleset) -> None:
    case = _case("westeros/mustering/WEST-015.yaml")
    case["expect"]["asked"] = {"r2/mustering/lannisport/lannister": {"reason": "supply limit"}}
    assert run_case(case, ruleset).differences[:-1] == [  # the last lists the events
        "asked.r2/mustering/lannisport/lannister.reason: expected a reason containing "
        "'supply limit', got 'the plan no longer fits: lannister has all 4 of its knights on the "
        "board (R0.4)'"]
    case = _case("battles/casualties_retreats/BATTLE-017.yaml")
    case["expect"]["asked"] = {"r1/march@stoney_sept/retreat/stark": {"options": ["riverrun"]},
                               "r1/nothing/stark": {"reason": None}}
    assert run_case(case, ruleset).differences[:-1] == [
        "asked.r1/march@stoney_sept/retreat/stark.options: expected ['riverrun'], got "
        "['blackwater', 'riverrun']",
        "asked.r1/nothing/stark: not pending (pending: r1/march@stoney_sept/retreat/stark)"]


def test_deck_top_puts_the_cards_on_top_and_keeps_the_rest(ruleset) -> None:
    from agot_adjudicator.errors import MalformedInput
    from agot_adjudicator.workflow.conformance import build_state

    plain = build_state({"patch": {"round": 2}}, ruleset)["westeros"]["decks"]
    topped = build_state({"patch": {"round": 2}, "deck_top": {"I": "mustering",
                                                              "III": ["rains_of_autumn",
                                                                      "sea_of_storms"]}},
                         ruleset)["westeros"]["decks"]
    assert topped["I"][0] == "mustering" and sorted(topped["I"]) == sorted(plain["I"])
    rest = list(plain["I"])
    rest.remove("mustering")
    assert topped["I"][1:] == rest
    assert topped["II"] == plain["II"]
    assert topped["III"][:2] == ["rains_of_autumn", "sea_of_storms"]
    with pytest.raises(MalformedInput, match="deck I holds no"):
        build_state({"deck_top": {"I": "rains_of_autumn"}}, ruleset)
