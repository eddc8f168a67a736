"""A whole game run by ``agot judge`` alone (issue 29): four houses play from ``agot new`` to
the end (ten rounds) purely by mail — their messages delivered into a real Dovecot IMAP
mailbox, the judge's mail out through a real SMTP server (aiosmtpd) — with the judge run pass
after pass under a clock the test advances, and no moderator command between passes. Players
reply with their orders and the template's plans, then with answers-only replies; one mail has
a typo in an area name and is sent again corrected; one house is late at one stop (reminded
first; the documented defaults are then applied to exactly its late decisions) and its late
mail is refused for what stands. Each house gets exactly its own mail. The record replays.

The figures (passes, messages, stops per round) are printed; run with ``-s`` to see them.
"""

from __future__ import annotations

import datetime
import email
import random
import re
import sys
from collections import Counter
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from mailservers import dovecot, smtp  # noqa: F401  (pytest fixtures)

from agot_adjudicator.cli import main
from agot_adjudicator.io.clock import utc_text
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.workflow.adjudicate import adjudicate_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from autoplay import RandomPlayer
from bench_mail_rounds import Player  # the benchmark's players who write mail

ROUNDS = 10
PLAYERS = 4
SEED = 7
START = datetime.datetime(2026, 12, 1, 18, 0, tzinfo=datetime.UTC)
HOUR = datetime.timedelta(hours=1)


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def as_mail(house: str, doc: dict[str, Any], secret: str, n: int, when: datetime.datetime,
            typo: bool = False) -> bytes:
    body = dict(doc)
    body = {"format": body.pop("format"), "round": body.pop("round"),
            "house": body.pop("house"), "secret": secret, **body}
    text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True)
    if typo:  # the first area of the orders misspelt, as a hurried player types it
        text = re.sub(r"^(orders:\n  )([a-z_]+)", lambda m: m.group(1) + m.group(2)[:-2] + "xq",
                      text, count=1, flags=re.MULTILINE)
    msg = EmailMessage()
    msg["From"] = f"{house.title()} <{house}@example.org>"
    msg["To"] = "judge@example.org"
    msg["Subject"] = f"Re: {house} round {doc['round']}"
    msg["Message-ID"] = f"<{n}.{house}@players.example.org>"
    msg["Date"] = email.utils.format_datetime(when)
    msg.set_content(f"Hi judge,\n\nhere you are.\n\n{text}\nRegards\n-- \n{house}\n"
                    "\nOn the judge's mail:\n> quoted lines are left out\n")
    return bytes(msg)


