"""Public means public (docs/protocol.md P7, issue 15.6): random games played through a game
directory, and at every run each house's secrets of that moment (tests/privacy.py) are looked
for in every public output: the report and log, the pictures, `agot status`, `map` without
`--house`, `show --public`, `show`/`template --house` (other houses' secrets), `diff` and
`whatif --public` and
`--house`, and the site. The moderator's views must carry them (the checker can fail)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from autoplay import Driver
from privacy import (
    Secret,
    assert_no_secrets,
    drop_public,
    find_secrets,
    json_events,
    not_of,
    secrets_now,
    tokens,
    without_own_submission,
)

from agot_adjudicator.cli import main
from agot_adjudicator.engine.setup import new_game
from agot_adjudicator.io.gamedir import board_now, current_round, round_dirs
from agot_adjudicator.io.reading import Document, load_yaml
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.views import show_text
from agot_adjudicator.workflow.adjudicate import adjudicate_docs

GAMES = [(7_318_220_946_551_093_817, 3, 2), (12_005_443_871_090_226_341, 4, 2)]
"""(seed, players, rounds played): large seeds, so that a leaked seed cannot pass for a number."""


class Game:
    """A game directory played by the autoplay driver's random players through the CLI."""

    def __init__(self, runner, ruleset, root: Path, seed: int, players: int) -> None:
        self.runner, self.ruleset, self.dir = runner, ruleset, root / f"game-{players}"
        self.driver = Driver(seed, players, ruleset, plan_rate=0.7, nmr_rate=0.0)
        self.rng = random.Random(seed)
        self.checked = 0
        self.moderator_leaks = 0
        self.private_checked = False
        self.kinds: Counter = Counter()
        done = self.cli("new", "--players", str(players), "--seed", str(seed),
                        "--game", str(self.dir))
        assert done.exit_code == 0, done.output

    def cli(self, *args: str):
        return self.runner.invoke(main, [str(a) for a in args])

    def events(self) -> tuple[list[dict], list[dict]]:
        """Every event logged so far (the public record), and the current round's."""
        everything, last = [], []
        for rd in round_dirs(self.dir):
            if rd.log.is_file():
                last = json_events(rd.log.read_text(encoding="utf-8"))
                everything += last
        return everything, last

    def check(self, text: str, secrets: list[Secret], where: str) -> None:
        assert_no_secrets(text, secrets, where)
        self.checked += 1
        self.kinds.update(s.kind for s in secrets)

    def play_round(self) -> None:
        rd = current_round(self.dir)
        state = GameState.from_dict(load_yaml(rd.state).data)
        bodies = self.driver.submissions(state)
        (rd.orders_dir).mkdir(exist_ok=True)
        for body in bodies:
            (rd.orders_dir / f"{body['house']}.yaml").write_text(dump_yaml(body))
        moderator: dict = {}
        for _ in range(60):
            run = self.cli("adjudicate", "--game", self.dir)
            assert run.exit_code in (0, 3), run.output
            docs = [load_yaml(p).data for p in rd.orders()]
            stopped = None
            if run.exit_code == 3:
                stopped = adjudicate_docs(Document("state.yaml", state.to_dict(self.ruleset), ""),
                                          [Document(str(i), d, "") for i, d in enumerate(docs)],
                                          self.ruleset).result
            self.check_moment(rd, docs, stopped)
            if run.exit_code == 0:
                self.check_round_done(rd, docs)
                return
            values = self.driver.player.answer_all(stopped.pending, stopped.state)
            for p in stopped.pending:
                house, value = p.request.house, values[p.request.id]
                if self.rng.random() < 0.5:
                    moderator[p.request.id] = value
                    continue
                body = next(b for b in bodies if b["house"] == house)
                body.setdefault("answers", {})[p.request.id] = value
                (rd.orders_dir / f"{house}.yaml").write_text(dump_yaml(body))
            if moderator:
                (rd.orders_dir / "answers.yaml").write_text(dump_yaml(
                    {"format": "agot-orders/1", "round": state.round, "answers": moderator}))
        raise AssertionError("the round did not complete")

    def secrets(self, docs, stopped) -> tuple[list[Secret], GameState]:
        board = GameState.from_dict(load_yaml(board_now(self.dir).path).data)
        everything, last = self.events()
        found = secrets_now(board, self.ruleset, events=everything, round_events=last,
                            submissions=docs, pending=stopped.pending if stopped else ())
        if board.phase != "ended":
            baseline = "\n".join(self.cli("template", "--game", self.dir, "--house", h).stdout
                                 for h in board.order_of_play())
            found = drop_public(found, baseline)
        return found, board

    def check_moment(self, rd, docs, stopped) -> None:
        """After a run (stopped or complete): every public output of the moment."""
        secrets, board = self.secrets(docs, stopped)
        houses = board.order_of_play()
        # The pictures draw the board as it stands: before the reveal it holds no order (R4.5),
        # so no picture can show one (an order on a picture is not a token sequence to find).
        _, last = self.events()
        if not any(e["type"] == "orders_revealed" for e in last) and board.phase != "ended":
            assert not [a for a, here in board.areas.items() if here.order], "orders placed early"
        for path in (rd.report, rd.log, rd.now_picture, rd.board, rd.moves,
                     rd.path / "mail" / "report.txt"):
            if path.is_file():
                self.check(path.read_text(encoding="utf-8"), secrets, str(path))
        for house in board.order_of_play():  # each house's mail: nothing of another's (P7)
            mail = rd.path / "mail" / f"{house}.txt"
            if mail.is_file():
                own = {f for s in secrets if s.house == house for f in s.forms}
                others = [s for s in not_of(secrets, house) if not set(s.forms) <= own]
                self.check(without_own_submission(mail.read_text(encoding="utf-8")), others,
                           str(mail))
        for fmt in ("text", "json"):
            status = self.cli("status", "--game", self.dir, "--format", fmt)
            assert status.exit_code in (0, 3), status.output
            self.check(status.stdout, secrets, f"status --format {fmt}")
        if board.phase == "ended":
            return
        picture = self.dir.parent / "now.svg"
        assert self.cli("map", "--game", self.dir, "--now", "-o", picture).exit_code == 0
        self.check(picture.read_text(encoding="utf-8"), secrets, "map --now (no --house)")
        public = self.cli("show", "--game", self.dir, "--public")
        assert public.exit_code == 0, public.output
        self.check(public.stdout, secrets, "show --public")
        house = self.rng.choice(houses)
        shown = self.cli("show", "--game", self.dir, "--house", house)
        assert shown.exit_code == 0, shown.output
        self.check(shown.stdout, not_of(secrets, house), f"show --house {house}")
        skeleton = self.cli("template", "--game", self.dir, "--house", house)
        assert skeleton.exit_code == 0, skeleton.output
        self.check(skeleton.stdout, not_of(secrets, house), f"template --house {house}")
        # The moderator's view carries the secrets: the checker can fail.
        moderator = self.cli("show", "--game", self.dir)
        kinds = {leak.secret.kind for leak in find_secrets(moderator.stdout, secrets)}
        assert {"seed", "hand"} <= kinds, kinds
        # So does a house's private report (its hand, its questions), were it published.
        if stopped is not None and not self.private_checked:
            mine = [s for s in secrets if s.house == house]
            report = self.dir.parent / "private.md"
            run = self.cli("adjudicate", rd.state, *rd.orders(), "-o", self.dir.parent / "n.yaml",
                           "--report", report, "--private", house)
            assert run.exit_code == 3, run.output
            found = {leak.secret.kind for leak in find_secrets(report.read_text(), mine)}
            assert "hand" in found, found
            self.check(report.read_text(), not_of(secrets, house), f"--private {house}")
            self.private_checked = True

    def check_round_done(self, rd, docs) -> None:
        """After a round completes: diff and whatif of the round in public and house views."""
        secrets, board = self.secrets(docs, None)
        nxt = rd.following().state
        for view in (["--public"], ["--house", self.rng.choice(board.order_of_play())]):
            allowed = not_of(secrets, view[1]) if view[0] == "--house" else secrets
            for fmt in ("text", "json"):
                diff = self.cli("diff", rd.state, nxt, *view, "--format", fmt)
                assert diff.exit_code == 4, diff.output
                self.check(diff.stdout, allowed, f"diff {' '.join(view)} --format {fmt}")
            same = self.cli("whatif", rd.state, *rd.orders(), "--published", nxt, *view)
            assert same.exit_code == 0, same.output
            self.check(same.stdout, allowed, f"whatif {' '.join(view)}")
        # A late change: one house's file without its answers and plans (differs or stops).
        late = self.dir.parent / "late"
        late.mkdir(exist_ok=True)
        files = []
        for path in rd.orders():
            data = load_yaml(path).data
            if data.get("house") == board.order_of_play()[0]:
                data = {k: v for k, v in data.items() if k not in ("answers", "plans")}
            (late / path.name).write_text(dump_yaml(data))
            files.append(late / path.name)
        changed = self.cli("whatif", rd.state, *files, "--published", nxt, "--public")
        assert changed.exit_code in (0, 1, 3, 4), changed.output
        self.check(changed.stdout, secrets, "whatif --public (late change)")
        full = self.cli("diff", rd.state, nxt)  # the moderator's view: hands and decks
        if "westeros.decks" in full.stdout or ".hand:" in full.stdout:
            assert {leak.secret.kind for leak in find_secrets(full.stdout, secrets)} & {
                "deck order", "hand"}, full.stdout
            self.moderator_leaks += 1

    def check_site(self) -> None:
        secrets, _ = self.secrets([], None)
        out = self.dir.parent / "site"
        built = self.cli("site", "--game", self.dir, "-o", out)
        assert built.exit_code == 0, built.output
        for page in sorted(out.iterdir()):
            if page.suffix in (".html", ".svg", ".md", ".txt", ".css", ".json"):
                self.check(page.read_text(encoding="utf-8"), secrets, f"site {page.name}")


