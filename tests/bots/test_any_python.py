"""A seed plays the same game on every Python the project supports.

Python 3.12 made ``sum`` of floats compensated, so its sums differ from 3.11's in the last bit,
and the bots' choices turn on exact comparisons of floats (two aces scoring alike are told apart
by rank): the same seed played other games on 3.11 and on 3.12 (2 in 40 of four ``heuristic``
bots). The bots add their floats in order (:func:`ohhell.bots.base.sum_in_order`), and these
tests play with ``sum`` swapped for a compensated one, as a later Python's, on whichever Python
runs them.
"""

from __future__ import annotations

import builtins
import math
import random
import sys
import types
from collections.abc import Iterable
from typing import Any

import pytest

from ohhell import provenance
from ohhell.bots import HeuristicBot, RandomBot, SearchBot
from ohhell.bots.base import sum_in_order
from ohhell.engine import Rules
from ohhell.runner import play_game

_builtin_sum = builtins.sum


def _exact_sum(values: Iterable[Any], start: Any = 0) -> Any:
    """``sum``, but floats added exactly (``math.fsum``): not 3.11's last bits, nor 3.12's."""
    items = list(values)
    if any(isinstance(item, float) for item in items) or isinstance(start, float):
        return math.fsum([start, *items])
    return _builtin_sum(items, start)


def _games(rules: Rules, seats: str, seeds: range) -> list[tuple[object, ...]]:
    makers = {
        "h": HeuristicBot,
        "r": RandomBot,
        "s": lambda: SearchBot(compiled=False, simulations=64),
    }
    played = []
    for seed in seeds:
        bots = [makers[kind]() for kind in seats]
        result = play_game(rules, bots, deal_rng=random.Random(seed), first_dealer=seed % 4)
        played.append(tuple(result.state.results))
    return played


@pytest.mark.parametrize(
    ("rules", "seats", "seeds"),
    [
        (Rules(player_count=4), "hrhh", range(1, 41)),
        (Rules.preset("descending", player_count=4), "hhhh", range(1, 16)),
    ],
    ids=["heuristic-standard", "heuristic-descending"],
)
def test_the_games_do_not_hang_on_the_last_bit_of_a_sum(
    rules: Rules, seats: str, seeds: range, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = _games(rules, seats, seeds)
    monkeypatch.setattr(builtins, "sum", _exact_sum)
    assert _games(rules, seats, seeds) == here


def _no_float_sum(values: Iterable[Any], start: Any = 0) -> Any:
    items = list(values)
    if any(isinstance(item, float) for item in items) or isinstance(start, float):
        raise AssertionError(f"sum of floats: {items[:4]}")
    return _builtin_sum(items, start)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(player_count=4, schedule="custom", custom_hand_sizes=(1, 4, 7)),
        Rules(player_count=3, schedule="custom", custom_hand_sizes=(2, 5), must_trump=True),
        Rules(player_count=5, schedule="custom", custom_hand_sizes=(3, 6), zero_bid_bonus=True),
    ],
    ids=["standard", "la-podrida", "zero-bonus"],
)
def test_no_bot_adds_floats_with_sum(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games of every bot (the search bot in Python, which adds what its compiled kernels
    add in order) with ``sum`` refusing floats: a float ``sum`` anywhere a bot decides would
    be a :class:`~ohhell.runner.BotFailure` here."""
    monkeypatch.setattr(builtins, "sum", _no_float_sum)
    seats = ("shrhs" * 2)[: rules.player_count]
    assert len(_games(rules, seats, range(1, 3))) == 2


def test_sum_in_order_adds_left_to_right() -> None:
    values = [1e16, 1.0, -1e16, 1.0]
    assert sum_in_order(values) == ((1e16 + 1.0) - 1e16) + 1.0 == 1.0
    assert math.fsum(values) == 2.0
    assert sum_in_order(iter([0.25, 0.5])) == 0.75 and sum_in_order([]) == 0.0


def test_another_python_is_another_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament is resumed only by its own build: under another Python its games could
    differ, so the digest names the interpreter too."""
    here = provenance.code_fingerprint()
    other = types.SimpleNamespace(
        implementation=types.SimpleNamespace(name=sys.implementation.name),
        version_info=types.SimpleNamespace(major=3, minor=sys.version_info.minor + 1),
    )
    monkeypatch.setattr(provenance, "sys", other)
    assert provenance.code_fingerprint() != here
