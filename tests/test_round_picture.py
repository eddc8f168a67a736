"""The round picture tells the round truthfully (issue 31): the "as played" picture draws the
board the battles were fought on — after the Westeros phase's musters and losses (R3.5, R3.4,
R8.4) — so that replaying the round's log over the units it draws gives each battle's defenders
(R6.3) and ends on the next state's board; each battle has one label, readable, inside the
picture, covering no area's name and no other label; ship transport runs through seas."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest
from autoplay import Driver

from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.geometry import map_layout
from agot_adjudicator.render.picture import render_round_svg
from agot_adjudicator.render.svg import text_width

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
SVG = "{http://www.w3.org/2000/svg}"
RS = load_ruleset()


def _demo_rounds() -> list[tuple[str, GameState, list[dict], GameState]]:
    from ruamel.yaml import YAML

    rounds = []
    folders = sorted(DEMO.glob("round-*"))
    for rd, nxt in itertools.pairwise(folders):
        if not (rd / "log.jsonl").is_file():
            continue
        start = GameState.from_dict(YAML(typ="safe").load((rd / "state.yaml").read_text()))
        after = GameState.from_dict(YAML(typ="safe").load((nxt / "state.yaml").read_text()))
        events = [json.loads(line) for line in (rd / "log.jsonl").read_text().splitlines()
                  if '"type":"record"' not in line]
        rounds.append((rd.name, start, events, after))
    return rounds


class _Recorder(Driver):
    """A random game that keeps each round's start, its complete run's events and the next
    state."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.rounds: list[tuple[str, GameState, list[dict], GameState]] = []
        self.last = None

    def run(self, state_data, docs_data, round_):
        self.last = super().run(state_data, docs_data, round_)
        return self.last

    def play_round(self, state, record):
        start = state.copy()
        after = super().play_round(state, record)
        self.rounds.append((f"seed {self.seed} round {start.round}", start,
                            list(self.last.result.events), after))
        return after


def _random_rounds(games: int = 20) -> list[tuple[str, GameState, list[dict], GameState]]:
    rounds = []
    for seed in range(games):
        driver = _Recorder(1000 + seed, 3 + seed % 3, RS, determinism_rate=0.0, nmr_rate=0.0,
                           aggression=0.8)
        driver.play()
        rounds.extend(driver.rounds)
    return rounds


# --- the board drawn, replayed against the log ----------------------------------------------------

def _drawn_board(svg: str) -> dict[str, tuple[str, Counter, Counter]]:
    root = ElementTree.fromstring(svg.encode("utf-8"))
    board = {}
    for g in root.iter(f"{SVG}g"):
        ident = g.get("id") or ""
        if ident.startswith("area-") and g.get("data-units"):
            routed = Counter((g.get("data-routed") or "").split(",")) if g.get("data-routed") \
                else Counter()
            board[ident[5:]] = (g.get("data-house"), Counter(g.get("data-units").split(",")),
                                routed)
    return board


def _counts(units: dict) -> Counter:
    return Counter({u: int(v["count"]) for u, v in units.items() if int(v["count"])})


