"""``agot new`` and ``agot players``: a game's start, and who may submit for each house.

A game directory's ``players.yaml`` (docs/protocol.md P8) holds a salted hash of each house's
secret and its mail address; the secrets themselves are shown once (or written to a 0600 file).
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import replace

import click

from agot_adjudicator.cli.options import EPILOG, game_option, handle_errors, ruleset_for, ruleset_of
from agot_adjudicator.engine.chance import default_game_id, seed_commitment
from agot_adjudicator.errors import UsageError, escaped
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.players import HouseSettings, new_secret, read_players, write_players
from agot_adjudicator.io.writing import write_atomic
from agot_adjudicator.workflow.present import new_game_text
from agot_adjudicator.workflow.record import start_game
from agot_adjudicator.workflow.validate import check_output, load_state

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
"""Game ids (the state schema's ``game.id`` pattern): safe in file names, reports and shells."""

GUESSABLE_SEED = 2**40
"""Seeds below this can be recovered from their commitment by trying them all (P3)."""


@click.command(epilog=EPILOG)
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
@game_option("Start a game directory instead: writes DIR/round-01/state.yaml, a copy "
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

    if seed is None:
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
        write_players(game_dir, replace(players, houses=settings))
    return issued


def _tell_secrets(game_dir: str | None, issued: dict[str, str], secrets_out: str | None) -> None:
    """Print the secrets once, or write them to ``secrets_out`` (mode 0600)."""
    lines = [f"{house}: {secret}" for house, secret in issued.items()]
    if secrets_out is not None:
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


@click.command(epilog=EPILOG)
@game_option("The game directory whose players.yaml to show or edit.", required=True)
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


