"""Mail rounds per game round: whole games through ``agot adjudicate --game`` (issue 14, item 5).

Usage::

    python bench/bench_mail_rounds.py [GAMES_PER_SIZE] [FIRST_SEED]

Plays seeded 3-, 4- and 5-player games (``GAMES_PER_SIZE`` of each, default 2, game seeds from
``FIRST_SEED``, default 1) in a temporary game directory, every run through
:func:`agot_adjudicator.workflow.record.run_game_round`, the function behind
``agot adjudicate --game DIR`` (it reads ``round-NN/state.yaml`` and ``round-NN/orders/*.yaml``
and commits the round's files; exit 3 is a run that returns pending decisions). Players write
their files into ``round-NN/orders/``; their choices come from the seeded random legal players of
``tests/autoplay.py`` (``RandomPlayer``), so every figure is reproducible.

**A stop** is a run that exits 3: the moderator mails the pending decisions and waits for the
answers, one mail round (a day or more in a real game). *Stops per round* is the number of such
runs in a game round, which is the number of runs minus one (the last run completes the round).
The first stop of a round is the one that asks the orders on the board after the Westeros phase
(the players cannot order before it is resolved: issue 14, item 1); so the physical limit is one
stop for the orders, plus one when a bidding card (Clash of Kings, Wildling Attack) comes up and
its bids are made once the card is known.

Two kinds of players, the same game seeds for both:

- **plans**: each house fills in its template's plans. With the previous round's results (before
  the first run of the round) it sends the Westeros plans that need no knowledge of this round's
  cards: musters, supply reductions, wildling losses and reward, its Iron Throne tie-break
  ranking. At a stop that asks a bid it sends every bid of the round at once (``bids:`` for the
  three tracks, ``wildlings:``). At the orders stop it sends its orders and every battle plan
  (marches, raids, support, Raven, house cards, Blade, casualties, retreats, card choices).
  Its values are random but written as a careful player writes them on the board it sees:
  musters of footmen within its supply limit, marches within the supply limit and its power
  for tokens (a move that would break them stays home), raids listing every target in reach
  in a random preference, every offered retreat in a random preference, the Raven's ``null``.
  Anything still asked (a plan that the board changed under) it answers directly.
- **orders-only**: sends nothing in advance. Asked for its orders it sends them as a player
  writes orders on paper: each token with what it does (``orders:``, and the moves of each
  March, the targets of each Raid, the house each Support backs: ``plans.marches``,
  ``plans.raids``, ``plans.support``), nothing else. Every other decision (bids, tie-breaks,
  Raven, house cards, Blade, casualties, retreats, musters, losses...) it answers when a stop
  asks it, directly, with a random legal answer, those asked ahead too (RUL-P1-4): asked the
  Raven with its orders (RUL-4.6-1), before any order is on the board, it keeps its orders.
- **answer-all** (for information, no target): like orders-only, but it sends only the tokens
  (``orders:``) and answers every other decision when asked, marches and raids included.

The line before the last gives the answer-all figures; the last line is exactly
``stops per round: plans median M max X; orders-only median M max X``
(medians and maxima over every round of every game). Targets (issue 14): plans median <= 2 and
max <= 3; orders-only median <= 4.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # tests/autoplay.py

from autoplay import RandomPlayer, _plain, own_areas

from agot_adjudicator.engine.battles import retreat_options
from agot_adjudicator.engine.board import controlled_areas
from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.engine.raids import raid_reach
from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.rulesets import load_ruleset
from agot_adjudicator.model.ruleset import Ruleset, supply_fits
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.template import CARD_CHOICES
from agot_adjudicator.workflow.present import new_game_text
from agot_adjudicator.workflow.record import run_game_round, start_game

KINDS = ("plans", "orders-only", "answer-all")
ORDER_CONTENTS = ("marches", "raids", "support")
BID_KINDS = ("bid",)
MAX_RUNS = 60
WESTEROS_PLANS = ("musters", "supply_reductions", "wildling_losses", "wildling_reward", "tie_break")
BATTLE_PLANS = ("marches", "raids", "support", "raven", "house_cards", "blade", "casualties",
                "retreats", "card_choices", "accept_support")


class Player:
    """One house's scripted player of ``kind``; writes ``round-NN/orders/HOUSE.yaml``."""

    def __init__(self, kind: str, house: str, random_player: RandomPlayer) -> None:
        self.kind, self.house, self.rp = kind, house, random_player
        self.doc: dict[str, Any] = {}
        self.start_power = 0

    def start_round(self, state: GameState) -> None:
        self.doc = {"format": "agot-orders/1", "round": state.round, "house": self.house}
        self.start_power = state.houses[self.house].power
        if self.kind == "plans":
            plans = self.rp.plans(state, self.house, None, 1.0)
            self.doc["plans"] = {k: plans[k] for k in WESTEROS_PLANS if k in plans}
            # every house may hold the Iron Throne after a Clash of Kings: each ranks the houses
            self.doc["plans"]["tie_break"] = self.rp.rng.sample(houses := list(state.houses),
                                                                len(houses))
            self.doc["plans"].pop("wildling_reward", None)
            # a value for every castle, as the template lists them: mostly simple musters
            rs, rng = self.rp.ruleset, self.rp.rng
            castles = [a for a in controlled_areas(state, rs, self.house) if rs.areas[a].castle]
            armies = {a: len(state.area(a).units) for a in own_areas(state, rs, self.house)}
            level = state.houses[self.house].supply
            musters: dict[str, list[str]] = {}
            for c in castles:  # footmen within the supply limit (R9), as a careful player does
                want = rng.choice([0, 1, rs.areas[c].mustering_points])
                while want and not supply_fits(rs, level, list(
                        {**armies, c: armies.get(c, 0) + want}.values())):
                    want -= 1
                musters[c] = ["footman"] * want
                armies[c] = armies.get(c, 0) + want
            self.doc["plans"]["musters"] = musters
            discards = state.houses[self.house].discards
            if discards:
                self.doc["plans"]["wildling_reward"] = self.rp.rng.sample(discards, len(discards))

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
        hand = state.houses[self.house].hand
        choices = {}
        for card in hand:
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
        (R5.5) on the board they are written for, in their order: a move that breaks either
        stays home instead, as a careful player plans."""
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

    def answer(self, pending: list[PendingDecision], state: GameState) -> None:
        """Answer this house's pending decisions (and, for plans players, send plans)."""
        mine = [p for p in pending if p.request.house == self.house]
        if not mine:
            return
        answers = self.doc.setdefault("answers", {})
        values = self.rp.answer_all(mine, state)
        for p in mine:
            kind = p.request.kind
            if kind == "orders":
                orders = self.rp.orders(state, self.house)
                self.doc["orders"] = orders
                if self.kind == "plans":
                    self.doc.setdefault("plans", {}).update(self.template_plans(state, orders))
                elif self.kind == "orders-only":
                    plans = self.rp.plans(state, self.house, orders, 1.0)
                    contents = {k: plans[k] for k in ORDER_CONTENTS if k in plans}
                    if contents:
                        self.doc["plans"] = contents
            elif kind in BID_KINDS and self.kind == "plans" and p.reason is None:
                if "wildlings" in self.doc:
                    continue  # answered by the bids sent with the first one
                # every bid of the round at once: the tracks and the Night's Watch
                # within the power at the round's start too: adjudicate checks the sections so
                power = min(state.houses[self.house].power, self.start_power)
                self.doc["wildlings"] = self.rp.rng.randint(0, power)
                self.doc["bids"] = self.rp.bids(power - self.doc["wildlings"])
            else:
                answers[p.request.id] = _plain(values[p.request.id])
        if not answers:
            self.doc.pop("answers")

    def write(self, orders_dir: Path) -> None:
        if len(self.doc) > 3:
            (orders_dir / f"{self.house}.yaml").write_text(
                yaml.safe_dump(self.doc, sort_keys=False), encoding="utf-8")


