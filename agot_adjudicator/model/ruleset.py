"""The ruleset: first-edition component facts loaded into frozen dataclasses and checked.

A ruleset is a folder holding ``ruleset.yaml`` (manifest: houses, order tokens,
limits) and ``board.yaml``, ``house_cards.yaml``, ``westeros.yaml``,
``setup.yaml``, and the names of its ids in ``glossary.yaml`` (:mod:`.glossary`; not part of
the content hash). The package ships ``data/first_edition``; ``--ruleset DIR``
selects another. Broken data is refused at load with :class:`RulesetError`
(exit 5): schema, then integrity (R0, R1, R12)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agot_adjudicator.model.glossary import Glossary

TRACKS = ("iron_throne", "fiefdoms", "kings_court")
"""The three influence tracks, in Clash of Kings bidding order (R3.6)."""
UNIT_TYPES = ("footman", "knight", "ship")
DECKS = ("I", "II", "III")
TRACK_TOKENS = {"iron_throne": "iron_throne", "fiefdoms": "valyrian_steel_blade",
                "kings_court": "messenger_raven"}
"""The special token held by position 1 of each track (R1.4)."""
TRACK_IDS = (*TRACKS, "supply", "wildling_threat", "round")
"""The tracks the glossary names: the three influence tracks (R1.4), supply (R9), the wildling
threat (R0.8) and the round. The first edition has no victory track (castles are counted, R11)."""
TOKEN_IDS = (*TRACK_TOKENS.values(), "power", "neutral_force")
"""The tokens the glossary names: the track leaders' special tokens (R1.4), power tokens (R0.3),
neutral forces (R0.6)."""


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
    rivers: tuple[str, ...] = ()
    """The neighbours across a river without a bridge (R5.11): adjacent, but footmen and
    knights never march or retreat across."""
    bridges: tuple[str, ...] = ()
    """The neighbours across a river at a bridge (R5.11): adjacent for every purpose."""
    shape: tuple[tuple[float, ...], ...] | None = None
    """The area's outline on the map, as rings of ``x, y`` pairs (the first the outside, any
    other a hole); presentation only (``tools/board_geometry.py`` draws it)."""

    @property
    def is_land(self) -> bool:
        return self.kind == "land"

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def march_adjacent(self) -> tuple[str, ...]:
        """The neighbours a unit may march or retreat to directly (R5.3, R5.11): every adjacent
        area but those across a river without a bridge, in id order."""
        return tuple(a for a in self.adjacent if a not in self.rivers)

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
    corrections: tuple[str, ...] = ()
    """Rule corrections this ruleset plays with (manifest ``corrections``; absent = the behaviour
    before them, so old game records replay unchanged). See :data:`CORRECTIONS`."""
    glossary: Glossary | None = field(default=None, compare=False, repr=False)
    """The names of the ruleset's ids in English and Chinese (``glossary.yaml``, or the
    packaged one for a ruleset without it): presentation and intake, not in :attr:`sha256`."""

    @property
    def words(self) -> Glossary:
        """:attr:`glossary`, which every loaded ruleset has (the loader adds the packaged one)."""
        if self.glossary is None:
            raise LookupError(f"ruleset {self.name} was built without a glossary")
        return self.glossary

    @property
    def area_ids(self) -> tuple[str, ...]:
        """All area ids, land first then sea, each alphabetical (the fixed id order)."""
        return tuple(self.areas)

    def deck_wildling(self, deck: str, card: str) -> bool:
        """Whether ``card`` of deck ``deck`` bears the wildling icon."""
        return any(c.card == card and c.wildling for c in self.decks[deck])

    def max_supply_level(self) -> int:
        return len(self.supply_track) - 1

    def named_ids(self) -> dict[str, tuple[str, ...]]:
        """The ids the glossary must name, by kind (:data:`.glossary.KINDS`)."""
        westeros: list[str] = []
        for deck in self.decks.values():
            westeros.extend(c.card for c in deck if c.card not in westeros)
        return {"house": self.houses, "area": tuple(self.areas),
                "order": tuple(self.order_tokens), "unit": UNIT_TYPES,
                "house_card": tuple(self.house_cards), "westeros_card": tuple(westeros),
                "track": TRACK_IDS, "token": TOKEN_IDS}

    def english_names(self) -> dict[str, dict[str, str]]:
        """The ruleset's own English names (areas, house cards), by kind and id: the
        glossary's ``en`` must equal them."""
        return {"area": {a: v.name for a, v in self.areas.items()},
                "house_card": {c: v.name for c, v in self.house_cards.items()}}

    def corrected(self, correction: str) -> bool:
        """Whether the ruleset's manifest lists ``correction`` (one of :data:`CORRECTIONS`)."""
        return correction in self.corrections

    def support_forbidden(self, area_id: str) -> bool:
        """No Support order on an island (R4.1, R6.2, RUL-4.1-2) when the ruleset has that correction."""
        return self.corrected("support_not_on_islands") and self.areas[area_id].island


