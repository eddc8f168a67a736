"""The pages of ``agot site``: a static web site of a game's public record.

Pure functions from already-checked public data (reports, event logs, public state facts,
the round pictures) to HTML text. Every value from a file is escaped; the report's Markdown is
converted by :mod:`~agot_adjudicator.render.markdown` (the constructs the report writes; the
rest escaped). Pages need no
JavaScript and fetch nothing from elsewhere: one stylesheet, the pictures and (for Chinese) the
web font slices sit beside them.

A round page opens with the round at a glance (:func:`summary_html`: the Westeros cards and
what they did, the bids, the wildlings, one row per battle, the castles that changed hands),
then the map as played drawn into the page (:func:`inline_map`: the picture's ``#map`` view,
so that its Chinese names use the page's font), the tracks and houses after the round, the
event timeline folded by phase (``<details>``, no script) and the full report. The index shows
the result with the ranked standings, the game over time as charts and a step-through.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.board_style import TRACK_NAMES
from agot_adjudicator.render.charts import line_chart, ranking
from agot_adjudicator.render.event_lines import event_line
from agot_adjudicator.render.language import PHASE_TITLES, Names, house, lang, sep, tr
from agot_adjudicator.render.language import units as units_text
from agot_adjudicator.render.markdown import markdown_html
from agot_adjudicator.render.picture import house_letter, house_style
from agot_adjudicator.render.play import outcome_text, round_play
from agot_adjudicator.render.report import report_title
from agot_adjudicator.render.views import winner_reason

# --- pages -----------------------------------------------------------------------------------

@dataclass
class HouseRow:
    """One house's public standing: the index's table and the charts."""

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
    maps: dict[str, str] = field(default_factory=dict)
    """``moves`` / ``board`` → the picture's map drawn into the page (:func:`inline_map`)."""
    standing: list[HouseRow] = field(default_factory=list)
    """The houses after the round, in order of play."""
    changes: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    """(castle area, controller before, controller after) of each castle that changed hands."""
    png: str | None = None
    """A PNG copy of the round as played (link previews, forums)."""
    pngs: dict[str, str] = field(default_factory=dict)
    """``moves`` / ``board`` → a PNG copy of the picture."""


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
    board_map: str | None = None
    """The latest board's map, drawn into the index."""
    steps: str | None = None
    """The step-through of every round's picture (an animated SVG) in the site."""
    png: str | None = None
    """A PNG of the latest board (the index's link preview)."""


def round_file(number: int) -> str:
    return f"round-{number:02d}.html"


def _page(title: str, body: str, prev_link: str = "", next_link: str = "", lang: str = "en",
          description: str = "", image: str | None = None) -> str:
    links = ['<link rel="stylesheet" href="style.css">']
    if prev_link:
        links.append(f'<link rel="prev" href="{escape(prev_link)}">')
    if next_link:
        links.append(f'<link rel="next" href="{escape(next_link)}">')
    meta = [f'<meta property="og:title" content="{escape(title)}">',
            '<meta property="og:type" content="article">']
    if description:
        meta.append(f'<meta name="description" content="{escape(description)}">')
        meta.append(f'<meta property="og:description" content="{escape(description)}">')
    if image:
        meta.append(f'<meta property="og:image" content="{escape(image)}">')
        meta.append('<meta name="twitter:card" content="summary_large_image">')
    return (f"<!DOCTYPE html>\n<html lang=\"{escape(lang)}\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n" + "\n".join([*meta, *links]) + "\n</head>\n"
            "<body>\n" + body + "\n</body>\n</html>\n")


def _badge(house_id: str) -> str:
    """A house's badge: its colours and the letter the pictures give it (史 in Chinese)."""
    fill, ink, _ = house_style(house_id)
    return (f'<span class="badge" style="background:{fill};color:{ink}" aria-hidden="true">'
            f"{escape(house_letter(house_id))}</span>")


