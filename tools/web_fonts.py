"""Cut the shipped Noto Sans CJK subsets into WOFF2 slices for the web site (``agot site``).

    pip install fonttools brotli     # for this script only
    python tools/web_fonts.py        # after tools/subset_cjk_font.py

A page in Chinese must show Chinese on a machine with no CJK font, so the site carries the
font itself (``@font-face``, WOFF2). Browsers fetch a face's file only for the characters a
page uses when the face says which characters it has (``unicode-range``), so each face is cut
into slices of the characters agot writes, the most used first (counted over the glossary's
names and the catalog in the face's script): a page that uses the common words loads the
first slices only, and ``agot site`` copies into a site only the slices its pages use. Latin
letters are left to the reader's own fonts. Writes ``agot_adjudicator/data/fonts/web/*.woff2``
and ``slices.json`` (file, family, weight and characters of each slice). Deterministic for
the same fonts and fontTools.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from subset_cjk_font import catalog_text, characters, glossary_text  # noqa: E402

from agot_adjudicator.render.png import CJK_FACES, FONT_DIR  # noqa: E402

WEB_DIR = FONT_DIR / "web"
SLICE = 160
"""Characters a slice holds (about 25–35 KB of WOFF2 each)."""


def is_latin(char: str) -> bool:
    """Characters the readers' own fonts draw (Latin, Greek and their punctuation)."""
    return ord(char) < 0x2000


def script_text(lang: str) -> str:
    """Every text agot writes in ``lang``: its catalog's translations and the glossary's names
    in that script."""
    import yaml
    from subset_cjk_font import GLOSSARY

    from agot_adjudicator.render.i18n import catalog_entries

    names = []
    for entries in yaml.safe_load(GLOSSARY.read_text(encoding="utf-8")).values():
        if isinstance(entries, dict):
            names += [str(e[lang]) for e in entries.values() if isinstance(e, dict) and lang in e]
    return "".join(names) + "".join(catalog_entries(lang).values())


def slices(lang: str) -> list[str]:
    """The CJK characters agot writes, those of ``lang`` first, the most used first, cut into
    slices (the other script's characters last: a page in ``lang`` seldom needs them)."""
    counts = Counter(script_text(lang))
    everything = Counter(glossary_text() + catalog_text())
    wanted = [c for c in characters() if not is_latin(c)]
    ranked = sorted(wanted, key=lambda c: (-counts[c], -everything[c], c))
    return ["".join(sorted(ranked[i:i + SLICE])) for i in range(0, len(ranked), SLICE)]


def main() -> None:
    WEB_DIR.mkdir(exist_ok=True)
    for old in WEB_DIR.glob("*.woff2"):
        old.unlink()
    manifest = []
    options = subset.Options()
    options.flavor = "woff2"
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and the license
    options.hinting = False
    options.notdef_outline = False
    options.layout_features = ["kern", "liga", "locl", "ccmp", "halt", "palt", "vert", "vrt2"]
    for file_name, family, weight in CJK_FACES:
        lang = "zh-Hans" if family.endswith("SC") else "zh-Hant"
        for number, chars in enumerate(slices(lang), start=1):
            font = TTFont(str(FONT_DIR / file_name))
            subsetter = subset.Subsetter(options)
            subsetter.populate(text=chars)
            subsetter.subset(font)
            font.flavor = "woff2"
            font.recalcTimestamp = False
            name = f"{Path(file_name).stem.replace('-subset', '')}-{number:02d}.woff2"
            font.save(str(WEB_DIR / name))
            manifest.append({"file": name, "family": family,
                             "weight": 700 if weight == "Bold" else 400, "chars": chars})
            print(f"{name}: {len(chars)} characters, {(WEB_DIR / name).stat().st_size} bytes")
    (WEB_DIR / "slices.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1)
                                         + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
