"""The round as played, read from its public event log (``log.jsonl``): what the round picture
draws (:func:`agot_adjudicator.render.picture.render_round_svg`) and the site's round summary
says.

:func:`round_play` reads the events: the Westeros cards revealed and their restriction (R3.1,
R3.9), the bids (R7, R8), the wildlings' attack (R8.2), musters (R3.5), units lost to supply
(R3.4) or to the wildlings (R8.4), the orders as revealed (R4.5, after the Messenger Raven,
R4.6), marches (R5.3, with ship transport R5.4), attacks on neutral forces (R5.7), raids
(R5.2), battles (R6), retreats (R6.8, R6.9) and units destroyed (R6.7, R5.8).
:func:`battle_board` is the board the battles were fought on: the round's starting state with
the Westeros phase's musters and losses applied and the orders as revealed. Public information
only: the log is the public record.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import AreaState, GameState, sort_units
from agot_adjudicator.render.geometry import Box, MapLayout, Point, grow, place_box
from agot_adjudicator.render.language import house as house_name
from agot_adjudicator.render.language import tr
from agot_adjudicator.render.svg import (
    LABEL_HEIGHT,
    _attrs,
    _el,
    _n,
    arrow,
    house_letter,
    label_box,
    label_width,
    order_label,
    units_text,
)

Outcome = tuple[str, Any, str]
"""An attack's outcome: ("wins", winner, score), ("taken", None, "") or ("holds", strength, "")."""


@dataclass
class RoundPlay:
    """What a round's event log says happened on the board, in event order."""

    round: int
    orders: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Area → (house, order) as revealed, after the Raven's swap."""
    moves: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    """(house, origin, destination, units) of each march that moved units without a battle."""
    attacks: list[tuple[str, str, str, Outcome]] = field(default_factory=list)
    """(house, origin, area, outcome) of each battle and attack on a neutral force; the outcome
    as data, said by :func:`outcome_text`."""
    fights: list[dict[str, Any]] = field(default_factory=list)
    """The ``battle`` and ``neutral_attack`` events, in order (one per entry of ``attacks``)."""
    raids: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    """(house, area, target, order removed) of each raid that removed an order."""
    retreats: list[tuple[str, str, str]] = field(default_factory=list)
    """(house, embattled area, destination) of each retreat with survivors."""
    destroyed: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    """Area → [(house, units)] destroyed there in the action phase (battles, R6.7; retreats and
    failed attacks over the supply limit, R5.8, R6.9)."""
    westeros_losses: dict[str, list[tuple[str, list[str], str]]] = field(default_factory=dict)
    """Area → [(house, units, cause)] destroyed in the Westeros phase: ``wildlings`` (R8.4) or
    ``supply`` (R3.4)."""
    musters: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(house, castle, unit or ``upgrade``, area) of each unit mustered (R3.5)."""
    cards: list[tuple[str, str, bool]] = field(default_factory=list)
    """(deck, card, wildling icon) of each Westeros card revealed (R3.1)."""
    restrictions: list[str] = field(default_factory=list)
    """The Westeros cards restricting orders this round (R3.9)."""
    bids: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    """(what, house → bid) of each bidding revealed (R7.1, R8.1)."""
    wildlings: dict[str, Any] | None = None
    """The wildlings' attack (R8.2): strength, threat, winner."""
    events: list[Mapping[str, Any]] = field(default_factory=list)
    """Every event read, in order."""


