"""Every rule of docs/rules.md (R0–R13) is pinned by at least one conformance case; cases cite
only ids that exist there (R-rules, chapters, protocol ids P1…)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from agot_adjudicator.model.rules import RULE_IDS, reference, rule_key
from agot_adjudicator.workflow.conformance import load_case, suite_cases

ROOT = Path(__file__).resolve().parent.parent / "scenarios"


@cache
def _cited() -> frozenset[str]:
    return frozenset(rule for path in suite_cases(ROOT) for rule in load_case(path).data["rules"])


def test_every_rule_has_a_case() -> None:
    cited = _cited()
    missing = [rule for rule in RULE_IDS if rule not in cited]
    assert not missing, f"rules no scenario cites: {missing}"


def test_cases_cite_only_known_rules() -> None:
    sections = {rule.split(".")[0] for rule in RULE_IDS}
    unknown = sorted((r for r in _cited() if r not in reference() and r not in sections), key=rule_key)
    assert not unknown, f"cited rules not in docs/rules.md: {unknown}"


def test_suite_size() -> None:
    assert len(suite_cases(ROOT)) >= 150
