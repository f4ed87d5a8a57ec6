"""Details of the engine that no test pinned down, found by a mutation audit (85 hand-made
bugs; each test here fails under the one named in its comment): what a view and an event feed
keep, what a replay checks, who leads before a deal."""

from __future__ import annotations

import random

import pytest

from ohhell.engine import (
    Bid,
    BidMade,
    Event,
    HandScored,
    RecordError,
    Rules,
    Schedule,
    TrickWon,
    apply,
    legal_actions,
    new_game,
    public_view,
    random_deal,
    records,
    view_for,
)
from ohhell.engine.events import events_for


def play_out(state, rng):
    events: list[Event] = []
    while not state.is_over:
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, ev = apply(state, action)
        events += ev
    return state, events


def test_max_hand_size_of_a_custom_schedule_is_its_largest_hand() -> (
    None
):  # not the standard table's size
    assert (
        Rules(player_count=3, schedule="custom", custom_hand_sizes=(2, 17, 5)).max_hand_size == 17
    )
    assert Rules(player_count=4, schedule="custom", custom_hand_sizes=(1, 3)).max_hand_size == 3


def test_the_seat_left_of_the_dealer_is_to_lead_before_every_deal() -> (
    None
):  # not the dealer, as a table display would show it
    rules = Rules(player_count=4, schedule="custom", custom_hand_sizes=(1, 1, 1))
    rng = random.Random(7)
    state = new_game(rules, first_dealer=2)
    while not state.is_over:
        if state.is_chance:
            assert state.leader == (state.dealer + 1) % 4
            assert public_view(state).leader == (state.dealer + 1) % 4
            state, _ = apply(state, random_deal(state, rng))
        else:
            state, _ = apply(state, rng.choice(legal_actions(state)))


def test_public_bids_stay_in_every_seats_event_feed() -> None:  # only sealed bids are hidden
    rules = Rules(player_count=3)
    state = new_game(rules, first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    state, events = apply(state, Bid(1, 1))
    assert events_for(0, events) == (BidMade(1, 1, sealed=False),)
    assert events_for(None, events) == (BidMade(1, 1, sealed=False),)


def test_trump_is_turned_when_the_stock_holds_exactly_one_card() -> (
    None
):  # the stock's last card is turned
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(17, 1))
    assert rules.has_trump(0)  # 3 x 17 = 51 dealt, one card left to turn
    state = new_game(rules)
    state, _ = apply(state, random_deal(state, random.Random(0)))
    assert state.trump_card is not None


def test_hand_scored_event_carries_running_totals() -> None:  # running, not per hand
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 1, 1))
    state, events = play_out(new_game(rules), random.Random(3))
    scored = [e for e in events if isinstance(e, HandScored)]
    running = [0, 0, 0]
    for e, r in zip(scored, state.results, strict=True):
        running = [t + p for t, p in zip(running, r.points, strict=True)]
        assert list(e.totals) == running


def test_trick_won_events_are_numbered_from_zero() -> None:
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,))
    _, events = play_out(new_game(rules), random.Random(4))
    assert [e.trick_index for e in events if isinstance(e, TrickWon)] == [0, 1, 2]


def test_sealed_bids_are_hidden_in_other_seats_event_feeds() -> None:
    rules = Rules(player_count=3, bidding="simultaneous")
    state = new_game(rules)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    state, events = apply(state, Bid(2, 1))
    assert events == (BidMade(2, 1, sealed=True),)
    assert events_for(0, events) == (BidMade(2, None, sealed=True),)


def test_sealed_bids_stay_out_of_the_dealers_legal_bids_under_rules_changed_by_hand() -> None:
    """Rules refuse the hook with sealed bids (nobody bids last). Rules changed by hand past
    that check (``object.__setattr__``; unpickling does not check again) must still not let
    the dealer's legal bids tell the sum of the others' sealed bids: the hook applies to bids
    made in turn only."""
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,), bidding="simultaneous")
    object.__setattr__(rules, "hook", True)
    legal = set()
    for first, second in ((0, 0), (1, 2), (3, 3)):
        state = new_game(rules, first_dealer=2)
        state, _ = apply(state, random_deal(state, random.Random(1)))
        state, _ = apply(state, Bid(0, first))
        state, _ = apply(state, Bid(1, second))
        view = view_for(state, 2)
        assert view.bids == (None, None, None)
        legal.add(view.legal_actions)
        state, _ = apply(state, Bid(2, 3 - first - second) if first + second <= 3 else Bid(2, 0))
    assert legal == {tuple(Bid(2, bid) for bid in range(4))}


