"""`agot inbox` (issue 15.1-3): messages in, who may submit, receipts; players.yaml; display names."""

from __future__ import annotations

import json
import mailbox
import os
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.io.players import read_players
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.naming import name_index, name_key

WHEN = "2026-12-01T12:00:00Z"
STARK = """\
format: agot-orders/1
round: 1
house: Stark
secret: {secret}
orders:
  Winterfell: March +1 (special)
  White Harbor: Support
  The Shivering Sea: Defence +1
plans:
  marches:
    - from: Winterfell
      moves: {{Moat Cailin: [Knight]}}
      leave_power_token: true
"""


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def game(tmp_path) -> tuple[Path, dict[str, str]]:
    """A 3-player game with secrets (and stark's address registered)."""
    game = tmp_path / "game"
    secrets_file = tmp_path / "secrets.txt"
    result = run("new", "--players", "3", "--seed", "7", "--game", str(game),
                 "--secrets-out", str(secrets_file), "--address", "stark=Ned@Winterfell.org")
    assert result.exit_code == 0, result.output
    secrets = dict(line.split(": ", 1) for line in secrets_file.read_text().splitlines()
                   if not line.startswith("#"))
    assert set(secrets) == {"stark", "lannister", "baratheon"}
    assert oct(secrets_file.stat().st_mode & 0o777) == "0o600"
    return game, secrets


def mail(body: str, sender: str = "ned@winterfell.org", date: str = "Tue, 01 Dec 2026 10:00:00 +0000",
         attachments: tuple[tuple[str, bytes], ...] = (), html: bool = False) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "gm@example.org"
    msg["Subject"] = "orders"
    msg["Date"] = date
    if html:
        msg.set_content(body, subtype="html")
    else:
        msg.set_content(body)
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="yaml", filename=name)
    return bytes(msg)


def wrapped(yaml_text: str) -> str:
    """A player's mail body: greeting, the YAML, a signature and quoted text."""
    return ("Hello moderator,\n\nhere is my turn, as asked:\n\n" + yaml_text +
            "\nThanks, and good luck to all!\n-- \nNed Stark\nLord of Winterfell\n\n"
            "On Mon, the moderator wrote:\n> format: agot-orders/1\n> round: 1\n")


def orders_files(game: Path) -> list[str]:
    return sorted(p.name for p in (game / "round-01" / "orders").iterdir())


def index_lines(game: Path) -> list[dict]:
    return [json.loads(line) for line in (game / "messages" / "index.jsonl").read_text().splitlines()]


def test_name_index_reads_names_players_write():
    index = name_index(load_ruleset())
    assert index.lookup("area", "moat cailin") == "moat_cailin"
    assert index.lookup("area", "Storm’s End") == index.lookup("area", "storms_end") == "storms_end"
    assert index.lookup("order", "Defense +1") == index.lookup("order", "defence+1") == "defense_plus1"
    assert index.lookup("order", "March -1") == "march_minus1"
    assert index.lookup("order", "March +1★") == "march_plus1"
    assert index.lookup("order", "march") is None  # ambiguous: -1 or 0
    assert index.lookup("order", "Support") == "support"
    assert index.lookup("house", "Stark") == index.lookup("house", "House Stark") == "stark"
    assert index.lookup("card", "eddard stark") == "eddard_stark"
    assert index.lookup("unit", "Knight") == index.lookup("unit", "knights") == "knight"
    assert index.lookup("track", "King's Court") == "kings_court"
    assert name_key("Moat-Cailin") == name_key("moat_cailin")


