"""The PettingZoo AEC environment (ohhell.rl.pettingzoo_env) and the bot policy adapter."""

from __future__ import annotations

import copy
import random
import re
import subprocess
import sys
from dataclasses import replace

import pytest
from tests.conftest import in_ci, run_python
from tests.engine.test_views_leak import rearrange_hidden

if not in_ci():  # in CI a missing test dependency is an error, not a skip
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")

import numpy as np
from pettingzoo.test import api_test, seed_test

from ohhell.bots import RandomBot
from ohhell.bots.base import Budget
from ohhell.bots.heuristic import HeuristicBot
from ohhell.engine import (
    Action,
    IllegalActionError,
    PlayerView,
    Rules,
    apply,
    legal_actions,
    new_game,
    random_deal,
)
from ohhell.rl.agents import BotPolicy, default_opponent
from ohhell.rl.encoding import action_to_int
from ohhell.rl.pettingzoo_env import OhHellEnv

RULE_SETS = {
    "custom-3p": Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 3)),
    "simultaneous-4p": Rules(
        player_count=4, bidding="simultaneous", schedule="custom", custom_hand_sizes=(2, 13)
    ),
    "hook-podrida-5p": Rules(
        player_count=5, hook=True, must_trump=True, schedule="custom", custom_hand_sizes=(3, 2)
    ),
    "zero-bonus-7p": Rules(
        player_count=7, zero_bid_bonus=True, missed_bid_scores_tricks=True, schedule="descending"
    ),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(OhHellEnv(RULE_SETS[name]), num_cycles=200)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: OhHellEnv(RULE_SETS[name]), num_cycles=50)


def test_a_numpy_seed_is_a_seed() -> None:
    """Seeds often come from a NumPy generator: np.int64(3) seeds as 3 does."""
    rules = RULE_SETS[sorted(RULE_SETS)[0]]
    first, second = OhHellEnv(rules), OhHellEnv(rules)
    first.reset(seed=np.int64(3))
    second.reset(seed=3)
    assert first.agent_selection == second.agent_selection
    for agent in first.agents:
        assert np.array_equal(
            first.observe(agent)["observation"], second.observe(agent)["observation"]
        )
    with pytest.raises(TypeError):
        OhHellEnv(rules).reset(seed=3.5)  # type: ignore[arg-type]


