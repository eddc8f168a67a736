"""End to end (issue 15): a 3-player game whose rounds go in as .eml files (greetings,
signatures, quoted text, display names, secrets), whose every run's per-house messages go out
through `agot send` to a real SMTP server on localhost, then `agot replay` of the game
directory."""

from __future__ import annotations

import email
import json
from email.message import EmailMessage
from email.policy import SMTP
from typing import Any

from autoplay import Driver
from click.testing import CliRunner
from test_mail import smtp_server  # noqa: F401  (a pytest fixture: aiosmtpd on localhost)

from agot_adjudicator.cli import main
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.naming import NameIndex, name_index
from agot_adjudicator.workflow.adjudicate import adjudicate_game
from agot_adjudicator.workflow.validate import load_state

ROUNDS = 3


def displayed(body: dict[str, Any], index: NameIndex) -> dict[str, Any]:
    """A submission as a player writes it: names instead of ids where a player would."""
    out = dict(body)
    out["house"] = index.name("house", body["house"])
    if body.get("orders") is not None:
        out["orders"] = {index.name("area", a): None if o is None else index.name("order", o)
                         for a, o in body["orders"].items()}
    if body.get("bids"):
        out["bids"] = {index.name("track", t): b for t, b in body["bids"].items()}
    plans = dict(body.get("plans") or {})
    if plans.get("marches"):
        plans["marches"] = [{**m, "from": index.name("area", m["from"]),
                             "moves": {index.name("area", d): [u.title() for u in units]
                                       for d, units in (m.get("moves") or {}).items()}}
                            for m in plans["marches"]]
    if plans:
        out["plans"] = plans
    return out


def message(house: str, data: dict[str, Any], secret: str, number: int) -> bytes:
    text = dump_yaml({**data, "secret": secret})
    lines = text.splitlines()
    text = "\n".join([*lines[:3], "# my turn, checked twice", *lines[3:]]) + "\n"
    msg = EmailMessage()
    msg["From"] = f"{house.title()} <{house}@example.org>"
    msg["To"] = "moderator@example.org"
    msg["Subject"] = f"Re: [agot] round {data['round']}"
    msg["Date"] = f"Tue, 01 Dec 2026 {number // 60 % 24:02d}:{number % 60:02d}:00 +0000"
    msg.set_content(f"Dear moderator,\n\nmy submission for this round follows.\n\n{text}\n"
                    f"Best wishes,\n-- \n{house.title()}\nSent from my raven\n\n"
                    "On Mon, 30 Nov 2026, the moderator wrote:\n> Please send your orders.\n"
                    "> format: agot-orders/1\n")
    return bytes(msg)


def delivered(inbox: Any, start: int) -> dict[str, str]:
    """The messages the server received since ``start``: recipient -> text part."""
    got: dict[str, str] = {}
    for rcpts, data in inbox.received[start:]:
        msg = email.message_from_bytes(data, policy=SMTP)
        (rcpt,) = rcpts
        assert rcpt == msg["To"] and rcpt not in got
        got[rcpt] = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return got


def test_three_rounds_through_mail_then_replay(tmp_path, smtp_server):  # noqa: F811
    inbox, server = smtp_server
    runner = CliRunner()
    ruleset = load_ruleset()
    index = name_index(ruleset)
    game = tmp_path / "game"
    secrets_file = tmp_path / "secrets.txt"
    addresses = [f"--address={h}={h}@example.org" for h in ruleset.players[3]]
    result = runner.invoke(main, ["new", "--players", "3", "--seed", "15", "--game", str(game),
                                  "--secrets-out", str(secrets_file), *addresses])
    assert result.exit_code == 0, result.output
    secrets = dict(line.split(": ", 1) for line in secrets_file.read_text().splitlines()
                   if not line.startswith("#"))
    driver = Driver(15, 3, ruleset, nmr_rate=0.0, aggression=0.6)
    sent = 0
    renamed = 0
    for _ in range(ROUNDS):
        rd = current_round(game)
        _, state = load_state(str(rd.state), ruleset)
        bodies = {b["house"]: displayed(b, index) for b in driver.submissions(state)}
        answers: dict[str, dict[str, Any]] = {}
        pending_houses = list(bodies)
        for _attempt in range(12):
            files = []
            for house in pending_houses:
                data = dict(bodies[house])
                if answers.get(house):
                    data["answers"] = answers[house]
                sent += 1
                path = tmp_path / f"{sent:03d}-{house}.eml"
                path.write_bytes(message(house, data, secrets[house], sent))
                files.append(str(path))
            if files:
                got = runner.invoke(main, ["inbox", "--game", str(game),
                                           "--received", "2026-12-01T20:00:00Z", *files])
                assert got.exit_code == 0, got.output
                renamed += got.output.count(" -> ")
            ran = runner.invoke(main, ["adjudicate", "--game", str(game)])
            # every run's mail goes out: each address gets exactly its own house's message
            start = len(inbox.received)
            out = runner.invoke(main, ["send", "--game", str(game), "--smtp", server,
                                       "--from", "moderator@example.org"])
            assert out.exit_code == 0, out.output
            got = delivered(inbox, start)
            assert sorted(got) == sorted(f"{h}@example.org" for h in bodies)
            mail_dir = rd.path / "mail"
            for house in bodies:
                assert got[f"{house}@example.org"] == (mail_dir / f"{house}.txt").read_text()
                assert f"Private to {house.title()}" in got[f"{house}@example.org"]
                for other in bodies:
                    if other != house:
                        assert f"Private to {other.title()}" not in got[f"{house}@example.org"]
            if ran.exit_code == 0:
                break
            assert ran.exit_code == 3, ran.output
            run = adjudicate_game(str(game), ruleset).run.result
            pending_houses = []
            for answer_id, value in driver.player.answer_all(run.pending, run.state).items():
                house = answer_id.rsplit("/", 1)[-1]
                answers.setdefault(house, {})[answer_id] = value
                if house not in pending_houses:
                    pending_houses.append(house)
        else:
            raise AssertionError(f"{rd.name}: not complete after 12 runs")
    assert current_round(game).number == ROUNDS + 1
    assert renamed > 3 * ROUNDS  # display names were turned into ids
    entries = [json.loads(line) for line in (game / "messages" / "index.jsonl").read_text().splitlines()]
    assert len(entries) == sent and all(e["verdict"] == "accepted" for e in entries)
    receipts = sorted((game / "messages").glob("*.receipt.txt"))
    assert len(receipts) == sent and all("Verdict: ACCEPTED" in r.read_text() for r in receipts)
    for rd_number in range(1, ROUNDS + 1):
        for stored in (game / f"round-{rd_number:02d}" / "orders").iterdir():
            text = stored.read_text()
            assert not any(secret in text for secret in secrets.values())
    replay = runner.invoke(main, ["replay", str(game)])
    assert replay.exit_code == 0, replay.output
    assert "messages" not in replay.output and "players" not in replay.output
