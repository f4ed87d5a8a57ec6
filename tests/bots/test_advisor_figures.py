"""The bid advisor's figures as a user reads them (from a mutation audit: each test failed on a
change of the advisor, the ``advise`` command or the bid estimate that every other test let
through): the best bid is the best by expected score, every legal bid is scored, the cards
advised on are the seat's, and the text and JSON show the advice's own figures."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import ohhell.bots.search as search_module
import ohhell.cli.advise as advise_command
from ohhell.bots import advise_bid
from ohhell.bots.advisor import BidAdvice, bidding_view
from ohhell.bots.base import Budget
from ohhell.bots.heuristic import (
    _bidding_pressure,
    card_win_probabilities,
    expected_tricks,
    pressed_chance,
    trick_distribution,
)
from ohhell.bots.search import BidEstimate, SearchBot
from ohhell.cli.main import main
from ohhell.engine import (
    Bid,
    BiddingMode,
    Card,
    Deal,
    Rules,
    Schedule,
    apply,
    new_game,
    parse_cards,
    random_deal,
    view_for,
)

FOUR = Rules(player_count=4)


def advise(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["advise", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_best_bid_is_the_best_by_expected_score_not_the_likeliest_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    estimate = BidEstimate((0.5, 0.5), {0: 5.0, 1: 5.5}, 1, {0: (0.6, 0.4), 1: (0.5, 0.5)})
    monkeypatch.setattr(SearchBot, "estimate_bids", lambda *args, **kwargs: estimate)
    view = bidding_view(FOUR, parse_cards("Kd"), Card.from_str("2s"), [])
    advice = advise_bid(view, random.Random(0), samples=10)
    assert advice.best_bid == 1  # bid 0 is likelier made (0.6), bid 1 scores more
    assert advice.trick_probabilities == (0.5, 0.5)
    assert advice.expected_scores == {0: 5.0, 1: 5.5}


def test_the_samples_asked_for_are_the_samples_drawn() -> None:
    view = bidding_view(FOUR, parse_cards("Ah Kh 4c 9d"), Card.from_str("2s"), [2])
    few = advise_bid(view, random.Random(1), samples=10)
    many = advise_bid(view, random.Random(1), samples=400)
    assert (few.samples, many.samples) == (10, 400) and few.by_bid != many.by_bid
    assert advise_bid(view, random.Random(1), samples=1).samples == 1


def test_every_legal_bid_of_a_long_hand_is_scored() -> None:
    """The search bot weighs only the bids near its estimate in long hands; the advisor
    scores every one."""
    hand = parse_cards("As Kd 7c 2h 9s 3d Qh 5c Jc 4s")
    view = bidding_view(FOUR, hand, Card.from_str("9h"), [])
    assert sorted(advise_bid(view, random.Random(0), samples=20).expected_scores) == list(range(11))


@pytest.mark.parametrize("seat", range(4))
def test_under_sealed_bids_the_seat_given_holds_the_cards_given(seat: int) -> None:
    rules = Rules(player_count=4, bidding=BiddingMode.SIMULTANEOUS)
    view = bidding_view(rules, parse_cards("As 7d"), Card.from_str("2h"), seat=seat)
    assert view.seat == seat and sorted(view.hand or ()) == sorted(parse_cards("As 7d"))


def test_a_position_that_agrees_with_the_bids_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = advise(
        capsys, "--hand", "As", "--no-trump", "--bids", "0", "--position", "2", "--json",
        "--seed", "1", "--samples", "20",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["position"] == 2


def test_the_json_holds_the_advice_s_own_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """Two low clubs and the two black aces under spades, after bids of 1 and 1: bid 0 is
    the likeliest made, bid 1 scores the most."""
    args = ("--hand", "7c 2c Ah Ac", "--trump", "7s", "--bids", "1,1", "--seed", "1")
    code, out, err = advise(capsys, *args, "--samples", "200", "--json")
    assert code == 0, err
    got = json.loads(out)
    view = bidding_view(FOUR, parse_cards("7c 2c Ah Ac"), Card.from_str("7s"), [1, 1])
    advice = advise_bid(view, random.Random(1), samples=200)
    assert got["best_bid"] == advice.best_bid == 1
    assert max(advice.by_bid, key=lambda b: advice.by_bid[b][b]) == 0
    assert got["expected_scores"] == {str(b): v for b, v in advice.expected_scores.items()}
    assert got["trick_probabilities_by_bid"] == {
        str(b): list(chances) for b, chances in advice.by_bid.items()
    }
    assert got["trick_probabilities"] == list(advice.trick_probabilities)


FIXED = BidAdvice(
    trick_probabilities=(0.3, 0.55, 0.15),
    expected_scores={0: 6.0, 1: 7.0, 2: 3.0},
    best_bid=1,
    samples=7,
    by_bid={0: (0.6, 0.3, 0.1), 1: (0.3, 0.55, 0.15), 2: (0.2, 0.5, 0.3)},
    effective_samples=6.5,
)


def test_the_text_shows_each_figure_of_the_advice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(advise_command, "advise_bid", lambda view, rng, samples: FIXED)
    code, out, err = advise(capsys, "--hand", "Kd 5c", "--trump", "2s", "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    chances = lines.index("tricks  chance (playing for 1)")
    assert lines[chances + 1 : chances + 4] == [
        "     0   30.0 %",
        "     1   55.0 %",
        "     2   15.0 %",
    ]
    scores = lines.index("bid  expected points")
    assert lines[scores + 1 : scores + 4] == [
        "  1             7.00  <- best",
        "  0             6.00",
        "  2             3.00",
    ]
    code, out, err = advise(capsys, "--hand", "Kd 5c", "--trump", "2s", "--seed", "3", "--json")
    got = json.loads(out)
    assert (got["best_bid"], got["samples"], got["seed"]) == (1, 7, 3)
    assert (got["effective_samples"], got["rough"]) == (6.5, False)
    assert got["trick_probabilities_by_bid"]["2"] == [0.2, 0.5, 0.3]
    assert not any(line.startswith("rough") for line in lines)


ROUGH = dataclasses.replace(FIXED, samples=8000, effective_samples=4.1)


def test_a_rough_advice_says_so_and_how_many_deals_would_steady_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """8,000 deals worth 4.1 equally weighted ones: 100 would take about 195,122 deals, said
    in two figures."""
    monkeypatch.setattr(advise_command, "advise_bid", lambda view, rng, samples: ROUGH)
    code, out, err = advise(capsys, "--hand", "Kd 5c", "--trump", "2s", "--seed", "3")
    assert code == 0, err
    assert out.splitlines()[-2:] == [
        "rough: a few deals explain the bids made so far much better than the rest, so the"
        " 8000 deals sampled are worth about 4 equally weighted ones; the figures can turn with"
        " the seed (--samples 200000 would steady them)",
        "(8000 sampled deals, --seed 3)",
    ]
    code, out, err = advise(capsys, "--hand", "Kd 5c", "--trump", "2s", "--seed", "3", "--json")
    got = json.loads(out)
    assert (got["samples"], got["effective_samples"], got["rough"]) == (8000, 4.1, True)


@pytest.mark.parametrize(
    ("samples", "effective", "advised"),
    [(8000, 4.1, 200_000), (1000, 0.0, 1_000_000), (80, 0.5, 1300), (2400, 0.001, 1_000_000)],
)
def test_the_deals_a_rough_advice_would_need_are_rounded_up_and_kept_in_bounds(
    samples: int, effective: float, advised: int
) -> None:
    rough = dataclasses.replace(FIXED, samples=samples, effective_samples=effective)
    assert rough.steady_target == min(100, samples / 10)
    assert rough.rough
    assert advise_command.rough_warning(rough).endswith(f"(--samples {advised} would steady them)")


def test_a_hook_that_forbids_bidding_every_card_names_that_bid(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = advise(
        capsys, "--hook", "--hand", "As Ks 7c", "--trump", "9h", "--bids", "0,0,0", "--seed", "1",
        "--samples", "20",
    )  # fmt: skip
    assert code == 0, err
    assert "not allowed here: 3 (the hook)" in out


def test_the_largest_number_of_samples_is_taken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(advise_command, "advise_bid", lambda view, rng, samples: FIXED)
    limit = str(advise_command.MAX_SAMPLES)
    code, _, err = advise(capsys, "--hand", "As", "--no-trump", "--samples", limit, "--seed", "1")
    assert code == 0, err


def test_the_seed_printed_gives_the_same_advice_again(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--hand", "Ah Kh 4c 9d", "--trump", "2s", "--json", "--samples", "50")
    _, out, _ = advise(capsys, *args)
    first = json.loads(out)
    _, again, _ = advise(capsys, *args, "--seed", str(first["seed"]))
    assert json.loads(again) == first


@pytest.mark.parametrize(("bids", "mode"), [([3, 3, 3], 0), ([], 13)])
def test_the_search_weighs_a_bid_far_from_its_estimate_when_play_points_there(
    monkeypatch: pytest.MonkeyPatch, bids: list[int], mode: int
) -> None:
    """Thirteen spades without trump take no trick as the dealer (never on lead) and every
    trick on lead. With the heuristic's estimate made 9 tricks, the bids searched in a long
    hand (near 9) are not the ones play reaches, and the one it reaches is searched and bid."""
    spades = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")
    view = bidding_view(FOUR, spades, None, bids)
    nine = tuple(1.0 if tricks == 9 else 0.0 for tricks in range(14))
    monkeypatch.setattr(search_module, "trick_distribution", lambda view: nine)
    estimate = SearchBot().estimate_bids(view, random.Random(1), Budget(simulations=200))
    assert mode in estimate.expected_points and estimate.best == mode


def test_a_lone_card_s_chance_depends_on_who_leads_not_on_the_seat_number() -> None:
    """Three players, one card each, no trump, dealer 0: seat 1 leads its king of diamonds and
    loses only to the ace of diamonds in one of the two other hands (2 of 51 unseen cards)."""
    rules = Rules(
        player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1,), trump_in_last_hand=False
    )
    state = new_game(rules, first_dealer=0)
    state, _ = apply(state, Deal(tuple(parse_cards(h) for h in ("2c", "Kd", "3c")), None))
    view = view_for(state, 1)
    assert view.leader == 1
    assert trick_distribution(view) == pytest.approx((2 / 51, 49 / 51))


def test_the_bidding_pressure_counts_the_seats_yet_to_bid() -> None:
    """Known bids, plus a fair share (cards / players) for each seat yet to bid, plus the
    seat's own estimate, less the cards: positive when the table overbids, negative when it
    underbids."""
    rules = Rules(
        player_count=4, schedule=Schedule.CUSTOM, custom_hand_sizes=(5,), trump_in_last_hand=True
    )
    state = new_game(rules, first_dealer=3)
    state, _ = apply(state, random_deal(state, random.Random(2)))
    over = state
    over, _ = apply(over, Bid(0, 2))
    assert _bidding_pressure(view_for(over, 1), 1.5) == pytest.approx(2 + 2 * 5 / 4 + 1.5 - 5)
    under = state
    for seat in range(3):
        under, _ = apply(under, Bid(seat, 0))
    dealer = view_for(under, 3)
    assert _bidding_pressure(dealer, 1.5) == pytest.approx(0 + 1.5 - 5)
    # the dealer's estimate counts the pressure either way: up when the table underbids
    raw = list(card_win_probabilities(dealer).values())
    pressure = _bidding_pressure(dealer, sum(raw))
    assert pressure < 0
    pressed = [pressed_chance(chance, pressure) for chance in raw]
    assert sum(pressed) > sum(raw)
    assert expected_tricks(dealer) == pytest.approx(sum(pressed))
