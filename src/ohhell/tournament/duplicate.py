"""Duplicate tournaments: the same deals replayed with the candidate in every seat.

For each deal set (see :mod:`ohhell.tournament.deals`) the tournament plays ``n`` games for
``n`` players: in game ``r`` the candidate sits in seat ``r`` and copies of the baseline in the
other seats, and every game replays the same first dealer and the same deck for each hand. Luck
of the cards then cancels out of the paired comparison (see :mod:`ohhell.tournament.stats`).

Bots are built by name with :func:`ohhell.players.make_player`, a fresh bot per seat and game,
and each gets its own ``random.Random`` seeded from the tournament seed, the deal set, the game
and the seat, so a tournament is reproducible whatever the number of worker processes.

A bot failure (:class:`ohhell.runner.BotFailure`: it raised, returned an illegal action or
overran its time budget) ends that deal set: its finished games are dropped so that every deal
set counted has all ``n`` rotations, and the failure is recorded in the outcome.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from ohhell.bots.base import Bot, Budget
from ohhell.engine import GameState, OhHellError, Rules
from ohhell.players import make_player
from ohhell.runner import BotFailure, play_game
from ohhell.tournament.deals import DealSet, DealSets

__all__ = [
    "DealSetOutcome",
    "Failure",
    "GameOutcome",
    "HandRow",
    "Matchup",
    "TournamentError",
    "default_jobs",
    "play_deal_set",
    "resolve_bot",
    "run_tournament",
]


class TournamentError(OhHellError, ValueError):
    """A tournament that cannot be run as asked (an unknown bot, a bad option)."""

    code = "tournament/config"


@dataclass(frozen=True, slots=True, kw_only=True)
class Matchup:
    """Who plays whom under which rules: the candidate against copies of the baseline."""

    rules: Rules
    candidate: str
    baseline: str
    budget: Budget = field(default_factory=Budget)
    seed: int = 0
    """Seeds the bots' random generators (the deals come from the deal sets)."""
    overrun_factor: float = 5.0
    """A decision longer than this times ``budget.seconds`` is a bot failure."""


@dataclass(frozen=True, slots=True)
class HandRow:
    """One finished hand of a game, per seat."""

    hand_size: int
    dealer: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game of a deal set, with the candidate in ``candidate_seat``."""

    deal_set: int
    candidate_seat: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    hands: tuple[HandRow, ...]
    decision_seconds: tuple[tuple[float, ...], ...]
    """Per seat, the seconds each of its decisions took."""


@dataclass(frozen=True, slots=True)
class Failure:
    """A bot failure that ended a deal set."""

    deal_set: int
    candidate_seat: int
    seat: int
    bot: str
    message: str


@dataclass(frozen=True, slots=True)
class DealSetOutcome:
    """The games of one deal set (all ``n`` rotations), or the failure that voided it."""

    index: int
    games: tuple[GameOutcome, ...]
    failure: Failure | None = None


def resolve_bot(name: str) -> Bot:
    """A new bot by name; an unknown or unavailable bot is a :class:`TournamentError`."""
    try:
        return make_player(name)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None


def _bot_rng(seed: int, deal_set: int, candidate_seat: int, seat: int) -> random.Random:
    return random.Random(f"ohhell-tournament/{seed}/{deal_set}/{candidate_seat}/{seat}")


def _outcome(
    state: GameState, deal_set: int, candidate_seat: int, timings: Sequence[Sequence[float]]
) -> GameOutcome:
    return GameOutcome(
        deal_set=deal_set,
        candidate_seat=candidate_seat,
        totals=state.totals,
        winners=state.winners,
        hands=tuple(
            HandRow(r.hand_size, r.dealer, r.bids, r.tricks_won, r.points) for r in state.results
        ),
        decision_seconds=tuple(tuple(seat) for seat in timings),
    )


def play_deal_set(matchup: Matchup, index: int, deal_set: DealSet) -> DealSetOutcome:
    """Play the ``n`` rotations of deal set ``index`` (see the module docstring)."""
    n = matchup.rules.player_count
    games: list[GameOutcome] = []
    for candidate_seat in range(n):
        bots = [
            resolve_bot(matchup.candidate if seat == candidate_seat else matchup.baseline)
            for seat in range(n)
        ]
        try:
            result = play_game(
                matchup.rules,
                bots,
                bot_rngs=[_bot_rng(matchup.seed, index, candidate_seat, s) for s in range(n)],
                budget=matchup.budget,
                first_dealer=deal_set.first_dealer,
                deals=deal_set.deals(),
                overrun_factor=matchup.overrun_factor,
            )
        except BotFailure as exc:
            failure = Failure(index, candidate_seat, exc.seat, exc.bot, str(exc))
            return DealSetOutcome(index, (), failure)
        games.append(_outcome(result.state, index, candidate_seat, result.decision_seconds))
    return DealSetOutcome(index, tuple(games))


def default_jobs() -> int:
    """The default number of worker processes: every local core."""
    return os.cpu_count() or 1


def run_tournament(
    matchup: Matchup,
    deal_sets: DealSets,
    *,
    jobs: int | None = None,
    on_done: Callable[[DealSetOutcome], None] | None = None,
) -> list[DealSetOutcome]:
    """Play every deal set, on ``jobs`` worker processes (default: every core; 1 plays in this
    process), calling ``on_done`` as each deal set finishes. Returns the outcomes in deal-set
    order, the same whatever ``jobs`` is."""
    deal_sets.check_fits(matchup.rules)
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise TournamentError(f"--jobs must be at least 1, got {jobs}")
    for name in (matchup.candidate, matchup.baseline):
        resolve_bot(name)  # fail fast, before any worker starts
    outcomes: list[DealSetOutcome] = []
    if jobs == 1 or len(deal_sets.sets) == 1:
        for index, deal_set in enumerate(deal_sets.sets):
            outcome = play_deal_set(matchup, index, deal_set)
            outcomes.append(outcome)
            if on_done is not None:
                on_done(outcome)
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(deal_sets.sets))) as pool:
            futures = [
                pool.submit(play_deal_set, matchup, index, deal_set)
                for index, deal_set in enumerate(deal_sets.sets)
            ]
            for future in as_completed(futures):
                outcome = future.result()
                outcomes.append(outcome)
                if on_done is not None:
                    on_done(outcome)
    return sorted(outcomes, key=lambda outcome: outcome.index)
