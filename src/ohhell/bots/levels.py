"""Named bots and the difficulty ladder.

:func:`make_bot` builds a bot by name (``random``, ``heuristic``, ``search``); :data:`LEVELS`
maps the levels people choose from (easy, medium, hard, expert) onto a bot and its budget, and
:func:`level_bot` builds a bot that plays at a level (its name, the level's budget).

>>> make_bot("heuristic").name
'heuristic'
>>> LEVELS["easy"]
Level(bot='random', budget=Budget(simulations=None, seconds=None))
>>> level_bot("expert").name
'expert'
>>> make_bot("genius")
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: random, heuristic, search
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from ohhell.bots.base import Bot, Budget
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.random_bot import RandomBot
from ohhell.bots.search import SearchBot
from ohhell.engine import Action, PlayerView

__all__ = ["BOT_NAMES", "LEVELS", "Level", "LevelBot", "level", "level_bot", "make_bot"]


_FACTORIES: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}

BOT_NAMES: Final[tuple[str, ...]] = tuple(_FACTORIES)
"""Every bot name :func:`make_bot` knows, weakest first."""


def make_bot(name: str) -> Bot:
    """A new bot by name; an unknown or unavailable bot is a ``ValueError`` naming it."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}") from None
    return factory()


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level: which bot plays and how much it may think per decision."""

    bot: str
    budget: Budget
    description: str = field(repr=False, default="")


LEVELS: Final[dict[str, Level]] = {
    "easy": Level("random", Budget(), "uniform over the legal actions; no thinking"),
    "medium": Level("heuristic", Budget(), "rule-based; well under 1 ms per decision"),
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
"""The ladder, easiest first: level name -> bot name and per-decision budget."""


def level(name: str) -> tuple[Bot, Budget]:
    """The bot and budget of a level; an unknown level is a ``ValueError`` naming it."""
    try:
        chosen = LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}") from None
    return make_bot(chosen.bot), chosen.budget


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
        return self.bot.choose(view, rng, self.budget if budget == Budget() else budget)


def level_bot(name: str) -> LevelBot:
    """A new bot playing at level ``name``; an unknown level is a ``ValueError`` naming it."""
    bot, budget = level(name)
    return LevelBot(name, bot, budget)
