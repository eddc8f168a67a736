"""Writing a game directory: the lock, one commit per round, repair of an interrupted one.

See :mod:`agot_adjudicator.io.commit` (staging folder, one rename, marker) and
:mod:`agot_adjudicator.io.lock` (``fcntl.flock`` on ``GAME/.agot.lock``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, UsageError
from agot_adjudicator.io.commit import RoundCommit, commit_round, new_round_dir, recover
from agot_adjudicator.io.gamedir import RoundDir, round_dir_name, round_dirs
from agot_adjudicator.io.ledger import LEDGER
from agot_adjudicator.io.lock import game_lock
from agot_adjudicator.io.players import read_players, write_players
from agot_adjudicator.io.rulesets import keep_ruleset
from agot_adjudicator.io.safefile import escaping_links
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.i18n import language_of_tag
from agot_adjudicator.workflow.adjudicate import (
    BOARD_FILE,
    MOVES_FILE,
    NO_OPTIONS,
    NOW_FILE,
    NOW_PICTURE,
    GameRound,
    Outputs,
    RunOptions,
    adjudicate_game,
    render_outputs,
)
from agot_adjudicator.workflow.mailout import mail_files

STOP_FILES = ("pending.yaml", NOW_FILE, NOW_PICTURE)
"""A stopped round's files, removed by the commit that completes it (docs/protocol.md P4)."""


def start_game(game_dir: str, state_text: str, ruleset: Ruleset) -> Path:
    """``agot new --game DIR``: create ``DIR/round-01/`` (state and ``orders/``) with one
    rename, under the lock, and a copy of ``ruleset`` in ``DIR/rulesets/SHA256/``; refuse a
    used DIR."""
    root = Path(game_dir)
    root.mkdir(parents=True, exist_ok=True)
    with game_lock(root):
        first = root / round_dir_name(1)
        if first.exists() or first.is_symlink():
            raise UsageError(f"{game_dir}: already holds a game ({first} exists)")
        state = new_round_dir(root, first.name, state_text)
        keep_ruleset(ruleset, root)
        return state


def previous_round_problem(game_dir: str, current: RoundDir) -> str | None:
    """A round before ``current`` whose report or log is missing: written by an interrupted
    run of an older agot (commits are atomic now); say what to do."""
    dirs = round_dirs(game_dir)
    if current.number < 2:
        return None
    before = dirs[current.number - 2]
    missing = [p.name for p in (before.report, before.log) if not p.is_file()]
    if not missing:
        return None
    return (f"{before.path}: {' and '.join(missing)} missing although {current.state} exists "
            f"(a run stopped half-way); remove {current.path} and run `agot adjudicate --game "
            f"{game_dir}` again to redo {before.name}")


def commit_views(game: GameRound, out: Outputs, ruleset: Ruleset, rd: RoundDir) -> dict[str, str]:
    """Each house's view (``agot-view/1``) as this run's commit leaves the directory: of the
    stop, or of the next round's start (docs/protocol.md P7, RUL-P7-5)."""
    from agot_adjudicator.io.reading import parse_text
    from agot_adjudicator.workflow.kit import round_views

    houses = game.run.result.state.order_of_play()
    stored: dict[str, Any] = {}
    for h in houses:
        text = None
        if out.state is not None:
            text = game.next_files.get(f"orders/{h}.yaml")
            placed = game.next_state.parent / "orders" / f"{h}.yaml"
            if text is None and placed.is_file():
                text = placed.read_text(encoding="utf-8")
        elif (rd.orders_dir / f"{h}.yaml").is_file():
            text = (rd.orders_dir / f"{h}.yaml").read_text(encoding="utf-8")
        stored[h] = None if text is None else parse_text(f"{h}.yaml", text.encode()).data
    return round_views(game.run.state_doc, game.run.result.state, game.ledger, out.pending,
                       out.now, out.state, stored, ruleset)


