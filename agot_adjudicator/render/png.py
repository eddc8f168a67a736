"""SVG pictures as PNG, for forums and chat servers that show no SVG (``agot map -o F.png``).

Rendered by ``resvg-py`` (resvg compiled into a wheel: no system library, no
system tool). Text uses the fonts shipped in ``data/fonts`` and never the
machine's, so labels render on a machine with no fonts at all and the same
resvg-py version gives the same bytes everywhere: a DejaVu Sans subset (Latin
letters, punctuation, symbols) for English pictures, and Noto Sans CJK SC and TC
subsets, Regular and Bold (SIL Open Font License 1.1, ``NotoSansCJK-OFL.txt``),
for Chinese ones, which name them first in their ``font-family``
(:data:`agot_adjudicator.render.picture.FONTS`). The CJK subsets hold every character
of the glossary and both message catalogs; ``tools/subset_cjk_font.py`` regenerates them.
"""

from __future__ import annotations

from pathlib import Path

from agot_adjudicator.errors import UsageError

FONT_FAMILY = "DejaVu Sans"
FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
LATIN_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
CJK_FACES = (("NotoSansCJKsc-Regular-subset.otf", "Noto Sans CJK SC", "Regular"),
             ("NotoSansCJKsc-Bold-subset.otf", "Noto Sans CJK SC", "Bold"),
             ("NotoSansCJKtc-Regular-subset.otf", "Noto Sans CJK TC", "Regular"),
             ("NotoSansCJKtc-Bold-subset.otf", "Noto Sans CJK TC", "Bold"))
"""The shipped CJK subsets: file, family, weight (``tools/subset_cjk_font.py`` writes them)."""
FONT_FILES = LATIN_FILES + tuple(name for name, _, _ in CJK_FACES)
WEB_FONTS = FONT_DIR / "web"
"""The CJK subsets cut into WOFF2 slices for the web site (``tools/web_fonts.py``), with
``slices.json`` naming each slice's family, weight and characters."""
INSTALL_HINT = "pip install 'agot-adjudicator[png]' (or: pip install resvg-py)"


def font_paths(cjk: bool = True) -> list[str]:
    """The shipped font files, as paths resvg can open (``cjk``: with the CJK subsets)."""
    names = FONT_FILES if cjk else LATIN_FILES
    return [str(FONT_DIR / name) for name in names]


def png_available() -> bool:
    """Whether the PNG renderer is installed."""
    try:
        import resvg_py  # noqa: F401
    except ImportError:
        return False
    return True


def needs_cjk(svg: str) -> bool:
    """Whether a picture has text beyond the Latin subset (CJK ideographs, kana, full-width
    punctuation): then the CJK subsets are loaded too.

    >>> needs_cjk("<text>Winterfell ★</text>"), needs_cjk("<text>临冬城</text>")
    (False, True)
    """
    return any("\u2e80" <= c <= "\u9fff" or "\uf900" <= c <= "\uffef" for c in svg)


def svg_to_png(svg: str, *, cjk: bool | None = None, width: int | None = None) -> bytes:
    """PNG bytes of an SVG picture, at its own size (or ``width`` pixels wide), on a white
    background.

    ``cjk``: load the CJK subsets (default: when the picture has CJK text, :func:`needs_cjk`;
    English pictures render as before without them). Raises :class:`UsageError` (exit 2)
    naming the install command when ``resvg-py`` is missing.
    """
    try:
        import resvg_py
    except ImportError:
        raise UsageError(f"PNG pictures need the resvg-py package: {INSTALL_HINT}") from None
    fonts = font_paths(needs_cjk(svg) if cjk is None else cjk)
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg, background="#ffffff", skip_system_fonts=True, font_files=fonts, width=width,
        font_family=FONT_FAMILY, sans_serif_family=FONT_FAMILY, serif_family=FONT_FAMILY,
        monospace_family=FONT_FAMILY))
