"""Westeros phase (R3): reveal the three cards, advance the threat, resolve I, II, III."""

from __future__ import annotations

from agot_adjudicator.engine.context import Context
from agot_adjudicator.errors import AgotError


def resolve_westeros_phase(ctx: Context) -> None:
    """Resolve the Westeros phase of the current round, then move to planning (R3)."""
    raise AgotError(f"round {ctx.state.round}: the Westeros phase (R3) is not implemented yet; "
                    "start from a state in the planning phase")
