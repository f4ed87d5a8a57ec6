"""Hidden information: a seat's view and event feed never show another seat's cards, the stock,
or a sealed bid before all bids are in.

Views are walked recursively (dataclasses, tuples, frozensets) to collect every :class:`Card`
they hold, so a leak through any field, present or future, is caught.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell.engine import (
    DECK,
    Action,
    BiddingMode,
    BidMade,
    BidsRevealed,
    Card,
    Event,
    GameState,
    HandDealt,
    IllegalActionError,
    Phase,
    PlayerView,
    Rules,
    Schedule,
    apply,
    events_for,
    legal_actions,
    new_game,
    public_view,
    random_deal,
    score_sheet,
    view_for,
)
from ohhell.engine.actions import Bid

GAMES = settings(max_examples=30, deadline=None)


@st.composite
def rules(draw: st.DrawFn, bidding: BiddingMode | None = None) -> Rules:
    """Short games (one to three small hands, sometimes a full-deck hand) under any options."""
    n = draw(st.integers(3, 7))
    mode = bidding if bidding is not None else draw(st.sampled_from(BiddingMode))
    sizes = st.one_of(st.integers(1, 4), st.integers(1, 52 // n))
    return Rules(
        player_count=n,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=tuple(draw(st.lists(sizes, min_size=1, max_size=3))),
        bidding=mode,
        hook=draw(st.booleans()) if mode is BiddingMode.SEQUENTIAL else False,
        must_trump=draw(st.booleans()),
        trump_in_last_hand=draw(st.booleans()),
    )


def play(rules_: Rules, seed: int) -> Iterator[tuple[GameState, tuple[Event, ...]]]:
    """Every state of a seeded random game with the events that led to it."""
    rng = random.Random(seed)
    state = new_game(rules_, first_dealer=rng.randrange(rules_.player_count))
    events: tuple[Event, ...] = ()
    yield state, events
    while not state.is_over:
        action: Action = (
            random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        )
        state, events = apply(state, action)
        yield state, events


def cards_in(value: object) -> set[Card]:
    """Every card held anywhere inside ``value`` (dataclasses, tuples, lists, sets, dicts)."""
    if isinstance(value, Card):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, (tuple, list, set, frozenset)):
        return set().union(*(cards_in(v) for v in value))
    if isinstance(value, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items()))
    return set()


def played(state: GameState) -> set[Card]:
    """Cards played face up in the current hand."""
    return {c for t in state.tricks for c in t.cards} | set(state.trick)


def stock(state: GameState) -> set[Card]:
    """The cards neither dealt nor turned in the current hand."""
    dealt = {c for hand in state.dealt for c in hand}
    return set(DECK) - dealt - {state.trump_card} if state.dealt else set()


def view_cards(view: PlayerView) -> set[Card]:
    """The cards in a view apart from the score sheet (whose only cards are past trumps)."""
    return cards_in(dataclasses.replace(view, score_sheet=()))


def check_score_sheet_cards(state: GameState, view: PlayerView) -> None:
    """Each score-sheet row shows only that hand's turned trump card."""
    trumps = [r.trump_card for r in state.results] + [state.trump_card]
    for row in view.score_sheet:
        assert cards_in(row) == ({trumps[row.hand_index]} - {None})


# --------------------------------------------------------------------------- (1) swapped cards


