"""Errors, warnings and receipts in Chinese (issue 18.2): ``agot validate --lang`` prints every
located problem as ``file:line:col: path: message`` with the message in the language, and
``agot inbox`` answers each house in its players.yaml language; English stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.errors import Problem
from agot_adjudicator.io.reading import parse_text, yaml_problem
from agot_adjudicator.io.schemas import load_schema, schema_problems
from agot_adjudicator.model.text import Msg
from agot_adjudicator.render.language import Names
from agot_adjudicator.render.receipt import problem_text

ROOT = Path(__file__).resolve().parent.parent
STATE = ROOT / "scenarios" / "games" / "demo" / "round-01" / "state.yaml"  # round 1, planning
WHEN = "2026-12-01T12:00:00Z"
CHINESE = ("zh-Hans", "zh-Hant")
ERROR = {"zh-Hans": "错误：", "zh-Hant": "錯誤："}
WARNING = {"zh-Hans": "警告：", "zh-Hant": "警告："}

FILES = {
    # not YAML: an unclosed flow mapping
    "yaml.yaml": "format: agot-orders/1\nround: 1\nhouse: stark\norders: {winterfell: march\n",
    # YAML, but not the schema's shape: a bid that is no number, an unknown key
    "schema.yaml": "format: agot-orders/1\nround: 1\nhouse: stark\nbids: {iron_throne: x}\n"
                   "colour: grey\n",
    # the schema's shape, against the rules: a raid plan on a target that is not adjacent,
    # a card that is not stark's, track bids above the house's power
    "rule.yaml": "format: agot-orders/1\nround: 1\nhouse: stark\n"
                 "bids: {iron_throne: 3, fiefdoms: 3, kings_court: 3}\n"
                 "plans:\n  raids:\n    - from: white_harbor\n      targets: [castle_black]\n"
                 "  house_cards:\n    - against: lannister\n      card: tywin_lannister\n",
    # an area name that names nothing
    "area.yaml": "format: agot-orders/1\nround: 1\nhouse: lannister\n"
                 "plans:\n  raids:\n    - from: winterfel\n      targets: []\n",
}

LOCATED = re.compile(r"^(?P<file>\S+\.yaml):(?P<line>\d+):(?P<col>\d+): (?:(?P<path>\$\S*): )?"
                     r"(?P<message>.+)$")
ALLOWED = re.compile(
    r"“[^”]*”|「[^」]*」|'[^']*'|`[^`]*`"  # what the player wrote, ids to type, YAML to write
    r"|R\d+(?:\.\d+)*|YAML|UTF-8|MiB"    # rule ids, names of formats
)
"""What a Chinese message may hold in ASCII letters: quoted input and ids, rule ids."""


def english_words(text: str, keys: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The English words left in ``text`` besides quoted input, rule ids and ``keys`` (the keys
    a file may hold, typed as they are)."""
    return [w for w in re.findall(r"[A-Za-z_]{2,}", ALLOWED.sub(" ", text)) if w not in keys]


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    out = {}
    for name, text in FILES.items():
        out[name] = tmp_path / name
        out[name].write_text(text, encoding="utf-8")
    return out


def messages(output: str, lang: str) -> dict[str, list[str]]:
    """File name → the messages of the located errors printed for it (each line checked)."""
    found: dict[str, list[str]] = {}
    lines = [line for line in output.splitlines() if line.startswith(ERROR[lang])]
    assert lines, output
    for line in lines:
        match = LOCATED.match(line.removeprefix(ERROR[lang]))
        assert match, line
        found.setdefault(Path(match["file"]).name, []).append(match["message"])
    return found


