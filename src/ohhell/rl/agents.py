"""Any :class:`~ohhell.bots.Bot` as a PettingZoo policy or an OpenSpiel bot.

Both adapters hand the bot the acting seat's :func:`~ohhell.engine.view_for` (never the state)
and turn its action into the environment's integer.

>>> from ohhell.bots import RandomBot
>>> from ohhell.engine import Rules
>>> from ohhell.rl.pettingzoo_env import OhHellEnv
>>> env = OhHellEnv(Rules(player_count=3, schedule="custom", custom_hand_sizes=(2,)))
>>> env.reset(seed=1)
>>> policy = BotPolicy(RandomBot(), env, seed=0)
>>> while env.agents:
...     obs, reward, done, truncated, info = env.last()
...     env.step(None if done or truncated else policy(obs, env.agent_selection))
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from ohhell.bots.base import Bot, Budget
from ohhell.bots.heuristic import HeuristicBot
from ohhell.rl.encoding import action_to_int
from ohhell.rl.openspiel_game import OhHellState
from ohhell.rl.pettingzoo_env import Observation, OhHellEnv

__all__ = ["BotPolicy", "OpenSpielBot", "default_opponent"]


def default_opponent() -> Bot:
    """A new ``heuristic`` bot: the ladder's medium level, a sensible first opponent."""
    return HeuristicBot()


class BotPolicy:
    """A PettingZoo policy ``(observation, agent) -> action`` that asks ``bot``.

    The bot sees ``env.view(agent)``, the same view the observation encodes.
    """

    def __init__(
        self, bot: Bot, env: OhHellEnv, *, seed: int | None = None, budget: Budget | None = None
    ) -> None:
        self.bot = bot
        self.env = env
        self.rng = random.Random(seed)
        self.budget = budget or Budget()

    def __call__(self, observation: Observation, agent: str) -> int:
        del observation  # the bot reads the view the observation was encoded from
        view = self.env.view(agent)
        return action_to_int(self.bot.choose(view, self.rng, self.budget))


class OpenSpielBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel is untyped
    """An OpenSpiel bot for ``python_ohhell`` that asks ``bot`` (for ``evaluate_bots`` and
    any Python loop over :class:`~ohhell.rl.openspiel_game.OhHellState`)."""

    def __init__(
        self, bot: Bot, player_id: int, *, seed: int | None = None, budget: Budget | None = None
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._player_id = player_id
        self.rng = random.Random(seed)
        self.budget = budget or Budget()

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        """Nothing to reset: the bot reads each decision's view afresh."""

    def step(self, state: OhHellState) -> int:
        """The bot's action for ``state``'s current player, which must be this bot's seat."""
        if not isinstance(state, OhHellState):
            raise TypeError(f"OpenSpielBot plays python_ohhell states, got {type(state).__name__}")
        if state.current_player() != self._player_id:
            raise ValueError(
                f"seat {self._player_id}'s bot asked to act for player {state.current_player()}"
            )
        view = state.view(self._player_id)
        return action_to_int(self.bot.choose(view, self.rng, self.budget))
