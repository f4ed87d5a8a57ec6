"""The OpenSpiel game ``python_ohhell`` (ohhell.rl.openspiel_game) and the bot adapter."""

from __future__ import annotations

import copy
import math
import pickle
import random
import subprocess
import sys

import pytest
from tests.conftest import in_ci
from tests.engine.test_views_leak import rearrange_hidden

if not in_ci():  # in CI a missing test dependency is an error, not a skip
    pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import (
    evaluate_bots,
    external_sampling_mccfr,
    ismcts,
    mcts,
    outcome_sampling_mccfr,
)
from open_spiel.python.observation import make_observation

from ohhell.bots import RandomBot
from ohhell.bots.sampling import sample_world
from ohhell.engine import (
    Card,
    GameState,
    IllegalActionError,
    Rules,
    RulesError,
    apply,
    format_cards,
    legal_actions,
    random_deal,
    sort_cards,
    view_for,
)
from ohhell.rl.agents import default_opponent
from ohhell.rl.encoding import action_mask, encode_view
from ohhell.rl.openspiel_game import (
    GAME_NAME,
    OhHellState,
    OpenSpielBot,
    _Core,
    _determinize,
    rules_from_params,
)
from ohhell.rl.seeding import agent_rng

GAMES = {
    "custom-3p": "python_ohhell(players=3,schedule=custom,hand_sizes=1;2)",
    "simultaneous-4p": (
        "python_ohhell(players=4,schedule=custom,hand_sizes=2;3,bidding=simultaneous,"
        "zero_bid_bonus=true)"
    ),
    "hook-podrida-5p": (
        "python_ohhell(players=5,schedule=custom,hand_sizes=3;1,hook=true,must_trump=true,"
        "missed_bid_scores_tricks=true,trump_in_last_hand=true)"
    ),
    "standard-3p": "python_ohhell(players=3)",
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_sim_test_passes(name: str) -> None:
    game = pyspiel.load_game(GAMES[name])
    pyspiel.random_sim_test(
        game, num_sims=1 if name == "standard-3p" else 3, serialize=False, verbose=False
    )


def test_serialized_states_round_trip() -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game(GAMES["custom-3p"]), num_sims=2, serialize=True, verbose=False
    )


def test_parameters_become_rules() -> None:
    game = pyspiel.load_game(GAMES["hook-podrida-5p"])
    assert game.rules == Rules(
        player_count=5,
        schedule="custom",
        custom_hand_sizes=(3, 1),
        hook=True,
        must_trump=True,
        missed_bid_scores_tricks=True,
        trump_in_last_hand=True,
    )
    assert game.num_players() == 5
    assert game.num_distinct_actions() == 52 + 3 + 1
    with pytest.raises(ValueError, match="unknown python_ohhell parameter"):
        rules_from_params({"hoook": True})
    with pytest.raises(ValueError, match="hand_sizes must be integers"):
        rules_from_params({"schedule": "custom", "hand_sizes": "1;x"})
    # a bad value names the parameter as the game string spells it, not the engine's field
    with pytest.raises(RulesError, match=r"got 9 \(parameter players\)$"):
        rules_from_params({"players": 9})
    with pytest.raises(RulesError, match=r"\(parameters hand_sizes, schedule\)$"):
        rules_from_params({"hand_sizes": "1;2"})


def play_to_decision(state: OhHellState, rng: random.Random, decisions: int) -> OhHellState:
    """Advance ``state`` through chance nodes and ``decisions`` random decisions."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif decisions == 0:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state


def test_chance_deals_card_by_card_from_the_dealers_left() -> None:
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = game.new_initial_state()
    state.apply_action(2)  # first dealer: seat 2, so seat 0 gets the first card
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 52
    for card in (0, 1, 2):
        state.apply_action(card)
    for drawn_or_no_card in (1, 52):
        with pytest.raises(ValueError, match=f"chance outcome {drawn_or_no_card} is not a card"):
            state.apply_action(drawn_or_no_card)
    assert len(state.chance_outcomes()) == 49
    state.apply_action(51)  # the trump card
    assert not state.is_chance_node()
    assert state.view(0).hand[0].index == 0
    assert state.view(2).trump_card.index == 51
    assert state.current_player() == 0


def test_sealed_bids_stay_out_of_information_states() -> None:
    game = pyspiel.load_game(GAMES["simultaneous-4p"])
    state = play_to_decision(game.new_initial_state(), random.Random(1), 0)
    assert state.current_player() == 0
    before = [state.information_state_string(p) for p in range(4)]
    before_tensors = [state.information_state_tensor(p) for p in range(4)]
    state.apply_action(52 + 2)
    after = [state.information_state_string(p) for p in range(4)]
    assert after[0] != before[0]
    assert after[1:] == before[1:]
    assert [state.information_state_tensor(p) for p in range(1, 4)] == before_tensors[1:]


def test_information_states_ignore_other_seats_cards() -> None:
    """States whose deals differ only in the cards of other seats look the same to a seat."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    first = game.new_initial_state()
    second = game.new_initial_state()
    # dealer 2: the deal goes seat 0, 1, 2, 0, 1, 2 ... hand 1 has 1 card each, then trump.
    for state, deal in ((first, (0, 10, 20, 30)), (second, (0, 20, 10, 30))):
        state.apply_action(2)
        for card in deal:
            state.apply_action(card)
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state_tensor(0) == second.information_state_tensor(0)
    assert first.observation_tensor(0) == second.observation_tensor(0)
    assert first.information_state_string(1) != second.information_state_string(1)