def _named(house_id: str | None) -> str:
    return _badge(house_id) + escape(house(house_id)) if house_id else escape(tr("no one"))


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
    """A few words for the index: who attacked whom and who won, the wildlings, marches, raids
    and units lost.

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> round_summary([{"type": "move", "house": "stark", "origin": "winterfell",
    ...                 "to": "the_stony_shore", "units": ["footman"]}], Names(load_ruleset()))
    '1 march'
    """
    with names.speaking():
        play = round_play(events, 0)
        parts = []
        for fight in play.fights:
            if fight["type"] == "battle":
                parts.append(tr("{attacker} attacks {defender} in {area}: {outcome}",
                                attacker=house(fight["attacker"]),
                                defender=house(fight["defender"]), area=names.area(fight["area"]),
                                outcome=outcome_text(("wins", fight["winner"], _score(fight)))))
            else:
                parts.append(tr("{attacker} attacks the neutral force in {area}: {outcome}",
                                attacker=house(fight["house"]), area=names.area(fight["area"]),
                                outcome=outcome_text(("taken", None, "") if fight["won"]
                                                     else ("holds", fight["neutral"], ""))))
        if play.wildlings is not None:
            parts.append(tr("the wildlings win") if play.wildlings["winner"] == "wildlings"
                         else tr("the Night's Watch holds"))
        if play.moves:
            parts.append(_count(len(play.moves), N_("{count} march"), N_("{count} marches")))
        if play.raids:
            parts.append(_count(len(play.raids), N_("{count} raid"), N_("{count} raids")))
        lost = sum(len(units) for entries in play.destroyed.values() for _, units in entries)
        if lost:
            parts.append(_count(lost, N_("{count} unit destroyed"), N_("{count} units destroyed")))
        return tr("; ").join(parts) or tr("no march, battle or raid")


def _score(fight: Mapping[str, Any]) -> str:
    totals = fight.get("totals") or {}
    return "–".join(str(totals[h]) for h in (fight["winner"], fight["loser"]) if h in totals)


def picture_alt(kind: str, number: int, events: Sequence[Mapping[str, Any]], names: Names) -> str:
    """The text alternative of a round's picture: what it shows, in words."""
    with names.speaking():
        if kind == "board":
            return tr("Map of the board after round {round}: areas, units, power tokens and the "
                      "tracks beside it (the report's Board and Tracks tables say the same).",
                      round=number)
        play = round_play(events, number)
        words = [tr("Map of round {round} as played: the board the battles were fought on, "
                    "with the orders as revealed.", round=number)]
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


# --- the round at a glance ---------------------------------------------------------------------

WESTEROS_EFFECTS = {
    "supply": N_("supply levels set by the barrels each house controls (R3.4)"),
    "mustering": N_("each house musters units in its castles (R3.5)"),
    "winter_is_coming": N_("the deck is shuffled and another card drawn (R3.2)"),
    "last_days_of_summer": N_("nothing happens (R3.3)"),
    "clash_of_kings": N_("the houses bid for the three influence tracks (R3.6, R7)"),
    "game_of_thrones": N_("power for each crown a house controls (R3.8)"),
    "wildling_attack": N_("the wildlings attack (R3.7, R8)"),
    "sea_of_storms": N_("no Raid orders this round (R3.9)"),
    "storm_of_swords": N_("no Defense orders this round (R3.10)"),
    "feast_for_crows": N_("no Consolidate Power orders this round (R3.11)"),
    "rains_of_autumn": N_("supporting footmen add nothing this round (R3.12)"),
}
"""What each Westeros card does (R3), for the round's summary."""


@dataclass
class BattleRow:
    """One battle or attack on a neutral force, as the summary table shows it."""

    area: str
    attacker: str
    defender: str | None
    cards: dict[str, str]
    totals: tuple[int, int]
    winner: str | None
    losses: dict[str, list[str]]
    neutral: int | None = None


