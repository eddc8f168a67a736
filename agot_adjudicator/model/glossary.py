"""The glossary: the name of every id a person sees, in English and in simplified and
traditional Chinese, and name resolution for intake.

The glossary is a ruleset file (``glossary.yaml``) that is exported and checked with the
ruleset but is not part of its content hash: a name is presentation, never a rule, so
correcting one changes no game result (docs/formats.md, The glossary). Names are scoped
by kind: :meth:`Glossary.resolve` is told the kind it expects (an area, an order, ...), and
within a kind each name, in any locale, belongs to one id. The intake kinds
(:data:`INTAKE_KINDS`) share no name at all, so a word of an order line names one thing.

>>> from agot_adjudicator.io.rulesets import load_ruleset
>>> g = load_ruleset().glossary
>>> g.resolve("area", "臨冬城"), g.resolve("area", "临冬城"), g.resolve("area", " winterFELL ")
('winterfell', 'winterfell', 'winterfell')
>>> g.resolve("order", "行军令 +1"), g.name("area", "dragonstone", "zh-Hant")
('march_plus1', '龍石島')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

LOCALES = ("en", "zh-Hans", "zh-Hant")
"""The glossary's locales: English (the ruleset's own names), simplified and traditional Chinese."""
CHINESE = ("zh-Hans", "zh-Hant")

KINDS = ("house", "area", "order", "unit", "house_card", "westeros_card", "track", "token")
"""The kinds of ids the glossary names, each a namespace of its own."""
INTAKE_KINDS = ("house", "area", "order", "unit", "house_card")
"""Kinds a player writes in an order file or a mail body: no name is shared between them."""

SOURCES = ("rulebook", "rulebook-simplified", "novels", "summary", "agot")
"""Where a Chinese name comes from (docs/formats.md, The glossary): the locale's own rulebook
translation; the simplified translation's term in traditional characters (zh-Hant only); the
published translation of the novels; the community summaries; agot's own rendering."""


_FOLD = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-",
                       "*": "\u2605", "\u2606": "\u2605"})
"""Dashes (a minus sign, an en dash...) and stars written for the order token's ★."""
_DROP = re.compile("[\\s_'\u2018\u2019\u02bc\u00b4`\u00b7\u2027\u30fb\u2022\uff0e.]+")
"""Whitespace, underscores, apostrophes (Storm's End) and name separators (艾德·史塔克 =
艾德‧史塔克 = 艾德史塔克)."""
_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def name_key(text: str) -> str:
    """The form in which two spellings of one name compare equal, for the English names and the
    glossary's alike: Unicode NFKC (full-width → half-width), case-folded, dashes and stars
    unified, whitespace, underscores, apostrophes, name separators and hyphens between letters
    left out; a minus or plus before a digit is kept.

    >>> [name_key(t) for t in ("Moat Cailin", "moat_cailin", "MOAT  cailin", "Storm’s End")]
    ['moatcailin', 'moatcailin', 'moatcailin', 'stormsend']
    >>> name_key("March -1"), name_key("march_minus1"), name_key("Lannis-port")
    ('march-1', 'marchminus1', 'lannisport')
    >>> name_key(" King’s  Landing "), name_key("ＭＡＲＣＨ　＋１"), name_key("艾德‧史塔克")
    ('kingslanding', 'march+1', '艾德史塔克')
    """
    text = unicodedata.normalize("NFKC", text).casefold().translate(_FOLD)
    return _WORD_HYPHEN.sub("", _DROP.sub("", text))

@dataclass(frozen=True)
class Entry:
    """The names of one id: shown (one per locale), also accepted, and their sources."""

    id: str
    names: Mapping[str, str]
    source: Mapping[str, str]
    also: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def accepted(self) -> tuple[str, ...]:
        """Every name intake accepts for this id: the id, the shown names, the others."""
        return tuple(text for _, text in self.placed())

    def placed(self) -> list[tuple[tuple[str | int, ...], str]]:
        """:meth:`accepted` with where each name is in the entry (``()`` for the id,
        ``("zh-Hans",)``, ``("also", "en", 0)``, ...)."""
        return [((), self.id), *(((loc,), self.names[loc]) for loc in LOCALES),
                *((("also", loc, i), n) for loc in LOCALES
                  for i, n in enumerate(self.also.get(loc, ())))]


