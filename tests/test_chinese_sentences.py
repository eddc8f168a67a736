"""Chinese sentences as a Chinese reader reads them (issue 32.2): every count of units takes
its unit's measure word (一艘船只, 一名骑士; the glossary's ``measure``, carried to the catalog
by the field: ``{unit:一}``), in the whole demo game in both scripts; the influence terms are the
rulebooks' (影响力记录槽 / 影響領域, never 影响力轨); a tie, a bid and a count are said as
sentences; zh-Hant keeps the traditional rulebook's terms."""

from __future__ import annotations

import itertools
import re
import string
from pathlib import Path

import pytest

from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.text import FIELD_KINDS, Msg
from agot_adjudicator.render.i18n import catalog_entries
from agot_adjudicator.render.language import COUNTED_SPECS, Counted, Names, say, tr, units
from agot_adjudicator.workflow.adjudicate import adjudicate_files, render_outputs
from agot_adjudicator.workflow.mailout import mail_files

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
RS = load_ruleset()
CHINESE = ("zh-Hans", "zh-Hant")
NUMBER = r"(?:\d+|[一二两三四五六七八九十])"
MEASURE_WORDS = "个個名艘只隻块塊支位条條"


@pytest.fixture(scope="module")
def demo_texts() -> dict[str, list[tuple[str, str]]]:
    """(where, text) of every report and mail of the demo game, in each script."""
    rounds = sorted(DEMO.glob("round-*"))
    out: dict[str, list[tuple[str, str]]] = {lang: [] for lang in CHINESE}
    for rd, nxt in itertools.pairwise(rounds):
        if not ((nxt / "state.yaml").exists() and (rd / "orders").is_dir()):
            continue
        run = adjudicate_files(str(rd / "state.yaml"),
                               sorted(str(p) for p in (rd / "orders").glob("*")), RS)
        for lang in CHINESE:
            rendered = render_outputs(run, RS, board=True, lang=lang)
            mail = mail_files(run, RS, rendered, rd.name, {}, lang=lang)
            out[lang].append((f"{rd.name}/report.md", rendered.report))
            out[lang] += [(f"{rd.name}/mail/{n}", t) for n, t in mail.items()
                          if not n.endswith(".eml")]
    return out


def _unit_counts(lang: str) -> re.Pattern[str]:
    names = {RS.glossary.name("unit", u, lang): u for u in RS.glossary.ids("unit")}
    words = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(rf"{NUMBER}\s?([{MEASURE_WORDS}])\s?({words})")


@pytest.mark.parametrize("lang", CHINESE)
def test_every_count_of_units_takes_its_measure_word(demo_texts, lang):
    names = {RS.glossary.name("unit", u, lang): u for u in RS.glossary.ids("unit")}
    found: dict[str, int] = {}
    wrong = []
    for where, text in demo_texts[lang]:
        for measure, name in _unit_counts(lang).findall(text):
            unit = names[name]
            found[unit] = found.get(unit, 0) + 1
            if measure != RS.glossary.measure("unit", unit, lang):
                wrong.append((where, f"{measure}{name}"))
    assert wrong == []
    assert set(found) == {"footman", "knight", "ship"} and min(found.values()) > 10, found
    assert RS.glossary.measure("unit", "ship", lang) == "艘"
    assert RS.glossary.measure("unit", "knight", lang) == "名"


@pytest.mark.parametrize("lang", CHINESE)
def test_the_demo_writes_the_rulebooks_influence_terms(demo_texts, lang):
    text = "\n".join(t for _, t in demo_texts[lang])
    for wrong in ("影响力轨", "影響力軌", "轨上的权力指示物", "（价值", "（價值", "以 3 比"):
        assert wrong not in text, wrong
    assert ("影响力记录槽" if lang == "zh-Hans" else "影響領域") in text
    assert "、最低者" not in text and "、最高者" not in text  # a tie said as a sentence


def test_a_unit_field_counts_by_its_kind_in_any_sentence():
    """The mechanism, not a sentence: the unit's name knows its measure word, so one
    translation says one unit of any kind."""
    for lang, want in (("zh-Hans", ("一名步兵", "一名骑士", "一艘船只")),
                       ("zh-Hant", ("一名步兵", "一名騎兵", "一艘船艦"))):
        with Names(RS, lang).speaking():
            said = tuple(say(Msg("{house}'s {unit} in {area} is destroyed ({cause}).",
                                 house="stark", unit=u, area="winterfell", cause="supply"))
                         for u in ("footman", "knight", "ship"))
            assert [w in s for w, s in zip(want, said, strict=True)] == [True] * 3, said
            assert units(["ship", "ship", "knight"]) == tr(", ").join(
                [f"1名{want[1][2:]}", f"2艘{want[2][2:]}"])


def test_a_counted_spec_is_used_only_with_unit_fields():
    """``{x:一}`` / ``{x:量}`` appear in translations only on fields whose ids are units."""
    wrong = []
    for lang in CHINESE:
        for msgid, msgstr in catalog_entries(lang).items():
            for _, name, spec, _ in string.Formatter().parse(msgstr):
                if spec in COUNTED_SPECS and FIELD_KINDS.get(name or "") != "unit":
                    wrong.append((lang, msgid, name, spec))
    assert wrong == []
    assert format(Counted("船只", "艘"), "一") == "一艘船只"


@pytest.mark.parametrize(("term", "instead"), [("將軍卡", "家族卡"), ("防守方", "防禦方"),
                                               ("計畫", "計劃"), ("牌疊", "牌堆"),
                                               ("影響領域", "影響力軌")])
def test_traditional_sentences_use_the_traditional_rulebook_s_terms(term, instead):
    hant = "\n".join(catalog_entries("zh-Hant").values())
    assert instead not in hant
    assert term in hant
