"""Stopping a long command cleanly: SIGTERM (``kill``, ``timeout``, a scheduler) and SIGHUP (a
closed terminal) stop it as Ctrl-C does, so that what it was writing is finished or taken back,
and it can say what is saved."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Final

from ohhell.stop_signals import STOP_SIGNALS, note_stop

__all__ = ["Stop", "last_words", "stopped_by_signals"]


@dataclass
class Stop:
    """Which signal stopped the command: Ctrl-C's SIGINT unless another came."""

    signal: int = signal.SIGINT
    holding: bool = False
    """Inside :meth:`held`: a signal is noted, and acted on when the section ends."""
    pending: bool = False
    """A signal came while holding."""

    @contextmanager
    def held(self) -> Iterator[None]:
        """A section that a stopping signal does not cut in two (a record written and then
        counted: a run stopped between the two would leave a record on disk that it does
        not count). The signal stops the command as the section ends, so keep in it nothing
        that may wait long, such as a print to a reader who may stall. Only under
        :func:`stopped_by_signals`, which handles Ctrl-C too."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            raise KeyboardInterrupt

    @property
    def how(self) -> str:
        """``interrupted`` (Ctrl-C) or ``terminated``, for the command's last message."""
        return "interrupted" if self.signal == signal.SIGINT else "terminated"

    @property
    def exit_status(self) -> int:
        """The shell's status for a command ended by the signal: 128 + its number."""
        return 128 + self.signal


@contextmanager
def stopped_by_signals(stop: Stop) -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`KeyboardInterrupt` as Ctrl-C does, noted
    in ``stop`` (as Ctrl-C is), or as a section :meth:`Stop.held` ends; the handlers before are
    restored after. Only the main thread may set signal handlers: elsewhere this does
    nothing."""

    inside = True

    def send_again(signum: int) -> None:
        if inside:  # else the command is done, and its handlers are gone with it
            os.kill(os.getpid(), signum)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.signal = signum
        note_stop()  # so a bot deciding now is not blamed for the KeyboardInterrupt
        if stop.holding:
            stop.pending = True
            return
        if _swallowed_in(frame):  # the stop would be lost: it comes again in a moment
            again = threading.Timer(_SEND_AGAIN_SECONDS, send_again, (signum,))
            again.daemon = True
            again.start()
            return
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {  # a signal the process was started to ignore (nohup's SIGHUP) stays ignored
        signum: signal.signal(signum, on_signal)
        for signum in STOP_SIGNALS
        if signal.getsignal(signum) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        inside = False
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def last_words() -> Iterator[None]:
    """The last steps of a command already stopped: finding what is saved, and saying so. A
    stop that comes while inside (Ctrl-C pressed twice) is dropped rather than cutting them
    short and losing the line that says how to go on; one more stops them, as any stop does
    (a message blocked on a stalled reader must not hold the command for ever). Only the
    main thread may set signal handlers: elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came = 0
    leaving = False

    def once_more(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001
        nonlocal came
        came += 1
        note_stop()
        if came > 1 and not leaving:  # not while the handlers before are put back
            raise KeyboardInterrupt

    previous = {  # ignored stays ignored; None, a handler set outside Python, is left to act
        signum: handler
        for signum in STOP_SIGNALS
        if (handler := signal.getsignal(signum)) not in (signal.SIG_IGN, None)
    }
    try:  # a stop while the handlers are set, or cut short: every one is put back
        for signum in previous:
            signal.signal(signum, once_more)
        yield
    finally:
        leaving = True
        for signum, handler in previous.items():
            signal.signal(signum, handler)


_SEND_AGAIN_SECONDS: Final = 0.01

_SWALLOWING: Final = frozenset(
    {
        ("llvmlite.binding.executionengine", "_raw_object_cache_notify"),
        ("llvmlite.binding.executionengine", "_raw_object_cache_getbuffer"),
    }
)
"""Callbacks from C that print an exception raised in them and carry on (module, function):
llvmlite's object cache hooks, called as numba compiles the search bot's kernels."""


def _swallowed_in(frame: FrameType | None) -> bool:
    """Whether an exception raised in ``frame`` would be printed and dropped, not passed up:
    in a finalizer (``__del__``) or a callback from C (:data:`_SWALLOWING`).

    A stop raised there was lost: Ctrl-C while the search bot's kernels compiled, the first
    time after an install, printed "Exception ignored on calling ctypes callback function",
    and the compile went on, to fail with ``RuntimeError: no compiled object yet``. The
    whole stack is looked at, since the signal is acted on in whatever code runs next."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__":
            return True
        if (frame.f_globals.get("__name__"), code.co_name) in _SWALLOWING:
            return True
        frame = frame.f_back
    return False
