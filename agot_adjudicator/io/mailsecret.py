"""The copy of a message ``agot inbox`` keeps, without any house's secret (docs/formats.md,
*Messages*; issue 27): ``secret:`` values, the secret the submission gave, and every word that
is a house's secret (tested against ``players.yaml``'s salted hashes), in the bytes and in the
decoded content of base64 and quoted-printable parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email import policy
from email.parser import BytesParser

from agot_adjudicator.io.mail import _leaves, bounds
from agot_adjudicator.io.mailbody import REMOVED, SECRET_VALUE

_SECRET_BYTES = re.compile(SECRET_VALUE.encode("ascii"), re.IGNORECASE)
"""The one rule of a written secret (:data:`~agot_adjudicator.io.mailbody.SECRET_VALUE`), on
bytes."""
MIN_ELSEWHERE = 6
"""A written secret's value this long or longer is also removed wherever else it appears (a
shorter one only where it is written: replacing ``ab`` everywhere would mangle the message)."""


def _secrets_in(data: bytes) -> set[bytes]:
    return {m.group(2) for m in _SECRET_BYTES.finditer(data)
            if len(m.group(2)) >= MIN_ELSEWHERE}


def _scrub(data: bytes, found: set[bytes]) -> bytes:
    data = _SECRET_BYTES.sub(lambda m: m.group(1) + REMOVED.encode(), data)
    for value in sorted(found, key=len, reverse=True):
        data = data.replace(value, REMOVED.encode())
    return data


def secrets_of(data: bytes, secret: str | None,
               is_secret: Callable[[bytes], bool] | None) -> set[bytes]:
    """What is removed from ``data`` besides the written secrets' values in place: those values
    of :data:`MIN_ELSEWHERE` characters or more, the secret the submission gave, and every word
    ``is_secret`` says is a house's secret (:func:`secret_words`)."""
    found = _secrets_in(data)
    if secret:
        found.add(secret.encode("utf-8"))
    if is_secret is not None:
        found |= secret_words(data, is_secret)
    return found


def without_secret_text(text: str, secret: str | None,
                        is_secret: Callable[[bytes], bool] | None = None) -> str:
    """``text`` (a receipt, a reason) with no secret in it, by the same rules as the kept copy
    of a message (:func:`without_secret`); ``text`` itself when nothing is removed (a
    translatable message stays one)."""
    data = text.encode("utf-8")
    out = _scrub(data, secrets_of(data, secret, is_secret))
    return text if out == data else out.decode("utf-8", "replace")


_TOKEN = re.compile(rb"[A-Za-z0-9_\-]{12,}")
_BASE64_LINE = re.compile(rb"^[A-Za-z0-9+/=]{60,}\r?$", re.MULTILINE)
SECRET_LENGTH = 24
"""The length of the secrets agot issues (:func:`secrets.token_urlsafe` of 18 bytes)."""
MAX_TOKENS = 200_000
"""Words of a message tested against the houses' secrets (their salted hashes) at most."""


def secret_words(data: bytes, is_secret: Callable[[bytes], bool]) -> set[bytes]:
    """The words of ``data`` that ``is_secret`` says are a house's secret, wherever the player
    wrote it, after whatever key or glued to whatever word: each run of 12 or more letters,
    digits, ``-`` and ``_`` (base64 lines left out) of at most 64, and each 24-character
    window of a longer run (:data:`SECRET_LENGTH`). At most :data:`MAX_TOKENS` are tested."""
    words: set[bytes] = set()
    for match in _TOKEN.finditer(_BASE64_LINE.sub(b"", data)):
        run = match.group()
        if len(run) <= 64:
            words.add(run)
        if len(run) > SECRET_LENGTH:
            words.update(run[i:i + SECRET_LENGTH] for i in range(len(run) - SECRET_LENGTH + 1))
        if len(words) >= MAX_TOKENS:
            break
    return {w for w in words if is_secret(w)}


def without_secret(raw: bytes, secret: str | None,
                   is_secret: Callable[[bytes], bool] | None = None) -> bytes:
    """The copy of a message that is kept (docs/protocol.md P8): the secret the submission gave
    and every value written after ``secret:`` anywhere in the message (a line, a flow mapping,
    a quoted reply; six characters or more) replaced by ``[secret removed]`` wherever it
    appears, in the bytes and in the decoded content of base64 and quoted-printable parts, so
    that no other command and no backup of the game folder holds a house's secret (issue 27).
    With ``is_secret`` (a house's secret, tested against ``players.yaml``'s salted hashes), a
    house's secret is removed wherever it is, after whatever key (:func:`secret_words`). A
    message refused for a limit is scrubbed in its bytes only."""
    found = secrets_of(raw, secret, is_secret)
    out = _scrub(raw, found)
    if bounds(out) is not None:
        return out
    try:
        msg = BytesParser(policy=policy.compat32).parsebytes(out)
        leaves, why = _leaves(msg)  # type: ignore[arg-type]
        changed = False
        for part in leaves if why is None else []:
            cte = str(part.get("content-transfer-encoding", "")).strip().lower()
            if cte not in ("base64", "quoted-printable"):
                continue
            data = part.get_payload(decode=True)
            if not isinstance(data, bytes):
                continue
            more = _secrets_in(data) | (secret_words(data, is_secret) if is_secret else set())
            plain = _scrub(data, found | more)
            if plain == data:
                continue
            import base64
            import quopri

            part.set_payload(base64.encodebytes(plain).decode("ascii") if cte == "base64"
                             else quopri.encodestring(plain).decode("ascii"))
            changed = True
        return msg.as_bytes() if changed else out
    except Exception:
        return out
