"""``agot replay``, ``agot whatif``, ``agot site`` and ``agot reveal``: the record of a game
checked, disputed, published and opened (docs/protocol.md P5, P3, P7).

``replay`` re-adjudicates every round and checks each recorded file; ``whatif`` re-runs a
round with corrected or late submissions and says what differs from the published state;
``site`` publishes what replays; ``reveal`` prints the seed at the end so anyone can check
the commitment.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    chosen_language,
    game_option,
    game_or_chosen_language,
    handle_errors,
    known_house,
    lang_option,
    ruleset_for,
    ruleset_of,
    run_options,
    speaking,
    view_of,
)
from agot_adjudicator.engine.chance import seed_commitment
from agot_adjudicator.errors import DifferencesFound, PendingDecisions, UsageError
from agot_adjudicator.io.commit import distinct_outputs, write_together
from agot_adjudicator.render.diff import view_label
from agot_adjudicator.render.language import Names, tr
from agot_adjudicator.render.public import pending_view_text
from agot_adjudicator.workflow.adjudicate import RunOptions, whatif_files
from agot_adjudicator.workflow.replay import render_replay, replay_game
from agot_adjudicator.workflow.site import build_site, check_site_output
from agot_adjudicator.workflow.translate import translated_record
from agot_adjudicator.workflow.validate import check_output, load_state


@click.command(epilog=EPILOG)
@game_option("The game directory to publish.", required=True)
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), required=True,
              help="The folder to write the site into (created; files of the same names replaced).")
@click.option("--custom-start", is_flag=True,
              help="Accept a round-01 state that `agot new` did not write (as agot replay).")
@click.option("--png/--no-png", default=None,
              help="Write (or leave out) a PNG copy of each round as played and of the last "
                   "board, for link previews and forums (default: when resvg-py is installed).")
@lang_option("Here the default is the game's language (that of its last report), so that the "
             "public record reads the same whoever builds it; the locale's only for a game "
             "with no report yet.")
@click.pass_context
@handle_errors
def site(ctx: click.Context, game_dir: str, out_dir: str, custom_start: bool, png: bool | None,
         lang: str | None) -> None:
    """Write a static web site of GAME's public record: an index and a page per round.

    The record is first checked as `agot replay` does; a record that does not
    replay is refused with replay's message (exit 4) and nothing is written.
    """
    ruleset = ruleset_of(ctx)
    check_site_output(game_dir, out_dir)
    built_lang = game_or_chosen_language(lang, game_dir)
    if png:
        from agot_adjudicator.render.png import INSTALL_HINT, png_available

        if not png_available():
            raise UsageError(f"--png needs the resvg-py package: {INSTALL_HINT}")
    built = build_site(game_dir, ruleset, check_new=not custom_start, lang=built_lang, png=png)
    if not built.ok:
        click.echo(render_replay(built.replay), nl=False)
        raise DifferencesFound()
    write_together([(Path(out_dir) / name, text) for name, text in sorted(built.files.items())],
                   root=out_dir)
    with speaking(built_lang):
        click.echo(tr("wrote {index} and {count} more files", index=f"{out_dir}/index.html",
                      count=len(built.files) - 1))


@click.command(epilog=EPILOG)
@click.argument("game_dir", metavar="GAME_DIR", type=click.Path(file_okay=False))
@click.option("--custom-start", is_flag=True,
              help="Accept a round-01 state that `agot new` did not write (a variant setup).")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False),
              help="Also write a copy of the record into this new (or empty) folder: states, "
                   "submissions and logs as they are, every report, picture and mail written "
                   "again in the --lang language. The copy replays.")
@lang_option("Only with --output: the language of the copy's texts.")
@click.pass_context
@handle_errors
def replay(ctx: click.Context, game_dir: str, custom_start: bool, out_dir: str | None,
           lang: str | None) -> None:
    """Re-adjudicate every recorded round of GAME_DIR and check each next state byte for byte.

    Exit 0 when the record is consistent, 4 when a round does not replay. With --output DIR
    (and --lang), a consistent record is also copied into DIR with its texts in that
    language; nothing is written when the record does not replay.
    """
    if lang is not None and out_dir is None:
        raise UsageError("--lang writes a copy of the record in that language: give --output DIR")
    if out_dir is not None:
        check_copy_output(game_dir, out_dir)
    ruleset = ruleset_of(ctx)
    result = replay_game(game_dir, ruleset, check_new=not custom_start, keep=out_dir is not None)
    click.echo(render_replay(result), nl=False)
    if not result.ok:
        raise DifferencesFound()
    if out_dir is not None:
        files = translated_record(result, chosen_language(lang))
        write_together([(Path(out_dir) / name, text) for name, text in files.items()],
                       root=out_dir)
        with speaking(chosen_language(lang)):
            click.echo(tr("wrote {count} files into {folder} ({lang})", count=len(files),
                          folder=out_dir, lang=chosen_language(lang)))


def check_copy_output(game_dir: str, out_dir: str) -> None:
    """Refuse a copy's folder that is inside the game directory, or not new or empty (a copy
    mixed with another record would not be one game)."""
    check_site_output(game_dir, out_dir)
    if Path(out_dir).is_dir() and any(Path(out_dir).iterdir()):
        raise UsageError(f"{out_dir}: not empty; the copy of a record goes into a new or empty "
                         "folder")


@click.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Reveal the seed before the game has ended.")
@click.pass_context
@handle_errors
def reveal(ctx: click.Context, state: str, force: bool) -> None:
    """Print the game seed of STATE and its commitment, so anyone can check every draw.

    Refused before the game has ended (the seed decides the Westeros decks)
    unless --force.
    """
    ruleset = ruleset_for(ctx, state)
    _, game = load_state(state, ruleset)
    if game.phase != "ended" and not force:
        raise UsageError(f"{state}: the game has not ended (round {game.round}, {game.phase} "
                         "phase); revealing the seed now would tell every Westeros draw to "
                         "come (use --force)")
    click.echo(f"game: {game.game_id}\nseed: {game.seed}\n"
               f"commitment: sha256 {seed_commitment(game.seed, game.game_id)}\n"
               f"check: printf 'agot-seed:%s:%s' {shlex.quote(game.game_id)} {game.seed} "
               "| sha256sum")


@click.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.option("--published", type=click.Path(dir_okay=False), required=True,
              help="The next state that was published, to compare against.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Also write the what-if next state here.")
@click.option("--report", type=click.Path(dir_okay=False), help="Write the what-if report here.")
@run_options
@click.option("--public", "public", is_flag=True,
              help="Only what every house may see: no seed, decks, chain hashes or hands "
                   "(their sizes only); pending decisions by id and kind only.")
@click.option("--house", metavar="HOUSE",
              help="The public view plus HOUSE's own hand and pending questions.")
@lang_option("Also the language of the --report file.")
@click.pass_context
@handle_errors
def whatif(ctx: click.Context, state: str, orders: tuple[str, ...], published: str,
           output: str | None, report: str | None, run: RunOptions, public: bool,
           house: str | None, lang: str | None) -> None:
    """Re-run STATE with corrected or late ORDERS and show what differs from PUBLISHED.

    Each difference reads published → what-if. The moderator's view by default
    (secrets included); --public and --house show only what may be published.
    Exit 0 when the result is the published state, 4 when it differs, 3 when
    the corrected submissions leave decisions pending.
    """
    view = view_of(public, house)
    ruleset = ruleset_for(ctx, state)
    known_house(house, ruleset)
    inputs = [state, *orders, published]
    distinct_outputs([("-o", output), ("--report", report)])
    for out in (output, report):
        if out is not None:
            check_output(out, inputs)
    lang = chosen_language(lang)
    outcome = whatif_files(state, list(orders), published, ruleset, run, view=view, lang=lang)
    writes = []
    if report:
        writes.append((report, outcome.outputs.report))
    if outcome.outputs.pending is not None:
        write_together(writes)
        if view is None:
            click.echo(outcome.outputs.pending, nl=False)
        else:
            with speaking(lang, ruleset):
                click.echo(pending_view_text(outcome.run.result.pending, view), nl=False)
        raise PendingDecisions()
    if output and outcome.outputs.state is not None:
        writes.append((output, outcome.outputs.state))
    write_together(writes)
    with Names(ruleset, lang).speaking():
        label = "" if view is None else tr(" ({view})", view=view_label(view))
        if not outcome.changes:
            click.echo(tr("no difference{label}: the corrected submissions give {published}",
                          label=label, published=published))
            return
        click.echo(tr("what differs from {published}{label}, published → what-if:",
                      published=published, label=label))
    for line in outcome.changes:
        click.echo(f"  {line}")
    raise DifferencesFound()


