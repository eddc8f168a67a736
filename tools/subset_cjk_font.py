"""Regenerate the Noto Sans CJK subsets that ``agot map -o F.png`` draws Chinese labels with.

The PNG renderer (``agot_adjudicator/render/png.py``, resvg-py) never reads the machine's fonts,
so the package ships the glyphs it needs: Noto Sans CJK SC and TC (SIL Open Font License 1.1,
``agot_adjudicator/data/fonts/NotoSansCJK-OFL.txt``), Regular and Bold, cut down to every
character of the glossary's names (both scripts, the intake names too), both message catalogs
and printable ASCII, with a few symbols the pictures draw. Each subset holds every character of
both scripts, so either face draws either language (the SC face is named first for zh-Hans
pictures, the TC face for zh-Hant).

Run it after a catalog or the glossary gains a character (``tests/test_picture_chinese.py``
fails and names the characters missing)::

    apt-get install fonts-noto-cjk        # Debian/Ubuntu: NotoSansCJK-{Regular,Bold}.ttc
    pip install fonttools brotli          # for this script only
    python tools/subset_cjk_font.py       # --source DIR for another folder of the .ttc files

It then cuts the new subsets into the web site's WOFF2 slices (``tools/web_fonts.py``).

The output is deterministic for the same source fonts and fontTools version (no timestamp).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml
from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agot_adjudicator.render.i18n import CATALOGS, catalog_entries  # noqa: E402
from agot_adjudicator.render.png import CJK_FACES, FONT_DIR  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto")
GLOSSARY = ROOT / "agot_adjudicator" / "data" / "first_edition" / "glossary.yaml"
EXTRA = "★☆✕✗⚔·‧•–—…→←↑↓×÷±°“”‘’「」『』【】《》〈〉、。，．：；！？（）［］｛｝～－＋／＝％"
"""Symbols and full-width punctuation the pictures and translations may use."""


def glossary_text(path: Path = GLOSSARY) -> str:
    """Every name of the glossary, shown or accepted, in every locale."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for entries in data.values():
        if not isinstance(entries, dict):
            continue
        for entry in entries.values():
            if not isinstance(entry, dict):  # nouns: kind → [{name, in, at}]
                out.extend(str(w["name"]) for w in entry)
                continue
            for key, value in entry.items():
                if key in ("en", "zh-Hans", "zh-Hant"):
                    out.append(str(value))
                elif key == "also":
                    out.extend(str(v) for names in value.values() for v in names)
                elif key == "written":
                    out.extend(str(w["name"]) for w in value)
                elif key == "measure":
                    out.extend(str(v) for v in value.values())
    return "".join(out)


def catalog_text() -> str:
    """Every translation of both catalogs."""
    return "".join(s for lang in CATALOGS for s in catalog_entries(lang).values())


def characters() -> str:
    """The characters the subsets hold: sorted, printable, deduplicated."""
    text = glossary_text() + catalog_text() + "".join(map(chr, range(0x20, 0x7F))) + EXTRA
    return "".join(sorted({c for c in text if c.isprintable()}))


def face(collection: Path, family: str):
    """The face named ``family`` in a ``.ttc``."""
    for font in TTCollection(str(collection)).fonts:
        if font["name"].getDebugName(1) == family:
            return font
    raise SystemExit(f"{collection}: no face {family!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE,
                        help="folder of NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc")
    args = parser.parse_args()
    text = characters()
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and the license
    options.hinting = False
    options.notdef_outline = True  # a missing character shows as a box, not as nothing
    options.layout_features = ["kern", "liga", "locl", "ccmp", "halt", "palt"]
    for file_name, family, weight in CJK_FACES:
        font = face(args.source / f"NotoSansCJK-{weight}.ttc", family)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        font.recalcTimestamp = False
        out = FONT_DIR / file_name
        font.save(str(out))
        print(f"{out.relative_to(ROOT)}: {len(text)} characters, {out.stat().st_size} bytes")
    from web_fonts import main as web_fonts

    web_fonts()


if __name__ == "__main__":
    main()
