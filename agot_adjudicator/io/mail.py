"""Messages in (``agot inbox``): read ``.eml`` files, mbox files, Maildir folders, plain text
and stdin, and find the one submission a message holds (docs/protocol.md P8).

Reading: a directory with ``cur/``, ``new/`` and ``tmp/`` is a Maildir (its entries by
name, :mod:`mailbox`); a file that starts with ``From `` is an mbox; a ``.eml`` file, or
a file or stdin whose first lines are mail headers (``From:``, ``Date:``, ``Subject:``,
``Message-ID:``, ``To:`` or ``MIME-Version:``), is one mail message (:mod:`email`,
``policy=email.policy.default``); anything else is plain text (a forum message pasted in).

Finding the submission (RUL-P8-1): a YAML attachment (a file name ending ``.yaml`` or
``.yml``, or the type ``text/yaml``, ``application/yaml``, ``application/x-yaml``), or
else the YAML in the text/plain body (an HTML-only mail is reduced to text). In a body
the submission starts at its ``format: agot-orders/1`` line and ends before the first
line that cannot continue the mapping: a signature line (``-- ``), a line at the
start line's indentation that is not ``key:`` or a comment, or a line indented less.
Lines quoted with ``>`` are left out wherever they are; leading tabs count to the next
multiple of 8 columns, no-break spaces are spaces, CRLF and CR are line ends. The YAML
keeps the body's line numbers, so errors say ``MESSAGE (body):LINE:COL``. A message
with no submission, or with more than one (two ``format:`` lines, an attachment and a
body block, two attachments), is refused: the player says which one counts. Nothing is cut
silently (issue 27): a line that ends the block though the submission goes on after it is
refused by name (:func:`body_blocks`), and a ``format=flowed`` body is decoded first
(:func:`unflow`, RFC 3676).

Hostile mail (issue 27): every limit (:func:`bounds`, docs/formats.md *Limits (mail in)*) is
checked on the bytes before the parser sees them; files are read only when regular, through
the bounded reader; every value shown from a message is made printable (:func:`shown`), and
the copy kept holds no secret (:mod:`~agot_adjudicator.io.mailsecret`).
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import cast

from agot_adjudicator.errors import UsageError, escaped
from agot_adjudicator.io.mailbody import body_blocks, clean, html_text, shown, unflow
from agot_adjudicator.io.reading import MAX_BYTES
from agot_adjudicator.io.safefile import ReadRefused, open_regular, read_bounded, too_big
from agot_adjudicator.model.text import Msg

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""A message larger than this (16 MiB) is refused: recorded in the index with its receipt
(its first 16 MiB kept). Every limit below is checked on the bytes, before any parsing
(docs/formats.md, *Limits*)."""
MAX_LINES = 400_000
"""Lines in a message (a 16 MiB base64 attachment has 220,000): the parser keeps each line as
an object, so millions of short lines would cost far more memory than their bytes."""
MAX_HEADER_BYTES = 64 * 1024
"""The header section (up to the first empty line) of a message: 64 KiB."""
MAX_HEADER_FIELDS = 200
"""Header fields in the header section of a message."""
MAX_FIELD_BYTES = 16 * 1024
"""One header field, its folded lines together: 16 KiB."""
MAX_ENCODED_WORDS = 100
"""RFC 2047 encoded words (``=?charset?q?...?=``) in one header field."""
MAX_PARTS = 100
"""MIME parts of a message (boundary lines counted on the bytes, parts counted once parsed)."""
MAX_DEPTH = 10
"""Nesting of multipart and message/rfc822 parts."""
MAX_ATTACHMENTS = 20
"""Parts with a file name or ``Content-Disposition: attachment``."""
MAX_TEXT_BYTES = 4 * 1024 * 1024
"""A text/plain or text/html part read as the body (its encoded payload): 4 MiB."""
MAX_MESSAGES = 10_000
"""Messages taken in one run (mbox and Maildir entries counted); the rest are refused."""
MAX_MBOX_BYTES = 1024 * 1024 * 1024
"""An mbox file is read message by message up to this size (1 GiB); each message is bounded by
:data:`MAX_MESSAGE_BYTES`."""

