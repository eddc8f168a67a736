"""The kept messages of a game directory: ``GAME/messages/`` and its index (docs/formats.md).

Every message ``agot inbox`` takes is kept as ``messages/NNNN-SHA8.eml`` (``.txt``) with its
receipt ``NNNN-SHA8.receipt.txt`` and one line in ``messages/index.jsonl``: number, kept
file, receipt, SHA-256, receive time, the time the message counts from (``effective``: its
``Date:`` if earlier than its receipt, never later), sender, Message-ID, house, verdict,
round, and for an accepted one the parts it changed (``taken``, ``withdrawn``) and those
refused (``refused``). The index is appended to, one line per message, never rewritten
(:mod:`~agot_adjudicator.io.jsonl`: a line cut short by a crash is ended before the next one
and skipped when read). It is read once per run, and what a message's intake
asks of it (a duplicate, when each part last changed, the latest accepted message) is kept up
to date as lines are added, so that intake stays linear in messages (issue 33).
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import UsageError
from agot_adjudicator.io.clock import parse_utc
from agot_adjudicator.io.jsonl import append_jsonl, read_jsonl
from agot_adjudicator.io.safefile import MAX_BYTES, ReadRefused, read_bounded

MESSAGES = "messages"
INDEX = "index.jsonl"
INDEX_LIMIT = 256 * 1024 * 1024
"""The index is read up to this size (256 MiB: about a million messages)."""


@dataclass
class Index:
    """``messages/index.jsonl`` as read once, and the numbers used so far."""

    folder: Path
    entries: list[dict[str, Any]] = field(default_factory=list)
    last: int = 0
    orphans: dict[str, int] = field(default_factory=dict)
    """Kept messages without an index line (a run killed in between): SHA8 -> number."""
    _first: dict[tuple[str, Any], int] = field(default_factory=dict, repr=False)
    """The position of the first non-duplicate entry with a SHA-256 (``("sha", digest)``) or a
    Message-ID and sender (``("id", (id, sender))``)."""
    _times: dict[tuple[Any, Any], dict[str, tuple[datetime.datetime, int]]] = field(
        default_factory=dict, repr=False)
    _latest: dict[tuple[Any, Any], dict[str, Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, game_dir: str | Path) -> Index:
        folder = Path(game_dir) / MESSAGES
        index = cls(folder)
        try:
            entries = read_jsonl(folder / INDEX, INDEX_LIMIT)
        except ReadRefused as exc:  # never read as empty: its numbers would be used again
            raise UsageError(f"{exc.path}: {exc.reason}") from None
        for entry in entries:
            if isinstance(entry.get("n"), int):
                index._add(entry)
        numbers = [e["n"] for e in index.entries]
        listed = set(numbers)
        if folder.is_dir():  # a message kept by a run killed before its index line
            for child in folder.iterdir():
                head, _, rest = child.name.partition("-")
                if head.isdigit():
                    numbers.append(int(head))
                    stem, _, suffix = rest.partition(".")
                    if int(head) not in listed and suffix in ("eml", "txt"):
                        index.orphans[stem] = int(head)
        index.last = max(numbers, default=0)
        return index

    def next_number(self, sha256: str | None = None) -> int:
        """The next message number; a message whose copy a killed run kept without its index
        line gets that copy's number again (the same message, the same files)."""
        if sha256 is not None and sha256[:8] in self.orphans:
            return self.orphans.pop(sha256[:8])
        self.last += 1
        return self.last

    def _add(self, entry: dict[str, Any]) -> None:
        """Keep ``entry`` (a line read or appended) and what intake asks of it."""
        position = len(self.entries)
        self.entries.append(entry)
        if entry.get("verdict") != "duplicate":
            if isinstance(entry.get("sha256"), str):
                self._first.setdefault(("sha", entry["sha256"]), position)
            if entry.get("message_id") and isinstance(entry.get("message_id"), str) \
                    and isinstance(entry.get("from"), str | None):
                self._first.setdefault(("id", (entry["message_id"], entry.get("from"))),
                                       position)
        key = (entry.get("round"), entry.get("house"))
        if entry.get("verdict") != "accepted" or not isinstance(key[0], int) \
                or not isinstance(key[1], str):
            return  # (a line no round's intake asks about: a hand-edited index)
        if entry.get("taken") or entry.get("withdrawn"):
            self._latest[key] = entry
        stamp = parse_utc(str(entry.get("effective") or entry.get("received")))
        if stamp is None:
            return
        times = self._times.setdefault(key, {})
        for part in [*(entry.get("taken") or []), *(entry.get("withdrawn") or [])]:
            times[str(part)] = (stamp, int(entry["n"]))

    def duplicate_of(self, sha256: str | None, message_id: str | None,
                     sender: str | None) -> dict[str, Any] | None:
        """The entry of a message received before with the same bytes, or with the same
        Message-ID from the same sender (a message fed twice, or delivered twice): the first
        such entry that is not itself a duplicate."""
        found = []
        if sha256 is not None and ("sha", sha256) in self._first:
            found.append(self._first["sha", sha256])
        if message_id and ("id", (message_id, sender)) in self._first:
            found.append(self._first["id", (message_id, sender)])
        return self.entries[min(found)] if found else None

    def part_times(self, round_number: int, house: str) -> dict[str, tuple[datetime.datetime, int]]:
        """When each part of ``house``'s submission for a round last changed: the ``effective``
        time and number of the accepted message that took or withdrew it."""
        return dict(self._times.get((round_number, house), {}))

    def latest(self, round_number: int, house: str) -> dict[str, Any] | None:
        """The last accepted message of ``house`` for a round that changed its submission."""
        return self._latest.get((round_number, house))

    def received_at(self, round_number: int, house: str,
                    path: Path) -> datetime.datetime | None:
        """When the last message that changed ``house``'s stored submission for a round was
        received (P8), or None when none did or the file ``path`` is no longer what that
        message stored (edited by hand)."""
        entry = self.latest(round_number, house)
        digest = stored_sha256(path) if entry is not None else None
        if entry is None or digest is None or entry.get("stored_sha256") != digest:
            return None
        return parse_utc(str(entry.get("received")))

    def append(self, entry: dict[str, Any]) -> None:
        """Add one line to the index (:func:`~agot_adjudicator.io.jsonl.append_jsonl`; 0600:
        senders and Message-IDs are private, issue 27)."""
        self.folder.mkdir(exist_ok=True)
        append_jsonl(self.folder / INDEX, entry, private=True)
        self._add(entry)


def stored_sha256(path: Path) -> str | None:
    """The SHA-256 of a stored submission as the index records it (``stored_sha256``), read
    bounded as every submission is; None when it is missing or refused."""
    try:
        return hashlib.sha256(read_bounded(path, MAX_BYTES)).hexdigest()
    except ReadRefused:
        return None
