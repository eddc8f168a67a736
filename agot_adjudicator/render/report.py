"""Render events (and pending decisions) as a report (Markdown or plain text), a JSON Lines
log, and paste-ready YAML.

The report never decides anything: every line comes from an event (one line
per event, naming its R-rule; a ``battle`` event also renders its strength
table), then the board and tracks from the state after the run. So the
report and the log (``--log``) cannot disagree.

The report holds public information only: never hands, bids before they are
revealed, the Westeros decks, the seed, plans or the prompts of pending
decisions (a Melisandre prompt lists the loser's hand). ``private=HOUSE``
appends that house's own hand, its submitted bids and its pending questions.

Event log: JSON Lines, one event per line. Every event starts with ``type``,
``rule`` (an R-rule, or a protocol id such as ``P2``; see ``agot rules``), ``round`` and
``phase``, then the fields listed for its type in
:data:`~agot_adjudicator.engine.events.EVENT_FIELDS`, where events are defined (a test checks
that table against every event the engine emits). Ids are the ruleset's ids.

The demo game (``scenarios/games/demo``) records reports and logs byte for byte: after changing
a sentence on purpose, run ``python scenarios/regenerate.py`` and commit the result.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.engine.events import Event
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.ruleset import TRACKS, Ruleset
from agot_adjudicator.model.state import GameState
from agot_adjudicator.model.text import N_
from agot_adjudicator.render.areas import AreaLabels, area_rows
from agot_adjudicator.render.event_lines import event_line
from agot_adjudicator.render.i18n import translator
from agot_adjudicator.render.language import (
    PHASE_TITLES,
    Names,
    about,
    decision_kind,
    house,
    human,
    option,
    say,
    say_named,
    sep,
    speaker,
    tr,
    unit,
    units,
)
from agot_adjudicator.render.tables import columns, table

FORMATS = ("markdown", "text")


def report_title(game_id: Any, round_: Any) -> str:
    """The title of a round's report: ``Game demo — round 1``."""
    return tr("Game {game} — round {round}", game=game_id, round=round_)


# --- tables ----------------------------------------------------------------------------------

def _table(rows: list[list[Any]], headers: list[str], fmt: str, width: int | None = None) -> str:
    return table(rows, headers, "github" if fmt == "markdown" else "simple",
                 None if fmt == "markdown" else width)


def _units_cell(side: Mapping[str, Any]) -> str:
    if speaker() is not None:
        parts = [tr("{unit}×{count} (each {strength})", unit=unit(u), count=v["count"],
                    strength=v["strength"]) for u, v in side["units"].items()]
    else:
        parts = [f"{v['count']} {u if v['count'] == 1 else {'footman': 'footmen'}.get(u, u + 's')} "
                 f"× {v['strength']}" for u, v in side["units"].items()]
    return (" + ".join(parts) or tr("no units")) + f" = {side['units_strength']}"


def battle_table(event: Event, names: Names, fmt: str = "markdown",
                 width: int | None = None) -> str:
    """The strength table of a ``battle`` event (R6.3–R6.6): units, order, each supporting
    area, house card, Blade, total, and the tie-break when used — one column per side."""
    sides = event["sides"]
    roles = ("attacker", "defender")
    rows: list[list[Any]] = [[tr("units"), *(_units_cell(sides[r]) for r in roles)]]
    orders = []
    for r in roles:
        order = sides[r]["order"]
        orders.append(f"{names.order(order['order'])}: {order['bonus']:+d}" if order else tr("none"))
    rows.append([tr("order"), *orders])
    supporters = [(s["area"], s["house"]) for r in roles for s in sides[r]["support"]]
    for area, owner in supporters:
        cells = []
        for r in roles:
            found = [s for s in sides[r]["support"] if s["area"] == area]
            cells.append(f"+{found[0]['strength']}" if found else "")
        rows.append([tr("support from {area} ({house})", area=names.area(area), house=house(owner)),
                     *cells])
    rows.append([tr("house card"), *(f"{names.card(sides[r]['card']['card'])}: "
                                     f"+{sides[r]['card']['strength']}" for r in roles)])
    rows.append([tr("Valyrian Steel Blade"), *(("+1" if sides[r]["blade"] else "") for r in roles)])
    rows.append([tr("total"), *(sides[r]["total"] for r in roles)])
    if event["decided_by"] == "fiefdoms_tie_break":
        rows.append([tr("tie-break: Fiefdoms (R6.6)"),
                     *(tr("higher, wins") if sides[r]["house"] == event["winner"] else tr("lower")
                       for r in roles)])
    elif event["decided_by"] == "last_unit_destroyed":
        rows.append([tr("last fighting unit destroyed (R6.4)"),
                     *(tr("loses at once") if sides[r]["house"] == event["loser"] else ""
                       for r in roles)])
    role = {"attacker": N_("attacker: {house}"), "defender": N_("defender: {house}")}
    headers = ["", *(tr(role[r], house=house(sides[r]["house"])) for r in roles)]
    return _table(rows, headers, fmt, width)


