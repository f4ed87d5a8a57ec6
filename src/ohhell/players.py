"""Every computer player by name, for the adapters (command line, tournaments).

The bots of :mod:`ohhell.bots` (:func:`~ohhell.bots.make_bot`), the levels of the ladder
(``easy`` to ``expert``: :func:`~ohhell.bots.levels.level_bot`), plus ``ismcts``: OpenSpiel's
C++ IS-MCTS (:class:`ohhell.openspiel_bridge.IsmctsBot`, OpenSpiel-compatible hands only). It
is an adapter around OpenSpiel, so it is resolved here, outside the bots layer, and neither the
bridge nor ``pyspiel`` is imported unless it is asked for.

>>> make_player("heuristic").name
'heuristic'
>>> make_player("hard").name
'hard'
>>> make_player("genius")
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: random, heuristic, search, ismcts; levels: easy, ...

A bot of one's own is named by where it is defined, ``module.Name`` (a dot sets it apart
from the names above), with options as for the others: ``mybots.LowBot:greedy=true`` calls
``mybots.LowBot(greedy=True)``. Its options are its keyword-only parameters annotated ``bool``,
``int`` or ``float`` (``def __init__(self, *, greedy: bool = False)``), each value read as that
type. ``Name``
is a :class:`~ohhell.bots.Bot` class, or any function that makes one; its module must be
importable where the bot is made (installed, or on ``PYTHONPATH``: tournaments make their bots
in worker processes), and it is imported only when such a spec is made or checked, never
because a file names it (:func:`same_player`).

>>> make_player("ohhell.bots.RandomBot").name
'random'
>>> make_player("ohhell.bots.NoSuchBot")
Traceback (most recent call last):
...
ValueError: bot 'ohhell.bots.NoSuchBot': module ohhell.bots has no NoSuchBot
"""

from __future__ import annotations

import importlib
import threading
import traceback
from collections.abc import Callable, Iterable
from typing import Any, Final, cast

from ohhell.bots import Bot, Budget, check_budget, make_bot
from ohhell.bots.levels import (
    BOT_NAMES,
    LEVELS,
    bot_factory,
    bot_options,
    build_bot,
    level_bot,
    split_spec,
)
from ohhell.engine import Rules
from ohhell.engine.jsontext import brief

__all__ = [
    "PLAYER_NAMES",
    "SLOW_PREPARE_SECONDS",
    "check_player",
    "check_player_rules",
    "imported_factory",
    "make_player",
    "prepare_players",
    "same_player",
]

PLAYER_NAMES: Final[tuple[str, ...]] = (*BOT_NAMES, "ismcts", *LEVELS)
"""Every name :func:`make_player` knows: the bots, then the levels."""

SLOW_PREPARE_SECONDS: Final = 3.0
"""How long :func:`prepare_players` waits before it calls ``on_slow``: past the 1 to 1.5 s
that loading the search's compiled code from numba's cache takes, well short of the 20 s of
compiling it, so a warm start says nothing and a cold one says why it waits."""


def make_player(spec: str) -> Bot:
    """A new computer player by name, or by bot spec with options for its constructor
    (``search:rivalry=0.5``, ``hard:spoiler=false``, ``ismcts:simulations=2000``; see
    :mod:`ohhell.bots.levels`); an unknown or unavailable one, or a bad option, is a
    ``ValueError``. Specs are for the people running the program (command line, tournaments):
    an adapter taking a bot's name from a remote client should offer the plain names only
    (an option such as ``simulations`` sets how long the bot may think)."""
    name = split_spec(spec)[0]
    if name in BOT_NAMES:
        return make_bot(spec)
    if "." in name:
        factory = imported_factory(name)
        try:
            made = build_bot(factory, spec)
        except ValueError:
            raise
        except (Exception, SystemExit) as exc:  # its own code failed: say where, in one line
            raise ValueError(f"bot {name!r}: making it raised {_raised(exc, name)}") from exc
        if not callable(getattr(made, "choose", None)):
            raise ValueError(
                f"bot {name!r} made {brief(made)}, not a bot (an object with a choose method,"
                " ohhell.bots.Bot)"
            )
        return cast(Bot, made)
    if name in LEVELS:
        return level_bot(spec)
    if name != "ismcts":
        raise ValueError(
            f"unknown bot {name!r}; bots: {', '.join((*BOT_NAMES, 'ismcts'))};"
            f" levels: {', '.join(LEVELS)}"
        )
    try:
        bridge = importlib.import_module("ohhell.openspiel_bridge")
    except ImportError as exc:
        raise ValueError(f"the 'ismcts' bot is not available in this installation ({exc})") from exc
    bot: Bot = build_bot(bridge.IsmctsBot, spec)  # a BridgeError (a ValueError) without pyspiel
    return bot


def imported_factory(path: str) -> Callable[..., Any]:
    """What ``module.Name`` names, imported: a bot of one's own (:func:`make_player`); a
    ``ValueError`` says why it cannot be had."""
    module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise ValueError(f"bot {path!r}: a bot of one's own is named module.Name")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"bot {path!r}: cannot import {module_name} ({exc}); its module must be importable"
            " (installed, or on PYTHONPATH)"
        ) from None
    except (Exception, SystemExit) as exc:  # its own code failed as it was imported (a
        # SyntaxError too; an exit: a module that parses its command line as it loads)
        raise ValueError(
            f"bot {path!r}: importing {module_name} raised {_raised(exc, path)}"
        ) from exc
    factory = getattr(module, attribute, None)
    if factory is None:
        raise ValueError(f"bot {path!r}: module {module_name} has no {attribute}")
    if not callable(factory):
        raise ValueError(f"bot {path!r}: {brief(factory)} is not a bot class or a function")
    return cast(Callable[..., Any], factory)


