"""What differs between two game states, in game terms (``agot diff``; used by replay and whatif).

:func:`diff_states` returns a list of :class:`Change`, grouped and ordered
deterministically: game (ruleset, id, seed, round, phase, winner, chain),
tracks (the three tracks, wildling threat, Blade/Raven use, restrictions),
houses (power, supply, hand, discards, and units on the board per type),
areas (units per house and type, routed units, order, power token, neutral
force, in the ruleset's fixed area order), control (derived, R13.1) and
westeros (decks top first, revealed cards, shuffle counter).

Two states are equal exactly when their state files hold the same values
(``to_dict``); every differing value is named by at least one change: values
that no game-term rule describes are reported by their file path.
:func:`diff_states` is pure: no I/O, inputs never mutated, no set iteration.
:func:`explain_state_texts` compares two state texts the same way (the
``explain`` hook of replay and whatif).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agot_adjudicator.engine.board import controller
from agot_adjudicator.model.ruleset import DECKS, TRACKS, UNIT_TYPES, Ruleset
from agot_adjudicator.model.state import GameState

GROUPS = ("game", "tracks", "houses", "areas", "control", "westeros")
"""Groups of changes, in output order."""

_TOP_GROUP = {"tracks": "tracks", "wildling_threat": "tracks", "used_this_round": "tracks",
              "restrictions": "tracks", "houses": "houses", "areas": "areas",
              "westeros": "westeros"}
_PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}


@dataclass(frozen=True)
class Change:
    """One difference: its group, the state-file path it is about, the values, and a sentence.

    ``path`` is a dotted path in the state file (``houses.stark.power``), or
    ``control.AREA`` / ``board.HOUSE.UNIT`` for facts derived from the file.
    """

    group: str
    path: str
    before: Any
    after: Any
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.group, "path": self.path, "before": self.before,
                "after": self.after, "text": self.text}


def show_value(value: Any) -> str:
    """A value as the diff prints it.

    >>> show_value(None), show_value(True), show_value(["a", "b"]), show_value([])
    ('(none)', 'true', 'a, b', '(none)')
    """
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(show_value(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return str(value)


def _flatten(value: Any, path: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        if not value:
            out[path] = {}
        for key, inner in value.items():
            _flatten(inner, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, list):
        if not value:
            out[path] = []
        for i, inner in enumerate(value):
            _flatten(inner, f"{path}[{i}]", out)
    else:
        out[path] = value


def leaf_paths(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every leaf value of a state dict by dotted path (lists by index).

    >>> leaf_paths({"a": {"b": [1, 2]}, "c": None})
    {'a.b[0]': 1, 'a.b[1]': 2, 'c': None}
    """
    out: dict[str, Any] = {}
    _flatten(dict(data), "", out)
    return out


def _covers(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def _get(data: Any, dotted: str) -> Any:
    for key in dotted.split("."):
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _ordered(known: Iterable[str], *present: Iterable[str]) -> list[str]:
    """``known`` ids that are present, then the other present ids sorted (unknown to the ruleset)."""
    seen: list[str] = []
    for ids in present:
        for i in ids:
            if i not in seen:
                seen.append(i)
    first = [k for k in known if k in seen]
    return first + sorted(i for i in seen if i not in first)


def _count(units: Iterable[str], unit: str) -> int:
    return sum(1 for u in units if u == unit)


@dataclass
class _Builder:
    changes: list[Change] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)

    def add(self, group: str, path: str, before: Any, after: Any, text: str | None = None,
            covers: Iterable[str] = ()) -> None:
        if text is None:
            text = f"{path}: {show_value(before)} → {show_value(after)}"
        self.changes.append(Change(group, path, before, after, text))
        self.covered.extend(covers)

    def value(self, group: str, da: Mapping[str, Any], db: Mapping[str, Any], path: str) -> None:
        before, after = _get(da, path), _get(db, path)
        if before != after:
            self.add(group, path, before, after, covers=[path])


def _neutral_text(nf: Mapping[str, Any] | None) -> str:
    if nf is None:
        return "(none)"
    text = str(nf["strength"])
    if nf.get("house"):
        c = Counter(nf.get("units", []))
        units = ", ".join(f"{c[u]} {u if c[u] == 1 else _PLURAL[u]}" for u in UNIT_TYPES if c[u])
        text += f" ({nf['house']}: {units or 'no units'})"
    return text


