"""``ohhell advise`` end to end: the advice for a position described as at a real table, as
text and JSON, reproducible by seed, and impossible positions as one line."""

from __future__ import annotations

import json

import pytest
from tests.cli.test_cli_simulate_replay import ohhell


def test_advice_for_a_hooked_dealer() -> None:
    done = ohhell(
        "advise", "--players", "4", "--hook", "--hand", "As Ks 7c", "--trump", "9h",
        "--bids", "1,1,0", "--seed", "2", "--samples", "200",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "7c As Ks; trump card 9h; 4 players, hook"  # as the hand is written
    assert lines[1] == "bidding 4 of 4 (the dealer); bids before: 1, 1, 0"
    assert "not allowed here: 1 (the hook)" in done.stdout
    bids = [line.split() for line in lines[lines.index("bid  expected points") + 1 :]]
    best = [row for row in bids if row[-1:] == ["best"]]
    assert len(best) == 1
    scored = [int(row[0]) for row in bids if row[0].isdigit()]
    assert sorted(scored) == [0, 2, 3]  # every legal bid, and 1 is not
    assert lines[-1] == "(200 sampled deals, --seed 2)"  # what gives the same advice again


def test_the_text_advice_names_its_seed_when_none_was_given() -> None:
    args = ("advise", "--hand", "Ah Kh 4c 9d", "--trump", "2s", "--samples", "100")
    done = ohhell(*args)
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith("(100 sampled deals, --seed ") and last.endswith(")")
    seed = last.removeprefix("(100 sampled deals, --seed ").removesuffix(")")
    again = ohhell(*args, "--seed", seed)
    assert again.returncode == 0, again.stderr
    assert again.stdout == done.stdout


def test_json_advice_is_reproducible_by_seed() -> None:
    args = ("advise", "--hand", "Ah Kh 4c 9d", "--trump", "2s", "--bids", "2", "--json")
    first = ohhell(*args, "--seed", "5", "--samples", "300")
    assert first.returncode == 0, first.stderr
    advice = json.loads(first.stdout)
    assert (advice["hand"], advice["trump_card"], advice["bids_before"]) == (
        "4c 9d Ah Kh",
        "2s",
        [2],
    )
    assert (advice["position"], advice["players"], advice["samples"]) == (2, 4, 300)
    assert set(advice["expected_scores"]) == {"0", "1", "2", "3", "4"}
    assert set(advice["trick_probabilities_by_bid"]) == set(advice["expected_scores"])
    best = advice["best_bid"]
    assert advice["expected_scores"][str(best)] == max(advice["expected_scores"].values())
    assert advice["trick_probabilities"] == advice["trick_probabilities_by_bid"][str(best)]
    assert sum(advice["trick_probabilities"]) == pytest.approx(1.0)
    again = ohhell(*args, "--seed", "5", "--samples", "300")
    assert again.stdout == first.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--hand", "As As", "--trump", "2h"), "--hand lists As twice"),
        (("--hand", "As Zz", "--trump", "2h"), "'Zz'"),
        (
            ("--hand", "", "--trump", "2h"),
            "0 cards in the hand: with 4 players a hand holds 1 to 13",
        ),
        (
            ("--hand", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d", "--no-trump"),
            "14 cards in the hand: with 4 players a hand holds 1 to 13",
        ),
        (("--hand", "As Ks", "--trump", "2h", "--bids", "3"), "a bid must be a whole number"),
        (
            ("--hand", "As Ks", "--trump", "2h", "--bids", "1,5"),
            "bid 2 of those before this seat's is 5: a bid must be a whole number from 0 to 2,"
            " the cards in the hand\n",  # not the wording of the one-hand game it builds
        ),
        (
            ("--hand", "As Ks", "--trump", "2h", "--bids", "0,0,0,0"),
            "4 bids before this seat's, but 4 players bid: at most 3",
        ),
        (
            ("--hand", "As Ks", "--trump", "2h", "--bids", "1", "--bidding", "simultaneous"),
            "bids are sealed under simultaneous bidding",
        ),
        (
            ("--hand", "As", "--no-trump", "--position", "5"),
            "--position is a place from 1 to 4 for 4 players, got 5",
        ),
        (
            ("--hand", "As", "--no-trump", "--bids", "0", "--position", "3"),
            "--position 3 disagrees with the 1 bid before it (place 2)",
        ),
        (("--hand", "As", "--trump", "Zz"), "--trump: invalid card 'Zz'"),
        (("--hand", "As Xs", "--trump", "2h"), "--hand: invalid card 'Xs'"),
        (("--hand", "As Ks", "--trump", "Ks"), "--trump Ks is in --hand"),
        (
            ("--hand", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac", "--trump", "2h"),
            "leave no card to turn for trump: give --no-trump instead of --trump",
        ),
        (  # too many cards for the table, trump or not: the hand's size is what is wrong
            ("--players", "7", "--hand", "As Kd 7c 2h 3h 4h 5h 6h", "--trump", "9h"),
            "8 cards in the hand: with 7 players a hand holds 1 to 7",
        ),
        (
            ("--hand", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d", "--trump", "2h"),
            "14 cards in the hand: with 4 players a hand holds 1 to 13",
        ),
        (("--hand", "As", "--no-trump", "--samples", "1000000001"), "got 1,000,000,001"),
    ],
)
def test_impossible_positions_are_one_line(args: tuple[str, ...], message: str) -> None:
    done = ohhell("advise", *args)
    assert done.returncode == 1
    assert done.stderr.startswith("ohhell advise: error: ")
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--schedule", "descending"), "--schedule"),
        (("--hand-sizes", "1,2"), "--hand-sizes"),
        (("--no-repeat-turning-hand", "--trump-in-last-hand"), "--no-repeat-turning-hand, --tr"),
    ],
)
def test_schedule_flags_are_refused_not_ignored(args: tuple[str, ...], named: str) -> None:
    """One hand's advice has no schedule: a flag of it, given on purpose, is a usage error
    saying so, not a flag silently ignored (a preset's schedule is let be)."""
    done = ohhell("advise", "--hand", "As", "--no-trump", *args)
    assert done.returncode == 2
    assert f"ohhell advise: error: {named}" in done.stderr
    assert "the schedule does not count for advice on one hand" in done.stderr
    preset = ohhell("advise", "--hand", "As", "--no-trump", "--preset", "up-and-down")
    assert preset.returncode == 0, preset.stderr


