"""The ``agot`` command line (Click). Parse, call the app layer, print, exit.

Exit codes (docs/protocol.md P6): 0 done; 1 invalid input (malformed or illegal),
nothing written; 2 usage error; 3 stopped on pending decisions; 4 differences
found; 5 broken ruleset data. The mapping is in :mod:`agot_adjudicator.errors`;
:func:`handle_errors` is the only place that exits with it.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from agot_adjudicator import __version__
from agot_adjudicator.errors import (
    AgotError,
    DifferencesFound,
    ExitCode,
    InputError,
    MessagesNotAccepted,
    PendingDecisions,
    Problem,
    UsageError,
    escaped,
)
from agot_adjudicator.io.commit import distinct_outputs, write_together
from agot_adjudicator.io.rulesets import (
    GAME_RULESETS,
    export_ruleset,
    keep_ruleset,
    load_ruleset,
    state_ruleset,
)
from agot_adjudicator.io.schemas import SCHEMA_NAMES, load_schema
from agot_adjudicator.io.writing import same_file, write_atomic, write_bytes_atomic
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.text import N_
from agot_adjudicator.workflow.adjudicate import (
    Adjudication,
    adjudicate_files,
    render_outputs,
    whatif_files,
)
from agot_adjudicator.workflow.present import (
    Board,
    diff_files,
    load_board,
    map_svg,
    new_game_text,
    template_text,
    validation_board,
)
from agot_adjudicator.workflow.validate import check_output, load_state, validate_files

F = TypeVar("F", bound=Callable[..., Any])

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
"""Game ids (the state schema's ``game.id`` pattern): safe in file names, reports and shells."""

EPILOG = ("Exit codes: 0 done; 1 invalid input (nothing written); 2 usage error; "
          "3 stopped on pending decisions; 4 differences found; 5 broken ruleset data.")


def _error(message: str) -> None:
    from agot_adjudicator.render.report import tr

    for line in message.splitlines():
        click.echo(tr("error: {message}", message=line), err=True)


def lang_option(more: str = "") -> Callable[[F], F]:
    """``--lang en|zh-Hans|zh-Hant`` (issue 18): the language of what the command writes for
    people; unset means the locale's (:func:`~agot_adjudicator.render.i18n.language_from_env`).
    The command reads it as ``lang`` (``None`` when not given): :func:`chosen_language`."""
    return click.option(
        "--lang", "lang", type=click.Choice(["en", "zh-Hans", "zh-Hant"]),
        help="The language of the text: English, simplified or traditional Chinese (default: "
             "from LC_ALL, LC_MESSAGES or LANG: zh_CN → zh-Hans, zh_TW/zh_HK → zh-Hant, else "
             "en)." + (" " + more if more else ""))


def chosen_language(lang: str | None) -> str:
    """``--lang`` when given, else the locale's language."""
    import os

    from agot_adjudicator.render.i18n import language_from_env

    return lang or language_from_env(os.environ)


@contextmanager
def speaking(lang: str, ruleset: Ruleset | None = None) -> Iterator[None]:
    """Sentences (``tr``, ``say``) in ``lang`` meanwhile, ids named by the glossary of
    ``ruleset``, else of the ruleset in use (the packaged one when the ``--ruleset`` given is
    broken)."""
    if lang == "en":
        yield
        return
    from agot_adjudicator.render.report import Names

    if ruleset is None:
        try:
            ruleset = ruleset_of(click.get_current_context())
        except AgotError:
            ruleset = load_ruleset()
    with Names(ruleset, lang).speaking():
        yield


def problem_lines(problems: list[Problem]) -> str:
    """Located problems, one a line, each message in the current language."""
    from agot_adjudicator.render.receipt import problem_text

    return "\n".join(problem_text(p) for p in problems)


def handle_errors(func: F) -> F:
    """The one place that turns exceptions into messages and exit codes (the mapping is each
    class's ``exit_code``, :mod:`agot_adjudicator.errors`). Located problems of bad input and
    the closing line are in the command's ``--lang`` (:func:`chosen_language`), when it has one."""
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (PendingDecisions, DifferencesFound) as exc:  # outcomes, already printed
            sys.exit(int(exc.exit_code))
        except InputError as exc:
            from agot_adjudicator.render.report import say, tr

            lang = chosen_language(kwargs["lang"]) if "lang" in kwargs else "en"
            with speaking(lang):
                _error(problem_lines(exc.problems))
                click.echo(tr("agot: {summary}", summary=say(exc.summary)), err=True)
            sys.exit(int(exc.exit_code))
        except UsageError as exc:
            _error(str(exc))
            click.echo(f"Try '{click.get_current_context().command_path} -h' for help.", err=True)
            sys.exit(int(exc.exit_code))
        except AgotError as exc:
            _error(str(exc))
            sys.exit(int(exc.exit_code))
        except OSError as exc:  # an output that cannot be written: no traceback
            _error(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
            sys.exit(int(ExitCode.INVALID_INPUT))
    return wrapper  # type: ignore[return-value]


def ruleset_of(ctx: click.Context) -> Ruleset:
    """The ruleset in use: the global ``--ruleset`` option's, or the packaged one."""
    return load_ruleset(ctx.obj.get("ruleset"))


def ruleset_for(ctx: click.Context, state: str | Path, game_dir: str | None = None) -> Ruleset:
    """The ruleset to read ``state`` with: ``--ruleset`` if given; else the one the state
    names (the game's ``rulesets/`` folder, the packaged one, the package's archive); the
    packaged one if it names none of those (the state's check then says what to do)."""
    explicit = ctx.obj.get("ruleset")
    if explicit is not None:
        return load_ruleset(explicit)
    return state_ruleset(str(state), game_dir) or load_ruleset()


def board_for(ctx: click.Context, state: str | None, game_dir: str | None) -> tuple[Board, Ruleset]:
    """The board ``show``, ``map``, ``template`` and ``validate`` read, and its ruleset: STATE,
    or with ``--game DIR`` the board as it stands now (:func:`~agot_adjudicator.io.gamedir.board_now`:
    a stopped round's provisional state, else the round's state.yaml; docs/protocol.md P4).
    Notes on a provisional board go to stderr."""
    from agot_adjudicator.io.gamedir import board_now

    if (state is None) == (game_dir is None):
        raise UsageError("give STATE or --game DIR (one of them)")
    if game_dir is not None:
        now = board_now(game_dir)
        ruleset = ruleset_for(ctx, now.path, game_dir)
        board = load_board(now.path, ruleset, now=now)
        if not now.provisional and now.round.pending.is_file():
            board.notes.append(f"{now.round.pending}: the round is stopped, but without "
                               f"{now.round.now.name} (an older agot stopped it): showing "
                               f"{now.round.state}; run `agot adjudicate --game {game_dir}` "
                               "again to write the board as it stands")
    else:
        assert state is not None
        ruleset = ruleset_for(ctx, state)
        board = load_board(state, ruleset)
    for note in board.notes:
        click.echo(f"note: {note}", err=True)
    return board, ruleset


def provisional_line(board: Board, ruleset: Ruleset, lang: str = "en") -> str:
    """The line that tells a player a board is provisional (stdout, before the view)."""
    from agot_adjudicator.render.report import PHASE_TITLES, Names, tr

    s = board.state
    with Names(ruleset, lang).speaking():
        phase = (tr("{phase} phase", phase=s.phase) if lang == "en"
                 else tr(PHASE_TITLES.get(s.phase, s.phase)))
        return tr("Provisional: the board as it stands in round {round}, stopped in the "
                  "{phase} on pending decisions (not a record).", round=s.round,
                  phase=phase) + "\n"


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


GUESSABLE_SEED = 2**40
"""Seeds below this can be recovered from their commitment by trying them all (P3)."""


@main.command(epilog=EPILOG)
@click.option("--players", type=click.Choice(["3", "4", "5"]), default="5", show_default=True,
              help="Number of players (R12 decides who is out).")
@click.option("--houses", help="Comma-separated houses in play (default: R12.1's choice).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1),
              help="Game seed: the only source of randomness (Westeros decks); default: a random "
                   "64-bit seed from the operating system. A seed below 2^40 can be found from the "
                   "published commitment by trying every value (warned).")
@click.option("--game-id", help="Game id recorded in the state (default: game- and 8 hex "
                                 "digits of a hash of the seed; never the seed itself).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Where to write the starting state.")
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Start a game directory instead: writes DIR/round-01/state.yaml, a copy "
                   "of the ruleset in DIR/rulesets/SHA256/ and DIR/players.yaml (a secret per "
                   "house, kept as a salted hash; the secrets are printed once).")
@click.option("--secrets-out", type=click.Path(dir_okay=False),
              help="With --game: write the house secrets to FILE (mode 0600) instead of "
                   "printing them.")
@click.option("--address", "addresses", multiple=True, metavar="HOUSE=ADDR",
              help="With --game: register HOUSE's mail address; `agot inbox` then takes HOUSE's "
                   "messages only from ADDR (repeatable).")
@click.option("--no-secrets", is_flag=True,
              help="With --game: issue no house secrets (anyone may submit for any house "
                   "through `agot inbox`).")
@click.pass_context
@handle_errors
def new(ctx: click.Context, players: str, houses: str | None, seed: int | None, game_id: str | None,
        output: str | None, game_dir: str | None, secrets_out: str | None,
        addresses: tuple[str, ...], no_secrets: bool) -> None:
    """Write the starting state of a new game (R1, R12)."""
    if (output is None) == (game_dir is None):
        raise UsageError("give exactly one of -o FILE and --game DIR")
    if game_dir is None and (secrets_out or addresses or no_secrets):
        raise UsageError("--secrets-out, --address and --no-secrets set up a game directory: "
                         "give --game DIR")
    if secrets_out and no_secrets:
        raise UsageError("--secrets-out and --no-secrets do not go together")
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
    from agot_adjudicator.engine.chance import default_game_id, seed_commitment

    if seed is None:
        import secrets

        seed = secrets.randbelow(2**64)  # P3: never guessable from the commitment
    elif seed < GUESSABLE_SEED:
        click.echo(f"warning: seed {seed} is below 2^40: anyone can find it from the published "
                   "commitment by trying every value, and then foresee every Westeros draw; for "
                   "a real game leave --seed out (a random 64-bit seed) (P3)", err=True)
    gid = game_id or default_game_id(seed)
    if not GAME_ID.fullmatch(gid):
        raise click.BadParameter(f"'{escaped(gid, 80)}': a game id is 1 to 64 ASCII lower-case "
                                 "letters, digits, _ and - (starting with a letter or digit)",
                                 param_hint="--game-id")
    text = new_game_text(ruleset, chosen, seed, gid)
    issued: dict[str, str] = {}
    if game_dir is not None:
        from agot_adjudicator.workflow.record import start_game

        registered = _addresses(addresses, chosen)
        if secrets_out is not None:
            check_output(secrets_out, [])
        output = str(start_game(game_dir, text, ruleset))
        if registered or not no_secrets:
            issued = _set_players(game_dir, chosen, registered, chosen if not no_secrets else [])
    else:
        assert output is not None
        write_atomic(output, text)
    click.echo(f"wrote {output}: game {gid}, {count} players, round 1 planning phase")
    click.echo(f"seed commitment (publish it now): sha256 {seed_commitment(seed, gid)}")
    if issued:
        _tell_secrets(game_dir, issued, secrets_out)


def _addresses(pairs: tuple[str, ...], houses: list[str]) -> dict[str, str]:
    """``HOUSE=ADDR`` options as a map; refuse a house not in play or a malformed address."""
    out: dict[str, str] = {}
    for pair in pairs:
        house, sep, address = pair.partition("=")
        house, address = house.strip(), address.strip()
        if not sep or house not in houses:
            raise click.BadParameter(f"'{escaped(pair, 80)}': give HOUSE=ADDR with HOUSE one of "
                                     f"{', '.join(houses)}", param_hint="--address")
        if not re.fullmatch(r"[^@\s]+@[^@\s]+", address) or len(address) > 254:
            raise click.BadParameter(f"'{escaped(address, 80)}' is not a mail address",
                                     param_hint="--address")
        out[house] = address.lower()
    return out


def _set_players(game_dir: str, houses: list[str], addresses: dict[str, str],
                 new_secrets: list[str]) -> dict[str, str]:
    """Under the lock: register ``addresses`` and issue new secrets to ``new_secrets`` in
    GAME/players.yaml; the secrets issued (never stored)."""
    from dataclasses import replace

    from agot_adjudicator.io.lock import game_lock
    from agot_adjudicator.io.players import (
        HouseSettings,
        Players,
        new_secret,
        read_players,
        write_players,
    )

    issued: dict[str, str] = {}
    with game_lock(game_dir):
        players = read_players(game_dir)
        settings = dict(players.houses)
        for house in houses:
            current = settings.get(house) or HouseSettings(house)
            if house in addresses:
                current = replace(current, address=addresses[house])
            if house in new_secrets:
                issued[house], current = new_secret(current)
            settings[house] = current
        write_players(game_dir, Players(settings, players.deadline))
    return issued


def _tell_secrets(game_dir: str | None, issued: dict[str, str], secrets_out: str | None) -> None:
    """Print the secrets once, or write them to ``secrets_out`` (mode 0600)."""
    lines = [f"{house}: {secret}" for house, secret in issued.items()]
    if secrets_out is not None:
        import os

        fd = os.open(secrets_out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("# agot house secrets: send each line to its house only\n")
            handle.write("\n".join(lines) + "\n")
        click.echo(f"wrote {len(issued)} house secret(s) to {secrets_out} (send each to its "
                   f"house only; {game_dir}/players.yaml keeps only salted hashes)")
        return
    click.echo(f"house secrets (shown once; send each to its house only; {game_dir}/"
               "players.yaml keeps only salted hashes):")
    for line in lines:
        click.echo(f"  {line}")


@main.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.argument("orders", nargs=-1, type=click.Path())
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Check the FILEs (all arguments; default: the current round's orders/*.yaml) "
                   "against the board of game directory DIR as it stands now (a stopped "
                   "round's now.yaml, else its state.yaml).")
@click.option("--names", is_flag=True,
              help="Read a file written with display names (Moat Cailin, 卡林湾, 臨冬城, 行军 +1★) "
                   "as its id form, as `agot inbox` stores it, and say what was read as what "
                   "(`agot adjudicate` reads ids only).")
@lang_option("Errors, warnings and the closing line; file names, paths and ids stay as they are.")
@click.pass_context
@handle_errors
def validate(ctx: click.Context, state: str | None, orders: tuple[str, ...],
             game_dir: str | None, names: bool, lang: str | None) -> None:
    """Check STATE and ORDERS files (schema, then rules) without resolving anything.

    With --game DIR: check FILE... against the board as it stands now.
    """
    if game_dir is not None:
        _validate_game(ctx, game_dir, [p for p in (state, *orders) if p is not None],
                       chosen_language(lang), names)
        return
    if state is None:
        raise UsageError("give STATE (and ORDERS files), or --game DIR [FILE...]")
    ruleset = ruleset_for(ctx, state)
    result = validate_files(state, list(orders), ruleset, names=names)
    from agot_adjudicator.render.report import tr

    with speaking(chosen_language(lang), ruleset):
        _warn(result.notes, N_("note: {warning}"))
        _warn(result.warnings)
        if result.problems:
            raise result.error()
        click.echo(tr("ok: {state} and {count} submission file(s)", state=state,
                      count=len(orders)) if orders else tr("ok: {state}", state=state))


def _warn(warnings: list[Problem], line: str = "warning: {warning}") -> None:
    """``warning: file:line:col: path: message`` (or ``note: …``) on stderr, in the current
    language."""
    from agot_adjudicator.render.receipt import problem_text
    from agot_adjudicator.render.report import tr

    for warning in warnings:
        click.echo(tr(line, warning=problem_text(warning)), err=True)


def _validate_game(ctx: click.Context, game_dir: str, files: list[str], lang: str,
                   names: bool = False) -> None:
    """``validate --game DIR [FILE...]``: the files against the board as it stands now. A round
    stopped in the action phase has its orders placed: files are then checked as adjudicate
    reads them, against the round's state.yaml (docs/protocol.md P4)."""
    from agot_adjudicator.io.gamedir import board_now

    board, ruleset = board_for(ctx, None, game_dir)
    now = board_now(game_dir)
    if not files:
        files = [str(p) for p in now.round.orders()]
    against, board = validation_board(now, board, ruleset)
    result = validate_files(str(against), files, ruleset, board=board.state, names=names)
    from agot_adjudicator.io.validation import PHASE_WORDS
    from agot_adjudicator.render.report import say, tr

    with speaking(lang, ruleset):
        _warn(result.notes, N_("note: {warning}"))
        _warn(result.warnings)
        if result.problems:
            raise result.error()
        phase = say(PHASE_WORDS.get(board.state.phase, board.state.phase))
        what = tr("the board as it stands ({file}, provisional: round {round}, {phase} phase)",
                  file=against, round=board.state.round, phase=phase) if board.provisional \
            else str(against)
        click.echo(tr("ok: {count} submission file(s) against {what}", count=len(files),
                      what=what))


@main.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.option("--house", help="Show only what this house may see.")
@click.option("--public", "public", is_flag=True,
              help="Show only what every house may see (hand sizes; no decks, no seed).")
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Show the board of game directory DIR as it stands now (a stopped round's "
                   "now.yaml, else its state.yaml) instead of STATE.")
@lang_option("Chinese names houses, areas, orders and cards by the glossary's names.")
@click.pass_context
@handle_errors
def show(ctx: click.Context, state: str | None, house: str | None, public: bool,
         game_dir: str | None, lang: str | None) -> None:
    """Print the board, the tracks and the houses of STATE (or --game DIR) as tables.

    Without --house or --public: the moderator's view, with every hand, the
    Westeros decks and the seed (never to be forwarded).
    """
    from agot_adjudicator.render.views import show_text  # only show needs the views

    if public and house is not None:
        raise UsageError("give --public or --house HOUSE, not both")
    board, ruleset = board_for(ctx, state, game_dir)
    game = board.state
    if house is not None and house not in game.houses:
        raise click.BadParameter(f"'{house}' is not a house in play "
                                 f"({', '.join(game.order_of_play())})", param_hint="--house")
    lang = chosen_language(lang)
    if board.provisional:
        click.echo(provisional_line(board, ruleset, lang), nl=False)
    click.echo(show_text(game, ruleset, house, public=public, lang=lang), nl=False)


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
    from agot_adjudicator.render.png import svg_to_png
    from agot_adjudicator.workflow.site import round_svg

    if state is not None and same_file(output, state):
        raise UsageError(f"refusing to write the picture {output} over the state {state}")
    suffix = Path(output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"-o {output}: the picture's name must end in .svg or .png")
    if now and (game_dir is None or state is not None or round_number is not None):
        raise UsageError("--now draws the board of --game DIR as it stands: give --game DIR "
                         "and no STATE or --round")
    if lang is None and game_dir is not None:
        from agot_adjudicator.workflow.record import game_language

        lang = game_language(game_dir)
    lang = chosen_language(lang)
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
    _say_wrote(output, lang)


@main.command(epilog=EPILOG)
@click.option("--game", "game_dir", type=click.Path(file_okay=False), required=True,
              help="The game directory to publish.")
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
    from agot_adjudicator.workflow.record import game_language
    from agot_adjudicator.workflow.replay import render_replay
    from agot_adjudicator.workflow.site import build_site, check_site_output

    ruleset = ruleset_of(ctx)
    check_site_output(game_dir, out_dir)
    built_lang = lang or game_language(game_dir) or chosen_language(None)
    if png:
        from agot_adjudicator.render.png import INSTALL_HINT, png_available

        if not png_available():
            raise UsageError(f"--png needs the resvg-py package: {INSTALL_HINT}")
    built = build_site(game_dir, ruleset, check_new=not custom_start, lang=built_lang, png=png)
    if not built.ok:
        click.echo(render_replay(built.replay), nl=False)
        raise DifferencesFound()
    write_together([(Path(out_dir) / name, text) for name, text in sorted(built.files.items())])
    with speaking(built_lang):
        from agot_adjudicator.render.report import tr

        click.echo(tr("wrote {index} and {count} more files", index=f"{out_dir}/index.html",
                      count=len(built.files) - 1))


@main.command(epilog=EPILOG)
@click.option("--game", "game_dir", type=click.Path(file_okay=False), required=True,
              help="The game directory whose current round to report on.")
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

    from agot_adjudicator.io.clock import now_utc, parse_utc
    from agot_adjudicator.io.gamedir import board_now
    from agot_adjudicator.workflow.status import game_status, status_json, status_text

    if now_text is None:
        now = now_utc()
    else:
        parsed = parse_utc(now_text)
        if parsed is None:
            raise click.BadParameter(f"'{escaped(now_text, 80)}': expected an ISO 8601 time "
                                     "such as 2026-12-03T18:00:00Z", param_hint="--now")
        now = parsed
    ruleset = ruleset_for(ctx, board_now(game_dir).path, game_dir)
    import os

    from agot_adjudicator.render.i18n import language_from_env

    lang = "en" if fmt == "json" else lang or language_from_env(os.environ)
    result = game_status(game_dir, ruleset, now, lang)
    click.echo(status_json(result) if fmt == "json" else status_text(result, ruleset, lang),
               nl=False)
    if result.owed:
        raise PendingDecisions()


@main.command(epilog=EPILOG)
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
    from agot_adjudicator.render.diff import render_json, render_text, view_label
    from agot_adjudicator.render.public import view_changes
    from agot_adjudicator.render.report import Names, tr

    view = _view(public, house)
    ruleset = ruleset_for(ctx, a)
    _known_house(house, ruleset)
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


def _view(public: bool, house: str | None) -> str | None:
    """The view of ``--public`` / ``--house H`` (None: the moderator's; render.public)."""
    from agot_adjudicator.render.public import PUBLIC

    if public and house is not None:
        raise UsageError("give --public or --house HOUSE, not both (--house is the public "
                         "view plus that house's own hand)")
    return PUBLIC if public else house


def _known_house(house: str | None, ruleset: Ruleset) -> None:
    """Refuse a ``--house`` that is no house of the ruleset (a typo would show the public
    view and look like a house's)."""
    if house is not None and house not in ruleset.houses:
        raise click.BadParameter(f"'{escaped(house, 40)}' is not a house "
                                 f"({', '.join(ruleset.houses)})", param_hint="--house")


@main.command(epilog=EPILOG)
@click.argument("state", required=False, type=click.Path(dir_okay=False))
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Sketch for the board of game directory DIR as it stands now (a stopped "
                   "round's now.yaml, else its state.yaml) instead of STATE.")
@click.option("--house", required=True, help="The house whose order file to sketch.")
@click.option("--schema-ref", default="orders.schema.json", show_default=True, metavar="PATH",
              help="Where the file's `# yaml-language-server: $schema=` line points "
              "(save it with `agot schema orders > PATH`; a path relative to the order file, or a URL).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the skeleton here instead of standard output.")
@lang_option("The YAML keys and values stay ids; Chinese comments name them by the glossary.")
@click.pass_context
@handle_errors
def template(ctx: click.Context, state: str | None, game_dir: str | None, house: str,
             schema_ref: str, output: str | None, lang: str | None) -> None:
    """Print an order file skeleton for HOUSE: its areas, legal orders and plans, as comments.

    Left as it is, the skeleton is a valid agot-orders/1 file that submits
    nothing; uncomment the lines you need. It never reads the order of the
    Westeros decks, so it may be sent to the player.
    """
    board, ruleset = board_for(ctx, state, game_dir)
    text = template_text(board, house, ruleset, schema_ref, game_dir, chosen_language(lang))
    if output is None:
        click.echo(text, nl=False)
        return
    check_output(output, [str(board.doc.name)])
    write_atomic(output, text)
    _say_wrote(output, chosen_language(lang))


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
    """Print the ruleset in use: name, content hash, source; and the archived rulesets."""
    from agot_adjudicator.io.rulesets import archived_hashes

    rs = ruleset_of(ctx)
    click.echo(f"{rs.name}: {rs.title}\nsha256: {rs.sha256}\nsource: {rs.source}")
    click.echo(f"corrections: {', '.join(rs.corrections) or 'none'} (agot rules R4.1, R6.12)")
    for sha256 in archived_hashes():
        click.echo(f"archived: {sha256} (earlier packaged ruleset, for games played under it)")


@ruleset.command("export")
@click.argument("directory", type=click.Path(file_okay=False))
@handle_errors
def ruleset_export(directory: str) -> None:
    """Copy the packaged first-edition ruleset into DIRECTORY, to edit and pass as --ruleset."""
    for path in export_ruleset(directory):
        click.echo(f"wrote {path}")


@ruleset.command("keep")
@click.argument("game_dir", metavar="GAME_DIR", type=click.Path(file_okay=False))
@click.pass_context
@handle_errors
def ruleset_keep(ctx: click.Context, game_dir: str) -> None:
    """Copy the ruleset the game's current state names into GAME_DIR/rulesets/SHA256/.

    The game then replays and continues under its own rules whichever release
    of agot is installed.
    """
    from agot_adjudicator.io.gamedir import current_round
    from agot_adjudicator.workflow.validate import load_state

    state = current_round(game_dir).state
    ruleset = ruleset_for(ctx, state, game_dir)
    load_state(str(state), ruleset)  # refuses a state the ruleset does not fit
    written = keep_ruleset(ruleset, game_dir)
    for path in written:
        click.echo(f"wrote {path}")
    if not written:
        click.echo(f"{Path(game_dir) / GAME_RULESETS / ruleset.sha256} already holds "
                   f"{ruleset.name} {ruleset.sha256[:12]}…")


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
@click.option("--now", "now_path", type=click.Path(dir_okay=False),
              help="Write the provisional state (the board as far as the run got) here when "
                   "the run stops; never a record or an input.")
@click.option("--game", "game_dir", type=click.Path(file_okay=False),
              help="Adjudicate the current round of game directory DIR: read round-NN/state.yaml "
                   "and round-NN/orders/*.yaml; write report.md, log.jsonl there and "
                   "round-(NN+1)/state.yaml, or when it stops pending.yaml, now.yaml and now.svg.")
@click.option("--nmr", multiple=True, metavar="HOUSE",
              help="No moves received: apply the documented defaults for HOUSE (repeatable).")
@click.option("--defaults", is_flag=True, help="Apply the documented default to every missing answer.")
@click.option("--move-ruleset", is_flag=True,
              help="With --game: move the game on, from this round, from the ruleset its state "
                   "names to the ruleset in use (packaged, or --ruleset); recorded in the chain "
                   "with the rule changes.")
@click.option("--in-place", is_flag=True, help="Allow an output to overwrite an input file.")
@click.option("--format", "report_format", type=click.Choice(["markdown", "text"]),
              default="markdown", show_default=True,
              help="Report format: Markdown tables, or plain aligned text for e-mail.")
@click.option("--private", "private_house", metavar="HOUSE",
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
               nmr: tuple[str, ...],
               defaults: bool, move_ruleset: bool, in_place: bool, report_format: str,
               private_house: str | None, lang: str | None) -> None:
    """Resolve the round of STATE with the ORDERS files (docs/protocol.md P1).

    Exit 0 and write the next state when the round is complete; exit 3 and
    print the pending decisions (paste-ready YAML) when answers are missing.
    """
    import os

    from agot_adjudicator.render.i18n import language_from_env

    if lang is None and game_dir is not None:
        from agot_adjudicator.workflow.record import game_language

        lang = game_language(game_dir)
    lang = lang or language_from_env(os.environ)
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
    if game_dir is not None:
        if state or orders or output or report or log_path or pending_path or now_path:
            raise UsageError("--game DIR takes every file from DIR: give no STATE, ORDERS, "
                             "-o, --report, --log, --pending or --now")
        from agot_adjudicator.workflow.record import run_game_round

        ruleset, moved_from = _game_rulesets(ctx, game_dir, move_ruleset)
        done = run_game_round(game_dir, ruleset, nmr, defaults, moved_from, lang)
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
    ruleset = ruleset_for(ctx, state)
    inputs = [state, *orders]
    distinct_outputs([("-o", output), ("--report", report), ("--log", log_path),
                      ("--pending", pending_path), ("--now", now_path)])
    for out in (output, report, log_path, pending_path, now_path):
        if out is not None:
            check_output(out, inputs, in_place=in_place)
    run = adjudicate_files(state, list(orders), ruleset, nmr, defaults)
    _finish(run, ruleset, output=output, report=report, log_path=log_path,
            pending_path=pending_path, now_path=now_path, fmt=report_format,
            private_house=private_house, lang=lang)


def _game_rulesets(ctx: click.Context, game_dir: str,
                   move: bool) -> tuple[Ruleset, Ruleset | None]:
    """The ruleset to adjudicate a game's current round under, and the one it moves on from
    (``--move-ruleset``); a game stays on its own ruleset otherwise (said on stderr)."""
    from agot_adjudicator.io.gamedir import current_round

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


def _say_wrote(output: str, lang: str) -> None:
    """``wrote FILE``, in ``lang``."""
    from agot_adjudicator.render.report import tr

    with speaking(lang):
        click.echo(tr("wrote {file}", file=output))


def _wrote(output: str, result: Any, ruleset: Ruleset, lang: str = "en",
           folder: Path | None = None) -> None:
    """``wrote NEXT (next: round N, PHASE phase); K events`` (or who won), and with ``folder``
    where the next round's submissions go, in ``lang``."""
    from agot_adjudicator.io.validation import PHASE_WORDS
    from agot_adjudicator.render.report import houses, say, tr

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


@main.command(epilog=EPILOG)
@click.option("--game", "game_dir", required=True, type=click.Path(file_okay=False),
              help="The game directory whose mail to send.")
@click.option("--smtp", "server", metavar="HOST:PORT",
              help="The SMTP server to send through (required unless --dry-run).")
@click.option("--starttls", is_flag=True,
              help="Switch to TLS with STARTTLS before logging in (refused if not offered).")
@click.option("--user", help="Log in as USER (the password comes from --password-env).")
@click.option("--password-env", "password_env", metavar="VAR", default="AGOT_SMTP_PASSWORD",
              show_default=True, help="The environment variable holding the password.")
@click.option("--from", "sender", metavar="ADDR", help="The moderator's address (From).")
@click.option("--round", "number", type=click.IntRange(min=1),
              help="Send round N's mail (default: the last round with mail).")
@click.option("--house", "houses", multiple=True, metavar="HOUSE",
              help="Send only HOUSE's message (repeatable).")
@click.option("--again", is_flag=True, help="Send messages already recorded as sent again.")
@click.option("--dry-run", is_flag=True, help="Say what would be sent; send nothing.")
@handle_errors
def send(game_dir: str, server: str | None, starttls: bool, user: str | None,
         password_env: str, sender: str | None, number: int | None, houses: tuple[str, ...],
         again: bool, dry_run: bool) -> None:
    """Mail each house its message of a round (round-NN/mail/HOUSE.eml) over SMTP.

    Each message goes to the house's address in GAME/players.yaml; sent messages are
    recorded in mail/sent.jsonl and not sent twice. Exit 2 when a house got no message.
    """
    import os

    from agot_adjudicator.workflow.send import NotAllSent, Server, parse_server, send_round

    smtp = None
    if not dry_run:
        if server is None:
            raise UsageError("give --smtp HOST:PORT (or --dry-run)")
        if not sender or "@" not in sender:
            raise UsageError("give --from ADDR: the moderator's address the messages come from")
        password = None
        if user is not None:
            password = os.environ.get(password_env)
            if password is None:
                raise UsageError(f"--user {user}: set the password in the environment variable "
                                 f"{password_env} (never on the command line)")
        host, port = parse_server(server)
        smtp = Server(host, port, starttls, user, password)
    elif server is not None:
        parse_server(server)
    done = send_round(game_dir, smtp, sender, number=number, again=again, houses=houses)
    for line in done.lines:
        click.echo(line)
    if done.failed:
        raise NotAllSent(f"{done.round}: no message sent to {', '.join(done.failed)}")


@main.command(epilog=EPILOG)
@click.argument("messages", metavar="MESSAGE...", nargs=-1, required=True)
@click.option("--game", "game_dir", type=click.Path(file_okay=False), required=True,
              help="The game directory whose current round the messages submit to.")
@click.option("--received", metavar="ISO",
              help="The receive time to record (ISO 8601, e.g. 2026-12-01T18:00:00Z; default: "
                   "now, or the AGOT_RECEIVED environment variable).")
@lang_option("This command's own lines and errors; each receipt is in its house's language "
             "(players.yaml).")
@click.pass_context
@handle_errors
def inbox(ctx: click.Context, messages: tuple[str, ...], game_dir: str,
          received: str | None, lang: str | None) -> None:
    """Take players' messages: .eml files, mbox files, Maildir folders, plain text, or - (stdin).

    Each message is kept in DIR/messages/ with its receive time and SHA-256 and
    answered with a receipt (printed and kept); its one submission, checked as
    `agot validate --game` checks a file, is stored as the house's
    round-NN/orders/HOUSE.yaml (the latest accepted message of a house counts).
    Exit 0 when every message is accepted, 1 when one is not.
    """
    import os

    from agot_adjudicator.io.clock import now_utc, parse_utc
    from agot_adjudicator.workflow.inbox import receive

    when_text = received or os.environ.get("AGOT_RECEIVED")
    when = parse_utc(when_text) if when_text else now_utc()
    if when is None:
        raise click.BadParameter(f"'{escaped(when_text or '', 60)}' is not an ISO 8601 time",
                                 param_hint="--received")
    stdin = sys.stdin.buffer.read() if "-" in messages else None
    from agot_adjudicator.io.gamedir import current_round

    state = current_round(game_dir).state
    ruleset = ruleset_for(ctx, state, game_dir)
    outcomes = receive(game_dir, messages, ruleset, when, stdin, chosen_language(lang))
    for outcome in outcomes:
        click.echo(outcome.receipt)
    refused = [o for o in outcomes if not o.accepted]
    from agot_adjudicator.render.report import tr

    with speaking(chosen_language(lang), ruleset):
        click.echo(tr("inbox: {count} message(s): {accepted} accepted, {refused} not; kept in "
                      "{folder}", count=len(outcomes), accepted=len(outcomes) - len(refused),
                      refused=len(refused), folder=Path(game_dir) / "messages"))
    if refused:
        raise MessagesNotAccepted([Problem(o.source, None, None, "", o.why) for o in refused])


@main.command(epilog=EPILOG)
@click.option("--game", "game_dir", type=click.Path(file_okay=False), required=True,
              help="The game directory whose players.yaml to show or edit.")
@click.option("--address", "addresses", multiple=True, metavar="HOUSE=ADDR",
              help="Register HOUSE's mail address (repeatable).")
@click.option("--new-secret", "new_secrets", multiple=True, metavar="HOUSE",
              help="Issue HOUSE a new secret (the old one stops working); repeatable.")
@click.option("--secrets-out", type=click.Path(dir_okay=False),
              help="Write the new secrets to FILE (mode 0600) instead of printing them.")
@click.pass_context
@handle_errors
def players(ctx: click.Context, game_dir: str, addresses: tuple[str, ...],
            new_secrets: tuple[str, ...], secrets_out: str | None) -> None:
    """Show or edit who may submit for each house (DIR/players.yaml).

    Without options: list each house with whether it has a secret and its
    address (never a secret).
    """
    from agot_adjudicator.io.gamedir import current_round
    from agot_adjudicator.io.players import read_players

    state = current_round(game_dir).state
    _, game = load_state(str(state), ruleset_for(ctx, state, game_dir))
    houses = game.order_of_play()
    unknown = [h for h in new_secrets if h not in houses]
    if unknown:
        raise click.BadParameter(f"not a house in play: {', '.join(unknown)} (in play: "
                                 f"{', '.join(houses)})", param_hint="--new-secret")
    registered = _addresses(addresses, houses)
    if secrets_out is not None and not new_secrets:
        raise UsageError("--secrets-out writes new secrets: give --new-secret HOUSE")
    if registered or new_secrets:
        if secrets_out is not None:
            check_output(secrets_out, [])
        issued = _set_players(game_dir, houses, registered, list(new_secrets))
        for house, address in registered.items():
            click.echo(f"{house}: address {address}")
        if issued:
            _tell_secrets(game_dir, issued, secrets_out)
        return
    current = read_players(game_dir)
    if not current.houses:
        click.echo(f"{game_dir}: no players.yaml: no secrets, no addresses (anyone may submit "
                   "for any house through `agot inbox`)")
    for house in houses:
        s = current.houses.get(house)
        secret = "secret set" if s is not None and s.secret_sha256 else "no secret"
        address = s.address if s is not None and s.address else "no address"
        click.echo(f"{house}: {secret}, {address}")


@main.command(epilog=EPILOG)
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
    from agot_adjudicator.workflow.replay import render_replay, replay_game

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
        from agot_adjudicator.workflow.translate import translated_record

        files = translated_record(result, chosen_language(lang))
        write_together([(Path(out_dir) / name, text) for name, text in files.items()])
        with speaking(chosen_language(lang)):
            from agot_adjudicator.render.report import tr

            click.echo(tr("wrote {count} files into {folder} ({lang})", count=len(files),
                          folder=out_dir, lang=chosen_language(lang)))


def check_copy_output(game_dir: str, out_dir: str) -> None:
    """Refuse a copy's folder that is inside the game directory, or not new or empty (a copy
    mixed with another record would not be one game)."""
    from agot_adjudicator.workflow.site import check_site_output

    check_site_output(game_dir, out_dir)
    if Path(out_dir).is_dir() and any(Path(out_dir).iterdir()):
        raise UsageError(f"{out_dir}: not empty; the copy of a record goes into a new or empty "
                         "folder")


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
@click.option("--public", "public", is_flag=True,
              help="Only what every house may see: no seed, decks, chain hashes or hands "
                   "(their sizes only); pending decisions by id and kind only.")
@click.option("--house", metavar="HOUSE",
              help="The public view plus HOUSE's own hand and pending questions.")
@lang_option("Also the language of the --report file.")
@click.pass_context
@handle_errors
def whatif(ctx: click.Context, state: str, orders: tuple[str, ...], published: str,
           output: str | None, report: str | None, nmr: tuple[str, ...],
           defaults: bool, public: bool, house: str | None, lang: str | None) -> None:
    """Re-run STATE with corrected or late ORDERS and show what differs from PUBLISHED.

    Each difference reads published → what-if. The moderator's view by default
    (secrets included); --public and --house show only what may be published.
    Exit 0 when the result is the published state, 4 when it differs, 3 when
    the corrected submissions leave decisions pending.
    """
    view = _view(public, house)
    ruleset = ruleset_for(ctx, state)
    _known_house(house, ruleset)
    inputs = [state, *orders, published]
    distinct_outputs([("-o", output), ("--report", report)])
    for out in (output, report):
        if out is not None:
            check_output(out, inputs)
    lang = chosen_language(lang)
    outcome = whatif_files(state, list(orders), published, ruleset, nmr, defaults, view=view,
                           lang=lang)
    writes = []
    if report:
        writes.append((report, outcome.outputs.report))
    if outcome.outputs.pending is not None:
        write_together(writes)
        if view is None:
            click.echo(outcome.outputs.pending, nl=False)
        else:
            from agot_adjudicator.render.public import pending_view_text

            with speaking(lang, ruleset):
                click.echo(pending_view_text(outcome.run.result.pending, view), nl=False)
        raise PendingDecisions()
    if output and outcome.outputs.state is not None:
        writes.append((output, outcome.outputs.state))
    write_together(writes)
    from agot_adjudicator.render.diff import view_label
    from agot_adjudicator.render.report import Names, tr

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
        raise DifferencesFound()


@main.command(epilog=EPILOG)
@click.argument("rule_id", metavar="[ID]", required=False)
@click.option("--scenarios", type=click.Path(file_okay=False), metavar="DIR",
              help="The conformance suite to search for cases citing the rule "
              "(default: the scenarios folder of the repository checkout, when there is one).")
@handle_errors
def rules(rule_id: str | None, scenarios: str | None) -> None:
    """List the rules reference, or print rule ID (R6.4, P1) with its rulings and sources.

    The reference is docs/rules.md in the package: R0–R13 for the rulebook, P1–P8
    for the decision protocol. With ID, also the conformance cases that cite it.
    """
    from agot_adjudicator.workflow.reference import rule_text, rules_list_text

    if rule_id is None:
        click.echo(rules_list_text(), nl=False)
        return
    click.echo(rule_text(rule_id, Path(scenarios) if scenarios else None), nl=False)
