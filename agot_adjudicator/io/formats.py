"""File format versions, read forward: every older version has an explicit upgrade step.

Each document agot reads names its format and version (``format: agot-state/2``).
Before the schema check, :func:`read_forward` brings an older document up to
the version this release writes, one step per version (``UPGRADES``), in place;
a document of a *newer* version than this release knows is refused with a
message naming both versions. A format whose layout changes gets a new
version and an upgrade step here, with a test (tests/test_versions.py), and a
record under ``tests/data/records/`` (see its README).

Versions this release reads and writes:

- ``agot-state``: 1 (agot 0.1.0), 2 (agot 0.2.0: ``written_by``, the
  chain's ``written_by`` and ``ruleset_moved``) and 3 (agot 0.3.0: ``winner.reason`` a code
  with the winner's castles as its fields, not an English sentence; the chain's ``decisions``,
  the round's ledger); writes 3.
- ``agot-orders`` (submissions, answers files): 1.
- ``agot-scenario`` (conformance cases): 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from string import Formatter
from typing import Any

from agot_adjudicator import __version__
from agot_adjudicator.errors import Problem
from agot_adjudicator.io.reading import Document
from agot_adjudicator.model.state import WINNER_REASONS
from agot_adjudicator.model.text import Msg

_FORMAT = re.compile(r"^(agot-[a-z]+)/(\d{1,6})$")

KINDS = {"state": "agot-state", "orders": "agot-orders", "scenario": "agot-scenario"}
"""Schema name → format name, for the documents that are read forward."""

CURRENT = {"agot-state": 3, "agot-orders": 1, "agot-scenario": 1}
"""The version of each format this release writes (and the newest it reads)."""

MAKER = f"agot/{__version__}"
"""How this release names itself in what it writes (``written_by``)."""

FIRST_MAKER = "agot/0.1.0"
"""The release that wrote every version-1 file (they name no maker)."""


def _state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """agot-state/1 → 2: name the maker (version 1 was written only by agot 0.1.0), in the
    state and in its hash chain; nothing else changed."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        out[key] = value
        if key == "format":
            out["format"] = "agot-state/2"
            out["written_by"] = FIRST_MAKER
    if isinstance(out.get("chain"), dict):
        out["chain"] = {**out["chain"], "written_by": FIRST_MAKER}
    return out


def _sentence_pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching the sentences ``template`` makes, its fields as groups."""
    parts = []
    for literal, name, _, _ in Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(rf"(?P<{name}>\d+)")
    return re.compile("".join(parts))


def _winner_code(winner: dict[str, Any]) -> dict[str, Any]:
    """A version-2 ``winner`` (its reason an English sentence of agot 0.1.0 or 0.2.0) with its
    reason as the code of that sentence; an instant win's castles recorded under its house.
    A sentence no release wrote stays as it is (the schema then says what is wrong)."""
    reason = winner.get("reason")
    for code, template in WINNER_REASONS.items():
        found = _sentence_pattern(template).fullmatch(reason) if isinstance(reason, str) else None
        if found is None:
            continue
        out = {**winner, "reason": code}
        houses = winner.get("houses")
        if code == "instant_win" and "castles" not in winner and isinstance(houses, list) \
                and houses and isinstance(houses[0], str):
            out["castles"] = {houses[0]: int(found.group("castles"))}
        return out
    return winner


def _state_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """agot-state/2 → 3: the winner's reason is a code (``most_castles``, ``instant_win``...)
    with its fields, no longer the English sentence the report used to read back."""
    out = {**data, "format": "agot-state/3"}
    if isinstance(out.get("winner"), dict):
        out["winner"] = _winner_code(out["winner"])
    return out


UPGRADES: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("agot-state", 1): _state_1_to_2,
    ("agot-state", 2): _state_2_to_3,
}
"""(format, version) → the step that turns that version's data into the next version's."""


def parse_format(value: Any) -> tuple[str, int] | None:
    """``"agot-state/2"`` → ``("agot-state", 2)``; None for anything else.

    >>> parse_format("agot-state/1"), parse_format("agot-state"), parse_format(3)
    (('agot-state', 1), None, None)
    """
    match = _FORMAT.match(value) if isinstance(value, str) else None
    return (match.group(1), int(match.group(2))) if match else None


def upgrade(data: dict[str, Any], name: str, version: int) -> dict[str, Any]:
    """Apply the upgrade steps from ``version`` up to the current version of ``name``."""
    for step in range(version, CURRENT[name]):
        data = UPGRADES[(name, step)](data)
    return data


def read_forward(doc: Document, schema_name: str) -> list[Problem]:
    """Upgrade ``doc.data`` in place to the current version of its format; a problem if the
    document is newer than this release reads. Anything else odd is left to the schema."""
    name = KINDS.get(schema_name)
    if name is None or not isinstance(doc.data, dict):
        return []
    found = parse_format(doc.data.get("format"))
    if found is None or found[0] != name:
        return []
    version = found[1]
    current = CURRENT[name]
    if version > current:
        reads = (Msg("{first} to {last}", first=f"{name}/1", last=f"{name}/{current}")
                 if current > 1 else f"{name}/1")
        return [doc.problem(["format"], Msg(
            "{format} is newer than agot {version} reads (it reads {reads}): upgrade agot to the "
            "release that wrote this file, or a later one", format=f"{name}/{version}",
            version=__version__, reads=reads))]
    if version < current and version >= 1:
        new = upgrade(doc.data, name, version)
        doc.data.clear()
        doc.data.update(new)
    return []


def version_of(data: Any, name: str) -> int | None:
    """The version of format ``name`` that plain ``data`` declares, or None."""
    found = parse_format(data.get("format")) if isinstance(data, dict) else None
    return found[1] if found and found[0] == name else None


def maker_of(data: Any) -> str:
    """Which release wrote a state (read before any upgrade): its ``written_by``, or
    ``agot/0.1.0`` for version 1."""
    if isinstance(data, dict) and isinstance(data.get("written_by"), str):
        return data["written_by"]
    return FIRST_MAKER if version_of(data, "agot-state") == 1 else "an unknown release"
