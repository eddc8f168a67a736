"""An order file skeleton for one house (``agot template STATE --house H``).

The skeleton is an ``agot-orders/1`` document whose only live keys are
``format``, ``round`` and ``house``: left as it is, it is valid and submits
nothing, so the adjudicator asks for that house's orders (nothing is guessed;
``agot validate`` warns that the section is empty). Everything else is
commented: lines starting with ``# `` are YAML ready to uncomment (delete the
``# ``, keep the indentation), lines starting with ``##`` explain. Every
example value is legal for this state, so uncommenting every ``# `` line gives
a valid file that places no orders (R4.1: an area may be left without one).

What is listed depends on the state's phase:

Every plan is written with its documented default (docs/protocol.md P2) as the
value, so uncommenting a line never asks for more than ``--defaults`` would;
plans for a token the house may hold after a Clash of Kings (the Raven, the
Blade, an Iron Throne tie-break) are offered to every house while one may come.

- ``westeros`` (a round after the first): the Westeros cards of the round are
  not revealed yet. The skeleton lists plan sections for every card that the
  ruleset's decks hold (Clash of Kings bids, wildling bid and losses,
  musters, supply reductions) and the restrictions that may come (R3.9–R3.12).
  It reads the deck *contents* from the ruleset, never the deck order in the
  state, so it reveals nothing and may be sent to players at any time.
- ``planning``: the Westeros phase is over; this round's restrictions are
  known and applied to the legal orders.
- ``action``: orders are on the board; only the plans for the house's Raid,
  March and Support orders and for battles are listed.

Pure: no I/O; the state is never mutated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agot_adjudicator.engine.aftermath import retreat_options
from agot_adjudicator.engine.board import LOSS_ORDER, controlled_areas, destinations
from agot_adjudicator.engine.mustering import ship_seas
from agot_adjudicator.engine.planning import RESTRICTED_KIND, stars_allowed
from agot_adjudicator.engine.raids import RAIDABLE, raid_reach
from agot_adjudicator.engine.support import support_reach
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import RESTRICTIONS, GameState, HouseState
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.language import PHASE_TITLES, Names, lang, sep, tr, units

DEFAULT_SCHEMA_REF = "orders.schema.json"
"""Where the ``$schema`` line points by default: a copy beside the order file."""

CARD_CHOICES = {
    "cersei_lannister": N_("area of the loser's order to remove"),
    "renly_baratheon": N_("upgrade (a footman that fought becomes a knight)"),
    "melisandre": N_("the loser's card to discard (costs 1 power)"),
    "asha_greyjoy": N_("area of an adjacent Support or Consolidate Power order to remove"),
    "maester_luwin": N_("card of your discard pile to take back"),
}
"""House cards whose "if you win" text asks a choice (R6.4), and what is chosen."""

UNIT_PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}
RESTRICTION_TEXTS = (N_("no Raid orders (R3.9)"), N_("no Defense orders (R3.10)"),
                     N_("no Consolidate Power orders (R3.11)"),
                     N_("supporting footmen add no strength (R3.12)"))
"""The restrictions' texts (:data:`~agot_adjudicator.model.state.RESTRICTIONS`), for the catalogs."""


def _english() -> bool:
    return lang() == "en"


def _names() -> Names | None:
    from agot_adjudicator.render.language import speaker

    return speaker()


def _name(kind: str, value: str) -> str:
    """An id as the reader names it: the id in English, the glossary's name in Chinese."""
    nm = _names()
    return value if nm is None else nm.named(kind, value)


def _id(kind: str, value: str) -> str:
    """An id the reader types, as a comment shows it: the id in English; in Chinese the id
    with its glossary name (``winterfell（临冬城）``)."""
    return value if _english() else tr("{id} ({name})", id=value, name=_name(kind, value))


def _ids(kind: str, values: Sequence[str]) -> str:
    return sep().join(_id(kind, v) for v in values)


