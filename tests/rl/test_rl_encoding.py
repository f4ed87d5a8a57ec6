"""Encoding of views and actions (ohhell.rl.encoding)."""

from __future__ import annotations

import random

import pytest
from tests.conftest import in_ci

if not in_ci():  # in CI a missing test dependency is an error, not a skip
    pytest.importorskip("numpy")

import numpy as np

from ohhell.engine import (
    Bid,
    Card,
    GameState,
    Play,
    Rules,
    apply,
    legal_actions,
    new_game,
    public_view,
    random_deal,
    view_for,
)
from ohhell.rl.encoding import (
    ObservationLayout,
    action_count,
    action_mask,
    action_to_int,
    encode_view,
    int_to_action,
    max_total,
)

RULES = Rules(player_count=4, schedule="custom", custom_hand_sizes=(3, 2))


def dealt_state(rules: Rules = RULES, seed: int = 5):
    state = new_game(rules, first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(seed)))
    return state


def test_action_numbers_round_trip() -> None:
    for index in range(52):
        play = Play(2, Card.from_index(index))
        assert int_to_action(action_to_int(play), seat=2, rules=RULES) == play
    for bid in range(RULES.max_hand_size + 1):
        assert int_to_action(action_to_int(Bid(1, bid)), seat=1, rules=RULES) == Bid(1, bid)
    assert action_count(RULES) == 52 + 3 + 1


@pytest.mark.parametrize("bad", [-1, 56, 1.5, True, "3"])
def test_int_to_action_rejects_numbers_outside_the_space(bad: object) -> None:
    with pytest.raises(ValueError, match="action"):
        int_to_action(bad, seat=0, rules=RULES)  # type: ignore[arg-type]


def test_blocks_hold_own_hand_trump_and_relative_seats() -> None:
    state = dealt_state()
    seat = 1
    view = view_for(state, seat)
    layout = ObservationLayout.for_rules(RULES)
    parts = layout.views(encode_view(view, layout))
    assert sorted(np.flatnonzero(parts["hand"])) == sorted(c.index for c in state.hands[seat])
    assert state.trump_card is not None
    assert np.flatnonzero(parts["trump_card"]).tolist() == [state.trump_card.index]
    assert np.flatnonzero(parts["trump_suit"]).tolist() == [int(state.trump_card.suit)]
    # the dealer is seat 0: three seats to the left of seat 1 (relative 3); seat 1 is to act
    assert np.flatnonzero(parts["dealer"]).tolist() == [3]
    assert np.flatnonzero(parts["to_act"]).tolist() == [0]
    assert parts["phase"].tolist() == [0, 1, 0, 0]
    assert layout.size == encode_view(view).shape[0]


def test_bids_and_plays_are_placed_by_relative_seat() -> None:
    state = dealt_state()
    rng = random.Random(0)
    while state.phase.value == "bid":
        state, _ = apply(state, rng.choice(legal_actions(state)))
    first = legal_actions(state)[0]
    assert isinstance(first, Play)
    state, _ = apply(state, first)
    observer = 3
    parts = ObservationLayout.for_rules(RULES).views(encode_view(view_for(state, observer)))
    rel = (first.seat - observer) % 4
    assert parts["current_trick"][rel, first.card.index] == 1.0
    assert parts["played_by"][rel, first.card.index] == 1.0
    assert parts["played"].sum() == 1.0
    for seat, bid in enumerate(state.bids):
        assert bid is not None
        assert parts["bids"][(seat - observer) % 4, bid] == 1.0


def test_action_mask_matches_engine_legal_actions() -> None:
    state = dealt_state(Rules(player_count=3, hook=True, schedule="custom", custom_hand_sizes=(4,)))
    rng = random.Random(1)
    while not state.is_over:
        for seat in range(3):
            mask = action_mask(view_for(state, seat))
            expected = sorted(action_to_int(a) for a in legal_actions(state, seat))
            assert np.flatnonzero(mask).tolist() == expected
        state, _ = apply(state, rng.choice(legal_actions(state)))


def test_public_views_are_refused() -> None:
    with pytest.raises(ValueError, match="public view"):
        encode_view(public_view(dealt_state()))


def test_values_stay_in_unit_interval_through_a_game() -> None:
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(2, 3))
    state = dealt_state(rules)
    rng = random.Random(4)
    while True:
        vector = encode_view(view_for(state, 0))
        assert vector.min() >= 0.0
        assert vector.max() <= 1.0
        if state.is_over:
            break
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)