CORRECTIONS = ("support_not_on_islands", "luwin_full_hand_return", "last_card_when_played",
               "neutral_attack_beside_battle")
"""Manifest ``corrections``: ``support_not_on_islands`` refuses a Support order on Dragonstone,
The Arbor and Pyke (R4.1, R6.2, RUL-4.1-2); ``luwin_full_hand_return`` returns all seven cards
when the card played was the last in hand, even if Maester Luwin took one back during the battle
(R6.12, RUL-6.12-2); ``last_card_when_played`` returns them exactly when the card played was the
last in hand when it was played, and discards it otherwise, whatever a card text did to the hand
since (R6.12, RUL-6.12-3, RUL-6.12-4); ``neutral_attack_beside_battle`` lets one march take a
neutral force's area and also start a battle, since an attack on a neutral force is no battle
(R5.3, R5.7, RUL-5.3-1)."""


LAYOUT_KEYS = ("xy", "size", "shape")
"""Keys of a board area that only place it on the map: not part of the content hash."""


def army_sizes(units: int) -> int:
    """Army size counted for supply (R9.1): a lone unit is not an army.

    >>> army_sizes(1), army_sizes(3)
    (0, 3)
    """
    return units if units >= 2 else 0


def supply_fits(ruleset: Ruleset, level: int, armies: list[int]) -> bool:
    """Whether armies (sizes) fit the allowed sizes of supply ``level`` (R9.2).

    >>> from agot_adjudicator.io.rulesets import load_ruleset
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
    """Every integrity problem of a ruleset (load-time checks, exit 5): the board, the cards
    and decks, the setup."""
    return [*_board_problems(rs), *_card_problems(rs), *_setup_problems(rs)]


def _board_problems(rs: Ruleset) -> list[str]:
    """Adjacency symmetric, areas of a kind, islands, places, rivers (R5.11)."""
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
        for other in (*area.rivers, *area.bridges):
            if other not in rs.areas or other < area.id:
                continue  # a border is checked once, from its first area; unknown ids below
            if not (area.is_land and rs.areas[other].is_land):
                p.append(f"board: rivers: {area.id}–{other} is not a border of two land areas")
            elif other not in area.adjacent:
                p.append(f"board: rivers: {area.id} and {other} are not adjacent; a river is a "
                         "border between adjacent land areas (R5.11)")
            if (area.rivers + area.bridges).count(other) > 1:
                p.append(f"board: rivers: {area.id}–{other} is listed more than once")
        for other in (*area.rivers, *area.bridges):
            if other not in rs.areas:
                p.append(f"board: rivers: {area.id}–{other}: no area '{other}'")
    return p


def _card_problems(rs: Ruleset) -> list[str]:
    """Seven house cards per house (R6.4), one home area each, ten cards a Westeros deck
    (R3.1), fifteen order tokens (R4.1)."""
    p: list[str] = []
    houses = set(rs.houses)
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
        counted = Counter(c.card for c in cards)  # linear: a --ruleset list may be long
        for name in sorted(counted):
            if counted[name] > 1:
                p.append(f"westeros: deck {deck} lists '{name}' more than once")
    tokens = sum(t.count for t in rs.order_tokens.values())
    if tokens != 15:
        p.append(f"ruleset: {tokens} order tokens per house; expected 15")
    return p


def _setup_problems(rs: Ruleset) -> list[str]:
    """Neutral forces, tracks, supply and the houses' starting positions (R1)."""
    p: list[str] = []
    houses = set(rs.houses)
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
