"""The bid advisor: the expected score of each legal bid from a distribution of tricks when
playing for it, and positions described as at a real table."""

from __future__ import annotations

import random

import pytest
from tests.conftest import require

from ohhell.bots import Budget, advise_bid
from ohhell.bots.advisor import bidding_view
from ohhell.bots.search import CERTAIN_AFTER, SearchBot, _prior_trusted
from ohhell.engine import (
    DECK,
    PRESETS,
    Bid,
    BiddingMode,
    BidOutOfRangeError,
    Card,
    Deal,
    GameState,
    InvalidDealError,
    PlayerView,
    Rules,
    RulesError,
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
    legal = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
    assert sorted(advice.expected_scores) == sorted(advice.by_bid) == legal
    for bid, expected in advice.expected_scores.items():
        distribution = advice.by_bid[bid]  # playing for that bid
        assert len(distribution) == view.hand_size + 1
        assert sum(distribution) == pytest.approx(1.0)
        formula = sum(
            p * score_hand(rules, bid=bid, won=won, hand_size=view.hand_size)
            for won, p in enumerate(distribution)
        )
        assert expected == pytest.approx(formula)
    assert advice.expected_scores[advice.best_bid] == max(advice.expected_scores.values())
    assert advice.trick_probabilities == advice.by_bid[advice.best_bid]


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
    assert advice.best_bid == 0
    assert advice.trick_probabilities[0] > 0.9
    assert advice.expected_scores[0] == pytest.approx(8.0 * advice.trick_probabilities[0])


def test_an_outcome_every_sampled_deal_agrees_on_is_shown_as_certain() -> None:
    """The heuristic estimate from the seat's cards alone is not blended in when every sampled
    deal gives the seat the same tricks: it would show a certain outcome as a coin flip."""
    spades = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
    on_lead = bidding_view(Rules(player_count=4), parse_cards(spades), None, [])
    advice = advise_bid(on_lead, random.Random(1), samples=200)
    assert advice.trick_probabilities[13] == 1.0  # it leads, and every trick is a spade
    assert advice.best_bid == 13 and advice.expected_scores[13] == 23.0
    dealer = bidding_view(Rules(player_count=4), parse_cards(spades), None, [1, 0, 0])
    advice = advise_bid(dealer, random.Random(1), samples=200)
    assert advice.trick_probabilities[0] == 1.0  # never on lead, it can win no trick
    assert advice.best_bid == 0 and advice.expected_scores[0] == 10.0
    on_lead_few = advise_bid(on_lead, random.Random(1), samples=5)
    assert on_lead_few.trick_probabilities[13] == 1.0  # the heuristic's estimate knows it too


def test_only_many_worlds_agreeing_on_none_or_all_drop_the_estimate() -> None:
    """The heuristic estimate's share in a bid's distribution: all of it with no world, none
    when at least CERTAIN_AFTER worlds agree on no trick or on every trick, else the bot's
    prior_weight (a few worlds, or a count in between, agree by chance or by the rollouts'
    habit)."""
    bot = SearchBot()
    enough = float(CERTAIN_AFTER)
    assert bot._prior_share([0.0, 0.0, 0.0], 0.0, CERTAIN_AFTER) == 1.0
    assert bot._prior_share([0.0, 0.0, enough], enough, CERTAIN_AFTER) == 0.0
    assert bot._prior_share([enough, 0.0, 0.0], enough, CERTAIN_AFTER) == 0.0
    assert bot._prior_share([0.0, 5.0, 0.0], 5.0, CERTAIN_AFTER - 95) == bot.prior_weight
    assert bot._prior_share([0.0, 0.0, 5.0], 5.0, CERTAIN_AFTER - 1) == bot.prior_weight
    assert bot._prior_share([0.0, enough, 0.0], enough, CERTAIN_AFTER) == bot.prior_weight
    assert bot._prior_share([1.0, enough, 0.0], enough + 1, CERTAIN_AFTER) == bot.prior_weight


def test_a_small_hand_without_trump_is_bid_from_the_deals_not_the_estimate() -> None:
    """Two kings without trump, three players, on lead: both win whenever neither ace is
    among the opponents' four cards of the fifty unseen, in C(48,4)/C(50,4) = 84.5 % of deals
    however anyone plays. The heuristic's estimate for such hands (no trump, most cards
    unseen) rates the pair 0.33, and blended in it put the advice at 61 %; such a hand is bid
    from the sampled deals alone (the search's ``_prior_trusted``), as is no hand of a preset."""
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(2,))
    state = _dealt(rules, ("Ks Kd", "2c 3c", "4c 5c"), None)  # the others' cards: not seen
    view = view_for(state, 0)  # the first dealer is seat 2: seat 0 bids first, and leads
    advice = advise_bid(view, random.Random(1), samples=4000)
    assert advice.best_bid == 2
    assert advice.by_bid[2][2] >= 0.82  # 84.5 % less the noise of 4,000 deals
    assert not _prior_trusted(view)
    three = Rules(
        player_count=3, schedule="custom", custom_hand_sizes=(2,), trump_in_last_hand=True
    )
    assert _prior_trusted(bidding_view(three, parse_cards("Ks Kd"), parse_cards("9h")[0]))
    lone = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1,))
    assert _prior_trusted(bidding_view(lone, parse_cards("Ks"), None))  # bid by exact odds
    for name in PRESETS:  # no preset deals such a hand: the standard game bids as before
        for players in range(3, 8):
            preset = Rules.preset(name, players)
            for index, size in enumerate(preset.hand_sizes()):
                trump = None if not preset.has_trump(index) else parse_cards("2c")[0]
                hand = DECK[1 : 1 + size]
                assert _prior_trusted(bidding_view(preset, hand, trump)), (name, players, size)


