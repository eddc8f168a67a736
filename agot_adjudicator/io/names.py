"""Display names in a submission turned into ids (docs/protocol.md P8, RUL-P8-2).

A player writes ``Moat Cailin: Defense +1``; the schema and the engine know
``moat_cailin: defense_plus1``. :func:`ids_from_names` walks a loaded submission
with the knowledge of what each place holds (an area, an order token, a house,
a house card, a unit, a track) and replaces every name the
:class:`~agot_adjudicator.model.naming.NameIndex` knows by its id, keeping the
position of every node so that later errors still point at the player's line.
A text that is not an id and names nothing is a located problem (with a
suggestion); a key written twice under two spellings is one too. Values of
direct answers (whose kind depends on the decision) are turned into an id only
when the name means exactly one id of any category.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agot_adjudicator.errors import Problem
from agot_adjudicator.io.reading import Document, JsonPath
from agot_adjudicator.model.answers import ID
from agot_adjudicator.model.glossary import name_key
from agot_adjudicator.model.naming import NameIndex
from agot_adjudicator.model.text import Msg

# A spec says what a node holds: a category name, ("map", key spec, value spec),
# ("list", item spec), ("obj", {key: spec}), "any" (answers), "muster", or None (kept).
Spec = Any

_UNITS_OR_TYPES: Spec = ("list", ("either", "unit", ("obj", {"area": "area", "unit": "unit"})))
_PLANS: Spec = ("obj", {
    "raven": ("obj", {"area": "area", "order": "order"}),
    "raids": ("list", ("obj", {"from": "area", "targets": ("list", "area")})),
    "marches": ("list", ("obj", {"from": "area",
                                 "moves": ("map", "area", ("list", "unit"))})),
    "support": ("map", "area", ("list", "house")),
    "house_cards": ("list", ("obj", {"at": "area", "against": "house", "card": "card",
                                     "priority": ("list", "card")})),
    "blade": ("map", "area", None),
    "casualties": _UNITS_OR_TYPES,
    "supply_reductions": _UNITS_OR_TYPES,
    "wildling_losses": _UNITS_OR_TYPES,
    "retreats": ("map", "area", ("list", "area")),
    "card_choices": ("map", "card", ("list", "any")),
    "musters": ("map", "area", ("list", "muster")),
    "wildling_reward": ("list", "card"),
    "tie_break": ("list", "house"),
})
_SECTION: dict[str, Spec] = {
    "orders": ("map", "area", "order"),
    "bids": ("map", "track", None),
    "plans": _PLANS,
    "answers": ("map", None, "any"),
}
SUBMISSION: Spec = ("obj", {"house": "house", "houses": ("map", "house", ("obj", _SECTION)),
                            **_SECTION})
"""What each place of an ``agot-orders/1`` document holds."""

CATEGORY_WORDS = {"area": Msg("area"), "order": Msg("order"), "house": Msg("house"),
                  "card": Msg("card"), "unit": Msg("unit"), "track": Msg("track"),
                  "muster": Msg("muster")}
"""A category in a sentence ("names no area")."""

_KEEP = frozenset({"none", "auto", "never", "always", "upgrade"})
"""Words of the format that are not names (support no one, blade choices, muster upgrade)."""


@dataclass(frozen=True)
class Renamed:
    """A name written in a submission and the id it was turned into."""

    written: str
    id: str
    category: str


class _Walk:
    def __init__(self, doc: Document, index: NameIndex) -> None:
        self.doc = doc
        self.index = index
        self.positions: dict[JsonPath, tuple[int, int]] = {}
        self.key_positions: dict[JsonPath, tuple[int, int]] = {}
        self.renamed: dict[tuple[str, str], Renamed] = {}
        self.problems: list[Problem] = []

    def _name(self, category: str, text: str, old: JsonPath, *, key: bool = False) -> str:
        if text in _KEEP or (category in ("any",) and ID.fullmatch(text)):
            return text
        if category == "any":
            found = self.index.lookup_any(text)
        elif category == "muster":
            unit, sep, sea = text.partition(":")
            new_unit = self.index.lookup("unit", unit.strip()) or unit.strip()
            new_sea = self._name("area", sea.strip(), old) if sep else ""
            found = new_unit + (f":{new_sea}" if sep else "")
            if found == text:
                return text
        else:
            found = self.index.lookup(category, text)
        if found is None:
            if not ID.fullmatch(text) and category != "any":
                self.problems.append(self.doc.problem(old, Msg(
                    "'{value}' names no {category}{hint}", value=text,
                    category=CATEGORY_WORDS.get(category, category),
                    hint=self.index.suggestion(category, text)), key=key))
            return text
        if found != text:
            self.renamed.setdefault((text, found), Renamed(text, found, category))
        return found

    def node(self, value: Any, spec: Spec, old: JsonPath, new: JsonPath) -> Any:
        if old in self.doc.positions:
            self.positions[new] = self.doc.positions[old]
        if spec == "any" and isinstance(value, list | dict):  # a direct answer's structure
            spec = ("list", "any") if isinstance(value, list) else ("map", "any", "any")
        if isinstance(spec, str):
            return self._name(spec, value, old) if isinstance(value, str) else \
                self.node(value, None, old, new)
        kind = spec[0] if isinstance(spec, tuple) else None
        if kind == "either" and isinstance(value, str):
            return self.node(value, spec[1], old, new)
        if kind == "either":
            return self.node(value, spec[2], old, new)
        if isinstance(value, list):
            item = spec[1] if kind == "list" else None
            return [self.node(v, item, (*old, i), (*new, i)) for i, v in enumerate(value)]
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            written: dict[str, str] = {}
            for key, child in value.items():
                key_spec = spec[1] if kind == "map" else None
                child_spec = (spec[2] if kind == "map" else
                              spec[1].get(key) if kind == "obj" else None)
                child_old = (*old, key)
                new_key = self._name(key_spec, key, child_old, key=True) if key_spec else key
                if new_key in out:
                    self.problems.append(self.doc.problem(child_old, Msg(
                        "'{value}' and '{other_value}' both name {id}", value=key,
                        other_value=written[new_key], id=new_key), key=True))
                    continue
                written[new_key] = key
                child_new = (*new, new_key)
                if child_old in self.doc.key_positions:
                    self.key_positions[child_new] = self.doc.key_positions[child_old]
                out[new_key] = self.node(child, child_spec, child_old, child_new)
            return out
        return value


def ids_from_names(doc: Document, index: NameIndex) -> tuple[Document, list[Renamed], list[Problem]]:
    """``doc`` with the display names it holds turned into ids (positions kept), the names
    turned (in the order first met), and the problems (texts that name nothing)."""
    walk = _Walk(doc, index)
    data = walk.node(doc.data, SUBMISSION, (), ())
    walk.positions.setdefault((), doc.positions.get((), (1, 1)))
    renamed = sorted(walk.renamed.values(), key=lambda r: (r.category, name_key(r.written)))
    return (Document(doc.name, data, doc.sha256, walk.positions, walk.key_positions), renamed,
            walk.problems)
