"""``agot inbox``: players' messages in, each kept, checked, merged and answered with a receipt.

For each message (docs/protocol.md P8), under the game lock:

1. keep it as received: ``GAME/messages/NNNN-SHA8.eml`` (``.txt`` for plain text), a line in
   ``GAME/messages/index.jsonl`` (:mod:`agot_adjudicator.io.messages`) and its receipt
   ``NNNN-SHA8.receipt.txt``: nothing a player sent is lost. A message received before (the
   same bytes, or the same Message-ID from the same sender) is not kept again;
2. find its one submission (:mod:`agot_adjudicator.io.mail`) and read it as a file is read;
3. check who sent it (:mod:`agot_adjudicator.io.players`) and turn display names into ids
   (:mod:`agot_adjudicator.io.names`); check the schema;
4. merge it into the house's stored submission part by part (:mod:`agot_adjudicator.io.parts`,
   RUL-P8-3): it replaces the parts it carries and removes those it withdraws, except a part
   a committed run already used (it stands, RUL-P8-7) and a part a newer message gave (a
   message counts from its ``Date:``, never later than its receipt);
5. check the merged submission with the one verdict every command gives
   (:func:`~agot_adjudicator.workflow.standing.verdict`) and store it, in id form without its
   secret, as ``round-NN/orders/HOUSE.yaml``, with the parts the message changed in
   ``round-NN/received/NNNN-HOUSE.yaml`` (replay merges them again).

Verdicts: ``accepted``; ``refused`` (not from the house it names, or every part it carries
stands already); ``invalid`` (understood, but the verdict refuses it: nothing stored);
``malformed`` (unreadable, no submission, two submissions, not YAML, schema); ``duplicate``
(received before: nothing changed).
"""

from __future__ import annotations

import datetime
import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, Problem, UsageError
from agot_adjudicator.io.clock import utc_text
from agot_adjudicator.io.hints import joined
from agot_adjudicator.io.ledger import Entry
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.mail import Message, gather, read_message
from agot_adjudicator.io.mailbody import shown as printable
from agot_adjudicator.io.mailsecret import without_secret, without_secret_text
from agot_adjudicator.io.messages import MESSAGES, Index, stored_sha256
from agot_adjudicator.io.names import Renamed, ids_from_names
from agot_adjudicator.io.parts import merged, part_path, parts_of, submission
from agot_adjudicator.io.players import Players, read_players, secret_matches
from agot_adjudicator.io.reading import Document, load_yaml, parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.stored import (
    AHEAD,
    merge_received,
    received_files,
    received_path,
    received_text,
    stored_text,
)
from agot_adjudicator.io.submissions import HouseSection, Source, plan_problems
from agot_adjudicator.io.writing import write_atomic, write_private
from agot_adjudicator.model.naming import NameIndex, name_index
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.text import N_, Msg
from agot_adjudicator.render.i18n import language_of_tag
from agot_adjudicator.render.language import PHASE_TITLES, Names, speaker, tr
from agot_adjudicator.render.language import house as house_name
from agot_adjudicator.render.receipt import echo_lines, part_words, problem_text, receipt_text
from agot_adjudicator.workflow.mailout import SECRET_PLACEHOLDER
from agot_adjudicator.workflow.standing import (
    Standing,
    closed_parts,
    plan_merge,
    standing,
    verdict,
)
from agot_adjudicator.workflow.validate import read_submissions


@dataclass
class Outcome:
    """What became of one message."""

    number: int
    source: str
    verdict: str
    kept: str | None
    receipt_file: str
    receipt: str
    house: str | None = None
    sender: str | None = None
    stored: str | None = None
    reasons: list[str] = field(default_factory=list)
    refused_parts: dict[str, str] = field(default_factory=dict)
    """Parts of an accepted message that were not taken, and why (they stand)."""

    @property
    def accepted(self) -> bool:
        return self.verdict == "accepted"

    before: str | None = None
    """For a message received before: the verdict it had then."""

    @property
    def whole(self) -> bool:
        """Accepted with every part it carried (a message received before: as it was then)."""
        if self.verdict == "duplicate":
            return self.before == "accepted"
        return self.verdict == "accepted" and not self.refused_parts

    @property
    def why(self) -> str:
        """``verdict: reason; reason`` (a sentence that translates) for a message not accepted."""
        return Msg("{verdict}: {reasons}", verdict=VERDICT_WORDS.get(self.verdict, self.verdict),
                   reasons=joined(self.reasons or list(self.refused_parts.values())))