def test_a_few_or_a_middling_agreement_is_no_certainty() -> None:
    """Worlds that agree are blended with the heuristic's estimate when there are few of
    them, or when they agree on a count between none and all: with the four top trumps and
    thirteen spades the rollouts took four tricks in every world, for every bid, and the
    advisor showed four as certain (a QA sweep), where the search's play takes 4 to 12."""
    hand = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah Kh Qh Jh")
    view = bidding_view(Rules(player_count=3, zero_bid_bonus=True), hand, Card.from_str("2h"), [5])
    advice = advise_bid(view, random.Random(3), samples=300)
    assert all(max(dist) < 1.0 for dist in advice.by_bid.values())
    two = parse_cards("Ah 2c")  # the top trump: one trick at least, and 2c wins some worlds
    few = advise_bid(
        bidding_view(Rules(player_count=4), two, Card.from_str("3h"), []),
        random.Random(1),
        samples=5,
    )
    assert max(few.trick_probabilities) < 1.0


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
    with pytest.raises(ValueError, match=r"^seat 2 has nothing to do: it is not its turn$"):
        advise_bid(view_for(state, 2), random.Random(0))
    with pytest.raises(ValueError, match=r"^samples must be at most 1,000,000, got 1,000,001$"):
        advise_bid(view, random.Random(0), samples=1_000_001)  # drawn up front: memory


@pytest.mark.parametrize("samples", [True, 2.5, "10", None])
def test_samples_must_be_a_whole_number(samples: object) -> None:
    with pytest.raises(TypeError, match=rf"^samples must be a whole number, got {samples!r}$"):
        advise_bid(_bidding_view(), random.Random(0), samples=samples)  # type: ignore[arg-type]


@pytest.mark.parametrize("samples", [0, -1])
def test_samples_must_be_positive(samples: int) -> None:
    with pytest.raises(ValueError, match=rf"^samples must be a positive integer, got {samples}$"):
        advise_bid(_bidding_view(), random.Random(0), samples=samples)


def test_deals_weighed_alike_are_worth_every_deal_drawn() -> None:
    """The first to bid knows no bid: every deal weighs the same, and the advice is worth all
    the deals asked for."""
    advice = advise_bid(_bidding_view(), random.Random(0), samples=300)
    assert (advice.samples, advice.effective_samples, advice.rough) == (300, 300.0, False)
    assert advice.steady_target == 30.0


