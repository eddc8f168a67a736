"""The side panel of a board picture (:mod:`.picture`): the round and the wildling threat
(R0.8), the three influence tracks with their special tokens (R1.4, R4.2), the supply track
(R9.2), each house's power, castles, hand size and discards, the round's Westeros cards, and
the legend."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from agot_adjudicator.engine.board import castle_count
from agot_adjudicator.model.ruleset import TRACK_TOKENS, TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.board_style import (
    BATTLE_INK,
    COAST,
    PANEL_WIDTH,
    PROVISIONAL,
    RIVER,
    TOKEN_NAMES,
    TRACK_NAMES,
    WILDLING_INK,
    house_label,
    phase_label,
    ruleset_title,
    westeros_name,
)
from agot_adjudicator.render.language import sep, speaker, tr
from agot_adjudicator.render.play import (
    RoundPlay,
)
from agot_adjudicator.render.svg import (
    HOUSE_STYLES,
    OUTLINE,
    _attrs,
    _el,
    _n,
    _q,
    _text,
    _wide,
    _wrap,
    arrow,
    badge,
    barrel,
    castle_icon,
    crown,
    house_letter,
    house_style,
    label_box,
    neutral_token,
    order_label,
    order_token,
    power_token,
    shield,
    text_width,
    unit_glyph,
    wrap_items,
)


def _cell(x: float, y: float, w: float, h: float, label: str, *, on: bool,
          done: bool = False) -> str:
    fill = "#222222" if on else "#d9d2c2" if done else "#ffffff"
    return (f"<rect x=\"{_n(x)}\" y=\"{_n(y)}\" width=\"{_n(w)}\" height=\"{_n(h)}\" rx=\"3\" "
            f"fill=\"{fill}\" stroke=\"#555555\" stroke-width=\"1\"/>"
            + _text(x + w / 2, y + h / 2 + 4, label, 11, anchor="middle",
                    weight="bold" if on else None, fill="#ffffff" if on else "#333333"))


def view_text(state: GameState, house: str | None, orders: bool, revealed: bool = False) -> str:
    """Who may see the picture: a house's view, the moderator's (orders face up before they
    are revealed, R4.5) or the public view (what every house may see; ``revealed``: a round as
    played, its orders revealed)."""
    if house is not None:
        return tr("View of {house} (what {house} may see)", house=house_label(house))
    if orders and not revealed and state.phase == "planning" and any(
            a.order is not None for a in state.areas.values()):
        return tr("Moderator's view")
    return tr("Public view")


def _heading(state: GameState, play: RoundPlay | None) -> str:
    """What the picture shows, by round: ``Game demo · the board after round 4`` for a board at
    the start of a round (before its Westeros phase), ``round 5 · action phase`` mid-round."""
    if play is not None:
        return tr("Game {game} · round {round} as played", game=state.game_id, round=play.round)
    if state.phase == "ended":
        return tr("Game {game} · the board at the end of the game", game=state.game_id)
    if state.phase == "westeros" and state.round > 1:
        return tr("Game {game} · the board after round {round}", game=state.game_id,
                  round=state.round - 1)
    return tr("Game {game} · round {round} · {phase} phase", game=state.game_id,
              round=state.round, phase=phase_label(state.phase))


def side_panel(ruleset: Ruleset, legend_at: Callable[[float, float, bool], tuple[str, float]],
               state: GameState, x: float, top: float, house: str | None, orders: bool,
               play: RoundPlay | None = None, provisional: bool = False) -> tuple[str, float]:
    """The side panel at ``x``; returns its SVG and its bottom (``play``: a round picture's;
    ``provisional``: a stopped run's board, P4; ``legend_at``: the legend at (x, y), made
    once per board)."""
    out: list[str] = ["<g id=\"panel\">"]
    y = _panel_head(ruleset, state, x, top, house, orders, play, provisional, out)
    for part in (_panel_rounds, _panel_tracks, _panel_supply, _panel_houses, _panel_westeros):
        y = part(ruleset, state, x, y, play, out)
    drawn, y = legend_at(x, y, play is not None)
    out.append(drawn)
    out.append("</g>")
    return "".join(out), y


def _panel_head(ruleset: Ruleset, state: GameState, x: float, top: float, house: str | None,
                orders: bool, play: RoundPlay | None, provisional: bool,
                out: list[str]) -> float:
    """The title, what the picture shows and to whom, a stopped run's caption, the winner."""
    y = top + 14
    for line in _wrap(ruleset_title(ruleset), 46):
        out.append(_text(x, y, line, 13, weight="bold"))
        y += 17
    y += 3
    out.append(_text(x, y, _heading(state, play), 12, extra=[("id", "heading")]))
    y += 18
    if play is not None:
        for line in _wrap(tr("The board the battles were fought on (after mustering and the "
                             "wildlings), the orders as revealed, what moved, fought and fell"),
                          60):
            out.append(_text(x, y, line, 11, extra=[("font-style", "italic")]))
            y += 14
        out[-1] = out[-1].replace("<text ", "<text id=\"round-view\" ", 1)
        y += 2
    out.append(_text(x, y, view_text(state, house, orders, play is not None), 12, weight="bold",
                     extra=[("id", "view"), ("data-house", house)]))
    if provisional:
        y += 18
        out.append(_text(x, y, tr("Provisional: the board as a stopped run left it,"), 12,
                         weight="bold", fill=PROVISIONAL, extra=[("id", "provisional")]))
        y += 16
        out.append(_text(x, y, tr("not a record (pending decisions)"), 12, weight="bold",
                         fill=PROVISIONAL))
    if state.winner:
        y += 18
        winners = sep().join(house_label(h) for h in state.winner["houses"])
        out.append(_text(x, y, tr("Winner: {houses}", houses=winners), 12, weight="bold",
                         extra=[("id", "winner")]))
    return y


