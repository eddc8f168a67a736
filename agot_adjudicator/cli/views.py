"""``agot show``, ``agot map`` and ``agot diff``: a board as tables or a picture, two states
compared. The moderator's view unless ``--house`` or ``--public`` (docs/protocol.md P7)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    board_for,
    chosen_language,
    game_option,
    game_or_chosen_language,
    handle_errors,
    known_house,
    lang_option,
    ruleset_for,
    ruleset_of,
    say_wrote,
    view_of,
)
from agot_adjudicator.errors import DifferencesFound, UsageError
from agot_adjudicator.io.writing import same_file, write_atomic, write_bytes_atomic
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.diff import render_json, render_text, view_label
from agot_adjudicator.render.language import PHASE_TITLES, Names, tr
from agot_adjudicator.render.png import svg_to_png
from agot_adjudicator.render.public import view_changes
from agot_adjudicator.render.views import show_text
from agot_adjudicator.workflow.present import Board, diff_files, map_svg
from agot_adjudicator.workflow.site import round_svg


def provisional_line(board: Board, ruleset: Ruleset, lang: str = "en") -> str:
    """The line that tells a player a board is provisional (stdout, before the view)."""
    s = board.state
    with Names(ruleset, lang).speaking():
        phase = (tr("{phase} phase", phase=s.phase) if lang == "en"
                 else tr(PHASE_TITLES.get(s.phase, s.phase)))
        return tr("Provisional: the board as it stands in round {round}, stopped in the "
                  "{phase} on pending decisions (not a record).", round=s.round,
                  phase=phase) + "\n"


@click.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.option("--house", help="Show only what this house may see.")
@click.option("--public", "public", is_flag=True,
              help="Show only what every house may see (hand sizes; no decks, no seed).")
@game_option("Show the board of game directory DIR as it stands now (a stopped round's "
             "now.yaml, else its state.yaml) instead of STATE.")
@click.option("--format", "fmt", type=click.Choice(["text", "view"]), default="text",
              show_default=True, help="Tables, or with --game DIR --house H the house view "
              "file (agot-view/1) a player checks orders on: agot validate VIEW ORDERS.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write to this file instead of standard output.")
@lang_option("Chinese names houses, areas, orders and cards by the glossary's names.")
@click.pass_context
@handle_errors
def show(ctx: click.Context, state: str | None, house: str | None, public: bool,
         game_dir: str | None, fmt: str, output: str | None, lang: str | None) -> None:
    """Print the board, the tracks and the houses of STATE (or --game DIR) as tables.

    Without --house or --public: the moderator's view, with every hand, the
    Westeros decks and the seed (never to be forwarded). STATE may be a
    house view (agot-view/1, attached to each house's mail): that house's
    tables. --format view --game DIR --house H writes the house view.
    """
    if public and house is not None:
        raise UsageError("give --public or --house HOUSE, not both")
    lang = chosen_language(lang)
    if fmt == "view":
        _write_view(ctx, state, game_dir, house, public, output, lang)
        return
    from agot_adjudicator.cli.kit import view_for, view_line

    found = view_for(ctx, state) if state is not None and game_dir is None else None
    if found is not None:
        view, ruleset = found
        if public or (house is not None and house != view.house):
            raise UsageError(f"{state} is the view of {view.house}: it shows that house's "
                             "view only")
        _out(output, view_line(view, lang) + show_text(view.board, ruleset, view.house,
                                                       lang=lang),
             lang, [str(state)])
        return
    board, ruleset = board_for(ctx, state, game_dir)
    game = board.state
    if house is not None and house not in game.houses:
        raise click.BadParameter(f"'{house}' is not a house in play "
                                 f"({', '.join(game.order_of_play())})", param_hint="--house")
    text = provisional_line(board, ruleset, lang) if board.provisional else ""
    _out(output, text + show_text(game, ruleset, house, public=public, lang=lang), lang,
         [str(board.doc.name)])


def _out(output: str | None, text: str, lang: str, inputs: list[str]) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    from agot_adjudicator.workflow.validate import check_output

    check_output(output, inputs)  # never over the view, state or record it was made from
    write_atomic(output, text)
    say_wrote(output, lang)


def _write_view(ctx: click.Context, state: str | None, game_dir: str | None,
                house: str | None, public: bool, output: str | None, lang: str) -> None:
    """``show --game DIR --house H --format view``: the house view of the current stop."""
    from agot_adjudicator.io.gamedir import board_now
    from agot_adjudicator.workflow.kit import view_data, view_text

    if game_dir is None or state is not None or house is None or public:
        raise UsageError("--format view writes a house's view of a game directory: give "
                         "--game DIR --house HOUSE (no STATE, no --public)")
    now = board_now(game_dir)
    ruleset = ruleset_for(ctx, now.path, game_dir)
    _out(output, view_text(view_data(game_dir, house, ruleset)), lang,
         [str(now.path), str(now.round.state)])


@click.command("map", epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="Where to write the picture: FILE.svg, or FILE.png (needs resvg-py, the png extra).")
@click.option("--house", help="Draw only what this house may see (others' unrevealed orders face down).")
@click.option("--orders", "show_orders", is_flag=True,
              help="Draw the orders placed on the board (states in the action phase).")
@game_option("Draw a round of this game directory as played (instead of STATE).")
@click.option("--round", "round_number", type=click.IntRange(1), metavar="N",
              help="With --game: the round to draw (default: the last adjudicated).")
@click.option("--now", "now", is_flag=True,
              help="With --game: draw the board as it stands now (a stopped round's now.yaml, "
                   "else its state.yaml); --house and --orders as for STATE.")
@lang_option("Of the labels, legend and titles (area names from the glossary). With --game the "
             "default is the game's language (of its last report), as adjudicate writes it.")
@click.pass_context
@handle_errors
def map_command(ctx: click.Context, state: str | None, output: str, house: str | None,
                show_orders: bool, game_dir: str | None, round_number: int | None,
                now: bool, lang: str | None) -> None:
    """Draw the board of STATE as a picture: areas, units, tokens and tracks.

    With --game DIR: round N as played, over the board it started from: the
    orders as revealed, marches, battles, raids and units destroyed. With
    --game DIR --now: the board as it stands now. Chinese pictures (--lang) name a
    CJK font first; their PNG uses the Noto Sans CJK subset shipped in the package.
    """
    if state is not None and same_file(output, state):
        raise UsageError(f"refusing to write the picture {output} over the state {state}")
    suffix = Path(output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"-o {output}: the picture's name must end in .svg or .png")
    if now and (game_dir is None or state is not None or round_number is not None):
        raise UsageError("--now draws the board of --game DIR as it stands: give --game DIR "
                         "and no STATE or --round")
    lang = game_or_chosen_language(lang, game_dir)
    if game_dir is not None and not now:
        if state is not None or house is not None or show_orders:
            raise UsageError("--game DIR draws a recorded round: give no STATE, --house or "
                             "--orders (--now draws the board as it stands, with them)")
        svg = round_svg(game_dir, round_number, ruleset_of(ctx), lang)
    else:
        if round_number is not None:
            raise UsageError("--round N needs --game DIR")
        board, ruleset = board_for(ctx, state, game_dir)
        svg = map_svg(board, ruleset, house, show_orders, lang)
    if suffix == ".png":
        write_bytes_atomic(output, svg_to_png(svg))
    else:
        write_atomic(output, svg)
    say_wrote(output, lang)


@click.command(epilog=EPILOG)
@click.argument("a", type=click.Path(dir_okay=False))
@click.argument("b", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Readable text grouped by game, tracks, houses, areas, "
              "control, westeros; or one JSON document.")
@click.option("--public", "public", is_flag=True,
              help="Only what every house may see: no seed, decks, chain hashes or hands "
                   "(their sizes only).")
@click.option("--house", metavar="HOUSE",
              help="The public view plus HOUSE's own hand.")
@lang_option("--format json keeps its English text fields.")
@click.pass_context
@handle_errors
def diff(ctx: click.Context, a: str, b: str, fmt: str, public: bool, house: str | None,
         lang: str | None) -> None:
    """Show what differs between the states A and B, in game terms; exit 4 if anything does.

    Every recorded value is compared, including round, phase, seed, shuffle
    counter and ruleset hash: the moderator's view, secrets included. --public
    and --house show only what may be published. Rule problems in either state
    are warnings.
    """
    view = view_of(public, house)
    ruleset = ruleset_for(ctx, a)
    known_house(house, ruleset)
    changes, warnings = diff_files(a, b, ruleset)
    changes = view_changes(changes, view)
    for warning in warnings:
        click.echo(f"warning: {warning} (compared anyway)", err=True)
    if fmt == "json":
        text = render_json(changes, a, b)
        if view is not None:
            doc = json.loads(text)
            text = json.dumps({"view": view, **doc}, indent=2, ensure_ascii=False) + "\n"
    else:
        with Names(ruleset, chosen_language(lang)).speaking():
            text = render_text(changes, a, b)
            if view is not None:
                text = tr("{view}: {a} → {b}", view=view_label(view), a=a, b=b) + "\n" + text
    click.echo(text, nl=False)
    if changes:
        raise DifferencesFound()
