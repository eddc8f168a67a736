"""The ruleset: first-edition component facts loaded into frozen dataclasses and checked.

A ruleset is a folder holding ``ruleset.yaml`` (manifest: houses, order tokens,
limits) and ``board.yaml``, ``house_cards.yaml``, ``westeros.yaml``,
``setup.yaml``. The package ships ``data/first_edition``; ``--ruleset DIR``
selects another. Broken data is refused at load with :class:`RulesetError`
(exit 4): schema, then integrity (R0, R1, R12).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, RulesetError
from agot_adjudicator.files import Document, load_yaml, parse_text, schema_problems

RULESET_FILES = ("ruleset.yaml", "board.yaml", "house_cards.yaml", "westeros.yaml", "setup.yaml")
_PART = {"ruleset.yaml": "manifest", "board.yaml": "board", "house_cards.yaml": "house_cards",
         "westeros.yaml": "westeros", "setup.yaml": "setup"}
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
"""The three influence tracks, in Clash of Kings bidding order (R3.6)."""
UNIT_TYPES = ("footman", "knight", "ship")
DECKS = ("I", "II", "III")
TRACK_TOKENS = {"iron_throne": "iron_throne", "fiefdoms": "valyrian_steel_blade",
                "kings_court": "messenger_raven"}
"""The special token held by position 1 of each track (R1.4)."""


@dataclass(frozen=True)
class Area:
    """A land or sea area of the board."""

    id: str
    name: str
    kind: str
    adjacent: tuple[str, ...]
    supply: int = 0
    power: int = 0
    castle: str | None = None
    home_of: str | None = None
    island: bool = False
    xy: tuple[float, float] | None = None
    """Centre of the area's box on the schematic map (``agot map``); presentation only."""
    size: tuple[float, float] | None = None
    """Width and height of that box, if not the default; presentation only."""

    @property
    def is_land(self) -> bool:
        return self.kind == "land"

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def mustering_points(self) -> int:
        """Mustering points of the castle (R3.5): stronghold 2, city 1, else 0."""
        return {"stronghold": 2, "city": 1}.get(self.castle or "", 0)


@dataclass(frozen=True)
class HouseCard:
    """A house card (R6.4): printed strength, sword and fortification icons, text window."""

    id: str
    house: str
    name: str
    strength: int
    swords: int
    forts: int
    when: str | None = None
    effect: str | None = None


@dataclass(frozen=True)
class OrderToken:
    """An order token type (R0.2)."""

    id: str
    kind: str
    bonus: int
    special: bool
    count: int


@dataclass(frozen=True)
class DeckCard:
    """A Westeros card type in one deck, and whether it bears the wildling icon (R3.1)."""

    card: str
    count: int
    wildling: bool


@dataclass(frozen=True)
class HouseSetup:
    """A house's starting supply level and units (R1.2)."""

    supply: int
    units: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Ruleset:
    """Every component fact the engine needs, immutable."""

    name: str
    title: str
    sha256: str
    houses: tuple[str, ...]
    areas: Mapping[str, Area]
    order_tokens: Mapping[str, OrderToken]
    house_cards: Mapping[str, HouseCard]
    cards_by_house: Mapping[str, tuple[str, ...]]
    decks: Mapping[str, tuple[DeckCard, ...]]
    neutral_forces: Mapping[str, int]
    unit_limits: Mapping[str, int]
    supply_track: tuple[tuple[int, ...], ...]
    kings_court_stars: tuple[int, ...]
    tracks_five_players: Mapping[str, tuple[str, ...]]
    house_setup: Mapping[str, HouseSetup]
    players: Mapping[int, tuple[str, ...]]
    instant_win_castles: Mapping[int, int]
    start_power: int
    start_threat: int
    start_round: int
    power_tokens_per_house: int
    max_power: int
    rounds: int
    threat_step: int
    threat_max: int
    source: str

    @property
    def area_ids(self) -> tuple[str, ...]:
        """All area ids, land first then sea, each alphabetical (the fixed id order)."""
        return tuple(self.areas)

    def area(self, area_id: str) -> Area:
        return self.areas[area_id]

    def is_adjacent(self, a: str, b: str) -> bool:
        return b in self.areas[a].adjacent

    def order(self, order_id: str) -> OrderToken:
        return self.order_tokens[order_id]

    def deck_wildling(self, deck: str, card: str) -> bool:
        """Whether ``card`` of deck ``deck`` bears the wildling icon."""
        return any(c.card == card and c.wildling for c in self.decks[deck])

    def max_supply_level(self) -> int:
        return len(self.supply_track) - 1


