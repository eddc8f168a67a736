"""Parts of located error messages that translate (:class:`~agot_adjudicator.model.text.Msg`):
a "did you mean" hint and a list of reasons."""

from __future__ import annotations

from collections.abc import Sequence

from agot_adjudicator.model.text import Msg


def joined(parts: Sequence[str]) -> str:
    """Reasons joined by ``; `` as one sentence that translates (each part said in turn).

    >>> joined(["a", "b", "c"]), joined([])
    ('a; b; c', '')
    """
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return Msg("{reason}; {more}", reason=parts[0], more=joined(parts[1:]))
