"""Every figure a tournament reports, computed by hand, where a user reads it: the statistics,
``report.json``, ``report.csv``, the terminal table and the plot. The fixtures tell apart what
a simpler one would let coincide: seats and bidding positions (the dealer is seat 0, so seat 1
bids first), a game's score and its score per hand (two hands, of 1 and 3 cards), one hand
size's hit rate and another's, the candidate's decision times and the baseline's."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.tournament.test_tournament_stats import SMALL_RULES, synthetic_outcomes

from ohhell.bots import RandomBot
from ohhell.engine import Rules, Schedule
from ohhell.runner import play_game
from ohhell.tournament import (
    DealSetOutcome,
    GameOutcome,
    HandRow,
    Matchup,
    compute_stats,
    generate_deal_sets,
    mean_ci,
    run_tournament,
)
from ohhell.tournament.report import _csv_text, csv_rows, render_table, report_json, write_reports
from ohhell.tournament.stats import Z95, TournamentStats, share_ci, t95

MATCHUP = Matchup(rules=SMALL_RULES, candidate="heuristic", baseline="random")


def _one_hand_game(
    seat: int, bids: tuple[int, ...], won: tuple[int, ...], points: tuple[int, ...]
) -> GameOutcome:
    best = max(points)
    return GameOutcome(
        deal_set=0,
        candidate_seat=seat,
        totals=points,
        winners=tuple(s for s, t in enumerate(points) if t == best),
        hands=(HandRow(hand_size=1, dealer=0, bids=bids, tricks_won=won, points=points),),
        decision_seconds=((0.001,), (0.001,), (0.001,)),
    )


def seat_outcomes() -> list[DealSetOutcome]:
    """One deal set of one-card games dealt by seat 0: seat 1 bids first (position 0), seat 2
    second, seat 0 last.

    ==============  =========  ==========  ===========================
    candidate seat  bids       tricks won  bids made
    ==============  =========  ==========  ===========================
    0               1, 1, 1    1, 0, 0     seat 0
    1               0, 0, 1    0, 1, 0     seat 0
    2               1, 0, 0    1, 0, 0     every seat
    ==============  =========  ==========  ===========================
    """
    return [
        DealSetOutcome(
            0,
            (
                _one_hand_game(0, (1, 1, 1), (1, 0, 0), (11, 0, 0)),
                _one_hand_game(1, (0, 0, 1), (0, 1, 0), (10, 0, 0)),
                _one_hand_game(2, (1, 0, 0), (1, 0, 0), (11, 10, 10)),
            ),
        )
    ]


def two_hand_outcomes() -> list[DealSetOutcome]:
    """:func:`synthetic_outcomes` (one-card hands) with a three-card hand after each game's
    first, where every seat bids 1 and takes 1 (11 points each): the paired differences and
    the winners stay, a game has two hands, and three-card bids are all made."""
    extra = HandRow(hand_size=3, dealer=0, bids=(1, 1, 1), tricks_won=(1, 1, 1), points=(11,) * 3)
    return [
        replace(
            outcome,
            games=tuple(
                replace(game, hands=(*game.hands, extra), totals=tuple(t + 11 for t in game.totals))
                for game in outcome.games
            ),
        )
        for outcome in synthetic_outcomes()
    ]


def _rates(table: dict[int, Any]) -> dict[int, tuple[int, int]]:
    return {key: (rate.hits, rate.total) for key, rate in table.items()}


def _table_text(stats: TournamentStats) -> str:
    console = Console(record=True, width=240, color_system=None)
    render_table(stats, console)
    return console.export_text()


def _row(text: str, label: str) -> list[str]:
    """The cells of the table's row ``label``."""
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip("│┃|").split("│")]
        if cells and cells[0] == label:
            return cells[1:]
    raise AssertionError(f"no row {label!r} in\n{text}")