def _orders_table(event: Event, names: Names, fmt: str, width: int | None = None) -> str:
    rows = [[house(h), names.area(area), names.order(order)] for h, orders in event["orders"].items()
            for area, order in orders.items()]
    return _table(rows, [tr("house"), tr("area"), tr("order")], fmt, width)


BOARD_COLUMNS = ("area", "controlled by", "units", "order", "power token", "neutral force")
_COLUMN_NAMES = (N_("area"), N_("controlled by"), N_("units"), N_("order"), N_("power token"),
                 N_("neutral force"))


def board_tables(state: GameState, ruleset: Ruleset, fmt: str = "markdown",
                 width: int | None = None) -> str:
    """The board, the tracks and the houses after the run (public information only)."""
    nm = speaker() or Names(ruleset)
    rows = area_rows(state, ruleset, BOARD_COLUMNS,
                     None if nm.lang == "en" else _board_labels(nm))
    board = _table(rows, [tr(c) for c in BOARD_COLUMNS], fmt, width)
    tracks = _table([[i + 1, *(house(state.tracks[t][i]) for t in TRACKS)]
                     for i in range(len(state.houses))],
                    [tr("position"), *(tr(t) for t in _TRACK_HEADERS)], fmt, width)
    house_rows: list[list[Any]] = [
        [house(h), state.houses[h].power, state.houses[h].supply, len(state.houses[h].hand),
         sep().join(nm.card(c) for c in state.houses[h].discards)] for h in state.order_of_play()]
    hs = _table(house_rows, [tr("house"), tr("power"), tr("supply"), tr("cards in hand"), tr("discards")],
                fmt, width)
    return "\n\n".join([_heading(3, tr("Board"), fmt), board, _heading(3, tr("Tracks"), fmt),
                        tracks, tr("Wildling threat: {threat}.", threat=state.wildling_threat),
                        _heading(3, tr("Houses"), fmt), hs]) + "\n"


_TRACK_HEADERS = (N_("Iron Throne"), N_("Fiefdoms"), N_("King's Court"))


def _board_labels(nm: Names) -> AreaLabels:
    """:func:`area_rows` with the glossary's names (a report not in English)."""
    return AreaLabels(area=nm.area, house=house, order=nm.order,
                      units=lambda held, routed: units(held) + (
                          tr(" ({units} routed)", units=units(routed)) if routed else ""))


# --- the report ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Private:
    """What ``--private HOUSE`` appends: that house's submitted bids (the hand and pending
    questions come from the run)."""

    house: str
    bids: Mapping[str, int] | None = None
    wildlings: int | None = None


def _heading(level: int, text: str, fmt: str) -> str:
    if fmt == "markdown":
        return f"{'#' * level} {text}"
    if level == 1:
        return f"{text}\n{'=' * columns(text)}"
    if level == 2:
        return f"{text}\n{'-' * columns(text)}"
    return tr("{heading}:", heading=text)


