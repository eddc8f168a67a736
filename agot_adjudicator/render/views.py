"""Plain-text tables of a state for ``agot show`` (:mod:`agot_adjudicator.render.tables`), in
the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agot_adjudicator.engine.board import castle_count
from agot_adjudicator.model.ruleset import TRACK_TOKENS, TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.state import winner_reason as model_winner_reason
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.areas import AREA_COLUMNS, AreaLabels, area_rows, units_text
from agot_adjudicator.render.language import PHASE_TITLES, Names, say, sep, tr, units
from agot_adjudicator.render.tables import table

__all__ = ["AREA_COLUMNS", "AreaLabels", "area_rows", "show_text", "units_text", "winner_reason"]

RULESET_TITLE = N_("A Game of Thrones: The Board Game, first edition (2003)")
"""The packaged ruleset's title, for the catalogs (another ruleset's title is written as it is)."""

SHOW_HEADERS = (N_("area"), N_("kind"), N_("castle"), N_("controlled by"), N_("units"),
                N_("order"), N_("power token"), N_("neutral force"), N_("position"),
                N_("Iron Throne"), N_("Fiefdoms"), N_("King's Court"), N_("house"), N_("power"),
                N_("supply"), N_("castles"), N_("hand"), N_("discards"))
"""Column headers of ``agot show`` (English: the column ids as they always read)."""
AREA_WORDS = (N_("land"), N_("sea"), N_("city"), N_("stronghold"))
"""Area kinds and castle sizes (the ``kind`` and ``castle`` columns)."""
def winner_reason(winner: Mapping[str, Any]) -> str:
    """A recorded winner's reason (a code with fields, R11) in the current language."""
    return say(model_winner_reason(winner))


def show_text(state: GameState, ruleset: Ruleset, house: str | None = None, *,
              public: bool = False, lang: str = "en") -> str:
    """Board, tracks and houses as tables; ``house`` limits it to what that house may see,
    ``public`` to what every house may see (hand sizes; no decks, no seed). ``lang``: the
    language of the text (English writes ids as they are; Chinese the glossary's names)."""
    with Names(ruleset, lang).speaking() as names:
        return _show_text(state, ruleset, house, public, names)


def _show_text(state: GameState, ruleset: Ruleset, house: str | None, public: bool,
               nm: Names) -> str:
    english = nm.lang == "en"

    def name(h: str) -> str:
        return h if english else nm.glossary("house", h)

    def card(c: str) -> str:
        return c if english else nm.card(c)

    def word(text: str) -> str:
        return text if english else tr(text)

    labels = None if english else AreaLabels(
        area=nm.area, house=name, order=nm.order,
        units=lambda held, routed: units(held) + (
            tr(" ({units} routed)", units=units(routed)) if routed else ""))
    if house:
        view = tr(" (view of {house})", house=name(house))
    else:
        view = tr(" (public view)") if public else tr(" (moderator's view)")
    phase = (tr("{phase} phase", phase=state.phase) if english
             else tr(PHASE_TITLES.get(state.phase, state.phase)))
    out = [tr("{title} — game {game}, round {round}, {phase}", title=tr(ruleset.title),
              game=state.game_id, round=state.round, phase=phase) + view]
    if state.winner:
        out.append(tr("Winner: {houses} — {reason}",
                      houses=sep().join(name(h) for h in state.winner["houses"]),
                      reason=winner_reason(state.winner)))
    rows = area_rows(state, ruleset, AREA_COLUMNS, labels)
    if not english:
        for row in rows:
            row[1], row[2] = tr(row[1]), tr(row[2]) if row[2] else ""
    out.append(table(rows, [word(c) for c in AREA_COLUMNS]))
    track_rows = []
    for position in range(len(state.houses)):
        track_row: list[str | int] = [position + 1]
        for track in TRACKS:
            h = state.tracks[track][position]
            token = (TRACK_TOKENS[track].replace("_", " ") if english
                     else nm.token(TRACK_TOKENS[track]))
            track_row.append(name(h) + (f" [{token}]" if position == 0 else ""))
        track_rows.append(track_row)
    out.append(table(track_rows, [word("position"), tr("Iron Throne"), tr("Fiefdoms"),
                                  tr("King's Court")]))
    used = [nm.token(token) if not english else text
            for token, text, flag in (("valyrian_steel_blade", "Valyrian Steel Blade", state.blade_used),
                                      ("messenger_raven", "Messenger Raven", state.raven_used))
            if flag]
    restrictions = [c if english else nm.westeros(c) for c in state.restrictions]
    out.append(tr("Wildling threat: {threat}. Used this round: {used}. Restrictions: {restrictions}.",
                  threat=state.wildling_threat, used=sep().join(used) if used else tr("nothing"),
                  restrictions=sep().join(restrictions) if restrictions else tr("none")))
    house_rows = []
    for h in state.order_of_play():
        hs = state.houses[h]
        hand = sep().join(card(c) for c in hs.hand) if (house is None and not public) or house == h \
            else tr("{count} cards", count=len(hs.hand))
        castles = castle_count(state, ruleset, h)
        house_rows.append([name(h), hs.power, hs.supply, castles, hand,
                           sep().join(card(c) for c in hs.discards)])
    out.append(table(house_rows, [word(c) for c in ("house", "power", "supply", "castles", "hand",
                                                    "discards")]))
    if house is None and not public:
        def deck(cards: list[str]) -> str:
            return sep().join(c if english else nm.westeros(c) for c in cards)

        decks = tr("; ").join(f"{d}: {deck(state.decks[d])}" for d in state.decks)
        out.append(tr("Westeros decks (top first; secret): {decks}", decks=decks))
        out.append(tr("Seed: {seed} (secret until the game ends)", seed=state.seed))
    return "\n\n".join(out) + "\n"
