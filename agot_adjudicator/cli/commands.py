"""The ``agot`` command line (Click). Parse, call the app layer, print, exit.

Exit codes (DESIGN.md §3): 0 done; 1 invalid input, nothing written; 2 usage
error; 3 stopped on pending decisions; 4 differences found (replay/diff) or a
broken ruleset.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from agot_adjudicator import __version__
from agot_adjudicator.errors import AgotError, ExitCode, InputError, UsageError
from agot_adjudicator.io.rulesets import export_ruleset, load_ruleset
from agot_adjudicator.io.schemas import SCHEMA_NAMES, load_schema
from agot_adjudicator.io.writing import same_file, write_all_atomic, write_atomic, write_bytes_atomic
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.workflow.adjudicate import (
    MOVES_FILE,
    Adjudication,
    adjudicate_files,
    adjudicate_game,
    render_outputs,
    start_game_dir,
    whatif_files,
)
from agot_adjudicator.workflow.present import diff_files, map_svg, new_game_text, template_text
from agot_adjudicator.workflow.validate import check_output, load_state, validate_files

F = TypeVar("F", bound=Callable[..., Any])

EPILOG = ("Exit codes: 0 done; 1 invalid input (nothing written); 2 usage error; "
          "3 stopped on pending decisions; 4 differences found, or broken ruleset data.")


def _error(message: str) -> None:
    for line in message.splitlines():
        click.echo(f"error: {line}", err=True)


def handle_errors(func: F) -> F:
    """The one place that turns exceptions into messages and exit codes."""
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AgotError as exc:
            _error(str(exc))
            sys.exit(int(exc.exit_code))
        except OSError as exc:  # an output that cannot be written: no traceback
            _error(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
            sys.exit(int(ExitCode.INVALID_INPUT))
    return wrapper  # type: ignore[return-value]


def ruleset_of(ctx: click.Context) -> Ruleset:
    """The ruleset chosen by the global ``--ruleset`` option (loaded and checked)."""
    return load_ruleset(ctx.obj.get("ruleset"))


@click.group(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="agot")
@click.option("--ruleset", "ruleset_path", metavar="DIR",
              type=click.Path(exists=True, file_okay=True, dir_okay=True),
              help="Use the ruleset in DIR (a corrected copy made with `agot ruleset export`).")
@click.pass_context
def main(ctx: click.Context, ruleset_path: str | None) -> None:
    """agot — adjudicator for A Game of Thrones: The Board Game, first edition (2003)."""
    ctx.ensure_object(dict)
    ctx.obj["ruleset"] = ruleset_path


@main.command(epilog=EPILOG)
@click.option("--players", type=click.Choice(["3", "4", "5"]), default="5", show_default=True,
              help="Number of players (R12 decides who is out).")
@click.option("--houses", help="Comma-separated houses in play (default: R12.1's choice).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="Game seed: the only source of randomness (Westeros decks).")
@click.option("--game-id", help="Game id recorded in the state (default: game-SEED).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Where to write the starting state.")
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Start a game directory instead: writes DIR/round-01/state.yaml.")
@click.pass_context
@handle_errors
def new(ctx: click.Context, players: str, houses: str | None, seed: int, game_id: str | None,
        output: str | None, game_dir: str | None) -> None:
    """Write the starting state of a new game (R1, R12)."""
    if (output is None) == (game_dir is None):
        raise click.UsageError("give exactly one of -o FILE and --game DIR")
    if game_dir is not None:
        output = str(start_game_dir(game_dir))
    assert output is not None
    ruleset = ruleset_of(ctx)
    count = int(players)
    chosen = list(ruleset.players[count])
    if houses:
        chosen = [h.strip() for h in houses.split(",") if h.strip()]
        unknown = [h for h in chosen if h not in ruleset.houses]
        if unknown:
            raise click.BadParameter(f"not a house: {', '.join(unknown)} (houses: "
                                     f"{', '.join(ruleset.houses)})", param_hint="--houses")
        if len(set(chosen)) != count:
            raise click.BadParameter(f"{len(set(chosen))} houses given for {count} players",
                                     param_hint="--houses")
        if sorted(chosen) != sorted(ruleset.players[count]):
            click.echo(f"warning: R12.1 plays {', '.join(ruleset.players[count])} with {count} "
                       "players; using the houses given", err=True)
    gid = game_id or f"game-{seed}"
    write_atomic(output, new_game_text(ruleset, chosen, seed, gid))
    from agot_adjudicator.engine.chance import seed_commitment

    click.echo(f"wrote {output}: game {gid}, {count} players, round 1 planning phase")
    click.echo(f"seed commitment (publish it now): sha256 {seed_commitment(seed, gid)}")


@main.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.pass_context
@handle_errors
def validate(ctx: click.Context, state: str, orders: tuple[str, ...]) -> None:
    """Check STATE and ORDERS files (schema, then rules) without resolving anything."""
    ruleset = ruleset_of(ctx)
    result = validate_files(state, list(orders), ruleset)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if result.problems:
        raise InputError(result.problems)
    click.echo(f"ok: {state}" + (f" and {len(orders)} submission file(s)" if orders else ""))


@main.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.option("--house", help="Show only what this house may see.")
@click.pass_context
@handle_errors
def show(ctx: click.Context, state: str, house: str | None) -> None:
    """Print the board, the tracks and the houses of STATE as tables."""
    from agot_adjudicator.render.views import show_text  # only show needs the views

    ruleset = ruleset_of(ctx)
    _, game = load_state(state, ruleset)
    if house is not None and house not in game.houses:
        raise click.BadParameter(f"'{house}' is not a house in play "
                                 f"({', '.join(game.order_of_play())})", param_hint="--house")
    click.echo(show_text(game, ruleset, house), nl=False)


@main.command("map", epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="Where to write the picture: FILE.svg, or FILE.png (needs resvg-py, the png extra).")
@click.option("--house", help="Draw only what this house may see (others' unrevealed orders face down).")
@click.option("--orders", "show_orders", is_flag=True,
              help="Draw the orders placed on the board (states in the action phase).")
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Draw a round of this game directory as played (instead of STATE).")
@click.option("--round", "round_number", type=click.IntRange(1), metavar="N",
              help="With --game: the round to draw (default: the last adjudicated).")
@click.pass_context
@handle_errors
def map_command(ctx: click.Context, state: str | None, output: str, house: str | None,
                show_orders: bool, game_dir: str | None, round_number: int | None) -> None:
    """Draw the board of STATE as a picture: areas, units, tokens and tracks.

    With --game DIR: round N as played, over the board it started from: the
    orders as revealed, marches, battles, raids and units destroyed.
    """
    from agot_adjudicator.render.png import svg_to_png
    from agot_adjudicator.workflow.site import round_svg

    ruleset = ruleset_of(ctx)
    if state is not None and same_file(output, state):
        raise UsageError(f"refusing to write the picture {output} over the state {state}")
    suffix = Path(output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise click.UsageError(f"-o {output}: the picture's name must end in .svg or .png")
    if game_dir is not None:
        if state is not None or house is not None or show_orders:
            raise click.UsageError("--game DIR draws a recorded round: give no STATE, --house or "
                                   "--orders")
        svg = round_svg(game_dir, round_number, ruleset)
    else:
        if state is None:
            raise click.UsageError("give STATE (or --game DIR)")
        if round_number is not None:
            raise click.UsageError("--round N needs --game DIR")
        svg = map_svg(state, ruleset, house, show_orders)
    if suffix == ".png":
        write_bytes_atomic(output, svg_to_png(svg))
    else:
        write_atomic(output, svg)
    click.echo(f"wrote {output}")


@main.command(epilog=EPILOG)
@click.option("--game", "game_dir", type=click.Path(file_okay=False), required=True,
              help="The game directory to publish.")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), required=True,
              help="The folder to write the site into (created; files of the same names replaced).")
@click.option("--custom-start", is_flag=True,
              help="Accept a round-01 state that `agot new` did not write (as agot replay).")
@click.pass_context
@handle_errors
def site(ctx: click.Context, game_dir: str, out_dir: str, custom_start: bool) -> None:
    """Write a static web site of GAME's public record: an index and a page per round.

    The record is first checked as `agot replay` does; a record that does not
    replay is refused with replay's message (exit 4) and nothing is written.
    """
    from agot_adjudicator.workflow.replay import render_replay
    from agot_adjudicator.workflow.site import build_site, check_site_output

    ruleset = ruleset_of(ctx)
    check_site_output(game_dir, out_dir)
    built = build_site(game_dir, ruleset, check_new=not custom_start)
    if not built.ok:
        click.echo(render_replay(built.replay), nl=False)
        sys.exit(int(ExitCode.DIFFERENCES))
    write_all_atomic((Path(out_dir) / name, text) for name, text in sorted(built.files.items()))
    click.echo(f"wrote {out_dir}/index.html and {len(built.files) - 1} more files")


@main.command(epilog=EPILOG)
@click.argument("a", type=click.Path(dir_okay=False))
@click.argument("b", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Readable text grouped by game, tracks, houses, areas, "
              "control, westeros; or one JSON document.")
@click.pass_context
@handle_errors
def diff(ctx: click.Context, a: str, b: str, fmt: str) -> None:
    """Show what differs between the states A and B, in game terms; exit 4 if anything does.

    Every recorded value is compared, including round, phase, seed, shuffle
    counter and ruleset hash. Rule problems in either state are warnings.
    """
    from agot_adjudicator.render.diff import render_json, render_text

    changes, warnings = diff_files(a, b, ruleset_of(ctx))
    for warning in warnings:
        click.echo(f"warning: {warning} (compared anyway)", err=True)
    render = render_json if fmt == "json" else render_text
    click.echo(render(changes, a, b), nl=False)
    if changes:
        sys.exit(int(ExitCode.DIFFERENCES))


@main.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.option("--house", required=True, help="The house whose order file to sketch.")
@click.option("--schema-ref", default="orders.schema.json", show_default=True, metavar="PATH",
              help="Where the file's `# yaml-language-server: $schema=` line points "
              "(save it with `agot schema orders > PATH`; a path relative to the order file, or a URL).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the skeleton here instead of standard output.")
@click.pass_context
@handle_errors
def template(ctx: click.Context, state: str, house: str, schema_ref: str,
             output: str | None) -> None:
    """Print an order file skeleton for HOUSE: its areas, legal orders and plans, as comments.

    Left as it is, the skeleton is a valid agot-orders/1 file that submits
    nothing; uncomment the lines you need. It never reads the order of the
    Westeros decks, so it may be sent to the player.
    """
    text = template_text(state, house, ruleset_of(ctx), schema_ref)
    if output is None:
        click.echo(text, nl=False)
        return
    check_output(output, [state])
    write_atomic(output, text)
    click.echo(f"wrote {output}")


@main.command(epilog=EPILOG)
@click.argument("name", type=click.Choice(SCHEMA_NAMES))
def schema(name: str) -> None:
    """Print the JSON Schema NAME (state, orders, ruleset, scenario)."""
    click.echo(json.dumps(load_schema(name), indent=2, ensure_ascii=False))


@main.group()
def ruleset() -> None:
    """Inspect or export the ruleset data."""


@ruleset.command("show")
@click.pass_context
@handle_errors
def ruleset_show(ctx: click.Context) -> None:
    """Print the ruleset in use: name, content hash, source."""
    rs = ruleset_of(ctx)
    click.echo(f"{rs.name}: {rs.title}\nsha256: {rs.sha256}\nsource: {rs.source}")


@ruleset.command("export")
@click.argument("directory", type=click.Path(file_okay=False))
@handle_errors
def ruleset_export(directory: str) -> None:
    """Copy the packaged first-edition ruleset into DIRECTORY, to edit and pass as --ruleset."""
    for path in export_ruleset(directory):
        click.echo(f"wrote {path}")


@main.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Where to write the next state (only when the round is complete).")
@click.option("--report", type=click.Path(dir_okay=False), help="Write the Markdown report here.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write the events as JSON Lines here.")
@click.option("--pending", "pending_path", type=click.Path(dir_okay=False),
              help="Write the pending decisions (YAML) here when the run stops.")
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Adjudicate the current round of game directory DIR: read round-NN/state.yaml "
                   "and round-NN/orders/*.yaml; write report.md, log.jsonl (pending.yaml) there "
                   "and round-(NN+1)/state.yaml.")
@click.option("--nmr", multiple=True, metavar="HOUSE",
              help="No moves received: apply the documented defaults for HOUSE (repeatable).")
@click.option("--defaults", is_flag=True, help="Apply the documented default to every missing answer.")
@click.option("--in-place", is_flag=True, help="Allow an output to overwrite an input file.")
@click.option("--format", "report_format", type=click.Choice(["markdown", "text"]),
              default="markdown", show_default=True,
              help="Report format: Markdown tables, or plain aligned text for e-mail.")
@click.option("--private", "private_house", metavar="HOUSE",
              help="Append HOUSE's own hand, bids and pending questions to the report "
                   "(send that report to HOUSE only).")
@click.pass_context
@handle_errors
def adjudicate(ctx: click.Context, state: str | None, orders: tuple[str, ...],
               output: str | None, report: str | None, log_path: str | None,
               pending_path: str | None, game_dir: str | None, nmr: tuple[str, ...],
               defaults: bool, in_place: bool, report_format: str,
               private_house: str | None) -> None:
    """Resolve the round of STATE with the ORDERS files (DESIGN.md §1).

    Exit 0 and write the next state when the round is complete; exit 3 and
    print the pending decisions (paste-ready YAML) when answers are missing.
    """
    if private_house is not None and (game_dir or not report):
        raise click.UsageError("--private HOUSE adds to the report: give --report FILE (not "
                               "--game, whose report is the public record)")
    if game_dir is not None and report_format != "markdown":
        raise click.UsageError("--game DIR keeps the Markdown report (the record replay checks); "
                               "--format text needs STATE ... --report FILE")
    ruleset = ruleset_of(ctx)
    if game_dir is not None:
        if state or orders or output or report or log_path or pending_path:
            raise click.UsageError("--game DIR takes every file from DIR: give no STATE, ORDERS, "
                             "-o, --report, --log or --pending")
        game = adjudicate_game(game_dir, ruleset, nmr, defaults)
        _finish(game.run, ruleset, output=str(game.next_state), report=str(game.round.report),
                log_path=str(game.round.log), pending_path=str(game.round.pending),
                stale_pending=game.round.pending, board_path=str(game.round.board))
        if game.run.result.state.phase != "ended":
            (game.next_state.parent / "orders").mkdir(exist_ok=True)
            click.echo(f"next round's submissions go in {game.next_state.parent / 'orders'}")
        return
    if state is None or output is None:
        raise click.UsageError("give STATE and -o NEXT (or --game DIR)")
    inputs = [state, *orders]
    for out in (output, report, log_path, pending_path):
        if out is not None:
            check_output(out, inputs, in_place=in_place)
    run = adjudicate_files(state, list(orders), ruleset, nmr, defaults)
    _finish(run, ruleset, output=output, report=report, log_path=log_path,
            pending_path=pending_path, fmt=report_format, private_house=private_house)


def _finish(run: Adjudication, ruleset: Ruleset, *, output: str, report: str | None,
            log_path: str | None, pending_path: str | None,
            stale_pending: Path | None = None, board_path: str | None = None,
            fmt: str = "markdown", private_house: str | None = None) -> None:
    """Write what a run produced; exit 3 with the pending list when it stopped."""
    out = render_outputs(run, ruleset, board=board_path is not None, fmt=fmt,
                             private_house=private_house)
    result = run.result
    writes: list[tuple[str, str]] = []
    if report:
        writes.append((report, out.report))
    if log_path:
        writes.append((log_path, out.log))
    if out.pending is not None:
        if pending_path:
            writes.append((pending_path, out.pending))
        write_all_atomic(writes)
        click.echo(out.pending, nl=False)
        sys.exit(int(ExitCode.PENDING))
    assert out.state is not None
    writes.insert(0, (output, out.state))
    if board_path and out.board is not None:
        writes.append((board_path, out.board))
        if out.moves is not None:
            writes.append((str(Path(board_path).with_name(MOVES_FILE)), out.moves))
    write_all_atomic(writes)
    if stale_pending is not None:
        stale_pending.unlink(missing_ok=True)
    s = result.state
    status = (f"game over: {', '.join(s.winner['houses'])} won" if s.winner
              else f"next: round {s.round}, {s.phase} phase")
    click.echo(f"wrote {output} ({status}); {len(result.events)} events")


@main.command(epilog=EPILOG)
@click.argument("game_dir", metavar="GAME_DIR", type=click.Path(file_okay=False))
@click.option("--custom-start", is_flag=True,
              help="Accept a round-01 state that `agot new` did not write (a variant setup).")
@click.pass_context
@handle_errors
def replay(ctx: click.Context, game_dir: str, custom_start: bool) -> None:
    """Re-adjudicate every recorded round of GAME_DIR and check each next state byte for byte.

    Exit 0 when the record is consistent, 4 when a round does not replay.
    """
    from agot_adjudicator.workflow.replay import render_replay, replay_game

    ruleset = ruleset_of(ctx)
    result = replay_game(game_dir, ruleset, check_new=not custom_start)
    click.echo(render_replay(result), nl=False)
    if not result.ok:
        sys.exit(int(ExitCode.DIFFERENCES))


@main.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.option("--published", type=click.Path(dir_okay=False), required=True,
              help="The next state that was published, to compare against.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Also write the what-if next state here.")
@click.option("--report", type=click.Path(dir_okay=False), help="Write the what-if report here.")
@click.option("--nmr", multiple=True, metavar="HOUSE",
              help="No moves received: apply the documented defaults for HOUSE (repeatable).")
@click.option("--defaults", is_flag=True, help="Apply the documented default to every missing answer.")
@click.pass_context
@handle_errors
def whatif(ctx: click.Context, state: str, orders: tuple[str, ...], published: str,
           output: str | None, report: str | None, nmr: tuple[str, ...],
           defaults: bool) -> None:
    """Re-run STATE with corrected or late ORDERS and show what differs from PUBLISHED.

    Exit 0 when the result is the published state, 4 when it differs, 3 when
    the corrected submissions leave decisions pending.
    """
    ruleset = ruleset_of(ctx)
    inputs = [state, *orders, published]
    for out in (output, report):
        if out is not None:
            check_output(out, inputs)
    outcome = whatif_files(state, list(orders), published, ruleset, nmr, defaults)
    writes = []
    if report:
        writes.append((report, outcome.outputs.report))
    if outcome.outputs.pending is not None:
        write_all_atomic(writes)
        click.echo(outcome.outputs.pending, nl=False)
        sys.exit(int(ExitCode.PENDING))
    if output and outcome.outputs.state is not None:
        writes.append((output, outcome.outputs.state))
    write_all_atomic(writes)
    if not outcome.changes:
        click.echo(f"no difference: the corrected submissions give {published}")
        return
    click.echo(f"what differs from {published}:")
    for line in outcome.changes:
        click.echo(f"  {line}")
    sys.exit(int(ExitCode.DIFFERENCES))


@main.command(epilog=EPILOG)
@click.argument("state", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Reveal the seed before the game has ended.")
@click.pass_context
@handle_errors
def reveal(ctx: click.Context, state: str, force: bool) -> None:
    """Print the game seed of STATE and its commitment, so anyone can check every draw.

    Refused before the game has ended (the seed decides the Westeros decks)
    unless --force.
    """
    from agot_adjudicator.engine.chance import seed_commitment

    ruleset = ruleset_of(ctx)
    _, game = load_state(state, ruleset)
    if game.phase != "ended" and not force:
        raise UsageError(f"{state}: the game has not ended (round {game.round}, {game.phase} "
                         "phase); revealing the seed now would tell every Westeros draw to "
                         "come (use --force)")
    click.echo(f"game: {game.game_id}\nseed: {game.seed}\n"
               f"commitment: sha256 {seed_commitment(game.seed, game.game_id)}\n"
               f"check: printf 'agot-seed:%s:%s' {game.game_id} {game.seed} | sha256sum")


@main.command(epilog=EPILOG)
@click.argument("scenarios", metavar="SCENARIOS_DIR", default="scenarios",
                type=click.Path(file_okay=False))
@click.pass_context
@handle_errors
def conformance(ctx: click.Context, scenarios: str) -> None:
    """Run the AGoT-ATC suite in SCENARIOS_DIR (default ./scenarios) and print the statement.

    Prints the suite version and digest, cases passed per section, the rules
    covered and the rulings profile. Exit 0 when every case passes, 4 when not.
    """
    from agot_adjudicator.workflow.conformance import run_suite, statement_text

    root = Path(scenarios)
    if not root.is_dir():
        raise UsageError(f"{scenarios}: no such directory (the suite ships in the source "
                         "tree's scenarios/)")
    ruleset = ruleset_of(ctx)
    result = run_suite(root, ruleset)
    click.echo(statement_text(result, ruleset, __version__), nl=False)
    if not result.ok:
        sys.exit(int(ExitCode.DIFFERENCES))
