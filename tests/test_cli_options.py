"""The command line's structure: one registry of commands, and options that reach every way of
running a round or are refused where they do not apply (never silently ignored)."""

from __future__ import annotations

import dataclasses
import importlib
import shutil
from pathlib import Path

import click
from click.testing import CliRunner

from agot_adjudicator.cli import COMMANDS, command, main
from agot_adjudicator.cli.adjudicate import Only
from agot_adjudicator.workflow.adjudicate import RunOptions

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
CLI = Path(__file__).resolve().parent.parent / "agot_adjudicator" / "cli"


def test_every_command_of_the_cli_modules_is_registered_once():
    defined = {}
    for path in sorted(p for p in CLI.glob("*.py") if p.stem != "__init__"):
        module = importlib.import_module(f"agot_adjudicator.cli.{path.stem}")
        for name, value in vars(module).items():
            if isinstance(value, click.Command) and getattr(value.callback, "__module__", "") == \
                    module.__name__:
                defined[f"{module.__name__}:{name}"] = value
    subcommands = {f"{c.callback.__module__}:{c.callback.__name__}" for g in defined.values()
                   if isinstance(g, click.Group) for c in g.commands.values() if c.callback}
    registered = set(COMMANDS.values())
    assert sorted(set(defined) - registered - subcommands) == []
    for name, target in COMMANDS.items():
        assert command(name) is defined[target] and command(name).name == name


def test_the_options_of_a_run_reach_both_ways_of_running_it():
    """adjudicate (files and --game) and whatif take every field of RunOptions as an option."""
    for name in ("adjudicate", "whatif"):
        params = {p.name for p in command(name).params}
        assert {f.name for f in dataclasses.fields(RunOptions)} <= params, name


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    (game / "round-01").mkdir(parents=True)
    shutil.copy(DEMO / "round-01" / "state.yaml", game / "round-01" / "state.yaml")
    shutil.copytree(DEMO / "round-01" / "orders", game / "round-01" / "orders")
    return game


def test_a_file_option_with_game_is_refused_not_ignored(tmp_path):
    game = _game(tmp_path)
    before = sorted(p.relative_to(game) for p in game.rglob("*"))
    result = CliRunner().invoke(main, ["adjudicate", "--game", str(game), "--in-place"])
    assert result.exit_code == 2
    assert "--game DIR takes every file from DIR: give no --in-place" in result.stderr
    assert sorted(p.relative_to(game) for p in game.rglob("*")) == before


def test_every_option_of_adjudicate_says_which_way_it_belongs_to_or_serves_both():
    """An option either applies to both ways (the run's options, --game, --format, --lang) or
    is an ``Only`` option, refused in the other way."""
    both = {"game_dir", "report_format", "lang", *(f.name for f in dataclasses.fields(RunOptions))}
    loose = [p.name for p in command("adjudicate").params
             if isinstance(p, click.Option) and not isinstance(p, Only) and p.name not in both]
    assert loose == []


def test_run_options_round_trip_through_the_chain():
    options = RunOptions(("stark", "stark", "baratheon"), True)
    assert RunOptions.from_chain({"options": options.chain()}) == RunOptions(("baratheon", "stark"), True)
    assert RunOptions().chain() is None and RunOptions.from_chain({}) == RunOptions()
