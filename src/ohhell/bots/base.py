"""The bot contract: a bot sees one seat's view, never the game state.

``choose(view, rng, budget)`` returns one of ``view.legal_actions``. The same view, the same
random generator state and the same budget give the same action, so bots are reproducible.
Bots import :mod:`ohhell.engine` only.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import operator
import random
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from ohhell.engine import Action, Phase, PlayerView, check_view
from ohhell.engine.jsontext import brief
from ohhell.engine.wording import counted

__all__ = [
    "Bot",
    "Budget",
    "check_budget",
    "checked_options",
    "legal_actions",
    "option_kinds",
    "sum_in_order",
]


def sum_in_order(values: Iterable[float]) -> float:
    """The sum of ``values`` added one at a time, left to right, as the compiled kernels add
    and as Python 3.11's ``sum`` added floats.

    The bots decide by comparing floats, ties included (two aces that score alike are told
    apart by rank), so the last bit of a sum can change a card. Python 3.12's ``sum`` adds
    floats with compensation, and gives other last bits than 3.11's: the same seeds played
    other games on 3.11 and on 3.12 (2 games in 40 of ``heuristic`` bots). The bots add their
    floats with this instead, so that a seed plays the same game on every Python.

    >>> values = [0.1] * 10
    >>> sum_in_order(values), math.fsum(values)
    (0.9999999999999999, 1.0)
    >>> sum_in_order([]), sum_in_order(k * 0.5 for k in range(4))
    (0.0, 3.0)
    """
    return functools.reduce(operator.add, values, 0.0)


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """How much a bot may think per decision: a number of simulations, a time limit, or both
    (whichever runs out first). ``Budget()`` means the bot's own default."""

    simulations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        # any whole number or number (numpy's too), kept as Python's int and float
        if self.simulations is not None and (
            isinstance(self.simulations, bool)
            or not isinstance(self.simulations, numbers.Integral)
            or self.simulations < 1
        ):
            raise ValueError(
                f"simulations must be a positive integer, got {brief(self.simulations)}"
            )
        if self.simulations is not None and type(self.simulations) is not int:
            object.__setattr__(self, "simulations", int(self.simulations))
        if self.seconds is not None:
            seconds = self.seconds
            try:  # a time is a float: an int beyond any float's range (10**400) is refused
                value = float(seconds) if _is_number(seconds) else math.nan
            except OverflowError:
                value = math.inf
            if not 0 < value < math.inf:
                raise ValueError(f"seconds must be a positive finite number, got {brief(seconds)}")
            if type(seconds) is not int and type(seconds) is not float:
                object.__setattr__(self, "seconds", value)

    def __str__(self) -> str:
        """In words, for messages.

        >>> str(Budget(simulations=1280, seconds=0.15)), str(Budget(simulations=1))
        ('1280 simulations or 0.15 s', '1 simulation')
        >>> str(Budget(seconds=2)), str(Budget())
        ('2 s', "the bot's own default")
        """
        parts = []
        if self.simulations is not None:
            parts.append(counted(self.simulations, "simulation"))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts) or "the bot's own default"


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    name: str
    """Short identifier used in tournaments and records, e.g. ``"random"``."""

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        """Return a legal action for ``view.seat`` (one of ``view.legal_actions``)."""
        ...


def check_budget(bot: Bot, budget: Budget) -> None:
    """Raise ``ValueError`` if ``bot`` would refuse to decide under ``budget`` (a search asked
    for more simulations than it runs without a time limit, say), so that a harness can refuse
    the budget before the first game instead of voiding every one. A bot that can tell has a
    ``check_budget(budget)`` method; any other takes every budget.

    >>> from ohhell.bots import RandomBot, SearchBot
    >>> check_budget(RandomBot(), Budget(simulations=10**9))
    >>> check_budget(SearchBot(), Budget(simulations=10**9))
    Traceback (most recent call last):
    ...
    ValueError: 1,000,000,000 simulations without a time limit could ask for 9,000,000,000 \
worlds in one decision, at most 1,000,000: give at most 111,111 simulations, or a time limit too
    """
    if not isinstance(budget, Budget):
        raise TypeError(f"a bot's budget must be a Budget, got {budget!r}")
    check = getattr(bot, "check_budget", None)
    if callable(check):
        check(budget)


