"""Duplicate tournaments: the same deals replayed with the candidate in every seat.

For each deal set (see :mod:`ohhell.tournament.deals`) the tournament plays ``n`` games for
``n`` players: in game ``r`` the candidate sits in seat ``r`` and copies of the baseline in the
other seats, and every game replays the same first dealer and the same deck for each hand. Luck
of the cards then cancels out of the paired comparison (see :mod:`ohhell.tournament.stats`).

Bots are built by name with :func:`ohhell.players.make_player`, a fresh bot per seat and game,
and each gets its own ``random.Random`` seeded from the tournament seed, the deal set, the game
and the seat, so a tournament is reproducible whatever the number of worker processes. The seed
goes through a digest (:func:`ohhell.runner.derived_rng`): it also deals the cards, and a bot
can read its generator's state.

A bot failure (:class:`ohhell.runner.BotFailure`: it raised, returned an illegal action or
overran its time budget) ends that deal set: its finished games are dropped so that every deal
set counted has all ``n`` rotations, and the failure is recorded in the outcome.

Deal sets already played (read back from a journal, :mod:`ohhell.tournament.journal`) are
passed to :func:`run_tournament` as ``done`` (to :func:`play_tournament` as ``skip``) and
are not played again, so a tournament stopped part-way resumes where it stopped with the same
results.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures import process as futures_process
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import Any, Final

from ohhell.bots.base import Bot, Budget
from ohhell.bots.levels import BUDGET_OPTION, sets_own_simulations
from ohhell.engine import GameState, OhHellError, Rules
from ohhell.engine.jsontext import brief
from ohhell.players import check_player, make_player
from ohhell.runner import BotFailure, check_overrun_factor, derived_rng, play_game
from ohhell.stop_signals import STOP_SIGNALS
from ohhell.storage_files import release_inherited_locks
from ohhell.tournament.deals import DealSet, DealSets, check_seed

__all__ = [
    "DealSetOutcome",
    "Failure",
    "GameOutcome",
    "HandRow",
    "Matchup",
    "TournamentError",
    "check_bots",
    "check_jobs",
    "default_jobs",
    "end_with_parent",
    "play_deal_set",
    "play_tournament",
    "resolve_bot",
    "run_tournament",
    "start_fork_server",
    "stop_pool",
    "stops_deferred",
    "worker_start",
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

    def __post_init__(self) -> None:
        """Refuse, before anything is played, a matchup that is not one (a ``TypeError``) or
        that could not be played as asked (:func:`check_bots`, which resolves the bot names
        and checks the budget and the rules with each bot; a :class:`TournamentError`)."""
        if not isinstance(self.rules, Rules):
            raise TypeError(f"a matchup's rules must be a Rules, got {self.rules!r}")
        for side in ("candidate", "baseline"):
            spec = getattr(self, side)
            if not isinstance(spec, str):
                raise TypeError(
                    f"the {side} must be a bot spec, a str such as 'heuristic' or"
                    f" 'search:rivalry=0.5', got {spec!r}"
                )
        if not isinstance(self.budget, Budget):
            raise TypeError(f"a matchup's budget must be a Budget, got {self.budget!r}")
        check_seed(self.seed, TournamentError)
        check_overrun_factor(self.overrun_factor)
        check_bots(
            self.rules, (("candidate", self.candidate), ("baseline", self.baseline)), self.budget
        )

    def to_json(self) -> dict[str, Any]:
        """The matchup as JSON: what the reports and the journal say was played."""
        return {
            "candidate": self.candidate,
            "baseline": self.baseline,
            "rules": self.rules.to_dict(),
            "budget": {"simulations": self.budget.simulations, "seconds": self.budget.seconds},
            "seed": self.seed,
            "overrun_factor": self.overrun_factor,
        }


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
    """Per seat, the seconds each of its decisions took, to the microsecond: as the journal
    keeps them, so that a resumed tournament reports what an uninterrupted one would."""


@dataclass(frozen=True, slots=True)
class Failure:
    """A bot failure that ended a deal set."""

    deal_set: int
    candidate_seat: int
    seat: int
    """The failing bot's seat: in the game that failed, or, for a decision of an earlier game
    still running (``cannot be timed fairly``), in that game."""
    bot: str
    """The failing side's bot spec, as the matchup names it (``search:rivalry=0.5``)."""
    message: str


