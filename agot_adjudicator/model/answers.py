"""The shape of every kind of direct answer, checked before the engine sees a value.

A decision's kind (``Request.kind``) fixes the plain-data shape of its answer:
an id, an integer, a boolean, a list of ids, a map of orders, a march, a list
of units. :func:`shape_problem` says why a value does not have that shape (a
list where an id belongs, ``true`` as an area, an integer with 5,000 digits),
so the rule checks that follow never meet a value they cannot hash or compare.
Both ``agot validate`` and ``agot adjudicate`` check direct answers by the kind
their decision id names (:func:`kind_of_answer`); the decider checks again by
the kind of the decision actually asked.
"""

from __future__ import annotations

import re
from typing import Any

from agot_adjudicator.model.text import Msg

ID = re.compile(r"[a-z][a-z0-9_]*")
MAX_ID = 64
UNITS = ("footman", "knight", "ship")
MUSTER = re.compile(r"(footman|knight|upgrade|ship(:[a-z][a-z0-9_]*)?)")
MAX_ITEMS = 64
"""No answer needs more than this many items in a list or map."""

Shape = tuple[Any, ...]

_ID: Shape = ("id",)
_INT: Shape = ("int", 0, 99)
_BOOL: Shape = ("bool",)
_NULL: Shape = ("null",)
_UNIT: Shape = ("enum", UNITS)


def _list(item: Shape) -> Shape:
    return ("list", item)


def _map(value: Shape) -> Shape:
    return ("map", value)


def _obj(fields: dict[str, Shape], required: tuple[str, ...] = ()) -> Shape:
    return ("obj", fields, required)


def _any(*shapes: Shape) -> Shape:
    return ("any", shapes)


_UNITS_OR_TYPES = _list(_any(_UNIT, _obj({"area": _ID, "unit": _UNIT}, ("area", "unit"))))

SHAPES: dict[str, Shape] = {
    "orders": _map(_any(_ID, _NULL)),
    "raven": _any(_NULL, _obj({"area": _ID, "order": _ID}, ("area", "order"))),
    "raid": _list(_ID),
    "march": _obj({"moves": _map(_list(_UNIT)), "leave_power_token": _BOOL}),
    "support": _ID,
    "house_card": _ID,
    "blade": _BOOL,
    "card_choice": _ID,
    "retreat": _ID,
    "casualties": _UNITS_OR_TYPES,
    "retreat_losses": _UNITS_OR_TYPES,
    "supply_reduction": _UNITS_OR_TYPES,
    "wildling_losses": _UNITS_OR_TYPES,
    "wildling_reward": _ID,
    "muster": _list(("muster",)),
    "bid": _INT,
    "tie_break": _any(_ID, _list(_ID)),
    "next": _ID,
}
"""Answer shape per decision kind (``*_next`` kinds share ``next``)."""

_EXPECT = {"id": Msg("an id (snake_case)"), "int": Msg("a whole number"),
           "bool": Msg("true or false"), "null": "null",
           "muster": Msg("footman, knight, upgrade or ship:SEA"),
           "list": Msg("a list"), "map": Msg("a map of ids"), "obj": Msg("a map")}


