"""Rule checks of a state file (beyond its schema): ids, limits, supply, tracks (R0, R4, R9, R12)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agot_adjudicator.errors import Problem
from agot_adjudicator.io.reading import Document
from agot_adjudicator.model.naming import one_of, suggest
from agot_adjudicator.model.ruleset import DECKS, TRACKS, UNIT_TYPES, Ruleset, supply_fits
from agot_adjudicator.model.state import without


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
    made = (f"the state was made with ruleset {name} {sha256[:12]}…, but the ruleset in use is "
            f"{ruleset.name} {ruleset.sha256[:12]}… ({ruleset.source})")
    known = find_ruleset(name, sha256)
    if known is not None:
        return doc.problem(["ruleset", wrong], f"{made}; agot knows the state's ruleset "
                           f"({known.source}): leave out --ruleset to play on under it, or move "
                           "the game on with `agot adjudicate --game DIR --move-ruleset`")
    return doc.problem(["ruleset", wrong], f"{made}, and agot {__version__} knows no ruleset "
                       "with the state's name and hash (packaged, archived, or in the game's "
                       f"rulesets/ folder): pass the ruleset the game was played under with "
                       f"--ruleset DIR, or copy it into GAME/rulesets/{sha256}/, or use the "
                       "agot release that wrote the state")


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
    return [doc.problem(["provisional"], f"a provisional state: the board as far as a run "
                        f"stopped in the {stopped} phase got (round {doc.data.get('round')}), "
                        "not a round's record; adjudicate and replay use the round's "
                        "state.yaml with its submissions and answers, and `agot validate "
                        "--game DIR FILE` checks a file against this board", key=True)]


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
        return [doc.problem(["round"], f"round {round_} does not exist: the game ends after "
                            f"round {ruleset.rounds} (R11.1)")]
    return []


def houses_in_play_problems(doc: Document, ruleset: Ruleset, houses: list[str]) -> list[Problem]:
    """Houses in play are houses of the ruleset, as many as a game has players (R12)."""
    problems = [doc.problem(["houses", house], f"'{house}' is not a house"
                            f"{suggest(house, ruleset.houses)}", key=True)
                for house in houses if house not in ruleset.houses]
    if len(houses) not in ruleset.players:
        problems.append(doc.problem(["houses"], f"{len(houses)} houses in play; the game is for "
                                    f"{one_of(str(n) for n in sorted(ruleset.players))} players"))
    return problems


def track_problems(doc: Document, houses: list[str]) -> list[Problem]:
    """Each influence track orders exactly the houses in play (R1.4, R12.3)."""
    problems = []
    for track in TRACKS:
        order = doc.data["tracks"][track]
        if sorted(order) != sorted(houses):
            problems.append(doc.problem(["tracks", track],
                                        f"{track} track {order} is not an order of the houses "
                                        f"in play ({', '.join(houses)})"))
    return problems


def card_problems(doc: Document, ruleset: Ruleset, house: str) -> list[Problem]:
    """Hand and discards are exactly the house's seven cards (R0.5); supply on the track."""
    data = doc.data["houses"][house]
    own = list(ruleset.cards_by_house[house])
    problems = []
    for key in ("hand", "discards"):
        for i, card in enumerate(data.get(key, [])):
            if card not in own:
                problems.append(doc.problem(["houses", house, key, i],
                                            f"'{card}' is not a {house} house card"
                                            f"{suggest(card, own)}"))
    held = data.get("hand", []) + data.get("discards", [])
    if sorted(held) != sorted(own) and all(c in own for c in held):
        missing = [c for c in own if c not in held]
        twice = [c for c in own if held.count(c) > 1]
        problems.append(doc.problem(["houses", house, "hand"],
                                    f"{house}'s hand and discards must hold its 7 cards; "
                                    f"missing: {', '.join(missing)}" if missing else
                                    f"{house}'s hand and discards must hold its 7 cards once "
                                    f"each; in both: {', '.join(twice)}"))
    if data["supply"] > ruleset.max_supply_level():
        problems.append(doc.problem(["houses", house, "supply"],
                                    f"supply {data['supply']} is above the top of the track "
                                    f"({ruleset.max_supply_level()})"))
    return problems


