"""Message catalogs (issue 18.2): every sentence for a person is an English msgid with a
translation in each Chinese catalog, its placeholders kept, in the script of its locale. The
sentences are found by Babel's extraction (``python -m agot_adjudicator.render.catalog``) and
the catalogs read by polib, as agot reads them."""

from __future__ import annotations

import shutil
import string
from pathlib import Path

import opencc
import polib
import pytest

from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.text import FIELD_KINDS
from agot_adjudicator.render import catalog as tooling
from agot_adjudicator.render.i18n import (
    LANGUAGES,
    catalog_entries,
    language_from_env,
    po_path,
    read_catalog,
    translator,
)
from agot_adjudicator.render.language import COUNTED_SPECS, Counted

CHINESE = ("zh-Hans", "zh-Hant")


def extracted() -> dict[str, str]:
    """msgid → where it is (Babel's extraction: ``tr``, ``N_``, ``Msg`` and the cards' texts)."""
    return tooling.extracted()


def fields(text: str) -> set[tuple[str, str]]:
    """The ``{name:spec}`` placeholders of a message (a translation may repeat one or not); a
    unit field counted with its measure word (``{unit:一}``, ``{unit:量}``: render.language.
    Counted) is its plain field."""
    return {(name, "" if spec in COUNTED_SPECS else spec or "")
            for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def catalog(lang: str) -> dict[str, str]:
    return catalog_entries(lang)


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
    assert "charset=UTF-8" in read_catalog(po_path(lang)).metadata["Content-Type"]
    assert tooling.problems(lang, ids) == []


@pytest.mark.parametrize("lang", CHINESE)
def test_translations_keep_the_placeholders(lang):
    wrong = [(m, s) for m, s in catalog(lang).items() if m and fields(m) != fields(s)]
    assert wrong == []
    for m, s in catalog(lang).items():  # each translation formats with its msgid's fields
        if m and fields(m):
            s.format(**{name: Counted("船只", "艘") if FIELD_KINDS.get(name) == "unit" else 0
                        for name, _ in fields(m)})


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


def test_the_catalog_as_gettext_reads_it_is_deterministic():
    """The .mo image polib makes at first use: the same bytes from the same catalog, read by
    the standard library's gettext."""
    po = read_catalog(po_path("zh-Hans"))
    assert po.to_binary() == read_catalog(po_path("zh-Hans")).to_binary()
    assert translator("zh-Hans").gettext("Orders are revealed.") == catalog("zh-Hans")[
        "Orders are revealed."]


def test_update_appends_new_sentences_at_the_end_and_keeps_the_order(tmp_path, monkeypatch):
    """``catalog update``: a new sentence lands at the end of both catalogs, untranslated (so
    the completeness test names it), a stale one goes, the others keep their place."""
    for lang in CHINESE:
        copy = tmp_path / lang / "agot.po"
        copy.parent.mkdir()
        shutil.copyfile(po_path(lang), copy)
    monkeypatch.setattr(tooling, "po_path", lambda lang: tmp_path / lang / "agot.po")
    found = dict(extracted())
    first = next(iter(found))
    del found[first]
    found["A sentence written today."] = "render/report.py:1"
    before = [e.msgid for e in read_catalog(tmp_path / "zh-Hans" / "agot.po")]
    for lang in CHINESE:
        added, dropped = tooling.update(lang, found)
        assert (added, dropped) == (["A sentence written today."], [first])
        po = read_catalog(tmp_path / lang / "agot.po")
        assert [e.msgid for e in po] == [m for m in before if m != first] + [
            "A sentence written today."]
        assert po[-1].msgstr == "" and po[-1].occurrences == [("agot_adjudicator/render/report.py", "")]
        assert tooling.problems(lang, found) == [
            "render/report.py:1: 'A sentence written today.' has no translation"]
        assert tooling.update(lang, found) == ([], [])  # nothing left to do


def test_extract_writes_a_template_of_every_sentence(tmp_path):
    out = tmp_path / "agot.pot"
    assert tooling.main(["extract", "-o", str(out)]) == 0
    pot = polib.pofile(str(out))
    assert {e.msgid for e in pot} == set(extracted())
    assert all(e.msgstr == "" for e in pot)
    assert tooling.main(["check"]) == 0


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
