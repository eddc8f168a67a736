"""`agot map`: the board as SVG — every area, unit and token drawn, secrecy, determinism, errors."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from agot_adjudicator.cli import main
from agot_adjudicator.engine.board import controller
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import TRACKS
from agot_adjudicator.model.state import AreaState, GameState
from agot_adjudicator.render.geometry import map_layout, ring_area
from agot_adjudicator.render.picture import (
    HOUSE_STYLES,
    border_segment,
    borders,
    layout_problems,
    render_svg,
)
from agot_adjudicator.workflow.present import state_text

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def _parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def _by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def _drawn(g: ET.Element, cls: str) -> list[ET.Element]:
    """The drawn pieces of class ``cls`` inside an area's group."""
    return [e for e in g.iter(f"{SVG}g") if e.get("class") == cls]


def _drawn_units(g: ET.Element, routed: bool = False) -> Counter[str]:
    """Units drawn in an area (glyph groups of the standing or the routed row)."""
    out: Counter[str] = Counter()
    for e in _drawn(g, "unit"):
        if (e.get("data-routed") == "true") == routed:
            out[e.get("data-unit")] += int(e.get("data-count"))
            assert e.find(f"{SVG}text").text == e.get("data-count")  # the count is printed
    return out


def _mid_round(ruleset) -> GameState:
    """A 5-player state in the action phase: orders on the board, a routed knight, tokens."""
    state = new_game(ruleset, list(ruleset.players[5]), 7, "map-test")
    state.phase = "action"
    orders = ["march_plus1", "defense_plus1", "support", "raid", "consolidate_power",
              "march_0", "defense_plus2"]
    i = 0
    for area_id in ruleset.area_ids:
        here = state.areas.get(area_id)
        if here is not None and here.units and ruleset.areas[area_id].is_land:
            here.order = orders[i % len(orders)]
            i += 1
    state.areas["winterfell"].routed = ["footman"]
    state.areas["white_harbor"].order = None
    state.areas["the_twins"] = AreaState(power_token="stark")
    return state


# --- layout ----------------------------------------------------------------------------------

def _shared_edges(lay) -> dict[tuple[str, str], float]:
    """(a, b) → length of the outline the two areas share (their rings' common edges)."""
    owners: dict[tuple, list[str]] = {}
    for area, rings in lay.rings.items():
        for ring in rings:
            for p, q in zip(ring, [*ring[1:], ring[0]], strict=False):
                owners.setdefault((min(p, q), max(p, q)), []).append(area)
    shared: dict[tuple[str, str], float] = {}
    for (p, q), areas in owners.items():
        if len(areas) == 2:
            key = tuple(sorted(areas))
            shared[key] = shared.get(key, 0.0) + ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5
    return shared


def test_every_area_has_a_place_and_the_layout_is_legible(ruleset):
    assert all(ruleset.areas[a].xy is not None and ruleset.areas[a].shape
               for a in ruleset.area_ids)
    assert layout_problems(ruleset) == []  # every content box inside its area's outline


def test_the_areas_tile_the_map_and_touch_as_the_board_says(ruleset):
    """Drawn from the board data: the outlines cover the map once; two areas share a border
    exactly when they are adjacent (a river border drawn as a river, R5.11), except the one
    adjacency the board's non-planar graph leaves to a connector; a sea touches
    only the areas it borders."""
    lay = map_layout(ruleset)
    left, top, right, bottom = lay.bounds
    total = sum(ring_area(rings[0]) - sum(ring_area(hole) for hole in rings[1:])
                for rings in lay.rings.values())
    assert total == pytest.approx((right - left) * (bottom - top), rel=1e-6)
    shared = _shared_edges(lay)
    rivers, connectors = [], []
    for a, b in borders(ruleset):
        if tuple(sorted((a, b))) in shared:
            assert shared[tuple(sorted((a, b)))] >= 20, (a, b)  # a border you can see
        else:
            connectors.append((a, b))
    for a, b in shared:
        if b not in ruleset.areas[a].adjacent:
            assert ruleset.areas[a].is_land and ruleset.areas[b].is_land, (a, b)
            rivers.append((a, b))
    assert rivers == []
    assert connectors == [("oldtown", "sunset_sea")]
    kinds = {(b.a, b.b): b.kind for b in lay.borders}
    assert kinds[("oldtown", "sunset_sea")] == "link"
    assert [pair for pair, kind in kinds.items() if kind == "river"] == [
        ("harrenhal", "the_mountains_of_the_moon"), ("riverrun", "the_twins")]  # R5.11
    assert kinds[("seagard", "the_twins")] == "land"  # the bridges
    islands = [a for a in ruleset.area_ids if ruleset.areas[a].island]
    assert islands and all(len(lay.rings[a]) == 1 for a in islands)
    assert all(len(lay.rings[a]) == 2 for a in ("ironmans_bay", "redwyne_straights",
                                               "shipbreaker_bay"))  # each with its island


