"""`agot diff` and `diff.diff_states`: what differs between two states, in game terms.

docs/protocol.md P6: exit 0 when equal, 4 when not. Replay relies on "changing any
single value in any recorded state names what differs".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from agot_adjudicator.cli import main
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.diff import diff_states, leaf_paths, render_json, render_text

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _state(ruleset: Ruleset, players: int = 5, seed: int = 1) -> GameState:
    return new_game(ruleset, list(ruleset.players[players]), seed, f"game-{seed}")


def _write(path: Path, state: GameState | dict[str, Any], ruleset: Ruleset) -> Path:
    data = state if isinstance(state, dict) else state.to_dict(ruleset)
    path.write_text(dump_yaml(data), encoding="utf-8")
    return path


def _mid_round(ruleset: Ruleset) -> GameState:
    """A 3-player action-phase state with orders, routed units, tokens, neutral houses, a winner."""
    s = _state(ruleset, 3, seed=7)
    s.phase = "action"
    s.areas["winterfell"].order = "march_plus1"
    s.areas["winterfell"].routed = ["footman"]
    s.areas["white_harbor"].order = "support"
    s.blade_used = True
    s.restrictions = ["rains_of_autumn"]
    s.revealed = {"I": "supply", "II": "clash_of_kings", "III": "rains_of_autumn"}
    s.houses["stark"].hand.remove("eddard_stark")
    s.houses["stark"].discards.append("eddard_stark")
    s.winner = {"houses": ["stark"], "reason": "test", "round": 1}
    s.chain = {"previous": "0" * 64, "submissions": ["1" * 64]}
    return s


def _texts(a: GameState, b: GameState, ruleset: Ruleset) -> list[str]:
    return [c.text for c in diff_states(a, b, ruleset)]


# --- library -----------------------------------------------------------------------------

def test_equal_states_have_no_differences(ruleset: Ruleset):
    a = _mid_round(ruleset)
    assert diff_states(a, a.copy(), ruleset) == []
    assert render_text([], "a.yaml", "b.yaml") == "no differences between a.yaml and b.yaml\n"
    assert json.loads(render_json([], "a", "b"))["equal"] is True


def test_diff_never_mutates_its_inputs(ruleset: Ruleset):
    a, b = _mid_round(ruleset), _state(ruleset, 3, seed=8)
    da, db = a.to_dict(ruleset), b.to_dict(ruleset)
    diff_states(a, b, ruleset)
    assert a.to_dict(ruleset) == da and b.to_dict(ruleset) == db


def test_units_moved_destroyed_and_mustered_in_game_terms(ruleset: Ruleset):
    """Units per area, house and type; totals per house show destroyed/mustered (R0.4)."""
    a = _state(ruleset)
    b = a.copy()
    b.areas["winterfell"].units = ["knight"]                 # a footman destroyed
    b.areas["lannisport"].units = ["footman", "footman", "knight"]   # a footman mustered
    b.areas["stoney_sept"].units = []                        # the footman moves on
    b.areas.pop("stoney_sept")
    from agot_adjudicator.model.state import AreaState
    b.areas["harrenhal"] = AreaState("lannister", ["footman"])
    texts = _texts(a, b, ruleset)
    assert "winterfell: stark footman ×1 → ×0" in texts
    assert "lannisport: lannister footman ×1 → ×2" in texts
    assert "stoney_sept: lannister footman ×1 → ×0" in texts
    assert "harrenhal: lannister footman ×0 → ×1" in texts
    assert "stark: footmen on the board ×2 → ×1" in texts
    assert "lannister: footmen on the board ×2 → ×3" in texts
    # control follows (R13.1): stoney_sept lost, harrenhal gained; winterfell stays (knight).
    assert "control: stoney_sept lannister → (none)" in texts
    assert "control: harrenhal (none) → lannister" in texts
    assert not any(t.startswith("control: winterfell") for t in texts)


def test_power_tracks_cards_threat_and_restrictions(ruleset: Ruleset):
    a = _state(ruleset)
    b = a.copy()
    b.houses["stark"].power = 7
    b.tracks["iron_throne"] = list(reversed(a.tracks["iron_throne"]))
    b.houses["stark"].hand.remove("eddard_stark")
    b.houses["stark"].discards.append("eddard_stark")
    b.wildling_threat = 4
    b.restrictions = ["sea_of_storms"]
    b.raven_used = True
    texts = _texts(a, b, ruleset)
    assert "houses.stark.power: 5 → 7" in texts
    before, after = ", ".join(a.tracks["iron_throne"]), ", ".join(b.tracks["iron_throne"])
    assert f"tracks.iron_throne: {before} → {after}" in texts
    assert any(t.startswith("houses.stark.hand: −eddard_stark (") for t in texts)
    assert any(t.startswith("houses.stark.discards: +eddard_stark (") for t in texts)
    assert "wildling_threat: 0 → 4" in texts
    assert "restrictions: (none) → sea_of_storms" in texts
    assert "used_this_round.messenger_raven: false → true" in texts


def test_orders_tokens_neutral_forces_and_control(ruleset: Ruleset):
    a = _mid_round(ruleset)
    b = a.copy()
    b.areas["winterfell"].order = None
    b.areas["winterfell"].routed = []
    b.areas.pop("kings_landing")                             # neutral force beaten (R5.7)
    from agot_adjudicator.model.state import AreaState
    b.areas["the_reach"] = AreaState(power_token="stark")
    texts = _texts(a, b, ruleset)
    assert "winterfell: order march_plus1 → (none)" in texts
    assert "winterfell: stark routed footman ×1 → ×0" in texts
    assert "kings_landing: neutral force 5 → (none)" in texts
    assert "the_reach: power token (none) → stark" in texts
    assert "control: the_reach (none) → stark" in texts


def test_neutral_house_units_are_described(ruleset: Ruleset):
    """R12.2: units of a house not in play are a neutral force with their units."""
    a = _state(ruleset, 3)
    area = next(k for k, v in a.areas.items() if v.neutral_force and v.neutral_force.house)
    b = a.copy()
    nf = b.areas[area].neutral_force
    assert nf is not None
    b.areas.pop(area)
    (change,) = [c for c in diff_states(a, b, ruleset) if c.path == f"areas.{area}.neutral_force"]
    assert change.text.startswith(f"{area}: neutral force {nf.strength} ({nf.house}: ")
    assert change.text.endswith("→ (none)")


def test_non_game_fields_are_reported(ruleset: Ruleset):
    """Round, phase, seed, game id, shuffle counter, ruleset hash, chain, winner."""
    a = _mid_round(ruleset)
    b = a.copy()
    b.round, b.phase, b.seed, b.game_id, b.shuffles = 2, "westeros", 8, "other", a.shuffles + 1
    b.ruleset_sha256 = "f" * 64
    b.chain = {"previous": "2" * 64, "submissions": ["1" * 64]}
    b.winner = None
    paths = [c.path for c in diff_states(a, b, ruleset)]
    for path in ("round", "phase", "game.seed", "game.id", "westeros.shuffles", "ruleset.sha256",
                 "chain.previous", "winner.houses[0]", "winner.reason", "winner.round"):
        assert path in paths


def test_hand_in_another_order_is_a_difference(ruleset: Ruleset):
    a = _state(ruleset)
    b = a.copy()
    b.houses["stark"].hand = list(reversed(a.houses["stark"].hand))
    (change,) = diff_states(a, b, ruleset)
    assert change.path == "houses.stark.hand"
    assert "same cards in another order" in change.text


def _mutations(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One copy of ``data`` per leaf, with that single value changed."""
    out = []
    for path, value in leaf_paths(data).items():
        if path == "format":  # a constant of the schema, not a value of the state
            continue
        if isinstance(value, bool):
            new: Any = not value
        elif isinstance(value, int):
            new = value + 1
        elif isinstance(value, str):
            units = ("footman", "knight", "ship")
            new = units[(units.index(value) + 1) % 3] if value in units else value + "_x"
        else:
            continue
        changed = copy.deepcopy(data)
        node: Any = changed
        keys = path.replace("[", ".[").split(".")
        for key in keys[:-1]:
            node = node[int(key[1:-1])] if key.startswith("[") else node[key]
        last = keys[-1]
        if last.startswith("["):
            node[int(last[1:-1])] = new
        else:
            node[last] = new
        out.append((path, changed))
    return out


