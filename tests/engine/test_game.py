"""Game flow, the rule documents' worked examples, and illegal actions."""

from __future__ import annotations

import random

import pytest

from ohhell.engine import (
    DECK,
    PRESETS,
    BidMade,
    BidOutOfRangeError,
    BidsRevealed,
    Card,
    CardNotHeldError,
    CardPlayed,
    Deal,
    GameEnded,
    GameOverError,
    GameState,
    HandDealt,
    HandScored,
    HookError,
    IllegalActionError,
    InvalidDealError,
    MustFollowSuitError,
    MustTrumpError,
    NotationError,
    NotYourTurnError,
    Phase,
    Play,
    Rank,
    Rules,
    RulesError,
    Suit,
    TrickWon,
    WrongPhaseError,
    apply,
    is_legal,
    legal_actions,
    new_game,
    parse_cards,
    public_view,
    random_deal,
    score_sheet,
    view_for,
)
from ohhell.engine import Bid as B


def deal(*hands: str, trump: str | None) -> Deal:
    return Deal(
        tuple(parse_cards(h) for h in hands), None if trump is None else Card.from_str(trump)
    )


def run(state: GameState, *actions: object) -> GameState:
    for action in actions:
        state, _ = apply(state, action)  # type: ignore[arg-type]
    return state


def plays(state: GameState, *cards: str) -> GameState:
    """Play the cards in order, each by the seat to act."""
    for text in cards:
        (seat,) = state.to_act
        state, _ = apply(state, Play(seat, Card.from_str(text)))
    return state


def play_out_leading(state: GameState) -> GameState:
    """Everyone plays their first legal card until the hand ends."""
    index = state.hand_index
    while state.hand_index == index and not state.is_over:
        state, _ = apply(state, legal_actions(state)[0])
    return state


ONE_HAND_4 = Rules(
    player_count=3, schedule="custom", custom_hand_sizes=(4,), trump_in_last_hand=True
)
EVELYN_DEAL = deal("As Ks Qs Js", "2h 3h 4h 5h", "2d 3d 4d 5d", trump="2s")


def test_evelyn_and_frank() -> None:
    """Evelyn bid 4 and won 4: 14 points. Frank bid 0 and won 0: 10 points."""
    state = run(new_game(ONE_HAND_4, first_dealer=2), EVELYN_DEAL, B(0, 4), B(1, 0), B(2, 1))
    state = play_out_leading(state)
    assert state.is_over
    assert state.results[0].tricks_won == (4, 0, 0)
    assert state.results[0].points == (14, 10, 0)
    assert state.winners == (0,)


def test_george_missed_bid_scores_tricks() -> None:
    """George bid 3 and won 4: 4 points under variant 6 (0 in the standard game)."""
    rules = Rules.from_dict({**ONE_HAND_4.to_dict(), "missed_bid_scores_tricks": True})
    for rule_set, expected in ((rules, 4), (ONE_HAND_4, 0)):
        state = run(new_game(rule_set, first_dealer=2), EVELYN_DEAL, B(0, 3), B(1, 0), B(2, 1))
        state = play_out_leading(state)
        assert state.results[0].points[0] == expected


def test_helen_zero_bid_bonus_in_seventh_hand() -> None:
    """Helen bid zero and won zero in the seventh hand, seven tricks: 12 points (5 + 7)."""
    rules = Rules(player_count=3, zero_bid_bonus=True)
    rng = random.Random(7)
    state = new_game(rules, first_dealer=0)
    while state.hand_index < 6:
        action = random_deal(state, rng) if state.is_chance else legal_actions(state)[0]
        state, _ = apply(state, action)
    before = state.totals
    assert state.hand_size == 7 and state.dealer == 0
    helen = 2
    state = run(
        state,
        deal("2d 3d 4d 5d 6d 7d 8d", "As Ks Qs Js Ts 9s 8s", "2h 3h 4h 5h 6h 7h 8h", trump="2s"),
        B(1, 7),
        B(helen, 0),
        B(0, 0),
    )
    state = play_out_leading(state)
    points = state.results[6].points
    assert points[helen] == 12
    assert points == (12, 17, 12)
    assert state.totals == tuple(b + p for b, p in zip(before, points, strict=True))


