"""Property tests of the engine: random rules, random play, invariants of RULES.md.

Every invariant is checked independently of the engine's own code: the follow-suit rule, the
trick winner, the hook and the scores are written again here, straight from RULES.md, and the
engine's answers are compared with them.

A game is drawn as :class:`Setup` (rules, first dealer, seed) and played with seeded random
choices among the legal actions, so a failing example is printed in a few words and can be
replayed with ``Setup(...).steps()``. The rules strategy prefers short custom schedules and
sometimes draws a full one, so the suite stays fast on one core.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell.engine import (
    DECK,
    Action,
    BiddingMode,
    BidOutOfRangeError,
    BidsRevealed,
    Card,
    CardNotHeldError,
    Deal,
    Event,
    GameEnded,
    GameOverError,
    GameState,
    HandScored,
    HookError,
    IllegalActionError,
    MustFollowSuitError,
    MustTrumpError,
    NotationError,
    NotYourTurnError,
    Phase,
    Rules,
    RulesError,
    Schedule,
    Suit,
    WrongPhaseError,
    apply,
    check_action,
    is_legal,
    legal_actions,
    legal_bids,
    legal_plays,
    new_game,
    random_deal,
    score_sheet,
    view_for,
)
from ohhell.engine.actions import Bid, Play
from ohhell.engine.records import dumps, loads, replay, to_record

LARGEST_HAND = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
"""RULES.md's table: hands per game (and cards in the largest hand) by player count."""

GAMES = settings(max_examples=40, deadline=None)
"""Settings for tests that play whole games."""


# --------------------------------------------------------------------------- strategies


