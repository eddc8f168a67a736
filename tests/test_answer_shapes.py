"""Typed answers (issue 13.3): every decision kind's answer is checked for its shape before any
rule sees it, by ``validate`` and ``adjudicate``; odd values end in a located error, exit 1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agot_adjudicator.cli import main
from agot_adjudicator.engine.decisions import AnswerError, Decider, GivenAnswer, Request
from agot_adjudicator.errors import Problem
from agot_adjudicator.model.answers import SHAPES, kind_of_answer, shape_problem

DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo" / "round-01"
STATE = str(DEMO / "state.yaml")
ORDERS = [str(p) for p in sorted((DEMO / "orders").iterdir()) if p.name != "answers.yaml"]

IDS = {  # one decision id of each kind, as round 1 of the demo game could ask it
    "orders": "r1/orders/stark",
    "raven": "r1/raven/stark",
    "raid": "r1/raid@winterfell/stark",
    "march": "r1/march@winterfell/stark",
    "support": "r1/march@winterfell/support@castle_black/stark",
    "house_card": "r1/march@winterfell/house_card/stark",
    "blade": "r1/march@winterfell/blade/stark",
    "card_choice": "r1/march@winterfell/card/roose_bolton/stark",
    "retreat": "r1/march@winterfell/retreat/stark",
    "casualties": "r1/march@winterfell/casualties/stark",
    "retreat_losses": "r1/march@winterfell/retreat_losses/stark",
    "supply_reduction": "r1/supply/reduce/stark",
    "wildling_losses": "r1/wildlings/losses/stark",
    "wildling_reward": "r1/wildlings/reward/stark",
    "muster": "r1/mustering/winterfell/stark",
    "bid": "r1/clash_of_kings/iron_throne/bid/stark",
    "tie_break": "r1/clash_of_kings/iron_throne/tie_break/stark",
    "next": "r1/raids/next@winterfell+pyke/stark",
}

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([-1, 10**4299, -(10**50), 2**63, 100]),
    st.text(max_size=20),
    st.sampled_from(["winterfell", "footman", "x" * 5000, "Ünï", "none", "", "raid", "ship:bay"]),
)
odd = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(["winterfell", "moves", "area", "unit", "order",
                                               "leave_power_token"]), st.text(max_size=8)),
                    inner, max_size=3)), max_leaves=8)


def test_every_kind_has_an_id_and_every_id_its_kind():
    assert set(IDS) == set(SHAPES)
    for kind, answer_id in IDS.items():
        assert kind_of_answer(answer_id) == kind


def answers_file(tmp: Path, answer_id: str, value: object) -> str:
    path = tmp / "answers.yaml"
    # JSON is YAML: the value is written exactly, whatever its shape
    path.write_text("format: agot-orders/1\nround: 1\nanswers:\n  "
                    f"{json.dumps(answer_id)}: {json.dumps(value)}\n", encoding="utf-8")
    return str(path)


LOCATED = re.compile(r'^error: \S*answers\.yaml:4:\d+: ', re.MULTILINE)


def check(result, bad: bool, allowed: tuple[int, ...]) -> None:
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if bad:
        assert result.exit_code == 1, result.output
        assert LOCATED.search(result.output), result.output
        assert len(result.output) < 2000  # an excerpt, never the whole value
    else:
        assert result.exit_code in allowed, result.output


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(IDS)), value=odd)
def test_validate_refuses_misshapen_answers_with_a_located_error(tmp_path, kind, value):
    path = answers_file(tmp_path, IDS[kind], value)
    result = CliRunner().invoke(main, ["validate", STATE, *ORDERS, path])
    check(result, shape_problem(kind, value) is not None, (0, 1))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(IDS)), value=odd)
def test_adjudicate_refuses_misshapen_answers_with_a_located_error(tmp_path, kind, value):
    path = answers_file(tmp_path, IDS[kind], value)
    result = CliRunner().invoke(main, ["adjudicate", STATE, *ORDERS, path,
                                       "-o", str(tmp_path / "next.yaml")])
    check(result, shape_problem(kind, value) is not None, (0, 1, 3))


@pytest.mark.parametrize("value", [{"highgarden": ["raid"]}, {"highgarden": True},
                                   {"highgarden": {"a": 1}}, [["footman"]], "HUGE", "x" * 10**5],
                         ids=["list", "bool", "map", "nested", "huge", "long"])
def test_the_issue_cases(tmp_path, value):
    for answer_id in ("r1/orders/tyrell", "r1/march@riverrun/stark"):
        path = answers_file(tmp_path, answer_id, 1 if value == "HUGE" else value)
        if value == "HUGE":  # 5,000 digits: refused before conversion
            text = Path(path).read_text().replace(": 1\n", f": {'1' * 5000}\n")
            Path(path).write_text(text)
        for command in (["validate", STATE, *ORDERS, path],
                        ["adjudicate", STATE, *ORDERS, path, "-o", str(tmp_path / "n.yaml")]):
            result = CliRunner().invoke(main, command)
            assert result.exit_code == 1, result.output
            assert "Traceback" not in result.output and "answers.yaml:4:" in result.output
            assert not (tmp_path / "n.yaml").exists()


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(SHAPES)), value=odd)
def test_the_decider_checks_the_shape_of_the_decision_asked(kind, value):
    """Whatever reaches the engine unchecked (an id whose kind is not recognised) is
    refused by the decider, by the kind of the decision it answers."""
    def boom(_value):  # a rule check that cannot take a misshapen value
        hash(json.dumps(_value))
        return None

    request = Request("r1/x/stark", "stark", kind if kind != "next" else "raid_next", "?",
                      check=boom)
    decider = Decider({"r1/x/stark": GivenAnswer(value, "stark",
                                                lambda m: Problem("a.yaml", 1, 1, "$", m))})
    if shape_problem(request.kind, value) is None:
        assert decider.ask(request) == value
    else:
        with pytest.raises(AnswerError) as exc:
            decider.ask(request)
        assert len(str(exc.value)) < 1000


def test_every_kind_the_engine_asks_has_a_shape(monkeypatch):
    """The demo game's ten rounds ask most kinds; each must be in the shape table."""
    from agot_adjudicator.model.answers import shape_of

    seen: set[str] = set()
    real = Decider._resolve

    def spy(self, request, plan):
        seen.add(request.kind)
        return real(self, request, plan)

    monkeypatch.setattr(Decider, "_resolve", spy)
    result = CliRunner().invoke(main, ["replay", str(DEMO.parent)])
    assert result.exit_code == 0, result.output
    assert len(seen) >= 8
    assert sorted(k for k in seen if shape_of(k) is None) == []