def _panel_rounds(ruleset: Ruleset, state: GameState, x: float, y: float,
                  play: RoundPlay | None, out: list[str]) -> float:
    """The round and the wildling threat (R0.8); a round picture's Westeros facts."""
    y += 28
    current = play.round if play is not None else state.round
    after = play is None and state.phase == "westeros" and state.round > 1
    out.append(_text(x, y, tr("Round"), 12, weight="bold"))
    out.append(f"<g id=\"track-round\" data-round=\"{current}\">")
    for r in range(1, ruleset.rounds + 1):
        out.append(_cell(x + 92 + (r - 1) * 27, y - 14, 25, 20, str(r),
                         on=r == current and not after, done=r < current or (after and r == current)))
    out.append("</g>")
    y += 28
    out.append(_text(x, y, tr("Wildling threat"), 12, weight="bold"))
    out.append(f"<g id=\"track-wildlings\" data-threat=\"{state.wildling_threat}\">")
    for i, level in enumerate(range(0, ruleset.threat_max + 1, ruleset.threat_step)):
        out.append(_cell(x + 120 + i * 33, y - 14, 30, 20, str(level),
                         on=level == state.wildling_threat))
    out.append("</g>")
    y += 22
    if play is not None:
        round_lines, y = _round_facts(play, x, y + 6)
        out.append(round_lines)
        y += 4
        out.append(_text(x, y + 8, tr("Tracks and houses at the start of round {round}",
                                      round=play.round), 11, extra=[("font-style", "italic")]))
        y += 18
    return y


