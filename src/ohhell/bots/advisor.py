"""The bid advisor: for a seat about to bid, the expected score of each legal bid and the
estimated probability of taking each number of tricks when playing for it.

The advice is the search bot's own reasoning when it bids
(:meth:`~ohhell.bots.search.SearchBot.estimate_bids`, over every legal bid): it samples the
unseen cards consistently with what the seat knows (its cards, the turned card), weights each
sampled deal by how likely the bids already made are in it, gives the seats still to bid a
likely bid, and plays the hand out in each deal once per candidate bid with the seat playing
for that bid. The tricks it takes, blended with the heuristic's calibrated estimate, give a
distribution per bid, and the scoring in force (hook, zero-bid bonus, missed bids scoring
tricks) its expected points. Playing for the bid matters: a seat that bids two plays its cards
differently from one that bids three, so each bid is scored by play aimed at it.

>>> import random
>>> from ohhell.engine import Rules, apply, new_game, random_deal, view_for
>>> state = new_game(Rules(player_count=4))
>>> state, _ = apply(state, random_deal(state, random.Random(5)))
>>> advice = advise_bid(view_for(state, 1), random.Random(0), samples=50)
>>> len(advice.trick_probabilities), round(sum(advice.trick_probabilities), 9), advice.samples
(2, 1.0, 50)

A position can also be described as a player at a real table sees it
(:func:`bidding_view`): their cards, the turned card and the bids before theirs.

>>> from ohhell.engine import Card, parse_cards
>>> view = bidding_view(Rules(player_count=4), parse_cards("As Kd 7c"), Card.from_str("9h"), [1])
>>> view.seat, view.hand_size, view.bids
(1, 3, (1, None, None, None))
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ohhell.bots.base import Budget, legal_actions
from ohhell.bots.search import MAX_UNTIMED_WORLDS, SearchBot
from ohhell.engine import (
    DECK,
    Bid,
    BiddingMode,
    BidOutOfRangeError,
    Card,
    Deal,
    Phase,
    PlayerView,
    Rules,
    RulesError,
    Schedule,
    apply,
    new_game,
    view_for,
)

__all__ = ["DEFAULT_SAMPLES", "STEADY_SAMPLES", "BidAdvice", "advise_bid", "bidding_view"]

DEFAULT_SAMPLES = 1000
"""Sampled deals per advice, each played out once per legal bid: for a 10-card hand of four
players, about 65 ms compiled (the ``bots`` extra) and 3 s in pure Python, on one core of a
2-core machine (2026-12-06)."""

STEADY_SAMPLES = 100
"""The equally weighted deals an advice should be worth (a tenth of ``samples`` when fewer
are asked for), below which it is :attr:`~BidAdvice.rough`. Each sampled deal is weighted by
how likely the bids already made are in it; where a few deals explain those bids far better
than the rest, those few carry the weight, and the advice turns from one seed to the next.
With bids made by ``heuristic`` bots, and even with bids made at random, the default 1,000
deals were worth at least 130 in every position measured (docs/bots.md)."""


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """The advice for one seat at bidding time."""

    trick_probabilities: tuple[float, ...]
    """Estimated probability of taking 0, 1, ..., hand_size tricks when playing for
    ``best_bid`` (sums to 1)."""
    expected_scores: dict[int, float]
    """Expected points of each legal bid under the rules in force."""
    best_bid: int
    """The legal bid with the highest expected score."""
    samples: int
    """How many deals were sampled."""
    by_bid: dict[int, tuple[float, ...]]
    """For each legal bid, the estimated trick probabilities when playing for it."""
    effective_samples: float
    """How many equally weighted deals the ``samples`` deals, weighted by the bids already
    made, are worth (Kish's effective sample size): ``samples`` when the bids fit every deal
    alike, fewer where a few deals explain them far better than the rest. The advice is as
    steady as this many deals make it; below :attr:`steady_target` it is rough."""

    @property
    def steady_target(self) -> float:
        """The effective deals the advice aims at: :data:`STEADY_SAMPLES`, or a tenth of
        ``samples`` when that is fewer."""
        return min(float(STEADY_SAMPLES), self.samples / 10)

    @property
    def rough(self) -> bool:
        """Whether the deals drawn were worth fewer than :attr:`steady_target` equally
        weighted ones: more ``samples`` would steady the advice."""
        return self.effective_samples < self.steady_target


def advise_bid(
    view: PlayerView, rng: random.Random, *, samples: int = DEFAULT_SAMPLES
) -> BidAdvice:
    """Advise ``view.seat``, which must be to bid now, from ``samples`` sampled deals (the
    same ``rng`` state gives the same advice)."""
    if isinstance(samples, bool) or not isinstance(samples, numbers.Integral):
        raise TypeError(f"samples must be a whole number, got {samples!r}")
    if samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    samples = int(samples)  # numpy's whole numbers too
    if samples > MAX_UNTIMED_WORLDS:
        raise ValueError(f"samples must be at most {MAX_UNTIMED_WORLDS:,}, got {samples:,}")
    legal_actions(view, rng, Budget())  # the call checked, and the seat is to act
    if view.phase is not Phase.BID:
        raise ValueError(f"seat {view.seat} is not to bid now: it is to play a card")
    estimate = SearchBot().estimate_bids(view, rng, Budget(), every_bid=True, worlds=samples)
    return BidAdvice(
        trick_probabilities=estimate.trick_probabilities,
        expected_scores=estimate.expected_points,
        best_bid=estimate.best,
        samples=estimate.worlds,
        by_bid=estimate.by_bid,
        effective_samples=estimate.effective_worlds,
    )


def _single_hand_rules(rules: Rules, hand_size: int, *, trumps: bool) -> Rules:
    """``rules`` for a game of one hand of ``hand_size`` cards, with a turned trump card or
    none (``trumps``)."""
    options = rules.to_dict()
    options.update(
        schedule=Schedule.CUSTOM.value,
        custom_hand_sizes=[hand_size],
        repeat_turning_hand=False,
        trump_in_last_hand=trumps,
    )
    return Rules.from_dict(options)


def bidding_view(
    rules: Rules,
    hand: Sequence[Card],
    trump_card: Card | None,
    bids: Sequence[int] = (),
    *,
    seat: int | None = None,
) -> PlayerView:
    """The view of a seat about to bid, described as a player at a table sees it: its cards
    (the hand's size is their number), the turned trump card (``None`` when no card is turned)
    and the bids made before its own, in bidding order from the dealer's left (none under
    simultaneous bidding, where they are sealed). ``rules`` give the number of players and
    the bidding and scoring options; their schedule does not matter.

    ``seat`` is the seat's place counted from the dealer's left: 0 bids first and leads the
    first trick, ``n - 1`` is the dealer (hooked under the hook rule), who leads last. Under
    sequential bidding it follows from the bids (``len(bids)``; a ``seat`` given must agree);
    under simultaneous bidding the bids say nothing of it, so it is ``seat`` (default 0), since
    who leads changes the odds. Impossible positions raise the engine's error saying why
    (:class:`~ohhell.engine.OhHellError`: a card twice, no card or too many for the players, a
    bid above the hand size) or :class:`ValueError` (too many bids, bids under simultaneous
    bidding, a seat that is not at the table or disagrees with the bids, a turned card when
    the hand deals every card), and :class:`TypeError` for an argument of the wrong kind
    (cards as text: :func:`~ohhell.engine.parse_cards` reads them).

    >>> bidding_view(Rules(player_count=4), "As Kd", None)
    Traceback (most recent call last):
    ...
    TypeError: hand must be Cards (parse_cards('As Kd') reads them from text), got 'As Kd'
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (ohhell.engine.Rules), got {rules!r}")
    if (
        isinstance(hand, str)
        or not isinstance(hand, Sequence)
        or not all(isinstance(card, Card) for card in hand)
    ):
        raise TypeError(
            f"hand must be Cards (parse_cards({hand!r}) reads them from text), got {hand!r}"
            if isinstance(hand, str)
            else f"hand must be Cards, got {hand!r}"
        )
    if trump_card is not None and not isinstance(trump_card, Card):
        raise TypeError(f"trump_card must be a Card or None, got {trump_card!r}")
    if isinstance(bids, str) or not isinstance(bids, Sequence):
        raise TypeError(f"bids must be a sequence of whole numbers, got {bids!r}")
    n = rules.player_count
    if len(bids) >= n:
        raise ValueError(
            f"{len(bids)} bids before this seat's, but {n} players bid: at most {n - 1}"
        )
    sealed = rules.bidding is BiddingMode.SIMULTANEOUS
    if bids and sealed:
        raise ValueError("bids are sealed under simultaneous bidding: no earlier bid is known")
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral):
            raise TypeError(f"seat must be a whole number or None, got {seat!r}")
        seat = int(seat)  # numpy's whole numbers too
        if not 0 <= seat < n:
            raise ValueError(f"seat must be a place from 0 to {n - 1} for {n} players, got {seat}")
    if seat is not None and not sealed and seat != len(bids):
        raise ValueError(
            f"{len(bids)} bids before this seat's put it at place {len(bids)} from the"
            f" dealer's left, not {seat}: under sequential bidding every seat before it has bid"
        )
    seat = (seat or 0) if sealed else len(bids)
    size = len(hand)
    if not 1 <= size <= len(DECK) // n:
        raise RulesError(
            f"{size} cards in the hand: with {n} players a hand holds 1 to {len(DECK) // n}"
        )
    if trump_card is not None and size * n >= len(DECK):
        raise ValueError(
            f"{size} cards each for {n} players leave no card to turn for trump: give none"
        )
    state = new_game(
        _single_hand_rules(rules, size, trumps=trump_card is not None), first_dealer=n - 1
    )
    # the other seats' cards are any others: the seat's view never shows them
    others = [card for card in DECK if card not in hand and card != trump_card]
    hands = [tuple(others[i * size : (i + 1) * size]) for i in range(n - 1)]
    hands.insert(seat, tuple(hand))
    state, _ = apply(state, Deal(tuple(hands), trump_card))
    for bidder, bid in enumerate(bids):
        if isinstance(bid, numbers.Integral) and not isinstance(bid, bool):
            bid = int(bid)  # numpy's whole numbers too, as for the seat
        try:
            state, _ = apply(state, Bid(bidder, bid))
        except BidOutOfRangeError:  # said as at the table, not as in the one-hand game
            raise BidOutOfRangeError(
                f"bid {bidder + 1} of those before this seat's is {bid!r}: a bid must be a"
                f" whole number from 0 to {size}, the cards in the hand",
                seat=bidder,
            ) from None
    return view_for(state, seat)
