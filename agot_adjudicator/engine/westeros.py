"""Westeros phase (R3): reveal the three cards, advance the threat, resolve I, II, III.

:func:`resolve_westeros_phase` runs when ``state.phase == "westeros"``. The
round marker was already advanced by the end of the previous round
(``round.end_of_round``), which also cleared ``restrictions`` and
``revealed``. Steps:

1. Reveal the top card of decks I, II and III, in that order (R3.1); every
   revealed card bearing the wildling icon advances the threat one step
   (``ruleset.threat_step``), never past ``ruleset.threat_max`` (R0.8).
2. Winter is Coming (R3.2): it is put back and its deck shuffled
   (``chance.shuffle`` with the state's shuffle counter, then the counter
   advances by one); the new top card is revealed in its place; repeat while
   Winter is Coming comes up. **Rulings:** this happens at once, while the
   cards are revealed, before any card resolves; a card revealed this way
   also advances the threat if it bears the icon ("every card drawn"); so
   does a Winter is Coming card itself if the ruleset gives it the icon.
3. ``state.revealed`` records the three cards; they resolve I, then II, then
   III, each going to the bottom of its deck once resolved (R3.1).

Cards: Last Days of Summer (nothing, R3.3); Supply (R3.4, :mod:`.supply`);
Mustering (R3.5, :mod:`.mustering`); Clash of Kings (R3.6, :mod:`.bidding`);
Wildling Attack (R3.7, :mod:`.wildlings`); Game of Thrones (R3.8: in order of
play, one power per crown icon in the areas a house controls, within the
pool and the 20 limit); Sea of Storms, Storm of Swords, Feast for Crows,
Rains of Autumn (R3.9–R3.12: the card id is added to ``state.restrictions``,
which the planning and battle rules read). The phase ends with
``state.phase = "planning"``.

Gathering decisions (docs/protocol.md P1): when a Supply or Mustering card (deck I)
stops on pending decisions, the later cards are still resolved on a scratch
copy (:func:`lookahead`) and their pending decisions are added to the same
mail round — the Clash of Kings bids and the wildling bids (never a tie-break, a
reward or a loss, which would tell who bid what before the reveal). Those cards
change only units on the board, never power, tracks, hands or control (a reduction
never empties an area; musters go to areas the house already controls or to sea), so the
later decisions ask the same question with the same options either way. Decisions that depend on units
(wildling losses) are not gathered; nothing the scratch run does is kept.

Events: ``westeros_card_revealed``, ``wildling_threat_advanced``,
``winter_is_coming``, ``deck_shuffled``, ``westeros_card_resolved``,
``westeros_card_to_bottom``, ``power_gained``, ``restriction``, and those of
the card modules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agot_adjudicator.engine import bidding, mustering, supply, wildlings
from agot_adjudicator.engine.board import crowns, gain_power, power_gain
from agot_adjudicator.engine.chance import shuffle
from agot_adjudicator.engine.context import Context, GameOver
from agot_adjudicator.engine.decisions import AnswerError, Pending, PendingDecision
from agot_adjudicator.errors import AgotError
from agot_adjudicator.model.ruleset import DECKS, Ruleset
from agot_adjudicator.model.state import RESTRICTIONS, GameState

WINTER_IS_COMING = "winter_is_coming"
UNITS_ONLY = ("supply", "mustering")
"""Cards whose decisions change only units: later cards' decisions can be gathered (lookahead)."""
UNIT_DEPENDENT = ("wildling_losses",)
"""Decision kinds whose question depends on the units on the board: never gathered ahead."""


def advance_threat(ctx: Context, deck: str, card: str) -> None:
    """One step of wildling threat for a revealed card with the icon, capped (R3.1, R0.8)."""
    s, rs = ctx.state, ctx.ruleset
    old = s.wildling_threat
    s.wildling_threat = min(old + rs.threat_step, rs.threat_max)
    ctx.emit("wildling_threat_advanced", "R3.1", deck=deck, card=card, old=old,
             new=s.wildling_threat, capped=s.wildling_threat < old + rs.threat_step)


def reveal(ctx: Context, deck: str) -> str:
    """Reveal the top card of ``deck`` (R3.1), replacing Winter is Coming (R3.2); return it."""
    s, rs = ctx.state, ctx.ruleset
    cards = s.decks[deck]
    if not cards:
        raise AgotError(f"Westeros deck {deck} is empty in the state")
    if all(c == WINTER_IS_COMING for c in cards):
        raise AgotError(f"Westeros deck {deck} holds only Winter is Coming: it cannot be resolved")
    while True:
        card = cards[0]
        icon = rs.deck_wildling(deck, card)
        ctx.emit("westeros_card_revealed", "R3.1", deck=deck, card=card, wildling=icon)
        if icon:
            advance_threat(ctx, deck, card)
        if card != WINTER_IS_COMING:
            return card
        ctx.emit("winter_is_coming", "R3.2", deck=deck)
        s.decks[deck] = cards = shuffle(cards, s.seed, s.shuffles, deck)
        ctx.emit("deck_shuffled", "R3.2", deck=deck, counter=s.shuffles)
        s.shuffles += 1


def game_of_thrones(ctx: Context) -> None:
    """R3.8: in order of play, each house gains one power per crown icon in areas it controls."""
    s, rs = ctx.state, ctx.ruleset
    for house in ctx.order_of_play():
        icons = crowns(s, rs, house)
        gained = gain_power(ctx, house, icons)
        ctx.emit("power_gained", "R3.8", house=house, icons=icons, gained=gained,
                 power=s.houses[house].power)


