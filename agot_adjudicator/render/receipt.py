"""A submission echoed in words, and receipts wrapped at 72 columns (``agot inbox``).

``orders: {winterfell: march_plus1}`` reads "March +1 (special) in Winterfell";
a march plan reads "March from Winterfell: 1 knight to Moat Cailin, leave a
power token"; bids read "Bid 3 on the Iron Throne track"; direct answers are
echoed with their decision ids. Names come from the ruleset
(:func:`~agot_adjudicator.model.naming.name_index`).
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from collections.abc import Sequence
from typing import Any

from agot_adjudicator.errors import Problem
from agot_adjudicator.model.naming import NameIndex
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import say, sep, speaker, tr
from agot_adjudicator.render.language import units as units_in_words
from agot_adjudicator.render.report import wrap as wrap_columns

WIDTH = 72
_PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}
_KIND = {"area": "area", "order": "order", "card": "house_card", "house": "house",
         "track": "track"}
"""Receipt name category → glossary kind."""


def _units(units: Sequence[str]) -> str:
    if speaker() is not None:
        return units_in_words(list(units))
    counts = Counter(units)
    return ", ".join(f"{n} {u if n == 1 else _PLURAL.get(u, u + 's')}"
                     for u, n in counts.items())


def _name(index: NameIndex, category: str, id_: str) -> str:
    """The name of ``id_``: the ruleset's (English), or the glossary's in the receipt's
    language."""
    names = speaker()
    if names is not None and id_ in names.ruleset.words.ids(_KIND[category]):
        return names.glossary(_KIND[category], id_)
    return index.name(category, id_)


def _names(index: NameIndex, category: str, ids: Sequence[str]) -> str:
    return sep().join(_name(index, category, i) for i in ids) if ids else tr("none")


def _compact(value: Any, index: NameIndex) -> str:
    """A value with every id it holds shown by its name, as short flow text."""
    def show(v: Any) -> Any:
        if isinstance(v, str):
            for category in ("area", "order", "card", "house", "track"):
                if v in index.display.get(category, {}):
                    return _name(index, category, v)
            return v
        if isinstance(v, list):
            return [show(x) for x in v]
        if isinstance(v, dict):
            return {str(show(k)): show(x) for k, x in v.items()}
        return v
    return json.dumps(show(value), ensure_ascii=False)


def echo_lines(data: dict[str, Any], index: NameIndex) -> list[str]:
    """One sentence per thing the submission ``data`` (ids) says."""
    out: list[str] = []
    a = lambda i: _name(index, "area", i)  # noqa: E731
    for area, order in (data.get("orders") or {}).items():
        out.append(tr("No order in {area}", area=a(area)) if order is None else
                   tr("{order} in {area}", order=_name(index, "order", order), area=a(area)))
    for track, bid in (data.get("bids") or {}).items():
        out.append(tr("Bid {bid} on the {track} track", bid=bid,
                      track=_name(index, "track", track)))
    if data.get("wildlings") is not None:
        out.append(tr("Bid {bid} against the wildlings", bid=data["wildlings"]))
    plans = data.get("plans") or {}
    for march in plans.get("marches") or []:
        moves = march.get("moves") or {}
        what = tr("; ").join(tr("{units} to {area}", units=_units(units), area=a(dest))
                             for dest, units in moves.items())
        text = tr("March from {area}: {moves}", area=a(march["from"]),
                  moves=what or tr("no unit moves"))
        if march.get("leave_power_token"):
            text += tr(", leave a power token")
        out.append(text)
    for raid in plans.get("raids") or []:
        out.append(tr("Raid from {area}: targets {targets}", area=a(raid["from"]),
                      targets=_names(index, "area", raid.get("targets") or [])))
    for area, houses in (plans.get("support") or {}).items():
        backed = [h for h in houses or [] if h != "none"]
        out.append(tr("Support from {area}: backs {houses}", area=a(area),
                      houses=_names(index, "house", backed) if backed else tr("no one")))
    raven = plans.get("raven", "absent")
    if raven is None:
        out.append(tr("Messenger Raven: no swap"))
    elif isinstance(raven, dict):
        out.append(tr("Messenger Raven: {order} in {area}",
                      order=_name(index, "order", raven["order"]), area=a(raven["area"])))
    for rule in plans.get("house_cards") or []:
        if "priority" in rule:
            out.append(tr("House cards, in this order: {cards}",
                          cards=_names(index, "card", rule["priority"])))
        elif "at" in rule:
            out.append(tr("House card in a battle at {area}: {card}", area=a(rule["at"]),
                          card=_name(index, "card", rule["card"])))
        else:
            out.append(tr("House card against {house}: {card}",
                          house=_name(index, "house", rule["against"]),
                          card=_name(index, "card", rule["card"])))
    for area, destinations in (plans.get("retreats") or {}).items():
        out.append(tr("Retreat from {area} to: {areas}", area=a(area),
                      areas=_names(index, "area", destinations or [])))
    for area, steps in (plans.get("musters") or {}).items():
        out.append(tr("Muster in {area}: {steps}", area=a(area),
                      steps=sep().join(_step(x, index) for x in steps) if steps
                      else tr("nothing")))
    if plans.get("tie_break"):
        out.append(tr("Ties broken in this order: {houses}",
                      houses=_names(index, "house", plans["tie_break"])))
    for key, title in (("casualties", N_("Casualties, in this order: {losses}")),
                       ("supply_reductions", N_("Supply reductions, in this order: {losses}")),
                       ("wildling_losses", N_("Wildling losses, in this order: {losses}"))):
        if plans.get(key):
            out.append(tr(title, losses=sep().join(_loss(v, index) for v in plans[key])))
    blade = plans.get("blade")
    if isinstance(blade, str):
        out.append(tr("Valyrian Steel Blade: {how}", how=tr(BLADE_WORDS.get(blade, blade))))
    elif isinstance(blade, dict):
        for area, how in blade.items():
            out.append(tr("Valyrian Steel Blade in a battle at {area}: {how}", area=a(area),
                          how=tr(BLADE_WORDS.get(str(how), str(how)))))
    if "accept_support" in plans:
        out.append(tr("Support offered to you: accepted") if plans["accept_support"] else
                   tr("Support offered to you: refused"))
    if plans.get("wildling_reward"):
        out.append(tr("Night's Watch reward, in this order: {cards}",
                      cards=_names(index, "card", plans["wildling_reward"])))
    for card, choices in (plans.get("card_choices") or {}).items():
        out.append(tr("{card}: choose, in this order: {choices}",
                      card=_name(index, "card", card),
                      choices=sep().join(_any_name(c, index) for c in choices or [])
                      or tr("decline")))
    done = {"marches", "raids", "support", "raven", "house_cards", "retreats", "musters",
            "tie_break", "casualties", "supply_reductions", "wildling_losses", "blade",
            "accept_support", "wildling_reward", "card_choices"}
    for key, value in plans.items():
        if key not in done:
            out.append(tr("Plan {key}: {value}", key=key.replace("_", " "),
                          value=_compact(value, index)))
    for answer_id, value in (data.get("answers") or {}).items():
        out.append(tr("Answer to {id}: {value}", id=answer_id, value=_compact(value, index)))
    return out


def part_words(part: str, index: NameIndex) -> str:
    """A part of a submission (:mod:`~agot_adjudicator.io.parts`) in words, in the current
    language: ``orders``, ``bid on the Iron Throne track``, ``plan marches``, ``answer to ID``."""
    head, _, rest = part.partition(".")
    if head == "orders":
        return tr("orders")
    if head == "wildlings":
        return tr("bid against the wildlings")
    if head == "bids":
        return tr("bid on the {track} track", track=_name(index, "track", rest))
    if head == "plans":
        return tr("plan {key}", key=rest)
    return tr("answer to {id}", id=rest)


BLADE_WORDS = {"auto": N_("when it changes the outcome"), "never": N_("never"),
               "always": N_("always")}
"""A Blade plan's value in words (R6.5)."""


