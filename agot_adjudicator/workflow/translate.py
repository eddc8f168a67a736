"""``agot replay GAME --lang L --output DIR``: a game's record with every text for people written
again in language ``L`` (issue 18: the record stays language-neutral, its texts do not).

The record is first replayed (:func:`~agot_adjudicator.workflow.replay.replay_game`, keeping
each round's run); only a consistent record is translated. ``DIR`` then receives a game
directory that replays in its own right:

- copied byte for byte, because they are language-neutral: every round's ``state.yaml``, its
  submissions (``orders/``) and ``log.jsonl``, and the game's ``rulesets/``;
- written again in ``L`` from the re-adjudicated rounds: ``report.md`` (its record section
  names the language, so replay renders it in ``L`` again), ``board.svg`` and ``moves.svg``,
  and the mail folder (``mail/report.txt``, every house's ``HOUSE.txt`` in ``L``, and the
  ``HOUSE.eml`` files the record has, to their recorded addresses).

Left out: what is not part of the record (``now.yaml``, ``now.svg``, ``pending.yaml`` of a
stopped round, ``players.yaml`` and its secrets, ``messages/``). What is copied is as private as
the record it comes from (plans, hands in each house's mail): ``agot site`` is the public part.
"""

from __future__ import annotations

from pathlib import Path

from agot_adjudicator.io.gamedir import RoundDir, round_dirs
from agot_adjudicator.io.safefile import read_bounded
from agot_adjudicator.render.mail import MAIL_DIR
from agot_adjudicator.workflow.mailout import mail_files
from agot_adjudicator.workflow.replay import (
    RECORD_LIMIT,
    Rendered,
    Replay,
    present,
    recorded_addresses,
    recorded_views,
)

RULESETS_DIR = "rulesets"


def _copy(files: dict[str, str], path: Path, root: Path) -> None:
    files[path.relative_to(root).as_posix()] = read_bounded(path, RECORD_LIMIT).decode("utf-8")


def translated_record(replay: Replay, lang: str) -> dict[str, str]:
    """Every file of the translated copy of ``replay``'s game (``replay_game(..., keep=True)``,
    consistent), by path relative to the copy's folder."""
    root = Path(replay.game_dir)
    files: dict[str, str] = {}
    rulesets = root / RULESETS_DIR
    if rulesets.is_dir() and not rulesets.is_symlink():
        for path in sorted(rulesets.rglob("*")):
            if path.is_file() and not path.is_symlink():
                _copy(files, path, root)
    folders = {rd.name: rd for rd in round_dirs(str(root))}
    for rd in folders.values():
        for path in (rd.state, *rd.orders(), rd.log):
            if present(path):
                _copy(files, path, root)
    for check in replay.checks:
        checked = folders.get(check.folder)
        if checked is not None and check.rendered is not None:
            files.update(_round_texts(checked, check.rendered, lang, root))
    return dict(sorted(files.items()))


def _round_texts(rd: RoundDir, rendered: Rendered, lang: str, root: Path) -> dict[str, str]:
    """One round's texts for people in ``lang``: those its record has, written again."""
    run, ruleset = rendered.run, rendered.ruleset
    out = rendered.outputs(lang)
    prefix = rd.path.relative_to(root).as_posix()
    files: dict[str, str] = {}
    for path, text in ((rd.report, out.report), (rd.board, out.board), (rd.moves, out.moves)):
        if text is not None and present(path):
            files[f"{prefix}/{path.name}"] = text
    folder = rd.path / MAIL_DIR
    if folder.is_dir() and not folder.is_symlink():
        houses = run.result.state.order_of_play()
        mail = mail_files(run, ruleset, out, rd.name, recorded_addresses(folder, houses),
                          rendered.maker, lang, dict.fromkeys(houses, lang),
                          wanted=lambda name: present(rd.path / name),
                          views=recorded_views(rd, run, out, ruleset))
        files.update({f"{prefix}/{name}": text for name, text in mail.items()
                      if present(rd.path / name)})
    return files