def test_a_hand_is_written_as_records_write_it() -> None:
    """By suit, high to low (``sort_cards``), in the observation string and in each hand of
    the information state, as records and the docs show a hand (it read low to high)."""
    from ohhell.engine import format_cards, sort_cards

    game = pyspiel.load_game("python_ohhell(players=3,schedule=custom,hand_sizes=12;1)")
    state = play_to_decision(game.new_initial_state(), random.Random(3), 0)
    hand = state.view(state.current_player()).hand
    shown = format_cards(sort_cards(hand))
    assert shown != format_cards(hand)  # twelve cards of a random deal: the orders differ
    seat = state.current_player()
    assert f" hand {shown};" in state.observation_string(seat)
    assert f"hand 1: cards {shown};" in state.information_state_string(seat)


@pytest.mark.parametrize(
    "game_string",
    [
        "python_ohhell(players=3,schedule=custom,hand_sizes=3;4)",
        GAMES["simultaneous-4p"],
        "python_ohhell(players=5,schedule=custom,hand_sizes=3;2,hook=true,must_trump=true)",
    ],
)
def test_the_observation_string_says_all_the_observation_tensor_holds(game_string: str) -> None:
    """An algorithm keyed on the observation string (``use_observation_string``) sees what
    the tensor shows: every seat's observations of random games, no string with two tensors
    (it once left out the tricks played before, their leaders and who had sealed a bid)."""
    game = pyspiel.load_game(game_string)
    rng = random.Random(11)
    seen: dict[str, tuple[float, ...]] = {}
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                for seat in range(game.num_players()):
                    tensor = tuple(state.observation_tensor(seat))
                    assert seen.setdefault(state.observation_string(seat), tensor) == tensor
            actions = (
                [a for a, _ in state.chance_outcomes()]
                if state.is_chance_node()
                else state.legal_actions()
            )
            state.apply_action(rng.choice(actions))
    assert len(seen) > 300


def test_the_observation_string_tells_who_played_each_card_of_the_tricks_before() -> None:
    """Two tricks of the same cards, 5h and 6h played by seats 1 and 2 one way round or the
    other, then taken by seat 0's Kh: seat 0 observes them apart in the tensor, and in the
    string too (which once showed only the tricks won)."""
    game = pyspiel.load_game(
        "python_ohhell(players=3,schedule=custom,hand_sizes=2;,trump_in_last_hand=true)"
    )
    five, six, king = 29, 30, 37  # 5h, 6h, Kh
    states = []
    for first, second in ((five, six), (six, five)):
        state = game.new_initial_state()
        # dealer 0; seats 1, 2, 0, 1, 2, 0 dealt; trump 2d; every seat bids 0; one trick
        for action in (0, first, second, king, 7, 6, 49, 13, 52, 52, 52, first, second, king):
            state.apply_action(action)
        states.append(state)
    assert states[0].observation_tensor(0) != states[1].observation_tensor(0)
    assert states[0].observation_string(0) == (
        "seat 0; hand 1 of 1 (2 cards), trick 2; dealer 0; hand Qs; trump 2d; bids 0 0 0;"
        " tricks [seat 1: 5h 6h Kh]; trick [seat 0: -]; won [1, 0, 0]; totals [0, 0, 0]"
    )
    assert "tricks [seat 1: 6h 5h Kh];" in states[1].observation_string(0)


def test_information_state_is_available_at_terminal_states() -> None:
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = play_to_decision(game.new_initial_state(), random.Random(5), 10_000)
    assert state.is_terminal()
    text = state.information_state_string(0)
    assert "hand 2:" in text
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()
    assert sum(state.returns()) >= 0


@pytest.mark.parametrize("name", ["custom-3p", "simultaneous-4p", "hook-podrida-5p"])
def test_returns_are_the_games_totals_at_the_end_and_nothing_before(name: str) -> None:
    """Returns are zero until the game is over, then each seat's total: the points of its
    hands, worked out here from the bids and tricks as RULES.md scores them."""
    game = pyspiel.load_game(GAMES[name])
    rng = random.Random(8)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.returns() == [0.0] * game.num_players()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    core = state._core.state
    rules = core.rules
    totals = [0] * game.num_players()
    for hand in core.results:
        for seat, (bid, won) in enumerate(zip(hand.bids, hand.tricks_won, strict=True)):
            if bid == won == 0 and rules.zero_bid_bonus:  # 5 plus the tricks in the hand
                totals[seat] += 5 + hand.hand_size
            elif bid == won:
                totals[seat] += 10 + bid
            elif rules.missed_bid_scores_tricks:
                totals[seat] += won
    assert state.returns() == [float(t) for t in totals]
    assert any(totals)


