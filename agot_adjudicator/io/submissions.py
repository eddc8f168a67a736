"""Submissions (``format: agot-orders/1``): sections per house, direct answers, R4 legality.

A file holds one house's section (``house:``), several (``houses:``), or only
the moderator's ``answers:``. Several files may be given: a house's parts
(:mod:`~agot_adjudicator.io.parts`: its orders, each bid, each plan, each answer)
add up over them; one part given twice with two different values is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.engine.decisions import Request
from agot_adjudicator.engine.planning import order_errors, orders_problem
from agot_adjudicator.engine.support import NO_ONE
from agot_adjudicator.errors import Problem, excerpt
from agot_adjudicator.io.reading import Document
from agot_adjudicator.model.answers import kind_of_answer, shape_problem
from agot_adjudicator.model.naming import suggest
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import Msg

SECTION_KEYS = ("orders", "bids", "wildlings", "plans")


@dataclass(frozen=True)
class Source:
    """Where a value came from, to locate errors found later by the engine."""

    doc: Document
    path: tuple[str | int, ...]

    def problem(self, message: str, *extra: str | int) -> Problem:
        return self.doc.problem([*self.path, *extra], message)


@dataclass
class HouseSection:
    """Everything one house submitted, merged over files, with the source of each part."""

    house: str
    orders: dict[str, str | None] | None = None
    bids: dict[str, int] | None = None
    wildlings: int | None = None
    plans: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """A direct answer to a decision id, and the house whose file gave it (None: moderator)."""

    id: str
    value: Any
    house: str | None
    source: Source


@dataclass
class Submissions:
    """All submissions of a run, merged."""

    sections: dict[str, HouseSection] = field(default_factory=dict)
    answers: dict[str, Answer] = field(default_factory=dict)
    docs: list[Document] = field(default_factory=list)

    def section(self, house: str) -> HouseSection:
        return self.sections.get(house) or HouseSection(house)

    def plan(self, house: str, key: str) -> Any:
        """The plan ``key`` of ``house``, or None."""
        section = self.sections.get(house)
        return None if section is None else section.plans.get(key)


def _merge_section(subs: Submissions, house: str, body: dict[str, Any], doc: Document,
                   base: tuple[str | int, ...], problems: list[Problem]) -> None:
    """Add one file's section of ``house``: its parts (io/parts.py) join those of the
    house's other files; the same part in two files must say the same (P1, *Two answers*)."""
    section = subs.sections.setdefault(house, HouseSection(house))

    def twice(tag: str, path: list[str | int]) -> None:
        first = section.sources[tag.split(".")[0] if tag.startswith("bids.") else tag]
        problems.append(doc.problem([*base, *path], Msg(
            "{house}'s {key} is given twice (also in {file})", house=house, key=tag,
            file=first.doc.name)))

    for key in SECTION_KEYS:
        if key not in body:
            continue
        if key == "plans":
            for plan_key, value in body["plans"].items():
                tag = f"plans.{plan_key}"
                if tag in section.sources:
                    if section.plans[plan_key] != value:
                        twice(tag, ["plans", plan_key])
                    continue
                section.plans[plan_key] = value
                section.sources[tag] = Source(doc, (*base, "plans", plan_key))
            continue
        if key == "bids" and section.bids is not None:
            for track, value in body["bids"].items():
                if track in section.bids and section.bids[track] != value:
                    twice(f"bids.{track}", ["bids", track])
            section.bids = {t: {**body["bids"], **section.bids}[t] for t in TRACKS
                            if t in section.bids or t in body["bids"]}
            continue
        if key in section.sources:
            if getattr(section, key) != body[key]:
                twice(key, [key])
            continue
        setattr(section, key, body[key])
        section.sources[key] = Source(doc, (*base, key))
    for answer_id, value in body.get("answers", {}).items():
        _add_answer(subs, answer_id, value, house, Source(doc, (*base, "answers", answer_id)),
                    problems)


def _add_answer(subs: Submissions, answer_id: str, value: Any, house: str | None,
                source: Source, problems: list[Problem]) -> None:
    previous = subs.answers.get(answer_id)
    if previous is not None:
        if previous.value != value:
            problems.append(source.problem(Msg(
                "two different answers to {id}: {value} here and {other_value} in {file}",
                id=answer_id, value=repr(value), other_value=repr(previous.value),
                file=previous.source.doc.name)))
        return
    subs.answers[answer_id] = Answer(answer_id, value, house, source)


def _one_of(options: Sequence[str], limit: int = 12) -> list[str]:
    """:func:`~agot_adjudicator.model.naming.one_of` as a list field (``...`` after ``limit``)."""
    return [*options[:limit], *(["..."] if len(options) > limit else [])]