VERDICT_WORDS = {"accepted": Msg("accepted"), "refused": Msg("refused"),
                 "invalid": Msg("invalid"), "malformed": Msg("malformed"),
                 "duplicate": Msg("received before")}
"""A verdict's word in a sentence (the index and the logic keep the id)."""


def effective_time(message: Message, received: datetime.datetime) -> datetime.datetime:
    """When a message counts from: its ``Date:``, never later than its receipt, so that no
    header a sender writes can make a message newer than it is (RUL-P8-3)."""
    return min(message.date, received) if message.date is not None else received


def receive(game_dir: str, arguments: Sequence[str], ruleset: Ruleset,
            received: datetime.datetime, stdin: bytes | None = None,
            lang: str = "en") -> list[Outcome]:
    """Process the messages ``arguments`` name (see the module docstring), oldest first (each
    counting from :func:`effective_time`), then in argument order. Each receipt is in its
    house's ``players.yaml`` language; ``lang`` for a message whose house is not known."""
    if not Path(game_dir).is_dir():
        raise UsageError(f"{game_dir}: not a game directory (no such directory)")
    with game_lock(game_dir):
        _private_folder(Path(game_dir) / "messages")
        leftovers(game_dir)
        intake = _Intake(game_dir, ruleset, received, lang)
        messages = [read_message(i) for i in gather(arguments, stdin)]
        order = sorted(range(len(messages)),
                       key=lambda k: (effective_time(messages[k], received), k))
        return [intake.process(messages[k]) for k in order]


@dataclass
class _Check:
    verdict: str = "accepted"
    reasons: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    house: str | None = None
    doc: Document | None = None
    """The message's submission, in ids, without its secret (positions as the player wrote it)."""
    renamed: list[Renamed] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    forged: bool = False
    taken: dict[str, Any] = field(default_factory=dict)
    withdrawn: list[str] = field(default_factory=list)
    refused: dict[str, tuple[str, Any]] = field(default_factory=dict)
    """Parts not taken: ``("stands", ledger entry)`` or ``("newer", (time, number))``."""
    same: list[str] = field(default_factory=list)
    """Parts it carried that are already stored with that value (nothing to change)."""
    later: dict[str, Any] = field(default_factory=dict)
    """Westeros plans kept for the next round (this round used its own: RUL-P8-6)."""
    owed: list[dict[str, Any]] = field(default_factory=list)
    merged: dict[str, Any] | None = None
    replaced: list[str] = field(default_factory=list)
    secret: str | None = None
    """The secret the message gave: removed from the kept copy and the receipt."""

    def fail(self, verdict: str, reason: str) -> _Check:
        self.verdict = verdict
        self.reasons.append(reason)
        return self


