"""``agot send``: mail each house its message of a round (``round-NN/mail/HOUSE.eml``) over
SMTP with the standard library's :mod:`smtplib` (docs/protocol.md P4, docs/formats.md *Mail*).

Each message goes to its house's registered address (``players.yaml``; else the ``To`` the
message was written with) with ``From`` (``--from``) and ``Date`` (the time of sending) set
when it is sent; the stored file is not changed. What was sent is appended to
``round-NN/mail/sent.jsonl`` (time, house, address, Message-ID, state): a message already sent to
the same address is not sent again unless ``again``. Delivery is at most once: each message is
recorded as ``sending`` before the server is given it and as ``sent`` after; one a killed run
or a lost connection left unfinished is not sent again unless ``again`` (issue 27). A house
without an address is reported and skipped, and the command ends with exit 2. Runs under the
game directory lock.
"""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import SMTP
from email.utils import formatdate
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import AgotError, ExitCode, UsageError, escaped
from agot_adjudicator.io import smtp as smtp_session
from agot_adjudicator.io.clock import utc_text
from agot_adjudicator.io.gamedir import RoundDir, round_dirs
from agot_adjudicator.io.jsonl import append_jsonl, read_jsonl
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.players import Players, read_players
from agot_adjudicator.io.safefile import ReadRefused, read_bounded
from agot_adjudicator.render.mail import MAIL_DIR

SENT_FILE = "sent.jsonl"
MAX_MESSAGE = 8 * 1024 * 1024
"""A stored message larger than this (8 MiB) is refused, never read whole."""


class NotAllSent(AgotError):
    """Some house got no message (no address, or the server refused it): exit 2."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class Server:
    """Where and how to send: ``HOST:PORT``, STARTTLS, login (password from the environment)."""

    host: str
    port: int
    starttls: bool = False
    user: str | None = None
    password: str | None = None


def parse_server(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:25`` for an IPv6 address).

    >>> parse_server("localhost:2525")
    ('localhost', 2525)
    """
    host, sep, port = value.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--smtp {value}: expected HOST:PORT (e.g. smtp.example.org:587)")
    return host, int(port)


@dataclass
class Outcome:
    """What ``agot send`` did, house by house (lines to print)."""

    round: str
    lines: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def mail_round(game_dir: str, number: int | None) -> RoundDir:
    """Round ``number``, or the last round whose mail folder exists."""
    dirs = round_dirs(game_dir)
    if number is not None:
        found = [rd for rd in dirs if rd.number == number]
        if not found:
            raise UsageError(f"--round {number}: {game_dir} has rounds 1 to {len(dirs)}")
        rd = found[0]
        if not (rd.path / MAIL_DIR).is_dir():
            raise UsageError(f"{rd.path / MAIL_DIR}: no mail (run `agot adjudicate --game "
                             f"{game_dir}` first)")
        return rd
    with_mail = [rd for rd in dirs if (rd.path / MAIL_DIR).is_dir()]
    if not with_mail:
        raise UsageError(f"{game_dir}: no round has mail yet (`agot adjudicate --game "
                         f"{game_dir}` writes it)")
    return with_mail[-1]


def message_id(msg: EmailMessage) -> str:
    """A message's Message-ID as one token: a long one is folded onto its own line in the
    file (RFC 5322), and the folding space is no part of it."""
    return str(msg["Message-ID"]).strip()


SENT_LIMIT = 64 * 1024 * 1024
"""``sent.jsonl`` is read up to this size (64 MiB)."""


def sent_states(path: Path) -> dict[tuple[str, str], str]:
    """(Message-ID, address) -> the last state ``sent.jsonl`` records for it: ``sent`` (a line
    without ``state``, as agot 0.3 wrote them, is one), ``sending`` (recorded before the
    message was given to the server, nothing after: the run was killed or the connection lost,
    it may have been delivered), ``unknown`` (the connection failed while the server was
    taking it) or ``failed`` (the server refused it: not delivered). Unreadable lines are
    ignored (:func:`~agot_adjudicator.io.jsonl.read_jsonl`)."""
    try:
        entries = read_jsonl(path, SENT_LIMIT)
    except ReadRefused as exc:
        raise UsageError(f"{path}: {exc.reason}") from None
    return {(str(e.get("message_id")).strip(), str(e.get("to"))): str(e.get("state", "sent"))
            for e in entries}


def record_sent(path: Path, entry: dict[str, Any]) -> None:
    """One line of ``sent.jsonl`` (the caller holds the game lock)."""
    append_jsonl(path, entry)


def load_message(path: Path, root: Path) -> EmailMessage:
    """A stored message (bounded read, no link out of the game directory)."""
    try:
        raw = read_bounded(path, MAX_MESSAGE, root=root)
    except ReadRefused as exc:
        raise UsageError(f"{path}: {exc.reason}") from None
    msg = BytesParser(policy=SMTP).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    return msg


