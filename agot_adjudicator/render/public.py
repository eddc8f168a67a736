"""Views of moderator-only outputs that may be published (docs/protocol.md P7).

A *view* is ``None`` (the moderator's: everything), ``PUBLIC`` (what every house may
see) or a house id (public, plus that house's own hand and pending questions).

- :func:`view_changes` filters the changes of ``agot diff`` and ``agot whatif``: the
  seed, the Westeros decks (their order is the secret; the cards revealed stay), the
  hash chain and a provisional state's source hash are left out; a hand is shown as its
  size, except the viewing house's own.
- :func:`pending_view_text` is the pending list of a stopped run for a view: every
  decision by id, house and kind (as the public report lists them); prompts, options,
  defaults and examples only for the viewing house's own decisions.
"""

from __future__ import annotations

from collections.abc import Sequence

from agot_adjudicator.engine.decisions import PendingDecision
from agot_adjudicator.io.writing import dump_yaml
from agot_adjudicator.model.text import Msg
from agot_adjudicator.render.diff import Change, view_label
from agot_adjudicator.render.language import tr
from agot_adjudicator.render.report import pending_entry

PUBLIC = "public"
"""The view every house may see."""

SECRET_PATHS = ("game.seed", "westeros.decks", "chain", "provisional.state_in")
"""State paths never shown in a public or house view (with everything under them)."""


def _under(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def _hand_of(path: str) -> str | None:
    """``houses.stark.hand`` (or one of its items) → ``stark``."""
    parts = path.split(".")
    if len(parts) >= 3 and parts[0] == "houses" and parts[2].split("[")[0] == "hand":
        return parts[1]
    return None


def view_changes(changes: Sequence[Change], view: str | None) -> list[Change]:
    """The changes ``view`` may see (see the module doc); all of them for the moderator."""
    if view is None:
        return list(changes)
    out: list[Change] = []
    for change in changes:
        if any(_under(p, change.path) for p in SECRET_PATHS):
            continue
        owner = _hand_of(change.path)
        if owner is not None and owner != view:
            before = len(change.before) if isinstance(change.before, list) else None
            after = len(change.after) if isinstance(change.after, list) else None
            if before != after and before is not None and after is not None:
                path = f"houses.{owner}.hand"
                out.append(Change(change.group, path, before, after,
                                  Msg("houses.{house}.hand: {before} → {after} cards",
                                      house=owner, before=before, after=after)))
            continue
        out.append(change)
    return out


def pending_view_text(pending: Sequence[PendingDecision], view: str) -> str:
    """A stopped run's pending decisions for a public or house view (see the module doc)."""
    entries = []
    for p in pending:
        r = p.request
        if r.house == view:
            entries.append(pending_entry(p))
        else:
            entries.append({"id": r.id, "house": r.house, "kind": r.kind})
    header = tr("{count} decision(s) pending ({view}: other houses' decisions by id and kind "
                "only).", count=len(pending), view=view_label(view))
    return dump_yaml({"pending": entries}, header=header)