class _Intake:
    """One run of ``agot inbox``: the round as it stands, the index, the players, read once."""

    def __init__(self, game_dir: str, ruleset: Ruleset, received: datetime.datetime,
                 lang: str) -> None:
        self.game_dir = game_dir
        self.ruleset = ruleset
        self.received = received
        self.lang = lang
        self.stand = standing(game_dir, ruleset)
        self.players = read_players(game_dir)
        self.index = Index.read(game_dir)
        self.names = name_index(ruleset)
        self.redo = False
        self.number = 0
        # the round's stored submissions, each read once per run (issue 33: intake linear in
        # messages); _store forgets the one it rewrites
        self.read: dict[str, tuple[list[Document], list[Problem]]] = {}
        self.parts: dict[str, tuple[dict[str, Any], Document | None]] = {}

    def _is_secret(self, word: bytes) -> bool:
        """Whether ``word`` is a house's secret (players.yaml's salted hashes)."""
        try:
            text = word.decode("ascii")
        except UnicodeDecodeError:
            return False
        return any(secret_matches(s, text) for s in self.players.houses.values()
                   if s.secret_sha256)

    def _secret_test(self) -> Callable[[bytes], bool] | None:
        """:meth:`_is_secret`, or None in a game that keeps no secrets (nothing to test)."""
        return self._is_secret if any(s.secret_sha256 for s in self.players.houses.values()) \
            else None

    def _hide(self, text: str, secret: str | None) -> str:
        """``text`` (a receipt, a reason) with no secret in it, by the rules of the kept copy
        (:func:`~agot_adjudicator.io.mailsecret.without_secret_text`): a written secret's
        value, the message's secret and any house's secret (a stray line, a Subject may quote
        one): printed and kept, never a secret."""
        return without_secret_text(text, secret, self._secret_test())

    def process(self, message: Message) -> Outcome:
        raw = message.incoming.raw
        digest = hashlib.sha256(raw).hexdigest() if raw is not None else None
        self.redo = digest is not None and digest[:8] in self.index.orphans
        number = self.index.next_number(digest)
        self.number = number
        stem = f"{number:04d}-{digest[:8]}" if digest else f"{number:04d}-unreadable"
        before = self.index.duplicate_of(digest, message.message_id, message.sender)
        kept = None
        if before is not None:
            check = _Check(house=before.get("house")).fail(
                "duplicate", Msg("message {number} (received {when}) is this one: nothing "
                                 "changed", number=before["n"], when=before.get("received")))
        else:
            check = self._check(message, number)
            if raw is not None:  # kept without its secret, 0600 (issue 27)
                kept = f"{stem}.{'eml' if message.incoming.kind == 'mail' else 'txt'}"
                write_private(self.index.folder / kept,
                              without_secret(raw, check.secret, self._secret_test()))
        house = check.house
        stored = None
        when = effective_time(message, self.received)
        if check.verdict == "accepted" and house is not None and check.merged is not None \
                and (check.taken or check.withdrawn or check.later):
            stored = self._store(number, kept, digest, house, check)
        settings = self.players.houses.get(house) if house is not None else None
        tag = settings.language if settings is not None else None
        with Names(self.ruleset, language_of_tag(tag) if tag else self.lang).speaking():
            receipt = _receipt(number, kept, digest, self.received, message, check, self.stand,
                               self.names, stored)
        receipt_file = f"{stem}.receipt.txt"
        receipt = self._hide(receipt, check.secret)
        check.reasons = [self._hide(r, check.secret) for r in check.reasons]
        write_private(self.index.folder / receipt_file, receipt.encode("utf-8"))
        self.index.append({
            "n": number, "file": kept or (before or {}).get("file"), "receipt": receipt_file,
            "sha256": digest, "received": utc_text(self.received), "effective": utc_text(when),
            "source": message.incoming.name, "from": message.sender,
            "date": utc_text(message.date) if message.date else None,
            "message_id": message.message_id, "house": house, "verdict": check.verdict,
            "reason": "; ".join(check.reasons) or None, "forged": check.forged or None,
            "round": self.stand.state.round, "stored": stored,
            "stored_sha256": stored_sha256(self.stand.house_file(house)) if stored and house
            else None,
            "taken": list(check.taken) or None, "withdrawn": check.withdrawn or None,
            "ahead": list(check.later) or None,
            "refused": {p: refusal(p, why, self.stand.state.round, self.names)
                        for p, why in check.refused.items()} or None,
            "duplicate_of": before["n"] if before is not None else None})
        return Outcome(number, message.incoming.name, check.verdict, kept, receipt_file,
                       receipt, house, message.sender, stored, check.reasons,
                       {p: refusal(p, why, self.stand.state.round, self.names)
                        for p, why in check.refused.items()},
                       before.get("verdict") if before is not None else None)

    def _store(self, number: int, kept: str | None, digest: str | None, house: str,
               check: _Check) -> str:
        """Write the parts the message changed and the house's merged submission; refresh the
        round as it stands (the next message is checked against it)."""
        assert check.merged is not None
        rd = self.stand.rd
        round_number = self.stand.state.round
        where = (f"from {MESSAGES}/{kept} (sha256 {digest}), received "
                 f"{utc_text(self.received)}") if kept else f"message {number}"
        if check.later:  # for the next round's Westeros phase (RUL-P8-6)
            write_atomic(received_path(rd.path, number, house, AHEAD), received_text(
                round_number + 1, house, number, check.later, (), where))
        path = self.stand.house_file(house)
        if check.taken or check.withdrawn:
            write_atomic(received_path(rd.path, number, house), received_text(
                round_number, house, number, check.taken, check.withdrawn, where))
            write_atomic(path, stored_text(round_number, house, check.merged))
        self.read.pop(str(path), None)
        self.parts.pop(house, None)
        self.stand.files = rd.orders()  # the rest of the round stands as it was read
        return str(path.relative_to(Path(self.game_dir)))

    def _check(self, message: Message, number: int) -> _Check:
        check = _Check()
        stand = self.stand
        state = stand.state
        if message.problems or message.found is None:
            for why in message.problems:
                check.fail("malformed", why)
            return check
        if state.phase == "ended":
            return check.fail("refused", Msg("the game has ended: no submission is taken"))
        shown = f"message {number} ({message.found.label})"
        try:
            doc = parse_text(shown, message.found.text)
        except InputError as exc:
            check.problems = list(exc.problems)
            return check.fail("malformed", Msg("the submission is not readable YAML"))
        data = dict(doc.data)
        secret = data.pop("secret", None)
        check.secret = secret if isinstance(secret, str) and secret else None
        withdraw = data.pop("withdraw", None)
        doc = Document(doc.name, data, doc.sha256,
                       {p: v for p, v in doc.positions.items() if p[:1] != ("secret",)},
                       {p: v for p, v in doc.key_positions.items() if p[:1] != ("secret",)})
        doc, check.renamed, name_problems = ids_from_names(doc, self.names)
        data = doc.data
        if "houses" in data:
            return check.fail("refused", Msg("a message submits for one house: give `house:` and "
                                             "that house's orders, bids, plans and answers, "
                                             "not `houses:`"))
        house = data.get("house")
        if not isinstance(house, str):
            return check.fail("refused", Msg("no `house:` line: say which house this submission "
                                             "is for (`house: stark`)"))
        check.house = house
        if house not in state.houses:
            return check.fail("refused", Msg("'{value}' is not a house in play in this game",
                                             value=printable(house, 60)))
        if secret is not None and not isinstance(secret, str):
            return check.fail("refused", Msg("`secret:` must be the text the moderator sent you"))
        not_theirs = _who(message, house, secret, self.players)
        if not_theirs is not None:
            check.forged = _forged(message, house, secret, self.players)
            return check.fail("refused", not_theirs)
        if not any(s.secret_sha256 for s in self.players.houses.values()):
            check.notes.append(Msg("this game keeps no house secrets (no players.yaml, or none in "
                                   "it): anyone may submit for any house; the moderator sets them "
                                   "with `agot players --new-secret`"))
        if name_problems:
            check.problems = name_problems
            return check.fail("invalid", Msg("a name in it stands for nothing on the board or in "
                                             "the rules"))
        if withdraw is not None:
            data = {**data, "withdraw": withdraw}
            doc = Document(doc.name, data, doc.sha256, doc.positions, doc.key_positions)
        found = schema_problems(doc, "orders")
        if found:
            check.problems = found
            return check.fail("malformed", Msg("not the shape of a submission (agot-orders/1)"))
        for answer_id in data.get("answers") or {}:
            if str(answer_id).rsplit("/", 1)[-1] != house:
                return check.fail("refused", Msg("{house} cannot answer {id}: it is another "
                                                 "house's decision (a house answers only its "
                                                 "own)", house=house,
                                                 id=printable(str(answer_id), 80)))
        if data["round"] != state.round:
            check.problems = [doc.problem(["round"], Msg(
                "this submission is for round {round}; the game is at round {now}",
                round=data["round"], now=state.round))]
            return check.fail("invalid", Msg("it is for another round than the game's"))
        data = {k: v for k, v in data.items() if k != "withdraw"}
        check.doc = Document(doc.name, data, doc.sha256, doc.positions, doc.key_positions)
        self._merge(message, check, house, [str(w) for w in withdraw or []])
        if check.verdict != "accepted":
            return check
        return self._judge(check, house)


    def _stored(self, house: str) -> tuple[dict[str, Any], Document | None]:
        """The house's stored parts and the file holding them (None: nothing stored)."""
        if self.redo and received_path(self.stand.rd.path, self.number, house).is_file():
            # a killed run kept this message and stored its parts, not its index line: the
            # message is taken again over what was stored before it (the same files result)
            before = [p for p in received_files(self.stand.rd.path).get(house, [])
                      if not p.name.startswith(f"{self.number:04d}-")]
            return merge_received(before, Path(self.game_dir)), None
        if house not in self.parts:
            self.parts[house] = self._read_stored(house)
        return self.parts[house]

    def _read_stored(self, house: str) -> tuple[dict[str, Any], Document | None]:
        path = self.stand.house_file(house)
        if not path.is_file():
            return {}, None
        try:
            doc = load_yaml(path, f"{self.stand.rd.name}/orders/{path.name}",
                            root=Path(self.game_dir))
        except InputError:
            return {}, None
        return parts_of(doc.data), doc

    def _round_docs(self, house: str) -> tuple[list[Document], list[Problem]]:
        """:func:`~agot_adjudicator.workflow.standing.round_docs` without the house's own file,
        each file read once per run."""
        docs: list[Document] = []
        problems: list[Problem] = []
        for path in self.stand.files:
            if path == self.stand.house_file(house):
                continue
            if str(path) not in self.read:
                self.read[str(path)] = read_submissions([str(path)])
            docs.extend(self.read[str(path)][0])
            problems.extend(self.read[str(path)][1])
        return docs, problems

    def _merge(self, message: Message, check: _Check, house: str, withdraw: list[str]) -> None:
        """Which parts the message changes (RUL-P8-3, RUL-P8-7)."""
        assert check.doc is not None
        stored, _ = self._stored(house)
        plan = plan_merge(stored, parts_of(check.doc.data), withdraw,
                          closed_parts(self.stand.ledger, house),
                          self.index.part_times(self.stand.state.round, house),
                          effective_time(message, self.received))
        check.taken, check.withdrawn, check.refused, check.same, check.later = (
            plan.taken, plan.withdrawn, plan.refused, plan.same, plan.later)
        check.notes.extend(Msg("nothing to withdraw: {part} is not in your stored submission",
                               part=part) for part in plan.absent)
        if plan.unknown:
            check.problems.extend(Problem(check.doc.name, None, None, "$.withdraw", Msg(
                "'{part}' names no part of a submission (orders, bids.TRACK, wildlings, "
                "plans.KEY, answers.ID)", part=part)) for part in plan.unknown)
            check.fail("invalid", Msg("it withdraws something that is not a part"))
            return
        check.replaced = [p for p in check.taken if p in stored]
        check.merged = merged(stored, check.taken, check.withdrawn)
        if check.later:
            ahead = HouseSection(house, plans={part_path(p)[1]: v for p, v in check.later.items()},
                                 sources={p: Source(check.doc, part_path(p)) for p in check.later})
            check.problems.extend(plan_problems(ahead, self.ruleset))
            if check.problems:
                check.fail("invalid", Msg("a plan for the next round names nothing in the rules"))
                return
        if check.refused and not (check.taken or check.withdrawn or check.same or check.later):
            check.fail("refused", Msg("every part it carries stands already"))

    def _judge(self, check: _Check, house: str) -> _Check:
        """The verdict on the house's merged submission: the stored parts it keeps (their file)
        and the parts the message takes (located in the message, as the player wrote it)."""
        assert check.doc is not None and check.merged is not None
        stand = self.stand
        _, stored_doc = self._stored(house)
        keep = {p: v for p, v in check.merged.items() if p not in check.taken}
        docs: list[Document] = []
        head = {"format": "agot-orders/1", "round": stand.state.round, "house": house}
        if keep:
            docs.append(_with_parts(stored_doc, head, keep,
                                    f"{stand.rd.name}/orders/{house}.yaml"))
        if check.taken:
            docs.append(_with_parts(check.doc, head, check.taken, check.doc.name))
        if not docs:
            docs.append(Document(check.doc.name, dict(head), check.doc.sha256,
                                 check.doc.positions, check.doc.key_positions))
        others, problems = self._round_docs(house)
        result = verdict(stand, [*others, *docs], self.ruleset, problems, [check.doc.name])
        names = {d.name for d in docs}
        check.problems = [p for p in result.problems if p.file in names]
        check.warnings = [w for w in result.warnings if w.file in names]
        check.owed = result.owed.get(house, [])
        if check.problems:
            return check.fail("invalid", Msg("`agot validate` refuses it on the board as it stands"))
        if not (check.taken or check.withdrawn):
            check.notes.append(Msg("nothing in it changes your stored submission"))
        return check


