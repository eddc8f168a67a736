"""Hostile messages against the mail intake's limits (issue 27): time and memory of one
``agot inbox`` run per message shape, each in its own process.

    python bench/bench_mail_limits.py [SIZE_MB]     # default 10 MB messages

Shapes, each SIZE_MB large: a base64 attachment; a text body of comment lines under a
``format:`` line; empty MIME parts; header fields; RFC 2047 encoded words in a Subject; one
long line; nested multiparts; a Subject of encoded words at the limits (100 words); the
largest message taken (16 MiB, a base64 attachment beside an accepted body). Printed per
shape: the verdict, wall and CPU (user + system) time and peak RSS of the process
(``wait4``; on a shared machine the CPU figure is the steadier one), and the floor (the
same run on a 1 KB accepted message). The target: every shape refused or processed in under
2 s and 200 MB.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ORDERS = (b"format: agot-orders/1\r\nround: 1\r\nhouse: stark\r\norders:\r\n"
          b"  winterfell: march_plus1\r\n")
HEAD = b"From: ned@winterfell.org\r\nSubject: big\r\nMIME-Version: 1.0\r\n"


def shapes(size: int) -> dict[str, bytes]:
    attach = (HEAD + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
              b"Content-Type: text/plain\r\n\r\n" + ORDERS + b"\r\n--b\r\n"
              b"Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n")
    nested = b"Content-Type: text/plain\r\n\r\n" + ORDERS
    for level in range(60):
        nested = (b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (level, level)
                  + nested + b"\r\n--n%d--\r\n" % level)
    return {
        "accepted 1 KB (floor)": HEAD + b"\r\n" + ORDERS,
        "base64 attachment": attach + b"QUFB" * 19 * (size // 78) + b"\r\n--b--\r\n",
        "comment lines in the body": HEAD + b"\r\n" + ORDERS + b"# x\r\n" * (size // 5),
        "empty MIME parts": HEAD + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
                            + b"--b\r\n\r\n" * (size // 7),
        "header fields": b"X: y\r\n" * (size // 6) + b"\r\n" + ORDERS,
        "encoded words": b"Subject: " + b"=?utf-8?q?a?= " * (size // 14) + b"\r\n\r\n" + ORDERS,
        "one long line": HEAD + b"\r\n" + b"a" * size,
        "60 nested multiparts": HEAD + nested,
        "lines at the limit (399,000)": HEAD + b"\r\n" + ORDERS
                                        + (b"#" * (size // 399_000 - 2) + b"\r\n") * 399_000,
        "a 4 MiB body of prose and YAML": HEAD + b"\r\n" + b"Hello there, moderator.\r\n"
                                          * (4 * 1024 * 1024 // 25 - 10) + ORDERS,
        "a 1 MiB submission in the body": HEAD + b"\r\n" + ORDERS + b"  # c\r\n" * (1024 * 1024 // 8 - 20),
        "100 encoded words (at the limit)": b"From: ned@winterfell.org\r\nSubject: "
                                            + b"=?utf-8?q?a?= " * 100 + b"\r\n\r\n" + ORDERS,
        "16 MiB taken (attachment beside the body)":
            attach + b"QUFB" * 19 * ((16 * 1024 * 1024 - 400) // 78) + b"\r\n--b--\r\n",
    }


def run(game: Path, work: Path, name: str, raw: bytes) -> tuple[str, float, float, float]:
    copy = work / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(game, copy)
    path = work / "m.eml"
    path.write_bytes(raw)
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "agot_adjudicator", "inbox", "--game",
                             str(copy), "--received", "2026-12-01T12:00:00Z", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - started
    text = out.decode("utf-8", "replace")
    verdict = next((line.split(":", 1)[1].strip().split(":")[0] for line in text.splitlines()
                    if line.startswith("Verdict:")), f"exit {os.waitstatus_to_exitcode(status)}")
    if "Traceback" in text:
        verdict = "TRACEBACK"
    return verdict, elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    size = int(float(sys.argv[1]) * 1000 * 1000) if len(sys.argv) > 1 else 10 * 1000 * 1000
    work = Path(tempfile.mkdtemp(prefix="agot-mail-limits-"))
    try:
        game = work / "game"
        subprocess.run([sys.executable, "-m", "agot_adjudicator", "new", "--players", "3",
                        "--seed", "7", "--game", str(game)], check=True, capture_output=True,
                       cwd=ROOT)
        (game / "players.yaml").unlink()
        print(f"{'shape':44} {'size':>9} {'verdict':28} {'wall':>7} {'CPU':>7} {'peak RSS':>9}")
        for name, raw in shapes(size).items():
            verdict, elapsed, cpu, rss = run(game, work, name, raw)
            print(f"{name:44} {len(raw) / 1e6:7.2f}MB {verdict[:28]:28} {elapsed:6.2f}s "
                  f"{cpu:6.2f}s {rss:7.0f}MB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
