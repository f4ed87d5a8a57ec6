"""The heuristic's exact check of its last two cards, against the reference engine.

With two cards left the heuristic plays a card that is certainly better than the other
(:func:`ohhell.bots.heuristic._certainly_better`): at least as good in every deal of the unseen
cards that fits what the seat has seen, whatever the others play, and better in some. Here
each such decision is settled again by brute force on the engine itself: every fitting deal
is put into the real game state, and every way the seats after it can play is played out with
:func:`~ohhell.engine.apply`, the hand scored by the engine. The two must agree on which card,
if either, is certainly better.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell.bots import Budget, HeuristicBot, RandomBot
from ohhell.bots.heuristic import ENDING_DEALS, _certainly_better, _deal_bound, _knowledge
from ohhell.engine import (
    DECK,
    Card,
    GameState,
    Phase,
    Play,
    Rules,
    Schedule,
    Suit,
    apply,
    legal_actions,
    new_game,
    random_deal,
    view_for,
)

VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"must_trump": True},
    {"missed_bid_scores_tricks": True},
    {"zero_bid_bonus": True},
    {"hook": True},
)


def _deals(
    seats: Sequence[int], counts: Sequence[int], voids: Sequence[frozenset[Suit]], pool: list[Card]
) -> Iterator[dict[int, tuple[Card, ...]]]:
    """Every way to give each of ``seats`` its count of cards from ``pool``, none of a suit it
    is void in (the rest stay in the stock)."""
    if not seats:
        yield {}
        return
    seat = seats[0]
    fits = [c for c in pool if c.suit not in voids[seat]]
    for held in combinations(fits, counts[seat]):
        rest = [c for c in pool if c not in held]
        for deal in _deals(seats[1:], counts, voids, rest):
            yield {**deal, seat: held}


def _scores(state: GameState, seat: int) -> set[int]:
    """The seat's points for the hand over every way the play can go on from ``state``."""
    if len(state.results) > 0 and state.phase is not Phase.PLAY:
        return {state.results[-1].points[seat]}
    found: set[int] = set()
    for action in legal_actions(state):
        found |= _scores(apply(state, action)[0], seat)
    return found


def _brute_force(state: GameState, seat: int) -> Card | None:
    view = view_for(state, seat)
    assert view.hand is not None
    seen = {*view.hand, *(card for _, card in view.played_cards())}
    if state.trump_card is not None:
        seen.add(state.trump_card)
    pool = [c for c in DECK if c not in seen]
    others = [s for s in range(state.player_count) if s != seat]
    counts = [len(h) for h in state.hands]
    first, second = view.hand
    first_ok = second_ok = True
    first_more = second_more = False
    for deal in _deals(others, counts, view.shown_voids(), pool):
        hands = tuple(
            state.hands[s] if s == seat else tuple(sorted(deal[s], key=lambda c: c.index))
            for s in range(state.player_count)
        )
        world = dataclasses.replace(state, hands=hands)
        one = _scores(apply(world, Play(seat, first))[0], seat)
        two = _scores(apply(world, Play(seat, second))[0], seat)
        first_ok = first_ok and min(one) >= max(two)
        second_ok = second_ok and min(two) >= max(one)
        first_more = first_more or min(one) > max(two)
        second_more = second_more or min(two) > max(one)
    if first_ok and first_more:
        return first
    if second_ok and second_more:
        return second
    return None


def _two_card_decisions(
    seed: int, players: int, options: dict[str, Any], short: int, *, trump: bool = True
) -> Iterator[GameState]:
    """The states of one hand (the deck dealt out, less ``short`` cards each, and less the
    trump card when one is turned) where a seat holding two cards may play either; random
    bots bid and play, for varied positions."""
    size = (52 - trump) // players - short
    rules = Rules(
        player_count=players,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(size,),
        trump_in_last_hand=trump,
        **options,
    )
    rng = random.Random(seed)
    state = new_game(rules)
    state, _ = apply(state, random_deal(state, rng))
    bot = RandomBot()
    while not state.is_over:
        (seat,) = state.to_act
        view = view_for(state, seat)
        if state.phase is Phase.PLAY and len(state.hands[seat]) == 2 == len(view.legal_actions):
            yield state
        state, _ = apply(state, bot.choose(view, rng, Budget()))


def _check(state: GameState) -> Card | None:
    (seat,) = state.to_act
    view = view_for(state, seat)
    know = _knowledge(view)
    found = _certainly_better(view, know)
    others = [s for s in range(state.player_count) if s != seat]
    unseen = [Card.from_index(s * 13 + r - 2) for s in range(4) for r in know.unseen[s]]
    if _deal_bound(others, know, unseen) > ENDING_DEALS:
        assert found is None  # too many deals: the check stands aside
        return None
    assert found == _brute_force(state, seat)
    if found is not None:  # and the heuristic plays it
        assert HeuristicBot().choose(view, random.Random(0), Budget()) == Play(seat, found)
    return found


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 5),
    options=st.sampled_from(VARIANTS),
    short=st.integers(0, 1),
    trump=st.booleans(),
)
def test_the_certainly_better_card_is_the_engines(
    seed: int, players: int, options: dict[str, Any], short: int, trump: bool
) -> None:
    if options.get("must_trump") and not trump:
        options = {}
    for state in _two_card_decisions(seed, players, options, short, trump=trump):
        _check(state)


def test_the_check_finds_certainly_better_cards_and_stands_aside_otherwise() -> None:
    """Over fixed seeds the check both names cards and stands aside, each confirmed by the
    engine, so the property above is not passed by a check that never fires."""
    named = neither = 0
    for seed in range(24):
        for options in VARIANTS:
            # three seats with a trump turned and four without: no card left in the stock
            for players, trump in ((3, True), (4, "must_trump" in options)):
                for state in _two_card_decisions(seed, players, options, 0, trump=trump):
                    if _check(state) is None:
                        neither += 1
                    else:
                        named += 1
    assert named >= 5 and neither >= 5, (named, neither)
