"""Records outlive versions (issue 17): games recorded by agot 0.1.0 replay and continue.

The records under tests/data/records/ were written by earlier releases and are
never regenerated (see tests/data/records/README.md).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from agot_adjudicator import __version__
from agot_adjudicator.cli import main
from agot_adjudicator.io import rulesets
from agot_adjudicator.io.formats import CURRENT, FIRST_MAKER, MAKER, UPGRADES, read_forward
from agot_adjudicator.io.reading import parse_text
from agot_adjudicator.io.rulesets import (
    ARCHIVE,
    RULESET_FILES,
    archived_hashes,
    content_hash,
    export_ruleset,
    find_ruleset,
    load_ruleset,
)
from agot_adjudicator.model.state import GameState
from agot_adjudicator.workflow.present import state_text

RECORDS = Path(__file__).resolve().parent / "data" / "records"
OLD = RECORDS / "0.1.0"
DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "games" / "demo"
OLD_HASH = "829bcc97bcc5c3e8a85ad576705806679389bdaf1856e6cb08b1e79060061f6f"
safe = YAML(typ="safe")


def _files(game: Path) -> dict[str, bytes]:
    """The record's files (the empty lock file a run creates is not part of it)."""
    return {str(p.relative_to(game)): p.read_bytes() for p in sorted(game.rglob("*"))
            if p.is_file() and p.name != ".agot.lock"}


@pytest.fixture
def short(tmp_path) -> Path:
    copy = tmp_path / "short"
    shutil.copytree(OLD / "short", copy)
    return copy


@pytest.fixture
def corrected(tmp_path, monkeypatch):
    """The packaged ruleset has moved on (a corrected manifest): the state's 829bcc97… is only
    in the package's archive now."""
    folder = tmp_path / "corrected"
    export_ruleset(folder, _old())
    _retitle(folder / "ruleset.yaml", "corrected")
    real = rulesets._load_cached
    new = real(str(folder))
    assert new.sha256 != OLD_HASH
    monkeypatch.setattr(rulesets, "_load_cached", lambda d: new if d is None else real(d))
    return new


def _old():
    """agot 0.1.0's packaged ruleset (packaged or archived, whichever holds it now)."""
    found = find_ruleset("first_edition", OLD_HASH)
    assert found is not None
    return found


def _retitle(manifest: Path, suffix: str) -> None:
    old = 'title: "A Game of Thrones: The Board Game, first edition (2003)"'
    text = manifest.read_text()
    assert old in text
    manifest.write_text(text.replace(old, old[:-1] + f', {suffix}"'))


def _complete(runner, game: Path, *options: str, limit: int = 30):
    """Run ``adjudicate --game`` and paste the pending answers until the round completes."""
    for _ in range(limit):
        result = runner.invoke(main, ["adjudicate", "--game", str(game), *options])
        if result.exit_code != 3:
            return result
        rounds = sorted(game.glob("round-*"))
        current = next(r for r in reversed(rounds) if (r / "state.yaml").is_file())
        text = (current / "pending.yaml").read_text()
        answers = safe.load(text[text.index("\nanswers:"):])["answers"]
        target = current / "orders" / "answers.yaml"
        merged = safe.load(target.read_text())["answers"] if target.exists() else {}
        merged.update(answers)
        number = int(current.name.split("-")[1])
        target.write_text(json.dumps({"format": "agot-orders/1", "round": number,
                                      "answers": merged}))
    raise AssertionError("the round did not complete")


# --- the archive ---------------------------------------------------------------------------

def test_every_archived_ruleset_still_hashes_to_its_folder_name():
    hashes = archived_hashes()
    assert OLD_HASH in hashes
    # find_ruleset looks in the archive first for an archived hash: never the packaged one's
    assert load_ruleset().sha256 not in hashes
    base = Path(rulesets.__file__).parent.parent / "data" / "archive"
    for sha256 in hashes:
        docs = {f: parse_text(f, (base / sha256 / f).read_bytes()) for f in RULESET_FILES}
        assert content_hash(docs) == sha256
        rulesets._schema_check(docs)  # the archive is loaded compiled, without it
        source = f"{ARCHIVE}/{sha256}"
        assert (base / sha256 / rulesets.COMPILED).read_text() == rulesets.compiled_text(source)
        assert rulesets._load_cached(source).sha256 == sha256


def test_an_archived_ruleset_is_found_after_the_packaged_one_moved_on(corrected):
    assert load_ruleset().sha256 == corrected.sha256
    found = find_ruleset("first_edition", OLD_HASH)
    assert found is not None and found.source == f"{ARCHIVE}/{OLD_HASH}"
    assert find_ruleset("first_edition", "0" * 64) is None
    assert find_ruleset("second_edition", OLD_HASH) is None


