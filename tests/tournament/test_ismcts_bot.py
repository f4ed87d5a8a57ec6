"""OpenSpiel's C++ IS-MCTS as one of our bots (``ismcts``): whole games in our harness, clear
errors for rules OpenSpiel does not play, OpenSpiel states rebuilt from views that give away
nothing hidden, and ``ohhell tournament --baseline ismcts`` end to end."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import require
from tests.engine.test_views_leak import rearrange_hidden

from ohhell.bots import RandomBot, make_bot
from ohhell.bots.base import Budget, check_budget
from ohhell.engine import (
    Action,
    Bid,
    BiddingMode,
    Deal,
    GameState,
    Phase,
    Play,
    Rules,
    Schedule,
    apply,
    is_legal,
    new_game,
    random_deal,
    view_for,
)
from ohhell.openspiel_bridge import (
    BID_OFFSET,
    BridgeError,
    IsmctsBot,
    OpenSpielDeal,
    action_of,
    openspiel_game,
    openspiel_state_for_view,
)
from ohhell.players import PLAYER_NAMES, make_player
from ohhell.runner import BotFailure, play_game

RULES = Rules(
    player_count=4,
    schedule=Schedule.CUSTOM,
    custom_hand_sizes=(1, 3, 5),
    trump_in_last_hand=True,
    hook=True,
    missed_bid_scores_tricks=True,
)


def test_ismcts_is_a_named_bot_loaded_only_when_asked_for() -> None:
    assert "ismcts" in PLAYER_NAMES
    code = (
        "import sys; from ohhell.players import make_player; make_player('heuristic');"
        " assert 'pyspiel' not in sys.modules and 'ohhell.openspiel_bridge' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    require("pyspiel")
    assert make_player("ismcts").name == "ismcts"


def test_ismcts_takes_options_by_bot_spec() -> None:
    require("pyspiel")
    bot = make_player("ismcts:simulations=200:uct_c=1.5")
    assert isinstance(bot, IsmctsBot)
    assert (bot.simulations, bot.uct_c) == (200, 1.5)
    unset = make_player("ismcts:simulations=none")  # the budget's, as without the option
    assert isinstance(unset, IsmctsBot) and unset.simulations is None
    with pytest.raises(ValueError, match="bot 'ismcts:simulations=1': IS-MCTS needs at least"):
        make_player("ismcts:simulations=1")


@pytest.mark.parametrize("seed", range(4))
def test_ismcts_plays_whole_games_in_our_harness(seed: int) -> None:
    require("pyspiel")
    bots = [make_player("ismcts"), make_bot("heuristic"), IsmctsBot(), make_bot("random")]
    bots = bots[seed:] + bots[:seed]  # the IS-MCTS seats move round the table
    result = play_game(
        RULES,
        bots,
        deal_rng=random.Random(seed),
        bot_rngs=[random.Random(f"{seed}/{s}") for s in range(4)],
        budget=Budget(simulations=5),
    )
    assert result.state.is_over
    assert [r.hand_size for r in result.state.results] == [1, 3, 5]
    assert all(sum(r.tricks_won) == r.hand_size for r in result.state.results)
    for seat, bot in enumerate(bots):
        if bot.name == "ismcts":  # one bid and every card of each hand
            assert len(result.decision_seconds[seat]) == sum(1 + k for k in (1, 3, 5))


def test_ismcts_default_budget_decides() -> None:
    require("pyspiel")
    state = _dealt(RULES)
    view = view_for(state, next(iter(state.to_act)))
    assert IsmctsBot().choose(view, random.Random(0), Budget()) in view.legal_actions


def test_ismcts_splits_small_budgets_over_fewer_worlds() -> None:
    require("pyspiel")
    view = view_for(_dealt(RULES), 2)
    for worlds in (1, 3):
        for simulations in (1, 2, 7):
            bot = IsmctsBot(worlds=worlds)
            action = bot.choose(view, random.Random(simulations), Budget(simulations=simulations))
            assert action in view.legal_actions
    with pytest.raises(BridgeError, match="worlds and rollouts must be positive, got 0, 1"):
        IsmctsBot(worlds=0)


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        (replace(RULES, hook=False), "no hook (OpenSpiel's dealer is always hooked)"),
        (
            replace(RULES, hook=False, bidding=BiddingMode.SIMULTANEOUS),
            "simultaneous bidding (OpenSpiel's seats bid in turn)",
        ),
        (replace(RULES, must_trump=True), "La Podrida's obligation to trump (OpenSpiel has none)"),
        (replace(RULES, zero_bid_bonus=True), "the zero-bid bonus (OpenSpiel's scoring has none)"),
        (replace(RULES, custom_hand_sizes=(1, 13)), "hands of 13 cards (OpenSpiel deals at most"),
        (
            replace(RULES, trump_in_last_hand=False),
            "no trump card turned in the last hand, hand 3 (OpenSpiel always turns one;"
            " trump_in_last_hand turns one there)",
        ),
        (Rules.preset("standard", player_count=4), "hands of 13 cards (OpenSpiel deals at most"),
        (  # named with the hand too large, not left for the next try
            Rules.preset("hook", player_count=4),
            "hands of 13 cards (OpenSpiel deals at most 12 to each of 4 players); no trump card"
            " turned in the last hand, hand 13",
        ),
    ],
)
def test_rules_openspiel_does_not_play_are_a_clear_error(rules: Rules, problem: str) -> None:
    """The reason is in the list of problems after the rules' description (which names the
    rules, ``simultaneous bidding`` or ``La Podrida`` among them, whatever the problems)."""
    require("pyspiel")
    state = _dealt(rules)
    view = view_for(state, min(state.to_act))
    problems = rf"not OpenSpiel's oh_hell \({re.escape(rules.describe())}\): (.*; )?"
    with pytest.raises(BridgeError, match=problems + re.escape(problem)):
        IsmctsBot().choose(view, random.Random(0), Budget(simulations=5))
    with pytest.raises(BotFailure, match=problems + re.escape(problem)):
        play_game(rules, [IsmctsBot() for _ in range(4)], deal_rng=random.Random(0))


def test_a_seat_not_to_act_is_refused() -> None:
    require("pyspiel")
    state = _dealt(RULES)
    (seat,) = state.to_act
    with pytest.raises(BridgeError, match=f"seat {(seat + 1) % 4} is not to act"):
        openspiel_state_for_view(view_for(state, (seat + 1) % 4), random.Random(0))


@pytest.mark.parametrize("seed", range(3))
def test_rebuilt_state_shows_the_seat_only_what_its_view_shows(seed: int) -> None:
    """At every decision of random games, the OpenSpiel state rebuilt from the acting seat's
    view gives that seat the same information state as the true OpenSpiel state, whichever
    hidden cards were sampled, and the same as a state that differs only in hidden cards."""
    require("pyspiel")
    rng = random.Random(seed)
    state = new_game(RULES, first_dealer=0)
    history: list[Action] = []
    checked = 0
    while not state.is_over:
        if state.is_chance:
            history.append(random_deal(state, rng))
            state, _ = apply(state, history[-1])
            continue
        (seat,) = state.to_act
        twin = _twin(history, seat, rng)
        assert view_for(twin, seat) == view_for(state, seat)
        truth = _true_openspiel_state(state)
        ours = openspiel_state_for_view(view_for(state, seat), random.Random(2 * checked))
        other = openspiel_state_for_view(view_for(twin, seat), random.Random(2 * checked + 1))
        expected = truth.information_state_string(seat)
        assert ours.information_state_string(seat) == expected
        assert other.information_state_string(seat) == expected
        assert ours.information_state_tensor(seat) == truth.information_state_tensor(seat)
        assert sorted(ours.legal_actions()) == sorted(truth.legal_actions())
        checked += 1
        history.append(RandomBot().choose(view_for(state, seat), rng, Budget()))
        state, _ = apply(state, history[-1])
    assert checked == sum(4 * (1 + k) for k in (1, 3, 5))


def test_rebuilt_states_deal_the_hidden_cards_differently() -> None:
    """The hidden cards really are sampled (so the test above compares different worlds)."""
    require("pyspiel")
    state = _dealt(replace(RULES, custom_hand_sizes=(5,)))
    view = view_for(state, min(state.to_act))
    histories = {
        tuple(openspiel_state_for_view(view, random.Random(i)).history()) for i in range(10)
    }
    assert len(histories) > 1


@pytest.mark.parametrize("players", [3, 4, 7])
def test_twins_rebuilt_from_the_same_generator_are_the_same_state(players: int) -> None:
    """The rebuilt OpenSpiel state depends on the seat's view alone: at every decision of random
    games, the true state and one with every card the seat cannot see dealt again across suits
    (``rearrange_hidden``: the other seats' unplayed cards and the stock), each rebuilt with a
    generator of the same seed, give the same OpenSpiel state, every card dealt to the other
    seats included (its full history), and leave their generators alike. (The test above
    rebuilds the twin from another generator, so it cannot tell this.)"""
    require("pyspiel")
    rng = random.Random(players)
    state = new_game(replace(RULES, player_count=players), first_dealer=players % 3)
    checked = moved = 0
    while not state.is_over:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
            continue
        (seat,) = state.to_act
        twin = rearrange_hidden(state, seat, rng)
        assert view_for(twin, seat) == view_for(state, seat)
        moved += twin.hands != state.hands
        rebuilt = []
        for which in (state, twin):
            generator = random.Random(checked)
            ospiel = openspiel_state_for_view(view_for(which, seat), generator)
            history = [(int(h.player), int(h.action)) for h in ospiel.full_history()]
            rebuilt.append((history, generator.getstate()))
        assert rebuilt[0] == rebuilt[1]
        checked += 1
        state, _ = apply(state, rng.choice(view_for(state, seat).legal_actions))
    assert checked == sum(players * (1 + k) for k in (1, 3, 5)) and moved > checked * 3 // 4


def test_tournament_with_ismcts_baseline(tmp_path: Path) -> None:
    require("pyspiel")
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable, "-m", "ohhell.cli.main", "tournament",
            "--candidate", "heuristic", "--baseline", "ismcts", "--players", "4",
            "--hand-sizes", "1,2,3", "--trump-in-last-hand", "--hook",
            "--missed-bids-score-tricks", "--deal-sets", "2", "--budget-sims", "50",
            "--jobs", "1", "--seed", "3", "--out", str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "paired difference (heuristic - ismcts)" in done.stdout
    assert {p.name for p in out.iterdir()} == {
        "report.json",
        "report.csv",
        "report.png",
        "journal.jsonl",
    }
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["matchup"]["baseline"] == "ismcts"
    assert (report["deal_sets"], report["games"], report["failures"]) == (2, 8, [])


def _dealt(rules: Rules) -> GameState:
    state = new_game(rules, first_dealer=1)
    state, _ = apply(state, random_deal(state, random.Random(7)))
    return state


def _twin(history: list[Action], seat: int, rng: random.Random) -> GameState:
    """The game of ``history`` replayed with the other seats' unplayed cards of the current
    hand shuffled among them (tried until every replayed play stays legal): a state that
    differs from the original only in cards ``seat`` cannot see."""
    deal_at = max(i for i, action in enumerate(history) if isinstance(action, Deal))
    deal = history[deal_at]
    assert isinstance(deal, Deal)
    later = history[deal_at + 1 :]
    played = {a.card for a in later if isinstance(a, Play)}
    others = [s for s in range(len(deal.hands)) if s != seat]
    pool = [c for s in others for c in deal.hands[s] if c not in played]
    for _ in range(500):
        rng.shuffle(pool)
        cards = iter(pool)
        hands = [
            cards_ if s == seat else tuple(c if c in played else next(cards) for c in cards_)
            for s, cards_ in enumerate(deal.hands)
        ]
        replay = _replay([*history[:deal_at], Deal(tuple(hands), deal.trump_card), *later])
        if replay is not None:
            return replay
    raise AssertionError("no other legal arrangement of the hidden cards found")


def _replay(actions: list[Action]) -> GameState | None:
    """The state after ``actions``, or ``None`` if one of them is illegal there."""
    state = new_game(RULES, first_dealer=0)
    for action in actions:
        if not state.is_chance and not is_legal(state, action):
            return None
        state, _ = apply(state, action)
    return state


def _true_openspiel_state(state: GameState) -> Any:
    """The OpenSpiel state of ``state``'s current hand with its real cards and history."""
    view = view_for(state, 0)
    n = state.player_count
    dealt = [sorted(cards, key=action_of) for cards in state.dealt]
    assert view.trump_card is not None
    deal = OpenSpielDeal(
        n,
        view.hand_size,
        view.dealer,
        tuple(dealt[i % n][i // n] for i in range(n * view.hand_size)),
        view.trump_card,
    )
    ospiel = openspiel_game(n).new_initial_state()
    for action in deal.chance_actions():
        ospiel.apply_action(action)
    for offset in range(1, n + 1):
        bid = state.bids[(view.dealer + offset) % n]
        if bid is None:
            break
        ospiel.apply_action(BID_OFFSET + bid)
    for _, card in view.played_cards():
        ospiel.apply_action(action_of(card))
    return ospiel


def test_fixed_simulations_override_the_budget(ismcts_simulations: list[int]) -> None:
    """``IsmctsBot(simulations=k)`` searches ``k`` simulations in total whatever the budget."""
    shares = ismcts_simulations
    view = view_for(_dealt(RULES), 2)
    IsmctsBot(worlds=3, simulations=40).choose(view, random.Random(0), Budget(simulations=7))
    assert sorted(shares) == [13, 13, 14]
    shares.clear()
    IsmctsBot(worlds=3).choose(view, random.Random(0), Budget(simulations=7))
    assert sorted(shares) == [2, 2, 3]
    with pytest.raises(BridgeError, match="at least 2 simulations, got 1"):
        IsmctsBot(simulations=1)


def test_a_budget_of_seconds_is_kept_by_openspiel_s_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a budget of seconds alone each world's search is given a share of the time left
    (OpenSpiel's ``max_wall_clock_time``; their sum within the budget, none 0, which OpenSpiel
    reads as no limit). A budget of simulations and seconds both is refused: OpenSpiel's
    search keeps one or the other, not whichever comes first."""
    require("pyspiel")
    from ohhell import openspiel_bridge

    assert openspiel_bridge.ismcts_has_clock()  # (asked once: it builds a search to see)
    given: list[tuple[int, float | None]] = []
    real = openspiel_bridge._new_ismcts

    def recording(**kwargs: Any) -> Any:
        given.append((kwargs["simulations"], kwargs.get("seconds")))
        return real(**kwargs)

    monkeypatch.setattr(openspiel_bridge, "_new_ismcts", recording)
    view = view_for(_dealt(RULES), 2)
    action = IsmctsBot(worlds=4).choose(view, random.Random(0), Budget(seconds=0.04))
    assert action in view.legal_actions
    seconds = [limit for _, limit in given]
    assert 1 <= len(seconds) <= 4 and all(limit is not None and limit > 0 for limit in seconds)
    assert sum(seconds) <= 0.04  # type: ignore[arg-type]
    both = "cannot keep a budget of seconds and of simulations both"
    for bot, budget in (
        (IsmctsBot(), Budget(seconds=0.04, simulations=8)),
        (IsmctsBot(simulations=8), Budget(seconds=0.04)),
    ):
        with pytest.raises(BridgeError, match=both):
            check_budget(bot, budget)
        with pytest.raises(BridgeError, match=both):
            bot.choose(view, random.Random(0), budget)


def test_a_search_the_clock_cut_before_its_first_visit_does_not_fail_the_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the clock, a search can end before its root's first visit, and OpenSpiel then raises
    (``node->total_visits > 0``): the searches before it decide, or, if none, a search of the
    least simulations there are, untimed. Here every timed search is given a millionth of a
    second, which OpenSpiel's search never fits a visit into."""
    require("pyspiel")
    from ohhell import openspiel_bridge

    monkeypatch.setattr(openspiel_bridge, "_LEAST_SEARCH_SECONDS", 1e-6)
    untimed: list[int] = []
    real = openspiel_bridge._new_ismcts

    def recording(**kwargs: Any) -> Any:
        if kwargs.get("seconds") is None:
            untimed.append(kwargs["simulations"])
        return real(**{**kwargs, "seconds": kwargs.get("seconds") and 1e-6})

    monkeypatch.setattr(openspiel_bridge, "_new_ismcts", recording)
    view = view_for(_dealt(RULES), 2)
    for seed in range(5):
        action = IsmctsBot(worlds=3).choose(view, random.Random(seed), Budget(seconds=1e-5))
        assert action in view.legal_actions
    assert untimed == [2] * 5  # each decision's first search failed, and was made again


def test_ismcts_plays_the_most_visited_action_over_states_drawn_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each search runs on its own OpenSpiel state drawn from the view (other hidden cards),
    and the action played has the most root visits summed over the searches: here bid 2,
    although the first search favoured bid 0 and bid 3 is the likeliest in one search."""
    require("pyspiel")
    from ohhell import openspiel_bridge

    policies = iter(
        [
            [(BID_OFFSET + 0, 0.6), (BID_OFFSET + 2, 0.4)],
            [(BID_OFFSET + 0, 0.2), (BID_OFFSET + 2, 0.3), (BID_OFFSET + 3, 0.5)],
            [(BID_OFFSET + 1, 0.4), (BID_OFFSET + 2, 0.6)],
        ]
    )
    searched: list[tuple[int, ...]] = []

    class Search:
        def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
            searched.append(tuple(state.history()))
            policy = next(policies)
            return policy, max(policy, key=lambda p: p[1])[0]

    monkeypatch.setattr(openspiel_bridge, "_new_ismcts", lambda **kwargs: Search())
    state = _dealt(replace(RULES, custom_hand_sizes=(5,)))
    seat = min(state.to_act)
    view = view_for(state, seat)
    action = IsmctsBot(worlds=3).choose(view, random.Random(0), Budget(simulations=30))
    assert action == Bid(seat, 2)  # visits: 0: 8, 1: 4, 2: 13, 3: 5
    assert len(searched) == len(set(searched)) == 3


def test_ismcts_counts_the_deals_once_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The world sampler's setup (its counting tables: up to tens of milliseconds with seven
    players) is made once for all the states a decision draws, and not at all for a forced
    move; it was made for every state, ten a decision (a 7-player decision took 0.55 s)."""
    require("pyspiel")
    from ohhell import openspiel_bridge
    from ohhell.bots.sampling import WorldSampler

    made: list[WorldSampler] = []

    class Counted(WorldSampler):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(openspiel_bridge, "WorldSampler", Counted)
    state = _dealt(replace(RULES, custom_hand_sizes=(5,)))
    view = view_for(state, min(state.to_act))
    action = IsmctsBot(worlds=4).choose(view, random.Random(0), Budget(simulations=40))
    assert is_legal(state, action) and len(made) == 1
    state = _dealt(replace(RULES, custom_hand_sizes=(1,)))  # a bid of 0 or 1; then one card
    while state.phase is Phase.BID:
        state, _ = apply(state, Bid(min(state.to_act), 0))
    seat = min(state.to_act)
    made.clear()
    assert IsmctsBot(worlds=4).choose(view_for(state, seat), random.Random(0), Budget()) == (
        Play(seat, state.hands[seat][0])
    )
    assert made == []


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"worlds": math.nan}, TypeError, r"^worlds must be a whole number, got nan$"),
        ({"worlds": 2.5}, TypeError, r"^worlds must be a whole number, got 2.5$"),
        ({"simulations": 10.5}, TypeError, r"^simulations must be a whole number, got 10.5$"),
        ({"simulations": math.nan}, TypeError, r"^simulations must be a whole number, got nan$"),
        ({"simulations": math.inf}, TypeError, r"^simulations must be a whole number, got inf$"),
        ({"simulations": 2**31}, BridgeError, r"^IS-MCTS takes at most 2147483647 simulations"),
        ({"rollouts": "2"}, TypeError, r"^rollouts must be a whole number, got '2'$"),
        ({"uct_c": math.nan}, ValueError, r"^uct_c must be a finite number, got nan$"),
        ({"uct_c": math.inf}, ValueError, r"^uct_c must be a finite number, got inf$"),
        ({"uct_c": -1}, BridgeError, r"^uct_c must be 0 or more \(how much IS-MCTS explores"),
    ],
    ids=[
        "nan worlds",
        "fraction worlds",
        "fraction simulations",
        "nan simulations",
        "infinite simulations",
        "huge simulations",
        "text rollouts",
        "nan uct_c",
        "infinite uct_c",
        "negative uct_c",
    ],
)
def test_ismcts_options_are_checked_when_it_is_built(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Not at its first decision (nor in OpenSpiel's C++): as a bot spec's options are."""
    with pytest.raises(error, match=message):
        IsmctsBot(**options)


def test_ismcts_options_out_of_range_are_refused_by_bot_spec_too() -> None:
    require("pyspiel")
    with pytest.raises(ValueError, match=r"bot 'ismcts:uct_c=-1'.*uct_c must be 0 or more"):
        make_player("ismcts:uct_c=-1")
    assert IsmctsBot(uct_c=0).uct_c == 0  # no exploring: allowed


def test_ismcts_checks_the_call_of_a_decision() -> None:
    """As every bot does (``legal_actions``): arguments of the wrong kind are a ``TypeError``,
    and a view whose seat has nothing to do a ``ValueError`` saying why."""
    require("pyspiel")
    state = _dealt(RULES)
    (seat,) = state.to_act
    view = view_for(state, seat)
    bot = IsmctsBot()
    with pytest.raises(TypeError, match=r"^a bot's rng must be a random.Random, got int$"):
        bot.choose(view, 1, Budget())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^a bot's budget must be a Budget, got 16$"):
        bot.choose(view, random.Random(0), 16)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^a bot decides from a PlayerView .*, got GameState$"):
        bot.choose(state, random.Random(0), Budget())  # type: ignore[arg-type]
    other = (seat + 1) % 4
    with pytest.raises(ValueError, match=rf"^seat {other} has nothing to do: it is not its turn$"):
        bot.choose(view_for(state, other), random.Random(0), Budget(simulations=4))


def test_a_budget_beyond_what_openspiel_takes_is_refused_before_play() -> None:
    """OpenSpiel's search takes a 32-bit number of simulations: a larger budget is refused
    when checked (as a tournament checks it before its first game), not at the first decision;
    a bot with simulations of its own does not use the budget's."""
    require("pyspiel")
    bot = IsmctsBot()
    check_budget(bot, Budget(simulations=2**31 - 1))
    with pytest.raises(BridgeError) as error:
        check_budget(bot, Budget(simulations=2**31))
    assert str(error.value) == (
        "IS-MCTS takes at most 2147483647 simulations (OpenSpiel takes a 32-bit int), got a"
        " budget of 2147483648"
    )
    check_budget(IsmctsBot(simulations=100), Budget(simulations=2**31))