def _with_parts(doc: Document | None, head: dict[str, Any], parts: dict[str, Any],
                name: str) -> Document:
    """A document holding ``parts`` (positions from ``doc``, where they were written)."""
    data = submission(head, parts)
    if doc is None:
        return Document(name, data, "", {}, {})
    return Document(name, data, doc.sha256, doc.positions, doc.key_positions)


def refusal(part: str, why: tuple[str, Any], round_number: int, index: NameIndex) -> str:
    """Why a part of a message was not taken, in the current language."""
    if why[0] == "newer":
        return _newer(part, why[1], index)
    return _stands(part, why[1], round_number, index)


def _stands(part: str, entry: Entry, round_number: int, index: NameIndex) -> str:
    """Why a part cannot change: a committed run used it (RUL-P8-7)."""
    if part == "orders":
        return tr("your orders were revealed by run {run} of round {round}: they stand",
                  run=entry.run, round=round_number)
    if part.startswith(("bids.", "wildlings")):
        return tr("your {part} was revealed by run {run} of round {round}: it stands",
                  part=part_words(part, index), run=entry.run, round=round_number)
    if part.startswith("answers."):
        return tr("{id} was already decided by run {run} of round {round} ({how}): it stands",
                  id=entry.id, run=entry.run, round=round_number, how=tr(HOW[entry.by]))
    return tr("your {part} was used for {id} by run {run} of round {round}: it stands; answer "
              "the decisions still to come by their ids", part=part_words(part, index),
              id=entry.id, run=entry.run, round=round_number)


