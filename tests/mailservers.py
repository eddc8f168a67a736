"""Real mail servers for the judge's tests: Debian's Dovecot (IMAP, TLS with a throw-away CA)
started in a temporary folder on free ports, and aiosmtpd (SMTP) on 127.0.0.1.

Dovecot runs as its own instance (``base_dir``, ``state_dir`` and the mail in the folder, a
passdb file with the test accounts), never the system's service. Run as root (CI), its login
process runs as ``nobody`` and the mail belongs to ``nobody`` (Dovecot refuses root for both);
run as another user, everything runs as that user. Messages are delivered by IMAP APPEND, as a
mail server's delivery agent would put them in the mailbox.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists()
                                      else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SmtpInbox:
    """What the SMTP server received: (recipients, bytes) in order."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()
        self.refuse = False

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return "451 try again later"
        with self.lock:
            self.received.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[SmtpInbox, int]]:
    from aiosmtpd.controller import Controller

    inbox = SmtpInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, controller.port
    finally:
        controller.stop()


@dataclass
class Dovecot:
    folder: Path
    conf: Path
    imaps_port: int
    imap_port: int
    ca_file: Path
    users: dict[str, str]

    def connect(self, user: str) -> imaplib.IMAP4_SSL:
        context = ssl.create_default_context(cafile=str(self.ca_file))
        conn = imaplib.IMAP4_SSL("127.0.0.1", self.imaps_port, ssl_context=context, timeout=30)
        conn.login(user, self.users[user])
        return conn

    def deliver(self, user: str, raw: bytes, mailbox: str = "INBOX") -> None:
        """Put one message in the user's mailbox (IMAP APPEND, unseen)."""
        conn = self.connect(user)
        try:
            typ, data = conn.append(mailbox, None, None, raw)
            assert typ == "OK", data
        finally:
            conn.logout()

    def command(self, user: str, *args: str) -> None:
        conn = self.connect(user)
        try:
            getattr(conn, args[0])(*args[1:])
        finally:
            conn.logout()


def _wait_for(port: int, seconds: float = 15.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"dovecot did not listen on {port}")


@pytest.fixture
def dovecot() -> Iterator[Dovecot]:
    """A Dovecot IMAP server of its own (TLS on one port, STARTTLS on another), with the test
    account ``gm`` (password ``judge-pw``)."""
    if DOVECOT is None:
        if os.environ.get("CI"):
            raise AssertionError("dovecot is not installed (.ci/run installs dovecot-imapd)")
        pytest.skip("dovecot is not installed (apt-get install dovecot-imapd)")
    import trustme

    folder = Path(tempfile.mkdtemp(prefix="agot-dovecot-"))
    root = os.geteuid() == 0
    os.chmod(folder, 0o755)
    for sub in ("run", "state", "mail"):
        (folder / sub).mkdir()
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    cert.private_key_pem.write_to_path(str(folder / "key.pem"))
    cert.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    users = {"gm": "judge-pw"}
    (folder / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in users.items()))
    if root:
        import pwd

        nobody = pwd.getpwnam("nobody")
        uid, gid, login = nobody.pw_uid, nobody.pw_gid, "nobody"
        os.chown(folder / "mail", uid, gid)
        internal, group = "root", "root"
    else:
        import grp
        import pwd

        me = pwd.getpwuid(os.getuid())
        uid, gid, login, internal = os.getuid(), os.getgid(), me.pw_name, me.pw_name
        group = grp.getgrgid(os.getgid()).gr_name
    imaps_port, imap_port = free_port(), free_port()
    conf = folder / "dovecot.conf"
    conf.write_text(f"""\
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
instance_name = agot-test-{imaps_port}
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{folder}/cert.pem
ssl_key = <{folder}/key.pem
disable_plaintext_auth = yes
auth_mechanisms = plain login
mail_location = maildir:{folder}/mail/%u
default_internal_user = {internal}
default_internal_group = {group}
default_login_user = {login}
first_valid_uid = 1
first_valid_gid = 0
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={folder}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
""")
    # dovecot daemonises and keeps its standard streams: files, never pipes (a pipe would
    # never reach its end)
    with open(folder / "start.log", "wb") as log:
        started = subprocess.run([DOVECOT, "-c", str(conf)], stdin=subprocess.DEVNULL,
                                 stdout=log, stderr=log)
    assert started.returncode == 0, (folder / "start.log").read_text()
    try:
        _wait_for(imaps_port)
        _wait_for(imap_port)
        yield Dovecot(folder, conf, imaps_port, imap_port, folder / "ca.pem", users)
    finally:
        pid_file = folder / "run" / "master.pid"
        pid = int(pid_file.read_text().split()[0]) if pid_file.is_file() else None
        subprocess.run([DOVECOT, "-c", str(conf), "stop"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        if pid is not None:  # this instance's master, by its id, if `stop` left it running
            end = time.monotonic() + 5
            while time.monotonic() < end and pid_file.exists():
                time.sleep(0.1)
            if pid_file.exists():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGTERM)
        shutil.rmtree(folder, ignore_errors=True)
