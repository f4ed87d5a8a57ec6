"""The ``search`` bot: determinized Monte Carlo search (PIMC) over sampled worlds.

Each decision samples worlds (the hidden cards, uniformly among the deals consistent with the
seat's view: :mod:`ohhell.bots.sampling`), weights each by how likely the revealed bids were
given its hands, and evaluates every candidate action in every world on the fast path
(:mod:`ohhell.bots.fast`):

- **Cards**: each legal card is played in each world and the hand is finished by the rollout
  policy (every seat playing to hit its bid); once few enough cards are left that an exact
  search is cheap (:func:`~ohhell.bots.fast.solve_leaf_estimate` at most ``solve_leaves``),
  the world is solved exactly instead (max^n: each seat maximises its own points). The card
  with the highest weighted mean points for the hand is played, the rollout policy's own
  choice getting a small bonus (``policy_bonus``) so sampling noise does not decide near-ties.
- **Bids**: for each candidate bid, the hand is played out in each world with the seat
  aiming at that bid (seats that have not bid yet, or whose sealed bid is hidden, are given
  the bid model's estimate for their sampled cards). That gives the distribution of the
  seat's tricks and the expected points of each bid under the scoring in force
  (:func:`ohhell.engine.score_hand`: zero-bid bonus, missed bids scoring tricks); only legal
  bids are considered, so the hook is respected. :meth:`SearchBot.estimate_bids` exposes the
  same figures (for a bid hint).

Budget: ``Budget(simulations=k)`` is the number of playouts (one candidate in one world) per
card decision (``bid_factor * k`` per bid: a seat bids once per hand and the bid decides most
of its score), split evenly over the candidates (at least ``min_worlds`` worlds each);
``Budget(seconds=s)`` stops sampling worlds once ``s`` seconds are spent (at least one world).
With a simulations budget the decision is a deterministic function of the view and the
generator's state; a time budget makes it depend on the machine's speed, so it is not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ohhell.bots.base import Budget
from ohhell.bots.fast import (
    NO_TRUMP,
    HandSim,
    policy_card,
    rollout,
    score_tables,
    solve,
    solve_leaf_estimate,
)
from ohhell.bots.sampling import WorldSampler, bid_likelihood, expected_tricks, knowledge
from ohhell.engine import Action, Bid, Card, Phase, Play, PlayerView

__all__ = ["BidEstimate", "SearchBot"]

DEFAULT_SIMULATIONS = 160
"""Playouts per card decision when the budget names none (bids get ``bid_factor`` times as
many): about 20 ms mean per decision on one core, 4 players, standard game."""


@dataclass(frozen=True, slots=True)
class BidEstimate:
    """For one seat at bidding time: the estimated chance of taking each number of tricks
    (when playing for ``best``) and the expected points of each legal bid considered."""

    trick_probabilities: tuple[float, ...]
    """Index ``t``: the estimated probability of taking ``t`` tricks."""
    expected_points: dict[int, float]
    """Expected points by bid (the legal bids near the estimate; all of them in small hands)."""
    best: int
    """The bid with the highest expected points."""


class SearchBot:
    """Determinized search (PIMC) with bid-weighted world sampling and an exact end game.

    Options: ``simulations`` (default playouts per decision), ``min_worlds`` (worlds sampled
    at least, however many candidates), ``solve_leaves`` (solve a world exactly when the play
    sequences left are at most this many; 0 turns the solver off), ``bid_spread`` (standard
    deviation, in tricks, of the bid model weighting the worlds; 0 turns weighting off),
    ``bid_window`` (in hands larger than this, only bids within this many tricks of the
    estimate are searched), ``policy_bonus`` (points added to the rollout policy's own
    choice: a prior that settles near-ties, which sampling noise would otherwise decide),
    ``bid_factor`` (bids get this many times the playouts of a card decision).
    """

    name = "search"

    def __init__(
        self,
        *,
        simulations: int = DEFAULT_SIMULATIONS,
        min_worlds: int = 8,
        solve_leaves: int = 100,
        bid_spread: float = 1.0,
        bid_window: int = 2,
        policy_bonus: float = 2.0,
        bid_factor: int = 6,
    ) -> None:
        if simulations < 1 or min_worlds < 1:
            raise ValueError("simulations and min_worlds must be positive")
        if solve_leaves < 0 or bid_spread < 0 or bid_window < 0:
            raise ValueError("solve_leaves, bid_spread and bid_window may not be negative")
        if bid_factor < 1:
            raise ValueError("bid_factor must be positive")
        self.simulations = simulations
        self.min_worlds = min_worlds
        self.solve_leaves = solve_leaves
        self.bid_spread = bid_spread
        self.bid_window = bid_window
        self.policy_bonus = policy_bonus
        self.bid_factor = bid_factor

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        """The action with the best expected points for the hand (see the module doc)."""
        actions = view.legal_actions
        if not actions:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        if len(actions) == 1:
            return actions[0]
        if view.phase is Phase.BID:
            best = self.estimate_bids(view, rng, budget).best
            return next(a for a in actions if isinstance(a, Bid) and a.bid == best)
        return self._choose_card(view, rng, budget)

    # ------------------------------------------------------------------ shared

    def _worlds(self, candidates: int, budget: Budget, factor: int = 1) -> int:
        sims = budget.simulations if budget.simulations is not None else self.simulations
        return max(self.min_worlds, factor * sims // candidates)

    def _weight(self, view: PlayerView, sampler: WorldSampler, hands: tuple[int, ...]) -> float:
        if self.bid_spread == 0:
            return 1.0
        trump = NO_TRUMP if view.trump is None else int(view.trump)
        return bid_likelihood(
            sampler.know, hands, view.bids, trump, view.hand_size, spread=self.bid_spread
        )

    # ------------------------------------------------------------------ cards

    def _choose_card(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        seat = view.seat
        assert seat is not None
        cards = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
        sampler = WorldSampler(knowledge(view))
        bids = [b if b is not None else 0 for b in view.bids]
        scores = score_tables(view.rules, bids, view.hand_size)
        trump = NO_TRUMP if view.trump is None else int(view.trump)
        totals = dict.fromkeys(cards, 0.0)
        weight_sum = 0.0
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        preferred = -1
        for _ in range(self._worlds(len(cards), budget)):
            hands = sampler.sample(rng)
            weight = self._weight(view, sampler, hands)
            sim = HandSim(
                hands=hands,
                trump=trump,
                must_trump=view.rules.must_trump,
                leader=view.leader,
                trick=[c.index for c in view.trick],
                won=view.tricks_won,
                bids=bids,
            )
            if preferred < 0:
                preferred = policy_card(sim)
            if self.solve_leaves and solve_leaf_estimate(sim) <= self.solve_leaves:
                values = solve(sim, seat, scores)
            else:
                values = {}
                for card in cards:
                    branch = sim.copy()
                    branch.play(card)
                    values[card] = scores[seat][rollout(branch)[seat]]
            for card in cards:
                totals[card] += weight * values[card]
            weight_sum += weight
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if weight_sum == 0.0:  # every world had an (underflowing) tiny weight
            best = preferred
        else:
            bonus = self.policy_bonus * weight_sum
            best = max(cards, key=lambda c: (totals[c] + bonus * (c == preferred), -c))
        return Play(seat, Card.from_index(best))

    # ------------------------------------------------------------------ bids

    def estimate_bids(self, view: PlayerView, rng: random.Random, budget: Budget) -> BidEstimate:
        """For the seat to bid in ``view``: its estimated trick distribution and the expected
        points of the legal bids searched (the simulations :meth:`choose` bids by)."""
        seat = view.seat
        if seat is None or view.phase is not Phase.BID or not view.legal_actions:
            raise ValueError(f"seat {view.seat} has no bid to make now")
        size = view.hand_size
        legal = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
        know = knowledge(view)
        sampler = WorldSampler(know)
        trump = NO_TRUMP if view.trump is None else int(view.trump)
        n = view.player_count
        estimate = expected_tricks(know.own, trump, n, size)
        candidates = [
            b
            for b in legal
            if size <= 2 * self.bid_window + 1 or abs(b - estimate) <= self.bid_window + 0.5
        ] or legal
        tallies = {b: [0.0] * (size + 1) for b in candidates}
        weight_sum = 0.0
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        leader = (view.dealer + 1) % n
        for _ in range(self._worlds(len(candidates), budget, self.bid_factor)):
            hands = sampler.sample(rng)
            weight = self._weight(view, sampler, hands)
            if weight == 0.0:
                continue
            guesses = _guess_bids(view.bids, hands, trump, size)
            for bid in candidates:
                guesses[seat] = bid
                sim = HandSim(
                    hands=hands,
                    trump=trump,
                    must_trump=view.rules.must_trump,
                    leader=leader,
                    won=[0] * n,
                    bids=guesses,
                )
                tallies[bid][rollout(sim)[seat]] += weight
            weight_sum += weight
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if weight_sum == 0.0:
            weight_sum = 1.0
            for bid in candidates:
                tallies[bid][min(bid, size)] = 1.0
        expected: dict[int, float] = {}
        for bid in candidates:
            table = score_tables(view.rules, [bid], size)[0]
            expected[bid] = sum(w * table[t] for t, w in enumerate(tallies[bid])) / weight_sum
        best = max(candidates, key=lambda b: (expected[b], -abs(b - estimate), -b))
        probabilities = tuple(w / weight_sum for w in tallies[best])
        return BidEstimate(probabilities, expected, best)


def _guess_bids(
    bids: Sequence[int | None], hands: Sequence[int], trump: int, size: int
) -> list[int]:
    """The revealed bids, with the bid model's estimate for seats whose bid is not known."""
    n = len(hands)
    return [
        b if b is not None else min(size, round(expected_tricks(hands[s], trump, n, size)))
        for s, b in enumerate(bids)
    ]
