"""The heuristic's calibrated trick estimates, and the self-play benchmark's smoke test."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import run_benchmark, run_script

from ohhell.bots import Budget, compiled, heuristic, sampling
from ohhell.bots.advisor import bidding_view
from ohhell.bots.fast import mask_of
from ohhell.bots.heuristic import (
    DUCK_LEAD_WEIGHTS,
    LEAD_WEIGHTS,
    HeuristicBot,
    calibration_group,
    calibration_shift,
    card_win_probabilities,
    expected_tricks,
    heuristic_play,
    trick_distribution,
    zero_chance,
)
from ohhell.engine import (
    DECK,
    Action,
    Bid,
    Card,
    Deal,
    PlayerView,
    Rules,
    Schedule,
    apply,
    new_game,
    parse_cards,
    view_for,
)
from ohhell.runner import play_game

BENCHMARK = "benchmarks/heuristic_selfplay.py"


def _bid_view(hands: tuple[str, ...], trump_card: str) -> PlayerView:
    """Seat 0's view at the start of bidding of one hand dealt as ``hands`` (seat 3 deals)."""
    return _dealt_view(tuple(parse_cards(h) for h in hands), Card.from_str(trump_card))


def _dealt_view(dealt: tuple[tuple[Card, ...], ...], trump: Card) -> PlayerView:
    rules = Rules(
        player_count=4,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(len(dealt[0]),),
        trump_in_last_hand=True,
    )
    state = new_game(rules, first_dealer=3)
    state, _ = apply(state, Deal(dealt, trump))
    return view_for(state, 0)


def test_estimates_are_probabilities_and_consistent() -> None:
    rng = random.Random(11)
    for size in (1, 3, 7, 12):
        for _ in range(20):
            cards = rng.sample(DECK, 4 * size + 1)
            hands = tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(4))
            view = _dealt_view(hands, cards[-1])
            probs = card_win_probabilities(view)
            assert set(probs) == set(view.hand or ())
            assert all(0.0 <= p <= 1.0 for p in probs.values())
            dist = trick_distribution(view)
            assert len(dist) == size + 1
            assert sum(dist) == pytest.approx(1.0)
            assert sum(k * p for k, p in enumerate(dist)) == pytest.approx(expected_tricks(view))


def test_top_trump_is_a_certain_winner_and_low_cards_are_not() -> None:
    view = _bid_view(("As 2h 3c", "Ks 5h 6h", "Js 7d 8d", "Ts 9c 2c"), "2s")
    probs = card_win_probabilities(view)
    assert probs[parse_cards("As")[0]] == 1.0
    assert probs[parse_cards("2h")[0]] < 0.3
    assert probs[parse_cards("3c")[0]] < 0.3


@pytest.mark.parametrize(
    ("players", "card", "trump", "on_lead", "chance"),
    [
        (3, "Kd", None, True, 49 / 51),  # beaten only by the Ad
        (3, "5d", None, True, 42 / 51 * 41 / 50),  # nine diamonds above it
        (4, "7d", None, True, 44 / 51 * 43 / 50 * 42 / 49),
        (3, "Jd", "5h", True, 35 / 50 * 34 / 49),  # three diamonds and twelve trumps above
        (3, "Ad", None, False, 12 / 51),  # a lower diamond must be led; the next seat can't win
        (4, "9h", "5h", False, 45 / 50 * 44 / 49 * 43 / 48),  # a trump: five trumps above
    ],
)
def test_one_card_each_the_chance_of_the_trick_is_exact(
    players: int, card: str, trump: str | None, on_lead: bool, chance: float
) -> None:
    """With one card each there is no play, so the chance of the trick is a count of the
    unseen cards: the heuristic, the search's bid model of it (in Python and compiled) and so
    the bid advisor's prior use it. The calibrated card model gave the lone five of diamonds on
    lead 0.46 and bid zero (a QA sweep: with no trump, three players, 2d to Jd on lead were
    bid zero where one is right)."""
    bids = [] if on_lead else [0]
    view = bidding_view(
        Rules(player_count=players),
        parse_cards(card),
        Card.from_str(trump) if trump else None,
        bids,
    )
    assert view.leader == view.seat if on_lead else view.leader != view.seat
    assert heuristic.one_card_chance(
        Card.from_str(card).index, Card.from_str(trump).index if trump else -1, players, on_lead
    ) == pytest.approx(chance)
    if on_lead:  # no earlier bid to press on it
        assert expected_tricks(view) == pytest.approx(chance)
        assert card_win_probabilities(view) == {Card.from_str(card): pytest.approx(chance)}
    pressed = expected_tricks(view)  # the bids made before press on it as on any hand
    best = 1 if pressed * 11 > (1 - pressed) * 10 else 0
    assert HeuristicBot().choose(view, random.Random(0), Budget()) == Bid(view.seat or 0, best)
    mask = mask_of([Card.from_str(card).index])
    turned = Card.from_str(trump).index if trump else -1
    compiled.load()
    for earlier in ([], [0], [1]):
        expected = sampling.calibrated_tricks(mask, turned, players, on_lead, earlier)
        assert compiled.calibrated_tricks(mask, turned, players, on_lead, earlier) == (
            pytest.approx(expected, rel=1e-9)
        )
        if not earlier:
            assert expected == pytest.approx(chance)


