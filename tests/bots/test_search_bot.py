"""The search bot: legal in every variant, deterministic, blind to hidden cards, and sensible
on the hand-made positions."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from tests.bots.positions import POSITIONS, Position, build_position
from tests.conftest import run_python

from ohhell.bots import Budget
from ohhell.bots import compiled as compiled_path
from ohhell.bots.advisor import bidding_view
from ohhell.bots.levels import LEVELS, make_bot
from ohhell.bots.search import SearchBot
from ohhell.engine import (
    PRESETS,
    Bid,
    Card,
    GameState,
    Phase,
    Rules,
    Schedule,
    apply,
    new_game,
    parse_cards,
    random_deal,
    view_for,
)
from ohhell.runner import play_game

SMALL = Budget(simulations=16)


@pytest.mark.parametrize(
    ("preset", "players"), [(name, 3 + i % 5) for i, name in enumerate(PRESETS)]
)
def test_plays_short_games_in_every_preset(preset: str, players: int) -> None:
    options = {**PRESETS[preset].options, "schedule": "custom", "custom_hand_sizes": [1, 4, 7]}
    rules = Rules.from_dict({"player_count": players, **options})
    bots = [SearchBot(min_worlds=2) for _ in range(players)]
    result = play_game(rules, bots, deal_rng=random.Random(players), budget=SMALL)
    assert result.state.is_over


def test_plays_a_standard_game_against_itself() -> None:
    bots = [SearchBot(min_worlds=2) for _ in range(4)]
    result = play_game(Rules(player_count=4), bots, deal_rng=random.Random(2), budget=SMALL)
    assert len(result.state.results) == 13


def bidding_state(seed: int) -> GameState:
    state = new_game(Rules(player_count=4), first_dealer=3)
    for _ in range(6):  # reach the 7-card hand
        state, _ = apply(state, random_deal(state, random.Random(seed)))
        while state.phase is not Phase.DEAL:
            state, _ = (
                apply(state, Bid(min(state.to_act), 0))
                if state.phase is Phase.BID
                else (apply(state, view_for(state, min(state.to_act)).legal_actions[0]))
            )
    state, _ = apply(state, random_deal(state, random.Random(seed)))
    return state


def to_act(state: GameState) -> int:
    return min(state.to_act)


def test_same_view_seed_and_budget_give_the_same_action() -> None:
    state = bidding_state(4)
    view = view_for(state, to_act(state))
    first = SearchBot().choose(view, random.Random(9), SMALL)
    assert SearchBot().choose(view, random.Random(9), SMALL) == first


def test_decision_does_not_depend_on_cards_it_cannot_see() -> None:
    state = bidding_state(5)
    hands = state.hands
    seat = to_act(state)
    others = [s for s in range(4) if s != seat]
    order = list(range(4))
    order[others[0]], order[others[1]] = others[1], others[0]
    swapped = replace(state, hands=tuple(hands[s] for s in order))
    swapped = replace(swapped, dealt=swapped.hands)
    assert swapped != state
    assert view_for(swapped, seat) == view_for(state, seat)
    bot = SearchBot()
    assert bot.choose(view_for(state, seat), random.Random(1), SMALL) == bot.choose(
        view_for(swapped, seat), random.Random(1), SMALL
    )


def test_bid_estimate_is_a_distribution_over_legal_bids() -> None:
    view = view_for(state := bidding_state(6), to_act(state))
    estimate = SearchBot().estimate_bids(view, random.Random(0), SMALL)
    assert abs(sum(estimate.trick_probabilities) - 1) < 1e-9
    assert len(estimate.trick_probabilities) == view.hand_size + 1
    legal = {a.bid for a in view.legal_actions if isinstance(a, Bid)}
    assert set(estimate.expected_points) <= legal
    assert estimate.best == max(estimate.expected_points, key=estimate.expected_points.__getitem__)


def test_a_tiny_time_budget_still_gives_a_legal_action() -> None:
    view = view_for(state := bidding_state(7), to_act(state))
    action = SearchBot().choose(view, random.Random(0), Budget(seconds=1e-6))
    assert action in view.legal_actions


def test_make_bot_builds_the_search_bot_and_refuses_a_bad_option() -> None:
    assert isinstance(make_bot("search"), SearchBot)
    with pytest.raises(ValueError, match="may not be negative"):
        SearchBot(solve_leaves=-1)
    with pytest.raises(ValueError, match=r"bid_spread must be 0 \(no weighting\) or at least"):
        SearchBot(bid_spread=1e-300)
    for option in ("bid_spread", "policy_bonus", "boost", "bid_lean"):
        for value in (math.nan, math.inf):
            with pytest.raises(ValueError, match=f"{option} must be a finite number, got {value}"):
                SearchBot(**{option: value})
    assert SearchBot(compiled=False).compiled is False
    assert SearchBot().compiled is compiled_path.load()  # what runs, not what was asked


@pytest.mark.parametrize("compiled", [True, False])
def test_the_narrowest_bid_model_plays_whole_games(compiled: bool) -> None:
    """At the narrowest ``bid_spread`` every bid but the model's own weighs nothing: each
    world's weight is taken relative to the model's bid, not summed from terms that underflow
    to zero (a spread of 0.01 divided by zero in the first bid of every game)."""
    rules = Rules(player_count=4, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2, 5))
    for spread in (0.001, 0.01):
        bots = [SearchBot(bid_spread=spread, compiled=compiled, simulations=32)]
        result = play_game(rules, bots + [make_bot("random")] * 3, deal_rng=random.Random(1))
        assert result.state.is_over


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_search_plays_the_sensible_action(position: Position) -> None:
    """At the expert level's simulations (without its time limit, so the test is
    deterministic): the default budget leaves near-ties such as two low leads to sampling
    noise."""
    view = view_for(position.state, position.seat)
    simulations = LEVELS["expert"].budget.simulations
    action = SearchBot().choose(view, random.Random(0), Budget(simulations=simulations))
    assert action in position.good_actions, f"{position.name}: chose {action}; {position.why}"


def test_rivalry_is_set_aside_in_the_end_game_while_the_bid_can_be_made() -> None:
    """``rivalry`` trades the seat's own points for the others' misses, except with at most
    two cards left while its own bid can still be made. In the second-to-last-trick
    positions, trumping now risks the seat's own bid (its small card must then lose the last
    trick) to make a zero bidder or the leader likely miss: at 4 players the whole mean of the
    others' points (rivalry 1.0) would trump, and at 6 and 7 players even the default share
    would (more zero bids to spoil). There, every share ducks."""
    budget = Budget(simulations=5000)
    for name in (
        "second-to-last-trick-duck",
        "second-to-last-trick-duck-six-players",
        "second-to-last-trick-duck-seven-players",
    ):
        (position,) = [p for p in POSITIONS if p.name == name]
        view = view_for(position.state, position.seat)
        for rivalry in (0.0, 0.25, 1.0):
            bot = SearchBot(rivalry=rivalry)
            assert bot._rivalry_now(view) == 0.0  # one trick bid, none won, two to play
            assert bot.choose(view, random.Random(1), budget) in position.good_actions, name
    hands = ("As 3c 5c", "Qh 4c 7d", "Jh 6c 8d", "Kh 4d 9d")
    early = build_position(
        "early", hands=hands, trump_card="2s", bids=(0, 0, 0, 1), good="As", why=""
    )
    lost = build_position(  # seat 0 bid none and took the first trick: its bid is lost
        "lost",
        hands=hands,
        trump_card="2s",
        bids=(0, 0, 0, 1),
        plays="As Qh Jh Kh",
        good="3c",
        why="",
    )
    for position in (early, lost):  # three cards left; a lost bid
        assert SearchBot(rivalry=0.5)._rivalry_now(view_for(position.state, position.seat)) == 0.5
    with pytest.raises(ValueError, match="rivalry must be between 0 and 1"):
        SearchBot(rivalry=1.5)


def test_bid_lean_takes_points_per_trick_bid_from_the_choice_only() -> None:
    """``bid_lean`` leans the bid chosen toward fewer tricks; the expected points reported are
    the bids' own. With the ace of trumps as its one card the seat bids one, unless each
    trick bid costs more than the eleven points it is worth."""
    view = bidding_view(Rules(player_count=4), parse_cards("Ah"), Card.from_str("2h"), [])
    plain = SearchBot(simulations=64).estimate_bids(view, random.Random(1), Budget())
    leaning = SearchBot(simulations=64, bid_lean=12).estimate_bids(view, random.Random(1), Budget())
    assert (plain.best, leaning.best) == (1, 0)
    assert leaning.expected_points == plain.expected_points == {0: 0.0, 1: 11.0}
    with pytest.raises(ValueError, match="bid_lean must be a finite number, got nan"):
        SearchBot(bid_lean=math.nan)


def test_worlds_past_a_deadline_are_not_drawn() -> None:
    """Under a time budget the worlds' seeds are drawn a chunk at a time, so a budget of
    millions of simulations does not spend its time drawing seeds it never uses."""
    rng = random.Random(1)
    chunks = list(SearchBot._seed_chunks(rng, 10**7, deadline=0.0))  # already past
    assert [len(chunk) for chunk in chunks] == [16]
    again = random.Random(1)
    assert chunks[0] == [again.getrandbits(64) for _ in range(16)]
    assert rng.getstate() == again.getstate()  # nothing more was drawn
    whole = list(SearchBot._seed_chunks(random.Random(1), 40, deadline=None))
    chunked = list(SearchBot._seed_chunks(random.Random(1), 40, deadline=float("inf")))
    assert [seed for chunk in chunked for seed in chunk] == whole[0]  # the same worlds


def test_the_exact_solver_is_kept_small() -> None:
    with pytest.raises(ValueError, match="solve_leaves must be at most 100,000"):
        SearchBot(solve_leaves=10**30)


def test_bid_factor_must_be_positive() -> None:
    with pytest.raises(ValueError, match="bid_factor"):
        SearchBot(bid_factor=0)


def test_search_needs_no_numpy_or_numba() -> None:
    """The search bot works on a plain install: with numpy and numba unimportable it plays
    (its rollouts on :func:`ohhell.bots.fast.rollout`)."""
    code = (
        "import sys, random\n"
        "sys.modules['numpy'] = sys.modules['numba'] = None  # import them: ImportError\n"
        "from ohhell.bots import compiled\n"
        "assert not compiled.AVAILABLE\n"
        "from ohhell.bots.search import SearchBot\n"
        "from ohhell.bots import Budget\n"
        "from ohhell.engine import Rules, Schedule\n"
        "from ohhell.runner import play_game\n"
        "rules = Rules(player_count=4, schedule=Schedule.CUSTOM, custom_hand_sizes=(3,))\n"
        "bots = [SearchBot(min_worlds=2) for _ in range(4)]\n"
        "play_game(rules, bots, deal_rng=random.Random(0), budget=Budget(simulations=8))\n"
        "print(sys.modules['numpy'] is None)\n"
    )
    assert run_python(code) == "True"


def test_prior_weight_is_a_share() -> None:
    with pytest.raises(ValueError, match="prior_weight"):
        SearchBot(prior_weight=1.5)


@pytest.mark.parametrize("mismatch", [0.0, -0.5, 1.5])
def test_play_mismatch_is_a_weight_factor(mismatch: float) -> None:
    with pytest.raises(ValueError, match="play_mismatch"):
        SearchBot(play_mismatch=mismatch)


def test_play_weighted_search_is_deterministic_and_legal() -> None:
    """With play weighting off and on, the bot plays legal cards through whole hands (the
    harness refuses anything else) and repeats itself for a simulations budget."""
    rules = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(5, 4))
    for mismatch in (1.0, 0.5):
        totals = [
            play_game(
                rules,
                [SearchBot(play_mismatch=mismatch, simulations=24) for _ in range(3)],
                deal_rng=random.Random(3),
                bot_rngs=[random.Random(seat) for seat in range(3)],
            ).state.totals
            for _ in range(2)
        ]
        assert totals[0] == totals[1]


def test_the_sampler_decides_which_worlds_are_searched() -> None:
    """``sampler`` is the bot's world model: every decision builds its worlds from it. With
    the default spelled out, the decision is the default one; with a sampler that always deals
    the true hands (an oracle, as the benchmark builds it), every world is the same deal, so
    the rollouts give one number of tricks for certain."""
    from ohhell.bots.fast import mask_of
    from ohhell.bots.sampling import Knowledge, WorldSampler, knowledge

    state = bidding_state(8)
    view = view_for(state, to_act(state))
    built: list[int] = []

    def uniform(v: object) -> WorldSampler:
        assert v is view
        built.append(1)
        return WorldSampler(knowledge(view))

    default = SearchBot().choose(view, random.Random(3), SMALL)
    assert SearchBot(sampler=uniform).choose(view, random.Random(3), SMALL) == default
    assert built == [1]

    class TrueDeal(WorldSampler):
        def __init__(self, know: Knowledge) -> None:
            super().__init__(know)
            self.draws = 0

        def sample(self, rng: random.Random) -> tuple[int, ...]:
            self.draws += 1
            return tuple(mask_of(hand) for hand in state.hands)

    samplers: list[TrueDeal] = []

    def oracle(v: object) -> WorldSampler:
        samplers.append(TrueDeal(knowledge(view)))
        return samplers[-1]

    bot = SearchBot(sampler=oracle, prior_weight=0.0)
    estimate = bot.estimate_bids(view, random.Random(3), SMALL)
    assert len(samplers) == 1 and samplers[0].draws >= bot.min_worlds
    assert sorted(estimate.trick_probabilities)[-2:] == [0.0, 1.0]
    uniform_estimate = SearchBot(prior_weight=0.0).estimate_bids(view, random.Random(3), SMALL)
    assert max(uniform_estimate.trick_probabilities) < 1.0


def test_a_bid_far_from_the_estimate_is_searched_when_play_points_there() -> None:
    """In long hands the search weighs the bids near the heuristic's estimate; when playing
    for the best of them the seat most often takes a number of tricks outside them, that
    number is weighed too. Thirteen spades without trump, as the dealer: never on lead, it
    takes no trick. (The heuristic's estimate was nine when this was found, and the search bid
    8, a certain miss; the estimate is 0 now, so this checks the bid, and
    ``test_the_search_weighs_a_bid_far_from_its_estimate_when_play_points_there`` the
    weighing, with the old estimate given.)"""
    spades = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")
    dealer = bidding_view(Rules(player_count=4), spades, None, [3, 3, 3])
    for compiled in (True, False):
        bot = SearchBot(compiled=compiled)
        assert bot.choose(dealer, random.Random(1), Budget(simulations=64)) == Bid(3, 0)
        estimate = bot.estimate_bids(dealer, random.Random(1), Budget(simulations=64))
        assert estimate.best == 0 and estimate.trick_probabilities[0] >= 0.5  # blended: few worlds
        assert 0 in estimate.expected_points and 5 not in estimate.expected_points


def test_a_deadline_cut_short_never_counts_as_a_certain_outcome() -> None:
    """Every world drawn for four low clubs under spades gives no trick, and over enough
    worlds (:data:`~ohhell.bots.search.CERTAIN_AFTER`) that is taken as certain, the
    heuristic's estimate (a trick now and then) dropped. Under a time budget the deadline can
    stop the worlds after the first (the first chunk, compiled); those few are not enough,
    however many worlds the budget would have allowed."""
    from ohhell.bots.heuristic import trick_distribution

    view = bidding_view(
        Rules(player_count=4), parse_cards("2c 3c 4c 5c"), parse_cards("2s")[0], [1, 1, 1]
    )
    prior = trick_distribution(view)
    assert 0.0 < prior[1] < 0.5
    for compiled in (True, False):
        bot = SearchBot(compiled=compiled)
        certain = bot.estimate_bids(view, random.Random(1), Budget(simulations=400))
        assert certain.trick_probabilities[0] == 1.0
        cut = bot.estimate_bids(view, random.Random(1), Budget(simulations=100_000, seconds=1e-9))
        assert cut.trick_probabilities[1] == pytest.approx(bot.prior_weight * prior[1])
