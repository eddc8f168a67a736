"""Helpers for messages (suggestions for unknown ids, readable lists) and the index of the
display names a player may write for ids (:func:`name_index`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agot_adjudicator.model.glossary import Glossary, is_chinese, name_key
from agot_adjudicator.model.text import Msg

if TYPE_CHECKING:
    from agot_adjudicator.model.ruleset import Ruleset


def suggest(value: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known id, or an empty string. A
    :class:`~agot_adjudicator.model.text.Msg`, so a located error says it in the reader's
    language (the id as it is: the player types it).

    >>> suggest("winterfel", ["winterfell", "white_harbor"])
    " (did you mean 'winterfell'?)"
    >>> suggest("qqq", ["winterfell"])
    ''
    """
    if not isinstance(value, str) or len(value) > 64:  # no id is that long; difflib is slow
        return ""
    import difflib  # only for a value that is not known

    close = difflib.get_close_matches(value, list(known), n=1, cutoff=0.75)
    return Msg(" (did you mean '{suggested}'?)", suggested=close[0]) if close else ""


def one_of(options: Iterable[str], limit: int = 12) -> str:
    """``a, b, c, ...`` for error messages.

    >>> one_of(["a", "b"])
    'a, b'
    """
    return ", ".join(listed(options, limit))


def listed(items: Iterable[Any], limit: int = 12) -> list[str]:
    """The items :func:`one_of` writes, as a list (a :class:`~agot_adjudicator.model.text.Msg`
    list field, joined in English to the same text): the first ``limit``, then ``...``.

    >>> listed(["a", "b", "c"], 2)
    ['a', 'b', '...']
    """
    out = [str(i) for i in items]
    return out[:limit] + (["..."] if len(out) > limit else [])


# --- display names ---------------------------------------------------------------------------

CATEGORIES = ("area", "order", "house", "card", "unit", "track")
"""The kinds of ids a player may write by name."""

GLOSSARY_KIND = {"area": "area", "order": "order", "house": "house", "card": "house_card",
                 "unit": "unit", "track": "track"}
"""The glossary's kind of each category (:mod:`agot_adjudicator.model.glossary`)."""

@dataclass
class NameIndex:
    """Names of ids per category (:data:`CATEGORIES`): every id is its own name; the ruleset's
    display names (and the spellings :func:`name_index` adds) name it too. A name that would
    name two ids of one category names neither (ambiguous names are never guessed)."""

    keys: dict[str, dict[str, str]] = field(default_factory=dict)
    """category -> name key -> id"""
    glossary: Glossary | None = None
    """Names in every locale and script (zh-Hans, zh-Hant), looked up when the English names
    and spellings above name nothing (docs/formats.md, *The glossary*)."""
    display: dict[str, dict[str, str]] = field(default_factory=dict)
    """category -> id -> the name to show (the first one added)"""
    _ambiguous: dict[str, set[str]] = field(default_factory=dict)

    def add(self, category: str, name: str, id_: str, *, show: bool = False) -> None:
        """Let ``name`` name ``id_`` in ``category`` (``show``: and show ``id_`` by it)."""
        key = name_key(name)
        if not key:
            return
        known = self.keys.setdefault(category, {})
        bad = self._ambiguous.setdefault(category, set())
        if key in bad:
            return
        if key in known and known[key] != id_:
            bad.add(key)
            del known[key]
            return
        known[key] = id_
        if show or id_ not in self.display.setdefault(category, {}):
            self.display.setdefault(category, {})[id_] = name

    def lookup(self, category: str, text: str) -> str | None:
        """The id ``text`` names in ``category``, or None: the English names first, then the
        glossary's names in every locale (``臨冬城``, ``行軍 +1``)."""
        found = self.keys.get(category, {}).get(name_key(text))
        if found is None and self.glossary is not None and category in GLOSSARY_KIND:
            found = self.glossary.resolve(GLOSSARY_KIND[category], text)
        return found

    def lookup_any(self, text: str) -> str | None:
        """The one id ``text`` names in any category, or None (none, or several)."""
        found = {self.keys[c][k] for c in self.keys for k in (name_key(text),) if k in self.keys[c]}
        if not found and self.glossary is not None:
            found = {i for c, kind in GLOSSARY_KIND.items()
                     if (i := self.glossary.resolve(kind, text)) is not None}
        return found.pop() if len(found) == 1 else None

    def name(self, category: str, id_: str) -> str:
        """The name to show for ``id_`` (the id itself when it has none)."""
        return self.display.get(category, {}).get(id_, id_)

    def suggestion(self, category: str, text: str) -> str:
        """`` (did you mean '...'?)`` for a name that names nothing in ``category``: the closest
        English name (:func:`suggest`), or for a Chinese name the closest glossary name in its
        script (``临冬堡`` → ``临冬城``, ``臨冬堡`` → ``臨冬城``); empty when none is close."""
        if is_chinese(text) and self.glossary is not None and category in GLOSSARY_KIND:
            found = self.glossary.suggest(GLOSSARY_KIND[category], text)
            return Msg(" (did you mean '{suggested}'?)", suggested=found) if found else ""
        return suggest(text, list(self.display.get(category, {}).values()))


