"""One run of the engine: from a phase boundary to the end of the round or to pending decisions.

:func:`resolve` is the engine's only entry point. It copies the state, runs
the phases in rule order (R2.1: Westeros, Planning, Action) and returns a
:class:`Result`; it does no I/O and never mutates its arguments.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agot_adjudicator.engine import action, planning, westeros
from agot_adjudicator.engine.context import Context, GameOver, Inputs
from agot_adjudicator.engine.decisions import (
    AnswerError,
    Decider,
    GivenAnswer,
    Pending,
    PendingDecision,
    Request,
    Resolution,
)
from agot_adjudicator.engine.events import Event
from agot_adjudicator.engine.victory import end_of_game
from agot_adjudicator.errors import Problem
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState


@dataclass
class Result:
    """What a run produced. ``state`` is the next state when ``status == "complete"``,
    else the state as far as the run got (for the report; never written)."""

    status: str
    state: GameState
    events: list[Event] = field(default_factory=list)
    pending: list[PendingDecision] = field(default_factory=list)
    unused_answers: list[str] = field(default_factory=list)
    resolved: list[Resolution] = field(default_factory=list)
    """Every decision the run resolved, in order (the game directory's ledger, P4)."""


def end_of_round(ctx: Context) -> None:
    """Close the round: round-scoped flags reset; after the last round the game ends (R2.2, R11.1)."""
    s = ctx.state
    if s.round >= ctx.ruleset.rounds:
        end_of_game(ctx)
        return
    ctx.emit("round_ended", "R2.1", next_round=s.round + 1)
    s.round += 1
    s.phase = "westeros"
    s.blade_used = False
    s.raven_used = False
    s.restrictions = []
    s.revealed = {}


def run_round(ctx: Context) -> None:
    """Run the phases still to come in this round, in rule order (R2.1)."""
    if ctx.state.phase == "westeros":
        westeros.resolve_westeros_phase(ctx)
    if ctx.state.phase == "planning":
        planning.resolve_planning_phase(ctx)
    if ctx.state.phase == "action":
        action.resolve_action_phase(ctx)
        end_of_round(ctx)


AHEAD_RUNS = 300
"""At most this many scratch runs try the missing answers to ask ahead (RUL-P1-4)."""


def _moderator(message: str) -> Problem:  # pragma: no cover - scratch answers are legal
    return Problem("<asked ahead>", None, None, "$", message)


def _question(request: Request) -> tuple[object, ...]:
    """What a house is asked: the same tuple means the same question with the same options."""
    return (request.id, request.house, request.kind, request.prompt, request.options,
            request.default, request.basis)


def event_key(decision_id: str) -> str:
    """The battle, march, raid or card a decision belongs to: its id's first two parts.

    >>> event_key("r3/march@lannisport/house_card/stark")
    'r3/march@lannisport'
    """
    return "/".join(decision_id.split("/")[:2])


LATER_BATTLE = ("house_card", "support")
"""Decisions of a battle not yet under way that may be asked ahead: they name both sides
(``parties``). A battle's later decisions (Blade, casualties, retreat, card texts) are asked
ahead only within a battle the stop already asks about."""


def _may_ask(request: Request, keys: set[str], deciding: set[str]) -> bool:
    """Whether ``request``, met after the missing decisions (of ``keys``, decided by
    ``deciding``), may be asked ahead: its prompt, options and basis describe it fully (the
    same description accepts the same answers), and it reveals no battle to a house that
    decides before it."""
    if not (request.options or request.basis):
        return False
    if event_key(request.id) in keys:
        return True
    parts = request.id.split("/")
    if len(parts) > 3 and parts[1].startswith("march@") and request.kind not in LATER_BATTLE:
        return False
    return not deciding & set(request.reveals)


def _next_stop(ruleset: Ruleset, state: GameState, inputs: Inputs,
               answers: dict[str, GivenAnswer], decider: Decider,
               revealed: int) -> list[PendingDecision] | None:
    """The decisions a scratch run with ``answers`` stops on; None if it completes, fails, or
    reveals bids the run itself has not (more than ``revealed`` ``bids_revealed`` events): what
    follows secret bids is never asked before they are revealed (R7.1, R8.1; a tie-break's
    question names the tied houses and their bid)."""
    ctx = Context(ruleset, state.copy(), inputs,
                  decider.scratch(answers))
    try:
        run_round(ctx)
    except Pending as pending:
        if sum(e["type"] == "bids_revealed" for e in ctx.events) > revealed:
            return None
        return pending.decisions
    except (AnswerError, GameOver):
        return None
    return None


def _with(answers: dict[str, GivenAnswer], decisions: Sequence[PendingDecision],
          combo: Sequence[Any]) -> dict[str, GivenAnswer]:
    out = dict(answers)
    for d, value in zip(decisions, combo, strict=True):
        out[d.request.id] = GivenAnswer(value, None, _moderator)
    return out


def _combinations(decisions: Sequence[PendingDecision]) -> list[tuple[Any, ...]]:
    """Every combination of the decisions' legal values (empty if one cannot be listed)."""
    values = [d.request.alternatives() for d in decisions]
    if not all(values) or math.prod(len(v) for v in values) > AHEAD_RUNS:
        return []
    return list(itertools.product(*values))


def ask_ahead(ruleset: Ruleset, state: GameState, inputs: Inputs, decider: Decider,
              missing: Sequence[PendingDecision], revealed: int = 0) -> list[PendingDecision]:
    """Decisions of the next stop that the ``missing`` answers cannot change (RUL-P1-4).

    Each combination of the missing decisions' legal values is tried on a scratch run from
    ``state``, nothing kept (a decision whose values cannot be listed, a march or orders, asks
    nothing ahead; at most ``AHEAD_RUNS`` runs in all). A combination that stops first on
    decisions of the same houses that it alone brings (a Raid swapped in by the Raven) is
    tried with each of their values too. A decision of the stop the first combination reaches
    is asked ahead when every run reaches it with the same id, house, prompt, options, default
    and basis, when those describe its legal answers, and, if it belongs to a battle other
    than the missing decisions', when it reveals that battle to none of the houses that decide
    them (``Request.reveals``: the attacker knows of its own march). Nothing is asked ahead
    past bids that the run has not revealed (``revealed``: its ``bids_revealed`` events).
    """
    combos = _combinations(missing) if missing else []
    if not combos:
        return []
    deciding = {d.request.house for d in missing}
    keys = {event_key(d.request.id) for d in missing}
    ids = {d.request.id for d in missing}
    queue = [_with(decider.answers, missing, combo) for combo in combos]
    found: list[PendingDecision] | None = None
    runs = 0
    while queue:
        answers = queue.pop(0)
        runs += 1
        if runs > AHEAD_RUNS:
            return []
        stop = _next_stop(ruleset, state, inputs, answers, decider, revealed)
        if stop is None:
            return []
        if found is None:
            found = [d for d in stop
                     if d.request.id not in ids and _may_ask(d.request, keys, deciding)]
            if not found:
                return []
            continue
        asked = [_question(d.request) for d in stop]
        if all(_question(d.request) in asked for d in found):
            continue
        follow = [d for d in stop if d.request.house in deciding]
        more = _combinations(follow) if len(follow) == len(stop) else []
        if more and runs + len(queue) + len(more) <= AHEAD_RUNS:
            queue += [_with(answers, follow, combo) for combo in more]
            continue
        found = [d for d in found if _question(d.request) in asked]
        if not found:
            return []
    return [replace(d, ahead=True) for d in found or []]


def resolve(ruleset: Ruleset, state: GameState, inputs: Inputs,
            answers: dict[str, GivenAnswer] | None = None, *, nmr: tuple[str, ...] = (),
            defaults: bool = False, recorded: dict[str, Any] | None = None,
            horizon: frozenset[str] | None = None) -> Result:
    """Resolve from ``state`` with ``inputs`` until the round ends or a decision is missing.

    ``recorded``: the defaults earlier committed runs of the round applied (decision id →
    value, P2), applied again before anything else. ``horizon``: resolve only these decisions
    besides the recorded ones, and ask nothing ahead (a check run, :class:`Decider`).
    Raises :class:`~agot_adjudicator.decisions.AnswerError` for an illegal direct answer.
    """
    ctx = Context(ruleset, state.copy(), inputs,
                  Decider(dict(answers or {}), tuple(nmr), defaults, recorded=dict(recorded or {}),
                          horizon=horizon))
    if ctx.state.phase == "ended":
        ctx.emit("game_already_ended", "R11", winner=ctx.state.winner)
        return Result("complete", ctx.state, ctx.events)
    try:
        run_round(ctx)
    except Pending as pending:
        revealed = sum(e["type"] == "bids_revealed" for e in ctx.events)
        ahead = [] if horizon is not None else ask_ahead(ruleset, state, inputs, ctx.decider,
                                                         pending.decisions, revealed)
        return Result("pending", ctx.state, ctx.events, [*pending.decisions, *ahead],
                      resolved=list(ctx.decider.resolved))
    except GameOver:
        pass
    return Result("complete", ctx.state, ctx.events, [], ctx.decider.unused_answers(),
                  list(ctx.decider.resolved))
