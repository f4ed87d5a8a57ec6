"""The random generators of the environments and their agents, from a seed checked once.

>>> seeded(7).random() == seeded(7).random()
True
>>> seeded(-7)
Traceback (most recent call last):
...
ValueError: seed must be 0 or more, got -7
"""

from __future__ import annotations

import operator
import random
from typing import SupportsIndex

__all__ = ["checked_seed", "seeded"]


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
