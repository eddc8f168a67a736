"""The moderator's private settings of a game directory: ``GAME/players.yaml``.

Minimal reader (the mail-out work needs the houses' addresses): the format is
``agot-players/1``, documented in docs/formats.md. The file is never public and never part of
the replayed record (``agot replay`` ignores it).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import MalformedInput, Problem
from agot_adjudicator.io.reading import Document, load_yaml

PLAYERS_FILE = "players.yaml"
PLAYERS_FORMAT = "agot-players/1"

_ADDRESS = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+")
_HEX = re.compile(r"[0-9a-f]+")


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


def _string(doc: Document, path: list[str | int], value: Any,
            problems: list[Problem]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(doc.problem(path, "expected a string"))
        return None
    return value


def read_players(game_dir: str | os.PathLike[str]) -> Players:
    """GAME/players.yaml; a missing file gives ``Players({}, None)``; a bad one raises
    :class:`MalformedInput` (exit 1) naming file, line, column and path."""
    path = Path(game_dir) / PLAYERS_FILE
    if not path.exists() and not path.is_symlink():
        return Players({}, None)
    doc = load_yaml(path, root=game_dir)
    data = doc.data
    problems: list[Problem] = []
    if data.get("format") != PLAYERS_FORMAT:
        problems.append(doc.problem(["format"], f"expected {PLAYERS_FORMAT}"))
    for key in data:
        if key not in ("format", "houses", "deadline"):
            problems.append(doc.problem([key], "unknown key (format, houses, deadline)",
                                        key=True))
    deadline = _string(doc, ["deadline"], data.get("deadline"), problems)
    houses: dict[str, HouseSettings] = {}
    entries = data.get("houses") or {}
    if not isinstance(entries, dict):
        problems.append(doc.problem(["houses"], "expected a mapping of house → settings"))
        entries = {}
    for house, raw in entries.items():
        where: list[str | int] = ["houses", house]
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            problems.append(doc.problem(where, "expected a mapping"))
            continue
        for key in raw:
            if key not in ("secret", "address", "language"):
                problems.append(doc.problem([*where, key], "unknown key (secret, address, "
                                            "language)", key=True))
        address = _string(doc, [*where, "address"], raw.get("address"), problems)
        if address is not None and not _ADDRESS.fullmatch(address):
            problems.append(doc.problem([*where, "address"], "not a mail address "
                                        "(name@example.org)"))
        language = _string(doc, [*where, "language"], raw.get("language"), problems)
        salt = digest = None
        secret = raw.get("secret")
        if secret is not None:
            if not isinstance(secret, dict):
                problems.append(doc.problem([*where, "secret"], "expected {salt, sha256}"))
            else:
                salt = _string(doc, [*where, "secret", "salt"], secret.get("salt"), problems)
                digest = _string(doc, [*where, "secret", "sha256"], secret.get("sha256"),
                                 problems)
                for name, value, size in (("salt", salt, 32), ("sha256", digest, 64)):
                    if value is not None and (len(value) != size or not _HEX.fullmatch(value)):
                        problems.append(doc.problem([*where, "secret", name],
                                                    f"expected {size} hex digits"))
        houses[str(house)] = HouseSettings(str(house), address, salt, digest, language)
    if problems:
        raise MalformedInput(problems)
    return Players(houses, deadline)
