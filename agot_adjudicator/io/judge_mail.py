"""The judge's mail and files (docs/protocol.md P9): the IMAP mailbox or Maildir folder it
reads into its spool (each message taken once, RUL-P9-1), the SMTP session it sends through,
and its own files in ``GAME/judge/`` — the journal of what was done, the state (the last IMAP
UID, the current stop), the pass lock. Every write goes through :func:`_fs`, which holds the
game lock (as every command that writes the game directory) and which the crash tests
count."""

from __future__ import annotations

import datetime
import hashlib
import imaplib
import json
import os
import smtplib
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from email.message import EmailMessage
from email.utils import formatdate
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import JudgeFailed
from agot_adjudicator.io import smtp as smtp_session
from agot_adjudicator.io.jsonl import append_line, json_line, read_jsonl
from agot_adjudicator.io.judge_settings import ServerSettings
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.safefile import ReadRefused, read_bounded
from agot_adjudicator.io.writing import write_bytes_atomic

STATE_FILE = "state.json"
JOURNAL = "journal.jsonl"
SPOOL = "spool"
LOCK = ".lock"
JUDGE_DIR = "judge"
JOURNAL_LIMIT = 256 * 1024 * 1024
"""The journal is read up to this size (256 MiB)."""


def game_of(path: Path) -> Path:
    """The game directory of a file in its ``judge/`` folder."""
    return next(p for p in path.parents if p.name == JUDGE_DIR).parent


def _fs(op: str, path: Path, data: bytes = b"") -> None:
    """Every write of the judge's own files goes through here, under the game lock (held
    already by a longer step of the pass, or taken for this write); the crash tests count
    them. ``write`` replaces a file atomically; ``append`` adds one line."""
    with game_lock(game_of(path), reentrant=True):
        if op == "write":
            write_bytes_atomic(path, data)
        elif op == "append":
            append_line(path, data)
        elif op == "unlink":
            path.unlink(missing_ok=True)
        else:  # pragma: no cover
            raise ValueError(op)


