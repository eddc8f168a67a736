"""Decision requests, answers, plans, defaults and pending decisions (docs/protocol.md P1).

The engine calls :meth:`Decider.ask` (or :meth:`Decider.ask_together` for
simultaneous decisions). An answer comes, in this order, from a direct answer
keyed by the decision id, from the house's plan (the caller turns the plan
into a candidate value), or, under ``--nmr HOUSE`` / ``--defaults``, from the
documented default. Otherwise :class:`Pending` is raised and the run stops
(exit 3). Resolution is deterministic, so re-running with more answers
reproduces every earlier step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agot_adjudicator.errors import Problem, excerpt
from agot_adjudicator.model.answers import shape_problem
from agot_adjudicator.model.naming import listed
from agot_adjudicator.model.text import Msg

NO_PLAN = object()
"""Marker: the house has no plan for this decision."""

Check = Callable[[Any], str | None]
"""Returns why a value is not legal, or None when it is."""


@dataclass(frozen=True)
class Request:
    """One decision a house must take.

    ``id`` names what the decision is about (``r3/march@lannisport/house_card/stark``),
    never its position in a sequence. ``options`` lists legal values when they
    can be listed; ``check`` validates values that cannot (e.g. march moves).
    ``default`` is the value applied under ``--nmr``/``--defaults``.
    """

    id: str
    house: str
    kind: str
    prompt: str
    """What is asked, for a person: a :class:`~agot_adjudicator.model.text.Msg` (English text
    that a renderer says in the reader's language)."""
    options: tuple[Any, ...] = ()
    default: Any = None
    check: Check | None = field(default=None, compare=False)
    example: Any = None
    choices: tuple[Any, ...] = field(default=(), compare=False)
    """Every legal value, for a decision checked by ``check`` whose values can still be listed
    (the Raven's swaps): what :func:`~agot_adjudicator.engine.round.ask_ahead` tries."""
    reveals: tuple[str, ...] = field(default=(), compare=False)
    """The houses that learn of a battle from this question (the defender, a supporter); the
    attacker knows of its own march. Asked ahead only if none of them decides before it."""
    basis: tuple[Any, ...] = field(default=(), compare=False)
    """For a decision with a ``check`` and no ``options``: the facts besides the prompt that
    decide which answers are legal (the orders' ★ allowance and restrictions), so that two
    requests with the same prompt and basis accept the same answers."""
    facts: Any = field(default=None, compare=False)
    """What the prompt sums up, for a program that shows the decision (``agot preview``): a
    house card's, each side's strength before cards by role (R6.3), broken down as the
    ``battle`` event's ``sides``."""
    moot: str | None = field(default=None, compare=False)
    """Why every answer leads to the same outcome (no raid has a target), or None: a moot
    decision without an answer or a plan takes its default without asking (RUL-P1-5)."""

    def alternatives(self) -> tuple[Any, ...]:
        """Every legal value when they can be listed (``choices``, else ``options``), else
        ``()``."""
        return self.choices or self.options

    def only_option(self) -> Any:
        """The value to take without asking, else :data:`NO_PLAN`: the one legal value of a
        decision whose options are listed and number one (a retreat with one area open, the
        last card in hand), or the default of a :attr:`moot` decision: asking would change
        nothing (RUL-P1-5)."""
        if self.moot is not None:
            return self.default
        values = self.alternatives()
        return values[0] if len(values) == 1 and self.why_illegal(values[0]) is None else NO_PLAN

    def why_illegal(self, value: Any) -> str | None:
        """Why ``value`` is not a legal answer, or None."""
        if self.check is not None:
            return self.check(value)
        if self.options and value not in self.options:
            return Msg("{answer} is not one of: {options}", answer=repr(value),
                       options=listed(str(o) for o in self.options))
        return None


@dataclass(frozen=True)
class PendingDecision:
    """A decision that has no answer yet, as printed by a stopped run."""

    request: Request
    reason: str | None = None
    ahead: bool = False
    """Asked ahead of its turn (RUL-P1-4): may be left unanswered until its turn comes."""

    def to_dict(self) -> dict[str, Any]:
        r = self.request
        out: dict[str, Any] = {"id": r.id, "house": r.house, "kind": r.kind,
                               "prompt": str(r.prompt)}
        if self.reason:
            out["reason"] = str(self.reason)
        if self.ahead:
            out["ahead"] = True
        if r.options:
            out["options"] = list(r.options)
        if r.example is not None:
            out["example"] = r.example
        out["default"] = r.default
        return out


def named(text: str, field_name: str, id_: str) -> Msg:
    """A name for a :class:`Msg` field whose English form is not its id (a house card's
    printed name): ``text`` in English; in another language the glossary's name of ``id_``,
    ``field_name`` giving its kind (:data:`~agot_adjudicator.model.text.FIELD_KINDS`)."""
    return _Named(text, field_name, id_)


class _Named(Msg):
    """A :class:`Msg` whose English text is a name and whose template names an id."""

    def __new__(cls, text: str, field_name: str, id_: str) -> _Named:
        self = str.__new__(cls, text)
        self.template = "{" + field_name + "}"
        self.fields = {field_name: id_}
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Named, (str(self), *self.fields.keys(), *self.fields.values()))


