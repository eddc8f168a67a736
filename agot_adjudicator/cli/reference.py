"""``agot schema``, ``agot ruleset``, ``agot rules`` and ``agot conformance``: the reference
agot plays by: the file schemas, the ruleset data, the rules with their rulings, and the
conformance suite."""

from __future__ import annotations

import json
from pathlib import Path

import click

from agot_adjudicator import __version__
from agot_adjudicator.cli.options import EPILOG, handle_errors, ruleset_for, ruleset_of
from agot_adjudicator.errors import DifferencesFound, UsageError
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.rulesets import GAME_RULESETS, archived_hashes, export_ruleset, keep_ruleset
from agot_adjudicator.io.schemas import SCHEMA_NAMES, load_schema
from agot_adjudicator.workflow.conformance import run_suite, statement_text
from agot_adjudicator.workflow.reference import rule_text, rules_list_text
from agot_adjudicator.workflow.validate import load_state


@click.command(epilog=EPILOG)
@click.argument("name", type=click.Choice(SCHEMA_NAMES))
def schema(name: str) -> None:
    """Print the JSON Schema NAME (state, orders, ruleset, scenario)."""
    click.echo(json.dumps(load_schema(name), indent=2, ensure_ascii=False))


@click.group()
def ruleset() -> None:
    """Inspect or export the ruleset data."""


@ruleset.command("show")
@click.pass_context
@handle_errors
def ruleset_show(ctx: click.Context) -> None:
    """Print the ruleset in use: name, content hash, source; and the archived rulesets."""
    rs = ruleset_of(ctx)
    click.echo(f"{rs.name}: {rs.title}\nsha256: {rs.sha256}\nsource: {rs.source}")
    click.echo(f"corrections: {', '.join(rs.corrections) or 'none'} (agot rules R4.1, R5.3, R6.12)")
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
    state = current_round(game_dir).state
    ruleset = ruleset_for(ctx, state, game_dir)
    load_state(str(state), ruleset)  # refuses a state the ruleset does not fit
    written = keep_ruleset(ruleset, game_dir)
    for path in written:
        click.echo(f"wrote {path}")
    if not written:
        click.echo(f"{Path(game_dir) / GAME_RULESETS / ruleset.sha256} already holds "
                   f"{ruleset.name} {ruleset.sha256[:12]}…")


@click.command(epilog=EPILOG)
@click.argument("scenarios", metavar="SCENARIOS_DIR", default="scenarios",
                type=click.Path(file_okay=False))
@click.pass_context
@handle_errors
def conformance(ctx: click.Context, scenarios: str) -> None:
    """Run the AGoT-ATC suite in SCENARIOS_DIR (default ./scenarios) and print the statement.

    Prints the suite version and digest, cases passed per section, the rules
    covered and the rulings profile. Exit 0 when every case passes, 4 when not.
    """
    root = Path(scenarios)
    if not root.is_dir():
        raise UsageError(f"{scenarios}: no such directory (the suite ships in the source "
                         "tree's scenarios/)")
    ruleset = ruleset_of(ctx)
    result = run_suite(root, ruleset)
    click.echo(statement_text(result, ruleset, __version__), nl=False)
    if not result.ok:
        raise DifferencesFound()


@click.command(epilog=EPILOG)
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
    if rule_id is None:
        click.echo(rules_list_text(), nl=False)
        return
    click.echo(rule_text(rule_id, Path(scenarios) if scenarios else None), nl=False)
