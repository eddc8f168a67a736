"""`agot conformance`: the compliance statement from a run of the suite (issue 7.6)."""

from __future__ import annotations

import shutil
from pathlib import Path

from agot_adjudicator.cli import main

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _suite(tmp_path: Path) -> Path:
    root = tmp_path / "suite"
    for rel in ("setup/SETUP-001.yaml", "setup/SETUP-005.yaml", "raids/RAID-001.yaml"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SCENARIOS / rel, root / rel)
    return root


def test_statement_counts_cases_per_section(runner, tmp_path):
    result = runner.invoke(main, ["conformance", str(_suite(tmp_path))])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "suite: AGoT-ATC/1, 3 cases" in out
    assert any(line.split()[:5] == ["setup", "2", "2", "0", "0"] for line in out.splitlines())
    assert any(line.split()[:5] == ["raids", "1", "1", "0", "0"] for line in out.splitlines())
    assert "not covered: R6.4 Battle step 3: house cards" in out
    from agot_adjudicator.model.rules import all_rulings

    assert f"rulings profile ({len(all_rulings())} rulings, docs/rules.md):" in out
    assert "RUL-8.2-1 (R8.2): Who wins on equal strength? → the Night's Watch\n" in out
    assert "verdict: every case passed" in out


def test_a_failing_case_is_named_and_exits_4(runner, tmp_path):
    root = _suite(tmp_path)
    case = root / "setup" / "SETUP-005.yaml"
    case.write_text(case.read_text().replace("westeros.shuffles: 3", "westeros.shuffles: 4"))
    result = runner.invoke(main, ["conformance", str(root)])
    assert result.exit_code == 4
    assert "FAILED SETUP-005" in result.stdout
    assert "westeros.shuffles: expected 4, got 3" in result.stdout


def test_the_digest_names_the_exact_suite(runner, tmp_path):
    root = _suite(tmp_path)
    first = runner.invoke(main, ["conformance", str(root)]).stdout.splitlines()[1]
    (root / "raids" / "RAID-001.yaml").write_text(
        (root / "raids" / "RAID-001.yaml").read_text() + "\n# comment\n")
    second = runner.invoke(main, ["conformance", str(root)]).stdout.splitlines()[1]
    assert first != second


def test_missing_directory_is_a_usage_error(runner, tmp_path):
    result = runner.invoke(main, ["conformance", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "no such directory" in result.stderr


def test_a_case_that_crashes_agot_is_one_failed_case_and_the_run_goes_on(runner, tmp_path,
                                                                       monkeypatch):
    """Issue 28: a planted fault (the hand a battle reads comes back empty, as a state with an
    empty hand once made it) crashes one case; the statement names it with the last line of
    its traceback and runs every other case."""
    from agot_adjudicator.engine import battles

    root = _suite(tmp_path)
    battle = root / "battles" / "strength" / "BATTLE-009.yaml"
    battle.parent.mkdir(parents=True)
    shutil.copy(SCENARIOS / "battles" / "strength" / "BATTLE-009.yaml", battle)
    monkeypatch.setattr(battles, "hand_in_order", lambda ctx, house: [])
    result = runner.invoke(main, ["conformance", str(root)])
    assert result.exit_code == 4, result.output
    out = result.stdout
    assert "suite: AGoT-ATC/1, 4 cases" in out
    assert "FAILED BATTLE-009:\n  crashed: AssertionError: " in out
    assert "holds no house card" in out and "(battles.py:" in out
    assert any(line.split()[:5] == ["setup", "2", "2", "0", "0"] for line in out.splitlines())
    assert "verdict: 1 case(s) failed" in out