def test_resampled_states_keep_the_players_information() -> None:
    game = pyspiel.load_game(GAMES["hook-podrida-5p"])
    rng = random.Random(3)
    for decisions in (0, 3, 7, 12):
        state = play_to_decision(game.new_initial_state(), rng, decisions)
        if state.is_terminal():
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, rng.random)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", ["simultaneous-4p", "hook-podrida-5p"])
def test_a_resampled_states_history_is_its_own(name: str) -> None:
    """A resample's history leads to the sample, not to the true state: replayed on a new
    state it deals the sampled hands and makes the redrawn sealed bids (the true history
    would give the player every hidden card), at every point of a whole game."""
    game = pyspiel.load_game(GAMES[name])
    rng = random.Random(8)
    state = game.new_initial_state()
    differed = checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, rng.random)
        replayed = game.new_initial_state()
        for action in sample.history():
            replayed.apply_action(action)
        assert replayed._core.state == sample._core.state
        assert [(h.player, h.action) for h in replayed.full_history()] == [
            (h.player, h.action) for h in sample.full_history()
        ]
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert len(sample.history()) == len(state.history())
        own = {card.index for card in state._core.state.dealt[player]}
        kept = [i for i, a in enumerate(state.history()) if a in own]  # its cards as it saw them
        assert [sample.history()[i] for i in kept] == [state.history()[i] for i in kept]
        differed += sample.history() != state.history()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20 and differed > checked // 2


def test_resampled_hands_never_hold_a_suit_their_seat_has_shown_it_lacks() -> None:
    """Late in seven-player hands under La Podrida, with many voids shown (a seat that did
    not follow has none of the suit led, nor of trumps if it did not trump), every resample
    keeps them all, and the player's own cards stay its own."""
    game = pyspiel.load_game(
        "python_ohhell(players=7,schedule=custom,hand_sizes=7;,must_trump=true)"
    )
    rng = random.Random(5)
    checked = shown = 0
    for _ in range(12):
        state = play_to_decision(game.new_initial_state(), rng, 7 + 7 * 4)  # bids, 4 tricks
        if state.is_terminal():
            continue
        player = state.current_player()
        core = state._core.state
        voids: list[set[object]] = [set() for _ in range(7)]
        for trick in core.tricks:
            led = trick.cards[0].suit
            for position, card in enumerate(trick.cards[1:], start=1):
                if card.suit is not led:
                    voids[(trick.leader + position) % 7].add(led)
                    if card.suit is not core.trump:
                        voids[(trick.leader + position) % 7].add(core.trump)
        shown += sum(len(v) for v in voids)
        for _ in range(20):
            sample = state.resample_from_infostate(player, rng.random)._core.state
            assert sample.hands[player] == core.hands[player]
            for seat, hand in enumerate(sample.hands):
                assert len(hand) == len(core.hands[seat])
                assert not any(card.suit in voids[seat] for card in hand), (seat, hand, voids)
            checked += 1
    assert checked >= 100 and shown >= 20
    # the deals are the search bot's uniform ones (a greedy deal seat by seat is biased)
    same = random.Random(9)
    assert _determinize(core, player, random.Random(9)).hands == sample_world(
        view_for(core, player), same
    )


def test_a_resampled_state_stays_indistinguishable_past_the_end_of_the_hand() -> None:
    """The finished hand's cards are shown in the engine's order: a resample keeps it."""
    game = pyspiel.load_game("python_ohhell(players=3,schedule=custom,hand_sizes=3;2)")
    rng = random.Random(2)
    state = game.new_initial_state()
    while True:  # to the last card of the first hand
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        core = state._core.state
        if len(core.tricks) == 2 and len(core.trick) == 2:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sample = state.resample_from_infostate(player, rng.random)
    action = state.legal_actions()[0]  # its own last card: the hand ends
    state.apply_action(action)
    sample.apply_action(action)
    assert sample.information_state_string(player) == state.information_state_string(player)


