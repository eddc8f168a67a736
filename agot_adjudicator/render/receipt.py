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

from agot_adjudicator.model.naming import NameIndex

WIDTH = 72
_PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}


def _units(units: Sequence[str]) -> str:
    counts = Counter(units)
    return ", ".join(f"{n} {u if n == 1 else _PLURAL.get(u, u + 's')}"
                     for u, n in counts.items())


def _names(index: NameIndex, category: str, ids: Sequence[str]) -> str:
    return ", ".join(index.name(category, i) for i in ids) if ids else "none"


def _compact(value: Any, index: NameIndex) -> str:
    """A value with every id it holds shown by its name, as short flow text."""
    def show(v: Any) -> Any:
        if isinstance(v, str):
            for category in ("area", "order", "card", "house", "track"):
                if v in index.display.get(category, {}):
                    return index.name(category, v)
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
    a = lambda i: index.name("area", i)  # noqa: E731
    for area, order in (data.get("orders") or {}).items():
        out.append(f"No order in {a(area)}" if order is None else
                   f"{index.name('order', order)} in {a(area)}")
    for track, bid in (data.get("bids") or {}).items():
        out.append(f"Bid {bid} on the {index.name('track', track)} track")
    if data.get("wildlings") is not None:
        out.append(f"Bid {data['wildlings']} against the wildlings")
    plans = data.get("plans") or {}
    for march in plans.get("marches") or []:
        moves = march.get("moves") or {}
        what = "; ".join(f"{_units(units)} to {a(dest)}" for dest, units in moves.items())
        text = f"March from {a(march['from'])}: {what or 'no unit moves'}"
        if march.get("leave_power_token"):
            text += ", leave a power token"
        out.append(text)
    for raid in plans.get("raids") or []:
        out.append(f"Raid from {a(raid['from'])}: targets "
                   f"{_names(index, 'area', raid.get('targets') or [])}")
    for area, houses in (plans.get("support") or {}).items():
        backed = [h for h in houses or [] if h != "none"]
        out.append(f"Support from {a(area)}: backs "
                   f"{_names(index, 'house', backed) if backed else 'no one'}")
    raven = plans.get("raven", "absent")
    if raven is None:
        out.append("Messenger Raven: no swap")
    elif isinstance(raven, dict):
        out.append(f"Messenger Raven: {index.name('order', raven['order'])} in "
                   f"{a(raven['area'])}")
    for rule in plans.get("house_cards") or []:
        if "priority" in rule:
            out.append(f"House cards, in this order: {_names(index, 'card', rule['priority'])}")
        elif "at" in rule:
            out.append(f"House card in a battle at {a(rule['at'])}: "
                       f"{index.name('card', rule['card'])}")
        else:
            out.append(f"House card against {index.name('house', rule['against'])}: "
                       f"{index.name('card', rule['card'])}")
    for area, destinations in (plans.get("retreats") or {}).items():
        out.append(f"Retreat from {a(area)} to: {_names(index, 'area', destinations or [])}")
    for area, steps in (plans.get("musters") or {}).items():
        out.append(f"Muster in {a(area)}: {', '.join(steps) if steps else 'nothing'}")
    if plans.get("tie_break"):
        out.append(f"Ties broken in this order: {_names(index, 'house', plans['tie_break'])}")
    done = {"marches", "raids", "support", "raven", "house_cards", "retreats", "musters",
            "tie_break"}
    for key, value in plans.items():
        if key not in done:
            out.append(f"Plan {key.replace('_', ' ')}: {_compact(value, index)}")
    for answer_id, value in (data.get("answers") or {}).items():
        out.append(f"Answer to {answer_id}: {_compact(value, index)}")
    return out


def wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
    """``text`` wrapped at :data:`WIDTH` columns (never breaking ids or words)."""
    lead = indent if first is None else first
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
