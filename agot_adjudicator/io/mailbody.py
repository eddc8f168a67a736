"""The text of a message's body (``agot inbox``, docs/protocol.md P8): the submission found in
it (RUL-P8-1), ``format=flowed`` decoded (RFC 3676), HTML reduced to text, and values from a
message made printable (issue 27). Pure functions of text: no I/O.
"""

from __future__ import annotations

import html.parser
import re
from dataclasses import dataclass

from agot_adjudicator.errors import escaped

SHOWN = 200
"""At most this many characters of a header value (Subject, From, a file name) are shown."""
_FORMAT_LINE = re.compile(r"""^format:[ \t]*(["']?)agot-orders/1\1[ \t]*(#.*)?$""")
_KEY_LINE = re.compile(r"""^(?:[A-Za-z_$][\w$-]*|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]|$)""")


def shown(text: str | None, limit: int = SHOWN) -> str:
    r"""A value that came from a message, safe to print or keep in a receipt: on one line,
    control, bidirectional and other unprintable characters escaped, cut to ``limit``.

    >>> print(shown("hi \x1b]0;owned\x07\nnext"))
    hi \x1b]0;owned\x07\nnext
    >>> shown("{house: stark, secret: s3cr3t}")
    '{house: stark, secret: [secret removed]}'
    """
    text = clean(text or "").replace("\r", "\\r").replace("\n", "\\n")
    return escaped(written_secrets_hidden(text), limit)


REMOVED = "[secret removed]"
"""What a secret is replaced by, wherever it was."""
SECRET_VALUE = r"""(secret["']?[ \t]*[:=][ \t]*["']?)([^\s"',}\]\[{]+)"""
"""The one rule of a secret written in a message (a YAML line, a flow mapping, a quoted reply,
a Subject, ``secret = VALUE`` or ``secret=VALUE``): ``secret``, any case, maybe quoted, then
``:`` or ``=``, then its value (group 2) up to a space, a quote, a comma or a bracket. Used on
text here (:func:`shown`) and on bytes by :mod:`~agot_adjudicator.io.mailsecret`."""
_SECRET_TEXT = re.compile(SECRET_VALUE, re.IGNORECASE)


def written_secrets_hidden(text: str) -> str:
    """``text`` with the value of every secret written in it (:data:`SECRET_VALUE`) replaced
    by :data:`REMOVED`.

    >>> written_secrets_hidden("re: secret=hunter2, {secret: x}")
    're: secret=[secret removed], {secret: [secret removed]}'
    """
    return _SECRET_TEXT.sub(lambda m: m.group(1) + REMOVED, text)


def clean(text: str) -> str:
    r"""Header text with the bytes the parser kept as surrogates read as UTF-8 (RFC 6532:
    internationalized headers), any byte that is not UTF-8 as U+FFFD.

    >>> clean("\udce5\udcbc\udca0@example.cn")
    '张@example.cn'
    """
    if not any("\udc80" <= c <= "\udcff" for c in text):
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


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


@dataclass
class Block:
    """One submission found in a body text."""

    line: int
    """Its ``format:`` line's number."""
    text: str
    """The YAML, keeping the body's line numbers (every other line blank)."""
    stray: tuple[int, str, int] | None = None
    """A line that cannot belong to the YAML though the submission goes on after it: (its
    number, its text, the number of the line where the submission goes on)."""


_TOP_KEY = re.compile(r"""^(?:secret|house|round|orders|bids|wildlings|plans|answers|withdraw)"""
                      r"""[ \t]*:(?:[ \t]|$)""")
"""A key of an ``agot-orders/1`` submission: after a stray line, the submission goes on."""


def body_blocks(text: str) -> list[Block]:
    r"""The submissions in a body text (RUL-P8-1). A block ends at the signature line
    (``-- ``), at a second ``format:`` line, or at a line that cannot continue the mapping;
    when such a line is followed, in its paragraph, by YAML indented under the block, or
    anywhere before the signature by a submission key (``orders:``, ``plans:`` ...) at the
    block's indentation, it is a stray line inside the submission: :attr:`Block.stray`
    names it (nothing is cut silently, issue 27).

    >>> body = "Hi all,\n\n> format: agot-orders/1\nformat: agot-orders/1\nround: 1\n" \
    ...        "house: stark\n  # ok\nCheers\n-- \nNed"
    >>> [(b.line, b.text.splitlines(), b.stray) for b in body_blocks(body)]
    [(4, ['', '', '', 'format: agot-orders/1', 'round: 1', 'house: stark', '  # ok'], None)]
    >>> [b.stray for b in body_blocks("format: agot-orders/1\nMy plans:\nplans: {}\n")]
    [(2, 'My plans:', 3)]
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
        stray = None
        for number in range(start + 1, len(lines)):
            raw = lines[number]
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
                resume = _goes_on(lines, number, indent)
                if resume is not None:
                    stray = (number + 1, shown(raw.strip(), 80), resume + 1)
                break
            if depth == indent and _FORMAT_LINE.match(rest):
                break  # a second submission starts: counted on its own
            kept.append(rest.rstrip())
        while kept and not kept[-1]:
            kept.pop()
        blocks.append(Block(start + 1, "\n".join(kept) + "\n", stray))
    return blocks


def _goes_on(lines: list[str], stop: int, indent: int) -> int | None:
    """The line after ``stop`` where the submission goes on, or None: in ``stop``'s
    paragraph, a line indented under the block; before the signature or the next
    ``format:`` line, a submission key at the block's indentation."""
    paragraph = True
    for number in range(stop + 1, len(lines)):
        raw = lines[number]
        if raw.startswith(">"):
            continue
        if raw.rstrip() == "--":
            return None
        current = _expand(raw)
        if not current.strip():
            paragraph = False
            continue
        depth = len(current) - len(current.lstrip(" "))
        rest = current[indent:] if depth >= indent else ""
        if depth == indent and _FORMAT_LINE.match(rest):
            return None
        if depth == indent and _TOP_KEY.match(rest):
            return number
        if paragraph and depth > indent and (_KEY_LINE.match(rest.lstrip())
                                             or rest.lstrip().startswith("- ")):
            return number
    return None


def unflow(text: str, delsp: bool = False) -> str:
    r"""A ``format=flowed`` text (RFC 3676) as written: space-stuffing removed (4.4), soft
    line breaks (a line ending in a space, quote depths equal, 4.2) joined, the space
    before a soft break dropped with ``DelSp=Yes`` (4.5); the signature line stays.

    >>> unflow("orders: \n winterfell: x\n#  a long \ncomment\n-- \nNed")
    'orders: winterfell: x\n#  a long comment\n-- \nNed'
    """
    out: list[str] = []
    pending: tuple[int, str] | None = None
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]
        if pending is not None and pending[0] == depth:
            body = pending[1] + body
            pending = None
        elif pending is not None:
            out.append(">" * pending[0] + pending[1])
            pending = None
        if body.endswith(" ") and body != "-- ":
            pending = (depth, body[:-1] if delsp else body)
            continue
        out.append(">" * depth + body)
    if pending is not None:
        out.append(">" * pending[0] + pending[1])
    return "\n".join(out)


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


def _opens_block(kept: list[str]) -> bool:
    """Whether the last line kept (not blank, not a comment) is a key with no value on its
    line or an item of a sequence at the top level: a ``- item`` line may follow."""
    for line in reversed(kept):
        text = line.split(" #", 1)[0].rstrip()
        if not text or text.lstrip().startswith("#"):
            continue
        return text.endswith(":") or line.startswith("- ")
    return False
