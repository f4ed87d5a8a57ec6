"""The search bot: legal in every variant, deterministic, blind to hidden cards, and sensible
on the hand-made positions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.bots.positions import POSITIONS, Position
from tests.conftest import run_python

from ohhell.bots import Budget
from ohhell.bots.levels import LEVELS, make_bot
from ohhell.bots.search import SearchBot
from ohhell.engine import (
    PRESETS,
    Bid,
    GameState,
    Phase,
    Rules,
    Schedule,
    apply,
    new_game,
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


def test_levels_build_the_search_bot() -> None:
    assert isinstance(make_bot("search"), SearchBot)
    with pytest.raises(ValueError, match="may not be negative"):
        SearchBot(solve_leaves=-1)


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_search_plays_the_sensible_action(position: Position) -> None:
    """At the expert level's simulations (without its time limit, so the test is
    deterministic): the default budget leaves near-ties such as two low leads to sampling
    noise."""
    view = view_for(position.state, position.seat)
    simulations = LEVELS["expert"].budget.simulations
    action = SearchBot().choose(view, random.Random(0), Budget(simulations=simulations))
    assert action in position.good_actions, f"{position.name}: chose {action}; {position.why}"


def test_rivalry_weighs_the_others_points_against_its_own() -> None:
    """``rivalry`` trades the seat's own points for the others' misses. In the
    second-to-last-trick position, trumping now risks the seat's own bid (its 4 of diamonds
    must then lose the last trick: it does in most worlds, not in this deal) and makes the
    leader, who bid one and has no trick yet, likely miss. Its own points alone and the
    default share of the others' points (0.25) duck; their whole mean (1.0) trumps."""
    (position,) = [p for p in POSITIONS if p.name == "second-to-last-trick-duck"]
    view = view_for(position.state, position.seat)
    budget = Budget(simulations=5000)
    choices = {
        rivalry: str(SearchBot(rivalry=rivalry).choose(view, random.Random(1), budget).card)
        for rivalry in (0.0, 0.25, 1.0)
    }
    assert choices == {0.0: "4d", 0.25: "4d", 1.0: "As"}
    with pytest.raises(ValueError, match="rivalry must be between 0 and 1"):
        SearchBot(rivalry=1.5)


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
