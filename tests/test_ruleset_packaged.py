"""The packaged first-edition ruleset: schema-valid, integrity-clean, facts as in shared/data."""

from __future__ import annotations

from agot_adjudicator.io.rulesets import _documents_from_package, _schema_check
from agot_adjudicator.model.ruleset import integrity_problems


def test_packaged_ruleset_is_schema_valid():
    _schema_check(_documents_from_package(compiled=False))


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
