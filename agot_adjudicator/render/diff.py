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
from agot_adjudicator.model.state import WINNER_REASONS, GameState, winner_reason
from agot_adjudicator.model.text import N_, Msg
from agot_adjudicator.render.language import house, lang, say, tr

GROUPS = ("game", "tracks", "houses", "areas", "control", "westeros")
"""Groups of changes, in output order."""

_TOP_GROUP = {"tracks": "tracks", "wildling_threat": "tracks", "used_this_round": "tracks",
              "restrictions": "tracks", "houses": "houses", "areas": "areas",
              "westeros": "westeros"}
_PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships"}
GROUP_NAMES = (N_("game"), N_("tracks"), N_("houses"), N_("areas"), N_("control"),
               N_("westeros"))
"""The groups' headings, for the catalogs."""
PHASES = {"westeros": N_("westeros"), "planning": N_("planning"), "action": N_("action"),
          "ended": N_("ended")}
"""A state's phases, said as its ``phase:`` value (``westeros`` is also a group's heading)."""
LABELS = (N_("expected"), N_("recorded"), N_("published"), N_("what-if"))
"""The sides :func:`explain_state_texts` compares, as replay and whatif name them."""
PILES = {"hand": N_("hand"), "discards": N_("discards")}
_ON_BOARD = {"footman": N_("{house}: footmen on the board ×{before} → ×{after}"),
             "knight": N_("{house}: knights on the board ×{before} → ×{after}"),
             "ship": N_("{house}: ships on the board ×{before} → ×{after}")}
_UNIT_COUNT = {("footman", 1): N_("{count} footman"), ("footman", 2): N_("{count} footmen"),
               ("knight", 1): N_("{count} knight"), ("knight", 2): N_("{count} knights"),
               ("ship", 1): N_("{count} ship"), ("ship", 2): N_("{count} ships")}


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


def said_value(value: Any) -> Any:
    """A value as a :class:`~agot_adjudicator.model.text.Msg` field: English as
    :func:`show_value` writes it; none, true and false said in the reader's language, a list
    of ids kept as a list (named by the field's kind)."""
    if value is None or value == []:
        return Msg("(none)")
    if isinstance(value, bool):
        return Msg("true") if value else Msg("false")
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return show_value(value)


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
            text = _value_msg(path, before, after)
        self.changes.append(Change(group, path, before, after, text))
        self.covered.extend(covers)

    def value(self, group: str, da: Mapping[str, Any], db: Mapping[str, Any], path: str) -> None:
        before, after = _get(da, path), _get(db, path)
        if before != after:
            self.add(group, path, before, after, covers=[path])


def _value_msg(path: str, before: Any, after: Any) -> Msg:
    """``path: before → after`` as a sentence the reader's language can say: a path the
    game names (a track, a house's power, a deck...) in words, any other by its file path."""
    parts = path.split(".")
    b, a = said_value(before), said_value(after)
    if path == "round":
        return Msg("round: {before} → {after}", before=b, after=a)
    if path == "phase":
        return Msg("phase: {before} → {after}",
                   before=Msg(PHASES[before]) if before in PHASES else b,
                   after=Msg(PHASES[after]) if after in PHASES else a)
    if path == "game.seed":
        return Msg("game.seed: {before} → {after}", before=b, after=a)
    if path == "wildling_threat":
        return Msg("wildling_threat: {before} → {after}", before=b, after=a)
    if path == "restrictions":
        return Msg("restrictions: {westeros_before} → {westeros_after}", westeros_before=b,
                   westeros_after=a)
    if path == "westeros.shuffles":
        return Msg("westeros.shuffles: {before} → {after}", before=b, after=a)
    if len(parts) == 2 and parts[0] == "tracks":
        return Msg("tracks.{track}: {houses_before} → {houses_after}", track=parts[1],
                   houses_before=b, houses_after=a)
    if len(parts) == 2 and parts[0] == "used_this_round":
        return Msg("used_this_round.{influence_token}: {before} → {after}",
                   influence_token=parts[1], before=b, after=a)
    if len(parts) == 3 and parts[0] == "houses" and parts[2] == "power":
        return Msg("houses.{house}.power: {before} → {after}", house=parts[1], before=b, after=a)
    if len(parts) == 3 and parts[0] == "houses" and parts[2] == "supply":
        return Msg("houses.{house}.supply: {before} → {after}", house=parts[1], before=b,
                   after=a)
    if len(parts) == 3 and parts[:2] == ["westeros", "decks"]:
        return Msg("westeros.decks.{deck}: {westeros_before} → {westeros_after}", deck=parts[2],
                   westeros_before=b, westeros_after=a)
    if len(parts) == 3 and parts[:2] == ["westeros", "revealed"]:
        return Msg("westeros.revealed.{deck}: {westeros_before} → {westeros_after}",
                   deck=parts[2], westeros_before=b, westeros_after=a)
    if path == "westeros.revealed":
        return Msg("westeros.revealed: {before} → {after}", before=b, after=a)
    return Msg("{path}: {before} → {after}", path=path, before=b, after=a)


