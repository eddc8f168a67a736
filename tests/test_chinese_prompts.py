"""Decision prompts and answer checks in Chinese (issue 18.2): every prompt the engine asks and
every reason it refuses an answer is a Msg (English text unchanged), said in the reader's
language in the pending YAML, the private questions of a house's mail and the inbox receipt;
no English word is left besides the ids and answer words a player must type."""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from messages import eml

import agot_adjudicator
from agot_adjudicator.cli import main
from agot_adjudicator.engine.decisions import Decider, PendingDecision, Request
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.answers import SHAPES, shape_problem
from agot_adjudicator.model.text import Msg
from agot_adjudicator.render.language import Names, say
from agot_adjudicator.render.report import Private, private_section
from agot_adjudicator.workflow.conformance import load_case, run_case, suite_cases

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(agot_adjudicator.__file__).parent
DEMO = ROOT / "scenarios" / "games" / "demo"
RS = load_ruleset()
CHINESE = ("zh-Hans", "zh-Hant")

ANSWER_WORDS = {"null", "true", "false", "none", "footman", "knight", "upgrade", "ship", "SEA",
                "area", "unit", "order", "moves", "AREA", "ORDER", "units", "leave", "power",
                "token", "id", "snake", "case", "zzz"}
"""ASCII words a Chinese prompt may hold: the words of an answer (YAML keys and values a player
types: ``{area, unit}``, ``ship:SEA``, ``null``, ``leave_power_token``), and this test's bad
value ``zzz`` echoed back."""


def _ids() -> re.Pattern[str]:
    ids = {*RS.areas, *RS.house_cards, *RS.order_tokens, *RS.houses,
           *RS.glossary.ids("westeros_card")}
    words = "|".join(sorted((re.escape(i) for i in ids), key=len, reverse=True))
    return re.compile(r"r\d+/[\w/@+.:-]+"                  # decision ids
                      rf"|(?<![A-Za-z_])(?:{words})(?![A-Za-z_])"  # ruleset ids (options)
                      r"|R\d+(?:\.\d+)*")                  # rule ids


IDS = _ids()
RULE_IDS = re.compile(r"R\d+(?:\.\d+)*")


def english_words(text: str, ids: bool = True) -> list[str]:
    """ASCII words (two letters or more) that are neither answer words nor rule ids, nor
    (``ids``) decision ids and ruleset ids (an answer's options, a refused value's path)."""
    text = (IDS if ids else RULE_IDS).sub(" ", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ANSWER_WORDS]


# --- every decision the conformance suite and the demo game ask --------------------------

BAD_ANSWERS: list[Any] = [
    "zzz", 999, -1, True, None, [], ["zzz"], ["knight", "knight"], ["footman"] * 5,
    ["ship:zzz"], [{"area": "pyke", "unit": "knight"}], [{"area": "zzz"}], {"zzz": "zzz"},
    {"winterfell": "zzz"}, {"area": "zzz", "order": "zzz"},
    {"moves": {"zzz": ["footman"]}}, {"moves": {"winterfell": ["zzz"]}},
    {"moves": {"winterfell": ["footman", "knight", "ship"]}, "leave_power_token": True},
    "x" * 50, [1, 2], {"moves": [], "zzz": 1},
]
"""Answers that most decisions refuse, each for its own reason."""


def _asked() -> Iterator[tuple[Request, Any]]:
    """Every request the conformance suite asks (answered or not), with its pending reason."""
    seen: list[tuple[Request, Any]] = []
    real = Decider._resolve

    def spy(self: Decider, request: Request, plan: Any) -> Any:
        got = real(self, request, plan)
        seen.append((request, got[2].reason if got[2] is not None else None))
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Decider, "_resolve", spy)
        for path in suite_cases(ROOT / "scenarios"):
            case = load_case(path).data
            if not case.get("skip"):
                run_case(case, RS, name=path.name)
    return iter(seen)


ASKED: list[tuple[Request, Any]] = []


@pytest.fixture(scope="module")
def asked() -> list[tuple[Request, Any]]:
    if not ASKED:
        ASKED.extend(_asked())
    return ASKED


EVERY_KIND = {"orders", "raven", "bid", "tie_break", "house_card", "support", "march", "raid",
              "casualties", "retreat", "muster", "supply_reduction",
              "wildling_reward", "wildling_losses", "march_next", "raid_next", "card_choice",
              "blade"}