def collect(docs: Sequence[Document], state: GameState, ruleset: Ruleset) -> tuple[
        Submissions, list[Problem]]:
    """Merge schema-valid submission documents; check round, houses and duplicates."""
    subs = Submissions(docs=list(docs))
    problems: list[Problem] = []
    for doc in docs:
        d = doc.data
        if d["round"] != state.round:
            problems.append(doc.problem(["round"], Msg(
                "{file} is for round {round}; the state is at round {state_round}",
                file=doc.name, round=d["round"], state_round=state.round)))
            continue
        has_section = any(k in d for k in SECTION_KEYS)
        if "houses" in d and ("house" in d or has_section):
            problems.append(doc.problem(["houses"], Msg(
                "give either `house:` with its sections or `houses:`, not both")))
            continue
        if has_section and "house" not in d:
            problems.append(doc.problem([], Msg("a file with orders, bids or plans needs "
                                                "`house:`")))
            continue
        sections: list[tuple[str, dict[str, Any], tuple[str | int, ...]]] = []
        if "house" in d:
            sections.append((d["house"], d, ()))
        for house, body in d.get("houses", {}).items():
            sections.append((house, body, ("houses", house)))
        for house, body, base in sections:
            path = [*base] if base else ["house"]
            if house not in state.houses:
                problems.append(doc.problem(path, Msg(
                    "'{value}' is not a house in play{hint} (in play: {houses})", value=house,
                    hint=suggest(house, state.houses), houses=_one_of(state.order_of_play())),
                    key=bool(base)))
                continue
            _merge_section(subs, house, body, doc, base, problems)
        if "house" not in d:
            for answer_id, value in d.get("answers", {}).items():
                _add_answer(subs, answer_id, value, None, Source(doc, ("answers", answer_id)),
                            problems)
        else:
            pass  # answers in a single-house file were merged with its section
    return subs, problems


def order_problems(section: HouseSection, state: GameState, ruleset: Ruleset,
                   restrictions: Sequence[str] | None = None, *,
                   lasting: bool = False) -> list[Problem]:
    """R4 legality of a house's planning orders, located in its file (R4.1–R4.4, R3.9–R3.11);
    ``lasting``: only what no Westeros card can cure (orders sent before the Westeros phase)."""
    if section.orders is None:
        return []
    src = section.sources["orders"]
    problems = []
    for area_id, message in order_errors(state, ruleset, section.house, section.orders,
                                         restrictions, lasting=lasting):
        if area_id is None:
            problems.append(src.problem(message))
        elif area_id not in ruleset.areas:
            problems.append(src.doc.problem([*src.path, area_id], message, key=True))
        else:
            problems.append(src.problem(message, area_id))
    return problems


def bid_problems(section: HouseSection, state: GameState,
                 ruleset: Ruleset | None = None) -> list[Problem]:
    """Bids within the power the house can hold when they are taken (R7.1, R8.1): the three
    tracks together, the wildling bid alone. With ``ruleset``, a bid sent with a Westeros-phase
    state counts what a Game of Thrones revealed before its card could give the house
    (:func:`~agot_adjudicator.engine.westeros.most_power_at`, RUL-8.1-2); a bid within that which
    the cards do not make good is asked again when it is taken, like any plan that no longer
    fits (RUL-P1-3)."""
    from agot_adjudicator.engine.westeros import most_power_at

    p: list[Problem] = []
    house = section.house
    power = state.houses[house].power

    def most(card: str) -> int:
        return power if ruleset is None else most_power_at(state, ruleset, house, card)

    if section.bids is not None:
        total = sum(section.bids.get(t, 0) for t in TRACKS)
        limit = most("clash_of_kings")
        if total > limit:
            p.append(section.sources["bids"].problem(Msg(
                "{house} bids {total} in all but has {power} available power (R7.1)",
                house=house, total=total, power=power) if limit == power else Msg(
                "{house} bids {total} in all but can hold at most {most} available power when "
                "the bids are taken ({power} now, R7.1, R3.8)", house=house, total=total,
                most=limit, power=power)))
    limit = most("wildling_attack")
    if section.wildlings is not None and section.wildlings > limit:
        p.append(section.sources["wildlings"].problem(Msg(
            "{house} bids {bid} against the wildlings but has {power} available power (R8.1)",
            house=house, bid=section.wildlings, power=power) if limit == power else Msg(
            "{house} bids {bid} against the wildlings but can hold at most {most} available "
            "power when the bid is taken ({power} now, R8.1, R3.8)", house=house,
            bid=section.wildlings, most=limit, power=power)))
    return p


