"""Tournament statistics: means with 95 % confidence intervals, the paired difference, bid hit
rates, first-place shares and decision times.

Definitions (``n`` players, so ``n`` games per deal set):

- **Unit of independence.** Games replaying the same deal set share their cards, so they are
  not independent; deal sets are. Every confidence interval is therefore taken over deal sets:
  each deal set contributes one number (a mean over its games), and the interval is
  ``mean ± t · s / √k`` for ``k`` deal sets with sample standard deviation ``s``, ``t`` being
  Student's two-sided 95 % quantile with ``k - 1`` degrees of freedom (12.71 for 2 deal sets,
  2.26 for 10, 1.98 for 100: with few deal sets the normal 1.96 would claim far more than 95 %;
  no interval when ``k < 2``). An interval of a share (first place) is cut to 0..1.
- **Mean score per game.** The candidate's per-deal-set value is its final total averaged over
  its ``n`` rotations; the baseline's is the final total of every baseline seat averaged over
  the same ``n`` games. **Per hand** is that value divided by the hands per game.
- **Paired difference.** Per deal set: the candidate's mean game score over its rotations minus
  the baseline copies' mean game score in the same games.
- **Bid hit rate.** Bids made exactly over bids made, overall, by hand size, by seat (table
  position ``0..n-1``) and by bidding position (``0`` bids first, ``n-1`` is the dealer; under
  simultaneous bidding, where all bid at once, it is the place from the dealer's left, ``0``
  leading the first trick).
- **First-place share.** A game's winners share first place (equal highest totals): each winner
  is credited ``1 / (number of winners)``, every other seat 0. The share is the mean credit per
  seat-game, so equal bots each get ``1/n``; per deal set, then averaged with an interval
  (of no width when every deal set gives the same share: a t-interval, it measures only the
  spread seen between deal sets).
- **Time per decision.** Every decision of the bot pooled, forced moves (one legal action)
  included; median, 95th and 99th percentiles (linear interpolation between order statistics)
  and the mean, in milliseconds.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from ohhell.tournament.duplicate import (
    DealSetOutcome,
    Failure,
    GameOutcome,
    Matchup,
    TournamentError,
)

__all__ = [
    "Z95",
    "BotStats",
    "Estimate",
    "Rate",
    "TournamentStats",
    "compute_stats",
    "mean_ci",
    "paired_differences",
    "percentile",
    "t95",
]

Z95: Final = statistics.NormalDist().inv_cdf(0.975)
"""The two-sided 95 % quantile of the standard normal distribution (1.95996...), which
:func:`t95` approaches as the degrees of freedom grow."""


def t95(df: int) -> float:
    """Student's two-sided 95 % quantile with ``df`` degrees of freedom: the ``t`` with
    ``P(|T| > t) = 0.05``, found by bisection on the tail, ``P(|T| > t) = I_x(df/2, 1/2)``
    with ``x = df / (df + t²)`` (the regularised incomplete beta function, :func:`_beta_inc`).

    >>> round(t95(1), 3), round(t95(9), 3), round(t95(99), 3), round(t95(10**7), 4)
    (12.706, 2.262, 1.984, 1.96)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    low, high = Z95, 64.0  # t95(1) = 12.71 < 64; every t95 is above the normal's
    for _ in range(100):  # the bracket halves each time: far below a float's precision
        middle = (low + high) / 2
        if _beta_inc(df / 2, 0.5, df / (df + middle * middle)) > 0.05:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _beta_inc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function ``I_x(a, b)``, by its continued fraction
    (evaluated by the modified Lentz method), on the side where it converges fast."""
    if x <= 0.0 or x >= 1.0:
        return 0.0 if x <= 0.0 else 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _beta_inc(b, a, 1.0 - x)
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
        + b * math.log1p(-x)
    )  # fmt: skip
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return math.exp(log_front) * fraction / a


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with the half-width of its 95 % confidence interval (``None`` when the
    sample has fewer than two values)."""

    mean: float
    half_width: float | None
    n: int
    bounds: tuple[float, float] | None = None
    """The values the estimated quantity can take (0..1 for a share), which cut the
    interval; ``None`` for none."""

    @property
    def low(self) -> float | None:
        if self.half_width is None:
            return None
        low = self.mean - self.half_width
        return low if self.bounds is None else max(low, self.bounds[0])

    @property
    def high(self) -> float | None:
        if self.half_width is None:
            return None
        high = self.mean + self.half_width
        return high if self.bounds is None else min(high, self.bounds[1])

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci95_low": self.low, "ci95_high": self.high, "n": self.n}

    def __str__(self) -> str:
        if self.half_width is None:
            return f"{self.mean:.2f}"
        return f"{self.mean:.2f} ± {self.half_width:.2f}"


