"""``agot adjudicate``: resolve a round (docs/protocol.md P1), from files or in a game
directory (one commit per round, under the lock: docs/protocol.md P4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    game_option,
    game_or_chosen_language,
    handle_errors,
    lang_option,
    ruleset_for,
    ruleset_of,
    run_options,
    speaking,
)
from agot_adjudicator.errors import PendingDecisions, UsageError
from agot_adjudicator.io.commit import distinct_outputs, write_together
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.rulesets import state_ruleset
from agot_adjudicator.io.validation import PHASE_WORDS
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.language import houses, say, tr
from agot_adjudicator.workflow.adjudicate import (
    Adjudication,
    RunOptions,
    adjudicate_files,
    render_outputs,
)
from agot_adjudicator.workflow.validate import check_output


class Only(click.Option):
    """An option of one way of running a round only: ``"files"`` (STATE ORDERS... -o NEXT) or
    ``"game"`` (--game DIR). Given in the other way it is refused, never ignored."""

    def __init__(self, *args: Any, only: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.only = only


FILES: dict[str, Any] = {"cls": Only, "only": "files"}
GAME: dict[str, Any] = {"cls": Only, "only": "game"}


def refuse_other_way(ctx: click.Context, game_dir: str | None) -> None:
    """Refuse an option (or argument) given that the chosen way of running does not take."""
    way = "game" if game_dir is not None else "files"
    other = [p for p in ctx.command.params
             if (isinstance(p, Only) and p.only != way)
             or (way == "game" and isinstance(p, click.Argument))]
    given = [p for p in other if ctx.params.get(p.name or "") not in (None, False, ())]
    names = [p.opts[0] if isinstance(p, Only) else (p.name or "").upper() for p in given]
    if names and way == "game":
        raise UsageError(f"--game DIR takes every file from DIR: give no {', '.join(names)}")
    if names:
        raise UsageError(f"{', '.join(names)}: only with --game DIR")


@click.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.option("-o", "--output", type=click.Path(dir_okay=False), **FILES,
              help="Where to write the next state (only when the round is complete).")
@click.option("--report", type=click.Path(dir_okay=False), help="Write the Markdown report here.",
              **FILES)
@click.option("--log", "log_path", type=click.Path(dir_okay=False), **FILES,
              help="Write the events as JSON Lines here.")
@click.option("--pending", "pending_path", type=click.Path(dir_okay=False), **FILES,
              help="Write the pending decisions (YAML) here when the run stops.")
@click.option("--now", "now_path", type=click.Path(dir_okay=False), **FILES,
              help="Write the provisional state (the board as far as the run got) here when "
                   "the run stops; never a record or an input.")
@game_option("Adjudicate the current round of game directory DIR: read round-NN/state.yaml "
             "and round-NN/orders/*.yaml; write report.md, log.jsonl there and "
             "round-(NN+1)/state.yaml, or when it stops pending.yaml, now.yaml and now.svg.")
@run_options
@click.option("--move-ruleset", is_flag=True, **GAME,
              help="With --game: move the game on, from this round, from the ruleset its state "
                   "names to the ruleset in use (packaged, or --ruleset); recorded in the chain "
                   "with the rule changes.")
@click.option("--in-place", is_flag=True, help="Allow an output to overwrite an input file.",
              **FILES)
@click.option("--format", "report_format", type=click.Choice(["markdown", "text"]),
              default="markdown", show_default=True,
              help="Report format: Markdown tables, or plain aligned text for e-mail.")
@click.option("--private", "private_house", metavar="HOUSE", **FILES,
              help="Append HOUSE's own hand, bids and pending questions to the report "
                   "(send that report to HOUSE only).")
@lang_option("With --game it is recorded in the report, and a game keeps the language of its "
             "last report unless --lang says otherwise; each house's mail is in its "
             "players.yaml language.")
@click.pass_context
@handle_errors
def adjudicate(ctx: click.Context, state: str | None, orders: tuple[str, ...],
               output: str | None, report: str | None, log_path: str | None,
               pending_path: str | None, now_path: str | None, game_dir: str | None,
               run: RunOptions, move_ruleset: bool, in_place: bool, report_format: str,
               private_house: str | None, lang: str | None) -> None:
    """Resolve the round of STATE with the ORDERS files (docs/protocol.md P1).

    Exit 0 and write the next state when the round is complete; exit 3 and
    print the pending decisions (paste-ready YAML) when answers are missing.
    """
    lang = game_or_chosen_language(lang, game_dir)
    if private_house is not None and game_dir:
        raise UsageError("--private HOUSE: with --game DIR every run writes each house's "
                         "private report as round-NN/mail/HOUSE.txt (and HOUSE.eml, ready to "
                         "send); report.md stays the public record")
    if private_house is not None and not report:
        raise UsageError("--private HOUSE adds to the report: give --report FILE")
    if game_dir is not None and report_format != "markdown":
        raise UsageError("--game DIR keeps the Markdown report (the record replay checks); "
                         "--format text needs STATE ... --report FILE")
    if move_ruleset and game_dir is None:
        raise UsageError("--move-ruleset moves a game directory on: give --game DIR")
    refuse_other_way(ctx, game_dir)
    if game_dir is not None:
        ruleset, moved_from = _game_rulesets(ctx, game_dir, move_ruleset)
        # Only --game writes a game directory and its mail: `agot adjudicate STATE` does not
        # load the mail writers (its start-up stays that of the run).
        from agot_adjudicator.workflow.record import run_game_round

        done = run_game_round(game_dir, ruleset, run, moved_from, lang)
        if done.repaired is not None:
            click.echo(f"finished the interrupted commit of {done.repaired} in {game_dir} "
                       "(nothing else was run; run the command again for the next round)")
            return
        assert done.game is not None and done.outputs is not None
        result = done.game.run.result
        if done.outputs.pending is not None:
            click.echo(done.outputs.pending, nl=False)
            raise PendingDecisions()
        _wrote(str(done.game.next_state), result, ruleset, lang,
               done.game.next_state.parent / "orders")
        return
    if state is None or output is None:
        raise UsageError("give STATE and -o NEXT (or --game DIR)")
    from agot_adjudicator.io.recorded import RecordedFiles

    recorded = RecordedFiles(None)  # the state read once: for its ruleset and to adjudicate
    ruleset = ruleset_for(ctx, state, read=recorded.document)
    inputs = [state, *orders]
    distinct_outputs([("-o", output), ("--report", report), ("--log", log_path),
                      ("--pending", pending_path), ("--now", now_path)])
    for out in (output, report, log_path, pending_path, now_path):
        if out is not None:
            check_output(out, inputs, in_place=in_place)
    done_run = adjudicate_files(state, list(orders), ruleset, run, read=recorded.document)
    _finish(done_run, ruleset, output=output, report=report, log_path=log_path,
            pending_path=pending_path, now_path=now_path, fmt=report_format,
            private_house=private_house, lang=lang)


def _game_rulesets(ctx: click.Context, game_dir: str,
                   move: bool) -> tuple[Ruleset, Ruleset | None]:
    """The ruleset to adjudicate a game's current round under, and the one it moves on from
    (``--move-ruleset``); a game stays on its own ruleset otherwise (said on stderr)."""
    state = current_round(game_dir).state
    if not move:
        ruleset = ruleset_for(ctx, state, game_dir)
        in_use = ruleset_of(ctx)
        if ruleset.sha256 != in_use.sha256:
            click.echo(f"note: the game stays on ruleset {ruleset.name} {ruleset.sha256[:12]}… "
                       f"({ruleset.source}); {in_use.name} {in_use.sha256[:12]}… "
                       f"({in_use.source}) differs: --move-ruleset moves the game on to it",
                       err=True)
        return ruleset, None
    target = ruleset_of(ctx)
    current = state_ruleset(str(state), game_dir)
    if current is None:
        return target, target  # the state's check names the unknown ruleset and what to do
    if current.sha256 == target.sha256 and current.name == target.name:
        raise UsageError(f"--move-ruleset: the game is already on ruleset {target.name} "
                         f"{target.sha256[:12]}… ({target.source})")
    return target, current


def _finish(run: Adjudication, ruleset: Ruleset, *, output: str, report: str | None,
            log_path: str | None, pending_path: str | None, now_path: str | None = None,
            fmt: str = "markdown", private_house: str | None = None, lang: str = "en") -> None:
    """Write what a run produced, all files or none; exit 3 with the pending list (and the
    provisional state, ``--now``) when it stopped."""
    out = render_outputs(run, ruleset, fmt=fmt, private_house=private_house,
                         now=now_path is not None, lang=lang)
    writes: list[tuple[str, str]] = []
    if report:
        writes.append((report, out.report))
    if log_path:
        writes.append((log_path, out.log))
    if out.pending is not None:
        if pending_path:
            writes.append((pending_path, out.pending))
        if now_path and out.now is not None:
            writes.append((now_path, out.now))
        write_together(writes)
        click.echo(out.pending, nl=False)
        raise PendingDecisions()
    assert out.state is not None
    writes.insert(0, (output, out.state))
    write_together(writes)
    _wrote(output, run.result, ruleset, lang)


def _wrote(output: str, result: Any, ruleset: Ruleset, lang: str = "en",
           folder: Path | None = None) -> None:
    """``wrote NEXT (next: round N, PHASE phase); K events`` (or who won), and with ``folder``
    where the next round's submissions go, in ``lang``."""
    s = result.state
    with speaking(lang, ruleset):
        if s.winner:
            won = houses(s.winner["houses"]) if lang != "en" else ", ".join(s.winner["houses"])
            line = tr("wrote {output} (game over: {houses} won); {count} events", output=output,
                      houses=won, count=len(result.events))
        else:
            line = tr("wrote {output} (next: round {round}, {phase} phase); {count} events",
                      output=output, round=s.round, phase=say(PHASE_WORDS.get(s.phase, s.phase)),
                      count=len(result.events))
        click.echo(line)
        if folder is not None and s.phase != "ended":
            click.echo(tr("next round's submissions go in {folder}", folder=folder))