@dataclass
class _Lines:
    """Lines of the skeleton; trailing comments aligned per block."""

    out: list[str] = field(default_factory=list)
    block: list[tuple[str, str]] = field(default_factory=list)

    def note(self, text: str = "") -> None:
        self.flush()
        self.out.append(f"## {text}".rstrip() if text else "")

    def notes(self, text: str) -> None:
        """One note per line of ``text`` (a translated paragraph)."""
        for line in text.split("\n"):
            self.note(line)

    def live(self, code: str) -> None:
        self.flush()
        self.out.append(code)

    def yaml(self, indent: int, code: str, comment: str = "") -> None:
        """A commented YAML line: ``# `` + indentation + code, with an optional trailing comment."""
        self.block.append(("# " + "  " * indent + code, comment))

    def flush(self) -> None:
        if not self.block:
            return
        width = max(len(code) for code, comment in self.block if comment) if any(
            c for _, c in self.block) else 0
        for code, comment in self.block:
            self.out.append(f"{code.ljust(width)}  # {comment}" if comment else code)
        self.block = []

    def text(self) -> str:
        self.flush()
        return "\n".join(self.out) + "\n"


def _flow(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"


def _units(held: Sequence[str]) -> str:
    if not _english():
        return units(list(held)) if held else ""
    counts = [(u, sum(1 for x in held if x == u)) for u in ("footman", "knight", "ship")]
    return ", ".join(f"{n} {u if n == 1 else UNIT_PLURAL[u]}" for u, n in counts if n)


def _possible_cards(state: GameState, ruleset: Ruleset) -> list[str]:
    """Westeros cards that can still resolve this round: any in the decks before the reveal."""
    if state.phase != "westeros" or state.round <= ruleset.start_round:
        return []
    cards: list[str] = []
    for deck in ruleset.decks.values():
        for entry in deck:
            if entry.card not in cards:
                cards.append(entry.card)
    return cards


def _legal_tokens(ruleset: Ruleset, restrictions: Sequence[str], sea: bool) -> list[str]:
    forbidden = [RESTRICTED_KIND[r] for r in restrictions if r in RESTRICTED_KIND]
    out = []
    for token_id, token in ruleset.order_tokens.items():
        if token.kind in forbidden or (sea and token.kind == "consolidate_power"):
            continue
        out.append(token_id)
    return out


def _token_list(ruleset: Ruleset, restrictions: Sequence[str]) -> str:
    legal = _legal_tokens(ruleset, restrictions, sea=False)
    parts = []
    for token_id, token in ruleset.order_tokens.items():
        if token_id not in legal:
            continue
        text = token_id + ("★" if token.special else "") if _english() else _id("order", token_id)
        parts.append(text + (f" ×{token.count}" if token.count > 1 else ""))
    return sep().join(parts)


def _neighbours_note(state: GameState, house: str, areas: Sequence[str]) -> str:
    """``a, b (lannister), c (neutral 6)``: areas with who stands there (in Chinese each id
    with its name)."""
    parts = []
    for area_id in areas:
        here = state.area(area_id)
        en = _english()
        name = _name("area", area_id)
        if here.units and here.house != house:
            parts.append(f"{area_id} ({here.house})" if en else tr(
                "{area} ({name}, {house})", area=area_id, name=name,
                house=_name("house", str(here.house))))
        elif here.neutral_force is not None:
            parts.append(f"{area_id} (neutral {here.neutral_force.strength})" if en else tr(
                "{area} ({name}, neutral {strength})", area=area_id, name=name,
                strength=here.neutral_force.strength))
        elif here.power_token is not None and here.power_token != house:
            parts.append(f"{area_id} ({here.power_token} token)" if en else tr(
                "{area} ({name}, {house} token)", area=area_id, name=name,
                house=_name("house", here.power_token)))
        else:
            parts.append(_id("area", area_id))
    return sep().join(parts) or tr("none")


@dataclass(frozen=True)
class _View:
    """What the skeleton of one house is built from: the state, the house, its areas."""

    state: GameState
    ruleset: Ruleset
    house: str
    possible: list[str]
    """Westeros cards that may still come this round (empty after the reveal)."""
    mine: list[str]
    """Areas holding the house's units, in id order."""

    @classmethod
    def of(cls, state: GameState, ruleset: Ruleset, house: str) -> _View:
        mine = [a for a in ruleset.area_ids if state.area(a).house == house and state.area(a).units]
        return cls(state, ruleset, house, _possible_cards(state, ruleset), mine)

    @property
    def planning(self) -> bool:
        """Orders are still to be placed (the Westeros or planning phase)."""
        return self.state.phase in ("westeros", "planning")

    @property
    def hs(self) -> HouseState:
        return self.state.houses[self.house]

    @property
    def ordered(self) -> list[str]:
        """The house's areas that hold (or, before the reveal, may hold) an order."""
        if self.planning:
            return self.mine
        return [a for a in self.mine if self.state.area(a).order is not None]

    def kind_of(self, area_id: str) -> str | None:
        order = self.state.area(area_id).order
        if order is None or order not in self.ruleset.order_tokens:
            return None
        return self.ruleset.order_tokens[order].kind

    def with_order(self, kind: str) -> list[str]:
        """The house's areas whose order may be of ``kind``: all before the reveal."""
        return [a for a in self.ordered if self.planning or self.kind_of(a) == kind]


def order_template(state: GameState, ruleset: Ruleset, house: str,
                   schema_ref: str = DEFAULT_SCHEMA_REF, check: str = "agot validate STATE THIS_FILE",
                   secret: bool = False, lang: str = "en") -> str:
    """The order file skeleton of ``house`` for the round of ``state`` (R3–R8; see module doc).

    ``house`` must be in play and the game not ended (the CLI checks both); ``check`` is the
    command the file's notes tell the player to check it with; ``secret``: the game keeps house
    secrets, and the notes say to add the house's (P8). ``lang``: the language of the comments
    (the YAML keys and values are ids in every language; Chinese comments name them too).
    """
    with Names(ruleset, lang).speaking():
        return _order_template(state, ruleset, house, schema_ref, check, secret)


def _order_template(state: GameState, ruleset: Ruleset, house: str, schema_ref: str, check: str,
                    secret: bool) -> str:
    view = _View.of(state, ruleset, house)
    out = _Lines()
    _header(out, view, schema_ref, check, secret)
    if view.planning:
        _orders(out, view)
    else:
        placed = sep().join(tr("{area}: {order}", area=_id("area", a),
                               order=_id("order", str(state.area(a).order)))
                            for a in view.ordered) or tr("none")
        out.note(tr("Orders are on the board (action phase): {placed}.", placed=placed))
        out.live("")
    _westeros_bids(out, view)
    out.note(tr("Plans (docs/protocol.md P1): answers given in advance; one that no longer fits is "
                "asked again."))
    out.yaml(0, "plans:")
    _raven_plan(out, view)
    _raid_plans(out, view)
    _march_plans(out, view)
    _support_plans(out, view)
    _battle_plans(out, view)
    _westeros_plans(out, view)
    out.live("")
    out.note(tr("Direct answers to decisions announced by a stopped run go under answers:, by id:"))
    out.yaml(0, "answers: {}")
    return out.text()


def _phase(phase: str) -> str:
    return phase if _english() else tr(PHASE_TITLES.get(phase, phase))


def _header(out: _Lines, view: _View, schema_ref: str, check: str, secret: bool) -> None:
    """The ``$schema`` line, how to use the file, and its live keys."""
    s, house = view.state, view.house
    out.live(f"# yaml-language-server: $schema={schema_ref}")
    out.note(tr("agot order file of {house}: game {game}, round {round} (the state is at the "
                "{phase} phase).", house=_id("house", house), game=s.game_id, round=s.round,
                phase=_phase(s.phase)))
    out.note(tr("The $schema line lets YAML-aware editors complete and check this file."))
    if "://" in schema_ref:
        out.note(tr("It points at {ref}.", ref=schema_ref))
    else:
        out.note(tr("It expects the schema at {ref}, relative to this file; save it there with:",
                    ref=schema_ref))
        out.note(f"  agot schema orders > {schema_ref}")
    out.notes(tr("Lines starting with '# ' are YAML: delete the '# ' (keep the indentation) to use "
                 "them,\nthen edit the example value. Lines starting with '##' explain. Left as it "
                 "is, this file\nis valid and submits nothing: the adjudicator will ask for "
                 "{house}'s decisions.", house=_name("house", house)))
    out.note(tr("Check it before sending: {check}", check=check))
    if secret:
        out.notes(tr("When you mail it, add a line `secret: …` below `house:` with the secret your"
                     "\nmoderator sent you: agot inbox refuses a message without it and never "
                     "stores it."))
    out.live("format: agot-orders/1")
    out.live(f"round: {s.round}")
    out.live(f"house: {house}")
    out.live("")


def _orders(out: _Lines, view: _View) -> None:
    """The orders section (R4): tokens, stars, this round's restrictions, one line per area."""
    s, rs, house, possible = view.state, view.ruleset, view.house, view.possible
    restrictions = list(s.restrictions)
    position = s.tracks["kings_court"].index(house) + 1
    stars = stars_allowed(s, rs, house)
    out.note(tr("Orders (R4): at most one per area holding your units; null = no order (R4.1)."))
    out.note(tr("Special (★) orders allowed: {stars} (King's Court position {position}, R4.2); a "
                "Clash of Kings this round may change it.", stars=stars, position=position)
             if "clash_of_kings" in possible else
             tr("Special (★) orders allowed: {stars} (King's Court position {position}, R4.2).",
                stars=stars, position=position))
    out.note(tr("Order tokens (R0.2): {tokens}.", tokens=_token_list(rs, restrictions)))
    out.note(tr("Consolidate Power only on land (R4.3)."))
    islands = [a for a in view.mine if rs.support_forbidden(a)]
    if islands:
        out.note(tr("No Support order on an island ({areas}): no land neighbour to support (R4.1, "
                    "R6.2).", areas=_ids("area", islands)))
    if restrictions:
        for card in restrictions:
            out.note(tr("This round ({card}): {text}.", card=_id("westeros_card", card),
                        text=tr(RESTRICTIONS[card].text)))
    elif possible:
        coming = [c for c in RESTRICTIONS if c in possible]
        if coming:
            out.note(tr("Round {round}'s Westeros cards are not revealed yet. If they bring:",
                        round=s.round))
            for card in coming:
                out.note(tr("  {card}: {text};", card=_id("westeros_card", card),
                            text=tr(RESTRICTIONS[card].text)))
            out.note(tr("an order forbidden by then is asked again (R4.4)."))
    else:
        out.note(tr("No Westeros card restricts orders this round."))
    if "mustering" in possible or "supply" in possible or "wildling_attack" in possible:
        out.note(tr("Mustering, supply and wildling losses in the Westeros phase may change "
                    "your areas."))
    if view.mine:
        out.yaml(0, "orders:")
        for area_id in view.mine:
            sea = rs.areas[area_id].is_sea
            kind = rs.areas[area_id].kind
            here = _units(s.area(area_id).units)
            note = (f"{kind}: {here}" if _english() else
                    tr("{area} — {kind}: {units}", area=_name("area", area_id), kind=tr(kind),
                       units=here))
            if sea:
                note += tr("; no consolidate_power at sea")
            if rs.support_forbidden(area_id):
                note += tr("; island: no support")
            out.yaml(1, f"{area_id}: null", note)
    else:
        out.note(tr("{house} has no units on the board: no orders to place.",
                    house=_name("house", house)))
    out.live("")


def _westeros_bids(out: _Lines, view: _View) -> None:
    """Bids for a Clash of Kings (R3.6, R7) and a Wildling Attack (R3.7, R8.1) that may come."""
    power = view.hs.power
    if "clash_of_kings" in view.possible:
        out.note(tr("If Clash of Kings comes (R3.6, R7): bids for the three tracks, in all at most "
                    "your available power ({power}).", power=power))
        out.yaml(0, "bids:")
        for track in TRACKS:
            out.yaml(1, f"{track}: 0", f"0..{power}" if _english() else
                     tr("{track}: 0..{power}", track=_name("track", track), power=power))
        out.live("")
    if "wildling_attack" in view.possible:
        out.note(tr("If a Wildling Attack comes (R3.7, R8.1): your bid for the Night's Watch, "
                    "0..{power}.", power=power))
        out.yaml(0, "wildlings: 0", tr("threat now {threat}", threat=view.state.wildling_threat))
        out.live("")


def _raven_plan(out: _Lines, view: _View) -> None:
    """The Messenger Raven's swap (R4.6), for its holder before the orders are revealed."""
    s = view.state
    if not (view.planning and _may_hold(view, "kings_court") and not s.raven_used and view.mine):
        return
    shape = "{area: AREA, order: ORDER}"
    out.notes(tr("  Messenger Raven (R4.6): after the reveal, replace one of your orders by an "
                 "unused\n  token ({shape}), or null to keep them (if you still hold it after a "
                 "Clash of Kings).", shape=shape) if "clash_of_kings" in view.possible else
              tr("  Messenger Raven (R4.6): after the reveal, replace one of your orders by an "
                 "unused\n  token ({shape}), or null to keep them.", shape=shape))
    out.yaml(1, "raven: null", tr("areas: {areas}", areas=_ids("area", view.mine)))
def _may_hold(view: _View, track: str) -> bool:
    """Whether the house holds, or after a Clash of Kings that may still come this round may
    hold, the special token of ``track`` (R3.6, R7.3): its plans for the token are offered."""
    return view.state.holder(track) == view.house or "clash_of_kings" in view.possible


def _raid_targets(view: _View, area_id: str) -> list[str]:
    """Areas a raid from ``area_id`` may target: in reach (R5.2), another house's units there and,
    once orders are on the board, a raidable order."""
    s = view.state
    targets = [t for t in raid_reach(view.ruleset, area_id)
               if s.area(t).units and s.area(t).house != view.house]
    if not view.planning:
        targets = [t for t in targets if view.kind_of(t) in RAIDABLE]
    return targets


def _raid_plans(out: _Lines, view: _View) -> None:
    """``plans.raids`` (R5.2): per Raid order, the targets it may remove."""
    rows = []
    for area_id in view.with_order("raid"):
        targets = _raid_targets(view, area_id)
        if targets:
            rows.append((area_id, targets))
        elif not view.planning:
            out.note(tr("  Raid in {area}: no adjacent order it can remove; it will be removed "
                        "with no effect (R5.2).", area=_id("area", area_id)))
    if rows:
        out.notes(tr("  Raids (R5.2), in the order you want them resolved; targets in preference\n"
                     "  (Raid★: the first two legal); [] = remove the raid with no effect."))
        out.yaml(1, "raids:")
        for area_id, targets in rows:
            out.yaml(2, f"- {{from: {area_id}, targets: []}}",
                     f"may target: {', '.join(targets)}" if _english() else
                     tr("{area} may target: {targets}", area=_name("area", area_id),
                        targets=_ids("area", targets)))


def _march_plans(out: _Lines, view: _View) -> None:
    """``plans.marches`` (R5.3–R5.5): per March order, where its units may go."""
    s, rs, house = view.state, view.ruleset, view.house
    march_areas = view.with_order("march")
    if not march_areas:
        return
    fields = dict(shape="{AREA: [units]}" if _english() else "{AREA: [UNIT, ...]}",
                  example="{karhold: [knight], castle_black: [footman]}", none="{}")
    if rs.corrected("neutral_attack_beside_battle"):  # RUL-5.3-1: an attack on a neutral force
        out.notes(tr("  Marches (R5.3), in the order you want them resolved. moves: {shape}, e.g.\n"
                     "  {example}; at most one move into another house's\n"
                     "  units (one battle, R5.3); neutral forces may be attacked besides (R5.7);\n"
                     "  {none} = move nothing.", **fields))
    else:
        out.notes(tr("  Marches (R5.3), in the order you want them resolved. moves: {shape}, e.g.\n"
                     "  {example}; at most one move into another house's\n"
                     "  units or a neutral force (one battle, R5.3, R5.7); {none} = move nothing.",
                     **fields))
    out.note(tr("  leave_power_token: keep control of a land area you leave (R5.5; available power "
                "{power}).", power=view.hs.power))
    out.yaml(1, "marches:")
    for area_id in march_areas:
        here = s.area(area_id)
        direct: list[str] = []
        for unit in ("footman", "knight", "ship"):
            if unit in here.standing():
                direct += [d for d in rs.areas[area_id].march_adjacent if d not in direct and
                           rs.areas[d].is_sea == (unit == "ship")]
        direct = [a for a in rs.area_ids if a in direct]
        by_sea = [a for a in destinations(s, rs, house, area_id, "footman")
                  if a not in direct] if rs.areas[area_id].is_land else []
        if by_sea:
            out.note(tr("    from {area} also by ship transport (R5.4): {areas}",
                        area=_id("area", area_id), areas=_neighbours_note(s, house, by_sea)))
        standing = _units(here.standing()) or tr("all routed")
        out.yaml(2, f"- from: {area_id}", standing if _english() else
                 tr("{area}: {units}", area=_name("area", area_id), units=standing))
        out.yaml(2, "  moves: {}", tr("to: {areas}", areas=_neighbours_note(s, house, direct)))
        if rs.areas[area_id].is_land:
            out.yaml(2, "  leave_power_token: false")


def _support_plans(out: _Lines, view: _View) -> None:
    """``plans.support`` (R6.2): per Support order, the houses to back, and where it reaches."""
    rows = [(a, support_reach(view.ruleset, a)) for a in view.with_order("support")]
    rows = [(a, reach) for a, reach in rows if reach]
    if not rows:
        return
    out.note(tr("  Support (R6.2): per Support order, the houses to back in preference; [] = no "
                "one."))
    out.note(tr("  Houses: {houses}.", houses=_ids("house", view.state.order_of_play())))
    out.yaml(1, "support:")
    for area_id, reach in rows:
        out.yaml(2, f"{area_id}: [{view.house}]", f"battles in: {', '.join(reach)}"
                 if _english() else tr("{area} supports battles in: {areas}",
                                       area=_name("area", area_id), areas=_ids("area", reach)))
    out.yaml(1, "accept_support: true", tr("take support offered to you (R6.2)"))


def _battle_plans(out: _Lines, view: _View) -> None:
    """House cards, the Blade, casualties, retreats and card choices (R6.4–R6.9)."""
    s, rs, house, hs = view.state, view.ruleset, view.house, view.hs
    hand = sorted(hs.hand, key=lambda c: (-rs.house_cards[c].strength, hs.hand.index(c)))
    out.notes(tr("  House cards (R6.4): the first rule that applies: {at},\n  {against} or "
                 "{priority}. Your hand (strength/swords/forts):", at="{at: AREA, card: C}",
                 against="{against: HOUSE, card: C}", priority="{priority: [C, ...]}"))
    out.note("  " + sep().join(f"{_id('house_card', c)} {rs.house_cards[c].strength}/"
                               f"{rs.house_cards[c].swords}/{rs.house_cards[c].forts}"
                               for c in hand) + tr("."))
    out.yaml(1, "house_cards:")
    out.yaml(2, f"- {{priority: {_flow(hand)}}}")
    if _may_hold(view, "fiefdoms") and not s.blade_used:
        out.yaml(1, "blade: never", tr("Valyrian Steel Blade (R6.5), if you hold it: never (the "
                                       "default), auto (when it wins), always"))
    out.yaml(1, f"casualties: {_flow(LOSS_ORDER)}", tr("unit types to lose first (R6.7)"))
    retreat_rows = [(a, retreat_options(s, rs, house, a)) for a in view.mine]
    retreat_rows = [(a, options) for a, options in retreat_rows if options]
    if retreat_rows:
        out.note(tr("  Retreats (R6.9): per area where you may defend, where to retreat, in "
                    "preference."))
        out.yaml(1, "retreats:")
        for area_id, options in retreat_rows:
            if _english():
                out.yaml(2, f"{area_id}: {_flow(options)}")
            else:
                out.yaml(2, f"{area_id}: {_flow(options)}",
                         tr("{area} retreats to: {areas}", area=_name("area", area_id),
                            areas=sep().join(_name("area", o) for o in options)))
    choices = [c for c in hand if c in CARD_CHOICES]
    if choices:
        out.note(tr("  Card choices (R6.4), per card: ids in preference; [] = decline."))
        out.yaml(1, "card_choices:")
        for card in choices:
            out.yaml(2, f"{card}: []", tr(CARD_CHOICES[card]) if _english() else
                     tr("{card}: {choice}", card=_name("house_card", card),
                        choice=tr(CARD_CHOICES[card])))


def _westeros_plans(out: _Lines, view: _View) -> None:
    """Plans for the Westeros cards that may come: musters, supply and wildling losses, ties."""
    s, rs, house, possible = view.state, view.ruleset, view.house, view.possible
    if "mustering" in possible:
        castles = [a for a in controlled_areas(s, rs, house) if rs.areas[a].castle]
        if castles:
            out.notes(tr("  If Mustering comes (R3.5), per castle area you control: footman (1), "
                         "knight (2),\n  upgrade (1), ship:SEA (1). Areas you leave out muster "
                         "nothing; [] = nothing."))
            out.yaml(1, "musters:")
            for area_id in castles:
                seas = ship_seas(s, rs, house, area_id)
                points = rs.areas[area_id].mustering_points
                castle = str(rs.areas[area_id].castle)
                if _english():
                    note = f"{castle}, {points} point" + ("s" if points != 1 else "")
                    if seas:
                        note += f"; ships: {', '.join('ship:' + a for a in seas)}"
                else:
                    note = tr("{area} — {castle}, {points} points", area=_name("area", area_id),
                              castle=tr(castle), points=points)
                    if seas:
                        note += tr("; ships: {seas}", seas=sep().join(
                            tr("{id} ({name})", id="ship:" + a, name=_name("area", a))
                            for a in seas))
                out.yaml(2, f"{area_id}: []", note)
    if "supply" in possible:
        out.yaml(1, f"supply_reductions: {_flow(LOSS_ORDER)}",
                 tr("if Supply leaves armies over the limit (R3.4, R9)"))
    if "wildling_attack" in possible:
        out.yaml(1, f"wildling_losses: {_flow(LOSS_ORDER)}", tr("if the wildlings win (R8.4)"))
        order = list(rs.cards_by_house[house])
        # every card, strongest first: the first one in the discard pile when the reward comes
        # is taken, so the plan fits whatever is discarded by then (RUL-P8-6)
        strongest = sorted(order, key=lambda c: (-rs.house_cards[c].strength, order.index(c)))
        out.yaml(1, f"wildling_reward: {_flow(strongest)}",
                 tr("card to take back if the Night's Watch wins and you bid most (R8.3); "
                    "discards now: {discards}", discards=_ids("house_card", view.hs.discards)
                    or tr("none")))
    if _may_hold(view, "iron_throne"):
        out.yaml(1, f"tie_break: {_flow(s.order_of_play())}",
                 tr("if you hold the Iron Throne: tied houses, highest first (R7.2, R8); the order "
                    "of play is the default for Iron Throne and wildling ties"))