def test_full_flow_dealer_bidding_and_leads() -> None:
    rules = Rules(player_count=4)
    state = new_game(rules, first_dealer=3)
    assert state.phase is Phase.DEAL and state.is_chance and not state.to_act
    state, events = apply(state, random_deal(state, random.Random(1)))
    assert isinstance(events[0], HandDealt) and events[0].dealer == 3
    assert state.bid_order == (0, 1, 2, 3)
    for seat in (0, 1, 2, 3):
        assert state.to_act == {seat}
        state, events = apply(state, B(seat, 0))
        assert events[0] == BidMade(seat, 0)
    assert state.phase is Phase.PLAY and state.to_act == {0}  # left of the dealer leads
    (card,) = state.hands[0]
    state, events = apply(state, Play(0, card))
    assert events == (CardPlayed(0, card),)
    for seat in (1, 2, 3):
        state, events = apply(state, Play(seat, state.hands[seat][0]))
    assert [type(e) for e in events] == [CardPlayed, TrickWon, HandScored]
    assert state.hand_index == 1 and state.phase is Phase.DEAL and state.dealer == 0
    state, _ = apply(state, random_deal(state, random.Random(2)))
    assert state.to_act == {1}


def test_trick_winner_leads_next() -> None:
    rules = Rules(
        player_count=3, schedule="custom", custom_hand_sizes=(2,), trump_in_last_hand=True
    )
    state = run(
        new_game(rules, first_dealer=0),
        deal("Ah 2c", "Kh 3c", "2s 4c", trump="5s"),  # spades trump
        B(1, 1),
        B(2, 1),
        B(0, 0),
    )
    state, events = apply(state, Play(1, Card.from_str("Kh")))
    state, _ = apply(state, Play(2, Card.from_str("2s")))  # void in hearts: trumps
    state, events = apply(state, Play(0, Card.from_str("Ah")))
    assert events[-1] == TrickWon(0, 1, parse_cards("Kh 2s Ah"), 2)
    assert state.to_act == {2}  # the winner leads


def test_no_trump_in_last_hand_highest_of_led_suit_wins() -> None:
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1,))
    state = new_game(rules, first_dealer=0)
    with pytest.raises(InvalidDealError, match="no trump is turned"):
        apply(state, deal("2h", "3h", "As", trump="4c"))
    state = run(state, deal("2h", "3h", "As", trump=None), B(1, 0), B(2, 1), B(0, 0))
    state = plays(state, "3h", "As", "2h")
    assert state.results[0].tricks_won == (0, 1, 0)


def test_simultaneous_bidding_is_sealed_then_revealed() -> None:
    rules = Rules(player_count=3, bidding="simultaneous")
    state = run(new_game(rules, first_dealer=0), random_deal(new_game(rules), random.Random(4)))
    assert state.to_act == {0, 1, 2}
    state, events = apply(state, B(2, 1))
    assert events == (BidMade(2, 1, sealed=True),)
    assert state.to_act == {0, 1}
    with pytest.raises(NotYourTurnError, match="seat 2 has already bid"):
        apply(state, B(2, 0))
    assert score_sheet(state, seat=0)[-1].bids == (None, None, None)
    assert score_sheet(state, seat=2)[-1].bids == (None, None, 1)
    state, _ = apply(state, B(0, 0))
    state, events = apply(state, B(1, 1))
    assert events[-1] == BidsRevealed((0, 1, 1))
    assert state.phase is Phase.PLAY and score_sheet(state)[-1].bids == (0, 1, 1)


