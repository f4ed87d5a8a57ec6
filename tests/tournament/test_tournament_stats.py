"""Tournament statistics: CI math against hand computation, the paired difference on a tiny
synthetic example, and deterministic results on a small fixed deal set."""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import random
import statistics
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell.engine import Rules, Schedule
from ohhell.tournament import (
    DealSetOutcome,
    GameOutcome,
    HandRow,
    Matchup,
    TournamentError,
    compute_stats,
    generate_deal_sets,
    mean_ci,
    play_tournament,
    run_tournament,
)
from ohhell.tournament.duplicate import Failure
from ohhell.tournament.stats import Z95, Estimate, Tally, fixed, percentile, share_ci, t95

SMALL_RULES = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2, 3))
MATCHUP = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random", seed=5)


def test_mean_ci_matches_hand_computation() -> None:
    # values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7; Student's t, 7 df: 2.364624
    estimate = mean_ci([2, 4, 4, 4, 5, 5, 7, 9])
    half = 2.364624251592785 * math.sqrt(32 / 7) / math.sqrt(8)
    assert estimate.mean == 5
    assert estimate.half_width == pytest.approx(half)
    assert estimate.low == pytest.approx(5 - half)
    assert estimate.high == pytest.approx(5 + half)
    assert estimate.n == 8


@pytest.mark.parametrize(
    ("df", "quantile"),
    [
        (1, 12.706204736174707),
        (2, 4.302652729749464),
        (5, 2.570581835636314),
        (10, 2.2281388519862744),
        (30, 2.0422724563012378),
        (100, 1.9839715185235556),
        (1000, 1.9623390808264078),
    ],
)
def test_t95_is_students_quantile(df: int, quantile: float) -> None:
    """The published two-sided 95 % quantiles of Student's t; with few deal sets the normal
    1.96 would give an interval that covers far less often than it says."""
    assert t95(df) == pytest.approx(quantile, rel=1e-8)
    assert t95(df) > Z95
    with pytest.raises(ValueError, match="at least 1"):
        t95(0)


def test_a_share_s_interval_stays_within_0_and_1_where_student_s_does_not() -> None:
    shares = [1.0, 1.0, 0.5, 1.0]
    share = share_ci(shares, 16)
    assert share.low is not None and share.high is not None
    assert 0.0 < share.low < share.mean < share.high <= 1.0
    assert share.to_json()["ci95_high"] == share.high
    student = mean_ci(shares)
    assert student.high is not None and student.high > 1  # Student's t, uncut


def test_mean_ci_of_one_value_has_no_interval() -> None:
    estimate = mean_ci([3.5])
    assert (estimate.mean, estimate.half_width, estimate.low, estimate.high) == (
        3.5,
        None,
        None,
        None,
    )
    with pytest.raises(ValueError, match="at least one value"):
        mean_ci([])


def test_percentile_interpolates_linearly() -> None:
    values = [10.0, 20.0, 30.0, 40.0]
    assert percentile(values, 0) == 10
    assert percentile(values, 100) == 40
    assert percentile(values, 50) == 25
    assert percentile(values, 99) == pytest.approx(30 + 10 * 0.97)


def _game(
    deal_set: int, seat: int, totals: tuple[int, ...], bids: tuple[int, ...], won: tuple[int, ...]
) -> GameOutcome:
    best = max(totals)
    return GameOutcome(
        deal_set=deal_set,
        candidate_seat=seat,
        totals=totals,
        winners=tuple(s for s, t in enumerate(totals) if t == best),
        hands=(HandRow(hand_size=1, dealer=2, bids=bids, tricks_won=won, points=totals),),
        decision_seconds=tuple((0.001 * (s + 1), 0.002 * (s + 1)) for s in range(3)),
    )


def synthetic_outcomes() -> list[DealSetOutcome]:
    """Two deal sets of 3 one-hand games, the candidate in seats 0, 1, 2, plus a voided one."""
    first = DealSetOutcome(
        0,
        (
            _game(0, 0, (11, 0, 10), (1, 1, 0), (1, 0, 0)),
            _game(0, 1, (0, 11, 10), (0, 1, 0), (1, 1, 0)),
            _game(0, 2, (11, 10, 11), (1, 0, 1), (1, 0, 1)),
        ),
    )
    second = DealSetOutcome(
        1,
        (
            _game(1, 0, (0, 10, 10), (1, 0, 0), (0, 0, 0)),
            _game(1, 1, (10, 0, 11), (0, 1, 1), (0, 0, 1)),
            _game(1, 2, (10, 10, 0), (0, 0, 1), (0, 0, 0)),
        ),
    )
    voided = DealSetOutcome(2, (), Failure(2, 1, 1, "broken", "bot 'broken' in seat 1: raised"))
    return [first, second, voided]