def _replay(board: dict, events: list[dict], where: str) -> dict[str, tuple[str, Counter]]:
    """The action phase's events applied to the drawn board, checking each battle's defenders
    against the units standing in the embattled area when it is fought."""
    units = {a: [h, Counter(u), Counter(r)] for a, (h, u, r) in board.items()}
    army: Counter = Counter()
    fight: dict | None = None
    opening: dict = {}

    def here(area: str, house: str) -> list:
        if area not in units or not +units[area][1]:
            units[area] = [house, Counter(), Counter()]
        return units[area]

    for e in events:
        if e.get("phase") != "action":
            continue
        kind = e["type"]
        if kind == "move":
            units[e["origin"]][1].subtract(e["units"])
            here(e["to"], e["house"])[1].update(e["units"])
        elif kind == "house_cards_revealed":  # a battle begins; card texts come before it
            fight, army = None, Counter()
            opening = {"area": e["area"], "defender": units[e["area"]][0]}
        elif kind == "battle":
            fight, army = e, _counts(e["sides"]["attacker"]["units"])
            origin = units[e["origin"]]
            origin[1].subtract(opening.pop("attacker_lost", Counter()))
            assert origin[0] == e["attacker"] and not (army - origin[1]), \
                f"{where}: {e['attacker']} attacks {e['area']} with {dict(army)}, but the " \
                f"picture has {dict(origin[1])} in {e['origin']}"
            origin[1].subtract(army)
            house, standing, routed = units.get(e["area"], [None, Counter(), Counter()])
            drawn = +(standing - routed)
            assert house == e["defender"] and drawn == _counts(e["sides"]["defender"]["units"]), \
                f"{where}: the battle in {e['area']} has {e['defender']} defending with " \
                f"{e['sides']['defender']['units']}, the picture {house} {dict(drawn)}"
        elif kind == "casualties" or (kind == "house_card_text"
                                      and e.get("effect") == "destroy_footman"):
            lost = Counter(e["units"] if kind == "casualties" else ["footman"])
            victim = e["house"] if kind == "casualties" else e["on"]
            if fight is None:  # before the battle's totals: the defender's area or the army
                if victim == opening["defender"]:
                    units[opening["area"]][1].subtract(lost)
                else:
                    opening.setdefault("attacker_lost", Counter()).update(lost)
            elif victim == fight["attacker"]:
                army.subtract(lost)
            else:
                units[fight["area"]][1].subtract(lost)
        elif kind == "unit_upgraded":
            pool = army if fight is not None and e["house"] == fight["attacker"] \
                else units[e["area"]][1]
            pool.subtract(["footman"])
            pool.update(["knight"])
        elif kind == "unit_destroyed":
            if e.get("reason") == "routed units cannot retreat again":
                units[e["area"]][1].subtract(e["units"])
                units[e["area"]][2].subtract(e["units"])
            elif e["rule"] == "R5.8":  # a failed attack on a neutral force, back over supply
                units[e["area"]][1].subtract(e["units"])
        elif kind == "retreat":
            if e["rule"] == "R6.9":
                units.pop(e["area"], None)
            if e.get("to"):
                target = here(e["to"], e["house"])
                target[1].update(e["units"])
                target[2].update(e["units"])
        elif kind == "area_occupied":
            # the winner's army moves in (R6.11); not e["units"], which the engine emits as the
            # area's live list (a later battle there in the round changes it in the log too)
            units[e["area"]] = [e["house"], +army, Counter()]
        elif kind == "units_stand_up":
            units[e["area"]][2] = Counter()
    return {a: (h, +u) for a, (h, u, _) in units.items() if +u}


def _check_round(where: str, start: GameState, events: list[dict], after: GameState) -> str:
    svg = render_round_svg(start, events, RS)
    final = _replay(_drawn_board(svg), events, where)
    expected = {a: (s.house, Counter(s.units)) for a, s in after.areas.items() if s.units}
    assert final == expected, f"{where}: the log replayed over the picture's units does not " \
                              f"end on the next state's board"
    fights = [e for e in events if e["type"] in ("battle", "neutral_attack")]
    assert svg.count('class="battle"') == len(fights), where
    assert svg.count('class="attack"') == len(fights), where
    return svg


def test_every_demo_round_picture_agrees_with_its_log():
    rounds = _demo_rounds()
    assert len(rounds) == 10
    musters = wildlings = 0
    for where, start, events, after in rounds:
        svg = _check_round(where, start, events, after)
        musters += sum(e["type"] == "mustered" for e in events)
        wildlings += sum(e["type"] == "unit_destroyed" and e.get("cause") == "wildlings"
                         for e in events)
        for e in events:
            if e["type"] == "unit_destroyed" and e.get("cause") == "wildlings":
                assert f'class="westeros-loss" data-area="{e["area"]}" data-cause="wildlings"' \
                    in svg, where
    assert musters and wildlings  # the demo has both: the board drawn is after them


