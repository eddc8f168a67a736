"""Fuzz the mail intake (issue 27): mutate accepted messages and count what becomes of them.

    python bench/fuzz_mail.py [--minutes M | --runs N] [--seed S] [--cap-mb 2048]

Seeds: the accepted messages of the hostile mail corpus (tests/data/hostile_mail: flowed,
base64, quoted-printable, a YAML attachment, an 8-bit From) and messages the standard
library's generator writes (``email.message.EmailMessage``: plain 8bit, base64,
quoted-printable, multipart/alternative with HTML, a YAML attachment). Each run takes one
seed and applies one to three mutations:

- *bytes*: a byte flipped, random or 8-bit bytes inserted, a range deleted or doubled, the
  message cut short, CR, NUL, boundary lines or RFC 2047 encoded words inserted;
- *headers*: a header doubled, made long, folded oddly, given 8-bit text, encoded words, an
  unknown charset, an odd Content-Type or Content-Transfer-Encoding, a bad boundary;
- *structure*: the message nested in up to 15 multiparts or message/rfc822 parts, up to 300
  parts added;
- *values*: a value of the submission replaced by an odd one (a list, a map, a boolean, null,
  a huge number, control characters, long text) or a key added, through a whole ``inbox`` run;
- *neutral* (the submission must come out as sent, or be refused): the body re-encoded
  (base64, quoted-printable, format=flowed with soft breaks and DelSp), headers added, an HTML
  alternative, prose before and after, a quoted reply, CRLF or LF line ends, a stray prose
  line inside the YAML.

Every run reads the message as ``agot inbox`` does (:func:`agot_adjudicator.io.mail.read_message`
without its last guard) and parses its submission; each *values* run and one run in 25 of the
others goes through a whole
``inbox`` run (the CLI, in process) on a copy of a game, one in 50 through an mbox and a
Maildir (:func:`~agot_adjudicator.io.mail.gather`). The address space is capped (``--cap-mb``,
``RLIMIT_AS``) and each run has a 10-second alarm. Printed: runs, tracebacks, hangs, runs over
the cap (MemoryError), peak memory, the slowest run, and accepted-but-altered submissions (a
neutral mutation whose submission differs from the seed's). All but runs and figures must be 0.
"""

from __future__ import annotations

import argparse
import collections
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agot_adjudicator.errors import InputError  # noqa: E402
from agot_adjudicator.io import mail  # noqa: E402
from agot_adjudicator.io.reading import parse_text  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "hostile_mail"
SECRET = "corpus-stark-secret-0001"
SALT = "00112233445566778899aabbccddeeff"
YAML = (CORPUS / "make.py").read_text(encoding="utf-8").split('ORDERS = f"""', 1)[1] \
    .split('"""', 1)[0].replace("{SECRET}", SECRET)


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def _generated() -> list[bytes]:
    out = []
    for cte in ("8bit", "base64", "quoted-printable"):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "ned@winterfell.org", "gm@example.org", "orders"
        msg["Date"] = "Tue, 01 Dec 2026 10:00:00 +0000"
        msg.set_content("Hello,\n\n" + YAML + "\nNed\n", cte=cte)
        out.append(bytes(msg))
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "ned@winterfell.org", "orders"
    msg.set_content(YAML)
    msg.add_alternative("<p>" + YAML.replace("\n", "<br>") + "</p>", subtype="html")
    out.append(bytes(msg))
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "ned@winterfell.org", "orders"
    msg.set_content("attached\n")
    msg.add_attachment(YAML.encode(), maintype="application", subtype="yaml", filename="o.yaml")
    out.append(bytes(msg))
    return out


def seeds() -> list[bytes]:
    names = ("flowed", "flowed_delsp", "base64_body", "qp_body", "yaml_attachment_base64",
             "from_8bit", "unknown_charset")
    return [(CORPUS / f"{n}.eml").read_bytes() for n in names] + _generated()


