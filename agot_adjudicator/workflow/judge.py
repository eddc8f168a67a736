"""``agot judge``: one unattended pass of a play-by-mail game (docs/protocol.md P9).

A pass does, in this order, what a moderator does between two runs:

1. **Mail out first.** Any house message of a run that is not yet recorded as sent
   (``round-NN/mail/sent.jsonl``) goes out: a run killed before its mail went out is finished,
   and no run replaces a stop's mail before it was sent.
2. **Fetch.** Every new message of the mail source — an IMAP mailbox (UID above the last one
   taken, ``judge/state.json``) or a Maildir folder (``new/`` and unseen ``cur/`` entries) — is
   copied into ``GAME/judge/spool/`` (atomically, then the UID is recorded, then it is marked
   seen), so that a message is taken exactly once whatever is killed when.
3. **Intake.** Each spooled message goes through ``agot inbox``
   (:func:`~agot_adjudicator.workflow.inbox.receive`); a spooled message whose bytes the index
   already holds was taken by a killed pass and is only removed from the spool.
4. **Receipts.** Each message taken is answered with its receipt, to its sender when that is
   a house's registered address (an unknown address is never answered: the moderator is told).
5. **Runs.** The round is run (:func:`~agot_adjudicator.workflow.record.run_game_round`) when
   it has not been run yet, when no house owes anything at its stop, or when the stop's deadline
   and grace have passed and the deadline's end is ``defaults`` (``--nmr`` for exactly the houses
   that still owe, recorded in the ledger, RUL-P2-2); its mail goes out at once, each message
   with the next deadline. A run never repeats with the same submissions.
6. **Reminders.** A house that still owes something gets one reminder a set time before the
   deadline and one late notice after it.

Every mail the judge sends is recorded after it is sent (at least once: a pass killed between
the two sends that mail again, with the same Message-ID). Passes are serialised by
``GAME/judge/.lock``. Every write to the game directory is under the game lock, as every
command's: the commands it calls take it themselves, and the judge takes it for each of its
own writes (:func:`~agot_adjudicator.io.judge_mail._fs`, ``players.yaml``) and for the whole
mail out (``sent.jsonl`` read, mail sent, line appended), so that ``agot send``, ``agot
inbox``, ``agot adjudicate`` or ``agot players`` run by the moderator at the same time wait.
The current stop's deadline has one home, ``players.yaml`` (``agot status`` reads it there);
it has passed only once the clock is later (:func:`~agot_adjudicator.io.clock.past`).
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import AgotError, InputError, JudgeFailed, Problem, UsageError
from agot_adjudicator.io import judge_mail
from agot_adjudicator.io.clock import parse_utc, past, utc_text
from agot_adjudicator.io.gamedir import round_dirs
from agot_adjudicator.io.judge_mail import (
    JUDGE_DIR,
    SPOOL,
    Journal,
    Mailer,
    fetch_imap,
    fetch_maildir,
    pass_lock,
    read_state,
    text_mail,
    with_note,
    write_state,
)
from agot_adjudicator.io.judge_settings import (
    CONFIG_FILE,
    JudgeConfig,
    clock,
    password_of,
    period_of,
    read_config,
)
from agot_adjudicator.io.ledger import LEDGER
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.mail import MAX_MESSAGE_BYTES
from agot_adjudicator.io.messages import Index
from agot_adjudicator.io.players import (
    Players,
    house_of_address,
    players_path,
    read_players,
    write_players,
)
from agot_adjudicator.io.safefile import MAX_BYTES, ReadRefused, read_bounded
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.i18n import language_of_tag
from agot_adjudicator.render.language import Names, tr
from agot_adjudicator.render.mail import MAIL_DIR, MAIL_DOMAIN

MAX_RUNS = 12
"""Runs in one pass at most (a completed round and the next one's first run are two)."""
WESTEROS_SUBJECTS = ("/clash_of_kings/", "/wildlings/", "/mustering/", "/supply/")


# --- one pass --------------------------------------------------------------------------------

@dataclass
class PassResult:
    """What one pass did (printed as the judge's log lines)."""

    lines: list[str] = field(default_factory=list)
    taken: int = 0
    mailed: int = 0
    runs: int = 0
    failed: list[str] = field(default_factory=list)
    busy: bool = False


def stop_kind(pending: list[dict[str, Any]]) -> str:
    """The stop's kind for its deadline: ``orders`` when it asks orders, ``westeros`` for the
    Westeros phase's bids, musters and losses, else ``decisions`` (battles and the rest)."""
    ids = [str(e.get("id")) for e in pending if not e.get("ahead")]
    if any("/orders/" in i for i in ids):
        return "orders"
    if ids and all(any(s in i for s in WESTEROS_SUBJECTS) for i in ids):
        return "westeros"
    return "decisions"


def fingerprint(game_dir: str) -> str:
    """The current round's submissions and ledger as one hash: a run with the same inputs as
    the last one would stop where it stopped."""
    from agot_adjudicator.io.gamedir import current_round

    rd = current_round(game_dir)
    h = hashlib.sha256(rd.name.encode())
    for path in [*rd.orders(), rd.path / LEDGER]:  # every submission file the run reads
        if path.is_file():
            try:  # read as the run reads it (bounded); one it refuses counts by its reason
                data = read_bounded(path, MAX_BYTES, root=game_dir)
            except ReadRefused as exc:
                data = exc.reason.encode()
            h.update(path.name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


class Judge:
    """One pass over one game directory (see the module docstring)."""

    def __init__(self, game_dir: str, ruleset: Ruleset, config: JudgeConfig,
                 now: datetime.datetime, lang: str = "en") -> None:
        self.game_dir, self.ruleset, self.config, self.now, self.lang = (
            game_dir, ruleset, config, now, lang)
        self.root = Path(game_dir)
        self.folder = self.root / JUDGE_DIR
        self.out = PassResult()
        self.players: Players = read_players(game_dir)
        self.state: dict[str, Any] = {}
        self.journal: Journal | None = None
        self.mailer: Mailer | None = None
        self.game_id: str | None = None

    def log(self, line: str) -> None:
        self.out.lines.append(line)

    def run(self) -> PassResult:
        (self.folder / SPOOL).mkdir(parents=True, exist_ok=True)
        with pass_lock(self.folder) as held:
            if not held:
                self.out.busy = True
                self.log("another judge pass is running; this one did nothing")
                return self.out
            self.state = read_state(self.folder)
            self.journal = Journal(self.folder)
            smtp_password = password_of(self.config.smtp, self.game_dir, "smtp")
            self.mailer = Mailer(self.config.smtp, smtp_password, self.config.sender)
            try:
                self._pass()
            finally:
                self.mailer.close()
        return self.out

    def _pass(self) -> None:
        repaired = finish_commit(self.game_dir)  # under the game lock, as every commit
        if repaired is not None:
            self.log(f"finished an interrupted commit ({repaired})")
        if "first_round" not in self.state:
            rounds = round_dirs(self.game_dir)
            self.state["first_round"] = rounds[-1].number if rounds else 1
            write_state(self.folder, self.state)
        if not self._mail_out():
            return
        try:
            self._fetch()
        except JudgeFailed as exc:
            self._failed(str(exc))
        self._intake()
        if not self._receipts():
            return
        if self.config.paused or self.state.get("paused"):
            self.log("paused: no round is run and no deadline applies (`agot judge --resume` "
                     "or judge.yaml paused: false)")
            return
        for _ in range(MAX_RUNS):
            try:
                ran = self._maybe_run()
            except InputError as exc:  # the record refuses the run: the moderator's turn
                self._moderator_told("the round cannot be run: " + "; ".join(
                    str(p) for p in exc.problems))
                return
            except AgotError as exc:
                self._moderator_told(f"the round cannot be run: {exc}")
                return
            if not ran:
                break
            if not self._mail_out():
                return
        self._deadline_mail()

    def _failed(self, why: str) -> None:
        self.out.failed.append(why)
        self.log(f"FAILED: {why}")
        assert self.journal is not None
        self.journal.add({"time": utc_text(self.now), "event": "failed", "text": why})

    def _moderator_told(self, why: str) -> None:
        """A failure that needs a person: logged, and mailed once to the moderator."""
        self._failed(why)
        if self.config.moderator:
            key = "failed:" + hashlib.sha256(why.encode()).hexdigest()[:16]
            assert self.journal is not None
            if not self.journal.done(key):
                msg = text_mail("agot judge: a pass needs you", why + "\n",
                                self._msg_id(key.replace(":", "-")))
                self._send(msg, self.config.moderator, key, {})

    # -- fetch and intake --

    def _fetch(self) -> None:
        spool = self.folder / SPOOL
        if self.config.imap is not None:
            password = password_of(self.config.imap, self.game_dir, "imap")
            got = fetch_imap(self.config.imap, password, self.folder, self.state, self.log)
        else:
            assert self.config.maildir is not None
            path = Path(self.config.maildir)
            got = fetch_maildir(path if path.is_absolute() else self.root / path, self.folder)
        if got:
            self.log(f"fetched {got} message(s) into {spool.relative_to(self.root)}")

    def _intake(self) -> None:
        from agot_adjudicator.workflow.inbox import receive

        assert self.journal is not None
        spool = sorted((self.folder / SPOOL).glob("*.eml"))
        for path in spool:
            try:  # as the intake reads it: a spooled message over the limit is refused there
                raw = read_bounded(path, MAX_MESSAGE_BYTES)
            except ReadRefused as exc:
                raw = exc.reason.encode()
            digest = hashlib.sha256(raw).hexdigest()
            known = self._entry_of(digest)
            if known is None:
                outcome = receive(self.game_dir, [str(path)], self.ruleset, self.now,
                                  lang=self.lang)[0]
                number, verdict, house = outcome.number, outcome.verdict, outcome.house
                self.log(f"took message {number} ({path.name}): {verdict}"
                         + (f", {house}" if house else ""))
                self.out.taken += 1
            else:
                number = int(known["n"])
            key = f"taken:{digest}"
            if not self.journal.done(key):
                self.journal.add({"time": utc_text(self.now), "event": "taken", "key": key,
                                  "n": number, "spool": path.name})
            judge_mail._fs("unlink", path)

    def _entry_of(self, digest: str) -> dict[str, Any] | None:
        for entry in Index.read(self.game_dir).entries:
            if entry.get("sha256") == digest:
                return entry
        return None

    # -- receipts --

    def _house_of_address(self, address: str | None) -> str | None:
        return house_of_address(self.players, address)

    def _receipts(self) -> bool:
        assert self.journal is not None and self.mailer is not None
        taken = [e for e in self.journal.entries if e.get("event") == "taken"]
        entries = {e.get("n"): e for e in Index.read(self.game_dir).entries}
        for t in taken:
            n = t.get("n")
            entry = entries.get(n)
            key = f"receipt:{n}"
            if entry is None or self.journal.done(key) or self.journal.done(f"unknown:{n}"):
                continue
            sender = entry.get("from")
            house = self._house_of_address(sender)
            if house is None:
                self._unknown(entry)
                continue
            try:
                receipt = read_bounded(self.root / "messages" / str(entry.get("receipt")),
                                       root=self.root).decode("utf-8", "replace")
            except ReadRefused as exc:
                self._failed(f"message {n}: its receipt cannot be read: {exc}")
                continue
            with self._speaking(house):
                subject = tr("agot: receipt for your message {number}", number=n)
            msg = text_mail(subject, receipt, self._msg_id(f"receipt-{n}"),
                            entry.get("message_id"))
            if not self._send(msg, str(sender), key, {"n": n, "house": house}):
                return False
            self.log(f"mailed the receipt of message {n} to {house}")
        return True

    def _unknown(self, entry: dict[str, Any]) -> None:
        """A message from an address no house has: kept by the intake, never answered; the
        moderator is told (when judge.yaml names one)."""
        assert self.journal is not None
        n = entry.get("n")
        text = (f"message {n} from {entry.get('from')} ({entry.get('verdict')}): not a player's "
                f"address; kept as messages/{entry.get('file')}, not answered")
        self.log(text)
        if self.config.moderator:
            msg = text_mail(f"agot judge: message {n} from an unknown address", text + "\n",
                            self._msg_id(f"unknown-{n}"))
            if not self._send(msg, self.config.moderator, f"unknown:{n}", {"n": n}):
                return
        else:
            self.journal.add({"time": utc_text(self.now), "event": "unknown",
                              "key": f"unknown:{n}", "n": n})

    def _msg_id(self, what: str) -> str:
        """A Message-ID of the judge's own mail: the same mail, the same id."""
        if self.game_id is None:
            from agot_adjudicator.workflow.standing import standing

            self.game_id = re.sub(r"[^A-Za-z0-9.-]", "-",
                                  standing(self.game_dir, self.ruleset).state.game_id)
        return f"<{what}.{self.game_id}@{MAIL_DOMAIN}>"

    def _send(self, msg: EmailMessage, to: str, key: str, more: dict[str, Any]) -> bool:
        """Send and record (at least once); False when SMTP failed (the pass stops there)."""
        assert self.journal is not None and self.mailer is not None
        try:
            self.mailer.send(msg, to, self.now)
        except JudgeFailed as exc:
            self._failed(str(exc))
            return False
        self.journal.add({"time": utc_text(self.now), "event": "mailed", "key": key, "to": to,
                          "message_id": str(msg["Message-ID"]).strip(), **more})
        self.out.mailed += 1
        return True

    def _language(self, house: str | None) -> str:
        """The language of ``house``'s mail: its own (players.yaml), else the game's."""
        settings = self.players.houses.get(house) if house else None
        return language_of_tag(settings.language) if settings and settings.language else self.lang

    @contextmanager
    def _speaking(self, house: str | None) -> Iterator[None]:
        with Names(self.ruleset, self._language(house)).speaking():
            yield

    # -- runs --

    def _maybe_run(self) -> bool:
        """Run the round once if it can go on (see the module docstring); True if it ran."""
        from agot_adjudicator.workflow.adjudicate import RunOptions
        from agot_adjudicator.workflow.record import run_game_round
        from agot_adjudicator.workflow.status import game_status

        status = game_status(self.game_dir, self.ruleset, self.now)
        if status.stage == "ended":
            return False
        from agot_adjudicator.workflow.standing import standing

        stand = standing(self.game_dir, self.ruleset)
        owing = [h.house for h in status.houses if h.owes]
        stop = self._stop(stand)
        nmr: tuple[str, ...] = ()
        if stand.ledger.runs == 0 and not stand.stopped:
            why = "the round has not been run"
        elif not owing:
            why = "every house has sent what the stop asks"
        else:
            rule = self.config.deadlines.get(stop["kind"])
            deadline = parse_utc(stop["deadline"]) if stop.get("deadline") else None
            if rule is None or deadline is None or rule.then != "defaults" \
                    or not past(deadline + rule.grace, self.now):
                return False
            nmr = tuple(owing)
            why = f"the deadline {stop['deadline']} has passed: defaults for {', '.join(owing)}"
        mark = fingerprint(self.game_dir)
        if not nmr and self.state.get("ran_with") == mark:
            return False  # the same inputs would stop the same way: wait for mail
        done = run_game_round(self.game_dir, self.ruleset, RunOptions(nmr=nmr), lang=self.lang)
        self.out.runs += 1
        if done.repaired is not None:
            self.log(f"finished an interrupted commit ({done.repaired})")
            return True
        assert done.game is not None
        result = done.game.run.result
        # a stop is not run again with the same inputs; a completed round's next one is new
        self.state["ran_with"] = (fingerprint(self.game_dir) if result.status != "complete"
                                  else None)
        write_state(self.folder, self.state)
        assert self.journal is not None
        self.journal.add({"time": utc_text(self.now), "event": "run",
                          "round": stand.state.round, "run": stand.ledger.runs + 1,
                          "status": result.status, "nmr": list(nmr)})
        self.log(f"ran round {stand.state.round} ({why}): "
                 + ("complete" if result.status == "complete" else
                    f"stopped on {len([p for p in result.pending if not p.ahead])} decision(s)"))
        return True

    def _stop(self, stand: Any) -> dict[str, Any]:
        """The current stop (round, run, kind, since in ``judge/state.json``) with its deadline
        from its one home, ``players.yaml``; a stop not seen before starts its deadline now,
        written there (for ``agot status`` too) before the stop is recorded as seen."""
        key = [stand.state.round, stand.ledger.runs]
        stop = self.state.get("stop") or {}
        if stop.get("key") != key:
            kind = stop_kind(stand.pending) if stand.stopped else "orders"
            rule = self.config.deadlines.get(kind)
            deadline = utc_text(self.now + rule.period) if rule is not None else None
            with game_lock(self.game_dir, reentrant=True):
                # read again: a run of this pass may have recorded the game's language in it,
                # and `agot players` may have changed it since the pass began
                self.players = read_players(self.game_dir)
                if self.players.deadline != deadline and (
                        deadline or players_path(self.game_dir).is_file()):
                    self.players = replace(self.players, deadline=deadline)
                    write_players(self.game_dir, self.players)
                stop = {"key": key, "kind": kind, "since": utc_text(self.now)}
                self.state["stop"] = stop
                write_state(self.folder, self.state)
        return {**stop, "deadline": self.players.deadline}

    # -- mail of the runs --

    def _note(self, house: str) -> str | None:
        """The deadline line of a house's mail (None without a deadline)."""
        from agot_adjudicator.workflow.standing import standing

        stand = standing(self.game_dir, self.ruleset)
        if not stand.stopped:
            return None
        stop = self._stop(stand)
        if not stop.get("deadline"):
            return None
        rule = self.config.deadlines.get(stop["kind"])
        when = _spoken_time(parse_utc(stop["deadline"]),  # type: ignore[arg-type]
                            self._language(house))
        with self._speaking(house):
            if rule is not None and rule.then == "wait":
                return tr("Deadline: answers to this mail are due by {when} (UTC).", when=when)
            return tr("Deadline: answers to this mail are due by {when} (UTC); after that the "
                      "documented defaults apply to what is still owed.", when=when)

    def _mail_out(self) -> bool:
        """Send every house message of the rounds since the judge began that is not recorded as
        sent (``agot send``'s journal); False when SMTP failed. Under the game lock from the
        reading of ``sent.jsonl`` to the last line appended: ``agot send`` run at the same time
        waits, and no message goes twice."""
        with game_lock(self.game_dir, reentrant=True):
            return self._mail_out_locked()

    def _mail_out_locked(self) -> bool:
        from agot_adjudicator.workflow.send import (
            SENT_FILE,
            load_message,
            message_id,
            record_sent,
            sent_states,
        )

        assert self.mailer is not None
        first = int(self.state.get("first_round", 1))
        rounds = round_dirs(self.game_dir)
        for rd in rounds:
            folder = rd.path / MAIL_DIR
            if rd.number < first or not folder.is_dir():
                continue
            sent = sent_states(folder / SENT_FILE)
            for path in sorted(folder.glob("*.eml")):
                house = path.stem
                settings = self.players.houses.get(house)
                if settings is None or not settings.address:
                    key = f"noaddress:{rd.name}:{house}"
                    if self.journal is not None and not self.journal.done(key):
                        self.log(f"{rd.name}: {house} has no address in players.yaml; its mail "
                                 "is not sent")
                        self.journal.add({"time": utc_text(self.now), "event": "noaddress",
                                          "key": key})
                    continue
                msg = load_message(path, self.root)
                msg_id = message_id(msg)
                if sent.get((msg_id, settings.address)) == "sent":
                    continue  # else never sent, refused, or maybe sent: again (RUL-P9-4)
                note = self._note(house) if rd.path == rounds[-1].path else None
                if note:
                    with_note(msg, note)
                try:
                    self.mailer.send(msg, settings.address, self.now)
                except JudgeFailed as exc:
                    self._failed(str(exc))
                    return False
                record_sent(folder / SENT_FILE, {"time": utc_text(self.now), "house": house,
                                                 "to": settings.address, "message_id": msg_id,
                                                 "state": "sent"})
                self.out.mailed += 1
                self.log(f"mailed {rd.name}/{MAIL_DIR}/{house}.eml to {house}")
        return True

    # -- reminders and late notices --

    def _deadline_mail(self) -> None:
        from agot_adjudicator.workflow.standing import standing
        from agot_adjudicator.workflow.status import game_status

        stand = standing(self.game_dir, self.ruleset)
        if not stand.stopped:
            return
        stop = self._stop(stand)
        deadline = parse_utc(stop["deadline"]) if stop.get("deadline") else None
        if deadline is None:
            return
        status = game_status(self.game_dir, self.ruleset, self.now)
        rule = self.config.deadlines.get(stop["kind"])
        key_stop = f"{stop['key'][0]}.{stop['key'][1]}"
        for h in status.houses:
            if not h.owes:
                continue
            ids = ", ".join(o.id for o in h.owes)
            when = _spoken_time(deadline, self._language(h.house))
            moved = [e for e in self.journal.entries if e.get("event") == "extended"
                     and e.get("deadline") == stop["deadline"]] if self.journal else []
            if moved and not past(deadline, self.now):
                key = f"moved:{key_stop}:{stop['deadline']}:{h.house}"
                address = self.players.houses.get(h.house)
                if self.journal is not None and not self.journal.done(key) and address \
                        and address.address:
                    with self._speaking(h.house):
                        subject = tr("agot: deadline moved: round {round}",
                                     round=stand.state.round)
                        body = tr("The deadline of this stop has been moved to {when} (UTC). "
                                  "Still asked of you: {ids}.", when=when, ids=ids)
                    msg = text_mail(subject, body + "\n",
                                    self._msg_id(f"moved-{key_stop}-{deadline:%Y%m%d%H%M}-"
                                                 f"{h.house}"))
                    if not self._send(msg, address.address, key, {"house": h.house}):
                        return
                    self.log(f"mailed the new deadline to {h.house}")
            if past(deadline, self.now):
                kind = "late"
                with self._speaking(h.house):
                    subject = tr("agot: late: round {round}", round=stand.state.round)
                    if rule is not None and rule.then == "defaults":
                        body = tr("The deadline {when} (UTC) has passed and the judge has not "
                                  "received what it asked of you: {ids}. The documented "
                                  "defaults apply at the next run.", when=when, ids=ids)
                    else:
                        body = tr("The deadline {when} (UTC) has passed and the judge has not "
                                  "received what it asked of you: {ids}. The game waits for "
                                  "you: answer as soon as you can.", when=when, ids=ids)
            elif self.config.reminder is not None and self.now >= deadline - self.config.reminder:
                kind = "reminder"
                with self._speaking(h.house):
                    subject = tr("agot: reminder: round {round}", round=stand.state.round)
                    body = tr("A reminder: the judge still needs from you {ids}, due by {when} "
                              "(UTC). Reply to your last mail with your answers.", when=when,
                              ids=ids)
            else:
                continue
            key = f"{kind}:{key_stop}:{h.house}"
            address = self.players.houses.get(h.house)
            if self.journal is None or self.journal.done(key) or address is None \
                    or not address.address:
                continue
            msg = text_mail(subject, body + "\n", self._msg_id(f"{kind}-{key_stop}-{h.house}"))
            if not self._send(msg, address.address, key, {"house": h.house}):
                return
            self.log(f"mailed a {kind} notice to {h.house}")


def _spoken_time(when: datetime.datetime, language: str = "en") -> str:
    """A deadline as people read it (UTC), in ``language``: ``Thu 3 Dec 2026 18:00``,
    ``2026年12月3日（周四）18:00``, ``2026年12月3日（週四）18:00``.

    >>> _spoken_time(datetime.datetime(2026, 12, 3, 18, 0, tzinfo=datetime.UTC))
    'Thu 3 Dec 2026 18:00'
    >>> _spoken_time(datetime.datetime(2026, 12, 6, 9, 5, tzinfo=datetime.UTC), "zh-Hant")
    '2026年12月6日（週日）09:05'
    """
    w = when.astimezone(datetime.UTC)
    if language in ("zh-Hans", "zh-Hant"):
        week = "周" if language == "zh-Hans" else "週"
        return f"{w.year}年{w.month}月{w.day}日（{week}{'一二三四五六日'[w.weekday()]}）{w:%H:%M}"
    days = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    return f"{days[w.weekday()]} {w.day} {months[w.month - 1]} {w.year} {w:%H:%M}"


def control(game_dir: str, ruleset: Ruleset, now: datetime.datetime, *, pause: bool = False,
            resume: bool = False, extend: str | None = None) -> list[str]:
    """The moderator's controls, each recorded in the journal: pause and resume the judge's
    runs and deadlines, or move the current stop's deadline later by ``extend`` (``12h``).
    Nothing is mailed here: the next pass mails each house still owing the new deadline."""
    read_config(game_dir)
    by = period_of(extend, "--extend") if extend is not None else None
    folder = Path(game_dir) / JUDGE_DIR
    (folder / SPOOL).mkdir(parents=True, exist_ok=True)
    lines = []
    with pass_lock(folder) as held:
        if not held:
            raise UsageError(f"{game_dir}: a judge pass is running; try again when it ends")
        with game_lock(game_dir):  # players.yaml is also written by agot players
            state = read_state(folder)
            journal = Journal(folder)
            if pause or resume:
                state["paused"] = bool(pause)
                write_state(folder, state)
                journal.add({"time": utc_text(now), "event": "paused" if pause else "resumed"})
                lines.append("paused: passes take and answer mail, run nothing and apply no "
                             "deadline" if pause else
                             "resumed: the next pass runs the round when it can go on")
            if by is not None:
                lines.append(_extend(game_dir, ruleset, now, state, journal, str(extend), by))
    return lines


def _extend(game_dir: str, ruleset: Ruleset, now: datetime.datetime, state: dict[str, Any],
            journal: Journal, extend: str, by: datetime.timedelta) -> str:
    """Move the current stop's deadline (its one home, ``players.yaml``) later by ``by``."""
    from agot_adjudicator.workflow.standing import standing

    stand = standing(game_dir, ruleset)
    stop = state.get("stop") or {}
    players = read_players(game_dir)
    later = parse_utc(players.deadline) if players.deadline else None
    if not stand.stopped or stop.get("key") != [stand.state.round, stand.ledger.runs] \
            or later is None:
        raise UsageError(f"{game_dir}: the round is not stopped on a deadline the judge set; "
                         "nothing to extend")
    deadline = utc_text(later + by)
    write_players(game_dir, replace(players, deadline=deadline))
    journal.add({"time": utc_text(now), "event": "extended", "by": extend, "deadline": deadline,
                 "key": f"extended:{stop['key'][0]}.{stop['key'][1]}:{deadline}"})
    return (f"deadline of round {stand.state.round}'s stop moved to {deadline}; the next pass "
            "mails it to each house still owing")


def finish_commit(game_dir: str) -> str | None:
    """Finish a round commit a killed run left (before anything reads the board)."""
    from agot_adjudicator.io.commit import recover
    from agot_adjudicator.io.lock import game_lock

    if not Path(game_dir).is_dir():
        return None
    with game_lock(game_dir):
        return recover(game_dir)


def judge_pass(game_dir: str, ruleset: Ruleset, now: datetime.datetime,
               lang: str = "en") -> PassResult:
    """One pass over ``game_dir`` (see the module docstring); raises :class:`JudgeFailed`
    (exit 2) after the pass when a part of it failed."""
    if not Path(game_dir).is_dir():
        round_dirs(game_dir)  # the usual "not a game directory" error
    config = read_config(game_dir)
    return Judge(game_dir, ruleset, config, now, lang).run()


__all__ = ["CONFIG_FILE", "JudgeConfig", "JudgeFailed", "PassResult", "Problem", "clock",
           "control", "finish_commit", "judge_pass", "read_config"]