def test_twenty_random_games_draw_each_round_as_its_log_says():
    rounds = _random_rounds(20)
    assert len(rounds) > 100
    battles = 0
    for where, start, events, after in rounds:
        _check_round(where, start, events, after)
        battles += sum(e["type"] == "battle" for e in events)
    assert battles > 50


# --- labels --------------------------------------------------------------------------------

def _box(rect: ElementTree.Element) -> tuple[float, float, float, float]:
    x, y = float(rect.get("x")), float(rect.get("y"))
    return x, y, x + float(rect.get("width")), y + float(rect.get("height"))


def _name_boxes(root: ElementTree.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each area name's extent, from its text, size and position (rotated names turned)."""
    boxes: dict[str, list[tuple[float, float, float, float]]] = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "name":
            continue
        for text in g.iter(f"{SVG}text"):
            size = float(text.get("font-size"))
            spans = list(text.iter(f"{SVG}tspan"))
            if spans:  # upright Chinese: one character above another
                xs = [float(s.get("x")) for s in spans]
                ys = [float(s.get("y")) for s in spans]
                box = (min(xs) - size / 2, min(ys) - size, max(xs) + size / 2, max(ys) + 0.3 * size)
            else:
                x, y = float(text.get("x")), float(text.get("y"))
                width = text_width(text.text or "", size, True)
                box = (x - width / 2, y - size * 0.8, x + width / 2, y + size * 0.25)
                turn = re.match(r"rotate\(-90 ([\d.]+) ([\d.]+)\)", text.get("transform") or "")
                if turn:
                    cx, cy = float(turn.group(1)), float(turn.group(2))
                    box = (cx - (cy - box[1]), cy - (box[2] - cx), cx + (box[3] - cy),
                           cy + (cx - box[0]))
            boxes.setdefault(g.get("data-area"), []).append(box)
    return {a: (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs),
                max(b[3] for b in bs)) for a, bs in boxes.items()}


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _label_boxes(root: ElementTree.Element) -> list[tuple[str, tuple]]:
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") in ("battle", "destroyed", "westeros-loss", "raid-note"):
            text = g.find(f"{SVG}text")
            out.append((f"{g.get('class')} {g.get('data-area')}: {text.text}",
                        _box(g.find(f"{SVG}rect"))))
    return out


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_labels_cover_no_name_and_no_other_label_and_stay_in_the_picture(lang):
    """On the SVG's geometry: every battle and loss label's box lies inside the map, overlaps
    no area's name and no other label, and is wide enough for its text."""
    bounds = map_layout(RS).bounds
    checked = 0
    for where, start, events, _after in _demo_rounds():
        root = ElementTree.fromstring(render_round_svg(start, events, RS, lang=lang).encode())
        names = _name_boxes(root)
        assert len(names) == len(RS.area_ids)
        labels = _label_boxes(root)
        for i, (what, box) in enumerate(labels):
            assert bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1] \
                and box[3] <= bounds[3], f"{where}: {what} leaves the map"
            for area, name in names.items():
                assert not _overlap(box, name), f"{where}: {what} covers the name of {area}"
            for other, other_box in labels[i + 1:]:
                assert not _overlap(box, other_box), f"{where}: {what} covers {other}"
            text = what.split(": ", 1)[1]
            assert text_width(text, 11, True) <= box[2] - box[0], f"{where}: {what} is clipped"
            checked += 1
    assert checked > 20