def swap_hidden_cards(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same game with some unplayed cards of seats other than ``seat`` (and of the stock)
    exchanged, suit for suit, so every past action stays legal and every past trick the same.
    ``None`` when no such exchange exists."""
    holders = {c: s for s, hand in enumerate(state.hands) for c in hand if s != seat}
    pool = sorted(holders) + sorted(stock(state))
    rng.shuffle(pool)
    pair = next(
        (
            (a, b)
            for a in pool
            for b in pool
            if a.suit == b.suit and holders.get(a, -1) != holders.get(b, -1)
        ),
        None,
    )
    if pair is None:
        return None
    a, b = pair

    def exchange(hand: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(sorted(b if c is a else a if c is b else c for c in hand))

    return dataclasses.replace(
        state,
        dealt=tuple(exchange(h) for h in state.dealt),
        hands=tuple(exchange(h) for h in state.hands),
    )


@GAMES
@given(rules(), st.integers(0, 2**32 - 1))
def test_views_do_not_depend_on_other_seats_cards(r: Rules, seed: int) -> None:
    rng = random.Random(seed)
    swapped_some = False
    for state, _ in play(r, seed):
        if state.phase not in (Phase.BID, Phase.PLAY):
            continue
        seat = rng.randrange(r.player_count)
        other = swap_hidden_cards(state, seat, rng)
        if other is None:
            continue
        assert other.hands != state.hands or stock(other) != stock(state)
        swapped_some = True
        mine, theirs = view_for(state, seat), view_for(other, seat)
        assert mine == theirs
        assert repr(mine) == repr(theirs)
        assert public_view(state) == public_view(other)
        hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        text = repr(dataclasses.replace(mine, score_sheet=()))
        for card in hidden | stock(state):
            assert repr(card) not in text
    assert swapped_some


def rearrange_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every card ``seat`` cannot see (the other seats' unplayed cards and the
    stock) dealt again at random, across suits, each seat keeping its number of cards, and every
    sealed bid ``seat`` cannot see made again at random. Past plays may no longer have been
    legal: a view does not replay them, it only shows them."""
    n = state.player_count
    pool = [c for s in range(n) if s != seat for c in state.hands[s]] + sorted(stock(state))
    rng.shuffle(pool)
    hands, moved = list(state.hands), {}
    for s in range(n):
        if s != seat:
            new, pool = pool[: len(state.hands[s])], pool[len(state.hands[s]) :]
            moved.update(zip(state.hands[s], new, strict=True))
            hands[s] = tuple(sorted(new))
    dealt = tuple(
        hand if s == seat else tuple(sorted(moved.get(c, c) for c in hand))
        for s, hand in enumerate(state.dealt)
    )
    bids = tuple(
        b if b is None or state.bids_revealed or s == seat else rng.randint(0, state.hand_size)
        for s, b in enumerate(state.bids)
    )
    return dataclasses.replace(state, hands=tuple(hands), dealt=dealt, bids=bids)


@GAMES
@given(rules(), st.integers(0, 2**32 - 1))
def test_views_ignore_any_rearrangement_of_what_a_seat_cannot_see(r: Rules, seed: int) -> None:
    """Stronger than one same-suit exchange: all hidden cards dealt again across suits, and the
    sealed bids made again; nothing a seat or a spectator is given changes."""
    rng = random.Random(seed)
    for state, _ in play(r, seed):
        if state.phase not in (Phase.BID, Phase.PLAY):
            continue
        for seat in range(r.player_count):
            other = rearrange_hidden(state, seat, rng)
            assert view_for(other, seat) == view_for(state, seat)
            assert score_sheet(other, seat) == score_sheet(state, seat)
        other = rearrange_hidden(state, -1, rng)  # a spectator sees no hand at all
        assert public_view(other) == public_view(state)


# --------------------------------------------------------------------------- (2) views in play


@GAMES
@given(rules(), st.integers(0, 2**32 - 1))
def test_no_view_holds_hidden_cards(r: Rules, seed: int) -> None:
    for state, _ in play(r, seed):
        in_hand = state.phase in (Phase.BID, Phase.PLAY)
        face_up = played(state) | ({state.trump_card} - {None})
        for seat in range(r.player_count):
            view = view_for(state, seat)
            own = set(state.hands[seat]) if in_hand else set()
            seen = view_cards(view)
            assert seen <= own | face_up
            others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
            assert not seen & (others | stock(state))
            check_score_sheet_cards(state, view)
        spectator = public_view(state)
        assert spectator.hand is None
        assert spectator.legal_actions == ()
        assert view_cards(spectator) <= face_up
        check_score_sheet_cards(state, spectator)


# --------------------------------------------------------------------------- (3) sealed bids


@GAMES
@given(rules(bidding=BiddingMode.SIMULTANEOUS), st.integers(0, 2**32 - 1))
def test_sealed_bids_stay_hidden_until_all_are_in(r: Rules, seed: int) -> None:
    n = r.player_count
    for state, events in play(r, seed):
        revealed = state.phase is not Phase.BID
        for seat in range(n):
            shown = view_for(state, seat).bids
            in_hand = state.phase in (Phase.BID, Phase.PLAY)
            row = score_sheet(state, seat)[-1].bids if in_hand else None
            for other in range(n):
                expected = state.bids[other] if revealed or other == seat else None
                assert shown[other] == expected
                if row is not None:
                    assert row[other] == expected
            for event in events_for(seat, events):
                if isinstance(event, BidMade) and event.seat != seat:
                    assert event.bid is None
            if not revealed:
                assert not any(isinstance(e, BidsRevealed) for e in events_for(seat, events))
        if state.phase is Phase.BID:
            assert public_view(state).bids == (None,) * n
            assert score_sheet(state)[-1].bids == (None,) * n
        if any(isinstance(e, BidsRevealed) for e in events):
            assert all(b is not None for b in view_for(state, 0).bids)


@GAMES
@given(rules(bidding=BiddingMode.SIMULTANEOUS), st.integers(0, 2**32 - 1))
def test_a_sealed_bid_does_not_change_other_views(r: Rules, seed: int) -> None:
    n = r.player_count
    for state, _ in play(r, seed):
        if state.phase is not Phase.BID or len(state.to_act) < 2:
            continue
        bidder = min(state.to_act)
        bids = [apply(state, Bid(bidder, b))[0] for b in range(state.hand_size + 1)]
        for seat in range(n):
            if seat == bidder:
                continue
            views = [view_for(s, seat) for s in bids]
            assert all(v == views[0] for v in views)
            feeds = [events_for(seat, apply(state, Bid(bidder, b))[1]) for b in range(len(bids))]
            assert all(f == feeds[0] for f in feeds)


@GAMES
@given(rules(), st.integers(0, 2**32 - 1))
def test_event_feeds_hide_other_seats_cards(r: Rules, seed: int) -> None:
    n = r.player_count
    seen: list[set[Card]] = [set() for _ in range(n + 1)]
    for state, events in play(r, seed):
        for seat in [*range(n), None]:
            feed = events_for(seat, events)
            index = n if seat is None else seat
            for event in feed:
                if isinstance(event, HandDealt):
                    seen[index] = set()
                    assert all((hand is None) == (s != seat) for s, hand in enumerate(event.hands))
                seen[index] |= cards_in(event)
            if state.phase in (Phase.BID, Phase.PLAY):
                others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
                assert not seen[index] & others
                assert not seen[index] & stock(state)
                face_up = played(state) | ({state.trump_card} - {None})
                assert seen[index] <= face_up | set(state.dealt[seat] if seat is not None else ())


class _EverySeat(int):
    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = int.__hash__


def test_a_view_or_a_feed_of_no_seat_is_refused() -> None:
    """``view_for`` and ``events_for`` take a seat (``events_for`` also ``None``, a
    spectator): anything else is an :class:`IllegalActionError`, never another seat's view
    (``True == 1``: seat 1's cards)."""
    start = new_game(Rules(player_count=3, bidding=BiddingMode.SIMULTANEOUS), first_dealer=0)
    state, events = apply(start, random_deal(start, random.Random(1)))
    state, bid_events = apply(state, Bid(1, 0))
    events += bid_events
    every = _EverySeat(2)  # an int whose == says yes to every seat

    for seat in (3, -1, True, 1.0, "0", None, every):
        with pytest.raises(IllegalActionError, match="no seat"):
            view_for(state, seat)  # type: ignore[arg-type]
    for seat in (True, 1.0, "1", every):
        with pytest.raises(IllegalActionError, match="no seat"):
            events_for(seat, events)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="no seat"):
            score_sheet(state, seat)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="no seat 3: seats are 0 to 2"):
        score_sheet(state, 3)
    for seat in (3, -1):  # the deal names every seat
        with pytest.raises(IllegalActionError, match=f"no seat {seat}: seats are 0 to 2"):
            events_for(seat, events)
    assert score_sheet(state, 2)[-1].bids == (None, None, None)  # seat 1's bid is sealed
    dealt = [e for e in events_for(None, events) if isinstance(e, HandDealt)]
    assert dealt and all(hand is None for hand in dealt[0].hands)
