"""Times written for people and read from them: ISO 8601, UTC, to the second.

One form everywhere a time is recorded or printed (``2026-12-03T18:00:00Z``: the receive time
of a message, a deadline, the time a message was sent) and one reader for the times people
write (a deadline in ``players.yaml``, ``--now``, ``--received``).
"""

from __future__ import annotations

import datetime


def utc_text(when: datetime.datetime) -> str:
    """``2026-12-03T18:00:00Z``.

    >>> utc_text(datetime.datetime(2026, 12, 3, 19, 0, tzinfo=datetime.timezone(
    ...     datetime.timedelta(hours=1))))
    '2026-12-03T18:00:00Z'
    """
    return when.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: str) -> datetime.datetime | None:
    """An ISO 8601 time as an aware UTC datetime (a time without zone is UTC); None if not one.

    >>> parse_utc("2026-12-03T18:00:00Z").isoformat()
    '2026-12-03T18:00:00+00:00'
    >>> parse_utc("soon") is None
    True
    """
    try:
        when = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return when.astimezone(datetime.UTC)


def now_utc() -> datetime.datetime:
    """The time now, UTC, to the second."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0)
