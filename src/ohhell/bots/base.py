"""The bot contract: a bot sees one seat's view, never the game state.

``choose(view, rng, budget)`` returns one of ``view.legal_actions``. The same view, the same
random generator state and the same budget give the same action, so bots are reproducible.
Bots import :mod:`ohhell.engine` only.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ohhell.engine import Action, PlayerView
from ohhell.engine.wording import counted

__all__ = ["Bot", "Budget"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """How much a bot may think per decision: a number of simulations, a time limit, or both
    (whichever runs out first). ``Budget()`` means the bot's own default."""

    simulations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.simulations is not None and (
            isinstance(self.simulations, bool)
            or not isinstance(self.simulations, int)
            or self.simulations < 1
        ):
            raise ValueError(f"simulations must be a positive integer, got {self.simulations!r}")
        if self.seconds is not None and not (
            isinstance(self.seconds, (int, float))
            and not isinstance(self.seconds, bool)
            and 0 < self.seconds < math.inf
        ):
            raise ValueError(f"seconds must be a positive finite number, got {self.seconds!r}")

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
