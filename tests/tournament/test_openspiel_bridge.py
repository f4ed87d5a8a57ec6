"""The OpenSpiel bridge: our bots play OpenSpiel ``oh_hell`` hands legally, and OpenSpiel's
IS-MCTS plays hands dealt by us, both engines in lockstep."""

from __future__ import annotations

import random

import pytest
from tests.conftest import require

from ohhell.bots import RandomBot, make_bot
from ohhell.engine import DECK, Bid, Play, legal_actions
from ohhell.openspiel_bridge import (
    BridgeError,
    IsmctsPlayer,
    action_of,
    card_of,
    choose_openspiel_action,
    engine_state,
    from_openspiel,
    openspiel_game,
    play_duplicate_deal,
    play_hand,
    random_openspiel_deal,
    to_openspiel,
)


def test_encoding_round_trips() -> None:
    assert sorted(map(card_of, range(52))) == list(DECK)
    assert all(card_of(action_of(card)) is card for card in DECK)
    assert to_openspiel(Bid(2, 3)) == 55
    assert from_openspiel(55, 2) == Bid(2, 3)
    assert from_openspiel(51, 1) == Play(1, card_of(51))
    with pytest.raises(BridgeError, match=r"0\.\.51"):
        card_of(52)


@pytest.mark.parametrize("player_count", [3, 4, 7])
def test_our_random_bot_plays_openspiel_hands_legally(player_count: int) -> None:
    require("pyspiel")
    rng = random.Random(player_count)
    bot = RandomBot()
    for hand in range(6):
        ospiel = openspiel_game(player_count).new_initial_state()
        while ospiel.is_chance_node():
            ospiel.apply_action(rng.choice([a for a, _ in ospiel.chance_outcomes()]))
        while not ospiel.is_terminal():
            state = engine_state(ospiel)
            assert sorted(to_openspiel(a) for a in legal_actions(state)) == sorted(
                ospiel.legal_actions()
            ), f"hand {hand}: {state.describe_position()}"
            action = choose_openspiel_action(bot, ospiel, rng)
            assert action in ospiel.legal_actions()
            ospiel.apply_action(action)
        (result,) = engine_state(ospiel).results
        assert result.points == tuple(int(r) for r in ospiel.returns())


def test_engine_state_needs_a_dealt_hand() -> None:
    require("pyspiel")
    ospiel = openspiel_game(4).new_initial_state()
    ospiel.apply_action(3)
    with pytest.raises(BridgeError, match="not chosen its hand size and dealer"):
        engine_state(ospiel)
    ospiel.apply_action(0)
    ospiel.apply_action(5)
    with pytest.raises(BridgeError, match="still dealing"):
        engine_state(ospiel)


def test_ismcts_plays_our_hands() -> None:
    require("pyspiel")
    rng = random.Random(1)
    for hand_size in (1, 4, 12):
        deal = random_openspiel_deal(4, hand_size, rng)
        players = [make_bot("heuristic")] + [
            IsmctsPlayer(simulations=10, seed=seat) for seat in range(1, 4)
        ]
        outcome = play_hand(deal, players, rngs=[random.Random(s) for s in range(4)])
        assert sum(outcome.tricks_won) == hand_size
        assert all(len(t) == hand_size + 1 for t in outcome.decision_seconds)
        for bid, won, ours, standard in zip(
            outcome.bids,
            outcome.tricks_won,
            outcome.openspiel_returns,
            outcome.standard_points,
            strict=True,
        ):
            assert ours == (won + 10 if bid == won else won)
            assert standard == (won + 10 if bid == won else 0)


def test_duplicate_deal_rotates_our_bot_through_every_seat() -> None:
    require("pyspiel")
    deal = random_openspiel_deal(3, 3, random.Random(4), dealer=1)
    outcomes = play_duplicate_deal(deal, lambda: make_bot("heuristic"), simulations=10, seed=2)
    assert len(outcomes) == 3
    assert {o.dealer for o in outcomes} == {1}
    assert all(o.hand_size == 3 and sum(o.tricks_won) == 3 for o in outcomes)
    # pyspiel's ISMCTSBot is not reproducible from its seed (measured: 14 different action
    # sequences in 40 runs of one seeded hand), so the plays themselves are not compared


def test_bad_hand_size_is_a_clear_error() -> None:
    with pytest.raises(BridgeError, match=r"deals 1..12 cards to each of 4 players, not 13"):
        random_openspiel_deal(4, 13, random.Random(0))