def _panel_tracks(ruleset: Ruleset, state: GameState, x: float, y: float,
                  play: RoundPlay | None, out: list[str]) -> float:
    """The three influence tracks and their special tokens (R1.4, R4.2)."""
    y += 8
    names = speaker()
    for track in TRACKS:
        token = TRACK_TOKENS[track]
        holder = state.holder(track)
        used = {"valyrian_steel_blade": state.blade_used, "messenger_raven": state.raven_used}
        token_name = names.token(token) if names is not None else TOKEN_NAMES[token]
        note = (tr("{token}: {house}", token=token_name, house=house_label(holder))
                + (tr(" (used this round)") if used.get(token) else ""))
        track_name = names.track(track) if names is not None else TRACK_NAMES[track]
        out.append(_text(x, y, track_name, 12, weight="bold"))
        out.append(_text(x + 100, y, note, 10, extra=[("font-style", "italic")]))
        order = state.tracks[track]
        out.append(f"<g id=\"track-{track}\" data-houses=\"{','.join(order)}\">")
        for pos, h in enumerate(order):
            cx = x + pos * 72
            fill, ink, _ = house_style(h)
            letter = house_letter(h)
            out.append(f"<rect x=\"{_n(cx)}\" y=\"{_n(y + 6)}\" width=\"68\" height=\"30\" "
                       f"rx=\"4\" fill={_q(fill)} stroke=\"{OUTLINE}\" stroke-width=\"1\" "
                       f"data-position=\"{pos + 1}\" data-house={_q(h)}/>")
            out.append(_text(cx + 5, y + 20, str(pos + 1), 9, fill=ink))
            starred = track == "kings_court" and pos < len(ruleset.kings_court_stars)
            stars = ruleset.kings_court_stars[pos] if starred else 0
            letter_x = cx + 27 if stars >= 3 and _wide(letter) else cx + 34
            out.append(_text(letter_x, y + 22, letter, 13, anchor="middle", weight="bold",
                             fill=ink))
            out.append(_text(cx + 34, y + 33, house_label(h), 8, anchor="middle", fill=ink))
            if starred:
                out.append(_text(cx + 64, y + 18, "★" * stars, 8, anchor="end", fill=ink))
        out.append("</g>")
        y += 58
    return y


def _panel_supply(ruleset: Ruleset, state: GameState, x: float, y: float,
                  play: RoundPlay | None, out: list[str]) -> float:
    """The supply track and where each house stands on it (R9.2)."""
    out.append(_text(x, y, tr("Supply"), 12, weight="bold"))
    out.append(_text(x + 60, y, tr("(level: allowed army sizes, R9.2)"), 10,
                     extra=[("font-style", "italic")]))
    out.append("<g id=\"track-supply\">")
    levels = len(ruleset.supply_track)
    col = min(50.0, (PANEL_WIDTH - 10) / max(levels, 1))
    by_level: dict[int, list[str]] = {}
    for h in state.order_of_play():
        by_level.setdefault(min(state.houses[h].supply, levels - 1), []).append(h)
    tallest = max((len(v) for v in by_level.values()), default=0)
    for level in range(levels):
        lx = x + level * col
        sizes = " ".join(str(s) for s in ruleset.supply_track[level])
        out.append(_el("rect", [("x", lx), ("y", y + 6), ("width", col - 3),
                                ("height", 34 + 20 * tallest), ("rx", 3), ("fill", "#f7f3ea"),
                                ("stroke", "#777777"), ("stroke-width", 1)]))
        out.append(_text(lx + (col - 3) / 2, y + 20, str(level), 11, anchor="middle",
                         weight="bold"))
        out.append(_text(lx + (col - 3) / 2, y + 33, sizes, 8, anchor="middle"))
        for i, h in enumerate(by_level.get(level, [])):
            out.append(f"<g id=\"supply-{h}\" data-house=\"{h}\" "
                       f"data-level=\"{state.houses[h].supply}\">"
                       + badge(lx + (col - 3) / 2, y + 50 + 20 * i, h, 17) + "</g>")
    out.append("</g>")
    y += 56 + 20 * tallest
    return y