def battle_rows(events: Sequence[Mapping[str, Any]]) -> list[BattleRow]:
    """The round's battles (R6) and attacks on neutral forces (R5.7) in order, with the house
    cards revealed for each and the units each side lost in it (casualties, R6.7; lost on the
    retreat, R6.8, R6.9; over the supply limit on the way back, R5.8)."""
    rows: list[BattleRow] = []
    cards: dict[str, str] = {}
    for e in events:
        kind = e.get("type")
        if kind == "house_cards_revealed":
            cards = dict(e["cards"])
        elif kind == "battle":
            rows.append(BattleRow(e["area"], e["attacker"], e["defender"], cards,
                                  (e["totals"].get(e["attacker"], 0),
                                   e["totals"].get(e["defender"], 0)), e["winner"], {}))
            cards = {}
        elif kind == "neutral_attack":
            rows.append(BattleRow(e["area"], e["house"], None, {},
                                  (e["strength"]["total"], e["neutral"]),
                                  e["house"] if e["won"] else None, {}, e["neutral"]))
        elif rows and e.get("phase") == "action" and kind in ("casualties", "retreat",
                                                              "unit_destroyed"):
            if e.get("area") != rows[-1].area and e.get("rule") != "R5.8":
                continue
            lost = (e.get("units") if kind in ("casualties", "unit_destroyed")
                    else e.get("destroyed")) or []
            if kind == "unit_destroyed" and e.get("reason") in ("supply limit on retreat",
                                                                "no legal retreat"):
                lost = []  # the retreat event names these
            if lost:
                rows[-1].losses.setdefault(e["house"], []).extend(lost)
    return rows


def _losses(losses: Mapping[str, Sequence[str]]) -> str:
    if not losses:
        return escape(tr("none"))
    return escape(tr("; ").join(f"{house(h)}: {units_text(sorted(u))}"
                                for h, u in losses.items()))


def summary_html(page: RoundPage, names: Names) -> str:
    """The round at a glance: the Westeros cards and their effects, restrictions, bids, the
    wildlings, musters, one row per battle and the castles that changed hands."""
    play = round_play(page.events, page.number)
    facts: list[tuple[str, str]] = []
    if play.cards:
        facts.append((tr("Westeros cards"), "<br>".join(
            f"{escape(deck)} <strong>{escape(names.westeros(card))}</strong>"
            + (escape(tr(" (wildling icon)")) if wild else "")
            + f" — {escape(tr(WESTEROS_EFFECTS[card]))}" if card in WESTEROS_EFFECTS else
            f"{escape(deck)} {escape(names.westeros(card))}" for deck, card, wild in play.cards)))
    facts.append((tr("Restrictions"), escape(sep().join(names.westeros(r)
                                                        for r in play.restrictions)
                                             or tr("none"))))
    for about, bids in play.bids:
        what = about.split("/")[-1]
        label = tr(TRACK_NAMES[what]) if what in TRACK_NAMES else tr("wildlings")
        ranked = sorted(bids.items(), key=lambda kv: -kv[1])
        facts.append((tr("Bids: {track}", track=label),
                      escape(sep().join(f"{house(h)} {v}" for h, v in ranked))))
    if play.wildlings is not None:
        w = play.wildlings
        said = (tr("the Night's Watch ({strength}) against {threat}: the wildlings win",
                   strength=w["strength"], threat=w["threat"]) if w["winner"] == "wildlings"
                else tr("the Night's Watch ({strength}) against {threat}: the Watch holds",
                        strength=w["strength"], threat=w["threat"]))
        losses = [tr("{house} loses {units} in {area}", house=house(h), units=units_text(u),
                     area=names.area(a))
                  for a, entries in play.westeros_losses.items() for h, u, cause in entries
                  if cause == "wildlings"]
        facts.append((tr("Wildlings"), escape(said + (tr("; ").join(["", *losses])
                                                      if losses else ""))))
    if play.musters:
        mustered: dict[str, list[str]] = {}
        for h, _castle, unit, area in play.musters:
            what = tr("an upgrade in {area}", area=names.area(area)) if unit == "upgrade" else \
                tr("{units} in {area}", units=units_text([unit]), area=names.area(area))
            mustered.setdefault(h, []).append(what)
        facts.append((tr("Mustered"), escape(tr("; ").join(
            f"{house(h)}: {sep().join(v)}" for h, v in mustered.items()))))
    out = ['<section class="glance" aria-labelledby="glance">',
           f'<h2 id="glance">{escape(tr("Round {round} at a glance", round=page.number))}</h2>',
           "<dl>"]
    for term, value in facts:
        out.append(f"<dt>{escape(term)}</dt><dd>{value}</dd>")
    out.append("</dl>")
    rows = battle_rows(page.events)
    if rows:
        heads = [tr("area"), tr("attacker"), tr("defender"), tr("house cards"), tr("strength"),
                 tr("winner"), tr("losses")]
        out.append(f'<div class="scroll"><table class="battles"><caption>'
                   f'{escape(tr("Battles (R6) and attacks on neutral forces (R5.7)"))}</caption>'
                   "<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
                   + "</tr></thead><tbody>")
        for row in rows:
            defender = (_named(row.defender) if row.defender
                        else escape(tr("neutral force ({strength})", strength=row.neutral)))
            if row.cards:
                played = escape(tr("{attacker} against {defender}",
                                   attacker=names.card(row.cards.get(row.attacker, "")),
                                   defender=names.card(row.cards.get(row.defender or "", ""))))
            else:
                played = "—"
            winner = (_named(row.winner) if row.winner
                      else escape(tr("the neutral force")))
            out.append(f'<tr data-area="{row.area}"><th scope="row">'
                       f'{escape(names.area(row.area))}</th><td class="who">'
                       f'{_named(row.attacker)}</td><td class="who">{defender}</td>'
                       f'<td>{played}</td><td class="num">{row.totals[0]}–{row.totals[1]}</td>'
                       f'<td class="who">{winner}</td><td>{_losses(row.losses)}</td></tr>')
        out.append("</tbody></table></div>")
    if page.changes:
        listed = tr("; ").join(tr("{area}: {old} → {new}", area=names.area(a), old=house(old),
                                  new=house(new)) for a, old, new in page.changes)
        out.append(f'<p class="changes"><strong>{escape(tr("Castles that changed hands"))}:'
                   f"</strong> {escape(listed)}</p>")
    elif page.standing:
        out.append(f'<p class="changes">{escape(tr("No castle changed hands."))}</p>')
    out.append("</section>")
    return "\n".join(out)


