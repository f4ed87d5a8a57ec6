"""Stopping a command cleanly (:mod:`ohhell.cli.stopping`): a signal inside a held section
stops the command as the section ends, never in the middle of it."""

from __future__ import annotations

import os
import signal

import pytest

from ohhell.cli.stopping import Stop, stopped_by_signals

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
