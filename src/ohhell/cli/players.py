"""Computer players on the command line: built before the first game, saying so when slow."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ohhell.bots import Budget
from ohhell.engine import Rules
from ohhell.players import prepare_players

__all__ = ["PREPARING", "prepare_bots"]

PREPARING = (
    "preparing the bots (the search bot's code is compiled the first time after an install,"
    " about 20 s, and loaded from the cache after that, about 1 s on an idle machine)"
)
"""Said when building the bots takes over :data:`~ohhell.players.SLOW_PREPARE_SECONDS`: a
compile, or a load from the cache slowed by a busy machine (no message tells the two apart)."""


def prepare_bots(
    names: Iterable[str],
    command: str,
    *,
    rules: Rules | None = None,
    budget: Budget = Budget(),  # noqa: B008 - immutable
    quiet: bool = False,
) -> None:
    """:func:`~ohhell.players.prepare_players`, with a line on stderr if it takes over
    :data:`~ohhell.players.SLOW_PREPARE_SECONDS` (none when ``quiet``). An unknown or
    unavailable bot, one that cannot play ``rules``, or one that would refuse to decide under
    ``budget``, is a ``ValueError``."""

    def say() -> None:
        print(f"ohhell {command}: {PREPARING}", file=sys.stderr, flush=True)

    prepare_players(names, rules=rules, budget=budget, on_slow=None if quiet else say)
