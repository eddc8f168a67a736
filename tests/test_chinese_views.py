"""The views in Chinese (issue 18.2, 18.3, 18.5): `agot site`, `show`, `diff`, `whatif` and
`template` with --lang zh-Hans and zh-Hant leave no English sentence; ids a reader types
(YAML keys, order ids in values, file names, paths) stay ids; tables line up with wide
characters; a Chinese template is the same valid order file as the English one."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import html5lib
import pytest
from wcwidth import wcswidth

from agot_adjudicator.cli import main
from agot_adjudicator.io.reading import parse_text
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.diff import diff_states, render_text
from agot_adjudicator.render.language import Names
from agot_adjudicator.render.public import PUBLIC, view_changes
from agot_adjudicator.render.template import order_template
from agot_adjudicator.render.views import show_text
from agot_adjudicator.workflow.site import build_site
from agot_adjudicator.workflow.validate import load_state

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
CHINESE = ("zh-Hans", "zh-Hant")

ALLOWED = re.compile(
    r"R\d+(?:\.\d+)*|P\d+|RUL-[A-Z0-9]+-\d+"             # rule ids
    r"|[0-9a-f]{64}"                                    # hashes
    r"|[\w.-]+\.(?:yaml|svg|jsonl|md|txt|json|html)"    # file names
    r"|agot/[\w.+-]+|agot [a-z]+"                       # the maker, a command's name
    r"|zh-Hans|zh-Hant|sha256|demo"                     # language codes, the hash's name, game id
    r"|\b(?:I|II|III)\b")                               # Westeros deck numbers
"""What a Chinese text may hold in ASCII letters: ids, rule ids, hashes, file names."""


def english_words(text: str) -> list[str]:
    """ASCII words (two letters or more) left after the allowed ids are taken out."""
    return re.findall(r"[A-Za-z]{2,}", ALLOWED.sub(" ", text))


def state(n: int) -> GameState:
    return load_state(str(DEMO / f"round-{n:02d}" / "state.yaml"), _ruleset())[1]


def _ruleset():
    """The demo's ruleset (the game these tests read was played under it)."""
    from recorded import demo_ruleset

    return demo_ruleset()