def _what(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return Msg("a boolean")
    if isinstance(value, int):
        return Msg("a number")
    if isinstance(value, str):
        return Msg("a text") if len(value) <= 40 else Msg("a text of {count} characters",
                                                            count=len(value))
    if isinstance(value, list):
        return Msg("a list")
    if isinstance(value, dict):
        return Msg("a map")
    return type(value).__name__


def _expect(shape: Shape) -> str:
    if shape[0] == "any":
        out = _expect(shape[1][0])
        for s in shape[1][1:]:
            out = Msg("{first} or {then}", first=out, then=_expect(s))
        return out
    if shape[0] == "enum":
        return ", ".join(shape[1])
    if shape[0] == "int":
        return Msg("a whole number from {low} to {high}", low=shape[1], high=shape[2])
    return _EXPECT[shape[0]]


def _at(where: str) -> str:
    """Where in the answer a problem is: its path (``moves.x``, ``[0]``), or the answer."""
    return where.lstrip(".") or Msg("the answer")


def _problem(shape: Shape, value: Any, where: str) -> str | None:
    kind = shape[0]
    bad = Msg("{path} is {what}; expected {expected}", path=_at(where), what=_what(value),
              expected=_expect(shape))
    if kind == "any":
        for option in shape[1]:
            if _problem(option, value, where) is None:
                return None
        return bad
    if kind == "id":
        ok = isinstance(value, str) and len(value) <= MAX_ID and ID.fullmatch(value) is not None
        return None if ok else bad
    if kind == "muster":
        ok = isinstance(value, str) and len(value) <= MAX_ID and MUSTER.fullmatch(value) is not None
        return None if ok else bad
    if kind == "enum":
        return None if isinstance(value, str) and value in shape[1] else bad
    if kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and \
            shape[1] <= value <= shape[2]
        return None if ok else bad
    if kind == "bool":
        return None if isinstance(value, bool) else bad
    if kind == "null":
        return None if value is None else bad
    if kind == "list":
        if not isinstance(value, list):
            return bad
        if len(value) > MAX_ITEMS:
            return Msg("{path} has {count} items; at most {most}", path=_at(where),
                       count=len(value), most=MAX_ITEMS)
        for i, item in enumerate(value):
            why = _problem(shape[1], item, f"{where}[{i}]")
            if why:
                return why
        return None
    if kind in ("map", "obj"):
        if not isinstance(value, dict):
            return bad
        if len(value) > MAX_ITEMS:
            return Msg("{path} has {count} keys; at most {most}", path=_at(where),
                       count=len(value), most=MAX_ITEMS)
        for key in value:
            if not (isinstance(key, str) and len(key) <= MAX_ID and ID.fullmatch(key)):
                return Msg("{path} has a key that is not an id", path=_at(where))
        if kind == "obj":
            fields, required = shape[1], shape[2]
            unknown = [k for k in value if k not in fields]
            if unknown:
                return Msg("{path}: unknown key '{name}' (keys: {keys})", path=_at(where),
                           name=unknown[0], keys=list(fields))
            missing = [k for k in required if k not in value]
            if missing:
                return Msg("{path}: '{name}' is missing", path=_at(where), name=missing[0])
            for key, item in value.items():
                why = _problem(fields[key], item, f"{where}.{key}")
                if why:
                    return why
            return None
        for key, item in value.items():
            why = _problem(shape[1], item, f"{where}.{key}")
            if why:
                return why
        return None
    raise ValueError(f"unknown shape {kind}")  # pragma: no cover - a bug in SHAPES


def shape_of(kind: str) -> Shape | None:
    """The answer shape of a decision kind (None: a kind this table does not know)."""
    if kind.endswith("_next"):
        return SHAPES["next"]
    return SHAPES.get(kind)


def shape_problem(kind: str, value: Any) -> str | None:
    """Why ``value`` cannot answer a decision of ``kind`` (its shape), or None.

    >>> shape_problem("orders", {"highgarden": ["raid"]})
    'highgarden is a list; expected an id (snake_case) or null'
    >>> shape_problem("bid", 10**5000)
    'the answer is a number; expected a whole number from 0 to 99'
    >>> shape_problem("blade", True) is None
    True
    """
    shape = shape_of(kind)
    if shape is None:
        return None
    why = _problem(shape, value, "")
    return why or None


def kind_of_answer(answer_id: str) -> str | None:
    """The decision kind a direct answer id names, from its parts (None: not recognised).

    >>> kind_of_answer("r3/march@lannisport/house_card/stark")
    'house_card'
    >>> kind_of_answer("r2/clash_of_kings/iron_throne/bid/stark")
    'bid'
    """
    parts = answer_id.split("/")[1:-1]
    if not parts:
        return None
    last = parts[-1]
    if last.startswith("next@"):
        return "next"
    if last.startswith("raid@"):
        return "raid"
    if last.startswith("march@"):
        return "march"
    if last.startswith("support@"):
        return "support"
    if parts[0] == "mustering" and len(parts) == 2:
        return "muster"
    if len(parts) >= 2 and parts[-2] == "card":
        return "card_choice"
    if last == "tie_break":
        return "tie_break"
    if parts[0] == "wildlings":
        return {"reward": "wildling_reward", "losses": "wildling_losses",
                "bid": "bid"}.get(last)
    if parts[:2] == ["supply", "reduce"]:
        return "supply_reduction"
    return last if last in SHAPES else None