YAML_TYPES = ("text/yaml", "application/yaml", "application/x-yaml", "text/x-yaml")
_HEADER_NAMES = ("from", "date", "subject", "message-id", "to", "mime-version")
_VIEW_LINE = re.compile(rb"""^[ \t]*(["']?)format\1[ \t]*:[ \t]*(["']?)agot-view/1\2""",
                        re.MULTILINE)
"""The line of a house view (agot-view/1): an attachment that is the mail's view, not a reply."""
_BAD_DEFECTS = ("StartBoundaryNotFoundDefect", "MultipartInvariantViolationDefect",
                "NoBoundaryInMultipartDefect", "CloseBoundaryNotFoundDefect")


@dataclass
class Incoming:
    """One message as read: its bytes (None when it could not be read) and where from."""

    name: str
    raw: bytes | None
    error: str | None = None
    kind: str = "text"
    """``mail`` (parsed as RFC 5322) or ``text`` (plain text)."""


@dataclass
class Found:
    """The submission of a message: YAML text (body line numbers kept) and its name."""

    text: bytes
    name: str
    label: str = "body"
    """Where in the message: ``body``, or ``attachment NAME``."""


@dataclass
class Message:
    """What a message holds: its headers of interest and its submission, or why not."""

    incoming: Incoming
    sender: str | None = None
    date: datetime.datetime | None = None
    subject: str | None = None
    message_id: str | None = None
    found: Found | None = None
    problems: list[str] = field(default_factory=list)


def _looks_like_mail(raw: bytes) -> bool:
    head = raw[:4096].lstrip(b"\r\n")
    if not re.match(rb"[!-9;-~]+:", head):
        return False
    parsed = BytesParser(policy=policy.compat32).parsebytes(raw[:65536], headersonly=True)
    return any(name.lower() in _HEADER_NAMES for name in parsed)


def _is_maildir(path: Path) -> bool:
    return all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def gather(arguments: Sequence[str], stdin: bytes | None = None) -> list[Incoming]:
    """Every message the arguments name, in argument order (mbox and Maildir entries in
    their order, Maildir entries by name). Each is read through the bounded reader: regular
    files only, at most :data:`MAX_MESSAGE_BYTES` a message, :data:`MAX_MESSAGES` a run."""
    out: list[Incoming] = []
    for arg in arguments:
        if arg == "-":
            raw = stdin if stdin is not None else b""
            out.append(Incoming("stdin", raw[:MAX_MESSAGE_BYTES],
                                None if len(raw) <= MAX_MESSAGE_BYTES
                                else too_big(len(raw), MAX_MESSAGE_BYTES),
                                "mail" if _looks_like_mail(raw) else "text"))
            continue
        path = Path(arg)
        if path.is_dir():
            if not _is_maildir(path):
                raise UsageError(f"{escaped(arg)}: a directory that is not a Maildir (no cur/, "
                                 "new/ and tmp/)")
            out.extend(_maildir(path))
            continue
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"{escaped(arg)}: no such file or directory")
        try:
            fd = open_regular(path)
            try:
                head = os.pread(fd, 5, 0)
            finally:
                os.close(fd)
            if head == b"From ":
                out.extend(_mbox(path))
                continue
            raw = read_bounded(path, MAX_MESSAGE_BYTES)
        except ReadRefused as exc:
            out.append(Incoming(arg, None, exc.reason))
            continue
        if path.suffix.lower() == ".eml" or _looks_like_mail(raw):
            out.append(Incoming(arg, raw, kind="mail"))
        else:
            out.append(Incoming(arg, raw))
    for extra in out[MAX_MESSAGES:]:
        extra.raw, extra.error = None, Msg(
            "more than {limit} messages in one run: this one is not read (give it to another "
            "run)", limit=MAX_MESSAGES)
    return out


