"""Train a small bidding learner against the ``heuristic`` bot and print its learning curve.

Usage::

    .venv/bin/python examples/train_vs_heuristic.py [--episodes N] [--eval-games E] [--seed S]
        [--quick]

The learner sits in seat 0 of :class:`ohhell.rl.pettingzoo_env.OhHellEnv` (3 players, a short
custom schedule) against two ``heuristic`` bots (:func:`ohhell.rl.agents.default_opponent`).
It learns only its bids: a linear model (NumPy) predicts the tricks its cards will win from a
few features of its observation vector (hand size, trumps, high trumps, aces, kings, void
suits; read through :class:`ohhell.rl.encoding.ObservationLayout`), trained by stochastic
gradient descent with a shrinking step size on the tricks it took (from the public score
sheet); it bids the legal bid (from the action mask) nearest the prediction, exploring a random
one a tenth of the time while it trains. Its cards are played by the ``heuristic`` bot's card
play. It needs the ``rl`` extra, not OpenSpiel.

The learning curve is measured, not read off the training games: before training and after
1, 2, 5, 10, 20, 50, 100, ... games, the learner (bidding greedily, not learning) plays the same
held-out games (``--eval-games``, dealt from seeds no training game uses, the opponents seeded
alike each time), so every point of the curve is scored on the same deals. Untrained, it bids
0 in every hand.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
import numpy.typing as npt

from ohhell.engine import Rules
from ohhell.rl.agents import BotPolicy, default_opponent
from ohhell.rl.encoding import CARD_COUNT, ObservationLayout
from ohhell.rl.pettingzoo_env import OhHellEnv
from ohhell.rl.seeding import agent_rng

RULES = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3, 5, 7, 5, 3))
LAYOUT = ObservationLayout.for_rules(RULES)
FEATURES = 7
LEARNER = "seat_0"
CHECKPOINTS = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000)
"""Games trained after which the curve is measured (and after the last game)."""


def features(observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """What the learner looks at, from its observation vector: a bias, the hand size, its
    trumps, high trumps (jack and up), aces, kings and void suits."""
    blocks = LAYOUT.views(observation)
    hand = blocks["hand"].reshape(4, 13)  # suits clubs to spades, ranks 2 to ace
    trump = int(np.argmax(blocks["trump_suit"]))  # 4: no trump
    trumps = hand[trump] if trump < 4 else np.zeros(13)
    return np.array(
        [
            1.0,
            int(np.argmax(blocks["hand_size"])) / 10,
            trumps.sum() / 5,
            trumps[9:].sum() / 3,
            hand[:, 12].sum() / 2,
            hand[:, 11].sum() / 2,
            (hand.sum(axis=1) == 0).sum() / 3,
        ]
    )


class BiddingLearner:
    """Linear trick predictor; bids the legal bid nearest its prediction (while it trains,
    a random legal bid with probability ``epsilon``). Its step size shrinks as it learns
    (``rate / (1 + hands / 100)``), so that its weights settle rather than wander."""

    def __init__(self, rng: random.Random, epsilon: float = 0.1, rate: float = 0.05) -> None:
        self.weights = np.zeros(FEATURES)
        self.rng = rng
        self.epsilon = epsilon
        self.rate = rate
        self.hands = 0

    def bid(self, x: npt.NDArray[np.float64], mask: npt.NDArray[np.int8], explore: bool) -> int:
        """The action: ``CARD_COUNT + bid``, a bid the mask allows."""
        legal = [int(b) for b in np.flatnonzero(mask[CARD_COUNT:])]
        if explore and self.rng.random() < self.epsilon:
            return CARD_COUNT + self.rng.choice(legal)
        guess = float(x @ self.weights)
        return CARD_COUNT + min(legal, key=lambda bid: abs(bid - guess))

    def learn(self, x: npt.NDArray[np.float64], tricks: int) -> None:
        """One step of stochastic gradient descent on the squared error of the prediction."""
        error = tricks - float(x @ self.weights)
        self.weights += self.rate / (1 + self.hands / 100) * error * x
        self.hands += 1


def play_game(
    env: OhHellEnv,
    learner: BiddingLearner,
    opponents: dict[str, BotPolicy],
    seed: int,
    *,
    train: bool,
) -> tuple[float, float, float]:
    """One game: the learner's and the opponents' mean points per hand, and the share of its
    bids the learner made. While training, the learner explores and learns from each hand."""
    env.reset(seed=seed)
    pending: list[npt.NDArray[np.float64]] = []
    for agent in env.agent_iter():
        obs, _, done, truncated, _ = env.last()
        if done or truncated:
            env.step(None)
        elif agent == LEARNER and obs["action_mask"][CARD_COUNT:].any():  # its bid
            pending.append(features(obs["observation"]))
            env.step(learner.bid(pending[-1], obs["action_mask"], explore=train))
        else:
            env.step(opponents[agent](obs, agent))
    results = env.public_view().score_sheet
    if train:
        for x, row in zip(pending, results, strict=True):
            learner.learn(x, row.tricks_won[0])
    hands = len(results)
    totals = results[-1].totals
    made = sum(row.bids[0] == row.tricks_won[0] for row in results) / hands
    return totals[0] / hands, sum(totals[1:]) / (hands * (len(totals) - 1)), made


def evaluate(learner: BiddingLearner, seeds: range, opponent_seed: int) -> tuple[float, ...]:
    """The learner's greedy play over the held-out games ``seeds``, against opponents seeded
    the same way every time: mean points per hand (learner, opponents) and bids made."""
    env = OhHellEnv(RULES)
    opponent = default_opponent()
    opponents = {
        agent: BotPolicy(opponent, env, seed=opponent_seed + i)
        for i, agent in enumerate(env.possible_agents)
    }
    games = [play_game(env, learner, opponents, seed, train=False) for seed in seeds]
    return tuple(float(np.mean(column)) for column in zip(*games, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, help="games to train (default 600)")
    parser.add_argument(
        "--eval-games", type=int, help="held-out games per point of the curve (default 200)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed, 0 or more (default 1)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="50 games, measured on 50 (not with --episodes, --eval-games)",
    )
    args = parser.parse_args(argv)
    if args.quick and (args.episodes is not None or args.eval_games is not None):
        parser.error("--quick sets the games: give it alone, or --episodes/--eval-games")
    episodes = 50 if args.quick else 600 if args.episodes is None else args.episodes
    eval_games = 50 if args.quick else 200 if args.eval_games is None else args.eval_games
    if not 1 <= episodes <= 1_000_000 or not 1 <= eval_games <= 1_000_000:
        parser.error("--episodes and --eval-games must be from 1 to 1,000,000")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, got {args.seed}")
    base = args.seed * 2_000_000  # training games on even seeds, held-out games on odd ones
    held_out = range(base + 1, base + 2 * eval_games, 2)
    opponent = default_opponent()
    print(f"opponents and the learner's card play: the {opponent.name!r} bot")
    print(f"each point: {eval_games} held-out games, the learner bidding greedily")
    print("games trained   learner pts/hand   opponents pts/hand   learner bids made")
    env = OhHellEnv(RULES)
    learner = BiddingLearner(agent_rng(args.seed))
    opponents = {
        agent: BotPolicy(opponent, env, seed=args.seed + i)
        for i, agent in enumerate(env.possible_agents)
    }
    points = sorted({c for c in CHECKPOINTS if c < episodes} | {episodes})
    trained = 0
    for point in points:
        while trained < point:
            play_game(env, learner, opponents, seed=base + 2 * trained, train=True)
            trained += 1
        mine, theirs, made = evaluate(learner, held_out, opponent_seed=base + 1)
        print(f"{trained:>13} {mine:18.2f} {theirs:20.2f} {made:18.1%}")
    print("learned weights:", np.round(learner.weights, 2).tolist())
    return 0


if __name__ == "__main__":
    sys.exit(main())