def _body_split(raw: bytes) -> tuple[bytes, bytes]:
    at = raw.find(b"\r\n\r\n")
    sep = 4
    if at < 0 or (0 <= raw.find(b"\n\n") < at):
        at, sep = raw.find(b"\n\n"), 2
    if at < 0:
        return raw, b""
    return raw[:at + sep], raw[at + sep:]


def _mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    kind = rng.randrange(10)
    at = rng.randrange(len(data) + 1)
    if kind == 0 and data:
        data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
    elif kind == 1:
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    elif kind == 2:
        del data[at:at + rng.randrange(1, 200)]
    elif kind == 3:
        end = min(len(data), at + rng.randrange(1, 400))
        data[at:at] = data[at:end] * rng.randrange(1, 30)
    elif kind == 4:
        del data[at:]
    elif kind == 5:
        data[at:at] = rng.choice([b"\r", b"\x00", b"\n\n", b"\r\n\r\n", b"\xff\xfe", b"\x1b[2J"])
    elif kind == 6:
        data[at:at] = b"\r\n--" + rng.choice([b"b0", b"===", b"", b"--"]) + b"\r\n"
    elif kind == 7:
        data[at:at] = b" =?" + rng.choice([b"utf-8", b"x-bad", b"iso-8859-1"]) + b"?" + \
            rng.choice([b"q", b"b", b"x"]) + b"?" + rng.choice([b"a=1B", b"=FF=FE", b"YWJj",
                                                               b"====", b""]) + b"?="
    elif kind == 8:
        data[at:at] = "张三 ünï \u202e".encode()
    else:
        data[at:at] = b"\r\n" + rng.choice([b"Content-Type: multipart/mixed; boundary=b0",
                                            b"Content-Transfer-Encoding: base64",
                                            b"Content-Type: text/plain; charset=x-none",
                                            b"Content-Type: text/plain; format=flowed"])
    return bytes(data)


def _mutate_headers(raw: bytes, rng: random.Random) -> bytes:
    head, body = _body_split(raw)
    kind = rng.randrange(8)
    extra = [
        lambda: b"Subject: " + b" ".join([b"=?utf-8?q?a?="] * rng.randrange(1, 400)) + b"\r\n",
        lambda: b"X-Long: " + b"x" * rng.randrange(100, 40000) + b"\r\n",
        lambda: b"".join(b"X-%d: y\r\n" % i for i in range(rng.randrange(1, 400))),
        lambda: "From: 张三 <张三@例子.cn>\r\n".encode(),
        lambda: b"Subject: a\r\n" + b" \r\n" * rng.randrange(1, 50),
        lambda: b"Content-Type: text/plain; charset=\"" + rng.choice([b"x-no", b"utf-7",
                                                                      b"", b"\xff"]) + b"\"\r\n",
        lambda: b"Content-Transfer-Encoding: " + rng.choice([b"x-uue", b"base64", b"7bit",
                                                             b"binary", b"\x00"]) + b"\r\n",
        lambda: b'Content-Type: multipart/mixed; boundary="' + rng.choice([b"", b" ", b"b0",
                                                                           b"x" * 300]) + b'"\r\n',
    ][kind]()
    return extra + head + body if rng.random() < 0.5 else head.rstrip(b"\r\n") + b"\r\n" + \
        extra + b"\r\n" + body


