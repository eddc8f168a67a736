"""Parts of located error messages that translate (:class:`~agot_adjudicator.model.text.Msg`):
a "did you mean" hint and a list of reasons."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agot_adjudicator.model.naming import suggest
from agot_adjudicator.model.text import Msg


def N_(message: str) -> str:
    """Mark ``message`` for extraction (tests/test_i18n.py) without translating it: the
    render layer's ``N_`` for the io layer below it."""
    return message


def did_you_mean(value: object, known: Iterable[str]) -> str:
    """:func:`~agot_adjudicator.model.naming.suggest` as a sentence part that translates: ``""``
    or `` (did you mean 'x'?)`` (the suggested id as it is: the player may type it).

    >>> did_you_mean("winterfel", ["winterfell"]), did_you_mean("qqq", ["winterfell"])
    (" (did you mean 'winterfell'?)", '')
    """
    text = suggest(value, known)  # type: ignore[arg-type]
    if not text:
        return ""
    return Msg(" (did you mean '{suggested}'?)", suggested=text[len(" (did you mean '"):-len("'?)")])


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