def _documents_from_dir(directory: Path) -> dict[str, Document]:
    docs: dict[str, Document] = {}
    problems = []
    for filename in RULESET_FILES:
        path = directory / filename
        try:
            docs[filename] = load_yaml(path, name=str(path))
        except InputError as exc:
            problems.extend(str(p) for p in exc.problems)
    if problems:
        raise RulesetError(problems)
    return docs


COMPILED = "compiled.json"
"""The packaged YAML files parsed once, as JSON (fast to load); kept equal by a test."""


def _documents_from_package(*, compiled: bool = True) -> dict[str, Document]:
    base = resources.files("agot_adjudicator").joinpath("data", "first_edition")
    if compiled:
        data = json.loads(base.joinpath(COMPILED).read_text(encoding="utf-8"))
        return {f: Document(f"<package>/data/first_edition/{f}", data[f], "")
                for f in RULESET_FILES}
    docs = {}
    for filename in RULESET_FILES:
        raw = base.joinpath(filename).read_bytes()
        docs[filename] = parse_text(f"<package>/data/first_edition/{filename}", raw)
    return docs


def compiled_text() -> str:
    """The text of ``compiled.json`` for the packaged YAML files (see ``__main__`` below)."""
    docs = _documents_from_package(compiled=False)
    return json.dumps({f: docs[f].data for f in RULESET_FILES}, indent=1, ensure_ascii=False) + "\n"


def _composite(docs: Mapping[str, Document]) -> Document:
    data = {_PART[f]: d.data for f, d in docs.items()}
    return Document("<ruleset>", data, "")


def _schema_check(docs: Mapping[str, Document]) -> None:
    composite = _composite(docs)
    by_part = {_PART[f]: d for f, d in docs.items()}
    problems = []
    for problem in schema_problems(composite, "ruleset"):
        # $.board.areas.x -> locate in board.yaml at $.areas.x
        rest = problem.path[2:] if problem.path.startswith("$.") else ""
        part = rest.partition(".")[0]
        part = part.split("[", 1)[0]
        doc = by_part.get(part)
        if doc is None:
            problems.append(str(problem))
            continue
        inner_path = "$" + rest[len(part):]
        keys = _parse_path(inner_path)
        located = doc.problem(keys, problem.message, key=problem.message == "unknown key")
        problems.append(str(located))
    if problems:
        raise RulesetError(problems)


def _parse_path(path: str) -> list[str | int]:
    """Parse ``$.a.b[0]`` back into keys (inverse of files.json_path for plain ids)."""
    keys: list[str | int] = []
    for chunk in path[1:].replace("[", ".[").split("."):
        if not chunk:
            continue
        if chunk.startswith("["):
            inner = chunk[1:-1]
            keys.append(int(inner) if inner.isdigit() else json.loads(inner))
        else:
            keys.append(chunk)
    return keys


LAYOUT_KEYS = ("xy", "size")
"""Keys of a board area that only place it on the map: not part of the content hash."""


def _without_layout(part: str, data: Any) -> Any:
    """The data of one ruleset part without the map layout (board areas' ``xy`` and ``size``)."""
    if part != "board" or not isinstance(data, dict) or not isinstance(data.get("areas"), dict):
        return data
    areas = {a: ({k: x for k, x in v.items() if k not in LAYOUT_KEYS} if isinstance(v, dict) else v)
             for a, v in data["areas"].items()}
    return {**data, "areas": areas}


