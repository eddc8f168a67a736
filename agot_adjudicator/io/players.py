"""``GAME/players.yaml``: the moderator's private settings of a game directory (docs/formats.md).

Minimal reader (format ``agot-players/1``): each house's secret hash, address and language,
and the current round's deadline. Never public, never part of the replayed record.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import MalformedInput

PLAYERS_FILE = "players.yaml"
PLAYERS_FORMAT = "agot-players/1"


@dataclass(frozen=True)
class HouseSettings:
    house: str
    address: str | None = None
    secret_salt: str | None = None
    secret_sha256: str | None = None
    language: str | None = None


@dataclass(frozen=True)
class Players:
    houses: dict[str, HouseSettings]
    deadline: str | None = None
    """ISO 8601 UTC, e.g. ``2026-12-03T18:00:00Z``."""


def parse_deadline(text: str) -> datetime.datetime | None:
    """An ISO 8601 time as an aware UTC datetime (a time without zone is UTC); None if not one.

    >>> parse_deadline("2026-12-03T18:00:00Z").isoformat()
    '2026-12-03T18:00:00+00:00'
    >>> parse_deadline("soon") is None
    True
    """
    try:
        when = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return when.astimezone(datetime.UTC)


def _text(value: Any) -> str | None:
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.UTC)
        return value.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value if isinstance(value, str) else None


def read_players(game_dir: str | Path) -> Players:
    """GAME/players.yaml; a missing file gives ``Players({}, None)``; a bad one raises the
    project's located bad-input error (exit 1)."""
    from agot_adjudicator.io.reading import load_yaml

    path = Path(game_dir) / PLAYERS_FILE
    if not path.exists() and not path.is_symlink():
        return Players({}, None)
    doc = load_yaml(path)
    data, problems = doc.data, []
    if data.get("format") != PLAYERS_FORMAT:
        problems.append(doc.problem(["format"], f"expected format: {PLAYERS_FORMAT}"))
    houses: dict[str, HouseSettings] = {}
    raw = data.get("houses", {})
    if not isinstance(raw, dict):
        problems.append(doc.problem(["houses"], "expected a map of houses"))
        raw = {}
    for house, entry in raw.items():
        entry = entry or {}
        if not isinstance(entry, dict):
            problems.append(doc.problem(["houses", house], "expected a map"))
            continue
        secret = entry.get("secret") or {}
        if not isinstance(secret, dict):
            problems.append(doc.problem(["houses", house, "secret"], "expected {salt, sha256}"))
            secret = {}
        fields = {"address": entry.get("address"), "language": entry.get("language"),
                  "secret_salt": secret.get("salt"), "secret_sha256": secret.get("sha256")}
        for key, value in fields.items():
            if value is not None and not isinstance(value, str):
                problems.append(doc.problem(["houses", house, key], "expected a text"))
        houses[house] = HouseSettings(house, **{k: v if isinstance(v, str) else None
                                                 for k, v in fields.items()})
    deadline = None
    if data.get("deadline") is not None:
        deadline = _text(data["deadline"])
        if deadline is None or parse_deadline(deadline) is None:
            problems.append(doc.problem(["deadline"], "expected an ISO 8601 time such as "
                                        "2026-12-03T18:00:00Z"))
            deadline = None
    if problems:
        raise MalformedInput(problems)
    return Players(houses, deadline)

