"""Computer players. They depend on :mod:`ohhell.engine` only and see views, never states."""

from ohhell.bots.base import Bot, Budget
from ohhell.bots.random_bot import RandomBot

__all__ = ["Bot", "Budget", "RandomBot"]