HOW = {"answer": N_("an answer"), "plan": N_("a plan"), "default": N_("the default"),
       "only_option": N_("its only legal option")}
"""How a recorded decision was resolved, in words."""


def _newer(part: str, when: tuple[datetime.datetime, int], index: NameIndex) -> str:
    return tr("your {part}: your message {number} of {time} is newer and stands",
              part=part_words(part, index), number=when[1], time=utc_text(when[0]))


def _who(message: Message, house: str, secret: str | None, players: Players) -> str | None:
    """Why ``message`` is not accepted as ``house``'s (RUL-P8-4), or None. The words never
    name another house nor say anything of its state."""
    settings = players.houses.get(house)
    with_secret = any(s.secret_sha256 for s in players.houses.values())
    if with_secret:
        if settings is None or not settings.secret_sha256:
            return Msg("{house} has no secret in this game's players.yaml: ask the moderator",
                       house=house)
        if secret is None:
            return Msg("no secret: add the line `secret: ...` with {house}'s secret (sent to you "
                       "by the moderator) to the submission", house=house)
        if secret == SECRET_PLACEHOLDER:
            return Msg("the secret line still says {placeholder}: write {house}'s secret (sent "
                       "to you by the moderator) in its place", placeholder=secret, house=house)
        if not secret_matches(settings, secret):
            return Msg("the secret given is not {house}'s: this message is not accepted as "
                       "{house}'s", house=house)
    if settings is not None and settings.address:
        if message.sender is None:
            return Msg("{house} submits from its registered mail address; this message has no "
                       "From address", house=house)
        if message.sender.casefold() != settings.address.casefold():
            return Msg("{house} submits from its registered mail address; this message is from "
                       "{sender}", house=house, sender=message.sender)
    return None