# --- maps drawn into the page ------------------------------------------------------------------

_VIEW = re.compile(r'<view id="map" viewBox="([^"]+)"/>')
_ROOT = re.compile(r"<svg [^>]*>")


def inline_map(svg: str, prefix: str, label: str) -> str:
    """One of our pictures drawn into a page: its map only (the ``#map`` view, without the
    side panel, whose facts the page writes as text), its ids prefixed so that two pictures
    on one page do not clash, with ``label`` as its text alternative. The text then uses the
    page's fonts, the shipped Chinese web font included (a picture in an ``<img>`` could not)."""
    body = svg.split("?>", 1)[-1]
    body = re.sub(r"<!--.*?-->", "", body, flags=re.S).strip()
    root = _ROOT.search(body)
    view = _VIEW.search(body)
    if root is None:
        return ""
    if view is not None:
        cut = body.find('<g id="panel">')
        if cut > 0:
            body = body[:cut] + "</svg>"
        box = view.group(1)
        body = body.replace(view.group(0), "")
    else:
        box = re.search(r'viewBox="([^"]+)"', root.group(0)).group(1)  # type: ignore[union-attr]
    family = re.search(r'font-family="([^"]*)"', root.group(0))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}" role="img" '
            f'aria-label="{escape(label)}"'
            + (f' font-family="{family.group(1)}"' if family else "") + ">")
    body = head + body[root.end():]
    body = re.sub(r' id="([^"]+)"', lambda m: f' id="{prefix}{m.group(1)}"', body)
    body = body.replace("url(#", f"url(#{prefix}")
    return body