class _Text(HTMLParser):
    """The text a reader meets on a page: its text and its alt, title and aria-label values."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.lang: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if tag == "html" and key == "lang":
                self.lang = value
            if key in ("alt", "title", "aria-label") and value:
                self.words.append(value)

    def handle_data(self, data: str) -> None:
        self.words.append(data)


def page_text(html: str) -> tuple[str | None, str]:
    parser = _Text()
    parser.feed(html)
    return parser.lang, "\n".join(parser.words)


# --- agot site -------------------------------------------------------------------------------

@pytest.fixture(scope="module", params=CHINESE)
def chinese_site(request) -> tuple[str, dict[str, str]]:
    built = build_site(str(DEMO), _ruleset(), lang=request.param)
    assert built.ok
    return request.param, built.files


def test_the_demo_site_in_chinese_has_no_english_sentence(chinese_site):
    lang, files = chinese_site
    pages = sorted(name for name in files if name.endswith(".html"))
    assert len(pages) >= 11
    parser = html5lib.HTMLParser(strict=True)
    for name in pages:
        parser.parse(files[name])  # still strict HTML5
        page_lang, text = page_text(files[name])
        assert page_lang == lang, name
        left = english_words(text)
        assert left == [], f"{name}: {sorted(set(left))}"
    index = page_text(files["index.html"])[1]
    assert ("赢得了游戏" if lang == "zh-Hans" else "贏得了遊戲") in index
    first = files["round-01.html"]
    assert ("公布命令" if lang == "zh-Hans" else "公佈命令") in first  # the report, re-rendered
    assert f"<title>{'游戏' if lang == 'zh-Hans' else '遊戲'} demo" in first


def test_the_site_is_in_the_game_language_unless_told(tmp_path, runner, monkeypatch):
    """The public record does not depend on who builds it: the game's language (that of its
    last report), whatever the locale; --lang overrides it."""
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    out = tmp_path / "site"
    result = runner.invoke(main, ["site", "--game", str(DEMO), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert '<html lang="en">' in (out / "index.html").read_text(encoding="utf-8")
    result = runner.invoke(main, ["site", "--game", str(DEMO), "-o", str(out), "--lang", "zh-Hans"])
    assert result.exit_code == 0, result.output
    assert '<html lang="zh-Hans">' in (out / "index.html").read_text(encoding="utf-8")


def test_a_game_recorded_in_chinese_publishes_its_reports_as_recorded(tmp_path, runner):
    game = tmp_path / "game"
    shutil.copytree(DEMO / "rulesets", game / "rulesets")
    for n in (1, 2):
        name = f"round-{n:02d}"
        (game / name).mkdir(parents=True)
        shutil.copytree(DEMO / name / "orders", game / name / "orders")
    shutil.copy(DEMO / "round-01" / "state.yaml", game / "round-01" / "state.yaml")
    result = runner.invoke(main, ["adjudicate", "--game", str(game), "--lang", "zh-Hant"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "site"
    result = runner.invoke(main, ["site", "--game", str(game), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = (out / "round-01.html").read_text(encoding="utf-8")
    assert '<html lang="zh-Hant">' in page and "時間軸" in page
    recorded = (game / "round-01" / "report.md").read_text(encoding="utf-8")
    assert "公佈命令" in recorded and "公佈命令" in page
    # in English on request: the report is rendered again from the record
    result = runner.invoke(main, ["site", "--game", str(game), "-o", str(out), "--lang", "en"])
    assert result.exit_code == 0, result.output
    page = (out / "round-01.html").read_text(encoding="utf-8")
    assert "Orders are revealed." in page and "公佈" not in page


# --- agot show -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("n", [1, 4, 6, 11])
def test_show_in_chinese_has_no_english_sentence(lang, n):
    s = state(n)
    for house, public in ((None, False), ("stark", False), (None, True)):
        text = show_text(s, _ruleset(), house, public=public, lang=lang)
        left = english_words(text)
        assert left == [], f"round {n} {house or public}: {sorted(set(left))}"


def _columns(line: str) -> dict[int, str]:
    """Display column → the character covering it (a wide character covers two)."""
    out, at = {}, 0
    for char in line:
        width = max(wcswidth(char), 1)
        for i in range(width):
            out[at + i] = char
        at += width
    return out


def test_show_tables_line_up_with_wide_characters():
    """In every table of a Chinese view, the gaps between columns (under the dashes' gaps)
    are blank on every line, measured in display columns (two for a Chinese character)."""
    text = show_text(state(6), _ruleset(), lang="zh-Hans")
    tables = [b for b in text.split("\n\n") if "\n--" in b]
    assert len(tables) == 3
    for block in tables:
        lines = block.split("\n")
        assert re.search(r"[\u4e00-\u9fff]", lines[0])  # Chinese headers
        rule = lines[1]
        gaps = [i for i, c in enumerate(rule) if c == " "]
        assert gaps
        for line in lines:
            cols = _columns(line)
            assert all(cols.get(g, " ") == " " for g in gaps), line
            assert max(cols, default=0) < len(rule), line


def test_show_in_english_is_unchanged_by_the_language_option():
    s = state(6)
    assert show_text(s, _ruleset(), "stark", lang="en") == show_text(s, _ruleset(), "stark")
    assert "stark [valyrian steel blade]" in show_text(s, _ruleset())


# --- agot diff and whatif --------------------------------------------------------------------

FILE_PATH_LINE = re.compile(r"^\s*(?:chain|winner|written_by|format|ruleset|game\.id)[\w.\[\]]*：.*$",
                            re.MULTILINE)
"""A difference no game term describes, said by its state-file path and raw values."""


@pytest.mark.parametrize("lang", CHINESE)
def test_diff_in_chinese_has_no_english_sentence(lang):
    rs = _ruleset()
    states = [state(n) for n in range(1, 12)]
    seen = set()
    for a, b in itertools.pairwise(states):
        changes = diff_states(a, b, rs)
        seen.update(c.group for c in changes)
        for view in (None, PUBLIC, "stark"):
            with Names(rs, lang).speaking():
                text = render_text(view_changes(changes, view), "a.yaml", "b.yaml")
            left = english_words(FILE_PATH_LINE.sub(" ", text))
            assert left == [], f"round {a.round}→{b.round} {view}: {sorted(set(left))}"
    assert seen >= {"game", "tracks", "houses", "areas", "control"}


def test_diff_json_and_english_text_are_unchanged(runner):
    a, b = str(DEMO / "round-05" / "state.yaml"), str(DEMO / "round-06" / "state.yaml")
    en = runner.invoke(main, ["diff", a, b])
    zh = runner.invoke(main, ["diff", a, b, "--lang", "zh-Hans"])
    assert en.exit_code == zh.exit_code == 4
    assert "houses.stark.hand: −maester_luwin" in en.output and "失去鲁温学士" in zh.output
    js = [runner.invoke(main, ["diff", a, b, "--format", "json", *extra]).output
          for extra in ((), ("--lang", "zh-Hant"))]
    assert js[0] == js[1]
    assert any(c["text"].startswith("houses.stark.hand") for c in json.loads(js[0])["changes"])


@pytest.mark.parametrize("lang", CHINESE)
def test_whatif_in_chinese(lang, runner, tmp_path):
    rd = DEMO / "round-03"
    orders = [str(rd / "orders" / f"{h}.yaml")
              for h in ("answers", "baratheon", "greyjoy", "lannister", "tyrell")]
    report = tmp_path / "report.md"
    result = runner.invoke(main, ["whatif", str(rd / "state.yaml"), *orders, "--nmr", "stark",
                                  "--defaults", "--published", str(DEMO / "round-04" / "state.yaml"),
                                  "--report", str(report), "--lang", lang])
    assert result.exit_code == 4, result.output
    assert result.output.startswith("与 " if lang == "zh-Hans" else "與 ")
    shown = result.output.replace(str(DEMO / "round-04" / "state.yaml"), "")
    left = english_words(FILE_PATH_LINE.sub(" ", shown))
    assert left == [], sorted(set(left))
    assert "R4.5" in report.read_text(encoding="utf-8")
    assert english_words(report.read_text(encoding="utf-8")) == []


# --- agot template ---------------------------------------------------------------------------

def _schema_words() -> set[str]:
    """Every property name and enum value of the order file schema: YAML a reader types."""
    words: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            words.update(k for k in node.get("properties", {}))
            words.update(v for v in node.get("enum", []) if isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads((ROOT / "schemas" / "orders.schema.json").read_text(encoding="utf-8")))
    return words


def _typed_words() -> set[str]:
    """Words a template's comments may keep: ids of the ruleset, the schema's keys and values,
    YAML words, placeholders and the commands it names."""
    rs = _ruleset()
    ids = {*rs.areas, *rs.houses, *rs.house_cards, *rs.order_tokens, "footman", "knight", "ship",
           "iron_throne", "fiefdoms", "kings_court", *(c for d in rs.decks.values() for c in
                                                       (e.card for e in d))}
    words = {w for i in ids | _schema_words() for w in re.findall(r"[A-Za-z]{2,}", i)}
    return words | {"agot", "null", "true", "false", "YAML", "schema", "orders", "validate", "inbox",
                    "STATE", "THIS", "FILE", "GAME", "AREA", "ORDER", "HOUSE", "SEA", "UNIT",
                    "docs", "protocol", "yaml", "language", "server", "upgrade", "never", "auto",
                    "always"}


@pytest.mark.parametrize("lang", CHINESE)
def test_template_comments_in_chinese_keep_only_ids(lang):
    rs, allowed = _ruleset(), _typed_words()
    found_names = 0
    for n, house in itertools.product((1, 2, 5, 8, 10), ("stark", "greyjoy", "tyrell")):
        s = state(n)
        if s.phase == "ended":
            continue
        text = order_template(s, rs, house, lang=lang)
        for line in text.splitlines():
            if not line.startswith("#"):
                continue  # live YAML: format, round, house
            comment = line if line.startswith("##") else line.partition("  # ")[2]
            left = [w for w in english_words(comment) if w not in allowed]
            assert left == [], f"round {n} {house}: {line}"
            found_names += bool(re.search(r"[\u4e00-\u9fff]", comment))
    assert found_names > 100


@pytest.mark.parametrize("lang", CHINESE)
def test_a_chinese_template_is_the_same_order_file(lang, runner, tmp_path):
    """Same live keys and, with every `# ` line uncommented, the same YAML data as the English
    template; filled in, it validates."""
    from test_template import uncomment

    rs = _ruleset()
    for n in (1, 5, 8):
        s = state(n)
        en, zh = order_template(s, rs, "stark"), order_template(s, rs, "stark", lang=lang)
        assert en != zh
        assert zh.startswith("# yaml-language-server: $schema=orders.schema.json\n")
        assert (parse_text("en.yaml", uncomment(en).encode()).data
                == parse_text("zh.yaml", uncomment(zh).encode()).data)
    path = DEMO / "round-01" / "state.yaml"
    result = runner.invoke(main, ["template", str(path), "--house", "stark", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert re.search(r"^#   winterfell: null +# (临冬城|臨冬城)——", result.output, re.MULTILINE)
    filled = uncomment(result.output).replace("winterfell: null", "winterfell: march_0")
    orders = tmp_path / "stark.yaml"
    orders.write_text(filled, encoding="utf-8")
    result = runner.invoke(main, ["validate", str(path), str(orders)])
    assert result.exit_code == 0, result.output


def test_a_provisional_board_is_said_so_in_chinese():
    from agot_adjudicator.cli.views import provisional_line
    from agot_adjudicator.workflow.present import Board

    s = state(4)
    board = Board(doc=None, state=s, provisional=True)  # type: ignore[arg-type]
    assert provisional_line(board, _ruleset()) == (
        "Provisional: the board as it stands in round 4, stopped in the westeros phase on "
        "pending decisions (not a record).\n")
    line = provisional_line(board, _ruleset(), "zh-Hans")
    assert line.startswith("临时：第 4 回合") and "维斯特洛阶段" in line
    assert english_words(line) == []


def test_the_chinese_site_is_the_same_bytes_twice(chinese_site):
    lang, files = chinese_site
    again = build_site(str(DEMO), _ruleset(), lang=lang).files
    assert again == files
