"""Message catalogs (issue 18.2): every sentence for a person is an English msgid with a
translation in each Chinese catalog, its placeholders kept, in the script of its locale."""

from __future__ import annotations

import ast
import gettext
import io
import string
from pathlib import Path

import opencc
import pytest

import agot_adjudicator
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.render.i18n import (
    LANGUAGES,
    compile_mo,
    language_from_env,
    parse_po,
    po_path,
    translator,
)

PACKAGE = Path(agot_adjudicator.__file__).parent
CHINESE = ("zh-Hans", "zh-Hant")


def extracted() -> dict[str, str]:
    """msgid → where it is: the first argument of every ``tr(...)``, ``N_(...)`` and ``Msg(...)`` call in the
    package that is a string literal (what xgettext -k tr -k N_ would extract)."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            arg = node.args[0]
            if name in ("tr", "N_", "Msg") and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, f"{path.relative_to(PACKAGE)}:{node.lineno}")
    for card_id, card in load_ruleset().house_cards.items():  # the packaged cards' texts
        if card.effect:
            found.setdefault(card.effect, f"data/first_edition/house_cards.yaml: {card_id}")
    return found


def fields(text: str) -> set[tuple[str, str]]:
    """The ``{name:spec}`` placeholders of a message (a translation may repeat one or not)."""
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text)
            if name is not None}


def catalog(lang: str) -> dict[str, str]:
    return parse_po(po_path(lang).read_text(encoding="utf-8"))


def test_messages_are_extracted():
    ids = extracted()
    assert len(ids) > 150
    assert "Orders are revealed." in ids and "{line} ({rule})." in ids


@pytest.mark.parametrize("lang", CHINESE)
def test_catalog_is_complete_and_has_nothing_stale(lang):
    ids, entries = extracted(), catalog(lang)
    missing = sorted(f"{where}: {msgid!r}" for msgid, where in ids.items() if msgid not in entries)
    stale = sorted(m for m in entries if m and m not in ids)
    assert missing == []
    assert stale == []
    assert "charset=UTF-8" in entries[""]


@pytest.mark.parametrize("lang", CHINESE)
def test_translations_keep_the_placeholders(lang):
    wrong = [(m, s) for m, s in catalog(lang).items() if m and fields(m) != fields(s)]
    assert wrong == []
    for m, s in catalog(lang).items():  # each translation formats with its msgid's fields
        if m and fields(m):
            s.format(**{name: 0 for name, _ in fields(m)})


def test_translations_are_in_the_script_of_their_locale():
    to_hant, to_hans = opencc.OpenCC("s2tw"), opencc.OpenCC("tw2s")
    hans, hant = catalog("zh-Hans"), catalog("zh-Hant")
    wrong = []
    for msgid in hans:
        if not msgid:
            continue
        wrong += [("zh-Hans", msgid, c) for c in hans[msgid]
                  if to_hans.convert(c) != c and to_hant.convert(c) == c]
        wrong += [("zh-Hant", msgid, c) for c in hant[msgid]
                  if to_hant.convert(c) != c and to_hans.convert(c) == c]
        # every translation is Chinese: a msgstr equal to its English msgid is untranslated
        if any(c.isalpha() and c.isascii() for c in msgid.replace("{", " {")):
            assert hans[msgid] != msgid and hant[msgid] != msgid, msgid
    assert wrong == []


def test_traditional_terms_follow_the_glossary():
    """zh-Hant sentences use the traditional rulebook's terms, not the simplified one's in
    traditional characters (野蠻人, 渡鴉信差, 騎兵, 封地)."""
    hant = "\n".join(catalog("zh-Hant").values())
    for simplified_term in ("外族", "烏鴉使者", "騎士", "封臣部署", "御前會議",
                            "權力指示物", "要塞", "海域", "默認"):  # 權力標誌物, 堡壘, 海洋地區, 預設
        assert simplified_term not in hant, simplified_term
    assert "野蠻人" in hant and "渡鴉信差" in hant


def test_compiled_catalog_is_deterministic_and_read_by_gettext():
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", "b": "乙", "a": "甲"}
    mo = compile_mo(entries)
    assert mo == compile_mo(dict(reversed(entries.items())))
    t = gettext.GNUTranslations(io.BytesIO(mo))
    assert (t.gettext("a"), t.gettext("b"), t.gettext("c")) == ("甲", "乙", "c")


def test_po_parser_reads_continuations_escapes_and_skips_fuzzy():
    text = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            '#, fuzzy\nmsgid "old"\nmsgstr "舊"\n\n'
            '#: x.py\nmsgid "two "\n"lines"\nmsgstr "兩\\"行\\""\n\nmsgid "empty"\nmsgstr ""\n')
    assert parse_po(text) == {"": "Content-Type: text/plain; charset=UTF-8\n", "two lines": '兩"行"'}
    with pytest.raises(ValueError, match="line 1"):
        parse_po("msgid oops\n")


def test_english_is_the_source_and_unknown_languages_are_refused():
    assert translator("en").gettext("Orders are revealed.") == "Orders are revealed."
    assert translator("zh-Hant").gettext("Orders are revealed.") == "公佈命令。"
    assert translator("zh-Hans").gettext("not in the catalog") == "not in the catalog"
    with pytest.raises(ValueError, match="unknown language"):
        translator("fr")
    assert LANGUAGES == ("en", "zh-Hans", "zh-Hant")


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"), ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"), ({"LANG": "zh_SG"}, "zh-Hans"),
    ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"), ({"LANG": "zh_HK.Big5"}, "zh-Hant"),
    ({"LC_MESSAGES": "zh_TW", "LANG": "zh_CN"}, "zh-Hant"),
    ({"LC_ALL": "en_GB", "LC_MESSAGES": "zh_TW", "LANG": "zh_CN"}, "en"),
    ({"LC_ALL": "", "LANG": "zh_CN.GB18030"}, "zh-Hans"),
])
def test_language_from_the_locale_environment(env, lang):
    assert language_from_env(env) == lang


def test_msg_says_its_fields_in_the_reader_language():
    """An engine sentence (Msg) is its f-string in English; in Chinese its template goes through
    the catalog and its ids are named by field kind (houses, areas, orders, lists)."""
    from agot_adjudicator.model.text import Msg
    from agot_adjudicator.render.language import Names, say

    ruleset = load_ruleset()
    m = Msg("{who} has no effect: {reason}.", who=Msg("{card} ({house})", card="x", house="y"),
            reason="declined")
    assert m == "x (y) has no effect: declined." and say(m) == m
    with Names(ruleset, "zh-Hans").speaking():
        said = say(Msg("{house} takes {card} back into its hand.", house="stark",
                       card="eddard_stark"))
        assert said == "史塔克将艾德·史塔克收回手牌。", said
        assert say("plain text") == "plain text"


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "(next: round 6, westeros phase); 54 events"),
    ("zh-Hans", "（接下来：第 6 回合，维斯特洛阶段）；54 个事件"),
    ("zh-Hant", "（接下來：第 6 回合，維斯特洛階段）；54 個事件")])
def test_adjudicate_says_what_it_wrote_in_the_language(runner, tmp_path, lang, expected):
    demo = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo" / "round-05"
    from agot_adjudicator.cli import main

    result = runner.invoke(main, ["adjudicate", str(demo / "state.yaml"),
                                  *sorted(str(p) for p in (demo / "orders").glob("*.yaml")),
                                  "-o", str(tmp_path / "next.yaml"), "--lang", lang])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith(expected), result.output


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "(game over: baratheon won);"), ("zh-Hans", "（游戏结束：拜拉席恩获胜）；")])
def test_adjudicate_says_who_won_in_the_language(runner, tmp_path, lang, expected):
    demo = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo" / "round-10"
    from agot_adjudicator.cli import main

    result = runner.invoke(main, ["adjudicate", str(demo / "state.yaml"),
                                  *sorted(str(p) for p in (demo / "orders").glob("*.yaml")),
                                  "-o", str(tmp_path / "next.yaml"), "--lang", lang])
    assert result.exit_code == 0, result.output
    assert expected in result.output, result.output
