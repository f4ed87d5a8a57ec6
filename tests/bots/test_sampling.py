"""World sampling: every sampled world is consistent with the seat's view, and sampling is
uniform over the consistent deals."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ohhell.bots.advisor import bidding_view
from ohhell.bots.fast import SUIT_MASKS, cards_of, mask_of
from ohhell.bots.heuristic import expected_tricks as heuristic_expected_tricks
from ohhell.bots.heuristic import heuristic_bid
from ohhell.bots.sampling import (
    BID_SURPRISE,
    Knowledge,
    WorldSampler,
    calibrated_bid_likelihood,
    calibrated_tricks,
    knowledge,
    sample_world,
)
from ohhell.engine import (
    Bid,
    Card,
    Deal,
    GameState,
    Phase,
    Play,
    PlayerView,
    Rules,
    Schedule,
    apply,
    legal_actions,
    new_game,
    parse_cards,
    public_view,
    random_deal,
    view_for,
)
from ohhell.engine.views import unfillable_voids

PRESET_NAMES = ["standard", "hook", "simultaneous", "la-podrida", "descending", "zero-bonus"]


def random_view(seed: int, preset: str, players: int) -> tuple[GameState, PlayerView]:
    """A seat's view somewhere in a random game (bidding or playing)."""
    rng = random.Random(seed)
    rules = Rules.preset(preset, players)
    state = new_game(rules, first_dealer=rng.randrange(players))
    stop = rng.randrange(rules.hand_count * 60)
    steps = 0
    while True:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
        elif steps >= stop and state.phase in (Phase.BID, Phase.PLAY):
            break
        else:
            state, _ = apply(state, rng.choice(legal_actions(state)))
            if state.is_over:
                state = new_game(rules, first_dealer=0)
        steps += 1
    seat = rng.randrange(players)
    return state, view_for(state, seat)


def replay_with(view: PlayerView, hands: tuple[tuple[Card, ...], ...]) -> GameState:
    """The hand in ``view`` replayed through the engine from a deal built from the sampled
    ``hands`` (each seat's sampled cards plus the cards it played), with the same bids and
    plays; sealed bids the seat cannot see are replayed as 0 (no hook under simultaneous
    bidding, so any bid is legal). The engine refuses any play the sampled cards rule out."""
    n = view.player_count
    played: list[list[Card]] = [[] for _ in range(n)]
    for seat, card in view.played_cards():
        played[seat].append(card)
    dealt = tuple(tuple(sorted((*hands[s], *played[s]))) for s in range(n))
    state = GameState(
        rules=view.rules,
        first_dealer=(view.dealer - view.hand_index) % n,
        hand_index=view.hand_index,
        phase=Phase.DEAL,
        dealt=(),
        hands=(),
        trump_card=None,
        bids=(None,) * n,
        tricks=(),
        leader=(view.dealer + 1) % n,
        trick=(),
        tricks_won=(0,) * n,
        results=(),
        totals=view.totals,
        version=0,
    )
    state, _ = apply(state, Deal(dealt, view.trump_card))
    for i in range(n):
        seat = (view.dealer + 1 + i) % n
        if view.has_bid[seat]:
            bid = view.bids[seat]
            state, _ = apply(state, Bid(seat, bid if bid is not None else 0))
    for seat, card in view.played_cards():
        state, _ = apply(state, Play(seat, card))
    return state


FIELDS = ("hand", "trump_card", "tricks", "trick", "leader", "tricks_won", "to_act", "has_bid")


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    preset=st.sampled_from(PRESET_NAMES),
    players=st.integers(3, 7),
    draws=st.integers(1, 4),
)
def test_every_sampled_world_gives_back_the_view(
    seed: int, preset: str, players: int, draws: int
) -> None:
    _, view = random_view(seed, preset, players)
    rng = random.Random(seed)
    sampler = WorldSampler(knowledge(view))
    for _ in range(draws):
        hands = tuple(
            tuple(Card.from_index(c) for c in cards_of(mask)) for mask in sampler.sample(rng)
        )
        seen = [c for hand in hands for c in hand]
        assert len(seen) == len(set(seen))
        assert view.trump_card not in seen
        rebuilt = view_for(replay_with(view, hands), view.seat or 0)
        for field in FIELDS:
            assert getattr(rebuilt, field) == getattr(view, field), field
        assert rebuilt.legal_actions == view.legal_actions
        assert rebuilt.bids[view.seat or 0] == view.bids[view.seat or 0]


