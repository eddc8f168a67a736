"""A game by mail adds up, and what was revealed stands (issue 25; docs/protocol.md P2, P4, P8).

A scripted 4-player game of 10 rounds played only through `.eml` messages fed to
`agot inbox`, with `agot adjudicate --game` run after each mail round: orders and plans in
one mail, answers-only replies, an orders-only house, attempts to change orders and bids
after they were revealed, a message fed twice, an older message fed after a newer one, a
withdrawal of a used part and of an unused one, an answer to a decision already resolved,
and a late house defaulted once with `--nmr`. It never reopens a used decision, never takes
a changed revealed part, and replays; at every stop `inbox`, `status`, `validate --game`
and `adjudicate` agree on every house.
"""

from __future__ import annotations

import datetime
import json
import random
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from autoplay import RandomPlayer, _plain
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.reading import load_yaml
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.adjudicate import adjudicate_game

ROUNDS = 10
SEED = 2026
START = datetime.datetime(2026, 12, 1, 9, 0, tzinfo=datetime.UTC)


def cli(*args: Any):
    return CliRunner().invoke(main, [str(a) for a in args])


class Mailer:
    """One house's player: it writes its messages as a player does (a greeting, YAML in the
    body, a signature), with its secret."""

    def __init__(self, house: str, secret: str, folder: Path, rp: RandomPlayer,
                 orders_only: bool = False) -> None:
        self.house, self.secret, self.folder, self.rp = house, secret, folder, rp
        self.orders_only = orders_only
        self.sent = 0

    def eml(self, doc: dict[str, Any], when: datetime.datetime) -> Path:
        self.sent += 1
        msg = EmailMessage()
        msg["From"] = f"{self.house}@example.org"
        msg["To"] = "gm@example.org"
        msg["Subject"] = f"Re: agot round {doc['round']}"
        msg["Date"] = when.strftime("%a, %d %b %Y %H:%M:%S -0000")
        msg["Message-ID"] = f"<{self.sent}.{self.house}@example.org>"
        body = dict(doc)
        body["secret"] = self.secret
        msg.set_content("Dear moderator,\n\nmy reply below.\n\n"
                        + yaml.safe_dump(body, sort_keys=False, allow_unicode=True,
                                         width=1000)
                        + "\nRegards\n-- \n" + self.house.title() + "\n")
        path = self.folder / f"{self.house}-{self.sent:03d}.eml"
        path.write_bytes(bytes(msg))
        return path

    def reply(self, pending: list[PendingDecision], state: GameState) -> dict[str, Any] | None:
        """The orders mail when asked for orders (with the template's plans, or only the
        orders' contents), else an answers-only reply to every question asked."""
        mine = [p for p in pending if p.request.house == self.house]
        if not mine:
            return None
        doc: dict[str, Any] = {"format": "agot-orders/1", "round": state.round,
                               "house": self.house}
        values = self.rp.answer_all(mine, state)
        answers = {}
        for p in mine:
            if p.request.kind == "orders" and p.reason is None:
                orders = self.rp.orders(state, self.house)
                doc["orders"] = orders
                plans = self.rp.plans(state, self.house, orders, 1.0)
                keep = ("marches", "raids", "support") if self.orders_only else (
                    "marches", "raids", "support", "house_cards", "blade", "casualties",
                    "retreats", "supply_reductions", "wildling_losses", "tie_break")
                chosen = {k: plans[k] for k in keep if k in plans}
                if chosen:
                    doc["plans"] = chosen
            else:
                answers[p.request.id] = _plain(values[p.request.id])
        if answers:
            doc["answers"] = answers
        return doc


def receipt_owed(receipt: str) -> list[str]:
    """The decision ids a receipt lists under "Still asked of H:"."""
    if "Still asked of" not in receipt:
        return []
    block = receipt.split("Still asked of", 1)[1].split("\n\n", 1)[0]
    return sorted(set(re.findall(r"r\d+/[a-z0-9_@/.:+-]+", block)))


