"""Play whole games between bots: the harness shared by ``ohhell simulate``, tournaments and
tests.

The harness owns the game state and the chance: each deal comes from ``deal_rng`` (a seeded
``random.Random`` for reproducible games; ``secrets.SystemRandom()``, the default, for live play).
Each seat's bot gets only :func:`~ohhell.engine.view_for` its seat. A bot that raises, returns an
illegal action or overruns its time budget is reported as a :class:`BotFailure`; the game is never
left in a broken state. Under a time budget, a bot that does not return within ``overrun_factor``
times its budget is reported then, without waiting for it.
"""

from __future__ import annotations

import contextvars
import hashlib
import numbers
import queue
import random
import secrets
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ohhell.bots.base import Bot, Budget
from ohhell.engine import (
    Action,
    Bid,
    Event,
    GameState,
    IllegalActionError,
    OhHellError,
    Play,
    Rules,
    apply,
    new_game,
    random_deal,
    view_for,
)
from ohhell.stop_signals import STOP_SIGNALS, stops_noted

__all__ = ["BotFailure", "GameResult", "check_overrun_factor", "derived_rng", "play_game"]


class BotFailure(OhHellError):
    """A bot raised, returned an illegal action, or overran its time budget."""

    code = "bot/failure"

    def __init__(self, message: str, *, seat: int, bot: str, state: GameState) -> None:
        where = f"({state.describe_position()})"
        if not message.endswith(where):  # the engine's refusals already name the position
            message = f"{message} {where}"
        super().__init__(f"bot {bot!r} in seat {seat}: {message}")
        self.seat = seat
        self.bot = bot
        self.state = state
        """The last good state: the game can be resumed or recorded from here."""


@dataclass(slots=True)
class GameResult:
    """A finished game: its final state and, per seat, the seconds each decision took."""

    state: GameState
    decision_seconds: list[list[float]] = field(default_factory=list)


def derived_rng(*parts: object) -> random.Random:
    """A bot's generator, the same for the same ``parts`` (a tournament's seed, a game, a seat),
    seeded with the SHA-256 digest of ``parts`` rather than with the parts themselves.

    A bot holds its generator, and Mersenne Twister's seeding can be undone from its state: a
    generator seeded with text (CPython keeps a ``str`` seed's bytes in clear in the key) or with
    the seed that also deals would tell the bot how the cards were dealt. From this one it
    learns only a digest.

    >>> derived_rng("tournament", 7, 0).random() == derived_rng("tournament", 7, 0).random()
    True
    >>> derived_rng("tournament", 7, 0).random() == derived_rng("tournament", 7, 1).random()
    False
    """
    text = "/".join(str(part) for part in parts)  # a name, then numbers: no two alike
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest(), "big"))