@dataclass(frozen=True)
class Glossary:
    """Names of ids by kind (see the module docstring); built by :func:`glossary_from_data`."""

    entries: Mapping[str, Mapping[str, Entry]]

    @cached_property
    def index(self) -> Mapping[str, Mapping[str, str]]:
        """kind → :func:`name_key` → id; a key two ids claim is left out (and is a load error).
        Built at the first look-up: a run that resolves no name does not pay for it."""
        index = {}
        for kind, by_id in self.entries.items():
            owners = _owners(by_id.values())
            index[kind] = {key: ids[0] for key, ids in owners.items() if len(ids) == 1}
        return index

    def resolve(self, kind: str, text: Any) -> str | None:
        """The id of kind ``kind`` that ``text`` names in any locale or script (or its id), else
        None. English is case-insensitive; whitespace and full-width forms do not matter."""
        if not isinstance(text, str) or kind not in self.index:
            return None
        return self.index[kind].get(name_key(text))

    def identify(self, text: Any,
                 kinds: Iterable[str] = INTAKE_KINDS) -> tuple[str, str] | None:
        """``(kind, id)`` of the one thing ``text`` names among ``kinds`` (default the intake
        kinds, which share no name: a word of a free-form order line), else None.

        >>> from agot_adjudicator.io.rulesets import load_ruleset
        >>> [load_ruleset().glossary.identify(w) for w in ("臨冬城", "行军令", "行軍 +1", "骑兵")]
        [('area', 'winterfell'), None, ('order', 'march_plus1'), ('unit', 'knight')]
        """
        found = [(kind, id_) for kind in kinds
                 if (id_ := self.resolve(kind, text)) is not None]
        return found[0] if len(found) == 1 else None

    def name(self, kind: str, id_: str, locale: str = "en") -> str:
        """The name shown for ``id_`` in ``locale``; the id itself when the glossary has none."""
        entry = self.entries.get(kind, {}).get(id_)
        return entry.names.get(locale, entry.names["en"]) if entry is not None else str(id_)

    def names(self, kind: str, id_: str) -> dict[str, str]:
        """The shown names of ``id_``, by locale (empty when the glossary has none)."""
        entry = self.entries.get(kind, {}).get(id_)
        return dict(entry.names) if entry is not None else {}

    def ids(self, kind: str) -> tuple[str, ...]:
        """The ids of ``kind`` the glossary names, in file order."""
        return tuple(self.entries.get(kind, {}))


def glossary_from_data(data: Mapping[str, Any],
                       english: Mapping[str, Mapping[str, str]] | None = None) -> Glossary:
    """The glossary of a schema-valid ``glossary.yaml`` mapping. ``english`` (kind → id →
    name: the ruleset's own names, :meth:`Ruleset.english_names`) wins over the file's ``en``:
    the ruleset's name is shown, and an ``en`` that differs is still accepted on intake."""
    entries: dict[str, dict[str, Entry]] = {}
    for kind in KINDS:
        entries[kind] = {}
        for id_, v in data.get(kind, {}).items():
            names = {loc: v[loc] for loc in LOCALES}
            also = {loc: tuple(v.get("also", {}).get(loc, ())) for loc in LOCALES}
            own = (english or {}).get(kind, {}).get(id_)
            if own is not None and own != names["en"]:
                also["en"] = (*also["en"], names["en"])
                names["en"] = own
            entries[kind][id_] = Entry(id_, names, dict(v["source"]), also)
    return Glossary(entries)


def _owners(entries: Iterable[Entry]) -> dict[str, list[str]]:
    """:func:`name_key` → the ids claiming it, in file order, each once."""
    return {key: [id_ for id_, _, _ in claims] for key, claims in _claims(entries).items()}


def _claims(entries: Iterable[Entry]) -> dict[str, list[tuple[str, tuple[str | int, ...], str]]]:
    """:func:`name_key` → (id, where in the entry, name as written) of each id claiming it,
    in file order, each id once."""
    claims: dict[str, list[tuple[str, tuple[str | int, ...], str]]] = {}
    for entry in entries:
        for where, text in entry.placed():
            found = claims.setdefault(name_key(text), [])
            if all(id_ != entry.id for id_, _, _ in found):
                found.append((entry.id, where, text))
    return claims


def glossary_problems(glossary: Glossary, expected: Mapping[str, Iterable[str]], *,
                      others: bool = False) -> list[tuple[tuple[str | int, ...], str]]:
    """Every integrity problem of ``glossary``, each with the path of the node it is about:
    an id of ``expected`` (kind → ids: the ruleset's, :meth:`Ruleset.named_ids`) missing, an
    id not expected (unless ``others``: the packaged glossary naming a ruleset that has none
    may name more), a name two ids of a kind share (in any locale), a name two intake kinds
    share."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for kind in KINDS:
        entries = glossary.entries.get(kind, {})
        wanted = tuple(expected.get(kind, ()))
        for id_ in wanted:
            if id_ not in entries:
                problems.append(((kind,), f"no names for {kind} '{id_}'"))
        for id_ in entries:
            if id_ not in wanted and not others:
                problems.append(((kind, id_), f"'{id_}' is not a {kind} of the ruleset"))
        for claims in _claims(entries.values()).values():
            if len(claims) > 1:
                id_, where, text = claims[1]
                ids = " and ".join(repr(c[0]) for c in claims)
                problems.append(((kind, id_, *where), f"{kind}s {ids} share the name {text!r}"))
    seen: dict[str, str] = {}
    for kind in INTAKE_KINDS:
        entries = glossary.entries.get(kind, {})
        for key, claims in _claims(entries.values()).items():
            other = seen.get(key)
            if other is not None and other != kind:
                id_, where, text = claims[0]
                article = "an" if other[0] in "aeiou" else "a"
                problems.append(((kind, id_, *where), f"the name {text!r} of {kind} '{id_}' is "
                                 f"also a name of {article} {other}: the intake kinds "
                                 f"({', '.join(INTAKE_KINDS)}) share no name"))
            seen.setdefault(key, kind)
    return problems