def play_random(env: OhHellEnv, seed: int, check=None) -> dict[str, float]:
    """Play one game with random legal actions; return each agent's summed rewards."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        obs, reward, done, truncated, _ = env.last()
        returns[agent] += reward
        if check is not None:
            check(env, agent, obs)
        if done or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return returns


def test_action_mask_equals_engine_legal_actions_at_every_step() -> None:
    env = OhHellEnv(RULE_SETS["hook-podrida-5p"])

    def check(env: OhHellEnv, agent: str, obs: dict) -> None:
        state = env._state  # the test may look at the hidden state; agents never do
        if state.is_over:
            return
        seat = env.possible_agents.index(agent)
        expected = sorted(action_to_int(a) for a in legal_actions(state, seat))
        assert np.flatnonzero(obs["action_mask"]).tolist() == expected
        assert seat == min(state.to_act)

    play_random(env, seed=3, check=check)


def test_hand_rewards_sum_to_final_totals() -> None:
    rules = RULE_SETS["custom-3p"]
    env = OhHellEnv(rules)
    returns = play_random(env, seed=11)
    totals = env._state.totals
    assert [returns[a] for a in env.possible_agents] == [float(t) for t in totals]
    final = play_random(OhHellEnv(rules, reward="final"), seed=11)
    assert final == returns
    win = play_random(OhHellEnv(rules, reward="win"), seed=11)
    assert sum(win.values()) == pytest.approx(1.0)


def test_simultaneous_bids_are_sealed_until_all_are_in() -> None:
    env = OhHellEnv(RULE_SETS["simultaneous-4p"])
    env.reset(seed=2)
    first = env.agent_selection
    assert first == "seat_0"  # the lowest seat still to bid
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    second = env.agent_selection
    assert second == "seat_1"
    assert all(b is None for b in env.view(second).bids)
    assert env.view(first).bids[0] is not None
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(b is not None for b in env.view("seat_3").bids)


def test_observations_do_not_depend_on_other_seats_cards() -> None:
    """Two states that differ only in the cards of seats other than the observer give the
    observer identical observations, at the deal and after the bidding."""
    rules = Rules(player_count=4, schedule="custom", custom_hand_sizes=(5,))
    a, b = OhHellEnv(rules), OhHellEnv(rules)
    a.reset(seed=1)
    b.reset(seed=1)
    for _ in range(3):  # three seats bid; the observer is the fourth
        obs, *_ = a.last()
        action = int(np.flatnonzero(obs["action_mask"])[0])
        a.step(action)
        b.step(action)
    state = a._state  # the test swaps hidden cards; agents never see the state
    observer = min(state.to_act)
    x, y = [s for s in range(4) if s != observer][:2]
    hands = list(state.hands)
    hands[x], hands[y] = hands[y], hands[x]
    b._state = replace(state, hands=tuple(hands), dealt=tuple(hands))
    assert b._state.hands != a._state.hands
    agent = f"seat_{observer}"
    obs_a, obs_b = a.observe(agent), b.observe(agent)
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
    assert a.view(agent) == b.view(agent)


def _agent_channels(env: OhHellEnv, agent: str) -> tuple[object, ...]:
    """Everything ``env`` gives ``agent`` now: its observation, action mask and view, the
    rendered table, every agent's rewards (of the step and since it last acted), terminations,
    truncations and infos, whose turn it is, and, when ``agent`` is to act, what ``last()``
    returns and the error (type and text) of each action its mask refuses."""
    obs = env.observe(agent)
    selected: tuple[object, ...] = ()
    if env.agents and env.agent_selection == agent:
        last, reward, done, truncated, info = env.last()
        assert last is not None
        refusals = []
        for action in np.flatnonzero(obs["action_mask"] == 0) if not done else ():
            with pytest.raises(IllegalActionError) as refused:
                env.step(int(action))
            refusals.append(f"{type(refused.value).__name__}: {refused.value}")
        selected = (last["observation"].tobytes(), reward, done, truncated, info, refusals)
    return (
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        env.view(agent),
        env.render(),
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        repr(env.infos),
        env.agent_selection,
        selected,
    )


@pytest.mark.parametrize(
    ("rules", "reward"),
    [
        (
            Rules(
                player_count=4, bidding="simultaneous", schedule="custom", custom_hand_sizes=(3, 5)
            ),
            "hand",
        ),
        (
            Rules(
                player_count=5,
                hook=True,
                must_trump=True,
                schedule="custom",
                custom_hand_sizes=(4, 2),
            ),
            "win",
        ),
    ],
    ids=["simultaneous-4p", "hook-must-trump-5p"],
)
def test_no_channel_of_an_agent_changes_with_what_it_cannot_see(rules: Rules, reward: str) -> None:
    """At every decision of whole games, for every agent: the environment with all the cards
    the agent cannot see dealt again (the other seats' unplayed cards and the stock) and the
    sealed bids it cannot see made again (``rearrange_hidden``) gives it the same observation,
    mask, view, render, rewards, terminations, infos and turn, and, when it is to act, the same
    ``last()`` and the same refusal of every illegal action. Then, with only the cards dealt
    again (sealed bids are shown once the last is in), both environments take the same step
    of the agent: what it is given after (the rewards of a hand it ended, the next deal, the
    end of the game) is the same too."""
    rng = random.Random(5)
    checked = moved = bids_moved = steps = 0
    for seed in range(2):
        env = OhHellEnv(rules, reward=reward, render_mode="ansi")  # type: ignore[arg-type]
        env.reset(seed=seed)
        while env.agents:
            state = env._state  # the test rearranges the hidden state; agents never see it
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            for seat, other in enumerate(env.possible_agents):
                twin = copy.deepcopy(env)
                twin._state = rearrange_hidden(state, seat, rng)
                moved += twin._state.hands != state.hands
                bids_moved += twin._state.bids != state.bids
                assert _agent_channels(twin, other) == _agent_channels(env, other), other
                checked += 1
            seat = env.possible_agents.index(agent)
            twin = copy.deepcopy(env)
            twin._state = replace(rearrange_hidden(state, seat, rng), bids=state.bids)
            obs = env.observe(agent)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            twin.step(action)
            assert _agent_channels(twin, agent) == _agent_channels(env, agent)
            steps += 1
    assert steps > 50 and moved > checked * 9 // 10
    assert bids_moved > 5 if rules.bidding == "simultaneous" else bids_moved == 0


def test_illegal_and_malformed_actions_are_refused() -> None:
    env = OhHellEnv(RULE_SETS["custom-3p"])
    with pytest.raises(RuntimeError, match=r"step\(\) before reset\(\)"):
        env.step(0)
    env.reset(seed=0)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(999)
    with pytest.raises(ValueError, match="reward must be one of"):
        OhHellEnv(RULE_SETS["custom-3p"], reward="points")  # type: ignore[arg-type]


def test_render_shows_the_table_but_no_hand() -> None:
    env = OhHellEnv(RULE_SETS["custom-3p"], render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text is not None
    assert "hand 1 of 2" in text
    assert "holds" not in text


def test_bot_policies_play_whole_games() -> None:
    env = OhHellEnv(RULE_SETS["hook-podrida-5p"])
    env.reset(seed=9)
    policies = {
        agent: BotPolicy(default_opponent() if i == 0 else RandomBot(), env, seed=i)
        for i, agent in enumerate(env.possible_agents)
    }
    steps = 0
    while env.agents:
        agent = env.agent_selection
        obs, _, done, truncated, _ = env.last()
        env.step(None if done or truncated else policies[agent](obs, agent))
        steps += 1
    assert steps == sum(5 + 5 * size for size in (3, 2)) + 5


def test_the_pettingzoo_side_needs_no_openspiel() -> None:
    """``ohhell[rl]`` without ``open-spiel``: the env, the bot policy and the example's
    imports load (OpenSpiel is only for the OpenSpiel game)."""
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"  # an import of pyspiel now fails
        "from ohhell.rl.pettingzoo_env import OhHellEnv\n"
        "from ohhell.rl.agents import BotPolicy, default_opponent\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def _trajectory(env: OhHellEnv, seed: int | None, steps: int = 40) -> list[int]:
    env.reset(seed=seed)
    rng = random.Random(0)
    actions = []
    for _ in range(steps):
        mask = env.observe(env.agent_selection)["action_mask"]
        action = rng.choice([int(a) for a in np.flatnonzero(mask)])
        actions.append(action)
        env.step(action)
    return actions


def test_a_reset_without_a_seed_goes_on_from_the_seeded_one() -> None:
    """As in Gymnasium: a run of games is reproducible from its first seed."""
    runs = []
    for _ in range(2):
        env = OhHellEnv(Rules(player_count=3))
        runs.append([_trajectory(env, 5), _trajectory(env, None), _trajectory(env, None)])
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[0][0] and runs[0][2] != runs[0][1]  # not the same game again


def test_reset_refuses_a_negative_seed() -> None:
    env = OhHellEnv(Rules(player_count=3))
    with pytest.raises(ValueError, match="seed must be 0 or more, got -1"):
        env.reset(seed=-1)  # Random(-1) deals as Random(1)
    with pytest.raises(TypeError, match="seed must be an integer, got True"):
        env.reset(seed=True)


def test_an_action_may_be_a_zero_dimensional_array() -> None:
    env = OhHellEnv(Rules(player_count=3))
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(np.array(np.flatnonzero(mask)[0]))  # as some training libraries hand it out
    with pytest.raises(ValueError, match="an action must be an integer"):
        env.step(np.array([52]))


def test_stepping_on_after_the_game_says_it_is_over() -> None:
    """Once every agent is done and removed, ``step`` and ``last`` say so (PettingZoo's own
    code would fail on a missing key); the public view still shows the final totals."""
    env = OhHellEnv(RULE_SETS["custom-3p"])
    env.reset(seed=2)
    finals = {}
    for agent in env.agent_iter():
        obs, _, done, cut, info = env.last()
        if done or cut:
            finals[agent] = info["totals"]
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == [] and len(finals) == 3
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match=r"after the game ended.*call reset\(\)"):
            call()
    assert set(finals.values()) == {env.public_view().totals}
    env.reset(seed=3)  # and a new game starts as usual
    assert env.last()[2] is False


def test_a_shared_win_is_split_and_every_info_names_its_winners() -> None:
    """Under ``reward="win"`` equal totals share the win: 1/2 each to two winners, 0 to the
    loser; ``info["winner"]`` says who won, ``info["totals"]`` the final totals."""
    env = OhHellEnv(RULE_SETS["custom-3p"], reward="win")
    infos = {}

    def check(env: OhHellEnv, agent: str, obs: dict) -> None:
        if env.terminations[agent]:
            infos[agent] = env.infos[agent]

    returns = play_random(env, seed=8, check=check)
    assert env._state.winners == (0, 1)  # seed 8 ends in a tie (11, 11, 0)
    assert returns == {"seat_0": 0.5, "seat_1": 0.5, "seat_2": 0.0}
    assert {agent: info["winner"] for agent, info in infos.items()} == {
        "seat_0": True,
        "seat_1": True,
        "seat_2": False,
    }
    assert all(info["totals"] == (11, 11, 0) for info in infos.values())


def test_each_seed_draws_its_own_first_dealer_and_every_deal() -> None:
    """The first dealer and the deals of later hands come from the seed too, not only the
    first deal."""
    rules = RULE_SETS["custom-3p"]
    dealers, second_hands = set(), set()
    for seed in range(8):
        env = OhHellEnv(rules)
        env.reset(seed=seed)
        dealers.add(env.view("seat_0").dealer)
        rng = random.Random(0)
        while env.view("seat_0").hand_index == 0:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        second_hands.add(env.view("seat_0").hand)
    assert dealers == {0, 1, 2}
    assert len(second_hands) == 8


def test_an_illegal_action_leaves_rewards_and_the_turn_as_they_were() -> None:
    """A refused action changes nothing, not even the reward the agent has yet to collect."""
    env = OhHellEnv(RULE_SETS["custom-3p"])
    for seed in range(20):
        env.reset(seed=seed)
        while env.view("seat_0").hand_index == 0:  # play out the first hand
            obs, *_ = env.last()
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if env.last()[1] != 0.0:  # the next to act scored in the first hand
            break
    agent = env.agent_selection
    obs, reward, *_ = env.last()
    assert reward > 0
    rewards, cumulative = dict(env.rewards), dict(env._cumulative_rewards)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.agent_selection == agent
    assert env.last()[1] == reward
    assert env.rewards == rewards and env._cumulative_rewards == cumulative


def test_every_seat_observes_its_own_view_even_out_of_turn() -> None:
    """``observe(agent)`` is ``agent``'s view: its own cards, and an all-zero mask unless it is
    to act (never the acting seat's cards or mask)."""
    env = OhHellEnv(RULE_SETS["hook-podrida-5p"])
    env.reset(seed=6)
    acting = env.agent_selection
    for agent in env.possible_agents:
        obs = env.observe(agent)
        hand = np.flatnonzero(obs["observation"][:52]).tolist()
        assert hand == sorted(card.index for card in env.view(agent).hand)
        assert obs["action_mask"].any() == (agent == acting)


def test_human_render_prints_and_ansi_returns(capsys: pytest.CaptureFixture[str]) -> None:
    human = OhHellEnv(RULE_SETS["simultaneous-4p"], render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    printed = capsys.readouterr().out
    assert "hand 1 of 2" in printed
    obs, *_ = human.last()
    human.step(int(np.flatnonzero(obs["action_mask"])[0]))  # each step prints the table
    # seat 0's bid is sealed: the table shows that it has bid, not what
    assert "bids ? - - -" in capsys.readouterr().out
    ansi = OhHellEnv(RULE_SETS["simultaneous-4p"], render_mode="ansi")
    ansi.reset(seed=2)
    assert ansi.render() == printed.rstrip("\n")
    assert capsys.readouterr().out == ""


def test_a_live_agent_may_not_step_none_and_unknown_agents_are_named() -> None:
    env = OhHellEnv(RULE_SETS["custom-3p"])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="None is only for agents that are done"):
        env.step(None)
    with pytest.raises(ValueError, match="no agent 'seat_9'"):
        env.view("seat_9")


class _RecordingBot(RandomBot):
    """A random bot that notes the budget and view it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[PlayerView, Budget]] = []

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        self.calls.append((view, budget))
        return super().choose(view, rng, budget)


def test_bot_policies_are_seeded_and_pass_their_budget() -> None:
    """A policy's seed makes its bot's choices reproducible, its budget reaches the bot, and
    the bot sees the view of the agent it plays for; the default opponent is the heuristic
    bot."""
    budget = Budget(simulations=5)
    runs = []
    for _ in range(2):
        env = OhHellEnv(RULE_SETS["simultaneous-4p"])
        env.reset(seed=1)
        bot = _RecordingBot()
        policy = BotPolicy(bot, env, seed=7, budget=budget)
        actions = []
        while env.agents:
            agent = env.agent_selection
            obs, _, done, cut, _ = env.last()
            action = None if done or cut else policy(obs, agent)
            if action is not None:
                assert bot.calls[-1][0] == env.view(agent)
            actions.append(action)
            env.step(action)
        assert bot.calls and all(b is budget for _, b in bot.calls)
        runs.append(actions)
    assert runs[0] == runs[1]
    assert isinstance(default_opponent(), HeuristicBot)


@pytest.mark.parametrize("seed", [1.5, "3", np.float64(2.0), np.array([3]), [3]])
def test_a_seed_that_is_no_integer_is_named(seed: object) -> None:
    """Not operator.index's "'float' object cannot be interpreted as an integer", which does not
    say what was wrong; and the environment is left as it was."""
    env = OhHellEnv(RULE_SETS["custom-3p"])
    env.reset(seed=4)
    before = env.observe(env.agent_selection)["observation"]
    with pytest.raises(TypeError, match=r"^seed must be an integer, got "):
        env.reset(seed=seed)  # type: ignore[arg-type]
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [(1.5, TypeError, "seed must be an integer, got 1.5"), (-1, ValueError, "seed must be 0 or")],
)
def test_a_bot_policy_checks_its_seed_as_the_environment_does(
    seed: object, error: type[Exception], message: str
) -> None:
    """A float seeded the policy's bot silently, and -1 played as 1 would."""
    with pytest.raises(error, match=f"^{message}"):
        BotPolicy(RandomBot(), OhHellEnv(RULE_SETS["custom-3p"]), seed=seed)  # type: ignore[arg-type]
    assert BotPolicy(
        RandomBot(), OhHellEnv(RULE_SETS["custom-3p"]), seed=np.int64(2)
    ).rng.random() == (
        BotPolicy(RandomBot(), OhHellEnv(RULE_SETS["custom-3p"]), seed=2).rng.random()
    )


@pytest.mark.parametrize(
    ("bot", "env", "budget", "message"),
    [
        (None, True, None, "bot must be a Bot (an object with a choose method), got NoneType"),
        (RandomBot(), False, None, "env must be an OhHellEnv (its view is what the bot sees)"),
        (RandomBot(), True, 0, "budget must be a Budget or None, got 0"),  # was the default
        (RandomBot(), True, "", "budget must be a Budget or None, got ''"),
    ],
)
def test_a_bot_policy_checks_its_bot_env_and_budget_when_made(
    bot: object, env: bool, budget: object, message: str
) -> None:
    """A wrong bot or environment failed at the first decision with an AttributeError."""
    environment = OhHellEnv(RULE_SETS["custom-3p"]) if env else None
    with pytest.raises(TypeError, match=f"^{re.escape(message)}"):
        BotPolicy(bot, environment, seed=0, budget=budget)  # type: ignore[arg-type]


def test_spaces_of_an_unknown_agent_name_the_agents() -> None:
    env = OhHellEnv(RULE_SETS["custom-3p"])
    for space in (env.observation_space, env.action_space):
        with pytest.raises(ValueError, match=r"^no agent 'bogus'; agents are seat_0, "):
            space("bogus")
        with pytest.raises(ValueError, match=r"^no agent \['seat_0'\]; agents are seat_0, "):
            space(["seat_0"])  # type: ignore[arg-type]  # was "unhashable type: 'list'"
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"^no agent \['seat_0'\]; agents are seat_0, "):
        env.observe(["seat_0"])  # type: ignore[arg-type]


def test_nothing_is_observed_or_rendered_before_the_first_reset() -> None:
    """Before reset() there is no game: an observation (or a table) of a placeholder game
    dealt by seat 0 would pass for a real one."""
    env = OhHellEnv(RULE_SETS["custom-3p"], render_mode="ansi")
    calls = {
        "observe": lambda: env.observe("seat_0"),
        "render": env.render,
        "view": lambda: env.view("seat_0"),
        "public_view": env.public_view,
    }
    for method, call in calls.items():
        with pytest.raises(RuntimeError, match=rf"^{method}\(\) before reset\(\)"):
            call()
    env.reset(seed=0)
    for call in calls.values():
        call()


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("ohhell.rl.pettingzoo_env", "pettingzoo", "rl"),
        ("ohhell.rl.encoding", "numpy", "rl"),
        ("ohhell.rl.openspiel_game", "pyspiel", "openspiel"),
    ],
)
def test_without_its_extra_a_module_says_what_to_install(
    module: str, blocked: str, extra: str
) -> None:
    """Imported where a dependency is missing (here blocked in a fresh interpreter), the
    module names it and the extra that installs it, not only numpy's or PettingZoo's name."""
    shown = run_python(
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "try:\n"
        f"    import {module}\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc, exc.name)\n"
    )
    assert shown == (
        f"{blocked} is not installed; ohhell.rl needs it: pip install 'ohhell[{extra}]' {blocked}"
    )