def wrap(text: str, width: int | None, indent: str = "  ") -> str:
    """``text`` (one line) broken at spaces into lines of at most ``width`` terminal columns
    (two for a wide character), the lines after the first indented by ``indent``; a word
    longer than a line stays whole. ``None``: unchanged.

    >>> print(wrap("- Stark moves 1 knight from Winterfell to Moat Cailin (R5.3).", 30))
    - Stark moves 1 knight from
      Winterfell to Moat Cailin
      (R5.3).
    """
    if width is None:
        return text
    # printable ASCII (most English text) is as wide as it is long, its words break nowhere
    ascii_ = (text + indent).isascii() and (text + indent).isprintable()
    if (len(text) if ascii_ else columns(text)) <= width:
        return text
    measure, pieces = (len, _whole) if ascii_ else (columns, _pieces)
    head = len(text) - len(text.lstrip(" "))
    lines: list[str] = []
    line = text[:head]
    for word in text[head:].split(" "):
        for k, piece in enumerate(pieces(word)):
            prefix = line + (("" if k else " ") if line.strip() else "")
            if line.strip() and measure(prefix + piece) > width:
                lines.append(line)
                line = text[:head] + indent + piece
            else:
                line = prefix + piece if line.strip() else line + piece
    lines.append(line)
    return "\n".join(lines)


def _whole(word: str) -> list[str]:
    return [word]


_NO_LINE_START = frozenset("）」』】》〉，。、；：！？）)")
_NO_LINE_END = frozenset("（「『【《〈")


def _pieces(word: str) -> list[str]:
    """Where a word may break: nowhere unless it holds wide (CJK) characters, which break
    between any two of them, never before closing or after opening punctuation.

    >>> _pieces("Winterfell"), _pieces("临冬城（R6.4）。")
    (['Winterfell'], ['临', '冬', '城', '（R6.4）。'])
    """
    if word.isascii() or all(columns(c) < 2 for c in word):
        return [word]
    pieces: list[str] = []
    for c in word:
        glue = bool(pieces) and (c in _NO_LINE_START or pieces[-1][-1] in _NO_LINE_END
                                 or (columns(c) < 2 and columns(pieces[-1][-1]) < 2))
        if glue:
            pieces[-1] += c
        else:
            pieces.append(c)
    return pieces


def _item(text: str, fmt: str, width: int | None) -> str:
    return text if fmt == "markdown" else wrap(text, width)


def card_text(effect: str | None) -> str:
    """A house card's text in the current language (the packaged cards' texts are in the
    catalogs; another ruleset's stay as written)."""
    return "" if not effect else tr(effect) if speaker() else effect


def private_section(private: Private, state: GameState, ruleset: Ruleset,
                    pending: Sequence[PendingDecision], fmt: str,
                    width: int | None = None) -> str:
    """One house's own hand, bids and pending questions (``--private HOUSE``)."""
    nm = speaker() or Names(ruleset)
    h = private.house
    out = [_heading(2, tr("Private to {house} — do not forward", house=house(h)), fmt)]
    hs = state.houses[h]
    rows = [[nm.card(c), ruleset.house_cards[c].strength, ruleset.house_cards[c].swords,
             ruleset.house_cards[c].forts, card_text(ruleset.house_cards[c].effect)]
            for c in ruleset.cards_by_house[h] if c in hs.hand]
    out += [_heading(3, tr("Hand"), fmt),
            _table(rows, [tr("card"), tr("strength"), tr("swords"), tr("forts"), tr("text")], fmt,
                   width)]
    bids = dict(private.bids or {})
    if private.wildlings is not None:
        bids["wildlings"] = private.wildlings
    out += [_heading(3, tr("Bids submitted"), fmt),
            _item(sep().join(f"{about(k) if speaker() else human(k)}: {v}"
                             for k, v in bids.items()), fmt, width)
            if bids else tr("none")]
    questions = []
    for p in pending:
        r = p.request
        if r.house != h:
            continue
        questions.append(_item(f"- {r.id}: {say_named(r.prompt)}"
                               + (tr(" ({reason})", reason=say(p.reason)) if p.reason else "")
                               + (tr(" (asked ahead: you may leave it for when its turn comes)")
                                  if p.ahead else ""), fmt, width))
        if r.options:  # in Chinese each id with its name beside it (option)
            questions.append(wrap("  " + tr("options: {options}", options=(
                ", " if speaker() is None else sep()).join(option(o) for o in r.options)),
                None if fmt == "markdown" else width, "    "))
        questions.append(_item("  " + tr("default: {value}", value=option(r.default)), fmt,
                               width))
    out += [_heading(3, tr("Your pending questions"), fmt), "\n".join(questions) or tr("none")]
    return "\n\n".join(out) + "\n"


