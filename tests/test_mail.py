"""Mail out (issue 15 item 4): every `adjudicate --game` run writes the public report as text
wrapped at 72 columns and one message per house (.txt and .eml, the picture attached);
replay checks them; `agot send` sends each house its own message over SMTP (a real server on
localhost: aiosmtpd)."""

from __future__ import annotations

import email
import json
import re
import shutil
import socket
import ssl
import threading
from email.policy import SMTP
from pathlib import Path

import pytest
import trustme

from agot_adjudicator.cli import main
from agot_adjudicator.render.tables import columns

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "games" / "demo"
HOUSES = ("baratheon", "greyjoy", "lannister", "stark", "tyrell")


def game_at_round_one(tmp_path: Path, addresses: dict[str, str] | None = None) -> Path:
    """The demo's first round (state and orders) as a new game directory."""
    game = tmp_path / "game"
    (game / "round-01").mkdir(parents=True)
    shutil.copy(DEMO / "round-01" / "state.yaml", game / "round-01" / "state.yaml")
    shutil.copytree(DEMO / "round-01" / "orders", game / "round-01" / "orders")
    shutil.copytree(DEMO / "rulesets", game / "rulesets")
    if addresses:
        lines = ["format: agot-players/1", "houses:"]
        for house, address in addresses.items():
            lines += [f"  {house}:", f"    address: {address}"]
        (game / "players.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game


def adjudicate(runner, game: Path, code: int = 0):
    result = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == code, result.output
    return result


def parse(path: Path) -> email.message.EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=SMTP)


def body_of(msg) -> str:
    return msg.get_body(("plain",)).get_content()


@pytest.fixture
def played(tmp_path, runner):
    """A complete round 1, then round 2 stopped (no orders yet)."""
    game = game_at_round_one(tmp_path, {"stark": "stark@example.org",
                                        "lannister": "lannister@example.org",
                                        "baratheon": "baratheon@example.org",
                                        "tyrell": "tyrell@example.org",
                                        "greyjoy": "greyjoy@example.org"})
    adjudicate(runner, game)
    adjudicate(runner, game, 3)
    return game


def test_every_run_writes_the_mail_folder(played):
    for name, picture in (("round-01", "board.svg"), ("round-02", "now.svg")):
        mail = played / name / "mail"
        assert sorted(p.name for p in mail.iterdir()) == sorted(
            ["report.txt", *(f"{h}.txt" for h in HOUSES), *(f"{h}.eml" for h in HOUSES),
             *(f"{h}.view.yaml" for h in HOUSES)])  # each house's view (issue 30)
        public = (mail / "report.txt").read_text(encoding="utf-8")
        for line in public.splitlines():
            assert columns(line) <= 72, line
        for house in HOUSES:
            text = (mail / f"{house}.txt").read_text(encoding="utf-8")
            assert text.startswith(public)
            assert f"Private to {house.capitalize()} — do not forward" in text
            msg = parse(mail / f"{house}.eml")
            assert body_of(msg) == text.replace("\n", "\r\n") or body_of(msg) == text
            assert msg["To"] == f"{house}@example.org"
            assert msg["Date"] is None and msg["From"] is None
            assert msg["Message-ID"].endswith(f".{house}.{name}.demo@agot.invalid>")
            attached, view = list(msg.iter_attachments())
            assert view.get_filename() == f"{house}.view.yaml"
            assert view.get_content_type() == "application/yaml"
            assert view.get_content() == (mail / f"{house}.view.yaml").read_bytes()
            assert attached.get_filename() == picture
            assert attached.get_content_type() == "image/svg+xml"
            assert attached.get_content() == (played / name / picture).read_bytes()
    assert "Your answers" in (played / "round-02" / "mail" / "stark.txt").read_text("utf-8")


def test_house_mail_holds_only_its_own_pending_and_answers(played):
    mail = played / "round-02" / "mail"
    for house in HOUSES:
        text = (mail / f"{house}.txt").read_text(encoding="utf-8")
        private = text.split("Private to ", 1)[1]
        assert f"  r2/orders/{house}:" in private or f"r2/orders/{house}" not in private
        for other in HOUSES:
            if other != house:
                assert f"r2/orders/{other}" not in private
                assert f"Private to {other.capitalize()}" not in text


def test_mail_is_deterministic_and_checked_by_replay(played, runner, tmp_path):
    again = game_at_round_one(tmp_path / "again", {h: f"{h}@example.org" for h in HOUSES})
    adjudicate(runner, again)
    for path in sorted((played / "round-01" / "mail").iterdir()):
        assert path.read_bytes() == (again / "round-01" / "mail" / path.name).read_bytes()
    assert runner.invoke(main, ["replay", str(played)]).exit_code == 0
    eml = played / "round-01" / "mail" / "stark.eml"
    eml.write_bytes(eml.read_bytes().replace(b"Stark", b"Stork", 1))
    result = runner.invoke(main, ["replay", str(played)])
    assert result.exit_code == 4 and "stark.eml differs" in result.output


