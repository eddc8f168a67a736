"""Issue 4's coverage of the battle conformance cases (scenarios/battles): at least 60 cases,
and every one of the 35 house cards played in a case named after it (R6.4)."""

from __future__ import annotations

from pathlib import Path

from agot_adjudicator.workflow.conformance import load_case

BATTLES = sorted((Path(__file__).resolve().parent.parent / "scenarios" / "battles").rglob("*.yaml"))


def played(case: dict) -> set[str]:
    cards = set()
    for sub in case.get("submissions", []):
        for rule in sub.get("plans", {}).get("house_cards", []):
            cards.update(rule.get("priority", []))
            if "card" in rule:
                cards.add(rule["card"])
        cards.update(v for k, v in sub.get("answers", {}).items() if "/house_card/" in k)
    return cards


def test_at_least_sixty_battle_cases_each_citing_r6():
    assert len(BATTLES) >= 60
    for path in BATTLES:
        rules = load_case(path).data["rules"]
        assert any(r.startswith("R6") for r in rules), path.name


def test_every_house_card_has_a_case_named_after_it(ruleset):
    cases = [load_case(p).data for p in BATTLES]
    for card_id, card in ruleset.house_cards.items():
        short = card.name.split(" of ")[0] if not card.name.startswith("The ") else card.name
        named = [c["id"] for c in cases if short in c["title"] and card_id in played(c)]
        assert named, f"no battle case plays {card.name} and is named after it"
