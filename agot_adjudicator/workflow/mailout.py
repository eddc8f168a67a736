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

from agot_adjudicator.io.formats import MAKER
from agot_adjudicator.model.ruleset import Ruleset
from agot_adjudicator.render.language import Names, house, tr
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
    private_section,
    render_report,
    report_title,
    wrap,
)
from agot_adjudicator.render.tables import columns
from agot_adjudicator.workflow.adjudicate import (
    BOARD_FILE,
    MOVES_FILE,
    NOW_PICTURE,
    Adjudication,
    Outputs,
    record_text,
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
            text += (f"\n{tr('{label}: {file}', label=tr('The round as played'), file=MOVES_FILE)}"
                     f"\n{tr('{label}: {file}', label=tr('The board after the round'), file=BOARD_FILE)}\n")
        elif out.now_picture is not None:
            text += f"\n{tr('{label}: {file}', label=tr('The board as it stands'), file=NOW_PICTURE)}\n"
    record = record_text(run, out.state, "text", maker, lang, ruleset)
    return text + "\n".join(wrap(line, WIDTH, "    ") for line in record.split("\n"))


def private_text(run: Adjudication, ruleset: Ruleset, house_id: str, lang: str = "en") -> str:
    """One house's private part of its message: hand, bids, its own pending decisions and
    its own ``answers:`` block (RUL-P2-1 defaults), in ``lang``."""
    with Names(ruleset, lang).speaking():
        return _private_text(run, ruleset, house_id)


def _private_text(run: Adjudication, ruleset: Ruleset, house_id: str) -> str:
    result = run.result
    mine = run.inputs.of(house_id)
    section = private_section(Private(house_id, mine.bids, mine.wildlings), result.state,
                              ruleset, result.pending, "text", WIDTH)
    own = [p for p in result.pending if p.request.house == house_id]
    if not own:
        return section
    head = tr("Your answers")
    intro = wrap(tr("Paste this block into your reply (with your house's submission) and edit "
                    "it: each value is the documented default, a no-op where one exists."),
                 WIDTH, "")
    block = "\n".join(wrap(line, WIDTH, "#   ") if line.lstrip().startswith("#") else line
                      for line in answers_block(own).split("\n"))
    return f"{section}\n{head}\n{'-' * columns(head)}\n\n{intro}\n\n{block}"


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
               wanted: Callable[[str], bool] | None = None) -> dict[str, str]:
    """The round's mail folder: ``{"mail/report.txt": …, "mail/HOUSE.txt": …,
    "mail/HOUSE.eml": …}`` for every house in play; ``addresses``: the ``To`` of each house
    (``players.yaml``; replay passes the recorded ones). ``lang``: the language of
    ``report.txt`` (the game's); ``languages``: each house's (``players.yaml``; replay passes
    the recorded ones), ``lang`` for a house without one; ``wanted``: make only the ``.eml``
    files it accepts (replay: those recorded)."""
    public = public_text(run, ruleset, out, maker, lang)
    files = {f"{MAIL_DIR}/{PUBLIC_TEXT}": public}
    publics = {lang: public}
    picture = attachment(out)
    state = run.result.state
    for h in state.order_of_play():
        mine = (languages or {}).get(h) or lang
        if mine not in publics:
            publics[mine] = public_text(run, ruleset, out, maker, mine)
        body = f"{publics[mine]}\n{private_text(run, ruleset, h, mine)}"
        if picture is not None:
            with Names(ruleset, mine).speaking():
                body += tr("\nAttached: {file}.\n", file=picture[0])
        title = subject(run, h, ruleset, mine)
        digest = content_digest(title, body, picture)
        files[f"{MAIL_DIR}/{h}.txt"] = body
        if wanted is not None and not wanted(f"{MAIL_DIR}/{h}.eml"):
            continue
        files[f"{MAIL_DIR}/{h}.eml"] = house_eml(
            subject=title, body=body, to=addresses.get(h), attachment=picture, digest=digest,
            msg_id=message_id(state.game_id, round_name, h, digest))
    return files