DOCUMENTED_BLOCKS = [  # docs/rl.md, "The observation vector", in order
    "hand",
    "trump_card",
    "trump_suit",
    "phase",
    "bids",
    "has_bid",
    "tricks_won",
    "current_trick",
    "leader",
    "played",
    "played_by",
    "hand_size",
    "hand_index",
    "dealer",
    "to_act",
    "totals",
]


def test_layout_follows_the_documented_blocks_and_sizes() -> None:
    layout = ObservationLayout.for_rules(RULES)
    assert [name for name, _, _ in layout.blocks] == DOCUMENTED_BLOCKS
    starts = [start for _, start, _ in layout.blocks]
    assert starts[0] == 0 and starts == sorted(starts)
    assert max_total(RULES) == (10 + 3) + (10 + 2)  # a made bid of every card in every hand
    for rules, size in (
        (Rules(player_count=4), 740),
        (Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 2)), 515),
        (Rules(player_count=3, schedule="custom", custom_hand_sizes=(3, 5)), 536),
    ):
        assert ObservationLayout.for_rules(rules).size == size


def expected_vector(state: GameState, observer: int) -> np.ndarray:
    """The observation of ``observer`` worked out from the game state as docs/rl.md describes
    it, independently of encode_view (the test may read the state; observations never do)."""
    rules = state.rules
    n, layout = rules.player_count, ObservationLayout.for_rules(rules)
    vector = np.zeros(layout.size, dtype=np.float32)
    part = layout.views(vector)

    def rel(seat: int) -> int:
        return (seat - observer) % n

    for card in state.hands[observer] if state.hands else ():  # none once the game is over
        part["hand"][card.index] = 1
    if state.trump_card is None:
        part["trump_suit"][4] = 1
    else:
        part["trump_card"][state.trump_card.index] = 1
        part["trump_suit"]["CDHS".index(state.trump_card.suit.name[0])] = 1
    part["phase"][["deal", "bid", "play", "over"].index(state.phase.value)] = 1
    if state.phase.value in ("bid", "play"):
        for seat, bid in enumerate(state.bids):
            if bid is not None:
                part["has_bid"][rel(seat)] = 1  # public, even while sealed
                if state.bids_revealed or seat == observer:
                    part["bids"][rel(seat), bid] = 1
            part["tricks_won"][rel(seat), state.tricks_won[seat]] = 1
        tricks = [(trick.leader, trick.cards) for trick in state.tricks]
        for leader, cards in [*tricks, (state.leader, state.trick)]:
            for position, card in enumerate(cards):
                seat = (leader + position) % n
                part["played"][card.index] = 1
                part["played_by"][rel(seat), card.index] = 1
        for position, card in enumerate(state.trick):
            part["current_trick"][rel(state.leader + position), card.index] = 1
        part["leader"][rel(state.leader)] = 1
    if state.phase.value != "over":
        part["hand_size"][state.hand_size] = 1
        part["hand_index"][state.hand_index] = 1
    part["dealer"][rel(state.dealer)] = 1
    for seat in state.to_act:
        part["to_act"][rel(seat)] = 1
    bound = sum(10 + size for size in rules.hand_sizes())
    for seat, total in enumerate(state.totals):
        part["totals"][rel(seat)] = total / bound
    return vector


@pytest.mark.parametrize("bidding", ["sequential", "simultaneous"])
def test_every_block_of_every_seat_through_a_game(bidding: str) -> None:
    """At every decision of a game whose last hand has no trump, each seat's observation is
    exactly the documented one: every block, relative seats, sealed bids left out (but marked
    in ``has_bid``), totals over ``max_total``."""
    rules = Rules(player_count=4, schedule="custom", custom_hand_sizes=(3, 2), bidding=bidding)
    state = dealt_state(rules, seed=2)
    rng = random.Random(6)
    seen_blocks: set[str] = set()
    layout = ObservationLayout.for_rules(rules)
    while True:
        for seat in range(4):
            vector = encode_view(view_for(state, seat))
            expected = expected_vector(state, seat)
            got, want = layout.views(vector), layout.views(expected)
            for name in DOCUMENTED_BLOCKS:
                assert np.array_equal(got[name], want[name]), (name, seat)
                if want[name].any() and not want[name].all():
                    seen_blocks.add(name)
        if state.is_over:
            break
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    assert state.totals != (0, 0, 0, 0)
    assert seen_blocks == set(DOCUMENTED_BLOCKS)