def test_every_prompt_asked_is_a_msg(asked):
    kinds = {r.kind for r, _ in asked}
    assert kinds >= EVERY_KIND, sorted(EVERY_KIND - kinds)
    plain = sorted({(r.kind, str(r.prompt)) for r, _ in asked if not isinstance(r.prompt, Msg)})
    assert plain == []
    reasons = [why for _, why in asked if why is not None]
    assert reasons and all(isinstance(why, Msg) for why in reasons)


@pytest.mark.parametrize("lang", CHINESE)
def test_prompts_and_reasons_in_chinese_have_no_english_word(asked, lang):
    by_template: dict[str, Msg] = {}
    for request, why in asked:
        by_template.setdefault(request.prompt.template, request.prompt)
        if why is not None:
            by_template.setdefault(why.template, why)
    assert len(by_template) >= 20
    with Names(RS, lang).speaking():
        for template, msg in by_template.items():
            said = say(msg)
            assert said != str(msg), template
            # a prompt names every id by its glossary name: no id left at all
            assert english_words(said, ids=False) == [], (template, said)


@pytest.mark.parametrize("lang", CHINESE)
def test_refusals_in_chinese_have_no_english_word(asked, lang):
    """Why an answer is refused, for every decision asked and many wrong answers: a Msg, said
    with no English word (the wrong value itself is echoed as given)."""
    reasons: dict[str, Msg] = {}
    for request, _ in asked:
        for value in BAD_ANSWERS:
            why = shape_problem(request.kind, value) or request.why_illegal(value)
            if why is None:
                continue
            assert isinstance(why, Msg), (request.kind, value, why)
            reasons.setdefault(why.template, why)
    assert len(reasons) >= 25
    with Names(RS, lang).speaking():
        for template, why in reasons.items():
            said = say(why)
            assert english_words(said) == [], (template, str(why), said)


def test_answer_shape_problems_are_msgs_with_english_unchanged():
    assert shape_problem("bid", "x" * 50) == "the answer is a text of 50 characters; expected a " \
        "whole number from 0 to 99"
    why = shape_problem("march", {"moves": {"winterfell": ["zzz"]}})
    assert why == "moves.winterfell[0] is a text; expected footman, knight, ship"
    assert isinstance(why, Msg)
    with Names(RS, "zh-Hans").speaking():
        assert say(why) == "moves.winterfell[0] 是一段文字；应为footman, knight, ship"
    for kind in SHAPES:
        assert isinstance(shape_problem(kind, {"zzz": [[]]}) or Msg("ok"), Msg)


def test_the_card_name_is_english_in_english_and_the_glossary_s_in_chinese(asked):
    """A card's question names the card as the ruleset prints it (English) and as the glossary
    names it (Chinese)."""
    choice = next(r for r, _ in asked if r.kind == "card_choice")
    card = choice.id.split("/card/")[1].split("/")[0]
    assert str(choice.prompt).startswith(RS.house_cards[card].name + " (won the battle in ")
    with Names(RS, "zh-Hant").speaking():
        assert say(choice.prompt).startswith(RS.glossary.name("house_card", card, "zh-Hant"))


# --- the source: every prompt a Msg, every Msg template a literal ------------------------

def _calls(path: Path) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            yield node


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def test_no_request_prompt_is_written_as_plain_text():
    """In engine/, a ``Request(...)`` prompt (4th argument or ``prompt=``) is never an f-string,
    a string literal or a concatenation: a Msg (or a name or call that gives one); every
    ``Msg(...)`` template there and in model/answers.py is a literal (so it is extracted)."""
    wrong = []
    files = [*sorted((PACKAGE / "engine").glob("*.py")), PACKAGE / "model" / "answers.py"]
    for path in files:
        for call in _calls(path):
            where = f"{path.name}:{call.lineno}"
            if _name(call) == "Request":
                prompt = call.args[3] if len(call.args) > 3 else next(
                    (k.value for k in call.keywords if k.arg == "prompt"), None)
                if prompt is None or isinstance(prompt, (ast.JoinedStr, ast.Constant, ast.BinOp)):
                    wrong.append(f"{where}: Request prompt")
            if _name(call) == "Msg":
                arg = call.args[0] if call.args else None
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    wrong.append(f"{where}: Msg template is not a literal")
    assert wrong == []


