"""``agot inbox``: players' messages in, each kept, checked, stored and answered with a receipt.

For each message (docs/protocol.md P8), under the game lock:

1. keep it as received: ``GAME/messages/NNNN-SHA8.eml`` (``.txt`` for plain text), a
   line in ``GAME/messages/index.jsonl`` (receive time, SHA-256, sender, house, verdict,
   round, stored file) and its receipt ``NNNN-SHA8.receipt.txt``: nothing a player sent
   is lost, accepted or not;
2. find its one submission (:mod:`agot_adjudicator.io.mail`) and read it as a file is read
   (safe YAML, size limits, located errors);
3. check who sent it (:mod:`agot_adjudicator.io.players`): the house's secret (when the
   game has secrets), its registered From address (when registered), a ``house:`` that is
   the sender's own, answers only to the house's own decisions;
4. turn display names into ids (:mod:`agot_adjudicator.io.names`), check the schema, then
   run ``validate`` on the board as it stands (:func:`~agot_adjudicator.workflow.validate.validate_docs`);
5. store an accepted submission, in id form without its secret, as the house's file
   ``round-NN/orders/HOUSE.yaml``; a later accepted message of the house replaces it
   (the latest counts, in the order messages are processed: RUL-P8-3).

Verdicts: ``accepted``; ``refused`` (not from the house it names); ``invalid``
(understood, but ``validate`` refuses it: nothing stored, the house's earlier file
stays); ``malformed`` (unreadable, no submission, two submissions, not YAML, schema).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, Problem, UsageError
from agot_adjudicator.io.clock import parse_utc, utc_text
from agot_adjudicator.io.gamedir import RoundDir, board_now
from agot_adjudicator.io.hints import joined
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.mail import Message, gather, read_message
from agot_adjudicator.io.names import Renamed, ids_from_names
from agot_adjudicator.io.players import Players, read_players, secret_matches
from agot_adjudicator.io.reading import Document, load_yaml, parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.io.writing import dump_yaml, write_atomic, write_bytes_atomic
from agot_adjudicator.model.naming import NameIndex, name_index
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import N_, Msg
from agot_adjudicator.render.i18n import language_of_tag, recorded_language
from agot_adjudicator.render.language import PHASE_TITLES, Names, decision_kind, lang, say, speaker, tr
from agot_adjudicator.render.language import house as house_name
from agot_adjudicator.render.receipt import echo_lines, problem_text, receipt_text
from agot_adjudicator.workflow.validate import read_submissions, read_yaml, validate_docs

MESSAGES = "messages"
INDEX = "index.jsonl"


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

    @property
    def accepted(self) -> bool:
        return self.verdict == "accepted"

    @property
    def why(self) -> str:
        """``verdict: reason; reason`` (a sentence that translates) for a message not accepted."""
        return Msg("{verdict}: {reasons}", verdict=VERDICT_WORDS.get(self.verdict, self.verdict),
                   reasons=joined(self.reasons))


VERDICT_WORDS = {"accepted": Msg("accepted"), "refused": Msg("refused"),
                 "invalid": Msg("invalid"), "malformed": Msg("malformed")}
"""A verdict's word in a sentence (the index and the logic keep the id)."""


@dataclass
class _Board:
    rd: RoundDir
    state_doc: Document
    state: GameState
    provisional: bool


def _board(game_dir: str) -> _Board:
    """The state a message's submission is checked against (RUL-P8-3): a message is the
    house's whole submission for the round, and ``adjudicate --game`` reads every file from the
    round's ``state.yaml``, also when the round is stopped; so it is checked there, with the
    other houses' files, as adjudicate reads it (the in-memory run checks direct answers).
    :func:`~agot_adjudicator.io.gamedir.board_now` first refuses an interrupted commit."""
    now = board_now(game_dir)
    doc = read_yaml(str(now.round.state))
    return _Board(now.round, doc, GameState.from_dict(doc.data), False)


def _next_number(folder: Path) -> int:
    index = folder / INDEX
    if not index.is_file():
        return 1
    numbers = [0]
    for line in index.read_text(encoding="utf-8").splitlines():
        try:
            numbers.append(int(json.loads(line)["n"]))
        except (ValueError, KeyError, TypeError):
            continue
    return max(numbers) + 1