@pytest.mark.parametrize(("seed", "players", "rounds"), GAMES,
                         ids=[f"{p}p-{r}rounds" for _, p, r in GAMES])
def test_no_secret_in_any_public_output(runner, ruleset, tmp_path, seed, players, rounds):
    game = Game(runner, ruleset, tmp_path, seed, players)
    for _ in range(rounds):
        game.play_round()
    game.check_site()
    assert game.checked > 20 * rounds
    assert game.moderator_leaks >= 1  # the moderator's diff of a round names secrets
    assert game.private_checked
    assert {"seed", "deck order", "hand", "orders", "bids", "plan", "answer", "prompt"} <= set(game.kinds)


# --- the checker itself -------------------------------------------------------------------------

def _moment(ruleset):
    state = new_game(ruleset, list(ruleset.players[5]), 4_111_222_333_444_555_666, "t")
    subs = [{"house": "stark", "orders": {"winterfell": "march_plus1", "white_harbor": None},
             "bids": {"iron_throne": 3, "fiefdoms": 0, "kings_court": 1}, "wildlings": 2,
             "plans": {"retreats": {"winterfell": ["karhold", "the_stony_shore"]}},
             "answers": {"r1/raven/stark": None}}]
    return state, secrets_now(state, ruleset, events=[], round_events=[], submissions=subs)