def test_public_view_has_no_legal_actions() -> None:  # a spectator acts for no one
    rules = Rules(player_count=3)
    state = new_game(rules)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    assert public_view(state).legal_actions == ()


def test_replay_checks_each_hands_running_totals() -> (
    None
):  # a record's totals are checked, not trusted
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(2, 1))
    state, _ = play_out(new_game(rules), random.Random(5))
    record = records.to_record(state)
    record["hands"][0]["totals"] = [t + 1 for t in record["hands"][0]["totals"]]
    with pytest.raises(RecordError, match="hand 1: 'totals' is"):
        records.replay(record)


def test_replay_checks_tricks_won_of_an_unfinished_hand() -> None:  # even mid-hand
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,))
    rng = random.Random(6)
    state = new_game(rules)
    while len(state.tricks) < 1:  # stop mid-hand, one trick won
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    record = records.to_record(state)
    assert sum(record["hands"][0]["tricks_won"]) == 1
    record["hands"][0]["tricks_won"] = [0, 0, 0]
    with pytest.raises(RecordError, match="'tricks_won' is"):
        records.replay(record)


def test_a_view_shows_the_cards_still_held_not_the_cards_dealt() -> (
    None
):  # played cards leave the hand
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,))
    rng = random.Random(8)
    state = new_game(rules)
    while not state.tricks:
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    for seat in range(3):
        assert view_for(state, seat).hand == state.hands[seat]
        assert len(view_for(state, seat).hand) == 2


def test_a_view_carries_the_states_public_facts() -> None:  # winners and version were unpinned
    """Every seat's view and the public view give the state's public facts as they are: the
    version (how many actions were applied), the phase, the hand, the dealer, the trick, the
    tricks won, the totals and, once the game is over, the winners."""
    rules = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(2, 1))
    rng = random.Random(9)
    state = new_game(rules, first_dealer=1)
    seen = 0
    while True:
        facts = (
            state.version, state.phase, state.hand_index, state.hand_size, state.dealer,
            state.trump_card, state.tricks, state.trick, state.leader, state.tricks_won,
            state.totals, state.to_act, state.winners,
        )  # fmt: skip
        for view in [*(view_for(state, s) for s in range(3)), public_view(state)]:
            assert (
                view.version, view.phase, view.hand_index, view.hand_size, view.dealer,
                view.trump_card, view.tricks, view.trick, view.leader, view.tricks_won,
                view.totals, view.to_act, view.winners,
            ) == facts  # fmt: skip
        seen += 1
        if state.is_over:
            break
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    assert seen == state.version + 1 > 10
    assert state.winners and view_for(state, 0).winners == state.winners