def _forged(message: Message, house: str, secret: str | None, players: Players) -> bool:
    """Whether the sender is known as another house (its secret or its address)."""
    for other, s in players.houses.items():
        if other == house:
            continue
        if isinstance(secret, str) and secret_matches(s, secret):
            return True
        if s.address and message.sender and s.address.casefold() == message.sender.casefold():
            return True
    return False


def owed_lines(stand: Standing, owed: Sequence[dict[str, Any]]) -> list[str]:
    """What a house still owes at the stop, in the current language: each decision's id and
    the prompt as ``pending.yaml`` words it when that is the reader's language, else its kind
    (the house's mail has the question in full)."""
    from agot_adjudicator.render.i18n import recorded_language
    from agot_adjudicator.render.language import decision_kind, lang

    rd = stand.rd
    try:
        written_in = recorded_language(rd.report.read_text(encoding="utf-8")
                                       if rd.report.is_file() else None)
    except (OSError, UnicodeDecodeError):
        written_in = "en"
    out = []
    for entry in owed:
        ident, kind = entry.get("id"), str(entry.get("kind"))
        if kind == "orders" and not stand.stopped:
            out.append(tr("orders for round {round} (planning phase)", round=stand.state.round))
        elif written_in == lang():
            out.append(f"{ident}: {entry.get('prompt', '')}".rstrip(": "))
        else:
            out.append(tr("{decision} ({kind})", decision=ident, kind=decision_kind(kind)))
        if entry.get("reason"):
            out[-1] += f" ({entry['reason']})"
    return out


