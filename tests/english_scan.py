"""Find English left in a text written for a Chinese reader (issue 18: "no English sentence
left"): the ASCII words that are not ids, numbers, rule references, file names, hashes or
other tokens a reader types or checks as they are."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from email import message_from_string
from email.policy import SMTP

from agot_adjudicator.model.ruleset import Ruleset

ALLOWED = re.compile(r"""
      R\d+(?:\.\d+)*[a-z]?                     # rule references R6.4
    | RUL-[A-Z0-9]+(?:[.-][A-Z0-9]+)*          # rulings
    | P\d+                                     # protocol sections
    | [0-9a-f]{12,}                            # hashes
    | sha256 | SHA-256
    | [\w.-]+\.(?:yaml|yml|svg|png|md|txt|eml|jsonl|html|json)  # file names
    | agot(?:/[\d.]+)? | agot-[a-z-]+/\d+      # the program, its formats
    | (?<=agot\ )[a-z]+                        # its commands (agot replay)
    | (?<=[\s、（(：，])[a-z](?=[\s、）)])         # a key to press (p、n 和 i; 快捷键：p 上一回合)
    | zh-Hans | zh-Hant | en
    | https?://\S+
    | [IV]{1,3}                                # deck numbers I, II, III
    | \w+(?:[@/][\w@+-]+)+                     # decision ids r3/march@x/y
    | round-\d+ | mail
    | UTF-8 | MIME-Version | Content-\w+(?:-\w+)* | text/\w+ | image/[\w+]+ | base64
""", re.VERBOSE)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'.-]*[A-Za-z0-9]|[A-Za-z]")


def ids_of(ruleset: Ruleset) -> set[str]:
    """Every id of the ruleset (houses, areas, orders, cards, units, tracks, tokens)."""
    ids: set[str] = set()
    glossary = ruleset.glossary
    for kind in ("house", "area", "order", "unit", "house_card", "westeros_card", "track",
                 "token"):
        ids.update(glossary.ids(kind))
    return ids


def english_words(text: str, ids: Iterable[str] = (), also: Iterable[str] = ()) -> list[str]:
    """The ASCII words of ``text`` that are none of the allowed tokens, ``ids`` (where the
    reader types ids) or ``also`` (the game id)."""
    known = set(ids) | set(also)
    stripped = ALLOWED.sub(" ", text)
    return sorted({w for w in WORD.findall(stripped) if w not in known
                   and w.strip(".'-") not in known})


def svg_text(svg: str) -> str:
    """The text a picture shows (its ``<text>``, ``<tspan>`` and ``<title>`` contents)."""
    parts = re.findall(r"<(?:text|tspan|title|desc)\b[^>]*>([^<]*)", svg)
    return "\n".join(html.unescape(p) for p in parts)


def eml_text(eml: str) -> str:
    """The subject and the text body of a message (the attachment left out)."""
    msg = message_from_string(eml, policy=SMTP)
    body = msg.get_body(("plain",))
    return f"{msg['Subject']}\n{body.get_content() if body is not None else ''}"


def html_text(page: str) -> str:
    """The visible text of an HTML page (tags, scripts and styles left out)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)
