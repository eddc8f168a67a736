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
body block, two attachments), is refused: the player says which one counts.
"""

from __future__ import annotations

import datetime
import html.parser
import mailbox
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from agot_adjudicator.errors import UsageError
from agot_adjudicator.io.reading import MAX_BYTES
from agot_adjudicator.io.safefile import ReadRefused, read_bounded
from agot_adjudicator.model.text import Msg

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""A message larger than this (16 MiB) is refused: recorded in the index with its receipt."""

YAML_TYPES = ("text/yaml", "application/yaml", "application/x-yaml", "text/x-yaml")
_HEADER_NAMES = ("from", "date", "subject", "message-id", "to", "mime-version")
_VIEW_LINE = re.compile(rb"""^[ \t]*(["']?)format\1[ \t]*:[ \t]*(["']?)agot-view/1\2""",
                        re.MULTILINE)
"""The line of a house view (agot-view/1): an attachment that is the mail's view, not a reply."""
_FORMAT_LINE = re.compile(r"""^format:[ \t]*(["']?)agot-orders/1\1[ \t]*(#.*)?$""")
_KEY_LINE = re.compile(r"""^(?:[A-Za-z_$][\w$-]*|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]|$)""")
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
    their order, Maildir entries by name)."""
    out: list[Incoming] = []
    for arg in arguments:
        if arg == "-":
            raw = stdin if stdin is not None else b""
            out.append(Incoming("stdin", raw[:MAX_MESSAGE_BYTES],
                                None if len(raw) <= MAX_MESSAGE_BYTES else
                                Msg("message is {size} bytes; the limit is {limit}",
                                    size=len(raw), limit=MAX_MESSAGE_BYTES),
                                "mail" if _looks_like_mail(raw) else "text"))
            continue
        path = Path(arg)
        if path.is_dir():
            if not _is_maildir(path):
                raise UsageError(f"{arg}: a directory that is not a Maildir (no cur/, new/ "
                                 "and tmp/)")
            out.extend(_maildir(path))
            continue
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"{arg}: no such file or directory")
        try:
            raw = read_bounded(path, MAX_MESSAGE_BYTES)
        except ReadRefused as exc:
            out.append(Incoming(arg, None, exc.reason))
            continue
        if raw.startswith(b"From "):
            out.extend(_mbox(path))
        elif path.suffix.lower() == ".eml" or _looks_like_mail(raw):
            out.append(Incoming(arg, raw, kind="mail"))
        else:
            out.append(Incoming(arg, raw))
    return out


def _maildir(path: Path) -> list[Incoming]:
    box = mailbox.Maildir(path, factory=None, create=False)
    out = []
    for key in sorted(box.keys()):
        name = f"{path} (entry {key})"
        try:
            raw = box.get_bytes(key)
        except (OSError, KeyError) as exc:
            out.append(Incoming(name, None, Msg("cannot read this Maildir entry: {error}",
                                                error=getattr(exc, 'strerror', None) or exc)))
            continue
        if len(raw) > MAX_MESSAGE_BYTES:
            out.append(Incoming(name, raw[:MAX_MESSAGE_BYTES],
                                Msg("message is {size} bytes; the limit is {limit}",
                                    size=len(raw), limit=MAX_MESSAGE_BYTES), "mail"))
            continue
        out.append(Incoming(name, raw, kind="mail"))
    return out


def _mbox(path: Path) -> list[Incoming]:
    box = mailbox.mbox(path, factory=None, create=False)
    out = []
    try:
        for number, key in enumerate(sorted(box.keys()), start=1):
            name = f"{path} (message {number})"
            try:
                raw = box.get_bytes(key, from_=False)
            except (OSError, KeyError) as exc:
                out.append(Incoming(name, None, Msg("cannot read this mbox message: {error}",
                                                    error=exc)))
                continue
            out.append(Incoming(name, raw, kind="mail"))
    finally:
        box.close()
    return out


class _Text(html.parser.HTMLParser):
    """HTML reduced to text: line breaks at block elements, quoted blocks, scripts and styles
    left out."""

    BLOCKS = frozenset({"p", "div", "br", "li", "tr", "pre", "h1", "h2", "h3", "h4", "h5",
                        "h6", "table", "ul", "ol"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "blockquote", "head"):
            self.skip += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "blockquote", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_text(source: str) -> str:
    """The text of an HTML body (:mod:`html.parser`).

    >>> html_text("<p>Hi</p><pre>format: x\\nround: 1</pre><blockquote>old</blockquote>")
    '\\nHi\\n\\nformat: x\\nround: 1\\n'
    """
    parser = _Text()
    parser.feed(source)
    parser.close()
    return "".join(parser.parts)


def _expand(line: str) -> str:
    """Leading tabs to spaces (tab stops every 8 columns); no-break spaces are spaces."""
    line = line.replace("\u00a0", " ")
    lead = len(line) - len(line.lstrip(" \t"))
    return line[:lead].expandtabs(8) + line[lead:]


def body_blocks(text: str) -> list[tuple[int, str]]:
    """The submissions in a body text: (first line number, YAML text keeping the body's line
    numbers: every other line blank).

    >>> body = "Hi all,\\n\\n> format: agot-orders/1\\nformat: agot-orders/1\\nround: 1\\n" \\
    ...        "house: stark\\n  # ok\\nCheers\\n-- \\nNed"
    >>> [(n, t.splitlines()) for n, t in body_blocks(body)]
    [(4, ['', '', '', 'format: agot-orders/1', 'round: 1', 'house: stark', '  # ok'])]
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks = []
    for start, line in enumerate(lines):
        first = _expand(line)
        if line.startswith(">") or not _FORMAT_LINE.match(first.lstrip(" ")):
            continue
        indent = len(first) - len(first.lstrip(" "))
        above = _head_above(lines, start, indent)
        kept = [""] * (start - len(above)) + above + [first[indent:]]
        for raw in lines[start + 1:]:
            if raw.startswith(">"):
                kept.append("")
                continue
            if raw.rstrip() == "--":
                break
            current = _expand(raw)
            if not current.strip():
                kept.append("")
                continue
            depth = len(current) - len(current.lstrip(" "))
            rest = current[indent:]
            # "- item" at the mapping's own indentation continues a key's block sequence
            # ("withdraw:\n- orders", as PyYAML writes lists)
            item = depth == indent and rest.startswith("- ") and _opens_block(kept)
            if depth < indent or (depth == indent and not rest.startswith("#") and not item
                                  and not _KEY_LINE.match(rest)):
                break
            if depth == indent and _FORMAT_LINE.match(rest):
                break  # a second submission starts: counted on its own
            kept.append(rest.rstrip())
        while kept and not kept[-1]:
            kept.pop()
        blocks.append((start + 1, "\n".join(kept) + "\n"))
    return blocks