@pytest.mark.parametrize("lang", CHINESE)
def test_validate_says_every_kind_of_error_in_chinese(files, lang):
    result = run("validate", "--lang", lang, str(STATE), str(files["yaml.yaml"]),
                 str(files["schema.yaml"]))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    said = messages(result.output, lang)
    assert set(said) == {"yaml.yaml", "schema.yaml"}
    # the keys an unknown key could have been: the reader types them as they are
    keys = {"schema", *load_schema("orders")["properties"]}
    for file, texts in said.items():
        for text in texts:
            assert english_words(text, keys) == [], f"{file}: {text}"
    hans = lang == "zh-Hans"
    assert any(("无效的 YAML" if hans else "無效的 YAML") in t for t in said["yaml.yaml"])
    assert any(("文件结尾" if hans else "檔案結尾") in t for t in said["yaml.yaml"])
    assert any(("整数" if hans else "整數") in t for t in said["schema.yaml"])
    assert any(("未知的键" if hans else "未知的鍵") in t for t in said["schema.yaml"])
    closing = result.output.splitlines()[-1]
    assert closing.startswith("agot：") and english_words(closing.removeprefix("agot")) == []

    result = run("validate", "--lang", lang, str(STATE), str(files["rule.yaml"]),
                 str(files["area.yaml"]))
    assert result.exit_code == 1, result.output
    said = messages(result.output, lang)
    for file, texts in said.items():
        for text in texts:
            assert english_words(text) == [], f"{file}: {text}"
    rule = " ".join(said["rule.yaml"])
    if hans:
        assert "黑城堡与白港不相邻" in rule and "不是史塔克的家族卡" in rule and "共出价 9" in rule
        assert said["area.yaml"] == ["没有名为“winterfel”的地区（你是不是想写“winterfell”？）"]
    else:
        assert "黑城堡與白港不相鄰" in rule and "不是史塔克的將軍卡" in rule and "共出價 9" in rule
        assert said["area.yaml"] == ["沒有名為「winterfel」的地區（你是不是想寫「winterfell」？）"]
    assert "(R5.2)" not in rule and "（R5.2）" in rule and "（R7.1）" in rule


def test_validate_in_english_is_unchanged(files):
    result = run("validate", str(STATE), str(files["yaml.yaml"]), str(files["schema.yaml"]))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    # an open flow mapping is located where it opens, on the line written (issue 25, item 5)
    assert f"error: {files['yaml.yaml']}:4:9: invalid YAML: expected ',' or '}}', but got " \
           "'<stream end>'" in lines
    assert f"error: {files['schema.yaml']}:4:21: $.bids.iron_throne: 'x' is not of type " \
           "'integer'" in lines
    assert f"error: {files['schema.yaml']}:5:1: $.colour: unknown key (expected one of: " \
           "$schema, answers, bids, comment, format, house, houses, orders, plans, round, " \
           "secret, wildlings, ...)" in lines
    assert lines[-1] == ("agot: malformed input: not understood (unreadable, not YAML, or not "
                         "the shape its schema requires); nothing written")
    result = run("validate", "--lang", "en", str(STATE), str(files["rule.yaml"]),
                 str(files["area.yaml"]))
    assert f"error: {files['area.yaml']}:6:13: $.plans.raids[0].from: no such area " \
           "'winterfel' (did you mean 'winterfell'?)" in result.output.splitlines()
    assert "castle_black is not adjacent to white_harbor; a raid reaches adjacent areas only " \
           "(R5.2)" in result.output
    assert result.output.splitlines()[-1] == ("agot: illegal input: understood, but against "
                                              "the rules; nothing written")


@pytest.mark.parametrize("lang", CHINESE)
def test_validate_warnings_and_ok_in_chinese(tmp_path, lang):
    empty = tmp_path / "stark.yaml"
    empty.write_text("format: agot-orders/1\nround: 1\nhouse: stark\n", encoding="utf-8")
    result = run("validate", "--lang", lang, str(STATE), str(empty))
    assert result.exit_code == 0, result.output
    warning, ok = result.output.splitlines()
    assert warning.startswith(WARNING[lang] + f"{empty}:3:8: $.house: 史塔克")
    assert english_words(warning.split("$.house: ", 1)[1]) == []
    assert ok == (f"通过：{STATE} 及 1 个提交文件" if lang == "zh-Hans" else
                  f"通過：{STATE} 及 1 個提交檔案")
    english = run("validate", str(STATE), str(empty))
    assert english.output.splitlines() == [
        f"warning: {empty}:3:8: $.house: stark submits nothing here (no orders, bids, plans or "
        "answers): its decisions will be asked for", f"ok: {STATE} and 1 submission file(s)"]