class Journal:
    """``GAME/judge/journal.jsonl``: one line per thing done (taken, mailed, run, reported);
    what it records is not done again. A line cut short by a kill is ignored."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / JOURNAL
        try:
            self.entries: list[dict[str, Any]] = read_jsonl(self.path, JOURNAL_LIMIT)
        except ReadRefused as exc:
            raise JudgeFailed(f"{self.path}: {exc.reason}") from None
        self.keys = {str(e.get("key")) for e in self.entries if e.get("key")}

    def done(self, key: str) -> bool:
        return key in self.keys

    def add(self, entry: dict[str, Any]) -> None:
        _fs("append", self.path, json_line(entry, sort_keys=True))
        self.entries.append(entry)
        if entry.get("key"):
            self.keys.add(str(entry["key"]))


def read_state(folder: Path) -> dict[str, Any]:
    """``judge/state.json`` (bounded read); {} when missing or unreadable (the index's duplicate
    check keeps a message fetched again from being taken twice)."""
    try:
        data = json.loads(read_bounded(folder / STATE_FILE))
    except (ReadRefused, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_state(folder: Path, data: dict[str, Any]) -> None:
    _fs("write", folder / STATE_FILE,
        (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8"))


@contextmanager
def pass_lock(folder: Path) -> Iterator[bool]:
    """The judge's own lock (not the game lock, which each step takes): True when held; False
    when another pass holds it (this one then does nothing)."""
    import fcntl

    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


# --- mail in ---------------------------------------------------------------------------------

def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()


def imap_connect(server: ServerSettings, password: str | None) -> imaplib.IMAP4:
    """An IMAP session, logged in (TLS from the start, STARTTLS, or plain to localhost)."""
    try:
        if server.security == "tls":
            conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(server.host, server.port,
                                                    ssl_context=_tls(), timeout=60)
        else:
            conn = imaplib.IMAP4(server.host, server.port, timeout=60)
            if server.security == "starttls":
                conn.starttls(ssl_context=_tls())
    except (OSError, imaplib.IMAP4.error) as exc:
        raise JudgeFailed(f"IMAP {server.where}: cannot connect ({exc})") from None
    try:
        conn.login(server.user or "", password or "")
    except (OSError, imaplib.IMAP4.error):
        _close(conn)
        raise JudgeFailed(f"IMAP {server.where}: login refused for {server.user} (check the "
                          "user and the password)") from None
    return conn


def _close(conn: imaplib.IMAP4) -> None:
    with suppress(OSError, imaplib.IMAP4.error):
        conn.logout()


def fetch_imap(server: ServerSettings, password: str | None, folder: Path,
               state: dict[str, Any], log: Callable[[str], None]) -> int:
    """Copy every message with a UID above the last one taken into the spool; record each UID
    once its copy is written, then mark it seen. A new UIDVALIDITY (the mailbox was made again)
    starts from UID 1: the index's duplicate check keeps a message from being taken twice."""
    conn = imap_connect(server, password)
    got = 0
    try:
        try:
            typ, _ = conn.select(_quoted(server.mailbox))
            if typ != "OK":
                raise JudgeFailed(f"IMAP {server.where}: no mailbox {server.mailbox}")
            validity = int((conn.response("UIDVALIDITY")[1] or [b"0"])[0] or 0)
            seen = state.setdefault("imap", {})
            if seen.get("uidvalidity") != validity:
                if seen.get("uidvalidity") is not None:
                    log(f"IMAP {server.mailbox}: UIDVALIDITY changed ({seen.get('uidvalidity')} "
                        f"-> {validity}): reading it from the start")
                seen.clear()
                seen.update({"uidvalidity": validity, "last_uid": 0})
            last = int(seen.get("last_uid", 0))
            typ, data = conn.uid("SEARCH", f"UID {last + 1}:*")  # no CHARSET
            if typ != "OK":
                raise JudgeFailed(f"IMAP {server.where}: search refused ({data!r:.80})")
            uids = sorted(int(u) for u in (data[0] or b"").split() if int(u) > last)
            for uid in uids:
                typ, parts = conn.uid("FETCH", str(uid), "(BODY.PEEK[])")
                raw = next((p[1] for p in parts or [] if isinstance(p, tuple)), None)
                if typ != "OK" or raw is None:
                    raise JudgeFailed(f"IMAP {server.where}: message UID {uid} could not be "
                                      "fetched")
                _fs("write", folder / SPOOL / f"{validity}-{uid:010d}.eml", raw)
                seen["last_uid"] = uid
                write_state(folder, state)
                conn.uid("STORE", str(uid), "+FLAGS", "(\\Seen)")
                got += 1
        except (OSError, imaplib.IMAP4.error) as exc:
            raise JudgeFailed(f"IMAP {server.where} {server.mailbox}: {exc}; the messages "
                              "copied so far are kept") from None
    finally:
        _close(conn)
    return got


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fetch_maildir(path: Path, folder: Path) -> int:
    """Copy each new (or unseen) entry of a Maildir folder into the spool, then move it to
    ``cur/`` with the seen flag."""
    import mailbox

    if not all((path / sub).is_dir() for sub in ("cur", "new", "tmp")):
        raise JudgeFailed(f"{path}: not a Maildir folder (no cur/, new/ and tmp/)")
    box = mailbox.Maildir(path, factory=None, create=False)
    got = 0
    for key in sorted(box.keys()):
        message = box.get_message(key)
        if "S" in message.get_flags():
            continue
        raw = box.get_bytes(key)
        digest = hashlib.sha256(raw).hexdigest()[:16]
        _fs("write", folder / SPOOL / f"maildir-{digest}.eml", raw)
        message.set_subdir("cur")
        message.add_flag("S")
        box[key] = message
        got += 1
    return got


# --- mail out --------------------------------------------------------------------------------

class Mailer:
    """One SMTP session for the pass, opened when first needed."""

    def __init__(self, server: ServerSettings, password: str | None, sender: str) -> None:
        self.server, self.password, self.sender = server, password, sender
        self.smtp: smtplib.SMTP | None = None

    def send(self, msg: EmailMessage, to: str, now: datetime.datetime) -> None:
        if self.smtp is None:
            self.smtp = smtp_session.connect(
                self.server.host, self.server.port, security=self.server.security,
                user=self.server.user, password=self.password, error=JudgeFailed)
        for name in ("From", "To", "Date"):
            del msg[name]
        msg["From"] = self.sender
        msg["To"] = to
        msg["Date"] = formatdate(now.timestamp(), usegmt=True)
        try:
            self.smtp.send_message(msg, from_addr=self.sender, to_addrs=[to])
        except (OSError, smtplib.SMTPException) as exc:
            raise JudgeFailed(f"SMTP {self.server.where}: not sent to {to}: {exc}") from None

    def close(self) -> None:
        if self.smtp is not None:
            smtp_session.close(self.smtp)
            self.smtp = None


def text_mail(subject: str, body: str, msg_id: str, in_reply_to: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = subject
    msg["Message-ID"] = msg_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body, charset="utf-8", cte="quoted-printable")
    return msg


def with_note(msg: EmailMessage, note: str) -> EmailMessage:
    """The message with ``note`` (the deadline) as its text's first paragraph."""
    body = msg.get_body(("plain",))
    if body is None:
        return msg
    text = body.get_content()
    body.set_content(note + "\n\n" + text, charset="utf-8", cte="quoted-printable")
    return msg
