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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

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
    filled in. English returns the message itself, so English output is the f-string it was."""
    text = translator(lang()).gettext(message)
    return text.format(**fields) if fields else text


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
        return self.ruleset.glossary.name(kind, str(id_), self.lang)

    def named(self, kind: str, value: str) -> str:
        """An id of glossary ``kind`` by its name (areas, cards and orders as :meth:`area`,
        :meth:`card`, :meth:`order` name them); an id the glossary lacks as it is."""
        if kind == "area":
            return self.area(value)
        if kind == "house_card":
            return self.card(value)
        if kind == "order":
            return self.order(value)
        return self.glossary(kind, value) if value in self.ruleset.glossary.ids(kind) else value

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
        return self.glossary("track", track_id) if self.lang != "en" else human(track_id).title()

    def token(self, token_id: Any) -> str:
        return self.glossary("token", token_id) if self.lang != "en" else human(token_id)


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
    """A unit type: its id in English (``a footman``), its glossary name in Chinese."""
    speaker = _speaker()
    return speaker.glossary("unit", value) if speaker is not None else value


def sep() -> str:
    """The separator of a list: ``, `` (、 in Chinese)."""
    return tr(", ")


def about(value: str) -> str:
    """``clash_of_kings/iron_throne`` → ``clash of kings, iron throne``."""
    speaker = _speaker()
    if speaker is None:
        return human(value).replace("/", ", ")
    parts = []
    for part in value.split("/"):
        kind = next((k for k in ("westeros_card", "track", "token")
                     if part in speaker.ruleset.glossary.ids(k)), None)
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


def houses(values: Sequence[Any]) -> str:
    return sep().join(house(v) for v in values) if values else tr("no one")


def units(values: Sequence[str]) -> str:
    if not values:
        return tr("no units")
    speaker = _speaker()
    if speaker is None:
        return units_text(list(values))
    return sep().join(f"{unit(u)}×{values.count(u)}" for u in ("footman", "knight", "ship")
                      if u in values)


def entries(values: Sequence[Mapping[str, str]], nm: Names) -> str:
    return sep().join(tr("a {unit} in {area}", unit=unit(v["unit"]), area=nm.area(v["area"]))
                      for v in values) or tr("nothing")


def by_house(mapping: Mapping[str, Any]) -> str:
    return sep().join(f"{house(h)} {v}" for h, v in mapping.items()) or tr("none")


REASONS = (N_("no legal target"), N_("declined"), N_("no discarded cards"),
           N_("no knight left in the unit pool"), N_("no available power to pay"),
           N_("no Defense order to remove"), N_("supply limit on the way back from a failed attack"),
           N_("nothing to act on"), N_("supply"), N_("wildlings"), N_("nmr"), N_("defaults"),
           N_("battle lost"), N_("highest"), N_("lowest"))
"""The engine's fixed reasons and causes (event fields ``reason``, ``cause``), for the
catalogs; a reason the catalog does not know is written as it is."""


def reason(text: Any) -> str:
    """An engine reason in the current language (as it is when the catalog lacks it)."""
    return say(text) if isinstance(text, Msg) else tr(str(text))


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