def mean_ci(values: Sequence[float], *, bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of ``values`` with a 95 % confidence interval by Student's t, cut to
    ``bounds`` where the quantity has them.

    >>> e = mean_ci([1.0, 2.0, 3.0, 4.0])
    >>> e.mean, round(e.half_width, 4)
    (2.5, 2.0543)
    >>> mean_ci([0.0, 1.0, 1.0], bounds=(0.0, 1.0)).high
    1.0
    """
    if not values:
        raise ValueError("mean_ci needs at least one value")
    mean = statistics.fmean(values)
    k = len(values)
    if k < 2:
        return Estimate(mean, None, k, bounds)
    return Estimate(mean, t95(k - 1) * statistics.stdev(values) / math.sqrt(k), k, bounds)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values``, interpolating linearly between order
    statistics (numpy's default).

    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0], 50), percentile([1.0, 2.0, 3.0, 4.0, 5.0], 95)
    (3.0, 4.8)
    """
    if not values:
        raise ValueError("percentile needs at least one value")
    if not 0 <= q <= 100:
        raise ValueError(f"q must be in 0..100, got {q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


@dataclass(frozen=True, slots=True)
class Rate:
    """``hits`` out of ``total``."""

    hits: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.hits / self.total if self.total else None

    def to_json(self) -> dict[str, Any]:
        return {"hits": self.hits, "total": self.total, "rate": self.rate}


@dataclass(frozen=True, slots=True)
class BotStats:
    """Everything reported for one side of the matchup."""

    role: str
    """``"candidate"`` or ``"baseline"``."""
    bot: str
    score_per_game: Estimate
    score_per_hand: Estimate
    first_place_share: Estimate
    bids: Rate
    bids_by_hand_size: dict[int, Rate]
    bids_by_seat: dict[int, Rate]
    bids_by_position: dict[int, Rate]
    decisions: int
    decision_ms: dict[str, float]
    """``median``, ``p95``, ``p99`` and ``mean`` milliseconds per decision."""

    def to_json(self) -> dict[str, Any]:
        def rates(table: dict[int, Rate]) -> dict[str, Any]:
            return {str(key): rate.to_json() for key, rate in sorted(table.items())}

        return {
            "role": self.role,
            "bot": self.bot,
            "score_per_game": self.score_per_game.to_json(),
            "score_per_hand": self.score_per_hand.to_json(),
            "first_place_share": self.first_place_share.to_json(),
            "bid_hit_rate": self.bids.to_json(),
            "bid_hit_rate_by_hand_size": rates(self.bids_by_hand_size),
            "bid_hit_rate_by_seat": rates(self.bids_by_seat),
            "bid_hit_rate_by_bid_position": rates(self.bids_by_position),
            "decisions": self.decisions,
            "decision_ms": self.decision_ms,
        }


@dataclass(frozen=True, slots=True)
class TournamentStats:
    """The statistics of a finished tournament."""

    rules: str
    """The rules, described in one line."""
    deal_sets: int
    """Deal sets counted (those without a bot failure)."""
    games: int
    candidate: BotStats
    baseline: BotStats
    paired_difference: Estimate
    paired_differences: tuple[float, ...]
    """Per counted deal set, candidate minus baseline mean game score."""
    failures: tuple[Failure, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "deal_sets": self.deal_sets,
            "games": self.games,
            "bots": [self.candidate.to_json(), self.baseline.to_json()],
            "paired_difference": self.paired_difference.to_json(),
            "paired_differences": list(self.paired_differences),
            "failures": [
                {
                    "deal_set": f.deal_set,
                    "candidate_seat": f.candidate_seat,
                    "seat": f.seat,
                    "bot": f.bot,
                    "message": f.message,
                }
                for f in self.failures
            ],
        }


def _seats(game: GameOutcome, role: str) -> list[int]:
    seats = range(len(game.totals))
    if role == "candidate":
        return [game.candidate_seat]
    return [s for s in seats if s != game.candidate_seat]


def _first_credit(game: GameOutcome, seat: int) -> float:
    return 1 / len(game.winners) if seat in game.winners else 0.0


def _bot_stats(role: str, bot: str, complete: Sequence[DealSetOutcome]) -> BotStats:
    per_game: list[float] = []
    per_hand: list[float] = []
    first: list[float] = []
    overall = [0, 0]
    by_size: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_seat: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    by_position: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    seconds: list[float] = []
    for outcome in complete:
        totals: list[int] = []
        credits: list[float] = []
        hands = len(outcome.games[0].hands)
        for game in outcome.games:
            n = len(game.totals)
            for seat in _seats(game, role):
                totals.append(game.totals[seat])
                credits.append(_first_credit(game, seat))
                seconds.extend(game.decision_seconds[seat])
                for row in game.hands:
                    hit = int(row.bids[seat] == row.tricks_won[seat])
                    position = (seat - row.dealer - 1) % n
                    for tally in (
                        overall,
                        by_size[row.hand_size],
                        by_seat[seat],
                        by_position[position],
                    ):
                        tally[0] += hit
                        tally[1] += 1
        per_game.append(statistics.fmean(totals))
        per_hand.append(per_game[-1] / hands)
        first.append(statistics.fmean(credits))

    def rates(table: dict[int, list[int]]) -> dict[int, Rate]:
        return {key: Rate(hits, total) for key, (hits, total) in sorted(table.items())}

    timing = (
        {
            "median": percentile(seconds, 50) * 1000,
            "p95": percentile(seconds, 95) * 1000,
            "p99": percentile(seconds, 99) * 1000,
            "mean": statistics.fmean(seconds) * 1000,
        }
        if seconds
        else {}
    )
    return BotStats(
        role=role,
        bot=bot,
        score_per_game=mean_ci(per_game),
        score_per_hand=mean_ci(per_hand),
        first_place_share=mean_ci(first, bounds=(0.0, 1.0)),
        bids=Rate(overall[0], overall[1]),
        bids_by_hand_size=rates(by_size),
        bids_by_seat=rates(by_seat),
        bids_by_position=rates(by_position),
        decisions=len(seconds),
        decision_ms=timing,
    )


def paired_differences(complete: Iterable[DealSetOutcome]) -> tuple[float, ...]:
    """Per deal set: the candidate's mean game score over its rotations minus the baseline
    copies' mean game score in the same games.

    Computed exactly and rounded once, so that deal sets with the same difference give the
    same number (two means subtracted as floats may differ in the last bits: 5/3 - 0/6 and
    7/3 - 4/6 would be 1.6666666666666667 and 1.666666666666667, which numpy cannot bin for
    the plot)."""
    differences = []
    for outcome in complete:
        candidate = [g.totals[g.candidate_seat] for g in outcome.games]
        baseline = [
            t for g in outcome.games for s, t in enumerate(g.totals) if s != g.candidate_seat
        ]
        difference = Fraction(sum(candidate), len(candidate)) - Fraction(
            sum(baseline), len(baseline)
        )
        differences.append(float(difference))
    return tuple(differences)


def compute_stats(matchup: Matchup, outcomes: Sequence[DealSetOutcome]) -> TournamentStats:
    """The statistics of ``outcomes`` (see the module docstring). Deal sets voided by a bot
    failure are left out and listed; when every deal set failed, a :class:`TournamentError`
    says so with the first failure."""
    complete = [o for o in outcomes if o.failure is None]
    failures = tuple(o.failure for o in outcomes if o.failure is not None)
    if not complete:
        first = f": {failures[0].message}" if failures else ""
        raise TournamentError(f"no deal set was completed{first}")
    differences = paired_differences(complete)
    return TournamentStats(
        rules=matchup.rules.describe(),
        deal_sets=len(complete),
        games=sum(len(o.games) for o in complete),
        candidate=_bot_stats("candidate", matchup.candidate, complete),
        baseline=_bot_stats("baseline", matchup.baseline, complete),
        paired_difference=mean_ci(differences),
        paired_differences=differences,
        failures=failures,
    )
