"""``GAME/players.yaml`` (``format: agot-players/1``): who may submit for each house.

The moderator's private settings of a game directory (docs/formats.md): per house a
salted SHA-256 of its secret, optionally its mail address and language, and the
current round's deadline. Never public, never part of the record (``agot replay``
reads only the round folders). Secrets come from the operating system's random
source (:func:`secrets.token_urlsafe`), never from the game seed; only their salted
hash is kept, compared with :func:`hmac.compare_digest` (docs/protocol.md P8).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from agot_adjudicator.errors import InputError, MalformedInput
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.writing import dump_yaml, write_atomic

PLAYERS_FILE = "players.yaml"
FORMAT = "agot-players/1"


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
    deadline: str | None = None        # ISO 8601 UTC, e.g. "2026-12-03T18:00:00Z"
    language: str | None = None        # the game's language (en, zh-Hans, zh-Hant)


def players_path(game_dir: str | Path) -> Path:
    return Path(game_dir) / PLAYERS_FILE


def read_players(game_dir: str | Path) -> Players:
    """GAME/players.yaml; a missing file gives Players({}, None); a bad one raises the project's
    located bad-input error (exit 1)."""
    path = players_path(game_dir)
    if not path.exists() and not path.is_symlink():
        return Players({}, None)
    try:
        doc = load_yaml(path, root=game_dir)
    except MalformedInput:
        raise
    except InputError as exc:  # unreadable or not YAML: malformed, as the schema's problems
        raise MalformedInput(exc.problems) from None
    problems = schema_problems(doc, "players")
    if problems:
        raise MalformedInput(problems)
    houses = {}
    for house, body in doc.data.get("houses", {}).items():
        secret = body.get("secret") or {}
        houses[house] = HouseSettings(house, body.get("address"), secret.get("salt"),
                                      secret.get("sha256"), body.get("language"))
    deadline = doc.data.get("deadline")
    return Players(houses, str(deadline) if deadline is not None else None,
                   doc.data.get("language"))


def players_text(players: Players) -> str:
    """The YAML text of ``players`` (keys in a fixed order)."""
    houses: dict[str, dict[str, object]] = {}
    for house, s in players.houses.items():
        body: dict[str, object] = {}
        if s.secret_salt is not None and s.secret_sha256 is not None:
            body["secret"] = {"salt": s.secret_salt, "sha256": s.secret_sha256}
        if s.address is not None:
            body["address"] = s.address
        if s.language is not None:
            body["language"] = s.language
        houses[house] = body
    data: dict[str, object] = {"format": FORMAT, "houses": houses}
    if players.deadline is not None:
        data["deadline"] = players.deadline
    if players.language is not None:
        data["language"] = players.language
    return dump_yaml(data, header=("agot players file: who may submit for each house (private: "
                                   "never publish it).\nSecrets are kept as salted SHA-256 "
                                   "hashes only; see docs/formats.md."))


def write_players(game_dir: str | Path, players: Players) -> Path:
    """Write ``GAME/players.yaml`` atomically (the caller holds the game lock)."""
    path = players_path(game_dir)
    write_atomic(path, players_text(players))
    return path


def house_of_address(players: Players, address: str | None) -> str | None:
    """The house whose registered address ``address`` is (compared without regard to case,
    as agot inbox takes a house's messages), or None."""
    if not address:
        return None
    for house, s in players.houses.items():
        if s.address and s.address.casefold() == address.casefold():
            return house
    return None


def secret_sha256(salt: str, secret: str) -> str:
    """``sha256(bytes.fromhex(salt) + secret.encode())`` as hex."""
    return hashlib.sha256(bytes.fromhex(salt) + secret.encode("utf-8")).hexdigest()


def new_secret(settings: HouseSettings) -> tuple[str, HouseSettings]:
    """A fresh secret from the OS random source and ``settings`` keeping only its salted hash."""
    import secrets  # only where a secret is made

    secret = secrets.token_urlsafe(18)
    salt = secrets.token_hex(16)
    return secret, replace(settings, secret_salt=salt, secret_sha256=secret_sha256(salt, secret))


def secret_matches(settings: HouseSettings, secret: str) -> bool:
    """Whether ``secret`` is the house's (constant-time comparison of the hashes)."""
    import hmac  # only where a secret is checked

    if settings.secret_salt is None or settings.secret_sha256 is None:
        return False
    given = secret_sha256(settings.secret_salt, secret)
    return hmac.compare_digest(given.encode("ascii"), settings.secret_sha256.encode("ascii"))
