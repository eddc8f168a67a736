"""Supply (R3.4, R9): set each house's supply level from its barrels, then reduce armies to fit.

Resolving a Supply card (:func:`resolve_supply`):

1. In order of play, each house's supply level becomes the number of supply
   (barrel) icons in the land areas it controls, capped at the top of the
   track (R3.4). Event ``supply_set``.
2. Every house whose armies no longer fit its new level (R9.2) destroys units
   of its choice until they fit. The choices are independent, so they are
   asked together: decision ``r{n}/supply/reduce/{house}``; plan
   ``plans.supply_reductions``. Destructions are applied in order of play
   (events ``unit_destroyed``). A reduction never empties an area (only
   armies are cut, and never below one unit), so control does not change and
   R11.2 needs no check.

An answer (or plan) is either

- explicit units, ``[{area: harrenhal, unit: footman}, ...]``: legal when the
  armies fit afterwards and no listed unit could be spared (putting any one
  of them back would break the limit again: "until they fit");
- unit types in order of preference, ``[footman, ship, knight]``, applied by
  the documented reduction (:func:`plan_reduction`): the fewest units that
  make the armies fit; between equally small reductions, the armies whose
  best unit to lose comes first in the list are cut first, then the fixed
  area id order; inside an army, units go in the list's order. A type the
  reduction needs but the list does not name makes the plan not fit
  (the decision becomes pending with the reason).

**Default** (``--nmr``/``--defaults``): ``[footman, ship, knight]`` — the
cheapest units (mustering cost), by the reduction above.

The unit helpers here (:func:`destroy_unit`, :func:`resolve_units_or_types`)
are shared with the wildlings' losses (R8.4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agot_adjudicator.engine.board import LOSS_ORDER, barrels, unit_counts
from agot_adjudicator.engine.context import Context
from agot_adjudicator.engine.decisions import NO_PLAN, Request
from agot_adjudicator.model.ruleset import UNIT_TYPES, Ruleset, supply_fits
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import Msg

Unit = tuple[str, str]
"""(area, unit type)."""


# --- units on the board ---------------------------------------------------------------------
def units_of(state: GameState, ruleset: Ruleset, house: str) -> list[Unit]:
    """Every unit of ``house`` as (area, type), areas in fixed id order, types canonical."""
    out: list[Unit] = []
    for area_id in ruleset.area_ids:
        here = state.area(area_id)
        if here.house == house:
            out.extend((area_id, u) for u in UNIT_TYPES for _ in range(here.units.count(u)))
    return out


def destroy_unit(ctx: Context, house: str, area_id: str, unit: str, rule: str, cause: str) -> None:
    """Remove one ``unit`` of ``house`` from ``area_id``; emit ``unit_destroyed``.

    A house whose last unit leaves a land area keeps control only through a
    power token or its home area (R13.1).
    """
    with ctx.state.edit(area_id) as here:
        assert here.house == house and unit in here.units, (house, area_id, unit)
        here.units.remove(unit)
        standing = here.units.count(unit)
        if here.routed.count(unit) > standing:
            here.routed.remove(unit)
        if not here.units:
            here.order = None  # an order needs units (R4.1)
    ctx.emit("unit_destroyed", rule, house=house, area=area_id, unit=unit, cause=cause)


ENTRY = "{area, unit}"
"""An explicit unit entry, as a player writes it."""


def parse_units_or_types(value: Any) -> tuple[str, list[Any]] | str:
    """``("types", [...])`` or ``("units", [(area, unit), ...])``, or why ``value`` is malformed.

    >>> parse_units_or_types(["footman", "ship"])
    ('types', ['footman', 'ship'])
    >>> parse_units_or_types([{"area": "pyke", "unit": "knight"}])
    ('units', [('pyke', 'knight')])
    >>> parse_units_or_types("footman")
    'expected a list of unit types or of {area, unit} entries'
    """
    bad = Msg("expected a list of unit types or of {entries} entries", entries=ENTRY)
    if not isinstance(value, list):
        return bad
    if all(isinstance(v, str) for v in value):
        unknown = [v for v in value if v not in UNIT_TYPES]
        if unknown:
            return Msg("'{name}' is not a unit type (footman, knight, ship)", name=unknown[0])
        if len(set(value)) != len(value):
            return Msg("a unit type is listed twice")
        return ("types", list(value))
    if all(isinstance(v, dict) for v in value):
        units = []
        for v in value:
            if sorted(v) != ["area", "unit"] or not all(isinstance(x, str) for x in v.values()):
                return bad
            if v["unit"] not in UNIT_TYPES:
                return Msg("'{name}' is not a unit type (footman, knight, ship)", name=v["unit"])
            units.append((v["area"], v["unit"]))
        return ("units", units)
    return Msg("give either unit types or {entries} entries, not both", entries=ENTRY)


def resolve_units_or_types(state: GameState, ruleset: Ruleset, house: str, value: Any, *,
                           by_types: Callable[[list[str]], list[Unit] | str],
                           check_units: Callable[[list[Unit]], str | None]) -> list[Unit] | str:
    """The units an answer naming units or unit types removes, or why it is not legal.

    Shared by supply reductions (R3.4) and wildling losses (R8.4): ``value`` is
    parsed (:func:`parse_units_or_types`); a type list in order of preference
    goes to ``by_types`` (which picks the units); explicit ``{area, unit}``
    entries must all be on the board for ``house`` and pass ``check_units``.
    """
    parsed = parse_units_or_types(value)
    if isinstance(parsed, str):
        return parsed
    form, items = parsed
    if form == "types":
        return by_types(items) if items else Msg("the list of unit types is empty")
    why = missing_units(state, ruleset, house, items) or check_units(items)
    return why if why is not None else items


def missing_units(state: GameState, ruleset: Ruleset, house: str, units: list[Unit]) -> str | None:
    """Why ``units`` are not all on the board for ``house`` (counting repeats), or None."""
    have = units_of(state, ruleset, house)
    for area_id, unit in units:
        wanted = units.count((area_id, unit))
        there = have.count((area_id, unit))
        if wanted > there:
            f = {"house": house, "unit": unit, "area": area_id, "count": there}
            if there == 0:
                return Msg("{house} has no {unit} in {area}", **f)
            return (Msg("{house} has only {count} {unit}s in {area}", **f) if there > 1 else
                    Msg("{house} has only {count} {unit} in {area}", **f))
    return None


def as_entries(units: list[Unit]) -> list[dict[str, str]]:
    """Units as ``{area, unit}`` entries (the explicit answer form)."""
    return [{"area": a, "unit": u} for a, u in units]


def counts_after(counts: dict[str, int], units: list[Unit]) -> dict[str, int]:
    """Unit counts per area after removing ``units``."""
    out = dict(counts)
    for area_id, _unit in units:
        out[area_id] -= 1
    return {a: n for a, n in out.items() if n > 0}


# --- the reduction ----------------------------------------------------------------------------
def fits(ruleset: Ruleset, level: int, counts: dict[str, int]) -> bool:
    """Whether armies with these per-area counts fit supply ``level`` (R9.2)."""
    return supply_fits(ruleset, min(level, ruleset.max_supply_level()),
                       [counts[a] for a in sorted(counts)])


def _rank(priority: list[str], types: list[str]) -> int:
    """Position in ``priority`` of the first type in ``types`` the list names (len if none)."""
    ranks = [priority.index(t) for t in types if t in priority]
    return min(ranks) if ranks else len(priority)


def plan_reduction(state: GameState, ruleset: Ruleset, house: str, level: int,
                   priority: list[str]) -> list[Unit] | str:
    """The units ``house`` destroys to fit ``level`` under a type ``priority`` (R9), or why not.

    The fewest units are removed: some armies are cut down to one unit (not an
    army, R9.1) — the smallest ones — and the rest, largest first, are matched
    to the allowed sizes, largest first; every choice of how many armies to
    disband is tried and the cheapest kept (fewer disbanded on a tie). Ties
    between armies of one size: the army whose best unit to lose comes first
    in ``priority`` is cut (disbanded or matched to the smaller size) first,
    then the fixed area id order.
    """
    counts = unit_counts(state, house)
    if fits(ruleset, level, counts):
        return []
    allowed = sorted(ruleset.supply_track[min(level, ruleset.max_supply_level())], reverse=True)
    ids = ruleset.area_ids
    armies = [a for a in ids if counts.get(a, 0) >= 2]
    rank = {a: _rank(priority, state.area(a).units) for a in armies}
    # most willing to be cut first
    cut_first = sorted(armies, key=lambda a: (counts[a], rank[a], ids.index(a)))
    best: tuple[int, dict[str, int]] | None = None
    for k in range(max(0, len(armies) - len(allowed)), len(armies) + 1):
        disband, kept = cut_first[:k], cut_first[k:]
        cuts = {a: counts[a] - 1 for a in disband}
        # largest first; among equals the least willing gets the larger slot
        kept = sorted(kept, key=lambda a: (-counts[a], -rank[a], -ids.index(a)))
        for area_id, slot in zip(kept, allowed, strict=False):
            if counts[area_id] > slot:
                cuts[area_id] = counts[area_id] - slot
        total = sum(cuts.values())
        if best is None or total < best[0]:
            best = (total, cuts)
    assert best is not None
    out: list[Unit] = []
    for area_id in ids:
        n = best[1].get(area_id, 0)
        if not n:
            continue
        pool = list(state.area(area_id).units)
        for _ in range(n):
            choice = next((t for t in priority if t in pool), None)
            if choice is None:
                left = sorted(set(pool), key=UNIT_TYPES.index)
                f = {"house": house, "count": n, "area": area_id, "units": left,
                     "unit_types": list(priority)}
                return (Msg("{house} must destroy {count} units in {area}, which holds only "
                            "{units} beyond the types listed ({unit_types})", **f) if n > 1 else
                        Msg("{house} must destroy {count} unit in {area}, which holds only "
                            "{units} beyond the types listed ({unit_types})", **f))
            pool.remove(choice)
            out.append((area_id, choice))
    return out


def explicit_reduction_problem(state: GameState, ruleset: Ruleset, house: str, level: int,
                               units: list[Unit]) -> str | None:
    """Why explicit ``units`` (all on the board) are not a legal reduction to ``level`` (R9), or None."""
    counts = unit_counts(state, house)
    if not fits(ruleset, level, counts_after(counts, units)):
        return Msg("{house}'s armies still exceed supply level {level} after these units are "
                   "destroyed", house=house, level=level)
    for i, (area_id, unit) in enumerate(units):
        if fits(ruleset, level, counts_after(counts, units[:i] + units[i + 1:])):
            return Msg("the {unit} in {area} need not be destroyed: the armies fit without it "
                       "(units are destroyed only until they fit)", unit=unit, area=area_id)
    return None


def reduction_for(state: GameState, ruleset: Ruleset, house: str, level: int,
                  value: Any) -> list[Unit] | str:
    """The units an answer or plan destroys to fit ``level`` (R3.4, R9), or why it is not legal."""
    return resolve_units_or_types(
        state, ruleset, house, value,
        by_types=lambda priority: plan_reduction(state, ruleset, house, level, priority),
        check_units=lambda units: explicit_reduction_problem(state, ruleset, house, level, units))


def describe_armies(state: GameState, house: str) -> list[Msg] | Msg:
    """A house's armies for a sentence's field: ``area size`` per army, or ``none``."""
    counts = unit_counts(state, house)
    return [Msg("{area} {count}", area=a, count=counts[a]) for a in sorted(counts)
            if counts[a] >= 2] or Msg("none")


def resolve_supply(ctx: Context) -> None:
    """Resolve a Supply card (R3.4, R9): new supply levels, then reductions asked together."""
    s, rs = ctx.state, ctx.ruleset
    over = []
    for house in ctx.order_of_play():
        hs = s.houses[house]
        old, new = hs.supply, barrels(s, rs, house)
        hs.supply = new
        ctx.emit("supply_set", "R3.4", house=house, old=old, new=new)
        if not fits(rs, new, unit_counts(s, house)):
            over.append(house)
    if not over:
        return
    items = []
    for house in over:
        level = s.houses[house].supply
        allowed = list(rs.supply_track[min(level, rs.max_supply_level())])

        def check(value: Any, house: str = house, level: int = level) -> str | None:
            result = reduction_for(s, rs, house, level, value)
            return result if isinstance(result, str) else None

        default = list(LOSS_ORDER)
        example = plan_reduction(s, rs, house, level, default)
        request = Request(
            ctx.rid("supply", "reduce", house), house, "supply_reduction",
            Msg("{house}'s supply is now {level} (armies allowed: {allowed}); its armies "
                "({armies}) do not fit. Destroy units until they fit: list {entries} entries, "
                "or unit types in order of preference.", house=house, level=level,
                allowed=str(allowed), armies=describe_armies(s, house), entries=ENTRY),
            default=default, check=check,
            example=as_entries(example) if isinstance(example, list) else None)
        plan = ctx.inputs.plan(house, "supply_reductions", None)
        items.append((request, NO_PLAN if plan is None else plan))
    answers = ctx.ask_together(items)
    for house, answer in zip(over, answers, strict=True):
        level = s.houses[house].supply
        units = reduction_for(s, rs, house, level, answer)
        assert not isinstance(units, str), units
        ctx.emit("supply_reduction", "R3.4", house=house, level=level, units=as_entries(units))
        for area_id, unit in units:
            destroy_unit(ctx, house, area_id, unit, "R3.4", "supply")
    # No R11.2 check here: a reduction only ever cuts armies (2+ units) and never empties an
    # area (a lone unit is not an army, so destroying it is never needed), so control is unchanged.
