"""SVG pictures as PNG, for forums and chat servers that show no SVG (``agot map -o F.png``).

Rendered by ``resvg-py`` (resvg compiled into a wheel: no system library, no
system tool). Text uses the DejaVu Sans subset shipped in ``data/fonts`` and
never the machine's fonts, so labels render on a machine with no fonts at all
and the same resvg-py version gives the same bytes everywhere.
"""

from __future__ import annotations

from importlib import resources

from agot_adjudicator.errors import UsageError

FONT_FAMILY = "DejaVu Sans"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
INSTALL_HINT = "pip install 'agot-adjudicator[png]' (or: pip install resvg-py)"


def font_paths() -> list[str]:
    """The shipped font files, as paths resvg can open."""
    folder = resources.files("agot_adjudicator") / "data" / "fonts"
    return [str(folder / name) for name in FONT_FILES]


def png_available() -> bool:
    """Whether the PNG renderer is installed."""
    try:
        import resvg_py  # noqa: F401
    except ImportError:
        return False
    return True


def svg_to_png(svg: str) -> bytes:
    """PNG bytes of an SVG picture, at its own size, on a white background.

    Raises :class:`UsageError` (exit 2) naming the install command when
    ``resvg-py`` is missing.
    """
    try:
        import resvg_py
    except ImportError:
        raise UsageError(f"PNG pictures need the resvg-py package: {INSTALL_HINT}") from None
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg, background="#ffffff", skip_system_fonts=True, font_files=font_paths(),
        font_family=FONT_FAMILY, sans_serif_family=FONT_FAMILY, serif_family=FONT_FAMILY,
        monospace_family=FONT_FAMILY))