def test_bid_hit_rates_by_seat_and_by_bidding_position() -> None:
    stats = compute_stats(MATCHUP, seat_outcomes())
    candidate, baseline = stats.candidate, stats.baseline
    assert _rates(candidate.bids_by_seat) == {0: (1, 1), 1: (0, 1), 2: (1, 1)}
    assert _rates(candidate.bids_by_position) == {0: (0, 1), 1: (1, 1), 2: (1, 1)}
    assert _rates(baseline.bids_by_seat) == {0: (2, 2), 1: (1, 2), 2: (0, 2)}
    assert _rates(baseline.bids_by_position) == {0: (1, 2), 1: (0, 2), 2: (2, 2)}
    # the same figures in report.json, in its order: the candidate first
    bots = report_json(stats, MATCHUP)["bots"]
    assert [(bot["role"], bot["bot"]) for bot in bots] == [
        ("candidate", "heuristic"),
        ("baseline", "random"),
    ]
    assert bots[1]["bid_hit_rate_by_seat"]["2"] == {"hits": 0, "total": 2, "rate": 0.0}
    assert bots[1]["bid_hit_rate_by_bid_position"]["2"] == {"hits": 2, "total": 2, "rate": 1.0}
    # in report.csv
    rows = {(role, metric, key): rest for role, _, metric, key, *rest in csv_rows(stats)}
    assert rows[("baseline", "bid_hit_rate_by_seat", 0)] == [1.0, None, None, 2]
    assert rows[("baseline", "bid_hit_rate_by_seat", 2)] == [0.0, None, None, 2]
    assert rows[("baseline", "bid_hit_rate_by_bid_position", 0)] == [0.5, None, None, 2]
    assert rows[("candidate", "bid_hit_rate_by_bid_position", 0)] == [0.0, None, None, 1]
    # and in the terminal's table
    text = _table_text(stats)
    assert _row(text, "bids made, seat 0") == ["100.0 %", "100.0 %"]
    assert _row(text, "bids made, seat 1") == ["0.0 %", "50.0 %"]
    assert _row(text, "bids made, seat 2") == ["100.0 %", "0.0 %"]


def test_score_per_hand_and_hit_rates_by_hand_size() -> None:
    stats = compute_stats(MATCHUP, two_hand_outcomes())
    candidate, baseline = stats.candidate, stats.baseline
    # per game: the candidate 22 and 11 in the two deal sets; the baseline 41/6 + 11 and
    # 61/6 + 11; per hand, half of each
    assert candidate.score_per_game.mean == pytest.approx(16.5)
    assert candidate.score_per_hand.mean == pytest.approx(8.25)
    assert baseline.score_per_hand.mean == pytest.approx(19.5 / 2)
    assert candidate.score_per_hand.half_width == pytest.approx(
        candidate.score_per_game.half_width / 2  # type: ignore[operator]
    )
    assert stats.paired_differences == pytest.approx((25 / 6, -61 / 6))  # as with one hand
    assert _rates(candidate.bids_by_hand_size) == {1: (3, 6), 3: (6, 6)}
    assert _rates(baseline.bids_by_hand_size) == {1: (10, 12), 3: (12, 12)}
    assert (candidate.bids.hits, candidate.bids.total) == (9, 12)
    assert (baseline.bids.hits, baseline.bids.total) == (22, 24)


def test_a_shares_interval_stays_inside_0_and_1_and_never_vanishes() -> None:
    """A first-place share's interval (Wilson's, for the effective number of games: see
    ``share_ci``) lies inside 0..1 where Student's t-interval of two deal sets, 5/12 ± 12.706 *
    0.589 / √2, went far beyond it and was cut to 0..1; it has width where every deal set gives
    the same share (the t-interval was 1 .. 1 for a bot that won all 80 games of 20 deal
    sets); and with many deal sets it is the t-interval."""
    share = compute_stats(MATCHUP, synthetic_outcomes()).candidate.first_place_share
    assert share.mean == pytest.approx(5 / 12)  # shares 5/6 and 0 of its 3 games per deal set
    assert share.low is not None and share.high is not None
    assert 0 < share.low < share.mean < share.high < 1
    every_game = share_ci([1.0] * 20, 80)
    effective = 80 * (Z95 / t95(19)) ** 2  # all 80 games, for the 19 degrees of freedom
    assert every_game.low == pytest.approx(effective / (effective + Z95**2))  # Wilson's, at 1
    assert every_game.high == 1.0 and round(every_game.low, 3) == 0.948
    none = share_ci([0.0] * 20, 80)
    assert (none.low, round(none.high, 3)) == (0.0, 0.052)
    shares = [0.25, 0.5, 0.0, 0.75, 0.5, 0.25] * 100
    wilson, student = share_ci(shares, 4 * len(shares)), mean_ci(shares)
    assert wilson.low == pytest.approx(student.low, abs=0.002)
    assert wilson.high == pytest.approx(student.high, abs=0.002)
    assert share_ci([0.5], 4).low is None  # one deal set: no interval, as for the scores