def area_problems(doc: Document, ruleset: Ruleset, in_play: list[str], area_id: str,
                  data: dict[str, Any], tally: _Tally, *,
                  provisional: bool = False) -> list[Problem]:
    """One area: a board area, units of its kind and of a house in play, routed among them, a
    power token alone with its house's units on land (R5.5), an order only on units in the
    action phase (R4.1), no neutral force with units. Adds its units and token to ``tally``."""
    base = ["areas", area_id]
    if area_id not in ruleset.areas:
        return [doc.problem(base, f"no such area '{area_id}'{suggest(area_id, ruleset.areas)}",
                            key=True)]
    area = ruleset.areas[area_id]
    house = data.get("house")
    units = data.get("units", [])
    problems = []
    if house is not None and house not in in_play:
        problems.append(doc.problem([*base, "house"], f"'{house}' is not a house in play"
                                    f"{suggest(house, in_play)}"))
    for i, unit in enumerate(units):
        if (unit == "ship") != area.is_sea:
            problems.append(doc.problem([*base, "units", i],
                                        f"a {unit} cannot stand in {area.kind} area {area_id}"))
    if without(units, data.get("routed", [])) is None:
        problems.append(doc.problem([*base, "routed"],
                                    "routed units must be among the area's units"))
    if house in tally.units:
        for unit in units:
            tally.units[house][unit] += 1
        tally.armies[house].append(len(units))
    token = data.get("power_token")
    if token is not None:
        if token not in in_play:
            problems.append(doc.problem([*base, "power_token"],
                                        f"'{token}' is not a house in play"))
        elif area.is_sea:
            problems.append(doc.problem([*base, "power_token"], "no power tokens at sea (R5.5)"))
        elif units and house != token:
            problems.append(doc.problem([*base, "power_token"],
                                        f"a {token} power token cannot share {area_id} with "
                                        f"{house} units (R5.5)"))
        else:
            tally.power_tokens[token] += 1
    order = data.get("order")
    phase = doc.data["phase"]
    if order is not None:
        if order not in ruleset.order_tokens:
            problems.append(doc.problem([*base, "order"], f"'{order}' is not an order"
                                        f"{suggest(order, ruleset.order_tokens)}"))
        elif not units:
            problems.append(doc.problem([*base, "order"],
                                        "an order needs units in its area (R4.1)"))
        elif phase != "action" and not (provisional and phase == "planning"):
            problems.append(doc.problem([*base, "order"],
                                        f"orders are on the board only in the action phase, "
                                        f"not in the {phase} phase"))
    if data.get("neutral_force") is not None and units:
        problems.append(doc.problem([*base, "neutral_force"],
                                    f"a neutral force cannot share {area_id} with {house} units"))
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
            problems.append(doc.problem(["houses", house],
                                        f"{house} has {count} {unit}s on the board; "
                                        f"the limit is {limit} (R0.4)", key=True))
    level = min(data["supply"], ruleset.max_supply_level())
    armies = tally.armies[house]
    if not provisional and not supply_fits(ruleset, level, armies):
        sizes = sorted((n for n in armies if n >= 2), reverse=True)
        problems.append(doc.problem(["houses", house, "supply"],
                                    f"{house}'s armies {sizes} exceed supply level {level} "
                                    f"(allowed {list(ruleset.supply_track[level])}) (R9)"))
    tokens = tally.power_tokens[house]
    if data["power"] + tokens > ruleset.power_tokens_per_house:
        problems.append(doc.problem(["houses", house, "power"],
                                    f"{house} has {data['power']} available power and "
                                    f"{tokens} power tokens on the board: more than "
                                    f"its {ruleset.power_tokens_per_house} tokens (R0.3)"))
    return problems


def deck_problems(doc: Document, ruleset: Ruleset, deck: str) -> list[Problem]:
    """A Westeros deck holds exactly the ruleset's cards of that deck, in any order (R1.3)."""
    cards = doc.data["westeros"]["decks"][deck]
    expected = sorted(c.card for c in ruleset.decks[deck] for _ in range(c.count))
    if sorted(cards) == expected:
        return []
    missing = _count_diff(expected, cards)
    surplus = _count_diff(cards, expected)
    detail = "; ".join(part for part in (
        f"missing: {', '.join(missing)}" if missing else "",
        f"extra: {', '.join(surplus)}" if surplus else "") if part)
    return [doc.problem(["westeros", "decks", deck],
                        f"deck {deck} does not hold the ruleset's {len(expected)} cards "
                        f"({detail})")]
