"""The one SMTP session opener of ``agot send`` and ``agot judge`` (docs/protocol.md P4, P9):
TLS from the start, STARTTLS (refused when the server does not offer it) or plain, EHLO,
then a login when a user is given; every failure closes the connection and is raised as one
error naming the server, with nothing sent."""

from __future__ import annotations

import smtplib
import ssl

from agot_adjudicator.errors import AgotError, UsageError

TIMEOUT = 60.0
"""Seconds an SMTP connection waits for the server before it gives up (tests shorten it)."""
SECURITIES = ("tls", "starttls", "none")


def connect(host: str, port: int, *, security: str = "none", user: str | None = None,
            password: str | None = None, label: str | None = None,
            error: type[AgotError] = UsageError) -> smtplib.SMTP:
    """A logged-in SMTP session to ``host:port`` (``security``: one of :data:`SECURITIES`),
    or raise ``error`` with ``label`` (default ``SMTP HOST:PORT``) and why; the connection is
    closed on every failure."""
    where = label or f"SMTP {host}:{port}"
    try:
        if security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(host, port, timeout=TIMEOUT)
    except (OSError, smtplib.SMTPException) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise error(f"{where}: cannot connect ({why}); nothing was sent") from None
    try:
        smtp.ehlo()
        if security == "starttls":
            if not smtp.has_extn("starttls"):
                raise error(f"{where}: the server does not offer STARTTLS; nothing was sent")
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        if user is not None:
            smtp.login(user, password or "")
    except (OSError, smtplib.SMTPException) as exc:
        smtp.close()
        raise error(f"{where}: {exc}; nothing was sent") from None
    except BaseException:
        smtp.close()
        raise
    return smtp


def close(smtp: smtplib.SMTP) -> None:
    """End a session: QUIT, else drop the connection."""
    try:
        smtp.quit()
    except (OSError, smtplib.SMTPException):
        smtp.close()
