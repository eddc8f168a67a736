"""Each house's mail holds only its own secrets (issue 15 items 4 and 6): random games, every
run's mail rendered; a house's secrets at that moment — the cards in its hand that no event has
named so far, its pending decisions' answer entries, its private heading — appear in its own
message and in no other house's message nor in the public report.txt."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from autoplay import Driver
from privacy import without_own_submission

from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.render.language import Names
from agot_adjudicator.workflow.adjudicate import Adjudication, render_outputs
from agot_adjudicator.workflow.mailout import mail_files, private_text, public_text

RS = load_ruleset()
NAMES = Names(RS)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def secrets_of(run: Adjudication, named: set[str]) -> dict[str, set[str]]:
    """Each house's secrets in this run's mail: the names of hand cards no event has named
    (``named``: card ids in every event so far), ``  ID:`` answer entries of its pending
    decisions, and its private heading."""
    state = run.result.state
    out: dict[str, set[str]] = {}
    for house in state.order_of_play():
        found = {NAMES.card(c) for c in state.houses[house].hand if c not in named}
        found |= {f"\n  {p.request.id}:" for p in run.result.pending if p.request.house == house}
        found.add(f"Private to {house.capitalize()}")
        out[house] = found
    return out


def allowed_to_see(run: Adjudication, house: str) -> str:
    """What ``house``'s own pending decisions show it (a card text may show it another
    house's hand: the prompt and options are its own)."""
    return json.dumps([p.to_dict() for p in run.result.pending if p.request.house == house],
                      ensure_ascii=False) + " ".join(
        NAMES.card(v) for p in run.result.pending if p.request.house == house
        for v in strings(p.request.options or []))


def leaks(files: dict[str, str], secrets: dict[str, set[str]], run: Adjudication) -> list[str]:
    """Every secret of a house found where it does not belong; and a house's own message
    that misses one of its own secrets (the check would be empty)."""
    found = []
    public = files["mail/report.txt"]
    for house, items in secrets.items():
        own = files[f"mail/{house}.txt"]
        found += [f"{house}'s own message lacks {s!r}" for s in items if s not in own]
        found += [f"report.txt shows {house}'s {s!r}" for s in items if s in public]
        for other in secrets:
            if other == house:
                continue
            theirs = without_own_submission(files[f"mail/{other}.txt"])
            seen = allowed_to_see(run, other)
            found += [f"{other}'s message shows {house}'s {s!r}" for s in items
                      if s in theirs and s.strip().rstrip(":") not in seen]
            eml = files[f"mail/{other}.eml"]
            found += [f"{other}.eml names {house}'s private heading"
                      for s in items if s.startswith("Private to") and s in eml]
    return found


class MailChecker(Driver):
    """Plays a random game; renders and checks the mail of every run."""

    checked: int = 0
    named: set[str]
    secrets_seen: int = 0

    def run(self, state_data: dict[str, Any], docs_data: Any, round_: int) -> Adjudication:
        run = super().run(state_data, docs_data, round_)
        if not hasattr(self, "named"):
            self.named = set()
        self.named |= {s for e in run.result.events for s in strings(e) if s in RS.house_cards}
        out = render_outputs(run, self.ruleset)
        files = mail_files(run, self.ruleset, out, f"round-{round_:02d}",
                           {h: f"{h}@example.org" for h in run.result.state.houses})
        secrets = secrets_of(run, self.named)
        problems = leaks(files, secrets, run)
        assert not problems, f"seed {self.seed}, round {round_}: {problems[:5]}"
        self.checked += 1
        self.secrets_seen += sum(len(s) for s in secrets.values())
        return run


@pytest.mark.parametrize(("seed", "players"), [(11, 3), (12, 5), (13, 4)])
def test_random_games_mail_each_house_only_its_own_secrets(seed, players):
    checker = MailChecker(seed, players, RS, determinism_rate=0.0)
    checker.play()
    assert checker.checked > 10 and checker.secrets_seen > 100


def test_the_check_finds_a_planted_leak():
    """A message that carries another house's private part is caught (the check can fail)."""
    checker = MailChecker(21, 4, RS, determinism_rate=0.0)
    state = checker.new_state()
    run = Driver.run(checker, state.to_dict(RS), [], 1)  # no orders: every house is asked
    out = render_outputs(run, RS)
    files = mail_files(run, RS, out, "round-01", {})
    secrets = secrets_of(run, set())
    assert leaks(files, secrets, run) == []
    houses = run.result.state.order_of_play()
    victim, reader = houses[0], houses[1]
    planted = dict(files)
    planted[f"mail/{reader}.txt"] += private_text(run, RS, victim)
    found = leaks(planted, secrets, run)
    assert any(f"{reader}'s message shows {victim}'s" in f for f in found)
    assert any("Private to" in f for f in found)
    hand_card = NAMES.card(run.result.state.houses[victim].hand[0])
    planted = dict(files)
    planted["mail/report.txt"] = public_text(run, RS, out) + hand_card
    assert f"report.txt shows {victim}'s {hand_card!r}" in leaks(planted, secrets, run)