def _raised(exc: BaseException, path: str) -> str:
    """An exception raised by the code of the bot at ``path`` (``module.Name``), for a
    one-line message: its type, its message and where it was raised: the last line of the
    bot's own code it went through (its module, or the package's other modules), where it
    called what failed; else the line that raised it (a ``SyntaxError`` names its own)."""
    try:
        text = str(exc)  # a SyntaxError's names its file and line
    except Exception:
        text = ""
    text = text if len(text) <= 200 else f"{text[:200]}..."
    package = path.split(".")[0]
    raised = list(traceback.walk_tb(exc.__traceback__))
    own = [
        (frame, line)
        for frame, line in raised
        if str(frame.f_globals.get("__name__", "")).partition(".")[0] == package
    ]
    where = ""
    if (own or raised) and not isinstance(exc, SyntaxError):
        frame, line = (own or raised)[-1]
        where = f" ({frame.f_code.co_filename}, line {line})"
    return f"{type(exc).__name__}{': ' + text if text else ''}{where}"


def same_player(first: str, second: str) -> bool:
    """Whether bot specs ``first`` and ``second`` name one player with the same options,
    however they are written (spacing, the options' order, how a number is spelt), so that a
    tournament resumed with ``search:rivalry=.5`` is the one played with ``search:rivalry=0.5``.

    >>> same_player("search:rivalry=0.5:spoiler=false", "search: spoiler=no :rivalry=.50")
    True
    >>> same_player("search:rivalry=0.5", "search"), same_player("hard", "search")
    (False, False)
    """
    if first == second:
        return True
    try:
        if split_spec(first)[0] != split_spec(second)[0]:
            return False  # and a module named in a journal is never imported for the asking
        return _spec_key(first) == _spec_key(second)
    except (TypeError, ValueError, ImportError):  # no player's spec, or not installed here
        return False


def _spec_key(spec: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A spec's name and its options read as their declared types, in order of name."""
    name, items = split_spec(spec)
    if name == "ismcts":
        factory = importlib.import_module("ohhell.openspiel_bridge").IsmctsBot
    elif "." in name:
        factory = imported_factory(name)
    else:
        factory = bot_factory(LEVELS[name].bot if name in LEVELS else name)
    return name, tuple(sorted(bot_options(factory, items, name=name).items()))


def check_player_rules(spec: str, rules: Rules) -> None:
    """Raise ``ValueError`` if the player of bot spec ``spec`` cannot play ``rules``: ``ismcts``
    plays only hands of OpenSpiel's ``oh_hell``, and would fail in every game of other rules.
    The spec itself is not checked (:func:`make_player` does), nor is ``pyspiel`` loaded."""
    if split_spec(spec)[0] != "ismcts":
        return
    bridge = importlib.import_module("ohhell.openspiel_bridge")
    try:
        bridge.check_openspiel_rules(rules)
    except ValueError as exc:
        raise ValueError(
            f"the 'ismcts' bot plays only hands of OpenSpiel's oh_hell, and {exc}"
        ) from None


def check_player(
    spec: str,
    *,
    rules: Rules | None = None,
    budget: Budget = Budget(),  # noqa: B008 - immutable
    make: Callable[[str], Bot] | None = None,
) -> Bot:
    """A new player of bot spec ``spec`` (made by ``make``, :func:`make_player` unless a
    caller makes its players its own way), once it is known to play: a ``ValueError`` says
    why it could not, for an unknown or unavailable player, ``ismcts`` under ``rules`` whose
    hands OpenSpiel's ``oh_hell`` cannot hold (:func:`check_player_rules`), or a player that
    would refuse to decide under ``budget`` (:func:`~ohhell.bots.check_budget`; ``Budget()``,
    each bot's own, by default).

    >>> check_player("heuristic", budget=Budget(simulations=10**9)).name
    'heuristic'
    >>> check_player("search", budget=Budget(simulations=10**9))
    Traceback (most recent call last):
    ...
    ValueError: 1,000,000,000 simulations without a time limit could ask for 9,000,000,000 \
worlds in one decision, at most 1,000,000: give at most 111,111 simulations, or a time limit too
    """
    if rules is not None:  # first: it needs no OpenSpiel, and says the problem without it
        check_player_rules(spec, rules)
    player = (make_player if make is None else make)(spec)
    check_budget(player, budget)
    return player


def prepare_players(
    names: Iterable[str],
    *,
    rules: Rules | None = None,
    budget: Budget = Budget(),  # noqa: B008 - immutable
    on_slow: Callable[[], None] | None = None,
    after: float = SLOW_PREPARE_SECONDS,
) -> None:
    """Build each named player once, so that what it loads when built is ready before the
    first game: the search bot compiles its inner loops the first time after an install (about
    20 s; later runs load them from numba's disk cache in about 1 s). ``on_slow`` is called,
    once, from another thread, if that takes longer than ``after`` seconds, so a command line
    can say why nothing is happening yet. A player that could not play the ``rules`` under
    the ``budget`` is a ``ValueError`` (:func:`check_player`), so a run is refused before its
    first game rather than failing in every one."""
    timer = threading.Timer(after, on_slow) if on_slow is not None else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        for name in dict.fromkeys(names):
            check_player(name, rules=rules, budget=budget)
    finally:
        if timer is not None:
            timer.cancel()