def _panel_houses(ruleset: Ruleset, state: GameState, x: float, y: float,
                  play: RoundPlay | None, out: list[str]) -> float:
    """Each house's power, castles, hand size, discards and power tokens on the board."""
    names = speaker()
    out.append(_text(x, y, tr("Houses"), 12, weight="bold"))
    out.append(_text(x + 60, y, tr("power · castles · cards in hand"), 10,
                     extra=[("font-style", "italic")]))
    y += 8
    on_board = Counter(state.area(a).power_token for a in ruleset.area_ids)
    for h in state.order_of_play():
        hs = state.houses[h]
        castles = castle_count(state, ruleset, h)
        tokens = on_board[h]
        attrs = [("id", f"house-{h}"), ("data-power", hs.power), ("data-castles", castles),
                 ("data-hand", len(hs.hand)), ("data-discards", ",".join(hs.discards)),
                 ("data-power-tokens-on-board", tokens)]
        out.append(f"<g{_attrs(attrs)}>")
        out.append(badge(x + 9, y + 14, h, 18))
        out.append(_text(x + 24, y + 18, house_label(h), 12, weight="bold"))
        out.append(_text(x + 114, y + 18, tr("power {count}", count=hs.power), 11))
        out.append(_text(x + 184, y + 18, tr("castles {count}", count=castles), 11))
        out.append(_text(x + 260, y + 18, tr("cards {count}", count=len(hs.hand)), 11))
        y += 20
        if hs.discards:
            cards = [names.card(c) if names is not None
                     else ruleset.house_cards[c].name if c in ruleset.house_cards else c
                     for c in hs.discards]
            head = tr("discards: {cards}", cards="")
            for line in wrap_items(head, cards, sep(), 60):
                out.append(_text(x + 24, y + 12, line, 9))
                y += 12
        if tokens:
            out.append(_text(x + 24, y + 12, tr("power tokens on the board: {count}",
                                                 count=tokens), 9))
            y += 12
        out.append("</g>")
        y += 4
    y += 16
    return y


def _panel_westeros(ruleset: Ruleset, state: GameState, x: float, y: float,
                    play: RoundPlay | None, out: list[str]) -> float:
    """The Westeros cards and restrictions of the round (a board's, not a round picture's)."""
    if play is None:
        facts = []
        if state.revealed:
            revealed = tr("; ").join(f"{d} {westeros_name(state.revealed[d])}"
                                     for d in ("I", "II", "III") if d in state.revealed)
            facts.append(tr("Westeros cards: {cards}", cards=revealed))
        facts.append(tr("Restrictions this round: {cards}",
                        cards=sep().join(westeros_name(r) for r in state.restrictions)
                        or tr("none")))
        out.append("<g id=\"westeros\">")
        for fact in facts:
            for line in _wrap(fact, 62):
                out.append(_text(x, y, line, 10))
                y += 13
        out.append("</g>")
        y += 12
    return y




def _round_facts(play: RoundPlay, x: float, y: float) -> tuple[str, float]:
    """The round's Westeros cards, restriction, bids and the wildlings' attack (R3, R7, R8)."""
    out = ["<g id=\"westeros\">"]
    lines: list[tuple[list[str], str | None]] = []
    if play.cards:  # lists broken between their items, never inside a name
        cards = [f"{deck} {westeros_name(card)}" for deck, card, _ in play.cards]
        lines.append((wrap_items(tr("Westeros cards: {cards}", cards=""), cards, tr("; "), 62),
                      None))
    restricted = [westeros_name(r) for r in play.restrictions] or [tr("none")]
    lines.append((wrap_items(tr("Restrictions this round: {cards}", cards=""), restricted,
                             sep(), 62), "restrictions"))
    for about, bids in play.bids:
        listed = [f"{house_label(h)} {v}" for h, v in bids.items()]
        lines.append((wrap_items(tr("Bids ({about}): {bids}", about=_about(about), bids=""),
                                 listed, sep(), 62), None))
    if play.wildlings is not None:
        w = play.wildlings
        said = (tr("Wildlings: the Night's Watch {strength} against {threat}, the Watch holds",
                   strength=w["strength"], threat=w["threat"])
                if w["winner"] == "nights_watch" else
                tr("Wildlings: the Night's Watch {strength} against {threat}, the wildlings win",
                   strength=w["strength"], threat=w["threat"]))
        lines.append((_wrap(said, 62), None))
    for wrapped, ident in lines:
        for i, line in enumerate(wrapped):
            extra = [("id", ident)] if ident and i == 0 else []
            out.append(_text(x, y, line, 10, extra=extra))
            y += 13
    out.append("</g>")
    return "".join(out), y


def _about(about: str) -> str:
    """What a bidding was for: a track's name or ``wildlings``."""
    names = speaker()
    part = about.split("/")[-1]
    if part in TRACK_NAMES:
        return names.track(part) if names is not None else TRACK_NAMES[part]
    return tr("wildlings")