def content_hash(docs: Mapping[str, Document]) -> str:
    """SHA-256 of the ruleset's rules content (canonical JSON).

    Independent of comments and YAML layout, and of the map layout (``xy``,
    ``size``): moving a box on the map does not change which states a ruleset accepts.
    """
    data = {_PART[f]: _without_layout(_PART[f], d.data) for f, d in sorted(docs.items())}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _pair(value: Any) -> tuple[float, float] | None:
    return None if value is None else (value[0], value[1])


def _build(docs: Mapping[str, Document], source: str) -> Ruleset:
    manifest = docs["ruleset.yaml"].data
    board = docs["board.yaml"].data
    cards = docs["house_cards.yaml"].data
    westeros = docs["westeros.yaml"].data
    setup = docs["setup.yaml"].data
    raw_areas: dict[str, Any] = board["areas"]
    land = sorted(a for a, v in raw_areas.items() if v["kind"] == "land")
    sea = sorted(a for a, v in raw_areas.items() if v["kind"] == "sea")
    areas = {}
    for area_id in land + sea:
        v = raw_areas[area_id]
        areas[area_id] = Area(
            id=area_id, name=v["name"], kind=v["kind"], adjacent=tuple(sorted(v["adjacent"])),
            supply=v.get("supply", 0), power=v.get("power", 0), castle=v.get("castle"),
            home_of=v.get("home_of"), island=v.get("island", False),
            xy=_pair(v.get("xy")), size=_pair(v.get("size")),
        )
    house_cards = {}
    cards_by_house = {}
    for house, hand in cards.items():
        ids = []
        for card_id, v in hand.items():
            house_cards[card_id] = HouseCard(card_id, house, v["name"], v["strength"], v["swords"],
                                             v["forts"], v.get("when"), v.get("effect"))
            ids.append(card_id)
        cards_by_house[house] = tuple(ids)
    tracks = setup["tracks_five_players"]
    track_ts = int(max(setup["supply_track"], key=int)) + 1
    supply_track = tuple(tuple(setup["supply_track"].get(str(i), ())) for i in range(track_ts))
    return Ruleset(
        name=manifest["name"],
        title=manifest.get("title", manifest["name"]),
        sha256=content_hash(docs),
        houses=tuple(manifest["houses"]),
        areas=areas,
        order_tokens={k: OrderToken(k, v["kind"], v["bonus"], v["special"], v["count"])
                      for k, v in manifest["order_tokens"].items()},
        house_cards=house_cards,
        cards_by_house=cards_by_house,
        decks={d: tuple(DeckCard(c["card"], c["count"], c["wildling"])
                        for c in westeros["decks"][d]) for d in DECKS},
        neutral_forces=dict(setup["neutral_forces"]),
        unit_limits=dict(setup["unit_limits"]),
        supply_track=supply_track,
        kings_court_stars=tuple(setup["kings_court_stars"]),
        tracks_five_players={t: tuple(tracks[t]) for t in TRACKS},
        house_setup={h: HouseSetup(v["supply"], {a: tuple(u) for a, u in v["units"].items()})
                     for h, v in setup["houses"].items()},
        players={int(k): tuple(v) for k, v in setup["players"].items()},
        instant_win_castles={int(k): v for k, v in setup["instant_win_castles"].items()},
        start_power=setup["start"]["power_each"],
        start_threat=setup["start"]["wildling_threat"],
        start_round=setup["start"]["round"],
        power_tokens_per_house=manifest["power_tokens_per_house"],
        max_power=manifest["max_power"],
        rounds=manifest["rounds"],
        threat_step=manifest["wildling_threat"]["step"],
        threat_max=manifest["wildling_threat"]["max"],
        source=source,
    )


def army_sizes(units: int) -> int:
    """Army size counted for supply (R9.1): a lone unit is not an army.

    >>> army_sizes(1), army_sizes(3)
    (0, 3)
    """
    return units if units >= 2 else 0


