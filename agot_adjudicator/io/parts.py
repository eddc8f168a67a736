"""The parts of a house's submission, and how a house's messages add up (docs/protocol.md P8).

A submission (``agot-orders/1``) of one house is made of *parts*, each named by a path:

- ``orders`` — the whole ``orders:`` section (the orders are placed together, R4.1);
- ``bids.TRACK`` — one Clash of Kings bid (``bids.iron_throne``), and ``wildlings``;
- ``plans.KEY`` — one plan (``plans.marches``, ``plans.musters`` ...);
- ``answers.ID`` — one direct answer (``answers.r3/raven/lannister``).

What a house has submitted for a round is the merge of its accepted messages, part by part:
a message replaces only the parts it carries and removes those it withdraws
(``withdraw: [bids.iron_throne, plans.marches]``). The merge is plain data; which parts a
message may change (a part already used stands, an older message never replaces a newer
one) is decided by the intake (:mod:`agot_adjudicator.workflow.inbox`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agot_adjudicator.model.ruleset import TRACKS

PLAN_KEYS = ("raven", "raids", "marches", "support", "accept_support", "house_cards", "blade",
             "casualties", "retreats", "card_choices", "musters", "supply_reductions",
             "wildling_losses", "wildling_reward", "tie_break")
"""The plan keys, in the order the schema lists them (and a merged file writes them)."""

HEAD_KEYS = ("format", "round", "house")
"""The keys a merged submission starts with; they are not parts."""

WESTEROS_PLANS = ("musters", "supply_reductions", "wildling_losses", "wildling_reward",
                  "tie_break")
"""Plans for a Westeros phase (R3): they stand from round to round until replaced or
withdrawn (RUL-P8-6), so that the next round's Westeros phase resolves from them."""


