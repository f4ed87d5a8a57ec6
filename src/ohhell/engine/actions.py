"""Actions: the host's :class:`Deal`, a seat's :class:`Bid` and a seat's :class:`Play`.

Actions name the seat that takes them, so an out-of-turn action is caught rather than credited
to whoever is to act.

>>> from ohhell.engine.cards import Card
>>> str(Bid(seat=1, bid=2)), str(Play(seat=3, card=Card.from_str("Qh")))
('seat 1 bids 2', 'seat 3 plays Qh')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ohhell.engine.cards import Card, format_cards
from ohhell.engine.errors import InvalidDealError
from ohhell.engine.jsontext import brief

__all__ = ["Action", "Bid", "Deal", "Play"]


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance, supplied by the host: each seat's cards and the turned trump card (or ``None``).

    Build one from a shuffled deck with :meth:`from_deck`; the engine never shuffles.
    """

    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card | None

    @staticmethod
    def from_deck(
        deck: Sequence[Card], *, player_count: int, dealer: int, hand_size: int, turn_trump: bool
    ) -> Deal:
        """Deal from the top of ``deck`` one card at a time, starting left of the dealer
        (convention), then turn the next card if ``turn_trump``. The rest is the stock, which
        the engine never sees.

        >>> from ohhell.engine.cards import DECK
        >>> try:
        ...     Deal.from_deck(DECK, player_count=4, dealer=7, hand_size=1, turn_trump=True)
        ... except ValueError as exc:  # an InvalidDealError (dealt as if seat 3 had dealt)
        ...     print(exc)
        invalid deal: dealer must be a seat from 0 to 3, got 7
        """
        for name, value in (("player_count", player_count), ("hand_size", hand_size)):
            if type(value) is not int or value < 1:
                raise InvalidDealError(
                    f"invalid deal: {name} must be a whole number from 1 up, got {brief(value)}"
                )
        if type(dealer) is not int or not 0 <= dealer < player_count:
            raise InvalidDealError(
                f"invalid deal: dealer must be a seat from 0 to {player_count - 1}, got"
                f" {brief(dealer)}"
            )
        if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
            raise InvalidDealError(
                f"invalid deal: the deck must be a sequence of cards, got {brief(deck)}"
            )
        needed = hand_size * player_count + turn_trump
        if len(deck) < needed:
            turned = " and turn a trump card" if turn_trump else ""
            raise InvalidDealError(
                f"invalid deal: a deck of {len(deck)} cards cannot deal {hand_size} to each of"
                f" {player_count} seats{turned}"
            )
        hands: list[list[Card]] = [[] for _ in range(player_count)]
        for i in range(hand_size * player_count):
            hands[(dealer + 1 + i) % player_count].append(deck[i])
        trump = deck[hand_size * player_count] if turn_trump else None
        return Deal(tuple(tuple(hand) for hand in hands), trump)

    def __str__(self) -> str:
        hands = " | ".join(format_cards(hand) for hand in self.hands)
        return f"deal {hands}; trump card {self.trump_card or 'none'}"


@dataclass(frozen=True, slots=True)
class Bid:
    """Seat ``seat`` bids to win exactly ``bid`` tricks."""

    seat: int
    bid: int

    def __str__(self) -> str:
        return f"seat {self.seat} bids {self.bid}"


@dataclass(frozen=True, slots=True)
class Play:
    """Seat ``seat`` plays ``card`` to the current trick."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


Action: TypeAlias = Deal | Bid | Play
"""Anything that changes a game: see :func:`ohhell.engine.apply`."""
