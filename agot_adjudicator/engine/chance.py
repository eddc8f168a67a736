"""The only randomness in agot: shuffling Westeros decks from the game seed (docs/protocol.md P3).

Algorithm (version- and platform-independent, documented in agot(1)):
Fisher–Yates from the last position down. For position ``i`` (n−1 … 1) the
swap index ``j`` is drawn from ``SHA-256("{seed}:{counter}:{deck}:{i}:{k}")``:
the first 8 bytes as a big-endian integer ``v``; if ``v`` falls in the biased
tail (``v >= 2**64 - 2**64 % (i+1)``) it is redrawn with ``k + 1``, else
``j = v % (i+1)``. ``counter`` is the state's ``westeros.shuffles``, advanced
by one per shuffle, so every shuffle of a game is different and reproducible.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def draw_index(seed: int, counter: int, deck: str, i: int) -> int:
    """Uniform index in ``0..i`` for Fisher–Yates position ``i``.

    >>> draw_index(1, 0, "I", 9) == draw_index(1, 0, "I", 9)
    True
    """
    bound = i + 1
    limit = 2**64 - (2**64 % bound)
    k = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{counter}:{deck}:{i}:{k}".encode("ascii")).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % bound
        k += 1


def shuffle(cards: Sequence[str], seed: int, counter: int, deck: str) -> list[str]:
    """Return a shuffled copy of ``cards`` (the input is not changed).

    >>> shuffle(["a", "b", "c", "d"], 1, 0, "I")
    ['d', 'c', 'a', 'b']
    """
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = draw_index(seed, counter, deck, i)
        out[i], out[j] = out[j], out[i]
    return out


def default_game_id(seed: int) -> str:
    """The game id ``agot new`` records when none is given: ``game-`` and 8 hex digits of
    SHA-256(``agot-game-id:<seed>``). Never the seed itself, which stays secret until
    ``agot reveal`` while the game id is printed in every report (docs/protocol.md P7).

    >>> default_game_id(1)
    'game-e1f12bcb'
    """
    return "game-" + hashlib.sha256(f"agot-game-id:{seed}".encode()).hexdigest()[:8]


def seed_commitment(seed: int, game_id: str) -> str:
    """SHA-256 commitment to the seed, published at game start (revealed at the end)."""
    return hashlib.sha256(f"agot-seed:{game_id}:{seed}".encode()).hexdigest()
