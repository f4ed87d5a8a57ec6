"""The heuristic bot against the hand-made positions of ``positions.py``."""

from __future__ import annotations

import random

import pytest
from tests.bots.positions import POSITIONS, Position

from ohhell.bots import Budget, HeuristicBot
from ohhell.engine import view_for


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_heuristic_plays_the_sensible_action(position: Position) -> None:
    action = HeuristicBot().choose(
        view_for(position.state, position.seat), random.Random(0), Budget()
    )
    assert action in position.good_actions, f"{position.name}: chose {action}; {position.why}"


def test_positions_offer_a_real_choice() -> None:
    """Every position has a wrong action too, so passing it means something."""
    for position in POSITIONS:
        legal = set(view_for(position.state, position.seat).legal_actions)
        assert position.good_actions < legal, position.name