def round_play(events: Sequence[Mapping[str, Any]], round_number: int) -> RoundPlay:
    """Read a round's events (``log.jsonl``) into what the round picture draws."""
    play = RoundPlay(round_number, events=list(events))

    def lost(into: dict, house: str, area: str, units: Sequence[str], *cause: str) -> None:
        if not units:
            return
        entries = into.setdefault(area, [])
        for i, entry in enumerate(entries):
            if entry[0] == house and tuple(entry[2:]) == cause:
                entries[i] = (house, sort_units([*entry[1], *units]), *cause)
                return
        entries.append((house, sort_units(list(units)), *cause))

    for e in events:
        kind = e.get("type")
        if kind == "orders_revealed":
            for h, placed in e["orders"].items():
                for area, order in placed.items():
                    play.orders[area] = (h, order)
        elif kind == "raven_swap" and e["area"] in play.orders:
            play.orders[e["area"]] = (play.orders[e["area"]][0], e["new"])
        elif kind == "move":
            play.moves.append((e["house"], e["origin"], e["to"], list(e["units"])))
        elif kind == "battle":
            totals = e.get("totals") or {}
            score = "–".join(str(totals[h]) for h in (e["winner"], e["loser"]) if h in totals)
            play.attacks.append((e["attacker"], e["origin"], e["area"],
                                 ("wins", e["winner"], score)))
            play.fights.append(dict(e))
        elif kind == "neutral_attack":
            play.attacks.append((e["house"], e["origin"], e["area"],
                                 ("taken", None, "") if e["won"] else ("holds", e["neutral"], "")))
            play.fights.append(dict(e))
        elif kind == "raid" and e.get("target"):
            play.raids.append((e["house"], e["area"], e["target"], e.get("removed")))
        elif kind == "retreat":
            if e.get("to"):
                play.retreats.append((e["house"], e["area"], e["to"]))
            lost(play.destroyed, e["house"], e["area"], e.get("destroyed") or [])
        elif kind == "casualties":
            lost(play.destroyed, e["house"], e["area"], e["units"])
        elif kind == "unit_destroyed" and e.get("phase") == "westeros":
            lost(play.westeros_losses, e["house"], e["area"], e.get("units") or [e["unit"]],
                 str(e.get("cause", "supply")))
        elif kind == "unit_destroyed":
            # routed defenders destroyed in the embattled area (R6.9) and units lost on the way
            # back (R5.8, R6.9); the retreat event names the latter too
            if e.get("reason") not in ("no legal retreat", "supply limit on retreat"):
                lost(play.destroyed, e["house"], e["area"], e.get("units") or [e["unit"]])
        elif kind == "mustered":
            play.musters.append((e["house"], e["castle"], e["unit"], e["area"]))
        elif kind == "westeros_card_revealed":
            play.cards.append((e["deck"], e["card"], bool(e.get("wildling"))))
        elif kind == "restriction":
            play.restrictions.append(e["card"])
        elif kind == "bids_revealed":
            play.bids.append((e["about"], dict(e["bids"])))
        elif kind == "nights_watch":
            play.wildlings = {"strength": e["strength"], "threat": e["threat"],
                              "winner": e["winner"]}
    return play


def battle_board(state: GameState, play: RoundPlay, ruleset: Ruleset) -> GameState:
    """The board the round's battles were fought on: ``state`` (the round's start) with the
    Westeros phase's musters (R3.5) and losses (R3.4, R8.4) applied, its restrictions (R3.9)
    and the orders as revealed (R4.5, R4.6). ``state`` is not changed: the board read from it
    has areas of its own and shares the rest (a picture only reads it)."""
    shown = replace(state, areas=dict(state.areas))
    for e in play.events:
        if e.get("phase") != "westeros":
            continue
        kind = e.get("type")
        if kind == "mustered" and e["area"] in ruleset.areas:
            here = shown.areas.get(e["area"]) or AreaState()
            units = list(here.units)
            if e["unit"] == "upgrade":
                if "footman" in units:
                    units.remove("footman")
                units.append("knight")
            else:
                units.append(e["unit"])
            shown.areas[e["area"]] = replace(here, house=e["house"], units=sort_units(units))
        elif kind == "unit_destroyed" and e["area"] in shown.areas:
            here = shown.areas[e["area"]]
            units = list(here.units)
            for unit in e.get("units") or [e["unit"]]:
                if unit in units:
                    units.remove(unit)
            shown.areas[e["area"]] = replace(here, units=units,
                                             house=here.house if units else None)
    if play.restrictions:
        shown.restrictions = list(play.restrictions)
    for area_id in ruleset.area_ids:
        shown_here = shown.areas.get(area_id)
        if shown_here is not None and shown_here.order is not None:
            shown.areas[area_id] = replace(shown_here, order=None)
    for area_id, (owner, order) in play.orders.items():
        if area_id not in ruleset.areas or ruleset.order_tokens.get(order) is None:
            continue
        here = shown.areas.get(area_id) or AreaState()
        if here.house in (None, owner):
            shown.areas[area_id] = replace(here, house=owner, order=order)
    return shown