def _carried(check: _Check, index: NameIndex, refused: list[str]) -> list[str]:
    """The parts a message that was not taken carries, in words, then ``refused`` (the parts
    it could never have changed); none: no section."""
    parts = [*check.replaced, *(p for p in check.taken if p not in check.replaced)]
    return ([tr("your {part}", part=part_words(p, index)) for p in parts]
            + [tr("the withdrawal of your {part}", part=part_words(p, index))
               for p in check.withdrawn] + refused)


def _receipt(number: int, kept: str | None, digest: str | None, received: datetime.datetime,
             message: Message, check: _Check, stand: Standing, index: NameIndex,
             stored: str | None) -> str:
    """The receipt of one message, in the language of the current :class:`Names` (the
    house's ``players.yaml`` language, else the language of the run)."""
    state = stand.state
    head = [tr("agot inbox receipt {number}: message {name}", number=number,
               name=kept or f"{number:04d}"),
            tr("Received: {when}", when=utc_text(received))]
    if digest:
        head.append(f"SHA-256: {digest}")
    if message.sender:
        head.append(tr("From: {sender}", sender=message.sender))
    if message.subject:
        head.append(tr("Subject: {subject}", subject=message.subject))
    verdicts = {"accepted": N_("ACCEPTED"), "invalid": N_("NOT ACCEPTED (invalid)"),
                "refused": N_("REFUSED"), "malformed": N_("NOT ACCEPTED (malformed)"),
                "duplicate": N_("RECEIVED BEFORE")}
    verdict_line = tr("Verdict: {verdict}", verdict=tr(verdicts[check.verdict]))
    if stored:
        verdict_line += tr(": stored as {path}", path=stored)
    elif check.verdict == "accepted":
        verdict_line += tr(": nothing changed")
    elif check.verdict != "duplicate":
        verdict_line += tr(": nothing stored") + (
            tr(" (the house's earlier submission, if any, still counts)")
            if check.verdict == "invalid" else "")
    head.append(verdict_line)
    sections: list[tuple[str, list[str]]] = [
        (tr("Why:"), [str(_say(r)) for r in check.reasons]),
        (tr("Problems:"), [problem_text(p) for p in check.problems])]
    if check.house is None or check.verdict in ("duplicate", "malformed") or (
            check.verdict == "refused" and check.merged is None):
        return receipt_text(head, sections)  # to the sender only: nothing of the game's state
    house = check.house
    chinese = speaker() is not None
    who = house_name(house) if chinese else house
    phase = tr(PHASE_TITLES.get(stand.phase, stand.phase)) if chinese else stand.phase
    head.insert(len(head) - 1, tr("Game: {game}, round {round}, {phase} phase", game=state.game_id,
                                  round=state.round, phase=phase)
                + (tr(" (stopped on pending decisions)") if stand.stopped else ""))
    change = [tr("replaces your {part}", part=part_words(p, index)) for p in check.replaced]
    change += [tr("adds your {part}", part=part_words(p, index)) for p in check.taken
               if p not in check.replaced]
    change += [tr("withdraws your {part}", part=part_words(p, index)) for p in check.withdrawn]
    change += [tr("your {part}: already so, nothing to change", part=part_words(p, index))
               for p in check.same]
    change += [tr("keeps your {part} for round {round}'s Westeros phase (this round's was "
                  "used)", part=part_words(p, index), round=state.round + 1) for p in check.later]
    refused = [tr("not taken: {why}", why=refusal(p, why, state.round, index))
               for p, why in check.refused.items()]
    change += refused
    if check.verdict == "accepted":
        sections.insert(0, (tr("This message:"), change or [tr("nothing (no orders, bids, "
                                                               "plans or answers)")]))
    else:  # what it carries, not what it did: nothing of it is stored
        sections.insert(0, (tr("This message carries (none of it is stored):"),
                            _carried(check, index, refused)))
    if check.verdict == "accepted" and check.merged is not None:
        data = submission({}, check.merged)
        sections.insert(1, (tr("Your submission ({house}) as it stands now, in words:", house=who),
                            echo_lines(data, index) or [tr("nothing (no orders, bids, plans or "
                                                           "answers)")]))
    sections.insert(2, (tr("Names turned into ids:"),
                        [f"{r.written} -> {r.id}" for r in check.renamed]))
    if check.verdict == "accepted":
        sections.append((tr("Check (agot validate on the board as it stands):"),
                         [tr("ok")] + [tr("warning: {warning}", warning=problem_text(w))
                                       for w in check.warnings]))
        sections.append((tr("Still asked of {house}:", house=who),
                         owed_lines(stand, check.owed) or [tr("nothing for now")]))
    sections.append((tr("Notes:"), [str(_say(n)) for n in check.notes]))
    return receipt_text(head, sections)