def test_a_whole_game_by_mail_with_the_judge_alone(tmp_path, dovecot, smtp):  # noqa: F811
    inbox, port = smtp
    ruleset = load_ruleset()
    houses = list(ruleset.players[PLAYERS])
    game = tmp_path / "game"
    secrets_file = tmp_path / "secrets.txt"
    made = invoke("new", "--players", str(PLAYERS), "--seed", str(SEED), "--game", str(game),
                  "--secrets-out", str(secrets_file),
                  *[f"--address={h}={h}@example.org" for h in houses])
    assert made.exit_code == 0, made.output
    secrets = dict(line.split(": ", 1) for line in secrets_file.read_text().splitlines()
                   if line and not line.startswith("#"))
    (game / "judge.yaml").write_text(yaml.safe_dump({
        "format": "agot-judge/1", "from": "judge@example.org",
        "moderator": "gm@example.org",
        "imap": {"host": "127.0.0.1", "port": dovecot.imaps_port, "security": "tls",
                 "user": "gm", "password_env": "AGOT_IMAP_PASSWORD"},
        "smtp": {"host": "127.0.0.1", "port": port, "security": "none"},
        "deadlines": {"orders": {"period": "24h"}, "westeros": {"period": "24h"},
                      "decisions": {"period": "24h", "grace": "1h"}, "reminder": "6h"},
    }, sort_keys=False))
    rp = RandomPlayer(random.Random("judge-game"), ruleset)
    team = {h: Player("mail", h, rp) for h in houses}
    now = START
    passes = sent = 0
    late_house, late_done, typo_done = houses[1], False, False
    late_mail: bytes | None = None
    seen = 0
    stops: dict[int, int] = {}  # runs that stopped, per round
    results: dict[str, int] = {h: 0 for h in houses}

    def ended() -> bool:
        return yaml.safe_load(current_round(game).state.read_text())["phase"] == "ended"

    def judge_pass() -> str:
        nonlocal passes
        passes += 1
        out = invoke("judge", "--game", str(game),
                     env={"AGOT_IMAP_PASSWORD": "judge-pw", "AGOT_NOW": utc_text(now),
                          "SSL_CERT_FILE": str(dovecot.ca_file)})
        assert out.exit_code == 0, out.output
        return out.output

    for _ in range(160):
        if ended():
            break
        log = judge_pass()
        mails = [(r, email.message_from_bytes(d, policy=SMTP_POLICY))
                 for (r,), d in ((rc, d) for rc, d in inbox.received[seen:])]
        seen = len(inbox.received)
        for rcpt, msg in mails:  # each house's mail is its own
            msg_id = str(msg["Message-ID"]).strip()
            m = re.match(r"<[0-9a-f]{24}\.([a-z]+)\.round-(\d\d)\.", msg_id)
            if m:
                house = m.group(1)
                assert rcpt == f"{house}@example.org"
                text = msg.get_body(("plain",)).get_content()
                assert f"Private to {house.title()}" in text
                assert not any(f"Private to {o.title()}" in text for o in houses if o != house)
                results[house] += 1
            else:
                assert rcpt in {f"{h}@example.org" for h in houses} | {"gm@example.org"}
        rd = current_round(game)
        if not (rd.path / "pending.yaml").is_file():
            now += HOUR
            continue
        stop = adjudicate_game(str(game), ruleset).run.result  # what the mail asked, as objects
        letters = []
        for house in houses:
            doc = team[house].reply(stop.pending, stop.state)
            if doc is None:
                continue
            sent += 1
            if house == late_house and not late_done and rd.number == 2:
                late_mail = as_mail(house, doc, secrets[house], sent, now)
                continue  # it stays in the outbox: late
            if not typo_done and "orders" in doc and house == houses[0]:
                typo_done = True
                letters.append(as_mail(house, doc, secrets[house], sent, now, typo=True))
                sent += 1
                now += datetime.timedelta(minutes=5)
            letters.append(as_mail(house, doc, secrets[house], sent, now))
        for raw in letters:
            dovecot.deliver("gm", raw)
        if late_mail is not None and not late_done:
            now += datetime.timedelta(hours=20)  # within 6 hours of the deadline: a reminder
            log = judge_pass()
            assert f"mailed a reminder notice to {late_house}" in log, log
            now += datetime.timedelta(hours=6)  # past the deadline and any grace: defaults
            log = judge_pass()
            assert f"defaults for {late_house}" in log, log
            late_done = True
            dovecot.deliver("gm", late_mail)  # the late mail arrives after the defaults
            late_mail = None
        now += HOUR
    else:
        raise AssertionError("the game did not end in 160 passes")
    rounds = current_round(game).number - 1
    assert rounds == ROUNDS  # the game ends after round 10 (or earlier with 7 castles)
    assert "0 message(s) taken, 0 run(s), 0 mail(s) sent" in judge_pass()  # the end: nothing
    assert typo_done and late_done
    # the typo was refused with a suggestion, then the corrected mail accepted
    receipts = [p.read_text() for p in sorted((game / "messages").glob("*.receipt.txt"))]
    assert any("NOT ACCEPTED (invalid)" in r and "no such area" in r for r in receipts)
    assert any("already decided by run" in r and "it stands" in r for r in receipts)
    # the late house's decisions were defaulted, only its own
    ledger = yaml.safe_load((game / "round-02" / "decisions.yaml").read_text())
    defaulted = [e for e in ledger["decisions"] if e["by"] == "default"]
    assert defaulted and all(e["house"] == late_house for e in defaulted)
    # every house got the mail of every run
    runs = sum(yaml.safe_load((game / f"round-{n:02d}" / "decisions.yaml").read_text())["runs"]
               for n in range(1, rounds + 1))
    assert all(results[h] >= runs for h in houses), (results, runs)
    import json

    for line in (game / "judge" / "journal.jsonl").read_text().splitlines():
        entry = json.loads(line)
        if entry.get("event") == "run" and entry["status"] == "pending":
            stops[entry["round"]] = stops.get(entry["round"], 0) + 1
    reminded = [json.loads(line) for line in (game / "judge" / "journal.jsonl").read_text()
                .splitlines() if '"reminder:' in line]
    assert [e["house"] for e in reminded] == [late_house]
    replay = invoke("replay", str(game))
    assert replay.exit_code == 0, replay.output
    print(f"\nwhole game by the judge: {PLAYERS} houses, {rounds} rounds, {passes} passes, "
          f"{sent} player messages, {len(inbox.received)} mails sent by the judge, "
          f"{runs} runs; stops per round: {[stops.get(n, 0) for n in range(1, rounds + 1)]}")
    per_house = Counter(r for (r,), _ in inbox.received)
    print(f"mails per house: {dict(sorted(per_house.items()))}")
    assert max(stops.values()) <= 3
