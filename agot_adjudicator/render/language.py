"""The language a text is written in: sentences through the message catalogs and ids by
their names, for every renderer (the report, pictures, receipts, views, the site, mail).

A renderer writes English and calls :func:`tr` for a sentence and :func:`house`, :func:`units`,
:class:`Names` for ids; inside :meth:`Names.speaking` they answer in that language (zh-Hans,
zh-Hant: the catalogs of :mod:`agot_adjudicator.render.i18n` and the ruleset's glossary),
outside it in English, as the report always wrote it. :func:`say` says a
:class:`~agot_adjudicator.model.text.Msg` (a sentence the engine or a reader built) the same way.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from agot_adjudicator.model.glossary import MEASURES
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.text import FIELD_KINDS, N_, Msg
from agot_adjudicator.render.areas import units_text
from agot_adjudicator.render.i18n import translator

PHASE_TITLES = {"westeros": N_("Westeros phase"), "planning": N_("Planning phase"),
                "action": N_("Action phase"), "ended": N_("End of the game")}
"""The title of each phase of a round (its id in a state or an event)."""


_SPEAKER: ContextVar[Names | None] = ContextVar("agot_report_speaker", default=None)
"""The :class:`Names` a report is being written with (its language), set by
:meth:`Names.speaking`; unset means English."""


def lang() -> str:
    """The language of the report being written (``en`` outside one)."""
    speaker = _SPEAKER.get()
    return speaker.lang if speaker is not None else "en"


def tr(message: str, /, **fields: Any) -> str:
    """``message`` (English, the catalog's msgid) in the current language, its ``{fields}``
    filled in. English returns the message itself, so English output is the f-string it was.
    A translation may count a unit field (``{unit:一}``, :class:`Counted`)."""
    speaker = _SPEAKER.get()
    # English is the catalogs' source: its translator gives every message back as it is
    text = message if speaker is None or speaker.lang == "en" else \
        translator(speaker.lang).gettext(message)
    if not fields:
        return text
    counted = _COUNTED_FIELDS[0] in text or _COUNTED_FIELDS[1] in text
    return _FORMATTER.format(text, **fields) if counted else text.format(**fields)


class _Formatter(string.Formatter):
    """``str.format``, where a counted field's spec (``{unit:一}``) given a plain name takes
    the default measure word (个/個) rather than failing."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in COUNTED_SPECS and not isinstance(value, Counted):
            value = Counted(str(value), MEASURES.get(lang(), ""))
        return format(value, format_spec)


_FORMATTER = _Formatter()


@dataclass(frozen=True)
class Names:
    """Readable names for ruleset ids in one language (``en``: the ruleset's own names;
    ``zh-Hans``/``zh-Hant``: the glossary's)."""

    ruleset: Ruleset
    lang: str = "en"

    @contextmanager
    def speaking(self) -> Iterator[Names]:
        """Sentences (:func:`tr`) and names (:func:`house`, ...) in this language meanwhile."""
        token = _SPEAKER.set(self)
        try:
            yield self
        finally:
            _SPEAKER.reset(token)

    def glossary(self, kind: str, id_: Any) -> str:
        return self.ruleset.words.name(kind, str(id_), self.lang)

    def counted(self, kind: str, id_: str) -> Counted:
        """The glossary's name of ``id_`` with its measure word (:class:`Counted`)."""
        glossary = self.ruleset.words
        return Counted(self.glossary(kind, id_), glossary.measure(kind, id_, self.lang))

    def named(self, kind: str, value: str) -> str:
        """An id of glossary ``kind`` by its name (areas, cards and orders as :meth:`area`,
        :meth:`card`, :meth:`order` name them); an id the glossary lacks as it is."""
        if kind == "area":
            return self.area(value)
        if kind == "house_card":
            return self.card(value)
        if kind == "order":
            return self.order(value)
        if value not in self.ruleset.words.ids(kind):
            return value
        return self.counted(kind, value) if kind == "unit" else self.glossary(kind, value)

    def name_of(self, id_: str) -> str | None:
        """The name of a ruleset id of any kind a player answers with (an area, a house card,
        an order token, a house, a unit type, a track), or None when it is none of them."""
        rs = self.ruleset
        for kind, ids in (("area", rs.areas), ("house_card", rs.house_cards),
                          ("order", rs.order_tokens), ("house", rs.houses),
                          ("unit", rs.words.ids("unit")), ("track", rs.words.ids("track"))):
            if id_ in ids:
                return self.named(kind, id_)
        return None

    def area(self, area_id: Any) -> str:
        if area_id is None:
            return tr("nowhere")
        if self.lang != "en" and area_id in self.ruleset.areas:
            return self.glossary("area", area_id)
        area = self.ruleset.areas.get(area_id)
        return area.name if area is not None else str(area_id)

    def card(self, card_id: Any) -> str:
        if self.lang != "en" and card_id in self.ruleset.house_cards:
            return self.glossary("house_card", card_id)
        card = self.ruleset.house_cards.get(card_id)
        return card.name if card is not None else human(card_id)

    def order(self, order_id: Any) -> str:
        token = self.ruleset.order_tokens.get(order_id)
        if token is None:
            return human(order_id)
        if self.lang != "en":
            return self.glossary("order", order_id)
        text = human(token.kind).title()
        if token.kind in ("march", "defense") or token.bonus:
            text += f" {token.bonus:+d}"
        return text + ("★" if token.special else "")

    def westeros(self, card_id: Any) -> str:
        """A Westeros card: ``clash_of_kings`` → ``Clash of kings`` (as the report always wrote it)."""
        if self.lang != "en":
            return self.glossary("westeros_card", card_id)
        return human(card_id).capitalize()

    def track(self, track_id: Any) -> str:
        """An influence track by its name (``King's Court``, 御前会议)."""
        return self.glossary("track", track_id)

    def token(self, token_id: Any) -> str:
        """A dominance token by its name (``Valyrian Steel Blade``, 瓦雷利亚钢剑)."""
        return self.glossary("token", token_id)


class Counted(str):
    """A name that knows the measure word a count of it takes, for a catalog's sentence: in a
    translation ``{unit}`` is the name (船只), ``{unit:一}`` one of it with its measure word
    (一艘船只, 一名骑士) and ``{unit:量}`` the measure word alone (每艘). So a sentence says one
    unit of whatever kind its field holds without a translation per kind (issue 32.2).

    >>> ship = Counted("船只", "艘")
    >>> "征召{unit:一}；每{unit:量}计 1 点；{unit}".format(unit=ship)
    '征召一艘船只；每艘计 1 点；船只'
    """

    measure: str

    def __new__(cls, name: str, measure: str) -> Counted:
        self = super().__new__(cls, name)
        self.measure = measure
        return self

    def __format__(self, spec: str) -> str:
        if spec == ONE:
            return f"一{self.measure}{self}"
        if spec == MEASURE:
            return self.measure
        return format(str(self), spec)


ONE, MEASURE = "一", "量"
"""The format specs of a :class:`Counted` field (``{unit:一}``, ``{unit:量}``)."""
COUNTED_SPECS = (ONE, MEASURE)
_COUNTED_FIELDS = (f":{ONE}}}", f":{MEASURE}}}")
"""How a counted field ends in a sentence (``{unit:一}``, ``{unit:量}``)."""


def _speaker() -> Names | None:
    speaker = _SPEAKER.get()
    return speaker if speaker is not None and speaker.lang != "en" else None


def say(text: Any) -> str:
    """A sentence built by the engine or a reader (:class:`~agot_adjudicator.model.text.Msg`)
    in the current language: its template through the catalog and each field named by its kind
    (:data:`~agot_adjudicator.model.text.FIELD_KINDS`), lists joined by :func:`sep`, nested
    sentences said in turn. English, or a plain ``str``, is the text as it is."""
    speaker = _speaker()
    if speaker is None or not isinstance(text, Msg):
        return str(text)
    return tr(text.template, **{k: _field(speaker, k, v) for k, v in text.fields.items()})


def _field(speaker: Names, name: str, value: Any) -> Any:
    if isinstance(value, Msg):
        return say(value)
    if isinstance(value, (list, tuple)):
        return sep().join(str(_field(speaker, name, v)) for v in value)
    kind = FIELD_KINDS.get(name)
    if kind is None or not isinstance(value, str):
        return value
    return speaker.named(kind, value)


def say_named(text: Any) -> str:
    """A sentence with its ids named in the current language, English too: a decision's
    prompt (``Place Stark's orders (one per area with its units: White Harbor, …)``), named
    as the report names houses, areas, cards and orders (a unit type stays its id in English,
    as :func:`unit` writes it). Outside :meth:`Names.speaking`, :func:`say`."""
    speaker = _SPEAKER.get()
    if speaker is None or speaker.lang != "en" or not isinstance(text, Msg):
        return say(text)
    return text.template.format(**{k: _english_named(speaker, k, v)
                                   for k, v in text.fields.items()})


def _english_named(speaker: Names, name: str, value: Any) -> Any:
    if isinstance(value, Msg):
        return say_named(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_english_named(speaker, name, v)) for v in value)
    kind = FIELD_KINDS.get(name)
    if kind is None or kind == "unit" or not isinstance(value, str):
        return value
    return speaker.named(kind, value)


