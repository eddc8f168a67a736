"""``agot judge``: run a game unattended, one pass at a time, from cron or a systemd timer
(docs/protocol.md P9, agot_adjudicator/docs/judge.md)."""

from __future__ import annotations

import time

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    game_option,
    game_or_chosen_language,
    handle_errors,
    lang_option,
    ruleset_for,
)
from agot_adjudicator.errors import UsageError
from agot_adjudicator.io.gamedir import board_now
from agot_adjudicator.workflow.judge import (
    JudgeFailed,
    clock,
    control,
    finish_commit,
    judge_pass,
)


@click.command(epilog=EPILOG)
@game_option("The game directory to judge (its settings: GAME/judge.yaml).", required=True)
@click.option("--once", "mode", flag_value="once", default=True,
              help="One pass, then exit (the default; for cron or a systemd timer).")
@click.option("--loop", "mode", flag_value="loop",
              help="A pass every --every seconds until interrupted.")
@click.option("--every", type=click.IntRange(min=10), default=300, show_default=True,
              metavar="SECONDS", help="With --loop: the seconds between two passes.")
@click.option("--now", "now_text", metavar="ISO",
              help="The judge's clock (ISO 8601, e.g. 2026-12-03T18:00:00Z; default: the "
                   "AGOT_NOW environment variable, else the system clock).")
@click.option("--pause", is_flag=True,
              help="Pause the judge: passes still take and answer mail, run nothing and apply "
                   "no deadline (recorded). No pass is made.")
@click.option("--resume", is_flag=True, help="Resume a paused judge (recorded). No pass is made.")
@click.option("--extend", metavar="PERIOD",
              help="Move the current stop's deadline later by PERIOD (90m, 12h, 2d; recorded); "
                   "the next pass mails the new deadline to each house still owing.")
@lang_option("The log lines and the mail of houses without a language in players.yaml "
             "(default: the game's language, else the locale's).")
@click.pass_context
@handle_errors
def judge(ctx: click.Context, game_dir: str, mode: str, every: int, now_text: str | None,
          pause: bool, resume: bool, extend: str | None, lang: str | None) -> None:
    """One unattended pass over GAME: fetch new mail, take it in, answer it, run the round.

    In one pass: mail of earlier runs not yet sent goes out; every new message
    of the IMAP mailbox or Maildir folder of GAME/judge.yaml is taken exactly
    once through `agot inbox` and answered with its receipt; the round is run
    when it has not been run, when every house has sent what its stop asks, or
    when the stop's deadline has passed (then with the recorded defaults for
    exactly the late decisions); every house gets its mail of the run with the
    next deadline; reminders go out before a deadline and late notices after
    it. A pass killed at any point is completed by the next one. Exit 0 when the
    pass did everything, 2 when a server could not be reached or refused (what
    was done stands).
    """
    if mode == "loop" and now_text:
        raise UsageError("--now with --loop would judge every pass at the same time; use one "
                         "or the other")
    # the game's language unless told (a cron job's locale must not switch a game's language)
    language = game_or_chosen_language(lang, game_dir)
    if pause and resume:
        raise UsageError("--pause and --resume: give one")
    if pause or resume or extend:
        ruleset = ruleset_for(ctx, board_now(game_dir).path, game_dir)
        for line in control(game_dir, ruleset, clock(now_text), pause=pause, resume=resume,
                            extend=extend):
            click.echo(line)
        return
    while True:
        now = clock(now_text)
        repaired = finish_commit(game_dir)
        if repaired is not None:
            click.echo(f"finished an interrupted commit ({repaired})")
        ruleset = ruleset_for(ctx, board_now(game_dir).path, game_dir)
        result = judge_pass(game_dir, ruleset, now, language)
        for line in result.lines:
            click.echo(line)
        click.echo(f"judge: {result.taken} message(s) taken, {result.runs} run(s), "
                   f"{result.mailed} mail(s) sent" + (f", {len(result.failed)} failure(s)"
                                                      if result.failed else ""))
        if mode == "once":
            if result.failed:
                raise JudgeFailed("judge: the pass did not finish: "
                                  + "; ".join(result.failed))
            return
        time.sleep(every)
