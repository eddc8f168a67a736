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

Intake also accepts every name the rulebook translations and the community summaries write
(``written``: 进军 -1, 骚扰 +1, 更多权力, 信鸦排名, each with where it is written), the nouns
they add to a name (``nouns``: 行军指令 -1, 突擊令牌, 步兵部队), and either script or a mix
of both (蘭斯尼港 = 兰斯尼港: :func:`name_key` folds traditional characters into simplified).

>>> g.resolve("order", "骚扰命令 +1"), g.resolve("order", "行軍令牌（-1）"), g.resolve("area", "蘭斯尼港")
('raid_special', 'march_minus1', 'lannisport')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from agot_adjudicator.model.script_fold import FOLD

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
TRANSLATIONS = ("simplified", "simplified-partial", "traditional", "summary-forum",
                "summary-document")
"""The Chinese rule texts a ``written`` name or a noun is taken from (docs/chinese.md): the
simplified rulebook translation, its partial copy, the traditional rulebook translation, and
the two community summaries (a forum post, a rules document)."""
MEASURES = {"zh-Hans": "个", "zh-Hant": "個"}
"""The measure word of a count whose entry names none (一个, 一個)."""


_FOLD = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-",
                       "*": "\u2605", "\u2606": "\u2605"})
"""Dashes (a minus sign, an en dash...) and stars written for the order token's ★."""
_DROP = re.compile("[\\s_'\u2018\u2019\u02bc\u00b4`\u00b7\u2027\u30fb\u2022\uff0e.()\\[\\]]+")
"""Whitespace, underscores, apostrophes (Storm's End), name separators (艾德·史塔克 =
艾德‧史塔克 = 艾德史塔克) and brackets (the rulebook's ``行军 (-1)``; full-width ones are
half-width after NFKC)."""
_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def name_key(text: str) -> str:
    """The form in which two spellings of one name compare equal, for the English names and the
    glossary's alike: Unicode NFKC (full-width → half-width), case-folded, traditional Chinese
    characters folded into simplified ones (:mod:`.script_fold`), dashes and stars unified,
    whitespace, underscores, apostrophes, name separators, brackets and hyphens between letters
    left out; a minus or plus before a digit is kept.

    >>> [name_key(t) for t in ("Moat Cailin", "moat_cailin", "MOAT  cailin", "Storm’s End")]
    ['moatcailin', 'moatcailin', 'moatcailin', 'stormsend']
    >>> name_key("March -1"), name_key("march_minus1"), name_key("Lannis-port")
    ('march-1', 'marchminus1', 'lannisport')
    >>> name_key(" King’s  Landing "), name_key("ＭＡＲＣＨ　＋１"), name_key("艾德‧史塔克")
    ('kingslanding', 'march+1', '艾德史塔克')
    >>> name_key("臨冬城") == name_key("临冬城"), name_key("行軍（-1）"), name_key("Iron宝座")
    (True, '行军-1', 'iron宝座')
    """
    text = unicodedata.normalize("NFKC", text).casefold().translate(_FOLD).translate(FOLD)
    return _WORD_HYPHEN.sub("", _DROP.sub("", text))


_TAIL = re.compile(r"(?:[+-]?\d+)?★?")
"""What may follow an order's noun: its strength and its star (行军指令 -1, 突擊令牌+1★)."""