def _skewed_weights(monkeypatch: pytest.MonkeyPatch, every: int) -> list[float]:
    """The Python loop's world weights replaced: 1 for one world in ``every``, 0.001 for the
    others; returns the weights given, in order."""
    given: list[float] = []

    def weight(*args: object) -> float:
        given.append(1.0 if len(given) % every == 0 else 0.001)
        return given[-1]

    monkeypatch.setattr(SearchBot, "_weight", weight)
    return given


def _kish(weights: list[float]) -> float:
    return sum(weights) ** 2 / sum(w * w for w in weights)


def test_what_the_worlds_are_worth_is_kish_s_effective_sample_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One world in 20 carries nearly all the weight: 40 worlds are worth about 2."""
    given = _skewed_weights(monkeypatch, 20)
    bot = SearchBot(compiled=False)
    view = bidding_view(Rules(player_count=4), parse_cards("Ah Kd 7c"), Card.from_str("2s"), [1])
    estimate = bot.estimate_bids(view, random.Random(3), Budget(), every_bid=True, worlds=40)
    assert estimate.worlds == len(given) == 40
    assert estimate.effective_worlds == pytest.approx(_kish(given)) == pytest.approx(2.077, 1e-3)


def test_an_advice_from_deals_worth_too_few_is_rough(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advice aims at deals worth a tenth of those asked for (at most 100)."""
    monkeypatch.setattr(SearchBot, "_compiled_worlds", lambda self, sampler: False)
    view = bidding_view(Rules(player_count=4), parse_cards("Ah Kd 7c"), Card.from_str("2s"), [1])
    _skewed_weights(monkeypatch, 20)  # 200 deals worth about 10.4, where 20 are wanted
    advice = advise_bid(view, random.Random(3), samples=200)
    assert (advice.samples, advice.steady_target, advice.rough) == (200, 20.0, True)
    assert advice.effective_samples == pytest.approx(10.4, 1e-2)
    _skewed_weights(monkeypatch, 5)  # 100 deals worth about 20.1, 10 needed
    advice = advise_bid(view, random.Random(3), samples=100)
    assert (advice.samples, advice.steady_target, advice.rough) == (100, 10.0, False)


def test_the_seat_to_play_a_card_is_not_advised_on_a_bid() -> None:
    state = _dealt(_one_hand(2), ("Kh 3c", "Qh 4c", "Jh 6c", "As 3h"), "3s")
    for seat, bid in ((0, 1), (1, 0), (2, 0), (3, 1)):
        state, _ = apply(state, Bid(seat, bid))
    assert 0 in state.to_act  # seat 0 leads the first trick
    with pytest.raises(ValueError, match=r"^seat 0 is not to bid now: it is to play a card$"):
        advise_bid(view_for(state, 0), random.Random(0), samples=5)


def test_a_position_described_as_at_a_table() -> None:
    """``bidding_view``: the seat sits after the bids given, from the dealer's left; with one
    bid short of the players it is the dealer, hooked under the hook rule."""
    rules = Rules(player_count=4, hook=True)
    view = bidding_view(rules, parse_cards("As Ks 7c"), Card.from_str("9h"), [1, 1, 0])
    assert (view.seat, view.dealer, view.hand_size, view.bids) == (3, 3, 3, (1, 1, 0, None))
    assert view.hand is not None and sorted(view.hand) == sorted(parse_cards("As Ks 7c"))
    assert view.trump_card == Card.from_str("9h")
    assert [a.bid for a in view.legal_actions if isinstance(a, Bid)] == [0, 2, 3]
    first = bidding_view(Rules(player_count=5), parse_cards("As"), None, [])
    assert (first.seat, first.leader, first.trump_card, first.trump) == (0, 0, None, None)
    advice = advise_bid(first, random.Random(3), samples=50)
    assert advice.best_bid == 1  # a lone ace on lead without trump takes the trick
    assert advice.trick_probabilities == pytest.approx((0.0, 1.0))  # certain, and shown so
    second = bidding_view(Rules(player_count=5), parse_cards("As"), None, [0])
    assert 0.0 < advise_bid(second, random.Random(3), samples=50).trick_probabilities[1] < 1.0


