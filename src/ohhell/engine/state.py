"""The game state: immutable, changed only by :func:`~ohhell.engine.apply`.

A :class:`GameState` holds the whole game so far: the finished hands (:class:`HandResult`, with
their deals, bids and tricks) and the hand in progress. That is everything a game record needs,
and more than any seat may see: give seats a :func:`~ohhell.engine.view_for`, never the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ohhell.engine.cards import Card, Suit
from ohhell.engine.errors import RulesError
from ohhell.engine.jsontext import brief
from ohhell.engine.rules import BiddingMode, Rules
from ohhell.engine.scoring import winners

__all__ = ["GameState", "HandResult", "Phase", "ScoreRow", "Trick", "new_game"]


class Phase(StrEnum):
    """What the game waits for."""

    DEAL = "deal"
    """The host's :class:`~ohhell.engine.Deal` (chance)."""
    BID = "bid"
    """Bids (:class:`~ohhell.engine.Bid`)."""
    PLAY = "play"
    """Cards (:class:`~ohhell.engine.Play`)."""
    OVER = "over"
    """Nothing: the game has ended."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: ``cards`` in play order, the first led by ``leader``."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, position: int, player_count: int) -> int:
        """The seat that played ``cards[position]``."""
        return (self.leader + position) % player_count


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished and scored hand (a "round" of deal, bidding and play)."""

    hand_index: int
    dealer: int
    hand_size: int
    trump_card: Card | None
    dealt: tuple[tuple[Card, ...], ...]
    bids: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One hand on the score sheet. For the hand in progress, ``points`` is ``None`` and
    ``bids`` holds what has been revealed so far."""

    hand_index: int
    dealer: int
    hand_size: int
    trump_card: Card | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...] | None
    totals: tuple[int, ...]

    @property
    def number(self) -> int:
        """The 1-based hand number used at the table."""
        return self.hand_index + 1


@dataclass(frozen=True, slots=True, kw_only=True)
class GameState:
    """One moment of a game. Create it with :func:`new_game`; advance it with ``apply``."""

    rules: Rules
    first_dealer: int
    hand_index: int
    phase: Phase
    dealt: tuple[tuple[Card, ...], ...]
    """This hand's cards as dealt, per seat (sorted by card index); empty before the deal."""
    hands: tuple[tuple[Card, ...], ...]
    """The cards each seat still holds (sorted by card index); empty before the deal."""
    trump_card: Card | None
    bids: tuple[int | None, ...]
    tricks: tuple[Trick, ...]
    """This hand's completed tricks."""
    leader: int
    """The seat that led (or is to lead) the current trick."""
    trick: tuple[Card, ...]
    """Cards played to the current trick, in order from ``leader``."""
    tricks_won: tuple[int, ...]
    results: tuple[HandResult, ...]
    """The finished hands, in order."""
    totals: tuple[int, ...]
    version: int
    """How many actions have been applied; clients use it to reject stale actions."""
    sheet: tuple[ScoreRow, ...] = ()
    """The score sheet rows of the finished hands (public; derived from ``results`` and kept
    by ``apply`` so that views need not rebuild it)."""

    # ----------------------------------------------------------------- derived facts

    @property
    def player_count(self) -> int:
        return self.rules.player_count

    @property
    def dealer(self) -> int:
        """The dealer of the current (or, once over, the last) hand."""
        return self.rules.dealer(self.first_dealer, min(self.hand_index, self.rules.hand_count - 1))

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat in the current (or last) hand."""
        return self.rules.hand_sizes()[min(self.hand_index, self.rules.hand_count - 1)]

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the current hand, if any."""
        return None if self.trump_card is None else self.trump_card.suit

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def is_chance(self) -> bool:
        """True when the host must supply the next deal."""
        return self.phase is Phase.DEAL

    @property
    def bid_order(self) -> tuple[int, ...]:
        """Seats in bidding (and first-lead) order: from the dealer's left, dealer last."""
        n = self.rules.player_count
        return tuple((self.dealer + 1 + i) % n for i in range(n))

    @property
    def to_act(self) -> frozenset[int]:
        """Seats whose action the game waits for: one seat, several under simultaneous
        bidding, none while dealing or once the game is over."""
        if self.phase is Phase.PLAY:
            return frozenset((((self.leader + len(self.trick)) % self.rules.player_count),))
        if self.phase is Phase.BID:
            if self.rules.bidding is BiddingMode.SIMULTANEOUS:
                return frozenset(s for s, b in enumerate(self.bids) if b is None)
            done = sum(b is not None for b in self.bids)
            return frozenset(((self.dealer + 1 + done) % self.rules.player_count,))
        return frozenset()

    @property
    def bids_revealed(self) -> bool:
        """Whether every bid is public: always under sequential bidding; under simultaneous
        bidding only once all seats have bid."""
        return self.rules.bidding is BiddingMode.SEQUENTIAL or all(b is not None for b in self.bids)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the highest total (shared on equal totals); empty until the game ends."""
        return winners(self.totals) if self.is_over else ()

    def describe_position(self) -> str:
        """Where the game is, for messages: ``hand 5 of 13 (5 cards), trick 2``."""
        if self.is_over:
            return "game over"
        cards = "1 card" if self.hand_size == 1 else f"{self.hand_size} cards"
        where = f"hand {self.hand_index + 1} of {self.rules.hand_count} ({cards})"
        if self.phase is Phase.PLAY:
            where += f", trick {len(self.tricks) + 1}"
        elif self.phase is Phase.BID:
            where += ", bidding"
        else:
            where += ", before the deal"
        return where


def new_game(rules: Rules, *, first_dealer: int = 0) -> GameState:
    """A new game waiting for its first deal. The host chooses the first dealer (RULES.md:
    "choose the first dealer"); pick it with ``rng.randrange(player_count)`` to draw one.

    >>> state = new_game(Rules(player_count=4), first_dealer=2)
    >>> state.phase, state.dealer, state.hand_size
    (<Phase.DEAL: 'deal'>, 2, 1)
    """
    if not isinstance(rules, Rules):
        raise TypeError(
            f"new_game takes Rules (Rules(...), Rules.from_dict, Rules.preset), got {rules!r}"
        )
    n = rules.player_count
    if (
        type(first_dealer) is not int  # a bool, or an int subclass (Suit.DIAMONDS), as Rules
        or not 0 <= first_dealer < n
    ):
        raise RulesError(
            f"first_dealer must be a seat from 0 to {n - 1}, got {brief(first_dealer)}"
        )
    return GameState(
        rules=rules,
        first_dealer=first_dealer,
        hand_index=0,
        phase=Phase.DEAL,
        dealt=(),
        hands=(),
        trump_card=None,
        bids=(None,) * n,
        tricks=(),
        leader=(first_dealer + 1) % n,
        trick=(),
        tricks_won=(0,) * n,
        results=(),
        totals=(0,) * n,
        version=0,
    )
