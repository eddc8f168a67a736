"""Mail rounds per game round: whole games played by mail through ``agot inbox`` and
``agot adjudicate --game`` (issues 14 and 25).

Usage::

    python bench/bench_mail_rounds.py [GAMES_PER_SIZE] [FIRST_SEED]

Plays seeded 3-, 4- and 5-player games (``GAMES_PER_SIZE`` of each, default 2, game seeds from
``FIRST_SEED``, default 1) in a temporary game directory. Every submission is a mail message
(an ``.eml`` with a greeting, the YAML in the body and a signature) taken by
:func:`agot_adjudicator.workflow.inbox.receive`, the function behind ``agot inbox``, so a
house's messages add up part by part (docs/protocol.md P8); every run goes through
:func:`agot_adjudicator.workflow.record.run_game_round`, the function behind
``agot adjudicate --game DIR``. The players' choices come from the seeded random legal players
of ``tests/autoplay.py`` (``RandomPlayer``): every figure is reproducible.

**A stop** is a run that exits 3: the moderator mails the pending decisions and waits for the
answers, one mail round (a day or more in a real game). *Stops per round* is the number of such
runs in a game round. The physical limit is one stop for the orders (written on the board
after the Westeros phase), plus one when a bidding card (Clash of Kings, Wildling Attack)
comes up and its bids are made once the card is known.

Two kinds of players, the same game seeds for both:

- **mail** (the target): players as they really write. Asked for its orders, a house sends one
  mail: its orders and its template's plans — marches, raids, support, the Raven (``null``),
  house cards, the Blade, casualties, retreats, card choices — and the Westeros plans that stand
  into the next round (RUL-P8-6): musters within its supply limit, supply reductions, wildling
  losses and reward, a tie-break ranking. Every later stop it answers with an answers-only
  reply: the ``answers:`` block of its mail, filled in (every question asked, those asked ahead
  too), nothing else; what it sent before stands.
- **orders-only** (for information, no target): its orders mail carries the orders and what
  each token does (``plans.marches``, ``plans.raids``, ``plans.support``) and nothing else;
  every other decision it answers when asked, with answers-only replies.

The last line is exactly ``stops per round: mail median M max X; orders-only median M max X``
(medians and maxima over every round of every game). Targets (issue 25): mail median <= 2
and max <= 3.
"""

from __future__ import annotations

import datetime
import random
import statistics
import sys
import tempfile
from collections import Counter
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # tests/autoplay.py

from autoplay import RandomPlayer, _plain, own_areas

from agot_adjudicator.engine.aftermath import retreat_options
from agot_adjudicator.engine.board import controlled_areas
from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.engine.raids import raid_reach
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import Ruleset, supply_fits
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.template import CARD_CHOICES
from agot_adjudicator.workflow.inbox import receive
from agot_adjudicator.workflow.present import new_game_text
from agot_adjudicator.workflow.record import run_game_round, start_game

KINDS = ("mail", "orders-only")
ORDER_CONTENTS = ("marches", "raids", "support")
MAX_RUNS = 60
WESTEROS_PLANS = ("musters", "supply_reductions", "wildling_losses", "wildling_reward", "tie_break")
BATTLE_PLANS = ("marches", "raids", "support", "raven", "house_cards", "blade", "casualties",
                "retreats", "card_choices", "accept_support")
WHEN = datetime.datetime(2026, 12, 1, 18, 0, tzinfo=datetime.UTC)


