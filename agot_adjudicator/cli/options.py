"""What every command module of the ``agot`` command line shares: options, errors, language.

- options: ``--lang`` (:func:`lang_option`), ``--game DIR`` (:func:`game_option`), the
  view options ``--public`` / ``--house`` (:func:`view_of`);
- errors: :func:`handle_errors`, the one place that turns exceptions into messages and exit
  codes (docs/protocol.md P6; the mapping is :mod:`agot_adjudicator.errors`);
- the ruleset a command reads a file with (:func:`ruleset_of`, :func:`ruleset_for`) and the
  board it shows or checks (:func:`board_for`);
- language: :func:`chosen_language` and :func:`speaking` (sentences in ``--lang`` meanwhile).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from agot_adjudicator.errors import (
    AgotError,
    DifferencesFound,
    ExitCode,
    InputError,
    PendingDecisions,
    Problem,
    UsageError,
    escaped,
)
from agot_adjudicator.io.rulesets import load_ruleset, state_ruleset
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.i18n import language_from_env
from agot_adjudicator.render.language import Names, say, tr
from agot_adjudicator.workflow.run_options import RunOptions

if TYPE_CHECKING:  # imported where used: a command imports only what it runs (issue 33)
    from agot_adjudicator.workflow.present import Board

F = TypeVar("F", bound=Callable[..., Any])

EPILOG = ("Exit codes: 0 done; 1 invalid input (nothing written); 2 usage error; "
          "3 stopped on pending decisions; 4 differences found; 5 broken ruleset data.")
"""The last lines of every command's ``--help``."""


# --- options ---------------------------------------------------------------------------------

def lang_option(more: str = "") -> Callable[[F], F]:
    """``--lang en|zh-Hans|zh-Hant`` (issue 18): the language of what the command writes for
    people; unset means the locale's (:func:`~agot_adjudicator.render.i18n.language_from_env`).
    The command reads it as ``lang`` (``None`` when not given): :func:`chosen_language`."""
    return click.option(
        "--lang", "lang", type=click.Choice(["en", "zh-Hans", "zh-Hant"]),
        help="The language of the text: English, simplified or traditional Chinese (default: "
             "from LC_ALL, LC_MESSAGES or LANG: zh_CN → zh-Hans, zh_TW/zh_HK → zh-Hant, else "
             "en)." + (" " + more if more else ""))


def game_option(help: str, required: bool = False) -> Callable[[F], F]:
    """``--game DIR``, a game directory (docs/formats.md, *A game directory*), read as
    ``game_dir``."""
    return click.option("--game", "game_dir", type=click.Path(file_okay=False),
                        required=required, help=help)


def run_options(func: F) -> F:
    """``--nmr HOUSE`` and ``--defaults``, the options of a run: the command receives them as
    one value, ``run`` (:class:`~agot_adjudicator.workflow.adjudicate.RunOptions`), and passes
    it whole to the use case, so every way of running a round gets every option. A new option
    of the run: a field of ``RunOptions`` (used where the engine is called) and its
    ``click.option`` here, named as the field."""
    names = [f.name for f in fields(RunOptions)]

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs["run"] = RunOptions(**{name: kwargs.pop(name) for name in names})
        return func(*args, **kwargs)

    declared = [
        click.option("--nmr", "nmr", multiple=True, metavar="HOUSE",
                     help="No moves received: apply the documented defaults for HOUSE "
                          "(repeatable)."),
        click.option("--defaults", "defaults", is_flag=True,
                     help="Apply the documented default to every missing answer."),
    ]
    for option in reversed(declared):
        wrapper = option(wrapper)
    params = [p.name for p in getattr(wrapper, "__click_params__", [])][-len(declared):]
    assert sorted(params) == sorted(names), (params, names)  # a field without its option
    return wrapper  # type: ignore[return-value]


def chosen_language(lang: str | None) -> str:
    """``--lang`` when given, else the locale's language."""
    return lang or language_from_env(os.environ)


def game_or_chosen_language(lang: str | None, game_dir: str | None) -> str:
    """``--lang`` when given; else, with ``--game``, the language the game records (its
    players.yaml, else its last report: docs/formats.md, *Languages*); else the locale's."""
    if lang is None and game_dir is not None:
        from agot_adjudicator.workflow.record import game_language  # only commands on a game

        lang = game_language(game_dir)
    return chosen_language(lang)