def test_a_mail_with_greeting_signature_quote_tabs_crlf_and_names_is_stored_as_ids(game, tmp_path):
    game, secrets = game
    body = wrapped(STARK.format(secret=secrets["stark"]).replace("    - from", "\t- from")
                   .replace("      ", "\t  "))
    path = tmp_path / "ned.eml"
    path.write_bytes(mail(body).replace(b"\n", b"\r\n"))
    import shutil
    again = tmp_path / "again"
    shutil.copytree(game, again)
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output
    stored = (game / "round-01" / "orders" / "stark.yaml").read_text()
    assert "moat_cailin: [knight]" in stored and "winterfell: march_plus1" in stored
    assert "the_shivering_sea: defense_plus1" in stored and "house: stark" in stored
    assert secrets["stark"] not in stored and "secret" not in stored.split("# ", 1)[-1].split("\n", 4)[-1]
    assert "March from Winterfell: 1 knight to Moat Cailin, leave a power token" in result.output
    assert "Support in White Harbor" in result.output
    assert "Moat Cailin -> moat_cailin" in result.output and "Defence +1 -> defense_plus1" in result.output
    [entry] = index_lines(game)
    receipt = (game / "messages" / entry["receipt"]).read_text()
    assert max(len(line) for line in receipt.splitlines()) <= 72
    assert secrets["stark"] not in result.output
    [entry] = index_lines(game)
    assert entry["verdict"] == "accepted" and entry["stored"] == "round-01/orders/stark.yaml"
    assert entry["received"] == WHEN and entry["from"] == "ned@winterfell.org"
    kept = game / "messages" / entry["file"]
    # kept as received but for the secret (issue 27), private whatever the umask
    assert kept.read_bytes() == path.read_bytes().replace(secrets["stark"].encode(),
                                                          b"[secret removed]")
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    assert oct((game / "messages").stat().st_mode & 0o777) == "0o700"
    assert oct((game / "messages" / "index.jsonl").stat().st_mode & 0o777) == "0o600"
    assert (game / "messages" / entry["receipt"]).read_text() in result.output
    assert run("validate", "--game", str(game)).exit_code == 0
    # the same inputs give the same stored bytes
    assert run("inbox", "--game", str(again), "--received", WHEN, str(path)).exit_code == 0
    assert (again / "round-01" / "orders" / "stark.yaml").read_text() == stored


def test_the_latest_message_counts_in_date_order_then_file_order(game, tmp_path):
    game, secrets = game
    early = tmp_path / "b-early.eml"
    late = tmp_path / "a-late.eml"
    early.write_bytes(mail(wrapped(STARK.format(secret=secrets["stark"])),
                           date="Tue, 01 Dec 2026 09:00:00 +0000"))
    late.write_bytes(mail(wrapped(STARK.format(secret=secrets["stark"]).replace(
        "White Harbor: Support", "White Harbor: Raid")), date="Tue, 01 Dec 2026 11:00:00 +0000"))
    result = run("inbox", "--game", str(game), "--received", WHEN, str(late), str(early))
    assert result.exit_code == 0, result.output
    assert "white_harbor: raid" in (game / "round-01" / "orders" / "stark.yaml").read_text()
    assert [e["source"] for e in index_lines(game)] == [str(early), str(late)]
    assert "replaces your orders" in " ".join(result.output.split())
    # the older message fed again is a duplicate: it changes nothing (RUL-P8-3)
    result = run("inbox", "--game", str(game), "--received", WHEN, str(early))
    assert result.exit_code == 0
    assert "white_harbor: raid" in (game / "round-01" / "orders" / "stark.yaml").read_text()
    assert [(e["n"], e["verdict"], e["duplicate_of"]) for e in index_lines(game)] == [
        (1, "accepted", None), (2, "accepted", None), (3, "duplicate", 1)]
    assert "RECEIVED BEFORE" in result.output


def refused(game: Path, path: Path, *words: str, stdin: bytes | None = None) -> str:
    before = orders_files(game)
    count = len(index_lines(game)) if (game / "messages" / "index.jsonl").exists() else 0
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path), input=stdin)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert orders_files(game) == before
    entries = index_lines(game)
    assert len(entries) == count + 1
    entry = entries[-1]
    assert entry["verdict"] != "accepted" and entry["stored"] is None
    assert (game / "messages" / entry["receipt"]).is_file()
    flat = " ".join(result.output.split())
    for word in words:
        assert word in flat, result.output
    return result.output