def test_a_completed_round_replaces_the_stop_mail(played, runner):
    stop_id = parse(played / "round-02" / "mail" / "stark.eml")["Message-ID"]
    shutil.copytree(DEMO / "round-02" / "orders", played / "round-02" / "orders",
                    dirs_exist_ok=True)
    adjudicate(runner, played)
    msg = parse(played / "round-02" / "mail" / "stark.eml")
    assert msg["Message-ID"] != stop_id
    assert [a.get_filename() for a in msg.iter_attachments()] == ["board.svg", "stark.view.yaml"]
    assert "Stopped: decisions pending" not in body_of(msg)


def test_no_address_no_to_header(tmp_path, runner):
    game = game_at_round_one(tmp_path)
    adjudicate(runner, game)
    assert parse(game / "round-01" / "mail" / "stark.eml")["To"] is None


def test_private_with_game_names_the_mail_files(tmp_path, runner):
    game = game_at_round_one(tmp_path)
    result = runner.invoke(main, ["adjudicate", "--game", str(game), "--private", "stark"])
    assert result.exit_code == 2 and "mail/HOUSE.txt" in result.output
    assert not (game / "round-01" / "mail").exists()


def test_bad_players_file_writes_nothing(tmp_path, runner):
    game = game_at_round_one(tmp_path)
    (game / "players.yaml").write_text("format: agot-players/1\nhouses:\n  stark:\n"
                                       "    address: not an address\n", encoding="utf-8")
    result = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 1 and "players.yaml:4:" in result.output
    assert not (game / "round-01" / "report.md").exists()


# --- agot send: a real SMTP server on localhost ------------------------------------------------

class Inbox:
    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.received.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server():
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, f"127.0.0.1:{controller.port}"
    finally:
        controller.stop()


