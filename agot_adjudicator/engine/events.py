"""Events: what happened, in order, each naming the rule that produced it.

An event is a plain mapping with ``type``, ``rule``, ``round``, ``phase`` first,
then its own fields (ids from the ruleset, numbers, lists). The report and the
JSON Lines log are rendered from the events, so they cannot disagree.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def make_event(type_: str, rule: str, round_: int, phase: str, **fields: Any) -> Event:
    """Build an event with its fixed leading keys.

    >>> make_event("pillage", "R5.2", 2, "action", house="stark", power=1)
    {'type': 'pillage', 'rule': 'R5.2', 'round': 2, 'phase': 'action', 'house': 'stark', 'power': 1}
    """
    event: Event = {"type": type_, "rule": rule, "round": round_, "phase": phase}
    event.update(fields)
    return event
