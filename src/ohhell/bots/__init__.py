"""Computer players. They depend on :mod:`ohhell.engine` only and see views, never states."""

from ohhell.bots.advisor import BidAdvice, advise_bid
from ohhell.bots.base import Bot, Budget, check_budget
from ohhell.bots.heuristic import (
    HeuristicBot,
    expected_tricks,
    heuristic_bid,
    heuristic_play,
    trick_distribution,
)
from ohhell.bots.levels import LEVELS, make_bot
from ohhell.bots.random_bot import RandomBot
from ohhell.bots.search import SearchBot

__all__ = [
    "LEVELS",
    "BidAdvice",
    "Bot",
    "Budget",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "advise_bid",
    "check_budget",
    "expected_tricks",
    "heuristic_bid",
    "heuristic_play",
    "make_bot",
    "trick_distribution",
]