@pytest.mark.parametrize(("flag", "value"), [("--samples", "0"), ("--position", "0")])
def test_counts_below_one_get_the_usage(flag: str, value: str) -> None:
    done = ohhell("advise", "--hand", "As", "--no-trump", flag, value)
    assert done.returncode == 2
    assert f"argument {flag}: a count is 1 or more, got 0" in done.stderr


def test_the_trump_card_or_its_absence_must_be_said() -> None:
    done = ohhell("advise", "--hand", "As Ks")
    assert done.returncode == 2
    assert "one of the arguments --trump --no-trump is required" in done.stderr


@pytest.mark.parametrize("bids", ["1,x", "1,,0", "1.5"])
def test_bids_that_are_not_whole_numbers_get_the_usage(bids: str) -> None:
    done = ohhell("advise", "--hand", "As Ks", "--trump", "2h", "--bids", bids)
    assert done.returncode == 2  # a word where a number goes does not parse
    assert done.stderr.startswith("usage: ohhell advise ")
    assert f"argument --bids: must be whole numbers separated by commas, got '{bids}'" in (
        done.stderr
    )


def test_under_simultaneous_bidding_the_place_at_the_table_is_given() -> None:
    """Sealed bids say nothing of where the seat sits, and who leads changes the odds: a lone
    ace without trump takes the trick on lead, and as the dealer only when spades are led."""
    args = ("advise", "--bidding", "simultaneous", "--hand", "As", "--no-trump", "--seed", "1")
    on_lead = ohhell(*args)
    assert on_lead.returncode == 0, on_lead.stderr
    assert on_lead.stdout.splitlines()[1] == (
        "place 1 of 4 from the dealer's left (leads first); bids sealed"
    )
    assert "tricks  chance (playing for 1)" in on_lead.stdout
    dealer = ohhell(*args, "--position", "4", "--json")
    assert dealer.returncode == 0, dealer.stderr
    advice = json.loads(dealer.stdout)
    assert (advice["position"], advice["best_bid"]) == (4, 0)
    assert 0.0 < advice["trick_probabilities"][1] < 0.5