def legal_actions(view: PlayerView, rng: random.Random, budget: Budget) -> tuple[Action, ...]:
    """The actions open to ``view.seat``, once the call itself is checked: a bot's ``choose``
    starts here. Arguments of the wrong kind are a ``TypeError``; a view no game could give
    its seat (built or changed by hand) is a :class:`~ohhell.engine.ViewError`
    (:func:`~ohhell.engine.check_view`), and one whose seat has nothing to do a
    ``ValueError``, each saying which.

    >>> from ohhell.engine import Rules, new_game, view_for
    >>> state = new_game(Rules(player_count=3), first_dealer=0)
    >>> legal_actions(view_for(state, 1), random.Random(0), Budget())
    Traceback (most recent call last):
    ...
    ValueError: seat 1 has nothing to do: the cards are still to be dealt
    >>> legal_actions(state, random.Random(0), Budget())
    Traceback (most recent call last):
    ...
    TypeError: a bot decides from a PlayerView (ohhell.engine.view_for), got GameState
    """
    if not isinstance(view, PlayerView):
        raise TypeError(
            f"a bot decides from a PlayerView (ohhell.engine.view_for), got {type(view).__name__}"
        )
    if not isinstance(rng, random.Random):
        raise TypeError(f"a bot's rng must be a random.Random, got {type(rng).__name__}")
    if not isinstance(budget, Budget):
        raise TypeError(f"a bot's budget must be a Budget, got {budget!r}")
    if view.seat is None:
        raise ValueError("a public view has no seat to act for")
    check_view(view)  # one built or changed by hand: refused, not decided from
    if view.legal_actions:
        return view.legal_actions
    why = {
        Phase.DEAL: "the cards are still to be dealt",
        Phase.OVER: "the game is over",
    }.get(view.phase, "it is not its turn")
    raise ValueError(f"seat {view.seat} has nothing to do: {why}")


_PLAIN_TYPES: Final = (bool, int, float)


def option_kinds(factory: Callable[..., Any]) -> dict[str, tuple[type, bool]]:
    """The keyword-only options of ``factory`` (a bot class or function) of a plain type:
    name -> (``bool``, ``int`` or ``float``; whether ``None`` is allowed too). A world model or
    another object is not among them.

    >>> option_kinds(Budget)
    {'simulations': (<class 'int'>, True), 'seconds': (<class 'float'>, True)}
    """
    parameters = inspect.signature(factory, eval_str=True).parameters.values()
    kinds: dict[str, tuple[type, bool]] = {}
    for parameter in parameters:
        if parameter.kind is not inspect.Parameter.KEYWORD_ONLY:
            continue
        hint = parameter.annotation
        args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        plain = [a for a in args if a is not type(None)]
        if len(plain) == 1 and plain[0] in _PLAIN_TYPES:
            kinds[parameter.name] = (plain[0], len(plain) < len(args))
    return kinds


def check_option(name: str, value: object, kind: type, optional: bool = False) -> None:
    """Refuse ``value`` for option ``name`` unless it is of its declared ``kind``: ``True`` or
    ``False`` for a switch, a whole number for an ``int`` (not a ``bool``), a finite number
    for a ``float``; ``None`` where ``optional``. A ``TypeError`` or ``ValueError`` naming it.

    >>> check_option("spoiler", "false", bool)
    Traceback (most recent call last):
    ...
    TypeError: spoiler must be True or False, got 'false'
    >>> check_option("bid_window", math.nan, int)
    Traceback (most recent call last):
    ...
    TypeError: bid_window must be a whole number, got nan
    >>> check_option("boost", math.inf, float)
    Traceback (most recent call last):
    ...
    ValueError: boost must be a finite number, got inf
    """
    if value is None and optional:
        return
    if kind is bool:
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, got {value!r}")
    elif isinstance(value, bool) or not isinstance(
        value, numbers.Integral if kind is int else numbers.Real
    ):
        wanted = "a whole number" if kind is int else "a number"
        raise TypeError(f"{name} must be {wanted}, got {value!r}")
    elif not isinstance(value, numbers.Integral) and not math.isfinite(value):
        # (a whole number is finite, and one past any float cannot be asked)
        raise ValueError(f"{name} must be a finite number, got {value!r}")


_Init = TypeVar("_Init", bound=Callable[..., None])


def checked_options(init: _Init) -> _Init:
    """Decorate a bot's ``__init__`` so that each keyword option of a plain type
    (:func:`option_kinds`) is checked (:func:`check_option`) before it runs: a bot built in
    Python refuses ``spoiler="false"`` or ``simulations=nan`` as a bot spec does, instead of
    playing on with them or failing at its first decision."""
    kinds: dict[str, tuple[type, bool]] | None = None

    @functools.wraps(init)
    def checked(self: object, *args: Any, **options: Any) -> None:
        nonlocal kinds
        if kinds is None:  # read once, when every name the hints use is defined
            kinds = option_kinds(init)
        for name, value in options.items():
            if name in kinds:
                check_option(name, value, *kinds[name])
        init(self, *args, **options)

    return typing.cast(_Init, checked)
