"""A player's message as an .eml file, for the tests that feed ``agot inbox``."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path


def eml(folder: Path, name: str, body: str, subject: str = "orders") -> Path:
    """``folder/NAME.eml``: a message from ``NAME@example.org`` to the moderator, dated
    2026-12-01 10:00 UTC, with ``body`` as its text."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{name}@example.org", "gm@example.org", subject
    msg["Date"] = "Tue, 01 Dec 2026 10:00:00 +0000"
    msg.set_content(body)
    path = folder / f"{name}.eml"
    path.write_bytes(bytes(msg))
    return path