def speaker() -> Names | None:
    """The :class:`Names` of the text being written when it is not English (else None): for
    other renderers (receipts) that name ids in the current language."""
    return _speaker()


def human(value: Any) -> str:
    """``clash_of_kings`` → ``clash of kings``; None → ``none``.

    >>> human("game_of_thrones")
    'game of thrones'
    """
    return "none" if value is None else str(value).replace("_", " ")


def house(value: Any) -> str:
    """A house id as a name: ``stark`` → ``Stark`` (史塔克 in Chinese)."""
    if value is None:
        return tr("no one")
    speaker = _speaker()
    if speaker is not None:
        return speaker.glossary("house", value)
    return str(value).capitalize()


def unit(value: str) -> str:
    """A unit type: its id in English (``a footman``), its glossary name in Chinese, which
    knows its measure word (:class:`Counted`: ``{unit:一}`` is 一艘船只)."""
    speaker = _speaker()
    return speaker.counted("unit", value) if speaker is not None else value


def sep() -> str:
    """The separator of a list: ``, `` (、 in Chinese)."""
    return tr(", ")


ABOUT = {"wildlings": N_("the bids against the wildlings"),
         "wildlings/highest": N_("the highest bid against the wildlings"),
         "wildlings/lowest": N_("the lowest bid against the wildlings")}