def connect(server: Server) -> smtplib.SMTP:
    """An SMTP session (:func:`agot_adjudicator.io.smtp.connect`): EHLO, STARTTLS when asked
    (refused if the server does not offer it), login when a user is given."""
    return smtp_session.connect(server.host, server.port,
                                security="starttls" if server.starttls else "none",
                                user=server.user, password=server.password,
                                label=f"--smtp {server.host}:{server.port}")


def _address(players: Players, house: str, msg: EmailMessage) -> str | None:
    """Where ``house``'s message goes: its address in players.yaml, else the ``To`` it was
    written with."""
    settings = players.houses.get(house)
    if settings is not None and settings.address:
        return settings.address
    return str(msg["To"]) if msg["To"] else None


def _unsent_before(game_dir: str, rd: RoundDir, players: Players) -> list[str]:
    """A note when the round before ``rd`` holds house messages never sent: its last run's
    mail (the round's result, when a run of the next round came before any send) would
    otherwise wait unseen, as only the last round's mail is sent by default."""
    earlier = [d for d in round_dirs(game_dir) if d.number == rd.number - 1]
    if not earlier or not (earlier[0].path / MAIL_DIR).is_dir():
        return []
    folder = earlier[0].path / MAIL_DIR
    done = sent_states(folder / SENT_FILE)
    waiting = []
    for path in sorted(folder.glob("*.eml")):
        msg = load_message(path, Path(game_dir))
        address = _address(players, path.stem, msg)
        if address is not None and done.get((message_id(msg), address)) != "sent":
            waiting.append(path.stem)
    if not waiting:
        return []
    return [f"note: {earlier[0].name}'s mail was never sent to {', '.join(waiting)}: "
            f"agot send --round {earlier[0].number} sends it"]


def send_round(game_dir: str, server: Server | None, sender: str | None, *,
               number: int | None = None, again: bool = False,
               houses: Sequence[str] = ()) -> Outcome:
    """Send a round's house messages (``server`` None: a dry run, nothing sent or recorded)."""
    root = Path(game_dir)
    with game_lock(root):
        rd = mail_round(game_dir, number)
        folder = rd.path / MAIL_DIR
        players = read_players(root)
        names = sorted(p.stem for p in folder.glob("*.eml"))
        for h in houses:
            if h not in names:
                raise UsageError(f"--house {h}: no message for it in {folder} "
                                 f"({', '.join(names)})")
        chosen = [h for h in names if not houses or h in houses]
        sent_log = folder / SENT_FILE
        done = sent_states(sent_log)
        out = Outcome(rd.name)
        if number is None:
            out.lines += _unsent_before(game_dir, rd, players)
        work: list[tuple[str, str, EmailMessage]] = []
        for h in chosen:
            msg = load_message(folder / f"{h}.eml", root)
            address = _address(players, h, msg)
            if address is None:
                out.failed.append(h)
                out.lines.append(f"skipped {h}: no address (add houses.{h}.address to "
                                 f"{root / 'players.yaml'})")
                continue
            msg_id = message_id(msg)
            state = done.get((msg_id, address))
            if state == "sent" and not again:
                out.lines.append(f"already sent {h} to {address} ({msg_id}); --again sends "
                                 "it again")
                continue
            if state in ("sending", "unknown") and not again:
                out.failed.append(h)
                out.lines.append(f"maybe sent {h} to {address} ({msg_id}): an earlier run was "
                                 "cut off while the server took it, so it may have been "
                                 "delivered; not sent again (at most once): ask the player, "
                                 f"then --again --house {h} sends it again")
                continue
            work.append((h, address, msg))
        if server is None:
            out.lines += [f"would send {h} to {address} ({message_id(msg)}, "
                          f"subject {msg['Subject']!s})" for h, address, msg in work]
            return out
        if work:
            smtp = connect(server)
            try:
                for h, address, msg in work:
                    for name in ("From", "To", "Date"):
                        del msg[name]
                    msg["From"] = sender
                    msg["To"] = address
                    now = datetime.now(UTC)
                    msg["Date"] = formatdate(now.timestamp(), usegmt=True)
                    entry = {"time": utc_text(now), "house": h, "to": address,
                             "message_id": message_id(msg)}
                    record_sent(sent_log, {**entry, "state": "sending"})  # at most once
                    try:
                        smtp.send_message(msg, from_addr=sender, to_addrs=[address])
                    except (smtplib.SMTPServerDisconnected, OSError) as exc:
                        record_sent(sent_log, {**entry, "state": "unknown"})
                        out.failed.append(h)
                        out.lines.append(f"maybe sent {h} to {address}: the connection failed "
                                         f"while the server took it ({escaped(str(exc), 200)}); "
                                         f"not sent again unless --again --house {h}")
                        break
                    except smtplib.SMTPException as exc:
                        record_sent(sent_log, {**entry, "state": "failed"})
                        out.failed.append(h)
                        out.lines.append(f"not sent {h} to {address}: {escaped(str(exc), 200)}")
                        continue
                    record_sent(sent_log, {**entry, "state": "sent"})
                    out.lines.append(f"sent {h} to {address} ({message_id(msg)})")
            finally:
                smtp_session.close(smtp)
        return out
