"""``agot validate``, ``agot template`` and ``agot status``: a house's orders before the run.

The skeleton to fill in, the check of a file (the same checks as ``agot adjudicate``,
RUL-P1-2), and who still owes what; each reads the board as it stands with ``--game DIR``
(docs/protocol.md P4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    board_for,
    chosen_language,
    game_option,
    handle_errors,
    lang_option,
    ruleset_for,
    say_wrote,
    speaking,
    warn,
)
from agot_adjudicator.errors import InputError, PendingDecisions, Problem, UsageError
from agot_adjudicator.io.clock import given_time
from agot_adjudicator.io.gamedir import board_now
from agot_adjudicator.io.validation import PHASE_WORDS
from agot_adjudicator.io.writing import write_atomic
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import say, tr

if TYPE_CHECKING:
    from agot_adjudicator.io.recorded import RecordedFiles


def _format_of(recorded: RecordedFiles, path: str) -> str:
    """The ``format:`` a file says it has (``agot-view/1``, ``agot-orders/1``, …), or "" when it
    does not load or says none (its check then says why)."""
    try:
        fmt = recorded.document(path).data.get("format")
    except (InputError, AttributeError):
        return ""
    return fmt if isinstance(fmt, str) else ""


@click.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@game_option("Check the FILEs (all arguments; default: the current round's orders/*.yaml) "
             "against the board of game directory DIR as it stands now (a stopped "
             "round's now.yaml, else its state.yaml).")
@click.option("--names", is_flag=True,
              help="Read a file written with display names (Moat Cailin, 卡林湾, 臨冬城, 行军 +1★) "
                   "as its id form, as `agot inbox` stores it, and say what was read as what "
                   "(`agot adjudicate` reads ids only). On a house view (VIEW ORDERS) always "
                   "so, with or without --names: it gives inbox's verdict.")
@lang_option("Errors, warnings and the closing line; file names, paths and ids stay as they are.")
@click.pass_context
@handle_errors
def validate(ctx: click.Context, state: str | None, orders: tuple[str, ...],
             game_dir: str | None, names: bool, lang: str | None) -> None:
    """Check STATE and ORDERS files (schema, then rules) without resolving anything.

    With --game DIR: check FILE... against the board as it stands now.
    """
    if game_dir is not None:
        from agot_adjudicator.io.gamedir import round_dirs

        try:
            round_dirs(game_dir)
        except UsageError as exc:
            raise UsageError(f"{exc}; a player checks a file on the house view attached to "
                             "the house's mail: agot validate VIEW FILE") from None
        _validate_game(ctx, game_dir, [p for p in (state, *orders) if p is not None],
                       chosen_language(lang), names)
        return
    if state is None:
        raise UsageError("give STATE (and ORDERS files), or --game DIR [FILE...]")
    from agot_adjudicator.io.recorded import RecordedFiles

    recorded = RecordedFiles(None)  # each file read once (issue 33)
    kind = _format_of(recorded, state)
    if kind.startswith("agot-view/"):  # the player's kit is imported for a view only
        from agot_adjudicator.cli.kit import validate_view, view_for

        found = view_for(ctx, state, recorded.document)
        if found is not None:
            validate_view(ctx, found[0], found[1], list(orders), chosen_language(lang))
            return
    if kind == "agot-orders/1":
        raise UsageError(f"{state} is an order file (agot-orders/1): give the board first, "
                         f"the house view attached to your mail (agot validate VIEW {state}) "
                         f"or a state (agot validate STATE {state})")
    ruleset = ruleset_for(ctx, state, read=recorded.document)
    from agot_adjudicator.workflow.validate import validate_files

    result = validate_files(state, list(orders), ruleset, names=names, read=recorded.document)
    with speaking(chosen_language(lang), ruleset):
        warn(result.notes, N_("note: {warning}"))
        warn(result.warnings)
        if result.problems:
            raise result.error()
        click.echo(tr("ok: {state} and {count} submission file(s)", state=state,
                      count=len(orders)) if orders else tr("ok: {state}", state=state))


def _validate_game(ctx: click.Context, game_dir: str, files: list[str], lang: str,
                   names: bool = False) -> None:
    """``validate --game DIR [FILE...]``: each FILE checked as ``agot inbox`` checks a message
    of its house (merged over its stored submission), with the verdict ``inbox``, ``status``
    and ``adjudicate --game`` give (docs/protocol.md P8, RUL-P8-8); no FILE: the round's own
    files."""
    from agot_adjudicator.cli.kit import stale_views
    from agot_adjudicator.io.gamedir import current_round
    from agot_adjudicator.model.naming import name_index
    from agot_adjudicator.workflow.standing import Verdict, check_files

    given = bool(files)
    files = stale_views(ctx, game_dir, files)
    if given and not files:
        click.echo(tr("ok: the view(s) show the board as it stands"))
        return
    rd = current_round(game_dir)
    ruleset = ruleset_for(ctx, rd.state, game_dir)
    board, _ = board_for(ctx, None, game_dir)
    now = board_now(game_dir)
    notes: list[Problem] = []
    result = check_files(game_dir, ruleset, files, name_index(ruleset) if names else None,
                         notes)
    shown = files or [str(p) for p in rd.orders()]
    with speaking(lang, ruleset):
        warn(notes, N_("note: {warning}"))
        warn([w for w in result.warnings if not files or w.file in files])
        mine = [p for p in result.problems if not files or p.file in files]
        if mine:
            raise Verdict(problems=mine, malformed=[p for p in result.malformed
                                                    if p in mine]).error()
        phase = say(PHASE_WORDS.get(board.state.phase, board.state.phase))
        what = tr("the board as it stands ({file}, provisional: round {round}, {phase} phase)",
                  file=now.path, round=board.state.round, phase=phase) if board.provisional \
            else str(now.path)
        click.echo(tr("ok: {count} submission file(s) against {what}", count=len(shown),
                      what=what))


@click.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@game_option("Sketch for the board of game directory DIR as it stands now (a stopped "
             "round's now.yaml, else its state.yaml) instead of STATE.")
@click.option("--house", help="The house whose order file to sketch (a house view's own house "
              "when STATE is a view).")
@click.option("--schema-ref", default="orders.schema.json", show_default=True, metavar="PATH",
              help="Where the file's `# yaml-language-server: $schema=` line points "
              "(save it with `agot schema orders > PATH`; a path relative to the order file, or a URL).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the skeleton here instead of standard output.")
@lang_option("The YAML keys and values stay ids; Chinese comments name them by the glossary.")
@click.pass_context
@handle_errors
def template(ctx: click.Context, state: str | None, game_dir: str | None, house: str | None,
             schema_ref: str, output: str | None, lang: str | None) -> None:
    """Print an order file skeleton for HOUSE: its areas, legal orders and plans, as comments.

    Left as it is, the skeleton is a valid agot-orders/1 file that submits
    nothing; uncomment the lines you need. It never reads the order of the
    Westeros decks, so it may be sent to the player. STATE may be the house
    view of a mail (agot-view/1): the skeleton of its house, to check with
    `agot validate VIEW THIS_FILE`.
    """
    from agot_adjudicator.cli.kit import view_for
    from agot_adjudicator.workflow.present import template_text, view_template_text
    from agot_adjudicator.workflow.validate import check_output

    found = view_for(ctx, state) if state is not None and game_dir is None else None
    if found is not None:
        view, ruleset = found
        if house is not None and house != view.house:
            raise UsageError(f"--house {house}: {state} is the view of {view.house}; a house "
                             "writes its orders on its own view")
        text = view_template_text(view, ruleset, schema_ref, chosen_language(lang))
        source = str(state)  # a view was read from it
    else:
        if house is None:
            raise UsageError("give --house HOUSE (or a house view as STATE)")
        board, ruleset = board_for(ctx, state, game_dir)
        text = template_text(board, house, ruleset, schema_ref, game_dir, chosen_language(lang))
        source = str(board.doc.name)
    if output is None:
        click.echo(text, nl=False)
        return
    check_output(output, [source])
    write_atomic(output, text)
    say_wrote(output, chosen_language(lang))


@click.command(epilog=EPILOG)
@game_option("The game directory whose current round to report on.", required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Plain text, or one JSON document (agot-status/1).")
@click.option("--now", "now_text", metavar="ISO",
              help="The time to judge lateness at (ISO 8601, e.g. 2026-12-03T18:00:00Z; "
                   "default: the clock).")
@lang_option("--format json stays English.")
@click.pass_context
@handle_errors
def status(ctx: click.Context, game_dir: str, fmt: str, now_text: str | None,
           lang: str | None) -> None:
    """Who has sent what for the current round of GAME, and what each house still owes.

    Per house: its submission files (received when, valid or not against the
    board as it stands), the orders, bids and pending decisions it still owes,
    and, past the deadline of GAME/players.yaml, the defaults --nmr would
    apply. Public: ids and kinds only. Exit 0 when nothing is owed, 3 when
    something is.
    """
    now = given_time(now_text, "--now")
    from agot_adjudicator.io.recorded import RecordedFiles

    recorded = RecordedFiles(None)  # each file read once (issue 33)
    ruleset = ruleset_for(ctx, board_now(game_dir).path, game_dir, read=recorded.document)
    lang = "en" if fmt == "json" else chosen_language(lang)
    from agot_adjudicator.workflow.status import game_status, status_json, status_text

    result = game_status(game_dir, ruleset, now, lang, recorded)
    click.echo(status_json(result) if fmt == "json" else status_text(result, ruleset, lang),
               nl=False)
    if result.owed:
        raise PendingDecisions()