def test_send_gives_each_address_its_own_house_message(played, runner, smtp_server):
    inbox, server = smtp_server
    args = ["send", "--game", str(played), "--smtp", server, "--from", "gm@example.org"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    mail = played / "round-02" / "mail"
    public = (mail / "report.txt").read_text(encoding="utf-8")
    got = {}
    for rcpts, data in inbox.received:
        msg = email.message_from_bytes(data, policy=SMTP)
        (rcpt,) = rcpts
        assert rcpt == msg["To"] and rcpt not in got
        assert msg["From"] == "gm@example.org" and msg["Date"] is not None
        got[rcpt] = body_of(msg).replace("\r\n", "\n")
    assert sorted(got) == sorted(f"{h}@example.org" for h in HOUSES)
    for house in HOUSES:
        text = got[f"{house}@example.org"]
        assert text == (mail / f"{house}.txt").read_text(encoding="utf-8")
        assert public in text
        for other in HOUSES:
            if other != house:
                theirs = (mail / f"{other}.txt").read_text(encoding="utf-8")
                hand = theirs.split("Hand:", 1)[1].split("Bids submitted:")[0]
                assert hand not in text
    sent = [json.loads(line) for line in
            (mail / "sent.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [e["state"] for e in sent] == ["sending", "sent"] * len(HOUSES)  # at most once
    # a Message-ID folded onto its own line in the file is one token, said and kept so
    assert all(e["message_id"].startswith("<") and e["message_id"].endswith(">") for e in sent)
    assert "( <" not in result.output and "(<" in result.output
    # a second run sends nothing again; --again does
    result = runner.invoke(main, args)
    assert result.exit_code == 0 and result.output.count("already sent") == len(HOUSES)
    assert len(inbox.received) == len(HOUSES)
    result = runner.invoke(main, [*args, "--again", "--house", "stark"])
    assert result.exit_code == 0 and len(inbox.received) == len(HOUSES) + 1
    # the stored files are unchanged by sending, and replay ignores sent.jsonl
    assert parse(mail / "stark.eml")["From"] is None


def test_send_skips_a_house_without_address_and_exits_2(tmp_path, runner, smtp_server):
    inbox, server = smtp_server
    game = game_at_round_one(tmp_path, {"stark": "stark@example.org"})
    adjudicate(runner, game)
    result = runner.invoke(main, ["send", "--game", str(game), "--smtp", server,
                                  "--from", "gm@example.org"])
    assert result.exit_code == 2
    assert "skipped tyrell: no address" in result.output
    assert [r for r, _ in inbox.received] == [["stark@example.org"]]


def test_send_starttls_refused_when_not_offered(played, runner, smtp_server):
    inbox, server = smtp_server
    result = runner.invoke(main, ["send", "--game", str(played), "--smtp", server,
                                  "--from", "gm@example.org", "--starttls"])
    assert result.exit_code == 2 and "does not offer STARTTLS" in result.output
    assert inbox.received == []
    assert not (played / "round-02" / "mail" / "sent.jsonl").exists()


def test_send_password_only_from_the_environment(played, runner, monkeypatch):
    monkeypatch.delenv("AGOT_SMTP_PASSWORD", raising=False)
    result = runner.invoke(main, ["send", "--game", str(played), "--smtp", "127.0.0.1:1",
                                  "--from", "gm@example.org", "--user", "gm"])
    assert result.exit_code == 2 and "AGOT_SMTP_PASSWORD" in result.output
    result = runner.invoke(main, ["send", "--game", str(played), "--smtp", "127.0.0.1:1",
                                  "--from", "gm@example.org", "--password", "x"])
    assert result.exit_code == 2  # no such option


def test_send_dry_run_sends_and_records_nothing(played, runner):
    result = runner.invoke(main, ["send", "--game", str(played), "--dry-run"])
    assert result.exit_code == 0 and result.output.count("would send") == len(HOUSES)
    assert not (played / "round-02" / "mail" / "sent.jsonl").exists()


# --- text at 72 columns -------------------------------------------------------------------------

def test_wide_tables_fit_72_columns_and_stay_aligned_with_wide_characters():
    from agot_adjudicator.render.tables import table

    rows = [["临冬城", "史塔克家族: 1 名骑士, 2 名步兵", "行军 +1", "史塔克", "无"],
            ["Moat Cailin", "stark: 1 footman, 1 knight, 2 ships", "March +0", "stark", "6"],
            ["君临", "", "", "", "5 (neutral force, strength five)"]]
    text = table(rows, ["area", "units", "order", "power token", "neutral force"], width=72)
    lines = text.split("\n")
    assert max(columns(line) for line in lines) <= 72
    assert max(columns(line) for line in table(rows, ["a"] * 5).split("\n")) > 72
    rule = lines[1]  # the dashes under the headers: where each column starts
    starts = {i for i, ch in enumerate(rule) if ch == "-" and (i == 0 or rule[i - 1] == " ")}
    for line in lines[2:]:
        for match in re.finditer(r"(?:^|  )(\S)", line):
            assert columns(line[:match.start(1)]) in starts, (line, match.group(1))


def test_wrap_counts_terminal_columns():
    from agot_adjudicator.render.report import wrap

    text = "- " + "北境 " * 30
    lines = wrap(text.rstrip(), 20).split("\n")
    assert all(columns(line) <= 20 for line in lines)
    assert all(line.startswith("  ") and line[2] in "北境" for line in lines[1:])
    # Chinese has no spaces: a line breaks between wide characters, never before 。 or ）
    sentence = "- 史塔克在破船湾的残部撤退至狭海：船只×1，溃败（R6.8）。"
    chinese = wrap(sentence, 20).split("\n")
    assert all(columns(line) <= 20 for line in chinese) and len(chinese) > 2
    assert "".join(line.strip() for line in chinese) == sentence
    assert not any(line.strip()[0] in "）。，" for line in chinese[1:])
    assert wrap("short", 72) == "short" and wrap("x " * 50, None) == "x " * 50


def localhost_tls(tmp_path: Path) -> tuple[ssl.SSLContext, Path]:
    """A server context for 127.0.0.1 with a certificate of a throw-away CA (trustme, ECDSA
    keys: nothing slow to generate), and the CA's file for the client to trust."""
    ca = trustme.CA()
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(server_tls)
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    return server_tls, ca_file


def test_send_with_starttls_and_login(played, runner, tmp_path, monkeypatch):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    from agot_adjudicator.io import smtp

    # a server that stops answering fails the test in seconds, not after the 60 s default
    monkeypatch.setattr(smtp, "TIMEOUT", 5.0)
    server_tls, ca_file = localhost_tls(tmp_path)
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        assert isinstance(auth_data, LoginPassword)
        logins.append((auth_data.login, auth_data.password))
        # handled=False: aiosmtpd answers the refusal itself (535); with its default (True)
        # nothing is answered and the client waits for its 60 s timeout.
        return AuthResult(success=auth_data.password == b"s3cret", handled=False)

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), tls_context=server_tls,
                            require_starttls=True, authenticator=authenticator,
                            auth_require_tls=True)
    controller.start()
    try:
        monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))  # the client trusts the test CA
        monkeypatch.setenv("GM_PASSWORD", "s3cret")
        args = ["send", "--game", str(played), "--smtp", f"127.0.0.1:{controller.port}",
                "--from", "gm@example.org", "--starttls", "--user", "gm",
                "--password-env", "GM_PASSWORD", "--house", "stark"]
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        assert logins == [(b"gm", b"s3cret")]
        assert [r for r, _ in inbox.received] == [["stark@example.org"]]
        monkeypatch.setenv("GM_PASSWORD", "wrong")
        result = runner.invoke(main, [*args, "--again"])
        assert result.exit_code == 2 and "nothing was sent" in result.output
        assert len(inbox.received) == 1
        result = runner.invoke(main, [a for a in args if a != "--starttls"] + ["--again"])
        assert result.exit_code == 2  # the server wants TLS first: refused, nothing sent
        assert len(inbox.received) == 1
    finally:
        controller.stop()