@dataclass(frozen=True, slots=True)
class DealSetOutcome:
    """The games of one deal set (all ``n`` rotations), or the failure that voided it."""

    index: int
    games: tuple[GameOutcome, ...]
    failure: Failure | None = None


def check_bots(
    rules: Rules,
    specs: Sequence[tuple[str, str]],
    budget: Budget,
    *,
    simulations: str = "budget.simulations",
) -> None:
    """Raise :class:`TournamentError` if a bot of ``specs`` (each ``(side, spec)``, the side
    naming it in the message) could not play the tournament as asked under ``rules`` and
    ``budget``: a spec that sets its own simulations beside a budget of simulations (one of the
    two would be ignored); a bot that would refuse every decision under ``budget``
    (:func:`~ohhell.bots.check_budget`: ``ismcts`` under a budget of seconds where the installed
    OpenSpiel's search has no clock, its slower decisions being voided as overruns), or
    ``ismcts`` under rules that are not OpenSpiel's hands (it would fail in every game).
    ``simulations`` names the budget's simulations in the messages (the command line names its
    flag)."""
    for side, spec in specs:
        if budget.simulations is not None and sets_own_simulations(spec):
            raise TournamentError(
                f"{side} {spec} sets its own {BUDGET_OPTION}, and {simulations}"
                f" {budget.simulations} sets them for every bot: give one or the other"
            )
    for side, spec in specs:
        try:
            check_player(spec, rules=rules, budget=budget, make=resolve_bot)
        except ValueError as exc:
            raise TournamentError(f"{side}: {exc}") from None


def resolve_bot(name: str) -> Bot:
    """A new bot by name; an unknown or unavailable bot is a :class:`TournamentError`."""
    try:
        return make_player(name)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None


def _bot_rng(seed: int, deal_set: int, candidate_seat: int, seat: int) -> random.Random:
    # through a digest: the same seed deals the cards, and a bot must not learn it
    return derived_rng("ohhell-tournament", seed, deal_set, candidate_seat, seat)


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
        decision_seconds=tuple(tuple(round(t * 1e6) / 1e6 for t in seat) for seat in timings),
    )


def play_deal_set(matchup: Matchup, index: int, deal_set: DealSet) -> DealSetOutcome:
    """Play the ``n`` rotations of deal set ``index`` (see the module docstring)."""
    if not isinstance(matchup, Matchup):
        raise TypeError(f"matchup must be a Matchup, got {brief(matchup)}")
    if not isinstance(deal_set, DealSet):
        raise TypeError(f"deal_set must be a DealSet, got {brief(deal_set)}")
    n = matchup.rules.player_count
    games: list[GameOutcome] = []
    for candidate_seat in range(n):
        sides = [
            matchup.candidate if seat == candidate_seat else matchup.baseline for seat in range(n)
        ]
        try:
            result = play_game(
                matchup.rules,
                [resolve_bot(side) for side in sides],
                names=sides,
                bot_rngs=[_bot_rng(matchup.seed, index, candidate_seat, s) for s in range(n)],
                budget=matchup.budget,
                first_dealer=deal_set.first_dealer,
                deals=deal_set.deals(),
                overrun_factor=matchup.overrun_factor,
            )
        except BotFailure as exc:  # named by its side: two sides may be one bot, set apart
            # (a decision stuck from an earlier game is named as the side it was played for)
            failure = Failure(index, candidate_seat, exc.seat, exc.bot, str(exc))
            return DealSetOutcome(index, (), failure)
        games.append(_outcome(result.state, index, candidate_seat, result.decision_seconds))
    return DealSetOutcome(index, tuple(games))


