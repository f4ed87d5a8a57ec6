"""Stopping a command cleanly (:mod:`ohhell.cli.stopping`): a signal inside a held section
stops the command as the section ends, never in the middle of it."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import pytest

from ohhell.cli.stopping import Stop, last_words, stopped_by_signals

pytestmark = pytest.mark.usefixtures("default_stop_handlers")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_in_a_held_section_stops_the_command_as_it_ends(signum: int) -> None:
    stop = Stop()
    finished = []
    with pytest.raises(KeyboardInterrupt), stopped_by_signals(stop), stop.held():
        os.kill(os.getpid(), signum)  # handled at once, in this thread
        finished.append("the section went on")
    assert finished == ["the section went on"]
    assert stop.signal == signum and stop.exit_status == 128 + signum


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_outside_a_held_section_stops_the_command_at_once(signum: int) -> None:
    stop = Stop()
    reached = []
    with pytest.raises(KeyboardInterrupt), stopped_by_signals(stop):
        os.kill(os.getpid(), signum)
        reached.append("after the signal")  # pragma: no cover - never reached
    assert reached == []
    assert stop.how == ("interrupted" if signum == signal.SIGINT else "terminated")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_second_stop_does_not_cut_the_last_words_short(signum: int) -> None:
    """Once stopped, a command finds and says what is saved: Ctrl-C pressed again meanwhile
    is dropped there; pressed once more, it stops that too."""
    stop = Stop()
    said = []
    with pytest.raises(KeyboardInterrupt), stopped_by_signals(stop):
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:
            with last_words():
                os.kill(os.getpid(), signum)  # would be handled at once, in this thread
                said.append("interrupted; 3 of 10 saved")
            handlers = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]
            with pytest.raises(KeyboardInterrupt), last_words():  # one more: a way out
                os.kill(os.getpid(), signum)
                os.kill(os.getpid(), signum)
                said.append("never")  # pragma: no cover - never reached
            assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == handlers
            raise
    assert said == ["interrupted; 3 of 10 saved"]


def test_the_handlers_before_are_restored() -> None:
    """The handlers there before, whatever they were: not the defaults (which the fixture
    installs, so a restore to the defaults would look the same), but the caller's own."""

    def callers(signum: int, frame: object) -> None:  # pragma: no cover - never called
        pass

    before = {s: signal.signal(s, callers) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        with stopped_by_signals(Stop()):
            assert all(signal.getsignal(s) is not callers for s in before)  # its own inside
        assert all(signal.getsignal(s) is callers for s in before)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_signal_the_process_ignores_stays_ignored() -> None:
    """Started under ``nohup`` (SIGHUP ignored), a command is not stopped by a hangup: the
    handlers are installed only for signals the process does not ignore."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        stop = Stop()
        with stopped_by_signals(stop):
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGHUP)  # ignored: nothing happens
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL  # handled
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


def _callback_that_prints_and_drops_errors(module: str, name: str) -> Callable[[], None]:
    """A function called ``name`` in a module called ``module`` that sends this process
    SIGINT, as an exception-swallowing callback from C (llvmlite's) would run when Ctrl-C
    comes while C code runs: the signal is acted on in the first Python code after it."""
    namespace: dict[str, object] = {"__name__": module, "os": os, "signal": signal}
    exec(  # a function with the callback's name and module, nothing else
        f"def {name}():\n    os.kill(os.getpid(), signal.SIGINT)\n",
        namespace,
    )
    function = namespace[name]
    assert callable(function)
    return function  # type: ignore[return-value]


@pytest.mark.parametrize("name", ["_raw_object_cache_notify", "_raw_object_cache_getbuffer"])
def test_a_stop_that_would_be_swallowed_comes_again_just_after(name: str) -> None:
    """Ctrl-C while numba compiles (the search bot's kernels, the first time after an
    install) was acted on in llvmlite's object cache callback, which prints an exception
    and carries on: the stop was lost, and the compile then failed with "RuntimeError: no
    compiled object yet". The handler now lets the callback finish and sends the signal again
    a moment later, to stop the command in the code that follows."""
    callback = _callback_that_prints_and_drops_errors("llvmlite.binding.executionengine", name)
    stop = Stop()
    with pytest.raises(KeyboardInterrupt), stopped_by_signals(stop):
        try:
            callback()
        except KeyboardInterrupt:  # in the real callback, printed and dropped
            pytest.fail("stopped inside the callback, where the stop is lost")
        time.sleep(5)  # stopped here, in a moment
        pytest.fail("the stop was lost")  # pragma: no cover
    assert stop.how == "interrupted"


def test_a_stop_in_a_finalizer_comes_again_just_after() -> None:
    class Holder:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt), stopped_by_signals(Stop()):
        Holder()  # collected at once: its __del__ runs here, and must not be cut short
        time.sleep(5)
        pytest.fail("the stop was lost")  # pragma: no cover


def test_a_stop_elsewhere_is_not_delayed() -> None:
    """A function of the same name in another module is not a swallowing callback."""
    callback = _callback_that_prints_and_drops_errors("mine", "_raw_object_cache_notify")
    with pytest.raises(KeyboardInterrupt), stopped_by_signals(Stop()):
        callback()
        pytest.fail("the stop was delayed")  # pragma: no cover