def transport_seas(ships: Mapping[str, str], ruleset: Ruleset, house: str, origin: str,
                   dest: str) -> list[str]:
    """The seas a march from land ``origin`` to land ``dest`` went through (R5.4): the shortest
    chain of seas each holding a ship of ``house`` (``ships``: sea → the house whose ships are
    there), the first in the ruleset's area order among equals; [] if the two are neighbours or
    no chain is found (then any chain of seas, so that the arrow stays on water)."""
    areas = ruleset.areas
    if dest in areas[origin].adjacent or origin == dest:
        return []
    for own_ships_only in (True, False):
        def usable(sea: str, own: bool = own_ships_only) -> bool:
            return areas[sea].is_sea and (not own or ships.get(sea) == house)

        starts = [a for a in ruleset.area_ids if a in areas[origin].adjacent and usable(a)]
        previous: dict[str, str | None] = {s: None for s in starts}
        queue = list(starts)
        while queue:
            sea = queue.pop(0)
            if dest in areas[sea].adjacent:
                chain = [sea]
                while previous[chain[-1]] is not None:
                    chain.append(str(previous[chain[-1]]))
                return chain[::-1]
            for nxt in ruleset.area_ids:
                if nxt in areas[sea].adjacent and nxt not in previous and usable(nxt):
                    previous[nxt] = sea
                    queue.append(nxt)
    return []


def ships_over_time(board: GameState, play: RoundPlay, ruleset: Ruleset
                    ) -> list[dict[str, str]]:
    """For each march of ``play.moves`` and attack of ``play.attacks`` in event order, the seas
    holding ships at that moment (sea → house): ``board`` (:func:`battle_board`) with the
    round's earlier ship moves, sea battles and losses applied."""
    seas: dict[str, Counter[str]] = {}
    owner: dict[str, str] = {}
    for area_id in ruleset.area_ids:
        here = board.areas.get(area_id)
        if ruleset.areas[area_id].is_sea and here is not None and here.house and \
                "ship" in here.units:
            seas[area_id] = Counter({"ship": here.units.count("ship")})
            owner[area_id] = here.house

    def take(area: str, house: str, count: int) -> None:
        if area in seas and owner.get(area) == house:
            seas[area]["ship"] -= count
            if seas[area]["ship"] <= 0:
                del seas[area], owner[area]

    def add(area: str, house: str, count: int) -> None:
        if count and ruleset.areas.get(area) is not None and ruleset.areas[area].is_sea:
            if owner.get(area) != house:
                seas[area], owner[area] = Counter(), house
            seas[area]["ship"] += count

    snapshots: list[dict[str, str]] = []
    army, attacker = 0, None
    for e in play.events:
        kind = e.get("type")
        if kind in ("move", "battle", "neutral_attack"):
            snapshots.append(dict(owner))
        if kind == "move":
            ships = list(e["units"]).count("ship")
            take(e["origin"], e["house"], ships)
            add(e["to"], e["house"], ships)
        elif kind == "battle":
            attacking = (e.get("sides", {}).get("attacker", {}).get("units") or {}).get("ship")
            army = int(attacking.get("count", 0)) if attacking else 0
            attacker = e["attacker"]
            take(e["origin"], attacker, army)
        elif kind == "casualties" and e["house"] == attacker:
            army -= list(e.get("units") or []).count("ship")
        elif kind == "casualties" or (kind == "unit_destroyed" and e.get("phase") == "action"):
            take(e["area"], e["house"], list(e.get("units") or [e.get("unit")]).count("ship"))
        elif kind == "retreat":
            if e.get("rule") == "R6.9" and owner.get(e["area"]) == e["house"]:
                del seas[e["area"]], owner[e["area"]]  # the beaten defender leaves the sea
            if e.get("to"):
                add(e["to"], e["house"], list(e.get("units") or []).count("ship"))
        elif kind == "area_occupied":  # the winner's army moves in (R6.11)
            seas.pop(e["area"], None)
            owner.pop(e["area"], None)
            add(e["area"], e["house"], army)
    return snapshots


