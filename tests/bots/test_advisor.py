"""The bid advisor: a distribution of tricks and the expected score of each legal bid."""

from __future__ import annotations

import random

import pytest

from ohhell.bots import advise_bid
from ohhell.engine import (
    Bid,
    Deal,
    GameState,
    PlayerView,
    Rules,
    apply,
    new_game,
    parse_cards,
    random_deal,
    score_hand,
    view_for,
)


def _dealt(rules: Rules, hands: tuple[str, ...], trump: str | None) -> GameState:
    state = new_game(rules, first_dealer=rules.player_count - 1)
    trump_card = parse_cards(trump)[0] if trump else None
    state, _ = apply(state, Deal(tuple(parse_cards(h) for h in hands), trump_card))
    return state


def _one_hand(size: int, **options: object) -> Rules:
    return Rules.from_dict(
        {
            "player_count": 4,
            "schedule": "custom",
            "custom_hand_sizes": [size],
            "trump_in_last_hand": True,
            **options,
        }
    )


@pytest.mark.parametrize("variant", ["standard", "zero-bonus", "score-tricks", "simultaneous"])
def test_probabilities_sum_to_one_and_scores_follow_from_them(variant: str) -> None:
    rules = Rules.preset(variant, 4)
    state = new_game(rules, first_dealer=0)
    rng = random.Random(4)
    for _ in range(4):  # the fifth hand: five cards each
        state, _ = apply(state, random_deal(state, rng))
        while not state.is_chance:
            state, _ = apply(state, rng.choice(view_for(state, min(state.to_act)).legal_actions))
    state, _ = apply(state, random_deal(state, rng))
    view = view_for(state, min(state.to_act))
    advice = advise_bid(view, random.Random(1), samples=40)
    assert advice.samples == 40
    assert len(advice.trick_probabilities) == view.hand_size + 1
    assert sum(advice.trick_probabilities) == pytest.approx(1.0)
    assert all(p * 40 == pytest.approx(round(p * 40)) for p in advice.trick_probabilities)
    legal = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
    assert sorted(advice.expected_scores) == legal
    for bid, expected in advice.expected_scores.items():
        formula = sum(
            p * score_hand(rules, bid=bid, won=won, hand_size=view.hand_size)
            for won, p in enumerate(advice.trick_probabilities)
        )
        assert expected == pytest.approx(formula)
    assert advice.expected_scores[advice.best_bid] == max(advice.expected_scores.values())


def test_all_top_trumps_take_every_trick() -> None:
    state = _dealt(
        _one_hand(3),
        ("As Ks Qs", "2h 3h 4h", "5h 6h 7h", "8h 9h Th"),
        "2s",
    )
    advice = advise_bid(view_for(state, 0), random.Random(0), samples=30)
    assert advice.trick_probabilities == (0.0, 0.0, 0.0, 1.0)
    assert advice.best_bid == 3
    assert advice.expected_scores == {0: 0.0, 1: 0.0, 2: 0.0, 3: 13.0}


def test_hopeless_hand_advises_zero_with_the_bonus() -> None:
    state = _dealt(
        _one_hand(3, zero_bid_bonus=True),
        ("2c 3d 4h", "As Ks Qs", "Ac Ad Ah", "Kc Kd Kh"),
        "2s",
    )
    advice = advise_bid(view_for(state, 0), random.Random(0), samples=30)
    assert advice.trick_probabilities[0] == 1.0
    assert advice.best_bid == 0
    assert advice.expected_scores[0] == 8.0  # 5 plus the hand size


def test_hook_forbidden_bid_is_absent() -> None:
    state = _dealt(_one_hand(2, hook=True), ("Kh 3c", "Qh 4c", "Jh 6c", "As 3h"), "3s")
    for seat, bid in ((0, 0), (1, 1), (2, 0)):
        state, _ = apply(state, Bid(seat, bid))
    advice = advise_bid(view_for(state, 3), random.Random(2), samples=30)
    assert set(advice.expected_scores) == {0, 2}
    assert advice.best_bid == 2  # the trump ace makes zero a certain miss
    assert advice.trick_probabilities[0] == 0.0


def test_same_rng_same_advice() -> None:
    state = new_game(Rules.preset("standard", 5), first_dealer=2)
    state, _ = apply(state, random_deal(state, random.Random(9)))
    view = view_for(state, min(state.to_act))
    first = advise_bid(view, random.Random(5), samples=25)
    assert advise_bid(view, random.Random(5), samples=25) == first


def _bidding_view() -> PlayerView:
    state = new_game(Rules.preset("standard", 4), first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    return view_for(state, 1)


def test_bad_requests_are_refused_with_a_reason() -> None:
    view = _bidding_view()
    with pytest.raises(ValueError, match="samples must be a positive integer"):
        advise_bid(view, random.Random(0), samples=0)
    state = new_game(Rules.preset("standard", 4), first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    with pytest.raises(ValueError, match="seat 2 is not to bid now"):
        advise_bid(view_for(state, 2), random.Random(0))