def test_game_ends_with_shared_win() -> None:
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1,))
    state = run(new_game(rules), deal("2h", "3h", "4h", trump=None), B(1, 0), B(2, 1), B(0, 0))
    state, events = apply(state, Play(1, Card.from_str("3h")))
    state, events = apply(state, Play(2, Card.from_str("4h")))
    state, events = apply(state, Play(0, Card.from_str("2h")))
    assert events[-1] == GameEnded((10, 10, 11), (2,))
    state = run(new_game(rules), deal("2h", "3h", "4h", trump=None), B(1, 0), B(2, 0), B(0, 0))
    state = plays(state, "3h", "4h", "2h")
    assert state.totals == (10, 10, 0) and state.winners == (0, 1)
    with pytest.raises(GameOverError, match="the game is over"):
        apply(state, B(0, 0))


def test_an_error_names_a_seat_only_when_the_action_names_one_at_the_table(
    playing: GameState,
) -> None:
    """``exc.seat`` is the seat that tried to act, for an adapter to route the message to:
    never a value that is not one of the table's seats (a bool, an out-of-range number, a
    list), whichever check refuses the action."""
    over = run(new_game(Rules(player_count=3, schedule="custom", custom_hand_sizes=(1,))))
    over = run(over, deal("2h", "3h", "4h", trump=None), B(1, 0), B(2, 0), B(0, 0))
    over = plays(over, "3h", "4h", "2h")
    cases = [
        (over, B(1, 0), GameOverError, 1),
        (over, B([], 0), GameOverError, None),  # type: ignore[arg-type]
        (over, B(9, 0), GameOverError, None),
        (playing, B(True, 0), WrongPhaseError, None),
        (playing, B(9, 0), WrongPhaseError, None),
        (playing, B(2, 0), WrongPhaseError, 2),
    ]
    for state, action, error, seat in cases:
        with pytest.raises(error) as info:
            apply(state, action)
        assert info.value.seat == seat and type(info.value.seat) is type(seat), action


# ----------------------------------------------------------------------------- illegal actions


@pytest.fixture
def bidding() -> GameState:
    """Hook game, 3 players, 3 cards each; seat 0 deals, so seat 1 bids first."""
    rules = Rules(
        player_count=3,
        schedule="custom",
        custom_hand_sizes=(3,),
        trump_in_last_hand=True,
        hook=True,
    )
    return run(new_game(rules), deal("Ah Kh 2s", "Qh 3c 4c", "5d 6d 7d", trump="9s"))


@pytest.mark.parametrize(
    ("actions", "action", "error", "message"),
    [
        ((), B(2, 0), NotYourTurnError, "seat 2 cannot bid now: it is seat 1's turn to bid"),
        ((), B(1, 4), BidOutOfRangeError, "seat 1 bid 4: a bid must be a whole number from 0 to 3"),
        ((), B(1, -1), BidOutOfRangeError, "seat 1 bid -1"),
        (
            (),
            B(1, 1.0),
            BidOutOfRangeError,
            "seat 1 bid 1.0: a bid must be an int from 0 to 3, not a",
        ),  # type: ignore[arg-type]
        ((), B(1, True), BidOutOfRangeError, "seat 1 bid True: a bid must be an int from 0 to 3"),
        ((), B(7, 0), IllegalActionError, "no seat 7: seats are 0 to 2"),
        ((), Play(1, Card.from_str("Qh")), WrongPhaseError, "seat 1 cannot play a card now"),
        (
            (B(1, 1), B(2, 0)),
            B(0, 2),
            HookError,
            "seat 0 (dealer, last to bid) may not bid 2: with the hook",
        ),
        ((), "bid 3", IllegalActionError, "not an action: 'bid 3'"),
        ((), deal("Ah", "Kh", "Qh", trump="2c"), WrongPhaseError, "no deal is due"),
    ],
)
def test_illegal_bids(
    bidding: GameState,
    actions: tuple[object, ...],
    action: object,
    error: type[Exception],
    message: str,
) -> None:
    state = run(bidding, *actions)
    before = state
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        apply(state, action)  # type: ignore[arg-type]
    assert state == before
    assert not is_legal(state, action)  # type: ignore[arg-type]
    assert info.value.code.startswith("illegal_action")  # type: ignore[attr-defined]


