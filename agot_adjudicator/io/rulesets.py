"""The ruleset: first-edition component facts loaded into frozen dataclasses and checked.

A ruleset is a folder holding ``ruleset.yaml`` (manifest: houses, order tokens,
limits) and ``board.yaml``, ``house_cards.yaml``, ``westeros.yaml``,
``setup.yaml``. The package ships ``data/first_edition``; ``--ruleset DIR``
selects another. Broken data is refused at load with :class:`RulesetError`
(exit 4): schema, then integrity (R0, R1, R12)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, RulesetError
from agot_adjudicator.io.reading import Document, load_yaml, parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.model.ruleset import (
    DECKS,
    LAYOUT_KEYS,
    TRACKS,
    Area,
    DeckCard,
    HouseCard,
    HouseSetup,
    OrderToken,
    Ruleset,
    integrity_problems,
)

RULESET_FILES = ("ruleset.yaml", "board.yaml", "house_cards.yaml", "westeros.yaml", "setup.yaml")
_PART = {"ruleset.yaml": "manifest", "board.yaml": "board", "house_cards.yaml": "house_cards",
         "westeros.yaml": "westeros", "setup.yaml": "setup"}


def _documents_from_dir(directory: Path) -> dict[str, Document]:
    docs: dict[str, Document] = {}
    problems = []
    for filename in RULESET_FILES:
        path = directory / filename
        try:
            docs[filename] = load_yaml(path, name=str(path), root=directory)
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
    from agot_adjudicator.io.commit import write_together

    files = [(out / filename, base.joinpath(filename).read_bytes().decode("utf-8"))
             for filename in RULESET_FILES]
    # Each file is renamed into place: a symlink already in DIR is replaced, never written
    # through.
    write_together(files)
    return [target for target, _ in files]


if __name__ == "__main__":  # pragma: no cover - maintenance: python -m agot_adjudicator.io.rulesets
    target = Path(__file__).parent.parent / "data" / "first_edition" / COMPILED
    target.write_text(compiled_text(), encoding="utf-8")
    print(f"wrote {target}")
