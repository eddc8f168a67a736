"""``agot inbox`` and ``agot send``: the moderator's mail, in and out (docs/protocol.md P8, P4).

``inbox`` keeps every message with its receipt and stores the one submission it carries;
``send`` mails each house its message of a round over SMTP, each one once.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import click

from agot_adjudicator.cli.options import (
    EPILOG,
    chosen_language,
    game_option,
    game_or_chosen_language,
    handle_errors,
    lang_option,
    ruleset_for,
    speaking,
)
from agot_adjudicator.errors import MessagesNotAccepted, Problem, UsageError, escaped
from agot_adjudicator.io.clock import given_time
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.mail import MAX_MESSAGE_BYTES
from agot_adjudicator.io.safefile import read_stream
from agot_adjudicator.render.language import tr
from agot_adjudicator.workflow.inbox import receive
from agot_adjudicator.workflow.send import NotAllSent, Server, parse_server, send_round


@click.command(epilog=EPILOG)
@click.argument("messages", metavar="MESSAGE...", nargs=-1, required=True)
@game_option("The game directory whose current round the messages submit to.", required=True)
@click.option("--received", metavar="ISO",
              help="The receive time to record (ISO 8601, e.g. 2026-12-01T18:00:00Z; default: "
                   "now, or the AGOT_RECEIVED environment variable).")
@lang_option("This command's own lines and errors; each receipt is in its house's language "
             "(players.yaml), else this one, else the game's.")
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
    when = given_time(received, "--received", "AGOT_RECEIVED")
    stdin = read_stream(sys.stdin.buffer, MAX_MESSAGE_BYTES) if "-" in messages else None  # bounded

    state = current_round(game_dir).state
    ruleset = ruleset_for(ctx, state, game_dir)
    # a house without a language of its own reads its receipt in the game's language
    outcomes = receive(game_dir, messages, ruleset, when, stdin,
                       game_or_chosen_language(lang, game_dir))
    for outcome in outcomes:
        click.echo(outcome.receipt)
    refused = [o for o in outcomes if not o.whole]

    with speaking(chosen_language(lang), ruleset):
        click.echo(tr("inbox: {count} message(s): {accepted} accepted, {refused} not; kept in "
                      "{folder}", count=len(outcomes), accepted=len(outcomes) - len(refused),
                      refused=len(refused), folder=Path(game_dir) / "messages"))
    if refused:
        raise MessagesNotAccepted([Problem(o.source, None, None, "", o.why) for o in refused])




_ADDRESS = re.compile(r"^[^\s@<>()\[\]\\,;:\"\x00-\x1f\x7f]+@[^\s@<>()\[\]\\,;:\"\x00-\x1f\x7f]+\Z")
"""An address for ``--from``: ``local@domain``, nothing a header could be split by (issue 27)."""


@click.command(epilog=EPILOG)
@game_option("The game directory whose mail to send.", required=True)
@click.option("--smtp", "server", metavar="HOST:PORT",
              help="The SMTP server to send through (required unless --dry-run).")
@click.option("--starttls", is_flag=True,
              help="Switch to TLS with STARTTLS before logging in (refused if not offered).")
@click.option("--user", help="Log in as USER (the password comes from --password-env).")
@click.option("--insecure-login", is_flag=True,
              help="Log in with --user over a connection without TLS (the password goes in "
                   "clear: only to a server on this machine or a network you trust).")
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
         insecure_login: bool, password_env: str, sender: str | None, number: int | None,
         houses: tuple[str, ...], again: bool, dry_run: bool) -> None:
    """Mail each house its message of a round (round-NN/mail/HOUSE.eml) over SMTP.

    Each message goes to the house's address in GAME/players.yaml; sent messages are
    recorded in mail/sent.jsonl and not sent twice. Exit 2 when a house got no message.
    """
    smtp = None
    if not dry_run:
        if server is None:
            raise UsageError("give --smtp HOST:PORT (or --dry-run)")
        if not sender or "@" not in sender:
            raise UsageError("give --from ADDR: the moderator's address the messages come from")
        if not _ADDRESS.match(sender):
            raise UsageError(f"--from '{escaped(sender, 80)}' is not a mail address (local@domain, "
                             "no spaces, line breaks or angle brackets)")
        password = None
        if user is not None:
            password = os.environ.get(password_env)
            if password is None:
                raise UsageError(f"--user {user}: set the password in the environment variable "
                                 f"{password_env} (never on the command line)")
        if user is not None and not starttls:
            if not insecure_login:
                raise UsageError(f"--user {escaped(user, 80)} without --starttls would send the "
                                 "password in clear: add --starttls, or --insecure-login to do "
                                 "so anyway")
            click.echo(f"warning: --insecure-login: the password for {escaped(user, 80)} goes "
                       "over the connection in clear (no TLS)", err=True)
        host, port = parse_server(server)
        smtp = Server(host, port, starttls, user, password)
    elif server is not None:
        parse_server(server)
    done = send_round(game_dir, smtp, sender, number=number, again=again, houses=houses)
    for line in done.lines:
        click.echo(line)
    if done.failed:
        raise NotAllSent(f"{done.round}: no message sent to {', '.join(done.failed)}")


