"""Bounded reads of regular files, confined to a folder when asked.

Every file agot reads (states, submissions, ruleset files, every file replay
compares) goes through :func:`read_bounded`: the file is opened with
``O_NONBLOCK`` (a FIFO never blocks the open), checked with ``fstat`` to be a
regular file (FIFOs, devices, sockets and folders are refused), and at most
``limit + 1`` bytes are read, so ``/dev/zero`` or a sparse 3 GiB file costs
no more than the limit. With ``root``, a path whose real location (symlinks
followed) is outside ``root`` is refused before it is opened.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from agot_adjudicator.errors import Problem
from agot_adjudicator.model.text import Msg

MAX_BYTES = 1024 * 1024
"""The default limit: 1 MiB."""


class ReadRefused(Exception):
    """A file that is not read: ``reason`` says why (no such file, not a regular file, ...)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def too_big(size: int, limit: int) -> str:
    """The one refusal of a read over its limit (a file, a message, stdin, an mbox message, a
    submission, an attachment): ``too big: SIZE bytes; the limit is LIMIT``."""
    return Msg("too big: {size} bytes; the limit is {limit}", size=size, limit=limit)


def outside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """True when ``path``, symlinks followed, is not inside ``root`` (also followed)."""
    try:
        real = Path(os.path.realpath(path))
        base = Path(os.path.realpath(root))
    except (OSError, ValueError):
        return True
    return real != base and base not in real.parents


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of the regular file ``path`` (opened ``O_NONBLOCK``: a FIFO never
    blocks; FIFOs, devices, sockets and folders refused with :class:`ReadRefused`)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | \
        getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ReadRefused(path, Msg("no such file")) from None
    except IsADirectoryError:
        raise ReadRefused(path, Msg("is a directory, not a file")) from None
    except OSError as exc:
        raise ReadRefused(path, Msg("cannot read: {error}", error=exc.strerror)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ReadRefused(path, Msg("is a directory, not a file"))
        if not stat.S_ISREG(info.st_mode):
            raise ReadRefused(path, Msg("not a regular file (a FIFO, device or socket); refused"))
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bounded(path: str | os.PathLike[str], limit: int = MAX_BYTES, *,
                 root: str | os.PathLike[str] | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, or raise
    :class:`ReadRefused` (never blocks, never reads more than ``limit + 1`` bytes)."""
    if root is not None and outside(path, root):
        raise ReadRefused(path, Msg("a link that leaves {root}; refused", root=root))
    fd = open_regular(path)
    try:
        info = os.fstat(fd)
        if info.st_size > limit:
            raise ReadRefused(path, too_big(info.st_size, limit))
        try:
            data = read_upto(lambda n: os.read(fd, n), limit)
        except OSError as exc:
            raise ReadRefused(path, Msg("cannot read: {error}", error=exc.strerror)) from None
        if len(data) > limit:  # it grew while read
            raise ReadRefused(path, too_big(len(data), limit))
        return data
    finally:
        os.close(fd)


def read_upto(read: Callable[[int], bytes], limit: int) -> bytes:
    """At most ``limit + 1`` bytes from ``read`` (a file descriptor's, a stream's), in chunks of
    at most 1 MiB: one byte more than the limit says the source is over it, and nothing beyond
    is read. The one bounded read loop of files and of stdin."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        try:
            chunk = read(min(1 << 20, limit + 1 - size))
        except BlockingIOError:  # pragma: no cover - regular files do not block
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_stream(stream: BinaryIO, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of a binary stream such as stdin (:func:`read_upto`): the
    caller refuses what is over the limit with :func:`too_big`."""
    return read_upto(stream.read, limit)


def escaping_links(paths: Iterable[str | os.PathLike[str]],
                   root: str | os.PathLike[str]) -> list[Problem]:
    """A located problem for every path that (through a symlink) leaves ``root``."""
    return [Problem(str(p), None, None, "", Msg("a link that leaves {root}; refused (the record "
                                                "holds only its own files)", root=root))
            for p in paths if outside(p, root)]