def _mutate_structure(raw: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        depth = rng.randrange(1, 16)
        inner = raw
        for level in range(depth):
            if rng.random() < 0.3:
                inner = b"Content-Type: message/rfc822\r\n\r\n" + inner
            else:
                inner = (b'Content-Type: multipart/mixed; boundary="z%d"\r\n\r\n--z%d\r\n'
                         % (level, level)) + inner + b"\r\n--z%d--\r\n" % level
        return b"From: ned@winterfell.org\r\nMIME-Version: 1.0\r\n" + inner
    parts = rng.randrange(1, 300)
    return (b'From: ned@winterfell.org\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; '
            b'boundary="p"\r\n\r\n' + b"--p\r\n\r\nx\r\n" * parts + b"--p\r\n" + raw +
            b"\r\n--p--\r\n")


def _neutral(rng: random.Random) -> tuple[bytes, bool]:
    """A message whose submission is :data:`YAML` (as the player wrote it), written in one of
    many ways; True when the submission must come out as sent or be refused."""
    text = YAML
    kind = rng.randrange(9)
    prose_before = rng.choice(["", "Hello,\n\nmy turn:\n\n", "Hi\n> format: agot-orders/1\n\n"])
    prose_after = rng.choice(["", "\nThanks!\n", "\n-- \nNed\n", "\nOn Mon you wrote:\n> x: 1\n"])
    if kind == 0:  # a stray line inside the YAML
        lines = text.splitlines(keepends=True)
        at = rng.randrange(1, len(lines))
        lines.insert(at, rng.choice(["My orders:\n", "see below\n", "PS\n"]))
        text = "".join(lines)
    body = prose_before + text + prose_after
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "ned@winterfell.org", rng.choice(["orders", "命令", "a\x1b[2J"])
    if kind == 1:
        msg.set_content(body, cte="base64")
    elif kind == 2:
        msg.set_content(body, cte="quoted-printable")
    elif kind == 3:  # format=flowed, soft breaks at random spaces, space-stuffed
        delsp = rng.random() < 0.5
        out = []
        for line in body.split("\n"):
            stuffed = " " + line if line.startswith((" ", ">", "From ")) and not \
                line.startswith(">") else line
            while len(stuffed) > 20 and " " in stuffed[10:] and rng.random() < 0.5 \
                    and stuffed != "-- ":
                cut = stuffed.index(" ", 10) + 1
                head, stuffed = stuffed[:cut], stuffed[cut:]
                out.append(head + (" " if delsp else "") if delsp else head)
                stuffed = " " + stuffed if stuffed.startswith((" ", "From ")) else stuffed
            out.append(stuffed.rstrip(" ") if stuffed != "-- " else stuffed)
        raw_body = "\n".join(out).encode()
        msg.set_content(raw_body, maintype="text", subtype="plain", cte="base64")
        msg.set_param("format", "flowed")
        msg.set_param("charset", "utf-8")
        if delsp:
            msg.set_param("delsp", "yes")
    elif kind == 4:
        msg.set_content(body)
        msg.add_alternative("<p>html</p>", subtype="html")
    elif kind == 5:
        msg.set_content(body.replace("\n", "\r\n"))
    else:
        msg.set_content(body)
        for i in range(rng.randrange(1, 20)):
            msg[f"X-Extra-{i}"] = "=?utf-8?q?" + "=E5=BC=A0" * rng.randrange(1, 5) + "?="
    return bytes(msg), True


ODD: list[Any] = [[], {}, [["footman"]], {"a": [1]}, True, False, None, 10**40, -1, 0x7FFF,
                  "x" * 3000, "ünï", "\x1b[2J", 0, [None], [True], {"x": {"y": [1, {}]}}, 1.5,
                  "", "raid", "winterfell", "stark", {"stark": 1}, ["a", ["b"]], "0x" + "f" * 99]
KEYS = ["orders", "bids", "wildlings", "plans", "answers", "withdraw", "house", "round",
        "secret", "plnas", "houses", "format", "marches", "iron_throne", "winterfell"]


def _odd_submission(rng: random.Random) -> bytes:
    """A mail whose submission has a value replaced by an odd one, or a key added (a shape the
    schema refuses, or one it takes): the intake must answer it with a receipt."""
    import yaml

    data: Any = yaml.safe_load(YAML)
    data["plans"] = {"marches": [{"from": "winterfell", "moves": {"moat_cailin": ["knight"]}}]}
    for _ in range(rng.randrange(1, 4)):
        node = data
        for _ in range(rng.randrange(0, 3)):
            if isinstance(node, dict) and node:
                child = node[rng.choice(sorted(node, key=str))]
                if isinstance(child, (dict, list)) and child:
                    node = child
            elif isinstance(node, list) and node:
                child = rng.choice(node)
                if isinstance(child, (dict, list)) and child:
                    node = child
        value = rng.choice(ODD)
        if isinstance(node, dict):
            key = rng.choice(sorted(node, key=str)) if node and rng.random() < 0.6 \
                else rng.choice(KEYS)
            node[key] = value
        elif isinstance(node, list) and node:
            node[rng.randrange(len(node))] = value
    data["secret"] = SECRET if rng.random() < 0.8 else data.get("secret")
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=None)
    if not text.startswith("format:"):
        text = "format: agot-orders/1\n" + "\n".join(line for line in text.splitlines()
                                                     if not line.startswith("format:")) + "\n"
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "ned@winterfell.org", "orders"
    msg.set_content(text)
    return bytes(msg)