def parts_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every part of one house's submission data, by name, in a fixed order.

    >>> parts_of({"house": "stark", "orders": {"winterfell": "march"},
    ...           "bids": {"fiefdoms": 1}, "plans": {"raven": None}, "answers": {"r1/x/stark": 2}})
    {'orders': {'winterfell': 'march'}, 'bids.fiefdoms': 1, 'plans.raven': None, 'answers.r1/x/stark': 2}
    """
    out: dict[str, Any] = {}
    if "orders" in data:
        out["orders"] = data["orders"]
    bids = data.get("bids")
    if isinstance(bids, Mapping):
        for track in TRACKS:
            if track in bids:
                out[f"bids.{track}"] = bids[track]
    if "wildlings" in data:
        out["wildlings"] = data["wildlings"]
    plans = data.get("plans")
    if isinstance(plans, Mapping):
        for key in [*PLAN_KEYS, *sorted(k for k in plans if k not in PLAN_KEYS)]:
            if key in plans:
                out[f"plans.{key}"] = plans[key]
    answers = data.get("answers")
    if isinstance(answers, Mapping):
        for answer_id in answers:
            out[f"answers.{answer_id}"] = answers[answer_id]
    return out


def is_part_name(name: str) -> bool:
    """Whether ``name`` names a part a house may withdraw.

    >>> [is_part_name(n) for n in ("orders", "bids.fiefdoms", "plans.marches", "answers.r2/x/y",
    ...                            "bids", "plans.nothing", "house")]
    [True, True, True, True, False, False, False]
    """
    if name in ("orders", "wildlings"):
        return True
    head, _, rest = name.partition(".")
    return ((head == "bids" and rest in TRACKS) or (head == "plans" and rest in PLAN_KEYS)
            or (head == "answers" and rest.startswith("r") and "/" in rest))


def part_path(name: str) -> tuple[str, ...]:
    """Where a part sits in a submission's data (for located messages).

    >>> part_path("answers.r3/raven/stark"), part_path("bids.fiefdoms"), part_path("orders")
    (('answers', 'r3/raven/stark'), ('bids', 'fiefdoms'), ('orders',))
    """
    head, _, rest = name.partition(".")
    return (head, rest) if rest else (head,)


def submission(head: Mapping[str, Any], parts: Mapping[str, Any]) -> dict[str, Any]:
    """The submission data made of ``head`` (``format``, ``round``, ``house``) and ``parts``,
    in the fixed order of :func:`parts_of` (the same parts give the same bytes)."""
    out: dict[str, Any] = {k: head[k] for k in HEAD_KEYS if k in head}
    order = parts_of(_nest(parts))
    for name, value in order.items():
        path = part_path(name)
        if len(path) == 1:
            out[path[0]] = value
        else:
            out.setdefault(path[0], {})[path[1]] = value
    if "answers" in out:
        out["answers"] = dict(sorted(out["answers"].items()))
    return out


def _nest(parts: Mapping[str, Any]) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for name, value in parts.items():
        path = part_path(name)
        if len(path) == 1:
            nested[path[0]] = value
        else:
            nested.setdefault(path[0], {})[path[1]] = value
    return nested


def merged(stored: Mapping[str, Any], taken: Mapping[str, Any],
           withdrawn: Iterable[str] = ()) -> dict[str, Any]:
    """``stored`` parts with ``taken`` put over them and ``withdrawn`` removed.

    >>> merged({"orders": {"a": "march"}, "bids.fiefdoms": 1}, {"bids.fiefdoms": 2},
    ...        ["orders"])
    {'bids.fiefdoms': 2}
    """
    out = dict(stored)
    out.update(taken)
    for name in withdrawn:
        out.pop(name, None)
    return out


def carried(parts: Mapping[str, Any]) -> dict[str, Any]:
    """The parts that stand into the next round: the Westeros plans (:data:`WESTEROS_PLANS`).

    >>> carried({"orders": {}, "plans.musters": {"winterfell": ["footman"]}, "plans.raven": None})
    {'plans.musters': {'winterfell': ['footman']}}
    """
    keep = {f"plans.{key}" for key in WESTEROS_PLANS}
    return {name: value for name, value in parts.items() if name in keep}


PLAN_OF_KIND = {
    "raven": "raven", "raid_next": "raids", "march_next": "marches", "raid": "raids",
    "march": "marches", "support": "support", "house_card": "house_cards", "blade": "blade",
    "casualties": "casualties", "retreat_losses": "casualties", "retreat": "retreats",
    "card_choice": "card_choices", "supply_reduction": "supply_reductions", "muster": "musters",
    "tie_break": "tie_break", "wildling_reward": "wildling_reward",
    "wildling_losses": "wildling_losses"}
"""The ``plans`` key that answers a decision kind (docs/protocol.md P1's table)."""


def section_part(decision_id: str, kind: str) -> str | None:
    """The part whose own section answers a decision (``orders``, ``bids.TRACK``,
    ``wildlings``), or the plan that does; None for a kind no section or plan answers.

    >>> section_part("r3/clash_of_kings/fiefdoms/bid/stark", "bid")
    'bids.fiefdoms'
    >>> section_part("r3/wildlings/bid/stark", "bid"), section_part("r3/orders/stark", "orders")
    ('wildlings', 'orders')
    >>> section_part("r3/march@a/house_card/stark", "house_card")
    'plans.house_cards'
    """
    if kind == "orders":
        return "orders"
    if kind == "bid":
        if "/wildlings/" in decision_id:
            return "wildlings"
        return "bids." + decision_id.split("/clash_of_kings/")[-1].split("/")[0]
    key = PLAN_OF_KIND.get(kind)
    return None if key is None else f"plans.{key}"


def used_parts(decision_id: str, kind: str, by: str) -> list[str]:
    """The parts a resolved decision closes (RUL-P8-7): its direct answer; the section that
    answers it (orders, a bid) however it was resolved; the plan that resolved it.

    >>> used_parts("r3/orders/stark", "orders", "default")
    ['answers.r3/orders/stark', 'orders']
    >>> used_parts("r3/march@a/retreat/stark", "retreat", "plan")
    ['answers.r3/march@a/retreat/stark', 'plans.retreats']
    >>> used_parts("r3/march@a/retreat/stark", "retreat", "default")
    ['answers.r3/march@a/retreat/stark']
    """
    parts = [f"answers.{decision_id}"]
    part = section_part(decision_id, kind)
    if part is not None and (not part.startswith("plans.") or by == "plan"):
        parts.append(part)
    return parts