def test_no_engine_reason_is_an_f_string():
    """A ``return f"..."`` in a check is an English sentence no catalog can translate."""
    wrong = []
    for path in [*sorted((PACKAGE / "engine").glob("*.py")), PACKAGE / "model" / "answers.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.JoinedStr):
                text = ast.unparse(node.value)
                if " " in text:  # ids (f"ship:{a}") are not sentences
                    wrong.append(f"{path.name}:{node.lineno}: {text[:60]}")
    assert wrong == []


# --- where people read them ----------------------------------------------------------------

def _game(tmp_path: Path, players: str | None = None) -> Path:
    game = tmp_path / "game"
    shutil.copytree(DEMO / "rulesets", game / "rulesets")
    (game / "round-01").mkdir(parents=True)
    shutil.copy(DEMO / "round-01" / "state.yaml", game / "round-01" / "state.yaml")
    shutil.copytree(DEMO / "round-01" / "orders", game / "round-01" / "orders")
    if players:
        (game / "players.yaml").write_text(players, encoding="utf-8")
    return game


def _prompt_lines(text: str) -> list[str]:
    """A house's pending questions as they read (``- ID: prompt``, wrapped lines joined)."""
    out: list[str] = []
    for line in text.splitlines():
        if re.match(r"- r\d+/\S+: ", line):
            out.append(line)
        elif out and line.startswith("  ") and not line.lstrip().startswith(
                ("默认", "預設", "选项", "選項", "default", "options")) and out[-1] is not None:
            out[-1] += line.strip()
        elif out and out[-1] is not None and not line.startswith("  "):
            out.append(None)  # type: ignore[arg-type]
    return [line for line in out if line is not None]


def test_a_stopped_chinese_run_asks_in_chinese(runner, tmp_path):
    """Orders missing: pending.yaml's prompts and header comments are in the game's language
    (keys, ids and values as they are); each house's mail asks in the house's language."""
    game = _game(tmp_path, "format: agot-players/1\nhouses:\n  stark: {language: zh-TW}\n"
                           "  lannister: {language: en}\n")
    for house in ("stark", "lannister"):
        (game / "round-01" / "orders" / f"{house}.yaml").unlink()
    result = runner.invoke(main, ["adjudicate", "--game", str(game), "--lang", "zh-Hans"])
    assert result.exit_code == 3, result.output
    rd = game / "round-01"
    text = (rd / "pending.yaml").read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    entries = {e["id"]: e for e in doc["pending"]}
    stark = entries["r1/orders/stark"]
    assert stark["kind"] == "orders" and stark["house"] == "stark" and stark["default"] == {}
    assert stark["prompt"].startswith("放置史塔克的命令（在其有部队的每个地区各放一个：")
    assert "临冬城" in stark["prompt"]
    assert "# 2 个决定待定" in text and "--defaults" in text
    assert "r1/orders/stark: {}" in text and "r1/orders/lannister: {}" in text
    for entry in entries.values():
        assert english_words(entry["prompt"]) == [], entry["prompt"]
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert comments and all(english_words(line.replace("--defaults", "")) == []
                            for line in comments), comments
    mail = rd / "mail"
    zh = _prompt_lines((mail / "stark.txt").read_text(encoding="utf-8"))
    assert zh == ["- r1/orders/stark: 放置史塔克的命令（在其有部隊的每個地區各放一個：白港、臨冬城、"
                  "顫抖海）。"]
    assert all(english_words(line) == [] for line in zh), zh
    en = _prompt_lines((mail / "lannister.txt").read_text(encoding="utf-8"))
    assert en[0].startswith("- r1/orders/lannister: Place Lannister's orders (one per area")
    assert runner.invoke(main, ["replay", str(game)]).exit_code == 0


def test_the_english_pending_yaml_names_houses_and_areas(runner, tmp_path):
    """An English prompt names the house and the areas as the rest of the English output
    does (the ids stay in the keys, the options and the answers block)."""
    game = _game(tmp_path)
    (game / "round-01" / "orders" / "stark.yaml").unlink()
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code == 3
    text = (game / "round-01" / "pending.yaml").read_text(encoding="utf-8")
    assert text.startswith("# 1 decision(s) pending: add answers to a submission file and run "
                           "again.\n")
    assert ('    prompt: "Place Stark\'s orders (one per area with its units: White Harbor, '
            'Winterfell, The Shivering Sea)."\n') in text
    assert "  r1/orders/stark: {}\n" in text


@pytest.mark.parametrize("lang", CHINESE)
def test_a_pending_reason_is_said_in_the_mail(asked, lang):
    """A plan that no longer fits: the house's questions give the reason in its language."""
    request, why = next((r, w) for r, w in asked if w is not None)
    with Names(RS, lang).speaking():
        from agot_adjudicator.engine.setup import new_game

        state = new_game(RS, list(RS.houses), 1, "t")
        text = private_section(Private(request.house), state, RS,
                               [PendingDecision(request, why)], "text")
    line = next(line for line in text.splitlines() if line.startswith(f"- {request.id}: "))
    assert say_in(lang, why) in line and "（" in line
    assert english_words(line) == [], line


def say_in(lang: str, msg: Msg) -> str:
    with Names(RS, lang).speaking():
        return say(msg)


def test_the_inbox_lists_what_is_still_asked_in_the_house_s_language(runner, tmp_path):
    """A stopped zh-Hans game: a zh-Hans house's receipt quotes pending.yaml's prompt; an
    English or a zh-Hant house's names the decision by id and kind (the prompt is in its
    mail, in its language)."""

    made = runner.invoke(main, ["new", "--players", "3", "--seed", "7", "--game",
                                str(tmp_path / "g2"), "--secrets-out", str(tmp_path / "s.txt")])
    assert made.exit_code == 0, made.output
    game = tmp_path / "g2"
    secrets = dict(line.split(": ", 1) for line in (tmp_path / "s.txt").read_text().splitlines()
                   if not line.startswith("#"))
    players = yaml.safe_load((game / "players.yaml").read_text(encoding="utf-8"))
    players["houses"]["stark"]["language"] = "zh-Hans"
    players["houses"]["baratheon"]["language"] = "zh-Hant"
    players["houses"]["lannister"]["language"] = "en"  # else the game's (zh-Hans)
    (game / "players.yaml").write_text(yaml.safe_dump(players, allow_unicode=True),
                                       encoding="utf-8")
    stopped = runner.invoke(main, ["adjudicate", "--game", str(game), "--lang", "zh-Hans"])
    assert stopped.exit_code == 3, stopped.output

    def message(name: str, body: str) -> Path:
        return eml(tmp_path, name, body, "re")

    body = "format: agot-orders/1\nround: 1\nhouse: {h}\nsecret: {s}\nbids: {{}}\n"
    result = runner.invoke(main, [
        "inbox", "--game", str(game), "--received", "2026-12-01T12:00:00Z",
        str(message("stark", body.format(h="stark", s=secrets["stark"]))),
        str(message("lannister", body.format(h="lannister", s=secrets["lannister"]))),
        str(message("baratheon", body.format(h="baratheon", s=secrets["baratheon"])))])
    assert result.exit_code == 0, result.output
    zh, en, hant = (p.read_text(encoding="utf-8")
                    for p in sorted((game / "messages").glob("*.receipt.txt")))
    assert "  - r1/orders/baratheon（命令）\n" in hant
    asked_zh = zh.split("史塔克仍需提交：", 1)[1].replace("\n    ", "")
    assert "  - r1/orders/stark: 放置史塔克的命令（在其有部队的每个地区各放一个：" in asked_zh
    assert english_words(asked_zh) == [], asked_zh
    assert "Still asked of lannister:\n  - r1/orders/lannister (orders)\n" in en


@pytest.mark.parametrize("lang", CHINESE)
def test_every_option_a_house_is_asked_carries_its_name_beside_its_id(asked, lang):
    """Issue 32.3: a Chinese-only player can answer every question of the stop mail: each
    option and the default that is an id is written ``id（name）`` (the prompt names them in
    Chinese, the answer is typed as the id), and nothing else in the question is English."""
    from agot_adjudicator.engine.setup import new_game
    from agot_adjudicator.render.language import option

    state = new_game(RS, list(RS.houses), 1, "t")
    seen = 0
    by_kind: dict[str, Request] = {}
    for request, _ in asked:
        if request.options:
            by_kind.setdefault(request.kind, request)
    assert {"retreat", "march_next", "raid_next", "house_card", "card_choice"} <= set(by_kind)
    with Names(RS, lang).speaking():
        for request in by_kind.values():
            text = private_section(Private(request.house), state, RS,
                                   [PendingDecision(request, None)], "text")
            block = text[text.index(f"- {request.id}: "):].replace("\n    ", "")
            for value in request.options:
                if isinstance(value, str) and IDS.fullmatch(value.split(":")[0]):
                    assert f"{value}（" in block, (request.kind, value, block)
                    seen += 1
                assert option(value) in block
            assert english_words(block.replace(request.id, " ")) == [], block
    assert seen > 10
