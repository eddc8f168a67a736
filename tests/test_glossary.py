"""The glossary (docs/formats.md, The glossary): every id a person sees named in English,
simplified and traditional Chinese; names resolve back to ids in any locale or script; a broken
glossary is a located ruleset error (exit 5); names are not part of the content hash."""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest
from click.testing import CliRunner, Result

from agot_adjudicator.cli import main
from agot_adjudicator.io.rulesets import (
    CARD_TEXTS,
    GLOSSARY,
    PACKAGED,
    RULESET_FILES,
    _documents_from_package,
    _glossary_from_package,
    _schema_check,
    archived_hashes,
    export_ruleset,
    find_ruleset,
    glossary_bytes,
    load_ruleset,
)
from agot_adjudicator.model.glossary import (
    CHINESE,
    INTAKE_KINDS,
    KINDS,
    LOCALES,
    SOURCES,
    glossary_from_data,
    glossary_problems,
    name_key,
)

ARCHIVED = "829bcc97bcc5c3e8a85ad576705806679389bdaf1856e6cb08b1e79060061f6f"


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


# --- complete, and every name resolves ---------------------------------------------------

def test_every_id_of_every_kind_has_a_name_in_every_locale(ruleset):
    glossary = ruleset.glossary
    expected = ruleset.named_ids()
    assert set(expected) == set(KINDS)
    for kind in KINDS:
        assert sorted(glossary.ids(kind)) == sorted(expected[kind]), kind
        for id_ in expected[kind]:
            names = glossary.names(kind, id_)
            assert set(names) == set(LOCALES), (kind, id_)
            assert all(n.strip() == n and n for n in names.values()), (kind, id_, names)
    counts = {kind: len(glossary.ids(kind)) for kind in KINDS}
    assert counts == {"house": 5, "area": 45, "order": 11, "unit": 3, "house_card": 35,
                      "westeros_card": 11, "track": 6, "token": 5}