class Pending(Exception):
    """Raised by the decider: the run stops here with these decisions to take."""

    def __init__(self, decisions: Sequence[PendingDecision]) -> None:
        self.decisions = list(decisions)
        super().__init__(", ".join(d.request.id for d in self.decisions))


class AnswerError(Exception):
    """A direct answer that is not legal: exit 1 with the answer's location."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class GivenAnswer:
    """A direct answer as the engine sees it: value, answering house (None: moderator), locator."""

    value: Any
    house: str | None
    locate: Callable[[str], Problem]


BY_ANSWER, BY_PLAN, BY_DEFAULT, BY_ONLY_OPTION = "answer", "plan", "default", "only_option"
"""How a decision was resolved (:class:`Resolution`): a direct answer, the house's plan, the
documented default (``--nmr``/``--defaults``, or recorded by an earlier run), or its one legal
value (RUL-P1-5)."""


@dataclass(frozen=True)
class Resolution:
    """A decision the run resolved: what the game directory's ledger records (P4), so that no
    later run reopens it and replay can tell a used part that was changed afterwards."""

    id: str
    house: str
    kind: str
    value: Any
    by: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "house": self.house, "kind": self.kind, "by": self.by,
                "value": self.value}


DEFAULT_NMR, DEFAULT_ALL, DEFAULT_RECORDED = "nmr", "defaults", "recorded"
"""Why a default applied without a plan (the ``default_applied`` event's ``reason``, P2): the
house is under ``--nmr``, every house under ``--defaults``, or the default is one the round's
ledger records (applied by ``--nmr`` or ``--defaults`` in a game directory, by this run or an
earlier one); a plan that no longer fits gives its own reason instead."""


@dataclass
class Decider:
    """Answers decisions from direct answers, plans and defaults; records what it used.

    ``recorded``: defaults an earlier committed run applied (decision id → value, the game
    directory's ledger, P2): applied again first, whatever the run's options.
    ``resolved``: every decision the run resolved, in order (:class:`Resolution`).
    ``horizon``: see the field.
    """

    answers: dict[str, GivenAnswer] = field(default_factory=dict)
    nmr: tuple[str, ...] = ()
    defaults: bool = False
    used: list[str] = field(default_factory=list)
    applied_defaults: list[tuple[Request, str]] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    recorded: dict[str, Any] = field(default_factory=dict)
    resolved: list[Resolution] = field(default_factory=list)
    only_options: list[Request] = field(default_factory=list)
    horizon: frozenset[str] | None = None
    """When set, only these decisions (and the recorded ones) may be resolved; any other is
    pending at once, answered or not: a check run that goes no further than the stop the
    committed runs reached, so that its verdict tells nothing the house was not told (P8)."""

    def scratch(self, answers: dict[str, GivenAnswer] | None = None) -> Decider:
        """A copy for a scratch run (asking ahead): the same answers (or ``answers``), plans and
        defaults, nothing recorded yet."""
        return replace(self, answers=self.answers if answers is None else answers, used=[],
                       asked=[], applied_defaults=[], resolved=[], only_options=[])

    def _done(self, request: Request, value: Any, by: str, record: bool) -> tuple[bool, Any, None]:
        if record:
            self.resolved.append(Resolution(request.id, request.house, request.kind, value, by))
        return True, value, None

    def _beyond(self, request: Request) -> bool:
        return (self.horizon is not None and request.id not in self.horizon
                and request.id not in self.recorded)

    def _resolve(self, request: Request, plan: Any) -> tuple[bool, Any, PendingDecision | None]:
        self.asked.append(request.id)
        if request.id in self.recorded:
            misfit = None if plan is NO_PLAN else request.why_illegal(plan)
            self.applied_defaults.append(
                (request, Msg("the plan no longer fits: {why}", why=misfit) if misfit
                 else DEFAULT_RECORDED))
            return self._done(request, self.recorded[request.id], BY_DEFAULT, True)
        if self._beyond(request):
            return False, None, PendingDecision(request)
        given = self.answers.get(request.id)
        if given is not None:
            if given.house is not None and given.house != request.house:
                raise AnswerError([given.locate(Msg(
                    "{house} cannot answer {decision}: it is {owner}'s decision",
                    house=given.house, decision=request.id, owner=request.house))])
            why = shape_problem(request.kind, given.value) or request.why_illegal(given.value)
            if why is not None:
                raise AnswerError([given.locate(Msg("answer {answer} to {decision}: {why}",
                                                    answer=excerpt(given.value),
                                                    decision=request.id, why=why))])
            self.used.append(request.id)
            return self._done(request, given.value, BY_ANSWER, True)
        return self._without_answer(request, plan, record=True)

    def probe(self, request: Request, plan: Any = NO_PLAN) -> tuple[bool, Any, PendingDecision | None]:
        """Whether ``request`` has an answer already, without recording anything: ``(True,
        value, None)`` for a direct answer (not checked here: the real ask checks it), a plan
        that fits or a default under ``--nmr``/``--defaults``; else ``(False, None, pending)``.

        Used to ask ahead, in the same mail round, decisions whose turn has not come yet
        (docs/protocol.md P1, *Asking together*).
        """
        if request.id in self.recorded:
            return True, self.recorded[request.id], None
        if self._beyond(request):
            return False, None, PendingDecision(request)
        given = self.answers.get(request.id)
        if given is not None:
            return True, given.value, None
        return self._without_answer(request, plan, record=False)

    def _without_answer(self, request: Request, plan: Any, *,
                        record: bool) -> tuple[bool, Any, PendingDecision | None]:
        """No direct answer: the plan if it fits, else the default under ``--nmr``/``--defaults``
        (noted when ``record``), else its one legal value (RUL-P1-5), else pending with the
        reason (P1, P2)."""
        reason = None
        if plan is not NO_PLAN:
            why = request.why_illegal(plan)
            if why is None:
                return self._done(request, plan, BY_PLAN, record)
            reason = Msg("the plan no longer fits: {why}", why=why)
        if self.defaults or request.house in self.nmr:
            if record:
                self.applied_defaults.append(
                    (request, reason or (DEFAULT_NMR if request.house in self.nmr
                                         else DEFAULT_ALL)))
            return self._done(request, request.default, BY_DEFAULT, record)
        only = request.only_option()
        if only is not NO_PLAN:
            if record:
                self.only_options.append(request)
            return self._done(request, only, BY_ONLY_OPTION, record)
        return False, None, PendingDecision(request, reason)

    def ask(self, request: Request, plan: Any = NO_PLAN) -> Any:
        """The answer to one decision, or raise :class:`Pending`."""
        ok, value, pending = self._resolve(request, plan)
        if not ok:
            assert pending is not None
            raise Pending([pending])
        return value

    def ask_together(self, items: Sequence[tuple[Request, Any]]) -> list[Any]:
        """Answers to simultaneous decisions; all missing ones are pending together. None of
        them counts as resolved until all are (orders and bids are revealed together)."""
        values, missing = [], []
        marks = len(self.resolved), len(self.applied_defaults), len(self.only_options)
        for request, plan in items:
            ok, value, pending = self._resolve(request, plan)
            values.append(value)
            if not ok:
                assert pending is not None
                missing.append(pending)
        if missing:
            del self.resolved[marks[0]:], self.applied_defaults[marks[1]:]
            del self.only_options[marks[2]:]
            raise Pending(missing)
        return values

    def unused_answers(self) -> list[str]:
        """Ids of direct answers that no decision asked for (typos or stale)."""
        return [a for a in self.answers if a not in self.used]