def test_a_library_caller_s_slips_are_clear_errors_that_change_nothing() -> None:
    """What a caller of the engine gets wrong (a float or bool seat, a card for a suit, text for
    cards, an index from the end, a record of another version) is refused with a message
    saying what, never a wrong answer or another function's error."""
    import pickle

    from ohhell.engine import (
        DECK,
        PRESETS,
        Bid,
        Card,
        GameOverError,
        IllegalActionError,
        NotationError,
        RecordError,
        RulesError,
        Suit,
        check_action,
        is_legal,
        legal_bids,
        legal_plays,
        new_game,
        parse_cards,
        playable,
        public_view,
        score_hand,
        score_sheet,
        trick_winner_index,
        view_for,
        winners,
    )
    from ohhell.engine.records import replay, to_record

    start = new_game(Rules(player_count=4), first_dealer=0)
    state, _ = apply(start, random_deal(start, random.Random(2)))
    before = pickle.dumps(state)
    for seat in (True, 1.0, "1", 4, -1):  # legal_actions(state, 1.0) listed bids apply refused
        for listing in (legal_actions, legal_bids, legal_plays):
            with pytest.raises(IllegalActionError, match=f"no seat {seat!r}"):
                listing(state, seat)  # type: ignore[arg-type]
    assert pickle.dumps(state) == before
    cards = parse_cards("Kh Ah 2s Qh")
    assert trick_winner_index(cards, Suit.SPADES) == 2
    for trump in (3, "s", Card.from_str("4s")):  # was 1: the trump silently ignored
        with pytest.raises(TypeError, match="trump must be a Suit or None"):
            trick_winner_index(cards, trump)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="trump must be a Suit or None"):  # was no trump:
            playable(cards, cards[:1], trump, must_trump=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a trick has at least one card"):
        trick_winner_index((), None)
    with pytest.raises(TypeError):
        DECK[0] < 3  # type: ignore[operator]  # noqa: B015
    for bad in (lambda: parse_cards(None), lambda: Card(3.0, 14.0), lambda: Card.from_index(True)):
        with pytest.raises(NotationError):
            bad()  # type: ignore[no-untyped-call]
    # a card's repr is the constructor call that gives it back
    assert all(eval(repr(card), {"Card": Card}) is card for card in DECK)
    for args, message in (
        (("As", 14), "no card of suit 'As' and rank 14"),
        (("Zz",), "invalid card 'Zz'"),
        ((3,), r"a card is Card\('As'\) or Card\(suit, rank\), got Card\(3\)"),
    ):
        with pytest.raises(NotationError, match=message):
            Card(*args)
    assert Suit.from_str("Spades") is Suit.SPADES
    rules = Rules(player_count=3)
    for index in (-1, rules.hand_count):
        with pytest.raises(IndexError, match=f"no hand {index}: the hands are 0 to 14"):
            rules.has_trump(index)
    with pytest.raises(TypeError, match="new_game takes Rules"):
        new_game(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rng must be a random\.Random"):
        random_deal(start, None)  # type: ignore[arg-type]
    over, _ = play_out(start, random.Random(5))
    with pytest.raises(GameOverError, match="the game is over: no deal is due"):
        random_deal(over, random.Random(1))
    with pytest.raises(TypeError):
        PRESETS["hook"].options["hook"] = False  # type: ignore[index]
    assert Rules.preset("hook", player_count=4).hook
    assert pickle.loads(pickle.dumps(PRESETS["hook"])) == PRESETS["hook"]  # read-only, still
    meta = {1: 2, "t": (1, 2), "nested": {"a": [1]}}
    record = to_record(over, meta=meta)
    assert record["meta"] == {"1": 2, "t": [1, 2], "nested": {"a": [1]}}  # as it reads back
    meta["nested"]["a"].append(9)  # type: ignore[index]
    assert record["meta"]["nested"] == {"a": [1]}  # not shared with the caller
    future = {**record, "version": 2, "clock": {}}  # another version has other keys
    with pytest.raises(RecordError, match="unsupported record version 2; this program reads"):
        replay(future)
    for bid, won, size, error in (
        ("1", 1, 5, TypeError),
        (-1, -1, 5, ValueError),
        (3, 8, 7, ValueError),
        (0, 0, 0, ValueError),
        (1, 1, True, TypeError),
    ):  # a score is never made of nonsense (they scored 0, 9, 0, 10 and 11)
        with pytest.raises(error, match="must be"):
            score_hand(rules, bid=bid, won=won, hand_size=size)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="winners needs the totals of at least one seat"):
        winners([])
    for seat in (9, -1, "0", True):  # the dealer of no seat at this table (9 gave seat 0)
        with pytest.raises(RulesError, match="first_dealer must be a seat from 0 to 2"):
            rules.dealer(seat, 0)  # type: ignore[arg-type]
    # a state is a GameState: not None, not a seat's view, which has the same field names and
    # while bidding listed bids as if it were the state
    view = view_for(state, 1)
    calls = (
        ("apply", lambda s: apply(s, Bid(1, 0))),
        ("check_action", lambda s: check_action(s, Bid(1, 0))),
        ("is_legal", lambda s: is_legal(s, Bid(1, 0))),
        ("legal_actions", legal_actions),
        ("legal_bids", lambda s: legal_bids(s, 1)),
        ("legal_plays", lambda s: legal_plays(s, 1)),
        ("random_deal", lambda s: random_deal(s, random.Random(1))),
        ("view_for", lambda s: view_for(s, 1)),
        ("public_view", public_view),
        ("score_sheet", score_sheet),
        ("to_record", to_record),
    )
    for name, call in calls:
        for not_a_state, kind in ((None, "NoneType"), (view, "PlayerView")):
            with pytest.raises(TypeError, match=rf"^{name} takes a GameState, got {kind}"):
                call(not_a_state)


def test_a_number_too_long_to_write_is_refused_by_the_engines_own_errors() -> None:
    """Python will not write an integer of more than 4,300 digits (a ``ValueError`` of its own),
    so the messages naming one failed while being written: ``is_legal`` raised instead of
    answering, and the rest gave Python's message instead of the engine's error."""
    from ohhell.engine import Card, IllegalActionError, NotationError, RulesError, is_legal

    huge = 10**5000
    state = new_game(Rules(player_count=4), first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    assert is_legal(state, Bid(1, huge)) is False
    assert is_legal(state, Bid(huge, 0)) is False
    with pytest.raises(IllegalActionError, match=r"seat 1 bid an integer of 5001 digits: a bid"):
        apply(state, Bid(1, huge))
    with pytest.raises(IllegalActionError, match="no seat a negative integer of 5001 digits"):
        view_for(state, -huge)
    with pytest.raises(RulesError, match=r"player_count .* got an integer of 5001 digits"):
        Rules(player_count=huge)
    with pytest.raises(RulesError, match=r"first_dealer .* got an integer of 5001 digits"):
        new_game(Rules(player_count=4), first_dealer=huge)
    with pytest.raises(NotationError, match="got an integer of 5001 digits"):
        Card.from_index(huge)


def test_helpers_given_the_wrong_kind_of_argument_say_which() -> None:
    """``None`` for a generator or a deck, and text for cards, were an ``AttributeError`` or a
    ``TypeError`` from inside; an ``int`` subclass for the first dealer was taken by
    ``new_game`` and refused by everything after it."""
    from ohhell.engine import (
        Card,
        InvalidDealError,
        NotationError,
        RulesError,
        Suit,
        deal_from_deck,
        shuffled_deck,
        sort_cards,
    )

    with pytest.raises(TypeError, match=r"^rng must be a random.Random, got None$"):
        shuffled_deck(None)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"^sort_cards takes cards, got 'As' \(parse_cards"):
        sort_cards(["As"])  # type: ignore[list-item]
    assert sort_cards([Card.from_str("2c"), Card.from_str("As")])[0] == Card.from_str("2c")
    state = new_game(Rules(player_count=3), first_dealer=0)
    with pytest.raises(InvalidDealError, match="the deck must be a sequence of cards, got None"):
        deal_from_deck(state, None)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="first_dealer must be a seat from 0 to 2, got <Suit"):
        new_game(Rules(player_count=3), first_dealer=Suit.DIAMONDS)


def test_record_text_and_json_the_writer_cannot_take_back() -> None:
    """A record read as text keeps its byte-order mark (``open(..., encoding="utf-8")``): read
    as bytes it loaded, as text it did not. ``dumps`` wrote ``NaN`` put into ``meta`` by hand,
    which no reader takes back; a key that is not text made ``replay`` fail in ``sorted``."""
    state = new_game(Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1,)))
    rng = random.Random(2)
    while not state.is_over:
        action = random_deal(state, rng) if state.is_chance else legal_actions(state)[0]
        state, _ = apply(state, action)
    record = records.to_record(state)
    text = records.dumps(record)
    assert records.loads("\ufeff" + text) == records.loads(text) == record
    with pytest.raises(TypeError, match=r"^loads takes a record's text, str or bytes, got None"):
        records.loads(None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^cannot write the record as JSON: "):
        records.dumps({**record, "meta": {"x": float("nan")}})
    with pytest.raises(RecordError, match=r"^unknown keys in the record: 'zz', 1$"):
        records.replay({**record, 1: "x", "zz": "y"})
