"""Mail out: one house's message as an ``.eml`` file (docs/formats.md, *Mail*).

The bytes depend only on what is given: no ``Date`` header (``agot send`` adds one when it
sends), no ``From`` (``agot send --from`` or the moderator's mail client fills it), a
``Message-ID`` and a MIME boundary derived from the content (the standard library's are
random). The text part is UTF-8, quoted-printable; the picture, when there is one, is attached
as ``image/svg+xml``, base64. Lines end with CRLF (``email.policy.SMTP``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from email.message import EmailMessage
from email.policy import SMTP

MAIL_DIR = "mail"
"""A round's mail folder: ``GAME/round-NN/mail/``."""
PUBLIC_TEXT = "report.txt"
WIDTH = 72
"""Columns of the mail texts."""
MAIL_DOMAIN = "agot.invalid"
"""The right-hand side of the message ids agot makes (a reserved name: never a real host)."""


def content_digest(subject: str, body: str, attachment: tuple[str, str] | None,
                   files: Sequence[tuple[str, str]] = ()) -> str:
    """SHA-256 of what a message says (subject, text, attachment, attached files), not of
    whom it goes to."""
    h = hashlib.sha256()
    for part in (subject, body, *(attachment or ("", "")), *(x for f in files for x in f)):
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def message_id(game_id: str, round_name: str, house: str, digest: str) -> str:
    """``<DIGEST24.HOUSE.round-NN.GAME@agot.invalid>``: the same message, the same id; another
    text (a new run of the round), another id.

    >>> message_id("demo", "round-03", "stark", "ab" * 32)
    '<abababababababababababab.stark.round-03.demo@agot.invalid>'
    """
    return f"<{digest[:24]}.{house}.{round_name}.{game_id}@{MAIL_DOMAIN}>"


def house_eml(*, subject: str, body: str, msg_id: str, to: str | None = None,
              attachment: tuple[str, str] | None = None, digest: str = "",
              files: Sequence[tuple[str, str]] = ()) -> str:
    """The ``.eml`` text of one message (ASCII, CRLF line ends): headers Subject, To (when
    known), Message-ID, the text, the picture (``(file name, SVG text)``) and ``files``
    (``(file name, YAML text)``: the house view, ``application/yaml``) attached."""
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = subject
    if to:
        msg["To"] = to
    msg["Message-ID"] = msg_id
    msg.set_content(body, charset="utf-8", cte="quoted-printable")
    if attachment is not None:
        name, svg = attachment
        msg.add_attachment(svg.encode("utf-8"), maintype="image", subtype="svg+xml",
                           filename=name, cte="base64")
    for name, text in files:
        msg.add_attachment(text.encode("utf-8"), maintype="application", subtype="yaml",
                           filename=name, cte="base64")
    if attachment is not None or files:
        # "=_" never occurs in quoted-printable or base64 text: a safe, fixed boundary.
        msg.set_boundary(f"=_agot_{(digest or msg_id.encode().hex())[:32]}")
    return msg.as_bytes().decode("ascii")
