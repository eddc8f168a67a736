"""The web site's stylesheet (``style.css``) and the ``@font-face`` rules of its Chinese web font
slices (``agot site``): one stylesheet for every page, no script, nothing fetched from
elsewhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

STYLESHEET = "style.css"
STYLE = """\
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", \
sans-serif; color: #1a1a1a; background: #fbf8f1; }
body:lang(zh-Hans) { font-family: "Noto Sans CJK SC", "Noto Sans CJK TC", system-ui, \
sans-serif; }
body:lang(zh-Hant) { font-family: "Noto Sans CJK TC", "Noto Sans CJK SC", system-ui, \
sans-serif; }
main, header.site, footer.site { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
header.site { padding-top: 1rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0; }
h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 2px solid #d8ccb0; }
h3 { font-size: 1.1rem; margin-top: 1.5rem; }
h4 { font-size: 1rem; }
a { color: #0b4f8a; }
a:focus { outline: 3px solid #b35c00; outline-offset: 2px; }
nav.pager { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; margin: .75rem 0;
  padding: .5rem .75rem; background: #efe6d2; border-radius: 6px; }
nav.pager .keys { font-size: .85rem; color: #4a4a4a; }
figure { margin: 1rem 0; }
figure img { display: block; width: 100%; height: auto; border: 1px solid #c9bda3; background: #fff; }
figcaption { font-size: .9rem; color: #3a3a3a; margin-top: .25rem; }
.map { overflow-x: auto; -webkit-overflow-scrolling: touch; border: 1px solid #c9bda3;
  background: #fff; }
.map svg { display: block; width: 100%; height: auto; min-width: 60rem; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .92rem; }
th, td { border: 1px solid #c9bda3; padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #efe6d2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: .85em; word-break: break-all; }
.badge { display: inline-block; min-width: 1.6em; padding: 0 .3em; margin-right: .35em; text-align: center;
  font-weight: bold; border: 1px solid #111; border-radius: 3px; }
.result { padding: .75rem 1rem; background: #fff4c9; border: 2px solid #8a6d00; border-radius: 6px; }
.result h2 { margin-top: 0; }
tr.winner th, tr.winner td { background: #fff0b3; font-weight: bold; }
th[scope="row"] { white-space: nowrap; }
.glance { padding: .5rem 1rem .75rem; background: #fff; border: 1px solid #c9bda3; border-radius: 6px; }
.glance h2 { margin-top: .5rem; }
.glance dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
.glance dt { font-weight: bold; }
.glance dd { margin: 0; }
.glance table.battles { min-width: 40rem; }
.glance td.who { white-space: nowrap; }
.facts { display: flex; flex-wrap: wrap; gap: 0 2rem; }
ol.rounds li { margin: .2rem 0; }
details { margin: .5rem 0; border: 1px solid #d8ccb0; border-radius: 6px; background: #fffdf8; }
details > summary { cursor: pointer; padding: .35rem .75rem; font-weight: bold; }
details > :not(summary) { margin-left: .75rem; margin-right: .75rem; }
ol.timeline { padding-left: 2.5rem; }
ol.timeline .rule { font-size: .85rem; color: #4a4a4a; white-space: nowrap; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1rem; }
.charts svg { width: 100%; height: auto; border: 1px solid #c9bda3; background: #fff; }
.steps img { max-width: 32rem; }
footer.site { margin: 3rem auto 2rem; font-size: .85rem; color: #4a4a4a; }
@media (max-width: 40rem) { body { font-size: 15px; } h1 { font-size: 1.35rem; }
  .glance dl { grid-template-columns: 1fr; } }
@media print {
  body { background: #fff; font-size: 11pt; }
  nav.pager, footer.site .keys, .no-print { display: none; }
  main, header.site, footer.site { max-width: none; padding: 0; }
  a { color: #000; text-decoration: none; }
  .map { overflow: visible; border: none; }
  .map svg { min-width: 0; max-height: 24cm; }
  figure, table, .glance, .chart { break-inside: avoid; }
  details { border: none; }
  details:not([open]) { display: none; }
  h2 { break-after: avoid; }
}
"""

def unicode_range(chars: str) -> str:
    """A CSS ``unicode-range`` for a set of characters, runs written as ranges.

    >>> unicode_range("ABCE临")
    'U+41-43, U+45, U+4E34'
    """
    points = sorted({ord(c) for c in chars})
    runs: list[list[int]] = []
    for p in points:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


def font_faces(slices: Sequence[Mapping[str, Any]], folder: str) -> str:
    """``@font-face`` rules for the web font slices a site carries (``slices.json`` entries):
    each names the characters it has, so a browser fetches a slice only for a page that uses
    one of them."""
    return "".join(
        f'@font-face {{ font-family: "{entry["family"]}"; font-weight: {entry["weight"]}; '
        f"font-style: normal; font-display: swap; src: url({folder}{entry['file']}) "
        f'format("woff2"); unicode-range: {unicode_range(entry["chars"])}; }}\n'
        for entry in slices)
