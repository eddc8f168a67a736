"""Write the hostile mail corpus (issue 27): ``python tests/data/hostile_mail/make.py``.

Each ``NAME.eml`` is a message as a mail client, a careless player or an attacker sends it to
stark's game (the secret ``SECRET`` below, set by tests/test_hostile_mail.py); ``cases.json``
says what ``agot inbox`` answers: the verdict and words of the receipt, and (``hides``) words that
must be in neither the receipt, the output nor the kept copy.
"""

from __future__ import annotations

import base64
import json
import quopri
from pathlib import Path

HERE = Path(__file__).parent
SECRET = "corpus-stark-secret-0001"
OTHER = "not-a-house-secret-42"
"""A secret of no house of the game: shown nowhere all the same."""
ORDERS = f"""format: agot-orders/1
round: 1
house: stark
secret: {SECRET}
orders:
  winterfell: march_plus1
  white_harbor: support
  the_shivering_sea: defense_plus1
"""
HEAD = ("From: ned@winterfell.org\r\nTo: gm@example.org\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000"
        "\r\n")


def crlf(text: str) -> bytes:
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def plain(body: str, subject: str = "orders", extra: str = "", ctype: str = "text/plain; "
          "charset=utf-8", cte: str = "8bit") -> bytes:
    return crlf(f"{HEAD}Subject: {subject}\nMIME-Version: 1.0\nContent-Type: {ctype}\n"
                f"Content-Transfer-Encoding: {cte}\n{extra}\n{body}")


def multipart(parts: list[bytes], boundary: str = "b0") -> bytes:
    out = [crlf(f"{HEAD}Subject: orders\nMIME-Version: 1.0\nContent-Type: multipart/mixed; "
                f'boundary="{boundary}"\n\n')]
    for part in parts:
        out.append(f"--{boundary}\r\n".encode() + part + b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out)


def flowed() -> bytes:
    """Thunderbird's format=flowed: a comment soft-wrapped, the orders after it, a long
    flow mapping soft-broken (RFC 3676), space-stuffed lines."""
    body = ("Hello,\n\n" + ORDERS.replace(
        "orders:\n", "# this round I march north first and keep the white harbor fleet in \n"
        "support of it, as we agreed\norders:\n") +
        "plans: {marches: [{from: winterfell, moves: {moat_cailin: [knight]}, \n"
        "leave_power_token: true}]}\n\n-- \nNed\n")
    body = "\n".join((" " + line if line.startswith((" ", "From ")) else line)
                     for line in body.split("\n"))
    return plain(body, ctype="text/plain; charset=utf-8; format=flowed")


def delsp() -> bytes:
    body = ORDERS.replace("  white_harbor: support\n", "  white_har \nbor: support\n")
    body = "\n".join((" " + line if line.startswith(" ") else line) for line in body.split("\n"))
    return plain(body, ctype='text/plain; charset=utf-8; format=flowed; delsp=yes')


def nested(depth: int) -> bytes:
    head = crlf(f"{HEAD}Subject: deep\nMIME-Version: 1.0\n")
    inner = b"Content-Type: text/plain\r\n\r\n" + crlf(ORDERS)
    for level in range(depth):
        inner = (f'Content-Type: multipart/mixed; boundary="n{level}"\r\n\r\n--n{level}\r\n'
                 .encode() + inner + f"\r\n--n{level}--\r\n".encode())
    return head + inner


def attachment(name: str, data: bytes, ctype: str = "application/yaml") -> bytes:
    return (f'Content-Type: {ctype}\r\nContent-Disposition: attachment; filename="{name}"\r\n'
            "Content-Transfer-Encoding: base64\r\n\r\n").encode() + base64.encodebytes(data)


def text_part(body: str) -> bytes:
    return b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + crlf(body)


def encoded_subject(words: int) -> str:
    return " ".join(["=?utf-8?q?a?="] * words)


