"""A game directory played by the autoplay driver's random players, with each house's view and
the judge's verdict compared at every stop (tests/test_kit.py; issue 30)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path
from typing import Any

from autoplay import Driver
from privacy import assert_no_secrets, drop_public, json_events, not_of, secrets_now

from agot_adjudicator.io.gamedir import board_now, current_round, round_dirs
from agot_adjudicator.io.ledger import read_ledger
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.adjudicate import adjudicate_docs
from agot_adjudicator.workflow.kit import check_with_view, load_view, view_data, view_text
from agot_adjudicator.workflow.standing import check_files


def yaml_data(text: str) -> dict[str, Any]:
    import yaml

    return yaml.safe_load(text)


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
        self.private_checks = 0
        self.shuffled = 0
        """Views of a stop after a Winter is Coming shuffled a deck (a stand-in seed)."""
        self.kinds: Counter = Counter()
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

    def secrets(self, docs: list[dict[str, Any]], pending: Any) -> list[Any]:
        """Every secret of every house at this moment (tests/privacy.py), less what every
        house's `agot template` prints anyway."""
        board = GameState.from_dict(load_yaml(board_now(self.dir).path).data)
        everything, last = [], []
        for rd in round_dirs(self.dir):
            if rd.log.is_file():
                last = json_events(rd.log.read_text(encoding="utf-8"))
                everything += last
        found = secrets_now(board, self.ruleset, events=everything, round_events=last,
                            submissions=docs, pending=pending)
        baseline = "\n".join(self.cli("template", "--game", self.dir, "--house", h).stdout
                             for h in board.order_of_play())
        # What a committed run resolved is published by the round's events (orders revealed,
        # the Raven kept or swapped, marches, supports, cards, losses): a view may carry the
        # value a decision of the ledger took, whoever's it was (docs/protocol.md P7).
        used = {e.id for e in read_ledger(current_round(self.dir), board.round).entries}
        found = [s for s in found if not (s.kind == "answer" and s.label in used)]
        return drop_public(found, baseline)

    def private(self, house: str, text: str, secrets: list[Any]) -> None:
        """No secret of another house in ``house``'s view (its own may be there; its own
        stored submission, which may name anything, is left out, as the mail's echo is)."""
        data = yaml_data(text)
        stored = data.pop("stored")
        rd = current_round(self.dir)
        mine = rd.orders_dir / f"{house}.yaml"
        assert stored == (load_yaml(mine).data if mine.is_file() else None)
        text = dump_yaml(data)
        own = {f for s in secrets if s.house == house for f in s.forms}
        others = [s for s in not_of(secrets, house) if not set(s.forms) <= own]
        assert_no_secrets(text, others, f"view of {house}")
        self.private_checks += 1
        self.kinds.update(s.kind for s in others)

    def compare(self, house: str, files: list[Path], secrets: list[Any] | None = None) -> None:
        view_path = self.work / f"{house}.view.yaml"
        data = view_data(str(self.dir), house, self.ruleset)
        text = view_text(data)
        view_path.write_text(text, encoding="utf-8")
        if secrets is not None:
            self.private(house, text, secrets)
        if any("winter_is_coming" in cards for cards in data["drawn"].values()):
            self.shuffled += 1
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
            secrets = self.secrets(docs, stopped.pending)
            for body in bodies:
                house = body["house"]
                mine = {p.request.id: values[p.request.id] for p in stopped.pending
                        if p.request.house == house}
                files = []
                for i, cand in enumerate(self.candidates(house, body, mine, stopped.state)):
                    path = self.work / f"{house}-{i}.yaml"
                    path.write_text(dump_yaml(cand), encoding="utf-8")
                    files.append(path)
                self.compare(house, files, secrets)
            for p in stopped.pending:
                body = next(b for b in bodies if b["house"] == p.request.house)
                body.setdefault("answers", {})[p.request.id] = values[p.request.id]
                (rd.orders_dir / f"{p.request.house}.yaml").write_text(dump_yaml(body))
        raise AssertionError("the round did not complete")


def write_view(runner: Any, game: Path, path: Path, house: str = "stark") -> Path:
    """Write ``house``'s view of ``game`` to ``path`` (``agot show --format view``), as the
    judge attaches it to the house's mail."""
    from agot_adjudicator.cli import main

    done = runner.invoke(main, ["show", "--game", str(game), "--house", house, "--format",
                                "view", "-o", str(path)])
    assert done.exit_code == 0, done.output
    return path