def outcome_text(said: Outcome) -> str:
    """An attack's outcome (:attr:`RoundPlay.attacks`) in the current language: ``Stark wins
    3–2``, ``taken``, ``neutral 5 holds``."""
    what, who, score = said
    if what == "wins":
        return tr("{winner} wins {score}", winner=house_name(who), score=score).strip()
    if what == "taken":
        return tr("taken")
    return tr("neutral {strength} holds", strength=who)


def cause_text(cause: str) -> str:
    """Why units were lost in the Westeros phase, in the current language."""
    return tr("wildlings") if cause == "wildlings" else tr("supply")


BATTLE_INK = "#a00000"
RAID_INK = "#5a2d82"
WILDLING_INK = "#1f4e79"


# --- drawing the round over the board -------------------------------------------------------------

def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class _Router:
    """Arrow paths between areas: from inside the origin, across the shared border (and the
    seas of a ship transport), to inside the destination; arrows between the same two areas
    side-stepped."""

    def __init__(self, layout: MapLayout, slots: Mapping[str, Any], ruleset: Ruleset) -> None:
        self.layout, self.slots, self.ruleset = layout, slots, ruleset
        self.pairs: Counter[tuple[str, str]] = Counter()

    def anchor(self, area: str) -> Point:
        block = self.slots[area].block
        return ((block[0] + block[2]) / 2, (block[1] + block[3]) / 2)

    def route(self, origin: str, dest: str, via: Sequence[str] = ()) -> list[Point]:
        hops = [origin, *via, dest]
        start, end = self.anchor(origin), self.anchor(dest)
        crossings: list[Point] = []
        for a, b in itertools.pairwise(hops):
            aim = _lerp(self.anchor(a) if not crossings else crossings[-1], self.anchor(b), 0.5)
            point = self.layout.crossing(a, b, aim)
            if point is None:
                crossings = []
                break
            crossings.append(point)
        if not crossings:  # a map of boxes: from inside one box to just inside the other
            points = [_lerp(start, end, 0.3), _lerp(start, end, 0.78)]
        else:
            inside = self.layout.inside_point
            points = [inside(origin, _toward(crossings[0], start, 0.6, 110.0), 6.0)]
            for i, point in enumerate(crossings):
                if i:  # through the sea between two crossings
                    points.append(inside(hops[i], _lerp(crossings[i - 1], point, 0.5)))
                points.append(point)
            points.append(inside(dest, _toward(crossings[-1], end, 0.55, 110.0), 6.0))
        key = (origin, dest) if origin < dest else (dest, origin)
        self.pairs[key] += 1
        step = (self.pairs[key] - 1) * 9.0 * (1 if origin < dest else -1)
        if step:
            (x1, y1), (x2, y2) = points[0], points[-1]
            length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
            nx, ny = -(y2 - y1) / length * step, (x2 - x1) / length * step
            points = [(x + nx, y + ny) for x, y in points]
            if self.layout.shaped:  # the ends stay inside their areas
                points[0] = self.layout.inside_point(origin, points[0], 6.0)
                points[-1] = self.layout.inside_point(dest, points[-1], 6.0)
        return points


def _toward(a: Point, b: Point, share: float, most: float) -> Point:
    """The point ``share`` of the way from ``a`` to ``b``, at most ``most`` away from ``a``."""
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    if length == 0:
        return a
    return _lerp(a, b, min(share, most / length))


