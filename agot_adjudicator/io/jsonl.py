"""JSON-lines files appended to and read back: ``messages/index.jsonl``,
``round-NN/mail/sent.jsonl`` and ``judge/journal.jsonl`` (docs/formats.md).

One appender and one reader for the three. A line is one JSON object and ``\\n``; it is
appended with ``O_APPEND`` and ``fsync``. A line cut short by a kill (no ``\\n`` at the end of
the file) is ended before the next line is appended, and skipped when read, as is any line
that is not a JSON object. Reads are bounded: the file up to its limit (a larger one is
refused, never read whole), each line up to :data:`LINE_LIMIT` (a longer one is skipped
without being held in memory).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from agot_adjudicator.io.safefile import ReadRefused, open_regular, too_big

LINE_LIMIT = 1024 * 1024
"""One line is read up to this size (1 MiB); a longer one is skipped."""


def json_line(entry: dict[str, Any], *, sort_keys: bool = False) -> bytes:
    """``entry`` as one line of a JSON-lines file (UTF-8, ``\\n`` at the end)."""
    return (json.dumps(entry, ensure_ascii=False, sort_keys=sort_keys) + "\n").encode("utf-8")


def append_line(path: str | os.PathLike[str], line: bytes, *, private: bool = False) -> None:
    """Append ``line`` (``O_APPEND``, then ``fsync``); a last line a kill cut short is ended
    first. ``private``: the file is made 0600 whatever the umask."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0),
                 0o600 if private else 0o666)
    try:
        if private:
            os.fchmod(fd, 0o600)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            line = b"\n" + line
        while line:
            line = line[os.write(fd, line):]
        os.fsync(fd)
    finally:
        os.close(fd)


def append_jsonl(path: str | os.PathLike[str], entry: dict[str, Any], *,
                 sort_keys: bool = False, private: bool = False) -> None:
    """Append ``entry`` as one line (:func:`json_line`, :func:`append_line`)."""
    append_line(path, json_line(entry, sort_keys=sort_keys), private=private)


def read_jsonl(path: str | os.PathLike[str], limit: int) -> list[dict[str, Any]]:
    """The JSON objects of the file's lines, in order; [] when there is no file. A torn or
    unreadable line, a line that is not an object and a line over :data:`LINE_LIMIT` are
    skipped; a file over ``limit`` bytes, or not a regular file, raises :class:`ReadRefused`."""
    if not Path(path).exists() and not Path(path).is_symlink():
        return []
    fd = open_regular(path)
    entries: list[dict[str, Any]] = []
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise ReadRefused(path, too_big(size, limit))
        read = 0
        while read <= limit:
            line = handle.readline(LINE_LIMIT + 1)
            if not line:
                break
            read += len(line)
            if len(line) > LINE_LIMIT:
                while line and not line.endswith(b"\n"):  # skip the rest of the long line
                    line = handle.readline(LINE_LIMIT + 1)
                    read += len(line)
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut short by a kill
            if isinstance(entry, dict):
                entries.append(entry)
    return entries