@st.composite
def rules(draw: st.DrawFn) -> Rules:
    """Any valid rules: 3-7 players, every schedule (custom ones mostly small), every option
    where it is allowed (the turning hand repeat only with up-and-down/down-and-up, the hook only
    with sequential bidding)."""
    n = draw(st.integers(3, 7))
    schedule = draw(
        st.sampled_from(
            [Schedule.CUSTOM, Schedule.CUSTOM, Schedule.CUSTOM, Schedule.CUSTOM, *Schedule]
        )
    )
    custom: tuple[int, ...] = ()
    if schedule is Schedule.CUSTOM:
        size = st.one_of(st.integers(1, 3), st.integers(1, 52 // n))
        custom = tuple(draw(st.lists(size, min_size=1, max_size=4)))
    turning = schedule in (Schedule.UP_AND_DOWN, Schedule.DOWN_AND_UP)
    bidding = draw(st.sampled_from(BiddingMode))
    return Rules(
        player_count=n,
        schedule=schedule,
        custom_hand_sizes=custom,
        repeat_turning_hand=draw(st.booleans()) if turning else False,
        trump_in_last_hand=draw(st.booleans()),
        hook=draw(st.booleans()) if bidding is BiddingMode.SEQUENTIAL else False,
        bidding=bidding,
        must_trump=draw(st.booleans()),
        missed_bid_scores_tricks=draw(st.booleans()),
        zero_bid_bonus=draw(st.booleans()),
    )


@dataclass(frozen=True)
class Step:
    """One applied action: the state before, the action, the state after and the events."""

    before: GameState
    action: Action
    after: GameState
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Setup:
    """A reproducible random game: deals and choices both come from ``random.Random(seed)``."""

    rules: Rules
    first_dealer: int
    seed: int

    def steps(self) -> list[Step]:
        """Play the whole game, choosing uniformly among the legal actions."""
        rng = random.Random(self.seed)
        state = new_game(self.rules, first_dealer=self.first_dealer)
        out: list[Step] = []
        while not state.is_over:
            if state.is_chance:
                action: Action = random_deal(state, rng)
            else:
                action = rng.choice(legal_actions(state))
            after, events = apply(state, action)
            out.append(Step(state, action, after, events))
            state = after
        return out


@st.composite
def games(draw: st.DrawFn) -> Setup:
    """A random game under random rules."""
    drawn = draw(rules())
    first_dealer = draw(st.integers(0, drawn.player_count - 1))
    return Setup(drawn, first_dealer, draw(st.integers(0, 2**32 - 1)))


# --------------------------------------------------------------------------- the rules again


def winner_position(cards: tuple[Card, ...], trump: Suit | None) -> int:
    """RULES.md: the highest trump if any was played, else the highest card of the suit led."""
    trumps = [c for c in cards if c.suit == trump]
    pool = trumps or [c for c in cards if c.suit == cards[0].suit]
    return cards.index(max(pool, key=lambda c: int(c.rank)))


def expected_points(rules: Rules, bid: int, won: int, size: int) -> int:
    """RULES.md scoring with variants 6 (missed bids score tricks) and 7 (zero bid bonus)."""
    if bid != won:
        return won if rules.missed_bid_scores_tricks else 0
    if bid == 0 and rules.zero_bid_bonus:
        return 5 + size
    return 10 + won


def allowed_plays(state: GameState, seat: int) -> set[Card]:
    """RULES.md: follow suit if able; under La Podrida, else trump if able; else anything."""
    holding = state.hands[seat]
    if not state.trick:
        return set(holding)
    led = state.trick[0].suit
    follow = {c for c in holding if c.suit == led}
    if follow:
        return follow
    if state.rules.must_trump and state.trump_card is not None:
        trumps = {c for c in holding if c.suit == state.trump_card.suit}
        if trumps:
            return trumps
    return set(holding)


def expected_hand_sizes(rules: Rules) -> tuple[int, ...]:
    """RULES.md's schedules: ascending 1..max, descending, up-and-down, down-and-up."""
    top = LARGEST_HAND[rules.player_count]
    up = list(range(1, top + 1))
    down = up[::-1]
    twice = rules.repeat_turning_hand
    sizes = {
        Schedule.ASCENDING: up,
        Schedule.DESCENDING: down,
        Schedule.UP_AND_DOWN: up + (down if twice else down[1:]),
        Schedule.DOWN_AND_UP: down + (up if twice else up[1:]),
        Schedule.CUSTOM: list(rules.custom_hand_sizes),
    }[rules.schedule]
    return tuple(sizes)


def played_this_hand(state: GameState) -> list[Card]:
    """Every card played in the current hand, completed tricks first."""
    return [c for t in state.tricks for c in t.cards] + list(state.trick)


# --------------------------------------------------------------------------- cards and rules


@given(st.sampled_from(DECK))
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.from_str(str(card)) is card
    assert Card.from_str(card.pretty) is card
    assert Card.from_index(card.index) is card
    assert card.index == card.suit * 13 + card.rank - 2


_RANK_SPELLINGS = {
    **{str(pips): pips for pips in range(2, 10)},
    **{
        letter: pips
        for pips, up in zip(range(10, 15), "TJQKA", strict=True)
        for letter in (up, up.lower())
    },
    "10": 10,
}
_SUIT_SPELLINGS = {
    spelling: suit
    for suit, (letter, symbol) in enumerate(zip("cdhs", "\u2663\u2666\u2665\u2660", strict=True))
    for spelling in (letter, letter.upper(), symbol)
}
_SPELLINGS = {
    rank + suit: DECK[s * 13 + pips - 2]
    for rank, pips in _RANK_SPELLINGS.items()
    for suit, s in _SUIT_SPELLINGS.items()
}
"""Every way to write a card, written out again from the notation (``As``, ``td``, ``10H``,
``Q\u2665``): the parser's table is checked against it."""


@st.composite
def card_texts(draw: st.DrawFn) -> str:
    """A card's spelling, a near miss of one (a character more, less or changed, spaces
    around), or any short text."""
    spelling = draw(st.sampled_from(sorted(_SPELLINGS)))
    where = draw(st.integers(0, len(spelling)))
    char = draw(st.characters(codec="utf-8"))
    return draw(
        st.sampled_from(
            [
                spelling,
                f" {spelling}\t",
                spelling[:where] + char + spelling[where:],
                spelling[:where] + spelling[where + 1 :],
                spelling[:where] + char + spelling[where + 1 :],
                draw(st.text(max_size=4)),
            ]
        )
    )


@given(card_texts())
def test_card_parser_reads_exactly_the_spellings_of_cards(text: str) -> None:
    expected = _SPELLINGS.get(text.strip())
    if expected is None:
        with pytest.raises(NotationError):
            Card.from_str(text)
    else:
        assert Card.from_str(text) is expected


@given(rules())
def test_rules_round_trip_through_dict_and_json(r: Rules) -> None:
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r


@given(rules())
def test_hand_schedule_and_trump_follow_the_rules(r: Rules) -> None:
    sizes = r.hand_sizes()
    assert sizes == expected_hand_sizes(r)
    assert r.hand_count == len(sizes)
    for index, size in enumerate(sizes):
        last = index == len(sizes) - 1
        stock_left = size * r.player_count < 52
        assert r.has_trump(index) == (stock_left and (not last or r.trump_in_last_hand))


_OPTION_NAMES = [f.name for f in fields(Rules)]


@given(rules(), st.text(min_size=1, max_size=12).filter(lambda k: k not in _OPTION_NAMES))
def test_rules_from_dict_refuses_unknown_keys(r: Rules, key: str) -> None:
    data = {**r.to_dict(), key: True}
    with pytest.raises(RulesError) as info:
        Rules.from_dict(data)
    assert repr(key) in str(info.value)


BAD_OPTIONS: list[tuple[str, object]] = [
    ("player_count", 2),
    ("player_count", 8),
    ("player_count", "4"),
    ("player_count", True),
    ("player_count", 4.0),
    ("schedule", "sideways"),
    ("schedule", 1),
    ("bidding", "secret"),
    ("custom_hand_sizes", "1,2"),
    ("custom_hand_sizes", [0]),
    ("custom_hand_sizes", [53]),
    ("custom_hand_sizes", ["2"]),
    ("custom_hand_sizes", [True]),
    *(
        (name, value)
        for name in (
            "repeat_turning_hand",
            "trump_in_last_hand",
            "hook",
            "must_trump",
            "missed_bid_scores_tricks",
            "zero_bid_bonus",
        )
        for value in ("yes", 1, None)
    ),
]


@given(rules(), st.sampled_from(BAD_OPTIONS))
def test_rules_from_dict_names_the_bad_field(r: Rules, bad: tuple[str, object]) -> None:
    name, value = bad
    data = {**r.to_dict(), name: value}
    with pytest.raises(RulesError) as info:
        Rules.from_dict(data)
    assert name in str(info.value)


@given(rules())
def test_rules_from_dict_refuses_contradictory_options(r: Rules) -> None:
    data = r.to_dict()
    with pytest.raises(RulesError, match=r"hook.*simultaneous"):
        Rules.from_dict({**data, "hook": True, "bidding": "simultaneous"})
    with pytest.raises(RulesError, match="repeat_turning_hand"):
        Rules.from_dict(
            {**data, "repeat_turning_hand": True, "schedule": "ascending", "custom_hand_sizes": []}
        )
    with pytest.raises(RulesError, match="custom_hand_sizes"):
        Rules.from_dict(
            {**data, "schedule": "custom", "custom_hand_sizes": [], "repeat_turning_hand": False}
        )


# --------------------------------------------------------------------------- invariants of play


@GAMES
@given(games())
def test_cards_are_conserved(game: Setup) -> None:
    n = game.rules.player_count
    steps = game.steps()
    for step in steps:
        state = step.after
        if isinstance(step.action, Deal):
            size = state.hand_size
            dealt = [c for hand in state.dealt for c in hand]
            assert all(c is DECK[c.index] for c in dealt)
            assert [len(hand) for hand in state.dealt] == [size] * n
            assert len(set(dealt)) == n * size
            if game.rules.has_trump(state.hand_index):
                assert state.trump_card is not None
                assert state.trump_card not in dealt
                assert n * size + 1 <= 52
            else:
                assert state.trump_card is None
        if state.phase in (Phase.BID, Phase.PLAY):
            held = [c for hand in state.hands for c in hand]
            played = played_this_hand(state)
            assert Counter(held + played) == Counter(c for hand in state.dealt for c in hand)
    for result in steps[-1].after.results:
        played = [c for t in result.tricks for c in t.cards]
        assert Counter(played) == Counter(c for hand in result.dealt for c in hand)
        assert len(played) == n * result.hand_size


@GAMES
@given(games())
def test_tricks_have_one_card_per_seat_in_order_from_the_leader(game: Setup) -> None:
    n = game.rules.player_count
    steps = game.steps()
    for step in steps:
        if isinstance(step.action, Play):
            state = step.before
            assert step.action.seat == (state.leader + len(state.trick)) % n
            assert state.to_act == {step.action.seat}
    for result in steps[-1].after.results:
        leader = (result.dealer + 1) % n
        for trick in result.tricks:
            assert trick.leader == leader
            assert len(trick.cards) == n
            for position, card in enumerate(trick.cards):
                assert card in result.dealt[(trick.leader + position) % n]
            trump = None if result.trump_card is None else result.trump_card.suit
            assert trick.winner == (trick.leader + winner_position(trick.cards, trump)) % n
            leader = trick.winner


@GAMES
@given(games())
def test_every_play_follows_suit_and_la_podrida(game: Setup) -> None:
    for step in game.steps():
        if isinstance(step.action, Play):
            seat = step.action.seat
            allowed = allowed_plays(step.before, seat)
            assert step.action.card in allowed
            assert set(legal_plays(step.before, seat)) == allowed


@GAMES
@given(games())
def test_shown_voids_are_every_failure_to_follow_and_true(game: Setup) -> None:
    """A view's shown voids are exactly what the plays so far reveal (RULES.md: a seat that does
    not follow holds none of the suit led; under La Podrida, none of trumps either unless it
    trumped), and each is a suit the seat really holds none of."""
    for step in game.steps():
        if not isinstance(step.action, Play):
            continue
        state = step.before
        trump = None if state.trump_card is None else state.trump_card.suit
        expected: list[set[Suit]] = [set() for _ in range(state.player_count)]
        tricks = [(t.leader, t.cards) for t in state.tricks] + [(state.leader, state.trick)]
        for leader, cards in tricks:
            for position, card in enumerate(cards):
                seat = (leader + position) % state.player_count
                if card.suit != cards[0].suit:
                    expected[seat].add(cards[0].suit)
                    if state.rules.must_trump and trump is not None and card.suit != trump:
                        expected[seat].add(trump)
        shown = view_for(state, step.action.seat).shown_voids()
        assert [set(suits) for suits in shown] == expected
        for seat, suits in enumerate(shown):
            assert not suits & {card.suit for card in state.hands[seat]}


@GAMES
@given(games())
def test_tricks_won_sum_to_the_hand_size(game: Setup) -> None:
    for result in game.steps()[-1].after.results:
        assert len(result.tricks) == result.hand_size
        assert sum(result.tricks_won) == result.hand_size
        wins = Counter(t.winner for t in result.tricks)
        assert list(result.tricks_won) == [wins[s] for s in range(len(result.tricks_won))]


@GAMES
@given(games())
def test_bids_follow_the_bidding_rules_and_the_hook(game: Setup) -> None:
    rules_ = game.rules
    n = rules_.player_count
    steps = game.steps()
    for step in steps:
        if not isinstance(step.action, Bid):
            continue
        state, seat = step.before, step.action.seat
        done = [b for b in state.bids if b is not None]
        if rules_.bidding is BiddingMode.SEQUENTIAL:
            assert seat == (state.dealer + 1 + len(done)) % n
        else:
            assert state.to_act == {s for s, b in enumerate(state.bids) if b is None}
        allowed = set(range(state.hand_size + 1))
        if rules_.hook and len(done) == n - 1:
            assert seat == state.dealer
            allowed.discard(state.hand_size - sum(done))
        assert set(legal_bids(state, seat)) == allowed
    for result in steps[-1].after.results:
        if rules_.hook:
            assert sum(result.bids) != result.hand_size


@GAMES
@given(games())
def test_scores_follow_the_rules(game: Setup) -> None:
    for result in game.steps()[-1].after.results:
        for bid, won, points in zip(result.bids, result.tricks_won, result.points, strict=True):
            assert points == expected_points(game.rules, bid, won, result.hand_size)


@GAMES
@given(games())
def test_totals_and_winners(game: Setup) -> None:
    n = game.rules.player_count
    for step in game.steps():
        state = step.after
        totals = tuple(sum(r.points[s] for r in state.results) for s in range(n))
        assert state.totals == totals
        for event in step.events:
            if isinstance(event, HandScored):
                assert event.totals == totals
            if isinstance(event, GameEnded):
                assert event.totals == totals
                assert event.winners == state.winners
        if state.is_over:
            assert len(state.results) == game.rules.hand_count
            assert state.winners == tuple(s for s in range(n) if totals[s] == max(totals))
        else:
            assert state.winners == ()


@GAMES
@given(games())
def test_legal_actions_exist_until_the_game_ends(game: Setup) -> None:
    steps = game.steps()
    for step in steps:
        state = step.before
        assert not state.is_over
        if state.is_chance:
            assert legal_actions(state) == ()
            assert state.to_act == frozenset()
            continue
        actions = legal_actions(state)
        assert actions
        assert {a.seat for a in actions if isinstance(a, (Bid, Play))} == state.to_act
        assert step.action in actions
    final = steps[-1].after
    assert final.is_over
    assert final.to_act == frozenset()
    assert legal_actions(final) == ()
    for action in (Bid(0, 0), Play(0, DECK[0]), Deal(((),) * game.rules.player_count, None)):
        with pytest.raises(GameOverError):
            apply(final, action)


# The fields a step may change, by the kind of action: the rest are carried over as they are.
_CHANGED_BY: dict[type, set[str]] = {
    Deal: {"phase", "dealt", "hands", "trump_card", "leader"},
    Bid: {"bids", "phase"},
    Play: {"hands", "trick", "tricks", "leader", "tricks_won"},
}
_NEW_HAND = {"hand_index", "phase", "dealt", "hands", "trump_card", "bids", "tricks", "leader"}
_NEW_HAND |= {"trick", "tricks_won", "results", "totals", "sheet"}


@GAMES
@given(games())
def test_every_state_apply_builds_is_whole(game: Setup) -> None:
    """``apply`` builds its states slot by slot, not through the dataclass's ``__init__``:
    each must still set every field, as the constructor would, and carry over the rest."""
    for step in game.steps():
        before, after = step.before, step.after
        values = {f.name: getattr(after, f.name) for f in fields(GameState)}  # each one set
        assert GameState(**values) == after
        assert after.version == before.version + 1
        changed = _CHANGED_BY[type(step.action)]
        if after.hand_index != before.hand_index:  # the play that ends a hand
            changed = _NEW_HAND
        for name, value in values.items():
            if name not in changed and name != "version":
                assert value is getattr(before, name), name


def targeted_illegal(state: GameState, rng: random.Random) -> Iterator[tuple[Action, type]]:
    """Illegal actions aimed at each rule, with the error each must raise."""
    n, size = state.player_count, state.hand_size
    deal = Deal(state.dealt, state.trump_card)
    if state.phase is Phase.DEAL:
        yield Bid(rng.randrange(n), 0), WrongPhaseError
        yield Play(rng.randrange(n), rng.choice(DECK)), WrongPhaseError
        return
    yield deal, WrongPhaseError
    seat = min(state.to_act)
    others = [s for s in range(n) if s not in state.to_act]
    if state.phase is Phase.BID:
        yield Play(seat, state.hands[seat][0]), WrongPhaseError
        if others:
            yield Bid(rng.choice(others), 0), NotYourTurnError
        yield Bid(seat, -1), BidOutOfRangeError
        yield Bid(seat, size + 1 + rng.randrange(3)), BidOutOfRangeError
        done = [b for b in state.bids if b is not None]
        if state.rules.hook and len(done) == n - 1 and 0 <= size - sum(done) <= size:
            yield Bid(seat, size - sum(done)), HookError
        return
    holding = state.hands[seat]
    yield Bid(seat, 0), WrongPhaseError
    other = rng.choice(others)
    if state.hands[other]:
        yield Play(other, rng.choice(state.hands[other])), NotYourTurnError
    yield Play(seat, rng.choice([c for c in DECK if c not in holding])), CardNotHeldError
    if state.trick:
        led = state.trick[0].suit
        off = [c for c in holding if c.suit != led]
        if off and len(off) < len(holding):
            yield Play(seat, rng.choice(off)), MustFollowSuitError
        trump = state.trump
        if state.rules.must_trump and trump is not None and not any(c.suit == led for c in holding):
            plain = [c for c in holding if c.suit != trump]
            if plain and len(plain) < len(holding):
                yield Play(seat, rng.choice(plain)), MustTrumpError


def any_action(state: GameState, rng: random.Random) -> Action:
    """A random bid or play from the whole action space, legal or not."""
    seat = rng.randrange(state.player_count)
    if rng.random() < 0.5:
        return Bid(seat, rng.randrange(-1, state.hand_size + 2))
    return Play(seat, rng.choice(DECK))


@GAMES
@given(games(), st.integers(0, 2**32 - 1))
def test_illegal_actions_are_refused_and_change_nothing(game: Setup, seed: int) -> None:
    rng = random.Random(seed)
    steps = game.steps()
    for step in rng.sample(steps, min(len(steps), 40)):
        state = step.before
        snapshot = repr(state)
        legal = set(legal_actions(state))
        for action, error in targeted_illegal(state, rng):
            assert action not in legal
            with pytest.raises(error):
                apply(state, action)
            assert not is_legal(state, action)
        if state.phase is Phase.PLAY:  # every card, for the seat to play: the allowed ones
            seat = min(state.to_act)  # are what the rules of allowed_plays say, no more
            allowed = {Play(seat, card) for card in allowed_plays(state, seat)}
            assert {Play(seat, c) for c in DECK if is_legal(state, Play(seat, c))} == allowed
        for _ in range(3):
            action = any_action(state, rng)
            assert is_legal(state, action) == (action in legal)
            if action not in legal:
                with pytest.raises(IllegalActionError):
                    check_action(state, action)
                with pytest.raises(IllegalActionError):
                    apply(state, action)
        assert repr(state) == snapshot
        assert apply(state, step.action) == (step.after, step.events)


@GAMES
@given(games(), st.lists(st.integers(0, 10_000), max_size=3))
def test_records_round_trip_mid_game_and_at_the_end(game: Setup, points: list[int]) -> None:
    steps = game.steps()
    states = [steps[p % len(steps)].after for p in points] + [steps[-1].after]
    for state in states:
        record = to_record(state)
        assert json.loads(json.dumps(record)) == record
        assert loads(dumps(record)) == record
        replayed = replay(record)
        assert to_record(replayed) == record
        assert replayed == state


@GAMES
@given(games())
def test_score_sheet_matches_results(game: Setup) -> None:
    n = game.rules.player_count
    steps = game.steps()
    for step in [*steps[:: max(1, len(steps) // 50)], steps[-1]]:
        state = step.after
        sheet = score_sheet(state)
        totals = [0] * n
        for row, result in zip(sheet, state.results, strict=False):
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            assert (row.hand_index, row.number) == (result.hand_index, result.hand_index + 1)
            assert (row.dealer, row.hand_size) == (result.dealer, result.hand_size)
            assert row.trump_card == result.trump_card
            assert row.bids == result.bids
            assert row.tricks_won == result.tricks_won
            assert row.points == result.points
            assert row.totals == tuple(totals)
        in_hand = state.phase in (Phase.BID, Phase.PLAY)
        assert len(sheet) == len(state.results) + in_hand
        if in_hand:
            row = sheet[-1]
            assert (row.hand_index, row.points, row.totals) == (
                state.hand_index,
                None,
                state.totals,
            )
            assert row.tricks_won == state.tricks_won
            assert row.bids == (state.bids if state.bids_revealed else (None,) * n)
            for seat in range(n):
                own = score_sheet(state, seat)[-1].bids
                assert own[seat] == state.bids[seat]
                if not state.bids_revealed:
                    assert all(b is None for s, b in enumerate(own) if s != seat)
    for step in steps:
        assert any(isinstance(e, BidsRevealed) for e in step.events) == (
            game.rules.bidding is BiddingMode.SIMULTANEOUS
            and isinstance(step.action, Bid)
            and step.after.phase is Phase.PLAY
        )
