"""`python scenarios/regenerate.py` re-renders the demo from its record: it rewrites exactly the
recorded outputs that differ from what this checkout writes, never a submission, and stops
(naming the round) when the recorded submissions no longer complete a round."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
SCRIPT = runpy.run_path(str(ROOT / "scenarios" / "regenerate.py"), run_name="regenerate")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def demo(tmp_path) -> Path:
    copy = tmp_path / "demo"
    shutil.copytree(DEMO, copy)
    return copy


def test_an_unchanged_record_is_left_as_it_is(demo):
    before = _snapshot(demo)
    assert SCRIPT["regenerate_game"](demo) == []
    assert _snapshot(demo) == before


def test_stale_outputs_are_rendered_again_and_nothing_else(demo):
    """Each kind of recorded output, changed by hand, is written again from the record: the
    report, the log, both pictures, a mail text, a next state, the game's ruleset copy."""
    before = _snapshot(demo)
    stale = ["round-03/report.md", "round-04/log.jsonl", "round-05/moves.svg",
             "round-06/board.svg", "round-07/mail/stark.txt", "round-08/state.yaml",
             f"rulesets/{next((demo / 'rulesets').iterdir()).name}/glossary.yaml"]
    for name in stale:
        path = demo / name
        path.write_bytes(path.read_bytes().replace(b"\n", b"\n\n", 1))
    changed = SCRIPT["regenerate_game"](demo)
    assert sorted(p.relative_to(demo).as_posix() for p in changed) == sorted(stale)
    assert _snapshot(demo) == before


def test_a_round_the_record_no_longer_completes_is_named(demo):
    """Without its answers, round 2 stops on pending decisions: a new demo must be played."""
    orders = demo / "round-02" / "orders"
    (orders / "answers.yaml").unlink()
    submissions = _snapshot(orders)
    with pytest.raises(SCRIPT["Stale"], match="round-02"):
        SCRIPT["regenerate_game"](demo)
    assert _snapshot(orders) == submissions
