"""The ruleset: first-edition component facts loaded into frozen dataclasses and checked.

A ruleset is a folder holding ``ruleset.yaml`` (manifest: houses, order tokens,
limits) and ``board.yaml``, ``house_cards.yaml``, ``westeros.yaml``,
``setup.yaml``, and ``glossary.yaml`` (the names of its ids in English and Chinese). The
package ships ``data/first_edition``; ``--ruleset DIR`` selects another. Broken data is
refused at load with :class:`RulesetError` (exit 5): schema, then integrity (R0, R1, R12).

The glossary and ``card_texts.yaml`` (the house cards' texts as agot summarises them, R6.4) are
exported and checked with the ruleset but are not part of its content hash (names and card
prose are presentation: rewording one changes no game result; what a card's text does is the
engine's). A ruleset folder without ``glossary.yaml`` (the archive, a game's copy made before
there was one) is named by the packaged glossary, checked against its ids; one without
``card_texts.yaml`` takes its texts from ``house_cards.yaml``'s ``effect`` lines (rulesets made
before the texts moved out), else from the packaged texts.

The packaged and archived rulesets load from ``compiled.json`` (their YAML parsed once, with the
SHA-256 of each file it was made from). A YAML file edited since (``house_cards.yaml``, say) is
used at once: its folder is read from the YAML and schema-checked instead, until ``python -m
agot_adjudicator.io.rulesets`` (or ``python scenarios/regenerate.py``) writes ``compiled.json``
again.

A state names the ruleset it is played under by content hash. So that a game
keeps its rules when the packaged ruleset is corrected, the package also keeps
every earlier packaged ruleset in ``data/archive/SHA256/`` (a test checks each
still hashes to its folder name), and a game directory may carry its own in
``GAME/rulesets/SHA256/`` (:func:`keep_ruleset`). :func:`find_ruleset` looks in
those places."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import InputError, RulesetError
from agot_adjudicator.io.reading import Document, load_yaml, parse_text
from agot_adjudicator.io.schemas import schema_problems
from agot_adjudicator.model.glossary import glossary_from_data, glossary_problems
from agot_adjudicator.model.naming import suggest
from agot_adjudicator.model.ruleset import (
    DECKS,
    LAYOUT_KEYS,
    TRACKS,
    Area,
    DeckCard,
    HouseCard,
    HouseSetup,
    OrderToken,
    Ruleset,
    integrity_problems,
)

RULESET_FILES = ("ruleset.yaml", "board.yaml", "house_cards.yaml", "westeros.yaml", "setup.yaml")
GLOSSARY = "glossary.yaml"
"""The ruleset file naming its ids (optional; exported, checked, not in the content hash)."""
CARD_TEXTS = "card_texts.yaml"
"""The ruleset file holding the house cards' texts for people (optional; exported, checked, not
in the content hash)."""
PROSE_FILES = (GLOSSARY, CARD_TEXTS)
"""The optional files of a ruleset that are presentation, not rules: outside the content hash."""
_PART = {"ruleset.yaml": "manifest", "board.yaml": "board", "house_cards.yaml": "house_cards",
         "westeros.yaml": "westeros", "setup.yaml": "setup", GLOSSARY: "glossary",
         CARD_TEXTS: "card_texts"}


def _documents_from_dir(directory: Path) -> dict[str, Document]:
    docs: dict[str, Document] = {}
    problems: list[str] = []
    for filename in RULESET_FILES:
        path = directory / filename
        try:
            docs[filename] = load_yaml(path, name=str(path), root=directory)
        except InputError as exc:
            problems.extend(str(p) for p in exc.problems)
    if problems:
        raise RulesetError(problems)
    return docs


def _glossary_from_dir(directory: Path, filename: str = GLOSSARY) -> Document | None:
    """The folder's ``glossary.yaml`` (or another of :data:`PROSE_FILES`), or None when it has
    none."""
    path = directory / filename
    if not path.exists():
        return None
    try:
        return load_yaml(path, name=str(path), root=directory)
    except InputError as exc:
        raise RulesetError([str(p) for p in exc.problems]) from None


COMPILED = "compiled.json"
"""The packaged (and each archived) ruleset's YAML files parsed once, as JSON (fast to load),
with the SHA-256 of each file (``sources``): a file that no longer matches is read from its YAML
(:func:`_package_parts`); kept equal by tests."""


PACKAGE_DIR = Path(__file__).resolve().parent.parent
"""The installed ``agot_adjudicator`` folder."""
PACKAGED = "<package>/data/first_edition"
ARCHIVE = "<package>/data/archive"


def _in_package(source: str) -> bool:
    """Whether ``source`` names the packaged ruleset or an archived one (``<package>/…``)."""
    return source.startswith("<package>/")


def from_package(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` is the packaged one or an archived one (not a folder of the
    moderator's or a game's)."""
    return _in_package(ruleset.source)