def test_no_yaml_is_refused_and_kept(game, tmp_path):
    game, _ = game
    path = tmp_path / "chat.eml"
    path.write_bytes(mail("Hi, I will send my orders tomorrow.\n-- \nNed\n"))
    refused(game, path, "no submission found")
    assert (game / "messages" / index_lines(game)[0]["file"]).read_bytes() == path.read_bytes()


def test_two_yaml_blocks_are_refused(game, tmp_path):
    game, secrets = game
    text = STARK.format(secret=secrets["stark"])
    path = tmp_path / "two.eml"
    path.write_bytes(mail("first:\n\n" + text + "\nor rather:\n\n" + text))
    refused(game, path, "2 YAML submissions in one message", "body line 3", "body line 19")
    path.write_bytes(mail(wrapped(text), attachments=(("orders.yaml", text.encode()),)))
    refused(game, path, "2 YAML submissions", "attachment orders.yaml")


@pytest.mark.parametrize("secret", [None, "wrong-secret"])
def test_a_missing_or_wrong_secret_is_refused(game, tmp_path, secret):
    game, _ = game
    text = STARK.format(secret=secret or "x")
    if secret is None:
        text = text.replace("secret: x\n", "")
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(text)))
    out = refused(game, path, "REFUSED", "no secret" if secret is None else "is not stark's")
    assert "Still asked" not in out


def test_a_forged_house_is_refused_and_says_nothing_of_that_house(game, tmp_path):
    game, secrets = game
    text = STARK.format(secret=secrets["baratheon"]).replace("house: Stark", "house: lannister")
    path = tmp_path / "forged.eml"
    path.write_bytes(mail(wrapped(text), sender="stannis@dragonstone.org"))
    out = refused(game, path, "REFUSED", "is not lannister's")
    assert index_lines(game)[-1]["forged"] is True
    assert "Still asked" not in out and "Game:" not in out and "round 1" not in out
    # stark's registered address with another house's name: forged too
    text = ("format: agot-orders/1\nround: 1\nhouse: lannister\nsecret: baratheon-s\n"
            "bids: {Iron Throne: 1}\n")
    path.write_bytes(mail(wrapped(text), sender="ned@winterfell.org"))
    refused(game, path, "is not lannister's")
    assert index_lines(game)[-1]["forged"] is True  # stark's registered address
    text = text.replace("baratheon-s", secrets["lannister"])
    path.write_bytes(mail(wrapped(text), sender="ned@winterfell.org"))
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output  # lannister has no address: its secret decides


def test_a_wrong_from_address_is_refused(game, tmp_path):
    game, secrets = game
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(STARK.format(secret=secrets["stark"])), sender="spy@example.org"))
    refused(game, path, "registered mail address")


def test_answering_another_houses_decision_is_refused(game, tmp_path):
    game, secrets = game
    text = STARK.format(secret=secrets["stark"]) + "answers:\n  r1/raven/lannister: null\n"
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(text)))
    refused(game, path, "stark cannot answer r1/raven/lannister")


def test_an_attachment_over_the_size_limit_is_refused(game, tmp_path):
    game, secrets = game
    big = (STARK.format(secret=secrets["stark"]) + "comment: '" + "x" * (1024 * 1024) + "'\n").encode()
    path = tmp_path / "big.eml"
    path.write_bytes(mail("Orders attached.\n", attachments=(("orders.yaml", big),)))
    refused(game, path, "attachment orders.yaml: too big", "the limit is 1048576")


