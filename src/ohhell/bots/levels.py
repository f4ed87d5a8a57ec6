"""Named bots and the difficulty ladder.

:func:`make_bot` builds a bot by name (``random``, ``heuristic``, ``search``); :data:`LEVELS`
maps the levels people choose from (easy, medium, hard, expert) onto a bot and its budget, and
:func:`level_bot` builds a bot that plays at a level (its name, the level's budget).

A name may carry options for the bot's constructor after colons, ``NAME:OPTION=VALUE:...``
(a *bot spec*), so that variants of one bot can meet in a tournament: ``search:rivalry=0.5``,
``hard:spoiler=false``. Each value is read as the option's declared type (``true``/``false``
for a switch); an option the bot does not have, or a value it rejects, is a ``ValueError``
that says which and why. A level keeps its budget, which overrides its bot's ``simulations``.

>>> make_bot("heuristic").name
'heuristic'
>>> make_bot("search:rivalry=0.5:simulations=320").rivalry
0.5
>>> make_bot("search:rivalry=2")
Traceback (most recent call last):
...
ValueError: bot 'search:rivalry=2': rivalry must be between 0 and 1, got 2.0
>>> make_bot("search:depth=3")
Traceback (most recent call last):
...
ValueError: bot 'search:depth=3': search has no option 'depth'; its options: simulations, ...
>>> LEVELS["easy"]
Level(bot='random', budget=Budget(simulations=None, seconds=None))
>>> LEVELS["hard"] = LEVELS["easy"]  # the ladder is read-only: a level is not changed by accident
Traceback (most recent call last):
...
TypeError: 'mappingproxy' object does not support item assignment
>>> level_bot("expert").name
'expert'
>>> make_bot("genius")
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: random, heuristic, search
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from ohhell.bots.base import Bot, Budget, check_budget, option_kinds
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.random_bot import RandomBot
from ohhell.bots.search import SearchBot
from ohhell.engine import Action, PlayerView
from ohhell.engine.jsontext import brief

__all__ = [
    "BOT_NAMES",
    "BUDGET_OPTION",
    "LEVELS",
    "Level",
    "LevelBot",
    "bot_factory",
    "bot_options",
    "build_bot",
    "level",
    "level_bot",
    "make_bot",
    "sets_own_simulations",
    "split_spec",
]


_FACTORIES: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}

BOT_NAMES: Final[tuple[str, ...]] = tuple(_FACTORIES)
"""Every bot name :func:`make_bot` knows, weakest first."""


SPEC_SEPARATOR: Final = ":"
"""Separates a bot's name from its options in a bot spec, and the options from each other."""

_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


def split_spec(spec: str) -> tuple[str, tuple[str, ...]]:
    """A bot spec's name and its ``OPTION=VALUE`` items, unparsed.

    >>> split_spec("search:rivalry=0.5:simulations=320")
    ('search', ('rivalry=0.5', 'simulations=320'))
    >>> split_spec("heuristic")
    ('heuristic', ())
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is text, such as 'search:rivalry=0.5', got {brief(spec)}")
    name, *items = spec.strip().split(SPEC_SEPARATOR)
    return name.strip(), tuple(item.strip() for item in items)


BUDGET_OPTION: Final = "simulations"
"""The bot option that competes with a harness's budget for how long a bot thinks."""


def sets_own_simulations(spec: str) -> bool:
    """Whether bot spec ``spec`` gives its bot a number of simulations of its own (an option
    ``simulations=none`` leaves them to the budget).

    >>> sets_own_simulations("search:rivalry=0.5:simulations=320")
    True
    >>> sets_own_simulations("ismcts:simulations=none"), sets_own_simulations("hard")
    (False, False)
    """
    for item in split_spec(spec)[1]:
        option, separator, value = item.partition("=")
        if separator and option.strip() == BUDGET_OPTION and value.strip().lower() != "none":
            return True
    return False


def _convert(value: str, kind: type, optional: bool) -> Any:
    text = value.strip().lower()
    if optional and text == "none":
        return None
    if kind is bool:
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise ValueError(f"wants true or false, got {brief(value)}")
    if not text.isascii() or "_" in text:  # Python reads ١٠ and 1_000; an option does not
        raise ValueError(f"wants a number in the digits 0-9, got {brief(value)}")
    if kind is int:
        try:  # exactly, however large: a float would round it
            return int(text)
        except ValueError:
            pass  # "1e3", "2.0": whole numbers written as numbers are read below
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"wants a number, got {brief(value)}") from None
    if not math.isfinite(number):
        raise ValueError(f"wants a finite number, got {brief(value)}")
    if kind is float:
        return number
    if not number.is_integer():
        raise ValueError(f"wants a whole number, got {brief(value)}")
    return int(number)