def status_json(game: Path) -> dict[str, Any]:
    result = cli("status", "--game", game, "--format", "json")
    assert result.exit_code in (0, 3), result.output
    return json.loads(result.stdout)


def agree(game: Path, houses: list[str], receipts: dict[str, str]) -> None:
    """At a stop: status, validate --game and (just before) the receipts agree on every house:
    a stored file is valid for all, and what a house owes is what its receipt said."""
    doc = status_json(game)
    rd = current_round(game)
    for entry in doc["houses"]:
        house = entry["house"]
        for f in entry["files"]:
            assert f["valid"], (house, f)
            checked = cli("validate", "--game", game, rd.orders_dir / f["file"])
            assert checked.exit_code == 0, checked.output
        if house in receipts:
            assert receipt_owed(receipts[house]) == sorted(o["id"] for o in entry["owes"]), (
                house, receipts[house])
    assert set(houses) == {e["house"] for e in doc["houses"]}


def test_a_game_by_mail_adds_up_and_what_was_revealed_stands(tmp_path):
    ruleset = load_ruleset()
    houses = list(ruleset.players[4])
    game = tmp_path / "game"
    secrets_file = tmp_path / "secrets.txt"
    new = cli("new", "--players", 4, "--seed", SEED, "--game", game, "--secrets-out",
              secrets_file, *[f"--address={h}={h}@example.org" for h in houses])
    assert new.exit_code == 0, new.output
    secrets = dict(line.split(": ", 1) for line in secrets_file.read_text().splitlines()
                   if not line.startswith("#"))
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    rp = RandomPlayer(random.Random(SEED), ruleset)
    mailers = {h: Mailer(h, secrets[h], outbox, rp, orders_only=(h == houses[1])) for h in houses}
    late = houses[2]
    done: dict[str, int] = {k: 0 for k in ("orders changed", "bids changed", "twice", "older",
                                            "withdraw used", "withdraw unused",
                                            "answer resolved", "nmr")}
    clock = START
    for _ in range(ROUNDS):
        rd = current_round(game)
        state = GameState.from_dict(load_yaml(rd.state).data)
        if state.phase == "ended":
            break
        for _stop in range(40):
            ran = cli("adjudicate", "--game", game)
            assert ran.exit_code in (0, 3), ran.output
            if ran.exit_code == 0:
                break
            result = adjudicate_game(str(game), ruleset).run.result  # the stop, in memory
            clock += datetime.timedelta(hours=6)
            if done["nmr"] == 0 and any(p.request.house == late and p.request.kind == "bid"
                                        for p in result.pending):
                # the late house sends nothing at a bidding stop: the moderator defaults it
                others = [(h, m.reply(result.pending, result.state)) for h, m in mailers.items()
                          if h != late]
                feed(game, [m.eml(d, clock) for h, m in mailers.items() for hh, d in others
                            if hh == h and d is not None])
                nmr = cli("adjudicate", "--game", game, "--nmr", late)
                assert nmr.exit_code in (0, 3), nmr.output
                ledger = load_yaml(rd.path / "decisions.yaml").data["decisions"]
                defaulted = [d for d in ledger if d["by"] == "default" and d["house"] == late]
                assert defaulted and all(d["kind"] == "bid" for d in defaulted), defaulted
                shown = cli("status", "--game", game).stdout
                assert "defaulted (recorded" in shown
                done["nmr"] += 1
                continue
            receipts = {}
            letters = []
            for h, m in mailers.items():
                doc = m.reply(result.pending, result.state)
                if doc is not None:
                    letters.append((h, m.eml(doc, clock)))
            for h, path in letters:
                out = feed(game, [path])
                receipts[h] = out
            agree(game, houses, receipts)
            extras(game, rd, result, mailers, clock, done, ruleset)
        else:
            raise AssertionError(f"{rd.name}: not complete after 40 runs")
    assert current_round(game).number > ROUNDS or state.phase == "ended"
    assert all(done.values()), done
    replay = cli("replay", game)
    assert replay.exit_code == 0, replay.output