def supply_fits(ruleset: Ruleset, level: int, armies: list[int]) -> bool:
    """Whether armies (sizes) fit the allowed sizes of supply ``level`` (R9.2).

    >>> rs = load_ruleset()
    >>> supply_fits(rs, 1, [3, 2]), supply_fits(rs, 1, [3, 3]), supply_fits(rs, 0, [2, 1, 1])
    (True, False, True)
    """
    sizes = sorted((a for a in armies if a >= 2), reverse=True)
    allowed = sorted(ruleset.supply_track[min(level, ruleset.max_supply_level())], reverse=True)
    if len(sizes) > len(allowed):
        return False
    return all(s <= a for s, a in zip(sizes, allowed, strict=False))


def integrity_problems(rs: Ruleset) -> list[str]:
    """Every integrity problem of a ruleset (load-time checks, exit 4)."""
    p: list[str] = []
    houses = set(rs.houses)
    for area in rs.areas.values():
        for other in area.adjacent:
            if other not in rs.areas:
                p.append(f"board: {area.id}: adjacent area '{other}' does not exist")
            elif area.id not in rs.areas[other].adjacent:
                p.append(f"board: adjacency is not symmetric: {area.id} lists {other}, "
                         f"but {other} does not list {area.id}")
            if other == area.id:
                p.append(f"board: {area.id} is adjacent to itself")
        if area.home_of is not None and area.home_of not in houses:
            p.append(f"board: {area.id}: home_of '{area.home_of}' is not a house")
        if area.is_sea and (area.supply or area.power or area.castle or area.home_of or area.island):
            p.append(f"board: {area.id}: a sea area has no supply, power, castle, home or island")
        land_neighbours = [a for a in area.adjacent if a in rs.areas and rs.areas[a].is_land]
        if area.is_land and area.island and land_neighbours:
            p.append(f"board: island {area.id} has land neighbours: {', '.join(land_neighbours)}")
        if area.is_land and not area.island and not land_neighbours:
            p.append(f"board: {area.id} has no land neighbours but is not marked island: true")
        if area.xy is None:
            p.append(f"board: {area.id} has no xy (its place on the map)")
    for house in rs.houses:
        if list(rs.cards_by_house.get(house, ())) == [] or len(rs.cards_by_house[house]) != 7:
            n = len(rs.cards_by_house.get(house, ()))
            p.append(f"house_cards: {house} has {n} cards; expected 7")
        strengths = sorted((rs.house_cards[c].strength for c in rs.cards_by_house.get(house, ())),
                           reverse=True)
        if len(strengths) == 7 and strengths != [3, 2, 2, 1, 1, 0, 0]:
            p.append(f"house_cards: {house} strengths are {strengths}; expected [3, 2, 2, 1, 1, 0, 0]")
        homes = [a.id for a in rs.areas.values() if a.home_of == house]
        if len(homes) != 1:
            p.append(f"board: {house} has {len(homes)} home areas; expected 1")
    for house in rs.cards_by_house:
        if house not in houses:
            p.append(f"house_cards: '{house}' is not a house")
    for deck, cards in rs.decks.items():
        total = sum(c.count for c in cards)
        if total != 10:
            p.append(f"westeros: deck {deck} has {total} cards; expected 10")
        names = [c.card for c in cards]
        for name in sorted(set(names)):
            if names.count(name) > 1:
                p.append(f"westeros: deck {deck} lists '{name}' more than once")
    tokens = sum(t.count for t in rs.order_tokens.values())
    if tokens != 15:
        p.append(f"ruleset: {tokens} order tokens per house; expected 15")
    for area_id in rs.neutral_forces:
        if area_id not in rs.areas:
            p.append(f"setup: neutral force in unknown area '{area_id}'")
        elif not rs.areas[area_id].is_land:
            p.append(f"setup: neutral force in sea area '{area_id}'")
    for track, order in rs.tracks_five_players.items():
        if sorted(order) != sorted(rs.houses):
            p.append(f"setup: tracks_five_players.{track} is not a permutation of the houses")
    if len(rs.kings_court_stars) != len(rs.houses):
        p.append("setup: kings_court_stars needs one entry per track position")
    levels = len(rs.supply_track)
    if levels < 2 or any(not sizes for sizes in rs.supply_track):
        p.append("setup: supply_track must list levels 0, 1, 2, ... without gaps")
    for n, playing in rs.players.items():
        if len(playing) != n:
            p.append(f"setup: players.{n} lists {len(playing)} houses")
        for house in playing:
            if house not in houses:
                p.append(f"setup: players.{n}: '{house}' is not a house")
        if n not in rs.instant_win_castles:
            p.append(f"setup: instant_win_castles has no entry for {n} players")
    for house in rs.houses:
        if house not in rs.house_setup:
            p.append(f"setup: no starting position for {house}")
    for house, hs in rs.house_setup.items():
        if house not in houses:
            p.append(f"setup: '{house}' is not a house")
            continue
        controlled = {a.id for a in rs.areas.values() if a.home_of == house}
        for area_id, units in hs.units.items():
            if area_id not in rs.areas:
                p.append(f"setup: {house}: unknown area '{area_id}'")
                continue
            area = rs.areas[area_id]
            for unit in units:
                if (unit == "ship") != area.is_sea:
                    p.append(f"setup: {house}: a {unit} cannot stand in {area.kind} area {area_id}")
            if area.is_land:
                controlled.add(area_id)
            if area_id in rs.neutral_forces:
                p.append(f"setup: {house}: units in {area_id}, which holds a neutral force")
        barrels = sum(rs.areas[a].supply for a in sorted(controlled))
        if barrels != hs.supply:
            p.append(f"setup: {house} starts at supply {hs.supply} but controls {barrels} barrels")
        armies = [len(u) for u in hs.units.values()]
        if hs.supply < levels and not supply_fits(rs, hs.supply, armies):
            p.append(f"setup: {house}'s starting armies do not fit supply level {hs.supply}")
        for unit in UNIT_TYPES:
            count = sum(u.count(unit) for u in hs.units.values())
            if count > rs.unit_limits[unit]:
                p.append(f"setup: {house} starts with {count} {unit}s; the limit is "
                         f"{rs.unit_limits[unit]}")
    return p