def test_hook_leaves_other_bids(bidding: GameState) -> None:
    state = run(bidding, B(1, 1), B(2, 0))
    assert [a.bid for a in legal_actions(state)] == [0, 1, 3]  # type: ignore[union-attr]


@pytest.fixture
def playing(bidding: GameState) -> GameState:
    return run(bidding, B(1, 1), B(2, 0), B(0, 1))


def test_must_follow_suit(playing: GameState) -> None:
    state = plays(playing, "Qh", "5d")  # seat 2 is void in hearts: any card
    with pytest.raises(MustFollowSuitError) as info:
        apply(state, Play(0, Card.from_str("2s")))
    assert str(info.value) == (
        "seat 0 must follow hearts (holds Kh Ah), tried 2s (hand 1 of 1 (3 cards), trick 1)"
    )
    assert info.value.seat == 0 and info.value.code == "illegal_action/must_follow_suit"


def test_card_not_held_and_out_of_turn(playing: GameState) -> None:
    with pytest.raises(CardNotHeldError, match="seat 1 does not hold As"):
        apply(playing, Play(1, Card.from_str("As")))
    with pytest.raises(NotYourTurnError, match="it is seat 1's turn to play"):
        apply(playing, Play(0, Card.from_str("Ah")))
    with pytest.raises(CardNotHeldError, match="seat 1 cannot play 'Qh': not a card"):
        apply(playing, Play(1, "Qh"))  # type: ignore[arg-type]