def bot_options(
    factory: Callable[..., Any],
    items: tuple[str, ...] | list[str],
    *,
    name: str,
    withheld: tuple[str, ...] = (),
) -> dict[str, Any]:
    """``OPTION=VALUE`` items as keyword arguments of ``factory`` (the bot ``name``), each
    value read as the option's declared type; a malformed item, an option ``factory`` does
    not have, or a value of the wrong type is a ``ValueError`` that says which (and which
    options there are, but for those ``withheld``: a level's budget).

    >>> from ohhell.bots.search import SearchBot
    >>> bot_options(SearchBot, ["simulations=320", "spoiler=false"], name="search")
    {'simulations': 320, 'spoiler': False}
    """
    if not items:
        return {}  # a plain name: no signature to read (tournaments build bots per game)
    kinds = option_kinds(factory)
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"options are OPTION=VALUE, got {item!r}")
        if key not in kinds:
            known = ", ".join(k for k in kinds if k not in withheld) or "none"
            raise ValueError(f"{name} has no option {key!r}; its options: {known}")
        if key in options:
            raise ValueError(f"{name} option {key} is given twice")
        try:
            options[key] = _convert(value, *kinds[key])
        except ValueError as exc:
            raise ValueError(f"{name} option {key} {exc}") from None
    return options


def build_bot(
    factory: Callable[..., Any],
    spec: str,
    *,
    kind: str | None = None,
    withheld: tuple[str, ...] = (),
) -> Any:
    """``factory`` called with the options of bot spec ``spec`` (``kind`` names the bot in
    the errors, by default the spec's name; ``withheld`` options are not offered); a bad
    option or value is a ``ValueError`` naming the spec and saying what was wrong."""
    name, items = split_spec(spec)
    try:
        return factory(**bot_options(factory, items, name=kind or name, withheld=withheld))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bot {brief(spec)}: {exc}") from None


def bot_factory(name: str) -> Callable[..., Bot]:
    """The class of bot ``name`` (one of :data:`BOT_NAMES`); another name is a
    ``ValueError``."""
    try:
        return _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}") from None


def make_bot(spec: str) -> Bot:
    """A new bot by name or bot spec (``search:rivalry=0.5``, see the module doc); an unknown
    or unavailable bot, or a bad option, is a ``ValueError`` naming it."""
    name = split_spec(spec)[0]
    try:
        factory = bot_factory(name)
    except ValueError as exc:
        hint = f" ({name!r} is a level: level_bot({name!r}))" if name in LEVELS else ""
        raise ValueError(f"{exc}{hint}") from None
    bot: Bot = build_bot(factory, spec)
    return bot


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level: which bot plays and how much it may think per decision."""

    bot: str
    budget: Budget
    description: str = field(repr=False, default="")


LEVELS: Final[Mapping[str, Level]] = MappingProxyType(
    {
        "easy": Level("random", Budget(), "uniform over the legal actions; no thinking"),
        "medium": Level(
            "heuristic", Budget(), "rule-based; about 0.1 ms per decision, 25 ms at most"
        ),
        "hard": Level(
            "search",
            Budget(simulations=1280, seconds=0.15),
            "search bot, 1280 simulations or 150 ms per decision, whichever ends first",
        ),
        "expert": Level(
            "search",
            Budget(simulations=5000, seconds=0.5),
            "search bot, 5000 simulations or 0.5 s per decision, whichever ends first",
        ),
    }
)
"""The ladder, easiest first: level name -> bot name and per-decision budget (read-only)."""


def level(spec: str) -> tuple[Bot, Budget]:
    """The bot and budget of a level, by name or with options for its bot (``hard:rivalry=0.5``,
    see the module doc); an unknown level or a bad option is a ``ValueError`` naming it."""
    name = split_spec(spec)[0]
    try:
        chosen = LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}") from None
    budgeted = chosen.budget.simulations is not None
    items = (item.partition("=") for item in split_spec(spec)[1])
    named = (key.strip() for key, separator, _ in items if separator)  # else malformed, below
    if budgeted and BUDGET_OPTION in named:  # any value, "none" too
        raise ValueError(
            f"bot {brief(spec)}: the {name} level sets how long its bot thinks (its budget,"
            f" {chosen.budget} per decision, or a tournament's), so it takes no"
            f" {BUDGET_OPTION} option: to choose the simulations, name the bot instead"
            f" ({chosen.bot}:{BUDGET_OPTION}=N)"
        )
    bot: Bot = build_bot(
        _FACTORIES[chosen.bot],
        spec,
        kind=f"{name} ({chosen.bot})",
        withheld=(BUDGET_OPTION,) if budgeted else (),
    )
    return bot, chosen.budget


class LevelBot:
    """A bot playing at a level, named after it (``"expert"``): the level's bot, thinking for
    the level's budget when the harness gives ``Budget()`` (the bot's own default), and for the
    harness's budget when it names one (a tournament's ``--budget-sims``, for instance). A level
    whose budget has ``seconds`` decides by the clock, so its games do not repeat exactly from
    a seed."""

    def __init__(self, name: str, bot: Bot, budget: Budget) -> None:
        self.name = name
        self.bot = bot
        self.budget = budget

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        return self.bot.choose(view, rng, self._budget(budget))

    def check_budget(self, budget: Budget) -> None:
        """:func:`~ohhell.bots.base.check_budget` of the level's bot, on the budget it
        would think for."""
        check_budget(self.bot, self._budget(budget))

    def _budget(self, budget: Budget) -> Budget:
        return self.budget if budget == Budget() else budget


def level_bot(spec: str) -> LevelBot:
    """A new bot playing at level ``spec`` (a level's name, with options for its bot if any),
    named after the level; an unknown level or a bad option is a ``ValueError`` naming it."""
    bot, budget = level(spec)
    return LevelBot(split_spec(spec)[0], bot, budget)
