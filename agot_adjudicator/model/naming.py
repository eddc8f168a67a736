"""Helpers for messages: suggestions for unknown ids and readable lists."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(value: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known id, or an empty string.

    >>> suggest("winterfel", ["winterfell", "white_harbor"])
    " (did you mean 'winterfell'?)"
    >>> suggest("qqq", ["winterfell"])
    ''
    """
    if not isinstance(value, str) or len(value) > 64:  # no id is that long; difflib is slow
        return ""
    close = difflib.get_close_matches(value, list(known), n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def one_of(options: Iterable[str], limit: int = 12) -> str:
    """``a, b, c, ...`` for error messages.

    >>> one_of(["a", "b"])
    'a, b'
    """
    items = list(options)
    text = ", ".join(items[:limit])
    return text + (", ..." if len(items) > limit else "")
