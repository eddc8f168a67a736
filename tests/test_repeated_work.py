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


def test_message_index_answers_as_a_scan_would(tmp_path):
    """The index keeps what intake asks of it as lines are added (issue 33): the same answers
    as scanning every line, for duplicates, part times and the latest accepted message."""
    import json
    import random

    from agot_adjudicator.io.clock import parse_utc
    from agot_adjudicator.io.messages import INDEX, MESSAGES, Index

    rng = random.Random(33)
    folder = tmp_path / MESSAGES
    folder.mkdir()
    lines = []
    for n in range(1, 200):
        lines.append({"n": n, "sha256": rng.choice(["a", "b", "c", None, f"s{n}"]),
                      "message_id": rng.choice([None, "", "<m1>", "<m2>", f"<{n}>"]),
                      "from": rng.choice(["x@y", "z@y", None]),
                      "verdict": rng.choice(["accepted", "accepted", "duplicate", "invalid"]),
                      "round": rng.choice([1, 2, "2", [2]]), "house": rng.choice(["stark", "tyrell"]),
                      "received": f"2026-12-01T10:{n % 60:02d}:00Z",
                      "effective": rng.choice([None, f"2026-12-01T09:{n % 60:02d}:00Z"]),
                      "taken": rng.choice([None, ["orders"], ["bids.fiefdoms", "orders"]]),
                      "withdrawn": rng.choice([None, ["plans.raids"]])})
    half = len(lines) // 2
    (folder / INDEX).write_text("".join(json.dumps(e) + "\n" for e in lines[:half]) + "{cut",
                                encoding="utf-8")
    index = Index.read(tmp_path)
    for entry in lines[half:]:
        index.append(entry)
    entries = [e for e in lines]

    def scan_duplicate(sha, mid, sender):
        for e in entries:
            if e.get("verdict") == "duplicate":
                continue
            if sha is not None and e.get("sha256") == sha:
                return e
            if mid and e.get("message_id") == mid and e.get("from") == sender:
                return e
        return None

    def scan_times(rnd, house):
        times = {}
        for e in entries:
            if e.get("round") != rnd or e.get("house") != house or e.get("verdict") != "accepted":
                continue
            stamp = parse_utc(str(e.get("effective") or e.get("received")))
            for part in [*(e.get("taken") or []), *(e.get("withdrawn") or [])]:
                times[str(part)] = (stamp, int(e["n"]))
        return times

    def scan_latest(rnd, house):
        found = None
        for e in entries:
            if e.get("round") == rnd and e.get("house") == house \
                    and e.get("verdict") == "accepted" and (e.get("taken") or e.get("withdrawn")):
                found = e
        return found

    assert index.entries == entries
    for sha in ["a", "b", "c", None, "s5", "zz"]:
        for mid in [None, "", "<m1>", "<m2>", "<7>"]:
            for sender in ["x@y", "z@y", None]:
                assert index.duplicate_of(sha, mid, sender) == scan_duplicate(sha, mid, sender)
    for rnd in (1, 2):
        for house in ("stark", "tyrell", "baratheon"):
            assert index.part_times(rnd, house) == scan_times(rnd, house)
            assert index.latest(rnd, house) == scan_latest(rnd, house)


def test_a_recorded_document_read_forward_stays_as_recorded_for_the_next_reader():
    """Reading a state forward upgrades its document in place (io.formats.read_forward): the
    next reader of the same recorded file still gets it as recorded (replay reads a state's
    recorded ruleset and writer after the state was adjudicated)."""
    from agot_adjudicator.io.schemas import schema_problems

    path = ROOT / "tests" / "data" / "records" / "0.2.0" / "demo" / "round-01" / "state.yaml"
    files = recorded.RecordedFiles(path.parent.parent)
    first = files.document(path)
    assert first.data["format"] == "agot-state/2"
    assert schema_problems(first, "state") == []
    assert first.data["format"] == "agot-state/3"  # read forward, in place
    assert files.document(path).data["format"] == "agot-state/2"