def plan_problems(section: HouseSection, ruleset: Ruleset) -> list[Problem]:
    """Ids in plans that do not exist in the ruleset (areas, cards, houses)."""
    p: list[Problem] = []
    plans = section.plans
    src = section.sources

    def area(value: str, tag: str, *path: str | int, key: bool = False) -> None:
        if value not in ruleset.areas:
            s = src[tag]
            p.append(s.doc.problem([*s.path, *path], Msg(
                "no such area '{value}'{hint}", value=value,
                hint=suggest(value, ruleset.areas)), key=key))

    for i, raid in enumerate(plans.get("raids") or []):
        area(raid["from"], "plans.raids", i, "from")
        for j, target in enumerate(raid.get("targets", [])):
            area(target, "plans.raids", i, "targets", j)
            if raid["from"] in ruleset.areas and target in ruleset.areas and \
                    target not in ruleset.areas[raid["from"]].adjacent:
                p.append(src["plans.raids"].problem(Msg(
                    "{target} is not adjacent to {origin}; a raid reaches adjacent areas only "
                    "(R5.2)", target=target, origin=raid["from"]), i, "targets", j))
    for i, march in enumerate(plans.get("marches") or []):
        area(march["from"], "plans.marches", i, "from")
        for dest in march.get("moves", {}):
            area(dest, "plans.marches", i, "moves", dest, key=True)
    for key in ("support", "retreats"):
        for area_id in plans.get(key) or {}:
            area(area_id, f"plans.{key}", area_id, key=True)
    for area_id, destinations in (plans.get("retreats") or {}).items():
        for j, dest in enumerate(destinations or []):
            area(dest, "plans.retreats", area_id, j)
    for area_id, houses in (plans.get("support") or {}).items():
        for j, house in enumerate(houses or []):
            if house not in ruleset.houses and house != NO_ONE:
                p.append(src["plans.support"].problem(Msg(
                    "'{value}' is not a house{hint} (or '{none}': support no one)", value=house,
                    hint=suggest(house, ruleset.houses), none=NO_ONE), area_id, j))
    for area_id in plans.get("musters") or {}:
        area(area_id, "plans.musters", area_id, key=True)
        if area_id in ruleset.areas and not ruleset.areas[area_id].mustering_points:
            p.append(src["plans.musters"].doc.problem(
                [*src["plans.musters"].path, area_id],
                Msg("{area} has no castle or stronghold to muster in (R3.5)", area=area_id),
                key=True))
    if plans.get("raven"):
        area(plans["raven"]["area"], "plans.raven", "area")
        if plans["raven"]["order"] not in ruleset.order_tokens:
            order = plans["raven"]["order"]
            p.append(src["plans.raven"].problem(Msg(
                "'{value}' is not an order{hint}", value=order,
                hint=suggest(order, ruleset.order_tokens)), "order"))
    own = ruleset.cards_by_house[section.house]
    for i, rule in enumerate(plans.get("house_cards") or []):
        cards = rule.get("priority", [rule.get("card")])
        for j, card in enumerate(cards):
            if card is not None and card not in own:
                where: list[str | int] = [i, "priority", j] if "priority" in rule else [i, "card"]
                p.append(src["plans.house_cards"].problem(Msg(
                    "'{value}' is not a {house} house card{hint}", value=card,
                    house=section.house, hint=suggest(card, own)), *where))
    tie_break = plans.get("tie_break") or []
    seen: set[str] = set()
    for i, house in enumerate(tie_break):
        if house in seen:
            p.append(src["plans.tie_break"].problem(Msg(
                "'{value}' is named twice in the tie-break order (R7.2)", value=house), i))
        seen.add(house)
        if house not in ruleset.houses:
            p.append(src["plans.tie_break"].problem(Msg(
                "'{value}' is not a house{hint}", value=house,
                hint=suggest(house, ruleset.houses)), i))
    return p


def answer_shape_problems(subs: Submissions, ids: Sequence[str] | None = None) -> list[Problem]:
    """Direct answers (all, or those of ``ids``) whose value does not have the shape of the
    decision kind their id names (:mod:`~agot_adjudicator.model.answers`): refused before
    any rule check."""
    problems = []
    for answer_id in subs.answers if ids is None else ids:
        answer = subs.answers[answer_id]
        kind = kind_of_answer(answer_id)
        why = shape_problem(kind, answer.value) if kind is not None else None
        if why is not None:
            problems.append(answer.source.problem(Msg(
                "answer to {id} ({kind}): {why}", id=answer_id, kind=kind, why=why)))
    return problems