def _maildir(path: Path) -> list[Incoming]:
    """The entries of ``new/`` and ``cur/`` by key (the name before ``:``), each read as a
    regular file through the bounded reader (a FIFO, a device or a folder is refused)."""
    entries: list[tuple[str, str, str]] = []
    for sub in ("new", "cur"):
        try:
            names = os.listdir(path / sub)
        except OSError as exc:
            raise UsageError(f"{escaped(str(path / sub))}: cannot read: {exc.strerror}") from None
        entries.extend((name.split(":", 1)[0], sub, name) for name in names
                       if not name.startswith("."))
    out: list[Incoming] = []
    for key, sub, name in sorted(entries):
        label = f"{path} (entry {shown(key, 80)})"
        if len(out) >= MAX_MESSAGES:
            out.append(Incoming(label, None))
            continue
        try:
            raw = read_bounded(path / sub / name, MAX_MESSAGE_BYTES)
        except ReadRefused as exc:
            out.append(Incoming(label, None, Msg("cannot read this Maildir entry: {error}",
                                                 error=exc.reason)))
            continue
        out.append(Incoming(label, raw, kind="mail"))
    return out


def _mbox(path: Path) -> list[Incoming]:
    """The messages of an mbox file, read one by one (a line starting ``From `` begins one,
    as :mod:`mailbox` reads mboxo), each bounded by :data:`MAX_MESSAGE_BYTES`: a message over
    it is refused alone, the others are read."""
    fd = open_regular(path)
    out: list[Incoming] = []
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_MBOX_BYTES:
            return [Incoming(str(path), None, Msg("{why} (an mbox file: split it)",
                                                  why=too_big(size, MAX_MBOX_BYTES)))]
        chunks: list[bytes] = []
        size = 0
        over = False
        at_start = True
        started = False

        def finish() -> None:
            name = f"{path} (message {len(out) + 1})"
            if len(out) >= MAX_MESSAGES:
                out.append(Incoming(name, None))
            elif over:
                out.append(Incoming(name, None, too_big(size, MAX_MESSAGE_BYTES)))
            else:
                raw = b"".join(chunks)
                raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1] if raw.endswith(b"\n") \
                    else raw
                out.append(Incoming(name, raw, kind="mail"))

        while True:
            line = handle.readline(64 * 1024)
            if not line:
                break
            if at_start and line.startswith(b"From "):
                if started:
                    finish()
                chunks, size, over, started = [], 0, False, True
            elif started:
                size += len(line)
                if size > MAX_MESSAGE_BYTES:
                    over, chunks = True, []
                elif not over:
                    chunks.append(line)
            at_start = line.endswith(b"\n")
        if started:
            finish()
    return out


def _leap_date(text: str | None) -> datetime.datetime | None:
    """A Date the standard parser refuses only for a leap second (``23:59:60``, RFC 5322
    3.3 allows it): read as the second before."""
    from email.utils import parsedate_tz

    parts = parsedate_tz(text) if text else None
    if parts is None or parts[5] != 60:
        return None
    year, month, day, hour, minute = parts[:5]
    offset = datetime.timedelta(seconds=parts[9] or 0)
    try:
        return datetime.datetime(year, month, day, hour, minute, 59,
                                 tzinfo=datetime.timezone(offset))
    except ValueError:
        return None


def _header(msg: EmailMessage, name: str) -> str | None:
    try:
        value = msg.get(name)
    except Exception:
        return None
    # a field folded right after its colon unfolds with a leading blank (RFC 5322 2.2.3)
    return None if value is None else shown(str(value).strip())


