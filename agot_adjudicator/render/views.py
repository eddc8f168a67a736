"""Plain-text tables of a state for ``agot show`` (:mod:`agot_adjudicator.tables`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agot_adjudicator.engine.board import controller
from agot_adjudicator.model.ruleset import TRACK_TOKENS, TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.tables import table


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


def show_text(state: GameState, ruleset: Ruleset, house: str | None = None, *,
              public: bool = False) -> str:
    """Board, tracks and houses as tables; ``house`` limits it to what that house may see,
    ``public`` to what every house may see (hand sizes; no decks, no seed)."""
    view = f" (view of {house})" if house else " (public view)" if public else " (moderator's view)"
    out = [f"{ruleset.title} — game {state.game_id}, round {state.round}, "
           f"{state.phase} phase" + view]
    if state.winner:
        out.append(f"Winner: {', '.join(state.winner['houses'])} — {state.winner['reason']}")
    out.append(table(area_rows(state, ruleset, AREA_COLUMNS), list(AREA_COLUMNS)))
    track_rows = []
    for position in range(len(state.houses)):
        row: list[str | int] = [position + 1]
        for track in TRACKS:
            h = state.tracks[track][position]
            row.append(h + (f" [{TRACK_TOKENS[track].replace('_', ' ')}]" if position == 0 else ""))
        track_rows.append(row)
    out.append(table(track_rows, ["position", "Iron Throne", "Fiefdoms", "King's Court"]))
    used = [name for name, flag in (("Valyrian Steel Blade", state.blade_used),
                                    ("Messenger Raven", state.raven_used)) if flag]
    out.append(f"Wildling threat: {state.wildling_threat}. Used this round: "
               f"{', '.join(used) if used else 'nothing'}. Restrictions: "
               f"{', '.join(state.restrictions) if state.restrictions else 'none'}.")
    house_rows = []
    for h in state.order_of_play():
        hs = state.houses[h]
        hand = ", ".join(hs.hand) if (house is None and not public) or house == h \
            else f"{len(hs.hand)} cards"
        castles = sum(1 for a in ruleset.area_ids if ruleset.areas[a].castle
                      and controller(state, ruleset, a) == h)
        house_rows.append([h, hs.power, hs.supply, castles, hand, ", ".join(hs.discards)])
    out.append(table(house_rows, ["house", "power", "supply", "castles", "hand", "discards"]))
    if house is None and not public:
        decks = "; ".join(f"{d}: {', '.join(state.decks[d])}" for d in state.decks)
        out.append(f"Westeros decks (top first; secret): {decks}")
        out.append(f"Seed: {state.seed} (secret until the game ends)")
    return "\n\n".join(out) + "\n"