def _ismcts_game(game: pyspiel.Game, seed: int) -> tuple[list[int], list[dict[int, float]]]:
    """A game of OpenSpiel's Python IS-MCTS in seat 0 against random bots, set up as
    docs/rl.md says: ``uct_c`` scaled to the points returned, and a resampler drawing from a
    seeded generator (OpenSpiel's own draws from a new unseeded one each time). Its actions
    and the searcher's policies."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    searcher = ismcts.ISMCTSBot(
        game, evaluator, 2.0 * game.max_utility(), 20, random_state=np.random.RandomState(seed)
    )
    draws = random.Random(seed)
    searcher.set_resampler(lambda node, player: node.resample_from_infostate(player, draws.random))
    bots = [searcher, *(OpenSpielBot(RandomBot(), p, seed=p) for p in range(1, 4))]
    rng = random.Random(seed)
    state = game.new_initial_state()
    policies = []
    while not state.is_terminal():  # ISMCTSBot has no restart_at, so no evaluate_bots
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        if player == 0:
            policy, action = searcher.step_with_policy(state)
            policies.append(dict(policy))
        else:
            action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return [int(action) for action in state.history()], policies


def test_openspiel_ismcts_plays_a_small_game_and_repeats_it_from_its_seeds() -> None:
    game = pyspiel.load_game(GAMES["simultaneous-4p"])
    history, policies = _ismcts_game(game, 2)
    assert len(policies) == 2 + 2 + 3  # two bids and 2 + 3 cards
    assert (history, policies) == _ismcts_game(game, 2)


@pytest.mark.parametrize(
    ("solver_class", "iterations"),
    [
        (outcome_sampling_mccfr.OutcomeSamplingSolver, 50),
        (external_sampling_mccfr.ExternalSamplingSolver, 5),
    ],
)
def test_monte_carlo_cfr_runs_on_a_tiny_game(solver_class: type, iterations: int) -> None:
    game = pyspiel.load_game("python_ohhell(players=3,schedule=custom,hand_sizes=1;)")
    solver = solver_class(game)
    for _ in range(iterations):
        solver.iteration()
    state = play_to_decision(game.new_initial_state(), random.Random(0), 0)
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions())
    assert sum(policy.values()) == pytest.approx(1.0)


def test_our_bots_play_through_openspiel() -> None:
    game = pyspiel.load_game(GAMES["hook-podrida-5p"])
    bots = [OpenSpielBot(default_opponent(), 0, seed=0)] + [
        OpenSpielBot(RandomBot(), p, seed=p) for p in range(1, 5)
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert len(returns) == 5
    assert all(r >= 0 for r in returns)
    state = play_to_decision(game.new_initial_state(), random.Random(0), 0)
    with pytest.raises(ValueError, match="asked to act"):
        bots[1 if state.current_player() != 1 else 2].step(state)
    assert game.get_type().short_name == GAME_NAME


def _channels(game: pyspiel.Game, state: GameState, seat: int) -> tuple[object, ...]:
    """Everything ``seat`` is given of ``state``: its view, the PettingZoo observation and
    mask, and OpenSpiel's information state, observation and legal actions."""
    node = game.new_initial_state()
    node._core = _Core(game.rules, state, ())
    view = view_for(state, seat)
    return (
        view,
        encode_view(view).tobytes(),
        action_mask(view).tobytes(),
        node.information_state_string(seat),
        tuple(node.information_state_tensor(seat)),
        node.observation_string(seat),
        tuple(node.observation_tensor(seat)),
        tuple(node.legal_actions(seat)),
    )


