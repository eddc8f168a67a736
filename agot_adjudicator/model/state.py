"""The game state (``format: agot-state/3``) as dataclasses, and its (de)serialisation.

The state is the moderator's file at a phase boundary (docs/protocol.md P4). The
engine works on a deep copy (:meth:`GameState.copy`) and never on its input.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.model.ruleset import DECKS, TRACKS, UNIT_TYPES, Ruleset
from agot_adjudicator.model.text import N_, Msg

STATE_VERSION = 3
STATE_FORMAT = f"agot-state/{STATE_VERSION}"
PHASES = ("westeros", "planning", "action", "ended")

WINNER_REASONS: Mapping[str, str] = {
    "most_castles": N_("most areas with a castle ({castles}) after round {round} (R11.1)"),
    "by_supply": N_("tie on castles broken by supply (R11.1)"),
    "by_power": N_("tie on castles and supply broken by power (R11.1)"),
    "shared": N_("tie on castles, supply and power: a shared win (R11.1)"),
    "instant_win": N_("controls {castles} areas with a castle (R11.2)"),
}
"""Why the game was won (R11): the codes a state records as ``winner.reason`` (agot-state/3),
each with the sentence that says it; its fields are the winner's ``castles`` (of the first
winner) and ``round``. States of earlier versions recorded the sentence itself (in English)."""


def winner_reason(winner: Mapping[str, Any]) -> Msg:
    """The sentence of a recorded winner's reason: its code's sentence, with the castles of
    its first house and the round (R11.1, R11.2).

    >>> winner_reason({"houses": ["stark"], "reason": "instant_win", "round": 6,
    ...                "castles": {"stark": 7}})
    'controls 7 areas with a castle (R11.2)'
    """
    houses = winner.get("houses") or [None]
    castles = (winner.get("castles") or {}).get(houses[0])
    return Msg(WINNER_REASONS[winner["reason"]], castles=castles, round=winner.get("round"))


def winner_as_written(winner: Mapping[str, Any], version: int) -> dict[str, Any]:
    """``winner`` in the layout of state format ``version``: up to version 2 the reason was its
    English sentence and an instant win recorded no castles (replay writes a record of those
    versions as they were written)."""
    out = copy.deepcopy(dict(winner))
    if version < 3 and out.get("reason") in WINNER_REASONS:
        out["reason"] = str(winner_reason(winner))
        if winner["reason"] == "instant_win":
            out.pop("castles", None)
    return out


@dataclass(frozen=True)
class Restriction:
    """A Westeros card whose effect lasts for the round (R3.9–R3.12)."""

    rule: str
    forbids: str | None
    """The order kind that may not be placed this round (R4.4), or None."""
    text: str
    """The effect in a few words, for players."""


RESTRICTIONS: dict[str, Restriction] = {
    "sea_of_storms": Restriction("R3.9", "raid", "no Raid orders (R3.9)"),
    "storm_of_swords": Restriction("R3.10", "defense", "no Defense orders (R3.10)"),
    "feast_for_crows": Restriction("R3.11", "consolidate_power",
                                   "no Consolidate Power orders (R3.11)"),
    "rains_of_autumn": Restriction("R3.12", None, "supporting footmen add no strength (R3.12)"),
}
"""The restriction cards, the one place that defines them (R3.9–R3.12)."""


def sort_units(units: list[str]) -> list[str]:
    """Units in the canonical order footman, knight, ship.

    >>> sort_units(["ship", "knight", "footman", "knight"])
    ['footman', 'knight', 'knight', 'ship']
    """
    return sorted(units, key=UNIT_TYPES.index)


def without(units: list[str], removed: list[str]) -> list[str] | None:
    """``units`` minus ``removed`` as multisets, or None if ``removed`` is not among them.

    >>> without(["footman", "footman", "knight"], ["footman"])
    ['footman', 'knight']
    >>> without(["footman"], ["knight"]) is None
    True
    """
    rest = list(units)
    for unit in removed:
        if unit not in rest:
            return None
        rest.remove(unit)
    return rest


@dataclass
class NeutralForce:
    """A neutral force token (R0.6), or the units of a house not in play (R12.2)."""

    strength: int
    house: str | None = None
    units: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"strength": self.strength}
        if self.house is not None:
            out["house"] = self.house
            out["units"] = sort_units(self.units)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NeutralForce:
        return cls(data["strength"], data.get("house"), list(data.get("units", [])))


@dataclass
class AreaState:
    """What stands in one area: one house's units (some routed), its order, a power token."""

    house: str | None = None
    units: list[str] = field(default_factory=list)
    routed: list[str] = field(default_factory=list)
    order: str | None = None
    power_token: str | None = None
    neutral_force: NeutralForce | None = None

    def is_empty(self) -> bool:
        return (not self.units and self.order is None and self.power_token is None
                and self.neutral_force is None)

    def standing(self) -> list[str]:
        """Units that are not routed."""
        return without(self.units, self.routed) or []

    def tidy(self) -> None:
        """An area without units belongs to no house and holds no routed units."""
        if not self.units:
            self.house = None
            self.routed = []

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.units:
            out["house"] = self.house
            out["units"] = sort_units(self.units)
            if self.routed:
                out["routed"] = sort_units(self.routed)
        if self.order is not None:
            out["order"] = self.order
        if self.power_token is not None:
            out["power_token"] = self.power_token
        if self.neutral_force is not None:
            out["neutral_force"] = self.neutral_force.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AreaState:
        neutral = data.get("neutral_force")
        return cls(
            house=data.get("house"),
            units=list(data.get("units", [])),
            routed=list(data.get("routed", [])),
            order=data.get("order"),
            power_token=data.get("power_token"),
            neutral_force=NeutralForce.from_dict(neutral) if neutral is not None else None,
        )


