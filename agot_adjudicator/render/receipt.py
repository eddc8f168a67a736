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
    if names is not None and id_ in names.ruleset.glossary.ids(_KIND[category]):
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
                      steps=sep().join(steps) if steps else tr("nothing")))
    if plans.get("tie_break"):
        out.append(tr("Ties broken in this order: {houses}",
                      houses=_names(index, "house", plans["tie_break"])))
    done = {"marches", "raids", "support", "raven", "house_cards", "retreats", "musters",
            "tie_break"}
    for key, value in plans.items():
        if key not in done:
            out.append(tr("Plan {key}: {value}", key=key.replace("_", " "),
                          value=_compact(value, index)))
    for answer_id, value in (data.get("answers") or {}).items():
        out.append(tr("Answer to {id}: {value}", id=answer_id, value=_compact(value, index)))
    return out


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
