"""A bot decides only from a view a game could give its seat: every view :func:`view_for`
makes passes :func:`check_view`; a view built or changed by hand that no game could give is
refused by every bot and the advisor with what is wrong (the search's compiled code trusts what
it is given: such views crashed it, or looped in it for ever); and one that passes is decided
from with a legal action, whatever was changed."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.engine.test_views_leak import rules as short_rules

from ohhell.bots import Budget, HeuristicBot, RandomBot, SearchBot, advise_bid
from ohhell.engine import (
    DECK,
    PRESETS,
    Bid,
    Card,
    Phase,
    Play,
    PlayerView,
    Rules,
    Trick,
    ViewError,
    apply,
    check_view,
    legal_actions,
    new_game,
    playable,
    public_view,
    random_deal,
    view_for,
)

BOTS: tuple[Callable[[], Any], ...] = (RandomBot, HeuristicBot, lambda: SearchBot(simulations=32))


def _views(rules: Rules, seed: int) -> list[PlayerView]:
    """Every seat's view at every step of one random game under ``rules``."""
    rng = random.Random(seed)
    state = new_game(rules, first_dealer=seed % rules.player_count)
    views = []
    while True:
        views.extend(view_for(state, seat) for seat in range(rules.player_count))
        if state.is_over:
            return views
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_view_a_game_gives_passes(preset: str) -> None:
    for players in (3, 5, 7):
        rules = Rules.preset(preset, players)
        for view in _views(Rules.from_dict({**rules.to_dict(), "schedule": "descending"}), 1):
            check_view(view)
    state = new_game(Rules(player_count=4))
    check_view(public_view(state))


@given(short_rules(), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_every_view_of_any_rules_passes(rules: Rules, seed: int) -> None:
    for view in _views(rules, seed):
        check_view(view)


def _positions() -> tuple[PlayerView, PlayerView, list[Any]]:
    """A bidding view (seat 1), a view mid-trick with a choice of plays (seat 3), and the cards
    the second cannot see."""
    rules = Rules(
        player_count=4, schedule="custom", custom_hand_sizes=(5,), trump_in_last_hand=True
    )
    state = new_game(rules, first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(4)))
    bidding = view_for(state, min(state.to_act))
    while state.phase is Phase.BID:
        state, _ = apply(state, legal_actions(state)[0])
    while len(legal_actions(state)) < 2 or not state.trick:
        state, _ = apply(state, legal_actions(state)[0])
    playing = view_for(state, min(state.to_act))
    seen = {*playing.hand, playing.trump_card, *(card for _, card in playing.played_cards())}
    return bidding, playing, [card for card in DECK if card not in seen]


BIDDING, PLAYING, UNSEEN = _positions()
R = dataclasses.replace


def _after_tricks(plays: list[tuple[str, str, str, str]], hand: str, led_by: int = 0) -> PlayerView:
    """Seat 0's view, leading trick ``len(plays) + 1`` of a six-card hand holding ``hand``,
    after tricks with the cards of ``plays`` (in play order), each led by seat ``led_by``: a
    view built by hand, whole and consistent in all but what it is made to show."""
    rules = Rules(
        player_count=4, schedule="custom", custom_hand_sizes=(6,), trump_in_last_hand=True
    )
    state = new_game(rules, first_dealer=3)
    state, _ = apply(state, random_deal(state, random.Random(4)))
    while state.phase is Phase.BID:
        state, _ = apply(state, legal_actions(state)[0])
    cards = tuple(Card.from_str(card) for card in hand.split())
    trump_card = next(c for c in DECK if c not in cards and all(str(c) not in p for p in plays))
    tricks = tuple(Trick(led_by, tuple(map(Card.from_str, p)), 0) for p in plays)
    return R(
        view_for(state, 0),
        trump_card=trump_card,
        hand=cards,
        tricks=tricks,
        tricks_won=(len(tricks), 0, 0, 0),
        leader=0,
        to_act=frozenset({0}),
        legal_actions=tuple(Play(0, card) for card in cards),
    )


# seat 1 has shown it holds no clubs, diamonds, hearts or spades, yet holds two cards
ALL_VOID = _after_tricks(
    [("2c", "2d", "3c", "4c"), ("5d", "2h", "6d", "7d"), ("8h", "2s", "9h", "Th"),
     ("Js", "Jc", "Qs", "Ks")],
    "Ac Ad",
)  # fmt: skip
# seat 0 has shown it holds no clubs (it played the 2d to seat 1's 3c), yet holds the ace
REVOKED = _after_tricks([("3c", "4c", "5c", "2d"), ("6s", "7s", "8s", "9s")], "Ac Ad Ah Kh", 1)


