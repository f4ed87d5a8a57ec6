"""The game harness: reproducible games, secure shuffling by default, bot failures reported."""

from __future__ import annotations

import contextvars
import functools
import math
import os
import random
import secrets
import signal
import threading
import time
from collections.abc import MutableSequence
from typing import Any

import pytest

from ohhell import runner
from ohhell.bots import Budget, HeuristicBot, RandomBot
from ohhell.engine import (
    Action,
    Bid,
    CardPlayed,
    GameEnded,
    GameState,
    HandDealt,
    HandScored,
    PlayerView,
    Rules,
    RulesError,
    view_for,
)
from ohhell.runner import BotFailure, play_game
from ohhell.stop_signals import STOP_SIGNALS

RULES = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 2, 3))


class _Seated(RandomBot):
    """A random bot that notes, at each decision, what the harness hands it."""

    def __init__(
        self, seat: int, calls: list[tuple[int, PlayerView, random.Random, Budget]]
    ) -> None:
        self.seat = seat
        self.calls = calls

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        self.calls.append((self.seat, view, rng, budget))
        return super().choose(view, rng, budget)


@pytest.mark.parametrize(
    "budget", [Budget(simulations=7), Budget(simulations=7, seconds=30.0)], ids=str
)
def test_each_decision_gets_its_seats_view_its_generator_and_the_budget(budget: Budget) -> None:
    """The bot interface: at every decision the bot of the seat to act, and only it, is asked,
    with that seat's view of the game then (its own hand, its legal actions), the generator
    given for that seat, and the game's budget (untimed, and timed on a thread)."""
    calls: list[tuple[int, PlayerView, random.Random, Budget]] = []
    rngs = [random.Random(seat) for seat in range(3)]
    states: list[GameState] = []
    result = play_game(
        RULES,
        [_Seated(seat, calls) for seat in range(3)],
        deal_rng=random.Random(1),
        bot_rngs=rngs,
        budget=budget,
        first_dealer=0,
        on_events=lambda state, _: states.append(state),
    )
    deciding = [state for state in states if not state.is_over and not state.is_chance]
    assert len(calls) == len(deciding) == 3 * (2 + 3 + 4)  # a bid and a card a trick, each
    for (seat, view, rng, given), state in zip(calls, deciding, strict=True):
        assert seat == min(state.to_act)
        assert view == view_for(state, seat)
        assert rng is rngs[seat]
        assert given == budget
    assert result.state.is_over


def test_seeded_games_are_reproducible() -> None:
    def game(seed: int) -> tuple[int, ...]:
        return play_game(RULES, [RandomBot()] * 3, deal_rng=random.Random(seed)).state.totals

    assert game(5) == game(5)
    assert len({game(s) for s in range(12)}) > 1


def test_the_deals_do_not_depend_on_the_bots_nor_reach_them() -> None:
    """Without ``bot_rngs`` each bot gets a generator of its own, seeded from the dealing
    one: never the dealing generator itself (whose state would tell a bot the next deal), so
    the same seed deals the same cards whatever the bots draw from theirs."""
    given: list[random.Random] = []

    class Spy(RandomBot):
        def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Any:
            given.append(rng)
            return super().choose(view, rng, budget)

    def dealt(bots: list[Any], deal_rng: random.Random) -> list[Any]:
        result = play_game(RULES, bots, deal_rng=deal_rng, first_dealer=0)
        return [hand.dealt for hand in result.state.results]

    deal_rng = random.Random(7)
    spied = dealt([Spy()] * 3, deal_rng)
    assert given and all(rng is not deal_rng for rng in given)
    assert dealt([HeuristicBot()] * 3, random.Random(7)) == spied


def test_live_play_shuffles_with_a_secure_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deck is shuffled by the secure generator itself (not by a Mersenne Twister
    seeded from it, whose state the deals would give away)."""
    made: list[object] = []
    shuffled: list[object] = []

    class Spy(secrets.SystemRandom):
        def __init__(self) -> None:
            made.append(self)
            super().__init__()

        def shuffle(self, x: MutableSequence[Any]) -> None:
            shuffled.append(self)
            super().shuffle(x)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    result = play_game(RULES, [RandomBot()] * 3)
    assert result.state.is_over and len(made) == 1
    assert shuffled == made * 3  # one deck a hand, each by the secure generator


class Raising:
    name = "raising"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        raise RuntimeError("boom")


class Boom(BaseException):
    """An exception of a bot's own, made from ``BaseException`` rather than ``Exception``."""


