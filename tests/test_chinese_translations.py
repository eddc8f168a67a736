"""Every term of every Chinese rule text understood at intake (issue 32.1, docs/chinese.md): the
names the rulebook translations and the community summaries write (the glossary's ``written``
entries, each with its source), the nouns they add (行军指令 -1, 突擊令牌, 步兵部队), and either
script or a mix of both (蘭斯尼港, 龍石岛) folded into one; an order file written in each text's
own words validates and is stored by ``agot inbox`` as its id form; a Chinese name that names
nothing gets a "did you mean" in its own script."""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

import opencc
import pytest
import yaml

from agot_adjudicator.cli import main
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.glossary import INTAKE_KINDS, KINDS, TRANSLATIONS, name_key
from agot_adjudicator.model.script_fold import FOLD, TRADITIONAL

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "translations"
RS = load_ruleset()
G = RS.glossary
HOUSE_OF = {"simplified": "lannister", "simplified-partial": "stark", "traditional": "greyjoy",
            "summary-forum": "baratheon", "summary-document": "tyrell"}
"""The house each translation's order file is written for (one file per rule text)."""


def _written() -> list[tuple[str, str, str, str, str]]:
    return [(kind, id_, w.name, w.source, w.at) for kind in KINDS
            for id_, entry in G.entries[kind].items() for w in entry.written]


@pytest.mark.parametrize(("kind", "id_", "name", "source", "at"), _written(),
                         ids=lambda v: str(v))
def test_every_name_a_rule_text_writes_resolves_to_its_id(kind, id_, name, source, at):
    assert source in TRANSLATIONS and at.strip() == at and at
    assert G.resolve(kind, name) == id_
    assert G.resolve(kind, f" {name.upper()} ") == id_


def test_the_written_names_come_from_every_rule_text():
    sources = {source for _, _, _, source, _ in _written()}
    sources |= {n.source for nouns in G.nouns.values() for n in nouns}
    assert sources == set(TRANSLATIONS)
    assert len(_written()) >= 50


@pytest.mark.parametrize("kind", sorted(G.nouns))
def test_every_noun_may_follow_every_name_of_its_kind(kind):
    """行军 -1 → 行军指令 -1, 行軍令牌 -1; 步兵 → 步兵部队; 鐵王座 → 鐵王座影響區."""
    nouns = G.nouns[kind]
    assert nouns and all(n.source in TRANSLATIONS for n in nouns)
    for id_ in G.ids(kind):
        for locale in ("zh-Hans", "zh-Hant"):
            word, _, strength = G.name(kind, id_, locale).partition(" ")
            for noun in nouns:
                if name_key(noun.name) in name_key(word):  # 权力指示物, 补给记录槽: it has one
                    continue
                text = f"{word}{noun.name} {strength}".strip()
                assert G.resolve(kind, text) == id_, (kind, text)


def test_the_notations_of_the_rule_texts():
    order = {text: G.resolve("order", text) for text in (
        "行军 (-1)", "行军(0)", "行军 (+1)*", "行軍（-1）", "防禦（+2）*", "突袭 +1", "突擊+1",
        "骚扰+1", "骚扰命令", "更多权力", "更多权力命令", "巩固权力命令", "进军 +0", "进军 0",
        "攻擊 -1", "支援 +1", "支援命令", "集權令牌", "防守指令指示物 +1", "突袭指示物")}
    assert order == {
        "行军 (-1)": "march_minus1", "行军(0)": "march_0", "行军 (+1)*": "march_plus1",
        "行軍（-1）": "march_minus1", "防禦（+2）*": "defense_plus2", "突袭 +1": "raid_special",
        "突擊+1": "raid_special", "骚扰+1": "raid_special", "骚扰命令": "raid",
        "更多权力": "consolidate_power_special", "更多权力命令": "consolidate_power_special",
        "巩固权力命令": "consolidate_power", "进军 +0": "march_0", "进军 0": "march_0",
        "攻擊 -1": "march_minus1", "支援 +1": "support_plus1", "支援命令": "support",
        "集權令牌": "consolidate_power", "防守指令指示物 +1": "defense_plus1",
        "突袭指示物": "raid"}
    # a word without its strength names no token when several share it; a noun alone, nothing
    assert [G.resolve("order", t) for t in ("进军", "进军命令", "命令", "指令 -1")] == [None] * 4
    assert G.resolve("track", "信鸦排名") == G.resolve("track", "宮廷影響區") == "kings_court"
    assert G.resolve("track", "Iron宝座影响力记录槽") == "iron_throne"
    assert G.resolve("token", "鐵王座標誌物") == G.resolve("token", "Iron宝座指示物") == "iron_throne"
    assert G.resolve("unit", "步兵部队") == G.resolve("unit", "步兵道具") == "footman"