def legend(ruleset: Ruleset, x: float, y: float, round_picture: bool = False
            ) -> tuple[str, float]:
    routed_mark = tr("r")
    out = ["<g id=\"legend\">", _text(x, y, tr("Legend"), 12, weight="bold")]
    sample = (order_label(ruleset, "march_plus1") if speaker() is not None
              and "march_plus1" in ruleset.order_tokens else "M+1★")
    y += 18
    rows: list[tuple[Callable[[float], str], str]] = [
        (lambda y: unit_glyph(x + 8, y, "footman", "stark") + unit_glyph(x + 26, y, "knight", "stark")
         + unit_glyph(x + 44, y, "ship", "stark"), tr("footman · knight · ship (count beside)")),
        (lambda y: _text(x + 2, y + 4, routed_mark, 10, weight="bold",
                         extra=[("font-style", "italic")])
         + unit_glyph(x + 16, y, "footman", "stark", True)
         + unit_glyph(x + 34, y, "knight", "stark", True), tr("routed units (R6.10)")),
        (lambda y: castle_icon(x + 2, y - 7, "stronghold") + castle_icon(x + 32, y - 7, "city"),
         tr("stronghold · city (R3.5)")),
        (lambda y: barrel(x + 4, y) + crown(x + 22, y + 1), tr("supply barrel · power crown")),
        (lambda y: shield(x + 4, y - 8, "lannister") + badge(x + 38, y, "lannister", 15),
         tr("home area (R5.6) · the house that controls a land, its ground tinted (R13.1)")),
        (lambda y: power_token(x + 12, y, "baratheon"), tr("power token (R5.5)")),
        (lambda y: neutral_token(x + 12, y, 5, 10), tr("neutral force and its strength (R5.7)")),
        (lambda y: order_token(x + 12, y, sample, "stark") + order_token(x + 42, y, None, "stark"),
         tr("order (March, Defense, Support, Raid, Consolidate; ★ special) · face down")),
        (lambda y: _el("path", [("d", f"M{_n(x)} {_n(y)}h24"), ("stroke", COAST),
                                ("stroke-width", 2.2)])
         + _el("path", [("d", f"M{_n(x + 30)} {_n(y)}h24"), ("stroke", RIVER),
                        ("stroke-width", 3.2)]),
         tr("coast · river: no march or retreat across (R5.11)")),
    ]
    if round_picture:
        rows += [
            (lambda y: arrow([(x, y), (x + 54, y)], "tyrell"),
             tr("march, or attack into a battle (R5.3, R6)")),
            (lambda y: arrow([(x, y), (x + 54, y)], "tyrell", retreat=True),
             tr("retreat (R6.8, R6.9)")),
            (lambda y: arrow([(x, y), (x + 54, y)], "tyrell", dash="2 4", width=2.5),
             tr("raid and the order it removed (R5.2)")),
            (lambda y: legend_label(x + 27, y, "⚔ 3–2", BATTLE_INK),
             tr("battle: winner and strengths (R6.6)")),
            (lambda y: legend_label(x + 27, y, f"✕ {house_letter('tyrell')} 1", BATTLE_INK),
             tr("units destroyed, by house letter")),
            (lambda y: legend_label(x + 27, y, f"✕ {house_letter('tyrell')} 1", WILDLING_INK),
             tr("units lost to the wildlings or to supply in the Westeros phase (R8.4, R3.4)")),
        ]
    for glyphs, label in rows:
        out.append(glyphs(y))
        lines = _wrap(label, 50)
        for i, line in enumerate(lines):
            out.append(_text(x + 64, y + 4 + 12 * i - 6 * (len(lines) - 1), line, 10))
        y += 28 + 6 * max(len(lines) - 2, 0)
    for i, h in enumerate(HOUSE_STYLES):
        out.append(badge(x + 9 + i * 76, y, h, 16))
        out.append(_text(x + 19 + i * 76, y + 4, house_label(h), 9))
    y += 20
    out.append("</g>")
    return "".join(out), y


def legend_label(x: float, y: float, text: str, colour: str) -> str:
    w = 10 + text_width(text, 11, True)
    return label_box((x - w / 2, y - 9, x + w / 2, y + 9), text, colour)