class RaisingAny:
    """Raises whatever it is given: anything a bot raises is its failure."""

    name = "raising"

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        raise self.exc


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class Illegal:
    name = "illegal"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        return Bid(view.seat or 0, 99)


class Impostor:
    name = "impostor"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        return Bid(((view.seat or 0) + 1) % 3, 0)


class Returning:
    """Returns what it is given, whatever it is."""

    name = "returning"

    def __init__(self, action: object) -> None:
        self.action = action

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        return self.action  # type: ignore[return-value]


class Exiting:
    name = "exiting"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        raise SystemExit(3)


class _BadSeat:
    @property
    def seat(self) -> int:
        raise ValueError("no seat here")

    def __repr__(self) -> str:
        raise ValueError("no repr either")


class _SeatBid(Bid):
    """A Bid whose seat is whatever the harness asks about."""

    def __getattribute__(self, name: str) -> object:
        return 1 if name == "seat" else super().__getattribute__(name)


@pytest.mark.parametrize(
    ("bot", "budget", "message"),
    [
        (Returning(None), Budget(), "returned None, not a Bid or a Play"),
        (Returning("bid 0"), Budget(), "returned 'bid 0', not a Bid or a Play"),
        (Returning(_BadSeat()), Budget(), "returned <_BadSeat>, not a Bid or a Play"),
        (Returning(Bid([1, 1], 0)), Budget(), "not an action of its own seat"),  # type: ignore[arg-type]
        (Returning(_SeatBid(0, 0)), Budget(), "not a Bid or a Play"),
        (Exiting(), Budget(), "raised SystemExit: 3"),
        (Raising(), Budget(), "raised RuntimeError: boom"),
        (Raising(), Budget(seconds=30.0), "raised RuntimeError: boom"),  # timed: on a thread
        (Exiting(), Budget(seconds=30.0), "raised SystemExit: 3"),
        (Returning(None), Budget(seconds=30.0), "returned None, not a Bid or a Play"),
        (Illegal(), Budget(), "returned an illegal action: seat 1 bid 99"),
        (RaisingAny(Boom("own")), Budget(), "raised Boom: own"),
        (RaisingAny(Boom("own")), Budget(seconds=30.0), "raised Boom: own"),
        (RaisingAny(GeneratorExit()), Budget(), "raised GeneratorExit"),
        # on the decision thread no signal can raise it: the bot did
        (RaisingAny(KeyboardInterrupt()), Budget(seconds=30.0), "raised KeyboardInterrupt"),
        (
            Returning(Bid(1, _Unprintable())),  # type: ignore[arg-type]
            Budget(),
            "seat 1 bid <a _Unprintable whose repr raised RuntimeError>",
        ),
        (Impostor(), Budget(), "not an action of its own seat"),
    ],
)
def test_bot_failures_are_reported_not_crashes(bot: object, budget: Budget, message: str) -> None:
    with pytest.raises(BotFailure) as info:
        play_game(
            RULES,
            [RandomBot(), bot, RandomBot()],
            deal_rng=random.Random(1),
            first_dealer=0,
            budget=budget,
        )  # type: ignore[list-item]
    failure = info.value
    assert message in str(failure) and failure.seat == 1 and failure.code == "bot/failure"
    assert str(failure).count(failure.state.describe_position()) == 1  # named once
    assert not failure.state.is_over  # the last good state is kept, ready to resume or record


