"""The rule index of `../shared/rules/RULES.md` (R0–R13): every rule a scenario can cite.

`agot conformance` reports which of these the suite covers; a test keeps it complete.
"""

from __future__ import annotations

RULES: tuple[tuple[str, str], ...] = (
    ("R0.1", "Houses"),
    ("R0.2", "Order tokens"),
    ("R0.3", "Power tokens (20 per house)"),
    ("R0.4", "Unit limits"),
    ("R0.5", "House cards, influence and supply tokens"),
    ("R0.6", "Neutral force tokens"),
    ("R0.7", "Special tokens"),
    ("R0.8", "Wildling threat track"),
    ("R0.9", "Ten rounds"),
    ("R1.1", "Setup: neutral forces, threat, round"),
    ("R1.2", "Setup: each house"),
    ("R1.3", "Setup: Westeros decks shuffled"),
    ("R1.4", "Setup: holders of the special tokens"),
    ("R1.5", "Setup: 3 and 4 players"),
    ("R2.1", "The round's phases"),
    ("R2.2", "End of the game"),
    ("R2.3", "Order of play"),
    ("R3.1", "Westeros phase steps"),
    ("R3.2", "Winter is Coming"),
    ("R3.3", "Last Days of Summer"),
    ("R3.4", "Supply"),
    ("R3.5", "Mustering"),
    ("R3.6", "Clash of Kings"),
    ("R3.7", "Wildling Attack"),
    ("R3.8", "Game of Thrones"),
    ("R3.9", "Sea of Storms"),
    ("R3.10", "Storm of Swords"),
    ("R3.11", "Feast for Crows"),
    ("R3.12", "Rains of Autumn"),
    ("R4.1", "Placing orders"),
    ("R4.2", "Special (★) order allowance"),
    ("R4.3", "Consolidate Power only on land"),
    ("R4.4", "Orders a house does not hold"),
    ("R4.5", "Orders revealed at once"),
    ("R4.6", "Messenger Raven"),
    ("R5.1", "Action phase steps"),
    ("R5.2", "Raids"),
    ("R5.3", "Marches"),
    ("R5.4", "Ship transport"),
    ("R5.5", "Control and power tokens"),
    ("R5.6", "Home areas"),
    ("R5.7", "Neutral forces"),
    ("R5.8", "Golden rule of supply"),
    ("R5.9", "Consolidate Power"),
    ("R5.10", "End of the Action phase"),
    ("R6.1", "Attacker and defender"),
    ("R6.2", "Battle step 1: support"),
    ("R6.3", "Battle step 2: strength"),
    ("R6.4", "Battle step 3: house cards"),
    ("R6.5", "Battle step 4: Valyrian Steel Blade"),
    ("R6.6", "Battle step 5: the winner, ties"),
    ("R6.7", "Casualties"),
    ("R6.8", "Retreat of the attacker"),
    ("R6.9", "Retreat of the defender"),
    ("R6.10", "Routed units"),
    ("R6.11", "The attacker occupies the area"),
    ("R6.12", "House cards discarded and recycled"),
    ("R6.13", "The march is complete"),
    ("R7.1", "Bidding: sealed bids"),
    ("R7.2", "Bidding: ties"),
    ("R7.3", "Bidding: power to the pool"),
    ("R8.1", "Wildling bids"),
    ("R8.2", "Wildling strength"),
    ("R8.3", "Night's Watch victory"),
    ("R8.4", "Wildling victory"),
    ("R8.5", "Wildling bids to the pool"),
    ("R9.1", "Armies"),
    ("R9.2", "Supply limits"),
    ("R9.3", "When the supply level changes"),
    ("R10.1", "Power gains stop at 20"),
    ("R10.2", "Available power is public"),
    ("R11.1", "Winner after round 10"),
    ("R11.2", "Instant win"),
    ("R12.1", "Houses in 3- and 4-player games"),
    ("R12.2", "Starting units of absent houses"),
    ("R12.3", "Tracks without absent houses"),
    ("R12.4", "No supply token for absent houses"),
    ("R13.1", "Control of an area"),
)

RULE_IDS: tuple[str, ...] = tuple(rule for rule, _ in RULES)


def rule_key(rule: str) -> tuple[int, ...]:
    """Sort key: ``R6.10`` after ``R6.9``.

    >>> sorted(["R6.10", "R6.9", "R10.1"], key=rule_key)
    ['R6.9', 'R6.10', 'R10.1']
    """
    return tuple(int(part) for part in rule.lstrip("R").split("."))


def covered_rule(cited: str) -> str | None:
    """The indexed rule a citation pins: ``R5.2`` → ``R5.2``; ``R6`` → ``None`` (a whole section).

    >>> covered_rule("R6.4"), covered_rule("R6")
    ('R6.4', None)
    """
    return cited if cited in RULE_IDS else None