def receive(game_dir: str, arguments: Sequence[str], ruleset: Ruleset,
            received: datetime.datetime, stdin: bytes | None = None,
            lang: str = "en") -> list[Outcome]:
    """Process the messages ``arguments`` name (see the module docstring), in Date order then
    argument order (a message without a Date counts as received at ``received``). Each receipt
    is in its house's ``players.yaml`` language; ``lang`` for a message whose house is not
    known (or has no language set)."""
    if not Path(game_dir).is_dir():
        raise UsageError(f"{game_dir}: not a game directory (no such directory)")
    with game_lock(game_dir):
        board = _board(game_dir)
        players = read_players(game_dir)
        incoming = gather(arguments, stdin)
        messages = [read_message(i) for i in incoming]
        order = sorted(range(len(messages)),
                       key=lambda k: (messages[k].date or received, k))
        folder = Path(game_dir) / MESSAGES
        folder.mkdir(exist_ok=True)
        index = name_index(ruleset)
        outcomes = []
        for k in order:
            outcomes.append(_process(game_dir, folder, messages[k], board, players, index,
                                     ruleset, received, lang))
        return outcomes


@dataclass
class _Check:
    verdict: str = "accepted"
    reasons: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    house: str | None = None
    data: dict[str, Any] | None = None
    renamed: list[Renamed] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    forged: bool = False

    def fail(self, verdict: str, reason: str) -> _Check:
        self.verdict = verdict
        self.reasons.append(reason)
        return self


def _check(message: Message, board: _Board, players: Players, index: NameIndex,
           ruleset: Ruleset) -> _Check:
    check = _Check()
    if message.problems or message.found is None:
        for why in message.problems:
            check.fail("malformed", why)
        return check
    if board.state.phase == "ended":
        return check.fail("refused", Msg("the game has ended: no submission is taken"))
    try:
        doc = parse_text(message.found.name, message.found.text)
    except InputError as exc:
        check.problems = list(exc.problems)
        return check.fail("malformed", Msg("the submission is not readable YAML"))
    data = dict(doc.data)
    secret = data.pop("secret", None)
    doc = Document(doc.name, data, doc.sha256,
                   {p: v for p, v in doc.positions.items() if p[:1] != ("secret",)},
                   {p: v for p, v in doc.key_positions.items() if p[:1] != ("secret",)})
    doc, check.renamed, name_problems = ids_from_names(doc, index)
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
    if house not in board.state.houses:
        return check.fail("refused", Msg("'{value}' is not a house in play in this game",
                                              value=house))
    if secret is not None and not isinstance(secret, str):
        return check.fail("refused", Msg("`secret:` must be the text the moderator sent you"))
    why = _who(message, house, secret, players)
    if why is not None:
        check.forged = _forged(message, house, secret, players)
        return check.fail("refused", why)
    if not any(s.secret_sha256 for s in players.houses.values()):
        check.notes.append(Msg("this game keeps no house secrets (no players.yaml, or none in "
                               "it): anyone may submit for any house; the moderator sets them "
                               "with `agot players --new-secret`"))
    for answer_id in data.get("answers") or {}:
        owner = str(answer_id).rsplit("/", 1)[-1]
        if owner != house:
            return check.fail("refused", Msg("{house} cannot answer {id}: it is another "
                                             "house's decision (a house answers only its own)",
                                             house=house, id=answer_id))
    check.data = data
    if name_problems:
        check.problems = name_problems
        return check.fail("invalid", Msg("a name in it stands for nothing on the board or in "
                                             "the rules"))
    found = schema_problems(doc, "orders")
    if found:
        check.problems = found
        return check.fail("malformed", Msg("not the shape of a submission (agot-orders/1)"))
    others, _ = read_submissions([str(p) for p in board.rd.orders() if p.name != f"{house}.yaml"])
    result = validate_docs(board.state_doc, [*others, doc], ruleset,
                           provisional=board.provisional)
    check.problems = [p for p in result.problems if p.file == doc.name]
    check.warnings = [p for p in result.warnings if p.file == doc.name]
    if check.problems:
        return check.fail("invalid", Msg("`agot validate` refuses it on the board as it stands"))
    return check


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


