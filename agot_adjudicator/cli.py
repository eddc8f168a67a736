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
from typing import Any, TypeVar

import click

from agot_adjudicator import __version__, app
from agot_adjudicator.errors import AgotError, ExitCode, InputError
from agot_adjudicator.files import SCHEMA_NAMES, load_schema, write_atomic
from agot_adjudicator.ruleset import Ruleset, export_ruleset, load_ruleset

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
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="Where to write the starting state.")
@click.pass_context
@handle_errors
def new(ctx: click.Context, players: str, houses: str | None, seed: int, game_id: str | None,
        output: str) -> None:
    """Write the starting state of a new game (R1, R12)."""
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
    write_atomic(output, app.new_game_text(ruleset, chosen, seed, gid))
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
    result = app.validate_files(state, list(orders), ruleset)
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
    from agot_adjudicator.views import show_text  # tabulate is slow to import; only show needs it

    ruleset = ruleset_of(ctx)
    _, game = app.load_state(state, ruleset)
    if house is not None and house not in game.houses:
        raise click.BadParameter(f"'{house}' is not a house in play "
                                 f"({', '.join(game.order_of_play())})", param_hint="--house")
    click.echo(show_text(game, ruleset, house), nl=False)


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
@click.argument("state", type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="Where to write the next state (only when the round is complete).")
@click.option("--report", type=click.Path(dir_okay=False), help="Write the Markdown report here.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write the events as JSON Lines here.")
@click.option("--pending", "pending_path", type=click.Path(dir_okay=False),
              help="Write the pending decisions (YAML) here when the run stops.")
@click.option("--nmr", multiple=True, metavar="HOUSE",
              help="No moves received: apply the documented defaults for HOUSE (repeatable).")
@click.option("--defaults", is_flag=True, help="Apply the documented default to every missing answer.")
@click.option("--in-place", is_flag=True, help="Allow an output to overwrite an input file.")
@click.pass_context
@handle_errors
def adjudicate(ctx: click.Context, state: str, orders: tuple[str, ...], output: str,
               report: str | None, log_path: str | None, pending_path: str | None,
               nmr: tuple[str, ...], defaults: bool, in_place: bool) -> None:
    """Resolve the round of STATE with the ORDERS files (DESIGN.md §1).

    Exit 0 and write the next state when the round is complete; exit 3 and
    print the pending decisions (paste-ready YAML) when answers are missing.
    """
    from agot_adjudicator.report import render_log, render_pending, render_report

    ruleset = ruleset_of(ctx)
    inputs = [state, *orders]
    for out in (output, report, log_path, pending_path):
        if out is not None:
            app.check_output(out, inputs, in_place=in_place)
    run = app.adjudicate_files(state, list(orders), ruleset, nmr, defaults)
    result = run.result
    title = f"Game {result.state.game_id} — round {run.state_doc.data['round']}"
    writes: list[tuple[str, str]] = []
    if report:
        writes.append((report, render_report(title, result.events, result.state, ruleset,
                                             result.pending)))
    if log_path:
        writes.append((log_path, render_log(result.events)))
    if result.status == "pending":
        text = render_pending(result.pending)
        if pending_path:
            writes.append((pending_path, text))
        for path, content in writes:
            write_atomic(path, content)
        click.echo(text, nl=False)
        sys.exit(int(ExitCode.PENDING))
    writes.insert(0, (output, app.state_text(result.state, ruleset)))
    for path, content in writes:
        write_atomic(path, content)
    s = result.state
    status = (f"game over: {', '.join(s.winner['houses'])} won" if s.winner
              else f"next: round {s.round}, {s.phase} phase")
    click.echo(f"wrote {output} ({status}); {len(result.events)} events")