def feed(game: Path, paths: list[Path], code: int = 0) -> str:
    out = cli("inbox", "--game", game, "--received",
              datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), *paths)
    assert out.exit_code == code, out.output
    return out.output


def extras(game: Path, rd: Any, result: Any, mailers: dict[str, Mailer],
           clock: datetime.datetime, done: dict[str, int], ruleset: Any) -> None:
    """The scripted bad messages, each the first time the game gives the chance: each is
    answered by a clear receipt and changes nothing stored."""
    ledger_path = rd.path / "decisions.yaml"
    if not ledger_path.is_file():
        return
    ledger = load_yaml(ledger_path).data["decisions"]
    used = {d["id"]: d for d in ledger}
    for house, m in mailers.items():
        stored = rd.orders_dir / f"{house}.yaml"
        if not stored.is_file():
            continue
        before = stored.read_bytes()
        data = load_yaml(stored).data
        head = {"format": "agot-orders/1", "round": data["round"], "house": house}
        orders_id = f"r{data['round']}/orders/{house}"
        if not done["orders changed"] and orders_id in used and data.get("orders"):
            changed = {a: None for a in data["orders"]}
            out = feed(game, [m.eml({**head, "orders": changed}, clock)], code=1)
            assert "your orders were revealed by run" in " ".join(out.split())
            assert stored.read_bytes() == before
            done["orders changed"] += 1
            continue
        bid = next((d for d in ledger if d["house"] == house and d["kind"] == "bid"
                    and "/clash_of_kings/" in d["id"]), None)
        if not done["bids changed"] and bid is not None:
            track = bid["id"].split("/clash_of_kings/")[1].split("/")[0]
            out = feed(game, [m.eml({**head, "bids": {track: bid["value"] + 1}}, clock)], code=1)
            assert "was revealed by run" in " ".join(out.split()) and "it stands" in out
            assert stored.read_bytes() == before
            done["bids changed"] += 1
            continue
        if not done["answer resolved"]:
            mine = next((d for d in ledger if d["house"] == house and d["kind"] == "orders"),
                        None)
            if mine is not None:
                out = feed(game, [m.eml({**head, "answers": {mine["id"]: {}}}, clock)],
                           code=0 if mine["value"] == {} else 1)
                assert "already" in out
                assert stored.read_bytes() == before
                done["answer resolved"] += 1
                continue
        if not done["withdraw used"] and "orders" in data and orders_id in used:
            out = feed(game, [m.eml({**head, "withdraw": ["orders"]}, clock)], code=1)
            assert "revealed" in out and stored.read_bytes() == before, out
            done["withdraw used"] += 1
            continue
        if not done["twice"]:
            letter = m.eml({**head, "plans": {"accept_support": True}}, clock)
            first = feed(game, [letter])
            after = stored.read_bytes()
            again = feed(game, [letter])
            assert "RECEIVED BEFORE" in again and stored.read_bytes() == after
            assert "ACCEPTED" in first
            done["twice"] += 1
            out = feed(game, [m.eml({**head, "withdraw": ["plans.accept_support"]}, clock)])
            assert "withdraws your plan accept_support" in " ".join(out.split())
            assert "accept_support" not in stored.read_text()
            done["withdraw unused"] += 1
            continue
        if not done["older"]:
            newer = m.eml({**head, "plans": {"accept_support": False}}, clock)
            older = m.eml({**head, "plans": {"accept_support": True}},
                          clock - datetime.timedelta(hours=1))
            feed(game, [newer])
            after = stored.read_bytes()
            out = feed(game, [older], code=1)
            assert "is newer and stands" in " ".join(out.split())
            assert stored.read_bytes() == after and "accept_support: false" in stored.read_text()
            done["older"] += 1
            continue