NOTE = tuple[str, str, list[tuple[str, list[tuple[str, object]]]], str, Point]
"""A label to place: its kind, area, lines (text, attributes), ink and where it wants to be."""


def overlay(play: RoundPlay, board: GameState, ruleset: Ruleset, layout: MapLayout,
            slots: Mapping[str, Any]) -> tuple[str, str]:
    """The round drawn over its board: the arrows (drawn under the areas' names), and one label
    per battle and for each loss (drawn on top), placed where no area's name is covered."""
    router = _Router(layout, slots, ruleset)
    arrows, raid_notes = _arrows(play, board, ruleset, router)
    notes = _notes(play, ruleset, router, raid_notes)
    names = [s.name_box for s in slots.values()]
    soft = [s.stuff_box for s in slots.values()]
    placed: list[Box] = []
    bounds = (layout.bounds[0] + 2, layout.bounds[1] + 2, layout.bounds[2] - 2,
              layout.bounds[3] - 2)
    drawn: list[str] = []
    leaders: list[str] = []
    for what, area, lines, colour, near in notes:
        width = max(label_width(text) for text, _ in lines)
        height = LABEL_HEIGHT * len(lines) + 2 * (len(lines) - 1)
        if what == "battle":
            block = slots[area].block
            near = ((block[0] + block[2]) / 2, slots[area].name_box[3] + height / 2 + 4)
        elif what in ("destroyed", "loss"):
            block = slots[area].block
            near = ((block[0] + block[2]) / 2, block[3] + height / 2 - 2)
        box = place_box(width, height, near, [*names, *placed], bounds, avoid=soft,
                        region=layout, area=area)
        placed.append(grow(box, 2))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not layout.contains(area, (cx, cy)) and what != "raid":
            ax, ay = router.anchor(area)
            leaders.append(_el("path", [("d", f"M{_n(cx)} {_n(cy)}L{_n(ax)} {_n(ay)}"),
                                        ("stroke", colour), ("stroke-width", 1.4),
                                        ("stroke-dasharray", "3 2"), ("fill", "none")]))
        for i, (text, attrs) in enumerate(lines):
            top = box[1] + i * (LABEL_HEIGHT + 2)
            drawn.append(f"<g{_attrs(attrs)}>"
                         + label_box((box[0], top, box[2], top + LABEL_HEIGHT), text, colour)
                         + "</g>")
    return (f"<g id=\"round-play\" data-round=\"{play.round}\">" + "".join(arrows)
            + "".join(leaders) + "</g>",
            f"<g id=\"round-labels\" data-round=\"{play.round}\">" + "".join(drawn) + "</g>")