"""What a bid or a tie is about (``about`` of ``bids_revealed``, ``tie_broken``), in words for
a reader of another language; ``clash_of_kings/TRACK`` is :data:`CLASH_BIDS`."""
CLASH_BIDS = N_("the {card} bids for the {track} track")


def about(value: str, names: Names | None = None) -> str:
    """What bids or a tie are about, as a phrase: ``clash_of_kings/iron_throne`` → ``the Clash
    of kings bids for the Iron Throne track`` (众皇争霸的铁王座出价), ``wildlings/lowest`` →
    ``the lowest bid against the wildlings``; a single id by its name. ``names``: the names
    to use when no language is being spoken (English, :class:`Names`)."""
    speaker = _speaker() or names
    if speaker is None:
        return human(value).replace("/", ", ")
    if value in ABOUT:
        return tr(ABOUT[value])
    card, _, track = value.partition("/")
    glossary = speaker.ruleset.words
    if track and card in glossary.ids("westeros_card") and track in glossary.ids("track"):
        return tr(CLASH_BIDS, card=speaker.westeros(card), track=speaker.track(track))
    parts = []
    for part in value.split("/"):
        kind = next((k for k in ("westeros_card", "track", "token")
                     if part in glossary.ids(k)), None)
        parts.append(speaker.glossary(kind, part) if kind else tr(human(part)))
    return sep().join(parts)


def plain(value: Any) -> str:
    """Any answer value as plain words (no brackets or quotes).

    >>> plain({"winterfell": "march_0", "the_reach": None})
    'winterfell march 0, the reach none'
    >>> plain([])
    'nothing'
    """
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    if isinstance(value, list):
        return sep().join(plain(v) for v in value) or tr("nothing")
    if isinstance(value, dict):
        return sep().join(f"{human(k)} {plain(v)}" for k, v in value.items()) or tr("nothing")
    return human(value)


def option(value: Any) -> str:
    """An answer a reader may type, as a question lists it: JSON in English (as it always
    was); in Chinese an id with its glossary name beside it (``harrenhal（赫伦堡）``,
    ``ship:ironmans_bay（船只:铁群湾）``), anything else as JSON.

    >>> option("harrenhal"), option(None)
    ('"harrenhal"', 'null')
    """
    speaker = _speaker()
    if speaker is None or not isinstance(value, str):
        return json.dumps(value, ensure_ascii=speaker is None)
    names = [speaker.name_of(part) for part in value.split(":")]
    if any(name is None for name in names):
        return json.dumps(value, ensure_ascii=False)
    return tr("{id} ({name})", id=value, name=":".join(str(n) for n in names))