def _package_folder(source: str) -> Path:
    """The folder of a ``<package>/…`` source inside the installed package (a plain folder, as
    the catalogs and fonts are: importing :mod:`importlib.resources` costs every command more
    than the read it serves, issue 33)."""
    return PACKAGE_DIR.joinpath(*source.split("/")[1:])


def _package_sources(source: str) -> dict[str, bytes]:
    """The bytes of the YAML files a packaged or archived ruleset folder holds: the five rules
    files and those of :data:`PROSE_FILES` it has."""
    base = _package_folder(source)
    out = {f: base.joinpath(f).read_bytes() for f in RULESET_FILES}
    out.update((f, base.joinpath(f).read_bytes()) for f in PROSE_FILES if base.joinpath(f).is_file())
    return out


def _digests(raw: Mapping[str, bytes]) -> dict[str, str]:
    return {f: hashlib.sha256(data).hexdigest() for f, data in raw.items()}


@cache
def _package_parts(source: str = PACKAGED) -> tuple[dict[str, Document], bool]:
    """Every part of a packaged or archived ruleset (filename → document) and whether it came
    from ``compiled.json``. The compiled copy is used only when it was made from the YAML files
    as they are now (their SHA-256 recorded in it); else the YAML is parsed (a source edit is
    used, the caller checks it against the schema)."""
    raw = _package_sources(source)
    base = _package_folder(source)
    try:
        data = json.loads(base.joinpath(COMPILED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if isinstance(data, dict) and data.get("sources") == _digests(raw):
        return {f: Document(f"{source}/{f}", data[f], "") for f in raw}, True
    return {f: parse_text(f"{source}/{f}", raw[f]) for f in raw}, False


def _documents_from_package(*, compiled: bool = True,
                            source: str = PACKAGED) -> dict[str, Document]:
    """The five rules files of a packaged or archived ruleset (``compiled``: from
    ``compiled.json`` while it is fresh, else from the YAML)."""
    if compiled:
        parts = _package_parts(source)[0]
        return {f: parts[f] for f in RULESET_FILES}
    raw = _package_sources(source)
    return {f: parse_text(f"{source}/{f}", raw[f]) for f in RULESET_FILES}


def _glossary_from_package(*, compiled: bool = True, source: str = PACKAGED,
                           filename: str = GLOSSARY) -> Document | None:
    """The ``glossary.yaml`` (or another of :data:`PROSE_FILES`) of a packaged or archived
    ruleset, or None when it has none."""
    if compiled:
        return _package_parts(source)[0].get(filename)
    base = _package_folder(source)
    if not base.joinpath(filename).is_file():
        return None
    return parse_text(f"{source}/{filename}", base.joinpath(filename).read_bytes())


def compiled_text(source: str = PACKAGED) -> str:
    """The text of ``compiled.json`` for the packaged (or an archived) ruleset's YAML files
    (written by ``python scenarios/regenerate.py``, or ``python -m agot_adjudicator.io.rulesets``)."""
    raw = _package_sources(source)
    data: dict[str, Any] = {f: parse_text(f"{source}/{f}", raw[f]).data for f in raw}
    data["sources"] = _digests(raw)
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _composite(docs: Mapping[str, Document]) -> Document:
    data = {_PART[f]: d.data for f, d in docs.items()}
    return Document("<ruleset>", data, "")


def _schema_check(docs: Mapping[str, Document]) -> None:
    composite = _composite(docs)
    by_part = {_PART[f]: d for f, d in docs.items()}
    problems = []
    for problem in schema_problems(composite, "ruleset"):
        # $.board.areas.x -> locate in board.yaml at $.areas.x
        rest = problem.path[2:] if problem.path.startswith("$.") else ""
        part = rest.partition(".")[0]
        part = part.split("[", 1)[0]
        doc = by_part.get(part)
        if doc is None:
            problems.append(str(problem))
            continue
        inner_path = "$" + rest[len(part):]
        keys = _parse_path(inner_path)
        located = doc.problem(keys, problem.message, key=problem.message == "unknown key")
        problems.append(str(located))
    if problems:
        raise RulesetError(problems)


def _parse_path(path: str) -> list[str | int]:
    """Parse ``$.a.b[0]`` back into keys (inverse of files.json_path for plain ids)."""
    keys: list[str | int] = []
    for chunk in path[1:].replace("[", ".[").split("."):
        if not chunk:
            continue
        if chunk.startswith("["):
            inner = chunk[1:-1]
            keys.append(int(inner) if inner.isdigit() else json.loads(inner))
        else:
            keys.append(chunk)
    return keys


def _without_layout(part: str, data: Any) -> Any:
    """The data of one ruleset part without the map layout (board areas' ``xy``, ``size`` and
    ``shape``)."""
    if part != "board" or not isinstance(data, dict) or not isinstance(data.get("areas"), dict):
        return data
    areas = {a: ({k: x for k, x in v.items() if k not in LAYOUT_KEYS} if isinstance(v, dict) else v)
             for a, v in data["areas"].items()}
    return {**data, "areas": areas}


def content_hash(docs: Mapping[str, Document]) -> str:
    """SHA-256 of the ruleset's rules content (canonical JSON).

    Independent of comments and YAML layout, and of the map layout (``xy``,
    ``size``, ``shape``): moving a box on the map does not change which states a ruleset accepts.
    """
    data = {_PART[f]: _without_layout(_PART[f], d.data) for f, d in sorted(docs.items())}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _pair(value: Any) -> tuple[float, float] | None:
    return None if value is None else (value[0], value[1])


def _build(docs: Mapping[str, Document], source: str) -> Ruleset:
    manifest = docs["ruleset.yaml"].data
    board = docs["board.yaml"].data
    cards = docs["house_cards.yaml"].data
    westeros = docs["westeros.yaml"].data
    setup = docs["setup.yaml"].data
    raw_areas: dict[str, Any] = board["areas"]
    land = sorted(a for a, v in raw_areas.items() if v["kind"] == "land")
    sea = sorted(a for a, v in raw_areas.items() if v["kind"] == "sea")
    rivers: dict[str, list[str]] = {}
    bridges: dict[str, list[str]] = {}
    for river in board.get("rivers", []):
        a, b = river["between"]
        crossing = bridges if river.get("bridge", False) else rivers
        crossing.setdefault(a, []).append(b)
        crossing.setdefault(b, []).append(a)
    areas = {}
    for area_id in land + sea:
        v = raw_areas[area_id]
        areas[area_id] = Area(
            id=area_id, name=v["name"], kind=v["kind"], adjacent=tuple(sorted(v["adjacent"])),
            supply=v.get("supply", 0), power=v.get("power", 0), castle=v.get("castle"),
            home_of=v.get("home_of"), island=v.get("island", False),
            xy=_pair(v.get("xy")), size=_pair(v.get("size")),
            rivers=tuple(sorted(rivers.get(area_id, ()))),
            bridges=tuple(sorted(bridges.get(area_id, ()))),
            shape=tuple(tuple(ring) for ring in v["shape"]) if v.get("shape") else None,
        )
    house_cards = {}
    cards_by_house = {}
    for house, hand in cards.items():
        ids = []
        for card_id, v in hand.items():
            house_cards[card_id] = HouseCard(card_id, house, v["name"], v["strength"], v["swords"],
                                             v["forts"], v.get("when"), v.get("effect"))
            ids.append(card_id)
        cards_by_house[house] = tuple(ids)
    tracks = setup["tracks_five_players"]
    track_ts = int(max(setup["supply_track"], key=int)) + 1
    supply_track = tuple(tuple(setup["supply_track"].get(str(i), ())) for i in range(track_ts))
    return Ruleset(
        name=manifest["name"],
        title=manifest.get("title", manifest["name"]),
        sha256=content_hash(docs),
        houses=tuple(manifest["houses"]),
        areas=areas,
        order_tokens={k: OrderToken(k, v["kind"], v["bonus"], v["special"], v["count"])
                      for k, v in manifest["order_tokens"].items()},
        house_cards=house_cards,
        cards_by_house=cards_by_house,
        decks={d: tuple(DeckCard(c["card"], c["count"], c["wildling"])
                        for c in westeros["decks"][d]) for d in DECKS},
        neutral_forces=dict(setup["neutral_forces"]),
        unit_limits=dict(setup["unit_limits"]),
        supply_track=supply_track,
        kings_court_stars=tuple(setup["kings_court_stars"]),
        tracks_five_players={t: tuple(tracks[t]) for t in TRACKS},
        house_setup={h: HouseSetup(v["supply"], {a: tuple(u) for a, u in v["units"].items()})
                     for h, v in setup["houses"].items()},
        players={int(k): tuple(v) for k, v in setup["players"].items()},
        instant_win_castles={int(k): v for k, v in setup["instant_win_castles"].items()},
        start_power=setup["start"]["power_each"],
        start_threat=setup["start"]["wildling_threat"],
        start_round=setup["start"]["round"],
        power_tokens_per_house=manifest["power_tokens_per_house"],
        max_power=manifest["max_power"],
        rounds=manifest["rounds"],
        threat_step=manifest["wildling_threat"]["step"],
        threat_max=manifest["wildling_threat"]["max"],
        source=source,
        corrections=tuple(manifest.get("corrections", ())),
    )


def _card_texts(ruleset: Ruleset, texts: Document | None, own: bool) -> tuple[Ruleset, list[str]]:
    """``ruleset`` with each house card's text (``HouseCard.effect``, R6.4) from ``texts``
    (``card_texts.yaml``), and the problems of that file: an id that is not a house card, a
    text for a card without a text window (``when``), a card with a window but no text. A
    ruleset without the file keeps the ``effect`` lines of its ``house_cards.yaml``, or, when
    it has none, takes the packaged texts of the cards it shares with the packaged ruleset."""
    problems: list[str] = []
    if texts is None:
        return ruleset, problems
    cards = texts.data.get("house_card", {}) if isinstance(texts.data, dict) else {}
    if own:
        for card_id in cards:
            if card_id not in ruleset.house_cards:
                problems.append(str(texts.problem(
                    ["house_card", card_id], f"'{card_id}' is not a house card of the ruleset"
                    f"{suggest(card_id, ruleset.house_cards)}", key=True)))
            elif ruleset.house_cards[card_id].when is None:
                problems.append(str(texts.problem(
                    ["house_card", card_id], f"{card_id} has no text window (no `when` in "
                    "house_cards.yaml), so no text", key=True)))
        for card_id, card in ruleset.house_cards.items():
            if card.when is not None and card_id not in cards:
                problems.append(str(texts.problem(
                    ["house_card"], f"{card_id} has a text window (`when: {card.when}`) in "
                    "house_cards.yaml but no text", key=True)))
    updated = {c: replace(card, effect=cards.get(c, card.effect) if card.when else card.effect)
               for c, card in ruleset.house_cards.items()}
    return replace(ruleset, house_cards=updated), problems


@cache
def _load_cached(directory: str | None) -> Ruleset:
    archived = directory is not None and directory.startswith(ARCHIVE + "/")
    if directory is None or archived:
        # The packaged and archived rulesets load from compiled.json, schema-checked by tests
        # (tests/test_ruleset_packaged.py, tests/test_versions.py); a YAML file edited since is
        # read from the YAML and checked here. The integrity checks run at every load.
        source = PACKAGED if directory is None else directory
        parts, fresh = _package_parts(source)
        docs = {f: parts[f] for f in RULESET_FILES}
        glossary, texts = parts.get(GLOSSARY), parts.get(CARD_TEXTS)
        if not fresh:
            _schema_check(parts)
    else:
        source = directory
        docs = _documents_from_dir(Path(directory))
        glossary = _glossary_from_dir(Path(directory))
        texts = _glossary_from_dir(Path(directory), CARD_TEXTS)
        _schema_check({**docs, **{f: d for f, d in ((GLOSSARY, glossary), (CARD_TEXTS, texts))
                                  if d is not None}})
    ruleset = _build(docs, source)
    problems = [f"{source}: {msg}" for msg in integrity_problems(ruleset)]
    own_texts = texts is not None
    if texts is None and not any(c.effect for c in ruleset.house_cards.values()):
        texts = _package_parts(PACKAGED)[0].get(CARD_TEXTS)
    ruleset, text_problems = _card_texts(ruleset, texts, own_texts)
    problems += text_problems
    own = glossary is not None
    if glossary is None:
        glossary = _package_parts(PACKAGED)[0].get(GLOSSARY)
        assert glossary is not None, "the package ships glossary.yaml"
    names = glossary_from_data(glossary.data, ruleset.english_names())
    # The packaged glossary on the packaged ruleset, and on each archived one, is checked by
    # tests (tests/test_glossary.py), like their schema; any other pair at every load.
    if directory is not None and not archived:
        for path, message in glossary_problems(names, ruleset.named_ids(), others=not own):
            # A kind or an id is a mapping key: point at the key, not at its first entry.
            problem = glossary.problem(path, message, key=len(path) <= 2)
            if own:
                problems.append(str(problem))
                continue
            unplaced = replace(problem, line=None, column=None)  # compiled: no line numbers
            problems.append(f"{source}: has no {GLOSSARY}, and the packaged one does not fit "
                            f"it: {unplaced} (`agot ruleset export DIR` writes one)")
    if problems:
        raise RulesetError(problems)
    return replace(ruleset, glossary=names)


def load_ruleset(path: str | None = None) -> Ruleset:
    """Load and check a ruleset: the packaged first edition, or a folder / its ``ruleset.yaml``.

    Raises :class:`RulesetError` (exit 5) on broken data.

    >>> rs = load_ruleset()
    >>> len([a for a in rs.areas.values() if a.is_land]), len(rs.house_cards)
    (34, 35)
    """
    if path is None:
        return _load_cached(None)
    p = Path(path)
    if p.is_file():
        p = p.parent
    if not p.is_dir():
        raise RulesetError([f"{path}: no such ruleset folder"])
    return _load_cached(str(p))


def export_ruleset(directory: str | Path, ruleset: Ruleset | None = None) -> list[Path]:
    """Copy the files of ``ruleset`` (default: the packaged one) into ``directory``;
    return the paths written."""
    source = ruleset.source if ruleset is not None else PACKAGED
    files = ruleset_files(source)
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    from agot_adjudicator.io.commit import write_together

    written = [(out / filename, files[filename].decode("utf-8")) for filename in RULESET_FILES]
    # The names travel with the rules (the packaged glossary for a ruleset without its own), so
    # that a moderator can correct one in the copy.
    written.append((out / GLOSSARY, glossary_bytes(source).decode("utf-8")))
    texts = card_texts_bytes(source)
    if texts is not None:
        written.append((out / CARD_TEXTS, texts.decode("utf-8")))
    # Each file is renamed into place: a symlink already in DIR is replaced, never written
    # through.
    write_together(written)
    return [target for target, _ in written]


def ruleset_files(source: str) -> dict[str, bytes]:
    """The bytes of the five files of the ruleset loaded from ``source`` (its rules: not
    its prose, see :func:`glossary_bytes` and :func:`card_texts_bytes`)."""
    if _in_package(source):
        base = _package_folder(source)
        return {f: base.joinpath(f).read_bytes() for f in RULESET_FILES}
    return {f: (Path(source) / f).read_bytes() for f in RULESET_FILES}


def glossary_bytes(source: str) -> bytes:
    """The bytes of the glossary naming the ruleset loaded from ``source``: its own
    ``glossary.yaml``, or the packaged one when it has none."""
    own = (_package_folder(source) if _in_package(source) else Path(source)) / GLOSSARY
    if own.is_file():
        return own.read_bytes()
    return _package_folder(PACKAGED).joinpath(GLOSSARY).read_bytes()


def card_texts_bytes(source: str) -> bytes | None:
    """The bytes of the ``card_texts.yaml`` of the ruleset loaded from ``source``: its own, else
    None when its ``house_cards.yaml`` carries the texts (``effect``, a ruleset made before they
    moved out), else the packaged one (whose texts it is given)."""
    folder = _package_folder(source) if _in_package(source) else Path(source)
    if (folder / CARD_TEXTS).is_file():
        return (folder / CARD_TEXTS).read_bytes()
    cards = (_package_parts(source)[0]["house_cards.yaml"] if _in_package(source)
             else parse_text(CARD_TEXTS, (folder / "house_cards.yaml").read_bytes())).data
    if isinstance(cards, dict) and any(isinstance(v, dict) and "effect" in v
                                       for hand in cards.values() if isinstance(hand, dict)
                                       for v in hand.values()):
        return None
    return _package_folder(PACKAGED).joinpath(CARD_TEXTS).read_bytes()


# --- rulesets by content hash: packaged, archived, carried by a game ---------------------------

GAME_RULESETS = "rulesets"
"""The folder of a game directory that carries the rulesets it was played under."""


def archived_hashes() -> list[str]:
    """The content hashes of the rulesets kept in the package's archive, sorted."""
    base = _package_folder(ARCHIVE)
    if not base.is_dir():
        return []
    return sorted(child.name for child in base.iterdir() if child.is_dir()
                  and len(child.name) == 64)


def find_ruleset(name: str, sha256: str, game_dir: str | Path | None = None,
                 extra: Ruleset | None = None) -> Ruleset | None:
    """The ruleset called ``name`` whose content hash is ``sha256``: ``extra`` (the one in
    use), the game's ``rulesets/SHA256/``, the packaged one, or the archive; else None."""
    def fits(rs: Ruleset) -> bool:
        return rs.sha256 == sha256 and rs.name == name

    if extra is not None and fits(extra):
        return extra
    if not isinstance(sha256, str) or not sha256.isalnum():
        return None
    known = None
    if sha256 in archived_hashes():  # never the packaged one's (tests/test_versions.py)
        archived = _load_cached(f"{ARCHIVE}/{sha256}")
        known = archived if fits(archived) else None
    else:  # a state of an archived ruleset does not load the packaged one too (issue 33)
        packaged = load_ruleset()
        known = packaged if fits(packaged) else None
    if game_dir is not None:
        carried = Path(game_dir) / GAME_RULESETS / sha256
        if (carried / "ruleset.yaml").is_file() and not _same_files(carried, known):
            rs = load_ruleset(str(carried))  # the game's own copy (its map layout may differ)
            if fits(rs):
                return rs
    return known


def _same_files(folder: Path, ruleset: Ruleset | None) -> bool:
    """Whether ``folder`` holds byte for byte the files of ``ruleset`` (then the packaged or
    archived copy, compiled and cached, is used)."""
    if ruleset is None:
        return False
    try:
        same = all((folder / f).read_bytes() == data
                   for f, data in ruleset_files(ruleset.source).items())
        # A copy without a glossary is named by the packaged one, as the known ruleset is; one
        # without card texts takes the known ruleset's.
        texts = card_texts_bytes(ruleset.source)
        return same and (not (folder / GLOSSARY).exists()
                         or (folder / GLOSSARY).read_bytes() == glossary_bytes(ruleset.source)) \
            and (not (folder / CARD_TEXTS).exists() or (folder / CARD_TEXTS).read_bytes() == texts)
    except OSError:
        return False


def state_ruleset(state_path: str | Path, game_dir: str | Path | None = None,
                  read: Callable[[str], Document] | None = None) -> Ruleset | None:
    """The known ruleset a state file names (see :func:`find_ruleset`); None if the file does
    not load or names none agot knows (loading the state then says so, located). ``read``:
    how the file is read (default :func:`~agot_adjudicator.io.reading.load_yaml`)."""
    try:
        data = (read or load_yaml)(str(state_path)).data
    except InputError:
        return None
    return named_ruleset(data.get("ruleset") if isinstance(data, dict) else None, game_dir)


def named_ruleset(named: Any, game_dir: str | Path | None = None,
                  extra: Ruleset | None = None) -> Ruleset | None:
    """The known ruleset a recorded ``{name, sha256}`` mapping names (a state's ``ruleset:``,
    a chain's ``ruleset_moved.from``; see :func:`find_ruleset`); None for anything else."""
    if not isinstance(named, dict):
        return None
    name, sha256 = named.get("name"), named.get("sha256")
    if not isinstance(name, str) or not isinstance(sha256, str):
        return None
    return find_ruleset(name, sha256, game_dir, extra)


def keep_ruleset(ruleset: Ruleset, game_dir: str | Path) -> list[Path]:
    """Copy ``ruleset`` into ``GAME/rulesets/SHA256/`` (if not there yet); the paths written."""
    target = Path(game_dir) / GAME_RULESETS / ruleset.sha256
    if (target / "ruleset.yaml").is_file():
        return []
    return export_ruleset(target, ruleset)


def ruleset_changes(old: Ruleset, new: Ruleset) -> list[str]:
    """What differs between two rulesets' rules content, one line per value, by file and
    path (``setup.yaml unit_limits.knight: 5 → 6``); the map layout is left out, and so are the
    house cards' texts (``effect``: prose, which rulesets made since keep in ``card_texts.yaml``)."""
    def data(rs: Ruleset) -> dict[str, Any]:
        files = ruleset_files(rs.source)
        out = {f: _without_layout(_PART[f], parse_text(f, files[f]).data) for f in RULESET_FILES}
        cards = out["house_cards.yaml"]
        if isinstance(cards, dict):
            out["house_cards.yaml"] = {
                house: ({c: ({k: v for k, v in card.items() if k != "effect"}
                             if isinstance(card, dict) else card) for c, card in hand.items()}
                        if isinstance(hand, dict) else hand) for house, hand in cards.items()}
        return out

    lines: list[str] = []

    def walk(a: Any, b: Any, where: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in [*a, *(k for k in b if k not in a)]:
                sub = f"{where}.{key}" if where else str(key)
                if key not in b:
                    lines.append(f"{sub}: removed (was {_short(a[key])})")
                elif key not in a:
                    lines.append(f"{sub}: added ({_short(b[key])})")
                else:
                    walk(a[key], b[key], sub)
        elif a != b:
            lines.append(f"{where}: {_short(a)} → {_short(b)}")

    before, after = data(old), data(new)
    for filename in RULESET_FILES:
        start = len(lines)
        walk(before[filename], after[filename], "")
        lines[start:] = [f"{filename} {line}" for line in lines[start:]]
    return lines


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[:limit - 1] + "…"


if __name__ == "__main__":  # pragma: no cover - maintenance: python -m agot_adjudicator.io.rulesets
    data = Path(__file__).parent.parent / "data"
    for folder, source in [(data / "first_edition", PACKAGED),
                           *((data / "archive" / h, f"{ARCHIVE}/{h}") for h in archived_hashes())]:
        target = folder / COMPILED
        target.write_text(compiled_text(source), encoding="utf-8")
        print(f"wrote {target}")