_KIND_WORDS = {"march": ("March",), "defense": ("Defense", "Defence"), "support": ("Support",),
               "raid": ("Raid",), "consolidate_power": ("Consolidate Power", "Consolidate")}
_SPECIAL = ("(special)", "special", "\u2605", "*", "star")
_TRACK_NAMES = {"iron_throne": ("Iron Throne", "Iron Throne track", "Throne"),
                "fiefdoms": ("Fiefdoms", "Fiefdoms track"),
                "kings_court": ("King's Court", "King's Court track", "Court")}
_UNIT_NAMES = {"footman": ("footman", "footmen", "foot"), "knight": ("knight", "knights"),
               "ship": ("ship", "ships")}


def order_display(kind: str, bonus: int, special: bool, bare: bool) -> str:
    """An order token's name as a player writes it: ``March -1``, ``Defense +2 (special)``,
    ``Support`` (``bare``: the kind alone names it).

    >>> order_display("march", -1, False, False), order_display("raid", 0, True, True)
    ('March -1', 'Raid (special)')
    """
    text = _KIND_WORDS.get(kind, (kind.replace("_", " ").title(),))[0]
    if not bare:
        text += f" {bonus:+d}" if bonus else " 0"
    return text + (" (special)" if special else "")


def name_index(ruleset: Ruleset) -> NameIndex:
    """The names a player may write for the ids of ``ruleset`` (docs/protocol.md P8): area
    names (board.yaml ``name:``), house card names, houses (``Stark``, ``House Stark``),
    order tokens (``March -1``, ``Defense +1``/``Defence +1``, ``Support``, ``Raid (special)``,
    ``March +1★``), units (``knight``, ``knights``) and tracks (``Iron Throne``). Case, spaces,
    underscores, hyphens between letters and apostrophes do not matter (:func:`name_key`).

    >>> index = name_index(__import__("agot_adjudicator.io.rulesets").io.rulesets.load_ruleset())
    >>> [index.lookup("area", "moat cailin"), index.lookup("order", "Defence +1"),
    ...  index.lookup("card", "eddard stark"), index.lookup("house", "House Stark")]
    ['moat_cailin', 'defense_plus1', 'eddard_stark', 'stark']
    >>> index.lookup("order", "march"), index.name("order", "support_plus1")
    (None, 'Support +1 (special)')
    >>> index.lookup("order", "March +1"), index.lookup("order", "raid")
    ('march_plus1', 'raid')
    """
    index = NameIndex(glossary=ruleset.glossary)
    for area in ruleset.areas.values():
        index.add("area", area.name, area.id, show=True)
        index.add("area", area.id, area.id)
    for card in ruleset.house_cards.values():
        index.add("card", card.name, card.id, show=True)
        index.add("card", card.id, card.id)
    for house in ruleset.houses:
        index.add("house", house.title(), house, show=True)
        index.add("house", house, house)
        index.add("house", f"House {house.title()}", house)
    by_kind: dict[str, list[str]] = {}
    for token in ruleset.order_tokens.values():
        if not token.special:
            by_kind.setdefault(token.kind, []).append(token.id)
    for token in ruleset.order_tokens.values():
        bare = token.bonus == 0 and len(by_kind.get(token.kind, [])) == 1
        index.add("order", order_display(token.kind, token.bonus, token.special, bare), token.id,
                  show=True)
        index.add("order", token.id, token.id)
        words = _KIND_WORDS.get(token.kind, (token.kind.replace("_", " "),))
        bonuses = [f"{token.bonus:+d}"] if token.bonus else ["0", "+0"] + ([""] if bare else [])
        specials = _SPECIAL if token.special else ("",)
        for word in words:
            for bonus in bonuses:
                for special in specials:
                    index.add("order", f"{word} {bonus} {special}", token.id)
                    if special:
                        index.add("order", f"{special} {word} {bonus}", token.id)
    for token in ruleset.order_tokens.values():  # "March +1" for the one +1 March (special)
        if token.special and token.bonus:
            for word in _KIND_WORDS.get(token.kind, (token.kind.replace("_", " "),)):
                form = f"{word} {token.bonus:+d}"
                if index.lookup("order", form) is None and \
                        name_key(form) not in index._ambiguous.get("order", set()):
                    index.add("order", form, token.id)
    for unit, names in _UNIT_NAMES.items():
        for name in names:
            index.add("unit", name, unit)
    for track, names in _TRACK_NAMES.items():
        index.add("track", track, track)
        for name in names:
            index.add("track", name, track, show=name == names[0])
    return index