def check_overrun_factor(overrun_factor: object) -> None:
    """Refuse an ``overrun_factor`` (:func:`play_game`'s, a tournament's) that is not a number
    of at least 1: a bot overruns when a decision takes more than ``overrun_factor`` times its
    budget's seconds, so a smaller one would blame a bot that keeps its budget, and ``nan``
    would switch the check off unsaid. ``math.inf`` switches it off as asked."""
    if isinstance(overrun_factor, bool) or not isinstance(overrun_factor, numbers.Real):
        raise TypeError(f"overrun_factor must be a number, got {_shown(overrun_factor, repr)}")
    if not float(overrun_factor) >= 1:  # nan too
        raise ValueError(
            "overrun_factor must be at least 1 (a bot overruns when a decision takes more than"
            f" overrun_factor x budget.seconds), got {overrun_factor!r}"
        )


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    *,
    deal_rng: random.Random | None = None,
    bot_rngs: Sequence[random.Random] | None = None,
    budget: Budget = Budget(),  # noqa: B008 - immutable
    first_dealer: int | None = None,
    deals: Callable[[GameState], Action] | None = None,
    on_events: Callable[[GameState, tuple[Event, ...]], None] | None = None,
    overrun_factor: float = 5.0,
    names: Sequence[str] | None = None,
) -> GameResult:
    """Play one complete game and return its result: the final state and the time each
    decision took.

    ``deals`` overrides where deals come from (duplicate tournaments replay stored deals).
    A bot overruns when a decision takes more than ``overrun_factor`` times ``budget.seconds``.
    ``names`` says how a :class:`BotFailure` names each seat's bot (default: the bot's own
    ``name``): a tournament names them as its sides are named (``search:rivalry=0.5``), so that
    two sides of one bot are told apart, and a decision still running from an earlier game is
    named as the side it was played for.
    Arguments of the wrong kind are a ``TypeError``, and the wrong number of bots or bot
    generators a ``ValueError`` (a ``first_dealer`` not of the table a ``RulesError``, as
    :func:`~ohhell.engine.new_game` says it), before anything is played.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (ohhell.engine.Rules), got {_shown(rules, repr)}")
    n = rules.player_count
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise TypeError(f"bots must be a sequence of bots, one per seat, got {_shown(bots, repr)}")
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for {n} seats")
    for seat, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(
                f"bots[{seat}] must be a bot, with a choose method (ohhell.players.make_player"
                f" builds one by name), got {_shown(bot, repr)}"
            )
    if not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget (ohhell.bots.Budget), got {_shown(budget, repr)}")
    check_overrun_factor(overrun_factor)
    if deal_rng is not None and not isinstance(deal_rng, random.Random):
        raise TypeError(
            "deal_rng must be a random.Random (random.Random(seed) for a reproducible game),"
            f" got {_shown(deal_rng, repr)}"
        )
    if first_dealer is not None and type(first_dealer) is not int:  # not a bool, not 1.0
        raise TypeError(
            f"first_dealer must be a seat (an int) or None, got {_shown(first_dealer, repr)}"
        )
    for name, hook in (("deals", deals), ("on_events", on_events)):
        if hook is not None and not callable(hook):
            raise TypeError(f"{name} must be a function or None, got {_shown(hook, repr)}")
    if bot_rngs is not None:
        if isinstance(bot_rngs, str) or not isinstance(bot_rngs, Sequence):
            raise TypeError(
                "bot_rngs must be a sequence of random.Random, one per seat, got"
                f" {_shown(bot_rngs, repr)}"
            )
        if len(bot_rngs) != n:
            raise ValueError(f"{len(bot_rngs)} bot generators for {n} seats")
        for seat, rng in enumerate(bot_rngs):
            if not isinstance(rng, random.Random):
                raise TypeError(
                    f"bot_rngs[{seat}] must be a random.Random, got {_shown(rng, repr)}"
                )
    if names is None:
        names = [_name_of(bot) for bot in bots]
    elif (
        isinstance(names, str)
        or not isinstance(names, Sequence)
        or not all(isinstance(name, str) for name in names)
    ):
        raise TypeError(f"names must be a sequence of str, one per seat, got {_shown(names, repr)}")
    elif len(names) != n:
        raise ValueError(f"{len(names)} names for {n} seats")
    deal_rng = deal_rng if deal_rng is not None else secrets.SystemRandom()
    rngs = (
        list(bot_rngs)
        if bot_rngs is not None
        else [random.Random(deal_rng.random()) for _ in range(n)]
    )
    dealer = first_dealer if first_dealer is not None else deal_rng.randrange(n)
    state = new_game(rules, first_dealer=dealer)
    timings: list[list[float]] = [[] for _ in range(n)]
    decisions = _Decisions()
    try:
        while not state.is_over:
            if state.is_chance:
                action = deals(state) if deals is not None else random_deal(state, deal_rng)
                state, events = apply(state, action)
            else:
                seat = min(state.to_act)
                bot = bots[seat]
                action = _decide(
                    bot,
                    names[seat],
                    seat,
                    state,
                    rngs[seat],
                    budget,
                    timings,
                    overrun_factor,
                    decisions,
                )
                try:
                    state, events = apply(state, action)
                except IllegalActionError as exc:
                    raise BotFailure(
                        f"returned an illegal action: {exc}",
                        seat=seat,
                        bot=names[seat],
                        state=state,
                    ) from exc
            if on_events is not None:
                on_events(state, events)
    finally:
        decisions.close()
    return GameResult(state, timings)


def _decide(
    bot: Bot,
    name: str,
    seat: int,
    state: GameState,
    rng: random.Random,
    budget: Budget,
    timings: list[list[float]],
    overrun_factor: float,
    decisions: _Decisions,
) -> Action:
    view = view_for(state, seat)
    limit = None if budget.seconds is None else overrun_factor * budget.seconds
    if limit is not None and _STUCK:
        _wait_for_stuck(state)

    def decide() -> Action:
        return bot.choose(view, rng, budget)

    try:
        if limit is None or not limit < threading.TIMEOUT_MAX:  # no time, or none to check
            outcome = _outcome(decide)
        else:
            outcome = decisions.within(limit, name, seat, decide)
    except _StillThinking:
        raise BotFailure(
            f"overran its budget: no action after {limit:g} s for a {budget.seconds:g} s budget",
            seat=seat,
            bot=name,
            state=state,
        ) from None
    if isinstance(outcome, BaseException):  # a bot's bug, or its exit, must not end the game
        said = _shown(outcome, str)
        raise BotFailure(
            f"raised {type(outcome).__name__}{': ' + said if said else ''}",
            seat=seat,
            bot=name,
            state=state,
        ) from outcome
    action, elapsed = outcome
    timings[seat].append(elapsed)
    if limit is not None and elapsed > limit:
        raise BotFailure(
            f"overran its budget: {elapsed:.3g} s for a {budget.seconds:g} s budget",
            seat=seat,
            bot=name,
            state=state,
        )
    if not (type(action) is Bid or type(action) is Play):  # not a subclass: .seat could lie
        raise BotFailure(
            f"returned {_shown(action, repr)}, not a Bid or a Play",
            seat=seat,
            bot=name,
            state=state,
        )
    if type(action.seat) is not int or action.seat != seat:
        raise BotFailure(
            f"returned {_shown(action, repr)}, not an action of its own seat",
            seat=seat,
            bot=name,
            state=state,
        )
    return action


def _outcome(decide: Callable[[], Action]) -> tuple[Action, float] | BaseException:
    """``decide()``'s action and the seconds it took, or what it raised: any exception, its
    exit (``SystemExit``), a ``GeneratorExit``, one of its own made from ``BaseException``.
    A ``KeyboardInterrupt`` that is a stop (:func:`_a_stop`: Ctrl-C, or a signal that stops
    the run as Ctrl-C does, landed while the bot was deciding) is raised on; one the bot
    raised itself is its outcome."""
    stops = stops_noted()
    start = time.perf_counter()
    try:
        action = decide()
    except KeyboardInterrupt as exc:
        if _a_stop(exc, stops):
            raise
        return exc
    except BaseException as exc:
        return exc
    return action, time.perf_counter() - start


def _a_stop(interrupt: KeyboardInterrupt, stops: int) -> bool:
    """Whether ``interrupt``, raised while a bot decided, came from a signal that stops the
    run rather than from the bot's code (``stops``: :func:`~ohhell.stop_signals.stops_noted`
    as the decision began). Signals are handled on the main thread only, so elsewhere it is
    the bot's. There, it is a stop if a handler noted one meanwhile (the command line's do,
    :func:`~ohhell.stop_signals.note_stop`), or if another handler written in Python raised it
    (it is in its traceback); Python's own handler for Ctrl-C is written in C and leaves no
    trace, so where it is in force, any ``KeyboardInterrupt`` is taken for Ctrl-C. Where
    every stop signal is ignored (a tournament's workers), none is a stop."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if stops_noted() != stops:
        return True
    handlers = [signal.getsignal(signum) for signum in STOP_SIGNALS]
    if signal.default_int_handler in handlers:
        return True
    codes = {getattr(handler, "__code__", None) for handler in handlers} - {None}
    trace = interrupt.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code in codes:
            return True
        trace = trace.tb_next
    return False


class _StillThinking(Exception):
    """A bot had no action when its time ran out (:meth:`_Decisions.within`)."""


class _Decision:
    """One timed decision, run on the decision thread: its outcome once it has one. Waited
    for as a thread is (:meth:`join`, :meth:`is_alive`) once it has run out of time."""

    __slots__ = ("decide", "done", "name", "outcome")

    def __init__(self, decide: Callable[[], Action], name: str) -> None:
        self.decide = decide
        self.name = name
        self.done = threading.Event()
        self.outcome: tuple[Action, float] | BaseException | None = None

    def run(self) -> None:
        try:  # timed here, so the hand-over is not the bot's time; not on the main thread,
            # so whatever the bot raises is its outcome, reported by the harness's thread
            self.outcome = _outcome(lambda: contextvars.Context().run(self.decide))
        finally:
            self.done.set()

    def join(self, timeout: float) -> None:
        self.done.wait(timeout)

    def is_alive(self) -> bool:
        return not self.done.is_set()


class _Decisions:
    """The thread a game's timed decisions run on, one after another: started by the first,
    ended with the game (:meth:`close`). Starting a thread for each decision cost more wall
    time than handing one to a waiting thread (0.19 ms against 0.11 ms here), more than a
    cheap bot's whole decision. Each decision runs in a fresh :mod:`contextvars` context, as
    it did on a thread of its own; the thread's other state (``threading.local``) is shared
    by the game's decisions. A decision that runs out of time keeps its thread, which ends
    once it returns; the next decision starts a new one."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Decision | None] | None = None
        self._thread: threading.Thread | None = None
        self._last: _Decision | None = None

    def within(
        self, seconds: float, name: str, seat: int, decide: Callable[[], Action]
    ) -> tuple[Action, float] | BaseException:
        """``decide()``'s :func:`_outcome`, given ``seconds`` to return: on this game's
        decision thread, so that a bot that never returns is reported
        (:class:`_StillThinking`) instead of holding up the game. Python cannot stop a thread,
        so such a decision is left to run on, on a daemon thread that does not keep the process
        alive, and is noted in :data:`_STUCK` (so is one still running when the wait for it is
        interrupted: Ctrl-C, a stop)."""
        if self._jobs is None:
            self._jobs = queue.SimpleQueue()
            self._thread = threading.Thread(
                target=_serve, args=(self._jobs,), name="bot-decision", daemon=True
            )
            self._thread.start()
        decision = self._last = _Decision(decide, name)
        self._jobs.put(decision)
        try:
            finished = decision.done.wait(seconds)
        except BaseException:
            if not decision.done.is_set():
                self._abandon(decision, seat)
            raise
        if not finished:
            self._abandon(decision, seat)
            raise _StillThinking
        outcome = decision.outcome
        assert outcome is not None  # set before done
        return outcome

    def _abandon(self, decision: _Decision, seat: int) -> None:
        self.close()
        _STUCK.append((decision, decision.name, seat, time.monotonic() + _GRACE_SECONDS))

    def close(self) -> None:
        """End the thread: now when its last decision has returned, else once it returns."""
        if self._jobs is None or self._thread is None:
            return
        self._jobs.put(None)
        if self._last is None or self._last.done.is_set():
            self._thread.join()  # idle: it ends at once
        self._jobs = self._thread = self._last = None


def _serve(jobs: queue.SimpleQueue[_Decision | None]) -> None:
    while (decision := jobs.get()) is not None:
        threading.current_thread().name = f"bot-decision {decision.name}"
        decision.run()


_STUCK: list[tuple[_Decision, str, int, float]] = []
"""Decisions that ran out of time and may still be running in this process: each with its
bot's name, its seat and until when (:func:`time.monotonic`) the harness waits for it to finish."""

_GRACE_SECONDS = 10.0
"""How long after running out of time a decision may take to finish before the harness
takes it to be stuck for good (:func:`_wait_for_stuck`)."""


def _wait_for_stuck(state: GameState) -> None:
    """A decision that ran out of time and is still running takes its share of this process
    and of Python's interpreter lock: a bot timed now would be slowed by it, and blamed for
    overrunning. So a timed decision waits for such a decision to finish, up to
    :data:`_GRACE_SECONDS` after it ran out of time (a slow bot's late answer), and past that
    is refused: the failure is the bot stuck for good, in the seat it was deciding for
    (:data:`_STUCK`), not the seat whose turn it is now."""
    for decision, _, _, until in _STUCK:
        decision.join(max(0.0, until - time.monotonic()))
    _STUCK[:] = [entry for entry in _STUCK if entry[0].is_alive()]
    if _STUCK:
        _, name, stuck_seat, _ = _STUCK[0]
        raise BotFailure(
            "cannot be timed fairly: it overran its budget in an earlier game (in this seat), and"
            " that decision is still running in this process (Python cannot stop it), slowing"
            " every bot here",
            seat=stuck_seat,
            bot=name,
            state=state,
        )


def _name_of(bot: Bot) -> str:
    """``bot.name`` for a failure's message, or its class's name when it has none (a bot
    without one is reported as failing, never a crash of the harness)."""
    try:
        name = bot.name
    except Exception:
        name = None
    return name if isinstance(name, str) else type(bot).__name__


def _shown(value: object, how: Callable[[object], str]) -> str:
    """``how(value)`` (its ``str`` or ``repr``) for a failure's message; a bot's object
    whose own ``__str__`` or ``__repr__`` raises is named by its type instead."""
    try:
        return how(value)
    except Exception:
        return f"<{type(value).__name__}>"
