"""Cards, suits and ranks, with the two-character notation used everywhere.

A card is written rank then suit: ``"As"`` is the ace of spades, ``"Td"`` the
ten of diamonds, ``"2c"`` the two of clubs.

>>> card = Card.from_str("Qh")
>>> card.rank, card.suit
(<Rank.QUEEN: 12>, <Suit.HEARTS: 2>)
>>> str(card), card.index
('Qh', 36)
>>> Card.from_index(36) is card
True
>>> len(DECK), DECK[0], DECK[-1]
(52, Card('2c'), Card('As'))
>>> parse_cards("As Kd 2c")
(Card('As'), Card('Kd'), Card('2c'))
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Iterable
from enum import IntEnum
from typing import Final, overload

from ohhell.engine.errors import NotationError
from ohhell.engine.jsontext import as_json, brief

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "is_deck_card",
    "parse_cards",
    "read_written_card",
    "shuffled_deck",
    "sort_cards",
]


class Suit(IntEnum):
    """The four suits. Suits have no rank among themselves; the order is for display only."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: ``c``, ``d``, ``h`` or ``s``."""
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The Unicode symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @classmethod
    def from_str(cls, text: str) -> Suit:
        """Parse a suit letter (``c d h s``), symbol (``♣ ♦ ♥ ♠``) or name, in either case.

        >>> Suit.from_str("S"), Suit.from_str("♥"), Suit.from_str("Diamonds")
        (<Suit.SPADES: 3>, <Suit.HEARTS: 2>, <Suit.DIAMONDS: 1>)
        """
        if not isinstance(text, str):
            raise NotationError(f"a suit must be a string like 's', got {brief(text)}")
        spelt = text.strip().lower()
        for suit in cls:
            if spelt in (suit.letter, suit.symbol, suit.name.lower()):
                return suit
        raise NotationError(
            f"unknown suit {brief(text)}: expected one of c, d, h, s (or ♣ ♦ ♥ ♠, or the"
            " suit's name)"
        )


