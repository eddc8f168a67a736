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