def test_a_malformed_eml_is_refused_and_kept(game, tmp_path):
    game, _ = game
    path = tmp_path / "broken.eml"
    path.write_bytes(b"\x00\x01 this is not a mail message at all\n")
    refused(game, path, "not a mail message")
    path.write_bytes(b"From: a@b.org\nContent-Type: multipart/mixed; boundary=\"zz\"\n\nno parts\n")
    refused(game, path, "malformed mail message")


def test_a_maildir_entry_that_cannot_be_read_is_refused_and_the_others_taken(game, tmp_path):
    game, secrets = game
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(mail(wrapped(STARK.format(secret=secrets["stark"]))))
    os.symlink(tmp_path / "nowhere", tmp_path / "Maildir" / "new" / "1999.broken")
    result = run("inbox", "--game", str(game), "--received", WHEN, str(tmp_path / "Maildir"))
    assert result.exit_code == 1, result.output
    assert "cannot read this Maildir entry" in result.output
    verdicts = sorted(e["verdict"] for e in index_lines(game))
    assert verdicts == ["accepted", "malformed"]
    assert orders_files(game) == ["stark.yaml"]


def test_html_only_mail_attachment_mbox_and_stdin(game, tmp_path):
    game, secrets = game
    html = ("<html><body><p>Hello!</p><pre>" +
            STARK.format(secret=secrets["stark"]).replace("&", "&amp;") +
            "</pre><blockquote>format: agot-orders/1</blockquote></body></html>")
    path = tmp_path / "html.eml"
    path.write_bytes(mail(html, html=True))
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output
    lannister = ("format: agot-orders/1\nround: 1\nhouse: lannister\nsecret: "
                 f"{secrets['lannister']}\nbids: {{Iron Throne: 3}}\n")
    box = mailbox.mbox(tmp_path / "box.mbox")
    box.add(mail("See attached.\n", sender="tywin@example.org",
                 attachments=(("turn.yml", lannister.encode()),)))
    box.close()
    result = run("inbox", "--game", str(game), "--received", WHEN, str(tmp_path / "box.mbox"))
    assert result.exit_code == 0, result.output
    assert "Bid 3 on the Iron Throne track" in result.output
    forum = ("Posted by Stannis:\n\n  format: agot-orders/1\n  round: 1\n  house: Baratheon\n"
             f"  secret: {secrets['baratheon']}\n  orders:\n    Dragonstone: Consolidate Power\n"
             "\nRegards\n").encode()
    result = run("inbox", "--game", str(game), "--received", WHEN, "-", input=forum)
    assert result.exit_code == 0, result.output
    assert "Consolidate Power in Dragonstone" in result.output
    assert orders_files(game) == ["baratheon.yaml", "lannister.yaml", "stark.yaml"]
    assert index_lines(game)[-1]["file"].endswith(".txt")


def test_an_invalid_submission_is_located_in_the_body_and_not_stored(game, tmp_path):
    game, secrets = game
    text = STARK.format(secret=secrets["stark"]).replace("White Harbor: Support",
                                                         "White Harbor: Supprt")
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(text)))
    out = refused(game, path, "NOT ACCEPTED", "names no order", "(did you mean 'Support'?)")
    # the body line as the player wrote it; no path of the moderator's machine (P8)
    assert "message 1 (body):11:17: $.orders[\"White Harbor\"]" in " ".join(out.split())
    assert str(tmp_path) not in (game / "messages" / index_lines(game)[-1]["receipt"]).read_text()
    text = STARK.format(secret=secrets["stark"]).replace("Winterfell: March +1 (special)",
                                                         "Winterfell: March +1 (special)\n  Karhold: Raid")
    path.write_bytes(mail(wrapped(text)))
    out = refused(game, path, "NOT ACCEPTED (invalid)", "$.orders.karhold",
                  "This message carries (none of it is stored): - your orders")
    assert "adds your orders" not in out  # nothing was added


def test_a_game_without_players_yaml_takes_any_house_and_says_so(game, tmp_path):
    game, _ = game
    (game / "players.yaml").unlink()
    text = STARK.format(secret="anything")
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(text), sender="anyone@example.org"))
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output
    assert "keeps no house secrets" in result.output