def _loss(value: Any, index: NameIndex) -> str:
    """A unit type, or ``{area, unit}``, of a losses plan in words."""
    from agot_adjudicator.render.language import entries, unit

    names = speaker()
    if isinstance(value, dict):
        return entries([value], names) if names is not None else \
            f"{value.get('unit')} in {_name(index, 'area', str(value.get('area')))}"
    return unit(value) if names is not None else str(value)


def _step(step: str, index: NameIndex) -> str:
    """A mustering step in words: a unit, an upgrade, a ship into a sea (R3.5)."""
    from agot_adjudicator.render.language import unit

    if step == "upgrade":
        return tr("an upgrade")
    if step.startswith("ship:"):
        return tr("a ship into {area}", area=_name(index, "area", step.split(":", 1)[1]))
    return unit(step) if speaker() is not None else step


def _any_name(value: Any, index: NameIndex) -> str:
    """An id of any kind (area, card, house, order) by its name, or the value as it is."""
    if value == "upgrade":
        return tr("an upgrade")
    if isinstance(value, str):
        for category in ("area", "card", "house", "order", "track"):
            if value in index.display.get(category, {}):
                return _name(index, category, value)
    return str(value)


def wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
    """``text`` wrapped at :data:`WIDTH` columns (never breaking ids or words)."""
    lead = indent if first is None else first
    if speaker() is not None:  # Chinese: break between wide characters too
        full = lead + text
        head = len(full) - len(full.lstrip(" "))
        return wrap_columns(full, WIDTH, indent[head:]).split("\n")
    return textwrap.wrap(text, WIDTH, initial_indent=lead, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [lead.rstrip()]


def receipt_text(head: Sequence[str], sections: Sequence[tuple[str, Sequence[str]]]) -> str:
    """A receipt: ``head`` lines, then each titled section as a list, all within 72 columns."""
    lines: list[str] = []
    for line in head:
        lines.extend(wrap(line, "    ", ""))
    for title, items in sections:
        if not items:
            continue
        lines.append("")
        lines.extend(wrap(title))
        for item in items:
            lines.extend(wrap(item, "    ", "  - "))
    return "\n".join(lines) + "\n"


def problem_text(problem: Problem) -> str:
    """A located problem, ``file:line:col: path: message``, its message said in the current
    language (:func:`~agot_adjudicator.render.language.say`): file and path stay as they are."""
    return problem.located(say(problem.message))
