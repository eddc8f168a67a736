"""A battle stopped for house cards and re-run with both answers (docs/protocol.md P1, R6.2, R6.4):
the second run repeats the same support declarations and goes on to the end of the round."""

from __future__ import annotations

import json
from pathlib import Path

from ruamel.yaml import YAML

from agot_adjudicator.cli import main
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.workflow.conformance import build_state

AREAS = {
    "stoney_sept": {"house": "lannister", "units": ["knight", "knight"], "order": "march_0"},
    "harrenhal": {"house": "stark", "units": ["footman"]},
    "blackwater": {"house": "baratheon", "units": ["knight"], "order": "support"},
    "riverrun": {"house": "stark", "units": ["footman"], "order": "support"},
}
PLANS = {
    "lannister": {"marches": [{"from": "stoney_sept", "moves": {"harrenhal": ["knight", "knight"]}}]},
    "baratheon": {"support": {"blackwater": ["stark"]}},
    "stark": {"support": {"riverrun": ["stark"]}, "retreats": {"harrenhal": ["crackclaw_point"]}},
}
CARDS = ["r1/march@stoney_sept/house_card/lannister", "r1/march@stoney_sept/house_card/stark"]


def _files(tmp_path: Path, ruleset) -> list[str]:
    state = build_state({"empty_board": True, "patch": {"phase": "action", "areas": AREAS}}, ruleset)
    (tmp_path / "state.yaml").write_text(dump_yaml(state))
    paths = []
    for house, plans in PLANS.items():
        path = tmp_path / f"{house}.yaml"
        path.write_text(dump_yaml({"format": "agot-orders/1", "round": 1, "house": house,
                                   "plans": plans}))
        paths.append(str(path))
    return [str(tmp_path / "state.yaml"), *paths]


def _run(runner, tmp_path: Path, files: list[str]):
    result = runner.invoke(main, ["adjudicate", *files, "-o", str(tmp_path / "next.yaml"),
                                  "--log", str(tmp_path / "log.jsonl"), "--report",
                                  str(tmp_path / "report.md")])
    log = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    return result, log


def test_house_cards_stop_the_battle_and_the_rerun_repeats_support_and_finishes(runner, tmp_path,
                                                                                ruleset):
    files = _files(tmp_path, ruleset)
    first, stopped = _run(runner, tmp_path, files)
    assert first.exit_code == 3, first.output
    pending = YAML(typ="safe").load(first.stdout)["pending"]
    assert [p["id"] for p in pending] == CARDS            # both cards asked together (R6.4)
    support = [e for e in stopped if e["type"] == "support_declared"]
    assert [(e["area"], e["side"], e["strength"]) for e in support] == [
        ("blackwater", "stark", 2), ("riverrun", "stark", 1)]    # order of play (Iron Throne)
    assert not any(e["type"] == "battle" for e in stopped)
    assert not (tmp_path / "next.yaml").exists()

    answers = tmp_path / "answers.yaml"
    answers.write_text(dump_yaml({"format": "agot-orders/1", "round": 1, "answers": {
        CARDS[0]: "tywin_lannister", CARDS[1]: "lord_mormont"}}))
    second, full = _run(runner, tmp_path, [*files, str(answers)])
    assert second.exit_code == 0, second.output
    assert full[:len(stopped)] == stopped                 # the same events, support included
    assert [e for e in full if e["type"] == "support_declared"] == support
    battle = next(e for e in full if e["type"] == "battle")
    # Lannister 4 + Tywin 3 = 7; Stark 1 + Riverrun 1 + Blackwater 2 + Mormont 1 = 5
    assert battle["totals"] == {"lannister": 7, "stark": 5} and battle["winner"] == "lannister"
    assert next(e for e in full if e["type"] == "casualties")["count"] == 2
    nxt = YAML(typ="safe").load((tmp_path / "next.yaml").read_text())
    assert nxt["round"] == 2
    assert nxt["areas"]["harrenhal"] == {"house": "lannister", "units": ["knight", "knight"]}
    assert "Battle in Harrenhal" in (tmp_path / "report.md").read_text()
