"""Benchmark: four ``heuristic`` bots in self-play: bid hit rate and calibration of the estimate.

Four players, the standard game (13 hands, 1 to 13 cards), ``--games`` seeded games (game ``i``
deals from ``random.Random(seed + i)`` and its first dealer is ``i % 4``). Prints

- the bid hit rate overall and by hand size;
- the calibration of :func:`~ohhell.bots.heuristic.expected_tricks` at the moment each seat bids:
  the seats' estimates grouped into buckets (half a trick wide), with the mean estimate and the
  mean number of tricks those seats then took (a calibrated estimate has them equal), plus the
  overall mean signed and absolute error;
- the mean time per decision.

    python benchmarks/heuristic_selfplay.py              # 200 games
    python benchmarks/heuristic_selfplay.py --quick      # 4 games, a few seconds
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from _common import output_path, run_main, write_figures

from ohhell.bots import HeuristicBot
from ohhell.bots.heuristic import expected_tricks
from ohhell.cli.options import seed_arg
from ohhell.engine import GameState, Phase, Rules, view_for
from ohhell.runner import derived_rng, play_game

PLAYERS = 4
BUCKET = 0.5
"""Width of a calibration bucket, in tricks."""


@dataclass(slots=True)
class _Recorder:
    """Notes each seat's trick estimate when it is to bid, from the game's events (outside the
    bots' timed decisions, so the time per decision is the bot's alone)."""

    estimates: dict[tuple[int, int], float] = field(default_factory=dict)
    """``(hand_index, seat)`` -> the estimate of the seat's tricks when it bid."""

    def on_events(self, state: GameState, events: object) -> None:  # noqa: ARG002
        if state.phase is not Phase.BID:
            return
        for seat in state.to_act:
            key = (state.hand_index, seat)
            if key not in self.estimates:
                self.estimates[key] = expected_tricks(view_for(state, seat))


def run(games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` self-play games and return the figures."""
    rules = Rules.preset("standard", PLAYERS)
    hits: dict[int, list[int]] = {}
    pairs: list[tuple[float, int]] = []
    timings: list[float] = []
    for index in range(games):
        recorder = _Recorder()
        result = play_game(
            rules,
            [HeuristicBot()] * PLAYERS,
            on_events=recorder.on_events,
            deal_rng=random.Random(seed + index),
            bot_rngs=[derived_rng("heuristic-selfplay", seed + index, s) for s in range(PLAYERS)],
            first_dealer=index % PLAYERS,
        )
        for seat_timings in result.decision_seconds:
            timings.extend(seat_timings)
        for hand in result.state.results:
            tally = hits.setdefault(hand.hand_size, [0, 0])
            for seat in range(PLAYERS):
                tally[0] += hand.bids[seat] == hand.tricks_won[seat]
                tally[1] += 1
                estimate = recorder.estimates[(hand.hand_index, seat)]
                pairs.append((estimate, hand.tricks_won[seat]))
    buckets: dict[int, list[tuple[float, int]]] = {}
    for estimate, actual in pairs:
        buckets.setdefault(int(estimate / BUCKET), []).append((estimate, actual))
    calibration = [
        {
            "from": key * BUCKET,
            "to": (key + 1) * BUCKET,
            "count": len(members),
            "mean_estimate": statistics.fmean(e for e, _ in members),
            "mean_tricks": statistics.fmean(a for _, a in members),
        }
        for key, members in sorted(buckets.items())
    ]
    made = sum(h for h, _ in hits.values())
    total = sum(t for _, t in hits.values())
    return {
        "games": games,
        "hit_rate": made / total,
        "hit_rate_by_hand_size": {size: h / t for size, (h, t) in sorted(hits.items())},
        "bids": total,
        "calibration": calibration,
        "mean_error": statistics.fmean(e - a for e, a in pairs),
        "mean_absolute_error": statistics.fmean(abs(e - a) for e, a in pairs),
        "ms_per_decision_mean": 1000 * statistics.fmean(timings),
        "decisions": len(timings),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()  # --quick sets the count
    size.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    size.add_argument("--quick", action="store_true", help="4 games, for smoke tests")
    parser.add_argument("--seed", type=seed_arg, default=2026, help="seed of the first game")
    parser.add_argument("--json", type=output_path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    games = 4 if args.quick else args.games
    if games < 1:
        parser.error(f"--games must be at least 1, got {games}")
    figures = {**run(games, args.seed), "seed": args.seed}
    print(f"4 heuristic bots in self-play, standard game, {games} games, {figures['bids']} bids")
    print(f"bid hit rate: {figures['hit_rate']:.1%}")
    by_size = figures["hit_rate_by_hand_size"]
    print("by hand size: " + ", ".join(f"{s}: {r:.0%}" for s, r in by_size.items()))
    print("calibration of expected_tricks at bid time (estimate bucket: mean estimate -> tricks)")
    for row in figures["calibration"]:
        print(
            f"  [{row['from']:4.1f}, {row['to']:4.1f}) n={row['count']:5d}:"
            f" {row['mean_estimate']:5.2f} -> {row['mean_tricks']:5.2f}"
        )
    print(
        f"mean error (estimate - tricks): {figures['mean_error']:+.3f},"
        f" mean absolute error {figures['mean_absolute_error']:.3f}"
    )
    print(
        f"ms per decision: mean {figures['ms_per_decision_mean']:.3f}"
        f" ({figures['decisions']} decisions)"
    )
    write_figures(args.json, figures)
    return 0


if __name__ == "__main__":
    run_main(main)
