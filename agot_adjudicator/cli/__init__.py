"""The ``agot`` command line (Click): options in, one use case called, exit code out.

Exit codes (docs/protocol.md P6): 0 done; 1 invalid input (malformed or illegal), nothing
written; 2 usage error; 3 stopped on pending decisions; 4 differences found; 5 broken ruleset
data. The mapping is in :mod:`agot_adjudicator.errors`;
:func:`~agot_adjudicator.cli.options.handle_errors` is the only place that exits with it.

One module per group of commands, each command a plain ``@click.command``; :data:`COMMANDS`
below is the one place that names them. A command's module is imported only when that command
runs (or for ``--help``), so ``agot validate`` loads none of the mail, site or picture code.
What the modules share (``--lang``, ``--game``, errors, rulesets, language) is
:mod:`agot_adjudicator.cli.options`.
"""

from __future__ import annotations

from importlib import import_module

import click

from agot_adjudicator import __version__
from agot_adjudicator.cli.options import EPILOG

COMMANDS = {
    "new": "agot_adjudicator.cli.start:new",
    "players": "agot_adjudicator.cli.start:players",
    "validate": "agot_adjudicator.cli.orders:validate",
    "template": "agot_adjudicator.cli.orders:template",
    "status": "agot_adjudicator.cli.orders:status",
    "adjudicate": "agot_adjudicator.cli.adjudicate:adjudicate",
    "whatif": "agot_adjudicator.cli.record:whatif",
    "show": "agot_adjudicator.cli.views:show",
    "map": "agot_adjudicator.cli.views:map_command",
    "diff": "agot_adjudicator.cli.views:diff",
    "inbox": "agot_adjudicator.cli.mail:inbox",
    "send": "agot_adjudicator.cli.mail:send",
    "judge": "agot_adjudicator.cli.judge:judge",
    "replay": "agot_adjudicator.cli.record:replay",
    "site": "agot_adjudicator.cli.record:site",
    "reveal": "agot_adjudicator.cli.record:reveal",
    "schema": "agot_adjudicator.cli.reference:schema",
    "preview": "agot_adjudicator.cli.kit:preview",
    "ruleset": "agot_adjudicator.cli.reference:ruleset",
    "rules": "agot_adjudicator.cli.reference:rules",
    "conformance": "agot_adjudicator.cli.reference:conformance",
}
"""Every ``agot`` command: its name and ``module:attribute`` (a ``click.Command``)."""


class Commands(click.Group):
    """A group whose commands are imported from :data:`COMMANDS` when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, _, name = COMMANDS[cmd_name].partition(":")
            self.add_command(getattr(import_module(module), name), cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=Commands, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="agot")
@click.option("--ruleset", "ruleset_path", metavar="DIR",
              type=click.Path(exists=True, file_okay=True, dir_okay=True),
              help="Use the ruleset in DIR (a corrected copy made with `agot ruleset export`).")
@click.pass_context
def main(ctx: click.Context, ruleset_path: str | None) -> None:
    """agot — adjudicator for A Game of Thrones: The Board Game, first edition (2003)."""
    ctx.ensure_object(dict)
    ctx.obj["ruleset"] = ruleset_path


def command(name: str) -> click.Command:
    """The command ``agot NAME`` (imported if it was not yet)."""
    found = main.get_command(click.Context(main), name)
    if found is None:
        raise KeyError(name)
    return found


__all__ = ["COMMANDS", "command", "main"]