CASES: dict[str, tuple[bytes, str, list[str]]] = {
    "flowed": (flowed(), "accepted", ["March from Winterfell: 1 knight to Moat Cailin"]),
    "flowed_delsp": (delsp(), "accepted", ["Support in White Harbor"]),
    "stray_line": (plain(ORDERS.replace("orders:", "My orders for this round:\norders:")),
                   "malformed", ["`My orders for this round:`", "is not YAML"]),
    "wrapped_comment": (plain(ORDERS.replace("  white_harbor", "  # the fleet stays where it is\n"
                                             "for now\n  white_harbor")),
                        "malformed", ["`for now`", "goes on at line"]),
    "from_8bit": (crlf(f"From: 张三 <张三@example.cn>\nTo: gm@example.org\nSubject: 命令\n"
                       f"Date: Tue, 01 Dec 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
                       f"Content-Type: text/plain; charset=utf-8\n\n{ORDERS}"),
                  "accepted", ["From: 张三@example.cn", "Subject: 命令"]),
    "subject_escape": (plain(ORDERS, subject="=?utf-8?q?hi_=1B]0;owned=07_=1B[2J?="),
                       "accepted", ["Subject: hi \\x1b]0;owned\\x07 \\x1b[2J"]),
    "subject_newline": (plain(ORDERS, subject="=?utf-8?q?a=0ABcc:_x@y?="),
                        "accepted", ["Subject: a\\nBcc: x@y"]),
    "subject_many_words": (plain(ORDERS, subject=encoded_subject(1000)), "malformed",
                           ["encoded words"]),
    "many_headers": (plain(ORDERS, extra="".join(f"X-H{i}: {i}\n" for i in range(300))),
                     "malformed", ["307 header fields; the limit is 200"]),
    "long_header": (plain(ORDERS, extra="X-Long: " + "x" * 20000 + "\n"), "malformed",
                    ["the header field X-Long is"]),
    "nested_970": (nested(970), "malformed", ["over 100 MIME parts"]),
    "nested_12": (nested(12), "malformed", ["nested over 10 deep"]),
    "many_parts": (multipart([b"\r\n"] * 5000), "malformed", ["over 100 MIME parts"]),
    "many_attachments": (multipart([text_part(ORDERS)] + [attachment(f"f{i}.txt", b"x", "text/plain")
                                                          for i in range(30)]),
                         "malformed", ["over 20 attachments"]),
    "unknown_charset": (plain(ORDERS, ctype="text/plain; charset=x-no-such-charset"),
                        "accepted", ["Support in White Harbor"]),
    "charset_nul": (plain(ORDERS, ctype='text/plain; charset="x\x00y"'), "malformed",
                    ["cannot be decoded"]),
    "base64_body": (plain(base64.encodebytes(crlf(ORDERS)).decode(), cte="base64"), "accepted",
                    ["Support in White Harbor"]),
    "qp_body": (plain(quopri.encodestring(crlf(ORDERS)).decode(), cte="quoted-printable"),
                "accepted", ["Support in White Harbor"]),
    "yaml_attachment_base64": (multipart([text_part("orders attached\n"),
                                          attachment("stark.yaml", ORDERS.encode())]),
                               "accepted", ["Support in White Harbor"]),
    "attachment_names_escape": (multipart([attachment("a\x1b[2J.yaml", ORDERS.encode()),
                                           attachment("b\u202e.yaml", ORDERS.encode())]),
                                "malformed", ["attachment a\\x1b[2J.yaml", "b\\u202e.yaml"]),
    "hex_integer": (plain(ORDERS + "wildlings: 0x" + "f" * 5000 + "\n"), "malformed",
                    ["numbers have at most 100"]),
    "answers_number": (plain(ORDERS + "answers: 5\n"), "malformed", ["not the shape"]),
    "answers_list": (plain(ORDERS + "answers: [x]\n"), "malformed", ["not the shape"]),
    "misspelt_key_list": (plain(ORDERS + "plnas:\n  - [a, b]\n"), "malformed",
                          ["not the shape"]),
    "house_escape": (plain(ORDERS.replace("house: stark", 'house: "st\\e[2Jark"')), "refused",
                     ["'st\\x1b[2Jark' is not a house"]),
    "no_boundary": (crlf(f"{HEAD}Subject: x\nMIME-Version: 1.0\nContent-Type: multipart/mixed\n\n"
                         f"{ORDERS}"), "malformed", ["malformed mail message"]),
    "binary": (bytes(range(256)) * 8, "malformed", []),
    "secret_mangled": (plain(ORDERS.replace(f"secret: {SECRET}", f"secret = {SECRET}")
                             + f"\nPS my key is x{SECRET}, Subject: {SECRET}\n"), "malformed",
                       ["is not YAML of the submission", "[secret removed]"]),
    "secret_qp_split": (plain(quopri.encodestring(crlf(ORDERS.replace(
        "house: stark", "house: stark # " + "x" * 60))).decode().replace(
        SECRET[:10], SECRET[:10] + "=\r\n"), cte="quoted-printable"), "accepted",
                        ["Support in White Harbor"]),
    "empty_headers_only": (crlf(f"{HEAD}Subject: x\n"), "malformed", ["no submission found"]),
    # a secret written with `=` that is no house's (another game's, a guess): never shown back
    "secret_equals_subject": (plain(ORDERS, subject=f"orders, secret={OTHER}"), "accepted",
                              ["Subject: orders, secret=[secret removed]"], [OTHER]),
    "secret_equals_stray": (plain(ORDERS.replace("orders:\n", f"secret={OTHER}\norders:\n")),
                            "malformed", ["`secret=[secret removed]`", "is not YAML"], [OTHER]),
    "secret_equals_wrong": (plain(ORDERS.replace(f"secret: {SECRET}", f"secret: {OTHER}"),
                                  subject=f"Re: 'secret' = {OTHER}"),
                            "refused", ["the secret given is not stark's",
                                        "Subject: Re: 'secret' = [secret removed]"], [OTHER]),
}


def main() -> None:
    expected = {}
    for name, (raw, verdict, says, *hides) in CASES.items():
        (HERE / f"{name}.eml").write_bytes(raw)
        expected[name] = {"verdict": verdict, "says": says}
        if hides:
            expected[name]["hides"] = hides[0]
    (HERE / "cases.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")


if __name__ == "__main__":
    main()
