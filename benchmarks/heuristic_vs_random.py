"""Benchmark: the ``heuristic`` bot against three ``random`` bots, duplicate format.

Four players, the standard game (13 hands, 1 to 13 cards). Each deal set is a seed: every hand's
deck comes from it, so the identical deals are replayed with the heuristic rotated through all
four seats (the random bots take the other three). Prints the mean score per game of the
heuristic and of the random bots with 95 % confidence intervals (over deal sets), the paired
difference, the bid hit rates, and the heuristic's time per decision (mean and p99).

    python benchmarks/heuristic_vs_random.py            # 200 deal sets
    python benchmarks/heuristic_vs_random.py --quick    # 4 deal sets, a few seconds
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence

from _common import output_path, run_main, write_figures

from ohhell.bots import Bot, HeuristicBot, RandomBot
from ohhell.cli.options import seed_arg
from ohhell.engine import Action, GameState, Rules, deal_from_deck, shuffled_deck
from ohhell.runner import derived_rng, play_game
from ohhell.tournament.stats import mean_ci, percentile

PLAYERS = 4


def _ci95(values: Sequence[float]) -> tuple[float, float]:
    estimate = mean_ci(values)
    return estimate.mean, estimate.half_width or 0.0


def _deals(seed: int) -> Callable[[GameState], Action]:
    """The deal source of one deal set: the same deck for a hand index in every rotation."""

    def deal(state: GameState) -> Action:
        return deal_from_deck(state, shuffled_deck(random.Random(seed * 1000 + state.hand_index)))

    return deal


def run(sets: int, seed: int) -> dict[str, float]:
    """Play ``sets`` deal sets (four games each) and return the figures."""
    rules = Rules.preset("standard", PLAYERS)
    heuristic_scores: list[float] = []
    random_scores: list[float] = []
    differences: list[float] = []
    hits = {"heuristic": [0, 0], "random": [0, 0]}
    timings: list[float] = []
    for index in range(sets):
        set_seed = seed + index
        set_heuristic: list[float] = []
        set_random: list[float] = []
        for seat in range(PLAYERS):
            bots: list[Bot] = [HeuristicBot() if s == seat else RandomBot() for s in range(PLAYERS)]
            result = play_game(
                rules,
                bots,
                deal_rng=random.Random(set_seed),
                bot_rngs=[derived_rng("heuristic-vs-random", set_seed, s) for s in range(PLAYERS)],
                first_dealer=set_seed % PLAYERS,
                deals=_deals(set_seed),
            )
            state = result.state
            set_heuristic.append(state.totals[seat])
            set_random.append(
                statistics.fmean(state.totals[s] for s in range(PLAYERS) if s != seat)
            )
            for hand in state.results:
                for s in range(PLAYERS):
                    tally = hits["heuristic" if s == seat else "random"]
                    tally[0] += hand.bids[s] == hand.tricks_won[s]
                    tally[1] += 1
            timings.extend(result.decision_seconds[seat])
        heuristic_scores.append(statistics.fmean(set_heuristic))
        random_scores.append(statistics.fmean(set_random))
        differences.append(heuristic_scores[-1] - random_scores[-1])
    h_mean, h_half = _ci95(heuristic_scores)
    r_mean, r_half = _ci95(random_scores)
    d_mean, d_half = _ci95(differences)
    return {
        "deal_sets": sets,
        "heuristic_mean": h_mean,
        "heuristic_ci95": h_half,
        "random_mean": r_mean,
        "random_ci95": r_half,
        "difference_mean": d_mean,
        "difference_ci95": d_half,
        "heuristic_hit_rate": hits["heuristic"][0] / hits["heuristic"][1],
        "random_hit_rate": hits["random"][0] / hits["random"][1],
        "ms_per_decision_mean": 1000 * statistics.fmean(timings),
        "ms_per_decision_p99": 1000 * percentile(timings, 99),
        "decisions": len(timings),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()  # --quick sets the count
    size.add_argument("--sets", type=int, default=200, help="deal sets (default 200)")
    size.add_argument("--quick", action="store_true", help="4 deal sets, for smoke tests")
    parser.add_argument("--seed", type=seed_arg, default=2026, help="seed of the first deal set")
    parser.add_argument("--json", type=output_path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    sets = 4 if args.quick else args.sets
    if sets < 2:
        parser.error(f"--sets must be at least 2 (for a confidence interval), got {sets}")
    figures = {**run(sets, args.seed), "seed": args.seed}
    print(f"heuristic vs 3 random, 4 players, standard game, {sets} duplicate deal sets")
    print(
        f"mean score per game: heuristic {figures['heuristic_mean']:.1f}"
        f" ± {figures['heuristic_ci95']:.1f}, random {figures['random_mean']:.1f}"
        f" ± {figures['random_ci95']:.1f} (95 % CI)"
    )
    print(
        f"paired difference per game: {figures['difference_mean']:+.1f}"
        f" ± {figures['difference_ci95']:.1f}"
    )
    print(
        f"bid hit rate: heuristic {figures['heuristic_hit_rate']:.1%},"
        f" random {figures['random_hit_rate']:.1%}"
    )
    print(
        f"heuristic ms per decision: mean {figures['ms_per_decision_mean']:.3f},"
        f" p99 {figures['ms_per_decision_p99']:.3f} ({figures['decisions']} decisions)"
    )
    write_figures(args.json, figures)
    return 0


if __name__ == "__main__":
    run_main(main)