def test_the_board_geometry_is_what_the_grid_gives():
    """board.yaml's shapes, boxes and places are made by tools/board_geometry.py from the
    hand-drawn grid (a recorded output: run the tool after editing tools/board_map.txt)."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "board_geometry.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_layout_check_finds_a_box_outside_its_area_and_one_on_a_border_line(ruleset):
    moved = dict(ruleset.areas)
    moved["winterfell"] = replace(moved["winterfell"], xy=(60.0, 60.0))
    broken = replace(ruleset, areas=moved)
    assert "the content box of winterfell leaves its outline" in layout_problems(broken)
    boxes = {a: replace(area, shape=None) for a, area in ruleset.areas.items()}
    a, b = borders(ruleset)[0]
    x1, y1, x2, y2 = border_segment(replace(ruleset, areas=boxes), a, b)
    victim = next(c for c in ruleset.area_ids if c not in (a, b))
    boxes[victim] = replace(boxes[victim], xy=((x1 + x2) / 2, (y1 + y2) / 2))
    assert any(f"crosses {victim}" in p for p in layout_problems(replace(ruleset, areas=boxes)))


def test_a_ruleset_without_shapes_is_drawn_as_boxes(ruleset):
    boxes = replace(ruleset, areas={a: replace(area, shape=None)
                                    for a, area in ruleset.areas.items()})
    state = new_game(ruleset, list(ruleset.players[5]), 1, "g")
    ids = _by_id(_parse(render_svg(state, boxes)))
    for a, b in borders(ruleset):
        assert ids[f"border-{a}--{b}"].get("data-areas") == f"{a} {b}"
    assert "area-winterfell" in ids
    assert len(re.findall(r"-?[\d.]+", ids["shape-winterfell"].get("d"))) == 8  # a box


def test_neighbours_are_placed_as_on_the_board(ruleset):
    """Geography: north at the top, Dorne at the bottom; seas to the west and east."""
    y = {a: ruleset.areas[a].xy[1] for a in ruleset.area_ids}
    x = {a: ruleset.areas[a].xy[0] for a in ruleset.area_ids}
    assert y["castle_black"] < y["winterfell"] < y["moat_cailin"] < y["riverrun"] < y["kings_landing"]
    assert y["kings_landing"] < y["the_reach"] < y["dornish_marches"] < y["sunspear"]
    assert x["sunset_sea"] < x["lannisport"] < x["kings_landing"] < x["shipbreaker_bay"]


def _winterfell_xy(text: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith("    xy:")
                and text.index(line) > text.index("  winterfell:"))
    return line + "\n"


def test_area_without_xy_is_broken_ruleset_data(runner, tmp_path):
    rules = tmp_path / "rules"
    assert runner.invoke(main, ["ruleset", "export", str(rules)]).exit_code == 0
    board = rules / "board.yaml"
    text = board.read_text(encoding="utf-8")
    xy = _winterfell_xy(text)
    board.write_text(text.replace(xy, "", 1), encoding="utf-8")
    result = runner.invoke(main, ["--ruleset", str(rules), "new", "--seed", "1", "-o",
                                  str(tmp_path / "s.yaml")])
    assert result.exit_code == 5
    assert "board: winterfell has no xy (its place on the map)" in result.stderr
    assert not (tmp_path / "s.yaml").exists()


def test_moving_a_box_keeps_the_ruleset_hash(runner, tmp_path):
    rules = tmp_path / "rules"
    assert runner.invoke(main, ["ruleset", "export", str(rules)]).exit_code == 0
    board = rules / "board.yaml"
    text = board.read_text(encoding="utf-8")
    moved_text = text.replace(_winterfell_xy(text), "    xy: [531, 262]\n", 1)
    shape = next(line for line in moved_text.splitlines() if line.startswith("    shape:"))
    board.write_text(moved_text.replace(shape, "    shape: [[0, 0, 10, 0, 10, 10]]", 1),
                     encoding="utf-8")
    moved = load_ruleset(str(rules))
    assert moved.areas["winterfell"].xy == (531, 262)
    assert moved.sha256 == load_ruleset().sha256
    other = tmp_path / "other"
    assert runner.invoke(main, ["ruleset", "export", str(other)]).exit_code == 0
    (other / "board.yaml").write_text(text.replace('name: "Winterfell"', 'name: "Winterfell!"'),
                                      encoding="utf-8")
    assert load_ruleset(str(other)).sha256 != load_ruleset().sha256  # rules data is hashed


# --- content ---------------------------------------------------------------------------------

def test_every_area_unit_and_token_of_a_new_game_is_drawn(ruleset):
    state = new_game(ruleset, list(ruleset.players[5]), 1, "g")
    root = _parse(render_svg(state, ruleset))
    assert root.tag == f"{SVG}svg"
    ids = _by_id(root)
    for area_id in ruleset.area_ids:
        area = ruleset.areas[area_id]
        g = ids[f"area-{area_id}"]
        assert g.get("data-kind") == area.kind
        assert g.get("data-castle") == area.castle
        assert g.get("data-home") == area.home_of
        assert g.get("data-controller") == controller(state, ruleset, area_id)
        here = state.area(area_id)
        if here.units:
            assert g.get("data-house") == here.house
            assert Counter(g.get("data-units").split(",")) == Counter(here.units)
        else:
            assert g.get("data-units") is None
        assert _drawn_units(g) == Counter(here.units)
        nf = here.neutral_force
        assert g.get("data-neutral-force") == (str(nf.strength) if nf else None)
        assert [e.get("data-strength") for e in _drawn(g, "neutral-force")] == \
            ([str(nf.strength)] if nf else [])
        assert g.get("data-order") is None
        # the area is drawn with its outline
        assert ids[f"shape-{area_id}"].get("d").startswith("M")
    drawn_units = sum(len(g.get("data-units").split(",")) for g in root.iter()
                      if (g.get("id") or "").startswith("area-") and g.get("data-units"))
    assert drawn_units == sum(len(a.units) for a in state.areas.values())
    assert sum(1 for a in ruleset.area_ids if ids[f"area-{a}"].get("data-neutral-force")) == 3
    drawn = {tuple(e.get("data-areas").split()) for e in root.iter()
             if e.get("class") in ("coast", "sea", "link", "river")}
    lands = {(a, b) for a, b in borders(ruleset)
             if ruleset.areas[a].is_land and ruleset.areas[b].is_land}
    assert {(a, b) for a, b in borders(ruleset)} - lands <= drawn  # lands: by their outlines
    assert all(ids[f"shape-{a}"].get("stroke") for a, _ in lands)


def test_tracks_supply_threat_round_and_houses_in_the_panel(ruleset):
    state = new_game(ruleset, list(ruleset.players[5]), 1, "g")
    state.round, state.wildling_threat = 4, 6
    state.houses["stark"].discards = ["eddard_stark"]
    state.houses["stark"].hand.remove("eddard_stark")
    ids = _by_id(_parse(render_svg(state, ruleset)))
    for track in TRACKS:
        assert ids[f"track-{track}"].get("data-houses") == ",".join(state.tracks[track])
    assert ids["track-round"].get("data-round") == "4"
    assert ids["track-wildlings"].get("data-threat") == "6"
    for house, hs in state.houses.items():
        assert ids[f"supply-{house}"].get("data-level") == str(hs.supply)
        assert ids[f"house-{house}"].get("data-power") == str(hs.power)
        assert ids[f"house-{house}"].get("data-hand") == str(len(hs.hand))
    assert ids["house-stark"].get("data-discards") == "eddard_stark"


def test_three_player_game_draws_the_houses_not_in_play_as_neutral_forces(ruleset):
    state = new_game(ruleset, list(ruleset.players[3]), 1, "g")
    ids = _by_id(_parse(render_svg(state, ruleset)))
    pyke = ids["area-pyke"]
    assert pyke.get("data-neutral-force") is not None and pyke.get("data-units") is None
    assert "house-greyjoy" not in ids and "supply-greyjoy" not in ids
    assert ids["track-iron_throne"].get("data-houses").count(",") == 2


def test_orders_routed_units_and_power_tokens_are_drawn_with_orders_flag(ruleset):
    state = _mid_round(ruleset)
    plain = _by_id(_parse(render_svg(state, ruleset)))
    assert all(e.get("data-order") is None for e in plain.values())
    ids = _by_id(_parse(render_svg(state, ruleset, orders=True)))
    for area_id in ruleset.area_ids:
        here = state.area(area_id)
        g = ids[f"area-{area_id}"]
        assert g.get("data-order") == here.order
        assert [e.get("data-order") for e in _drawn(g, "order")] == ([here.order] if here.order else [])
        assert [e.get("data-house") for e in _drawn(g, "power-token")] == \
            ([here.power_token] if here.power_token else [])
        standing = Counter(here.units)
        standing.subtract(here.routed)
        assert _drawn_units(g) == +standing
        assert _drawn_units(g, routed=True) == Counter(here.routed)
    assert ids["area-winterfell"].get("data-routed") == "footman"
    assert ids["area-the_twins"].get("data-power-token") == "stark"
    assert ids["area-the_twins"].get("data-controller") == "stark"
    assert ids["house-stark"].get("data-power-tokens-on-board") == "1"


def test_a_house_sees_only_its_own_orders_before_the_reveal(ruleset):
    """R4.1, R4.5: orders are face down until all are revealed at the end of planning."""
    state = _mid_round(ruleset)
    state.phase = "planning"
    owners = {a: state.area(a).house for a in ruleset.area_ids if state.area(a).order}
    assert {"stark", "lannister"} <= set(owners.values())
    text = render_svg(state, ruleset, house="stark", orders=True)
    ids = _by_id(_parse(text))
    for area_id, owner in owners.items():
        want = state.area(area_id).order if owner == "stark" else "hidden"
        assert ids[f"area-{area_id}"].get("data-order") == want
        assert [e.get("data-order") for e in _drawn(ids[f"area-{area_id}"], "order")] == [want]
    lannister_orders = {state.area(a).order for a, h in owners.items() if h == "lannister"}
    stark_orders = {state.area(a).order for a, h in owners.items() if h == "stark"}
    for order in lannister_orders - stark_orders:
        assert order not in text
    moderator = _by_id(_parse(render_svg(state, ruleset, orders=True)))
    assert all(moderator[f"area-{a}"].get("data-order") == state.area(a).order for a in owners)
    state.phase = "action"
    revealed = _by_id(_parse(render_svg(state, ruleset, house="stark", orders=True)))
    assert all(revealed[f"area-{a}"].get("data-order") == state.area(a).order for a in owners)


def test_drawing_does_not_change_the_state(ruleset):
    state = _mid_round(ruleset)
    before = state.to_dict(ruleset)
    render_svg(state, ruleset, house="stark", orders=True)
    assert state.to_dict(ruleset) == before


def test_hands_decks_and_seed_are_never_drawn(ruleset):
    state = new_game(ruleset, list(ruleset.players[5]), 987654321, "g")
    for house in (None, "stark"):
        text = render_svg(state, ruleset, house=house, orders=True)
        for hs in state.houses.values():
            for card in hs.hand:
                assert card not in text
                assert ruleset.house_cards[card].name not in text
        assert "987654321" not in text
        assert "winter_is_coming" not in text and "wildling_attack" not in text


def test_unknown_house_view_is_refused(ruleset):
    state = new_game(ruleset, list(ruleset.players[4]), 1, "g")
    with pytest.raises(ValueError, match="'greyjoy' is not a house in play"):
        render_svg(state, ruleset, house="greyjoy")


def test_house_colours_differ_in_lightness_and_letter():
    def grey(fill: str) -> float:
        r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
        return 0.299 * r + 0.587 * g + 0.114 * b
    levels = sorted(grey(fill) for fill, _, _ in HOUSE_STYLES.values())
    assert all(b - a >= 30 for a, b in pairwise(levels))
    assert len({letter for _, _, letter in HOUSE_STYLES.values()}) == len(HOUSE_STYLES)


def test_svg_is_self_contained(ruleset):
    text = render_svg(_mid_round(ruleset), ruleset, orders=True)
    root = _parse(text)
    assert root.get("font-family") == "sans-serif"
    assert text.count("http") == 1  # the xmlns only: no fonts, images or links fetched
    assert not list(root.iter(f"{SVG}image")) and "@import" not in text and "url(http" not in text


# --- command line ----------------------------------------------------------------------------

@pytest.fixture
def files(tmp_path: Path, ruleset) -> Path:
    (tmp_path / "state.yaml").write_text(state_text(_mid_round(ruleset), ruleset), encoding="utf-8")
    return tmp_path


def test_map_command_writes_the_picture_with_the_orders(runner, files):
    """(Byte-identical reruns: tests/test_determinism.py.)"""
    result = runner.invoke(main, ["map", str(files / "state.yaml"), "-o", str(files / "a.svg"),
                                  "--orders"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {files / 'a.svg'}\n"
    ids = _by_id(_parse((files / "a.svg").read_text(encoding="utf-8")))
    assert ids["area-winterfell"].get("data-order") == "support"


def test_map_command_house_view(runner, files):
    result = runner.invoke(main, ["map", str(files / "state.yaml"), "-o", str(files / "s.svg"),
                                  "--house", "stark", "--orders"])
    assert result.exit_code == 0, result.output
    ids = _by_id(_parse((files / "s.svg").read_text(encoding="utf-8")))
    assert ids["view"].get("data-house") == "stark"
    # an action-phase state: the orders were revealed (R4.5), so stark sees lannister's
    assert ids["area-lannisport"].get("data-order") not in (None, "hidden")


def test_map_of_an_invalid_state_is_a_located_error_and_writes_nothing(runner, files):
    state = files / "state.yaml"
    data = YAML(typ="safe").load(state.read_text(encoding="utf-8"))
    text = state.read_text(encoding="utf-8").replace(f"round: {data['round']}\n", "round: zero\n", 1)
    state.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["map", str(state), "-o", str(files / "m.svg")])
    assert result.exit_code == 1
    assert f"error: {state}:" in result.stderr and "$.round" in result.stderr
    assert "Traceback" not in result.output
    assert not (files / "m.svg").exists()


@pytest.mark.parametrize("extra, message", [
    (["--house", "nobody"], "--house nobody: not a house in play"),
    ([], None),
])
def test_map_usage_errors(runner, files, extra, message):
    state = files / "state.yaml"
    before = state.read_bytes()
    if message is None:  # the picture over the state it was drawn from
        result = runner.invoke(main, ["map", str(state), "-o", str(state)])
        message = "refusing to write the picture"
    else:
        result = runner.invoke(main, ["map", str(state), "-o", str(files / "m.svg"), *extra])
    assert result.exit_code == 2
    assert message in result.stderr
    assert state.read_bytes() == before
    assert not (files / "m.svg").exists()


def test_map_needs_an_output(runner, files):
    result = runner.invoke(main, ["map", str(files / "state.yaml")])
    assert result.exit_code == 2
    assert "Missing option '-o'" in result.stderr