def is_chinese(text: str) -> bool:
    """Whether ``text`` holds a CJK ideograph (a name to compare with the Chinese names).

    >>> is_chinese("winterfel"), is_chinese("临冬堡"), is_chinese("Iron宝座")
    (False, True, True)
    """
    return any("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in text)


def is_traditional(text: str) -> bool:
    """Whether ``text`` holds a character only traditional script writes (臨 in 臨冬城)."""
    return text.translate(FOLD) != text


@dataclass(frozen=True)
class Written:
    """A name as a rule text writes it: ``in`` one of :data:`TRANSLATIONS`, ``at`` its section."""

    name: str
    source: str
    at: str


@dataclass(frozen=True)
class Entry:
    """The names of one id: shown (one per locale), also accepted, and their sources."""

    id: str
    names: Mapping[str, str]
    source: Mapping[str, str]
    also: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    written: tuple[Written, ...] = ()
    """Names the rule texts write for it (docs/chinese.md), accepted, never shown."""
    measure: Mapping[str, str] = field(default_factory=dict)
    """Its measure word by locale (艘 for a ship), where it has one."""

    def accepted(self) -> tuple[str, ...]:
        """Every name intake accepts for this id: the id, the shown names, the others."""
        return tuple(text for _, text in self.placed())

    def placed(self) -> list[tuple[tuple[str | int, ...], str]]:
        """:meth:`accepted` with where each name is in the entry (``()`` for the id,
        ``("zh-Hans",)``, ``("also", "en", 0)``, ``("written", 0, "name")``, ...)."""
        return [((), self.id), *(((loc,), self.names[loc]) for loc in LOCALES),
                *((("also", loc, i), n) for loc in LOCALES
                  for i, n in enumerate(self.also.get(loc, ()))),
                *((("written", i, "name"), w.name) for i, w in enumerate(self.written))]


@dataclass(frozen=True)
class Glossary:
    """Names of ids by kind (see the module docstring); built by :func:`glossary_from_data`."""

    entries: Mapping[str, Mapping[str, Entry]]
    nouns: Mapping[str, tuple[Written, ...]] = field(default_factory=dict)
    """kind → the nouns a name of that kind may carry on intake (指令, 令牌, 部队 ...)."""

    @cached_property
    def index(self) -> Mapping[str, Mapping[str, str]]:
        """kind → :func:`name_key` → id; a key two ids claim is left out (and is a load error).
        Built at the first look-up: a run that resolves no name does not pay for it."""
        index = {}
        for kind, by_id in self.entries.items():
            owners = _owners(by_id.values())
            index[kind] = {key: ids[0] for key, ids in owners.items() if len(ids) == 1}
        return index

    @cached_property
    def _nouns(self) -> Mapping[str, tuple[str, ...]]:
        """kind → the :func:`name_key` of each of its nouns, the longest first."""
        return {kind: tuple(sorted({name_key(n.name) for n in nouns}, key=lambda k: (-len(k), k)))
                for kind, nouns in self.nouns.items()}

    def resolve(self, kind: str, text: Any) -> str | None:
        """The id of kind ``kind`` that ``text`` names in any locale or script (or its id), else
        None. English is case-insensitive; whitespace and full-width forms do not matter; a
        noun of the kind (:attr:`nouns`) may follow the name, before an order's strength
        (``行军指令 -1`` = ``行军 -1``)."""
        if not isinstance(text, str) or kind not in self.index:
            return None
        key = name_key(text)
        found = self.index[kind].get(key)
        if found is not None:
            return found
        for noun in self._nouns.get(kind, ()):
            at = key.find(noun)
            if at > 0 and _TAIL.fullmatch(key, at + len(noun)):
                found = self.index[kind].get(key[:at] + key[at + len(noun):])
                if found is not None:
                    return found
        return None

    def suggest(self, kind: str, text: str) -> str | None:
        """The shown Chinese name of kind ``kind`` closest to ``text`` (a Chinese name that
        names nothing), in the script ``text`` is written in; None when none is close.

        >>> from agot_adjudicator.io.rulesets import load_ruleset
        >>> g = load_ruleset().glossary
        >>> g.suggest("area", "临冬堡"), g.suggest("area", "臨冬堡"), g.suggest("area", "蟹")
        ('临冬城', '臨冬城', None)
        """
        owners: dict[str, str] = {}
        for entry in self.entries.get(kind, {}).values():
            for _, name in entry.placed():
                if is_chinese(name):
                    owners.setdefault(name_key(name), entry.id)
        import difflib  # only for a name that is not known

        close = difflib.get_close_matches(name_key(text), list(owners), n=1, cutoff=0.5)
        if not close:
            return None
        return self.name(kind, owners[close[0]], "zh-Hant" if is_traditional(text) else "zh-Hans")

    def measure(self, kind: str, id_: str, locale: str) -> str:
        """The measure word of ``id_`` in a Chinese ``locale`` (艘 for a ship; 个/個 when the
        glossary gives none)."""
        entry = self.entries.get(kind, {}).get(id_)
        found = entry.measure.get(locale) if entry is not None else None
        return found or MEASURES.get(locale, "")

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

    def has(self, kind: str, id_: str) -> bool:
        """Whether the glossary names ``id_`` of ``kind``."""
        return id_ in self.entries.get(kind, {})

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
            entries[kind][id_] = Entry(id_, names, dict(v["source"]), also,
                                       _written(v.get("written", ())), dict(v.get("measure", {})))
    nouns = {kind: _written(items) for kind, items in data.get("nouns", {}).items()}
    return Glossary(entries, nouns)


def _written(items: Iterable[Mapping[str, str]]) -> tuple[Written, ...]:
    return tuple(Written(w["name"], w["in"], w["at"]) for w in items)


def _owners(entries: Iterable[Entry]) -> dict[str, list[str]]:
    """:func:`name_key` → the ids claiming it, in file order, each once."""
    return {key: [id_ for id_, _, _ in claims] for key, claims in _claims(entries).items()}


def _claims(entries: Iterable[Entry]) -> dict[str, list[tuple[str, tuple[str | int, ...], str]]]:
    """:func:`name_key` → (id, where in the entry, name as written) of each id claiming it,
    in file order, each id once: where it writes the first claimant's name letter for letter if
    it does (臨冬城 against 臨冬城 rather than against 临冬城, one key in either script)."""
    claims: dict[str, list[tuple[str, tuple[str | int, ...], str]]] = {}
    for entry in entries:
        for where, text in entry.placed():
            found = claims.setdefault(name_key(text), [])
            mine = [k for k, (id_, _, _) in enumerate(found) if id_ == entry.id]
            if not mine:
                found.append((entry.id, where, text))
            elif mine[0] > 0 and text == found[0][2] != found[mine[0]][2]:
                found[mine[0]] = (entry.id, where, text)
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
