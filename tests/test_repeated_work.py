"""Issue 33: work done once — static picture parts, each recorded file parsed once, the stored
submissions read once per intake run, a command importing only what it runs — with the outputs
unchanged (the demo replays byte for byte, tests/test_demo_game.py)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from pathlib import Path
from xml.sax import saxutils

import pytest

from agot_adjudicator.io import reading, recorded
from agot_adjudicator.io.rulesets import load_ruleset, state_ruleset
from agot_adjudicator.render import picture, svg
from agot_adjudicator.workflow.validate import load_state

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"


def test_svg_escapes_as_saxutils_does():
    chars = ["a", '"', "'", "&", "<", ">", "\n", "\r", "\t", " ", "北"]
    for n in range(1, 4):
        for combo in itertools.product(chars, repeat=n):
            text = "".join(combo)
            assert svg.escape(text) == saxutils.escape(text)
            assert svg.quoteattr(text) == saxutils.quoteattr(text)


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_static_board_made_once_and_pictures_unchanged(lang):
    path = DEMO / "round-05" / "state.yaml"
    ruleset = state_ruleset(path, DEMO)
    _, state = load_state(str(path), ruleset)
    first = picture.render_svg(state, ruleset, lang=lang)
    board = picture.BOARDS.board(ruleset, lang)
    again = picture.render_svg(state, ruleset, lang=lang, orders=True)
    assert picture.BOARDS.board(ruleset, lang) is board  # reused by every picture
    fresh = picture.StaticBoards()
    saved, picture.BOARDS = picture.BOARDS, fresh
    try:  # drawn from a new static board: the same bytes
        assert picture.render_svg(state, ruleset, lang=lang) == first
        assert picture.render_svg(state, ruleset, lang=lang, orders=True) == again
    finally:
        picture.BOARDS = saved


def test_replay_parses_each_recorded_file_once(monkeypatch):
    from agot_adjudicator.workflow.replay import replay_game

    parsed: Counter[str] = Counter()
    real = reading.load_yaml

    def counting(path, *args, **kwargs):
        parsed[str(path)] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(recorded, "load_yaml", counting)
    monkeypatch.setattr("agot_adjudicator.workflow.validate.load_yaml", counting)
    replay = replay_game(str(DEMO), load_ruleset())
    assert replay.ok
    assert parsed and max(parsed.values()) == 1, parsed.most_common(3)
    assert any(name.endswith("round-11/state.yaml") for name in parsed)


def _modules(*args: str) -> set[str]:
    """The modules a command imports (run in a fresh interpreter)."""
    code = ("import sys\nfrom agot_adjudicator.cli import main\n"
            "try:\n    main(sys.argv[1:], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return set(done.stderr.split())


def test_commands_import_what_they_run():
    data = ROOT / "bench" / "data"
    validate = _modules("validate", str(data / "state.yaml"), str(data / "orders.yaml"))
    assert "agot_adjudicator.workflow.validate" in validate
    for heavy in ("agot_adjudicator.workflow.status", "agot_adjudicator.workflow.inbox",
                  "agot_adjudicator.workflow.adjudicate", "mailbox", "tabulate", "xml.sax",
                  "ssl"):
        assert heavy not in validate, heavy
    replay = _modules("replay", str(DEMO))
    assert "agot_adjudicator.render.picture" in replay
    assert "xml.sax" not in replay and "ssl" not in replay  # escaping needs no network stack