def houses(values: Sequence[Any]) -> str:
    return sep().join(house(v) for v in values) if values else tr("no one")


def units(values: Sequence[str]) -> str:
    if not values:
        return tr("no units")
    speaker = _speaker()
    if speaker is None:
        return units_text(list(values))
    return sep().join(count(values.count(u), u) for u in ("footman", "knight", "ship")
                      if u in values)


def count(number: int, unit_id: str) -> str:
    """``number`` units of one type in words: ``2 footmen`` (English), ``2 名步兵`` (the
    glossary's name and measure word in Chinese)."""
    return tr("{count} {unit}", count=number, unit=unit(unit_id)) if _speaker() else \
        units_text([unit_id] * number)


def entries(values: Sequence[Mapping[str, str]], nm: Names) -> str:
    return sep().join(tr("a {unit} in {area}", unit=unit(v["unit"]), area=nm.area(v["area"]))
                      for v in values) or tr("nothing")


def by_house(mapping: Mapping[str, Any]) -> str:
    return sep().join(f"{house(h)} {v}" for h, v in mapping.items()) or tr("none")


REASONS = (N_("no legal target"), N_("declined"), N_("no discarded cards"),
           N_("no knight left in the unit pool"), N_("no available power to pay"),
           N_("no Defense order to remove"), N_("supply limit on the way back from a failed attack"),
           N_("nothing to act on"), N_("supply"), N_("wildlings"),
           N_("battle lost"), N_("highest"), N_("lowest"))
"""The engine's fixed reasons and causes (event fields ``reason``, ``cause``), for the
catalogs; a reason the catalog does not know is written as it is."""

DEFAULT_REASONS = {"nmr": N_("defaulted by --nmr: no moves received"),
                   "defaults": N_("defaulted by --defaults"),
                   "recorded": N_("defaulted by --nmr or --defaults (the round's ledger)")}
"""Why a default applied (the ``default_applied`` event's reason codes, P2) in words."""


def reason(text: Any) -> str:
    """An engine reason in the current language (as it is when the catalog lacks it)."""
    return say(text) if isinstance(text, Msg) else tr(str(text))


def default_reason(text: Any) -> str:
    """Why a default applied (:data:`DEFAULT_REASONS`; a plan's misfit as :func:`reason`)."""
    code = None if isinstance(text, Msg) or not isinstance(text, str) \
        else DEFAULT_REASONS.get(text)
    return tr(code) if code is not None else reason(text)


# --- decisions and file names ---------------------------------------------------------------

DECISION_KINDS = {
    "orders": N_("orders"), "raven": N_("Messenger Raven"), "bid": N_("bid"),
    "tie_break": N_("tie-break"), "house_card": N_("house card"),
    "blade": N_("Valyrian Steel Blade"), "card_choice": N_("house card text"),
    "support": N_("support"), "march": N_("march"), "raid": N_("raid"),
    "casualties": N_("casualties"), "retreat": N_("retreat"),
    "retreat_losses": N_("losses on retreat"), "muster": N_("mustering"),
    "supply_reduction": N_("supply reduction"), "wildling_reward": N_("wildling reward"),
    "wildling_losses": N_("wildling losses"), "march_next": N_("next march"),
    "raid_next": N_("next raid"),
}
"""Decision kinds (``Request.kind``) in words, for a report that is not in English."""


def decision_kind(kind: str) -> str:
    """A decision's kind in the report: the kind id in English (as the report always wrote
    it), its name in another language."""
    if _speaker() is None or kind not in DECISION_KINDS:
        return kind
    return tr(DECISION_KINDS[kind])


def file_name_text(name: str) -> str:
    """A submission file name for the report's record: as it is when it is plain
    (letters, digits, ``._+-``), else JSON-quoted with ``<``, ``&`` and backquotes escaped.

    >>> file_name_text("stark.yaml")
    'stark.yaml'
    >>> print(file_name_text("<b>`x`.yaml"))
    "\\u003cb>\\u0060x\\u0060.yaml"
    """
    if _PLAIN_FILE.fullmatch(name):
        return name
    quoted = json.dumps(name, ensure_ascii=True)
    return quoted.replace("<", "\\u003c").replace("&", "\\u0026").replace("`", "\\u0060")


_PLAIN_FILE = re.compile(r"[A-Za-z0-9._+-]+")
