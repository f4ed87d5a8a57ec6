"""Every computer player by name, for the adapters (command line, tournaments).

The bots of :mod:`ohhell.bots` (:func:`~ohhell.bots.make_bot`), plus ``ismcts``: OpenSpiel's
C++ IS-MCTS (:class:`ohhell.openspiel_bridge.IsmctsBot`, OpenSpiel-compatible hands only). It
is an adapter around OpenSpiel, so it is resolved here, outside the bots layer, and neither the
bridge nor ``pyspiel`` is imported unless it is asked for.

>>> make_player("heuristic").name
'heuristic'
>>> make_player("genius")
Traceback (most recent call last):
...
ValueError: unknown bot 'genius'; bots: random, heuristic, search, ismcts
"""

from __future__ import annotations

import importlib
from typing import Final

from ohhell.bots import Bot, make_bot
from ohhell.bots.levels import BOT_NAMES

__all__ = ["PLAYER_NAMES", "make_player"]

PLAYER_NAMES: Final[tuple[str, ...]] = (*BOT_NAMES, "ismcts")
"""Every name :func:`make_player` knows."""


def make_player(name: str) -> Bot:
    """A new computer player by name; an unknown or unavailable one is a ``ValueError``."""
    if name in BOT_NAMES:
        return make_bot(name)
    if name != "ismcts":
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(PLAYER_NAMES)}")
    try:
        bridge = importlib.import_module("ohhell.openspiel_bridge")
    except ImportError as exc:
        raise ValueError(f"the 'ismcts' bot is not available in this installation ({exc})") from exc
    bot: Bot = bridge.IsmctsBot()  # a BridgeError (a ValueError) when pyspiel is missing
    return bot
