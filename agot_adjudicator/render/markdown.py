"""The report's Markdown as HTML (``agot site``): the few constructs the report writes
(headings, lists, pipe tables, inline code, strong text, an image) converted, everything else
escaped."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape

_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_IMAGE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)$")
_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*([^*]+)\*\*")
_SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def inline(text: str) -> str:
    """Escape ``text`` and mark up its inline code and bold.

    >>> inline("a <b> `x&y` **z**")
    'a &lt;b&gt; <code>x&amp;y</code> <strong>z</strong>'
    """
    out = escape(text, quote=True)
    out = _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", out)
    return _STRONG.sub(lambda m: f"<strong>{m.group(1)}</strong>", out)


def _cells(row: str) -> list[str]:
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [c.strip() for c in body.split("|")]


def _table_html(rows: Sequence[str]) -> str:
    head = _cells(rows[0]) if len(rows) > 1 and _SEPARATOR.match(rows[1]) else None
    body = rows[2:] if head is not None else rows
    out = ['<div class="scroll"><table>']
    if head is not None:
        out.append("<thead><tr>" + "".join(f'<th scope="col">{inline(c)}</th>' for c in head)
                   + "</tr></thead>")
    out.append("<tbody>")
    for row in body:
        cells = "".join(f'<td class="num">{inline(c)}</td>' if _NUMBER.match(c) else f"<td>{inline(c)}</td>"
                        for c in _cells(row))
        out.append(f"<tr>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def slug(text: str) -> str:
    """An id for a heading.

    >>> slug("Round 5 — Action phase")
    'round-5-action-phase'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def markdown_html(text: str, images: Mapping[str, str] | None = None, shift: int = 1,
                  id_prefix: str = "") -> str:
    """HTML for the report's Markdown: headings (moved down ``shift`` levels), ``-`` lists,
    pipe tables, inline code, bold, and image lines whose target is a key of ``images``
    (mapped to the site's path; other images become their alt text). Everything else
    is a paragraph; every character from ``text`` is escaped.

    >>> markdown_html("# T\\n\\n- a\\n- b <i>\\n")
    '<h2 id="t">T</h2>\\n<ul>\\n<li>a</li>\\n<li>b &lt;i&gt;</li>\\n</ul>'
    """
    images = images or {}
    out: list[str] = []
    lines = text.splitlines()
    used: dict[str, int] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = _HEADING.match(line)
        image = _IMAGE.match(line.strip())
        if heading:
            level = min(6, len(heading.group(1)) + shift)
            anchor = id_prefix + slug(heading.group(2))
            used[anchor] = used.get(anchor, 0) + 1
            if used[anchor] > 1:
                anchor += f"-{used[anchor]}"
            out.append(f'<h{level} id="{escape(anchor)}">{inline(heading.group(2))}</h{level}>')
            i += 1
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{inline(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>\n" + "\n".join(items) + "\n</ul>")
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            out.append(_table_html(rows))
        elif image:
            alt, target = image.group(1), image.group(2)
            if target in images:
                out.append(f'<p><a href="{escape(images[target])}">{inline(alt)}</a></p>')
            else:
                out.append(f"<p>{inline(alt)}</p>")
            i += 1
        else:
            para = []
            while (i < len(lines) and lines[i].strip() and not _HEADING.match(lines[i])
                   and not lines[i].startswith(("- ", "|"))):
                para.append(inline(lines[i]))
                i += 1
            out.append("<p>" + "\n".join(para) + "</p>")
    return "\n".join(out)
