"""Any :class:`~ohhell.bots.Bot` as a PettingZoo policy (the OpenSpiel bot is
:class:`ohhell.rl.openspiel_game.OpenSpielBot`, so that this module needs no OpenSpiel).

The policy hands the bot the acting seat's :func:`~ohhell.engine.view_for` (never the state)
and turns its action into the environment's integer.

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

from ohhell.bots.base import Bot, Budget
from ohhell.bots.heuristic import HeuristicBot
from ohhell.rl.encoding import action_to_int
from ohhell.rl.pettingzoo_env import Observation, OhHellEnv
from ohhell.rl.seeding import agent_rng, checked_agent

__all__ = ["BotPolicy", "default_opponent"]


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
        self.budget = checked_agent(bot, budget)
        if not callable(getattr(env, "view", None)):
            raise TypeError(
                f"env must be an OhHellEnv (its view is what the bot sees), got {env!r}"
            )
        self.bot = bot
        self.env = env
        self.rng = agent_rng(seed)

    def __call__(self, observation: Observation, agent: str) -> int:
        del observation  # the bot reads the view the observation was encoded from
        view = self.env.view(agent)
        return action_to_int(self.bot.choose(view, self.rng, self.budget))