class _NothingHere(AreaState):
    """What :meth:`GameState.area` returns where nothing is stored: empty and read-only, so a
    change made through it fails loudly instead of being lost."""

    def __init__(self) -> None:
        for name, value in (("house", None), ("units", ()), ("routed", ()), ("order", None),
                            ("power_token", None), ("neutral_force", None)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("an empty area is read-only: change areas with GameState.edit()")


NOTHING_HERE: AreaState = _NothingHere()


@dataclass
class HouseState:
    """A house in play: available power, supply level, hand and discards (R0, R10)."""

    power: int
    supply: int
    hand: list[str]
    discards: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"power": self.power, "supply": self.supply, "hand": list(self.hand),
                "discards": list(self.discards)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseState:
        return cls(data["power"], data["supply"], list(data["hand"]), list(data.get("discards", [])))


@dataclass
class GameState:
    """The whole game at a phase boundary. ``houses`` holds only the houses in play."""

    ruleset_name: str
    ruleset_sha256: str
    game_id: str
    seed: int
    round: int
    phase: str
    tracks: dict[str, list[str]]
    houses: dict[str, HouseState]
    areas: dict[str, AreaState]
    decks: dict[str, list[str]]
    wildling_threat: int = 0
    shuffles: int = 0
    blade_used: bool = False
    raven_used: bool = False
    restrictions: list[str] = field(default_factory=list)
    revealed: dict[str, str] = field(default_factory=dict)
    winner: dict[str, Any] | None = None
    chain: dict[str, Any] | None = None
    written_by: str | None = None
    """The release that wrote the state (``agot/0.2.0``); set by whoever writes the file."""

    # --- derived facts -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.houses)

    def order_of_play(self) -> list[str]:
        """Houses in order of play: the Iron Throne track, position 1 first (R2.3)."""
        return list(self.tracks["iron_throne"])

    def holder(self, track: str) -> str:
        """The house at position 1 of ``track`` (holder of its special token, R1.4)."""
        return self.tracks[track][0]

    def area(self, area_id: str) -> AreaState:
        """What stands in ``area_id``, for reading: the stored area, or a read-only empty one.

        Change an area with :meth:`edit` (or build one and :meth:`set_area` it).
        """
        return self.areas.get(area_id) or NOTHING_HERE

    @contextmanager
    def edit(self, area_id: str) -> Iterator[AreaState]:
        """Change ``area_id`` in place: yields the stored area (a new empty one if nothing is
        stored); on exit it is tidied (no units: no house, no routed units) and stored, or
        dropped when empty."""
        here = self.areas.get(area_id) or AreaState()
        yield here
        self.set_area(area_id, here)

    def set_area(self, area_id: str, area: AreaState) -> None:
        """Store ``area`` (tidied), or drop it when nothing is left in it."""
        area.tidy()
        if area.is_empty():
            self.areas.pop(area_id, None)
        else:
            self.areas[area_id] = area

    def copy(self) -> GameState:
        return copy.deepcopy(self)

    # --- (de)serialisation ---------------------------------------------------------------
    def to_dict(self, ruleset: Ruleset | None = None, *,
                version: int = STATE_VERSION) -> dict[str, Any]:
        """Plain data in the file layout; areas in the ruleset's fixed id order.

        ``version`` 1 writes the layout agot 0.1.0 wrote (no ``written_by``, here or in
        the chain), versions 1 and 2 the winner's reason as its sentence
        (:func:`winner_as_written`), so that ``agot replay`` can compare its records byte for
        byte.
        """
        order = list(ruleset.area_ids) if ruleset is not None else sorted(self.areas)
        areas = {a: self.areas[a].to_dict() for a in order if a in self.areas}
        houses = {h: self.houses[h].to_dict() for h in (ruleset.houses if ruleset else
                                                       sorted(self.houses)) if h in self.houses}
        out: dict[str, Any] = {"format": f"agot-state/{version}"}
        if version >= 2 and self.written_by is not None:
            out["written_by"] = self.written_by
        out.update({
            "ruleset": {"name": self.ruleset_name, "sha256": self.ruleset_sha256},
            "game": {"id": self.game_id, "seed": self.seed},
            "round": self.round,
            "phase": self.phase,
            "tracks": {t: list(self.tracks[t]) for t in TRACKS},
            "wildling_threat": self.wildling_threat,
            "used_this_round": {"valyrian_steel_blade": self.blade_used,
                                "messenger_raven": self.raven_used},
            "restrictions": list(self.restrictions),
            "houses": houses,
            "areas": areas,
            "westeros": {"shuffles": self.shuffles,
                         "revealed": {d: self.revealed[d] for d in DECKS if d in self.revealed},
                         "decks": {d: list(self.decks[d]) for d in DECKS}},
        })
        if self.winner is not None:
            out["winner"] = winner_as_written(self.winner, version)
        if self.chain is not None:
            out["chain"] = copy.deepcopy(self.chain)
            if version < 2:
                out["chain"].pop("written_by", None)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Build from schema-valid plain data (see ``schemas/state.schema.json``)."""
        used = data.get("used_this_round", {})
        westeros = data["westeros"]
        return cls(
            ruleset_name=data["ruleset"]["name"],
            ruleset_sha256=data["ruleset"]["sha256"],
            game_id=str(data["game"]["id"]),
            seed=data["game"]["seed"],
            round=data["round"],
            phase=data["phase"],
            tracks={t: list(data["tracks"][t]) for t in TRACKS},
            houses={h: HouseState.from_dict(v) for h, v in data["houses"].items()},
            areas={a: AreaState.from_dict(v) for a, v in data.get("areas", {}).items()},
            decks={d: list(westeros["decks"][d]) for d in DECKS},
            wildling_threat=data.get("wildling_threat", 0),
            shuffles=westeros.get("shuffles", 0),
            blade_used=used.get("valyrian_steel_blade", False),
            raven_used=used.get("messenger_raven", False),
            restrictions=list(data.get("restrictions", [])),
            revealed=dict(westeros.get("revealed", {})),
            winner=copy.deepcopy(data.get("winner")),
            chain=copy.deepcopy(data.get("chain")),
            written_by=data.get("written_by"),
        )