# --- formats read forward ----------------------------------------------------------------------

def test_every_older_format_version_has_an_upgrade_step():
    for name, current in CURRENT.items():
        for version in range(1, current):
            assert (name, version) in UPGRADES, f"{name}/{version} has no upgrade step"


def test_state_1_upgrades_to_3_and_writes_back_as_it_was():
    path = OLD / "demo" / "round-05" / "state.yaml"
    doc = parse_text(str(path), path.read_bytes())
    assert doc.data["format"] == "agot-state/1" and "written_by" not in doc.data
    assert read_forward(doc, "state") == []
    assert list(doc.data)[:3] == ["format", "written_by", "ruleset"]
    assert doc.data["format"] == "agot-state/3" and doc.data["written_by"] == FIRST_MAKER
    assert doc.data["chain"]["written_by"] == FIRST_MAKER
    state = GameState.from_dict(doc.data)
    ruleset = _old()
    assert state_text(state, ruleset, maker=FIRST_MAKER, version=1) == path.read_text()
    written = state_text(state, ruleset)
    assert written.startswith("# agot game state (agot-state/3)")
    assert f"written_by: {MAKER}\n" in written


def test_state_2_records_the_winners_reason_as_text_and_3_as_a_code():
    """Issue 26: agot-state/3 records why the game was won as a code with fields; a version-2
    (or 1) record's English sentence is read forward into it, and written back as it was."""
    for path in (OLD / "demo" / "round-11" / "state.yaml",
                 RECORDS / "0.2.0" / "demo" / "round-11" / "state.yaml"):
        doc = parse_text(str(path), path.read_bytes())
        version = int(doc.data["format"].rsplit("/", 1)[1])
        assert version < 3 and doc.data["winner"]["reason"].startswith(
            "most areas with a castle (")
        assert read_forward(doc, "state") == []
        winner = doc.data["winner"]
        assert winner["reason"] == "most_castles" and list(winner) == [
            "houses", "reason", "round", "castles"]
        state = GameState.from_dict(doc.data)
        maker = FIRST_MAKER if version == 1 else "agot/0.2.0"
        ruleset = find_ruleset("first_edition", doc.data["ruleset"]["sha256"],
                               path.parent.parent)
        assert state_text(state, ruleset, maker=maker, version=version) == path.read_text()
        assert "  reason: most_castles\n" in state_text(state, ruleset)


@pytest.mark.parametrize(("text", "code", "castles"), [
    ("controls 7 areas with a castle (R11.2)", "instant_win", {"stark": 7}),
    ("tie on castles broken by supply (R11.1)", "by_supply", None),
    ("tie on castles and supply broken by power (R11.1)", "by_power", None),
    ("tie on castles, supply and power: a shared win (R11.1)", "shared", None),
])
def test_every_winner_sentence_of_version_2_reads_forward_and_back(text, code, castles):
    from agot_adjudicator.io.formats import upgrade
    from agot_adjudicator.model.state import winner_as_written

    old = {"houses": ["stark"], "reason": text, "round": 6}
    (new,) = [upgrade({"format": "agot-state/2", "winner": old}, "agot-state", 2)["winner"]]
    assert new["reason"] == code and new.get("castles") == castles
    assert winner_as_written(new, 2) == old


@pytest.mark.parametrize(("kind", "text", "newer"), [
    ("state", "format: agot-state/99\n", "agot-state/99 is newer than agot"),
    ("orders", "format: agot-orders/7\nround: 1\n", "agot-orders/7 is newer than agot"),
    ("scenario", "format: agot-scenario/2\n", "agot-scenario/2 is newer than agot"),
])
def test_a_newer_format_is_refused_naming_both_versions(kind, text, newer):
    doc = parse_text("x.yaml", text.encode())
    (problem,) = read_forward(doc, kind)
    assert newer in str(problem) and f"{CURRENT['agot-' + kind]}" in str(problem)
    assert str(problem).startswith("x.yaml:1:9: $.format:")


def test_a_state_from_the_future_is_refused_and_nothing_written(runner, short):
    state = short / "round-03" / "state.yaml"
    state.write_text(state.read_text().replace("format: agot-state/1", "format: agot-state/99"))
    before = _files(short)
    result = runner.invoke(main, ["adjudicate", "--game", str(short)])
    assert result.exit_code == 1, result.output
    assert f"agot-state/99 is newer than agot {__version__} reads (it reads agot-state/1 to " \
           "agot-state/3)" in result.stderr
    assert _files(short) == before