def default_jobs() -> int:
    """The default number of worker processes: every local core."""
    return os.cpu_count() or 1


def check_jobs(jobs: object, name: str = "jobs") -> None:
    """Refuse a number of worker processes ``jobs`` (named ``name`` in the message) that is
    not a whole number from 1 to 4 per core: past the cores, more workers only share them, and
    each is a process of its own with the bots loaded."""
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"{name} must be a whole number, got {jobs!r}")
    most = 4 * default_jobs()
    if not 1 <= jobs <= most:
        raise TournamentError(f"{name} must be from 1 to {most} (4 per core here), got {jobs}")


def _play_job(job: tuple[Matchup, int, DealSet]) -> DealSetOutcome:
    return play_deal_set(*job)


def worker_context() -> BaseContext:
    """How the tournament's worker processes start (the long benchmarks' too): forked by a
    fork server, a process started afresh for it, wherever the platform has one, else as the
    platform starts them (spawned: a fresh interpreter each).

    The same on every Python from 3.11: Python 3.14 starts workers this way by default on
    Linux, where earlier versions fork the calling process itself, which is unsafe once it runs
    threads (a worker may inherit a lock some thread held, and wait on it for ever; a program
    that runs a tournament may well run threads, a notebook's kernel always does). A worker
    builds its bots from the matchup, and its search kernels load from numba's disk cache,
    filled by the main process before the first game (:func:`ohhell.players.prepare_players`).
    """
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else None
    return multiprocessing.get_context(method)


def start_fork_server() -> None:
    """Start now, with Ctrl-C held back from it, the fork server that :func:`worker_context`
    starts workers through, unless it is running already; nothing where there is none.

    Ctrl-C reaches every process of the terminal's foreground group, the fork server
    included. It ignores Ctrl-C, but only once it has imported what it preloads (the main
    module, the command's whole code: half a second), and a worker it forks hears Ctrl-C
    until its initializer (:func:`worker_start`) ignores it; either printed a
    ``KeyboardInterrupt`` traceback after the tournament's own last words when stopped
    early. Started from here, it holds Ctrl-C blocked, as ``multiprocessing`` starts its
    resource tracker, and so do the workers it forks, from their first instruction.

    For a program of one's own: every process the fork server forks later, for any pool of
    this process, is born with Ctrl-C blocked; ``ohhell tournament`` calls this, the library
    does not."""
    from multiprocessing import forkserver, resource_tracker

    if worker_context().get_start_method() != "forkserver":
        return
    # the fork server starts the resource tracker first, unless it runs, and that unblocks
    # Ctrl-C here once the tracker is started (the tracker itself ignores it from its start).
    # It ignores SIGTERM too, but not SIGHUP: a closed terminal hangs up the whole group, and
    # a tracker dead of it was started again, whose KeyError tracebacks (the semaphores the
    # first one knew) followed the tournament's last line. Started with SIGHUP blocked, it
    # keeps it blocked; it ends when this process does, as it always does.
    with _blocked(signal.SIGHUP):
        resource_tracker.ensure_running()
    with _blocked(signal.SIGINT):
        forkserver.ensure_running()


@contextlib.contextmanager
def _blocked(signum: int) -> Iterator[None]:
    """Signal ``signum`` blocked in this thread while inside (and so in the processes it
    starts: they inherit the mask); one that comes meanwhile waits, unless another thread
    takes it."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no fork server either
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signum})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def stops_deferred() -> Iterator[None]:
    """Inside, Ctrl-C, SIGTERM and SIGHUP wait: each one that comes is noted, and handed to
    the handler it would have met as the section ends (the section's own exception, if it
    has one, is then its context). Handlers are the main thread's alone: elsewhere, where
    no signal interrupts anything, this does nothing.

    The tournament gives its workers deal sets inside, which starts them: a stop that came
    while a worker was being started (a fork server's worker is forked once asked for, and
    known once its number has come back) left a worker that no one knew of, to fail on its
    own and print a traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum: int, frame: object) -> None:  # noqa: ARG001
        came.append(signum)

    before = {
        signum: handler
        for signum in STOP_SIGNALS
        # ignored stays ignored; None, a handler set outside Python, is left to act
        if (handler := signal.getsignal(signum)) not in (signal.SIG_IGN, None)
    }
    for signum in before:
        signal.signal(signum, note)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(came):
            signal.raise_signal(signum)