def test_players_command_and_players_yaml(game, tmp_path):
    game, secrets = game
    players = read_players(game)
    assert players.houses["stark"].address == "ned@winterfell.org"
    assert all(s.secret_sha256 and s.secret_salt for s in players.houses.values())
    text = (game / "players.yaml").read_text()
    assert not any(secret in text for secret in secrets.values())
    listing = run("players", "--game", str(game))
    assert listing.exit_code == 0 and "stark: secret set, ned@winterfell.org" in listing.output
    renewed = run("players", "--game", str(game), "--new-secret", "stark",
                  "--address", "lannister=tywin@example.org")
    assert renewed.exit_code == 0, renewed.output
    new_secret = renewed.output.split("stark: ", 1)[1].split()[0]
    assert new_secret != secrets["stark"]
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(STARK.format(secret=secrets["stark"]))))
    refused(game, path, "is not stark's")
    path.write_bytes(mail(wrapped(STARK.format(secret=new_secret))))
    assert run("inbox", "--game", str(game), "--received", WHEN, str(path)).exit_code == 0
    assert run("players", "--game", str(game), "--new-secret", "martell").exit_code == 2
    bad = game / "players.yaml"
    bad.write_text("format: agot-players/1\nhouses: {stark: {secret: 3}}\n")
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 1 and "players.yaml" in result.output
    assert "$.houses.stark.secret" in result.output


def test_new_without_game_refuses_mail_options_and_no_secrets_writes_no_players(tmp_path):
    assert run("new", "--seed", "1", "-o", str(tmp_path / "s.yaml"), "--no-secrets").exit_code == 2
    result = run("new", "--seed", "1", "--game", str(tmp_path / "g"), "--no-secrets")
    assert result.exit_code == 0 and "secret" not in result.output
    assert not (tmp_path / "g" / "players.yaml").exists()
    assert run("inbox", "--game", str(tmp_path / "g")).exit_code == 2  # no MESSAGE


def test_the_receipt_says_what_a_stopped_round_still_asks_of_the_house(game, tmp_path):
    game, secrets = game
    assert run("adjudicate", "--game", str(game)).exit_code == 3  # no orders from anyone
    bids_only = ("format: agot-orders/1\nround: 1\nhouse: stark\nsecret: "
                 f"{secrets['stark']}\nbids: {{iron_throne: 1}}\n")
    path = tmp_path / "m.eml"
    path.write_bytes(mail(wrapped(bids_only)))
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "(stopped on pending decisions)" in flat
    assert "Still asked of stark: - r1/orders/stark: Place Stark's orders" in flat
    assert "r1/orders/lannister" not in flat and "lannister" not in flat.lower()
    path.write_bytes(mail(wrapped(STARK.format(secret=secrets["stark"]))))
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output
    assert "Still asked of stark: - nothing for now" in " ".join(result.output.split())


def test_names_in_direct_answers_are_turned_into_ids(game, tmp_path):
    from agot_adjudicator.io.names import ids_from_names
    from agot_adjudicator.io.reading import parse_text

    text = ("format: agot-orders/1\nround: 1\nhouse: Stark\nanswers:\n"
            "  r1/orders/stark: {Winterfell: March -1, White Harbor: null}\n"
            "  r1/march@winterfell/stark:\n    moves: {Moat Cailin: [Knight, footman]}\n"
            "    leave_power_token: false\n")
    doc, renamed, problems = ids_from_names(parse_text("m", text.encode()), name_index(load_ruleset()))
    assert problems == []
    assert doc.data["answers"] == {
        "r1/orders/stark": {"winterfell": "march_minus1", "white_harbor": None},
        "r1/march@winterfell/stark": {"moves": {"moat_cailin": ["knight", "footman"]},
                                      "leave_power_token": False}}
    assert doc.locate(["answers", "r1/march@winterfell/stark", "moves", "moat_cailin"]) == (7, 26)
    pairs = {(r.written, r.id) for r in renamed}
    assert pairs >= {("Moat Cailin", "moat_cailin"), ("March -1", "march_minus1")}