def test_paired_difference_on_a_synthetic_example() -> None:
    matchup = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random")
    stats = compute_stats(matchup, synthetic_outcomes())
    # deal set 0: candidate 11, 11, 11 -> 11; baseline (0+10 + 0+10 + 11+10)/6 = 41/6
    # deal set 1: candidate 0, 0, 0 -> 0; baseline (10+10 + 10+11 + 10+10)/6 = 61/6
    assert stats.paired_differences == pytest.approx((11 - 41 / 6, -61 / 6))
    expected = mean_ci([11 - 41 / 6, -61 / 6])
    assert stats.paired_difference.mean == pytest.approx(expected.mean)
    assert stats.paired_difference.half_width == pytest.approx(expected.half_width)
    assert stats.candidate.score_per_game.mean == pytest.approx(5.5)
    assert stats.baseline.score_per_game.mean == pytest.approx((41 / 6 + 61 / 6) / 2)
    assert stats.candidate.score_per_hand.mean == pytest.approx(5.5)  # one hand per game
    assert (stats.deal_sets, stats.games) == (2, 6)
    assert [f.deal_set for f in stats.failures] == [2]


def test_bid_rates_first_place_and_times_on_a_synthetic_example() -> None:
    matchup = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random")
    stats = compute_stats(matchup, synthetic_outcomes())
    candidate, baseline = stats.candidate, stats.baseline
    # candidate made its bid in all 3 games of deal set 0 and none of deal set 1
    assert (candidate.bids.hits, candidate.bids.total) == (3, 6)
    # baseline seats hit 1 + 1 + 2 in deal set 0 and 2 + 2 + 2 in deal set 1, of 12 bids
    assert (baseline.bids.hits, baseline.bids.total) == (10, 12)
    assert {s: (r.hits, r.total) for s, r in candidate.bids_by_seat.items()} == {
        0: (1, 2),
        1: (1, 2),
        2: (1, 2),
    }
    # dealer 2: seat 0 bids first (position 0), seat 2 last (position 2); the baseline seats
    # hit 3 of 4 bids in seats 0 and 1 and 4 of 4 in seat 2, the dealer's
    assert set(candidate.bids_by_position) == {0, 1, 2}
    assert {p: (r.hits, r.total) for p, r in baseline.bids_by_position.items()} == {
        0: (3, 4),
        1: (3, 4),
        2: (4, 4),
    }
    assert candidate.bids_by_hand_size[1].total == 6
    # first place: deal set 0 the candidate wins alone, alone, shared with seat 0 -> (1+1+0.5)/3;
    # deal set 1: it wins nothing (game 2: seat 1 and 2 share; game 3: seats 0, 1 share)
    assert candidate.first_place_share.mean == pytest.approx((2.5 / 3 + 0) / 2)
    shares = candidate.first_place_share.mean * 3 + baseline.first_place_share.mean * 6
    assert shares == pytest.approx(3.0)  # one first place per game, 3 games per deal set
    # the candidate's decisions took 1, 2 ms (seat 0), 2, 4 ms (seat 1), 3, 6 ms (seat 2) in
    # both deal sets: sorted 1 1 2 2 2 2 | 3 3 4 4 6 6
    assert candidate.decisions == 12
    assert candidate.decision_ms["median"] == pytest.approx(2.5)
    assert candidate.decision_ms["p99"] == pytest.approx(6.0)
    assert candidate.decision_ms["mean"] == pytest.approx(3.0)


def test_decision_time_percentiles_are_the_ones_named() -> None:
    """The candidate's 100 decisions take 1, 2, ..., 100 ms (all in its first game): the
    median is 50.5 ms, p95 95.05 ms and p99 99.01 ms (linear interpolation), each told
    apart."""
    times = tuple(0.001 * (k + 1) for k in range(100))
    first = synthetic_outcomes()[0]
    games = tuple(
        replace(
            game,
            decision_seconds=tuple(
                (times if game.candidate_seat == 0 else ())
                if seat == game.candidate_seat
                else (0.5,)
                for seat in range(3)
            ),
        )
        for game in first.games
    )
    matchup = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random")
    candidate = compute_stats(matchup, [replace(first, games=games)]).candidate
    assert candidate.decisions == 100
    assert candidate.decision_ms == pytest.approx(
        {"median": 50.5, "p95": 95.05, "p99": 99.01, "mean": 50.5}
    )


