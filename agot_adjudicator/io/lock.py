"""The game directory lock: one writer at a time (``fcntl.flock`` on ``GAME/.agot.lock``).

Every command that writes a game directory (``agot new --game``, ``agot
adjudicate --game``) holds an exclusive lock on the file ``.agot.lock`` in it
for the whole run: reading the round, resolving it and committing the outputs.
A second writer waits up to ``AGOT_LOCK_WAIT`` seconds (default 10), then
exits 2 naming the lock. The lock is advisory and released by the kernel when
the process ends, even on ``kill -9``: a stale lock file never blocks anyone.
``fcntl.flock`` works on Linux and macOS (local file systems; on NFS it
depends on the server). ``agot judge``, which writes the game directory between the
commands it calls, takes the lock with ``reentrant=True`` around each of its own writes:
within a process that already holds the lock that is a no-op, so a write inside a longer
locked step (mail out) does not wait on itself.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agot_adjudicator.errors import UsageError

LOCK_FILE = ".agot.lock"
DEFAULT_WAIT = 10.0
_HELD: dict[str, int] = {}
"""The lock files this process holds (real path -> depth), for ``reentrant=True``."""


def lock_wait() -> float:
    """Seconds a writer waits for the lock: ``AGOT_LOCK_WAIT`` (default 10)."""
    try:
        return max(0.0, float(os.environ.get("AGOT_LOCK_WAIT", DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


@contextmanager
def game_lock(game_dir: str | os.PathLike[str], wait: float | None = None, *,
              reentrant: bool = False) -> Iterator[None]:
    """Hold the exclusive lock of ``game_dir`` (created if missing) or raise
    :class:`UsageError` (exit 2) after ``wait`` seconds. With ``reentrant``, a lock this
    process already holds is held once more (nothing waits); without it, a second hold in
    the same process waits like another process (the commands never nest)."""
    import fcntl

    path = Path(game_dir) / LOCK_FILE
    key = os.path.realpath(path)
    if reentrant and _HELD.get(key):
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    limit = lock_wait() if wait is None else wait
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) |
                     getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        raise UsageError(f"{path}: cannot open the game directory's lock file: "
                         f"{exc.strerror}") from None
    try:
        deadline = time.monotonic() + limit
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise UsageError(
                        f"{game_dir}: another agot run is writing this game directory (it "
                        f"holds {path}); waited {limit:g} s. Try again when it has finished "
                        "(AGOT_LOCK_WAIT sets the wait).") from None
                time.sleep(0.05)
        _HELD[key] = _HELD.get(key, 0) + 1
        try:
            yield
        finally:
            _HELD[key] -= 1
    finally:
        os.close(fd)
