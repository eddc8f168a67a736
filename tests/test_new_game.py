"""`agot new`: starting states for 3, 4 and 5 players (R1, R12) and seeded decks (docs/protocol.md P3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from agot_adjudicator.cli import main
from agot_adjudicator.engine.chance import shuffle
from agot_adjudicator.engine.setup import full_deck, new_game


def _new(runner, tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "s.yaml"
    result = runner.invoke(main, ["new", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return YAML(typ="safe").load(out.read_text())


def test_different_seeds_give_different_decks(ruleset):
    """Eight seeds, eight different orders of each deck, each a permutation of the ruleset's."""
    for deck in ("I", "II", "III"):
        orders = [new_game(ruleset, list(ruleset.houses), s, "g").decks[deck] for s in range(8)]
        expected = sorted(c.card for c in ruleset.decks[deck] for _ in range(c.count))
        assert all(sorted(order) == expected for order in orders)
        assert len({tuple(order) for order in orders}) == 8, deck


def test_shuffle_is_a_permutation_and_leaves_input_alone():
    cards = ["a", "b", "c", "d", "e"]
    out = shuffle(cards, 3, 1, "II")
    assert sorted(out) == cards and cards == ["a", "b", "c", "d", "e"]


def test_five_player_start_matches_setup(runner, tmp_path, ruleset):
    s = _new(runner, tmp_path, "--players", "5", "--seed", "1")
    assert s["tracks"]["iron_throne"] == ["baratheon", "lannister", "stark", "tyrell", "greyjoy"]
    assert s["areas"]["winterfell"] == {"house": "stark", "units": ["footman", "knight"]}
    assert s["areas"]["shipbreaker_bay"] == {"house": "baratheon", "units": ["ship", "ship"]}
    assert s["areas"]["the_eyrie"] == {"neutral_force": {"strength": 6}}
    assert {h: v["power"] for h, v in s["houses"].items()} == dict.fromkeys(ruleset.houses, 5)
    assert s["houses"]["tyrell"]["supply"] == 3
    assert s["round"] == 1 and s["phase"] == "planning" and s["wildling_threat"] == 0
    for deck in ("I", "II", "III"):
        assert sorted(s["westeros"]["decks"][deck]) == sorted(full_deck(ruleset, deck))


def test_four_players_tyrell_holds_the_blade_and_greyjoy_is_neutral(runner, tmp_path):
    s = _new(runner, tmp_path, "--players", "4", "--seed", "1")
    assert s["tracks"]["fiefdoms"][0] == "tyrell"  # R12.3: gaps close
    assert "greyjoy" not in s["houses"]
    assert s["areas"]["pyke"]["neutral_force"] == {
        "strength": 3, "house": "greyjoy", "units": ["footman", "knight"]}  # R12.2
    assert s["areas"]["ironmans_bay"]["neutral_force"]["strength"] == 2


@pytest.mark.parametrize("players", ["3", "4", "5"])
def test_new_state_validates(runner, tmp_path, players):
    out = tmp_path / "s.yaml"
    assert runner.invoke(main, ["new", "--players", players, "--seed", "2", "-o", str(out)]
                         ).exit_code == 0
    result = runner.invoke(main, ["validate", str(out)])
    assert result.exit_code == 0, result.output


def test_three_players_tracks_close_gaps(runner, tmp_path):
    s = _new(runner, tmp_path, "--players", "3", "--seed", "1")
    assert s["tracks"]["kings_court"] == ["lannister", "stark", "baratheon"]
    assert s["tracks"]["fiefdoms"] == ["stark", "baratheon", "lannister"]
    assert s["areas"]["highgarden"]["neutral_force"]["house"] == "tyrell"