def test_refused_parts_are_named_and_the_rest_is_kept(tmp_path):
    """A message that carries a used part and a new one: the used part is refused by name, the
    new one taken (RUL-P8-7)."""
    ruleset = load_ruleset()
    game = tmp_path / "g"
    assert cli("new", "--players", 3, "--seed", 5, "--game", game, "--no-secrets").exit_code == 0
    rd = current_round(game)
    state = GameState.from_dict(load_yaml(rd.state).data)
    rp = RandomPlayer(random.Random(1), ruleset)
    m = {h: Mailer(h, "x", tmp_path, rp) for h in state.order_of_play()}
    clock = START
    for h, mailer in m.items():
        doc = {"format": "agot-orders/1", "round": 1, "house": h,
               "orders": rp.orders(state, h)}
        feed(game, [mailer.eml(doc, clock)])
    ran = cli("adjudicate", "--game", game)
    assert ran.exit_code in (0, 3), ran.output
    house = state.order_of_play()[0]
    stored = rd.orders_dir / f"{house}.yaml"
    if not stored.is_file():
        pytest.skip("round complete")
    before = load_yaml(stored).data
    doc = {"format": "agot-orders/1", "round": 1, "house": house,
           "orders": {a: None for a in before["orders"]},
           "plans": {"accept_support": False}}
    out = feed(game, [m[house].eml(doc, clock)], code=1)
    flat = " ".join(out.split())
    assert "not taken: your orders were revealed by run 1 of round 1: they stand" in flat
    assert "adds your plan accept_support" in flat
    after = load_yaml(stored).data
    assert after["orders"] == before["orders"] and after["plans"]["accept_support"] is False


def spoil(doc: dict[str, Any], rng: random.Random, state: GameState) -> dict[str, Any]:
    """A submission made wrong the ways players get it wrong (or left right)."""
    doc = json.loads(json.dumps(doc))
    way = rng.choice(["none", "none", "order at sea", "bid over power", "unknown area",
                      "stale round", "answer too big"])
    if way == "order at sea" and doc.get("orders"):
        doc["orders"]["the_shivering_sea"] = "consolidate_power"
    elif way == "bid over power":
        doc["wildlings"] = 20
    elif way == "unknown area" and doc.get("orders"):
        doc["orders"]["winterfel"] = "march"
    elif way == "stale round":
        doc["round"] = doc["round"] + 1
    elif way == "answer too big" and doc.get("answers"):
        key = sorted(doc["answers"])[0]
        doc["answers"][key] = "no_such_value_at_all"
    return doc


@pytest.mark.parametrize("seed", [11, 23])
def test_inbox_validate_status_and_adjudicate_agree_at_every_stop(tmp_path, seed):
    """Random games by mail (issue 25, item 4): before each message is fed, `validate --game`
    gives the verdict `inbox` then gives; after it, `status` counts every stored file valid
    and owes what the receipt said; `adjudicate --game` never refuses what was stored."""
    ruleset = load_ruleset()
    game = tmp_path / "g"
    assert cli("new", "--players", 3, "--seed", seed, "--game", game,
               "--no-secrets").exit_code == 0
    rng = random.Random(seed)
    rp = RandomPlayer(random.Random(seed), ruleset)
    houses = list(ruleset.players[3])
    mailers = {h: Mailer(h, "none", tmp_path, rp, orders_only=rng.random() < 0.5) for h in houses}
    clock = START
    checked = refused = 0
    for _ in range(3):
        rd = current_round(game)
        for _stop in range(40):
            ran = cli("adjudicate", "--game", game)
            assert ran.exit_code in (0, 3), ran.output
            if ran.exit_code == 0:
                break
            result = adjudicate_game(str(game), ruleset).run.result
            clock += datetime.timedelta(hours=1)
            for h, m in mailers.items():
                doc = m.reply(result.pending, result.state)
                if doc is None:
                    continue
                bad = spoil(doc, rng, result.state)
                for attempt in ([bad, doc] if bad != doc else [doc]):
                    letter = m.eml(attempt, clock)
                    plain = tmp_path / f"{letter.stem}.yaml"
                    plain.write_text(yaml.safe_dump(attempt, sort_keys=False), encoding="utf-8")
                    dry = cli("validate", "--game", game, plain)
                    fed = cli("inbox", "--game", game, "--received", "2026-12-02T00:00:00Z",
                              letter)
                    assert (dry.exit_code == 0) == (fed.exit_code == 0), (dry.output, fed.output)
                    checked += 1
                    refused += fed.exit_code != 0
                    if fed.exit_code == 0:
                        agree(game, houses, {h: fed.output})
        else:
            raise AssertionError(f"{rd.name}: not complete")
    assert checked > 10 and refused > 2  # the check can fail


