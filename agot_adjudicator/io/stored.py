"""A house's stored submission in a game directory (docs/protocol.md P8, docs/formats.md).

``round-NN/orders/HOUSE.yaml`` is what the house's accepted messages add up to, part by part
(:mod:`agot_adjudicator.io.parts`); ``round-NN/received/NNNN-HOUSE.yaml`` holds the parts
message NNNN gave it (and what it withdrew), so that replay merges them again and finds a
stored file changed by hand. ``received/0000-HOUSE.yaml`` holds the plans that stood into the
round from the house's submission of the round before (RUL-P8-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agot_adjudicator.io.parts import carried, merged, parts_of, submission
from agot_adjudicator.io.reading import MAX_BYTES, load_yaml
from agot_adjudicator.io.safefile import read_bounded
from agot_adjudicator.io.writing import dump_yaml

RECEIVED = "received"
"""``round-NN/received/``: the parts each accepted message gave its house's submission."""
AHEAD = "ahead"
"""``round-NN/ahead/``: Westeros plans a message sent for the next round (RUL-P8-6)."""

CARRIED = 0
"""The number of the received file that holds the plans standing from the round before."""


def _head(round_number: int, house: str) -> dict[str, Any]:
    return {"format": "agot-orders/1", "round": round_number, "house": house}


def stored_text(round_number: int, house: str, parts: Mapping[str, Any]) -> str:
    """The bytes of a house's stored (merged) submission."""
    return dump_yaml(submission(_head(round_number, house), parts), header=(
        f"{house}'s submission for round {round_number}: what its accepted messages add up\n"
        f"to, part by part (round-NN/{RECEIVED}/), as agot inbox stored it: display names\n"
        "are turned into ids and the secret is left out; the messages are kept in the\n"
        "messages folder."))


def received_text(round_number: int, house: str, number: int, parts: Mapping[str, Any],
                  withdrawn: Sequence[str] = (), where: str = "") -> str:
    """The bytes of ``received/NNNN-HOUSE.yaml``: the parts message ``number`` gave."""
    data = submission(_head(round_number, house), parts)
    if withdrawn:
        data["withdraw"] = list(withdrawn)
    if number == CARRIED:
        header = (f"The plans that stand into round {round_number} from {house}'s submission of "
                  f"round {round_number - 1}\n(the Westeros phase's: musters, supply and wildling "
                  "losses, the wildling reward, the\ntie-break order); a message replaces or "
                  "withdraws them like any part.")
    else:
        header = (f"The parts message {number} gave {house}'s submission for round "
                  f"{round_number}\n({where}), in ids, without the secret. "
                  f"round-NN/orders/{house}.yaml is the\nmerge of these files in number order.")
    return dump_yaml(data, header=header)


def received_path(round_dir: Path, number: int, house: str, folder: str = RECEIVED) -> Path:
    return round_dir / folder / f"{number:04d}-{house}.yaml"


def received_files(round_dir: Path, folder_name: str = RECEIVED) -> dict[str, list[Path]]:
    """The ``received/NNNN-HOUSE.yaml`` (or ``ahead/``) files of a round folder per house, in
    number order."""
    out: dict[str, list[Path]] = {}
    folder = round_dir / folder_name
    if not folder.is_dir():
        return out
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        stem = path.stem.split("-", 1)
        if path.suffix == ".yaml" and len(stem) == 2 and stem[0].isdigit():
            out.setdefault(stem[1], []).append(path)
    return out


def merge_received(paths: Sequence[Path], root: Path) -> dict[str, Any]:
    """The merge of a house's received parts in number order (what its stored file holds)."""
    parts: dict[str, Any] = {}
    for path in paths:
        data = load_yaml(path, root=root).data
        parts = merged(parts, parts_of(data), [str(w) for w in data.get("withdraw") or []])
    return parts


def carried_files(plans: Mapping[str, Mapping[str, Any]], round_number: int,
                  ahead: Mapping[str, Sequence[Path]] | None = None,
                  root: Path | None = None) -> dict[str, str]:
    """The next round's files for the plans that stand into it (RUL-P8-6), relative to its
    folder: per house, ``received/0000-HOUSE.yaml`` with the Westeros plans of its merged
    ``plans`` of the round that ends, a copy of each file the round's ``ahead/`` holds (plans a
    message sent for the next round), and ``orders/HOUSE.yaml``, their merge."""
    out: dict[str, str] = {}
    ahead = ahead or {}
    for house in [*plans, *(h for h in ahead if h not in plans)]:
        parts = carried({f"plans.{k}": v for k, v in (plans.get(house) or {}).items()})
        total = dict(parts)
        if parts:
            out[f"{RECEIVED}/{CARRIED:04d}-{house}.yaml"] = received_text(
                round_number, house, CARRIED, parts)
        for path in ahead.get(house, ()):
            out[f"{RECEIVED}/{path.name}"] = read_bounded(path, MAX_BYTES, root=root).decode(
                "utf-8")
            data = load_yaml(path, root=root).data
            total = merged(total, parts_of(data), [str(w) for w in data.get("withdraw") or []])
        if total:
            out[f"orders/{house}.yaml"] = stored_text(round_number, house, total)
    return out
