"""Battles (R6): support, strength, house cards, Valyrian Steel Blade, casualties, retreats."""

from __future__ import annotations

from dataclasses import dataclass

from agot_adjudicator.engine.context import Context
from agot_adjudicator.errors import AgotError


@dataclass(frozen=True)
class Attack:
    """A march that starts a battle (R6.1).

    ``units`` have already left ``origin`` (they stand nowhere while the battle
    is fought); ``key`` prefixes the battle's decision ids (``r3/march@lannisport``).
    """

    key: str
    attacker: str
    origin: str
    target: str
    units: tuple[str, ...]
    march_order: str


def resolve_battle(ctx: Context, attack: Attack) -> None:
    """Fight the battle of ``attack`` and leave its outcome on the board (R6.1–R6.13)."""
    raise AgotError(f"round {ctx.state.round}: {attack.attacker} marches from {attack.origin} "
                    f"into {attack.target}, held by {ctx.state.area(attack.target).house}: "
                    "battles (R6) are not implemented yet")