def test_a_tournament_on_a_fixed_deal_set_is_deterministic() -> None:
    deal_sets = generate_deal_sets(SMALL_RULES, 3, seed=11)
    matchup = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random", seed=5)
    first = run_tournament(matchup, deal_sets, jobs=1)
    again = run_tournament(matchup, deal_sets, jobs=2)
    strip = [[(g.candidate_seat, g.totals, g.hands) for g in o.games] for o in first]
    assert strip == [[(g.candidate_seat, g.totals, g.hands) for g in o.games] for o in again]
    stats = compute_stats(matchup, first)
    assert stats.games == 9
    assert all(o.failure is None for o in first)
    # every game of a deal set replays the same deal: the same hand sizes and dealers
    for outcome in first:
        dealers = {tuple((row.hand_size, row.dealer) for row in g.hands) for g in outcome.games}
        assert len(dealers) == 1
    again_stats = compute_stats(matchup, again)
    assert again_stats.paired_differences == stats.paired_differences
    assert again_stats.candidate.bids_by_hand_size == stats.candidate.bids_by_hand_size
    assert again_stats.baseline.first_place_share == stats.baseline.first_place_share


def test_a_bot_against_itself_on_fixed_deals_breaks_even_in_every_deal_set() -> None:
    """Duplicate play replays the same deals in every rotation: the heuristic ignores its
    generator, so against itself each rotation of a deal set is the same game (the candidate
    merely sits elsewhere), every paired difference is exactly 0 and the candidate's figures
    are the baseline's. (Equal hand sizes and dealers alone would not show a rotation dealt
    other cards; this does.)"""
    deal_sets = generate_deal_sets(SMALL_RULES, 4, seed=11)
    matchup = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="heuristic", seed=5)
    outcomes = run_tournament(matchup, deal_sets, jobs=1)
    for outcome in outcomes:
        assert outcome.failure is None
        assert [g.candidate_seat for g in outcome.games] == [0, 1, 2]
        assert len({(g.totals, g.hands) for g in outcome.games}) == 1, outcome.index
    assert len({o.games[0].hands for o in outcomes}) == 4  # the deal sets differ
    stats = compute_stats(matchup, outcomes)
    assert stats.paired_differences == (0.0,) * 4
    assert stats.paired_difference.mean == 0.0
    candidate, baseline = stats.candidate, stats.baseline
    assert candidate.score_per_game.mean == pytest.approx(baseline.score_per_game.mean)
    assert candidate.bids.hits * baseline.bids.total == baseline.bids.hits * candidate.bids.total
    assert candidate.first_place_share.mean == pytest.approx(baseline.first_place_share.mean)


def test_a_failing_bot_voids_its_deal_set_without_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    import ohhell.tournament.duplicate as duplicate
    from ohhell.bots import RandomBot

    class Broken(RandomBot):
        name = "broken"

        def choose(self, view, rng, budget):  # type: ignore[no-untyped-def]
            if view.hand_size == 3:
                raise RuntimeError("cannot count to three")
            return super().choose(view, rng, budget)

    class NamedAlike(RandomBot):
        name = "broken"  # another bot of the same name, which plays

    real = duplicate.resolve_bot
    made = {"broken": Broken, "broken-too": Broken, "named-alike": NamedAlike}
    monkeypatch.setattr(
        duplicate, "resolve_bot", lambda name: made[name]() if name in made else real(name)
    )
    deal_sets = generate_deal_sets(SMALL_RULES, 2, seed=3)
    matchup = Matchup(rules=SMALL_RULES, candidate="broken", baseline="random")
    outcomes = run_tournament(matchup, deal_sets, jobs=1)
    assert all(o.failure is not None and o.games == () for o in outcomes)
    assert "cannot count to three" in outcomes[0].failure.message  # type: ignore[union-attr]
    # the failing side is named by its spec: here both sides' bots are named "broken"
    both = Matchup(rules=SMALL_RULES, candidate="named-alike", baseline="broken-too")
    failure = run_tournament(both, deal_sets, jobs=1)[0].failure
    assert failure is not None and failure.seat != failure.candidate_seat
    assert failure.bot == "broken-too"
    with pytest.raises(TournamentError, match="no deal set was completed"):
        compute_stats(matchup, outcomes)


