"""``agot site`` and ``agot map --game``: a game directory's public record as pictures and web pages.

The site is built only from a record that ``agot replay`` finds consistent,
and only from its public files: each round's ``report.md``, ``log.jsonl``,
``board.svg`` and ``moves.svg`` (drawn from the round's state and log when the
record predates them), plus public facts of the latest state (castles,
supply, power, track positions, hand sizes, the winner). Never hands, decks,
the seed, plans or bids before they are revealed: the same rule as the report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agot_adjudicator.engine.board import castle_count, controller
from agot_adjudicator.errors import InputError, Problem, UsageError
from agot_adjudicator.io.formats import MAKER
from agot_adjudicator.io.gamedir import RoundDir, round_dir_name, round_dirs
from agot_adjudicator.io.recorded import RecordedFiles
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.render.report import is_record_line
from agot_adjudicator.workflow.replay import Rendered, Replay, replay_game
from agot_adjudicator.workflow.validate import load_state

if TYPE_CHECKING:  # imported where they are used: the pages' modules load only for a site
    from agot_adjudicator.render.language import Names
    from agot_adjudicator.render.site import GameSite, RoundPage


def read_log(path: Path) -> list[dict[str, Any]]:
    """The events of a ``log.jsonl`` (its ``record`` line, naming the release that wrote it,
    left out); a line that is not a JSON object is an input error."""
    from agot_adjudicator.io.reading import MAX_BYTES
    from agot_adjudicator.io.safefile import ReadRefused, read_bounded

    try:
        text = read_bounded(path, 8 * MAX_BYTES).decode("utf-8")
    except ReadRefused as exc:
        raise UsageError(f"{path}: cannot read ({exc.reason})") from None
    except UnicodeDecodeError:
        raise InputError([Problem(str(path), None, None, "", "not UTF-8 text")]) from None
    events, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(Problem(str(path), number, exc.colno, "", f"not JSON: {exc.msg}"))
            continue
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            problems.append(Problem(str(path), number, 1, "", "not an event (an object with a type)"))
            continue
        if is_record_line(event):
            continue
        events.append(event)
    if problems:
        raise InputError(problems)
    return events


def _round_folder(game_dir: str, number: int | None) -> RoundDir:
    dirs = round_dirs(game_dir)
    played = [rd for rd in dirs if rd.log.is_file()]
    if number is None:
        if not played:
            raise UsageError(f"{game_dir}: no round adjudicated yet (no round-NN/log.jsonl)")
        return played[-1]
    found = [rd for rd in dirs if rd.number == number]
    if not found:
        raise UsageError(f"{game_dir}: no {round_dir_name(number)} folder")
    if not found[0].log.is_file():
        raise UsageError(f"{found[0].path}: round {number} is not adjudicated yet (no log.jsonl)")
    return found[0]


def _played_under(state_path: Path, game_dir: str, fallback: Ruleset,
                  recorded: RecordedFiles | None = None) -> Ruleset:
    """The ruleset a recorded state names (the game's ``rulesets/`` folder, the packaged one
    or the package's archive), else ``fallback`` (whose check then says what to do).
    ``recorded``: the record as this command read it (each file once)."""
    from agot_adjudicator.io.rulesets import state_ruleset

    read = recorded.document if recorded is not None else None
    return state_ruleset(state_path, game_dir, read) or fallback


def round_svg(game_dir: str, number: int | None, ruleset: Ruleset, lang: str = "en") -> str:
    """The picture of a round as played (``agot map --game DIR --round N``; default: the last
    adjudicated round): its state with the orders as revealed, and its log's moves; its labels
    in ``lang``."""
    from agot_adjudicator.render.picture import render_round_svg

    rd = _round_folder(game_dir, number)
    ruleset = _played_under(rd.state, game_dir, ruleset)
    _, state = load_state(str(rd.state), ruleset)
    return render_round_svg(state, read_log(rd.log), ruleset, MAKER, lang=lang)


@dataclass
class SiteBuild:
    """The site's files (path in the site → text, or bytes for PNGs and fonts), or the replay
    that refused the record."""

    files: dict[str, str | bytes]
    replay: Replay

    @property
    def ok(self) -> bool:
        return self.replay.ok


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def _standing(state: GameState, ruleset: Ruleset) -> list[Any]:
    """The public standing of each house (R11.1's castles, supply, power; track positions and
    hand sizes, never the cards), in order of play."""
    from agot_adjudicator.render.site import HouseRow

    return [HouseRow(h, castle_count(state, ruleset, h), state.houses[h].supply,
                     state.houses[h].power, len(state.houses[h].hand),
                     {t: state.tracks[t].index(h) + 1 for t in TRACKS})
            for h in state.order_of_play()]


def castle_changes(before: GameState, after: GameState, ruleset: Ruleset
                   ) -> list[tuple[str, str | None, str | None]]:
    """(area, controller before, controller after) of every castle area (R3.5, R11) whose
    controller (R13.1) changed between two states, in area order."""
    out = []
    for area in ruleset.area_ids:
        if ruleset.areas[area].castle:
            old, new = controller(before, ruleset, area), controller(after, ruleset, area)
            if old != new:
                out.append((area, old, new))
    return out


def round_texts(rd: RoundDir, rendered: Rendered | None,
                lang: str) -> tuple[str, str | None, str | None]:
    """The report, ``moves.svg`` and ``board.svg`` of round folder ``rd`` in ``lang``: those
    recorded when the report was written in that language, else written again from the round
    as replay re-adjudicated it (``rendered``: the recorded submissions, ``--nmr``/
    ``--defaults``, ruleset and writer), in ``lang``. A picture is None when it must be drawn
    (not recorded: an earlier release)."""
    from agot_adjudicator.render.i18n import recorded_language

    recorded = _read(rd.report)
    if recorded_language(recorded) == lang or rendered is None:
        return (recorded, _read(rd.moves) if rd.moves.is_file() else None,
                _read(rd.board) if rd.board.is_file() else None)
    out = rendered.outputs(lang)
    return out.report, out.moves, out.board


PNG_WIDTH = 1000
"""The width of the site's PNG copies of the pictures (link previews and forums)."""


def web_fonts(pages: list[str], lang: str) -> tuple[dict[str, bytes], str]:
    """The WOFF2 slices of the shipped CJK font that hold a character of ``pages`` (in the face
    of the language's script, both weights) and their ``@font-face`` rules: a machine with no
    CJK font shows the pages in Chinese (issue 32). Nothing for English."""
    from agot_adjudicator.render.png import WEB_FONTS
    from agot_adjudicator.render.sitestyle import font_faces

    if lang == "en" or not (WEB_FONTS / "slices.json").is_file():
        return {}, ""
    family = "Noto Sans CJK SC" if lang == "zh-Hans" else "Noto Sans CJK TC"
    used = set("".join(pages))
    chosen = [entry for entry in json.loads((WEB_FONTS / "slices.json").read_text("utf-8"))
              if entry["family"] == family and used & set(entry["chars"])]
    files = {f"fonts/{e['file']}": (WEB_FONTS / e["file"]).read_bytes() for e in chosen}
    return files, font_faces(chosen, "fonts/")


def build_site(game_dir: str, ruleset: Ruleset, *, check_new: bool = True,
               lang: str = "en", png: bool | None = None) -> SiteBuild:
    """Check the record with ``agot replay``; if consistent, render every page and picture.

    ``check_new``: round 1 must be what ``agot new`` writes (``--custom-start`` turns it
    off). ``lang``: the pages' language; a round's report recorded in another one is
    rendered again in it (:func:`round_texts`), pictures too. ``png``: write a PNG copy of each
    round as played and of the last board (default: when the PNG renderer is installed).
    Nothing is written here: the caller writes ``files`` (all or nothing refused).
    """
    from agot_adjudicator.render.language import Names
    from agot_adjudicator.render.picture import render_round_svg, render_svg
    from agot_adjudicator.render.png import png_available, svg_to_png
    from agot_adjudicator.render.site import (
        GameSite,
        RoundPage,
        inline_map,
        picture_alt,
    )

    recorded = RecordedFiles(game_dir)  # each recorded file read once, for replay and pages
    replay = replay_game(game_dir, ruleset, check_new=check_new, keep=True, files=recorded)
    rendered = {c.folder: c.rendered for c in replay.checks}
    if not replay.ok:
        return SiteBuild({}, replay)
    png = png_available() if png is None else png
    dirs = round_dirs(game_dir)
    files: dict[str, str | bytes] = {}
    pages: list[RoundPage] = []
    latest: GameState | None = None
    final_event = None
    names = Names(ruleset, lang)
    for index, rd in enumerate(dirs):
        ruleset = _played_under(rd.state, game_dir, ruleset, recorded)
        names = Names(ruleset, lang)
        _, state = load_state(str(rd.state), ruleset, recorded.document)
        latest = state
        following = dirs[index + 1] if index + 1 < len(dirs) else None
        if not rd.report.is_file():
            continue  # the open round, or the final state's folder
        events = read_log(rd.log) if rd.log.is_file() else []
        done = following is not None and following.state.is_file()
        report, moves, board = round_texts(rd, rendered.get(rd.name), lang)
        page = RoundPage(rd.number, rd.name, report, events,
                         status="adjudicated" if done else "stopped on pending decisions")
        if done and following is not None:
            _, after = load_state(str(following.state),
                                  _played_under(following.state, game_dir, ruleset, recorded),
                                  recorded.document)
            if moves is None:
                moves = render_round_svg(state, events, ruleset, lang=lang)
            if board is None:
                board = render_svg(after, ruleset, lang=lang)
            files[f"{rd.name}/moves.svg"] = moves
            files[f"{rd.name}/board.svg"] = board
            page.pictures = {"moves": f"{rd.name}/moves.svg", "board": f"{rd.name}/board.svg"}
            with names.speaking():
                page.maps = {kind: inline_map(svg, f"{kind}-", picture_alt(
                    kind, rd.number, events, names)) for kind, svg in (("moves", moves),
                                                                       ("board", board))}
            page.standing = _standing(after, ruleset)
            page.changes = castle_changes(state, after, ruleset)
            if png:
                files[f"{rd.name}/moves.png"] = svg_to_png(moves, width=PNG_WIDTH)
                page.pngs = {"moves": f"{rd.name}/moves.png"}
                page.png = page.pngs["moves"]
        final_event = next((e for e in events if e.get("type") == "game_ended"), final_event)
        pages.append(page)
    assert latest is not None
    board_path = next((p.pictures["board"] for p in reversed(pages) if "board" in p.pictures), None)
    site = GameSite(latest.game_id, ruleset.title, latest.round, latest.phase,
                    _standing(latest, ruleset), pages, board_path, latest.winner,
                    final_event if latest.winner else None)
    _finish(site, pages, files, names, ruleset, lang, png)
    return SiteBuild(dict(sorted(files.items())), replay)


def _finish(site: GameSite, pages: list[RoundPage], files: dict[str, str | bytes], names: Names,
            ruleset: Ruleset, lang: str, png: bool) -> None:
    """The index's map of the board now, the step-through of every round, the pages, the web
    fonts and the stylesheet, added to ``files``."""
    from agot_adjudicator.render.charts import step_through
    from agot_adjudicator.render.language import tr
    from agot_adjudicator.render.png import svg_to_png
    from agot_adjudicator.render.site import index_html, inline_map, round_file, round_html
    from agot_adjudicator.render.sitestyle import STYLE, STYLESHEET

    board_path = site.board
    if board_path is not None:
        last = next(p for p in reversed(pages) if "board" in p.pictures)
        with names.speaking():
            label = tr("Map of the board now: areas, units, power tokens and the tracks beside "
                       "it.")
        site.board_map = inline_map(str(files[board_path]), "now-", label)
        if png:
            files["board.png"] = svg_to_png(str(files[board_path]), width=PNG_WIDTH)
            site.png = "board.png"
            last.pngs["board"] = "board.png"
    with names.speaking():
        steps = step_through([(p.number, str(files[p.pictures["moves"]])) for p in pages
                              if "moves" in p.pictures],
                             tr("Game {game}, round by round", game=site.game_id))
    if steps is not None:
        files["rounds.svg"] = steps
        site.steps = "rounds.svg"
    html = {"index.html": index_html(site, ruleset, lang)}
    for page in pages:
        html[round_file(page.number)] = round_html(site, page, ruleset, lang)
    fonts, faces = web_fonts(list(html.values()), lang)
    files.update(fonts)
    files[STYLESHEET] = STYLE + faces
    files.update(html)


def check_site_output(game_dir: str, out_dir: str) -> None:
    """Refuse an output folder that is, or lies inside, the game directory (its record)."""
    game, out = Path(game_dir).resolve(), Path(out_dir).resolve()
    if out == game or game in out.parents:
        raise UsageError(f"refusing to write the site into the game directory {game_dir} "
                         "(choose another -o folder)")
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise UsageError(f"{out_dir}: exists and is not a folder")
