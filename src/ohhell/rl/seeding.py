"""The random generators of the environments and their agents, from a seed checked once, and
the bot and budget an agent adapter is given, checked when it is made.

>>> seeded(7).random() == seeded(7).random()
True
>>> seeded(-7)
Traceback (most recent call last):
...
ValueError: seed must be 0 or more, got -7

An agent's generator comes from its seed through a digest, so that no seed gives an agent the
generator that deals the environment's cards:

>>> agent_rng(7).getstate() == seeded(7).getstate()
False
>>> agent_rng(7).random() == agent_rng(7).random()
True
"""

from __future__ import annotations

import operator
import random
from typing import SupportsIndex

from ohhell.bots.base import Budget
from ohhell.runner import derived_rng

__all__ = ["agent_rng", "checked_agent", "checked_seed", "seeded"]


def checked_agent(bot: object, budget: object) -> Budget:
    """For an adapter that asks ``bot`` (a policy, an OpenSpiel bot): refuse, when it is
    made, a ``bot`` without a ``choose`` or a ``budget`` that is not a :class:`Budget`, each a
    ``TypeError`` naming it; returns the budget, ``Budget()`` for ``None``. (Unchecked, a
    wrong bot failed at the first decision with an ``AttributeError``, and a budget of ``0``
    or ``""`` became the default.)

    >>> checked_agent(None, None)
    Traceback (most recent call last):
    ...
    TypeError: bot must be a Bot (an object with a choose method), got NoneType
    """
    if not callable(getattr(bot, "choose", None)):
        raise TypeError(
            f"bot must be a Bot (an object with a choose method), got {type(bot).__name__}"
        )
    if budget is None:
        return Budget()
    if not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget or None, got {budget!r}")
    return budget


def checked_seed(seed: object) -> int:
    """``seed`` as an ``int``: any integer from 0 up, NumPy's included (seeds often come from a
    NumPy generator); a ``TypeError`` or ``ValueError`` naming it otherwise. Not a float or a
    ``bool``, and not a negative number: ``random.Random(-s)`` deals as ``random.Random(s)``."""
    try:
        if isinstance(seed, bool) or not isinstance(seed, SupportsIndex):
            raise TypeError
        value = operator.index(seed)  # a NumPy array of more than one number refuses here
    except TypeError:
        raise TypeError(f"seed must be an integer, got {seed!r}") from None
    if value < 0:
        raise ValueError(f"seed must be 0 or more, got {value}")
    return value


def seeded(seed: object | None) -> random.Random:
    """A generator from ``seed`` (:func:`checked_seed`), or a fresh, unseeded one for ``None``."""
    return random.Random() if seed is None else random.Random(checked_seed(seed))


def agent_rng(seed: object | None) -> random.Random:
    """A bot's or agent's generator from ``seed`` (:func:`checked_seed`), or a fresh, unseeded
    one for ``None``.

    Seeded through a digest (:func:`ohhell.runner.derived_rng`), not with ``seed`` itself: an
    environment deals from ``random.Random(s)`` (:func:`seeded`), and an agent handed a
    generator in that same state could deal the cards again and see every hand and the stock.
    Seeds are small numbers, often counted from the same base for games and for agents, so
    equal ones meet; through the digest they never give equal generators."""
    return random.Random() if seed is None else derived_rng("ohhell-agent", checked_seed(seed))
