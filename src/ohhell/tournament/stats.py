"""Tournament statistics: means with 95 % confidence intervals, the paired difference, bid hit
rates, first-place shares and decision times.

Definitions (``n`` players, so ``n`` games per deal set):

- **Unit of independence.** Games replaying the same deal set share their cards, so they are
  not independent; deal sets are. Every confidence interval is therefore taken over deal sets:
  each deal set contributes one number (a mean over its games), and the interval is
  ``mean ± t · s / √k`` for ``k`` deal sets with sample standard deviation ``s``, ``t`` being
  Student's two-sided 95 % quantile with ``k - 1`` degrees of freedom (12.71 for 2 deal sets,
  2.26 for 10, 1.98 for 100: with few deal sets the normal 1.96 would claim far more than 95 %;
  no interval when ``k < 2``). A share's (first place) is its own (below).
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
  seat-game, so equal bots each get ``1/n``; per deal set, then averaged, with Wilson's score
  interval for the effective number of games the spread between deal sets is worth
  (:func:`share_ci`): inside 0..1, and not of no width when every deal set gives the same
  share, as a t-interval would be.
- **Time per decision.** Every decision of the bot pooled, forced moves (one legal action)
  included; median, 95th and 99th percentiles (linear interpolation between order statistics)
  and the mean, in milliseconds.

:class:`Tally` gathers them one deal set at a time, keeping a few numbers per deal set and
counts for the rest, so that a tournament of any length reports without holding its games;
:func:`compute_stats` gives the same for a list of outcomes.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any, Final, NamedTuple

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
    "Tally",
    "TournamentStats",
    "compute_stats",
    "fixed",
    "mean_ci",
    "percentile",
    "reported_ms",
    "share_ci",
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


def fixed(value: float, places: int) -> str:
    """``value`` to ``places`` decimals, an exact half rounded away from zero as people round.

    A mean reached through floats lands a hair off the decimal it stands for, so ``:.2f``
    shows the mean 10891 / 200 = 54.455 as 54.45, and 28.75 % reached as 28.749999999999996
    as 28.7; here a value within a billionth of a half is taken for the half.

    >>> fixed(10891 / 200, 2), fixed(100 * 0.2875, 1), fixed(-0.125, 2), fixed(2 / 3, 3)
    ('54.46', '28.8', '-0.13', '0.667')
    >>> fixed(0.004, 2), fixed(-0.004, 2), fixed(float("nan"), 2), fixed(1e20, 1)
    ('0.00', '0.00', 'nan', '100000000000000000000.0')
    """
    if not math.isfinite(value):
        return f"{value:.{places}f}"
    with localcontext(prec=400):  # digits for any float's whole part and the decimals
        near = Decimal(repr(value)).quantize(Decimal(10) ** -(places + 9))
        rounded = near.quantize(Decimal(10) ** -places, rounding=ROUND_HALF_UP)
    return f"{abs(rounded) if rounded.is_zero() else rounded:f}"  # never a -0.00


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with the half-width of its 95 % confidence interval (``None`` when the
    sample has fewer than two values)."""

    mean: float
    half_width: float | None
    n: int
    interval: tuple[float, float] | None = None
    """An interval that is not the mean ± ``half_width`` (a share's, :func:`share_ci`, is not
    centred on the mean): :attr:`low` and :attr:`high` are its ends."""

    @property
    def low(self) -> float | None:
        if self.interval is not None:
            return self.interval[0]
        if self.half_width is None:
            return None
        return self.mean - self.half_width

    @property
    def high(self) -> float | None:
        if self.interval is not None:
            return self.interval[1]
        if self.half_width is None:
            return None
        return self.mean + self.half_width

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci95_low": self.low, "ci95_high": self.high, "n": self.n}

    def __str__(self) -> str:
        if self.half_width is None:
            return fixed(self.mean, 2)
        return f"{fixed(self.mean, 2)} ± {fixed(self.half_width, 2)}"


