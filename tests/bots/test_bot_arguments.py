"""What a bot refuses, from Python: options of the wrong kind when it is built, and a call to
``choose`` it cannot answer, each with the reason (``ohhell.bots.base``), before it does any
work. A bot spec (``make_bot``) converts text first; these are the values a program passes."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from ohhell.bots import Bot, Budget, HeuristicBot, RandomBot, SearchBot
from ohhell.bots.base import check_option, option_kinds
from ohhell.engine import GameState, Rules, apply, new_game, public_view, random_deal, view_for

SMALL = Budget(simulations=16)
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"spoiler": "false"}, TypeError, "spoiler must be True or False, got 'false'"),
        ({"guess_after_bid": 0}, TypeError, "guess_after_bid must be True or False, got 0"),
        ({"compiled": "no"}, TypeError, "compiled must be True or False, got 'no'"),
        ({"simulations": math.nan}, TypeError, "simulations must be a whole number, got nan"),
        ({"simulations": 1.5}, TypeError, "simulations must be a whole number, got 1.5"),
        ({"simulations": True}, TypeError, "simulations must be a whole number, got True"),
        ({"simulations": "16"}, TypeError, "simulations must be a whole number, got '16'"),
        ({"min_worlds": math.nan}, TypeError, "min_worlds must be a whole number, got nan"),
        ({"bid_factor": math.inf}, TypeError, "bid_factor must be a whole number, got inf"),
        ({"bid_window": math.nan}, TypeError, "bid_window must be a whole number, got nan"),
        ({"solve_leaves": math.nan}, TypeError, "solve_leaves must be a whole number, got nan"),
        ({"rivalry": "0.5"}, TypeError, "rivalry must be a number, got '0.5'"),
        ({"boost": math.inf}, ValueError, "boost must be a finite number, got inf"),
        ({"bid_lean": math.nan}, ValueError, "bid_lean must be a finite number, got nan"),
        ({"solve_leaves": -1}, ValueError, "solve_leaves may not be negative, got -1"),
        ({"bid_window": -2}, ValueError, "bid_window may not be negative, got -2"),
        ({"bid_factor": 0}, ValueError, "bid_factor must be from 1 to 1,000,000, got 0"),
        # a factor past any count of worlds overflowed the budget's check: an OverflowError
        (
            {"bid_factor": 10**308},
            ValueError,
            "bid_factor must be from 1 to 1,000,000, got a number of 309 digits",
        ),
        ({"boost": 1e308}, ValueError, r"boost must be from 1 to 1,000,000, got 1e\+308"),
        ({"boost": 0.5}, ValueError, "boost must be from 1 to 1,000,000, got 0.5"),
        ({"sampler": "uniform"}, TypeError, "sampler must be a function from a seat's view"),
    ],
)
def test_a_search_bot_refuses_an_option_of_the_wrong_kind(
    options: dict[str, object], error: type[Exception], message: str
) -> None:
    """A switch given as text was taken as ``True``; a NaN window weighed every bid, a NaN
    ``solve_leaves`` turned the exact end game off, and NaN simulations failed only at the
    first decision, deep inside."""
    with pytest.raises(error, match=f"^{message}"):
        SearchBot(**options)  # type: ignore[arg-type]


def test_options_of_the_right_kind_are_kept() -> None:
    bot = SearchBot(spoiler=False, simulations=64, rivalry=1, bid_lean=0.5)
    assert (bot.spoiler, bot.simulations, bot.rivalry, bot.bid_lean) == (False, 64, 1, 0.5)


def test_the_options_a_bot_declares_are_read_from_its_signature() -> None:
    kinds = option_kinds(SearchBot)
    assert kinds["spoiler"] == (bool, False) and kinds["simulations"] == (int, True)
    assert kinds["min_worlds"] == (int, False)
    assert kinds["rivalry"] == (float, False) and "sampler" not in kinds
    check_option("seconds", None, float, optional=True)
    with pytest.raises(TypeError, match=r"^seconds must be a number, got None$"):
        check_option("seconds", None, float)


def _dealt(players: int = 4) -> tuple[GameState, int]:
    state = new_game(Rules(player_count=players), first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(3)))
    return state, min(state.to_act)


@pytest.mark.parametrize("name", BOTS)
def test_a_call_of_the_wrong_kind_is_refused_by_every_bot(name: str) -> None:
    state, seat = _dealt()
    view, bot = view_for(state, seat), BOTS[name]()
    with pytest.raises(TypeError, match=r"^a bot decides from a PlayerView .* got GameState$"):
        bot.choose(state, random.Random(0), SMALL)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^a bot's rng must be a random\.Random, got NoneType$"):
        bot.choose(view, None, SMALL)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^a bot's budget must be a Budget, got 16$"):
        bot.choose(view, random.Random(0), 16)  # type: ignore[arg-type]
    assert bot.choose(view, random.Random(0), SMALL) in view.legal_actions


@pytest.mark.parametrize("name", BOTS)
def test_every_bot_says_why_a_view_has_nothing_to_do(name: str) -> None:
    bot = BOTS[name]()
    undealt = new_game(Rules(player_count=4), first_dealer=0)
    state, seat = _dealt()
    waiting = (seat + 1) % 4
    finished = new_game(
        Rules(player_count=3, schedule="custom", custom_hand_sizes=(1,)), first_dealer=0
    )
    while not finished.is_over:
        action = (
            random_deal(finished, random.Random(1))
            if finished.is_chance
            else view_for(finished, min(finished.to_act)).legal_actions[0]
        )
        finished, _ = apply(finished, action)
    for view, message in (
        (view_for(undealt, 1), "seat 1 has nothing to do: the cards are still to be dealt"),
        (view_for(state, waiting), f"seat {waiting} has nothing to do: it is not its turn"),
        (view_for(finished, 2), "seat 2 has nothing to do: the game is over"),
        (public_view(state), "a public view has no seat to act for"),
    ):
        with pytest.raises(ValueError, match=f"^{message}$"):
            bot.choose(view, random.Random(0), SMALL)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_search_without_a_time_limit_refuses_more_worlds_than_it_can_hold(
    compiled: bool,
) -> None:
    """Their seeds are drawn before the first world is played: a billion simulations ran
    out of memory before any work. With ``seconds`` the clock stops the search instead. The
    loop in Python refuses as the compiled one does: the same view and budget, the same
    answer."""
    state, seat = _dealt()
    view = view_for(state, seat)
    with pytest.raises(
        ValueError, match="worlds to sample without a time limit, at most 1,000,000"
    ):
        SearchBot(compiled=compiled).choose(view, random.Random(0), Budget(simulations=10**12))
    timed = Budget(simulations=10**12, seconds=0.01)
    assert SearchBot(compiled=compiled).choose(view, random.Random(0), timed) in view.legal_actions


def test_a_whole_number_past_any_float_is_checked_without_overflow() -> None:
    """``math.isfinite`` of a whole number past any float raised OverflowError, a traceback
    from ``--bots search:simulations=1000...``; a whole number is finite, and the bot's own
    checks say what is too large."""
    check_option("simulations", 10**400, int)
    with pytest.raises(ValueError, match="could ask for endless worlds in one decision"):
        SearchBot(simulations=10**400).check_budget(Budget())


def test_numbers_too_long_to_write_are_named_by_their_length() -> None:
    """Python will not write an integer of more than 4,300 digits: the messages about one
    failed with Python's own error, and a tournament seed of one was taken, to fail at its
    first game."""
    from ohhell.bots import check_budget, make_bot
    from ohhell.tournament import Matchup, TournamentError

    huge = 10**5000
    with pytest.raises(ValueError, match=r"^a number of simulations \(an integer of 5001 digits"):
        check_budget(SearchBot(), Budget(simulations=huge))
    with pytest.raises(ValueError, match="got a negative integer of 5001 digits"):
        Budget(simulations=-huge)
    with pytest.raises(
        ValueError, match=r"\(5020 characters\): search option bid_factor"
    ) as raised:
        make_bot("search:bid_factor=" + "9" * 5000)
    assert len(str(raised.value)) < 600
    with pytest.raises(TournamentError, match="the seed must be a number Python can write"):
        Matchup(rules=Rules(player_count=4), candidate="heuristic", baseline="random", seed=huge)
