"""Rule checks of a state file (beyond its schema): ids, limits, supply, tracks (R0, R4, R9, R12)."""

from __future__ import annotations

from collections.abc import Iterable
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


def state_problems(doc: Document, ruleset: Ruleset) -> list[Problem]:
    """Every rule problem of a schema-valid state document (R0.3, R0.4, R9, R12, R13)."""
    d: dict[str, Any] = doc.data
    p: list[Problem] = []
    if d["ruleset"]["sha256"] != ruleset.sha256 or d["ruleset"]["name"] != ruleset.name:
        p.append(ruleset_problem(doc, ruleset))
        return p  # the other checks would compare the state with the wrong components
    if d["round"] > ruleset.rounds:
        p.append(doc.problem(["round"], f"round {d['round']} does not exist: the game ends after "
                             f"round {ruleset.rounds} (R11.1)"))
    houses = list(d["houses"])
    for house in houses:
        if house not in ruleset.houses:
            p.append(doc.problem(["houses", house], f"'{house}' is not a house"
                                 f"{suggest(house, ruleset.houses)}", key=True))
    in_play = [h for h in houses if h in ruleset.houses]
    if len(houses) not in ruleset.players:
        p.append(doc.problem(["houses"], f"{len(houses)} houses in play; the game is for "
                             f"{one_of(str(n) for n in sorted(ruleset.players))} players"))
    for track in TRACKS:
        order = d["tracks"][track]
        if sorted(order) != sorted(houses):
            p.append(doc.problem(["tracks", track],
                                 f"{track} track {order} is not an order of the houses in play "
                                 f"({', '.join(houses)})"))
    # Cards: hand + discards are exactly the house's seven cards.
    for house in in_play:
        hs = d["houses"][house]
        own = list(ruleset.cards_by_house[house])
        for key in ("hand", "discards"):
            for i, card in enumerate(hs.get(key, [])):
                if card not in own:
                    p.append(doc.problem(["houses", house, key, i],
                                         f"'{card}' is not a {house} house card"
                                         f"{suggest(card, own)}"))
        held = hs.get("hand", []) + hs.get("discards", [])
        if sorted(held) != sorted(own) and all(c in own for c in held):
            missing = [c for c in own if c not in held]
            twice = [c for c in own if held.count(c) > 1]
            p.append(doc.problem(["houses", house, "hand"],
                                 f"{house}'s hand and discards must hold its 7 cards; missing: "
                                 f"{', '.join(missing)}" if missing else
                                 f"{house}'s hand and discards must hold its 7 cards once each; "
                                 f"in both: {', '.join(twice)}"))
        if hs["supply"] > ruleset.max_supply_level():
            p.append(doc.problem(["houses", house, "supply"],
                                 f"supply {hs['supply']} is above the top of the track "
                                 f"({ruleset.max_supply_level()})"))
    # Areas.
    counts: dict[str, dict[str, int]] = {h: dict.fromkeys(UNIT_TYPES, 0) for h in in_play}
    armies: dict[str, list[int]] = {h: [] for h in in_play}
    tokens_on_board: dict[str, int] = dict.fromkeys(in_play, 0)
    for area_id, a in d["areas"].items():
        base = ["areas", area_id]
        if area_id not in ruleset.areas:
            p.append(doc.problem(base, f"no such area '{area_id}'"
                                 f"{suggest(area_id, ruleset.areas)}", key=True))
            continue
        area = ruleset.areas[area_id]
        house = a.get("house")
        units = a.get("units", [])
        if house is not None and house not in in_play:
            p.append(doc.problem([*base, "house"], f"'{house}' is not a house in play"
                                 f"{suggest(house, in_play)}"))
        for i, unit in enumerate(units):
            if (unit == "ship") != area.is_sea:
                p.append(doc.problem([*base, "units", i],
                                     f"a {unit} cannot stand in {area.kind} area {area_id}"))
        if without(units, a.get("routed", [])) is None:
            p.append(doc.problem([*base, "routed"], "routed units must be among the area's units"))
        if house in counts:
            for unit in units:
                counts[house][unit] += 1
            armies[house].append(len(units))
        token = a.get("power_token")
        if token is not None:
            if token not in in_play:
                p.append(doc.problem([*base, "power_token"], f"'{token}' is not a house in play"))
            elif area.is_sea:
                p.append(doc.problem([*base, "power_token"], "no power tokens at sea (R5.5)"))
            elif units and house != token:
                p.append(doc.problem([*base, "power_token"],
                                     f"a {token} power token cannot share {area_id} with "
                                     f"{house} units (R5.5)"))
            else:
                tokens_on_board[token] += 1
        order = a.get("order")
        if order is not None:
            if order not in ruleset.order_tokens:
                p.append(doc.problem([*base, "order"], f"'{order}' is not an order"
                                     f"{suggest(order, ruleset.order_tokens)}"))
            elif not units:
                p.append(doc.problem([*base, "order"], "an order needs units in its area (R4.1)"))
            elif d["phase"] not in ("action",):
                p.append(doc.problem([*base, "order"],
                                     f"orders are on the board only in the action phase, "
                                     f"not in the {d['phase']} phase"))
        neutral = a.get("neutral_force")
        if neutral is not None and units:
            p.append(doc.problem([*base, "neutral_force"],
                                 f"a neutral force cannot share {area_id} with {house} units"))
    for house in in_play:
        for unit in UNIT_TYPES:
            limit = ruleset.unit_limits[unit]
            if counts[house][unit] > limit:
                p.append(doc.problem(["houses", house],
                                     f"{house} has {counts[house][unit]} {unit}s on the board; "
                                     f"the limit is {limit} (R0.4)", key=True))
        level = min(d["houses"][house]["supply"], ruleset.max_supply_level())
        if not supply_fits(ruleset, level, armies[house]):
            sizes = sorted((n for n in armies[house] if n >= 2), reverse=True)
            p.append(doc.problem(["houses", house, "supply"],
                                 f"{house}'s armies {sizes} exceed supply level {level} "
                                 f"(allowed {list(ruleset.supply_track[level])}) (R9)"))
        used = d["houses"][house]["power"] + tokens_on_board[house]
        if used > ruleset.power_tokens_per_house:
            p.append(doc.problem(["houses", house, "power"],
                                 f"{house} has {d['houses'][house]['power']} available power and "
                                 f"{tokens_on_board[house]} power tokens on the board: more than "
                                 f"its {ruleset.power_tokens_per_house} tokens (R0.3)"))
    # Decks: each a permutation of the ruleset's deck.
    for deck in DECKS:
        cards = d["westeros"]["decks"][deck]
        expected = sorted(c.card for c in ruleset.decks[deck] for _ in range(c.count))
        if sorted(cards) != expected:
            missing = _count_diff(expected, cards)
            surplus = _count_diff(cards, expected)
            detail = "; ".join(part for part in (
                f"missing: {', '.join(missing)}" if missing else "",
                f"extra: {', '.join(surplus)}" if surplus else "") if part)
            p.append(doc.problem(["westeros", "decks", deck],
                                 f"deck {deck} does not hold the ruleset's {len(expected)} cards "
                                 f"({detail})"))
    return p
