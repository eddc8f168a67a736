"""Every write ``agot judge`` makes to a game directory is under the game lock, the lock of
``agot send``, ``agot inbox``, ``agot adjudicate`` and ``agot players``: another process that
tries to take it at any of the judge's writes (``players.yaml``'s deadline, ``sent.jsonl``,
``judge/state.json``, the journal, the spool) finds it held, and so waits instead of racing."""

from __future__ import annotations

import mailbox
import subprocess
import sys
from collections import Counter
from pathlib import Path

from mailservers import smtp  # noqa: F401  (pytest fixture)
from test_judge import T0, judge, new_game, orders_text, player_mail, run, settings

from agot_adjudicator.io import judge_mail
from agot_adjudicator.io.lock import LOCK_FILE
from agot_adjudicator.workflow import judge as judge_module
from agot_adjudicator.workflow import send as send_module

PROBE = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("free")
except BlockingIOError:
    print("held")
"""


def lock_seen_by_another_process(game: Path) -> str:
    return subprocess.run([sys.executable, "-c", PROBE, str(game / LOCK_FILE)],
                          capture_output=True, text=True, check=True).stdout.strip()


def probe_writes(monkeypatch, game: Path, seen: Counter) -> None:
    """Before each write of the judge, ask another process whether the game lock is free."""
    def hook(name, real):
        def wrapped(*args, **kwargs):
            seen[(name, lock_seen_by_another_process(game))] += 1
            return real(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(judge_module, "write_players",
                        hook("players.yaml", judge_module.write_players))
    monkeypatch.setattr(send_module, "record_sent", hook("sent.jsonl", send_module.record_sent))
    monkeypatch.setattr(judge_mail, "write_bytes_atomic",
                        hook("judge file", judge_mail.write_bytes_atomic))
    monkeypatch.setattr(judge_mail, "append_line", hook("journal", judge_mail.append_line))
    real_send = judge_mail.Mailer.send

    def send(mailer, msg, to, now):
        # a run's mail: from the reading of sent.jsonl to its line, under the lock (agot send
        # reads and writes that journal too); a receipt is recorded in the judge's journal only
        if "receipt-" not in str(msg["Message-ID"]):
            seen[("smtp (a run's mail)", lock_seen_by_another_process(game))] += 1
        return real_send(mailer, msg, to, now)

    monkeypatch.setattr(judge_mail.Mailer, "send", send)


def test_every_judge_write_is_under_the_game_lock(tmp_path, smtp, monkeypatch):  # noqa: F811
    inbox, port = smtp
    game, secrets, houses = new_game(tmp_path)
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    settings(game, port, maildir=str(tmp_path / "Maildir"),
             deadlines={"orders": {"period": "24h"}})
    seen: Counter = Counter()
    with monkeypatch.context() as m:
        probe_writes(m, game, seen)
        judge(game, T0)  # round 1 run, its mail sent with the deadline
        for n, house in enumerate(houses[:-1]):
            box.add(player_mail(house, orders_text(game, house, secrets[house]), n))
        judge(game, "2026-12-01T19:00:00Z")  # spooled, taken, receipts mailed
        moved = run("judge", "--game", str(game), "--extend", "2h", env={"AGOT_NOW": T0})
        assert moved.exit_code == 0, moved.output
    kinds = {name for name, _ in seen}
    assert {"players.yaml", "sent.jsonl", "judge file", "journal", "smtp (a run's mail)"} <= kinds, seen
    free = {key: count for key, count in seen.items() if key[1] != "held"}
    assert not free, f"written while another process could take the game lock: {free}"
    assert len(inbox.received) == len(houses) + len(houses) - 1  # each run's mail, receipts


def test_the_judge_waits_for_a_moderator_holding_the_lock(tmp_path, smtp, monkeypatch):  # noqa: F811
    """While another process holds the game lock (an `agot send` of the moderator, say), a pass
    writes nothing: it waits, then gives up with exit 2; the next pass does the work once."""
    inbox, port = smtp
    game, _, houses = new_game(tmp_path)
    mailbox.Maildir(tmp_path / "Maildir", create=True)
    settings(game, port, maildir=str(tmp_path / "Maildir"),
             deadlines={"orders": {"period": "24h"}})
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()\n",
         str(game / LOCK_FILE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        monkeypatch.setenv("AGOT_LOCK_WAIT", "0.3")
        result = judge(game, T0, code=2)
        assert "another agot run is writing this game directory" in result.output
        assert not inbox.received and not (game / "judge" / "journal.jsonl").exists()
    finally:
        holder.communicate("")
    judge(game, T0)
    assert sorted(r for (r,), _ in inbox.received) == sorted(f"{h}@example.org" for h in houses)
