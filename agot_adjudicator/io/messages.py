"""The kept messages of a game directory: ``GAME/messages/`` and its index (docs/formats.md).

Every message ``agot inbox`` takes is kept as ``messages/NNNN-SHA8.eml`` (``.txt``) with its
receipt ``NNNN-SHA8.receipt.txt`` and one line in ``messages/index.jsonl``: number, kept
file, receipt, SHA-256, receive time, the time the message counts from (``effective``: its
``Date:`` if earlier than its receipt, never later), sender, Message-ID, house, verdict,
round, and for an accepted one the parts it changed (``taken``, ``withdrawn``) and those
refused (``refused``). The index is appended to, one line per message, never rewritten; a
line cut short by a crash is skipped. It is read once per run.
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.io.clock import parse_utc
from agot_adjudicator.io.safefile import ReadRefused, read_bounded

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

    @classmethod
    def read(cls, game_dir: str | Path) -> Index:
        folder = Path(game_dir) / MESSAGES
        index = cls(folder)
        path = folder / INDEX
        if path.is_file():
            try:
                text = read_bounded(path, INDEX_LIMIT).decode("utf-8", "replace")
            except ReadRefused:
                text = ""
            for line in text.splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a crash
                if isinstance(entry, dict) and isinstance(entry.get("n"), int):
                    index.entries.append(entry)
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

    def duplicate_of(self, sha256: str | None, message_id: str | None,
                     sender: str | None) -> dict[str, Any] | None:
        """The entry of a message received before with the same bytes, or with the same
        Message-ID from the same sender (a message fed twice, or delivered twice)."""
        for entry in self.entries:
            if entry.get("verdict") == "duplicate":
                continue
            if sha256 is not None and entry.get("sha256") == sha256:
                return entry
            if message_id and entry.get("message_id") == message_id \
                    and entry.get("from") == sender:
                return entry
        return None

    def part_times(self, round_number: int, house: str) -> dict[str, tuple[datetime.datetime, int]]:
        """When each part of ``house``'s submission for a round last changed: the ``effective``
        time and number of the accepted message that took or withdrew it."""
        times: dict[str, tuple[datetime.datetime, int]] = {}
        for entry in self.entries:
            if entry.get("round") != round_number or entry.get("house") != house \
                    or entry.get("verdict") != "accepted":
                continue
            stamp = parse_utc(str(entry.get("effective") or entry.get("received")))
            if stamp is None:
                continue
            for part in [*(entry.get("taken") or []), *(entry.get("withdrawn") or [])]:
                times[str(part)] = (stamp, int(entry["n"]))
        return times

    def latest(self, round_number: int, house: str) -> dict[str, Any] | None:
        """The last accepted message of ``house`` for a round that changed its submission."""
        found = None
        for entry in self.entries:
            if entry.get("round") == round_number and entry.get("house") == house \
                    and entry.get("verdict") == "accepted" \
                    and (entry.get("taken") or entry.get("withdrawn")):
                found = entry
        return found

    def append(self, entry: dict[str, Any]) -> None:
        """Add one line to the index (``O_APPEND``; a line a crash cut short is ended first)."""
        self.folder.mkdir(exist_ok=True)
        path = self.folder / INDEX
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0),
                     0o666)
        try:
            size = os.fstat(fd).st_size
            if size:
                with open(path, "rb") as handle:
                    handle.seek(size - 1)
                    if handle.read(1) != b"\n":
                        line = "\n" + line
            data = line.encode("utf-8")
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        finally:
            os.close(fd)
        self.entries.append(entry)
