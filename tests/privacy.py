"""What is secret at a moment of a game, and a checker that no public text carries it
(docs/protocol.md P7, issue 15.6). Reusable: ``assert_no_secrets(text, secrets, where)``.

Texts and secrets are compared as *token sequences*: lower case, every run of characters
other than ``a-z`` and ``0-9`` is one separator, so ``Eddard Stark``, ``eddard_stark`` and
``"eddard-stark"`` are the same, and YAML, JSON, Markdown and SVG renderings of the same
value match. A secret matches only on whole tokens (``12`` does not match inside ``112``).

What is secret at a moment (the board as it stands, with the submissions and the public
record so far) — :func:`secrets_now`:

- **seed**: the game seed (decimal), until ``agot reveal`` (never in these tests);
- **deck order**: the next cards of each Westeros deck, as the sequence of its top three
  (or two) card ids; the cards themselves are public words (revealed cards are named);
- **hand**: each card in a house's hand that the public record (every event logged so far)
  never named. A card once played, discarded or returned is public; what stays secret is a
  card never shown, so a text naming one has shown (part of) a hand;
- **orders**: a house's submitted ``orders:`` mapping until this round's orders are revealed;
- **bids**: a house's submitted ``bids:`` (its tracks in sequence, then ``wildlings:``)
  until that bidding is revealed; a lone wildling bid (two tokens, ``wildlings 2``) is too
  common a phrase to check;
- **plans**: each submitted ``plans`` entry (key and value), always (never revealed as such);
- **answers**: each direct answer as ``ID VALUE`` (the id followed by its value), always;
- **pending**: each pending decision's prompt and its option list (of two or more).

A submitted value (orders, bids, plan, answer) equal to what a public tool prints anyway at
that moment (an ``agot template`` example: a documented default, the track order) tells
nothing and is left out (:func:`drop_public`).

Each secret but the seed and the decks belongs to a house: that house's own view may
carry it. A secret of fewer than :data:`MIN_TOKENS` tokens is not checked (too common a
phrase to tell a leak), except a card, a deck sequence and the seed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MIN_TOKENS = 3
_SEP = re.compile(r"[^a-z0-9]+")


def tokens(text: str) -> str:
    """``"Eddard Stark, Ser Rodrik"`` → ``eddard_stark_ser_rodrik``."""
    return _SEP.sub("_", text.lower()).strip("_")


def value_tokens(value: Any, null: str = "null") -> str:
    """A plain value (map, list, scalar) as tokens, keys and items in their order; ``null``:
    the tokens of None (YAML may write nothing)."""
    if isinstance(value, Mapping):
        return "_".join(filter(None, (f"{tokens(str(k))}_{value_tokens(v, null)}".strip("_")
                                      for k, v in value.items())))
    if isinstance(value, list | tuple):
        return "_".join(filter(None, (value_tokens(v, null) for v in value)))
    if value is None:
        return null
    if isinstance(value, bool):
        return "true" if value else "false"
    return tokens(str(value))


@dataclass(frozen=True)
class Secret:
    """One secret value: what it is, whose (None: the moderator's), and its token forms."""

    kind: str
    house: str | None
    label: str
    forms: tuple[str, ...]


@dataclass(frozen=True)
class Leak:
    secret: Secret
    form: str
    excerpt: str


def find_secrets(text: str, secrets: Iterable[Secret]) -> list[Leak]:
    """Every secret that occurs in ``text`` on whole tokens."""
    norm = "_" + tokens(text) + "_"
    leaks = []
    for secret in secrets:
        for form in secret.forms:
            at = norm.find("_" + form + "_") if form else -1
            if at >= 0:
                leaks.append(Leak(secret, form, norm[max(0, at - 60): at + len(form) + 60]))
                break
    return leaks


def assert_no_secrets(text: str, secrets: Iterable[Secret], where: str) -> None:
    """Fail, naming ``where`` and each secret found with its context, if ``text`` carries one."""
    leaks = find_secrets(text, secrets)
    if leaks:
        lines = [f"{where}: {len(leaks)} secret(s) in a public output:"]
        lines += [f"  {leak.secret.kind} of {leak.secret.house or 'the moderator'} "
                  f"({leak.secret.label}): …{leak.excerpt}…" for leak in leaks[:10]]
        raise AssertionError("\n".join(lines))


def not_of(secrets: Iterable[Secret], house: str) -> list[Secret]:
    """The secrets ``house``'s own view may not carry: every one but its own."""
    return [s for s in secrets if s.house != house]


def forms_of(value: Any) -> tuple[str, ...]:
    """The token forms of a value: None written as ``null`` (JSON) and as nothing (YAML)."""
    return tuple(f for f in dict.fromkeys((value_tokens(value), value_tokens(value, "")))
                 if _long(f))


def _long(form: str) -> bool:
    return form.count("_") + 1 >= MIN_TOKENS


def public_words(events: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every text value named by the public record (events, recursively)."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                out.add(str(k))
                walk(v)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)
    for event in events:
        walk(event)
    return out


def secrets_now(state: Any, ruleset: Any, *, events: Sequence[Mapping[str, Any]],
                round_events: Sequence[Mapping[str, Any]],
                submissions: Sequence[Mapping[str, Any]] = (),
                pending: Sequence[Any] = ()) -> list[Secret]:
    """The secrets of the moment (see the module doc). ``state``: the board as it stands
    (a ``GameState``); ``events``: every event logged so far in the game (the public
    record), ``round_events`` those of the current round; ``submissions``: the current
    round's submission documents (plain data); ``pending``: the ``PendingDecision`` list."""
    out = [Secret("seed", None, f"seed {state.seed}", (tokens(str(state.seed)),))]
    for deck, cards in state.decks.items():
        if len(cards) >= 2:
            top = cards[:3]
            out.append(Secret("deck order", None, f"deck {deck} top {', '.join(top)}",
                              (tokens(" ".join(top)),)))
    named = public_words(events)
    for house, hs in state.houses.items():
        for card in hs.hand:
            if card not in named:
                name = ruleset.house_cards[card].name
                out.append(Secret("hand", house, card,
                                  tuple(dict.fromkeys((tokens(card), tokens(name))))))
    revealed = {e["type"] for e in round_events}
    bids_revealed = {e.get("about") for e in round_events if e["type"] == "bids_revealed"}
    for doc in submissions:
        house = doc.get("house")
        if "orders" in doc and "orders_revealed" not in revealed and doc["orders"]:
            out.append(Secret("orders", house, "orders", forms_of({"orders": doc["orders"]})))
        bids = doc.get("bids") or {}
        hidden = {t: v for t, v in bids.items() if f"clash_of_kings/{t}" not in bids_revealed}
        if doc.get("wildlings") is not None and "wildlings" not in bids_revealed:
            hidden["wildlings"] = doc["wildlings"]
        forms = [value_tokens(hidden), value_tokens({k: v for k, v in hidden.items()
                                                     if k != "wildlings"})]
        forms = [f for f in dict.fromkeys(forms) if _long(f)]
        if forms:
            out.append(Secret("bids", house, f"bids {hidden}", tuple(forms)))
        for key, plan in (doc.get("plans") or {}).items():
            forms = forms_of({key: plan})
            if plan and forms:
                out.append(Secret("plan", house, f"plans.{key}", forms))
        for answer_id, value in (doc.get("answers") or {}).items():
            forms = forms_of({answer_id: value})
            if forms:
                out.append(Secret("answer", answer_id.rsplit("/", 1)[-1], answer_id, forms))
    for p in pending:
        r = p.request
        if len(r.options) >= 2 and r.kind != "bid":  # a bid's 0..power: power is public
            form = "options_" + value_tokens(list(r.options))
            out.append(Secret("options", r.house, f"options of {r.id}", (form,)))
        prompt = tokens(r.prompt)
        if prompt.count("_") + 1 >= 6:
            out.append(Secret("prompt", r.house, f"prompt of {r.id}", (prompt,)))
        if p.ahead:  # a question asked ahead: its very existence is the deciding house's (P7)
            out.append(Secret("asked ahead", r.house, f"id of {r.id}", (tokens(r.id),)))
    return out


BASELINE_KINDS = ("orders", "bids", "plan", "answer")


def drop_public(secrets: Iterable[Secret], baseline: str) -> list[Secret]:
    """The secrets less the submitted values that a public tool prints anyway at this moment
    (``baseline``: e.g. every house's ``agot template``, whose examples are the documented
    defaults and the public track order): a plan equal to them tells nothing."""
    return [s for s in secrets if s.kind not in BASELINE_KINDS or not find_secrets(baseline, [s])]


def json_events(text: str) -> list[dict[str, Any]]:
    """The events of a ``log.jsonl`` text (its record line left out)."""
    events = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [e for e in events if not (e.get("type") == "record" and "written_by" in e)]


def without_own_submission(mail: str) -> str:
    """A house's mail less the echo of what the house itself sent (its own plans may name any
    card or area: that tells it nothing it did not write)."""
    head = "What agot holds from you this round"
    if head not in mail:
        return mail
    before, after = mail.split(head, 1)
    rest = after.split("\nYour answers\n", 1)
    return before + ("\nYour answers\n" + rest[1] if len(rest) == 2 else "")
