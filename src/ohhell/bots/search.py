"""The ``search`` bot: determinized Monte Carlo search (PIMC) over sampled worlds.

Each decision samples worlds (the hidden cards, uniformly among the deals consistent with the
seat's view: :mod:`ohhell.bots.sampling`), weights each by how likely the revealed bids were
given its hands, and evaluates every candidate action in every world on the fast path
(:mod:`ohhell.bots.fast`, pure Python: no numpy needed). When numba is installed, each
decision's whole loop over worlds, drawing, weighting and playing out, is one compiled call
(:func:`ohhell.bots.compiled.card_worlds`, :func:`~ohhell.bots.compiled.bid_worlds`): the same
worlds from the same seeds and the same values, so the same cards, some 30 times faster than
the loop in Python (``docs/bots.md``):

- **Worlds** are weighted by how likely the revealed bids were given their hands (below) and,
  during play, by how likely the other seats' plays so far were: the hand is replayed in the
  world from its start and each card another seat chose that the rollout policy would not have
  chosen there multiplies the weight by ``play_mismatch``
  (:func:`~ohhell.bots.fast.play_likelihood`).
- **Cards**: each legal card is played in each world and the hand is finished by the rollout
  policy (every seat playing to hit its bid; a seat whose bid is lost plays to make the others
  miss when a missed bid scores nothing, and to take every trick it can when a missed bid
  scores its tricks); once few enough cards are left that an
  exact search is cheap (:func:`~ohhell.bots.fast.solve_leaf_estimate` at most
  ``solve_leaves``), the world is solved exactly instead (max^n: each seat maximises its own
  points). The card with the highest weighted mean value is played (on an exact tie, the
  rollout policy's own choice): the seat's points for the hand less ``rivalry`` times the
  other seats' mean points (the game is won by the highest total, so what the others score
  counts too). ``policy_bonus`` can add points to the policy's
  choice, a prior against sampling noise; measured, any such prior weakens the bot (2 points
  cost 4.7 points per game against three ``heuristic`` bots), so it is off by default.
- **Bids**: worlds are weighted by the heuristic bot's calibrated bid model
  (:func:`~ohhell.bots.sampling.calibrated_bid_likelihood`), and seats that have not bid yet
  (or whose sealed bid is hidden) are given that model's bid for their sampled cards. For each
  candidate bid, the hand is played out in the same worlds with the seat aiming at that bid,
  which gives a distribution of the seat's tricks; it is mixed with the heuristic's calibrated
  :func:`~ohhell.bots.heuristic.trick_distribution` (``prior_weight``), and each bid is scored
  by its expected points under the scoring in force (:func:`ohhell.engine.score_hand`:
  zero-bid bonus, missed bids scoring tricks); only legal bids are considered, so the hook is
  respected. :meth:`SearchBot.estimate_bids` exposes the same figures (for a bid hint).

Budget: ``Budget(simulations=k)`` is the number of playouts (one candidate in one world) per
card decision (``bid_factor * k`` per bid: a seat bids once per hand and the bid decides most
of its score), split evenly over the candidates (at least ``min_worlds`` worlds each), and
multiplied by up to ``boost`` when few cards are left (short playouts);
``Budget(seconds=s)`` stops sampling worlds once ``s`` seconds are spent (at least one world;
compiled, at least one chunk of ``_CHUNK`` worlds, the clock being read between chunks). A
budget of seconds alone is a time to think: the search samples worlds until it is spent (at
most :data:`CLOCK_WORLDS`), unless the bot's own ``simulations`` option is set (then whichever
ends first). Without seconds, the budget's simulations or the bot's own (1,280 by default).
With a simulations budget the decision is a deterministic function of the view and the
generator's state; a time budget makes it depend on the machine's speed, so it is not.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ohhell.bots import compiled as compiled_path
from ohhell.bots import fast, sampling
from ohhell.bots.base import Budget, checked_options, legal_actions, sum_in_order
from ohhell.bots.fast import (
    LOST_GRAB,
    LOST_PLAY_ON,
    LOST_SPOIL,
    NO_TRUMP,
    HandSim,
    policy_card,
    rival_value,
    score_tables,
    solve_leaf_estimate,
)
from ohhell.bots.heuristic import small_hand, trick_distribution
from ohhell.bots.sampling import WorldSampler, uniform_sampler
from ohhell.engine import DECK, Action, Bid, BiddingMode, Card, Phase, Play, PlayerView
from ohhell.engine.jsontext import brief

__all__ = ["BidEstimate", "SearchBot"]

DEFAULT_SIMULATIONS = 1280
"""Playouts per card decision when the budget names none (bids get ``bid_factor`` times as
many, short playouts up to ``boost`` times as many): 6.4 ms mean per decision on one core
(p99 39 ms), 4 players, standard game, each decision compiled. Against 320, over 400
duplicate deal sets: +1.4 points per game (95 % CI +0.5 .. +2.2) against three ``heuristic``
bots, and 72.3 % of bids made against 71.5 %. 2,560 bought +0.3 more (CI -0.5 .. +1.1) for
twice the time (``docs/bots-research.md``)."""

MAX_SOLVE_LEAVES = 100_000
"""The largest ``solve_leaves``: an exact solve runs to its end whatever the time budget,
so it must stay small enough to be quick. The bound counts each seat's cards left, factorial,
multiplied: the default 100 solves the last two tricks from their lead with up to six players
(with seven, 2^7 = 128, from the trick's second card); 1,500 solves the last three with up to
four players (3!^4 = 1,296), measured no stronger."""

MIN_BID_SPREAD = 0.001
"""The narrowest ``bid_spread`` above 0: at 0.001 trick a world whose bid model is off by a
trick already weighs exp(-500000) of one it fits, and narrower spreads overflow the model's
arithmetic."""

CERTAIN_AFTER = 100
"""Worlds a bid's estimate must have drawn before an outcome they all agree on is taken as
certain, without the heuristic's estimate blended in (``SearchBot._prior_share``): with one
world every outcome looks certain, with four half of them do (150 seven-card positions)."""


def _prior_trusted(view: PlayerView) -> bool:
    """Whether the heuristic's estimate is blended into a bid's distribution of tricks at all:
    not in a hand of more than one card without trump where the opponents hold under half the
    unseen cards (the heuristic's calibration groups 3 to 6, as in the last hands of custom
    schedules). Its calibration there when bidding on lead (group 4) is set low, where the
    heuristic bids best, and rates a king whose ace is unseen 0.45 where the seat on lead takes
    it 0.92 of the time (``Ks Kd`` of three players: both win in 84.5 % of deals; the blend,
    with the king at 0.57 then, said 61 %). Bids from the rollouts alone there, paired against
    the blend over single hands of 2 to 4 cards of 3 to 5 players (300 to 400 deal sets each),
    scored +0.29 to +0.47 points a hand, and -0.05 (CI -0.16 .. +0.07) with four players and
    two cards (docs/bots-research.md); not on lead, the heuristic's estimate blended in still cost
    0.19 to 0.41 a hand with 3 and 4 cards (and 0.20 to 0.56 once its bid-time group 3 was set
    lower, where the heuristic bids better). A lone card keeps it: the heuristic bids one card
    by its exact odds."""
    if view.trump_card is not None or view.hand_size < 2:
        return True
    n = view.rules.player_count
    others = (n - 1) * view.hand_size  # at bidding time, every hand is whole
    unseen = len(DECK) - view.hand_size  # no card turned
    return not small_hand(share=others / unseen, unseen=unseen)


MAX_UNTIMED_WORLDS = 1_000_000
"""The most worlds a decision may sample without a time limit: their seeds are drawn before
the first is played (about a minute of search for the longest hands, and memory grows with
it). A budget with ``seconds`` may ask for more; the clock stops it."""

CLOCK_WORLDS = 100_000_000
"""The most worlds a decision samples under a budget of seconds alone, thinking until the
time is spent (:class:`SearchBot`): more than any time a harness gives allows (at some 50,000
worlds a second, half an hour), a bound only so that a budget of years still ends."""

TIE_RIVALRY = 1e-6
"""The share of the others' points in a card's value in the end game while the seat's bid can
still be made (:meth:`SearchBot._rivalry_now`): its own points first, the others' only where
those tie."""

_CHUNK = 16
"""Under a time budget, the compiled decision loop's first chunk of worlds, and its smallest:
it reads the clock between chunks."""

_MAX_CHUNK = 1024
"""Under a time budget, the compiled decision loop's largest chunk of worlds. Each chunk after
the first is sized to take a quarter of the time left at the pace of the one before, so that
a long budget is not spent calling the compiled loop (its arguments are converted at every
call) and the deadline is still met."""


def _deadline(budget: Budget) -> float | None:
    """When a decision under ``budget`` must stop sampling worlds, by the clock of
    :func:`time.perf_counter`; read as the decision starts, so that its setup (counting the
    deals that fit what the seat has seen) is inside the budget."""
    return None if budget.seconds is None else time.perf_counter() + budget.seconds


def _check_untimed(worlds: int, deadline: float | None) -> None:
    """Refuse to sample more than :data:`MAX_UNTIMED_WORLDS` worlds with no time limit, in
    Python or compiled alike."""
    if deadline is None and worlds > MAX_UNTIMED_WORLDS:
        raise ValueError(
            f"{worlds:,} worlds to sample without a time limit, at most"
            f" {MAX_UNTIMED_WORLDS:,}: give the budget seconds too, or fewer simulations"
        )


def _simulations(count: int) -> str:
    """``count`` simulations, in words: ``1 simulation``, ``111,111 simulations``."""
    try:
        return f"{count:,} simulation{'' if count == 1 else 's'}"
    except ValueError:  # more digits than Python writes
        return f"a number of simulations ({brief(count)})"


def _lost_play(view: PlayerView, *, spoiler: bool) -> int:
    """How the rollouts play a seat whose bid is lost (:func:`ohhell.bots.fast.rollout`'s
    ``lost``): for what is left to it when ``spoiler``, to take every trick it can where a
    missed bid scores its tricks and to make the others miss where it scores nothing; else on,
    as if it could still make its bid."""
    if not spoiler:
        return LOST_PLAY_ON
    return LOST_GRAB if view.rules.missed_bid_scores_tricks else LOST_SPOIL


@dataclass(frozen=True, slots=True)
class _Table:
    """What a decision's worlds share: the public facts of the hand as the fast path takes
    them."""

    seat: int
    bids: list[int]
    """Every seat's bid, 0 where not made (or sealed)."""
    trump: int
    trump_card: int
    must_trump: bool
    lost: int
    """How rollouts play a seat whose bid is lost (:data:`~ohhell.bots.fast.LOST_SPOIL`,
    :data:`~ohhell.bots.fast.LOST_GRAB` or :data:`~ohhell.bots.fast.LOST_PLAY_ON`)."""
    sealed: bool
    hook: bool
    first_bidder: int
    leader: int
    trick: list[int]
    won: tuple[int, ...]
    plays: list[int]
    """Every card played this hand, in order."""
    first_leader: int

    @classmethod
    def of(cls, view: PlayerView, *, spoiler: bool) -> _Table:
        assert view.seat is not None
        return cls(
            seat=view.seat,
            bids=[b if b is not None else 0 for b in view.bids],
            trump=NO_TRUMP if view.trump is None else int(view.trump),
            trump_card=-1 if view.trump_card is None else view.trump_card.index,
            must_trump=view.rules.must_trump,
            lost=_lost_play(view, spoiler=spoiler),
            sealed=view.rules.bidding is BiddingMode.SIMULTANEOUS,
            hook=view.rules.hook,
            first_bidder=(view.dealer + 1) % view.player_count,
            leader=view.leader,
            trick=[c.index for c in view.trick],
            won=view.tricks_won,
            plays=[c.index for t in view.tricks for c in t.cards] + [c.index for c in view.trick],
            first_leader=view.tricks[0].leader if view.tricks else view.leader,
        )

    def sim(self, hands: Sequence[int]) -> HandSim:
        """The current position with ``hands`` (a world's) in the seats' hands."""
        return HandSim(
            hands=hands,
            trump=self.trump,
            must_trump=self.must_trump,
            leader=self.leader,
            trick=self.trick,
            won=self.won,
            bids=self.bids,
        )


@dataclass(frozen=True, slots=True)
class BidEstimate:
    """For one seat at bidding time: the estimated chance of taking each number of tricks
    when playing for each bid considered, and the expected points of those bids."""

    trick_probabilities: tuple[float, ...]
    """Index ``t``: the estimated probability of taking ``t`` tricks, playing for ``best``."""
    expected_points: dict[int, float]
    """Expected points by bid (the legal bids near the estimate; all of them in small hands,
    or when asked for)."""
    best: int
    """The bid with the highest expected points."""
    by_bid: dict[int, tuple[float, ...]]
    """The trick probabilities playing for each bid of ``expected_points``."""
    worlds: int = 0
    """How many worlds were drawn for the bids of ``expected_points`` (a time budget can stop
    the loop short; a bid searched after them, the most likely number of tricks, draws its
    own)."""
    effective_worlds: float = 0.0
    """How many equally weighted worlds those ``worlds``, weighted by the bids already made,
    are worth (Kish's effective sample size, ``(sum w)² / sum w²``): ``worlds`` when the bids
    fit every world alike, fewer when a few worlds explain them far better than the rest, and
    the estimate only as steady as that many worlds make it; 0 when none counted."""


class SearchBot:
    """Determinized search (PIMC) with bid-weighted world sampling and an exact end game.

    Options (a bot spec such as ``search:rivalry=0.5`` sets them; the defaults in brackets):

    - ``simulations`` [none]: playouts per card decision when the budget names none. Left
      unset (none), :data:`DEFAULT_SIMULATIONS` (1,280), but under a budget of seconds alone
      as many as the time allows; set, the clock can only stop it sooner.
    - ``min_worlds`` [8]: worlds sampled at least, however many candidates.
    - ``solve_leaves`` [100]: solve a world exactly when the play sequences left
      (:func:`~ohhell.bots.fast.solve_leaf_estimate`) are at most this many; 0 turns the
      solver off.
    - ``bid_spread`` [1.0]: the standard deviation, in tricks, of the bid model weighting the
      worlds; 0 turns that weighting off, else at least :data:`MIN_BID_SPREAD`.
    - ``bid_window`` [2]: in hands of more than ``2 * bid_window + 1`` cards, only the bids
      within ``bid_window + 0.5`` tricks of the heuristic's estimate are searched.
    - ``policy_bonus`` [0]: points added to the rollout policy's own card, a prior against
      sampling noise (measured harmful above 0: ``docs/bots-research.md``); at 0 it only
      breaks exact ties.
    - ``bid_factor`` [6]: bids get this many times the playouts of a card decision.
    - ``prior_weight`` [0.5]: the share of the heuristic's calibrated trick distribution in
      the distribution bids are scored by, the rollouts' giving the rest (0: rollouts alone,
      1: the prior alone); none where the heuristic's calibration is known to be far off
      (:func:`_prior_trusted`).
    - ``spoiler`` [true]: in rollouts, a seat whose bid is lost plays for what is left to it,
      to make the others miss where a missed bid scores nothing, to take every trick it can
      where a missed bid scores its tricks; false: it plays on as if still aiming at its bid.
    - ``boost`` [1.5]: up to this many times more worlds when few cards are left to play, so
      short playouts use the time long ones would.
    - ``play_mismatch`` [0.75]: the weight factor of a world for each play of another seat
      that the rollout policy would not have made there; 1 turns play weighting off.
    - ``rivalry`` [0.25]: cards are valued by the seat's points less this share of the other
      seats' mean points (0: its own points alone; 1: its lead over the table).
    - ``bid_lean`` [0]: points per trick bid taken from a bid's expected points when choosing
      it (above 0 leans toward lower, safer bids; the bid advisor shows the expected points
      themselves).
    - ``guess_after_bid`` [true]: a bid's rollouts guess the bids still to come after putting
      each candidate bid in, keeping the hooked dealer's guess legal; false guesses them once
      per world from the seat's own estimate (``docs/bots-research.md`` has both measured).
    - ``compiled`` [true]: run each decision's loop compiled with numba
      (:mod:`ohhell.bots.compiled`) when numba is installed: the same cards, faster; the first
      bot built in a process loads the compiled code. False runs the pure-Python references
      in :mod:`ohhell.bots.fast` and :mod:`ohhell.bots.sampling`.

    ``sampler`` builds, from the seat's view, the :class:`~ohhell.bots.sampling.WorldSampler`
    whose worlds each decision searches (before weighting). The default,
    :func:`~ohhell.bots.sampling.uniform_sampler`, deals the unseen cards uniformly among the deals
    consistent with the view; research code can model the unseen cards another way (the
    benchmark's ``--oracle`` gives it the true deal, which bounds what better inference could
    buy).
    """

    name = "search"

    @checked_options
    def __init__(
        self,
        *,
        simulations: int | None = None,
        min_worlds: int = 8,
        solve_leaves: int = 100,
        bid_spread: float = 1.0,
        bid_window: int = 2,
        policy_bonus: float = 0.0,
        bid_factor: int = 6,
        prior_weight: float = 0.5,
        spoiler: bool = True,
        boost: float = 1.5,
        play_mismatch: float = 0.75,
        rivalry: float = 0.25,
        bid_lean: float = 0.0,
        guess_after_bid: bool = True,
        compiled: bool = True,
        sampler: Callable[[PlayerView], WorldSampler] | None = None,
    ) -> None:
        for option, count in (("simulations", simulations), ("min_worlds", min_worlds)):
            if count is not None and count < 1:
                raise ValueError(f"{option} must be positive, got {count}")
        for option, value in (
            ("solve_leaves", solve_leaves),
            ("bid_spread", bid_spread),
            ("bid_window", bid_window),
        ):
            if value < 0:
                raise ValueError(f"{option} may not be negative, got {value}")
        if 0 < bid_spread < MIN_BID_SPREAD:
            raise ValueError(
                f"bid_spread must be 0 (no weighting) or at least {MIN_BID_SPREAD}, got"
                f" {bid_spread}: a narrower bid model is a point mass"
            )
        if solve_leaves > MAX_SOLVE_LEAVES:
            raise ValueError(
                f"solve_leaves must be at most {MAX_SOLVE_LEAVES:,}, got {solve_leaves:,}:"
                " the exact solver does not look at the clock"
            )
        if not 1 <= boost <= MAX_UNTIMED_WORLDS:  # more could never be played, nor counted
            raise ValueError(f"boost must be from 1 to {MAX_UNTIMED_WORLDS:,}, got {boost:g}")
        if not 0.0 < play_mismatch <= 1.0:
            raise ValueError(f"play_mismatch must be in (0, 1], got {play_mismatch}")
        if not 0.0 <= rivalry <= 1.0:
            raise ValueError(f"rivalry must be between 0 and 1, got {rivalry}")
        if not 1 <= bid_factor <= MAX_UNTIMED_WORLDS:
            digits = len(str(bid_factor))
            shown = f"{bid_factor:,}" if digits < 16 else f"a number of {digits} digits"
            raise ValueError(f"bid_factor must be from 1 to {MAX_UNTIMED_WORLDS:,}, got {shown}")
        if not 0.0 <= prior_weight <= 1.0:
            raise ValueError(f"prior_weight must be between 0 and 1, got {prior_weight}")
        if sampler is not None and not callable(sampler):
            raise TypeError(
                f"sampler must be a function from a seat's view to a WorldSampler, got {sampler!r}"
            )
        self.simulations = simulations
        self.min_worlds = min_worlds
        self.solve_leaves = solve_leaves
        self.bid_spread = bid_spread
        self.bid_window = bid_window
        self.policy_bonus = policy_bonus
        self.bid_factor = bid_factor
        self.prior_weight = prior_weight
        self.spoiler = spoiler
        self.boost = boost
        self.play_mismatch = play_mismatch
        self.rivalry = rivalry
        self.bid_lean = bid_lean
        self.guess_after_bid = guess_after_bid
        # The same functions compiled (when numba loads) or on int masks: the same values.
        path: Any = compiled_path if compiled and compiled_path.load() else None
        self.compiled = path is not None
        """Whether the decisions run compiled: asked for, and numba loaded."""
        self._rollout_cards = path.rollout_cards if path else fast.rollout_cards
        self._rollout_bids = path.rollout_bids if path else fast.rollout_bids
        self._solve = path.solve if path else fast.solve
        self._play_likelihood = path.play_likelihood if path else fast.play_likelihood
        self._bid_likelihood = (
            path.calibrated_bid_likelihood if path else sampling.calibrated_bid_likelihood
        )
        self._guess_bids = path.guess_bids if path else sampling.guess_bids
        # Whole decisions compiled: the worlds drawn, weighted and searched in one call.
        self._card_worlds = path.card_worlds if path else None
        self._bid_worlds = path.bid_worlds if path else None
        self.sampler = sampler if sampler is not None else uniform_sampler

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        """The action with the best expected points for the hand (see the module doc)."""
        actions = legal_actions(view, rng, budget)
        if len(actions) == 1:
            return actions[0]
        if view.phase is Phase.BID:
            best = self.estimate_bids(view, rng, budget).best
            return next(a for a in actions if isinstance(a, Bid) and a.bid == best)
        return self._choose_card(view, rng, budget)

    def check_budget(self, budget: Budget) -> None:
        """Raise ``ValueError`` if a decision under ``budget`` could ask for more worlds than
        :data:`MAX_UNTIMED_WORLDS` without a time limit, as it then would refuse to decide:
        a harness checks this before the first game rather than voiding every one.

        >>> SearchBot().check_budget(Budget(simulations=250_000))
        Traceback (most recent call last):
        ...
        ValueError: 250,000 simulations without a time limit could ask for 2,250,000 worlds in \
one decision, at most 1,000,000: give at most 111,111 simulations, or a time limit too
        >>> SearchBot().check_budget(Budget(simulations=250_000, seconds=1.0))
        """
        if budget.seconds is not None:
            return
        sims = self._simulations(budget)
        assert sims is not None  # a budget without seconds
        # the most a decision asks for: a bid with a single candidate, the widest boost
        factor = self.bid_factor * self.boost
        try:
            wanted = factor * sims
        except OverflowError:  # simulations past any float
            wanted = math.inf
        if max(self.min_worlds, wanted) > MAX_UNTIMED_WORLDS:
            worst = f"{max(self.min_worlds, int(wanted)):,}" if math.isfinite(wanted) else "endless"
            most = int(MAX_UNTIMED_WORLDS / factor)
            if self.min_worlds > MAX_UNTIMED_WORLDS:
                give = f"min_worlds is {self.min_worlds:,}: give"
            elif most < 1:
                give = (
                    f"bid_factor {self.bid_factor:,} times boost {self.boost:g} asks too many"
                    " for even 1 simulation: lower them, or give"
                )
            else:
                give = f"give at most {_simulations(most)}, or"
            raise ValueError(
                f"{_simulations(sims)} without a time limit could ask for {worst} worlds in"
                f" one decision, at most {MAX_UNTIMED_WORLDS:,}: {give} a time limit too"
            )

    # ------------------------------------------------------------------ shared

    def _simulations(self, budget: Budget) -> int | None:
        """The playouts of a card decision under ``budget``: the budget's, else the bot's own,
        else, under a budget of seconds alone, ``None`` (as many as the time allows), else
        :data:`DEFAULT_SIMULATIONS`."""
        if budget.simulations is not None:
            return budget.simulations
        if self.simulations is not None:
            return self.simulations
        return None if budget.seconds is not None else DEFAULT_SIMULATIONS

    def _worlds(self, candidates: int, budget: Budget, factor: float = 1.0) -> int:
        sims = self._simulations(budget)
        if sims is None:  # the clock alone stops the decision
            return CLOCK_WORLDS
        return max(self.min_worlds, int(factor * sims) // candidates)

    def _compiled_worlds(self, sampler: WorldSampler) -> bool:
        """Whether a decision's whole loop over worlds runs compiled: numba loaded, and the
        default uniform worlds (whose draw is compiled too)."""
        return self._card_worlds is not None and type(sampler) is WorldSampler

    @staticmethod
    def _seed_chunks(
        rng: random.Random, worlds: int, deadline: float | None
    ) -> Iterator[list[int]]:
        """The worlds' seeds (one 64-bit draw of ``rng`` each, as :meth:`WorldSampler.sample`
        takes them), all at once or, under a deadline, in chunks until it passes, each drawn
        when its chunk is due (a budget of millions of worlds must not spend its time drawing
        seeds it will never use): :data:`_CHUNK` worlds first, then each chunk a quarter of the
        time left at the pace of the one before (from :data:`_CHUNK` to :data:`_MAX_CHUNK`)."""
        if deadline is None:
            yield [rng.getrandbits(64) for _ in range(worlds)]
            return
        size, left = _CHUNK, worlds
        while left > 0:
            size = min(size, left)
            started = time.perf_counter()
            yield [rng.getrandbits(64) for _ in range(size)]
            left -= size
            now = time.perf_counter()
            if now >= deadline:
                return
            pace = (now - started) / size  # seconds a world
            quarter = (deadline - now) / 4
            size = _CHUNK if pace <= 0 else max(_CHUNK, int(min(_MAX_CHUNK, quarter / pace)))

    def _boost(self, cards_left: int) -> float:
        """More worlds when playouts are short: up to ``boost`` times as many, in proportion
        to how much shorter than a full 4-player, 10-card hand (40 cards) they are."""
        return min(self.boost, max(1.0, 40 / max(1, cards_left)))

    def _weight(
        self, view: PlayerView, table: _Table, sampler: WorldSampler, hands: tuple[int, ...]
    ) -> float:
        """How likely the revealed bids are in the world ``hands``: the sampling weight."""
        if self.bid_spread == 0:
            return 1.0
        return self._bid_likelihood(
            sampler.know,
            hands,
            view.bids,
            table.trump_card,
            table.first_bidder,
            self.bid_spread,
            sealed=table.sealed,
        )

    # ------------------------------------------------------------------ cards

    def _rivalry_now(self, view: PlayerView) -> float:
        """The share of the others' points in a card's value: ``rivalry``, but next to none
        (:data:`TIE_RIVALRY`) in the end game (at most two cards left) while the seat's own bid
        can still be made by count, so that it does not give up its own bid's chance to make the
        others miss (trumping the second-to-last trick when only the last is needed, against a
        large table's zero bids, would). Applied whenever the bid can be made it cost strength
        (``docs/bots.md``). Not 0: where its own points tie, as when every card it holds takes
        this trick a trick too many, the others' points still choose the card."""
        seat = view.seat
        assert seat is not None and view.hand is not None
        bid, won = view.bids[seat], view.tricks_won[seat]
        if bid is not None and won <= bid <= won + len(view.hand) and len(view.hand) <= 2:
            return min(self.rivalry, TIE_RIVALRY)
        return self.rivalry

    def _choose_card(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        deadline = _deadline(budget)
        seat = view.seat
        assert seat is not None
        cards = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
        sampler = self.sampler(view)
        table = _Table.of(view, spoiler=self.spoiler)
        scores = score_tables(view.rules, table.bids, view.hand_size)
        totals = dict.fromkeys(cards, 0.0)
        worlds = self._worlds(len(cards), budget, self._boost(sum(sampler.know.counts)))
        _check_untimed(worlds, deadline)
        loop = self._card_loop_compiled if self._compiled_worlds(sampler) else self._card_loop
        weight_sum, preferred = loop(
            view, table, sampler, rng, worlds, deadline, cards, scores, totals
        )
        if weight_sum == 0.0:  # every world had an (underflowing) tiny weight
            best = preferred
        else:
            bonus = self.policy_bonus * weight_sum
            best = max(
                cards, key=lambda c: (totals[c] + bonus * (c == preferred), c == preferred, -c)
            )
        return Play(seat, Card.from_index(best))

    def _card_loop(
        self,
        view: PlayerView,
        table: _Table,
        sampler: WorldSampler,
        rng: random.Random,
        worlds: int,
        deadline: float | None,
        cards: list[int],
        scores: list[list[int]],
        totals: dict[int, float],
    ) -> tuple[float, int]:
        """The card decision's loop over worlds, in Python (any sampler, any weighting): adds
        each card's weighted points to ``totals``; returns the weights' sum and the rollout
        policy's card in the first world."""
        seat = table.seat
        rivalry = self._rivalry_now(view)
        weight_sum = 0.0
        preferred = -1
        for _ in range(worlds):
            hands = sampler.sample(rng)
            weight = self._weight(view, table, sampler, hands)
            if self.play_mismatch < 1.0 and table.plays:
                start = HandSim(
                    hands=[h | p for h, p in zip(hands, sampler.know.played, strict=True)],
                    trump=table.trump,
                    must_trump=table.must_trump,
                    leader=table.first_leader,
                    won=[0] * len(hands),
                    bids=table.bids,
                )
                weight *= self._play_likelihood(
                    start, table.plays, seat, self.play_mismatch, lost=table.lost
                )
            sim = table.sim(hands)
            if preferred < 0:
                preferred = policy_card(sim)
            if self.solve_leaves and solve_leaf_estimate(sim) <= self.solve_leaves:
                points = self._solve(sim, seat, scores, rivalry)
            else:
                tricks = self._rollout_cards(sim, cards, lost=table.lost)
                points = {
                    card: [scores[s][t] for s, t in enumerate(won)]
                    for card, won in zip(cards, tricks, strict=True)
                }
            for card in cards:
                totals[card] += weight * rival_value(points[card], seat, rivalry)
            weight_sum += weight
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return weight_sum, preferred

    def _card_loop_compiled(
        self,
        view: PlayerView,
        table: _Table,
        sampler: WorldSampler,
        rng: random.Random,
        worlds: int,
        deadline: float | None,
        cards: list[int],
        scores: list[list[int]],
        totals: dict[int, float],
    ) -> tuple[float, int]:
        """:meth:`_card_loop` in one compiled call (:func:`ohhell.bots.compiled.card_worlds`;
        under a time budget, one per chunk of worlds): the same worlds from the same seeds,
        the same weights and values, so the same card."""
        assert self._card_worlds is not None
        # The solver's cost guard counts cards, the same in every world.
        solving = bool(self.solve_leaves) and (
            solve_leaf_estimate(table.sim([(1 << c) - 1 for c in sampler.know.counts]))
            <= self.solve_leaves
        )
        rivalry = self._rivalry_now(view)
        weight_sum = 0.0
        first_world: tuple[int, ...] = ()
        for seeds in self._seed_chunks(rng, worlds, deadline):
            chunk, weights, hands = self._card_worlds(
                sampler,
                seeds,
                table.sim([0] * len(sampler.know.counts)),  # each world's hands go in
                cards,
                scores,
                bids=view.bids,
                spread=self.bid_spread,
                trump_card=table.trump_card,
                first_bidder=table.first_bidder,
                sealed=table.sealed,
                plays=table.plays if self.play_mismatch < 1.0 else [],
                first_leader=table.first_leader,
                mismatch=self.play_mismatch,
                lost=table.lost,
                solving=solving,
                rivalry=rivalry,
            )
            first_world = first_world or hands
            for card, total in zip(cards, chunk, strict=True):
                totals[card] += total
            weight_sum += weights
        return weight_sum, policy_card(table.sim(first_world))

    # ------------------------------------------------------------------ bids

    def estimate_bids(
        self,
        view: PlayerView,
        rng: random.Random,
        budget: Budget,
        *,
        every_bid: bool = False,
        worlds: int | None = None,
    ) -> BidEstimate:
        """For the seat to bid in ``view``: its estimated trick distributions and the expected
        points of the legal bids searched (the simulations :meth:`choose` bids by).

        ``every_bid`` searches every legal bid, not only those near the estimate; ``worlds``
        sets how many worlds are sampled instead of the budget (each world is played out once
        per bid searched). This is the bid advisor's use (:func:`ohhell.bots.advise_bid`)."""
        deadline = _deadline(budget)
        legal_actions(view, rng, budget)  # the call checked, and the seat is to act
        seat = view.seat
        if seat is None or view.phase is not Phase.BID:
            raise ValueError(f"seat {view.seat} has no bid to make now: it is to play a card")
        size = view.hand_size
        legal = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
        sampler = self.sampler(view)
        n = view.player_count
        prior = trick_distribution(view)
        estimate = sum_in_order(t * p for t, p in enumerate(prior))
        candidates = [
            b
            for b in legal
            if every_bid
            or size <= 2 * self.bid_window + 1
            or abs(b - estimate) <= self.bid_window + 0.5
        ] or legal
        if worlds is None:
            worlds = self._worlds(len(candidates), budget, self.bid_factor * self._boost(n * size))
        elif isinstance(worlds, bool) or not isinstance(worlds, numbers.Integral):
            raise TypeError(f"worlds must be a whole number, got {worlds!r}")
        elif worlds < 1:
            raise ValueError(f"worlds must be positive, got {worlds}")
        elif deadline is None and worlds > MAX_UNTIMED_WORLDS:
            raise ValueError(
                f"{worlds:,} worlds without a time limit, at most {MAX_UNTIMED_WORLDS:,}: give"
                " fewer, or the budget seconds too"
            )
        worlds = int(worlds)  # numpy's whole numbers too
        table = _Table.of(view, spoiler=self.spoiler)
        dists, drawn, effective = self._trick_distributions(
            view, table, sampler, rng, candidates, worlds, deadline, prior
        )
        expected = {bid: self._expected_points(view, bid, dist) for bid, dist in dists.items()}

        def best_of(dists: dict[int, list[float]]) -> int:
            return max(
                dists, key=lambda b: (expected[b] - self.bid_lean * b, -abs(b - estimate), -b)
            )

        best = best_of(dists)
        # the bids near the estimate can all be wrong: when playing for the best of them the
        # seat most often takes a number of tricks not searched, that bid is searched too
        # (13 spades without trump, never on lead: every bid near the estimate, 9, takes none)
        mode = max(range(size + 1), key=lambda t: (dists[best][t], -abs(t - best)))
        if mode in legal and mode not in dists:
            dists |= self._trick_distributions(
                view, table, sampler, rng, [mode], worlds, deadline, prior
            )[0]
            expected[mode] = self._expected_points(view, mode, dists[mode])
            best = best_of(dists)
        by_bid = {bid: tuple(dists[bid]) for bid in sorted(dists)}
        expected = {bid: expected[bid] for bid in sorted(expected)}
        return BidEstimate(by_bid[best], expected, best, by_bid, drawn, effective)

    def _trick_distributions(
        self,
        view: PlayerView,
        table: _Table,
        sampler: WorldSampler,
        rng: random.Random,
        candidates: list[int],
        worlds: int,
        deadline: float | None,
        prior: Sequence[float],
    ) -> tuple[dict[int, list[float]], int, float]:
        """For each candidate bid, the distribution of the seat's tricks when playing for it:
        the rollouts in ``worlds`` sampled worlds blended with the heuristic's ``prior``; and
        how many worlds were drawn and what they are worth (:class:`BidEstimate`'s
        ``effective_worlds``)."""
        _check_untimed(worlds, deadline)
        tallies = {b: [0.0] * (view.hand_size + 1) for b in candidates}
        loop = self._bid_loop_compiled if self._compiled_worlds(sampler) else self._bid_loop
        weight_sum, squares, drawn = loop(view, table, sampler, rng, worlds, deadline, tallies)
        effective = weight_sum * weight_sum / squares if squares > 0.0 else 0.0
        dists: dict[int, list[float]] = {}
        trusted = _prior_trusted(view)
        for b in candidates:
            share = (  # no world counted: the estimate alone, trusted or not
                self._prior_share(tallies[b], weight_sum, drawn)
                if trusted or weight_sum <= 0.0
                else 0.0
            )
            dists[b] = [
                share * p + (1.0 - share) * (w / weight_sum if weight_sum else 0.0)
                for p, w in zip(prior, tallies[b], strict=True)
            ]
        return dists, drawn, effective

    @staticmethod
    def _expected_points(view: PlayerView, bid: int, dist: Sequence[float]) -> float:
        """The expected points of ``bid`` under the rules in force, given ``dist``."""
        points = score_tables(view.rules, [bid], view.hand_size)[0]
        return sum_in_order(p * points[t] for t, p in enumerate(dist))

    def _prior_share(self, tally: list[float], weight_sum: float, drawn: int) -> float:
        """The heuristic estimate's share in a bid's distribution of tricks: all of it when
        no world counted; none when at least :data:`CERTAIN_AFTER` worlds were drawn (not
        asked for: a time budget can stop the loop after one) and
        every world gave the seat no trick, or every trick (a certain outcome, as with every
        card of a suit on lead, or none that can win a trick: the estimate from the seat's
        cards alone would blur it; a few worlds agree by chance); else ``prior_weight``.
        Worlds agreeing on a count in between are the rollouts' habit more than a certainty:
        with the four top trumps and thirteen spades of seventeen cards, the rollouts cash the
        trumps and lead spades into ruffs, four tricks in every world, where the search's own
        play takes from 4 to 12 (a QA sweep)."""
        if weight_sum <= 0.0:
            return 1.0
        agreed = [tricks for tricks, w in enumerate(tally) if w > 0.0]
        if drawn >= CERTAIN_AFTER and agreed in ([0], [len(tally) - 1]):
            return 0.0
        return self.prior_weight

    def _bid_loop(
        self,
        view: PlayerView,
        table: _Table,
        sampler: WorldSampler,
        rng: random.Random,
        worlds: int,
        deadline: float | None,
        tallies: dict[int, list[float]],
    ) -> tuple[float, float, int]:
        """The bid estimate's loop over worlds, in Python: adds each world's weight to the
        tricks aiming at each candidate bid takes there (``tallies``); returns the weights'
        sum, the sum of their squares and how many worlds it drew, fewer than ``worlds`` when
        the deadline passed (:func:`ohhell.bots.compiled.bid_worlds` is the same loop
        compiled)."""
        weight_sum = squares = 0.0
        drawn = 0
        n = view.player_count
        for _ in range(worlds):
            hands = sampler.sample(rng)
            drawn += 1
            weight = self._weight(view, table, sampler, hands)
            if weight > 0.0:  # a world that weighs nothing is not played out
                # the bids still to come guessed once, or after each candidate bid is put in
                branches = (
                    [([bid], self._world_guesses(view, table, hands, bid)) for bid in tallies]
                    if self.guess_after_bid
                    else [(list(tallies), self._world_guesses(view, table, hands, None))]
                )
                for bids, guesses in branches:
                    sim = HandSim(
                        hands=hands,
                        trump=table.trump,
                        must_trump=table.must_trump,
                        leader=table.first_bidder,
                        won=[0] * n,
                        bids=guesses,
                    )
                    tricks = self._rollout_bids(sim, table.seat, bids, lost=table.lost)
                    for bid, t in zip(bids, tricks, strict=True):
                        tallies[bid][t] += weight
                weight_sum += weight
                squares += weight * weight
            if deadline is not None and time.perf_counter() >= deadline:  # every world
                break
        return weight_sum, squares, drawn

    def _world_guesses(
        self, view: PlayerView, table: _Table, hands: Sequence[int], bid: int | None
    ) -> list[int]:
        """Every seat's bid in a world, the unknown ones guessed: with the seat's own ``bid``
        put in first (and the hook applied to the dealer's guess), or with its own guessed
        too (``None``: once per world, as by default; the hook not applied)."""
        known = list(view.bids)
        if bid is not None:
            known[table.seat] = bid
        return self._guess_bids(
            hands,
            known,
            table.trump_card,
            table.first_bidder,
            view.hand_size,
            sealed=table.sealed,
            hook=table.hook and bid is not None,
        )

    def _bid_loop_compiled(
        self,
        view: PlayerView,
        table: _Table,
        sampler: WorldSampler,
        rng: random.Random,
        worlds: int,
        deadline: float | None,
        tallies: dict[int, list[float]],
    ) -> tuple[float, float, int]:
        """:meth:`_bid_loop` in one compiled call (:func:`ohhell.bots.compiled.bid_worlds`;
        under a time budget, one per chunk of worlds): the same worlds, the same tallies."""
        assert self._bid_worlds is not None
        candidates = list(tallies)
        weight_sum = squares = 0.0
        drawn = 0
        for seeds in self._seed_chunks(rng, worlds, deadline):
            drawn += len(seeds)
            chunk, weights, weight_squares = self._bid_worlds(
                sampler,
                seeds,
                candidates,
                bids=view.bids,
                spread=self.bid_spread,
                trump_card=table.trump_card,
                trump=table.trump,
                must_trump=table.must_trump,
                first_bidder=table.first_bidder,
                hand_size=view.hand_size,
                sealed=table.sealed,
                lost=table.lost,
                guess_after_bid=self.guess_after_bid,
                hook=table.hook,
            )
            for bid, row in zip(candidates, chunk, strict=True):
                tallies[bid] = [a + b for a, b in zip(tallies[bid], row, strict=True)]
            weight_sum += weights
            squares += weight_squares
        return weight_sum, squares, drawn
