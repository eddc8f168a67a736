"""The packaged first-edition ruleset: schema-valid, integrity-clean, facts as in shared/data."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from agot_adjudicator.errors import RulesetError
from agot_adjudicator.io import rulesets
from agot_adjudicator.io.rulesets import (
    CARD_TEXTS,
    COMPILED,
    PACKAGED,
    RULESET_FILES,
    _documents_from_package,
    _schema_check,
    export_ruleset,
    load_ruleset,
)
from agot_adjudicator.model.ruleset import integrity_problems


def test_packaged_ruleset_is_schema_valid():
    _schema_check(_documents_from_package(compiled=False))
    texts = rulesets._glossary_from_package(compiled=False, filename=CARD_TEXTS)
    assert texts is not None
    _schema_check({**_documents_from_package(compiled=False), CARD_TEXTS: texts})


def test_the_river_borders_are_borders_with_their_bridges(ruleset):
    """R5.11: the river from the crossing at The Twins to the one at Crackclaw Point."""
    rivers = {a.id: a.rivers for a in ruleset.areas.values() if a.rivers}
    bridges = {a.id: a.bridges for a in ruleset.areas.values() if a.bridges}
    assert rivers == {"harrenhal": ("the_mountains_of_the_moon",), "riverrun": ("the_twins",),
                      "the_mountains_of_the_moon": ("harrenhal",), "the_twins": ("riverrun",)}
    assert bridges == {"crackclaw_point": ("the_mountains_of_the_moon",),
                       "seagard": ("the_twins",),
                       "the_mountains_of_the_moon": ("crackclaw_point",),
                       "the_twins": ("seagard",)}
    assert "the_mountains_of_the_moon" in ruleset.areas["harrenhal"].adjacent
    assert "the_mountains_of_the_moon" not in ruleset.areas["harrenhal"].march_adjacent


def test_packaged_ruleset_passes_integrity_checks(ruleset):
    assert integrity_problems(ruleset) == []


def test_board_counts_and_islands(ruleset):
    land = [a for a in ruleset.areas.values() if a.is_land]
    sea = [a for a in ruleset.areas.values() if a.is_sea]
    assert (len(land), len(sea)) == (34, 11)
    assert sorted(a.id for a in land if a.island) == ["dragonstone", "pyke", "the_arbor"]


def test_ship_transport_example_adjacency(ruleset):
    """data/README: Ironman's Bay touches exactly Pyke, Flint's Finger, Greywater Watch, Seagard, Riverrun."""
    land = [a for a in ruleset.areas["ironmans_bay"].adjacent if ruleset.areas[a].is_land]
    assert land == ["flints_finger", "greywater_watch", "pyke", "riverrun", "seagard"]


# --- the ruleset data is what runs (issue 26): compiled.json only while it matches its sources --



DATA = Path(rulesets.__file__).resolve().parent.parent / "data" / "first_edition"


@pytest.fixture
def fresh_caches():
    """Forget the loaded rulesets before and after (a test below edits the packaged sources)."""
    rulesets._package_parts.cache_clear()
    rulesets._load_cached.cache_clear()
    yield
    rulesets._package_parts.cache_clear()
    rulesets._load_cached.cache_clear()


def _edited(monkeypatch, filename: str, old: str, new: str) -> None:
    """The packaged ``filename`` as if a maintainer had edited it (compiled.json not rebuilt)."""
    real = rulesets._package_sources

    def sources(source: str) -> dict[str, bytes]:
        raw = real(source)
        if source == PACKAGED:
            text = raw[filename].decode("utf-8")
            assert old in text
            raw[filename] = text.replace(old, new, 1).encode("utf-8")
        return raw
    monkeypatch.setattr(rulesets, "_package_sources", sources)


def test_compiled_json_records_the_sha256_of_each_source():
    compiled = json.loads((DATA / COMPILED).read_text(encoding="utf-8"))
    files = [*RULESET_FILES, "glossary.yaml", CARD_TEXTS]
    assert compiled["sources"] == {f: hashlib.sha256((DATA / f).read_bytes()).hexdigest()
                                   for f in files}


def test_an_edit_of_house_cards_yaml_is_used_without_rebuilding(monkeypatch, fresh_caches):
    before = load_ruleset()
    assert before.house_cards["lord_mormont"].swords == 1
    rulesets._load_cached.cache_clear()
    rulesets._package_parts.cache_clear()
    _edited(monkeypatch, "house_cards.yaml",
            'lord_mormont:       {name: "Lord Mormont",       strength: 1, swords: 1',
            'lord_mormont:       {name: "Lord Mormont",       strength: 1, swords: 2')
    after = load_ruleset()
    assert after.house_cards["lord_mormont"].swords == 2
    assert after.sha256 != before.sha256


def test_a_broken_edit_is_a_located_ruleset_error(monkeypatch, fresh_caches):
    _edited(monkeypatch, "house_cards.yaml", "strength: 3, swords: 0, forts: 2}",
            "strength: 3, swords: many, forts: 2}")
    with pytest.raises(RulesetError) as raised:
        load_ruleset()
    assert any(p.startswith(f"{PACKAGED}/house_cards.yaml:7:") and "swords" in p
               for p in raised.value.problems), raised.value.problems


def test_card_texts_are_not_in_the_content_hash(tmp_path):
    packaged = load_ruleset()
    folder = tmp_path / "rules"
    export_ruleset(folder)
    texts = folder / CARD_TEXTS
    old = "Lannister gains 2 power tokens"
    texts.write_text(texts.read_text(encoding="utf-8").replace(old, "Lannister takes 2 power"),
                     encoding="utf-8")
    reworded = load_ruleset(str(folder))
    assert reworded.sha256 == packaged.sha256
    assert reworded.house_cards["ser_jaime_lannister"].effect == "Lannister takes 2 power"
    assert packaged.house_cards["ser_jaime_lannister"].effect == old


def test_a_ruleset_without_card_texts_takes_the_packaged_ones(tmp_path):
    folder = tmp_path / "rules"
    export_ruleset(folder)
    (folder / CARD_TEXTS).unlink()
    texts = {c: card.effect for c, card in load_ruleset(str(folder)).house_cards.items()}
    assert texts == {c: card.effect for c, card in load_ruleset().house_cards.items()}


def test_card_texts_name_house_cards_with_a_text_window(tmp_path):
    folder = tmp_path / "rules"
    export_ruleset(folder)
    texts = folder / CARD_TEXTS
    text = texts.read_text(encoding="utf-8")
    text = text.replace("  vargo_hoat:", "  vargo_hoot:").replace(
        "  robb_stark:", "  eddard_stark: \"no text\"\n  robb_stark:")
    texts.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(str(folder))
    problems = "\n".join(raised.value.problems)
    assert "$.house_card.vargo_hoot: 'vargo_hoot' is not a house card of the ruleset" in problems
    assert "$.house_card.eddard_stark: eddard_stark has no text window" in problems
    assert "vargo_hoat has a text window (`when: strength`) in house_cards.yaml but no text" \
        in problems


def test_the_archived_rulesets_keep_their_texts_in_house_cards():
    for sha256 in rulesets.archived_hashes():
        archived = rulesets._load_cached(f"{rulesets.ARCHIVE}/{sha256}")
        assert archived.sha256 == sha256
        assert archived.house_cards["robb_stark"].effect == \
            load_ruleset().house_cards["robb_stark"].effect
        assert rulesets.card_texts_bytes(archived.source) is None


def test_moving_on_from_the_archived_ruleset_lists_the_rule_changes_not_the_prose():
    """What `adjudicate --game --move-ruleset` records for a game played under a6b8a03d…
    (issue 28): the two corrections and the river borders; the card texts that moved to
    card_texts.yaml are prose, not a rule change."""
    old = rulesets._load_cached(
        f"{rulesets.ARCHIVE}/a6b8a03d3dd7cb636a56744a094afd403200a43b28a33704ae45cb3042c03580")
    changes = rulesets.ruleset_changes(old, load_ruleset())
    assert [line.split(":")[0] for line in changes] == [
        "ruleset.yaml corrections", "board.yaml areas.harrenhal.adjacent",
        "board.yaml areas.riverrun.adjacent", "board.yaml areas.the_mountains_of_the_moon.adjacent",
        "board.yaml areas.the_twins.adjacent", "board.yaml rivers"]
    assert "last_card_when_played" in changes[0] and "neutral_attack_beside_battle" in changes[0]