def test_several_battles_in_one_area_are_stacked():
    """Three battles in one sea: three labels, one above another, none covering another."""
    start, events = None, None
    for _where, s, evs, _ in _demo_rounds() + _random_rounds(4):
        areas = Counter(e["area"] for e in evs if e["type"] in ("battle", "neutral_attack"))
        if areas and max(areas.values()) >= 2:
            start, events, area = s, evs, areas.most_common(1)[0][0]
            break
    assert start is not None, "no round with two battles in one area"
    root = ElementTree.fromstring(render_round_svg(start, events, RS).encode())
    stack = [_box(g.find(f"{SVG}rect")) for g in root.iter(f"{SVG}g")
             if g.get("class") == "battle" and g.get("data-area") == area]
    assert len(stack) >= 2
    assert all(b[1] >= a[3] for a, b in itertools.pairwise(stack))
    assert len({(b[0], b[2]) for b in stack}) == 1  # one column


def test_ship_transport_is_drawn_through_the_seas_it_used():
    """R5.4: a march between two lands that are not neighbours goes by sea; its arrow names
    the seas (each holding a ship of the house) and runs through them."""
    found = 0
    for where, start, events, _ in _demo_rounds() + _random_rounds(6):
        svg = render_round_svg(start, events, RS)
        root = ElementTree.fromstring(svg.encode())
        for g in root.iter(f"{SVG}g"):
            if g.get("class") in ("move", "attack") and g.get("data-via"):
                seas = g.get("data-via").split(",")
                origin, dest = g.get("data-from"), g.get("data-to")
                assert dest not in RS.areas[origin].adjacent, where
                chain = [origin, *seas, dest]
                assert all(b in RS.areas[a].adjacent for a, b in itertools.pairwise(chain)), where
                assert all(RS.areas[s].is_sea for s in seas)
                found += 1
    assert found


# --- colour ----------------------------------------------------------------------------------

def test_every_text_of_the_pictures_meets_wcag_aa_contrast():
    """WCAG 2 AA (4.5:1) for every text, measured on what it is drawn on (its halo, or the
    shape under it) — the board after a round, a round as played, in each language."""
    from contrast import contrast, text_grounds

    from agot_adjudicator.render.picture import render_svg

    _where, start, events, after = _demo_rounds()[4]
    checked = 0
    for lang in ("en", "zh-Hans"):
        for svg in (render_svg(after, RS, lang=lang), render_round_svg(start, events, RS, lang=lang)):
            for text, ink, ground in text_grounds(svg):
                assert contrast(ink, ground) >= 4.5, f"{text!r}: {ink} on {ground}"
                checked += 1
    assert checked > 500


def test_house_colours_stay_apart_for_the_common_colour_blindnesses():
    """Every pair of house colours at least 20 ΔE (CIE76) apart with normal vision and under
    simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009)."""
    from contrast import MACHADO, closest_pair

    from agot_adjudicator.render.svg import HOUSE_STYLES, HOUSE_TINTS

    fills = {h: fill for h, (fill, _, _) in HOUSE_STYLES.items()}
    for vision in ("normal", *MACHADO):
        distance, a, b = closest_pair(fills, vision)
        assert distance >= 20, f"{vision}: {a} and {b} look alike ({distance:.1f})"
        distance, a, b = closest_pair(HOUSE_TINTS, vision)
        assert distance >= 4, f"{vision}: the grounds of {a} and {b} look alike ({distance:.1f})"


def test_marks_on_the_map_stand_out_from_their_ground():
    """A controller's badge, a unit, a token: its fill or its outline has 4.5:1 against the
    ground of the area it is drawn in (Stark's light grey mark by its dark outline)."""
    from contrast import contrast

    from agot_adjudicator.render.board_style import LAND_FILL, SEA_FILL
    from agot_adjudicator.render.svg import HOUSE_STYLES, HOUSE_TINTS, OUTLINE

    for house, (fill, _, _) in HOUSE_STYLES.items():
        for ground in (LAND_FILL, SEA_FILL, *HOUSE_TINTS.values()):
            assert max(contrast(fill, ground), contrast(OUTLINE, ground)) >= 4.5, (house, ground)