def render_report(title: str, events: Sequence[Event], state: GameState, ruleset: Ruleset,
                  pending: Sequence[PendingDecision] = (), *, fmt: str = "markdown",
                  private: Private | None = None, width: int | None = None,
                  lang: str = "en") -> str:
    """The report of a run: events by phase (battles with their tables), then the board —
    or, when the run stopped, the decisions pending (ids only); ``private`` appends one
    house's own section. ``width`` (text only): lines wrapped and tables fitted to that many
    columns (the mail's 72). ``lang``: ``en`` (the default), ``zh-Hans`` or ``zh-Hant``
    (sentences from the catalogs, names from the glossary; ids, numbers and rule ids stay)."""
    if fmt not in FORMATS:
        raise ValueError(fmt)
    translator(lang)  # an unknown language is refused here
    with Names(ruleset, lang).speaking() as nm:
        return _render_report(title, events, state, ruleset, pending, fmt=fmt, private=private,
                              width=width, nm=nm)


def _render_report(title: str, events: Sequence[Event], state: GameState, ruleset: Ruleset,
                   pending: Sequence[PendingDecision], *, fmt: str, private: Private | None,
                   width: int | None, nm: Names) -> str:
    code = "`" if fmt == "markdown" else ""
    out = [_heading(1, title, fmt)]
    phase = None
    for event in events:
        if (event["round"], event["phase"]) != phase:
            phase = (event["round"], event["phase"])
            out.append("\n" + _heading(2, tr("Round {round} — {phase}", round=event["round"],
                                          phase=tr(PHASE_TITLES.get(str(event["phase"]),
                                                                    str(event["phase"])))),
                                       fmt) + "\n")
        out.append(_item(f"- {event_line(event, nm)}", fmt, width))
        if event["type"] == "orders_revealed":
            out.append("\n" + _orders_table(event, nm, fmt, width) + "\n")
        elif event["type"] == "battle":
            out.append("\n" + battle_table(event, nm, fmt, width) + "\n")
    if pending:
        out.append("\n" + _heading(2, tr("Stopped: decisions pending"), fmt) + "\n")
        for p in pending:
            if p.ahead:  # a question asked ahead goes to its house only (RUL-P1-4, RUL-4.6-1)
                continue
            out.append(_item(f"- {code}{p.request.id}{code} — "
                             + tr("{house} ({kind})", house=house(p.request.house),
                                  kind=decision_kind(p.request.kind)), fmt, width))
        out.append("\n" + wrap(tr("Everything above happened; the rest of the round follows once "
                                   "these are answered."), None if fmt == "markdown" else width, "")
                   + "\n")
    else:
        out.append("\n" + _heading(2, tr("After the run"), fmt) + "\n")
        out.append(board_tables(state, ruleset, fmt, width))
    if private is not None:
        out.append("\n" + private_section(private, state, ruleset, pending, fmt, width))
    text = "\n".join(out).rstrip() + "\n"
    return markdown_safe(text) if fmt == "markdown" else text