def _area_changes(b: _Builder, area_id: str, ea: Mapping[str, Any], eb: Mapping[str, Any]) -> None:
    base = f"areas.{area_id}"
    if ea == eb:
        return
    houses = [h for h in (ea.get("house"), eb.get("house")) if h is not None]
    houses = [h for i, h in enumerate(houses) if h not in houses[:i]]
    for key, label in (("units", ""), ("routed", "routed ")):
        for house in houses:
            before = ea.get(key, []) if ea.get("house") == house else []
            after = eb.get(key, []) if eb.get("house") == house else []
            for unit in UNIT_TYPES:
                ca, cb = _count(before, unit), _count(after, unit)
                if ca != cb:
                    b.add("areas", f"{base}.{key}", ca, cb,
                          f"{area_id}: {house} {label}{unit} ×{ca} → ×{cb}",
                          covers=[f"{base}.{key}", f"{base}.house"])
    for key, label in (("order", "order"), ("power_token", "power token")):
        if ea.get(key) != eb.get(key):
            b.add("areas", f"{base}.{key}", ea.get(key), eb.get(key),
                  f"{area_id}: {label} {show_value(ea.get(key))} → {show_value(eb.get(key))}",
                  covers=[f"{base}.{key}"])
    na, nb = ea.get("neutral_force"), eb.get("neutral_force")
    if na != nb:
        b.add("areas", f"{base}.neutral_force", na, nb,
              f"{area_id}: neutral force {_neutral_text(na)} → {_neutral_text(nb)}",
              covers=[f"{base}.neutral_force"])


def _cards(b: _Builder, house: str, key: str, before: list[str], after: list[str]) -> None:
    path = f"houses.{house}.{key}"
    if before == after:
        return
    lost = [c for c in before if c not in after]
    gained = [c for c in after if c not in before]
    if lost or gained or sorted(before) != sorted(after):
        parts = [f"−{c}" for c in lost] + [f"+{c}" for c in gained]
        detail = ", ".join(parts) if parts else "same cards, other counts"
        text = f"{path}: {detail} ({show_value(before)} → {show_value(after)})"
    else:
        text = f"{path}: same cards in another order ({show_value(before)} → {show_value(after)})"
    b.add("houses", path, before, after, text, covers=[path])


def diff_states(a: GameState, b: GameState, ruleset: Ruleset) -> list[Change]:
    """Every difference between states ``a`` and ``b``, grouped (see module doc); [] when equal.

    ``ruleset`` gives the fixed orders (houses, areas) and control (R13.1); ids
    it does not know are still compared, after the known ones, sorted.
    """
    da, db = a.to_dict(), b.to_dict()
    out = _Builder()
    # game: identity and counters (not game terms, but recorded values all the same).
    for path in ("format", "written_by", "ruleset.name", "ruleset.sha256", "game.id",
                 "game.seed", "round", "phase"):
        out.value("game", da, db, path)
    # tracks and round-scoped markers.
    for track in TRACKS:
        out.value("tracks", da, db, f"tracks.{track}")
    out.value("tracks", da, db, "wildling_threat")
    for token in ("valyrian_steel_blade", "messenger_raven"):
        out.value("tracks", da, db, f"used_this_round.{token}")
    out.value("tracks", da, db, "restrictions")
    # houses.
    ha, hb = da["houses"], db["houses"]
    houses = _ordered(ruleset.houses, ha, hb)
    for house in houses:
        path = f"houses.{house}"
        if (house in ha) != (house in hb):
            out.add("houses", path, house in ha, house in hb,
                    f"{path}: {'in play' if house in ha else 'not in play'} → "
                    f"{'in play' if house in hb else 'not in play'}", covers=[path])
            continue
        for key in ("power", "supply"):
            out.value("houses", da, db, f"{path}.{key}")
        for key in ("hand", "discards"):
            _cards(out, house, key, ha[house].get(key, []), hb[house].get(key, []))
    aa, ab = da["areas"], db["areas"]
    for house in houses:
        for unit in UNIT_TYPES:
            ca = sum(_count(v.get("units", []), unit) for v in aa.values() if v.get("house") == house)
            cb = sum(_count(v.get("units", []), unit) for v in ab.values() if v.get("house") == house)
            if ca != cb:
                out.add("houses", f"board.{house}.{unit}", ca, cb,
                        f"{house}: {_PLURAL[unit]} on the board ×{ca} → ×{cb}")
    # areas, then control derived from them.
    for area_id in _ordered(ruleset.area_ids, aa, ab):
        _area_changes(out, area_id, aa.get(area_id, {}), ab.get(area_id, {}))
    for area_id in ruleset.area_ids:
        ca, cb = controller(a, ruleset, area_id), controller(b, ruleset, area_id)
        if ca != cb:
            out.add("control", f"control.{area_id}", ca, cb,
                    f"control: {area_id} {show_value(ca)} → {show_value(cb)}")
    # westeros.
    for deck in DECKS:
        out.value("westeros", da, db, f"westeros.decks.{deck}")
    for deck in DECKS:
        out.value("westeros", da, db, f"westeros.revealed.{deck}")
    out.value("westeros", da, db, "westeros.shuffles")
    # Anything else that differs (winner, chain, ...), by its file path.
    la, lb = leaf_paths(da), leaf_paths(db)
    for path in _ordered(la, la, lb):
        before, after = la.get(path), lb.get(path)
        if (path in la) == (path in lb) and before == after:
            continue
        if any(_covers(prefix, path) for prefix in out.covered):
            continue
        group = _TOP_GROUP.get(path.split(".")[0].split("[")[0], "game")
        out.add(group, path, before, after, covers=[path])
    return sorted(out.changes, key=lambda c: GROUPS.index(c.group))