def test_status_gives_the_receive_time_of_a_stored_message(game, tmp_path):
    """agot status reads when an inbox-stored file's message was received (index.jsonl, P8),
    not the file's modification time; a file put there by hand keeps its own time."""
    game, secrets = game
    path = tmp_path / "ned.eml"
    path.write_bytes(mail(wrapped(STARK.format(secret=secrets["stark"]))))
    assert run("inbox", "--game", str(game), "--received", "2026-11-02T10:00:00Z",
               str(path)).exit_code == 0
    (game / "round-01" / "orders" / "lannister.yaml").write_text(
        "format: agot-orders/1\nround: 1\nhouse: lannister\n")
    os.utime(game / "round-01" / "orders" / "lannister.yaml", (1_800_000_000, 1_800_000_000))
    shown = run("status", "--game", str(game)).output
    assert "stark.yaml received 2026-11-02T10:00:00Z" in shown
    assert "lannister.yaml received 2027-01-15T08:00:00Z" in shown
    # a stored file edited by hand is no longer what the message stored: its own time
    stored = game / "round-01" / "orders" / "stark.yaml"
    stored.write_text(stored.read_text() + "# edited by hand\n")
    os.utime(stored, (1_800_000_000, 1_800_000_000))
    assert "stark.yaml received 2027-01-15T08:00:00Z" in run("status", "--game", str(game)).output


ID_FORM = """\
format: agot-orders/1
round: 1
house: stark
secret: {secret}
orders:
  winterfell: march_plus1
  white_harbor: support
  the_shivering_sea: defense_plus1
plans:
  marches:
    - from: winterfell
      moves: {{moat_cailin: [knight]}}
      leave_power_token: true
"""


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant"])
def test_a_submission_in_chinese_names_is_stored_as_its_id_form(game, tmp_path, locale):
    """Issue 18.4: areas, orders, houses and units by their glossary names in either script give
    the same stored file (the same bytes below the header) as the id form, which then validates
    and adjudicates as that file does."""
    import shutil

    game, secrets = game
    glossary = load_ruleset().glossary
    text = ID_FORM.format(secret=secrets["stark"])
    for kind, words in (("area", ("the_shivering_sea", "white_harbor", "moat_cailin", "winterfell")),
                        ("order", ("march_plus1", "defense_plus1", "support")),
                        ("house", ("stark",)), ("unit", ("knight",))):
        for word in words:
            text = re.sub(rf"(?<![a-z_]){word}(?![a-z_])", glossary.name(kind, word, locale), text)
    assert not re.search(r"winterfell|march_plus1|knight|stark\n", text), text
    twin = tmp_path / "twin"
    shutil.copytree(game, twin)
    named, ids = tmp_path / "named.eml", tmp_path / "ids.eml"
    named.write_bytes(mail(wrapped(text)))
    ids.write_bytes(mail(wrapped(ID_FORM.format(secret=secrets["stark"]))))
    assert run("inbox", "--game", str(game), "--received", WHEN, str(named)).exit_code == 0
    assert run("inbox", "--game", str(twin), "--received", WHEN, str(ids)).exit_code == 0

    def body(g: Path) -> str:
        return "\n".join(line for line in (g / "round-01" / "orders" / "stark.yaml")
                         .read_text().splitlines() if not line.startswith("#"))

    assert body(game) == body(twin)
    for g in (game, twin):
        assert run("validate", "--game", str(g)).exit_code == 0
        assert run("adjudicate", "--game", str(g)).exit_code == 3  # the others' orders are owed
    assert (game / "round-01" / "pending.yaml").read_text() == \
        (twin / "round-01" / "pending.yaml").read_text()