def test_an_unknown_ruleset_hash_is_refused_saying_what_to_do(runner, short):
    state = short / "round-03" / "state.yaml"
    state.write_text(state.read_text().replace(OLD_HASH, "0123456789ab" + OLD_HASH[12:]))
    before = _files(short)
    result = runner.invoke(main, ["adjudicate", "--game", str(short)])
    assert result.exit_code == 1, result.output
    assert "$.ruleset.sha256: the state was made with ruleset first_edition 0123456789ab…" \
        in result.stderr
    assert "knows no ruleset with the state's name and hash" in result.stderr
    assert "pass the ruleset the game was played under with --ruleset DIR" in result.stderr
    assert _files(short) == before
    assert runner.invoke(main, ["validate", str(state)]).exit_code == 1


# --- replay across releases --------------------------------------------------------------------

@pytest.mark.parametrize("game", ["demo", "short"])
def test_a_game_recorded_by_0_1_0_replays_with_who_wrote_each_round(runner, game, corrected):
    result = runner.invoke(main, ["replay", str(OLD / game)])
    assert result.exit_code == 0, result.output
    assert "the record is consistent" in result.stdout
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("round-")
            and "(start)" not in line and line.split()[-1] in ("ok", "pending", "final")]
    rounds = len([row for row in rows if row[-2:] == [FIRST_MAKER, "ok"]])
    assert rounds == (10 if game == "demo" else 2)
    assert result.stdout.count(f"written by {FIRST_MAKER}: report.md, log.jsonl, board.svg "
                               f"differ from what {MAKER} writes only in wording and "
                               "layout") == rounds
    if game == "short":
        assert "round-03: pending" in result.stdout


def test_the_demo_recorded_by_0_2_0_replays_and_names_its_maker(runner):
    """agot 0.2.0's demo (tests/data/records/0.2.0/demo, agot-state/2, English winner reasons,
    no ledgers, a ruleset now archived) replays under this release, on game content."""
    result = runner.invoke(main, ["replay", str(RECORDS / "0.2.0" / "demo")])
    assert result.exit_code == 0, result.output
    assert "the record is consistent" in result.stdout
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("round-")
            and "(start)" not in line]
    assert len([row for row in rows if row[-2:] == ["agot/0.2.0", "ok"]]) == 10


def test_a_changed_event_is_a_substantive_difference(runner, tmp_path):
    game = tmp_path / "demo"
    shutil.copytree(OLD / "demo", game)
    log = game / "round-04" / "log.jsonl"
    lines = log.read_text().splitlines()
    number, event = next((i, json.loads(line)) for i, line in enumerate(lines, start=1)
                         if '"house":"stark"' in line)
    lines[number - 1] = lines[number - 1].replace('"house":"stark"', '"house":"tyrell"')
    log.write_text("\n".join(lines) + "\n")
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 4, result.output
    assert (f"round-04/log.jsonl differs from what {MAKER} writes in substance: event "
            f"{number} ({event['type']}): house is tyrell in the record, stark now") \
        in result.stdout


def test_a_reworded_citation_is_wording_only(runner, tmp_path):
    game = tmp_path / "demo"
    shutil.copytree(OLD / "demo", game)
    log = game / "round-04" / "log.jsonl"
    log.write_text(log.read_text().replace('"rule":"R4.5"', '"rule":"P2"'))
    report = game / "round-04" / "report.md"
    report.write_text(report.read_text().replace("Planning phase", "Planning"))
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 0, result.output


def test_an_old_state_changed_after_the_fact_still_fails(runner, tmp_path):
    game = tmp_path / "demo"
    shutil.copytree(OLD / "demo", game)
    state = game / "round-06" / "state.yaml"
    state.write_text(state.read_text().replace("wildling_threat: ", "wildling_threat: 1", 1))
    result = runner.invoke(main, ["replay", str(game)])
    assert result.exit_code == 4, result.output
    assert "round-06/state.yaml is not what adjudicating round-05 gives" in result.stdout


# --- a game goes on after an upgrade -----------------------------------------------------------