_HEAD_LINE = re.compile(r"""^(?:secret|house|round)[ \t]*:(?:[ \t]|$)""")


def _head_above(lines: list[str], start: int, indent: int) -> list[str]:
    """The ``secret:``, ``house:`` and ``round:`` lines written just above the ``format:``
    line, at its indentation (a player may put the secret first): part of the submission."""
    out: list[str] = []
    for back in range(start - 1, -1, -1):
        line = _expand(lines[back])
        depth = len(line) - len(line.lstrip(" "))
        if lines[back].startswith(">") or depth != indent or not _HEAD_LINE.match(line[depth:]):
            break
        out.insert(0, line[depth:].rstrip())
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


def _opens_block(kept: list[str]) -> bool:
    """Whether the last line kept (not blank, not a comment) is a key with no value on its
    line or an item of a sequence at the top level: a ``- item`` line may follow."""
    for line in reversed(kept):
        text = line.split(" #", 1)[0].rstrip()
        if not text or text.lstrip().startswith("#"):
            continue
        return text.endswith(":") or line.startswith("- ")
    return False


def _header(msg: EmailMessage, name: str) -> str | None:
    try:
        value = msg.get(name)
    except Exception:
        return None
    return None if value is None else str(value)


def read_message(incoming: Incoming) -> Message:
    """The headers and the one submission of ``incoming`` (problems say why not)."""
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
    attachments: list[tuple[str, bytes]] = []
    plain: list[tuple[str, str]] = []
    html: list[tuple[str, str]] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        filename = part.get_filename()
        disposition = part.get_content_disposition()
        if (filename or "").lower().endswith((".yaml", ".yml")) or ctype in YAML_TYPES:
            payload = part.get_payload(decode=True)
            label = Msg("attachment {file}", file=filename or ctype)
            if not isinstance(payload, bytes):
                message.problems.append(Msg("{attachment}: cannot be decoded", attachment=label))
                continue
            if len(payload) > MAX_BYTES:
                message.problems.append(Msg("{attachment} is {size} bytes; the limit is {limit} "
                                            "(1 MiB)", attachment=label, size=len(payload),
                                            limit=MAX_BYTES))
                continue
            if _VIEW_LINE.search(payload[:4096]):
                continue  # a house view sent back with a reply is no submission (RUL-P8-1)
            attachments.append((label, payload))
        elif ctype in ("text/plain", "text/html") and disposition != "attachment":
            try:
                content = part.get_content()
            except (LookupError, UnicodeError, ValueError) as exc:
                message.problems.append(Msg("a {type} part cannot be decoded: {error}",
                                            type=ctype, error=exc))
                continue
            (plain if ctype == "text/plain" else html).append(("body", str(content)))
    if message.problems:
        return message
    bodies = plain or [(where, html_text(text)) for where, text in html]
    _choose(message, attachments, bodies)
    return message


def _headers(message: Message, msg: EmailMessage) -> None:
    try:
        sender = msg.get("from")
        addresses = getattr(sender, "addresses", ()) if sender is not None else ()
        message.sender = addresses[0].addr_spec.lower() if addresses else None
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
        for line, block in body_blocks(text):
            found.append(Found(block.encode("utf-8"), f"{name} ({where})", where))
            places.append(Msg("{where} line {line}", where=Msg("body"), line=line)
                          if where == "body" else f"{where} line {line}")
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