def answer_id_problems(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """Static checks of direct answer ids (docs/protocol.md P1), caught even when the run stops early.

    An id starts with this round (``r3/``), ends with a house in play (the deciding
    house: a house's file answers only its own decisions), and every area it names
    after ``@`` (``raid@AREA``, ``next@A+B``) is an area of the board.
    Whether the engine asks it is known only when the round completes.
    """
    problems: list[Problem] = []
    for answer_id, answer in subs.answers.items():
        parts = answer_id.split("/")
        if parts[0] != f"r{state.round}":
            problems.append(answer.source.problem(Msg(
                "decision ids of this round start with r{round}/ (the state is at round "
                "{round}); a stale answer?", round=state.round)))
            continue
        if parts[-1] not in state.houses:
            problems.append(answer.source.problem(Msg(
                "a decision id ends with the deciding house{hint}, one of: {ids}",
                hint=suggest(parts[-1], state.houses), ids=state.order_of_play())))
            continue
        if answer.house is not None and answer.house != parts[-1]:
            # the engine's own words when it is asked (engine.decisions.Decider)
            problems.append(answer.source.problem(Msg(
                "{house} cannot answer {id}: it is {other}'s decision", house=answer.house,
                id=answer_id, other=parts[-1])))
            continue
        unknown = [area for part in parts if "@" in part
                   for area in part.split("@", 1)[1].split("+") if area not in ruleset.areas]
        for area in unknown:
            problems.append(answer.source.problem(Msg(
                "no area '{value}' on the board{hint} (decision ids name areas by their ids)",
                value=area, hint=suggest(area, ruleset.area_ids))))
        if not unknown:
            problems.extend(answer_shape_problems(subs, [answer_id]))
    return problems


def _answer_problem(answer: Answer, why: str | None) -> list[Problem]:
    """The engine's words for an illegal direct answer (engine.decisions.Decider)."""
    if why is None:
        return []
    return [answer.source.problem(Msg("answer {value} to {id}: {why}",
                                      value=excerpt(answer.value), id=answer.id, why=why))]


def _power_fixed_before_clash(ruleset: Ruleset) -> bool:
    """Whether no deck before the last one holding a Clash of Kings holds a Game of Thrones."""
    decks = list(ruleset.decks)
    clash = [i for i, d in enumerate(decks) if any(c.card == "clash_of_kings" for c in ruleset.decks[d])]
    return not clash or not any(c.card == "game_of_thrones" for d in decks[:clash[-1]]
                                for c in ruleset.decks[d])


def answer_value_problems(subs: Submissions, state: GameState, ruleset: Ruleset) -> list[Problem]:
    """Direct answers the engine will refuse when it asks them, known on the board as it stands.

    Only answers of a well-formed id (:func:`answer_id_problems` first) are looked at:

    - ``rN/orders/HOUSE`` in a planning-phase state: the orders decision is the
      first one asked, on this board, with this check (R4.1–R4.4).
    - ``rN/clash_of_kings/TRACK/bid/HOUSE`` in a Westeros-phase state: bids are
      paid track by track (R7.3), and no card revealed before the Clash of Kings
      gains power (first edition: deck I moves units only; a ruleset with a Game of
      Thrones in an earlier deck is not checked), so a track's bid must be within the power
      left after the house's earlier tracks' bids (answers, else its section's
      bids), counting an unknown earlier bid as 0 (R3.6, R7.1).
    - ``rN/wildlings/bid/HOUSE`` given with the house's Clash of Kings bid answers
      (so the Clash comes this round, before the Wildling Attack): within the power
      the Clash leaves (R7.3, R8.1).
    """
    problems: list[Problem] = []
    spent: dict[str, int] = {}
    bid_ids = [f"r{state.round}/clash_of_kings/{t}/bid/" for t in TRACKS]
    for house in state.order_of_play():
        orders = subs.answers.get(f"r{state.round}/orders/{house}")
        if orders is not None and orders.house in (None, house) and state.phase == "planning":
            why = shape_problem("orders", orders.value) or \
                orders_problem(state, ruleset, house, orders.value)
            problems.extend(_answer_problem(orders, why))
        if state.phase != "westeros" or state.round <= ruleset.start_round or \
                not _power_fixed_before_clash(ruleset):
            continue
        power = state.houses[house].power
        planned = subs.section(house).bids or {}
        for track, prefix in zip(TRACKS, bid_ids, strict=True):
            answer = subs.answers.get(prefix + house)
            left = max(power - spent.get(house, 0), 0)
            value: Any = planned.get(track, 0)
            if answer is not None and answer.house in (None, house):
                value = answer.value
                if left > 0 and shape_problem("bid", value) is None:
                    request = Request(answer.id, house, "bid", "", tuple(range(left + 1)), 0)
                    problems.extend(_answer_problem(answer, request.why_illegal(value)))
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= left:
                spent[house] = spent.get(house, 0) + value
        wildlings = subs.answers.get(f"r{state.round}/wildlings/bid/{house}")
        clash = any(prefix + house in subs.answers for prefix in bid_ids)
        left = power - spent.get(house, 0)
        if wildlings is not None and wildlings.house in (None, house) and clash and left > 0 \
                and shape_problem("bid", wildlings.value) is None:
            request = Request(wildlings.id, house, "bid", "", tuple(range(left + 1)), 0)
            problems.extend(_answer_problem(wildlings, request.why_illegal(wildlings.value)))
    return problems