def test_a_seat_that_can_follow_no_suit_led_bids_nothing() -> None:
    """Without trump, the whole deck dealt and all thirteen spades held, a seat not on lead
    can never follow the suit led nor take the lead: no trick, certainly (the heuristic bid
    twelve). On lead it takes all thirteen."""
    spades = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")
    second = bidding_view(Rules(player_count=4), spades, None, [0])
    assert expected_tricks(second) == 0.0
    assert HeuristicBot().choose(second, random.Random(0), Budget()) == Bid(second.seat or 0, 0)
    mask = mask_of([card.index for card in spades])
    compiled.load()
    for on_lead, earlier in ((False, [3]), (True, [])):
        tricks = 13 if on_lead else 0
        assert sampling.calibrated_tricks(mask, -1, 4, on_lead, earlier) == pytest.approx(tricks)
        assert compiled.calibrated_tricks(mask, -1, 4, on_lead, earlier) == pytest.approx(tricks)
    first = bidding_view(Rules(player_count=4), spades, None, [])
    assert HeuristicBot().choose(first, random.Random(0), Budget()) == Bid(first.seat or 0, 13)


@pytest.mark.parametrize(
    ("players", "hand", "tricks"),
    [
        (4, "Ac Kc Qc", 3),
        (4, "Ac Kc Qc Jc", 4),
        (3, "Ah Kh Qh Jh Th", 5),
        (4, "Ac Kc As Ah", 4),
        (5, "As Ks Qs Js Ts 9s 8s 7s 6s 5s", 10),
    ],
)
def test_on_lead_without_trump_a_hand_of_masters_takes_every_trick(
    players: int, hand: str, tricks: int
) -> None:
    """Each card led is the best of its suit left, so it wins, and the seat leads again: the
    heuristic bid a trick short of that certain count (two with Ac Kc Qc). The search's bid
    model of the heuristic (on masks, in Python and compiled) agrees."""
    on_lead = bidding_view(Rules(player_count=players), parse_cards(hand), None, [])
    assert set(card_win_probabilities(on_lead).values()) == {1.0}
    assert HeuristicBot().choose(on_lead, random.Random(0), Budget()) == Bid(0, tricks)
    mask = mask_of([card.index for card in parse_cards(hand)])
    assert sampling.calibrated_tricks(mask, -1, players, True) == pytest.approx(tricks)
    compiled.load()
    assert compiled.calibrated_tricks(mask, -1, players, True) == pytest.approx(tricks)
    second = bidding_view(Rules(player_count=players), parse_cards(hand), None, [0])
    assert expected_tricks(second) < tricks  # not on lead, another suit can be led


def test_estimate_grows_with_stronger_cards() -> None:
    weak = _bid_view(("2h 3c 4d 5h", "Ks 5s 6h 7h", "Js 7d 8d 9d", "Ts 9c 2c Tc"), "2s")
    strong = _bid_view(("Ah Ac Ad Qs", "Ks 5s 6h 7h", "Js 7d 8d 9d", "Ts 9c 2c Tc"), "2s")
    assert expected_tricks(strong) > expected_tricks(weak) + 1.5