def test_an_estimate_reads_mean_and_half_width() -> None:
    assert str(mean_ci([1.0, 2.0, 3.0, 4.0])) == "2.50 ± 2.05"  # 3.182 * 1.291 / 2
    assert str(mean_ci([3.5])) == "3.50"


def _with_times(outcomes: list[DealSetOutcome]) -> list[DealSetOutcome]:
    """The candidate's decisions take 1, 2, ..., 100 ms (in its first game), each baseline
    seat's one 0.5 s decision."""
    times = tuple(0.001 * (k + 1) for k in range(100))
    return [
        replace(
            outcome,
            games=tuple(
                replace(
                    game,
                    decision_seconds=tuple(
                        (times if game.candidate_seat == 0 and outcome.index == 0 else ())
                        if seat == game.candidate_seat
                        else (0.5,)
                        for seat in range(3)
                    ),
                )
                for game in outcome.games
            ),
        )
        for outcome in outcomes
    ]


def test_the_terminal_table_shows_each_figure_in_its_row() -> None:
    stats = compute_stats(MATCHUP, _with_times(two_hand_outcomes()))
    assert (stats.candidate.decisions, stats.baseline.decisions) == (100, 12)
    text = _table_text(stats)
    assert "; 2 deal sets" in " ".join(text.split())  # the title
    candidate, baseline = stats.candidate, stats.baseline
    assert _row(text, "score per game (95 % CI)") == [
        str(candidate.score_per_game),
        str(baseline.score_per_game),
    ]
    assert _row(text, "score per hand (95 % CI)") == [
        str(candidate.score_per_hand),
        str(baseline.score_per_hand),
    ]
    assert str(candidate.score_per_hand).startswith("8.25 ± ")
    assert _row(text, "bids made") == ["75.0 %", "91.7 %"]
    assert _row(text, "bids made, 1 card") == ["50.0 %", "83.3 %"]
    assert _row(text, "bids made, 3 cards") == ["100.0 %", "100.0 %"]
    assert _row(text, "first-place share, per seat") == [
        "41.7 %",
        f"{100 * (1 - 5 / 12) / 2:.1f} %",
    ]
    assert _row(text, "ms/decision median") == ["50.500", "500.000"]
    assert _row(text, "p95") == ["95.050", "500.000"]
    assert _row(text, "p99") == ["99.010", "500.000"]
    # 25/6 and -61/6: mean -3, half-width 12.706 * 10.135 / sqrt(2)
    assert "paired difference (heuristic - random) per game: -3.00 ± 91.06 over 2 deal sets" in (
        " ".join(text.split())
    )


def test_lines_under_the_table_are_not_broken_to_the_console_width() -> None:
    """Piped, rich's console is 80 columns wide: the lines under the table stay whole, so
    that a log can be searched (a failure's message was broken in the middle of "0.0002 s")."""
    stats = compute_stats(MATCHUP, _with_times(two_hand_outcomes()))
    console = Console(record=True, width=30, color_system=None)
    render_table(stats, console)
    lines = console.export_text().splitlines()
    assert "paired difference (heuristic - random) per game: -3.00 ± 91.06 over 2 deal sets" in (
        lines
    )
    assert "  deal set 2: bot 'broken' in seat 1: raised" in lines


def test_the_csv_holds_each_figure_under_its_name() -> None:
    stats = compute_stats(MATCHUP, two_hand_outcomes())
    rows = {(role, metric, key): rest for role, _, metric, key, *rest in csv_rows(stats)}
    per_hand = stats.candidate.score_per_hand
    assert rows[("candidate", "score_per_hand", "")] == [8.25, per_hand.low, per_hand.high, 2]
    assert per_hand.low is not None and per_hand.high is not None and per_hand.low < per_hand.high
    assert rows[("baseline", "bid_hit_rate", "")] == [22 / 24, None, None, 24]
    assert rows[("baseline", "bid_hit_rate_by_hand_size", 1)] == [10 / 12, None, None, 12]
    mean, low, high, n = rows[("candidate", "paired_difference_per_game", "")]
    assert (mean, n) == (pytest.approx(-3.0), 2)
    assert (low, high) == (pytest.approx(-3 - 91.06, abs=0.01), pytest.approx(-3 + 91.06, abs=0.01))
    assert rows[("tournament", "voided_deal_sets", "")] == [1, None, None, 3]  # deal set 2
    text = _csv_text(stats)
    assert "None" not in text  # a figure that does not exist is an empty cell
    assert "baseline,random,bid_hit_rate,,0.9166666666666666,,,24\n" in text


