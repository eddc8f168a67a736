"""Message catalogs: every sentence written for a person is an English ``msgid`` translated
through :mod:`gettext`, with a catalog per language in ``agot_adjudicator/locale``.

The catalogs are the ``.po`` files in the repository (``locale/zh_Hans/LC_MESSAGES/agot.po``,
``locale/zh_Hant/...``); no ``.mo`` is committed or built. At first use a catalog is read with
polib (a small pure-Python library, the one run-time dependency this needs), turned into the
``.mo`` image in memory and read by the standard library's :class:`gettext.GNUTranslations`.
So a fresh ``pip install`` needs no build step, and a catalog cannot disagree with its compiled
form. New sentences reach the catalogs with ``python -m agot_adjudicator.render.catalog update``
(:mod:`.catalog`, Babel's extractor: a development tool, in the ``test`` extra).

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

import gettext
import io
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polib reads a catalog when one is first used: English never imports it
    import polib

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
"""The languages agot writes: English (the source) and simplified and traditional Chinese."""
CATALOGS = ("zh-Hans", "zh-Hant")
"""The languages with a catalog (English is the source)."""
DOMAIN = "agot"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def po_path(lang: str) -> Path:
    """The catalog of ``lang`` (``zh-Hans`` → ``locale/zh_Hans/LC_MESSAGES/agot.po``)."""
    return LOCALE_DIR / lang.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path) -> polib.POFile:
    """The ``.po`` file at ``path``, as polib reads it (long lines never rewrapped on save)."""
    import polib

    return polib.pofile(str(path), encoding="utf-8", wrapwidth=0)


@cache
def _catalog(lang: str) -> polib.POFile:
    return read_catalog(po_path(lang))


def catalog_entries(lang: str) -> dict[str, str]:
    """``msgid`` → ``msgstr`` of the translated entries of ``lang``'s catalog, in file order
    (fuzzy, obsolete and empty translations left out, as msgfmt does).

    >>> catalog_entries("zh-Hant")["Orders are revealed."]
    '公佈命令。'
    """
    return {e.msgid: e.msgstr for e in _catalog(lang).translated_entries()}


@cache
def translator(lang: str) -> gettext.NullTranslations:
    """The translator of ``lang`` (one of :data:`LANGUAGES`): English returns every message as
    it is; a Chinese one reads its ``.po``, compiled in memory."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(_catalog(lang).to_binary()))


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