def test_a_game_stopped_by_0_1_0_is_completed_by_this_release_and_replays(runner, short,
                                                                         corrected):
    result = _complete(runner, short)
    assert result.exit_code == 0, result.output
    assert f"note: the game stays on ruleset first_edition {OLD_HASH[:12]}…" in result.stderr
    nxt = safe.load((short / "round-04" / "state.yaml").read_text())
    assert nxt["format"] == "agot-state/3" and nxt["written_by"] == MAKER
    assert nxt["ruleset"]["sha256"] == OLD_HASH  # the game stays on its ruleset
    assert nxt["chain"]["written_by"] == MAKER and "ruleset_moved" not in nxt["chain"]
    assert nxt["chain"]["previous_state"] == hashlib.sha256(
        (OLD / "short" / "round-03" / "state.yaml").read_bytes()).hexdigest()
    assert not (short / "round-03" / "pending.yaml").exists()
    assert (short / "round-03" / "log.jsonl").read_text().startswith(
        f'{{"type":"record","format":"agot-log/2","written_by":"{MAKER}"}}\n')
    assert f"- written by: {MAKER}" in (short / "round-03" / "report.md").read_text()
    assert f"<!-- written by {MAKER} -->" in (short / "round-03" / "board.svg").read_text()

    replay = runner.invoke(main, ["replay", str(short)])
    assert replay.exit_code == 0, replay.output
    rows = {line.split()[0]: line for line in replay.stdout.splitlines()
            if line.startswith("round-0") and "(start)" not in line}
    assert FIRST_MAKER in rows["round-01"] and FIRST_MAKER in rows["round-02"]
    assert MAKER in rows["round-03"] and "ok" in rows["round-03"]


def test_moving_a_game_on_to_the_new_ruleset_is_recorded_and_replays(runner, short, corrected):
    result = _complete(runner, short, "--move-ruleset")
    assert result.exit_code == 0, result.output
    nxt = safe.load((short / "round-04" / "state.yaml").read_text())
    assert nxt["ruleset"]["sha256"] == corrected.sha256
    moved = nxt["chain"]["ruleset_moved"]
    assert moved["from"] == {"name": "first_edition", "sha256": OLD_HASH}
    assert moved["changes"] == [
        'ruleset.yaml title: "A Game of Thrones: The Board Game, first edition (2003)" → '
        '"A Game of Thrones: The Board Game, first edition (2003), corrected"']
    report = (short / "round-03" / "report.md").read_text()
    assert "- ruleset moved on from first_edition" in report and moved["changes"][0] in report
    assert (short / "rulesets" / corrected.sha256 / "ruleset.yaml").is_file()
    again = runner.invoke(main, ["adjudicate", "--game", str(short), "--move-ruleset"])
    assert again.exit_code == 2 and "already on ruleset" in again.stderr

    replay = runner.invoke(main, ["replay", str(short)])
    assert replay.exit_code == 0, replay.output


def test_a_game_directory_carries_its_ruleset(runner, tmp_path):
    """A game started under an own ruleset goes on when that ruleset is neither packaged nor
    archived nor passed: it is in the game's own rulesets/ folder."""
    own = tmp_path / "own"
    export_ruleset(own, _old())
    manifest = own / "ruleset.yaml"
    _retitle(manifest, "house rules")
    sha256 = load_ruleset(str(own)).sha256
    game = tmp_path / "game"
    assert runner.invoke(main, ["--ruleset", str(own), "new", "--game", str(game), "--players",
                                "3", "--seed", "5"]).exit_code == 0
    kept = game / "rulesets" / sha256
    assert sorted(p.name for p in (game / "rulesets").iterdir()) == [sha256]
    assert (kept / "ruleset.yaml").read_bytes() == manifest.read_bytes()
    shutil.rmtree(own)  # gone from everywhere but the game
    assert find_ruleset("first_edition", sha256) is None
    run = runner.invoke(main, ["adjudicate", "--game", str(game)])
    assert run.exit_code == 3, run.output  # stops on orders, as any new game does
    assert "knows no ruleset" not in run.stderr
    assert runner.invoke(main, ["replay", str(game)]).exit_code == 0


def test_a_carried_copy_of_a_known_ruleset_is_read_from_the_package_unless_it_differs(tmp_path):
    game = tmp_path / "game"
    kept = game / "rulesets" / OLD_HASH
    export_ruleset(kept, _old())
    assert find_ruleset("first_edition", OLD_HASH, game).source == _old().source
    board = kept / "board.yaml"
    text = board.read_text()
    start = text.index("xy: [") + len("xy: [")
    board.write_text(text[:start] + "1" + text[start:])  # a box moved on the map: same rules
    found = find_ruleset("first_edition", OLD_HASH, game)
    assert found.sha256 == OLD_HASH and found.source == str(kept)