class _ZeroBidder(HeuristicBot):
    """The heuristic, bidding zero whenever it may: notes each hand's estimated chance of
    taking no trick, from its cards' distribution of tricks and from :func:`zero_chance`."""

    def __init__(self) -> None:
        self.chances: dict[int, tuple[float, float]] = {}

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        assert view.seat is not None
        if Bid(view.seat, 0) in view.legal_actions:
            dist = trick_distribution(view)
            self.chances[view.hand_index] = (dist[0], zero_chance(view, dist))
            return Bid(view.seat, 0)
        return super().choose(view, rng, budget)


def test_the_chance_of_no_trick_when_bidding_zero_is_calibrated() -> None:
    """A seat that bids zero ducks every trick, and takes none far more often than its
    cards' distribution of tricks says: :func:`zero_chance` estimates that, here over 60 fresh
    games (deal seeds not among those it was fitted on) where one seat bids zero whenever it
    may against three heuristic seats."""
    rows: list[tuple[int, float, float, bool]] = []
    for game in range(60):
        zero = _ZeroBidder()
        result = play_game(
            Rules(player_count=4),
            [zero, HeuristicBot(), HeuristicBot(), HeuristicBot()],
            deal_rng=random.Random(90_000 + game),
            first_dealer=game % 4,
        )
        for hand in result.state.results:
            if hand.hand_index in zero.chances:
                natural, ducking = zero.chances[hand.hand_index]
                rows.append((hand.hand_size, natural, ducking, hand.tricks_won[0] == 0))
    for sizes in (range(2, 14), range(7, 14)):
        kept = [row for row in rows if row[0] in sizes]
        made = sum(row[3] for row in kept) / len(kept)
        natural = sum(row[1] for row in kept) / len(kept)
        ducking = sum(row[2] for row in kept) / len(kept)
        assert abs(ducking - made) < 0.07, (sizes, made, ducking)  # about 3 standard errors
        assert made - natural > 0.1, (sizes, made, natural)


def test_with_one_card_the_chance_of_no_trick_is_the_distribution_s() -> None:
    view = _bid_view(("Kd", "2c", "3c", "4c"), "2s")
    assert zero_chance(view) == trick_distribution(view)[0]


def test_selfplay_benchmark_quick(tmp_path: Path) -> None:
    out, figures = run_benchmark(BENCHMARK, tmp_path)
    assert "bid hit rate:" in out
    assert "calibration of expected_tricks" in out
    assert figures["games"] == 4
    assert figures["bids"] == 4 * 4 * 13
    assert sorted(int(size) for size in figures["hit_rate_by_hand_size"]) == list(range(1, 14))
    assert sum(row["count"] for row in figures["calibration"]) == figures["bids"]
    assert 0.0 <= figures["hit_rate"] <= 1.0
    for row in figures["calibration"]:
        assert row["from"] <= row["mean_estimate"] < row["to"]


def test_selfplay_benchmark_refuses_no_games() -> None:
    completed = run_script(BENCHMARK, "--games", "0", expect=2)
    assert "--games must be at least 1" in completed.stderr


