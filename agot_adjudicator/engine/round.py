"""One run of the engine: from a phase boundary to the end of the round or to pending decisions.

:func:`resolve` is the engine's only entry point. It copies the state, runs
the phases in rule order (R2.1: Westeros, Planning, Action) and returns a
:class:`Result`; it does no I/O and never mutates its arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agot_adjudicator.engine import action, planning, westeros
from agot_adjudicator.engine.context import Context, GameOver, Inputs
from agot_adjudicator.engine.decisions import Decider, GivenAnswer, Pending, PendingDecision
from agot_adjudicator.engine.events import Event
from agot_adjudicator.engine.victory import end_of_game
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


def resolve(ruleset: Ruleset, state: GameState, inputs: Inputs,
            answers: dict[str, GivenAnswer] | None = None, *, nmr: tuple[str, ...] = (),
            defaults: bool = False) -> Result:
    """Resolve from ``state`` with ``inputs`` until the round ends or a decision is missing.

    Raises :class:`~agot_adjudicator.decisions.AnswerError` for an illegal direct answer.
    """
    ctx = Context(ruleset, state.copy(), inputs,
                  Decider(dict(answers or {}), tuple(nmr), defaults))
    if ctx.state.phase == "ended":
        ctx.emit("game_already_ended", "R11", winner=ctx.state.winner)
        return Result("complete", ctx.state, ctx.events)
    try:
        run_round(ctx)
    except Pending as pending:
        return Result("pending", ctx.state, ctx.events, pending.decisions)
    except GameOver:
        pass
    return Result("complete", ctx.state, ctx.events, [], ctx.decider.unused_answers())