def mean_ci(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with a 95 % confidence interval by Student's t (a share, which
    stays within 0..1, takes :func:`share_ci`).

    >>> e = mean_ci([1.0, 2.0, 3.0, 4.0])
    >>> e.mean, round(e.half_width, 4)
    (2.5, 2.0543)
    """
    if not values:
        raise ValueError("mean_ci needs at least one value")
    mean = statistics.fmean(values)
    k = len(values)
    if k < 2:
        return Estimate(mean, None, k)
    return Estimate(mean, t95(k - 1) * statistics.stdev(values) / math.sqrt(k), k)


def share_ci(values: Sequence[float], games: int) -> Estimate:
    """The mean of per-deal-set shares (each in 0..1; ``games`` games in all) with a 95 %
    interval inside 0..1 that does not vanish when every deal set gives the same share.

    It is Wilson's score interval for the *effective* number of games: as many independent
    games as would give the spread seen between deal sets, ``p(1 - p) / var``, where ``var`` is
    the variance of the mean over deal sets, never more than the games played (all of them
    when the deal sets do not differ), and shrunk by ``(1.96 / t)²`` for the few degrees of
    freedom of ``k`` deal sets (Korn and Graubard's interval for a proportion from clusters).
    With many deal sets and a share away from 0 and 1 it is Student's t-interval of the
    scores; a bot that won every game of 20 deal sets (80 games) gets 0.948 .. 1, where the
    t-interval gave 1 .. 1.

    >>> e = share_ci([1.0] * 20, 80)
    >>> round(e.low, 3), e.high
    (0.948, 1.0)

    The interval holds the mean, whatever the rounding of floats (Wilson's does, exactly):

    >>> share_ci([1.0] * 3, 9).high, share_ci([0.0] * 3, 9).low
    (1.0, 0.0)
    >>> e = share_ci([0.25, 0.5, 0.0, 0.75] * 100, 1600)
    >>> round(e.low, 4), round(e.high, 4), round(mean_ci([0.25, 0.5, 0.0, 0.75] * 100).low, 4)
    (0.3479, 0.4029, 0.3475)
    """
    if not values:
        raise ValueError("share_ci needs at least one value")
    mean = statistics.fmean(values)
    k = len(values)
    if k < 2:
        return Estimate(mean, None, k)
    variance = statistics.variance(values, mean) / k
    effective = float(games) if variance == 0 else min(games, mean * (1 - mean) / variance)
    effective *= (Z95 / t95(k - 1)) ** 2
    if effective <= 0:  # a share of 0 or 1 that the float mean missed: no games' worth
        return Estimate(mean, None, k)
    z2 = Z95 * Z95 / effective
    centre = (mean + z2 / 2) / (1 + z2)
    half = Z95 * math.sqrt(mean * (1 - mean) / effective + z2 / effective / 4) / (1 + z2)
    low, high = max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half))
    return Estimate(mean, (high - low) / 2, k, (low, high))


def reported_ms(ms: float) -> float:
    """A time in milliseconds as the reports write it: to the nanosecond, since the times
    are whole microseconds and a percentile may fall between two (no 0.036000000000000004,
    the float that 36 microseconds gives in seconds and then in milliseconds).

    >>> reported_ms(36 / 1e6 * 1000), reported_ms(0.0365)
    (0.036, 0.0365)
    """
    return round(ms, 6)


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
    return _interpolated(sorted(values).__getitem__, len(values), q)


def _interpolated(ordered: Callable[[int], float], n: int, q: float) -> float:
    """The ``q``-th percentile of ``n`` values, ``ordered(k)`` the k-th smallest (0-based),
    interpolated as :func:`percentile` says."""
    position = (n - 1) * q / 100
    below = math.floor(position)
    low, high = ordered(below), ordered(min(below + 1, n - 1))
    return low + (high - low) * (position - below)


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
            "decision_ms": {key: reported_ms(ms) for key, ms in self.decision_ms.items()},
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


class _Side:
    """One side's running counts: bids made (overall, by hand size, seat and bidding
    position) and the decision times, counted by whole microsecond."""

    __slots__ = ("bids", "by_position", "by_seat", "by_size", "microseconds")

    def __init__(self) -> None:
        self.bids = [0, 0]
        self.by_size: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
        self.by_seat: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
        self.by_position: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
        self.microseconds: Counter[int] = Counter()

    def add(self, game: GameOutcome, seat: int) -> None:
        n = len(game.totals)
        for row in game.hands:
            hit = int(row.bids[seat] == row.tricks_won[seat])
            position = (seat - row.dealer - 1) % n
            for tally in (
                self.bids,
                self.by_size[row.hand_size],
                self.by_seat[seat],
                self.by_position[position],
            ):
                tally[0] += hit
                tally[1] += 1
        # to the microsecond, as GameOutcome and the journal hold them: so counted exactly
        self.microseconds.update(round(seconds * 1e6) for seconds in game.decision_seconds[seat])

    def timing(self) -> dict[str, float]:
        """``median``, ``p95``, ``p99`` and ``mean`` in milliseconds, exactly as
        :func:`percentile` and :func:`statistics.fmean` give them over every decision's
        seconds (so a report does not depend on how the times were kept)."""
        counted = sorted(self.microseconds.items())
        total = sum(self.microseconds.values())
        if not total:
            return {}

        def ordered(k: int) -> float:  # the k-th smallest time, in seconds
            for microseconds, count in counted:
                if k < count:
                    return microseconds / 1e6
                k -= count
            raise AssertionError("k is below the total")

        def at(q: float) -> float:
            return _interpolated(ordered, total, q)

        # fmean is fsum(values) / n, and fsum is the exactly rounded sum of the values
        exact = sum(Fraction(microseconds / 1e6) * count for microseconds, count in counted)
        return {
            "median": at(50) * 1000,
            "p95": at(95) * 1000,
            "p99": at(99) * 1000,
            "mean": float(exact) / total * 1000,
        }

    def stats(self, role: str, bot: str, figures: Sequence[_Figures]) -> BotStats:
        def rates(table: dict[int, list[int]]) -> dict[int, Rate]:
            return {key: Rate(hits, total) for key, (hits, total) in sorted(table.items())}

        candidate = role == "candidate"
        per_game = [f.candidate_game if candidate else f.baseline_game for f in figures]
        return BotStats(
            role=role,
            bot=bot,
            score_per_game=mean_ci(per_game),
            score_per_hand=mean_ci(
                [game / f.hands for game, f in zip(per_game, figures, strict=True)]
            ),
            first_place_share=share_ci(
                [f.candidate_first if candidate else f.baseline_first for f in figures],
                sum(f.games for f in figures),
            ),
            bids=Rate(*self.bids),
            bids_by_hand_size=rates(self.by_size),
            bids_by_seat=rates(self.by_seat),
            bids_by_position=rates(self.by_position),
            decisions=sum(self.microseconds.values()),
            decision_ms=self.timing(),
        )


class _Figures(NamedTuple):
    """A counted deal set's own numbers, from which the intervals are taken over deal sets."""

    candidate_game: float
    baseline_game: float
    candidate_first: float
    baseline_first: float
    hands: int
    games: int
    difference: float


class Tally:
    """A tournament's statistics, gathered one deal set at a time (:meth:`add`), in any
    order: :meth:`stats` gives what :func:`compute_stats` gives for the same deal sets.

    It keeps a few numbers per deal set (the intervals are taken over deal sets) and counts
    for the rest, not the games, so that a tournament of any length fits in memory: bid hits
    are counted by hand size, seat and bidding position, and decision times by whole
    microsecond (as they are kept), which gives their percentiles exactly.

    >>> tally = Tally()
    >>> len(tally), 3 in tally
    (0, False)
    """

    __slots__ = ("_failures", "_figures", "_sides")

    def __init__(self) -> None:
        self._figures: dict[int, _Figures] = {}
        self._failures: dict[int, Failure] = {}
        self._sides = {"candidate": _Side(), "baseline": _Side()}

    def __len__(self) -> int:
        """The deal sets added, voided ones included."""
        return len(self._figures) + len(self._failures)

    def __contains__(self, index: object) -> bool:
        return index in self._figures or index in self._failures

    @property
    def indices(self) -> frozenset[int]:
        """The deal sets added, voided ones included."""
        return frozenset(self._figures.keys() | self._failures.keys())

    @property
    def counted(self) -> int:
        """The deal sets added that were played out (not voided by a bot failure)."""
        return len(self._figures)

    @property
    def voided(self) -> int:
        """The deal sets added that a bot failure voided."""
        return len(self._failures)

    def add(self, outcome: DealSetOutcome) -> None:
        """Count one deal set's games, or its failure; a deal set added before is refused
        (:class:`ValueError`), counted once."""
        if outcome.index in self:
            raise ValueError(f"deal set {outcome.index} is counted already")
        if outcome.failure is not None:
            self._failures[outcome.index] = outcome.failure
            return
        if not outcome.games:
            raise ValueError(f"deal set {outcome.index} has neither games nor a failure")
        candidate: list[int] = []
        baseline: list[int] = []
        candidate_first: list[float] = []
        baseline_first: list[float] = []
        for game in outcome.games:
            for seat, total in enumerate(game.totals):
                is_candidate = seat == game.candidate_seat
                (candidate if is_candidate else baseline).append(total)
                credit = 1 / len(game.winners) if seat in game.winners else 0.0
                (candidate_first if is_candidate else baseline_first).append(credit)
                self._sides["candidate" if is_candidate else "baseline"].add(game, seat)
        self._figures[outcome.index] = _Figures(
            statistics.fmean(candidate),
            statistics.fmean(baseline),
            statistics.fmean(candidate_first),
            statistics.fmean(baseline_first),
            len(outcome.games[0].hands),
            len(outcome.games),
            # exactly, rounded once: deal sets of one difference give one number (two means
            # subtracted as floats may differ in the last bits, which numpy cannot bin)
            float(
                Fraction(sum(candidate), len(candidate)) - Fraction(sum(baseline), len(baseline))
            ),
        )

    def stats(self, matchup: Matchup) -> TournamentStats:
        """The statistics of the deal sets added (see the module docstring), as of the
        tournament ``matchup``. Deal sets voided by a bot failure are left out and listed;
        when every deal set failed, a :class:`TournamentError` says so with the first
        failure."""
        failures = tuple(failure for _, failure in sorted(self._failures.items()))
        if not self._figures:
            first = f": {failures[0].message}" if failures else ""
            raise TournamentError(f"no deal set was completed{first}")
        figures = [f for _, f in sorted(self._figures.items())]  # in deal-set order
        differences = tuple(f.difference for f in figures)
        return TournamentStats(
            rules=matchup.rules.describe(),
            deal_sets=len(figures),
            games=len(figures) * matchup.rules.player_count,
            candidate=self._sides["candidate"].stats("candidate", matchup.candidate, figures),
            baseline=self._sides["baseline"].stats("baseline", matchup.baseline, figures),
            paired_difference=mean_ci(differences),
            paired_differences=differences,
            failures=failures,
        )


def compute_stats(matchup: Matchup, outcomes: Iterable[DealSetOutcome]) -> TournamentStats:
    """The statistics of ``outcomes`` (see the module docstring and :class:`Tally`, which
    gathers them). Deal sets voided by a bot failure are left out and listed; when every
    deal set failed, a :class:`TournamentError` says so with the first failure."""
    tally = Tally()
    for outcome in outcomes:
        tally.add(outcome)
    return tally.stats(matchup)