def _la_podrida_heart_led(low_card: str) -> Knowledge:
    """Seat 0's knowledge in a three-card La Podrida hand (spades trump) after it leads the
    ace of hearts and seat 1, holding no heart, plays ``low_card`` (its other cards are 5d
    6d)."""
    rules = Rules(
        player_count=3,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(3,),
        trump_in_last_hand=True,
        must_trump=True,
    )
    state = new_game(rules, first_dealer=2)
    hands = tuple(parse_cards(h) for h in ("Ah 2c 3c", f"{low_card} 5d 6d", "Kh 7c 8c"))
    state, _ = apply(state, Deal(hands, Card.from_str("9s")))
    for seat, bid in enumerate((1, 0, 1)):
        state, _ = apply(state, Bid(seat, bid))
    for seat, card in enumerate(("Ah", low_card)):
        state, _ = apply(state, Play(seat, Card.from_str(card)))
    return knowledge(view_for(state, 0))


def test_a_seat_that_did_not_trump_under_la_podrida_holds_no_trump() -> None:
    """Under La Podrida a seat that cannot follow must trump if it can: one that discards
    another suit has shown it holds no trump either, and no sampled world gives it one."""
    know = _la_podrida_heart_led("4d")
    hearts, spades = 1 << 2, 1 << 3
    assert know.voids[1] == hearts | spades
    sampler = WorldSampler(know)
    rng = random.Random(7)
    for _ in range(300):
        world = sampler.sample(rng)
        assert not any(card // 13 in (2, 3) for card in cards_of(world[1]))


def test_sample_world_keeps_own_hand_and_counts() -> None:
    state, view = random_view(3, "la-podrida", 5)
    hands = sample_world(view, random.Random(1))
    assert view.seat is not None
    assert hands[view.seat] == view.hand
    assert [len(h) for h in hands] == [len(h) for h in state.hands]


def enumerate_worlds(know: Knowledge) -> Counter[tuple[int, ...]]:
    """Every assignment of the unseen cards consistent with ``know``, by brute force."""
    cards = cards_of(know.unseen)
    others = [s for s in range(len(know.counts)) if s != know.seat]
    holders = [*others, -1]
    sizes = [know.counts[s] for s in others] + [know.stock_count]
    worlds: Counter[tuple[int, ...]] = Counter()
    for labels in itertools.product(range(len(holders)), repeat=len(cards)):
        if [labels.count(i) for i in range(len(holders))] != sizes:
            continue
        hands = [0] * len(know.counts)
        hands[know.seat] = know.own
        ok = True
        for card, label in zip(cards, labels, strict=True):
            seat = holders[label]
            if seat >= 0:
                if know.voids[seat] >> (card // 13) & 1:
                    ok = False
                hands[seat] |= 1 << card
        if ok:
            worlds[tuple(hands)] = 0
    return worlds


def test_a_seat_that_trumped_under_la_podrida_may_still_hold_trumps() -> None:
    """The other side of the rule: a seat that cannot follow and trumps has shown a void in
    the suit led only, so sampled worlds may give it more trumps."""
    know = _la_podrida_heart_led("4s")
    assert know.voids[1] == 1 << 2  # hearts only
    sampler = WorldSampler(know)
    rng = random.Random(7)
    worlds = [sampler.sample(rng) for _ in range(300)]
    assert any(card // 13 == 3 for world in worlds for card in cards_of(world[1]))


@pytest.mark.parametrize(
    ("unseen", "counts", "voids", "stock"),
    [
        # 2 to seat 1 (void in clubs), 2 to seat 2 (void in clubs and hearts), 3 in the stock
        ("2c 3c 4c 5d 6d 7h 8s", (1, 2, 2), (0, 0b0001, 0b0101), 3),
        # seats 1 and 2 both void in clubs (dealt as one group, then split), seat 3 in hearts
        ("2c 3c 4c 5d 6d 7h 8s 9s", (1, 2, 2, 1), (0, 0b0001, 0b0001, 0b0100), 3),
        # three seats void in the same suits, one of them with no card left to split
        ("2c 3c 5d 6d 7h 8s 9s", (1, 2, 1, 2, 0), (0, 0b1000, 0b1000, 0b1000, 0b1000), 2),
        # no void shown: the seats and the stock share the cards alike (the last card too)
        ("2c 3c 4c 5d", (1, 1, 1), (0, 0, 0), 2),
    ],
)
def test_sampling_is_uniform_over_consistent_deals(
    unseen: str, counts: tuple[int, ...], voids: tuple[int, ...], stock: int
) -> None:
    know = Knowledge(
        seat=0,
        own=mask_of([Card.from_str("As")]),
        unseen=mask_of(Card.from_str(t) for t in unseen.split()),
        counts=counts,
        voids=voids,
        played=(0,) * len(counts),
        stock_count=stock,
    )
    worlds = enumerate_worlds(know)
    sampler = WorldSampler(know)
    rng = random.Random(5)
    draws = 200 * len(worlds)
    for _ in range(draws):
        hands = sampler.sample(rng)
        assert hands in worlds, hands
        worlds[hands] += 1
    expected = draws / len(worlds)
    assert all(0.75 * expected < count < 1.25 * expected for count in worlds.values())


def test_inconsistent_or_public_views_are_refused() -> None:
    state, view = random_view(8, "standard", 4)
    with pytest.raises(ValueError, match="public view"):
        knowledge(public_view(state))
    know = knowledge(view)
    everyone_void = replace(know, voids=tuple(0b1111 if s != know.seat else 0 for s in range(4)))
    if sum(c for s, c in enumerate(know.counts) if s != know.seat):
        with pytest.raises(ValueError, match="no deal fits the voids"):
            WorldSampler(everyone_void)
    with pytest.raises(ValueError, match="do not fill the hands"):
        WorldSampler(replace(know, stock_count=know.stock_count + 1))


def test_knowledge_needs_a_hand_being_bid_or_played() -> None:
    """A seat's view before the cards are dealt, or once the game is over, has no hidden
    cards to sample: it is refused, naming the phase (a view between the two is taken)."""
    rules = Rules(
        player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1,), trump_in_last_hand=True
    )
    state = new_game(rules)
    with pytest.raises(ValueError, match="needs a hand in progress, not phase deal"):
        knowledge(view_for(state, 0))
    rng = random.Random(1)
    state, _ = apply(state, random_deal(state, rng))
    assert knowledge(view_for(state, 0)).counts == (1, 1, 1)
    while not state.is_over:
        state, _ = apply(state, legal_actions(state)[0])
    with pytest.raises(ValueError, match="needs a hand in progress, not phase over"):
        knowledge(view_for(state, 0))


def test_bid_likelihood_prefers_hands_that_match_the_bids() -> None:
    know = Knowledge(
        seat=0, own=0, unseen=0, counts=(3, 3, 3), voids=(0, 0, 0), played=(0, 0, 0), stock_count=0
    )
    strong = mask_of(Card.from_str(t) for t in ["As", "Ks", "Qs"])
    weak = mask_of(Card.from_str(t) for t in ["2c", "3d", "4h"])
    trump_card = Card.from_str("2s").index
    likely = calibrated_bid_likelihood(know, (0, strong, weak), (None, 3, 0), trump_card, 1)
    unlikely = calibrated_bid_likelihood(know, (0, weak, strong), (None, 3, 0), trump_card, 1)
    assert likely > 20 * unlikely


def test_calibrated_tricks_equal_the_heuristic_estimate() -> None:
    """The mask port of the heuristic's bid-time model agrees with it on every bidder's view
    (3-7 players, up to 17 cards, with and without trump, bids made with the heuristic)."""
    checked = 0
    for seed in range(120):
        rng = random.Random(seed)
        players = rng.randint(3, 7)
        size = rng.randint(1, 51 // players)
        rules = Rules(
            player_count=players,
            schedule=Schedule.CUSTOM,
            custom_hand_sizes=(size,),
            trump_in_last_hand=rng.random() < 0.8,
        )
        state = new_game(rules)
        state, _ = apply(state, random_deal(state, rng))
        while state.phase is Phase.BID:
            seat = min(state.to_act)
            view = view_for(state, seat)
            assert view.hand is not None
            order = [(view.dealer + 1 + i) % players for i in range(players)]
            earlier = [
                b for b in (view.bids[s] for s in order[: order.index(seat)]) if b is not None
            ]
            trump_card = -1 if view.trump_card is None else view.trump_card.index
            mine = calibrated_tricks(
                mask_of(view.hand), trump_card, players, view.leader == seat, earlier
            )
            assert mine == pytest.approx(heuristic_expected_tricks(view), abs=1e-9)
            checked += 1
            state, _ = apply(state, Bid(seat, heuristic_bid(view)))
    assert checked > 400


def test_a_lone_card_led_without_trump_that_nothing_beats_is_sure() -> None:
    """One card each, no trump: the seat on lead takes the trick with a card no unseen card
    beats; not on lead, or with a card that can be beaten, it is not sure (the heuristic and
    its mask port agree)."""
    ace, king = (mask_of([Card.from_str(text)]) for text in ("As", "Ks"))
    assert calibrated_tricks(ace, -1, 4, True) == 1.0
    assert calibrated_tricks(ace, -1, 4, False) < 1.0
    assert calibrated_tricks(king, -1, 4, True) < 1.0
    assert calibrated_tricks(ace, Card.from_str("2h").index, 4, True) < 1.0  # a trump ruffs it
    view = bidding_view(Rules(player_count=4), parse_cards("As"), None, [])
    assert heuristic_expected_tricks(view) == 1.0


def test_masters_without_trump_are_sure_only_for_the_seat_on_lead() -> None:
    """Without trump, a hand of cards no unseen card beats takes every trick when its seat
    leads (it leads each in turn); a seat not on lead may never get to lead its suits, so it
    is not sure of them (the heuristic and its mask port agree)."""
    hand = parse_cards("As Ah")
    mask = mask_of(hand)
    leading = bidding_view(Rules(player_count=4), hand, None, [])
    assert calibrated_tricks(mask, -1, 4, True) == heuristic_expected_tricks(leading) == 2.0
    second = bidding_view(Rules(player_count=4), hand, None, [0])
    following = calibrated_tricks(mask, -1, 4, False, [0])
    assert following == pytest.approx(heuristic_expected_tricks(second), abs=1e-9)
    assert following < 1.9


def _surprised(normal: float, hand_size: int) -> float:
    """A bid's likelihood from its normal share: :data:`BID_SURPRISE` spread over every bid."""
    return (1 - BID_SURPRISE) * normal + BID_SURPRISE / (hand_size + 1)


def test_a_bid_s_likelihood_is_a_normal_one_trick_wide_around_the_estimate() -> None:
    """One seat has bid, with one card: the likelihood is the discretised normal (spread one
    trick by default) of its bid around its calibrated estimate, over the bids 0 and 1, with
    the share of surprise (:data:`BID_SURPRISE`) spread over both."""
    know = Knowledge(
        seat=0, own=0, unseen=0, counts=(1, 1, 1), voids=(0, 0, 0), played=(0, 0, 0), stock_count=0
    )
    king = mask_of([Card.from_str("Kd")])
    hands = (mask_of([Card.from_str("2c")]), king, mask_of([Card.from_str("3h")]))
    trump_card = Card.from_str("2s").index
    mean = calibrated_tricks(king, trump_card, 3, True)
    assert 0.0 < mean < 1.0
    for bid, spread in ((1, 1.0), (0, 1.0), (1, 0.5)):
        terms = [math.exp(-((b - mean) ** 2) / (2 * spread * spread)) for b in (0, 1)]
        expected = _surprised(terms[bid] / sum(terms), 1)
        options = {} if spread == 1.0 else {"spread": spread}
        got = calibrated_bid_likelihood(know, hands, (None, bid, None), trump_card, 1, **options)
        assert got == pytest.approx(expected, abs=1e-12)


def test_calibrated_bid_likelihood_prefers_hands_that_match_the_bids() -> None:
    know = Knowledge(
        seat=0, own=0, unseen=0, counts=(3, 3, 3), voids=(0, 0, 0), played=(0, 0, 0), stock_count=0
    )
    strong = mask_of(Card.from_str(t) for t in ["As", "Ks", "Qs"])
    weak = mask_of(Card.from_str(t) for t in ["2c", "3d", "4h"])
    trump_card = Card.from_str("5s").index
    likely = calibrated_bid_likelihood(know, (0, strong, weak), (None, 3, 0), trump_card, 1)
    unlikely = calibrated_bid_likelihood(know, (0, weak, strong), (None, 3, 0), trump_card, 1)
    assert likely > 20 * unlikely
    # sealed bids put no pressure on the later bidder: seat 2 (not on lead, holding Ah Kd Qc)
    # is weighed by its plain estimate, not the one lowered by seat 1's bid of 3 (a hand where
    # the pressure moves the estimate, so the two readings differ)
    mid = mask_of(Card.from_str(t) for t in ["Ah", "Kd", "Qc"])

    def share(bid: int, mean: float) -> float:
        terms = [math.exp(-((b - mean) ** 2) / 2) for b in range(4)]
        return _surprised(terms[bid] / sum(terms), 3)

    first = share(3, calibrated_tricks(strong, trump_card, 3, True))
    pressed = calibrated_tricks(mid, trump_card, 3, False, [3])
    plain = calibrated_tricks(mid, trump_card, 3, False)
    assert abs(pressed - plain) > 0.1
    for sealed, mean in ((False, pressed), (True, plain)):
        got = calibrated_bid_likelihood(
            know, (0, strong, mid), (None, 3, 1), trump_card, 1, sealed=sealed
        )
        assert got == pytest.approx(first * share(1, mean), rel=1e-9), sealed


def test_a_bid_no_world_explains_weighs_the_worlds_nearly_alike() -> None:
    """Seat 1 bid all five tricks holding no trump and no ace in either world: the normal
    around its estimate gives both next to nothing, and one world would carry all the weight
    by an accident of the estimates; the share of surprise keeps them within a few percent."""
    know = Knowledge(
        seat=0, own=0, unseen=0, counts=(5, 5, 5), voids=(0, 0, 0), played=(0, 0, 0), stock_count=0
    )
    low = mask_of(Card.from_str(t) for t in ["2c", "3d", "4h", "5c", "6d"])
    lower = mask_of(Card.from_str(t) for t in ["2d", "3c", "2h", "4c", "3h"])
    rest = mask_of(Card.from_str(t) for t in ["7c", "8d", "9h", "Tc", "Jd"])
    trump_card = Card.from_str("5s").index
    weights = [
        calibrated_bid_likelihood(know, (0, hand, rest), (None, 5, None), trump_card, 1)
        for hand in (low, lower)
    ]
    assert all(w >= BID_SURPRISE / 6 for w in weights)
    assert max(weights) / min(weights) < 1.05


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_check_views_voids_test_agrees_with_the_samplers_count(data: st.DataObject) -> None:
    """The engine's test of whether the voids shown fit the unseen cards (Hall's condition,
    :func:`ohhell.engine.views.unfillable_voids`, which :func:`check_view` applies) agrees
    with the sampler's count of the deals that fit, which walks them suit by suit: a view the
    engine passes can be sampled, and one it refuses could not."""
    n = data.draw(st.integers(3, 7))
    unseen = data.draw(st.integers(0, 2**52 - 1))
    total = unseen.bit_count()
    counts = [0] + [data.draw(st.integers(0, 13)) for _ in range(n - 1)]
    assume(sum(counts) <= total)
    voids = [0] + [data.draw(st.integers(0, 15)) for _ in range(n - 1)]
    know = Knowledge(
        seat=0,
        own=0,
        unseen=unseen,
        counts=tuple(counts),
        voids=tuple(voids),
        played=(0,) * n,
        stock_count=total - sum(counts),
    )
    per_suit = [(unseen & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
    problem = unfillable_voids([(voids[s], counts[s]) for s in range(1, n)], per_suit)
    if problem is None:
        hands = WorldSampler(know).sample(random.Random(0))
        for s in range(1, n):
            assert not any(hands[s] & SUIT_MASKS[suit] for suit in range(4) if voids[s] >> suit & 1)
    else:
        with pytest.raises(ValueError, match="no deal fits the voids"):
            WorldSampler(know)
