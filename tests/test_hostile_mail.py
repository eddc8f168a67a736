"""Hostile mail is harmless (issue 27): every message of the corpus (tests/data/hostile_mail)
gets its documented receipt in one run, nothing is cut silently, nothing crashes, every read is
bounded, nothing from a message reaches the terminal unescaped, kept copies hold no secret."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from agot_adjudicator.cli import main
from agot_adjudicator.io.players import secret_sha256

CORPUS = Path(__file__).parent / "data" / "hostile_mail"
CASES = json.loads((CORPUS / "cases.json").read_text(encoding="utf-8"))
SECRET = "corpus-stark-secret-0001"
WHEN = "2026-12-01T12:00:00Z"
SALT = "00112233445566778899aabbccddeeff"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    game = tmp_path_factory.mktemp("hostile") / "game"
    result = run("new", "--players", "3", "--seed", "7", "--game", str(game))
    assert result.exit_code == 0, result.output
    (game / "players.yaml").write_text(
        "format: agot-players/1\nhouses:\n  stark:\n    secret:\n"
        f"      salt: {SALT}\n      sha256: {secret_sha256(SALT, SECRET)}\n", encoding="utf-8")
    return game


@pytest.fixture
def game(fresh, tmp_path) -> Path:
    copy = tmp_path / "game"
    shutil.copytree(fresh, copy)
    return copy


def index_lines(game: Path) -> list[dict]:
    return [json.loads(line) for line in
            (game / "messages" / "index.jsonl").read_text(encoding="utf-8").splitlines()]


def snapshot(game: Path) -> dict[str, bytes]:
    return {str(p.relative_to(game)): p.read_bytes() for p in sorted(game.rglob("*"))
            if p.is_file() and "messages" not in p.parts and p.name != ".agot.lock"}


def test_each_message_of_the_corpus_gets_its_receipt_in_one_run(game):
    names = sorted(CASES)
    before = snapshot(game)
    result = run("inbox", "--game", str(game), "--received", WHEN,
                 *[str(CORPUS / f"{n}.eml") for n in names])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert result.exit_code == 1  # some are refused
    entries = {Path(e["source"]).stem: e for e in index_lines(game)}
    assert sorted(entries) == names  # every message kept, with its index line: the run went on
    for name in names:
        entry, want = entries[name], CASES[name]
        receipt = (game / "messages" / entry["receipt"]).read_text(encoding="utf-8")
        assert entry["verdict"] == want["verdict"], (name, receipt)
        flat = " ".join(receipt.split())
        for words in want["says"]:
            assert " ".join(words.split()) in flat, (name, words, receipt)
        kept = (game / "messages" / entry["file"]).read_bytes()
        for words in want.get("hides", []):  # a secret, however written: never shown back
            assert words not in receipt and words not in result.output, (name, words)
            assert words.encode() not in kept, (name, words)
        assert receipt.isprintable() or all(c.isprintable() or c == "\n" for c in receipt), name
    out = result.output
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    for path in (game / "messages").iterdir():
        assert SECRET.encode() not in path.read_bytes(), path.name
        assert oct(path.stat().st_mode & 0o777) == "0o600", path.name
    assert oct((game / "messages").stat().st_mode & 0o777) == "0o700"
    # the accepted ones stored stark's orders; nothing else changed
    after = snapshot(game)
    changed = {k for k in after if before.get(k) != after[k]}
    assert changed and all(k.startswith(("round-01/orders/stark", "round-01/received/"))
                           for k in changed), changed


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c["verdict"] != "accepted"))
def test_a_refused_message_changes_nothing_and_exits_1(game, name):
    before = snapshot(game)
    result = run("inbox", "--game", str(game), "--received", WHEN, str(CORPUS / f"{name}.eml"))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "\x1b" not in result.output
    assert snapshot(game) == before
    [entry] = index_lines(game)
    assert (game / "messages" / entry["file"]).is_file()


def test_what_is_stored_is_what_the_player_sent(game):
    """The flowed message, decoded, stores every order and the plan (nothing cut)."""
    result = run("inbox", "--game", str(game), "--received", WHEN, str(CORPUS / "flowed.eml"))
    assert result.exit_code == 0, result.output
    stored = (game / "round-01" / "orders" / "stark.yaml").read_text(encoding="utf-8")
    for words in ("winterfell: march_plus1", "white_harbor: support",
                  "the_shivering_sea: defense_plus1", "moat_cailin: [knight]",
                  "leave_power_token: true"):
        assert words in stored


def test_maildir_special_entries_are_refused_and_the_others_taken(game, tmp_path):
    box = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    os.mkfifo(box / "new" / "1-fifo")
    (box / "new" / "2-zero").symlink_to("/dev/zero")
    (box / "new" / "3-dir").mkdir()
    shutil.copy(CORPUS / "base64_body.eml", box / "cur" / "4-good:2,S")
    started = time.monotonic()
    result = run("inbox", "--game", str(game), "--received", WHEN, str(box))
    assert time.monotonic() - started < 30
    assert result.exit_code == 1 and "Traceback" not in result.output
    verdicts = {e["source"].rsplit(" ", 1)[-1].rstrip(")"): e["verdict"] for e in index_lines(game)}
    assert verdicts == {"1-fifo": "malformed", "2-zero": "malformed", "3-dir": "malformed",
                        "4-good": "accepted"}
    assert "not a regular file" in result.output


def test_an_mbox_is_read_message_by_message(game, tmp_path):
    good = (CORPUS / "qp_body.eml").read_bytes()
    big = b"Subject: big\r\n\r\n" + b"x" * (17 * 1024 * 1024)
    mbox = tmp_path / "box.mbox"
    mbox.write_bytes(b"From a@b Tue Dec  1 10:00:00 2026\n" + big + b"\n"
                     b"From a@b Tue Dec  1 10:00:00 2026\n" + good + b"\n")
    result = run("inbox", "--game", str(game), "--received", WHEN, str(mbox))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert {e["source"][-3:-1]: e["verdict"] for e in index_lines(game)} == {
        " 1": "malformed", " 2": "accepted"}
    assert "the limit is 16777216" in result.output


def test_stdin_is_read_bounded(game):
    result = run("inbox", "--game", str(game), "--received", WHEN, "-",
                 input=b"Subject: x\n\n" + b"y" * (16 * 1024 * 1024 + 10))
    assert result.exit_code == 1 and "the limit is 16777216" in result.output
    [entry] = index_lines(game)
    assert (game / "messages" / entry["file"]).stat().st_size == 16 * 1024 * 1024


@pytest.mark.parametrize("shape", ["base64", "text", "parts", "headers", "words", "lines"])
def test_a_10_mb_message_of_any_shape_is_answered_quickly(game, tmp_path, shape):
    import resource

    size = 10 * 1000 * 1000
    head = b"From: a@b.org\r\nSubject: big\r\nMIME-Version: 1.0\r\n"
    raw = {
        "base64": head + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
                         b"Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                  + b"QUFB" * 19 * (size // 78) + b"\r\n--b--\r\n",
        "text": head + b"\r\n" + b"format: agot-orders/1\r\n" + b"# x\r\n" * (size // 5),
        "parts": head + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
                 + b"--b\r\n\r\n" * (size // 7),
        "headers": b"X: y\r\n" * (size // 6) + b"\r\n",
        "words": b"Subject: " + b"=?utf-8?q?a?= " * (size // 14) + b"\r\n\r\n",
        "lines": head + b"\r\n" + b"a" * size,
    }[shape]
    path = tmp_path / f"{shape}.eml"
    path.write_bytes(raw)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    usage = resource.getrusage(resource.RUSAGE_SELF)
    started = time.monotonic()
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    elapsed = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert cpu < 3 and elapsed < 30, (cpu, elapsed)  # CPU: steady on a shared machine; at
    # most 1.0 s measured (bench/bench_mail_limits.py), the wall time guards against a hang
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 200 * 1024, grown  # KiB


def test_a_run_killed_after_keeping_a_message_leaves_one_index_line(game):
    path = CORPUS / "qp_body.eml"
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    messages = game / "messages"
    messages.mkdir()
    (messages / f"0001-{digest[:8]}.eml").write_bytes(raw)  # kept, then killed
    (messages / ".0001-x.eml.abc123.tmp").write_bytes(b"half")
    result = run("inbox", "--game", str(game), "--received", WHEN, str(path))
    assert result.exit_code == 0, result.output
    assert [e["n"] for e in index_lines(game)] == [1]
    assert not list(messages.glob(".*.tmp"))


def test_send_refuses_a_login_in_clear_and_a_bad_from(game):
    result = run("send", "--game", str(game), "--smtp", "127.0.0.1:1", "--from",
                 "gm@example.org\r\nBcc: all@example.org")
    assert result.exit_code == 2 and "is not a mail address" in result.output
    assert "Traceback" not in result.output
    env = {"AGOT_SMTP_PASSWORD": "pw"}
    result = CliRunner(env=env).invoke(main, ["send", "--game", str(game), "--smtp",
                                              "127.0.0.1:1", "--from", "gm@example.org",
                                              "--user", "gm"])
    assert result.exit_code == 2 and "--insecure-login" in result.output


def test_site_refuses_a_symlinked_folder_inside_its_output_and_writes_nothing(tmp_path):
    """`site -o OUT` with OUT/round-01 a link to a folder outside: refused, exit 2, nothing
    written inside or outside (issue 27 item 7)."""
    demo = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
    out = tmp_path / "out"
    outside = tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "round-01").symlink_to(outside, target_is_directory=True)
    result = run("site", "--game", str(demo), "-o", str(out), "--no-png")
    assert result.exit_code == 2 and "symlink" in result.output, result.output
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in out.iterdir()) == ["round-01"]


def test_write_together_replaces_a_linked_file_and_refuses_a_linked_folder(tmp_path):
    from agot_adjudicator.errors import UsageError
    from agot_adjudicator.io.commit import write_together

    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (outside / "victim.txt").write_text("keep", encoding="utf-8")
    (out / "a.txt").symlink_to(outside / "victim.txt")
    write_together([(out / "a.txt", "new")], root=out)
    assert not (out / "a.txt").is_symlink() and (out / "a.txt").read_text() == "new"
    assert (outside / "victim.txt").read_text() == "keep"
    (out / "sub").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UsageError):
        write_together([(out / "b.txt", "x"), (out / "sub" / "c.txt", "y")], root=out)
    assert not (out / "b.txt").exists() and sorted(p.name for p in outside.iterdir()) == [
        "victim.txt"]


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c["verdict"] == "accepted"))
def test_an_accepted_message_stores_what_was_sent_and_its_receipt_says_it(game, name):
    """Nothing cut (issue 27 item 1): the stored orders are the sent ones, the plan too when
    the message had one, and the receipt echoes the stored submission line by line."""
    from agot_adjudicator.io.reading import load_yaml
    from agot_adjudicator.io.rulesets import load_ruleset
    from agot_adjudicator.model.naming import name_index
    from agot_adjudicator.render.receipt import echo_lines

    raw = (CORPUS / f"{name}.eml").read_bytes()
    result = run("inbox", "--game", str(game), "--received", WHEN, str(CORPUS / f"{name}.eml"))
    assert result.exit_code == 0, result.output
    stored = load_yaml(game / "round-01" / "orders" / "stark.yaml").data
    assert stored["orders"] == {"winterfell": "march_plus1", "white_harbor": "support",
                                "the_shivering_sea": "defense_plus1"}
    if b"moat_cailin" in raw:
        assert stored["plans"]["marches"] == [{"from": "winterfell", "leave_power_token": True,
                                               "moves": {"moat_cailin": ["knight"]}}]
    flat = " ".join(result.output.split())
    for line in echo_lines(stored, name_index(load_ruleset())):
        assert " ".join(line.split()) in flat, line


@pytest.mark.parametrize("number", ["0x" + "f" * 5000, "0o" + "7" * 5000, "0b" + "1" * 5000,
                                    "9" * 5000])
def test_validate_bounds_integers_of_every_base(game, tmp_path, number):
    path = tmp_path / "stark.yaml"
    path.write_text("format: agot-orders/1\nround: 1\nhouse: stark\nwildlings: " + number + "\n",
                    encoding="utf-8")
    result = run("validate", "--game", str(game), str(path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "numbers have at most 100" in result.output and ":4:12:" in result.output