class _DealSpy(RandomBot):
    """A bot that tries to deal its game again from a copy of its generator, as the
    environment deals from ``random.Random(seed)``, and records whether its own hand
    came out: the cards it was dealt are all it can check the guess against."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.guessed: list[bool] = []

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        if view.hand_index == 0 and not self.guessed:
            copy = random.Random()
            copy.setstate(rng.getstate())
            state = new_game(self.rules, first_dealer=copy.randrange(self.rules.player_count))
            state, _ = apply(state, random_deal(state, copy))
            assert view.seat is not None  # its first decision is a bid: its hand is whole
            self.guessed.append(set(state.hands[view.seat]) == set(view.hand))
        return super().choose(view, rng, budget)


@pytest.mark.parametrize("seed", [0, 1, 5])
def test_a_bot_policy_seeded_as_the_game_cannot_deal_it_again(seed: int) -> None:
    """The environment deals from ``random.Random(seed)``; a policy given the same number
    hands its bot a generator through a digest, so the bot cannot replay the deal (before,
    a bot seeded as its game held the deal's generator in its starting state and read every
    hand and the stock from it). The spy's check is shown to work on the deal generator."""
    rules = RULE_SETS["custom-3p"]
    env = OhHellEnv(rules)
    env.reset(seed=seed)
    spies = [_DealSpy(rules) for _ in env.possible_agents]
    policies = {
        agent: BotPolicy(spy, env, seed=seed)
        for agent, spy in zip(env.possible_agents, spies, strict=True)
    }
    while env.agents:
        agent = env.agent_selection
        obs, _, done, truncated, _ = env.last()
        env.step(None if done or truncated else policies[agent](obs, agent))
    assert [spy.guessed for spy in spies] == [[False]] * len(spies)
    # the spy's check itself: handed the deal's own generator, it finds its hand
    env.reset(seed=seed)
    spy = _DealSpy(rules)
    agent = env.agent_selection
    spy.choose(env.view(agent), random.Random(seed), Budget())
    assert spy.guessed == [True]
