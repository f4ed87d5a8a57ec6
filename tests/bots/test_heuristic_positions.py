"""The heuristic bot against the hand-made positions of ``positions.py``."""

from __future__ import annotations

import random

import pytest
from tests.bots.positions import POSITIONS, Position

from ohhell.bots import Budget, HeuristicBot
from ohhell.engine import Card, view_for


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


def test_the_lowest_card_of_its_suit_left_cannot_take_the_last_trick_it_does_not_lead() -> None:
    """Seat 0 leads the last trick; if it leads clubs it beats the two, and otherwise a club
    cannot win: keeping the 2c settles the last trick for seat 2 (found by a QA sweep, where
    most of the suit's higher cards were gone and the heuristic took the 2d for a winner)."""
    from ohhell.bots.heuristic import _kept_chance, _knowledge, card_win_probabilities

    (position,) = [p for p in POSITIONS if p.name == "last-card-kept-the-lowest-of-its-suit"]
    view = view_for(position.state, position.seat)
    know = _knowledge(view)
    strength = card_win_probabilities(view)
    seven, two = Card.from_str("7d"), Card.from_str("2c")
    assert _kept_chance(view, know, seven, [3], strength) == 0.0  # keeps the 2c
    assert _kept_chance(view, know, two, [3], strength) == strength[seven]  # not settled