def _reason(winner: Any) -> Any:
    """A recorded winner's reason (a code with fields, R11) as a sentence the reader's language
    can say; nothing when there is no winner."""
    if isinstance(winner, dict) and winner.get("reason") in WINNER_REASONS:
        return winner_reason(winner)
    return said_value(winner.get("reason") if isinstance(winner, dict) else None)


def _units_msg(units: list[str]) -> list[Msg]:
    c = Counter(units)
    return [Msg(_UNIT_COUNT[u, 1 if c[u] == 1 else 2], count=c[u]) for u in UNIT_TYPES if c[u]]


def _neutral_text(nf: Mapping[str, Any] | None) -> Any:
    if nf is None:
        return Msg("(none)")
    if not nf.get("house"):
        return str(nf["strength"])
    units = _units_msg(list(nf.get("units", [])))
    return Msg("{strength} ({house}: {units})", strength=nf["strength"], house=nf["house"],
               units=units or Msg("no units"))


def _area_changes(b: _Builder, area_id: str, ea: Mapping[str, Any], eb: Mapping[str, Any]) -> None:
    base = f"areas.{area_id}"
    if ea == eb:
        return
    houses = [h for h in (ea.get("house"), eb.get("house")) if h is not None]
    houses = [h for i, h in enumerate(houses) if h not in houses[:i]]
    templates = {"units": N_("{area}: {house} {unit} ×{before} → ×{after}"),
                 "routed": N_("{area}: {house} routed {unit} ×{before} → ×{after}")}
    for key in ("units", "routed"):
        for owner in houses:
            before = ea.get(key, []) if ea.get("house") == owner else []
            after = eb.get(key, []) if eb.get("house") == owner else []
            for unit in UNIT_TYPES:
                ca, cb = _count(before, unit), _count(after, unit)
                if ca != cb:
                    b.add("areas", f"{base}.{key}", ca, cb,
                          Msg(templates[key], area=area_id, house=owner, unit=unit, before=ca,
                              after=cb),
                          covers=[f"{base}.{key}", f"{base}.house"])
    if ea.get("order") != eb.get("order"):
        b.add("areas", f"{base}.order", ea.get("order"), eb.get("order"),
              Msg("{area}: order {order_before} → {order_after}", area=area_id,
                  order_before=said_value(ea.get("order")), order_after=said_value(eb.get("order"))),
              covers=[f"{base}.order"])
    if ea.get("power_token") != eb.get("power_token"):
        b.add("areas", f"{base}.power_token", ea.get("power_token"), eb.get("power_token"),
              Msg("{area}: power token {houses_before} → {houses_after}", area=area_id,
                  houses_before=said_value(ea.get("power_token")),
                  houses_after=said_value(eb.get("power_token"))),
              covers=[f"{base}.power_token"])
    na, nb = ea.get("neutral_force"), eb.get("neutral_force")
    if na != nb:
        b.add("areas", f"{base}.neutral_force", na, nb,
              Msg("{area}: neutral force {before} → {after}", area=area_id,
                  before=_neutral_text(na), after=_neutral_text(nb)),
              covers=[f"{base}.neutral_force"])