def _arrows(play: RoundPlay, board: GameState, ruleset: Ruleset,
            router: _Router) -> tuple[list[str], list[tuple[str, Point, str]]]:
    """The round's moves, attacks (ship transport through the seas it used, R5.4), retreats
    and raids as arrows, and where each raid's note goes."""
    known = ruleset.areas
    ships = iter(ships_over_time(board, play, ruleset))
    arrows: list[str] = []
    fights = iter(play.fights)
    raid_notes: list[tuple[str, Point, str]] = []
    for e in play.events:
        kind = e.get("type")
        if kind == "move":
            seen = next(ships)
            house, origin, dest = e["house"], e["origin"], e["to"]
            if origin in known and dest in known:
                via = transport_seas(seen, ruleset, house, origin, dest) if (
                    known[origin].is_land and known[dest].is_land) else []
                arrows.append(arrow(router.route(origin, dest, via), house, attrs=[
                    ("class", "move"), ("data-house", house), ("data-from", origin),
                    ("data-to", dest), ("data-units", ",".join(e["units"])),
                    ("data-via", ",".join(via) or None)]))
        elif kind in ("battle", "neutral_attack"):
            seen = next(ships)
            next(fights)
            house = e["attacker"] if kind == "battle" else e["house"]
            origin, dest = e["origin"], e["area"]
            if origin in known and dest in known:
                via = transport_seas(seen, ruleset, house, origin, dest) if (
                    known[origin].is_land and known[dest].is_land) else []
                units = []
                if kind == "battle":
                    for unit, side in (e.get("sides", {}).get("attacker", {}).get("units")
                                       or {}).items():
                        units += [unit] * int(side.get("count", 0))
                arrows.append(arrow(router.route(origin, dest, via), house, attrs=[
                    ("class", "attack"), ("data-house", house), ("data-from", origin),
                    ("data-to", dest), ("data-units", ",".join(sort_units(units)) or None),
                    ("data-via", ",".join(via) or None)]))
        elif kind == "retreat" and e.get("to") and e["area"] in known and e["to"] in known:
            arrows.append(arrow(router.route(e["area"], e["to"]), e["house"], retreat=True,
                                attrs=[("class", "retreat"), ("data-house", e["house"]),
                                       ("data-from", e["area"]), ("data-to", e["to"]),
                                       ("data-units", ",".join(e.get("units") or []) or None)]))
        elif kind == "raid" and e.get("target") and e["area"] in known and e["target"] in known:
            points = router.route(e["area"], e["target"])
            arrows.append(arrow(points, e["house"], dash="2 4", width=2.5, attrs=[
                ("class", "raid"), ("data-house", e["house"]), ("data-from", e["area"]),
                ("data-to", e["target"]), ("data-removed", e.get("removed"))]))
            removed = e.get("removed")
            note = (tr("raid ✕ {order}", order=order_label(ruleset, removed))
                    if isinstance(removed, str) and removed in ruleset.order_tokens
                    else tr("raid"))
            raid_notes.append((e["target"], points[len(points) // 2], note))
    return arrows, raid_notes


def _notes(play: RoundPlay, ruleset: Ruleset, router: _Router,
           raid_notes: Sequence[tuple[str, Point, str]]) -> list[NOTE]:
    """The labels to place: one per battle (R6), the Westeros phase's losses (R8.4, R3.4),
    the units destroyed and the raids' notes (R5.2)."""
    notes: list[NOTE] = []
    by_area: dict[str, list[tuple[str, Outcome]]] = {}
    for (house, _origin, area, said), _fight in zip(play.attacks, play.fights, strict=True):
        by_area.setdefault(area, []).append((house, said))
    for area in [a for a in ruleset.area_ids if a in by_area]:
        lines: list[tuple[str, list[tuple[str, object]]]] = [
            ("⚔ " + outcome_text(said), [("class", "battle"), ("data-area", area),
                                               ("data-attacker", house)])
                 for house, said in by_area[area]]
        notes.append(("battle", area, lines, BATTLE_INK, router.anchor(area)))
    for area in [a for a in ruleset.area_ids if a in play.westeros_losses]:
        for cause in ("wildlings", "supply"):
            entries = [(h, u) for h, u, c in play.westeros_losses[area] if c == cause]
            if entries:
                listed = tr("; ").join(f"{house_letter(h)} {units_text(u)}" for h, u in entries)
                text = (tr("✕ wildlings: {units}", units=listed) if cause == "wildlings"
                        else tr("✕ supply: {units}", units=listed))
                notes.append(("loss", area, [(text, [("class", "westeros-loss"),
                                                     ("data-area", area),
                                                     ("data-cause", cause)])],
                              WILDLING_INK, router.anchor(area)))
    for area in [a for a in ruleset.area_ids if a in play.destroyed]:
        text = "✕ " + tr("; ").join(f"{house_letter(h)} {units_text(u)}"
                                    for h, u in play.destroyed[area])
        notes.append(("destroyed", area, [(text, [("class", "destroyed"), ("data-area", area)])],
                      BATTLE_INK, router.anchor(area)))
    for target, at, note in raid_notes:
        notes.append(("raid", target, [(note, [("class", "raid-note"), ("data-area", target)])],
                      RAID_INK, at))
    return notes
