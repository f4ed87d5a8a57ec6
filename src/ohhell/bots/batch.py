"""Many uniformly random hands played at once with numpy: the vectorised half of the fast path.

Seats' cards are ``uint64`` masks (card ints as in :mod:`ohhell.bots.fast`), one array element
per game, so each play is a few array operations for every game at once: several times
OpenSpiel's C++ loop, and the way to play random hands in bulk where numba is not installed
(:func:`ohhell.bots.compiled.random_hands`, compiled, is about three times as fast;
``benchmarks/fast_path_throughput.py`` measures the three). The search bot does not use it.
Unchecked, and kept honest by
``tests/bots/test_fast_path.py``, a differential test against :func:`ohhell.engine.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ohhell.bots.fast import SUIT_MASKS

__all__ = ["BatchResult", "random_hands"]

_ONE: Final = np.uint64(1)


@dataclass(frozen=True, slots=True)
class BatchResult:
    """Many random hands played at once (``G`` games, ``n`` seats, ``h`` cards each)."""

    hands: npt.NDArray[np.int64]
    """(G, n, h): the cards dealt to each seat."""
    trump: npt.NDArray[np.int64]
    """(G,): the turned card, or -1 when no trump is turned."""
    dealer: npt.NDArray[np.int64]
    """(G,): each game's dealer; the seat on its left bids first and leads."""
    bids: npt.NDArray[np.int64]
    """(G, n): the bids, by seat."""
    plays: npt.NDArray[np.int64]
    """(G, n*h): the cards in play order."""
    legal: npt.NDArray[np.uint64] | None
    """(G, n*h): the legal-card mask before each play, when recorded."""
    winners: npt.NDArray[np.int64]
    """(G, h): the seat that won each trick."""
    tricks_won: npt.NDArray[np.int64]
    """(G, n): tricks won per seat."""


def _kth_set_bit(masks: npt.NDArray[np.uint64], k: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per row, the card int of the ``k``-th lowest set bit of ``masks``."""
    masks = masks.copy()
    k = k.copy()
    while True:
        drop = k > 0
        if not drop.any():
            break
        masks[drop] &= masks[drop] - _ONE
        k -= drop
    low = masks & (~masks + _ONE)
    return np.bitwise_count(low - _ONE).astype(np.int64)


def random_hands(
    rng: np.random.Generator,
    games: int,
    *,
    players: int,
    hand_size: int,
    turn_trump: bool = True,
    hook: bool = False,
    must_trump: bool = False,
    record_legal: bool = False,
) -> BatchResult:
    """Deal and play ``games`` hands with uniformly random legal bids and cards, all games in
    lockstep: each play is a few numpy operations on arrays of ``games`` masks."""
    if not 3 <= players <= 7:
        raise ValueError(f"players must be 3 to 7, got {players}")
    if hand_size < 1 or players * hand_size + (1 if turn_trump else 0) > 52:
        raise ValueError(f"cannot deal {hand_size} cards to {players} players from one deck")
    rows = np.arange(games)
    deck = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (games, 1)), axis=1)
    dealt = deck[:, : players * hand_size].reshape(games, players, hand_size)
    hands = np.bitwise_or.reduce(_ONE << dealt.astype(np.uint64), axis=2)
    trump_card = deck[:, players * hand_size] if turn_trump else np.full(games, -1, np.int64)
    trump = np.where(trump_card >= 0, trump_card // 13, -1)
    dealer = rng.integers(0, players, games)

    bids = np.zeros((games, players), np.int64)
    for i in range(players):
        seat = (dealer + 1 + i) % players
        if hook and i == players - 1:
            forbidden = hand_size - bids.sum(axis=1)
            choices = np.where(
                (forbidden >= 0) & (forbidden <= hand_size), hand_size, hand_size + 1
            )
            draw = (rng.random(games) * choices).astype(np.int64)
            bid = draw + ((forbidden >= 0) & (draw >= forbidden))
        else:
            bid = rng.integers(0, hand_size + 1, games)
        bids[rows, seat] = bid

    steps = players * hand_size
    plays = np.zeros((games, steps), np.int64)
    legal_log = np.zeros((games, steps), np.uint64) if record_legal else None
    winners = np.zeros((games, hand_size), np.int64)
    won = np.zeros((games, players), np.int64)
    suit_masks = np.array(SUIT_MASKS, dtype=np.uint64)
    leader = (dealer + 1) % players
    led = np.zeros(games, np.int64)
    best_card = np.zeros(games, np.int64)
    best_seat = np.zeros(games, np.int64)
    for step in range(steps):
        position = step % players
        seat = (leader + position) % players
        hand = hands[rows, seat]
        if position == 0:
            legal = hand
        else:
            follow = hand & suit_masks[led]
            legal = np.where(follow != 0, follow, hand)
            if must_trump:
                trumps = hand & suit_masks[np.maximum(trump, 0)]
                use = (follow == 0) & (trump >= 0) & (trumps != 0)
                legal = np.where(use, trumps, legal)
        if legal_log is not None:
            legal_log[:, step] = legal
        count = np.bitwise_count(legal).astype(np.int64)
        card = _kth_set_bit(legal, (rng.random(games) * count).astype(np.int64))
        plays[:, step] = card
        hands[rows, seat] = hand ^ (_ONE << card.astype(np.uint64))
        suit = card // 13
        if position == 0:
            led, best_card, best_seat = suit, card, seat
        else:
            best_suit = best_card // 13
            better = ((suit == best_suit) & (card > best_card)) | (
                (suit == trump) & (best_suit != trump)
            )
            best_card = np.where(better, card, best_card)
            best_seat = np.where(better, seat, best_seat)
        if position == players - 1:
            winners[:, step // players] = best_seat
            won[rows, best_seat] += 1
            leader = best_seat
    return BatchResult(dealt, trump_card, dealer, bids, plays, legal_log, winners, won)