def test_calibration_groups_and_player_count_shifts() -> None:
    """Hands without trump are calibrated apart when the opponents hold under half of the
    unseen cards (a small hand with a large stock); hands with a trump are shifted for 5 to 7
    players, where the four-player fit overrates cards, and for 3 only while playing cards."""
    for on_lead in (False, True):
        for playing in (False, True):
            seat = {"on_lead": on_lead, "playing": playing}
            assert calibration_group(trump=True, is_trump=True, share=0.1, unseen=40, **seat) == 0
            assert calibration_group(trump=True, is_trump=False, share=0.1, unseen=40, **seat) == 1
            assert calibration_group(trump=False, is_trump=False, share=1.0, unseen=39, **seat) == 2
            assert calibration_group(trump=False, is_trump=False, share=0.0, unseen=0, **seat) == 2
    # a small hand: bidding 3 (not on lead) and 4 (on lead); playing 5 and 6
    small = {"trump": False, "is_trump": False, "share": 3 / 51, "unseen": 51}
    assert calibration_group(**small, on_lead=False, playing=False) == 3
    assert calibration_group(**small, on_lead=True, playing=False) == 4
    assert calibration_group(**small, on_lead=False, playing=True) == 5
    assert calibration_group(**small, on_lead=True, playing=True) == 6
    assert [calibration_shift(players, 1) for players in (3, 4)] == [0.0, 0.0]
    assert calibration_shift(5, 1) > calibration_shift(6, 1) > calibration_shift(7, 1)
    assert calibration_shift(7, 0) < 0.0
    assert calibration_shift(7, 2) == calibration_shift(7, 3) == 0.0
    # three players: shifted while playing cards only (bids measured worse shifted)
    assert [calibration_shift(3, group) for group in range(4)] == [0.0] * 4
    assert all(calibration_shift(3, group, playing=True) > 0.0 for group in range(3))
    assert calibration_shift(3, 3, playing=True) == 0.0
    assert calibration_shift(6, 1, playing=True) == calibration_shift(6, 1)


def _three_players_on_lead(
    hands: tuple[str, str, str], trump_card: str | None, bids: tuple[int, int, int]
) -> tuple[PlayerView, Any, dict[Card, float]]:
    """Seat 0's view leading the first trick of one 4-card hand dealt as ``hands`` (seat 2
    deals), with its knowledge and its cards' strengths as the heuristic computes them."""
    rules = Rules(
        player_count=3,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(4,),
        trump_in_last_hand=trump_card is not None,
    )
    state = new_game(rules, first_dealer=2)
    trump = None if trump_card is None else Card.from_str(trump_card)
    state, _ = apply(state, Deal(tuple(parse_cards(h) for h in hands), trump))
    for seat, bid in enumerate(bids):
        state, _ = apply(state, Bid(seat, bid))
    view = view_for(state, 0)
    know = heuristic._knowledge(view)
    return view, know, heuristic._win_probabilities(view, know, view.hand or (), on_lead=True)


def test_three_players_lead_by_the_weights_fitted_to_the_search() -> None:
    """Needing one trick of four on lead, three players choose the card of highest score under
    ``LEAD_WEIGHTS`` (here the low club, waiting), where the lookahead cashes the queen. The
    features are finite, and the chances among them are probabilities."""
    view, know, strength = _three_players_on_lead(
        ("7c 4h 4s Qs", "Ac 9h Qh Ah", "2c 3c 9c 8s"), None, (1, 2, 1)
    )
    assert heuristic_play(view) == Card.from_str("7c")
    later = [1, 2]
    lookahead = heuristic._play_lookahead(view, know, view.hand or (), strength, later, 1)
    assert lookahead == Card.from_str("Qs")
    for card in view.hand or ():
        features = heuristic._lead_features(view, know, card, strength, later, 1)
        assert len(features) == len(LEAD_WEIGHTS)
        assert all(math.isfinite(f) for f in features)
        assert 0.0 <= features[0] <= 1.0 and 0.0 <= features[1] <= 1.0


def test_three_players_wanting_no_trick_lead_by_the_weights_fitted_to_the_search() -> None:
    """Bid zero and on lead, three players choose by ``DUCK_LEAD_WEIGHTS``: here the
    singleton spade, to be void in spades for later, where leading the weakest card would lead
    the two of diamonds."""
    view, know, strength = _three_players_on_lead(
        ("3c 2d 8d 6s", "6c 6d Ad Ah", "4c 3d Kd 9h"), "2h", (0, 2, 1)
    )
    assert heuristic_play(view) == Card.from_str("6s")
    assert min(view.hand or (), key=lambda c: (strength[c], c.rank)) == Card.from_str("2d")
    for card in view.hand or ():
        features = heuristic._duck_lead_features(view, know, card, strength)
        assert len(features) == len(DUCK_LEAD_WEIGHTS)
        assert all(0.0 <= f <= 1.0 for f in features)