def _say(text: str) -> str:
    from agot_adjudicator.render.language import say

    return say(text)


def _private_folder(folder: Path) -> None:
    """``folder`` made (or kept) 0700 whatever the umask: kept messages hold what players
    sent (issue 27)."""
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)


def leftovers(game_dir: str | Path) -> list[Path]:
    """Remove the temporary files a killed run left (``.NAME.XXXX.tmp`` beside the kept
    messages, the orders and the received parts) and say which: under the game lock no other
    run is writing them."""
    root = Path(game_dir)
    removed = []
    for folder in [root / MESSAGES, *root.glob("round-*/orders"), *root.glob("round-*/received")]:
        if not folder.is_dir() or folder.is_symlink():
            continue
        for tmp in folder.glob(".*.tmp"):
            if tmp.is_file() and not tmp.is_symlink():
                tmp.unlink(missing_ok=True)
                removed.append(tmp)
    return removed


def inbox_received(game_dir: str | Path, round_number: int, house: str,
                   path: Path) -> datetime.datetime | None:
    """When the last message that changed ``house``'s stored submission for a round was
    received (``GAME/messages/index.jsonl``, P8), or None when none did or the file ``path``
    is no longer what that message stored (edited by hand): :meth:`Index.received_at`."""
    return Index.read(game_dir).received_at(round_number, house, path)