def _pending_for(rd: RoundDir, house: str, answered: set[str], sections: set[str]) -> list[str]:
    """The house's entries in the stopped round's ``pending.yaml`` that this submission does
    not answer (by id in ``answers:``, or an ``orders`` decision by an ``orders:`` section):
    what the last run asked; the next run asks again whatever is still missing.

    Each is its id and the prompt as ``pending.yaml`` words it (in the language of the run that
    wrote it, its report's); for a house that reads another language, its id and its kind in
    that language (the house's mail has the question in full)."""
    if not rd.pending.is_file():
        return []
    try:
        doc = load_yaml(rd.pending, root=rd.path.parent)
    except InputError:
        return [tr("{file} cannot be read: ask the moderator", file=rd.pending.name)]
    try:
        written_in = recorded_language(rd.report.read_text(encoding="utf-8")
                                       if rd.report.is_file() else None)
    except (OSError, UnicodeDecodeError):
        written_in = "en"
    out = []
    for entry in doc.data.get("pending") or []:
        if not isinstance(entry, dict) or entry.get("house") != house:
            continue
        if entry.get("id") in answered or (entry.get("kind") == "orders" and "orders" in sections):
            continue
        if written_in == lang():
            out.append(f"{entry.get('id')}: {entry.get('prompt', '')}".rstrip(": "))
        else:
            out.append(tr("{decision} ({kind})", decision=entry.get("id"),
                          kind=decision_kind(str(entry.get("kind")))))
    return out


def _process(game_dir: str, folder: Path, message: Message, board: _Board, players: Players,
             index: NameIndex, ruleset: Ruleset, received: datetime.datetime,
             fallback: str = "en") -> Outcome:
    number = _next_number(folder)
    raw = message.incoming.raw
    digest = hashlib.sha256(raw).hexdigest() if raw is not None else None
    stem = f"{number:04d}-{digest[:8]}" if digest else f"{number:04d}-unreadable"
    kept = None
    if raw is not None:
        kept = f"{stem}.{'eml' if message.incoming.kind == 'mail' else 'txt'}"
        write_bytes_atomic(folder / kept, raw)
    check = _check(message, board, players, index, ruleset)
    stored = None
    replaced = False
    rd = board.rd
    house = check.house
    if check.verdict == "accepted" and house is not None and check.data is not None:
        path = rd.orders_dir / f"{house}.yaml"
        replaced = path.exists()
        header = (f"{house}'s submission for round {check.data.get('round')}, taken by agot "
                  f"inbox from\n{MESSAGES}/{kept} (sha256 {digest}),\nreceived "
                  f"{utc_text(received)}. Display names are turned into ids and the secret is "
                  "left out;\nthe message itself is kept in the messages folder.")
        write_atomic(path, dump_yaml(check.data, header=header))
        stored = str(path.relative_to(Path(game_dir)))
    settings = players.houses.get(house) if house is not None else None
    tag = settings.language if settings is not None else None
    lang = language_of_tag(tag) if tag else fallback
    with Names(ruleset, lang).speaking():
        receipt = _receipt(number, kept, digest, received, message, check, board, index, stored,
                           replaced)
    receipt_file = f"{stem}.receipt.txt"
    write_atomic(folder / receipt_file, receipt)
    entry = {"n": number, "file": kept, "receipt": receipt_file, "sha256": digest,
             "received": utc_text(received), "source": message.incoming.name,
             "from": message.sender, "date": utc_text(message.date) if message.date else None,
             "message_id": message.message_id, "house": house, "verdict": check.verdict,
             "reason": "; ".join(check.reasons) or None, "forged": check.forged or None,
             "round": board.state.round, "stored": stored}
    index_path = folder / INDEX
    before = index_path.read_text(encoding="utf-8") if index_path.is_file() else ""
    write_atomic(index_path, before + json.dumps(entry, ensure_ascii=False) + "\n")
    return Outcome(number, message.incoming.name, check.verdict, kept, receipt_file, receipt,
                   house, message.sender, stored, check.reasons)