def _standing_table(rows: Sequence[HouseRow], caption: str) -> str:
    heads = [tr("house"), tr("castles"), tr("supply"), tr("power"),
             *(tr(TRACK_NAMES[t]) for t in TRACKS), tr("cards in hand")]
    body = []
    for row in rows:
        cells = [f'<th scope="row">{_named(row.house)}</th>']
        for value in (row.castles, row.supply, row.power, *(row.tracks[t] for t in TRACKS),
                      row.cards):
            cells.append(f'<td class="num">{value}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="scroll"><table><caption>{escape(caption)}</caption><thead><tr>'
            + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
            + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


def _timeline(events: Sequence[Mapping[str, Any]], names: Names) -> str:
    """The round's events in order, each with its rule, folded by phase."""
    out: list[str] = []
    phase: Any = object()
    for e in events:
        if e.get("phase") != phase:
            if out:
                out.append("</ol></details>")
            phase = e.get("phase")
            title = tr(PHASE_TITLES[str(phase)]) if str(phase) in PHASE_TITLES else str(phase)
            count = sum(1 for x in events if x.get("phase") == phase)
            out.append(f'<details class="phase" data-phase="{escape(str(phase))}"><summary>'
                       f"{escape(tr('{phase} ({count} events)', phase=title, count=count))}"
                       '</summary><ol class="timeline">')
        line = event_line(dict(e), names)
        rule = str(e.get("rule", ""))
        suffix, wide = f" ({rule}).", f"（{rule}）。"
        text = (line[: -len(suffix)] + "." if line.endswith(suffix)
                else line[: -len(wide)] + "。" if line.endswith(wide) else line)
        out.append(f'<li data-type="{escape(str(e.get("type", "")))}">{escape(text)} '
                   f'<span class="rule">[{escape(rule)}]</span></li>')
    if out:
        out.append("</ol></details>")
    return "\n".join(out)


STATUSES = {"adjudicated": N_("adjudicated"),
            "stopped on pending decisions": N_("stopped on pending decisions")}
"""A round page's status (:class:`RoundPage`), for the catalogs."""


def _status(status: str) -> str:
    return tr(STATUSES[status]) if status in STATUSES else status


def round_html(site: GameSite, page: RoundPage, ruleset: Ruleset, lang: str = "en") -> str:
    """The page of one round: pager, the round at a glance, the map as played, the houses after
    the round, the timeline folded by phase and the full public report, in ``lang``."""
    names = Names(ruleset, lang)
    with names.speaking():
        return _round_html(site, page, ruleset, names)


def _figure(page: RoundPage, kind: str, names: Names, caption: str) -> str:
    src = page.pictures.get(kind)
    if src is None:
        return ""
    alt = picture_alt(kind, page.number, page.events, names)
    links = [f'<a href="{escape(src)}">{escape(tr("full picture (SVG)"))}</a>']
    if kind in page.pngs:
        links.append(f'<a href="{escape(page.pngs[kind])}">{escape(tr("PNG"))}</a>')
    drawn = page.maps.get(kind)
    if drawn:
        picture = f'<div class="map">{drawn}</div>'
    else:
        picture = f'<a href="{escape(src)}"><img src="{escape(src)}" alt="{escape(alt)}"></a>'
    return (f'<figure id="picture-{kind}">{picture}<figcaption>{escape(caption)} '
            f'<span class="no-print">({" · ".join(links)})</span></figcaption></figure>')


def _round_html(site: GameSite, page: RoundPage, ruleset: Ruleset, names: Names) -> str:
    count = len(site.rounds)
    title = report_title(site.game_id, page.number)
    game = escape(tr("Game {game}", game=site.game_id))
    body = [f'<header class="site"><p><a href="index.html">{game}</a> · '
            f"{escape(tr(ruleset.title))}</p>", _pager(page.number, count, "top"), "</header>",
            '<main id="main">', f"<h1>{escape(tr('Round {round}', round=page.number))}</h1>"]
    if page.status != "adjudicated":
        body.append(f"<p><strong>{escape(_status(page.status))}</strong></p>")
    if page.events:
        body.append(summary_html(page, names))
    body.append(_figure(page, "moves", names, tr(
        "Round {round} as played: the board the battles were fought on, the orders as revealed, "
        "marches, battles, raids and the units lost.", round=page.number)))
    if page.standing:
        body.append(f'<section aria-labelledby="after"><h2 id="after">'
                    f'{escape(tr("After round {round}", round=page.number))}</h2>')
        body.append(_standing_table(page.standing, tr(
            "Houses in order of play (track columns: position)")))
        if "board" in page.pictures:
            body.append(f'<details class="board"><summary>'
                        f'{escape(tr("The board after round {round}", round=page.number))}'
                        "</summary>"
                        + _figure(page, "board", names, tr("The board after round {round}.",
                                                           round=page.number))
                        + "</details>")
        body.append("</section>")
    if page.events:
        body.append('<section aria-labelledby="timeline"><h2 id="timeline">'
                    f'{escape(tr("Timeline"))}</h2>')
        every = tr("Every event of the round in order, with the rule that produced it.")
        body.append(f"<p>{escape(every)}</p>")
        body.append(_timeline(page.events, names))
        body.append("</section>")
    if page.report is not None:
        images = {k: v for k, v in (("board.svg", page.pictures.get("board", "")),
                                    ("moves.svg", page.pictures.get("moves", ""))) if v}
        body.append(f'<section aria-labelledby="report"><h2 id="report">{escape(tr("Report"))}'
                    f'</h2><details class="report"><summary>'
                    f'{escape(tr("The full report of round {round}", round=page.number))}'
                    "</summary>")
        report = page.report
        if report.startswith("# "):  # its title repeats the page's heading
            report = report.partition("\n")[2]
        body.append(markdown_html(report, images, shift=1, id_prefix="r-"))
        body.append("</details></section>")
    body.append("</main>")
    prev_link = round_file(page.number - 1) if page.number > 1 else ""
    next_link = round_file(page.number + 1) if page.number < count else ""
    body.append(f'<footer class="site">{_pager(page.number, count, "bottom")}'
                f"<p>{escape(tr(MADE_BY), quote=False)}</p></footer>")
    description = round_summary(page.events, names) if page.events else _status(page.status)
    return _page(title, "\n".join(body), prev_link, next_link, names.lang, description,
                 page.png)


MADE_BY = N_("Made by agot site from the game's public record, checked with agot replay.")


def _final(site: GameSite, names: Names) -> str:
    winner = site.winner or {}
    winners = sep().join(house(h) for h in winner.get("houses", []))
    reason = winner_reason(winner) if winner.get("reason") else ""
    won = (tr("{houses} won the game ({reason}).", houses=f"<strong>{escape(winners)}</strong>",
              reason=escape(reason)) if reason else
           tr("{houses} won the game.", houses=f"<strong>{escape(winners)}</strong>"))
    out = [f'<section class="result" aria-labelledby="result"><h2 id="result">'
           f'{escape(tr("Result"))}</h2>', f"<p>{won}</p>"]
    final = site.final or {}
    castles, supply, power = (final.get(k) or {} for k in ("castles", "supply", "power"))
    if castles:
        heads = [tr("place"), tr("house"), tr("castles"), tr("supply"), tr("power"),
                 tr("ahead of the next house by")]
        out.append(f'<div class="scroll"><table class="standings"><caption>'
                   f'{escape(tr("Final standings: most castles, then supply, then power (R11.1)"))}'
                   "</caption><thead><tr>"
                   + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
                   + "</tr></thead><tbody>")
        for h, place, why in ranking(final, list(castles)):
            mark = ' class="winner"' if h in winner.get("houses", []) else ""
            out.append(f'<tr{mark} data-house="{h}"><td class="num">{place}</td>'
                       f'<th scope="row">{_named(h)}</th>'
                       f'<td class="num">{escape(str(castles.get(h, "")))}</td>'
                       f'<td class="num">{escape(str(supply.get(h, "")))}</td>'
                       f'<td class="num">{escape(str(power.get(h, "")))}</td>'
                       f"<td>{escape(why)}</td></tr>")
        out.append("</tbody></table></div>")
    out.append("</section>")
    return "\n".join(out)


def _over_time(site: GameSite) -> str:
    """Castles, supply and power per house after each round, as charts and as a table."""
    played = [p for p in site.rounds if p.standing]
    if not played:
        return ""
    order = [row.house for row in played[-1].standing]
    rounds = [p.number for p in played]

    def series(what: str) -> dict[str, list[int]]:
        return {h: [next(getattr(r, what) for r in p.standing if r.house == h) for p in played]
                for h in order}

    charts = [line_chart(tr("Castles after each round"), series("castles"), rounds,
                         "chart-castles", top=7),
              line_chart(tr("Supply after each round"), series("supply"), rounds,
                         "chart-supply", top=6),
              line_chart(tr("Power after each round"), series("power"), rounds, "chart-power")]
    table = ['<div class="scroll"><table><thead><tr>',
             f'<th scope="col">{escape(tr("round"))}</th>',
             *(f'<th scope="col">{escape(house(h))}</th>' for h in order), "</tr></thead><tbody>"]
    for p in played:
        cells = "".join(f'<td class="num">{r.castles} · {r.supply} · {r.power}</td>'
                        for h in order for r in p.standing if r.house == h)
        table.append(f'<tr><th scope="row">{p.number}</th>{cells}</tr>')
    table.append("</tbody></table></div>")
    return ('<section aria-labelledby="over-time"><h2 id="over-time">'
            f'{escape(tr("The game over time"))}</h2><div class="charts">'
            + "".join(charts) + "</div>"
            + f'<details><summary>{escape(tr("The numbers (castles · supply · power)"))}'
            + "</summary>" + "".join(table) + "</details></section>")


def index_html(site: GameSite, ruleset: Ruleset, lang: str = "en") -> str:
    """The index: the game, its result and final standings once over, the game over time, the
    houses' standing, the rounds, the step-through and the board now (in ``lang``)."""
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
        body.append(_final(site, names))
    body.append(_over_time(site))
    body.append(f'<section aria-labelledby="houses"><h2 id="houses">{escape(tr("Houses"))}</h2>')
    body.append(_standing_table(site.houses, tr("Houses in order of play (track columns: "
                                                "position)")))
    body.append("</section>")
    body.append(f'<section aria-labelledby="rounds"><h2 id="rounds">{escape(tr("Rounds"))}</h2>'
                '<ol class="rounds">')
    for page in site.rounds:
        summary = round_summary(page.events, names) if page.events else _status(page.status)
        link = escape(tr("Round {round}", round=page.number))
        body.append(f'<li value="{page.number}"><a href="{round_file(page.number)}">{link}</a>'
                    f"{escape(tr(' — {summary}', summary=summary))}</li>")
    body.append("</ol></section>")
    if site.steps is not None:
        alt = tr("Every round's map as played, one after another (three seconds each).")
        body.append('<section aria-labelledby="steps"><h2 id="steps">'
                    f'{escape(tr("Round by round"))}</h2><figure class="steps">'
                    f'<img src="{escape(site.steps)}" alt="{escape(alt)}" loading="lazy">'
                    f'<figcaption>{escape(alt)}</figcaption></figure></section>')
    if site.board is not None:
        alt = tr("Map of the board now: areas, units, power tokens and the tracks beside it.")
        picture = (f'<div class="map">{site.board_map}</div>' if site.board_map else
                   f'<a href="{escape(site.board)}"><img src="{escape(site.board)}" '
                   f'alt="{escape(alt)}"></a>')
        body.append('<section aria-labelledby="board"><h2 id="board">'
                    f'{escape(tr("The board now"))}</h2><figure>{picture}<figcaption>'
                    f'{escape(tr("The board after the last round adjudicated."))} '
                    f'<span class="no-print">(<a href="{escape(site.board)}">'
                    f'{escape(tr("full picture (SVG)"))}</a>)</span></figcaption></figure>'
                    "</section>")
    body.append("</main>")
    footer = tr("Made by agot site from the game's public record, checked with agot replay. Page "
                "through the rounds with the links at the top of each round's page (access keys "
                "p, n and i).")
    body.append(f'<footer class="site"><p>{escape(footer, quote=False)}</p></footer>')
    description = status + (" " + tr("{houses} won the game.", houses=sep().join(
        house(h) for h in (site.winner or {}).get("houses", []))) if site.winner else "")
    return _page(tr("Game {game}", game=site.game_id), "\n".join(body), lang=names.lang,
                 description=description, image=site.png)