def markdown_safe(text: str) -> str:
    """``&`` and ``<`` as entities: no name from input (a ruleset's, an id) becomes HTML in a
    Markdown viewer. Reports use neither character themselves.

    >>> markdown_safe("<img src=x onerror=alert(1)> & co")
    '&lt;img src=x onerror=alert(1)> &amp; co'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;")


LOG_FORMAT = "agot-log/2"
"""Version 2 starts with a ``record`` line naming its maker; version 1 (agot 0.1.0) had none."""


def is_record_line(event: Any) -> bool:
    """Whether a log line is the ``record`` line naming the release that wrote the log (not
    an event of the game)."""
    return isinstance(event, dict) and event.get("type") == "record" and "written_by" in event


def render_log(events: Sequence[Event], maker: str | None = None) -> str:
    """JSON Lines: one event per line, keys in event order (fields: ``events.EVENT_FIELDS``).

    With ``maker`` the first line is ``{"type":"record","format":"agot-log/2","written_by":…}``.
    """
    head = [{"type": "record", "format": LOG_FORMAT, "written_by": maker}] if maker else []
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in [*head, *events])


def _flow(value: Any) -> str:
    """``value`` as one line of YAML (flow style), for a comment."""
    import yaml

    text: str = yaml.safe_dump(value, default_flow_style=True, width=4096, allow_unicode=True,
                               sort_keys=False)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def paste_value(pending: PendingDecision) -> Any:
    """The value of a decision in the paste-ready block: its documented default (docs/protocol.md
    P2), which is the no-op where one exists (no orders, keep the orders, no move, no target,
    nothing mustered), so that pasting the block unedited does only what ``--defaults`` would
    (RUL-P2-1)."""
    return pending.request.default


def pending_entry(pending: PendingDecision) -> dict[str, Any]:
    """A pending decision as ``pending.yaml`` lists it: keys, ids, options and defaults as
    they are (what the moderator pastes), the prompt and reason in the current language."""
    out = pending.to_dict()
    out["prompt"] = say_named(pending.request.prompt)
    if "reason" in out:
        out["reason"] = say(pending.reason)
    return out


def render_pending(pending: Sequence[PendingDecision]) -> str:
    """The pending decisions, then an ``answers:`` block ready to paste and fill in; prompts,
    reasons and comments in the current language (:meth:`Names.speaking`), keys and ids as
    they are.

    Each value is the documented default (:func:`paste_value`); an example that would act
    (a swap, a march, orders) is a ``# e.g.`` comment line above its entry (RUL-P2-1).
    """
    text = dump_yaml({"pending": [pending_entry(p) for p in pending]},
                     header=tr("{count} decision(s) pending: add answers to a submission file "
                               "and run again.", count=len(pending)))
    text += "\n" + dump_yaml({}, header=tr("paste into the moderator's answers file and edit: "
                                           "each value is the documented default\n(a no-op "
                                           "where one exists: pasted unedited it does what "
                                           "--defaults would); '# e.g.' shows an answer that "
                                           "acts.")).removesuffix("{}\n")
    return text + answers_block(pending)


def answers_block(pending: Sequence[PendingDecision]) -> str:
    """The ``answers:`` block ready to paste of ``pending`` (:func:`render_pending`; a house's
    mail holds the block of its own decisions only)."""
    lines = ["answers:"] if pending else ["answers: {}"]
    for p in pending:
        value = paste_value(p)
        example = p.request.example
        if example is not None and example != value:
            lines.append(f"  # {tr('e.g.')} {_flow(example)}")
        if value is None:  # written out: an empty value reads as a forgotten answer
            lines.append(f"  {p.request.id}: null")
            continue
        entry = dump_yaml({p.request.id: value}).rstrip("\n").split("\n")
        lines += ["  " + line for line in entry]
    return "\n".join(lines) + "\n"


def picture_links(fmt: str, links: Sequence[tuple[str, str]]) -> str:
    """What follows a report to name its pictures (``links``: label and file, the labels said
    in the speaker's language): Markdown images, or ``label: file`` lines in plain text
    (``mail/report.txt``, ``--format text``)."""
    if fmt == "markdown":
        return "".join(f"\n![{label}]({file})\n" for label, file in links)
    return "\n" + "".join(tr("{label}: {file}", label=label, file=file) + "\n"
                          for label, file in links)