@pytest.mark.parametrize(("header", "utc"), [
    ("Tue, 01 Dec 2026 10:00:00 -0000", "2026-12-01T10:00:00+00:00"),  # formatdate() writes it
    ("1 Dec 26 10:00 EST", "2026-12-01T15:00:00+00:00"),               # obsolete year and zone
    ("Tue, 01 Dec 2026 10:00 UT", "2026-12-01T10:00:00+00:00"),
    ("01 Dec 2026 10:00:00 +0100 (CET)", "2026-12-01T09:00:00+00:00"),  # a comment
    ("Thu, 31 Dec 2026 23:59:60 +0000", "2026-12-31T23:59:59+00:00"),  # a leap second
])
def test_every_rfc5322_date_form_is_read(header, utc):
    from agot_adjudicator.io.mail import Incoming, read_message

    raw = f"From: a@example.org\nDate: {header}\nSubject: x\n\nformat: agot-orders/1\n".encode()
    assert read_message(Incoming("m", raw, kind="mail")).date.isoformat() == utc


def _one_message_game(tmp_path: Path, body: str) -> tuple[Path, str, Any]:
    game = tmp_path / "g"
    secrets_file = tmp_path / "s.txt"
    assert cli("new", "--players", 3, "--seed", 4, "--game", game, "--secrets-out",
               secrets_file).exit_code == 0
    secret = dict(line.split(": ", 1) for line in secrets_file.read_text().splitlines()
                  if not line.startswith("#"))["stark"]
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "ned@example.org", "orders"
    msg.set_content(body.format(secret=secret))
    path = tmp_path / "somewhere" / "on the moderator's disk" / "m.eml"
    path.parent.mkdir(parents=True)
    path.write_bytes(bytes(msg))
    out = cli("inbox", "--game", game, "--received", "2026-12-01T12:00:00Z", path)
    return game, out.output, out


def test_a_secret_written_above_format_is_found(tmp_path):
    _game, output, out = _one_message_game(tmp_path, (
        "Hi!\n\nsecret: {secret}\nformat: agot-orders/1\nround: 1\nhouse: stark\n"
        "orders:\n  winterfell: march_0\n\nNed\n"))
    assert out.exit_code == 0, output
    assert "Verdict: ACCEPTED" in output and "no secret" not in output


def test_a_yaml_error_points_at_the_players_line_and_no_path_of_the_moderator(tmp_path):
    game, _output, out = _one_message_game(tmp_path, (
        "Hi!\n\nformat: agot-orders/1\nround: 1\nhouse: stark\nsecret: {secret}\n"
        "orders:\n  winterfell: march_0\n  white_harbor: [support\n\nNed\n"))
    assert out.exit_code == 1
    receipt = next((game / "messages").glob("*.receipt.txt")).read_text()
    assert "message 1 (body):9:17: invalid YAML" in receipt  # the line "  white_harbor: [support"
    assert "on the moderator's disk" not in receipt and str(tmp_path) not in receipt


def test_a_subject_folded_after_its_colon_is_read_without_the_fold():
    """Python's own mail writer folds a long Subject right after the colon; the receipt shows
    it as written, not with the fold's blank in front."""
    from agot_adjudicator.io.mail import Incoming, read_message

    raw = (b"From: a@b.example\r\nSubject:\r\n Re: agot game-1: round 1 stopped\r\n"
           b"Date: Wed, 02 Dec 2026 09:00:00 +0000\r\n\r\nformat: agot-orders/1\r\n")
    assert read_message(Incoming("m", raw, kind="mail")).subject == "Re: agot game-1: round 1 stopped"