def test_the_plot_draws_the_paired_differences_and_the_rates_by_hand_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matplotlib.axes import Axes

    drawn: dict[str, list[Any]] = {"hist": [], "plot": []}
    real_hist, real_plot = Axes.hist, Axes.plot

    def hist(self: Axes, values: Any, *args: Any, **kwargs: Any) -> Any:
        drawn["hist"].append(tuple(values))
        return real_hist(self, values, *args, **kwargs)

    def plot(self: Axes, *args: Any, **kwargs: Any) -> Any:
        drawn["plot"].append((list(args[0]), list(args[1]), kwargs.get("label")))
        return real_plot(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "hist", hist)
    monkeypatch.setattr(Axes, "plot", plot)
    stats = compute_stats(MATCHUP, two_hand_outcomes())
    write_reports(stats, MATCHUP, tmp_path)
    assert drawn["hist"] == [pytest.approx((25 / 6, -61 / 6))]
    assert drawn["plot"] == [
        ([1, 3], [0.5, 1.0], "candidate: heuristic"),
        ([1, 3], [pytest.approx(10 / 12), 1.0], "baseline: random"),
    ]
    assert (tmp_path / "report.png").read_bytes().startswith(b"\x89PNG")


def test_the_plot_leaves_the_callers_matplotlib_as_it_was(tmp_path: Path) -> None:
    """``matplotlib.use("Agg")`` switched the backend of the whole process: a notebook that
    wrote a tournament's reports stopped showing its plots."""
    import matplotlib

    before = matplotlib.get_backend(), matplotlib.rcParams["backend_fallback"]
    figures = _pyplot_figures()
    matplotlib.use("svg")  # what a caller chose: not Agg
    try:
        write_reports(compute_stats(MATCHUP, two_hand_outcomes()), MATCHUP, tmp_path)
        assert matplotlib.get_backend() == "svg"
        assert _pyplot_figures() == figures  # no figure left open in pyplot
    finally:
        matplotlib.use(before[0])
        matplotlib.rcParams["backend_fallback"] = before[1]
    assert (tmp_path / "report.png").read_bytes().startswith(b"\x89PNG")


def _pyplot_figures() -> list[int]:
    import sys

    pyplot = sys.modules.get("matplotlib.pyplot")
    return [] if pyplot is None else list(pyplot.get_fignums())


def test_the_candidate_plays_the_seat_its_game_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rotation seats the candidate where its game says: every decision it made in the
    game of candidate seat ``k`` was seat ``k``'s."""
    import ohhell.tournament.duplicate as duplicate

    seen: list[int] = []

    class Spy(RandomBot):
        name = "spy"

        def choose(self, view, rng, budget):  # type: ignore[no-untyped-def]
            seen.append(view.seat)
            return super().choose(view, rng, budget)

    real = duplicate.resolve_bot
    monkeypatch.setattr(
        duplicate, "resolve_bot", lambda name: Spy() if name == "spy" else real(name)
    )
    matchup = Matchup(rules=SMALL_RULES, candidate="spy", baseline="random")
    (outcome,) = run_tournament(matchup, generate_deal_sets(SMALL_RULES, 1, seed=4), jobs=1)
    decisions = [len(game.decision_seconds[game.candidate_seat]) for game in outcome.games]
    expected = [seat for game, k in zip(outcome.games, decisions, strict=True) for seat in
                [game.candidate_seat] * k]  # fmt: skip
    assert [game.candidate_seat for game in outcome.games] == [0, 1, 2]
    assert seen == expected


def test_a_game_keeps_each_seat_s_decision_times_to_the_microsecond() -> None:
    import ohhell.tournament.duplicate as duplicate

    rules = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1,))
    state = play_game(rules, [RandomBot()] * 3, deal_rng=random.Random(1)).state
    game = duplicate._outcome(state, 0, 1, [(0.0012344, 0.0000016), (0.002,), (0.0035,)])
    assert game.decision_seconds == ((0.001234, 0.000002), (0.002,), (0.0035,))
    assert (game.candidate_seat, game.totals) == (1, state.totals)


def test_the_plot_of_equal_paired_differences_is_drawn(tmp_path: Path) -> None:
    from tests.tournament.test_tournament_stats import equal_difference_outcomes

    stats = compute_stats(MATCHUP, equal_difference_outcomes())
    write_reports(stats, MATCHUP, tmp_path)  # was: ValueError: Too many bins for data range
    assert (tmp_path / "report.png").read_bytes().startswith(b"\x89PNG")