def worker_start() -> None:
    """The tournament's worker processes' initializer (the long benchmarks, which keep SIGTERM
    for ``multiprocessing.Pool``, have their own, ``benchmarks/_common.py``): workers
    leave Ctrl-C, SIGTERM and SIGHUP to the main process, which stops them (see
    :func:`stop_pool`),
    close any copies of its locks (:func:`~ohhell.storage_files.release_inherited_locks`;
    none where they are forked by a fork server, :func:`worker_context`),
    and end when the main process is killed instead of waiting for work forever."""
    for signum in STOP_SIGNALS:  # Ctrl-C, SIGTERM and a hang-up: the main process's
        signal.signal(signum, signal.SIG_IGN)
    release_inherited_locks()  # the --out folder is free as soon as the main process ends
    end_with_parent()


def end_with_parent() -> None:
    """In a worker process: end it at once when the process that asked for it is gone,
    killed perhaps, instead of waiting for work forever or finishing work no one will read.

    That process is ``multiprocessing``'s parent, the one holding the worker's
    :class:`~multiprocessing.Process`, whatever forked it: a fork server's workers are its
    children, not the main process's. Watching ``os.getppid()`` waited on the fork server,
    which itself waits for its workers to close their copies of its pipe, so a main process
    killed alone left them all running for ever, holding its output open. The parent's
    sentinel (a pipe it holds, closed by the system when it dies) says so in every start
    method."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nothing to watch
        return

    def watch_parent() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch_parent, name="watch-parent", daemon=True).start()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: drop the deal sets not started and end the ones being played.

    Python 3.14 has ``kill_workers`` for this; before it, the executor's worker processes
    are only reachable through its ``_processes``. Shutting down without ending them is not
    enough: the executor would still play what it had queued, and may play everything left
    when it is garbage-collected before it sees the cancellation. They are killed, as they
    ignore SIGTERM (:func:`worker_start`).

    Before Python 3.12, the interpreter's exit wakes every executor's manager thread through
    a pipe, closed by then for this one, and prints an ignored ``OSError: Bad file
    descriptor`` after the tournament's last words; so the stopped executor is taken off that
    list too (``_threads_wakeups``, again private)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    results = getattr(pool, "_result_queue", None)  # and this
    kill = getattr(pool, "kill_workers", None)
    if kill is not None:
        kill()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.kill()
    if results is not None:
        # a worker killed midway through sending a result (one over 16 KiB goes in two writes)
        # leaves the manager thread reading the rest for ever: the main process holds the
        # last copy of the pipe's writing end that outlives the workers (it never writes to
        # it), and closing it ends that read, which the thread takes as the pool broken
        results._writer.close()
    # gone when this returns (a kill is only a signal sent). The manager thread waits for the
    # workers too, and the wait that comes second learns nothing, so it is joined first
    if manager is not None:
        manager.join()
    for worker in workers:
        worker.join()
    pool.shutdown(wait=True)
    wakeups = getattr(futures_process, "_threads_wakeups", None)
    if wakeups is not None and manager is not None:
        wakeups.pop(manager, None)


def play_tournament(
    matchup: Matchup,
    deal_sets: DealSets,
    *,
    jobs: int | None = None,
    skip: Iterable[int] = (),
) -> Generator[DealSetOutcome, None, None]:
    """Play every deal set but those ``skip`` names (played before: a resumed tournament), on
    ``jobs`` worker processes (default: every core; 1 plays in this process), yielding each
    outcome as it finishes. The outcomes are the same whatever ``jobs`` is; only the order in
    which they come differs.

    The workers are given a few deal sets at a time, so a tournament of any length holds
    only those in flight. Close the iterator to stop early (``contextlib.closing``; an
    exception inside a ``for`` loop over it does not, until it is garbage-collected): the
    workers stop at once, and what was yielded is what was finished."""
    if not isinstance(matchup, Matchup):
        raise TypeError(f"matchup must be a Matchup, got {type(matchup).__name__}")
    if not isinstance(deal_sets, DealSets):
        raise TypeError(
            "deal_sets must be DealSets (generate_deal_sets, load_deal_sets), got"
            f" {type(deal_sets).__name__}"
        )
    deal_sets.check_fits(matchup.rules)
    jobs = default_jobs() if jobs is None else jobs
    check_jobs(jobs)
    skipped = frozenset(skip)
    for index in skipped:
        if type(index) is not int:
            raise TypeError(f"skip must hold deal-set numbers (int), got {brief(index)}")
    for index in sorted(skipped):
        if not 0 <= index < len(deal_sets.sets):
            raise TournamentError(
                f"deal set {index} was played before, but there are only {len(deal_sets.sets)}"
            )
    todo = [
        (matchup, index, deal_set)
        for index, deal_set in enumerate(deal_sets.sets)
        if index not in skipped
    ]
    if jobs == 1 or len(todo) <= 1:
        return (_play_job(job) for job in todo)
    return _played_by_workers(todo, min(jobs, len(todo)))


def _played_by_workers(
    todo: list[tuple[Matchup, int, DealSet]], workers: int
) -> Generator[DealSetOutcome, None, None]:
    """:func:`play_tournament` on ``workers`` processes, each kept busy with at most
    :data:`_QUEUED_PER_WORKER` deal sets given to it ahead."""
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=worker_context(), initializer=worker_start
    )
    jobs = iter(todo)
    running: dict[Future[DealSetOutcome], int] = {}

    def give(count: int) -> None:
        with stops_deferred():  # a worker a submission starts is known before a stop acts
            for job in itertools.islice(jobs, count):
                running[pool.submit(_play_job, job)] = job[1]

    try:
        give(workers * _QUEUED_PER_WORKER)
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=running.__getitem__):
                del running[future]
                yield future.result()  # each finished one first: a pool broken since keeps it
            give(len(finished))
    except BaseException:  # Ctrl-C, an error, or the iterator closed: nothing more is played
        stop_pool(pool)
        raise
    pool.shutdown()


_QUEUED_PER_WORKER: Final = 2
"""Deal sets given to each worker at a time: one to play and one waiting, so that no worker
waits for the main process between deal sets."""


def run_tournament(
    matchup: Matchup,
    deal_sets: DealSets,
    *,
    jobs: int | None = None,
    on_done: Callable[[DealSetOutcome], None] | None = None,
    done: Iterable[DealSetOutcome] = (),
) -> list[DealSetOutcome]:
    """Play every deal set, on ``jobs`` worker processes (default: every core; 1 plays in this
    process), calling ``on_done`` as each deal set finishes. Returns the outcomes in deal-set
    order, the same whatever ``jobs`` is. (:func:`play_tournament` plays them without
    keeping them, for a tournament too long to hold every game in memory.)

    ``done`` holds outcomes played before (a resumed tournament): their deal sets are not played
    again, ``on_done`` is not called for them, and they are returned with the others. When the
    run stops early (Ctrl-C or another exception in the main process), the workers stop at
    once; what ``on_done`` was given is what was finished."""
    done = tuple(done)
    for outcome in done:
        if not isinstance(outcome, DealSetOutcome):
            raise TypeError(f"done must hold DealSetOutcome, got {brief(outcome)}")
    outcomes = {outcome.index: outcome for outcome in done}
    with contextlib.closing(
        play_tournament(matchup, deal_sets, jobs=jobs, skip=outcomes.keys())
    ) as played:
        for outcome in played:
            outcomes[outcome.index] = outcome
            if on_done is not None:
                on_done(outcome)
    return [outcomes[index] for index in sorted(outcomes)]