def render_text(changes: list[Change], a_name: str = "A", b_name: str = "B") -> str:
    """The changes as readable text, one group heading per group present."""
    if not changes:
        return f"no differences between {a_name} and {b_name}\n"
    lines = [f"--- {a_name}", f"+++ {b_name}", *render_lines(changes)]
    n = len(changes)
    lines.append(f"{n} difference{'s' if n != 1 else ''}")
    return "\n".join(lines) + "\n"


def render_json(changes: list[Change], a_name: str = "A", b_name: str = "B") -> str:
    """The changes as one JSON document: ``{a, b, equal, changes: [{group, path, before, after, text}]}``."""
    doc = {"a": a_name, "b": b_name, "equal": not changes,
           "changes": [c.to_dict() for c in changes]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_lines(changes: list[Change]) -> list[str]:
    """The changes as lines: a ``group:`` heading per group, then one indented line per change."""
    lines: list[str] = []
    group = None
    for change in changes:
        if change.group != group:
            group = change.group
            lines.append(f"{group}:")
        lines.append(f"  {change.text}")
    return lines


def explain_state_texts(expected: str, recorded: str, ruleset: Ruleset,
                        name: str = "state.yaml", *,
                        labels: tuple[str, str] = ("expected", "recorded"),
                        keep: Callable[[list[Change]], list[Change]] | None = None) -> list[str]:
    """Why a recorded state text is not the expected one, in game terms (for replay and whatif).

    Lines as :func:`render_lines` (before = expected, after = recorded); [] for
    identical texts. A text that is not a schema-valid state is reported by its
    problems; equal values in different bytes are said to differ in layout only.
    ``labels`` name the two sides (whatif: ``published``, ``what-if``); ``keep`` filters
    the changes for a view (``render.public.view_changes``): [] when it keeps none.
    """
    from agot_adjudicator.errors import InputError
    from agot_adjudicator.io.reading import parse_text
    from agot_adjudicator.io.schemas import schema_problems

    if expected == recorded:
        return []
    states: list[GameState] = []
    problems: list[str] = []
    for label, text in zip(labels, (expected, recorded), strict=True):
        try:
            doc = parse_text(f"{name} ({label})", text.encode("utf-8"))
        except InputError as exc:
            problems.extend(str(p) for p in exc.problems)
            continue
        found = schema_problems(doc, "state")
        problems.extend(str(p) for p in found)
        if not found:
            states.append(GameState.from_dict(doc.data))
    if problems:
        return [f"not comparable as states: {p}" for p in problems]
    changes = diff_states(states[0], states[1], ruleset)
    if keep is not None:
        changes = keep(changes)
        if not changes:
            return []
    if not changes:
        return [f"{name}: same values; the texts differ only in layout or comments"]
    n = len(changes)
    return [f"{name}: {n} difference{'s' if n != 1 else ''} ({labels[0]} → {labels[1]})",
            *render_lines(changes)]