def check_one(raw: bytes, neutral: bool, want: dict[str, Any]) -> str | None:
    """'altered' when a neutral message's submission is found and differs from the seed's."""
    incoming = mail.Incoming("fuzz.eml", raw, kind="mail")
    message = mail._read_message(incoming)  # no last guard: an exception is a finding
    if message.found is None:
        return None
    try:
        doc = parse_text("fuzz", message.found.text)
    except InputError:
        return None
    if neutral and doc.data != want:
        return "altered"
    return "as sent" if neutral else None


def fuzz(runs: int | None, minutes: float | None, seed: int, cap_mb: int,
         out: Any = sys.stdout) -> collections.Counter:
    """Run the fuzzer; the counter holds runs and every failure kind (see the module)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        cap = cap_mb * 1024 * 1024
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        pass
    try:
        return _fuzz(runs, minutes, seed, cap_mb, out)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))  # the caller's limit again


def _fuzz(runs: int | None, minutes: float | None, seed: int, cap_mb: int,
          out: Any) -> collections.Counter:
    rng = random.Random(seed)
    pool = seeds()
    want = parse_text("seed", YAML.encode()).data
    counts: collections.Counter = collections.Counter()
    slowest = 0.0
    deadline = time.monotonic() + 60 * minutes if minutes else None
    work = Path(tempfile.mkdtemp(prefix="agot-fuzz-mail-"))
    game = _game(work)
    signal.signal(signal.SIGALRM, _alarm)
    examples: dict[str, str] = {}
    try:
        while (runs is None or counts["runs"] < runs) and \
                (deadline is None or time.monotonic() < deadline):
            counts["runs"] += 1
            neutral = False
            odd = rng.random() < 0.1
            if odd:
                raw = _odd_submission(rng)
            elif rng.random() < 0.3:
                raw, neutral = _neutral(rng)
            else:
                raw = rng.choice(pool)
                for _ in range(rng.randrange(1, 4)):
                    raw = rng.choice([_mutate_bytes, _mutate_bytes, _mutate_headers,
                                      _mutate_structure])(raw, rng)
            started = time.monotonic()
            signal.alarm(10)
            try:
                found = check_one(raw, neutral, want)
                if found == "as sent":
                    counts["neutral as sent"] += 1
                elif found:
                    counts[found] += 1
                    examples.setdefault(found, raw[:2000].decode("utf-8", "replace"))
                if odd or counts["runs"] % 25 == 0:
                    counts["inbox runs"] += 1
                    _inbox(game, work, raw, counts)
                if counts["runs"] % 50 == 0:
                    counts["mbox+Maildir runs"] += 1
                    _boxes(work, raw, rng)
            except Hang:
                counts["hangs"] += 1
            except MemoryError:
                counts["over the cap"] += 1
            except Exception:
                counts["tracebacks"] += 1
                examples.setdefault("traceback", traceback.format_exc()[-1500:])
            finally:
                signal.alarm(0)
            slowest = max(slowest, time.monotonic() - started)
            counts["accepted-shape" if neutral else "mutated"] += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    for key in ("tracebacks", "hangs", "over the cap", "altered"):
        counts.setdefault(key, 0)
    print(f"runs: {counts['runs']} ({counts['mutated']} mutated, {counts['accepted-shape']} "
          f"neutral; {counts['inbox runs']} whole inbox runs, {counts['mbox+Maildir runs']} "
          f"mbox+Maildir)", file=out)
    print(f"neutral messages whose submission came out as sent: {counts['neutral as sent']} "
          f"(the others refused with a receipt); inbox: {counts['inbox accepted']} accepted, "
          f"{counts['inbox refused']} refused", file=out)
    print(f"tracebacks: {counts['tracebacks']}  hangs: {counts['hangs']}  over the "
          f"{cap_mb} MB cap: {counts['over the cap']}  accepted but altered: "
          f"{counts['altered']}", file=out)
    print(f"peak memory: {peak} MB  slowest run: {slowest:.2f} s", file=out)
    for key, text in examples.items():
        print(f"--- first {key}:\n{text}", file=out)
    return counts


def _game(work: Path) -> Path:
    from click.testing import CliRunner

    from agot_adjudicator.cli import main
    from agot_adjudicator.io.players import secret_sha256

    game = work / "game"
    result = CliRunner().invoke(main, ["new", "--players", "3", "--seed", "7", "--game",
                                       str(game)])
    assert result.exit_code == 0, result.output
    (game / "players.yaml").write_text(
        "format: agot-players/1\nhouses:\n  stark:\n    secret:\n"
        f"      salt: {SALT}\n      sha256: {secret_sha256(SALT, SECRET)}\n", encoding="utf-8")
    return game


def _inbox(game: Path, work: Path, raw: bytes, counts: collections.Counter) -> None:
    from click.testing import CliRunner

    from agot_adjudicator.cli import main

    copy = work / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(game, copy)
    path = work / "m.eml"
    path.write_bytes(raw)
    result = CliRunner().invoke(main, ["inbox", "--game", str(copy), "--received",
                                       "2026-12-01T12:00:00Z", str(path)])
    if result.exit_code not in (0, 1) or (result.exception is not None and
                                          not isinstance(result.exception, SystemExit)):
        raise RuntimeError(f"inbox exit {result.exit_code}: {result.output[-500:]}") \
            from result.exception
    if "\x1b" in result.output or SECRET in result.output:
        raise RuntimeError("an escape or the secret reached the terminal")
    for kept in (copy / "messages").iterdir():
        if SECRET.encode() in kept.read_bytes() and kept.name != "index.jsonl":
            raise RuntimeError(f"the secret is in the kept {kept.name}")
    counts["inbox " + ("accepted" if result.exit_code == 0 else "refused")] += 1


def _boxes(work: Path, raw: bytes, rng: random.Random) -> None:
    box = work / "box.mbox"
    box.write_bytes(b"".join(b"From x Tue Dec  1 10:00:00 2026\n" + m + b"\n"
                             for m in (raw, rng.choice(seeds()))))
    maildir = work / "Maildir"
    shutil.rmtree(maildir, ignore_errors=True)
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (maildir / "new" / "1").write_bytes(raw)
    for incoming in mail.gather([str(box), str(maildir)]):
        mail._read_message(incoming)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--runs", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap-mb", type=int, default=2048)
    args = parser.parse_args()
    counts = fuzz(args.runs, args.minutes if args.minutes or args.runs else 1.0, args.seed,
                  args.cap_mb)
    bad = sum(counts[k] for k in ("tracebacks", "hangs", "over the cap", "altered"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