@dataclass
class GameRun:
    """What ``agot adjudicate --game`` did: a repaired commit, or a round run and committed."""

    repaired: str | None = None
    game: GameRound | None = None
    outputs: Outputs | None = None


def run_game_round(game_dir: str, ruleset: Ruleset, options: RunOptions = NO_OPTIONS,
                   moved_from: Ruleset | None = None, lang: str = "en") -> GameRun:
    """Under the lock: finish an interrupted commit (and stop there), or adjudicate the
    current round and commit all its outputs at once. With ``moved_from`` the game moves on
    from that ruleset to ``ruleset`` with this round; a completed round then also keeps a copy
    of ``ruleset`` in ``GAME/rulesets/``. ``lang``: the language of report.md and
    mail/report.txt (recorded in them when not English); each house's mail is in its
    ``players.yaml`` language, else ``lang``."""
    if not Path(game_dir).is_dir():
        round_dirs(game_dir)  # the usual "not a game directory" error
    with game_lock(game_dir):
        repaired = recover(game_dir)
        if repaired is not None:
            return GameRun(repaired=repaired)
        from agot_adjudicator.io.gamedir import current_round

        rd = current_round(game_dir)
        why = previous_round_problem(game_dir, rd)
        if why:
            raise UsageError(why)
        problems = escaping_links([rd.state, *rd.orders()], game_dir)
        if problems:
            raise InputError(problems)
        settings = read_players(game_dir)
        players = settings.houses
        addresses = {h: s.address for h, s in players.items()}
        languages = {h: language_of_tag(s.language) for h, s in players.items() if s.language}
        game = adjudicate_game(game_dir, ruleset, options, moved_from)
        out = render_outputs(game.run, ruleset, board=True, lang=lang)
        files = {rd.report.name: out.report, rd.log.name: out.log}
        if game.ledger is not None:  # what this run resolved stands (docs/protocol.md P4)
            files[LEDGER] = game.ledger.text()
        # Mail out (docs/formats.md, Mail): replaced by every run of the round.
        views = commit_views(game, out, ruleset, rd)
        files.update(mail_files(game.run, ruleset, out, rd.name, addresses, lang=lang,
                                languages=languages, views=views))
        if out.state is None:
            assert out.pending is not None and out.now is not None
            files[rd.pending.name] = out.pending
            # The stop's files (docs/protocol.md P4): the board as far as the run got.
            files[NOW_FILE] = out.now
            if out.now_picture is not None:
                files[NOW_PICTURE] = out.now_picture
            commit = RoundCommit(rd.name, files)
        else:
            if out.board is not None:
                files[BOARD_FILE] = out.board
            if out.moves is not None:
                files[MOVES_FILE] = out.moves
            ended = game.run.result.state.phase == "ended"
            commit = RoundCommit(rd.name, files, STOP_FILES, game.next_state.parent.name,
                                 out.state, next_orders=not ended, next_files=game.next_files)
        if moved_from is not None and out.state is not None:
            keep_ruleset(ruleset, game_dir)  # before the commit: the next state names it
        commit_round(game_dir, commit)
        if settings.language != lang:  # the game keeps it (docs/formats.md, Languages)
            write_players(game_dir, replace(settings, language=lang))
        return GameRun(game=game, outputs=out)


def game_language(game_dir: str) -> str | None:
    """The game's language, so that a game keeps it from round to round whatever the
    moderator's locale: as ``players.yaml`` records it, else (a game directory of agot 0.3.0 or
    before) the language of its last written report (the current round's, from a stopped run,
    else the previous round's); None for a game with neither (docs/formats.md, *Languages*)."""
    from agot_adjudicator.render.i18n import recorded_language

    recorded = read_players(game_dir).language
    if recorded is not None:
        return recorded
    rounds = round_dirs(game_dir)
    for rd in reversed(rounds[-2:]):
        path = rd.report
        if path.is_file() and not path.is_symlink():
            try:
                return recorded_language(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                return None
    return None
