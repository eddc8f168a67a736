"""``agot judge`` (issue 29): one unattended pass against real servers — Dovecot IMAP (TLS)
and aiosmtpd SMTP on 127.0.0.1 (tests/mailservers.py) — and a Maildir folder."""

from __future__ import annotations

import email
import json
import mailbox
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from mailservers import dovecot, smtp  # noqa: F401  (pytest fixtures)

from agot_adjudicator.cli import main
from agot_adjudicator.io.players import read_players

T0 = "2026-12-01T18:00:00Z"


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def new_game(tmp: Path, players: int = 3, seed: int = 29) -> tuple[Path, dict[str, str], list[str]]:
    from agot_adjudicator.io.rulesets import load_ruleset

    houses = list(load_ruleset().players[players])
    game = tmp / "game"
    secrets = tmp / "secrets.txt"
    result = run("new", "--players", str(players), "--seed", str(seed), "--game", str(game),
                 "--secrets-out", str(secrets),
                 *[f"--address={h}={h}@example.org" for h in houses])
    assert result.exit_code == 0, result.output
    found = dict(line.split(": ", 1) for line in secrets.read_text().splitlines()
                 if line and not line.startswith("#"))
    return game, found, houses


def settings(game: Path, smtp_port: int, *, imap: dict[str, Any] | None = None,
             maildir: str | None = None, deadlines: dict[str, Any] | None = None,
             **more: Any) -> None:
    data: dict[str, Any] = {"format": "agot-judge/1", "from": "judge@example.org",
                            "smtp": {"host": "127.0.0.1", "port": smtp_port, "security": "none"}}
    if imap is not None:
        data["imap"] = imap
    if maildir is not None:
        data["maildir"] = maildir
    if deadlines is not None:
        data["deadlines"] = deadlines
    data.update(more)
    (game / "judge.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def imap_settings(server, **more: Any) -> dict[str, Any]:
    return {"host": "127.0.0.1", "port": server.imaps_port, "security": "tls", "user": "gm",
            "password_env": "AGOT_IMAP_PASSWORD", **more}


def judge(game: Path, now: str, server=None, code: int | None = 0):
    env = {"AGOT_IMAP_PASSWORD": "judge-pw", "AGOT_NOW": now}
    if server is not None:
        env["SSL_CERT_FILE"] = str(server.ca_file)
    result = run("judge", "--game", str(game), env=env)
    if code is not None:
        assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def player_mail(house: str, body: str, number: int, date: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{house.title()} <{house}@example.org>"
    msg["To"] = "judge@example.org"
    msg["Subject"] = f"Re: round {number}"
    msg["Message-ID"] = f"<{number}.{house}@example.org>"
    msg["Date"] = date or "Tue, 01 Dec 2026 19:00:00 -0000"
    msg.set_content(f"Hello judge,\n\n{body}\n-- \n{house}\n")
    return bytes(msg)


def got(inbox, start: int = 0) -> list[tuple[str, EmailMessage]]:
    out = []
    for rcpts, data in inbox.received[start:]:
        msg = email.message_from_bytes(data, policy=SMTP_POLICY)
        (rcpt,) = rcpts
        out.append((rcpt, msg))
    return out


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


# --- settings --------------------------------------------------------------------------------

def test_bad_settings_are_located_and_nothing_is_done(tmp_path):
    game, _, _ = new_game(tmp_path)
    (game / "judge.yaml").write_text("format: agot-judge/1\nfrom: judge@example.org\n"
                                     "smtp: {host: mail.example.org, port: 25, security: none}\n"
                                     "maildir: box\n")
    result = run("judge", "--game", str(game))
    assert result.exit_code == 1, result.output
    assert "judge.yaml:3:" in result.output and "security: none" in result.output
    assert not (game / "judge").exists()
    (game / "judge.yaml").write_text("format: agot-judge/1\nfrom: judge@example.org\n"
                                     "smtp: {host: 127.0.0.1, port: 25}\n")
    result = run("judge", "--game", str(game))
    assert result.exit_code == 1 and "exactly one mail source" in result.output
    (game / "judge.yaml").write_text("format: agot-judge/1\nfrom: judge@example.org\n"
                                     "smtp: {host: 127.0.0.1, port: 25, pasword: x}\n"
                                     "maildir: box\n")
    result = run("judge", "--game", str(game))
    assert result.exit_code == 1 and "judge.yaml:3:" in result.output and "pasword" in result.output


def test_no_settings_is_a_usage_error(tmp_path):
    game, _, _ = new_game(tmp_path)
    result = run("judge", "--game", str(game))
    assert result.exit_code == 2 and "judge.yaml" in result.output


# --- one pass, IMAP in, SMTP out -------------------------------------------------------------

def orders_text(game: Path, house: str, secret: str, seed: int = 0) -> str:
    """A random legal orders submission of the house on the board as it stands, with its
    secret, as a player writes it."""
    import random

    from autoplay import RandomPlayer

    from agot_adjudicator.io.gamedir import board_now
    from agot_adjudicator.io.rulesets import load_ruleset
    from agot_adjudicator.model.state import GameState

    state = GameState.from_dict(yaml.safe_load(board_now(str(game)).path.read_text()))
    orders = RandomPlayer(random.Random(f"{house}{seed}"), load_ruleset()).orders(state, house)
    return yaml.safe_dump({"format": "agot-orders/1", "round": state.round, "house": house,
                           "secret": secret, "orders": orders}, sort_keys=False)


def test_first_passes_ask_receipt_and_run(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    game, secrets, houses = new_game(tmp_path)
    settings(game, port, imap=imap_settings(dovecot),
             deadlines={"orders": {"period": "48h"}, "reminder": "12h"})
    first = judge(game, T0, dovecot)
    assert "ran round 1 (the round has not been run)" in first.output
    mails = got(inbox)
    assert sorted(r for r, _ in mails) == sorted(f"{h}@example.org" for h in houses)
    for _rcpt, msg in mails:
        text = text_of(msg)
        assert text.startswith("Deadline: answers to this mail are due by Thu 3 Dec 2026 18:00")
        assert msg["From"] == "judge@example.org"
    status = run("status", "--game", str(game), "--now", T0)
    assert "deadline: 2026-12-03T18:00:00Z" in status.output
    again = judge(game, "2026-12-01T18:05:00Z", dovecot)
    assert "0 message(s) taken, 0 run(s), 0 mail(s) sent" in again.output  # nothing new
    # the houses reply; one from a stranger
    for n, house in enumerate(houses):
        dovecot.deliver("gm", player_mail(house, orders_text(game, house, secrets[house]), n))
    dovecot.deliver("gm", player_mail("mallory", "format: agot-orders/1\nround: 1\n", 9))
    start = len(inbox.received)
    third = judge(game, "2026-12-01T20:00:00Z", dovecot)
    assert "4 message(s) taken" in third.output
    assert "not a player's address" in third.output
    mails = got(inbox, start)
    receipts = [(r, m) for r, m in mails if "receipt" in str(m["Subject"])]
    assert sorted(r for r, _ in receipts) == sorted(f"{h}@example.org" for h in houses)
    assert all(m["In-Reply-To"] for _, m in receipts)
    assert not any("mallory" in r for r, _ in mails)
    assert "ran round 1 (every house has sent what the stop asks)" in third.output
    # the IMAP messages are marked seen and never taken again
    fourth = judge(game, "2026-12-01T20:05:00Z", dovecot)
    assert "0 message(s) taken" in fourth.output
    state = json.loads((game / "judge" / "state.json").read_text())
    assert state["imap"]["last_uid"] == 4
    assert not any(Path(game / "judge" / "spool").iterdir())
    # no password anywhere in the game directory
    for path in game.rglob("*"):
        if path.is_file():
            assert b"judge-pw" not in path.read_bytes(), path


def test_deadline_defaults_reminder_and_late_notice(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    game, secrets, houses = new_game(tmp_path)
    settings(game, port, imap=imap_settings(dovecot),
             deadlines={"orders": {"period": "24h", "grace": "1h"}, "reminder": "6h"})
    judge(game, T0, dovecot)
    late = houses[-1]
    for n, house in enumerate(houses[:-1]):
        dovecot.deliver("gm", player_mail(house, orders_text(game, house, secrets[house]), n))
    start = len(inbox.received)
    judge(game, "2026-12-02T10:00:00Z", dovecot)  # receipts only: the late house owes orders
    assert not any("reminder" in str(m["Subject"]) for _, m in got(inbox, start))
    start = len(inbox.received)
    result = judge(game, "2026-12-02T13:00:00Z", dovecot)
    reminders = [(r, m) for r, m in got(inbox, start) if "reminder" in str(m["Subject"])]
    assert [r for r, _ in reminders] == [f"{late}@example.org"], result.output
    assert f"r1/orders/{late}" in text_of(reminders[0][1])
    judge(game, "2026-12-02T14:00:00Z", dovecot)  # a reminder goes once
    assert not any("reminder" in str(m["Subject"]) for _, m in got(inbox, start + 1))
    start = len(inbox.received)
    result = judge(game, "2026-12-02T18:30:00Z", dovecot)  # past the deadline, in the grace
    assert "ran round" not in result.output
    notices = [r for r, m in got(inbox, start) if "late" in str(m["Subject"])]
    assert notices == [f"{late}@example.org"]
    result = judge(game, "2026-12-02T19:00:00Z", dovecot)  # the grace's last second
    assert "ran round" not in result.output
    result = judge(game, "2026-12-02T19:00:01Z", dovecot)  # the grace is over: defaults
    assert f"defaults for {late}" in result.output
    ledger = yaml.safe_load((game / "round-01" / "decisions.yaml").read_text())
    defaulted = [e["id"] for e in ledger["decisions"] if e["by"] == "default"]
    assert f"r1/orders/{late}" in defaulted
    assert all(d.endswith(f"/{late}") for d in defaulted)


# --- bad input -------------------------------------------------------------------------------

def test_a_wrong_imap_password_ends_the_pass_non_zero(tmp_path, dovecot, smtp):  # noqa: F811
    _inbox, port = smtp
    game, _, _ = new_game(tmp_path)
    settings(game, port, imap=imap_settings(dovecot, password_env="WRONG_PASSWORD"))
    result = run("judge", "--game", str(game),
                 env={"WRONG_PASSWORD": "nope", "AGOT_NOW": T0,
                      "SSL_CERT_FILE": str(dovecot.ca_file)})
    assert result.exit_code == 2, result.output
    assert "login refused for gm" in result.output and "nope" not in result.output
    assert "ran round 1" in result.output  # the round still starts: its mail goes out
    journal = (game / "judge" / "journal.jsonl").read_text()
    assert "login refused" in journal


def test_a_missing_mailbox_and_starttls(tmp_path, dovecot, smtp):  # noqa: F811
    _inbox, port = smtp
    game, _, _ = new_game(tmp_path)
    settings(game, port, imap=imap_settings(dovecot, mailbox="Games", security="starttls",
                                            port=dovecot.imap_port))
    result = judge(game, T0, dovecot, code=2)
    assert "no mailbox Games" in result.output
    dovecot.command("gm", "create", "Games")
    dovecot.deliver("gm", player_mail("stark", "hello", 1), "Games")
    result = judge(game, T0, dovecot)
    assert "1 message(s) taken" in result.output
    dovecot.command("gm", "delete", "Games")  # the mailbox disappears between passes
    result = judge(game, T0, dovecot, code=2)
    assert "no mailbox Games" in result.output


def test_an_unreachable_smtp_server_sends_and_marks_nothing(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    game, _secrets, houses = new_game(tmp_path)
    from mailservers import free_port

    settings(game, free_port(), imap=imap_settings(dovecot))
    result = judge(game, T0, dovecot, code=2)
    assert "SMTP 127.0.0.1" in result.output
    assert not (game / "round-01" / "mail" / "sent.jsonl").exists()
    settings(game, port, imap=imap_settings(dovecot))
    result = judge(game, T0, dovecot)  # the next pass sends what the failed one could not
    assert sorted(r for r, _ in got(inbox)) == sorted(f"{h}@example.org" for h in houses)
    assert "ran round" not in result.output  # the run was done: only its mail was owed


def test_smtp_refusing_a_message_keeps_it_owed(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    game, _, houses = new_game(tmp_path)
    settings(game, port, imap=imap_settings(dovecot))
    inbox.refuse = True
    judge(game, T0, dovecot, code=2)
    inbox.refuse = False
    judge(game, T0, dovecot)
    assert sorted(r for r, _ in got(inbox)) == sorted(f"{h}@example.org" for h in houses)


# --- Maildir in ------------------------------------------------------------------------------

def test_a_maildir_folder_as_the_mail_source(tmp_path, smtp):  # noqa: F811
    inbox, port = smtp
    game, secrets, houses = new_game(tmp_path)
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    settings(game, port, maildir=str(tmp_path / "Maildir"))
    judge(game, T0)
    for n, house in enumerate(houses):
        box.add(player_mail(house, orders_text(game, house, secrets[house]), n))
    start = len(inbox.received)
    result = judge(game, "2026-12-01T19:00:00Z")
    assert f"{len(houses)} message(s) taken" in result.output
    assert "every house has sent what the stop asks" in result.output
    assert not list((tmp_path / "Maildir" / "new").iterdir())
    assert all(name.endswith(",S") for name in (p.name for p in (tmp_path / "Maildir" / "cur").iterdir()))
    assert len([m for _, m in got(inbox, start) if "receipt" in str(m["Subject"])]) == len(houses)
    result = judge(game, "2026-12-01T19:05:00Z")
    assert "0 message(s) taken" in result.output


@pytest.mark.parametrize("busy", [True])
def test_a_second_pass_while_one_runs_does_nothing(tmp_path, smtp, busy):  # noqa: F811
    import fcntl
    import os

    inbox, port = smtp
    game, _, _ = new_game(tmp_path)
    settings(game, port, maildir=str(tmp_path / "Maildir"))
    mailbox.Maildir(tmp_path / "Maildir", create=True)
    (game / "judge").mkdir()
    fd = os.open(game / "judge" / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        result = judge(game, T0)
        assert "another judge pass is running" in result.output and not inbox.received
    finally:
        os.close(fd)


def test_pause_resume_and_extend_are_recorded_commands(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    game, _secrets, houses = new_game(tmp_path)
    settings(game, port, imap=imap_settings(dovecot), deadlines={"orders": {"period": "24h"}})
    env = {"AGOT_NOW": T0}
    paused = run("judge", "--game", str(game), "--pause", env=env)
    assert paused.exit_code == 0 and "paused" in paused.output
    result = judge(game, T0, dovecot)
    assert "paused: no round is run" in result.output and not inbox.received
    assert run("judge", "--game", str(game), "--resume", env=env).exit_code == 0
    judge(game, T0, dovecot)
    assert len(inbox.received) == len(houses)
    moved = run("judge", "--game", str(game), "--extend", "12h", env=env)
    assert moved.exit_code == 0 and "2026-12-03T06:00:00Z" in moved.output, moved.output
    status = run("status", "--game", str(game), "--now", "2026-12-02T19:00:00Z")
    assert "deadline: 2026-12-03T06:00:00Z (now 2026-12-02T19:00:00Z: not yet)" in status.output
    start = len(inbox.received)
    result = judge(game, "2026-12-02T19:00:00Z", dovecot)  # past the old deadline: no defaults
    assert "ran round" not in result.output
    notes = [(r, m) for r, m in got(inbox, start) if "deadline moved" in str(m["Subject"])]
    assert sorted(r for r, _ in notes) == sorted(f"{h}@example.org" for h in houses)
    assert "Thu 3 Dec 2026 06:00" in text_of(notes[0][1])
    result = judge(game, "2026-12-03T06:00:00Z", dovecot)  # at the deadline: still on time
    assert "ran round" not in result.output
    result = judge(game, "2026-12-03T06:00:01Z", dovecot)
    assert "the deadline 2026-12-03T06:00:00Z has passed" in result.output
    journal = (game / "judge" / "journal.jsonl").read_text()
    assert '"event": "paused"' in journal and '"event": "resumed"' in journal
    assert '"event": "extended"' in journal
    bad = run("judge", "--game", str(game), "--extend", "soon", env=env)
    assert bad.exit_code == 2


def test_the_imap_password_from_a_file_and_loop_with_now_refused(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    game, _, houses = new_game(tmp_path)
    (game / "imap.pw").write_text("judge-pw\n")
    imap = imap_settings(dovecot)
    del imap["password_env"]
    settings(game, port, imap={**imap, "password_file": "imap.pw"})
    result = run("judge", "--game", str(game),
                 env={"AGOT_NOW": T0, "SSL_CERT_FILE": str(dovecot.ca_file)})
    assert result.exit_code == 0, result.output
    assert len(inbox.received) == len(houses)
    looped = run("judge", "--game", str(game), "--loop", "--now", T0)
    assert looped.exit_code == 2 and "--now with --loop" in looped.output
    (game / "imap.pw").unlink()
    result = run("judge", "--game", str(game), env={"AGOT_NOW": T0})
    assert result.exit_code == 2 and "cannot read the password file" in result.output


def test_the_judge_speaks_the_game_language_whatever_the_locale(tmp_path, smtp):  # noqa: F811
    """A game played in Chinese (its language recorded by its first run) is judged in Chinese
    by a cron job under an English locale: the stop's mail keeps the game's language, the
    deadline line is said in Chinese, and so are the receipts (issue 26, issue 29)."""
    inbox, port = smtp
    game, secrets, houses = new_game(tmp_path)
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    settings(game, port, maildir=str(tmp_path / "Maildir"),
             deadlines={"orders": {"period": "48h"}})
    assert run("adjudicate", "--game", str(game), "--lang", "zh-Hans").exit_code == 3
    env = {"AGOT_NOW": T0, "LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"}
    assert run("judge", "--game", str(game), env=env).exit_code == 0
    for _rcpt, msg in got(inbox):
        text = text_of(msg)
        assert text.startswith("截止时间") or "2026年12月3日（周四）18:00" in text.split("\n")[0], text
        assert "Deadline" not in text
    house = houses[0]
    box.add(player_mail(house, orders_text(game, house, secrets[house]), 0))
    start = len(inbox.received)
    assert run("judge", "--game", str(game),
               env={**env, "AGOT_NOW": "2026-12-01T19:00:00Z"}).exit_code == 0
    (receipt,) = [m for _, m in got(inbox, start)]
    assert "回执" in str(receipt["Subject"]) and "结论：已接受" in text_of(receipt)
    assert read_players(game).language == "zh-Hans"  # the judge's runs kept it
