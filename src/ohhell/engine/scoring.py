"""Trick winners, the cards a seat may play to a trick, and hand scores: the formulas of the
game.

>>> from ohhell.engine.rules import Rules
>>> standard = Rules(player_count=4)
>>> score_hand(standard, bid=4, won=4, hand_size=7)   # Evelyn: 10 + 4
14
>>> score_hand(standard, bid=0, won=0, hand_size=7)   # Frank: 10 + 0
10
>>> score_hand(standard, bid=3, won=4, hand_size=7)
0
>>> score_hand(Rules(player_count=4, missed_bid_scores_tricks=True), bid=3, won=4, hand_size=7)
4
>>> score_hand(Rules(player_count=4, zero_bid_bonus=True), bid=0, won=0, hand_size=7)  # Helen
12
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from ohhell.engine.cards import Card, Suit
from ohhell.engine.jsontext import brief
from ohhell.engine.rules import Rules

__all__ = ["playable", "score_hand", "trick_winner_index", "winners"]


def trick_winner_index(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index into ``cards`` (in play order) of the winning card: the highest trump if any
    trump was played, else the highest card of the suit led.

    >>> from ohhell.engine.cards import parse_cards
    >>> trick_winner_index(parse_cards("Kh Ah 2s Qh"), Suit.SPADES)
    2
    >>> trick_winner_index(parse_cards("Kh Ah 2s Qh"), None)
    1
    >>> trick_winner_index(parse_cards("Kh Ah 2s Qh"), Card.from_str("4s"))
    Traceback (most recent call last):
    ...
    TypeError: trump must be a Suit or None, got Card('4s') (a card's suit is card.suit)
    """
    if trump is not None and type(trump) is not Suit:  # suits are compared by identity
        _refuse_trump(trump)
    if not cards:
        raise ValueError("a trick has at least one card")
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit is best_card.suit:
            if card.rank > best_card.rank:
                best, best_card = i, card
        elif card.suit is trump:
            best, best_card = i, card
    return best


def _refuse_trump(trump: object) -> NoReturn:
    """A trump that is not a :class:`Suit` (nor ``None``, no trump): a ``TypeError`` saying
    so, since it would match no card's suit and play as a hand without trump."""
    hint = " (a card's suit is card.suit)" if isinstance(trump, Card) else ""
    raise TypeError(f"trump must be a Suit or None, got {brief(trump)}{hint}")


def playable(
    hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None, *, must_trump: bool
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (its cards in play order): any
    card on lead; else the cards of the suit led, if the hand holds any; else, when
    ``must_trump`` (La Podrida) and a trump is turned, the hand's trumps, if any; else any card.
    :func:`~ohhell.engine.legal_plays` applies it to the seat to play.

    >>> from ohhell.engine.cards import parse_cards
    >>> hand = parse_cards("2c 9s Ah")
    >>> playable(hand, parse_cards("Kd"), Suit.SPADES, must_trump=False)
    (Card('2c'), Card('9s'), Card('Ah'))
    >>> playable(hand, parse_cards("Kd"), Suit.SPADES, must_trump=True)
    (Card('9s'),)
    >>> playable(hand, parse_cards("3h Kd"), Suit.SPADES, must_trump=True)
    (Card('Ah'),)
    >>> playable(hand, parse_cards("Kd"), Card.from_str("4s"), must_trump=True)
    Traceback (most recent call last):
    ...
    TypeError: trump must be a Suit or None, got Card('4s') (a card's suit is card.suit)
    """
    if trump is not None and type(trump) is not Suit:
        _refuse_trump(trump)
    if not trick:
        return tuple(hand)
    led = trick[0].suit
    follow = [c for c in hand if c.suit is led]  # a list first: faster than tuple(generator)
    if follow:
        return tuple(follow)
    if must_trump and trump is not None:
        trumps = [c for c in hand if c.suit is trump]
        if trumps:
            return tuple(trumps)
    return tuple(hand)


def score_hand(rules: Rules, *, bid: int, won: int, hand_size: int) -> int:
    """Points for one seat in one hand under ``rules``' scoring options. A bid and a count of
    tricks are whole numbers from 0 to the hand's size; anything else is a ``ValueError``
    (``TypeError`` for what is not a whole number), not a score.

    >>> score_hand(Rules(player_count=4), bid=3, won=8, hand_size=7)
    Traceback (most recent call last):
    ...
    ValueError: won must be from 0 to the hand size 7, got 8
    """
    for name, value in (("hand_size", hand_size), ("bid", bid), ("won", won)):
        if type(value) is not int:
            raise TypeError(f"{name} must be a whole number (int), got {value!r}")
    if hand_size < 1:
        raise ValueError(f"hand_size must be at least 1, got {hand_size}")
    if not (0 <= bid <= hand_size and 0 <= won <= hand_size):
        name, value = ("bid", bid) if not 0 <= bid <= hand_size else ("won", won)
        raise ValueError(f"{name} must be from 0 to the hand size {hand_size}, got {value}")
    if won == bid:
        if bid == 0 and rules.zero_bid_bonus:
            return 5 + hand_size
        return 10 + won
    return won if rules.missed_bid_scores_tricks else 0


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Seats with the highest total; equal highest totals share the win (convention).

    >>> winners([30, 42, 42, 7])
    (1, 2)
    """
    if not totals:
        raise ValueError("winners needs the totals of at least one seat")
    top = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == top)