def test_the_checker_catches_planted_leaks(ruleset):
    state, secrets = _moment(ruleset)
    planted = {
        "seed": f"Seed: {state.seed} (secret until the game ends)",
        "deck order": "westeros.decks.I: " + ", ".join(state.decks["I"]),
        "hand": "| Stark | 5 | hand: Eddard Stark, Robb Stark |",
        "orders": "orders:\n  winterfell: march_plus1\n  white_harbor:\n",
        "bids": '{"iron_throne": 3, "fiefdoms": 0, "kings_court": 1}',
        "plan": "retreats: {winterfell: [karhold, the_stony_shore]}",
    }
    for kind, text in planted.items():
        found = {leak.secret.kind for leak in find_secrets(text, secrets)}
        assert kind in found, (kind, text)
        with pytest.raises(AssertionError, match=kind):
            assert_no_secrets(text, secrets, "planted")
    # The moderator's view of the board is flagged; the house and public facts are not.
    moderator = show_text(state, ruleset)
    assert {"seed", "deck order", "hand"} <= {s.secret.kind for s in find_secrets(moderator, secrets)}
    assert_no_secrets(show_text(state, ruleset, "lannister"), not_of(secrets, "lannister"), "view")
    assert_no_secrets(show_text(state, ruleset, "stark"), not_of(secrets, "stark"), "own view")


def test_the_checker_matches_whole_tokens_only(ruleset):
    _, secrets = _moment(ruleset)
    seed = next(s for s in secrets if s.kind == "seed")
    digits = seed.forms[0]
    assert find_secrets(f"x1{digits}1", [seed]) == []
    assert find_secrets(f"round {digits}.", [seed])
    assert tokens("Euron Crow's Eye") == "euron_crow_s_eye"
    card = next(s for s in secrets if s.kind == "hand" and s.label == "euron_crows_eye")
    assert find_secrets("hand: Euron Crow's Eye", [card])
    assert find_secrets("hand: euron_crows_eye", [card])
