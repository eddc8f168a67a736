"""The pages of ``agot site``: a static web site of a game's public record.

Pure functions from already-checked public data (reports, event logs, public
state facts) to HTML text. Every value from a file is escaped; the report's
Markdown is converted by :func:`markdown_html`, which knows the few constructs
the report writes (headings, lists, pipe tables, inline code, an image) and
escapes everything else. Pages need no JavaScript and fetch nothing: one
stylesheet and the pictures sit beside them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import PHASE_TITLES, Names, house, lang, sep, tr
from agot_adjudicator.render.picture import (
    TRACK_NAMES,
    house_letter,
    house_style,
    outcome_text,
    round_play,
)
from agot_adjudicator.render.report import event_line, report_title
from agot_adjudicator.render.views import winner_reason

STYLESHEET = "style.css"
STYLE = """\
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: #1a1a1a; background: #fbf8f1; }
main, header.site, footer.site { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
header.site { padding-top: 1rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0; }
h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 2px solid #d8ccb0; }
h3 { font-size: 1.1rem; margin-top: 1.5rem; }
h4 { font-size: 1rem; }
a { color: #0b4f8a; }
a:focus { outline: 3px solid #d9822b; outline-offset: 2px; }
nav.pager { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; margin: .75rem 0;
  padding: .5rem .75rem; background: #efe6d2; border-radius: 6px; }
nav.pager .keys { font-size: .85rem; color: #4a4a4a; }
figure { margin: 1rem 0; }
figure img { display: block; width: 100%; height: auto; border: 1px solid #c9bda3; background: #fff; }
figcaption { font-size: .9rem; color: #3a3a3a; margin-top: .25rem; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .92rem; }
th, td { border: 1px solid #c9bda3; padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #efe6d2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: .85em; word-break: break-all; }
.badge { display: inline-block; min-width: 1.6em; padding: 0 .3em; margin-right: .35em; text-align: center;
  font-weight: bold; border: 1px solid #000; border-radius: 3px; }
.result { padding: .75rem 1rem; background: #fff4c9; border: 2px solid #b08a00; border-radius: 6px; }
.result h2 { margin-top: 0; }
th[scope="row"] { white-space: nowrap; }
ol.rounds li { margin: .2rem 0; }
ol.timeline { padding-left: 2.5rem; }
ol.timeline .rule { font-size: .85rem; color: #4a4a4a; white-space: nowrap; }
.phase { font-weight: bold; }
footer.site { margin: 3rem auto 2rem; font-size: .85rem; color: #4a4a4a; }
@media (max-width: 40rem) { body { font-size: 15px; } h1 { font-size: 1.35rem; } }
"""


# --- Markdown (the report's subset) ----------------------------------------------------------

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


# --- pages -----------------------------------------------------------------------------------

@dataclass
class HouseRow:
    """One house's public standing: the index's table."""

    house: str
    castles: int
    supply: int
    power: int
    cards: int
    tracks: dict[str, int]


@dataclass
class RoundPage:
    """What a round's page shows (all of it public)."""

    number: int
    folder: str
    report: str | None
    events: list[dict[str, Any]]
    pictures: dict[str, str] = field(default_factory=dict)
    """``moves`` / ``board`` → the picture's path in the site."""
    status: str = "adjudicated"


@dataclass
class GameSite:
    """The game as the index shows it."""

    game_id: str
    title: str
    round: int
    phase: str
    houses: list[HouseRow]
    rounds: list[RoundPage]
    board: str | None
    """The latest board picture's path in the site."""
    winner: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    """The ``game_ended`` event, once the game is over."""


def round_file(number: int) -> str:
    return f"round-{number:02d}.html"


def _page(title: str, body: str, prev_link: str = "", next_link: str = "", lang: str = "en") -> str:
    links = ['<link rel="stylesheet" href="style.css">']
    if prev_link:
        links.append(f'<link rel="prev" href="{escape(prev_link)}">')
    if next_link:
        links.append(f'<link rel="next" href="{escape(next_link)}">')
    return (f"<!DOCTYPE html>\n<html lang=\"{escape(lang)}\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n" + "\n".join(links) + "\n</head>\n<body>\n"
            + body + "\n</body>\n</html>\n")


def _badge(house: str) -> str:
    """A house's badge: its colours and the letter the pictures give it (史 in Chinese)."""
    fill, ink, _ = house_style(house)
    return (f'<span class="badge" style="background:{fill};color:{ink}" aria-hidden="true">'
            f"{escape(house_letter(house))}</span>")


WHERE = {"top": N_("top"), "bottom": N_("bottom")}


def _pager(number: int, count: int, where: str) -> str:
    parts = []
    if number > 1:
        parts.append(f'<a href="{round_file(number - 1)}" rel="prev" accesskey="p">'
                     f"{escape(tr('← Round {round}', round=number - 1))}</a>")
    parts.append(f'<a href="index.html" accesskey="i">{escape(tr("All rounds"))}</a>')
    if number < count:
        parts.append(f'<a href="{round_file(number + 1)}" rel="next" accesskey="n">'
                     f"{escape(tr('Round {round} →', round=number + 1))}</a>")
    parts.append(f'<span class="keys">{escape(tr("access keys: p previous, n next, i index"))}'
                 "</span>")
    label = tr("Rounds ({where})", where=tr(WHERE.get(where, where)))
    return f'<nav class="pager" aria-label="{escape(label)}">' + " ".join(parts) + "</nav>"


def _count(n: int, one: str, many: str) -> str:
    return tr(one if n == 1 else many, count=n)


def round_summary(events: Sequence[Mapping[str, Any]], names: Names) -> str:
    """A few words for the index: marches, battles and their winners, raids, units lost.

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> round_summary([{"type": "move", "house": "stark", "origin": "winterfell",
    ...                 "to": "the_stony_shore", "units": ["footman"]}], Names(load_ruleset()))
    '1 march'
    """
    with names.speaking():
        play = round_play(events, 0)
        parts = []
        if play.moves:
            parts.append(_count(len(play.moves), N_("{count} march"), N_("{count} marches")))
        for _house, _origin, area, outcome in play.attacks:
            parts.append(tr("{area}: {outcome}", area=names.area(area),
                            outcome=outcome_text(outcome)))
        if play.raids:
            parts.append(_count(len(play.raids), N_("{count} raid"), N_("{count} raids")))
        lost = sum(len(units) for entries in play.destroyed.values() for _, units in entries)
        if lost:
            parts.append(_count(lost, N_("{count} unit destroyed"), N_("{count} units destroyed")))
        return tr("; ").join(parts) or tr("no march, battle or raid")


def picture_alt(kind: str, number: int, events: Sequence[Mapping[str, Any]], names: Names) -> str:
    """Alt text of a round's picture: what it shows, in words."""
    with names.speaking():
        if kind == "board":
            return tr("Map of the board after round {round}: areas, units, power tokens and the "
                      "tracks beside it (the report's Board and Tracks tables say the same).",
                      round=number)
        play = round_play(events, number)
        words = [tr("Map of round {round} as played: the board it started from with the orders "
                    "as revealed.", round=number)]
        if play.moves:
            words.append(tr("Marches: {marches}.", marches=tr("; ").join(
                tr("{house} from {origin} to {to}", house=house(h), origin=names.area(o),
                   to=names.area(d)) for h, o, d, _ in play.moves)))
        if play.attacks:
            words.append(tr("Attacks: {attacks}.", attacks=tr("; ").join(
                tr("{house} from {origin} into {area}, {outcome}", house=house(h),
                   origin=names.area(o), area=names.area(a), outcome=outcome_text(outcome))
                for h, o, a, outcome in play.attacks)))
        if play.raids:
            words.append(tr("Raids: {raids}.", raids=tr("; ").join(
                tr("{house} from {area} on {target}", house=house(h), area=names.area(a),
                   target=names.area(t)) for h, a, t, _ in play.raids)))
        return ("" if lang() != "en" else " ").join(words)


def _timeline(events: Sequence[Mapping[str, Any]], names: Names) -> str:
    out = ['<ol class="timeline">']
    phase = None
    for e in events:
        line = event_line(dict(e), names)
        rule = str(e.get("rule", ""))
        suffix = f" ({rule})."
        wide = f"（{rule}）。"
        text = (line[: -len(suffix)] + "." if line.endswith(suffix)
                else line[: -len(wide)] + "。" if line.endswith(wide) else line)
        mark = ""
        if e.get("phase") != phase:
            phase = e.get("phase")
            title = tr(PHASE_TITLES[str(phase)]) if str(phase) in PHASE_TITLES else str(phase)
            mark = f'<span class="phase">{escape(tr("{heading}:", heading=title))}</span> '
        out.append(f'<li data-type="{escape(str(e.get("type", "")))}">{mark}{escape(text)} '
                   f'<span class="rule">[{escape(rule)}]</span></li>')
    out.append("</ol>")
    return "\n".join(out)


STATUSES = {"adjudicated": N_("adjudicated"),
            "stopped on pending decisions": N_("stopped on pending decisions")}
"""A round page's status (:class:`RoundPage`), for the catalogs."""


def _status(status: str) -> str:
    return tr(STATUSES[status]) if status in STATUSES else status


def round_html(site: GameSite, page: RoundPage, ruleset: Ruleset, lang: str = "en") -> str:
    """The page of one round: pager, pictures, the public report and the event timeline, in
    ``lang`` (the report is the one given: the caller renders it in that language)."""
    names = Names(ruleset, lang)
    with names.speaking():
        return _round_html(site, page, ruleset, names)


def _round_html(site: GameSite, page: RoundPage, ruleset: Ruleset, names: Names) -> str:
    count = len(site.rounds)
    title = report_title(site.game_id, page.number)
    game = escape(tr("Game {game}", game=site.game_id))
    body = [f'<header class="site"><p><a href="index.html">{game}</a> · '
            f"{escape(tr(ruleset.title))}</p>", _pager(page.number, count, "top"), "</header>",
            '<main id="main">', f"<h1>{escape(tr('Round {round}', round=page.number))}</h1>"]
    if page.status != "adjudicated":
        body.append(f"<p><strong>{escape(_status(page.status))}</strong></p>")
    captions = {"moves": tr("Round {round} as played: orders as revealed, marches, battles, "
                            "raids and units destroyed (full size: open the picture).",
                            round=page.number),
                "board": tr("The board after round {round}.", round=page.number)}
    for kind in ("moves", "board"):
        src = page.pictures.get(kind)
        if src is None:
            continue
        alt = picture_alt(kind, page.number, page.events, names)
        body.append(f'<figure id="picture-{kind}"><a href="{escape(src)}">'
                    f'<img src="{escape(src)}" alt="{escape(alt)}">'
                    f'</a><figcaption>{escape(captions[kind])}</figcaption></figure>')
    if page.report is not None:
        images = {"board.svg": page.pictures.get("board", ""), "moves.svg": page.pictures.get("moves", "")}
        images = {k: v for k, v in images.items() if v}
        body.append(f'<section aria-labelledby="report"><h2 id="report">{escape(tr("Report"))}</h2>')
        report = page.report
        if report.startswith("# "):  # its title repeats the page's heading
            report = report.partition("\n")[2]
        body.append(markdown_html(report, images, shift=1, id_prefix="r-"))
        body.append("</section>")
    if page.events:
        body.append('<section aria-labelledby="timeline"><h2 id="timeline">'
                    f'{escape(tr("Timeline"))}</h2>')
        every = tr("Every event of the round in order, with the rule that produced it.")
        body.append(f"<p>{escape(every)}</p>")
        body.append(_timeline(page.events, names))
        body.append("</section>")
    body.append("</main>")
    prev_link = round_file(page.number - 1) if page.number > 1 else ""
    next_link = round_file(page.number + 1) if page.number < count else ""
    body.append(f'<footer class="site">{_pager(page.number, count, "bottom")}'
                f"<p>{escape(tr(MADE_BY), quote=False)}</p></footer>")
    return _page(title, "\n".join(body), prev_link, next_link, names.lang)


MADE_BY = N_("Made by agot site from the game's public record, checked with agot replay.")


def _standing(site: GameSite) -> str:
    heads = [tr("house"), tr("castles"), tr("supply"), tr("power"),
             *(tr(TRACK_NAMES[t]) for t in TRACKS), tr("cards in hand")]
    rows = []
    for row in site.houses:
        cells = [f'<th scope="row">{_badge(row.house)}{escape(house(row.house))}</th>']
        for value in (row.castles, row.supply, row.power, *(row.tracks[t] for t in TRACKS), row.cards):
            cells.append(f'<td class="num">{value}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="scroll"><table><caption>'
            f'{escape(tr("Houses in order of play (track columns: position)"))}'
            "</caption><thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")


def _final(site: GameSite) -> str:
    winner = site.winner or {}
    winners = sep().join(house(h) for h in winner.get("houses", []))
    reason = winner_reason(winner) if winner.get("reason") else ""
    won = (tr("{houses} won the game ({reason}).", houses=f"<strong>{escape(winners)}</strong>",
              reason=escape(reason)) if reason else
           tr("{houses} won the game.", houses=f"<strong>{escape(winners)}</strong>"))
    out = [f'<section class="result" aria-labelledby="result"><h2 id="result">{escape(tr("Result"))}</h2>',
           f"<p>{won}</p>"]
    final = site.final or {}
    castles, supply, power = (final.get(k) or {} for k in ("castles", "supply", "power"))
    if castles:
        out.append(f'<div class="scroll"><table><caption>{escape(tr("At the end (R11.1)"))}'
                   f'</caption><thead><tr><th scope="col">{escape(tr("house"))}</th>'
                   f'<th scope="col">{escape(tr("castles"))}</th>'
                   f'<th scope="col">{escape(tr("supply"))}</th>'
                   f'<th scope="col">{escape(tr("power"))}</th></tr></thead><tbody>')
        for h in castles:
            out.append(f'<tr><th scope="row">{_badge(h)}{escape(house(h))}</th>'
                       f'<td class="num">{escape(str(castles.get(h, "")))}</td>'
                       f'<td class="num">{escape(str(supply.get(h, "")))}</td>'
                       f'<td class="num">{escape(str(power.get(h, "")))}</td></tr>')
        out.append("</tbody></table></div>")
    out.append("</section>")
    return "\n".join(out)


def index_html(site: GameSite, ruleset: Ruleset, lang: str = "en") -> str:
    """The index: the game, its result once over, the houses' standing, the rounds (in
    ``lang``)."""
    names = Names(ruleset, lang)
    with names.speaking():
        return _index_html(site, ruleset, names)


def _index_html(site: GameSite, ruleset: Ruleset, names: Names) -> str:
    if site.phase == "ended":
        status = tr("The game is over after round {round}.", round=site.round)
    else:
        phase = PHASE_TITLES.get(site.phase, site.phase)
        status = tr("Now: round {round}, {phase}.", round=site.round,
                    phase=tr(phase).lower() if names.lang == "en" else tr(phase))
    game = escape(tr("Game {game}", game=site.game_id))
    body = ['<header class="site"><p>' + escape(tr(ruleset.title)) + "</p></header>",
            '<main id="main">', f"<h1>{game}</h1>", f"<p>{escape(status)}</p>"]
    if site.winner:
        body.append(_final(site))
    body.append(f'<section aria-labelledby="houses"><h2 id="houses">{escape(tr("Houses"))}</h2>')
    body.append(_standing(site))
    body.append("</section>")
    body.append(f'<section aria-labelledby="rounds"><h2 id="rounds">{escape(tr("Rounds"))}</h2>'
                '<ol class="rounds">')
    for page in site.rounds:
        summary = round_summary(page.events, names) if page.events else _status(page.status)
        link = escape(tr("Round {round}", round=page.number))
        body.append(f'<li value="{page.number}"><a href="{round_file(page.number)}">{link}</a>'
                    f"{escape(tr(' — {summary}', summary=summary))}</li>")
    body.append("</ol></section>")
    if site.board is not None:
        alt = tr("Map of the board now: areas, units, power tokens and the tracks beside it.")
        body.append('<section aria-labelledby="board"><h2 id="board">'
                    f'{escape(tr("The board now"))}</h2>'
                    f'<figure><a href="{escape(site.board)}"><img src="{escape(site.board)}" '
                    f'alt="{escape(alt)}">'
                    f'</a><figcaption>{escape(tr("The board after the last round adjudicated."))}'
                    "</figcaption></figure></section>")
    body.append("</main>")
    footer = tr("Made by agot site from the game's public record, checked with agot replay. Page "
                "through the rounds with the links at the top of each round's page (access keys "
                "p, n and i).")
    body.append(f'<footer class="site"><p>{escape(footer, quote=False)}</p></footer>')
    return _page(tr("Game {game}", game=site.game_id), "\n".join(body), lang=names.lang)
