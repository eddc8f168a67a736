"""End of the game (R11.1): most castle areas, then supply, then power; else a shared win."""

from __future__ import annotations

from agot_adjudicator.engine.board import castle_counts
from agot_adjudicator.engine.context import Context


def end_of_game(ctx: Context) -> None:
    """After the last round: decide the winner(s) by R11.1 and end the game."""
    s = ctx.state
    castles_of = castle_counts(s, ctx.ruleset)
    key = {h: (castles_of[h], s.houses[h].supply, s.houses[h].power) for h in ctx.order_of_play()}
    best = max(key.values())
    winners = [h for h in ctx.order_of_play() if key[h] == best]
    castles = {h: key[h][0] for h in ctx.order_of_play()}
    leaders = [h for h in ctx.order_of_play() if key[h][0] == best[0]]
    # The reason as a code (model.state.WINNER_REASONS), said by the report, site and diff.
    if len(leaders) == 1:
        reason = "most_castles"
    elif len(winners) == 1:
        by_supply = [h for h in leaders if key[h][1] == best[1]]
        reason = "by_supply" if len(by_supply) == 1 else "by_power"
    else:
        reason = "shared"
    s.winner = {"houses": winners, "reason": reason, "round": s.round, "castles": castles}
    s.phase = "ended"
    ctx.emit("game_ended", "R11.1", winners=winners, castles=castles,
             supply={h: key[h][1] for h in key}, power={h: key[h][2] for h in key})