def test_mixed_script_spellings_fold_into_one_name():
    """The simplified translation writes some characters in traditional script (君臨, 赫倫堡,
    龍石岛, 蘭尼斯特家族, 冬天降臨): each names what its converted spelling names."""
    assert [G.resolve("area", t) for t in ("君臨", "赫倫堡", "龍石岛", "蘭斯尼港", "兰斯尼港")] == [
        "kings_landing", "harrenhal", "dragonstone", "lannisport", "lannisport"]
    assert G.resolve("house", "蘭尼斯特家族") == "lannister"
    assert G.resolve("westeros_card", "冬天降臨") == "winter_is_coming"
    assert name_key("臨冬城") == name_key("临冬城") == name_key("臨冬城")


def test_the_shipped_script_table_is_opencc_s():
    """model/script_fold.py (tools/make_script_fold.py) against OpenCC: every character it
    folds, folds as OpenCC converts it, and every traditional character of the glossary's
    names and of the traditional catalog is in it."""
    t2s, tw2s, hk2s = (opencc.OpenCC(c) for c in ("t2s", "tw2s", "hk2s"))
    assert len(TRADITIONAL) > 3000
    wrong = []
    for char in TRADITIONAL:
        folded = char.translate(FOLD)
        expected = {t2s.convert(char), tw2s.convert(char), hk2s.convert(char)}
        if folded not in expected and folded.translate(FOLD) == folded and \
                not any(e.translate(FOLD) == folded for e in expected):
            wrong.append((char, folded, expected))
    assert wrong == []
    from agot_adjudicator.render.i18n import catalog_entries

    names = "".join(n for kind in KINDS for e in G.entries[kind].values() for n in e.accepted())
    text = names + "".join(catalog_entries("zh-Hant").values())
    missing = sorted({c for c in text if t2s.convert(c) != c and len(t2s.convert(c)) == 1
                      and c.translate(FOLD) == c})
    assert missing == []


# --- an order file in each rule text's words ------------------------------------------------

@pytest.fixture(scope="module")
def first_round(tmp_path_factory) -> Path:
    state = tmp_path_factory.mktemp("state") / "state.yaml"
    from click.testing import CliRunner

    assert CliRunner().invoke(main, ["new", "--seed", str(2**41), "-o", str(state)]).exit_code == 0
    return state


@pytest.mark.parametrize("translation", TRANSLATIONS)
def test_an_order_file_in_a_rule_text_s_words_validates_as_its_id_form(runner, first_round,
                                                                        translation):
    named, ids = DATA / f"{translation}.yaml", DATA / "ids" / f"{translation}.yaml"
    assert yaml.safe_load(ids.read_text(encoding="utf-8"))["house"] == HOUSE_OF[translation]
    by_ids = runner.invoke(main, ["validate", str(first_round), str(ids)])
    by_names = runner.invoke(main, ["validate", "--names", str(first_round), str(named)])
    assert by_ids.exit_code == by_names.exit_code == 0, by_names.output
    # the same verdict, each warning at its own line of each file (the two are laid out apart)
    def unplaced(text: str, path: Path) -> list[str]:
        return [re.sub(rf"{re.escape(str(path))}:\d+:\d+:", "FILE:", line)
                for line in text.splitlines() if not line.startswith("note:")]

    assert unplaced(by_names.output, named) == unplaced(by_ids.output, ids)
    refused = runner.invoke(main, ["validate", str(first_round), str(named)])
    assert refused.exit_code == 1  # ids only without --names