def test_english_names_are_the_rulesets_own(ruleset):
    glossary = ruleset.glossary
    for area in ruleset.areas.values():
        assert glossary.name("area", area.id) == area.name
    for card in ruleset.house_cards.values():
        assert glossary.name("house_card", card.id) == card.name
    assert [glossary.name("order", o) for o in ("march_plus1", "raid_special", "support")] == [
        "March +1★", "Raid★", "Support"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_id_resolves_from_each_of_its_names(ruleset, kind):
    glossary = ruleset.glossary
    for id_, entry in glossary.entries[kind].items():
        for text in entry.accepted():
            assert glossary.resolve(kind, text) == id_, (kind, text)
            # English is case-insensitive, spacing and full-width forms do not matter.
            for variant in (text.upper(), text.lower(), f"  {text} ", text.replace(" ", "  ")):
                assert glossary.resolve(kind, variant) == id_, (kind, variant)
            wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
            assert glossary.resolve(kind, wide) == id_, (kind, wide)


def test_a_traditional_name_resolves_the_id_of_its_simplified_name(ruleset):
    glossary = ruleset.glossary
    for kind in KINDS:
        for id_ in glossary.ids(kind):
            names = glossary.names(kind, id_)
            assert glossary.resolve(kind, names["zh-Hant"]) == glossary.resolve(
                kind, names["zh-Hans"]) == glossary.resolve(kind, names["en"]) == id_


def test_known_names_from_both_scripts(ruleset):
    g = ruleset.glossary
    assert [g.resolve("area", n) for n in ("临冬城", "臨冬城", "龙石岛", "龍石島", "鹰巢城", "君臨")] == [
        "winterfell", "winterfell", "dragonstone", "dragonstone", "the_eyrie", "kings_landing"]
    assert [g.resolve("order", n) for n in ("行军令", "行军令 +1", "行軍 -1", "突袭★", "突擊*",
                                             "Consolidate Power*", "march 0")] == [
        None, "march_plus1", "march_minus1", "raid_special", "raid_special",
        "consolidate_power_special", "march_0"]
    assert g.resolve("house", "史塔克家族") == "stark"
    assert g.resolve("area", "Kings Landing") == g.resolve("area", "king’s landing") == "kings_landing"
    assert g.resolve("house_card", "泰溫·蘭尼斯特") == "tywin_lannister"  # either name separator
    assert g.resolve("house_card", "泰温兰尼斯特") == "tywin_lannister"
    assert g.resolve("unit", "騎兵") == g.resolve("unit", "骑士") == "knight"
    assert g.resolve("area", "winterfel") is None
    assert g.resolve("area", "史塔克") is None  # scoped by kind: a house is not an area
    assert g.resolve("nonsense", "临冬城") is None
    assert g.resolve("area", None) is None
    assert g.name("area", "winterfell", "zh-Hans") == "临冬城"
    assert g.name("area", "nowhere", "zh-Hans") == "nowhere"


def test_names_are_in_the_script_of_their_locale(ruleset):
    """A zh-Hans name has no character only traditional script writes, a zh-Hant name none
    only simplified script writes (臨冬城, 龍石島 against 临冬城, 龙石岛)."""
    to_hant, to_hans = opencc.OpenCC("s2tw"), opencc.OpenCC("tw2s")

    def traditional_only(c: str) -> bool:
        return to_hans.convert(c) != c and to_hant.convert(c) == c

    def simplified_only(c: str) -> bool:
        return to_hant.convert(c) != c and to_hans.convert(c) == c

    wrong = []
    for kind in KINDS:
        for entry in ruleset.glossary.entries[kind].values():
            for text in (entry.names["zh-Hans"], *entry.also["zh-Hans"]):
                wrong += [(kind, entry.id, text, c) for c in text if traditional_only(c)]
            for text in (entry.names["zh-Hant"], *entry.also["zh-Hant"]):
                wrong += [(kind, entry.id, text, c) for c in text if simplified_only(c)]
    assert wrong == []


def test_sources_are_of_the_vocabulary(ruleset):
    for kind in KINDS:
        for entry in ruleset.glossary.entries[kind].values():
            assert set(entry.source) == set(CHINESE)
            assert set(entry.source.values()) <= set(SOURCES)
            assert entry.source["zh-Hans"] != "rulebook-simplified"  # zh-Hant only


def test_intake_kinds_share_no_name(ruleset):
    seen: dict[str, str] = {}
    for kind in INTAKE_KINDS:
        for entry in ruleset.glossary.entries[kind].values():
            for text in entry.accepted():
                assert seen.setdefault(name_key(text), kind) == kind, (kind, text)


# --- the checks at load -------------------------------------------------------------------

def _data(ruleset) -> dict:
    return {kind: {e.id: {"en": e.names["en"], "zh-Hans": e.names["zh-Hans"],
                          "zh-Hant": e.names["zh-Hant"], "source": dict(e.source),
                          "also": {loc: list(v) for loc, v in e.also.items() if v}}
                   for e in ruleset.glossary.entries[kind].values()} for kind in KINDS}


def _problems(ruleset, data) -> list[tuple[tuple, str]]:
    return glossary_problems(glossary_from_data(data, ruleset.english_names()),
                             ruleset.named_ids())


def test_the_packaged_glossary_has_no_problem(ruleset):
    """Checked here rather than at every run, like the packaged schema: the packaged glossary on
    the packaged ruleset and on every archived one (which have no glossary of their own)."""
    assert _problems(ruleset, _data(ruleset)) == []
    packaged = _glossary_from_package()
    assert packaged is not None
    _schema_check({**_documents_from_package(compiled=False), GLOSSARY: packaged})
    for sha256 in archived_hashes():
        archived = find_ruleset("first_edition", sha256)
        assert archived is not None
        assert glossary_problems(glossary_from_data(packaged.data, archived.english_names()),
                                 archived.named_ids()) == []


def test_a_planted_duplicate_is_caught_and_not_resolved(ruleset):
    data = _data(ruleset)
    data["area"]["karhold"]["zh-Hant"] = "臨冬城"  # winterfell's name, in another locale too
    assert _problems(ruleset, data) == [
        (("area", "winterfell", "zh-Hant"),
         "areas 'karhold' and 'winterfell' share the name '臨冬城'")]
    assert glossary_from_data(data).resolve("area", "臨冬城") is None  # never a guess


def test_a_name_two_intake_kinds_share_is_caught(ruleset):
    data = _data(ruleset)
    data["unit"]["ship"]["also"]["zh-Hans"] = ["船只", "高庭"]
    assert _problems(ruleset, data) == [
        (("unit", "ship", "also", "zh-Hans", 1), "the name '高庭' of unit 'ship' is also a name "
         "of an area: the intake kinds (house, area, order, unit, house_card) share no name")]


def test_missing_and_unknown_ids_are_caught(ruleset):
    data = _data(ruleset)
    del data["house_card"]["queen_of_thorns"]
    data["track"]["victory"] = data["track"].pop("round")
    assert _problems(ruleset, data) == [
        (("house_card",), "no names for house_card 'queen_of_thorns'"),
        (("track",), "no names for track 'round'"),
        (("track", "victory"), "'victory' is not a track of the ruleset"),
    ]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _line_col(path: Path, needle: str | tuple[str, int]) -> str:
    """``line:col`` of the (nth) line holding ``needle`` (where the needle starts)."""
    text, nth = needle if isinstance(needle, tuple) else (needle, 1)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            nth -= 1
            if nth == 0:
                return f"{number}:{line.index(text) + 1}"
    raise AssertionError(needle)


BREAKS = {
    # Karhold comes first in the file: Winterfell's name is the second claim.
    "duplicate": ("    zh-Hant: 卡霍城\n", "    zh-Hant: 臨冬城\n", ("臨冬城", 2),
                  lambda d, lc: f"{d / GLOSSARY}:{lc}: $.area.winterfell[\"zh-Hant\"]: areas "
                                "'karhold' and 'winterfell' share the name '臨冬城'"),
    "missing_locale": ("    zh-Hant: 卡霍城\n", "", "en: Karhold",
                       lambda d, lc: f"{d / GLOSSARY}:{lc}: $.area.karhold: "
                                     "'zh-Hant' is a required property"),
    "unknown_source": ("    source: {zh-Hans: novels, zh-Hant: novels}\n  kings_landing:",
                       "    source: {zh-Hans: novels, zh-Hant: wiki}\n  kings_landing:", "wiki",
                       lambda d, lc: f"{d / GLOSSARY}:{lc}: $.area.karhold.source[\"zh-Hant\"]: "
                                     "'wiki' is not one of: rulebook, rulebook-simplified, "
                                     "novels, summary, agot"),
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_broken_glossary_is_a_located_ruleset_error(name: str, tmp_path: Path):
    rules = tmp_path / "rules"
    assert _run("ruleset", "export", str(rules)).exit_code == 0
    old, new, needle, expected = BREAKS[name]
    _edit(rules / GLOSSARY, old, new)
    out = tmp_path / "out.yaml"
    result = _run("--ruleset", str(rules), "new", "--seed", "1", "-o", str(out))
    assert result.exit_code == 5, result.output
    errors = [line.removeprefix("error: ") for line in result.stderr.splitlines()]
    assert expected(rules, _line_col(rules / GLOSSARY, needle)) in errors, "\n".join(errors)
    assert "Traceback" not in result.output and not out.exists()


def test_the_rulesets_own_english_name_wins(tmp_path: Path):
    """An area renamed in board.yaml (rules data, hashed) is shown by its new name; the
    glossary's older ``en`` is still understood."""
    rules = tmp_path / "rules"
    export_ruleset(rules)
    _edit(rules / "board.yaml", 'name: "Pyke"', 'name: "Pyke Island"')
    renamed = load_ruleset(str(rules))
    assert renamed.sha256 != load_ruleset().sha256
    assert renamed.glossary.name("area", "pyke") == "Pyke Island"
    assert renamed.glossary.resolve("area", "pyke island") == "pyke"
    assert renamed.glossary.resolve("area", "Pyke") == "pyke"


# --- outside the content hash -------------------------------------------------------------

def test_export_writes_the_glossary_and_a_corrected_name_keeps_the_hash(tmp_path: Path):
    packaged = load_ruleset()
    rules = tmp_path / "rules"
    written = export_ruleset(rules)
    assert [p.name for p in written] == [*RULESET_FILES, GLOSSARY, CARD_TEXTS]
    _edit(rules / GLOSSARY, "    zh-Hans: 冰湾\n    zh-Hant: 冰灣\n",
          "    zh-Hans: 冰之湾\n    zh-Hant: 冰之灣\n")  # one name in either script (folded)
    corrected = load_ruleset(str(rules))
    assert corrected.sha256 == packaged.sha256
    assert corrected.glossary.name("area", "bay_of_ice", "zh-Hans") == "冰之湾"
    assert corrected.glossary.resolve("area", "冰之湾") == "bay_of_ice"
    assert corrected.glossary.resolve("area", "冰湾") is None
    # A state of the packaged ruleset is played on under the corrected names.
    state = tmp_path / "state.yaml"
    assert _run("new", "--seed", "1", "-o", str(state)).exit_code == 0
    assert _run("--ruleset", str(rules), "validate", str(state)).exit_code == 0


def test_a_ruleset_without_a_glossary_is_named_by_the_packaged_one(tmp_path: Path):
    rules = tmp_path / "old_copy"
    export_ruleset(rules)
    (rules / GLOSSARY).unlink()
    old = load_ruleset(str(rules))
    assert old.glossary == load_ruleset().glossary
    again = tmp_path / "again"
    export_ruleset(again, old)  # the export carries the names the copy is read with
    assert (again / GLOSSARY).read_bytes() == glossary_bytes(PACKAGED)


def test_a_card_renamed_without_names_is_a_ruleset_error(tmp_path: Path):
    """With the ruleset's own glossary: the new id has no names and the old is unknown; a
    ruleset without one is told that the packaged glossary does not name the new id."""
    rules = tmp_path / "rules"
    export_ruleset(rules)
    _edit(rules / "house_cards.yaml", "  lord_mormont:", "  maege_mormont:")
    result = _run("--ruleset", str(rules), "ruleset", "show")
    assert result.exit_code == 5
    lc = _line_col(rules / GLOSSARY, "lord_mormont:")
    assert result.stderr.splitlines() == [
        f"error: {rules / GLOSSARY}:{_line_col(rules / GLOSSARY, 'house_card:')}: "
        "$.house_card: no names for house_card 'maege_mormont'",
        f"error: {rules / GLOSSARY}:{lc}: $.house_card.lord_mormont: "
        "'lord_mormont' is not a house_card of the ruleset"]
    (rules / GLOSSARY).unlink()
    result = _run("--ruleset", str(rules), "ruleset", "show")
    assert result.exit_code == 5
    assert result.stderr == (
        f"error: {rules}: has no glossary.yaml, and the packaged one does not fit it: "
        "<package>/data/first_edition/glossary.yaml: $.house_card: no names for house_card "
        "'maege_mormont' (`agot ruleset export DIR` writes one)\n")


def test_the_archived_ruleset_keeps_its_hash_and_gets_the_packaged_names():
    assert ARCHIVED in archived_hashes()
    archived = find_ruleset("first_edition", ARCHIVED)
    assert archived is not None and archived.sha256 == ARCHIVED
    assert archived.glossary.name("area", "winterfell", "zh-Hant") == "臨冬城"


def test_a_games_copy_with_its_own_names_is_used(tmp_path: Path):
    packaged = load_ruleset()
    game = tmp_path / "game"
    kept = game / "rulesets" / packaged.sha256
    export_ruleset(kept)
    assert find_ruleset(packaged.name, packaged.sha256, game) is packaged  # same files
    _edit(kept / GLOSSARY, "    zh-Hans: 冰湾\n", "    zh-Hans: 冰之湾\n")
    own = find_ruleset(packaged.name, packaged.sha256, game)
    assert own is not None and own is not packaged
    assert own.glossary.name("area", "bay_of_ice", "zh-Hans") == "冰之湾"
    (kept / GLOSSARY).unlink()  # a copy kept before there was a glossary
    assert find_ruleset(packaged.name, packaged.sha256, game) is packaged


def test_the_glossary_is_shipped_with_the_package():
    import tomllib

    root = Path(__file__).resolve().parent.parent
    patterns = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]["agot_adjudicator"]
    assert any(Path("data/first_edition/glossary.yaml").match(p) for p in patterns)