def play(kind: str, players: int, seed: int, ruleset: Ruleset, root: Path) -> list[list[str]]:
    """Play one game; return, per round, the kinds of decisions asked at each stop."""
    game = root / f"{kind}-{players}-{seed}"
    houses = list(ruleset.players[players])
    start_game(str(game), new_game_text(ruleset, houses, seed, f"bench-{seed}"), ruleset)
    rng = random.Random(f"bench-mail:{kind}:{players}:{seed}")
    rp = RandomPlayer(rng, ruleset)
    team = {h: Player(kind, h, rp) for h in houses}
    rounds: list[list[str]] = []
    while True:
        rd = current_round(game)
        state = GameState.from_dict(yaml.safe_load(rd.state.read_text(encoding="utf-8")))
        if state.phase == "ended":
            return rounds
        for h in houses:
            team[h].start_round(state)
            team[h].write(rd.path / "orders")
        stops: list[str] = []
        for _ in range(MAX_RUNS):
            done = run_game_round(str(game), ruleset)
            assert done.game is not None
            result = done.game.run.result
            if result.status == "complete":
                break
            asked = Counter(p.request.kind for p in result.pending)
            stops.append(", ".join(f"{k} {n}" if n > 1 else k for k, n in asked.items()))
            for h in houses:
                team[h].answer(result.pending, result.state)
                team[h].write(rd.path / "orders")
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
                    print(f"{'':11} worst round {worst + 1}: "
                          + " | ".join(rounds[worst]))
    for kind in KINDS:
        hist = Counter(figures[kind])
        print(f"{kind}: {len(figures[kind])} rounds; stops histogram "
              + ", ".join(f"{n}: {hist[n]}" for n in sorted(hist)))
    p, o, a = figures["plans"], figures["orders-only"], figures["answer-all"]
    print(f"stops per round, answer-all (no target): median {statistics.median(a):g} "
          f"max {max(a)}")
    print(f"stops per round: plans median {statistics.median(p):g} max {max(p)}; "
          f"orders-only median {statistics.median(o):g} max {max(o)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