@cache
def _load_cached(directory: str | None) -> Ruleset:
    if directory is None:
        # The packaged data is schema-checked by tests (tests/test_ruleset_packaged.py);
        # the integrity checks below still run at every load.
        docs = _documents_from_package()
        source = "<package>/data/first_edition"
    else:
        docs = _documents_from_dir(Path(directory))
        source = directory
        _schema_check(docs)
    ruleset = _build(docs, source)
    problems = integrity_problems(ruleset)
    if problems:
        raise RulesetError([f"{source}: {msg}" for msg in problems])
    return ruleset


def load_ruleset(path: str | None = None) -> Ruleset:
    """Load and check a ruleset: the packaged first edition, or a folder / its ``ruleset.yaml``.

    Raises :class:`RulesetError` (exit 4) on broken data.

    >>> rs = load_ruleset()
    >>> len([a for a in rs.areas.values() if a.is_land]), len(rs.house_cards)
    (34, 35)
    """
    if path is None:
        return _load_cached(None)
    p = Path(path)
    if p.is_file():
        p = p.parent
    if not p.is_dir():
        raise RulesetError([f"{path}: no such ruleset folder"])
    return _load_cached(str(p))


def export_ruleset(directory: str | Path) -> list[Path]:
    """Copy the packaged ruleset files into ``directory``; return the paths written."""
    base = resources.files("agot_adjudicator").joinpath("data", "first_edition")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for filename in RULESET_FILES:
        target = out / filename
        target.write_bytes(base.joinpath(filename).read_bytes())
        written.append(target)
    return written


if __name__ == "__main__":  # pragma: no cover - maintenance: python -m agot_adjudicator.ruleset
    target = Path(__file__).parent / "data" / "first_edition" / COMPILED
    target.write_text(compiled_text(), encoding="utf-8")
    print(f"wrote {target}")