@pytest.mark.parametrize(
    "options",
    [
        *({"preset": name} for name in PRESETS),
        {"schedule": "up-and-down", "repeat_turning_hand": True},
        {"schedule": "down-and-up", "repeat_turning_hand": True, "hook": True},
        {"schedule": "custom", "custom_hand_sizes": [3, 5], "trump_in_last_hand": False},
    ],
    ids=lambda options: "-".join(f"{k}={v}" for k, v in options.items()),
)
def test_any_game_s_rules_describe_a_position(options: dict[str, object]) -> None:
    """Only the players and the bidding and scoring options of a game's rules count for a
    position at a table: its schedule (the turning hand played twice, custom hand sizes,
    the last hand without trump) is no reason to refuse one."""
    if "preset" in options:
        rules = Rules.preset(str(options["preset"]), 5)
    else:
        rules = Rules.from_dict({"player_count": 5, **options})
    bids = [] if rules.bidding is BiddingMode.SIMULTANEOUS else [1]
    view = bidding_view(rules, parse_cards("As Kd"), Card.from_str("7h"), bids)
    assert view.hand is not None and sorted(view.hand) == sorted(parse_cards("As Kd"))
    assert view.rules.player_count == 5 and view.rules.hook == rules.hook
    advice = advise_bid(view, random.Random(2), samples=16)
    assert sorted(advice.expected_scores) == [
        a.bid for a in view.legal_actions if isinstance(a, Bid)
    ]


@pytest.mark.parametrize(
    ("hand", "trump", "bids", "error", "message"),
    [
        ("As As 7c", "9h", [], InvalidDealError, "As is dealt twice"),
        ("As Ks 7c", "As", [], InvalidDealError, "trump card As is also dealt"),
        ("As Ks 7c", "9h", [4], BidOutOfRangeError, "a bid must be a whole number from 0 to 3"),
        ("As Ks 7c", "9h", [1, 1, 1, 1], ValueError, "4 bids before this seat's, but 4 players"),
        ("", None, [], RulesError, "0 cards in the hand: with 4 players a hand holds 1 to 13"),
        (" ".join(map(str, DECK[:13])), "As", [], ValueError, "leave no card to turn for trump"),
    ],
)
def test_impossible_positions_say_why(
    hand: str, trump: str | None, bids: list[int], error: type[Exception], message: str
) -> None:
    trump_card = Card.from_str(trump) if trump else None
    with pytest.raises(error, match=message):
        bidding_view(Rules(player_count=4), parse_cards(hand), trump_card, bids)


@pytest.mark.parametrize(
    ("hand", "trump", "bids", "message"),
    [
        ("As Kd", None, (), "hand must be Cards (parse_cards('As Kd') reads them from text)"),
        (None, None, (), "hand must be Cards, got None"),
        (["As"], None, (), "hand must be Cards, got ['As']"),
        (parse_cards("As Kd"), "9h", (), "trump_card must be a Card or None, got '9h'"),
        (parse_cards("As Kd"), None, None, "bids must be a sequence of whole numbers, got None"),
        (parse_cards("As Kd"), None, "1", "bids must be a sequence of whole numbers, got '1'"),
    ],
)
def test_arguments_of_the_wrong_kind_say_which(
    hand: object, trump: object, bids: object, message: str
) -> None:
    with pytest.raises(TypeError) as error:
        bidding_view(Rules(player_count=4), hand, trump, bids)  # type: ignore[arg-type]
    assert str(error.value).startswith(message)


def test_a_bid_out_of_range_names_the_seat_that_made_it() -> None:
    """The error says which of the bids given is out of range, by its place at the table and
    as the seat the engine's error carries (the second bid: seat 1)."""
    with pytest.raises(
        BidOutOfRangeError, match=r"^bid 2 of those before this seat's is 4:"
    ) as error:
        bidding_view(Rules(player_count=4), parse_cards("As Ks 7c"), Card.from_str("9h"), [1, 4])
    assert error.value.seat == 1