def _receipt(number: int, kept: str | None, digest: str | None, received: datetime.datetime,
             message: Message, check: _Check, board: _Board, index: NameIndex,
             stored: str | None, replaced: bool) -> str:
    """The receipt of one message, in the language of the current :class:`Names` (the
    house's ``players.yaml`` language, else the language of the run)."""
    state = board.state
    head = [tr("agot inbox receipt {number}: message {name}", number=number,
               name=kept or message.incoming.name),
            tr("Received: {when}", when=utc_text(received))]
    if digest:
        head.append(f"SHA-256: {digest}")
    if message.sender:
        head.append(tr("From: {sender}", sender=message.sender))
    if message.subject:
        head.append(tr("Subject: {subject}", subject=message.subject))
    verdicts = {"accepted": N_("ACCEPTED"), "invalid": N_("NOT ACCEPTED (invalid)"),
                "refused": N_("REFUSED"), "malformed": N_("NOT ACCEPTED (malformed)")}
    verdict = tr("Verdict: {verdict}", verdict=tr(verdicts[check.verdict]))
    if stored:
        verdict += tr(": stored as {path}", path=stored) + (
            tr(", replacing the house's earlier submission") if replaced else "")
    elif check.verdict != "accepted":
        verdict += tr(": nothing stored") + (tr(" (the house's earlier submission, if any, still "
                                                "counts)") if check.verdict == "invalid" else "")
    head.append(verdict)
    sections: list[tuple[str, list[str]]] = [
        (tr("Why:"), [say(r) for r in check.reasons]),
        (tr("Problems:"), [problem_text(p) for p in check.problems])]
    if check.verdict == "refused" or check.data is None:
        return receipt_text(head, sections)  # to the sender only: nothing of the game's state
    house = check.house
    chinese = speaker() is not None
    who = house_name(house) if chinese else house
    phase = tr(PHASE_TITLES.get(state.phase, state.phase)) if chinese else state.phase
    head.insert(len(head) - 1, tr("Game: {game}, round {round}, {phase} phase", game=state.game_id,
                                  round=state.round, phase=phase)
                + (tr(" (stopped on pending decisions)") if board.rd.pending.is_file() else ""))
    sections.insert(0, (tr("Your submission ({house}), in words:", house=who),
                        echo_lines(check.data, index) or [tr("nothing (no orders, bids, plans "
                                                             "or answers)")]))
    sections.insert(1, (tr("Names turned into ids:"),
                        [f"{r.written} -> {r.id}" for r in check.renamed]))
    if check.verdict == "accepted":
        sections.append((tr("Check (agot validate on the board as it stands):"),
                         [tr("ok")] + [tr("warning: {warning}", warning=problem_text(w))
                                       for w in check.warnings]))
    given = check.data if check.verdict == "accepted" else {}
    asked = _pending_for(board.rd, str(house), set(given.get("answers") or {}), set(given))
    if state.phase == "planning" and not board.rd.pending.is_file() and not (
            check.verdict == "accepted" and "orders" in check.data) and not _has_orders(
            board.rd, str(house), stored):
        asked.insert(0, tr("orders for round {round} (planning phase)", round=state.round))
    sections.append((tr("Still asked of {house}:", house=who), asked or [tr("nothing for now")]))
    sections.append((tr("Notes:"), [say(n) for n in check.notes]))
    return receipt_text(head, sections)


def _has_orders(rd: RoundDir, house: str, stored: str | None) -> bool:
    """Whether the house's stored file of this round gives orders."""
    path = rd.orders_dir / f"{house}.yaml"
    if not path.is_file():
        return False
    try:
        return "orders" in load_yaml(path).data
    except InputError:
        return False


def inbox_received(path: Path) -> datetime.datetime | None:
    """When the message behind an orders file that ``agot inbox`` stored was received (the
    ``received`` of its line in ``GAME/messages/index.jsonl``, P8), or None for a file put there
    another way. The file's header names the kept message and its SHA-256; both must match a
    line of the index."""
    try:
        with path.open(encoding="utf-8") as fh:
            head = fh.read(2048)
    except (OSError, UnicodeDecodeError):
        return None
    found = re.search(r"taken by agot inbox from\n# " + MESSAGES + r"/(\S+) \(sha256 ([0-9a-f]{64})\)",
                      head)
    if found is None:
        return None
    index = path.parent.parent.parent / MESSAGES / INDEX
    try:
        lines = index.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if (isinstance(entry, dict) and entry.get("file") == found[1]
                and entry.get("sha256") == found[2] and isinstance(entry.get("received"), str)):
            return parse_utc(entry["received"])
    return None