class _Dodging(int):
    """An int that says it equals nothing: it must not slip past the hook or the turn."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = int.__hash__


def _forged(index: int, suit: object, rank: object) -> Card:
    card = object.__new__(Card)
    for name, value in (("suit", suit), ("rank", rank), ("index", index)):
        object.__setattr__(card, name, value)
    return card


def test_look_alike_cards_bids_and_seats_are_refused(playing: GameState) -> None:
    """A bot cannot pass off an object made to look like a card (to play a card and keep it,
    or play it as another), nor dodge the hook or the turn with an int subclass."""
    held = playing.hands[1][0]
    look_alike = _forged(held.index, Suit.SPADES, Rank.ACE)  # held's index, as the ace
    with pytest.raises(CardNotHeldError, match="not one of the deck's cards") as info:
        apply(playing, Play(1, look_alike))
    assert info.value.seat == 1
    with pytest.raises(CardNotHeldError, match="not one of the deck's cards"):
        apply(playing, Play(1, _forged(held.index, held.suit, held.rank)))  # even a true copy
    with pytest.raises(InvalidDealError, match="not a card"):
        apply(
            new_game(Rules(player_count=3)),
            Deal(((look_alike,), (Card.from_str("2c"),), (Card.from_str("3c"),)), None),
        )
    hooked = run(new_game(playing.rules), deal("Ah Kh 2s", "Qh 3c 4c", "5d 6d 7d", trump="9s"))
    hooked = run(hooked, B(1, 1), B(2, 0))
    with pytest.raises(BidOutOfRangeError, match="not a _Dodging"):
        apply(hooked, B(0, _Dodging(2)))  # the bid the hook forbids the dealer
    with pytest.raises(IllegalActionError, match="a seat is an int from 0 to 2, not a _Dodging"):
        apply(hooked, B(_Dodging(0), 0))  # type: ignore[arg-type]


def test_a_card_built_directly_is_the_card(playing: GameState) -> None:
    """``Card(suit, rank)`` is the one instance of that card, so playing it plays the card
    held (not an equal copy left behind in the hand)."""
    held = playing.hands[1][0]
    built = Card(int(held.suit), int(held.rank))  # type: ignore[arg-type]
    assert built is held
    after, _ = apply(playing, Play(1, built))
    assert held not in after.hands[1] and after.trick == (held,)
    with pytest.raises(NotationError, match="no card of suit 5 and rank 3"):
        Card(5, 3)  # type: ignore[arg-type]
    assert Card.of(held.suit, held.rank) is held
    for suit, rank in ((0, 15), (0, 1), (4, 2), (True, 2)):  # 2c + 13 would be 2d
        with pytest.raises(NotationError, match=f"no card of suit {suit!r} and rank {rank!r}"):
            Card.of(suit, rank)  # type: ignore[arg-type]


def test_the_hook_forbids_a_bid_of_zero_too(bidding: GameState) -> None:
    """The dealer's forbidden bid is whatever makes the bids total the tricks, 0 included
    (bids 1, 2 of 3 tricks: the dealer may not bid 0), and ``apply`` refuses it, not only
    ``legal_actions``."""
    state = run(bidding, B(1, 1), B(2, 2))
    assert [a.bid for a in legal_actions(state)] == [1, 2, 3]  # type: ignore[union-attr]
    with pytest.raises(HookError, match=r"seat 0 \(dealer, last to bid\) may not bid 0"):
        apply(state, B(0, 0))
    assert state.bids == (None, 1, 2)  # nothing changed


@pytest.mark.parametrize(("second", "winner"), [("Kh", 1), ("As", 2)])
def test_must_trump_la_podrida(second: str, winner: int) -> None:
    """A seat that cannot follow must trump whatever the trick holds: a trump already played
    (here a higher one, the As) included."""
    rules = Rules(
        player_count=3,
        schedule="custom",
        custom_hand_sizes=(2,),
        trump_in_last_hand=True,
        must_trump=True,
    )
    hands = deal("2s 3d", "Ah 4c", f"{second} 5c", trump="9s")
    state = run(new_game(rules), hands, B(1, 1), B(2, 0), B(0, 1))
    state = plays(state, "Ah", second)
    assert [a.card for a in legal_actions(state)] == [Card.from_str("2s")]  # type: ignore[union-attr]
    with pytest.raises(MustTrumpError, match="seat 0 cannot follow hearts and must trump"):
        apply(state, Play(0, Card.from_str("3d")))
    # without La Podrida the discard is fine
    relaxed = Rules.from_dict({**rules.to_dict(), "must_trump": False})
    state = run(new_game(relaxed), hands, B(1, 1), B(2, 0), B(0, 1))
    state = plays(state, "Ah", second, "3d")
    assert state.tricks[-1].winner == winner


@pytest.mark.parametrize(
    ("the_deal", "message"),
    [
        (deal("Ah Kh", "Qh 3c 4c", "5d 6d 7d", trump="9s"), "seat 0 got 2 cards"),
        (deal("Ah Kh 2s", "Ah 3c 4c", "5d 6d 7d", trump="9s"), "Ah is dealt twice"),
        (deal("Ah Kh 2s", "Qh 3c 4c", "5d 6d 7d", trump=None), "turns a trump card; none given"),
        (deal("Ah Kh 2s", "Qh 3c 4c", "5d 6d 7d", trump="2s"), "trump card 2s is also dealt"),
        (deal("Ah Kh 2s", "Qh 3c 4c", trump="9s"), "got 2 hands"),
        (Deal(None, Card.from_str("9s")), "the hands must be a tuple, got None"),  # type: ignore[arg-type]
        (
            Deal(([Card.from_str("Ah")] * 3,) * 3, Card.from_str("9s")),  # type: ignore[arg-type]
            "seat 0's cards must be a tuple, got \\[Card",
        ),
    ],
)
def test_invalid_deals(the_deal: Deal, message: str) -> None:
    rules = Rules(
        player_count=3, schedule="custom", custom_hand_sizes=(3,), trump_in_last_hand=True
    )
    with pytest.raises(InvalidDealError, match=message):
        apply(new_game(rules), the_deal)


def test_new_game_validates_first_dealer() -> None:
    with pytest.raises(ValueError, match="first_dealer must be a seat from 0 to 3"):
        new_game(Rules(player_count=4), first_dealer=4)


def test_version_counts_actions() -> None:
    state = new_game(Rules(player_count=3))
    state = run(state, random_deal(state, random.Random(0)))
    assert state.version == 1
    state, _ = apply(state, legal_actions(state)[0])
    assert state.version == 2


VARIANTS: dict[str, dict[str, object]] = {
    "descending": {"schedule": "descending"},
    "up-and-down": {"schedule": "up-and-down"},
    "up-and-down twice": {"schedule": "up-and-down", "repeat_turning_hand": True},
    "down-and-up": {"schedule": "down-and-up"},
    "down-and-up twice": {"schedule": "down-and-up", "repeat_turning_hand": True},
    "hook": {"hook": True},
    "simultaneous": {"bidding": "simultaneous"},
    "la podrida": {"must_trump": True},
    "missed bids score tricks": {"missed_bid_scores_tricks": True},
    "zero bid bonus": {"zero_bid_bonus": True},
    "all sequential variants": {
        "schedule": "down-and-up",
        "hook": True,
        "must_trump": True,
        "missed_bid_scores_tricks": True,
        "zero_bid_bonus": True,
    },
    "custom with trump in last hand": {
        "schedule": "custom",
        "custom_hand_sizes": [3, 1, 2],
        "trump_in_last_hand": True,
    },
}


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize(
    "options",
    [*({"preset": name} for name in PRESETS), *VARIANTS.values()],
    ids=[*PRESETS, *VARIANTS],
)
def test_complete_game(players: int, options: dict[str, object]) -> None:
    """A complete random game under every preset and every variant, 3 to 7 players."""
    if "preset" in options:
        rules = Rules.preset(str(options["preset"]), players)
    else:
        rules = Rules.from_dict({"player_count": players, **options})
    rng = random.Random(players)
    state = new_game(rules, first_dealer=rng.randrange(players))
    hands_played = 0
    while not state.is_over:
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, events = apply(state, action)
        hands_played += sum(isinstance(e, HandScored) for e in events)
    assert hands_played == rules.hand_count == len(state.results)
    assert [r.hand_size for r in state.results] == list(rules.hand_sizes())
    for index, result in enumerate(state.results):
        assert sum(result.tricks_won) == result.hand_size
        assert (result.trump_card is not None) == rules.has_trump(index)
        assert result.dealer == (state.first_dealer + index) % players
        if rules.hook:
            assert sum(result.bids) != result.hand_size
    assert state.totals == tuple(sum(r.points[s] for r in state.results) for s in range(players))
    assert state.winners and all(state.totals[w] == max(state.totals) for w in state.winners)
    # once over, the game's dealer and hand size are its last hand's, as every view shows them
    last = state.results[-1]
    assert state.dealer == last.dealer and state.hand_size == last.hand_size
    for view in (public_view(state), *(view_for(state, s) for s in range(players))):
        assert (view.dealer, view.hand_size) == (last.dealer, last.hand_size)


def test_helpers_refuse_bad_input_with_the_engine_s_errors() -> None:
    with pytest.raises(RulesError, match="unknown preset \\['standard'\\]"):
        Rules.preset(["standard"])  # type: ignore[arg-type]
    with pytest.raises(InvalidDealError, match="a deck of 4 cards cannot deal 1 to each of 4"):
        Deal.from_deck(DECK[:4], player_count=4, dealer=0, hand_size=1, turn_trump=True)


def test_a_deck_is_dealt_one_card_at_a_time_from_the_dealers_left() -> None:
    """The dealing convention (docs/rules.md): one card at a time, starting left of the
    dealer, then the next card turned; the rest is the stock."""
    deal = Deal.from_deck(DECK[:13], player_count=4, dealer=2, hand_size=3, turn_trump=True)
    assert deal.hands[3] == (DECK[0], DECK[4], DECK[8])  # left of the dealer: first
    assert deal.hands[0] == (DECK[1], DECK[5], DECK[9])
    assert deal.hands[2] == (DECK[3], DECK[7], DECK[11])  # the dealer: last
    assert deal.trump_card is DECK[12]
    untrumped = Deal.from_deck(DECK, player_count=3, dealer=0, hand_size=2, turn_trump=False)
    assert untrumped.hands == ((DECK[2], DECK[5]), (DECK[0], DECK[3]), (DECK[1], DECK[4]))
    assert untrumped.trump_card is None