class Rank(IntEnum):
    """Ranks from two (low) to ace (high); the value is the pip count, ace = 14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The one-character notation: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LETTERS[self - 2]


_SUIT_LETTERS: Final = "cdhs"
_SUIT_SYMBOLS: Final = "♣♦♥♠"
_RANK_LETTERS: Final = "23456789TJQKA"

_MADE: list[Card] = []
"""The 52 cards in index order, once this module has made them (below)."""


class Card:
    """One playing card. There are exactly 52 instances, one per card, so ``is`` works.

    Construct cards with :meth:`from_str`, :meth:`from_index` or :meth:`of`. ``Card(suit, rank)``
    and ``Card("As")`` (as a card's ``repr`` writes it) give the same instance too, so a card
    built that way is the card, not a copy of it. Cards are ordered by index: by suit (clubs,
    diamonds, hearts, spades), then rank from the two up. That is neither display order
    (:func:`sort_cards`, as records write hands: by suit, each from the ace down) nor
    trick-taking strength.

    >>> Card(Suit.SPADES, Rank.ACE) is Card.from_str("As") is Card("As")
    True
    >>> eval(repr(Card.from_str("Td")))
    Card('Td')
    """

    __slots__ = ("index", "rank", "suit")

    suit: Suit
    rank: Rank
    index: int

    @overload
    def __new__(cls, suit: str) -> Card: ...
    @overload
    def __new__(cls, suit: Suit, rank: Rank) -> Card: ...
    def __new__(cls, suit: Suit | str, rank: Rank | None = None) -> Card:
        if rank is None:
            if isinstance(suit, str) and len(_MADE) == len(Suit) * len(Rank):
                return Card.from_str(suit)  # the notation, as repr() writes a card
            raise NotationError(f"a card is Card('As') or Card(suit, rank), got Card({suit!r})")
        whole = (isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in (suit, rank))
        if not all(whole) or isinstance(suit, str):  # not 3.0 nor True, which Suit() would take
            raise NotationError(f"no card of suit {suit!r} and rank {rank!r}")
        try:
            suit, rank = Suit(suit), Rank(rank)
        except ValueError:
            raise NotationError(f"no card of suit {suit!r} and rank {rank!r}") from None
        index = suit * 13 + rank - 2
        if len(_MADE) == len(Suit) * len(Rank):
            return _MADE[index]  # the one instance of each card
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @staticmethod
    def of(suit: Suit, rank: Rank) -> Card:
        """The card of this suit and rank (a :class:`NotationError` for no such suit or rank)."""
        return Card(suit, rank)

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index, ``suit * 13 + rank - 2`` (0 = 2c, 51 = As)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52:
            raise NotationError(f"card index must be an integer 0..51, got {brief(index)}")
        return _CARDS[index]

    @staticmethod
    def from_str(text: str) -> Card:
        """Parse the two-character notation, e.g. ``"As"``, ``"Td"``, ``"10d"`` or ``"A♠"``."""
        if not isinstance(text, str):
            raise NotationError(f"a card must be a string like 'As', got {brief(text)}")
        card = _BY_TEXT.get(text.strip())
        if card is None:
            raise NotationError(
                f"invalid card {brief(text)}: expected rank (2-9, T, J, Q, K, A) then suit"
                " (c, d, h, s), e.g. 'As' or 'Td'"
            )
        return card

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def pretty(self) -> str:
        """Rank and suit symbol, e.g. ``A♠``."""
        return self.rank.letter + self.suit.symbol

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and self.index == other.index)

    def __hash__(self) -> int:
        return self.index


_CARDS: Final[tuple[Card, ...]] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
_MADE.extend(_CARDS)

DECK: Final[tuple[Card, ...]] = _CARDS
"""All 52 cards in index order (clubs 2..A, diamonds, hearts, spades)."""


DECK_IDS: Final = frozenset(map(id, DECK))
"""The identities of the 52 cards, which live as long as the program: ``id(card) in
DECK_IDS`` is :func:`is_deck_card` without the call, for the engine's hot path."""


def is_deck_card(card: object) -> bool:
    """Whether ``card`` is one of the 52 instances (every way of making a card gives one), not
    a look-alike built around them whose ``suit`` and ``rank`` may disagree with its ``index``.

    >>> is_deck_card(Card.from_str("As")), is_deck_card("As")
    (True, False)
    """
    return id(card) in DECK_IDS


def _spellings(card: Card) -> Iterable[str]:
    ranks = [card.rank.letter, card.rank.letter.lower()]
    if card.rank == Rank.TEN:
        ranks.append("10")
    suits = [card.suit.letter, card.suit.letter.upper(), card.suit.symbol]
    return (r + s for r in ranks for s in suits)


_BY_TEXT: Final[dict[str, Card]] = {text: card for card in _CARDS for text in _spellings(card)}


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse whitespace- or comma-separated cards, keeping their order."""
    if not isinstance(text, str):
        raise NotationError(f"cards must be a string like 'As Kd 7c', got {brief(text)}")
    return tuple(Card.from_str(part) for part in text.replace(",", " ").split())


def read_written_card(text: object, files: str) -> Card:
    """A card as the project's files write it (``"As"``, ``"Td"``: one spelling of each card).
    The notation people type (``"AS"``, ``"10d"``, ``"A♠"``) is for people and is refused,
    naming the file's spelling; ``files`` names the files in the message.

    >>> read_written_card("Td", "records")
    Card('Td')
    >>> read_written_card("10d", "records")
    Traceback (most recent call last):
    ...
    ohhell.engine.errors.NotationError: card '10d' is not written as records write it: 'Td'

    A value is quoted as the file writes it (JSON's ``null``, not Python's ``None``):

    >>> read_written_card(None, "records")
    Traceback (most recent call last):
    ...
    ohhell.engine.errors.NotationError: a card must be a string like 'As', got null
    """
    if not isinstance(text, str):
        raise NotationError(f"a card must be a string like 'As', got {as_json(text)}")
    card = Card.from_str(text)
    if text != str(card):
        raise NotationError(f"card {brief(text)} is not written as {files} write it: {str(card)!r}")
    return card


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order: by suit, then from high to low rank (a :class:`NotationError`
    for something that is not a card, such as the text ``'As'``: ``parse_cards`` reads text)."""
    cards = tuple(cards)
    for card in cards:
        if not isinstance(card, Card):
            raise NotationError(
                f"sort_cards takes cards, got {brief(card)} (parse_cards('As Kd') reads text)"
            )
    return tuple(sorted(cards, key=lambda c: (c.suit, -c.rank)))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by spaces, in the given order."""
    return " ".join(str(c) for c in cards)


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """A shuffled deck drawn from ``rng``; the engine never draws randomness by itself.

    Pass ``random.Random(seed)`` for a reproducible game and ``secrets.SystemRandom()``
    for live play.

    >>> shuffled_deck(random.Random(7)) == shuffled_deck(random.Random(7))
    True
    """
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {brief(rng)}")
    deck = list(_CARDS)
    rng.shuffle(deck)
    return tuple(deck)
