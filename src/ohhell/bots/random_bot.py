"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random

from ohhell.bots.base import Budget, legal_actions
from ohhell.engine import Action, PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among ``view.legal_actions``.

    >>> import random
    >>> from ohhell.engine import Rules, apply, new_game, random_deal, view_for
    >>> state = new_game(Rules(player_count=3))
    >>> state, _ = apply(state, random_deal(state, random.Random(0)))
    >>> RandomBot().choose(view_for(state, 1), random.Random(0), Budget())
    Bid(seat=1, bid=1)
    """

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        actions = legal_actions(view, rng, budget)  # the call checked first
        return rng.choice(actions)