def test_a_round_drawn_with_the_games_own_map_layout_replays(runner, tmp_path):
    """A game whose carried ruleset differs from the packaged one only in its map layout (an
    earlier release's copy): adjudicate --game draws its pictures with the game's copy, and
    replay re-draws them with the same copy."""
    game = tmp_path / "game"
    assert runner.invoke(main, ["new", "--game", str(game), "--players", "3", "--seed", "7",
                                "--no-secrets"]).exit_code == 0
    kept = next((game / "rulesets").iterdir())
    board = kept / "board.yaml"
    text = board.read_text()
    start = text.index("xy: [") + len("xy: [")
    board.write_text(text[:start] + "1" + text[start:])  # a box moved on the map: same rules
    for _ in range(12):
        result = runner.invoke(main, ["adjudicate", "--game", str(game), "--defaults"])
        if result.exit_code != 3:
            break
    assert result.exit_code == 0, result.output
    replay = runner.invoke(main, ["replay", str(game)])
    assert replay.exit_code == 0, replay.output
    assert "the record is consistent" in replay.stdout


def test_ruleset_keep_copies_the_games_ruleset_in(runner, short, corrected):
    result = runner.invoke(main, ["ruleset", "keep", str(short)])
    assert result.exit_code == 0, result.output
    kept = short / "rulesets" / OLD_HASH
    docs = {f: parse_text(f, (kept / f).read_bytes()) for f in RULESET_FILES}
    assert content_hash(docs) == OLD_HASH
    again = runner.invoke(main, ["ruleset", "keep", str(short)])
    assert again.exit_code == 0 and "already holds" in again.stdout


def test_whatif_against_a_state_published_by_0_1_0_finds_no_difference(runner):
    game = OLD / "short"
    result = runner.invoke(main, ["whatif", str(game / "round-02" / "state.yaml"),
                                  *map(str, sorted((game / "round-02" / "orders").iterdir())),
                                  "--published", str(game / "round-03" / "state.yaml")])
    assert result.exit_code == 0, result.output
    assert "no difference" in result.stdout


def test_diff_names_the_release_that_wrote_each_state(runner, tmp_path):
    old = OLD / "short" / "round-02" / "state.yaml"
    doc = parse_text(str(old), old.read_bytes())
    read_forward(doc, "state")
    rewritten = tmp_path / "state.yaml"
    rewritten.write_text(state_text(GameState.from_dict(doc.data), _old()))
    result = runner.invoke(main, ["diff", str(old), str(rewritten)])
    assert result.exit_code == 4, result.output
    assert f"written_by: {FIRST_MAKER} → {MAKER}" in result.stdout
    assert f"chain.written_by: {FIRST_MAKER} → {MAKER}" in result.stdout
    assert "2 differences" in result.stdout


# --- the records of 0.3.0 (tests/data/records/0.3.0) -------------------------------------------

@pytest.mark.parametrize(("game", "rounds"), [("demo", 10), ("short", 2)])
def test_a_game_recorded_by_0_3_0_replays_and_names_its_maker(runner, game, rounds):
    """agot 0.3.0's demo and a game it left stopped mid-round replay under this release: the
    pictures 0.3.0 drew (its map layout, its river borders) differ from this release's only in
    layout, the states and the logs' game content are the same."""
    result = runner.invoke(main, ["replay", str(RECORDS / "0.3.0" / game)])
    assert result.exit_code == 0, result.output
    assert "the record is consistent" in result.stdout
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("round-")
            and "(start)" not in line]
    assert len([row for row in rows if row[-2:] == ["agot/0.3.0", "ok"]]) == rounds
    if game == "short":
        assert "round-03: pending" in result.stdout


def test_a_game_stopped_by_0_3_0_is_completed_by_this_release_and_replays(runner, tmp_path):
    """The round 0.3.0 left stopped (its pending.yaml, its own copy of the ruleset with 0.3.0's
    map layout) is finished by this release, and the whole record replays."""
    game = tmp_path / "short"
    shutil.copytree(RECORDS / "0.3.0" / "short", game)
    result = _complete(runner, game)
    assert result.exit_code == 0, result.output
    nxt = safe.load((game / "round-04" / "state.yaml").read_text())
    assert nxt["written_by"] == MAKER and nxt["chain"]["written_by"] == MAKER
    replay = runner.invoke(main, ["replay", str(game)])
    assert replay.exit_code == 0, replay.output
    rows = {line.split()[0]: line for line in replay.stdout.splitlines()
            if line.startswith("round-0") and "(start)" not in line}
    assert "agot/0.3.0" in rows["round-01"] and "agot/0.3.0" in rows["round-02"]
    assert MAKER in rows["round-03"] and rows["round-03"].split()[-1] == "ok"
