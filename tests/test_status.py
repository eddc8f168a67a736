"""`agot status --game DIR` (issue 15.5): what each house has sent and still owes, who is late."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from autoplay import Driver

from agot_adjudicator.cli import main
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.adjudicate import adjudicate_docs
from agot_adjudicator.workflow.status import default_words

ROOT = Path(__file__).resolve().parent.parent
SEED = 3
LATE, EARLY = "2030-01-01T00:00:00Z", "2020-01-01T00:00:00Z"


@pytest.fixture
def game(runner, tmp_path) -> Path:
    game = tmp_path / "g"
    done = runner.invoke(main, ["new", "--players", "3", "--seed", str(SEED), "--game", str(game)])
    assert done.exit_code == 0, done.output
    return game


def status(runner, game: Path, *args: str):
    return runner.invoke(main, ["status", "--game", str(game), *args])


def as_json(runner, game: Path, *args: str) -> dict:
    result = status(runner, game, "--format", "json", *args)
    assert result.exit_code in (0, 3), result.output
    return json.loads(result.stdout)


def owes(doc: dict) -> dict[str, list[str]]:
    return {h["house"]: [o["id"] for o in h["owes"]] for h in doc["houses"]}


def write_orders(game: Path, ruleset, houses: list[str]) -> GameState:
    state = GameState.from_dict(load_yaml(game / "round-01" / "state.yaml").data)
    driver = Driver(SEED, 3, ruleset)
    for house in houses:
        body = {"format": "agot-orders/1", "round": 1, "house": house,
                "orders": driver.player.orders(state, house)}
        (game / "round-01" / "orders" / f"{house}.yaml").write_text(dump_yaml(body))
    return state


def test_a_new_game_waits_for_every_house_s_orders(runner, game):
    result = status(runner, game)
    assert result.exit_code == 3, result.output
    assert "round 1, planning phase: waiting for orders (not run yet)" in result.stdout
    assert "deadline: none set" in result.stdout
    doc = as_json(runner, game)
    assert doc["format"] == "agot-status/1" and doc["stage"] == "waiting for orders"
    assert owes(doc) == {h: [f"r1/orders/{h}"] for h in ("baratheon", "lannister", "stark")}
    assert doc["owed"] is True and doc["deadline"] is None


def test_a_valid_orders_file_settles_the_orders(runner, game, ruleset):
    write_orders(game, ruleset, ["stark"])
    doc = as_json(runner, game)
    stark = next(h for h in doc["houses"] if h["house"] == "stark")
    assert stark["owes"] == [] and stark["files"][0]["file"] == "stark.yaml"
    assert stark["files"][0]["valid"] is True and stark["files"][0]["received"].endswith("Z")
    assert owes(doc)["lannister"] == ["r1/orders/lannister"]
    text = status(runner, game).stdout
    assert "stark.yaml received" in text and "owed by: baratheon, lannister" in text


def test_an_invalid_file_is_counted_never_quoted(runner, game):
    path = game / "round-01" / "orders" / "lannister.yaml"
    path.write_text("format: agot-orders/1\nround: 1\nhouse: lannister\n"
                    "orders:\n  lannisport: march_special_secret_word\n")
    result = status(runner, game)
    assert result.exit_code == 3
    assert "lannister.yaml received" in result.stdout and "invalid (1 problem)" in result.stdout
    assert "secret_word" not in result.stdout and "r1/orders/lannister" in result.stdout
    # validate --game names the same problem (status reuses its workflow)
    checked = runner.invoke(main, ["validate", "--game", str(game), str(path)])
    assert checked.exit_code == 1 and "secret_word" in checked.stderr


def test_past_the_deadline_the_owing_houses_are_late_with_their_defaults(runner, game, ruleset):
    (game / "players.yaml").write_text("format: agot-players/1\nhouses: {}\n"
                                       "deadline: 2026-12-03T18:00:00Z\n")
    write_orders(game, ruleset, ["stark", "lannister"])
    early = status(runner, game, "--now", "2026-12-03T17:59:59Z")
    assert "LATE" not in early.stdout and "(now 2026-12-03T17:59:59Z: not yet)" in early.stdout
    late = status(runner, game, "--now", "2026-12-03T18:00:01Z")
    assert late.exit_code == 3
    assert "baratheon — LATE" in late.stdout and "stark — LATE" not in late.stdout
    assert "--nmr baratheon would apply:\n    r1/orders/baratheon: no orders" in late.stdout
    doc = as_json(runner, game, "--now", LATE)
    assert doc["past_deadline"] is True
    assert [h["house"] for h in doc["houses"] if h["late"]] == ["baratheon"]
    assert doc["houses"][0]["owes"][0]["default"] == "no orders"


def test_a_stopped_round_owes_its_pending_decisions_until_answered(runner, game, ruleset):
    state = write_orders(game, ruleset, ["stark", "lannister", "baratheon"])
    run = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert run.exit_code == 3, run.output
    everything = load_yaml(game / "round-01" / "pending.yaml").data["pending"]
    pending = [p for p in everything if not p.get("ahead")]  # asked ahead: optional, not shown
    doc = as_json(runner, game)
    assert doc["stage"] == "stopped" and doc["pending"] == len(pending)
    assert sorted(i for ids in owes(doc).values() for i in ids) == sorted(p["id"] for p in pending)
    kinds = {o["kind"] for h in doc["houses"] for o in h["owes"]}
    assert "orders" not in kinds
    # Nothing private: no prompt or option of the pending list shows.
    text = status(runner, game, "--now", LATE).stdout
    for p in pending:
        assert p["prompt"] not in text
    # Answer them all in the moderator's file: nothing is owed any more.
    docs = [Document(str(p), load_yaml(p).data, "") for p in sorted(
        (game / "round-01" / "orders").glob("*.yaml"))]
    stopped = adjudicate_docs(Document("s", state.to_dict(ruleset), ""), docs, ruleset).result
    values = Driver(SEED, 3, ruleset).player.answer_all(stopped.pending, stopped.state)
    (game / "round-01" / "orders" / "answers.yaml").write_text(dump_yaml(
        {"format": "agot-orders/1", "round": 1, "answers": values}))
    done = status(runner, game)
    assert done.exit_code == 0, done.output
    assert "nothing is owed" in done.stdout and "other files" in done.stdout
    assert "answers.yaml received" in done.stdout


def test_a_round_not_run_yet_and_an_ended_game_owe_nothing(runner, game, ruleset, tmp_path):
    write_orders(game, ruleset, ["stark", "lannister", "baratheon"])
    for _ in range(20):  # --defaults covers the decisions of the current stop (RUL-P2-2)
        ran = runner.invoke(main, ["adjudicate", "--game", str(game), "--defaults"])
        if ran.exit_code == 0:
            break
        assert ran.exit_code == 3, ran.output
    result = status(runner, game)
    assert result.exit_code == 0, result.output
    assert "round 2, westeros phase: not run yet" in result.stdout
    demo = tmp_path / "demo"
    shutil.copytree(ROOT / "scenarios" / "games" / "demo", demo)
    ended = status(runner, demo)
    assert ended.exit_code == 0 and "the game has ended" in ended.stdout


def test_usage_errors(runner, game, tmp_path):
    assert status(runner, game, "--now", "tomorrow").exit_code == 2
    assert status(runner, tmp_path / "nothing").exit_code == 2
    (game / "players.yaml").write_text("format: agot-players/1\ndeadline: soon\n")
    bad = status(runner, game)
    assert bad.exit_code == 1 and "players.yaml" in bad.stderr and "$.deadline" in bad.stderr


def test_defaults_in_words_never_name_a_card_in_hand():
    assert default_words("house_card", "eddard_stark") == (
        "the first card in hand in data order (strongest first)")
    assert default_words("raven", None) == "keep the orders"
    assert default_words("march", {"moves": {}, "leave_power_token": False}) == (
        "no move, no power token")
    assert default_words("support", "none") == "support no one"
    assert default_words("bid", 0) == "bid 0"
    assert default_words("muster", []) == "muster nothing"


def test_a_plan_covers_what_the_stop_asks_only_if_it_fits(runner, game, ruleset):
    """Status settles a decision of the stop by the one verdict (RUL-P8-8): a plan that fits
    what the stop asks settles it; one that does not leaves it owed, with the engine's reason,
    and counts as a warning of its file."""
    write_orders(game, ruleset, ["stark", "lannister", "baratheon"])
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    text = (game / "round-01" / "pending.yaml").read_text(encoding="utf-8")
    assert "  - id: r1/raven/lannister\n    house: lannister\n    kind: raven\n" in text
    lannister = game / "round-01" / "orders" / "lannister.yaml"
    body = load_yaml(lannister).data
    lannister.write_text(dump_yaml({**body, "plans": {"raven": {"area": "lannisport",
                                                                "order": "no_such_token"}}}))
    before = as_json(runner, game)
    assert owes(before)["lannister"] == ["r1/raven/lannister"]
    files = {f["file"]: f for h in before["houses"] for f in h["files"]}
    assert files["lannister.yaml"]["warnings"] >= 1 or not files["lannister.yaml"]["valid"]
    lannister.write_text(dump_yaml({**body, "plans": {"raven": None}}))
    after = as_json(runner, game)
    assert owes(after)["lannister"] == []

def test_a_question_asked_ahead_is_neither_owed_nor_shown(runner, game):
    """The Raven asked with the orders (RUL-4.6-1) is optional and goes to its house only:
    status, which is public, leaves it out like the public report (RUL-P1-4)."""
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    pending = (game / "round-01" / "pending.yaml").read_text()
    assert "/raven/" in pending and "ahead: true" in pending
    result = status(runner, game)
    assert result.exit_code == 3 and "raven" not in result.stdout
    doc = as_json(runner, game)
    assert all("raven" not in i for ids in owes(doc).values() for i in ids)


def test_status_in_chinese(runner, game, ruleset):
    """`--lang zh-Hans` (or a Chinese locale) writes the text in Chinese with the glossary's
    house names; ids stay; --format json stays English."""
    (game / "players.yaml").write_text("format: agot-players/1\nhouses: {}\n"
                                       "deadline: 2026-12-03T18:00:00Z\n")
    write_orders(game, ruleset, ["stark", "lannister"])
    late = status(runner, game, "--now", "2026-12-03T18:00:01Z", "--lang", "zh-Hans")
    assert late.exit_code == 3
    for text in ("：第 1 回合，计划阶段：等待命令（尚未结算）", "截止时间：2026-12-03T18:00:00Z（现在 "
                 "2026-12-03T18:00:01Z：已过）", "拜拉席恩——逾期", "  欠交命令：r1/orders/baratheon",
                 "  --nmr baratheon 将采用：\n    r1/orders/baratheon: 不下命令", "欠交者：拜拉席恩",
                 "史塔克\n  已交：stark.yaml 收到于"):
        assert text in late.stdout, (text, late.stdout)
    by_locale = runner.invoke(main, ["status", "--game", str(game), "--now", LATE],
                              env={"LANG": "zh_HK.UTF-8"})
    assert "拜拉席恩——逾期" in by_locale.stdout and "欠交者：" in by_locale.stdout
    doc = json.loads(runner.invoke(main, ["status", "--game", str(game), "--format", "json",
                                          "--now", LATE, "--lang", "zh-Hant"]).stdout)
    assert doc["houses"][0]["owes"][0]["default"] == "no orders"


def test_the_phase_said_is_where_the_round_stands(runner, game, ruleset):
    """A round that starts with the Westeros phase and stops for orders stands in the planning
    phase: status and the receipts say so (the board as it stands, P4), not the round's start."""
    write_orders(game, ruleset, ["stark", "lannister", "baratheon"])
    for _ in range(20):
        ran = runner.invoke(main, ["adjudicate", "--game", str(game), "--defaults"])
        if ran.exit_code == 0:
            break
    pending = game / "round-02" / "pending.yaml"
    for _ in range(5):  # the Westeros phase's stops defaulted, up to the orders
        stopped = runner.invoke(main, ["adjudicate", "--game", str(game)])
        assert stopped.exit_code == 3, stopped.output
        if "r2/orders/" in pending.read_text():
            break
        runner.invoke(main, ["adjudicate", "--game", str(game), "--defaults"])
    result = status(runner, game)
    assert "round 2, planning phase: stopped on" in result.stdout, result.stdout
    data = json.loads(runner.invoke(main, ["status", "--game", str(game), "--format", "json",
                                           "--now", "2026-12-01T00:00:00Z"]).stdout)
    assert (data["round"], data["phase"], data["stage"]) == (2, "planning", "stopped")