def test_the_locale_chooses_the_language_of_validate(files, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    result = run("validate", str(STATE), str(files["area.yaml"]))
    assert result.exit_code == 1 and "錯誤：" in result.output and "地區" in result.output
    result = run("validate", "--lang", "en", str(STATE), str(files["area.yaml"]))
    assert "error: " in result.output and "no such area" in result.output


def test_every_schema_error_kind_is_a_sentence_with_fields():
    """Schema errors translate by their kind (type, required, enum, pattern, min/max, unique,
    unknown keys, keys), not from a list of known texts: none falls back to the raw text."""
    text = ("format: agot-orders/1\nround: 0\nhouse: Stark\nbids: {iron_throne: -1, fiefdoms: 99}\n"
            "wildlings: true\nplans:\n  tie_break: [stark, stark]\n  raids: [{targets: []}]\n"
            "answers: {not-an-id: 1}\nextra: 1\n")
    doc = parse_text("x.yaml", text.encode())
    problems = schema_problems(doc, "orders")
    assert len(problems) >= 6
    templates = set()
    for problem in problems:
        assert isinstance(problem.message, Msg), problem
        templates.add(problem.message.template)
    assert "{schema_message}" not in templates, problems
    assert "unknown key{hint} (expected one of: {keys})" in templates
    assert "{value} is less than the minimum of {limit}" in templates


def test_yaml_parser_problems_translate_with_their_fields():
    said = yaml_problem("found character '\\t' that cannot start any token")
    assert isinstance(said, Msg) and said.fields == {"char": "'\\t'"}
    assert yaml_problem("something new from the parser") == "something new from the parser"


def test_a_problem_said_keeps_file_line_column_and_path(ruleset):
    problem = Problem("orders/stark.yaml", 7, 3, "$.plans.raids[0].from",
                      Msg("no such area '{value}'{hint}", value="karhold ", hint=""))
    assert str(problem) == "orders/stark.yaml:7:3: $.plans.raids[0].from: no such area 'karhold '"
    with Names(ruleset, "zh-Hant").speaking():
        assert problem_text(problem) == ("orders/stark.yaml:7:3: $.plans.raids[0].from: "
                                         "沒有名為「karhold 」的地區")
    assert problem_text(problem) == str(problem)


# --- inbox ------------------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path) -> tuple[Path, str]:
    """A 3-player game with secrets; stark reads Chinese (players.yaml ``language:``)."""
    game = tmp_path / "game"
    secrets = tmp_path / "secrets.txt"
    result = run("new", "--players", "3", "--seed", "7", "--game", str(game),
                 "--secrets-out", str(secrets))
    assert result.exit_code == 0, result.output
    stark = next(line.split(": ", 1)[1] for line in secrets.read_text().splitlines()
                 if line.startswith("stark: "))
    return game, stark


def set_language(game: Path, tag: str) -> None:
    players = game / "players.yaml"
    text = players.read_text(encoding="utf-8")
    text = re.sub(r"(\n  stark:\n)", rf"\1    language: {tag}\n", text)
    players.write_text(text, encoding="utf-8")


def receipt_sections(receipt: str) -> dict[str, list[str]]:
    """Section title → its items (continuation lines joined)."""
    sections: dict[str, list[str]] = {}
    title = None
    for line in receipt.splitlines():
        if line and not line.startswith(" "):
            title = line
            sections[title] = []
        elif line.startswith("  -") and title is not None:
            sections[title].append(line[3:].strip())
        elif line.startswith("    ") and title is not None and sections[title]:
            sections[title][-1] = f"{sections[title][-1]} {line.strip()}".strip()
    return sections


def flat(text: str) -> str:
    """``text`` without white space (a receipt wraps long lines, between wide characters too)."""
    return "".join(text.split())


@pytest.mark.parametrize(("tag", "lang"), [("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant")])
def test_inbox_receipts_of_refused_and_invalid_messages_in_the_house_language(game, tmp_path,
                                                                               tag, lang):
    game, secret = game
    set_language(game, tag)
    hans = lang == "zh-Hans"
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("format: agot-orders/1\nround: 1\nhouse: stark\nsecret: nope\n"
                     "orders: {winterfell: march_plus1}\n", encoding="utf-8")
    invalid = tmp_path / "invalid.txt"
    invalid.write_text(f"format: agot-orders/1\nround: 1\nhouse: Stark\nsecret: {secret}\n"
                       "orders:\n  Winterfell: March +1 (special)\n  White Harbor: Supprt\n"
                       "plans:\n  raids:\n    - from: white_harbor\n      targets: [castle_black]\n",
                       encoding="utf-8")
    rules = tmp_path / "rules.txt"
    rules.write_text(f"format: agot-orders/1\nround: 1\nhouse: stark\nsecret: {secret}\n"
                     "plans:\n  raids:\n    - from: white_harbor\n      targets: [castle_black]\n",
                     encoding="utf-8")
    result = run("inbox", "--game", str(game), "--received", WHEN, str(wrong), str(invalid),
                 str(rules))
    assert result.exit_code == 1, result.output
    assert not (game / "round-01" / "orders" / "stark.yaml").exists()
    receipts = sorted((game / "messages").glob("*.receipt.txt"))
    assert len(receipts) == 3
    texts = [r.read_text(encoding="utf-8") for r in receipts]
    assert all(t in result.output for t in texts)  # printed as kept

    refused = receipt_sections(texts[0])
    verdict = next(line for line in texts[0].splitlines() if line.startswith(("结论", "結論")))
    assert verdict == ("结论：拒收：未存储任何内容" if hans else "結論：拒收：未存儲任何內容")
    why = refused["原因："]
    assert why == ["给出的密钥不是史塔克的：这封消息不被接受为史塔克的提交" if hans else
                   "給出的金鑰不是史塔克的：這封訊息不被接受為史塔克的提交"]

    bad_name = receipt_sections(texts[1])
    assert bad_name["原因："] == [
        "其中有名称在棋盘上或规则中找不到对应" if hans else "其中有名稱在棋盤上或規則中找不到對應"]
    problem = bad_name["问题：" if hans else "問題："]
    assert len(problem) == 1
    assert flat(problem[0]) == flat(
        "message 2 (body):7:17: $.orders[\"White Harbor\"]: " +
        ("“Supprt”不是任何命令的名称（你是不是想写“Support”？）" if hans else
         "「Supprt」不是任何命令的名稱（你是不是想寫「Support」？）"))

    against_rules = receipt_sections(texts[2])
    problem = against_rules["问题：" if hans else "問題："]
    assert [flat(p) for p in problem] == [flat(
        "message 3 (body):8:17: $.plans.raids[0].targets[0]: " +
        ("黑城堡与白港不相邻；突袭只能到达相邻地区（R5.2）" if hans else
         "黑城堡與白港不相鄰；突擊只能到達相鄰地區（R5.2）"))]
    for text in texts:
        for title, items in receipt_sections(text).items():
            if title.startswith(("原因", "问题", "問題")):
                for item in items:
                    message = flat(item).split("]:", 1)[-1]  # after the file and path
                    assert english_words(message) == [], item

    # the command's own lines: in --lang, English by default (LANG=C.UTF-8 in the tests)
    assert "inbox: 3 message(s): 0 accepted, 3 not; kept in" in result.output
    assert f"error: {wrong}: refused: the secret given is not stark's" in result.output
    wrong.write_text(wrong.read_text(encoding="utf-8") + "# again\n", encoding="utf-8")
    again = run("inbox", "--lang", lang, "--game", str(game), "--received", WHEN, str(wrong))
    assert again.exit_code == 1
    assert (f"{ERROR[lang]}{wrong}: " + ("已拒收：给出的密钥不是史塔克的" if hans else
                                         "已拒收：給出的金鑰不是史塔克的")) in again.output
    assert ("inbox：共 1 封消息" if hans else "inbox：共 1 封訊息") in again.output


def test_a_receipt_for_an_unknown_house_is_in_the_run_language_english_by_default(game, tmp_path):
    game, _ = game
    chat = tmp_path / "chat.txt"
    chat.write_text("Hello, orders tomorrow.\n", encoding="utf-8")
    english = run("inbox", "--game", str(game), "--received", WHEN, str(chat))
    assert english.exit_code == 1
    assert "Verdict: NOT ACCEPTED (malformed): nothing stored" in english.output
    assert "  - no submission found: a submission is a YAML attachment" in english.output
    chat.write_text("Hello again, orders tomorrow.\n", encoding="utf-8")  # not a duplicate
    chinese = run("inbox", "--lang", "zh-Hans", "--game", str(game), "--received", WHEN, str(chat))
    assert chinese.exit_code == 1
    assert "结论：未接受（格式错误）：未存储任何内容" in chinese.output
    assert "  - 未找到提交：提交应是一个 YAML 附件（.yaml）" in chinese.output


@pytest.mark.parametrize("lang", CHINESE)
def test_adjudicate_and_validate_game_say_their_errors_in_their_language(files, game, tmp_path,
                                                                         lang):
    """Every command with --lang prints its located input errors through the catalogs."""
    result = run("adjudicate", str(STATE), str(files["area.yaml"]), "-o", str(tmp_path / "out"),
                 "--lang", lang)
    assert result.exit_code == 1, result.output
    said = messages(result.output, lang)
    assert said == {"area.yaml": ["没有名为“winterfel”的地区（你是不是想写“winterfell”？）"
                                  if lang == "zh-Hans" else
                                  "沒有名為「winterfel」的地區（你是不是想寫「winterfell」？）"]}
    assert not (tmp_path / "out").exists()
    game, _ = game
    ok = run("validate", "--lang", lang, "--game", str(game))
    assert ok.exit_code == 0, ok.output
    assert ok.output == (f"通过：0 个提交文件，对照 {game}/round-01/state.yaml\n" if lang == "zh-Hans"
                         else f"通過：0 個提交檔案，對照 {game}/round-01/state.yaml\n")


def test_a_state_against_the_rules_in_chinese(tmp_path):
    text = STATE.read_text(encoding="utf-8").replace(
        "  white_harbor:\n    house: stark\n    units: [footman]",
        "  white_harbor:\n    house: stark\n    units: [ship]")
    text = re.sub(r"^round: 1$", "round: 11", text, flags=re.M)
    state = tmp_path / "state.yaml"
    state.write_text(text, encoding="utf-8")
    result = run("validate", "--lang", "zh-Hans", str(state))
    assert result.exit_code == 1, result.output
    assert messages(result.output, "zh-Hans") == {"state.yaml": [
        "第 11 回合不存在：游戏在第 10 回合后结束（R11.1）", "船只不能位于陆地地区白港"]}
    english = run("validate", str(state))
    assert "round 11 does not exist: the game ends after round 10 (R11.1)" in english.output
    assert "a ship cannot stand in land area white_harbor" in english.output


def test_two_submissions_in_one_message_are_refused_in_the_run_language(game, tmp_path):
    game, _ = game
    block = "format: agot-orders/1\nround: 1\nhouse: stark\nbids: {iron_throne: 1}\n"
    two = tmp_path / "two.txt"
    two.write_text(f"first:\n\n{block}\nor rather:\n\n{block}", encoding="utf-8")
    result = run("inbox", "--lang", "zh-Hant", "--game", str(game), "--received", WHEN, str(two))
    assert result.exit_code == 1, result.output
    assert flat("一封訊息中有 2 份 YAML 提交（正文第 3 行、正文第 10 行）：每封訊息只發一份提交"
                "（以最新的訊息為準）") in flat(result.output), result.output