def test_bids_are_sealed_under_simultaneous_bidding() -> None:
    rules = Rules(player_count=4, bidding=BiddingMode.SIMULTANEOUS)
    with pytest.raises(ValueError, match="bids are sealed under simultaneous bidding"):
        bidding_view(rules, parse_cards("As Ks"), Card.from_str("2h"), [1])
    view = bidding_view(rules, parse_cards("As Ks"), Card.from_str("2h"))
    assert view.seat in view.to_act


def test_the_seat_given_places_it_at_the_table() -> None:
    """Under simultaneous bidding the place is given (who leads changes the odds); under
    sequential bidding it follows from the bids, and a place that disagrees is refused."""
    sealed = Rules(player_count=4, bidding=BiddingMode.SIMULTANEOUS)
    for seat in range(4):
        view = bidding_view(sealed, parse_cards("As"), None, seat=seat)
        assert (view.seat, view.to_act, view.leader) == (seat, frozenset(range(4)), 0)
    assert bidding_view(sealed, parse_cards("As"), None).seat == 0
    dealer = bidding_view(sealed, parse_cards("As"), None, seat=3)
    assert advise_bid(dealer, random.Random(3), samples=200).best_bid == 0  # spades seldom led
    rules = Rules(player_count=4)
    assert bidding_view(rules, parse_cards("As"), None, [0, 1], seat=2).seat == 2
    with pytest.raises(ValueError, match="put it at place 2 from the dealer's left, not 1"):
        bidding_view(rules, parse_cards("As"), None, [0, 1], seat=1)
    for bad in (4, -1):
        with pytest.raises(ValueError, match="seat must be a place from 0 to 3 for 4 players"):
            bidding_view(sealed, parse_cards("As"), None, seat=bad)
    for wrong in (True, 1.0, "1"):
        with pytest.raises(TypeError, match=r"^seat must be a whole number or None, got "):
            bidding_view(sealed, parse_cards("As"), None, seat=wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rules must be a Rules \(ohhell.engine.Rules\), got '4'"):
        bidding_view("4", parse_cards("As"), None)  # type: ignore[arg-type]
    require("numpy")  # a seat computed with numpy is a seat
    import numpy as np

    assert bidding_view(sealed, parse_cards("As"), None, seat=np.int64(2)).seat == 2
    # and so is a bid (it was refused as out of range: "is np.int64(1): a bid must be ...")
    assert bidding_view(rules, parse_cards("As"), None, [np.int64(1)]).bids[0] == 1


def test_the_bid_estimate_refuses_a_card_decision_and_no_worlds() -> None:
    """:meth:`SearchBot.estimate_bids` is for a seat to bid: a card decision is refused with
    the reason (it has no bid to weigh), and so is an estimate from no world at all (it would
    only be the heuristic's estimate, shown as the search's)."""
    state = _dealt(_one_hand(2), ("Kh 3c", "Qh 4c", "Jh 6c", "As 3h"), "3s")
    for seat, bid in ((0, 1), (1, 0), (2, 0), (3, 1)):
        state, _ = apply(state, Bid(seat, bid))
    playing = view_for(state, 0)
    assert playing.legal_actions  # seat 0 leads
    bot = SearchBot()
    with pytest.raises(ValueError, match="seat 0 has no bid to make now"):
        bot.estimate_bids(playing, random.Random(0), Budget(simulations=16))
    view = _bidding_view()
    for worlds in (0, -3):
        with pytest.raises(ValueError, match=f"worlds must be positive, got {worlds}"):
            bot.estimate_bids(view, random.Random(0), Budget(), worlds=worlds)
    for wrong in (5.0, True, "5"):
        with pytest.raises(TypeError, match=f"^worlds must be a whole number, got {wrong!r}$"):
            bot.estimate_bids(view, random.Random(0), Budget(), worlds=wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^2,000,000 worlds without a time limit, at most 1,0"):
        bot.estimate_bids(view, random.Random(0), Budget(), worlds=2_000_000)
    assert bot.estimate_bids(view, random.Random(0), Budget(), worlds=1).by_bid
