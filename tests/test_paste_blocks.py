"""Safe paste blocks (issue 14, item 4; docs/protocol.md P1, P2, RUL-P2-1): the ``answers:`` block
of a stopped run holds the documented defaults, so pasting it unedited does exactly what
``--defaults`` does, no more; an example that acts is only a comment."""

from __future__ import annotations

import copy

import pytest
import yaml
from autoplay import ORDERS_FORMAT, Driver, _doc

from agot_adjudicator.engine.decisions import PendingDecision, Request
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.render.report import render_pending
from agot_adjudicator.workflow.adjudicate import RunOptions, adjudicate_docs

RS = load_ruleset()


def pasted(text: str) -> dict:
    """The ``answers:`` block of a pending YAML text, as a moderator pastes it."""
    return yaml.safe_load(text[text.index("\nanswers:"):])["answers"]


def test_raven_block_keeps_the_orders_and_shows_the_swap_as_a_comment():
    """The issue's case: the Raven's pasteable answer was a real swap; now null (keep)."""
    request = Request("r3/raven/lannister", "lannister", "raven", "swap?", default=None,
                      example={"area": "riverrun", "order": "march_0"})
    text = render_pending([PendingDecision(request)])
    assert pasted(text) == {"r3/raven/lannister": None}
    block = text[text.index("\nanswers:"):]
    assert "  # e.g. {area: riverrun, order: march_0}\n  r3/raven/lannister: null\n" in block


def _without_defaults(events: list) -> list:
    return [e for e in events if e["type"] != "default_applied"]


@pytest.mark.parametrize("seed", range(6))
def test_pasting_the_block_unedited_does_what_defaults_do(seed):
    """Random rounds (random submissions, some plans stale): running with --defaults, and running
    without it while pasting every printed block unedited, give the same next state and the same
    events but the ``default_applied`` ones."""
    players = 3 + seed % 3
    driver = Driver(seed, players, RS, nmr_rate=0.0)
    state = driver.new_state()
    checked = 0
    while state.phase != "ended" and state.round <= 4:
        docs = driver.submissions(state)
        state_data = state.to_dict(RS)
        by_default = adjudicate_docs(_doc("state.yaml", state_data),
                                     [_doc(f"{i}.yaml", d) for i, d in enumerate(docs)], RS,
                                     RunOptions(defaults=True)).result
        assert by_default.status == "complete"
        answers: dict = {}
        for _ in range(100):
            run_docs = copy.deepcopy(docs)
            if answers:
                run_docs.append({"format": ORDERS_FORMAT, "round": state.round,
                                 "answers": answers})
            result = adjudicate_docs(_doc("state.yaml", state_data),
                                     [_doc(f"{i}.yaml", d) for i, d in enumerate(run_docs)],
                                     RS).result
            if result.status == "complete":
                break
            block = pasted(render_pending(result.pending))
            assert set(block) == {p.request.id for p in result.pending}
            for pending in result.pending:
                assert pending.request.why_illegal(block[pending.request.id]) is None
            answers.update(block)
            checked += len(block)
        else:
            raise AssertionError("the round did not complete")
        mine, theirs = result.state.to_dict(RS), by_default.state.to_dict(RS)
        mine.pop("chain", None)
        theirs.pop("chain", None)
        assert mine == theirs, f"round {state.round}"
        assert _without_defaults(result.events) == _without_defaults(by_default.events)
        state = result.state
    assert checked > 0
