"""The signals that stop a run, and a count of those that came.

Shared by the harness (:mod:`ohhell.runner`), which tells a stop landing in a bot's decision
from a ``KeyboardInterrupt`` the bot raised itself by whether a stop came meanwhile, and by the
handlers that act on a stop (the command line's, :mod:`ohhell.cli.stopping`), which note each
one here (:func:`note_stop`). Standard library only, and imported early: the command line sets
its handlers before it imports anything else.
"""

from __future__ import annotations

import signal
from typing import Final

__all__ = ["STOP_SIGNALS", "note_stop", "stops_noted"]

STOP_SIGNALS: Final = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a run: Ctrl-C's SIGINT, SIGTERM and SIGHUP (Windows has no SIGHUP)."""

_noted = [0]  # how many stops handlers have noted (a list: set from a handler, read anywhere)


def note_stop() -> None:
    """Note that a stop signal came: a handler calls this as it acts on one, before it raises
    ``KeyboardInterrupt`` (or holds it back to raise later). Handlers run on the main thread,
    one at a time, so the count needs no lock."""
    _noted[0] += 1


def stops_noted() -> int:
    """How many stops handlers have noted (:func:`note_stop`) in this process so far.

    >>> before = stops_noted()
    >>> note_stop()
    >>> stops_noted() - before
    1
    """
    return _noted[0]
