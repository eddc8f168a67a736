"""The report and the event log (issue 6 items 1–2): every event renders, the log's fields are
documented, no secret leaks, ``--private`` and ``--format text``."""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from agot_adjudicator.cli import main
from agot_adjudicator.engine.events import EVENT_FIELDS
from agot_adjudicator.io.reading import parse_text
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.event_lines import LINES, event_line
from agot_adjudicator.render.language import Names
from agot_adjudicator.render.report import Private, battle_table, render_log, render_report
from agot_adjudicator.workflow.adjudicate import adjudicate_docs
from agot_adjudicator.workflow.conformance import build_state, load_case, run_case, suite_cases

ROOT = Path(__file__).resolve().parent.parent
BASE = {"type", "rule", "round", "phase"}


def emitted() -> dict[str, set[str]]:
    """Event type → keyword fields, from every ``emit("type", rule, ...)`` call in the package."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "agot_adjudicator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "emit" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                fields = {k.arg for k in node.keywords if k.arg is not None}
                out.setdefault(node.args[0].value, set()).update(fields)
    return out


@pytest.fixture(scope="module")
def scenario_events(ruleset) -> list[dict[str, Any]]:
    """Every event of every conformance case (one run of the suite)."""
    events = []
    for path in suite_cases(ROOT / "scenarios"):
        events.extend(run_case(load_case(path).data, ruleset, path.name).events)
    return events


SAMPLES: list[dict[str, Any]] = [
    # event types no conformance case produces yet
    {"type": "game_already_ended", "rule": "R11", "round": 10, "phase": "ended",
     "winner": {"houses": ["stark"], "reason": "most castles", "round": 10}},
    {"type": "game_ended", "rule": "R11.1", "round": 10, "phase": "action",
     "winners": ["stark"], "castles": {"stark": 6, "tyrell": 6}, "supply": {"stark": 3, "tyrell": 2},
     "power": {"stark": 4, "tyrell": 9}},
    {"type": "muster_impossible", "rule": "R3.5", "round": 2, "phase": "westeros",
     "house": "stark", "castle": "winterfell", "points": 2},
    {"type": "power_token_returned", "rule": "R5.5", "round": 2, "phase": "action",
     "area": "harrenhal", "house": "stark"},
    {"type": "westeros_phase_skipped", "rule": "R2.1", "round": 1, "phase": "westeros"},
]

RAW = re.compile(r"[{}\[\]]|'[a-z_]+'|\bNone\b|\bTrue\b|\bFalse\b")


def test_every_emitted_event_type_and_field_is_documented():
    found = emitted()
    assert found, "no emit() calls found"
    for type_, fields in sorted(found.items()):
        assert type_ in EVENT_FIELDS, f"event {type_} is not documented in engine/events.py EVENT_FIELDS"
        assert type_ in LINES, f"event {type_} has no report line in report.LINES"
        missing = fields - set(EVENT_FIELDS[type_])
        assert not missing, f"event {type_}: fields {sorted(missing)} are not documented"
    stale = set(EVENT_FIELDS) - set(found)
    assert not stale, f"documented but never emitted: {sorted(stale)}"
    assert set(LINES) == set(EVENT_FIELDS)


def test_every_event_renders_as_a_sentence_naming_its_rule(ruleset, scenario_events):
    names = Names(ruleset)
    seen = {e["type"] for e in scenario_events} | {e["type"] for e in SAMPLES}
    assert seen >= set(EVENT_FIELDS), f"no sample of {sorted(set(EVENT_FIELDS) - seen)}"
    for event in [*scenario_events, *SAMPLES]:
        line = event_line(event, names)
        assert not RAW.search(line), f"raw data in the line of {event['type']}: {line}"
        assert line.endswith(f"({event['rule']}).")
        assert set(event) - BASE <= set(EVENT_FIELDS[event["type"]]), event
        if event["type"] == "battle":
            for fmt in ("markdown", "text"):
                table = battle_table(event, names, fmt)
                assert not RAW.search(table), table
                assert re.search(rf"total\W+{event['sides']['attacker']['total']}\W+"
                                 rf"{event['sides']['defender']['total']}(\W|$)", table), table


def test_log_is_one_json_event_per_line_with_documented_types(scenario_events):
    log = render_log(scenario_events[:200])
    lines = log.splitlines()
    assert len(lines) == 200
    for line, event in zip(lines, scenario_events, strict=False):
        parsed = json.loads(line)
        assert parsed == event
        assert list(parsed)[:4] == ["type", "rule", "round", "phase"]
        assert parsed["type"] in EVENT_FIELDS


# --- reports of real runs ------------------------------------------------------------------------

def run(ruleset, case: dict[str, Any]):
    data = build_state(case.get("state", {}), ruleset)
    state_doc = parse_text("state", dump_yaml(data).encode())
    docs = [parse_text(f"sub{i}", dump_yaml({"format": "agot-orders/1", "round": data["round"],
                                              **sub}).encode())
            for i, sub in enumerate(case.get("submissions", []))]
    return adjudicate_docs(state_doc, docs, ruleset)


def battle_case(*, stark_card: str | None = "eddard_stark", support: bool = True) -> dict[str, Any]:
    areas: dict[str, Any] = {
        "stoney_sept": {"house": "lannister", "units": ["knight", "knight"], "order": "march_0"},
        "harrenhal": {"house": "stark", "units": ["footman", "knight"], "order": "defense_plus1"},
        "blackwater": {"house": "baratheon", "units": ["knight"], "order": "support"}}
    stark: dict[str, Any] = {"house": "stark", "plans": {"retreats": {"harrenhal": ["riverrun"]}}}
    if stark_card:
        stark["plans"]["house_cards"] = [{"priority": [stark_card]}]
    return {"state": {"empty_board": True, "patch": {"phase": "action", "areas": areas}},
            "submissions": [
                {"house": "lannister", "plans": {
                    "marches": [{"from": "stoney_sept", "moves": {"harrenhal": ["knight", "knight"]}}],
                    "house_cards": [{"priority": ["tywin_lannister"]}]}},
                stark,
                {"house": "baratheon", "plans": {"support": {"blackwater": ["stark" if support
                                                                           else "none"]}}}]}


def report_of(ruleset, adjudication, **kw: Any) -> str:
    r = adjudication.result
    return render_report("Game", r.events, r.state, ruleset, r.pending, **kw)


def test_battle_table_breaks_down_both_sides(ruleset):
    done = run(ruleset, battle_case())
    text = report_of(ruleset, done)
    battles = [e for e in done.result.events if e["type"] == "battle"]
    assert len(battles) == 1
    # Lannister 4 + 0 + Tywin 3 = 7; Stark 1 + 2 + Defense 1 + Blackwater 2 + Eddard 3 = 9
    assert battles[0]["totals"] == {"lannister": 7, "stark": 9}
    table = text[text.index("| units"):]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:4]]
            for line in table.splitlines() if line.startswith("|")}
    assert rows["units"] == ["2 knights × 2 = 4", "1 footman × 1 + 1 knight × 2 = 3"]
    assert rows["order"] == ["March +0: +0", "Defense +1: +1"]
    assert rows["support from Blackwater (Baratheon)"] == ["", "+2"]
    assert rows["house card"] == ["Tywin Lannister: +3", "Eddard Stark: +3"]
    assert rows["total"] == ["7", "9"]
    assert "Stark wins 9 to 7 (R6)." in text


def test_tie_break_is_named_in_the_report(ruleset):
    # Baratheon backs no one: Stark 1 + 2 + 1 + Eddard 3 = 7 = Lannister 7; Stark is higher on Fiefdoms
    text = report_of(ruleset, run(ruleset, battle_case(support=False)))
    assert "Stark wins 7 to 7 (tie: higher on Fiefdoms, order Stark, Lannister, R6.6)" in text
    assert re.search(r"^\| tie-break: Fiefdoms \(R6\.6\) +\| lower +\| higher, wins +\|$", text, re.M)
    assert "tie-break" not in report_of(ruleset, run(ruleset, battle_case()))


def test_public_report_has_no_hands_prompts_or_plans_and_private_has_one_house(ruleset):
    stopped = run(ruleset, battle_case(stark_card=None))
    assert [p.request.id for p in stopped.result.pending] == [
        "r1/march@stoney_sept/house_card/stark"]
    public = report_of(ruleset, stopped)
    stark_hand = [ruleset.house_cards[c].name for c in ruleset.cards_by_house["stark"]]
    lannister_rest = [ruleset.house_cards[c].name for c in ruleset.cards_by_house["lannister"]]
    for name in stark_hand + lannister_rest:
        assert name not in public
    assert "Choose a house card" not in public          # the prompt stays private
    assert "r1/march@stoney_sept/house_card/stark" in public
    mine = report_of(ruleset, stopped, private=Private("stark"))
    assert mine.startswith(public.rstrip())
    own = mine[len(public.rstrip()):]
    assert "Private to Stark" in own
    for name in stark_hand:
        assert name in own
    for name in lannister_rest:
        assert name not in own
    assert "Choose a house card" in own
    theirs = report_of(ruleset, stopped, private=Private("lannister"))
    assert "Choose a house card" not in theirs and "none" in theirs.split("pending questions")[1]


def test_public_report_does_not_depend_on_secrets(ruleset):
    """Hands (same size), Westeros decks, the seed: changing them changes no byte of the report."""
    done = run(ruleset, battle_case())
    r = done.result
    text = render_report("Game", r.events, r.state, ruleset, r.pending)
    other = GameState.from_dict(copy.deepcopy(r.state.to_dict(ruleset)))
    other.seed = r.state.seed + 1
    other.decks = {d: list(reversed(cards)) for d, cards in r.state.decks.items()}
    for h, hs in other.houses.items():
        unseen = [c for c in ruleset.cards_by_house[h] if c not in hs.hand]
        hs.hand = (unseen + list(hs.hand))[:len(hs.hand)]
    assert other.to_dict(ruleset) != r.state.to_dict(ruleset)
    assert render_report("Game", r.events, other, ruleset, r.pending) == text
    assert "Westeros deck" not in text and "seed" not in text.lower()


DECKS = {  # top first; as WEST-007 with Clash of Kings on top of deck II
    "I": ["supply", "mustering", "supply", "mustering", "supply", "mustering", "supply",
          "mustering", "last_days_of_summer", "winter_is_coming"],
    "II": ["clash_of_kings", "last_days_of_summer", "game_of_thrones", "clash_of_kings",
           "game_of_thrones", "clash_of_kings", "game_of_thrones", "clash_of_kings",
           "game_of_thrones", "winter_is_coming"],
    "III": ["last_days_of_summer", "wildling_attack", "sea_of_storms", "wildling_attack",
            "storm_of_swords", "wildling_attack", "feast_for_crows", "rains_of_autumn",
            "last_days_of_summer", "winter_is_coming"]}


def clash_case(bid: int) -> dict[str, Any]:
    decks = dict(DECKS, I=["last_days_of_summer", *DECKS["I"][:8], "winter_is_coming"])
    return {"state": {"patch": {"round": 2, "phase": "westeros", "westeros": {"decks": decks}}},
            "submissions": [{"house": "stark", "bids": {"iron_throne": bid, "fiefdoms": 0,
                                                          "kings_court": 0}}]}


def test_bids_before_reveal_never_reach_the_public_report(ruleset):
    reports, privates = [], []
    for bid in (1, 4):
        stopped = run(ruleset, clash_case(bid))
        assert stopped.result.status == "pending"
        assert not any(e["type"] == "bids_revealed" for e in stopped.result.events)
        reports.append(report_of(ruleset, stopped))
        mine = stopped.inputs.of("stark")
        privates.append(report_of(ruleset, stopped, private=Private("stark", mine.bids)))
    assert reports[0] == reports[1]
    assert "iron throne: 1" in privates[0] and "iron throne: 4" in privates[1]


def test_text_format_has_no_markdown_tables_or_headings(ruleset):
    done = run(ruleset, battle_case())
    text = report_of(ruleset, done, fmt="text")
    assert "|" not in text
    assert not any(line.startswith("#") for line in text.splitlines())
    assert "`" not in text
    assert re.search(r"^total\s+7\s+9$", text, re.M)
    markdown = report_of(ruleset, done)
    lines = [ln[2:] for ln in markdown.splitlines() if ln.startswith("- ")]
    for line in lines:                      # the same sentences, in the same order
        assert f"- {line}" in text


def test_cli_format_and_private_options(runner, tmp_path, ruleset):
    case = battle_case(stark_card=None)
    data = build_state(case["state"], ruleset)
    (tmp_path / "state.yaml").write_text(dump_yaml(data))
    files = []
    for sub in case["submissions"]:
        files.append(str(tmp_path / f"{sub['house']}.yaml"))
        Path(files[-1]).write_text(dump_yaml({"format": "agot-orders/1", "round": 1, **sub}))
    base = ["adjudicate", str(tmp_path / "state.yaml"), *files, "-o", str(tmp_path / "next.yaml")]
    result = runner.invoke(main, [*base, "--report", str(tmp_path / "r.txt"), "--format", "text",
                                  "--private", "stark"])
    assert result.exit_code == 3, result.output
    text = (tmp_path / "r.txt").read_text()
    assert "|" not in text and "Private to Stark" in text and "Eddard Stark" in text
    bad = runner.invoke(main, [*base, "--report", str(tmp_path / "r.md"), "--private", "martell"])
    assert bad.exit_code == 2 and "not a house in play" in bad.output
    alone = runner.invoke(main, [*base, "--private", "stark"])
    assert alone.exit_code == 2 and "--report" in alone.output
