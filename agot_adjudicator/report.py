"""Render events (and pending decisions) as a Markdown report, a JSON Lines log, paste-ready YAML.

The report never decides anything: every line comes from an event.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tabulate import tabulate

from agot_adjudicator.decisions import PendingDecision
from agot_adjudicator.engine.events import Event
from agot_adjudicator.files import dump_yaml
from agot_adjudicator.ruleset import TRACKS, Ruleset
from agot_adjudicator.state import GameState
from agot_adjudicator.views import controller, units_text

PHASE_TITLES = {"westeros": "Westeros phase", "planning": "Planning phase",
                "action": "Action phase", "ended": "End of the game"}
_SKIP = ("type", "rule", "round", "phase")


def _value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v)}" for k, v in value.items()) if value else "none"
    if value is None:
        return "none"
    return str(value)


def event_line(event: Event) -> str:
    """One Markdown line for an event: ``(R5.2) raid — house stark, area …``."""
    t = event["type"]
    e = event
    if t == "orders_revealed":
        return f"Orders revealed ({e['rule']})."
    if t == "move":
        return f"{e['house']} moves {units_text(e['units'])} from {e['origin']} to {e['to']} ({e['rule']})."
    if t == "raid" and "target" in e:
        return (f"{e['house']} raids from {e['area']}: {e['victim']}'s {e['removed']} in "
                f"{e['target']} is removed ({e['rule']}).")
    if t == "pillage":
        return f"{e['house']} pillages {e['target']} and gains {e['power']} power ({e['rule']})."
    if t == "consolidate_power":
        return (f"{e['house']} consolidates power in {e['area']}: +{e['power']} "
                f"(worth {e['worth']}) ({e['rule']}).")
    fields = ", ".join(f"{k}: {_value(v)}" for k, v in e.items() if k not in _SKIP)
    return f"{t.replace('_', ' ')} — {fields} ({e['rule']})."


def _orders_table(event: Event) -> str:
    rows = [[house, area, order] for house, orders in event["orders"].items()
            for area, order in orders.items()]
    return tabulate(rows, headers=["house", "area", "order"], tablefmt="github")


def board_tables(state: GameState, ruleset: Ruleset) -> str:
    """The board and the tracks after the round (public information only)."""
    rows = []
    for area_id in ruleset.area_ids:
        here = state.area(area_id)
        ctrl = controller(state, ruleset, area_id)
        if here.is_empty() and ctrl is None:
            continue
        neutral = str(here.neutral_force.strength) if here.neutral_force else ""
        rows.append([ruleset.areas[area_id].name, ctrl or "",
                     f"{here.house}: {units_text(here.units, here.routed)}" if here.units else "",
                     here.order or "", here.power_token or "", neutral])
    board = tabulate(rows, headers=["area", "controlled by", "units", "order", "power token",
                                    "neutral force"], tablefmt="github")
    tracks = tabulate([[i + 1, *(state.tracks[t][i] for t in TRACKS)]
                       for i in range(len(state.houses))],
                      headers=["position", "Iron Throne", "Fiefdoms", "King's Court"],
                      tablefmt="github")
    houses = tabulate([[h, state.houses[h].power, state.houses[h].supply,
                        len(state.houses[h].hand), ", ".join(state.houses[h].discards)]
                       for h in state.order_of_play()],
                      headers=["house", "power", "supply", "cards in hand", "discards"],
                      tablefmt="github")
    return (f"### Board\n\n{board}\n\n### Tracks\n\n{tracks}\n\nWildling threat: "
            f"{state.wildling_threat}\n\n### Houses\n\n{houses}\n")


def render_report(title: str, events: Sequence[Event], state: GameState, ruleset: Ruleset,
                  pending: Sequence[PendingDecision] = ()) -> str:
    """The Markdown report of a run: events by phase, then the board, or the pending list."""
    out = [f"# {title}\n"]
    phase = None
    for event in events:
        if event["phase"] != phase:
            phase = event["phase"]
            out.append(f"\n## Round {event['round']} — {PHASE_TITLES.get(phase, phase)}\n")
        out.append(f"- {event_line(event)}")
        if event["type"] == "orders_revealed":
            out.append("\n" + _orders_table(event) + "\n")
    if pending:
        out.append("\n## Stopped: decisions pending\n")
        for p in pending:
            out.append(f"- `{p.request.id}` — {p.request.house}: {p.request.prompt}"
                       + (f" ({p.reason})" if p.reason else ""))
        out.append("\nEverything above happened; the rest of the round follows once these are "
                   "answered.\n")
    else:
        out.append("\n## After the run\n")
        out.append(board_tables(state, ruleset))
    return "\n".join(out).rstrip() + "\n"


def render_log(events: Sequence[Event]) -> str:
    """JSON Lines: one event per line, keys in event order."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)


def render_pending(pending: Sequence[PendingDecision]) -> str:
    """The pending decisions, then an ``answers:`` block ready to paste and fill in."""
    text = dump_yaml({"pending": [p.to_dict() for p in pending]},
                     header=f"{len(pending)} decision(s) pending: add answers to a submission "
                            "file and run again.")
    answers = {p.request.id: (p.request.example if p.request.example is not None
                              else p.request.default) for p in pending}
    text += "\n" + dump_yaml({"answers": answers},
                             header="paste into the moderator's answers file and edit:")
    return text