@pytest.mark.parametrize("players", [3, 5])
def test_any_single_value_change_is_named(ruleset: Ruleset, players: int):
    """Changing any one value of a state makes the diff non-empty and name where (replay's contract)."""
    base = _mid_round(ruleset) if players == 3 else _state(ruleset)
    data = base.to_dict(ruleset)
    mutations = _mutations(data)
    assert len(mutations) > 100
    for path, changed in mutations:
        b = GameState.from_dict(changed)
        changes = diff_states(base, b, ruleset)
        assert changes, path
        where = ".".join(path.split(".")[:2]).split("[")[0]
        assert any(c.path.startswith(where) or path.startswith(c.path) for c in changes), (
            path, [c.path for c in changes])


def test_list_items_added_or_removed_are_named(ruleset: Ruleset):
    a = _mid_round(ruleset)
    b = a.copy()
    b.decks["III"] = b.decks["III"][:-1]
    b.restrictions = []
    paths = [c.path for c in diff_states(a, b, ruleset)]
    assert paths == ["restrictions", "westeros.decks.III"]


def test_output_is_grouped_and_deterministic(ruleset: Ruleset):
    a = _mid_round(ruleset)
    b = _state(ruleset, 3, seed=8)
    changes = diff_states(a, b, ruleset)
    groups = [c.group for c in changes]
    order = ["game", "tracks", "houses", "areas", "control", "westeros"]
    assert groups == sorted(groups, key=order.index)
    text = render_text(changes, "a", "b")
    assert text == render_text(diff_states(a.copy(), b.copy(), ruleset), "a", "b")
    assert text.splitlines()[-1] == f"{len(changes)} differences"
    assert "game:" in text.splitlines()


