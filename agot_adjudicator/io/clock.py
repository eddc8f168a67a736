"""Times written for people and read from them: ISO 8601, UTC, to the second.

One form everywhere a time is recorded or printed (``2026-12-03T18:00:00Z``: the receive time
of a message, a deadline, the time a message was sent) and one reader for the times people
write (a deadline in ``players.yaml``, ``--now``, ``--received``), with the one rule of
lateness (:func:`past`) and the one reader of a time given on the command line or in the
environment (:func:`given_time`).
"""

from __future__ import annotations

import datetime
import os

from agot_adjudicator.errors import UsageError, escaped


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


def past(deadline: datetime.datetime | None, now: datetime.datetime) -> bool:
    """Whether ``deadline`` has passed at ``now``: only once ``now`` is later. What comes at
    the deadline itself, to the second, is on time ("due by 18:00" includes 18:00:00).

    >>> at = parse_utc("2026-12-03T18:00:00Z")
    >>> past(at, at), past(at, parse_utc("2026-12-03T18:00:01Z")), past(None, at)
    (False, True, False)
    """
    return deadline is not None and now > deadline


def given_time(text: str | None, option: str, variable: str | None = None) -> datetime.datetime:
    """The time ``option`` gives (``--now``, ``--received``), else the environment variable
    ``variable``, else the clock; a text that is not an ISO 8601 time is a usage error (exit
    2) naming where it came from."""
    where = option if text else variable
    text = text or (os.environ.get(variable) if variable else None)
    if not text:
        return now_utc()
    when = parse_utc(text)
    if when is None:
        raise UsageError(f"{where}: '{escaped(text, 60)}' is not an ISO 8601 time (e.g. "
                         "2026-12-03T18:00:00Z)")
    return when