def test_a_linked_mail_folder_is_refused_and_nothing_written(tmp_path, runner):
    game = game_at_round_one(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (game / "round-01" / "mail").symlink_to(elsewhere)
    result = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert result.exit_code == 1 and "mail" in result.output
    assert list(elsewhere.iterdir()) == [] and not (game / "round-01" / "report.md").exists()


class DroppingInbox(Inbox):
    """Takes the message, then drops the connection before it answers (issue 27)."""

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.received.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        server.transport.close()
        return "250 OK"


def test_send_is_at_most_once_when_a_run_is_cut_off(played, runner, smtp_server):
    """A message recorded as being sent with no line after (a run killed between the server's
    acceptance and the record), or whose connection dropped while the server took it, is not
    sent again without --again: the run says it may have been delivered, exit 2."""
    from aiosmtpd.controller import Controller

    inbox, server = smtp_server
    mail = played / "round-02" / "mail"
    stark_id = str(email.message_from_bytes((mail / "stark.eml").read_bytes(),
                                            policy=SMTP)["Message-ID"])
    (mail / "sent.jsonl").write_text(json.dumps({
        "time": "2026-12-01T12:00:00Z", "house": "stark", "to": "stark@example.org",
        "message_id": stark_id, "state": "sending"}) + "\n", encoding="utf-8")
    args = ["send", "--game", str(played), "--smtp", server, "--from", "gm@example.org"]
    result = runner.invoke(main, args)
    assert result.exit_code == 2 and "maybe sent stark" in result.output, result.output
    assert sorted(r for (r,), _ in inbox.received) == sorted(
        f"{h}@example.org" for h in HOUSES if h != "stark")
    result = runner.invoke(main, [*args, "--again", "--house", "stark"])
    assert result.exit_code == 0 and len(inbox.received) == len(HOUSES)

    dropping = DroppingInbox()
    controller = Controller(dropping, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        drop_args = ["send", "--game", str(played), "--smtp", f"127.0.0.1:{controller.port}",
                     "--from", "gm@example.org", "--again", "--house", "lannister"]
        result = runner.invoke(main, drop_args)
        assert result.exit_code == 2 and "maybe sent lannister" in result.output, result.output
        assert "Traceback" not in result.output
        assert len(dropping.received) == 1
        result = runner.invoke(main, [a for a in drop_args if a != "--again"])
        assert result.exit_code == 2 and "not sent again (at most once)" in result.output
        assert len(dropping.received) == 1  # the server took it once, and only once
    finally:
        controller.stop()


def test_a_message_id_folded_onto_its_own_line_is_one_token():
    """A long Message-ID (a long game id) is folded onto a line of its own when the .eml is
    written (RFC 5322); send, its journal and the judge use it without the folding space, so
    the journal written before and after agrees (sent.jsonl lines of 0.3 are read stripped)."""
    from email.parser import BytesParser

    from agot_adjudicator.workflow.send import message_id

    raw = (b"Message-ID:\r\n <6c63b72a332fe2dcd224f3c8.lannister.round-01.game-26d566cf"
           b"@agot.invalid>\r\nSubject: x\r\n\r\nbody\r\n")
    msg = BytesParser(policy=SMTP).parsebytes(raw)
    assert str(msg["Message-ID"]).startswith(" ")  # as the standard library reads it
    assert message_id(msg) == ("<6c63b72a332fe2dcd224f3c8.lannister.round-01.game-26d566cf"
                               "@agot.invalid>")


def test_send_names_the_round_before_when_its_mail_was_never_sent(played, runner, smtp_server):
    """Round 1's result was written, then round 2 ran before any send: sending round 2 (the
    default) says that round 1's mail still waits, and --round 1 sends it."""
    inbox, server = smtp_server
    houses = len(list((played / "round-01" / "mail").glob("*.eml")))
    args = ["send", "--game", str(played), "--smtp", server, "--from", "gm@example.org"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "note: round-01's mail was never sent to " in result.output
    assert "agot send --round 1 sends it" in result.output
    assert runner.invoke(main, [*args, "--round", "1"]).exit_code == 0
    assert len(inbox.received) == 2 * houses  # round 2's, then round 1's
    again = runner.invoke(main, args)
    assert "never sent" not in again.output
