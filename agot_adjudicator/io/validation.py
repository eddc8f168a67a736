"""Rule checks of a state file (beyond its schema): ids, limits, supply, tracks (R0, R4, R9, R12)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agot_adjudicator.errors import Problem
from agot_adjudicator.io.hints import joined
from agot_adjudicator.io.reading import Document
from agot_adjudicator.model.naming import one_of, suggest
from agot_adjudicator.model.ruleset import DECKS, TRACKS, UNIT_TYPES, Ruleset, supply_fits
from agot_adjudicator.model.state import without
from agot_adjudicator.model.text import Msg

AREA_KIND_WORDS = {"land": Msg("land"), "sea": Msg("sea"), "port": Msg("port")}
"""An area's kind in a sentence ("a ship cannot stand in land area ...")."""
PHASE_WORDS = {"westeros": Msg("westeros"), "planning": Msg("planning"),
               "action": Msg("action"), "ended": Msg("ended")}
"""A phase in a sentence ("not in the planning phase")."""


def _count_diff(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """The items of ``a`` left after taking away those of ``b`` (multisets), sorted.

    >>> _count_diff(["x", "x", "y"], ["x", "z"])
    ['x', 'y']
    """
    rest = sorted(a)
    for item in b:
        if item in rest:
            rest.remove(item)
    return rest


@dataclass
class _Tally:
    """What the areas hold per house in play, for the limits checked after them."""

    units: dict[str, dict[str, int]]
    armies: dict[str, list[int]]
    power_tokens: dict[str, int]

    @classmethod
    def of(cls, houses: list[str]) -> _Tally:
        return cls({h: dict.fromkeys(UNIT_TYPES, 0) for h in houses}, {h: [] for h in houses},
                   dict.fromkeys(houses, 0))


def ruleset_problem(doc: Document, ruleset: Ruleset) -> Problem:
    """The state names another ruleset than ``ruleset``: say which, and what to do."""
    from agot_adjudicator import __version__
    from agot_adjudicator.io.rulesets import find_ruleset

    name, sha256 = doc.data["ruleset"]["name"], doc.data["ruleset"]["sha256"]
    wrong = "sha256" if sha256 != ruleset.sha256 else "name"
    made = Msg("the state was made with ruleset {name} {sha256}…, but the ruleset in use is "
               "{ruleset} {ruleset_sha256}… ({source})", name=name, sha256=sha256[:12],
               ruleset=ruleset.name, ruleset_sha256=ruleset.sha256[:12], source=ruleset.source)
    known = find_ruleset(name, sha256)
    if known is not None:
        return doc.problem(["ruleset", wrong], Msg(
            "{made}; agot knows the state's ruleset ({source}): leave out --ruleset to play on "
            "under it, or move the game on with `agot adjudicate --game DIR --move-ruleset`",
            made=made, source=known.source))
    return doc.problem(["ruleset", wrong], Msg(
        "{made}, and agot {version} knows no ruleset with the state's name and hash (packaged, "
        "archived, or in the game's rulesets/ folder): pass the ruleset the game was played "
        "under with --ruleset DIR, or copy it into GAME/rulesets/{sha256}/, or use the agot "
        "release that wrote the state", made=made, version=__version__, sha256=sha256))


def state_problems(doc: Document, ruleset: Ruleset, *, provisional: bool = False) -> list[Problem]:
    """Every rule problem of a schema-valid state document (R0.3, R0.4, R9, R12, R13).

    A provisional state (the board as far as a stopped run got, docs/protocol.md P4) is
    no record: refused unless ``provisional`` (the views of the board as it stands). A run
    may stop mid-step, so ``provisional`` also allows what only a stop leaves: armies over a
    new supply level while the Supply card's reductions are pending (R9), and orders on the
    board in the planning phase, revealed before the Messenger Raven's decision (R4.5, R4.6).
    """
    problems = [] if provisional else provisional_problems(doc)
    problems += ruleset_problems(doc, ruleset)
    if problems:
        return problems  # the other checks would compare the state with the wrong components
    houses = list(doc.data["houses"])
    in_play = [h for h in houses if h in ruleset.houses]
    tally = _Tally.of(in_play)
    problems += round_problems(doc, ruleset)
    problems += houses_in_play_problems(doc, ruleset, houses)
    problems += track_problems(doc, houses)
    for house in in_play:
        problems += card_problems(doc, ruleset, house)
    for area_id, area in doc.data["areas"].items():
        problems += area_problems(doc, ruleset, in_play, area_id, area, tally,
                                  provisional=provisional)
    for house in in_play:
        problems += limit_problems(doc, ruleset, house, tally, provisional=provisional)
    for deck in DECKS:
        problems += deck_problems(doc, ruleset, deck)
    return problems


def provisional_problems(doc: Document) -> list[Problem]:
    """A provisional state (``provisional:``, round-NN/now.yaml) is refused as a record or an
    input to adjudicate (docs/protocol.md P4)."""
    mark = doc.data.get("provisional")
    if mark is None:
        return []
    stopped = mark.get("stopped", "?") if isinstance(mark, dict) else "?"
    return [doc.problem(["provisional"], Msg(
        "a provisional state: the board as far as a run stopped in the {phase} phase got (round "
        "{round}), not a round's record; adjudicate and replay use the round's state.yaml with "
        "its submissions and answers, and `agot validate --game DIR FILE` checks a file against "
        "this board", phase=stopped, round=doc.data.get("round")), key=True)]


def ruleset_problems(doc: Document, ruleset: Ruleset) -> list[Problem]:
    """The state must have been made with the ruleset in use (name and SHA-256)."""
    recorded = doc.data["ruleset"]
    if recorded["sha256"] == ruleset.sha256 and recorded["name"] == ruleset.name:
        return []
    return [ruleset_problem(doc, ruleset)]


def round_problems(doc: Document, ruleset: Ruleset) -> list[Problem]:
    """The round exists (R11.1)."""
    round_ = doc.data["round"]
    if round_ > ruleset.rounds:
        return [doc.problem(["round"], Msg("round {round} does not exist: the game ends after "
                                           "round {rounds} (R11.1)", round=round_,
                                           rounds=ruleset.rounds))]
    return []


def houses_in_play_problems(doc: Document, ruleset: Ruleset, houses: list[str]) -> list[Problem]:
    """Houses in play are houses of the ruleset, as many as a game has players (R12)."""
    problems = [doc.problem(["houses", house], Msg("'{value}' is not a house{hint}", value=house,
                                                   hint=suggest(house, ruleset.houses)),
                            key=True)
                for house in houses if house not in ruleset.houses]
    if len(houses) not in ruleset.players:
        problems.append(doc.problem(["houses"], Msg(
            "{count} houses in play; the game is for {numbers} players", count=len(houses),
            numbers=one_of(str(n) for n in sorted(ruleset.players)))))
    return problems


def track_problems(doc: Document, houses: list[str]) -> list[Problem]:
    """Each influence track orders exactly the houses in play (R1.4, R12.3)."""
    problems = []
    for track in TRACKS:
        order = doc.data["tracks"][track]
        if sorted(order) != sorted(houses):
            problems.append(doc.problem(["tracks", track], Msg(
                "{track} track {value} is not an order of the houses in play ({houses})",
                track=track, value=str(order), houses=houses)))
    return problems


def card_problems(doc: Document, ruleset: Ruleset, house: str) -> list[Problem]:
    """Hand and discards are exactly the house's seven cards (R0.5), the hand never empty
    (R6.12, RUL-6.12-4); supply on the track."""
    data = doc.data["houses"][house]
    own = list(ruleset.cards_by_house[house])
    problems = []
    for key in ("hand", "discards"):
        for i, card in enumerate(data.get(key, [])):
            if card not in own:
                problems.append(doc.problem(["houses", house, key, i], Msg(
                    "'{value}' is not a {house} house card{hint}", value=card, house=house,
                    hint=suggest(card, own))))
    if not data.get("hand"):
        problems.append(doc.problem(["houses", house, "hand"], Msg(
            "{house} holds no house card: a house always has one to play; when it uses its last, "
            "its discard pile comes back to its hand (R6.4, R6.12)", house=house)))
    held = data.get("hand", []) + data.get("discards", [])
    if sorted(held) != sorted(own) and all(c in own for c in held):
        missing = [c for c in own if c not in held]
        twice = [c for c in own if held.count(c) > 1]
        problems.append(doc.problem(["houses", house, "hand"], Msg(
            "{house}'s hand and discards must hold its 7 cards; missing: {cards}", house=house,
            cards=missing) if missing else Msg(
            "{house}'s hand and discards must hold its 7 cards once each; in both: {cards}",
            house=house, cards=twice)))
    if data["supply"] > ruleset.max_supply_level():
        problems.append(doc.problem(["houses", house, "supply"], Msg(
            "supply {supply} is above the top of the track ({top})", supply=data["supply"],
            top=ruleset.max_supply_level())))
    return problems


def area_problems(doc: Document, ruleset: Ruleset, in_play: list[str], area_id: str,
                  data: dict[str, Any], tally: _Tally, *,
                  provisional: bool = False) -> list[Problem]:
    """One area: a board area, units of its kind and of a house in play, routed among them, a
    power token alone with its house's units on land (R5.5), an order only on units in the
    action phase (R4.1), no neutral force with units. Adds its units and token to ``tally``."""
    base = ["areas", area_id]
    if area_id not in ruleset.areas:
        return [doc.problem(base, Msg("no such area '{value}'{hint}", value=area_id,
                                      hint=suggest(area_id, ruleset.areas)), key=True)]
    area = ruleset.areas[area_id]
    house = data.get("house")
    units = data.get("units", [])
    problems = []
    if house is not None and house not in in_play:
        problems.append(doc.problem([*base, "house"], Msg(
            "'{value}' is not a house in play{hint}", value=house,
            hint=suggest(house, in_play))))
    for i, unit in enumerate(units):
        if (unit == "ship") != area.is_sea:
            problems.append(doc.problem([*base, "units", i], Msg(
                "a {unit} cannot stand in {area_kind} area {area}", unit=unit,
                area_kind=AREA_KIND_WORDS.get(area.kind, area.kind), area=area_id)))
    if without(units, data.get("routed", [])) is None:
        problems.append(doc.problem([*base, "routed"],
                                    Msg("routed units must be among the area's units")))
    if house in tally.units:
        for unit in units:
            tally.units[house][unit] += 1
        tally.armies[house].append(len(units))
    token = data.get("power_token")
    if token is not None:
        if token not in in_play:
            problems.append(doc.problem([*base, "power_token"],
                                        Msg("'{value}' is not a house in play", value=token)))
        elif area.is_sea:
            problems.append(doc.problem([*base, "power_token"],
                                        Msg("no power tokens at sea (R5.5)")))
        elif units and house != token:
            problems.append(doc.problem([*base, "power_token"], Msg(
                "a {owner} power token cannot share {area} with {house} units (R5.5)",
                owner=token, area=area_id, house=house)))
        else:
            tally.power_tokens[token] += 1
    order = data.get("order")
    phase = doc.data["phase"]
    if order is not None:
        if order not in ruleset.order_tokens:
            problems.append(doc.problem([*base, "order"], Msg(
                "'{value}' is not an order{hint}", value=order,
                hint=suggest(order, ruleset.order_tokens))))
        elif not units:
            problems.append(doc.problem([*base, "order"],
                                        Msg("an order needs units in its area (R4.1)")))
        elif phase != "action" and not (provisional and phase == "planning"):
            problems.append(doc.problem([*base, "order"], Msg(
                "orders are on the board only in the action phase, not in the {phase} phase",
                phase=PHASE_WORDS.get(phase, phase))))
    if data.get("neutral_force") is not None and units:
        problems.append(doc.problem([*base, "neutral_force"], Msg(
            "a neutral force cannot share {area} with {house} units", area=area_id,
            house=house)))
    return problems


def limit_problems(doc: Document, ruleset: Ruleset, house: str, tally: _Tally, *,
                   provisional: bool = False) -> list[Problem]:
    """A house's units within the unit limits (R0.4), its armies within supply (R9), its
    power within its tokens (R0.3)."""
    data = doc.data["houses"][house]
    problems = []
    for unit in UNIT_TYPES:
        limit = ruleset.unit_limits[unit]
        count = tally.units[house][unit]
        if count > limit:
            problems.append(doc.problem(["houses", house], Msg(
                "{house} has {count} {unit}s on the board; the limit is {limit} (R0.4)",
                house=house, count=count, unit=unit, limit=limit), key=True))
    level = min(data["supply"], ruleset.max_supply_level())
    armies = tally.armies[house]
    if not provisional and not supply_fits(ruleset, level, armies):
        sizes = sorted((n for n in armies if n >= 2), reverse=True)
        problems.append(doc.problem(["houses", house, "supply"], Msg(
            "{house}'s armies {sizes} exceed supply level {level} (allowed {allowed}) (R9)",
            house=house, sizes=str(sizes), level=level,
            allowed=str(list(ruleset.supply_track[level])))))
    tokens = tally.power_tokens[house]
    if data["power"] + tokens > ruleset.power_tokens_per_house:
        problems.append(doc.problem(["houses", house, "power"], Msg(
            "{house} has {power} available power and {tokens} power tokens on the board: more "
            "than its {limit} tokens (R0.3)", house=house, power=data["power"], tokens=tokens,
            limit=ruleset.power_tokens_per_house)))
    return problems


def deck_problems(doc: Document, ruleset: Ruleset, deck: str) -> list[Problem]:
    """A Westeros deck holds exactly the ruleset's cards of that deck, in any order (R1.3)."""
    cards = doc.data["westeros"]["decks"][deck]
    expected = sorted(c.card for c in ruleset.decks[deck] for _ in range(c.count))
    if sorted(cards) == expected:
        return []
    missing = _count_diff(expected, cards)
    surplus = _count_diff(cards, expected)
    detail = joined([part for part in (
        Msg("missing: {westeros_card}", westeros_card=missing) if missing else "",
        Msg("extra: {westeros_card}", westeros_card=surplus) if surplus else "") if part])
    return [doc.problem(["westeros", "decks", deck], Msg(
        "deck {deck} does not hold the ruleset's {count} cards ({detail})", deck=deck,
        count=len(expected), detail=detail))]