@pytest.mark.parametrize("seed", range(6))
def test_no_channel_changes_with_what_a_seat_cannot_see(seed: int) -> None:
    """All hidden cards dealt again across suits, and the sealed bids made again
    (``rearrange_hidden``): no observation, string, tensor or mask a seat gets changes."""
    rng = random.Random(seed)
    n = rng.randint(3, 7)
    bidding = ("sequential", "simultaneous")[seed % 2]
    sizes = ";".join(str(rng.randint(1, 52 // n)) for _ in range(2))
    game = pyspiel.load_game(
        f"python_ohhell(players={n},schedule=custom,hand_sizes={sizes},bidding={bidding},"
        f"must_trump={str(seed % 3 == 0).lower()})"
    )
    state = play_to_decision(game.new_initial_state(), rng, 0)._core.state
    checked = 0
    while not state.is_over:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
            continue
        for seat in range(n):
            other = rearrange_hidden(state, seat, rng)
            assert _channels(game, other, seat) == _channels(game, state, seat)
            checked += 1
        state, _ = apply(state, rng.choice(legal_actions(state)))
    assert checked > 10


def _seat_channels(state: OhHellState, seat: int) -> tuple[object, ...]:
    """Everything OpenSpiel gives ``seat`` of a node: its information state and observation,
    strings and tensors."""
    return (
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
    )


def _replayed(game: pyspiel.Game, history: list[int]) -> OhHellState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.parametrize(
    "game_string",
    [
        "python_ohhell(players=3,schedule=custom,hand_sizes=2;3)",
        "python_ohhell(players=4,schedule=custom,hand_sizes=3;2,bidding=simultaneous)",
        "python_ohhell(players=5,schedule=custom,hand_sizes=1;2,must_trump=true)",
    ],
)
def test_no_channel_changes_mid_deal_with_the_cards_dealt_to_other_seats(
    game_string: str,
) -> None:
    """At every chance node in the middle of a deal (of the first hand and of later ones), the
    game replayed with a card already drawn for another seat replaced by one not yet drawn, or
    with two other seats' drawn cards exchanged: every seat's information state and observation,
    strings and tensors, stay as they were (while the deal goes on a seat knows only the cards
    dealt to it; the test above checks decision nodes). The seat that was dealt the replaced
    card does see the change, so the twins really differ."""
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    rng = random.Random(6)
    state = game.new_initial_state()
    checked = later_hands = 0
    while not state.is_terminal():
        core = state._core
        if state.is_chance_node() and core.drawn:
            history = state.history()
            start = len(history) - len(core.drawn)  # this hand's draws so far, dealt in turn
            left = [card for card, _ in state.chance_outcomes()]
            for seat in range(n):
                theirs = [
                    start + i
                    for i in range(len(core.drawn))
                    if (core.state.dealer + 1 + i) % n != seat
                ]
                if not theirs:
                    continue
                i = rng.choice(theirs)
                replaced = [*history[:i], rng.choice(left), *history[i + 1 :]]
                twins = [replaced]
                holder = (core.state.dealer + 1 + i - start) % n
                assert _seat_channels(_replayed(game, replaced), holder) != _seat_channels(
                    state, holder
                )
                if pairs := [(i, j) for i in theirs for j in theirs if (i - j) % n]:
                    i, j = rng.choice(pairs)  # dealt to two different seats
                    exchanged = list(history)
                    exchanged[i], exchanged[j] = history[j], history[i]
                    twins.append(exchanged)
                for twin in twins:
                    assert _seat_channels(_replayed(game, twin), seat) == _seat_channels(
                        state, seat
                    )
                    checked += 1
                    later_hands += bool(core.state.results)
        actions = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        state.apply_action(rng.choice(actions))
    assert checked > 50 and later_hands > 20


def test_a_game_pickles_and_copies_by_its_game_string() -> None:
    """A game handed to a worker process (pickled) or copied keeps its rules; a game string
    always loads back, however its hand sizes were written."""
    for sizes in ("2,3", "1", "3;5"):
        game = pyspiel.load_game(
            GAME_NAME, {"players": 3, "schedule": "custom", "hand_sizes": sizes}
        )
        again = pyspiel.load_game(str(game))
        assert again.rules == game.rules
        for other in (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game)):
            assert other.rules == game.rules
            assert str(other) == str(game)
            assert other.new_initial_state().chance_outcomes()
    state = pyspiel.load_game(GAME_NAME, {"hand_sizes": "1", "schedule": "custom"})
    assert pickle.loads(pickle.dumps(state.new_initial_state())).history() == []
    fresh = subprocess.run(  # a new process, as a spawned worker: nothing imported before
        [sys.executable, "-c", "import pickle, sys; print(pickle.load(sys.stdin.buffer).rules)"],
        input=pickle.dumps(game), capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert fresh.returncode == 0, fresh.stderr.decode()
    assert fresh.stdout.decode().strip() == repr(game.rules)


def test_the_default_game_and_every_flag() -> None:
    """Without parameters the game is the standard one; each flag reaches the rules."""
    game = pyspiel.load_game(GAME_NAME)
    assert game.rules == Rules(player_count=4)
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    flags = (
        "repeat_turning_hand",
        "trump_in_last_hand",
        "hook",
        "must_trump",
        "missed_bid_scores_tricks",
        "zero_bid_bonus",
    )
    for flag in flags:
        rules = pyspiel.load_game(
            f"python_ohhell(players=3,schedule=up-and-down,{flag}=true)"
        ).rules
        assert getattr(rules, flag) is True, flag
        assert all(getattr(rules, other) is False for other in flags if other != flag)
    assert pyspiel.load_game("python_ohhell(bidding=simultaneous)").rules.bidding == "simultaneous"


@pytest.mark.parametrize("last_trump", ["false", "true"])
def test_chance_nodes_and_decisions_are_counted_as_the_game_says(last_trump: str) -> None:
    """The first dealer is uniform over the seats; a game has exactly
    ``max_chance_nodes_in_history()`` chance nodes (the dealer, each card dealt, each trump
    card turned) and ``max_game_length()`` decisions (every bid and card)."""
    game = pyspiel.load_game(
        f"python_ohhell(players=3,schedule=custom,hand_sizes=2;1,trump_in_last_hand={last_trump})"
    )
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    rng = random.Random(4)
    chance = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    assert chance == game.max_chance_nodes_in_history() == 1 + 7 + 3 + (last_trump == "true")
    assert decisions == game.max_game_length() == 3 + 6 + 3 + 3


def test_actions_and_the_first_information_state_read_as_words() -> None:
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = game.new_initial_state()
    assert state.information_state_string(1) == "seat 1; first dealer not drawn"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "first dealer seat 1"
    state.apply_action(1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "draw As"
    assert state.action_to_string(0, 51) == "play As"
    assert state.action_to_string(0, 52 + 2) == "bid 2"


def _drawn_to(state: OhHellState, seat: int) -> list[int]:
    """The cards drawn so far in the hand being dealt that went to ``seat``."""
    core = state._core
    n, dealer = core.rules.player_count, core.state.dealer
    cards = core.drawn[: n * core.state.hand_size]  # the trump card is drawn last
    return [card.index for i, card in enumerate(cards) if (dealer + 1 + i) % n == seat]


def _expected_information_state(state: OhHellState, player: int) -> dict[str, np.ndarray]:
    """``player``'s information state tensor worked out from the game state as docs/rl.md
    describes it, independently of the observer (the test may read the hidden state)."""
    rules = state.rules
    n, top, hands = rules.player_count, rules.max_hand_size, rules.hand_count
    out = {
        "seat": np.zeros(n),
        "first_dealer": np.zeros(n),
        "cards": np.zeros((hands, 52)),
        "trump_card": np.zeros((hands, 53)),
        "bids": np.zeros((hands, n, top + 1)),
        "plays": np.zeros((hands, top * n, 52)),
    }
    out["seat"][player] = 1
    core = state._core.state
    if core is None:
        return out
    out["first_dealer"][(core.first_dealer - player) % n] = 1
    finished = [
        (r.dealt[player], r.trump_card, r.bids, [c for t in r.tricks for c in t.cards])
        for r in core.results
    ]
    for h, (cards, trump, bids, plays) in enumerate(finished):
        out["cards"][h, [c.index for c in cards]] = 1
        out["trump_card"][h, 52 if trump is None else trump.index] = 1
        for seat, bid in enumerate(bids):
            out["bids"][h, (seat - player) % n, bid] = 1
        for i, card in enumerate(plays):
            out["plays"][h, i, card.index] = 1
    h = core.hand_index
    if core.is_over:
        return out
    if core.is_chance:
        out["cards"][h, _drawn_to(state, player)] = 1
        return out
    out["cards"][h, [c.index for c in core.dealt[player]]] = 1
    out["trump_card"][h, 52 if core.trump_card is None else core.trump_card.index] = 1
    for seat, bid in enumerate(core.bids):
        if bid is not None and (core.bids_revealed or seat == player):
            out["bids"][h, (seat - player) % n, bid] = 1
    plays = [c for t in core.tricks for c in t.cards] + list(core.trick)
    for i, card in enumerate(plays):
        out["plays"][h, i, card.index] = 1
    return out


@pytest.mark.parametrize("name", ["custom-3p", "simultaneous-4p"])
def test_information_state_tensors_hold_exactly_the_documented_facts(name: str) -> None:
    """At every node of a game, chance nodes (mid-deal) included, each seat's information
    state tensor is the documented one: its seat, the relative first dealer, per hand its own
    cards (those drawn so far while dealing), the trump card (52: none), the bids it can see
    by relative seat and every card played in order; its string tells the same facts."""
    game = pyspiel.load_game(GAMES[name])
    rng = random.Random(3)
    state = game.new_initial_state()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    n = game.num_players()
    mid_deal = 0
    tensor_of: dict[str, list[float]] = {}  # the string and the tensor tell the same facts
    string_of: dict[tuple[float, ...], str] = {}
    while True:
        for player in range(n):
            observer.set_from(state, player)
            expected = _expected_information_state(state, player)
            for block, values in expected.items():
                assert np.array_equal(observer.dict[block], values), (block, player, str(state))
            flat = np.concatenate([v.ravel() for v in expected.values()]).tolist()
            assert state.information_state_tensor(player) == flat
            text = state.information_state_string(player)
            assert tensor_of.setdefault(text, flat) == flat, text
            assert string_of.setdefault(tuple(flat), text) == text
        if state.is_chance_node() and state._core.drawn:
            mid_deal += 1
            text = state.information_state_string(0)
            held = sort_cards(Card.from_index(c) for c in _drawn_to(state, 0))
            hand = len(state._core.state.results) + 1
            assert text.splitlines()[-1] == f"hand {hand}: cards {format_cards(held) or '-'}"
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert mid_deal > 5


def test_resampling_redraws_sealed_bids_and_follows_the_sampler() -> None:
    """A resample for a seat that cannot see a sealed bid redraws it; the same sampler value
    gives the same sample, different values different deals."""
    game = pyspiel.load_game(GAMES["simultaneous-4p"])
    state = play_to_decision(game.new_initial_state(), random.Random(1), 0)
    state.apply_action(52 + 1)  # seat 0's sealed bid
    assert state.current_player() == 1
    samples = [state.resample_from_infostate(1, lambda v=v: v / 40) for v in range(40)]
    cores = [sample._core.state for sample in samples]
    assert {core.bids[0] for core in cores} == {0, 1, 2}  # a 2-card hand
    assert all(core.bids[1:] == (None, None, None) for core in cores)
    assert len({core.hands for core in cores}) > 20
    again = state.resample_from_infostate(1, lambda: 7 / 40)._core.state
    assert again == cores[7]


def _suits(hands: tuple[tuple[Card, ...], ...]) -> list[list[object]]:
    """How many cards of each suit each hand holds."""
    return [sorted(card.suit.value for card in hand) for hand in hands]


def _indistinguishable_twin(
    game: pyspiel.Game, state: OhHellState, seat: int, rng: random.Random
) -> OhHellState | None:
    """``state``'s game replayed with every card of this hand ``seat`` cannot see dealt again
    across suits (the other seats' unplayed cards and the stock: ``rearrange_hidden``) and the
    sealed bids it cannot see made again: a state ``seat`` cannot tell from ``state``. Dealt
    again until every card played since stays legal; ``None`` if 50 deals fail (voids shown)
    or only the stock is hidden."""
    core = state._core.state
    n = core.player_count
    steps = [(int(step.player), int(step.action)) for step in state.full_history()]
    draws = [i for i, (player, _) in enumerate(steps) if player == pyspiel.PlayerId.CHANCE]
    start = draws[-(n * core.hand_size + (core.trump_card is not None))]
    for _ in range(50):
        other = rearrange_hidden(core, seat, rng)
        if other.hands == core.hands:
            return None
        dealt = [iter(hand) for hand in other.dealt]
        history = [action for _, action in steps]
        for i in range(n * core.hand_size):  # the draws of other seats; the trump card stays
            if (to := (core.dealer + 1 + i) % n) != seat:
                history[start + i] = next(dealt[to]).index
        for i, (player, action) in enumerate(steps[start:], start):
            if player != pyspiel.PlayerId.CHANCE and action >= 52:  # a bid, maybe sealed
                history[i] = 52 + other.bids[player]
        try:
            return _replayed(game, history)
        except IllegalActionError:  # a card played since is no longer legal
            continue
    return None


@pytest.mark.parametrize("name", ["simultaneous-4p", "hook-podrida-5p"])
def test_a_resample_depends_only_on_the_players_information(name: str) -> None:
    """Two true states a player cannot tell apart (this hand's hidden cards dealt again across
    suits, the stock's included, and sealed bids it cannot see made again) resampled for it
    with the same sampler draws give the same sample, core and history: the resample is drawn
    from the player's information alone, never from the true hidden cards or bids (the tests
    above check only that it keeps the player's information). At every decision of a whole
    game, for every player, the one to act or not."""
    game = pyspiel.load_game(GAMES[name])
    n = game.num_players()
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = not_to_act = suits_moved = bids_moved = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        for seat in range(n):
            twin = _indistinguishable_twin(game, state, seat, rng)
            if twin is None:
                continue
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            true, other = state._core.state, twin._core.state
            assert other != true
            suits_moved += _suits(other.hands) != _suits(true.hands)
            bids_moved += other.bids != true.bids
            for draw in (0.25, 0.75):
                ours = state.resample_from_infostate(seat, lambda draw=draw: draw)
                theirs = twin.resample_from_infostate(seat, lambda draw=draw: draw)
                assert theirs._core.state == ours._core.state
                assert theirs.history() == ours.history()
            checked += 1
            not_to_act += seat != state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50 and not_to_act > 30 and suits_moved > checked // 2
    assert bids_moved > 5 if "simultaneous" in name else bids_moved == 0  # none sealed


def test_seeded_openspiel_bots_replay_their_games() -> None:
    game = pyspiel.load_game(GAMES["simultaneous-4p"])
    histories = []
    for _ in range(2):
        bots = [OpenSpielBot(RandomBot(), p, seed=10 + p) for p in range(4)]
        rng = random.Random(0)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        histories.append(state.history())
    assert histories[0] == histories[1]


def test_observers_default_to_the_observation_and_resampling_needs_a_decision() -> None:
    """``make_observation(game)`` (no observation type) gives the PettingZoo observation, not
    the information state; a resample is refused at chance and terminal nodes."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    default = make_observation(game)
    assert default.tensor.size == game.observation_tensor_size()
    assert game.observation_tensor_size() != game.information_state_tensor_size()
    state = game.new_initial_state()
    rng = random.Random(0)
    with pytest.raises(ValueError, match="needs a decision node"):
        state.resample_from_infostate(0, rng.random)
    state.apply_action(0)  # the first dealer; the deal is next
    with pytest.raises(ValueError, match="needs a decision node"):
        state.resample_from_infostate(0, rng.random)
    state = play_to_decision(state, rng, 10_000)
    assert state.is_terminal()
    with pytest.raises(ValueError, match="needs a decision node"):
        state.resample_from_infostate(0, rng.random)


@pytest.mark.parametrize("player", [-1, 3, True, 1.0, "0"])
def test_an_observer_refuses_a_player_the_game_has_not(player: object) -> None:
    """OpenSpiel's state methods check the player in C++, but an observer is called directly
    too: ``string_from(state, -1)`` wrote the last seat's cards under "seat -1", and 3 of a
    three-player game an ``IndexError``."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = play_to_decision(game.new_initial_state(), random.Random(1), 5)
    for perfect_recall in (True, False):
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=perfect_recall))
        for call in (observer.string_from, observer.set_from):
            with pytest.raises(ValueError, match=r"^player must be a seat from 0 to 2, got "):
                call(state, player)


@pytest.mark.parametrize("draw", [math.inf, math.nan, -0.5, 2.0, "x", None, True])
def test_a_sampler_that_gives_no_probability_is_refused(draw: object) -> None:
    """The sampler's draw seeded the resample unchecked: infinity an OverflowError, NaN a
    ValueError of int(), text a string of 2**32 copies (4 GiB) before failing."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = play_to_decision(game.new_initial_state(), random.Random(0), 0)
    before = state.serialize()
    with pytest.raises(ValueError, match="probability_sampler must return a number from 0 to 1"):
        state.resample_from_infostate(state.current_player(), lambda: draw)
    assert state.serialize() == before
    state.resample_from_infostate(state.current_player(), lambda: 1.0)  # the bound is allowed


def test_an_action_after_the_end_is_refused_with_the_reason() -> None:
    """Not Python's "min() arg is an empty sequence"; the history stays as it was."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = play_to_decision(game.new_initial_state(), random.Random(1), 10_000)
    assert state.is_terminal()
    history = state.history()
    for action in (0, 52):
        with pytest.raises(ValueError, match=r"after the end of the game: it is over"):
            state.apply_action(action)
    assert state.history() == history


def test_only_chance_nodes_have_chance_outcomes() -> None:
    """A decision or terminal node has none (it listed all 52 cards as if a card were to be
    drawn)."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    rng = random.Random(2)
    state = play_to_decision(game.new_initial_state(), rng, 0)
    with pytest.raises(ValueError, match=r"only for chance nodes: a player is to act"):
        state.chance_outcomes()
    state = play_to_decision(state, rng, 10_000)
    with pytest.raises(ValueError, match=r"only for chance nodes: the game is over"):
        state.chance_outcomes()


def test_an_openspiel_bot_checks_its_seed() -> None:
    """As the environments do: a float or a negative seed is refused, not taken."""
    with pytest.raises(TypeError, match=r"^seed must be an integer, got 0\.5$"):
        OpenSpielBot(RandomBot(), 0, seed=0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^seed must be 0 or more, got -3$"):
        OpenSpielBot(RandomBot(), 0, seed=-3)


def test_an_action_outside_the_action_space_has_no_name() -> None:
    """It was named as a bid: 300 read "bid 248" in a game whose largest bid is 13."""
    game = pyspiel.load_game(GAMES["custom-3p"])
    state = play_to_decision(game.new_initial_state(), random.Random(0), 0)
    player = state.current_player()
    assert state.action_to_string(player, game.num_distinct_actions() - 1).startswith("bid ")
    for action in (game.num_distinct_actions(), 300, -1):
        with pytest.raises(ValueError, match=f"^action {action} is outside the action space"):
            state.action_to_string(player, action)


def test_an_openspiel_bot_checks_its_bot_and_budget_when_made() -> None:
    with pytest.raises(TypeError, match=r"^bot must be a Bot \(an object with a choose method"):
        OpenSpielBot(None, 0, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^budget must be a Budget or None, got 0$"):
        OpenSpielBot(RandomBot(), 0, seed=1, budget=0)  # type: ignore[arg-type]
    # a seat given as text was taken, and its first step said "seat 1's bot asked to act for
    # player 1"
    for player_id in ("1", 1.0, True, None):
        with pytest.raises(TypeError, match=r"^player_id must be a seat, a whole number, got "):
            OpenSpielBot(RandomBot(), player_id, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^player_id must be a seat, from 0, got -1$"):
        OpenSpielBot(RandomBot(), -1, seed=1)
    assert OpenSpielBot(RandomBot(), np.int64(2), seed=1).player_id() == 2  # type: ignore[arg-type]


def test_an_openspiel_bot_takes_its_generator_through_the_digest() -> None:
    """Its bot's generator is the agents' (``agent_rng``), never ``random.Random(seed)``, the
    generator a game seeded with the same number deals from."""
    bot = OpenSpielBot(RandomBot(), 0, seed=2)
    assert bot.rng.getstate() == agent_rng(2).getstate()
    assert bot.rng.getstate() != random.Random(2).getstate()


def test_a_wrong_type_argument_names_no_card() -> None:
    """pybind11 refuses an argument of the wrong type before our code runs, quoting the state
    by ``repr``: that was ``str``, every hand and the sealed bids, so a policy's float action
    (``apply_action(52.0)``) or a seat given as text put the whole deal into the error."""
    game = pyspiel.load_game(GAMES["simultaneous-4p"])
    state = play_to_decision(game.new_initial_state(), random.Random(3), 1)
    assert state.current_player() >= 0
    every_card = [str(Card.from_index(i)) for i in range(52)]
    calls = [
        lambda: state.apply_action(52.0),
        lambda: state.apply_action(2**63),
        lambda: state.apply_action("52"),
        lambda: state.observation_string("0"),
        lambda: state.information_state_string(0.0),
        lambda: state.observation_tensor(None),
        lambda: state.legal_actions("0"),
        lambda: state.action_to_string(0, 1.5),
        lambda: state.child(52.0),
    ]
    for call in calls:
        with pytest.raises(TypeError) as raised:
            call()
        text = str(raised.value)
        assert "<python_ohhell state: hand 1 of 2 (2 cards), bidding; dealer" in text, text
        shown = [card for card in every_card if card in text.split("Invoked with:")[-1]]
        assert shown == [], text
    assert "hands " in str(state)  # str is still the whole state, for debugging