_FIELD_START = re.compile(rb"^[^ \t\r\n]", re.MULTILINE)
_BOUNDARY = re.compile(rb"""boundary[ \t]*=[ \t]*(?:"([^"\r\n]*)"|([^ \t\r\n;"]+))""",
                       re.IGNORECASE)
_NESTING = re.compile(rb"^content-type[ \t]*:[ \t]*(?:\r?\n[ \t]+)*(?:multipart|message)/",
                      re.IGNORECASE | re.MULTILINE)


def bounds(raw: bytes) -> str | None:
    """Why ``raw`` is refused before it is parsed (docs/formats.md, *Limits*), or None: a
    header section, a header field or its encoded words over their limits, more MIME
    boundary lines or nested parts than :data:`MAX_PARTS` allows. Linear in the size of the
    message: the parser is never given what it would spend quadratic time, memory or
    recursion on."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return too_big(len(raw), MAX_MESSAGE_BYTES)
    lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")
    if lines > MAX_LINES:
        return Msg("{count} lines; the limit is {limit}", count=lines, limit=MAX_LINES)
    end = re.search(rb"\r?\n\r?\n", raw)
    head_end = end.start() if end else len(raw)
    if head_end > MAX_HEADER_BYTES:
        return Msg("the header section is over {limit} bytes", limit=MAX_HEADER_BYTES)
    head = raw[:head_end]
    starts = [m.start() for m in _FIELD_START.finditer(head)]
    if len(starts) > MAX_HEADER_FIELDS:
        return Msg("{count} header fields; the limit is {limit}", count=len(starts),
                   limit=MAX_HEADER_FIELDS)
    for begin, stop in zip(starts, [*starts[1:], len(head)][:len(starts)], strict=True):
        field_bytes = head[begin:stop]
        name = shown(field_bytes.split(b":", 1)[0][:60].decode("ascii", "replace"), 60)
        if len(field_bytes) > MAX_FIELD_BYTES:
            return Msg("the header field {name} is {size} bytes; the limit is {limit}",
                       name=name, size=len(field_bytes), limit=MAX_FIELD_BYTES)
        if field_bytes.count(b"=?") > MAX_ENCODED_WORDS:
            return Msg("the header field {name} holds over {limit} encoded words (RFC 2047)",
                       name=name, limit=MAX_ENCODED_WORDS)
    if len(_NESTING.findall(raw)) > MAX_PARTS:
        return Msg("over {limit} MIME parts", limit=MAX_PARTS)
    boundaries = {m.group(1) or m.group(2) for m in _BOUNDARY.finditer(raw)}
    if len(boundaries) > MAX_PARTS:
        return Msg("over {limit} MIME parts", limit=MAX_PARTS)
    marks = tuple(b"--" + b for b in boundaries if b)
    if marks:
        count = 0
        for line in re.finditer(rb"^--[^\r\n]*", raw, re.MULTILINE):
            if line.group().startswith(marks):
                count += 1
                if count > MAX_PARTS + MAX_DEPTH:
                    return Msg("over {limit} MIME parts", limit=MAX_PARTS)
    return None


def _leaves(msg: EmailMessage) -> tuple[list[EmailMessage], str | None]:
    """The parts of ``msg`` that are not multipart, in order (an iterative walk: no recursion),
    or why the structure is refused (deeper than :data:`MAX_DEPTH`, more parts than
    :data:`MAX_PARTS`)."""
    out: list[EmailMessage] = []
    stack: list[tuple[EmailMessage, int]] = [(msg, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > MAX_PARTS:
            return out, Msg("over {limit} MIME parts", limit=MAX_PARTS)
        if depth > MAX_DEPTH:
            return out, Msg("MIME parts nested over {limit} deep", limit=MAX_DEPTH)
        if part.is_multipart():
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((cast(EmailMessage, child), depth + 1)  # parsed with policy.default
                             for child in reversed(children))
            continue
        out.append(part)
    return out, None


def _text_of(part: EmailMessage) -> str:
    """A text part's content; ``format=flowed`` decoded (RFC 3676). A charset Python does not
    know is read as UTF-8 when the bytes are UTF-8 (the submission is UTF-8, formats.md), else
    the part cannot be decoded (docs/protocol.md P8)."""
    try:
        content = str(part.get_content())
    except LookupError:
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            raise
        content = payload.decode("utf-8")
    if part.get_content_type() == "text/plain" and \
            str(part.get_param("format", "") or "").lower() == "flowed":
        delsp = str(part.get_param("delsp", "") or "").lower() == "yes"
        content = unflow(content, delsp)
    return content


def read_message(incoming: Incoming) -> Message:
    """The headers and the one submission of ``incoming`` (problems say why not). Never
    raises on any input (bench/fuzz_mail.py): the bytes are bounded (:func:`bounds`) before
    the parser sees them, and every value taken from a header is made printable."""
    try:
        return _read_message(incoming)
    except Exception as exc:  # a last guard: bench/fuzz_mail.py counts each one as a bug
        message = Message(incoming)
        message.problems.append(Msg("a mail message agot cannot read ({error})",
                                    error=type(exc).__name__))
        return message


def _read_message(incoming: Incoming) -> Message:
    message = Message(incoming)
    if incoming.raw is None or incoming.error is not None:
        message.problems.append(incoming.error or Msg("cannot read this message"))
        return message
    if incoming.kind == "text":
        try:
            text = incoming.raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            message.problems.append(Msg("not UTF-8 text (byte 0x{byte:02x} at offset {offset})",
                                        byte=incoming.raw[exc.start], offset=exc.start))
            return message
        _choose(message, [], [("body", text.removeprefix("\ufeff"))])
        return message
    if not incoming.raw.strip():
        message.problems.append(Msg("an empty file: not a mail message"))
        return message
    refused = bounds(incoming.raw)
    if refused is not None:
        message.problems.append(refused)
        return message
    msg = BytesParser(policy=policy.default).parsebytes(incoming.raw)
    assert isinstance(msg, EmailMessage)
    if not msg.keys():
        message.problems.append(Msg("not a mail message: it does not start with header lines "
                                    "(From:, Date:, Subject: ...)"))
        return message
    bad = [type(d).__name__ for d in msg.defects if type(d).__name__ in _BAD_DEFECTS]
    if bad:
        message.problems.append(Msg("a malformed mail message: {defects}", defects=[
            re.sub(r"(?<!^)(?=[A-Z])", " ", b.removesuffix("Defect")).lower() for b in bad]))
        return message
    _headers(message, msg)
    leaves, why = _leaves(msg)
    if why is not None:
        message.problems.append(why)
        return message
    attachments: list[tuple[str, bytes]] = []
    plain: list[tuple[str, str]] = []
    html: list[tuple[str, str]] = []
    files = 0
    for part in leaves:
        _part(message, part, attachments, plain, html)
        if part.get_param("filename", None, "content-disposition") is not None \
                or part.get_param("name", None) is not None \
                or part.get_content_disposition() == "attachment":
            files += 1
    if files > MAX_ATTACHMENTS:
        message.problems.append(Msg("over {limit} attachments", limit=MAX_ATTACHMENTS))
    if message.problems:
        return message
    bodies = plain or [(where, html_text(text)) for where, text in html]
    _choose(message, attachments, bodies)
    return message


def _part(message: Message, part: EmailMessage, attachments: list[tuple[str, bytes]],
          plain: list[tuple[str, str]], html: list[tuple[str, str]]) -> None:
    """One leaf part: a YAML attachment, a text body, or neither (a problem when it cannot
    be decoded or is over its limit)."""
    ctype = part.get_content_type()
    filename = part.get_filename()
    disposition = part.get_content_disposition()
    name = shown(str(filename), 80) if filename is not None else None
    if (name or "").lower().endswith((".yaml", ".yml")) or ctype in YAML_TYPES:
        label = Msg("attachment {file}", file=name or ctype)
        try:
            payload = part.get_payload(decode=True)
        except Exception:
            payload = None
        if not isinstance(payload, bytes):
            message.problems.append(Msg("{attachment}: cannot be decoded", attachment=label))
        elif len(payload) > MAX_BYTES:
            message.problems.append(Msg("{attachment}: {why}", attachment=label,
                                        why=too_big(len(payload), MAX_BYTES)))
        elif not _VIEW_LINE.search(payload[:4096]):  # a house view sent back with a reply
            attachments.append((label, payload))  # is no submission (RUL-P8-1)
    elif ctype in ("text/plain", "text/html") and disposition != "attachment":
        try:
            encoded = part.get_payload()
        except (LookupError, UnicodeError, ValueError) as exc:  # a charset "x\0y"
            message.problems.append(Msg("a {type} part cannot be decoded: {error}",
                                        type=ctype, error=shown(str(exc), 120)))
            return
        if isinstance(encoded, str) and len(encoded) > MAX_TEXT_BYTES:
            message.problems.append(Msg("a {type} part of {size} bytes; the limit is {limit} "
                                        "(send the submission as a .yaml attachment)",
                                        type=ctype, size=len(encoded), limit=MAX_TEXT_BYTES))
            return
        try:
            content = _text_of(part)
        except (LookupError, UnicodeError, ValueError, AssertionError) as exc:
            message.problems.append(Msg("a {type} part cannot be decoded: {error}",
                                        type=ctype, error=shown(str(exc), 120)))
            return
        (plain if ctype == "text/plain" else html).append(("body", clean(content)))


def _headers(message: Message, msg: EmailMessage) -> None:
    try:
        sender = msg.get("from")
        addresses = getattr(sender, "addresses", ()) if sender is not None else ()
        spec = clean(addresses[0].addr_spec).lower() if addresses else None
        message.sender = shown(spec) if spec else None
    except Exception:
        message.sender = None
    try:
        date = msg.get("date")
        when = getattr(date, "datetime", None) or _leap_date(_header(msg, "date"))
        if isinstance(when, datetime.datetime):
            # "-0000" (RFC 5322 3.3: the time is UTC, its local zone unknown) reads as naive
            message.date = (when if when.tzinfo is not None
                            else when.replace(tzinfo=datetime.UTC)).astimezone(datetime.UTC)
    except Exception:
        message.date = None
    message.subject = _header(msg, "subject")
    message.message_id = _header(msg, "message-id")


def _choose(message: Message, attachments: list[tuple[str, bytes]],
            bodies: list[tuple[str, str]]) -> None:
    name = message.incoming.name
    found: list[Found] = [Found(payload, f"{name} ({label})", label)
                          for label, payload in attachments]
    places = [label for label, _ in attachments]
    for where, text in bodies:
        for block in body_blocks(text):
            if block.stray is not None:
                line, words, resume = block.stray
                message.problems.append(Msg(
                    "line {line} of the body, `{text}`, is not YAML of the submission, which "
                    "goes on at line {resume}: make it a comment (# ...) or remove it; nothing "
                    "of this message is taken", line=line, text=words, resume=resume))
            found.append(Found(block.text.encode("utf-8"), f"{name} ({where})", where))
            places.append(Msg("{where} line {line}", where=Msg("body"), line=block.line)
                          if where == "body" else f"{where} line {block.line}")
    if message.problems:
        return
    if not found:
        message.problems.append(Msg(
            "no submission found: a submission is a YAML attachment (.yaml) or, in the text of "
            "the message, YAML starting with the line `format: agot-orders/1`"))
    elif len(found) > 1:
        message.problems.append(Msg(
            "{count} YAML submissions in one message ({places}): send one submission per "
            "message (the latest message counts)", count=len(found), places=places))
    else:
        message.found = found[0]