def most_power_at(state: GameState, ruleset: Ruleset, house: str, card: str) -> int:
    """The most available power ``house`` can hold when a ``card`` of this Westeros phase
    (``clash_of_kings``, ``wildling_attack``) takes its bids (R3.1, R7.1, R8.1): its power now,
    plus what a Game of Thrones would give it (R3.8, R10.1) when a deck before one that holds
    ``card`` holds one. Read from the decks' contents, never their order (the decks are
    secret); the power now in any other phase (no Westeros card comes before the bids).

    >>> from agot_adjudicator.io.rulesets import load_ruleset
    >>> from agot_adjudicator.engine.setup import new_game
    >>> rs = load_ruleset()
    >>> s = new_game(rs, list(rs.houses), 1, "t")
    >>> s.round, s.phase = 2, "westeros"
    >>> most_power_at(s, rs, "stark", "wildling_attack"), most_power_at(s, rs, "stark", "clash_of_kings")
    (6, 5)
    """
    power = state.houses[house].power
    if state.phase != "westeros":
        return power
    decks = list(ruleset.decks)
    holding = [i for i, d in enumerate(decks) if any(c.card == card for c in ruleset.decks[d])]
    before = decks[:holding[-1]] if holding else []
    if not any(c.card == "game_of_thrones" for d in before for c in ruleset.decks[d]):
        return power
    return power + power_gain(state, ruleset, house, crowns(state, ruleset, house))


def last_days_of_summer(ctx: Context) -> None:
    """R3.3: nothing happens."""


def _restriction(card: str, rule: str) -> Callable[[Context], None]:
    def apply(ctx: Context) -> None:
        if card not in ctx.state.restrictions:
            ctx.state.restrictions.append(card)
        ctx.emit("restriction", rule, card=card)
    apply.__doc__ = f"{rule}: {card.replace('_', ' ')} restricts this round."
    return apply


CARD_RULES = {
    "last_days_of_summer": "R3.3",
    "supply": "R3.4",
    "mustering": "R3.5",
    "clash_of_kings": "R3.6",
    "wildling_attack": "R3.7",
    "game_of_thrones": "R3.8",
    **{card: r.rule for card, r in RESTRICTIONS.items()},
}
"""The rule each Westeros card follows."""

HANDLERS: dict[str, Callable[[Context], None]] = {
    "last_days_of_summer": last_days_of_summer,
    "supply": supply.resolve_supply,
    "mustering": mustering.resolve_mustering,
    "clash_of_kings": bidding.resolve_clash_of_kings,
    "wildling_attack": wildlings.resolve_wildling_attack,
    "game_of_thrones": game_of_thrones,
    **{card: _restriction(card, CARD_RULES[card]) for card in RESTRICTIONS},
}


def resolve_card(ctx: Context, deck: str, card: str) -> None:
    """Resolve one revealed card (R3.3–R3.12), then put it at the bottom of its deck (R3.1)."""
    handler = HANDLERS.get(card)
    if handler is None:
        raise AgotError(f"Westeros deck {deck}: unknown card '{card}'")
    ctx.emit("westeros_card_resolved", CARD_RULES[card], deck=deck, card=card)
    handler(ctx)
    cards = ctx.state.decks[deck]
    assert cards[0] == card, (deck, cards[0], card)
    cards.append(cards.pop(0))
    ctx.emit("westeros_card_to_bottom", "R3.1", deck=deck, card=card)


BID_DEPENDENT = ("tie_break", "wildling_reward", "wildling_losses")
"""Decision kinds that exist only because of bids: never gathered ahead of the bids' reveal,
as their question would tell the deciding house who bid what (RUL-3.4-4, RUL-P7-4)."""


def lookahead(ctx: Context, decks: Sequence[str]) -> list[PendingDecision]:
    """Pending decisions of the cards of ``decks`` that the blocked units-only card cannot change.

    Resolves those cards on a scratch copy of the state and decider (nothing is
    kept); stops at the first card that stops. Decisions of a kind in
    ``UNIT_DEPENDENT`` or ``BID_DEPENDENT`` are dropped (the bids they follow are not
    revealed yet); an illegal direct answer or a win met on the scratch board is left for
    the real run to report.
    """
    scratch = Context(ctx.ruleset, ctx.state.copy(), ctx.inputs,
                      ctx.decider.scratch())
    for deck in decks:
        try:
            resolve_card(scratch, deck, scratch.state.revealed[deck])
        except Pending as pending:
            return [d for d in pending.decisions
                    if d.request.kind not in (*UNIT_DEPENDENT, *BID_DEPENDENT)]
        except (AnswerError, GameOver):
            return []
    return []


def resolve_westeros_phase(ctx: Context) -> None:
    """Resolve the Westeros phase of the current round, then move to planning (R3).

    Round 1 has none (R2.1): from a round-1 state in this phase it only moves on.
    A Supply or Mustering card that stops gathers the later cards' independent
    decisions (:func:`lookahead`).
    """
    s = ctx.state
    if s.round <= ctx.ruleset.start_round:
        ctx.emit("westeros_phase_skipped", "R2.1")
        s.phase = "planning"
        return
    ctx.emit("westeros_phase", "R3.1", threat=s.wildling_threat)
    s.revealed = {}
    for deck in DECKS:
        s.revealed[deck] = reveal(ctx, deck)
    for i, deck in enumerate(DECKS):
        try:
            resolve_card(ctx, deck, s.revealed[deck])
        except Pending as pending:
            if s.revealed[deck] not in UNITS_ONLY:
                raise
            raise Pending([*pending.decisions, *lookahead(ctx, DECKS[i + 1:])]) from None
    s.phase = "planning"