def test_a_bot_that_answers_too_late_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision that returns, but took more than five times its budget, is a failure of
    its bot (timed on a clock of the test's own: a second a reading, nothing slept)."""
    readings = iter(range(1, 10_000))
    monkeypatch.setattr(runner.time, "perf_counter", lambda: float(next(readings)))
    with pytest.raises(BotFailure) as info:
        play_game(
            RULES,
            [RandomBot(), RandomBot(), RandomBot()],
            deal_rng=random.Random(1),
            first_dealer=0,
            budget=Budget(seconds=0.1),
        )
    assert str(info.value).startswith("bot 'random' in seat 1: overran its budget: 1 s for a")
    assert "0.1 s budget" in str(info.value) and not info.value.state.is_over


def test_a_bot_that_does_not_return_is_reported_without_waiting_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a time budget the harness gives a bot five times its budget, then reports it:
    the game is not held up by a bot that never returns."""
    monkeypatch.setattr(runner, "_GRACE_SECONDS", 0.2)  # a stuck decision's grace, shortened
    release = threading.Event()

    class Stuck:
        name = "stuck"

        def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
            release.wait(timeout=120)  # far past its budget (the test frees it at the end)
            return view.legal_actions[0]

    try:
        with pytest.raises(BotFailure) as info:
            play_game(
                RULES,
                [RandomBot(), Stuck(), RandomBot()],  # type: ignore[list-item]
                deal_rng=random.Random(1),
                first_dealer=0,
                budget=Budget(seconds=0.01),
            )
        assert "overran its budget: no action after 0.05 s for a 0.01 s budget" in str(info.value)
        assert info.value.seat == 1 and not info.value.state.is_over
        assert not release.is_set()  # reported while the bot was still thinking
        # while it runs on, it slows every bot in this process: none is timed, and blamed
        # the failure is the stuck bot's, in its seat (1), not the seat to act (2, left of 1)
        with pytest.raises(
            BotFailure, match=r"^bot 'stuck' in seat 1: cannot be timed fairly: it overran"
        ) as info:
            play_game(
                RULES,
                [RandomBot()] * 3,
                deal_rng=random.Random(2),
                first_dealer=1,
                budget=Budget(seconds=1.0),
            )
        assert info.value.seat == 1 and info.value.bot == "stuck"
        assert info.value.state.to_act == frozenset({2})
        untimed = play_game(RULES, [RandomBot()] * 3, deal_rng=random.Random(2))
        assert untimed.state.is_over  # untimed games still play
    finally:
        release.set()
        for thread in threading.enumerate():
            if thread.name == "bot-decision stuck":
                thread.join(timeout=60)
    again = play_game(
        RULES, [RandomBot()] * 3, deal_rng=random.Random(2), budget=Budget(seconds=1.0)
    )
    assert again.state.is_over  # once it has returned, timing is fair again


def test_a_late_answer_within_its_grace_leaves_the_next_timed_game_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class LateDecision:
        """A decision's thread that ran out of time and answers if waited for (no sleeping)."""

        def __init__(self) -> None:
            self.alive = True
            self.waits: list[float] = []

        def join(self, timeout: float) -> None:
            self.waits.append(timeout)
            self.alive = self.alive and timeout <= 0

        def is_alive(self) -> bool:
            return self.alive

    late = LateDecision()
    stuck = [(late, "slow", 1, time.monotonic() + 60.0)]
    monkeypatch.setattr(runner, "_STUCK", stuck)
    result = play_game(
        RULES, [RandomBot()] * 3, deal_rng=random.Random(2), budget=Budget(seconds=1.0)
    )
    assert result.state.is_over
    assert not late.alive and stuck == [] and 0 < late.waits[0] <= 60.0


def test_a_time_limit_too_long_for_a_thread_to_wait_is_no_limit() -> None:
    """An infinite overrun factor (or a budget of 1e10 s) switches the overrun check off,
    as it did before decisions ran on threads (whose waits cannot be that long)."""
    for budget, factor in ((Budget(seconds=0.01), math.inf), (Budget(seconds=1e10), 5.0)):
        result = play_game(
            RULES,
            [RandomBot()] * 3,
            deal_rng=random.Random(3),
            budget=budget,
            overrun_factor=factor,
        )
        assert result.state.is_over


def test_a_timed_bot_that_returns_plays_as_an_untimed_one() -> None:
    """The thread a timed decision runs on changes nothing of the game."""
    timed, untimed = (
        play_game(RULES, [HeuristicBot()] * 3, deal_rng=random.Random(4), budget=budget)
        for budget in (Budget(seconds=30.0), Budget())
    )
    assert timed.state == untimed.state


def test_a_game_s_timed_decisions_share_one_thread_which_a_stuck_decision_keeps() -> None:
    """A game's timed decisions run one after another on one waiting thread (starting a
    thread for each cost more than a cheap bot's decision). A decision that runs out of time
    keeps its thread: the next one starts a new thread, and the old one ends once its decision
    returns. Closed with the game, the thread ends."""
    ran_on: dict[str, threading.Thread] = {}
    release = threading.Event()

    def decide(label: str, wait: bool = False) -> Action:
        ran_on[label] = threading.current_thread()
        if wait:
            release.wait(60)
        return Bid(0, 0)

    decisions = runner._Decisions()
    for label in ("a", "b", "c"):
        assert decisions.within(5.0, "x", 0, functools.partial(decide, label))[0] == Bid(0, 0)
    first = ran_on["a"]
    assert ran_on["b"] is first and ran_on["c"] is first
    assert first is not threading.current_thread()
    with pytest.raises(runner._StillThinking):
        decisions.within(0.01, "slow", 0, lambda: decide("slow", wait=True))
    try:
        decisions.within(5.0, "x", 0, lambda: decide("next"))
        second = ran_on["next"]
        assert second is not first and first.is_alive()  # still deciding
    finally:
        release.set()
        runner._STUCK.clear()
    first.join(timeout=60)
    assert not first.is_alive()
    decisions.close()
    assert not second.is_alive()  # idle, so closing ended it


class Stopped:
    """Decides as a stop signal lands: its handler's ``KeyboardInterrupt`` comes up through the
    bot's code."""

    name = "stopped"

    def __init__(self, *, passed_on: bool = False) -> None:
        self.passed_on = passed_on

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
        except KeyboardInterrupt:
            if self.passed_on:  # cleaning up, then passing a new one on: still the stop
                raise KeyboardInterrupt("cleaned up") from None
            raise
        raise AssertionError("the handler raised")  # pragma: no cover - never reached


@pytest.mark.usefixtures("default_stop_handlers")
def test_a_bots_keyboard_interrupt_is_a_stop_only_where_a_signal_raised_it() -> None:
    """Untimed, a bot decides on the main thread, where Ctrl-C (or a stop) may land in its
    code: that stops the game. A ``KeyboardInterrupt`` the bot raises itself is its failure
    where that can be told (the command line's handlers, written in Python, are in the
    traceback of what they raise) or where no signal can have raised it (a process that
    ignores the stop signals, as a tournament's workers do). Under Python's own Ctrl-C
    handler, written in C, it cannot be told: it is taken for Ctrl-C."""
    from ohhell.cli.stopping import Stop, stopped_by_signals

    def play(bot: object) -> None:
        bots = [RandomBot(), bot, RandomBot()]
        play_game(RULES, bots, deal_rng=random.Random(1), first_dealer=0)  # type: ignore[arg-type]

    with pytest.raises(KeyboardInterrupt):  # Python's own handler
        play(RaisingAny(KeyboardInterrupt()))
    with stopped_by_signals(Stop()):  # the command line's
        with pytest.raises(BotFailure, match="raised KeyboardInterrupt: its own"):
            play(RaisingAny(KeyboardInterrupt("its own")))
        with pytest.raises(KeyboardInterrupt):
            play(Stopped())
        with pytest.raises(KeyboardInterrupt):
            play(Stopped(passed_on=True))
    ignored = {signum: signal.signal(signum, signal.SIG_IGN) for signum in STOP_SIGNALS}
    try:
        with pytest.raises(BotFailure, match="raised KeyboardInterrupt"):
            play(RaisingAny(KeyboardInterrupt()))
    finally:
        for signum, handler in ignored.items():
            signal.signal(signum, handler)


def test_a_decision_still_running_when_its_wait_is_interrupted_is_noted_as_stuck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C (here an alarm raising ``KeyboardInterrupt``) during the wait for a decision
    leaves that decision running: a library user who carries on is not timed against it."""
    monkeypatch.setattr(runner, "_STUCK", [])
    release = threading.Event()

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    decisions = runner._Decisions()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(KeyboardInterrupt):
            decisions.within(30.0, "slow", 2, lambda: Bid(2, 0) if release.wait(60) else Bid(2, 1))
        assert [(entry[1], entry[2]) for entry in runner._STUCK] == [("slow", 2)]
        assert runner._STUCK[0][0].is_alive()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        release.set()
    runner._STUCK[0][0].join(60)
    assert not runner._STUCK[0][0].is_alive()


def test_no_decision_thread_outlives_its_game() -> None:
    """A thread left running would stay for the life of the process (and a process with
    threads should not fork)."""
    before = set(threading.enumerate())
    result = play_game(
        RULES, [RandomBot()] * 3, deal_rng=random.Random(5), budget=Budget(seconds=5.0)
    )
    assert result.state.is_over and all(len(t) == 9 for t in result.decision_seconds)
    assert [thread.name for thread in set(threading.enumerate()) - before] == []


def test_each_decision_runs_in_a_fresh_context() -> None:
    """As on a thread of its own: a context variable one decision sets is unset in the next."""
    seen: list[object] = []

    def decide() -> Action:
        seen.append(_MARK.get(None))
        _MARK.set("set by a decision")
        return Bid(0, 0)

    decisions = runner._Decisions()
    try:
        for _ in range(2):
            decisions.within(5.0, "x", 0, decide)
    finally:
        decisions.close()
    assert seen == [None, None]


_MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark")


def test_one_bot_per_seat_no_more_no_fewer() -> None:
    for count in (2, 4):
        with pytest.raises(ValueError, match=f"^{count} bots for 3 seats$"):
            play_game(RULES, [RandomBot()] * count, deal_rng=random.Random(1))


def test_timings_are_recorded_per_seat() -> None:
    result = play_game(RULES, [RandomBot()] * 3, deal_rng=random.Random(2))
    assert [len(t) for t in result.decision_seconds] == [2 + 3 + 4] * 3  # bids + cards per seat


def test_on_events_sees_every_action_as_it_is_applied() -> None:
    seen: list[tuple[int, tuple[object, ...]]] = []
    result = play_game(
        RULES,
        [RandomBot()] * 3,
        deal_rng=random.Random(4),
        on_events=lambda state, events: seen.append((state.version, events)),
    )
    assert [version for version, _ in seen] == list(range(1, result.state.version + 1))
    events = [event for _, batch in seen for event in batch]
    assert sum(isinstance(e, HandDealt) for e in events) == 3
    assert sum(isinstance(e, HandScored) for e in events) == 3
    assert sum(isinstance(e, CardPlayed) for e in events) == 3 * (1 + 2 + 3)
    assert isinstance(seen[-1][1][-1], GameEnded)
    assert not any(isinstance(e, GameEnded) for _, batch in seen[:-1] for e in batch)


@pytest.mark.parametrize("factor", [0, -1.0, 0.5, math.nan], ids=repr)
def test_an_overrun_factor_below_1_or_nan_is_refused(factor: float) -> None:
    """Below 1 a bot that keeps its budget would be blamed for overrunning it; ``nan`` would
    switch the time check off unsaid. Refused before a card is dealt, timed or not."""
    for budget in (Budget(seconds=1.0), Budget()):
        with pytest.raises(ValueError, match=r"^overrun_factor must be at least 1 \(a bot"):
            play_game(RULES, [RandomBot()] * 3, budget=budget, overrun_factor=factor)
    with pytest.raises(TypeError, match=r"^overrun_factor must be a number, got '5'$"):
        play_game(RULES, [RandomBot()] * 3, overrun_factor="5")  # type: ignore[arg-type]


def test_a_first_dealer_not_of_the_table_is_refused_before_a_card_is_dealt() -> None:
    seen: list[object] = []
    with pytest.raises(RulesError, match=r"^first_dealer must be a seat from 0 to 2, got 3$"):
        play_game(RULES, [RandomBot()] * 3, first_dealer=3, on_events=lambda *e: seen.append(e))
    assert seen == []


def test_one_bot_generator_per_seat_no_more_no_fewer() -> None:
    for count in (2, 4):
        rngs = [random.Random(0)] * count
        with pytest.raises(ValueError, match=f"^{count} bot generators for 3 seats$"):
            play_game(RULES, [RandomBot()] * 3, deal_rng=random.Random(1), bot_rngs=rngs)
    with pytest.raises(ValueError, match=r"^2 names for 3 seats$"):
        play_game(RULES, [RandomBot()] * 3, names=["a", "b"])
    with pytest.raises(TypeError, match=r"^bot_rngs\[2\] must be a random.Random, got 7$"):
        play_game(RULES, [RandomBot()] * 3, bot_rngs=[random.Random(0)] * 2 + [7])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"rules": None}, r"^rules must be a Rules \(ohhell.engine.Rules\), got None$"),
        ({"budget": 16}, r"^budget must be a Budget \(ohhell.bots.Budget\), got 16$"),
        ({"deal_rng": 1}, r"^deal_rng must be a random.Random \(random.Random\(seed\) for a"),
        ({"bots": ["random"] * 3}, r"^bots\[0\] must be a bot, with a choose method .*'random'$"),
        ({"bots": "abc"}, r"^bots must be a sequence of bots, one per seat, got 'abc'$"),
        ({"bot_rngs": 3}, r"^bot_rngs must be a sequence of random.Random, one per seat"),
        ({"bot_rngs": "abc"}, r"^bot_rngs must be a sequence of random.Random, .* got 'abc'$"),
        ({"deals": 5}, r"^deals must be a function or None, got 5$"),
        ({"on_events": "print"}, r"^on_events must be a function or None, got 'print'$"),
        ({"names": "abc"}, r"^names must be a sequence of str, one per seat, got 'abc'$"),
        ({"names": ["a", 2, "c"]}, r"^names must be a sequence of str, .* got \['a', 2, 'c'\]$"),
        ({"first_dealer": "1"}, r"^first_dealer must be a seat \(an int\) or None, got '1'$"),
        ({"first_dealer": 1.0}, r"^first_dealer must be a seat \(an int\) or None, got 1.0$"),
        ({"first_dealer": True}, r"^first_dealer must be a seat \(an int\) or None, got True$"),
    ],
    ids=[
        "rules",
        "budget",
        "deal_rng",
        "bot names",
        "bots text",
        "bot_rngs",
        "bot_rngs text",
        "deals",
        "on_events",
        "names text",
        "names not text",
        "first_dealer text",
        "first_dealer float",
        "first_dealer bool",
    ],
)
def test_arguments_of_the_wrong_kind_are_type_errors(
    arguments: dict[str, object], message: str
) -> None:
    """Each names the argument and what it must be, instead of an AttributeError from inside."""
    given: dict[str, Any] = {"rules": RULES, "bots": [RandomBot()] * 3, **arguments}
    with pytest.raises(TypeError, match=message):
        play_game(given.pop("rules"), given.pop("bots"), **given)


class Nameless:
    """A bot with no ``name``: its failures are reported under its class's name."""

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        raise RuntimeError("boom")


@pytest.mark.parametrize("budget", [Budget(), Budget(seconds=30.0)], ids=str)
@pytest.mark.parametrize(
    ("names", "named"),
    [(None, "Nameless"), (["random", "nameless:boom=1", "random"], "nameless:boom=1")],
    ids=["its class", "names given"],
)
def test_a_failing_bot_is_named_by_the_names_given_or_else_its_name_or_class(
    budget: Budget, names: list[str] | None, named: str
) -> None:
    """A tournament names each seat's bot by its side (``search:rivalry=0.5``), which a bot's
    own ``name`` cannot tell apart; without names, a bot with no ``name`` is named by its
    class."""
    with pytest.raises(BotFailure) as info:
        play_game(
            RULES,
            [RandomBot(), Nameless(), RandomBot()],  # type: ignore[list-item]
            deal_rng=random.Random(1),
            first_dealer=0,
            budget=budget,
            names=names,
        )
    assert info.value.bot == named and info.value.seat == 1
    assert str(info.value).startswith(f"bot '{named}' in seat 1: raised RuntimeError: boom")
