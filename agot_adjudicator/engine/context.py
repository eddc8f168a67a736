"""The engine's working context: ruleset, a private copy of the state, inputs, decisions, events.

Everything in ``engine/`` receives a :class:`Context`. It never does I/O: the
app layer builds :class:`Inputs` from the files and renders the events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.engine.decisions import NO_PLAN, Decider, Request
from agot_adjudicator.engine.events import Event, make_event
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState


@dataclass(frozen=True)
class HouseInput:
    """One house's submission as the engine sees it (no file positions)."""

    orders: Mapping[str, str | None] | None = None
    bids: Mapping[str, int] | None = None
    wildlings: int | None = None
    plans: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Inputs:
    """Everything submitted for a run."""

    houses: Mapping[str, HouseInput] = field(default_factory=dict)

    def of(self, house: str) -> HouseInput:
        return self.houses.get(house) or HouseInput()

    def plan(self, house: str, key: str, default: Any = None) -> Any:
        """The plan ``key`` of ``house`` (e.g. ``raids``), or ``default``."""
        return self.of(house).plans.get(key, default)


HIDDEN_VALUES = ("house_card", "bid")
"""Decision kinds whose value stays secret until the rules reveal it (R6.3, R7.1, R8.1): an
event that a decision was taken without asking does not name it (P7)."""


class GameOver(Exception):
    """Raised when a house meets the instant-win condition (R11.2); ends the run at once."""


@dataclass
class Context:
    """State of one engine run. ``state`` is the engine's own copy; inputs are never mutated."""

    ruleset: Ruleset
    state: GameState
    inputs: Inputs
    decider: Decider
    events: list[Event] = field(default_factory=list)
    bids: dict[str, dict[str, int]] = field(default_factory=dict)
    """The bids revealed so far in this run (R7.1, R8.1), by what they were for, as the
    ``bids_revealed`` event's ``about`` says it (``clash_of_kings/iron_throne``, ``wildlings``):
    house → bid, in order of play. The engine reads them here, never from its events."""

    def rid(self, *parts: str) -> str:
        """A decision id of this round: ``r3/`` + parts joined by ``/``."""
        return "/".join([f"r{self.state.round}", *parts])

    def emit(self, type_: str, rule: str, **fields: Any) -> Event:
        """Record an event (``type``, ``rule`` first, then the fields in order)."""
        event = make_event(type_, rule, self.state.round, self.state.phase, **fields)
        self.events.append(event)
        return event

    def reveal_bids(self, about: str, rule: str, bids: Mapping[str, int]) -> None:
        """Reveal the secret bids for ``about`` (R7.1, R8.1): keep them in :attr:`bids` and
        emit ``bids_revealed``."""
        self.bids[about] = dict(bids)
        self.emit("bids_revealed", rule, about=about, bids=dict(bids))

    def _log_defaults(self, before: tuple[int, int]) -> None:
        """``default_applied`` (P2) and ``decided_without_asking`` (RUL-P1-5) events for what
        the decider resolved without an answer or a plan since ``before``."""
        for request, reason in self.decider.applied_defaults[before[0]:]:
            self.emit("default_applied", "P2", decision=request.id, house=request.house,
                      kind=request.kind, value=request.default, reason=reason)
        for request in self.decider.only_options[before[1]:]:
            taken = request.only_option()
            value = {} if request.kind in HIDDEN_VALUES else {"value": taken}
            self.emit("decided_without_asking", "RUL-P1-5", decision=request.id,
                      house=request.house, kind=request.kind, **value,
                      reason=request.moot or "only one legal option")

    def _marks(self) -> tuple[int, int]:
        return len(self.decider.applied_defaults), len(self.decider.only_options)

    def ask(self, request: Request, plan: Any = NO_PLAN) -> Any:
        """Ask one decision (see :class:`~agot_adjudicator.decisions.Decider`)."""
        before = self._marks()
        value = self.decider.ask(request, plan)
        self._log_defaults(before)
        return value

    def ask_together(self, items: Sequence[tuple[Request, Any]]) -> list[Any]:
        """Ask simultaneous decisions together; every missing one is pending at once."""
        before = self._marks()
        values = self.decider.ask_together(items)
        self._log_defaults(before)
        return values

    def order_of_play(self) -> list[str]:
        return self.state.order_of_play()
