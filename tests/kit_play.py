"""A game directory played by the autoplay driver's random players, with each house's view and
the judge's verdict compared at every stop (tests/test_kit.py; issue 30)."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from autoplay import Driver

from agot_adjudicator.io.gamedir import current_round
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.adjudicate import adjudicate_docs
from agot_adjudicator.workflow.kit import check_with_view, load_view, view_data, view_text
from agot_adjudicator.workflow.standing import check_files


def said(verdict: Any, name: str) -> tuple[list[str], list[str]]:
    """A verdict's problems and warnings located in file ``name``, as printed."""
    problems, warnings = verdict.of(name)
    return sorted(str(p) for p in problems), sorted(str(w) for w in warnings)


class KitGame:
    """Plays a game through a game directory; :meth:`compare` at every stop."""

    def __init__(self, cli, ruleset, root: Path, seed: int, players: int) -> None:
        self.cli, self.ruleset, self.dir = cli, ruleset, root / f"game-{players}"
        self.work = root / "work"
        self.work.mkdir(exist_ok=True)
        self.driver = Driver(seed, players, ruleset, plan_rate=0.7, nmr_rate=0.0)
        self.rng = random.Random(seed)
        self.same = 0
        self.differ: list[str] = []
        self.offline_misses = 0
        self.views: list[tuple[str, str, Any]] = []
        """(house, view text, moment): every view written."""
        done = cli("new", "--players", str(players), "--seed", str(seed), "--game", str(self.dir))
        assert done.exit_code == 0, done.output

    def candidates(self, house: str, body: dict[str, Any], answers: dict[str, Any],
                   state: GameState) -> list[dict[str, Any]]:
        """What a player of ``house`` might send now: its file as stored, the reply with its
        answers, one with a wrong answer, one with a wrong order."""
        out = [copy.deepcopy(body)]
        head = {"format": "agot-orders/1", "round": state.round, "house": house}
        if answers:
            out.append({**head, "answers": dict(answers)})
            first = sorted(answers)[0]
            out.append({**head, "answers": {**answers, first: "no_such_thing"}})
        areas = [a for a, here in state.areas.items() if here.house == house and here.units]
        if areas:
            out.append({**head, "orders": {areas[0]: "march_plus9"}})
        return out

    def compare(self, house: str, files: list[Path]) -> None:
        view_path = self.work / f"{house}.view.yaml"
        data = view_data(str(self.dir), house, self.ruleset)
        text = view_text(data)
        view_path.write_text(text, encoding="utf-8")
        self.views.append((house, text, None))
        view = load_view(str(view_path), self.ruleset)
        for path in files:
            judge = check_files(str(self.dir), self.ruleset, [str(path)])
            kit = check_with_view(view, [str(path)], self.ruleset, None)
            if not kit.offline:
                self.offline_misses += 1
            a, b = said(judge, str(path)), said(kit.verdict, str(path))
            if a == b:
                self.same += 1
            else:
                self.differ.append(f"{path.name} r{data['round']} {data['source']}:\n"
                                   f" judge {a}\n kit   {b}\n"
                                   f" file {path.read_text()}")

    def play_round(self) -> None:
        rd = current_round(self.dir)
        state = GameState.from_dict(load_yaml(rd.state).data)
        bodies = self.driver.submissions(state)
        rd.orders_dir.mkdir(exist_ok=True)
        for body in bodies:
            (rd.orders_dir / f"{body['house']}.yaml").write_text(dump_yaml(body))
        for _ in range(60):
            run = self.cli("adjudicate", "--game", self.dir)
            assert run.exit_code in (0, 3), run.output
            if run.exit_code == 0:
                return
            docs = [load_yaml(p).data for p in rd.orders()]
            stopped = adjudicate_docs(Document("state.yaml", state.to_dict(self.ruleset), ""),
                                      [Document(str(i), d, "") for i, d in enumerate(docs)],
                                      self.ruleset).result
            values = self.driver.player.answer_all(stopped.pending, stopped.state)
            for body in bodies:
                house = body["house"]
                mine = {p.request.id: values[p.request.id] for p in stopped.pending
                        if p.request.house == house}
                files = []
                for i, cand in enumerate(self.candidates(house, body, mine, stopped.state)):
                    path = self.work / f"{house}-{i}.yaml"
                    path.write_text(dump_yaml(cand), encoding="utf-8")
                    files.append(path)
                self.compare(house, files)
            for p in stopped.pending:
                body = next(b for b in bodies if b["house"] == p.request.house)
                body.setdefault("answers", {})[p.request.id] = values[p.request.id]
                (rd.orders_dir / f"{p.request.house}.yaml").write_text(dump_yaml(body))
        raise AssertionError("the round did not complete")
