"""Sentences that can be said in another language: :class:`Msg`.

The engine and the readers write English sentences for people (decision prompts, why an
answer or an order is not legal, validation errors and warnings). Each is a :class:`Msg`: a
``str`` holding the English text, exactly what an f-string gave, that also keeps its template
(the message catalog's ``msgid``) and its fields. Code that only needs English treats it as
the string it is; a renderer writing Chinese (:func:`agot_adjudicator.render.language.say`)
translates the template and names each field's ids in the reader's language, by the field's
name (:data:`FIELD_KINDS`).

>>> m = Msg("{house}'s {order} in {area}: choose up to {limit} of {areas}.",
...         house="stark", order="raid", area="winterfell", limit=1, areas=["a", "b"])
>>> m
"stark's raid in winterfell: choose up to 1 of a, b."
>>> m.template, m.fields["areas"]
("{house}'s {order} in {area}: choose up to {limit} of {areas}.", ['a', 'b'])
>>> str(m).__class__ is str and m == "stark's raid in winterfell: choose up to 1 of a, b."
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FIELD_KINDS: Mapping[str, str] = {
    "house": "house", "houses": "house", "holder": "house", "winner": "house",
    "attacker": "house", "defender": "house", "loser": "house", "owner": "house",
    "other": "house", "victim": "house", "bidder": "house", "bidders": "house",
    "area": "area", "areas": "area", "origin": "area", "target": "area", "targets": "area",
    "destination": "area", "destinations": "area", "castle": "area", "sea": "area",
    "port": "area", "home": "area",
    "order": "order", "orders": "order", "token": "order", "tokens": "order",
    "unit": "unit", "unit_types": "unit",
    "card": "house_card", "cards": "house_card", "hand": "house_card",
    "westeros_card": "westeros_card",
    "track": "track", "tracks": "track",
    "influence_token": "token",
    "houses_before": "house", "houses_after": "house", "cards_before": "house_card",
    "cards_after": "house_card", "order_before": "order", "order_after": "order",
    "westeros_before": "westeros_card", "westeros_after": "westeros_card",
    "units": "unit", "pool": "unit", "survivors": "unit", "unit_type": "unit",
    "discards": "house_card", "tied": "house", "seas": "area", "unused": "order",
    "mine": "area", "new_order": "order", "decider": "house", "moved": "unit",
}
"""A field's name → the glossary kind of the ids it holds (a value, or a list of values).
A field whose name is not here is written as it is (numbers, nested :class:`Msg`, free text);
a value the glossary does not know is written as it is too."""

ENGLISH_SEPARATOR = ", "


def N_(message: str) -> str:
    """Mark ``message`` for extraction (tests/test_i18n.py) without translating it: tables of
    sentences, in any layer (``render.i18n`` re-exports it)."""
    return message


def english(value: Any) -> Any:
    """A field's English form: a list or tuple joined by ``, `` (as the f-strings did), anything
    else unchanged (so that ``{power:+d}`` still formats an int)."""
    if isinstance(value, (list, tuple)):
        return ENGLISH_SEPARATOR.join(str(english(v)) for v in value)
    return value


class Msg(str):
    """An English sentence that keeps its ``template`` and ``fields`` for translation.

    ``Msg(template, **fields)`` equals ``template.format(**fields)`` (lists joined by ``, ``).
    Concatenating it with other text gives a plain ``str``: build a whole sentence as one
    ``Msg`` (nest a ``Msg`` as a field) so that it stays translatable. The template is a
    catalog ``msgid``: ``tests/test_i18n.py`` extracts every ``Msg("...")`` literal.
    """

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, /, **fields: Any) -> Msg:
        text = template.format(**{k: english(v) for k, v in fields.items()}) if fields else template
        self = super().__new__(cls, text)
        self.template = template
        self.fields = dict(fields)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.fields))


def _rebuild(template: str, fields: dict[str, Any]) -> Msg:
    return Msg(template, **fields)
