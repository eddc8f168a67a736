"""Message catalogs: every sentence written for a person is an English ``msgid`` translated
through :mod:`gettext`, with a catalog per language in ``agot_adjudicator/locale``.

The catalogs are the ``.po`` files in the repository (``locale/zh_Hans/LC_MESSAGES/agot.po``,
``locale/zh_Hant/...``); no ``.mo`` is committed or built. At first use a catalog is compiled
in memory by :func:`compile_mo` (a small deterministic msgfmt: entries sorted, no hash table)
and read by the standard library's :class:`gettext.GNUTranslations`. So a fresh ``pip install``
needs no build step and no Babel, and a catalog cannot disagree with its compiled form.

English is the source language: its translator returns each ``msgid`` unchanged, so English
output does not depend on the catalogs at all.

>>> translator("zh-Hans").gettext("Orders are revealed.")
'公布命令。'
>>> translator("en").gettext("Orders are revealed.")
'Orders are revealed.'
>>> language_from_env({"LANG": "zh_TW.UTF-8"}), language_from_env({"LC_ALL": "C", "LANG": "zh_CN"})
('zh-Hant', 'en')
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import struct
from collections.abc import Mapping
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
"""The languages agot writes: English (the source) and simplified and traditional Chinese."""
DOMAIN = "agot"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"



def po_path(lang: str) -> Path:
    """The catalog of ``lang`` (``zh-Hans`` → ``locale/zh_Hans/LC_MESSAGES/agot.po``)."""
    return LOCALE_DIR / lang.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def parse_po(text: str) -> dict[str, str]:
    """``msgid`` → ``msgstr`` of a ``.po`` file (the header under ``""``); fuzzy and empty
    translations are left out, as msgfmt does.

    >>> parse_po('#, fuzzy\\nmsgid "a"\\nmsgstr "b"\\n\\nmsgid "x"\\n"y"\\nmsgstr "\\\\"z\\\\""\\n')
    {'xy': '"z"'}
    """
    entries: dict[str, str] = {}
    current: dict[str, list[str]] = {}
    key = ""
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in current and "msgstr" in current:
            msgid, msgstr = "".join(current["msgid"]), "".join(current["msgstr"])
            if msgstr and not (fuzzy and msgid):
                entries[msgid] = msgstr
        current.clear()
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if "msgstr" in current:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith(("msgid ", "msgstr ")):
            key, _, rest = line.partition(" ")
            if key == "msgid" and "msgstr" in current:
                flush()
            current[key] = [_unquote(rest, number)]
        elif line.startswith('"') and key in current:
            current[key].append(_unquote(line, number))
        else:
            raise ValueError(f"line {number}: not a .po line: {raw!r}")
    flush()
    return entries


def _unquote(text: str, number: int) -> str:
    if not (len(text) >= 2 and text.startswith('"') and text.endswith('"')):
        raise ValueError(f"line {number}: expected a quoted string: {text!r}")
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def compile_mo(entries: Mapping[str, str]) -> bytes:
    """The GNU ``.mo`` image of ``entries`` (msgid → msgstr): keys sorted, no hash table, so the
    same catalog gives the same bytes."""
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    start = 7 * 4 + 16 * len(keys)
    offsets, data = [], b""
    for blob in ids:
        offsets.append((len(blob), start + len(data)))
        data += blob + b"\0"
    for blob in strs:
        offsets.append((len(blob), start + len(data)))
        data += blob + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    table = b"".join(struct.pack("<2I", length, offset) for length, offset in offsets)
    return head + table + data


@cache
def translator(lang: str) -> gettext.NullTranslations:
    """The translator of ``lang`` (one of :data:`LANGUAGES`): English returns every message as
    it is; a Chinese one reads its ``.po``, compiled in memory."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    if lang == "en":
        return gettext.NullTranslations()
    entries = parse_po(po_path(lang).read_text(encoding="utf-8"))
    return gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))


_BY_LOCALE = (("zh_tw", "zh-Hant"), ("zh_hk", "zh-Hant"), ("zh_mo", "zh-Hant"),
              ("zh_hant", "zh-Hant"), ("zh-hant", "zh-Hant"), ("zh-tw", "zh-Hant"),
              ("zh-hk", "zh-Hant"), ("zh", "zh-Hans"))


def language_from_env(environ: Mapping[str, str]) -> str:
    """The language of the POSIX locale in ``environ``: the first set of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` decides; ``zh_TW``/``zh_HK``/``zh_MO``/``zh_Hant`` → zh-Hant,
    any other ``zh`` → zh-Hans, anything else (``C``, ``en_US``, unset) → en."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            low = value.lower()
            for prefix, lang in _BY_LOCALE:
                if low.startswith(prefix):
                    return lang
            return "en"
    return "en"


def language_of_tag(tag: str | None) -> str:
    """The language agot writes for a language tag (``players.yaml``'s ``language:``):
    ``zh-Hant``/``zh-TW``/``zh-HK``/``zh-MO`` → zh-Hant, another ``zh`` → zh-Hans, else en.

    >>> [language_of_tag(t) for t in ("zh-TW", "zh", "zh-Hans-CN", "en-GB", None)]
    ['zh-Hant', 'zh-Hans', 'zh-Hans', 'en', 'en']
    """
    return language_from_env({"LANG": tag.replace("-", "_")}) if tag else "en"


_RECORDED = re.compile(r"^- (?:language|语言|語言)[:：] ?(zh-Hans|zh-Hant)$", re.MULTILINE)


def recorded_language(text: str | None) -> str:
    """The language a recorded report or mail was written in: the ``language`` line of its
    record section (written only when it is not English), else en."""
    found = _RECORDED.findall(text or "")
    return found[-1] if found else "en"
