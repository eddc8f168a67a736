"""The state model: reading an area never changes the state; changes go through edit() or
set_area(), which keep an area without units free of a house (R13.1)."""

from __future__ import annotations

import pytest

from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.model.state import AreaState


def _state(ruleset):
    return new_game(ruleset, list(ruleset.players[5]), 1, "g")


def test_reading_an_empty_area_gives_a_read_only_empty_area(ruleset):
    s = _state(ruleset)
    assert "karhold" not in s.areas
    here = s.area("karhold")
    assert (here.house, list(here.units), here.order) == (None, [], None)
    with pytest.raises(AttributeError, match=r"GameState\.edit"):
        here.order = "march_0"
    with pytest.raises(AttributeError):
        here.units.append("footman")  # type: ignore[attr-defined]
    assert "karhold" not in s.areas


def test_edit_stores_a_new_area_and_drops_an_emptied_one(ruleset):
    s = _state(ruleset)
    with s.edit("karhold") as here:
        here.house, here.units = "stark", ["footman"]
    assert s.areas["karhold"] == AreaState(house="stark", units=["footman"])
    with s.edit("karhold") as here:
        here.units.remove("footman")
    assert "karhold" not in s.areas


def test_last_unit_leaving_clears_the_house_without_help(ruleset):
    s = _state(ruleset)
    with s.edit("karhold") as here:
        here.house, here.units, here.routed = "stark", ["footman"], ["footman"]
        here.power_token = "stark"
    with s.edit("karhold") as here:
        here.units = []
    assert s.areas["karhold"] == AreaState(power_token="stark")
    s.set_area("karhold", AreaState(house="stark", power_token="stark"))
    assert s.areas["karhold"].house is None