# --- command -----------------------------------------------------------------------------

def test_cli_equal_exits_0(ruleset: Ruleset, tmp_path: Path):
    a = _write(tmp_path / "a.yaml", _state(ruleset), ruleset)
    b = _write(tmp_path / "b.yaml", _state(ruleset), ruleset)
    result = _run("diff", str(a), str(b))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"no differences between {a} and {b}\n"


def test_cli_after_a_round_exits_4_and_names_changes(ruleset: Ruleset, tmp_path: Path):
    a = _write(tmp_path / "a.yaml", _state(ruleset), ruleset)
    nxt = tmp_path / "next.yaml"
    orders = ROOT / "tests" / "data" / "round1" / "orders.yaml"
    done = _run("adjudicate", str(a), str(orders), "-o", str(nxt), "--defaults")
    assert done.exit_code == 0, done.output
    result = _run("diff", str(a), str(nxt))
    assert result.exit_code == 4
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"--- {a}", f"+++ {nxt}"]
    for expected in ("  round: 1 → 2", "  phase: planning → westeros",
                     "  karhold: stark knight ×0 → ×1", "  winterfell: power token (none) → stark",
                     "  control: karhold (none) → stark"):
        assert expected in lines


def test_cli_json_format(ruleset: Ruleset, tmp_path: Path):
    a = _write(tmp_path / "a.yaml", _state(ruleset), ruleset)
    changed = _state(ruleset)
    changed.houses["stark"].power = 7
    b = _write(tmp_path / "b.yaml", changed, ruleset)
    result = _run("diff", "--format", "json", str(a), str(b))
    assert result.exit_code == 4
    doc = json.loads(result.stdout)
    assert doc == {"a": str(a), "b": str(b), "equal": False, "changes": [
        {"group": "houses", "path": "houses.stark.power", "before": 5, "after": 7,
         "text": "houses.stark.power: 5 → 7"}]}


def test_cli_bad_input_is_located_and_exits_1(ruleset: Ruleset, tmp_path: Path):
    a = _write(tmp_path / "a.yaml", _state(ruleset), ruleset)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: agot-state/1\nround: two\n", encoding="utf-8")
    result = _run("diff", str(a), str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"error: {bad}:" in result.stderr
    assert "Traceback" not in result.stderr
    missing = _run("diff", str(a), str(tmp_path / "nope.yaml"))
    assert missing.exit_code == 1 and "no such file" in missing.stderr


def test_cli_compares_states_that_break_rules_with_a_warning(ruleset: Ruleset, tmp_path: Path):
    """A recorded state may be wrong; diff still names the difference (the ruleset hash here)."""
    a = _write(tmp_path / "a.yaml", _state(ruleset), ruleset)
    data = _state(ruleset).to_dict(ruleset)
    data["ruleset"]["sha256"] = "0" * 64
    b = _write(tmp_path / "b.yaml", data, ruleset)
    result = _run("diff", str(a), str(b))
    assert result.exit_code == 4
    assert f"  ruleset.sha256: {ruleset.sha256} → {'0' * 64}" in result.stdout.splitlines()
    assert result.stderr.startswith(f"warning: {b}:")
    assert "(compared anyway)" in result.stderr


def test_cli_usage_error_exits_2():
    result = _run("diff", "only-one.yaml")
    assert result.exit_code == 2


# --- explaining a replay mismatch ------------------------------------------------------------

def test_explain_state_texts_in_game_terms(ruleset: Ruleset):
    """The hook for replay/whatif: (expected text, recorded text, ruleset) -> lines."""
    from agot_adjudicator.render.diff import explain_state_texts

    a = _state(ruleset)
    b = a.copy()
    b.houses["stark"].power = 6
    ta, tb = dump_yaml(a.to_dict(ruleset)), dump_yaml(b.to_dict(ruleset))
    assert explain_state_texts(ta, ta, ruleset) == []
    assert explain_state_texts(ta, tb, ruleset) == [
        "state.yaml: 1 difference (expected → recorded)", "houses:",
        "  houses.stark.power: 5 → 6"]
    assert explain_state_texts(ta, "# a comment\n" + ta, ruleset) == [
        "state.yaml: same values; the texts differ only in layout or comments"]


def test_explain_state_texts_reports_a_broken_recorded_state(ruleset: Ruleset):
    from agot_adjudicator.render.diff import explain_state_texts

    ta = dump_yaml(_state(ruleset).to_dict(ruleset))
    lines = explain_state_texts(ta, "format: agot-state/1\nround: [\n", ruleset)
    assert lines and all(line.startswith("not comparable as states: state.yaml (recorded)")
                         for line in lines)
    lines = explain_state_texts(ta, ta.replace("round: 1", "round: one"), ruleset)
    assert lines and lines[0].startswith("not comparable as states: state.yaml (recorded):")