def test_a_decision_still_running_from_an_earlier_deal_set_is_charged_to_its_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The candidate gets stuck in deal set 0 (in seat 1); in deal set 1 the timed decisions
    wait for it, and the deal set is voided too: charged to the candidate, whose decision is
    still running, not to the side whose seat it was stuck in (a baseline seat by then)."""
    import threading

    import ohhell.runner as runner
    import ohhell.tournament.duplicate as duplicate
    from ohhell.bots import Budget, RandomBot

    monkeypatch.setattr(runner, "_GRACE_SECONDS", 0.05)  # a stuck decision's grace, shortened
    release = threading.Event()

    class HangsOnce(RandomBot):
        name = "random"  # named as the baseline's bot: only the side's spec sets them apart
        hung = False

        def choose(self, view, rng, budget):  # type: ignore[no-untyped-def]
            if view.seat == 1 and not HangsOnce.hung:
                HangsOnce.hung = True
                release.wait(timeout=120)  # far past its budget (freed at the end)
            return super().choose(view, rng, budget)

    real = duplicate.resolve_bot
    monkeypatch.setattr(
        duplicate, "resolve_bot", lambda name: HangsOnce() if name == "hangs" else real(name)
    )
    matchup = Matchup(
        rules=SMALL_RULES, candidate="hangs", baseline="random", budget=Budget(seconds=0.01)
    )
    try:
        first, second = run_tournament(matchup, generate_deal_sets(SMALL_RULES, 2, seed=3), jobs=1)
    finally:
        release.set()
        for thread in threading.enumerate():
            if thread.name.startswith("bot-decision"):
                thread.join(timeout=60)
    assert first.failure is not None and second.failure is not None
    assert (first.failure.candidate_seat, first.failure.seat, first.failure.bot) == (1, 1, "hangs")
    assert "overran its budget: no action after" in first.failure.message
    assert (second.failure.candidate_seat, second.failure.seat) == (0, 1)
    assert second.failure.bot == "hangs"
    assert second.failure.message.startswith(
        "bot 'hangs' in seat 1: cannot be timed fairly: it overran its budget in an earlier game"
    )


def test_unknown_bot_is_a_clear_error(tmp_path: Path) -> None:
    deal_sets = generate_deal_sets(SMALL_RULES, 1, seed=1)
    with pytest.raises(TournamentError, match="unknown bot 'genius'"):
        run_tournament(Matchup(rules=SMALL_RULES, candidate="genius", baseline="random"), deal_sets)


def equal_difference_outcomes() -> list[DealSetOutcome]:
    """Two deal sets whose paired differences are both exactly 5/3: 5/3 - 0/6, and
    7/3 - 4/6 (candidate 3 + 2 + 2, baseline 2 + 0 + 2)."""
    none = (0, 0, 0)  # bids and tricks won: not what is tested
    return [
        DealSetOutcome(
            0,
            (
                _game(0, 0, (0, 0, 0), none, none),
                _game(0, 1, (0, 0, 0), none, none),
                _game(0, 2, (0, 0, 5), none, none),
            ),
        ),
        DealSetOutcome(
            1,
            (
                _game(1, 0, (3, 2, 0), none, none),
                _game(1, 1, (0, 2, 0), none, none),
                _game(1, 2, (2, 0, 2), none, none),
            ),
        ),
    ]


def test_equal_paired_differences_are_equal_numbers() -> None:
    # each difference is 5/3 exactly; the two means subtracted as floats would give
    # 1.6666666666666667 and 1.666666666666667, an interval that is not 0 wide, and a plot
    # that numpy cannot bin ("Too many bins for data range")
    stats = compute_stats(
        Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random"),
        equal_difference_outcomes(),
    )
    assert stats.paired_differences == (5 / 3, 5 / 3)
    assert stats.paired_difference.mean == 5 / 3
    assert stats.paired_difference.half_width == 0.0


@given(st.lists(st.integers(0, 2_000_000), min_size=1, max_size=300))
@settings(max_examples=200, deadline=None)
def test_times_counted_by_microsecond_give_the_percentiles_of_every_time(
    microseconds: list[int],
) -> None:
    """A tally keeps decision times as counts per whole microsecond, not one by one; its
    median, p95, p99 and mean are exactly those of every time kept (``percentile`` and
    ``statistics.fmean`` over the list), whatever repeats."""
    seconds = tuple(us / 1e6 for us in microseconds)
    first = synthetic_outcomes()[0]
    games = tuple(
        replace(
            game,
            decision_seconds=tuple(
                (seconds if game.candidate_seat == 0 else ()) if seat == game.candidate_seat else ()
                for seat in range(3)
            ),
        )
        for game in first.games
    )
    tally = Tally()
    tally.add(replace(first, games=games))
    candidate = tally.stats(MATCHUP).candidate
    assert candidate.decisions == len(seconds)
    assert candidate.decision_ms == {
        "median": percentile(seconds, 50) * 1000,
        "p95": percentile(seconds, 95) * 1000,
        "p99": percentile(seconds, 99) * 1000,
        "mean": statistics.fmean(seconds) * 1000,
    }
    assert tally.stats(MATCHUP).baseline.decision_ms == {}  # no decisions: no times


@pytest.fixture(scope="module")
def small_tournament() -> list[DealSetOutcome]:
    deal_sets = generate_deal_sets(SMALL_RULES, 5, seed=3)
    voided = DealSetOutcome(5, (), Failure(5, 0, 2, "random", "bot 'random' in seat 2: raised"))
    return [*run_tournament(MATCHUP, deal_sets, jobs=1), voided]


@given(st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None)
def test_a_tally_in_any_order_gives_the_statistics_of_the_deal_sets_in_order(
    small_tournament: list[DealSetOutcome], rng: random.Random
) -> None:
    """Deal sets finish in any order on several workers, or come back from a journal: the
    statistics gathered one at a time are the same numbers, to the last bit, as those of the
    deal sets in order."""
    shuffled = small_tournament[:]
    rng.shuffle(shuffled)
    tally = Tally()
    for outcome in shuffled:
        tally.add(outcome)
    assert (len(tally), tally.counted, tally.voided) == (6, 5, 1)
    assert tally.indices == frozenset(range(6)) and 5 in tally and 6 not in tally
    assert tally.stats(MATCHUP) == compute_stats(MATCHUP, small_tournament)


def test_a_deal_set_is_counted_once(small_tournament: list[DealSetOutcome]) -> None:
    tally = Tally()
    tally.add(small_tournament[2])
    with pytest.raises(ValueError, match="deal set 2 is counted already"):
        tally.add(small_tournament[2])
    with pytest.raises(ValueError, match="deal set 7 has neither games nor a failure"):
        tally.add(DealSetOutcome(7, ()))
    assert len(tally) == 1
    with pytest.raises(TournamentError, match="no deal set was completed: bot 'random'"):
        only_voided = Tally()
        only_voided.add(small_tournament[5])
        only_voided.stats(MATCHUP)


def test_deal_sets_are_played_as_they_finish_and_stop_when_closed(
    small_tournament: list[DealSetOutcome],
) -> None:
    """``play_tournament`` yields each deal set as it finishes, with a few given to each
    worker at a time (here 2 workers, 2 each ahead, 5 deal sets); closed early, its workers
    are gone at once."""
    deal_sets = generate_deal_sets(SMALL_RULES, 5, seed=3)
    played = list(play_tournament(MATCHUP, deal_sets, jobs=2, skip={1}))
    assert sorted(o.index for o in played) == [0, 2, 3, 4]
    strip = {o.index: [(g.candidate_seat, g.totals, g.hands) for g in o.games] for o in played}
    assert strip == {
        o.index: [(g.candidate_seat, g.totals, g.hands) for g in o.games]
        for o in small_tournament
        if o.index in strip
    }
    with contextlib.closing(play_tournament(MATCHUP, deal_sets, jobs=2)) as playing:
        next(playing)
        assert multiprocessing.active_children()  # the workers, playing on
    assert multiprocessing.active_children() == []
    with pytest.raises(TournamentError, match="deal set 5 was played before, but there are only"):
        play_tournament(MATCHUP, deal_sets, jobs=1, skip={5})  # refused at once, not when read


@given(st.integers(-(10**6), 10**6), st.integers(1, 400))
def test_a_mean_shows_rounded_as_its_exact_value_is(total: int, deal_sets: int) -> None:
    """The table rounds the mean a float stands for, an exact half away from zero: 10891 / 200
    is 54.455 and shows as 54.46, where ``:.2f`` of the float (54.45499...) gave 54.45."""
    exact = Fraction(total, deal_sets)
    hundredths = (abs(exact) * 100 + Fraction(1, 2)).__floor__()
    sign = "-" if exact < 0 and hundredths else ""
    expected = f"{sign}{hundredths // 100}.{hundredths % 100:02d}"
    assert fixed(total / deal_sets, 2) == expected
    assert str(Estimate(total / deal_sets, None, 1)) == expected


def test_the_table_shows_exact_halves_rounded_up() -> None:
    assert str(Estimate(10891 / 200, 0.125, 200)) == "54.46 ± 0.13"
    assert str(Estimate(-10891 / 200, 0.0049, 200)) == "-54.46 ± 0.00"
    assert fixed(100 * 0.2875, 1) == "28.8"  # a first-place share: 100 * 0.2875 is 28.749999...