@pytest.mark.parametrize(
    ("view", "message"),
    [
        (R(PLAYING, rules=Rules(player_count=7)), "bids has 4 entries; the rules have 7 seats"),
        (  # crashed the compiled search (it read past the four seats' entries)
            R(PLAYING, legal_actions=(Play(3, UNSEEN[0]), Play(3, UNSEEN[1]))),
            f"legal_actions are not what the view gives seat 3: seat 3 plays {UNSEEN[0]}, seat 3"
            f" plays {UNSEEN[1]} not open to it;",
        ),  # looped for ever in the compiled search, holding the interpreter
        (R(BIDDING, phase=Phase.PLAY), "cards are played while bids are missing"),
        (R(PLAYING, bids=(1,)), "bids has 1 entries; the rules have 4 seats"),
        (R(PLAYING, tricks_won=(0,)), "tricks_won has 1 entries; the rules have 4 seats"),
        (R(BIDDING, seat=True), "seat must be a seat from 0 to 3 or None, got True"),
        (R(BIDDING, seat=9), "seat must be a seat from 0 to 3 or None, got 9"),
        (R(BIDDING, rules=None), "rules must be Rules, got NoneType"),
        (R(BIDDING, trump_card="As"), "trump_card must be a Card or None, got 'As'"),
        (R(BIDDING, trump_card=None), "trump_card is None, but this hand turns a trump card"),
        (R(PLAYING, tricks=(None,)), "tricks must be completed tricks of 4 cards each"),
        (R(BIDDING, phase="bid"), "phase must be a Phase, got 'bid'"),
        (R(BIDDING, legal_actions=(Bid(1, 99),)), "seat 1 bids 99 not open to it"),
        (R(BIDDING, hand_size=6), "hand_size 6, but hand 1 of these rules deals 5 cards each"),
        (R(BIDDING, hand_index=1), "hand_index 1, but these rules have 1 hand"),
        (R(BIDDING, hand=BIDDING.hand[1:]), "seat 1 holds 4 cards, having played 0 of 5"),
        (
            R(PLAYING, hand=(*PLAYING.hand[1:], PLAYING.trick[0])),
            f"{PLAYING.trick[0]} appears more than once among the hand, the tricks and the trump",
        ),
        (R(PLAYING, to_act=frozenset({8})), "to_act must be a set of seats from 0 to 3"),
        # numbers no game gives: a bid past 2**63 overflowed the compiled search's arrays
        (R(PLAYING, bids=(2**63, *PLAYING.bids[1:])), "a bid is from 0 to 5, by a seat that bid"),
        (R(BIDDING, bids=(None, None, 7, None)), "a bid is from 0 to 5, by a seat that bid"),
        (R(BIDDING, bids=(None, None, 0, None)), "a bid is from 0 to 5, by a seat that bid"),
        (
            R(PLAYING, tricks_won=(-(2**63), 2**63 + len(PLAYING.tricks), 0, 0)),
            f"{len(PLAYING.tricks)} tricks played and tricks_won",
        ),
        (R(PLAYING, totals=(0, 2**63, 0, 0)), "after 0 hands, each is from 0 to 0"),
        # voids no deal fits: the search's sampler raised a ValueError, the others decided
        (
            ALL_VOID,
            "the seats shown void in clubs, diamonds, hearts and spades hold 2 cards, but only"
            " 0 cards of the other suits are unseen",
        ),
        (REVOKED, "seat 0 holds clubs, having shown it holds none"),
    ],
)
def test_a_view_no_game_could_give_is_refused_by_every_bot(view: PlayerView, message: str) -> None:
    with pytest.raises(ViewError, match=r"^inconsistent view: ") as info:
        check_view(view)
    assert message in str(info.value)
    for make in BOTS:
        with pytest.raises(ViewError) as refused:
            make().choose(view, random.Random(0), Budget(simulations=32))
        assert str(refused.value) == str(info.value)
    if view.phase is Phase.BID:
        with pytest.raises(ViewError):
            advise_bid(view, random.Random(0), samples=20)


def test_a_public_view_is_no_seat_to_act_for() -> None:
    for make in BOTS:
        with pytest.raises(ValueError, match="a public view has no seat to act for"):
            make().choose(R(BIDDING, seat=None), random.Random(0), Budget(simulations=32))


@given(st.integers(0, 10_000), st.sampled_from(BOTS))
@settings(max_examples=25, deadline=None)
def test_a_view_changed_consistently_is_decided_from(seed: int, make: Callable[[], Any]) -> None:
    """Another hand of the unseen cards, with the plays it allows: a position no deal gave,
    but one a game could, so the bot plays one of its legal cards."""
    rng = random.Random(seed)
    hand = tuple(rng.sample(UNSEEN, len(PLAYING.hand)))
    must = PLAYING.rules.must_trump
    cards = playable(hand, PLAYING.trick, PLAYING.trump, must_trump=must)
    view = R(PLAYING, hand=hand, legal_actions=tuple(Play(3, card) for card in cards))
    check_view(view)
    assert make().choose(view, rng, Budget(simulations=32)) in view.legal_actions
