"""Rows of a state's areas, shared by ``agot show`` (:mod:`agot_adjudicator.render.views`) and
the report (:mod:`agot_adjudicator.render.report`): below both, so that neither imports the
other's module for them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agot_adjudicator.engine.board import controller
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState


def units_text(units: list[str], routed: list[str] | None = None) -> str:
    """``2 footmen, 1 knight`` style summary.

    >>> units_text(["footman", "footman", "knight"], ["knight"])
    '2 footmen, 1 knight (1 knight routed)'
    """
    def count(items: list[str]) -> str:
        c = Counter(items)
        plural = {"footman": "footmen", "knight": "knights", "ship": "ships"}
        return ", ".join(f"{c[u]} {u if c[u] == 1 else plural[u]}"
                         for u in ("footman", "knight", "ship") if c[u])
    text = count(units)
    if routed:
        text += f" ({count(routed)} routed)"
    return text


AREA_COLUMNS = ("area", "kind", "castle", "controlled by", "units", "order", "power token",
                "neutral force")
"""Every column :func:`area_rows` can build."""


@dataclass(frozen=True)
class AreaLabels:
    """How :func:`area_rows` writes its cells: ids and the ruleset's English names (``agot
    show``, an English report); a report in another language passes its own names."""

    area: Callable[[str], str]
    house: Callable[[str], str] = str
    order: Callable[[str], str] = str
    units: Callable[[list[str], list[str] | None], str] = units_text


def area_rows(state: GameState, ruleset: Ruleset, columns: Sequence[str],
              labels: AreaLabels | None = None) -> list[list[str]]:
    """One row per area that holds anything or is controlled, in area order, with ``columns``
    (a selection of :data:`AREA_COLUMNS`); shared by ``agot show`` and the report (``labels``:
    the names to write, :class:`AreaLabels`)."""
    lb = labels or AreaLabels(area=lambda a: ruleset.areas[a].name)
    rows = []
    for area_id in ruleset.area_ids:
        here = state.area(area_id)
        ctrl = controller(state, ruleset, area_id)
        if here.is_empty() and ctrl is None:
            continue
        area = ruleset.areas[area_id]
        neutral = ""
        if here.neutral_force is not None:
            nf = here.neutral_force
            neutral = f"{nf.strength}" + (f" ({lb.house(nf.house)}: {lb.units(nf.units, None)})"
                                          if nf.house else "")
        cells = {"area": lb.area(area_id), "kind": area.kind, "castle": area.castle or "",
                 "controlled by": lb.house(ctrl) if ctrl else "",
                 "units": (f"{lb.house(str(here.house))}: {lb.units(here.units, here.routed)}"
                           if here.units else ""),
                 "order": lb.order(here.order) if here.order else "",
                 "power token": lb.house(here.power_token) if here.power_token else "",
                 "neutral force": neutral}
        rows.append([cells[c] for c in columns])
    return rows