def test_the_inbox_stores_each_rule_text_s_file_as_its_id_form(runner, tmp_path):
    game = tmp_path / "game"
    made = runner.invoke(main, ["new", "--players", "5", "--seed", "7", "--game", str(game),
                                "--secrets-out", str(tmp_path / "s.txt")])
    assert made.exit_code == 0, made.output
    secrets = dict(line.split(": ", 1) for line in (tmp_path / "s.txt").read_text().splitlines()
                   if not line.startswith("#"))
    mails = []
    for translation, house in HOUSE_OF.items():
        body = (DATA / f"{translation}.yaml").read_text(encoding="utf-8").replace(
            "round: 1\n", f"round: 1\nsecret: {secrets[house]}\n")
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{house}@example.org", "gm@example.org", "orders"
        msg["Date"] = "Tue, 01 Dec 2026 10:00:00 +0000"
        msg.set_content(f"Orders below.\n\n{body}\n-- \n{house}\n")
        mails.append(tmp_path / f"{translation}.eml")
        mails[-1].write_bytes(bytes(msg))
    result = runner.invoke(main, ["inbox", "--game", str(game), "--received",
                                  "2026-12-01T12:00:00Z", *map(str, mails)])
    assert result.exit_code == 0, result.output
    assert result.output.count("ACCEPTED") == 5, result.output
    for translation, house in HOUSE_OF.items():
        stored = yaml.safe_load((game / "round-01" / "orders" / f"{house}.yaml").read_text())
        assert stored == yaml.safe_load((DATA / "ids" / f"{translation}.yaml").read_text())
    assert runner.invoke(main, ["validate", "--game", str(game)]).exit_code == 0
    assert runner.invoke(main, ["adjudicate", "--game", str(game)]).exit_code in (0, 3)


# --- did you mean -----------------------------------------------------------------------------

@pytest.mark.parametrize(("wrong", "meant"), [("临冬堡", "临冬城"), ("臨冬堡", "臨冬城"),
                                              ("兰尼斯堡", "兰尼斯港"), ("行軍令牌 -2", "行軍 -1")])
def test_a_chinese_name_that_names_nothing_gets_a_suggestion_in_its_script(runner, tmp_path,
                                                                           first_round, wrong, meant):
    text = (DATA / "ids" / "simplified-partial.yaml").read_text(encoding="utf-8")
    if wrong.startswith("行軍"):
        text = text.replace("winterfell: march_plus1", f"winterfell: {wrong}")
    else:
        text = text.replace("- from: winterfell", f"- from: {wrong}")
    path = tmp_path / "stark.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["validate", "--names", str(first_round), str(path)])
    assert result.exit_code == 1
    assert f"'{wrong}' names no " in result.output
    assert f"(did you mean '{meant}'?)" in result.output, result.output


def test_english_suggestions_are_unchanged(runner, tmp_path, first_round):
    text = (DATA / "ids" / "simplified-partial.yaml").read_text(encoding="utf-8").replace(
        "- from: winterfell", "- from: Winterfel")
    path = tmp_path / "stark.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["validate", "--names", str(first_round), str(path)])
    assert "'Winterfel' names no area (did you mean 'Winterfell'?)" in result.output


def test_intake_kinds_still_share_no_name_in_either_script():
    seen: dict[str, str] = {}
    for kind in INTAKE_KINDS:
        for entry in G.entries[kind].values():
            for text in entry.accepted():
                assert seen.setdefault(name_key(text), kind) == kind, (kind, text)


def test_docs_list_every_name_a_rule_text_writes():
    """docs/chinese.md lists each ``written`` name and noun with its text (kept with the data:
    a name added to the glossary without the docs fails here)."""
    doc = (ROOT / "docs" / "chinese.md").read_text(encoding="utf-8")
    for kind, id_, name, source, at in _written():
        assert f"| {name} | {kind} | `{id_}` | {at} |" in doc, (name, source)
    for kind, nouns in G.nouns.items():
        for noun in nouns:
            assert f"| {noun.name} | {kind} | {noun.source} | {noun.at} |" in doc, noun
    for source in TRANSLATIONS:
        count = sum(1 for w in _written() if w[3] == source)
        assert f"### {source} ({count} names)" in doc
