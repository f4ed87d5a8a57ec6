"""A bot of one's own, as a user writes one, for the tests that name it by its module:
``tests.tournament.own_bot.LowBot`` (:func:`ohhell.players.make_player`)."""

from __future__ import annotations

import fractions
import random

from ohhell.bots import Budget
from ohhell.bots.base import legal_actions
from ohhell.engine import Action, Bid, Play, PlayerView


class LowBot:
    """Bids as little as it may (as much, if ``greedy``) and plays its lowest card."""

    name = "low"

    def __init__(self, *, greedy: bool = False) -> None:
        self.greedy = greedy

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        actions = legal_actions(view, rng, budget)
        bids = [action for action in actions if isinstance(action, Bid)]
        if bids:
            return max(bids, key=lambda b: b.bid) if self.greedy else min(bids, key=lambda b: b.bid)
        plays = [action for action in actions if isinstance(action, Play)]
        return min(plays, key=lambda p: p.card.rank)


def not_a_bot() -> object:
    """A function that makes something other than a bot."""
    return object()


def broken() -> object:
    """A function that fails to make its bot, in a library it calls, as a bot's code may."""
    return fractions.Fraction(1, 0)