def _cards(b: _Builder, house: str, key: str, before: list[str], after: list[str]) -> None:
    path = f"houses.{house}.{key}"
    if before == after:
        return
    lost = [c for c in before if c not in after]
    gained = [c for c in after if c not in before]
    fields = dict(house=house, pile=Msg(PILES[key]), cards_before=said_value(before),
                  cards_after=said_value(after))
    if lost or gained:
        text = Msg("houses.{house}.{pile}: {changes} ({cards_before} → {cards_after})",
                   changes=[Msg("−{card}", card=c) for c in lost]
                   + [Msg("+{card}", card=c) for c in gained], **fields)
    elif sorted(before) != sorted(after):
        text = Msg("houses.{house}.{pile}: same cards, other counts ({cards_before} → "
                   "{cards_after})", **fields)
    else:
        text = Msg("houses.{house}.{pile}: same cards in another order ({cards_before} → "
                   "{cards_after})", **fields)
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
    def in_play(here: bool) -> Msg:
        return Msg("in play") if here else Msg("not in play")

    for owner in houses:
        path = f"houses.{owner}"
        if (owner in ha) != (owner in hb):
            out.add("houses", path, owner in ha, owner in hb,
                    Msg("houses.{house}: {before} → {after}", house=owner,
                        before=in_play(owner in ha), after=in_play(owner in hb)), covers=[path])
            continue
        for key in ("power", "supply"):
            out.value("houses", da, db, f"{path}.{key}")
        for key in ("hand", "discards"):
            _cards(out, owner, key, ha[owner].get(key, []), hb[owner].get(key, []))
    aa, ab = da["areas"], db["areas"]
    for owner in houses:
        for unit in UNIT_TYPES:
            ca = sum(_count(v.get("units", []), unit) for v in aa.values() if v.get("house") == owner)
            cb = sum(_count(v.get("units", []), unit) for v in ab.values() if v.get("house") == owner)
            if ca != cb:
                out.add("houses", f"board.{owner}.{unit}", ca, cb,
                        Msg(_ON_BOARD[unit], house=owner, before=ca, after=cb))
    # areas, then control derived from them.
    for area_id in _ordered(ruleset.area_ids, aa, ab):
        _area_changes(out, area_id, aa.get(area_id, {}), ab.get(area_id, {}))
    for area_id in ruleset.area_ids:
        held_a, held_b = controller(a, ruleset, area_id), controller(b, ruleset, area_id)
        if held_a != held_b:
            out.add("control", f"control.{area_id}", held_a, held_b,
                    Msg("control: {area} {houses_before} → {houses_after}", area=area_id,
                        houses_before=said_value(held_a), houses_after=said_value(held_b)))
    # westeros.
    for deck in DECKS:
        out.value("westeros", da, db, f"westeros.decks.{deck}")
    for deck in DECKS:
        out.value("westeros", da, db, f"westeros.revealed.{deck}")
    out.value("westeros", da, db, "westeros.shuffles")
    # The winner's reason: a code, said with the winner's fields (R11).
    if _get(da, "winner.reason") != _get(db, "winner.reason"):
        out.add("game", "winner.reason", _get(da, "winner.reason"), _get(db, "winner.reason"),
                Msg("winner.reason: {before} → {after}", before=_reason(da.get("winner")),
                    after=_reason(db.get("winner"))), covers=["winner.reason"])
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
    """The changes as readable text, one group heading per group present (in the language of
    the current :class:`~agot_adjudicator.render.language.Names`, English outside one)."""
    if not changes:
        return tr("no differences between {a} and {b}", a=a_name, b=b_name) + "\n"
    lines = [f"--- {a_name}", f"+++ {b_name}", *render_lines(changes)]
    lines.append(differences(len(changes)))
    return "\n".join(lines) + "\n"


def differences(n: int) -> str:
    """``1 difference``, ``3 differences``."""
    return tr(N_("{count} difference") if n == 1 else N_("{count} differences"), count=n)


def render_json(changes: list[Change], a_name: str = "A", b_name: str = "B") -> str:
    """The changes as one JSON document: ``{a, b, equal, changes: [{group, path, before, after, text}]}``
    (``text`` in English: the JSON is for programs)."""
    doc = {"a": a_name, "b": b_name, "equal": not changes,
           "changes": [c.to_dict() for c in changes]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_lines(changes: list[Change]) -> list[str]:
    """The changes as lines: a ``group:`` heading per group, then one indented line per change
    (said in the current language: :func:`~agot_adjudicator.render.language.say`)."""
    lines: list[str] = []
    group = None
    for change in changes:
        if change.group != group:
            group = change.group
            lines.append(tr("{heading}:", heading=tr(group)))
        lines.append(f"  {say(change.text)}")
    return lines


def view_label(view: str | None) -> str:
    """How a view is labelled in an output, in the current language.

    >>> view_label(None), view_label("public"), view_label("stark")
    ("moderator's view (secrets included)", 'public view', "stark's view")
    """
    if view is None:
        return tr("moderator's view (secrets included)")
    if view == "public":
        return tr("public view")
    return tr("{house}'s view", house=view if lang() == "en" else house(view))


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
        return [tr("not comparable as states: {problem}", problem=p) for p in problems]
    changes = diff_states(states[0], states[1], ruleset)
    if keep is not None:
        changes = keep(changes)
        if not changes:
            return []
    if not changes:
        return [tr("{name}: same values; the texts differ only in layout or comments", name=name)]
    return [tr("{name}: {differences} ({before} → {after})", name=name,
               differences=differences(len(changes)), before=tr(labels[0]), after=tr(labels[1])),
            *render_lines(changes)]
