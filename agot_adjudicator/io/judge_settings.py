"""``GAME/judge.yaml``, the settings of ``agot judge`` (schema ``judge``, docs/protocol.md P9):
the judge's address, the mail source, the SMTP server, the deadlines; the passwords from the
environment or a file the settings name (RUL-P9-5); the judge's one clock."""

from __future__ import annotations

import datetime
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import MalformedInput, UsageError
from agot_adjudicator.io.clock import given_time
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.io.safefile import ReadRefused, read_bounded
from agot_adjudicator.io.schemas import load_schema, schema_problems
from agot_adjudicator.model.text import Msg

CONFIG_FILE = "judge.yaml"
NOW_VARIABLE = "AGOT_NOW"
"""The environment variable that sets the judge's clock (ISO 8601), like ``--now``."""
LOCAL_HOSTS = ("127.0.0.1", "::1", "localhost")
STOP_KINDS = ("orders", "westeros", "decisions")
PASSWORD_LIMIT = 64 * 1024
"""A password file is read up to this size."""

@dataclass(frozen=True)
class ServerSettings:
    host: str
    port: int
    security: str = "tls"
    user: str | None = None
    password_env: str | None = None
    password_file: str | None = None
    mailbox: str = "INBOX"

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Deadline:
    period: datetime.timedelta
    grace: datetime.timedelta = datetime.timedelta(0)
    then: str = "defaults"


@dataclass(frozen=True)
class JudgeConfig:
    sender: str
    smtp: ServerSettings
    imap: ServerSettings | None = None
    maildir: str | None = None
    moderator: str | None = None
    paused: bool = False
    deadlines: dict[str, Deadline] = field(default_factory=dict)
    reminder: datetime.timedelta | None = None


@functools.cache
def _period_pattern() -> re.Pattern[str]:
    """What a period is: the judge schema's ``$defs/period`` pattern, its one home."""
    return re.compile(load_schema("judge")["$defs"]["period"]["pattern"])


def period_of(text: str, option: str) -> datetime.timedelta:
    """:func:`period` of a period given on the command line (``--extend``); one that is not a
    period of the schema is a usage error (exit 2)."""
    if not _period_pattern().search(text):
        raise UsageError(f"{option} {text[:20]}: expected a period such as 90m, 12h or 2d")
    return period(text)


def period(text: str) -> datetime.timedelta:
    """``90m``, ``48h``, ``2d`` (schema-checked) as a time span.

    >>> period("36h")
    datetime.timedelta(days=1, seconds=43200)
    """
    unit = {"m": "minutes", "h": "hours", "d": "days"}[text[-1]]
    return datetime.timedelta(**{unit: int(text[:-1])})


def _server(body: dict[str, Any]) -> ServerSettings:
    return ServerSettings(body["host"], body["port"], body.get("security", "tls"),
                          body.get("user"), body.get("password_env"), body.get("password_file"),
                          body.get("mailbox", "INBOX"))


def read_config(game_dir: str | Path) -> JudgeConfig:
    """``GAME/judge.yaml`` (schema ``judge``): every problem located, exit 1; a missing file is a
    usage error (exit 2) naming what to write."""
    path = Path(game_dir) / CONFIG_FILE
    if not path.is_file():
        raise UsageError(f"{path}: no judge settings; write them (agot_adjudicator/docs/judge.md, "
                         "`agot schema judge`) before running `agot judge`")
    doc = load_yaml(path, root=game_dir)
    problems = schema_problems(doc, "judge")
    data = doc.data
    if not problems:
        if ("imap" in data) == ("maildir" in data):
            problems.append(doc.problem([], Msg("give exactly one mail source: `imap:` or "
                                                "`maildir:`")))
        if isinstance(data.get("imap"), dict) and "user" not in data["imap"]:
            problems.append(doc.problem(["imap"], Msg("an IMAP mailbox needs its `user:`")))
        if isinstance(data.get("smtp"), dict) and "mailbox" in data["smtp"]:
            problems.append(doc.problem(["smtp", "mailbox"], Msg("a mailbox is read over IMAP: "
                                                                 "it has no place under smtp")))
        for key in ("imap", "smtp"):
            body = data.get(key)
            if isinstance(body, dict) and body.get("security") == "none" \
                    and body.get("host") not in LOCAL_HOSTS:
                problems.append(doc.problem([key, "security"], Msg(
                    "security: none sends the password in clear; it is allowed only to "
                    "127.0.0.1, ::1 or localhost")))
            if isinstance(body, dict) and body.get("user") is not None \
                    and not (body.get("password_env") or body.get("password_file")):
                problems.append(doc.problem([key, "user"], Msg(
                    "a user needs password_env or password_file (the password is never written "
                    "in the settings)")))
    if problems:
        raise MalformedInput(problems)
    deadlines = {k: Deadline(period(v["period"]), period(v.get("grace", "0m")),
                             v.get("then", "defaults"))
                 for k, v in (data.get("deadlines") or {}).items() if k in STOP_KINDS}
    reminder = (data.get("deadlines") or {}).get("reminder")
    return JudgeConfig(data["from"], _server(data["smtp"]),
                       _server(data["imap"]) if "imap" in data else None,
                       data.get("maildir"), data.get("moderator"), bool(data.get("paused")),
                       deadlines, period(reminder) if reminder else None)


def password_of(server: ServerSettings, game_dir: str | Path, what: str) -> str | None:
    """The server's password: from its environment variable, else its file's first line; None
    without a user. Never printed: errors name the variable or the file."""
    if server.user is None:
        return None
    if server.password_env:
        value = os.environ.get(server.password_env)
        if value is not None:
            return value
        if not server.password_file:
            raise UsageError(f"{what}: set the password of {server.user} in the environment "
                             f"variable {server.password_env}")
    assert server.password_file is not None
    path = Path(server.password_file)
    if not path.is_absolute():
        path = Path(game_dir) / path
    try:
        text = read_bounded(path, PASSWORD_LIMIT).decode("utf-8")
    except (ReadRefused, UnicodeDecodeError):
        raise UsageError(f"{what}: cannot read the password file {path}") from None
    return text.splitlines()[0] if text else ""


def clock(now_text: str | None) -> datetime.datetime:
    """The judge's time: ``--now``, else ``AGOT_NOW``, else the system clock (docs/judge.md)."""
    return given_time(now_text, "--now", NOW_VARIABLE)
