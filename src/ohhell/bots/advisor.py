"""The bid advisor: for a seat about to bid, the estimated probability of taking each number of
tricks and the expected score of each legal bid.

It works by Monte Carlo over what the seat cannot see. Each sample deals the unseen cards
uniformly to the other seats (the seat's own cards and the turned trump card stay as they are;
nothing else is known at bid time), lets the seats still to bid bid with the heuristic (bids
already revealed are kept), and plays the hand out with heuristic players. The seat itself bids
the heuristic's bid in every sample, so one distribution of its tricks serves every candidate
bid, and each expected score follows from that distribution by the scoring formula in force.

>>> import random
>>> from ohhell.engine import Rules, apply, new_game, random_deal, view_for
>>> state = new_game(Rules(player_count=4))
>>> state, _ = apply(state, random_deal(state, random.Random(5)))
>>> advice = advise_bid(view_for(state, 1), random.Random(0), samples=20)
>>> len(advice.trick_probabilities), round(sum(advice.trick_probabilities), 9), advice.samples
(2, 1.0, 20)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ohhell.bots.heuristic import heuristic_bid, heuristic_play
from ohhell.engine import (
    DECK,
    Bid,
    Card,
    Deal,
    GameState,
    Phase,
    Play,
    PlayerView,
    Rules,
    Schedule,
    apply,
    new_game,
    score_hand,
    view_for,
)

__all__ = ["BidAdvice", "advise_bid"]

DEFAULT_SAMPLES = 200
"""Samples per advice: about 0.1-0.5 s of pure Python for the larger hands."""


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """The advice for one seat at bidding time."""

    trick_probabilities: tuple[float, ...]
    """Estimated probability of taking 0, 1, ..., hand_size tricks (sums to 1)."""
    expected_scores: dict[int, float]
    """Expected points of each legal bid under the rules in force."""
    best_bid: int
    """The legal bid with the highest expected score."""
    samples: int
    """How many deals were sampled."""


def advise_bid(
    view: PlayerView, rng: random.Random, *, samples: int = DEFAULT_SAMPLES
) -> BidAdvice:
    """Advise ``view.seat``, which must be to bid now, using ``samples`` sampled deals."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    seat = view.seat
    if seat is None or view.hand is None:
        raise ValueError("the bid advisor needs a seat's view, not a public view")
    if view.phase is not Phase.BID or seat not in view.to_act:
        raise ValueError(f"seat {seat} is not to bid now (phase {view.phase.value})")
    legal = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
    size = view.hand_size
    start = _single_hand_game(view)
    known = set(view.hand)
    if view.trump_card is not None:
        known.add(view.trump_card)
    unseen = [c for c in DECK if c not in known]
    counts = [0] * (size + 1)
    for _ in range(samples):
        counts[_play_out(view, start, unseen, rng)] += 1
    probabilities = tuple(c / samples for c in counts)
    expected = {bid: _expected_score(view, bid, probabilities) for bid in legal}
    # ties (often between outcomes never sampled) go to the bid that is better when every
    # number of tricks gets half a sample more: never seen is not the same as impossible
    smoothed = tuple((c + 0.5) / (samples + 0.5 * (size + 1)) for c in counts)
    tie_break = {bid: _expected_score(view, bid, smoothed) for bid in legal}
    best = max(legal, key=lambda b: (expected[b], tie_break[b], -b))
    return BidAdvice(probabilities, expected, best, samples)


def _expected_score(view: PlayerView, bid: int, probabilities: tuple[float, ...]) -> float:
    return sum(
        p * score_hand(view.rules, bid=bid, won=won, hand_size=view.hand_size)
        for won, p in enumerate(probabilities)
    )


def _single_hand_game(view: PlayerView) -> GameState:
    """A one-hand game with the view's options, dealer and hand size, waiting for its deal."""
    options = view.rules.to_dict()
    options.update(
        schedule=Schedule.CUSTOM.value,
        custom_hand_sizes=[view.hand_size],
        repeat_turning_hand=False,
        trump_in_last_hand=view.trump_card is not None,
    )
    return new_game(Rules.from_dict(options), first_dealer=view.dealer)


def _play_out(view: PlayerView, start: GameState, unseen: list[Card], rng: random.Random) -> int:
    """Deal the unseen cards at random, bid and play the hand with heuristic players, and
    return the tricks ``view.seat`` took."""
    assert view.hand is not None and view.seat is not None
    seat = view.seat
    n = view.rules.player_count
    size = view.hand_size
    pool = rng.sample(unseen, size * (n - 1))
    hands: list[tuple[Card, ...]] = []
    taken = 0
    for s in range(n):
        if s == seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(pool[taken : taken + size]))
            taken += size
    state, _ = apply(start, Deal(tuple(hands), view.trump_card))
    while state.phase is Phase.BID:
        bidder = min(state.to_act)
        revealed = view.bids[bidder]
        bid = revealed if revealed is not None else heuristic_bid(view_for(state, bidder))
        state, _ = apply(state, Bid(bidder, bid))
    while state.phase is Phase.PLAY:
        player = next(iter(state.to_act))
        state, _ = apply(state, Play(player, heuristic_play(view_for(state, player))))
    return state.results[-1].tricks_won[seat]