def view_of(public: bool, house: str | None) -> str | None:
    """The view of ``--public`` / ``--house H`` (None: the moderator's; render.public)."""
    if public and house is not None:
        raise UsageError("give --public or --house HOUSE, not both (--house is the public "
                         "view plus that house's own hand)")
    from agot_adjudicator.render.public import PUBLIC

    return PUBLIC if public else house


def known_house(house: str | None, ruleset: Ruleset) -> None:
    """Refuse a ``--house`` that is no house of the ruleset (a typo would show the public
    view and look like a house's)."""
    if house is not None and house not in ruleset.houses:
        raise click.BadParameter(f"'{escaped(house, 40)}' is not a house "
                                 f"({', '.join(ruleset.houses)})", param_hint="--house")


# --- errors ----------------------------------------------------------------------------------

def error_lines(message: str) -> None:
    """``error: …`` on stderr, a line for each line of ``message``."""
    for line in message.splitlines():
        click.echo(tr("error: {message}", message=line), err=True)


def problem_lines(problems: list[Problem]) -> str:
    """Located problems, one a line, each message in the current language."""
    from agot_adjudicator.render.receipt import problem_text

    return "\n".join(problem_text(p) for p in problems)


def warn(warnings: list[Problem], line: str = "warning: {warning}") -> None:
    """``warning: file:line:col: path: message`` (or ``note: …``) on stderr, in the current
    language."""
    if not warnings:
        return
    from agot_adjudicator.render.receipt import problem_text

    for warning in warnings:
        click.echo(tr(line, warning=problem_text(warning)), err=True)


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
            lang = chosen_language(kwargs["lang"]) if "lang" in kwargs else "en"
            with speaking(lang):
                error_lines(problem_lines(exc.problems))
                click.echo(tr("agot: {summary}", summary=say(exc.summary)), err=True)
            sys.exit(int(exc.exit_code))
        except UsageError as exc:
            error_lines(str(exc))
            click.echo(f"Try '{click.get_current_context().command_path} -h' for help.", err=True)
            sys.exit(int(exc.exit_code))
        except AgotError as exc:
            error_lines(str(exc))
            sys.exit(int(exc.exit_code))
        except OSError as exc:  # an output that cannot be written: no traceback
            error_lines(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
            sys.exit(int(ExitCode.INVALID_INPUT))
    return wrapper  # type: ignore[return-value]


# --- rulesets and boards ---------------------------------------------------------------------

def ruleset_of(ctx: click.Context) -> Ruleset:
    """The ruleset in use: the global ``--ruleset`` option's, or the packaged one."""
    return load_ruleset(ctx.obj.get("ruleset"))


def ruleset_for(ctx: click.Context, state: str | Path, game_dir: str | None = None,
                read: Callable[[str], Any] | None = None) -> Ruleset:
    """The ruleset to read ``state`` with: ``--ruleset`` if given; else the one the state
    names (the game's ``rulesets/`` folder, the packaged one, the package's archive); the
    packaged one if it names none of those (the state's check then says what to do).
    ``read``: how the state is read (the command's own reader, so that it is read once)."""
    explicit = ctx.obj.get("ruleset")
    if explicit is not None:
        return load_ruleset(explicit)
    return state_ruleset(str(state), game_dir, read) or load_ruleset()


def board_for(ctx: click.Context, state: str | None, game_dir: str | None) -> tuple[Board, Ruleset]:
    """The board ``show``, ``map``, ``template`` and ``validate`` read, and its ruleset: STATE,
    or with ``--game DIR`` the board as it stands now (:func:`~agot_adjudicator.io.gamedir.board_now`:
    a stopped round's provisional state, else the round's state.yaml; docs/protocol.md P4).
    Notes on a provisional board go to stderr."""
    from agot_adjudicator.io.gamedir import board_now
    from agot_adjudicator.workflow.present import load_board

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


# --- language --------------------------------------------------------------------------------

@contextmanager
def speaking(lang: str, ruleset: Ruleset | None = None) -> Iterator[None]:
    """Sentences (``tr``, ``say``) in ``lang`` meanwhile, ids named by the glossary of
    ``ruleset``, else of the ruleset in use (the packaged one when the ``--ruleset`` given is
    broken)."""
    if lang == "en":
        yield
        return
    if ruleset is None:
        try:
            ruleset = ruleset_of(click.get_current_context())
        except AgotError:
            ruleset = load_ruleset()
    with Names(ruleset, lang).speaking():
        yield


def say_wrote(output: str, lang: str) -> None:
    """``wrote FILE``, in ``lang``."""
    with speaking(lang):
        click.echo(tr("wrote {file}", file=output))