class Player:
    """One house's scripted player of ``kind``: it mails its submissions to the game."""

    def __init__(self, kind: str, house: str, random_player: RandomPlayer) -> None:
        self.kind, self.house, self.rp = kind, house, random_player
        self.sent = 0

    def westeros_plans(self, state: GameState) -> dict[str, Any]:
        """The Westeros plans of the template, filled in for the next round on the board it
        sees: footmen within the supply limit (R9), a tie-break ranking, the reward."""
        rs, rng = self.rp.ruleset, self.rp.rng
        plans = self.rp.plans(state, self.house, None, 1.0)
        out = {k: plans[k] for k in WESTEROS_PLANS if k in plans}
        out["tie_break"] = rng.sample(houses := list(state.houses), len(houses))
        out.pop("wildling_reward", None)
        castles = [a for a in controlled_areas(state, rs, self.house) if rs.areas[a].castle]
        armies = {a: len(state.area(a).units) for a in own_areas(state, rs, self.house)}
        level = state.houses[self.house].supply
        musters: dict[str, list[str]] = {}
        for c in castles:
            want = rng.choice([0, 1, rs.areas[c].mustering_points])
            while want and not supply_fits(rs, level, list(
                    {**armies, c: armies.get(c, 0) + want}.values())):
                want -= 1
            musters[c] = ["footman"] * want
            armies[c] = armies.get(c, 0) + want
        out["musters"] = musters
        cards = list(rs.cards_by_house[self.house])  # the template lists every card
        out["wildling_reward"] = rng.sample(cards, len(cards))
        return out

    def template_plans(self, state: GameState, orders: dict[str, str | None]) -> dict[str, Any]:
        """Battle plans as the template offers them, filled in at random (legal values)."""
        rs, rng = self.rp.ruleset, self.rp.rng
        plans = self.rp.plans(state, self.house, orders, 1.0)
        out = {k: plans[k] for k in BATTLE_PLANS if k in plans}
        if "raven" in out:
            out["raven"] = None  # the template's value: keep the orders (a swap is an edit)
        if "marches" in out:
            out["marches"] = self.careful_marches(state, out["marches"])
        raids = []
        for area_id, order in orders.items():
            if order is not None and rs.order_tokens[order].kind == "raid":
                reach = list(raid_reach(rs, area_id))  # every target the template lists
                raids.append({"from": area_id, "targets": rng.sample(reach, len(reach))})
        if raids:
            out["raids"] = raids
        retreats = {}
        for area_id in own_areas(state, rs, self.house):
            options = retreat_options(state, rs, self.house, area_id)
            if options:
                retreats[area_id] = rng.sample(options, len(options))
        if retreats:
            out["retreats"] = retreats
        choices = {}
        for card in state.houses[self.house].hand:
            if card in CARD_CHOICES:
                if card == "renly_baratheon":
                    choices[card] = ["upgrade"]
                elif card in ("maester_luwin", "melisandre"):
                    choices[card] = rng.sample(list(rs.house_cards), len(rs.house_cards))
                else:
                    choices[card] = list(rs.area_ids)
        if choices:
            out["card_choices"] = choices
        return {k: v for k, v in out.items() if v not in ([], {})}

    def careful_marches(self, state: GameState, marches: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The random march plans, kept within the supply limit (R5.8) and the power for tokens
        (R5.5) on the board they are written for: a move that breaks either stays home."""
        rs = self.rp.ruleset
        armies = {a: len(state.area(a).units) for a in own_areas(state, rs, self.house)}
        level, power = state.houses[self.house].supply, state.houses[self.house].power
        out = []
        for entry in marches:
            moved = sum(len(u) for u in entry["moves"].values())
            after = dict(armies)
            after[entry["from"]] = after.get(entry["from"], 0) - moved
            for dest, units in entry["moves"].items():
                after[dest] = after.get(dest, 0) + len(units)
            token = entry.get("leave_power_token", False) and power >= 1
            if supply_fits(rs, level, [n for n in after.values() if n > 0]):
                armies, power = after, power - token
                out.append({**entry, "leave_power_token": token})
            else:
                out.append({"from": entry["from"], "moves": {}, "leave_power_token": False})
        return out

    def reply(self, pending: list[PendingDecision], state: GameState) -> dict[str, Any] | None:
        """This house's reply to a stop: the orders mail when asked for orders, else the
        ``answers:`` block filled in (every question it is asked, those asked ahead too)."""
        mine = [p for p in pending if p.request.house == self.house]
        if not mine:
            return None
        doc: dict[str, Any] = {"format": "agot-orders/1", "round": state.round,
                               "house": self.house}
        values = self.rp.answer_all(mine, state)
        answers = {}
        for p in mine:
            if p.request.kind == "orders" and p.reason is None:
                orders = self.rp.orders(state, self.house)
                doc["orders"] = orders
                if self.kind == "mail":
                    doc["plans"] = {**self.template_plans(state, orders),
                                    **self.westeros_plans(state)}
                else:
                    plans = self.rp.plans(state, self.house, orders, 1.0)
                    contents = {k: plans[k] for k in ORDER_CONTENTS if k in plans}
                    if contents:
                        doc["plans"] = contents
            else:
                answers[p.request.id] = _plain(values[p.request.id])
        if answers:
            doc["answers"] = answers
        return doc

    def mail(self, doc: dict[str, Any], folder: Path) -> Path:
        """The submission as a player mails it: a greeting, the YAML, a signature."""
        self.sent += 1
        msg = EmailMessage()
        msg["From"] = f"{self.house}@example.org"
        msg["To"] = "gm@example.org"
        msg["Subject"] = f"{self.house}: round {doc['round']}"
        msg["Message-ID"] = f"<{self.sent}.{doc['round']}.{self.house}@example.org>"
        msg.set_content("Hello,\n\nhere is my reply.\n\n"
                        + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
                        + "\nCheers\n-- \n" + self.house + "\n")
        path = folder / f"{self.house}-{self.sent:04d}.eml"
        path.write_bytes(bytes(msg))
        return path


def play(kind: str, players: int, seed: int, ruleset: Ruleset, root: Path) -> list[list[str]]:
    """Play one game; return, per round, the kinds of decisions asked at each stop."""
    game = root / f"{kind}-{players}-{seed}"
    outbox = root / f"{kind}-{players}-{seed}-mail"
    outbox.mkdir()
    houses = list(ruleset.players[players])
    start_game(str(game), new_game_text(ruleset, houses, seed, f"bench-{seed}"), ruleset)
    rng = random.Random(f"bench-mail:{kind}:{players}:{seed}")
    rp = RandomPlayer(rng, ruleset)
    team = {h: Player(kind, h, rp) for h in houses}
    rounds: list[list[str]] = []
    clock = WHEN
    while True:
        rd = current_round(game)
        state = GameState.from_dict(yaml.safe_load(rd.state.read_text(encoding="utf-8")))
        if state.phase == "ended":
            return rounds
        stops: list[str] = []
        for _ in range(MAX_RUNS):
            done = run_game_round(str(game), ruleset)
            assert done.game is not None
            result = done.game.run.result
            if result.status == "complete":
                break
            asked = Counter(p.request.kind for p in result.pending)
            stops.append(", ".join(f"{k} {n}" if n > 1 else k for k, n in asked.items()))
            clock += datetime.timedelta(hours=1)
            letters = [team[h].mail(doc, outbox) for h in houses
                       if (doc := team[h].reply(result.pending, result.state)) is not None]
            outcomes = receive(str(game), [str(p) for p in letters], ruleset, clock)
            bad = [o for o in outcomes if not o.whole]
            if bad:
                raise SystemExit(f"{kind} {players}p seed {seed} round {state.round}: "
                                 + "\n".join(o.receipt for o in bad))
        else:
            raise SystemExit(f"{kind} {players}p seed {seed}: round {state.round} did not "
                             f"complete in {MAX_RUNS} runs")
        rounds.append(stops)


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 2
    first = int(argv[1]) if len(argv) > 1 else 1
    ruleset = load_ruleset()
    figures: dict[str, list[int]] = {k: [] for k in KINDS}
    with tempfile.TemporaryDirectory(prefix="agot-bench-mail-") as tmp:
        for kind in KINDS:
            for players in (3, 4, 5):
                for seed in range(first, first + games):
                    rounds = play(kind, players, seed, ruleset, Path(tmp))
                    counts = [len(r) for r in rounds]
                    figures[kind] += counts
                    print(f"{kind:11} {players}p seed {seed}: stops per round "
                          f"{' '.join(map(str, counts))} (total {sum(counts)})")
                    worst = max(range(len(rounds)), key=lambda i: len(rounds[i]))
                    print(f"{'':11} worst round {worst + 1}: " + " | ".join(rounds[worst]))
    for kind in KINDS:
        hist = Counter(figures[kind])
        print(f"{kind}: {len(figures[kind])} rounds; stops histogram "
              + ", ".join(f"{n}: {hist[n]}" for n in sorted(hist)))
    m, o = figures["mail"], figures["orders-only"]
    print(f"stops per round: mail median {statistics.median(m):g} max {max(m)}; "
          f"orders-only median {statistics.median(o):g} max {max(o)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
