"""Mail out (docs/protocol.md P4, docs/formats.md *Mail*): what ``agot adjudicate --game``
writes for the players with every run of a round, complete or stopped.

``round-NN/mail/report.txt`` is the public report as plain text wrapped at 72 columns (the
same events as report.md, rendered as text, never parsed back from Markdown).
``mail/HOUSE.txt`` is one house's message: the public text, then that house's private part —
its hand, its submitted bids, its own pending decisions with their options and defaults, and
the ``answers:`` block of its own decisions ready to paste — and nothing of another house's.
``mail/HOUSE.eml`` is the same text as a message ready to send, the board picture attached
(``board.svg`` after a complete round, ``now.svg`` at a stop).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agot_adjudicator.io.formats import MAKER
from agot_adjudicator.model.naming import NameIndex, name_index
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.language import Names, house, sep, tr
from agot_adjudicator.render.mail import (
    MAIL_DIR,
    PUBLIC_TEXT,
    WIDTH,
    content_digest,
    house_eml,
    message_id,
)
from agot_adjudicator.render.report import (
    Private,
    answers_block,
    picture_links,
    private_section,
    render_report,
    report_title,
    wrap,
)
from agot_adjudicator.render.tables import columns
from agot_adjudicator.workflow.adjudicate import (
    BOARD_FILE,
    NOW_PICTURE,
    Adjudication,
    Outputs,
    record_text,
    round_pictures,
)


def public_text(run: Adjudication, ruleset: Ruleset, out: Outputs, maker: str = MAKER,
                lang: str = "en") -> str:
    """The public report as plain text wrapped at :data:`WIDTH` columns (``mail/report.txt``),
    in ``lang``."""
    result = run.result
    with Names(ruleset, lang).speaking():
        title = report_title(result.state.game_id, run.state_doc.data["round"])
        text = render_report(title, result.events, result.state, ruleset, result.pending,
                             fmt="text", width=WIDTH, lang=lang)
        if out.state is not None and out.board is not None:
            text += picture_links("text", round_pictures())
        elif out.now_picture is not None:
            text += picture_links("text", [(tr("The board as it stands"), NOW_PICTURE)])
    record = record_text(run, out.state, "text", maker, lang, ruleset)
    return text + "\n".join(wrap(line, WIDTH, "    ") for line in record.split("\n"))


def private_text(run: Adjudication, ruleset: Ruleset, house_id: str, lang: str = "en",
                 names: NameIndex | None = None, board: bool = False) -> str:
    """One house's private part of its message: hand, bids, its own pending decisions and
    its own ``answers:`` block (RUL-P2-1 defaults), in ``lang``. ``names``: the ruleset's
    :func:`~agot_adjudicator.model.naming.name_index`, when the caller has made it; with
    ``board``, the board in words first (issue 30: its ★ allowance and the round's
    restrictions)."""
    with Names(ruleset, lang).speaking():
        text = _private_text(run, ruleset, house_id, names)
        if not board:
            return text
        from agot_adjudicator.render.board_text import board_text

        return f"{board_text(run.result.state, ruleset, house_id, WIDTH)}\n{text}"


def house_bids(run: Adjudication, house_id: str) -> tuple[dict[str, int], int | None]:
    """A house's bids of the round as its mail shows them (its own, never another's): each
    bid the run took (from the ``bids:`` section, a plan or a direct answer), else the one
    submitted and not yet taken."""
    mine = run.inputs.of(house_id)
    bids = dict(mine.bids or {})
    wildlings = mine.wildlings
    for r in run.result.resolved:
        if r.house != house_id or r.kind != "bid":
            continue
        if "/wildlings/" in r.id:
            wildlings = r.value
        else:
            bids[r.id.split("/clash_of_kings/")[-1].split("/")[0]] = r.value
    return bids, wildlings


def stored_lines(run: Adjudication, ruleset: Ruleset, house_id: str,
                 names: NameIndex | None = None) -> list[str]:
    """What agot holds from the house for the round (its merged submission and its answers),
    one sentence each (``names``: the ruleset's name index, made here if not given)."""
    from agot_adjudicator.render.receipt import echo_lines

    if run.subs is None:
        return []
    section = run.subs.sections.get(house_id)
    data: dict[str, Any] = {}
    if section is not None:
        data = {k: v for k, v in (("orders", section.orders), ("bids", section.bids),
                                  ("wildlings", section.wildlings),
                                  ("plans", dict(section.plans))) if v}
    answers = {a.id: a.value for a in run.subs.answers.values() if a.house == house_id}
    if answers:
        data["answers"] = answers
    return echo_lines(data, names or name_index(ruleset))


def _private_text(run: Adjudication, ruleset: Ruleset, house_id: str,
                  names: NameIndex | None = None) -> str:
    result = run.result
    bids, wildlings = house_bids(run, house_id)
    section = private_section(Private(house_id, bids, wildlings), result.state,
                              ruleset, result.pending, "text", WIDTH)
    held = stored_lines(run, ruleset, house_id, names)
    if held:
        head = tr("What agot holds from you this round")
        section += f"\n{head}\n{'-' * columns(head)}\n\n" + "\n".join(
            wrap(f"- {line}", WIDTH, "  ") for line in held) + "\n"
    own = [p for p in result.pending if p.request.house == house_id]
    if not own:
        return section
    head = tr("Your answers")
    intro = wrap(tr("Reply with this block, edited: each value is the documented default, a "
                    "no-op where one exists. Put your house's secret in place of YOUR-SECRET "
                    "(or delete that line if the game has none). What you sent before stands: "
                    "a reply replaces only what it carries."), WIDTH, "")
    reply = (f"format: agot-orders/1\nround: {run.state_doc.data['round']}\nhouse: {house_id}\n"
             f"secret: {SECRET_PLACEHOLDER}\n")
    block = "\n".join(wrap(line, WIDTH, "#   ") if line.lstrip().startswith("#") else line
                      for line in (reply + answers_block(own)).split("\n"))
    return f"{section}\n{head}\n{'-' * columns(head)}\n\n{intro}\n\n{block}"


SECRET_PLACEHOLDER = "YOUR-SECRET"
"""The secret line of a mail's reply block: the player writes the house's secret there."""


def attachment(out: Outputs) -> tuple[str, str] | None:
    """The picture a round's messages carry: the board after a complete round, the board as
    it stands at a stop."""
    if out.state is not None:
        return (BOARD_FILE, out.board) if out.board is not None else None
    return (NOW_PICTURE, out.now_picture) if out.now_picture is not None else None


def subject(run: Adjudication, house_id: str, ruleset: Ruleset | None = None,
            lang: str = "en") -> str:
    """``agot GAME: round N report (House)``, or at a stop whether the house owes answers."""
    if ruleset is not None and lang != "en":
        with Names(ruleset, lang).speaking():
            return subject(run, house_id)
    result = run.result
    fields = dict(game=result.state.game_id, round=run.state_doc.data["round"],
                  house=house(house_id))
    if not result.pending:
        return tr("agot {game}: round {round} report ({house})", **fields)
    if any(p.request.house == house_id for p in result.pending):
        return tr("agot {game}: round {round} stopped, your answers needed ({house})", **fields)
    return tr("agot {game}: round {round} stopped, waiting for other houses ({house})", **fields)


def mail_files(run: Adjudication, ruleset: Ruleset, out: Outputs, round_name: str,
               addresses: Mapping[str, str | None], maker: str = MAKER, lang: str = "en",
               languages: Mapping[str, str] | None = None,
               wanted: Callable[[str], bool] | None = None,
               views: Mapping[str, str] | None = None) -> dict[str, str]:
    """The round's mail folder: ``{"mail/report.txt": …, "mail/HOUSE.txt": …,
    "mail/HOUSE.eml": …}`` for every house in play; ``addresses``: the ``To`` of each house
    (``players.yaml``; replay passes the recorded ones). ``lang``: the language of
    ``report.txt`` (the game's); ``languages``: each house's (``players.yaml``; replay passes
    the recorded ones), ``lang`` for a house without one; ``wanted``: make only the ``.eml``
    files it accepts (replay: those recorded); ``views``: each house's view (``agot-view/1``,
    RUL-P7-5), written as ``mail/HOUSE.view.yaml`` and attached to its message."""
    from agot_adjudicator.workflow.kit import view_file

    public = public_text(run, ruleset, out, maker, lang)
    files = {f"{MAIL_DIR}/{PUBLIC_TEXT}": public}
    publics = {lang: public}
    picture = attachment(out)
    state = run.result.state
    names = name_index(ruleset)  # once for every house's text
    for h in state.order_of_play():
        mine = (languages or {}).get(h) or lang
        if mine not in publics:
            publics[mine] = public_text(run, ruleset, out, maker, mine)
        view = (views or {}).get(h)
        body = f"{publics[mine]}\n{private_text(run, ruleset, h, mine, names, view is not None)}"
        attached = [view_file(h)] if view is not None else []
        with Names(ruleset, mine).speaking():
            if view is not None:
                body += "\n" + wrap(tr(
                    "Your house's view of the board is attached ({file}): with agot "
                    "installed, `agot template {file}` writes the skeleton for it and `agot "
                    "validate {file} ORDERS` gives the verdict the moderator's agot will "
                    "give, before you send.", file=view_file(h)), WIDTH, "") + "\n"
            if picture is not None or attached:
                shown = [picture[0]] if picture is not None else []
                body += tr("\nAttached: {file}.\n", file=sep().join([*shown, *attached]))
        extra = [(view_file(h), view)] if view is not None else []
        files[f"{MAIL_DIR}/{h}.txt"] = body
        if view is not None:
            files[f"{MAIL_DIR}/{view_file(h)}"] = view
        if wanted is not None and not wanted(f"{MAIL_DIR}/{h}.eml"):
            continue  # no .eml: its subject and digest are not needed (issue 33)
        title = subject(run, h, ruleset, mine)
        digest = content_digest(title, body, picture, extra)
        files[f"{MAIL_DIR}/{h}.eml"] = house_eml(
            subject=title, body=body, to=addresses.get(h), attachment=picture, digest=digest,
            msg_id=message_id(state.game_id, round_name, h, digest), files=extra)
    return files
