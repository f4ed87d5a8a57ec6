"""Train a small bidding learner against the ``heuristic`` bot and print its learning curve.

Usage::

    .venv/bin/python examples/train_vs_heuristic.py [--episodes N] [--block B] [--seed S] [--quick]

The learner sits in seat 0 of :class:`ohhell.rl.pettingzoo_env.OhHellEnv` (3 players, a short
custom schedule). It learns only its bids: a linear model (NumPy) predicts the tricks its cards
will win from a few features of its view (hand size, trumps, high cards, void suits), trained by
stochastic gradient descent on the tricks it actually won; it bids the rounded prediction, with
some exploration. Its cards are played by the opponent bot's card play. The opponents are the
``heuristic`` bot (:func:`ohhell.rl.agents.default_opponent`). It needs the ``rl`` extra, not
OpenSpiel.

The curve is the learner's mean points per hand over each block of games, next to the
opponents' mean.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
import numpy.typing as npt

from ohhell.engine import Bid, PlayerView, Rank, Rules
from ohhell.rl.agents import BotPolicy, default_opponent
from ohhell.rl.encoding import action_to_int
from ohhell.rl.pettingzoo_env import OhHellEnv

RULES = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3, 5, 7, 5, 3))
FEATURES = 7


def features(view: PlayerView) -> npt.NDArray[np.float64]:
    """What the learner looks at: a bias, hand size, trumps, high trumps, aces, kings, voids."""
    hand = view.hand or ()
    trump = view.trump
    suits = {card.suit for card in hand}
    return np.array(
        [
            1.0,
            view.hand_size / 10,
            sum(c.suit is trump for c in hand) / 5,
            sum(c.suit is trump and c.rank >= Rank.JACK for c in hand) / 3,
            sum(c.rank == Rank.ACE for c in hand) / 2,
            sum(c.rank == Rank.KING for c in hand) / 2,
            (4 - len(suits)) / 3,
        ]
    )


class BiddingLearner:
    """Linear trick predictor; bids the rounded prediction (epsilon-greedy among legal bids)."""

    def __init__(self, rng: random.Random, epsilon: float = 0.1, rate: float = 0.05) -> None:
        self.weights = np.zeros(FEATURES)
        self.rng = rng
        self.epsilon = epsilon
        self.rate = rate

    def bid(self, view: PlayerView) -> Bid:
        legal = [a for a in view.legal_actions if isinstance(a, Bid)]
        if self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        guess = float(features(view) @ self.weights)
        return min(legal, key=lambda a: abs(a.bid - guess))

    def learn(self, x: npt.NDArray[np.float64], tricks: int) -> None:
        error = tricks - float(x @ self.weights)
        self.weights += self.rate * error * x


def play_game(
    env: OhHellEnv, learner: BiddingLearner, opponents: dict[str, BotPolicy], seed: int
) -> tuple[float, float]:
    """One game; the learner's and the opponents' mean points per hand."""
    env.reset(seed=seed)
    pending: list[npt.NDArray[np.float64]] = []
    while env.agents:
        agent = env.agent_selection
        obs, _, done, truncated, _ = env.last()
        if done or truncated:
            env.step(None)
            continue
        view = env.view(agent)
        if agent == "seat_0" and view.phase.value == "bid":
            pending.append(features(view))
            env.step(action_to_int(learner.bid(view)))
        else:
            env.step(opponents[agent](obs, agent))
    results = env.public_view().score_sheet
    for x, row in zip(pending, results, strict=True):
        learner.learn(x, row.tricks_won[0])
    hands = len(results)
    totals = results[-1].totals
    return totals[0] / hands, sum(totals[1:]) / (hands * (len(totals) - 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, help="games to play (default 600)")
    parser.add_argument("--block", type=int, help="games per curve point (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="random seed, 0 or more (default 1)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="20 games in blocks of 5 (not with --episodes, --block)",
    )
    args = parser.parse_args(argv)
    if args.quick and (args.episodes is not None or args.block is not None):
        parser.error("--quick sets the games and the blocks: give it alone, or --episodes/--block")
    episodes = 20 if args.quick else 600 if args.episodes is None else args.episodes
    block = 5 if args.quick else 100 if args.block is None else args.block
    if episodes < 1 or block < 1:
        parser.error("--episodes and --block must be positive")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, got {args.seed}")
    opponent = default_opponent()
    print(f"opponents and the learner's card play: the {opponent.name!r} bot")
    env = OhHellEnv(RULES)
    learner = BiddingLearner(random.Random(args.seed))
    opponents = {
        agent: BotPolicy(opponent, env, seed=args.seed + i)
        for i, agent in enumerate(env.possible_agents)
    }
    print("games      learner pts/hand   opponents pts/hand")
    mine: list[float] = []
    theirs: list[float] = []
    for episode in range(episodes):
        ours, others = play_game(env, learner, opponents, seed=args.seed * 100_000 + episode)
        mine.append(ours)
        theirs.append(others)
        if len(mine) == block or episode == episodes - 1:
            start = episode + 1 - len(mine)
            print(f"{start + 1:>5}-{episode + 1:<5} {np.mean(mine):12.2f} {np.mean(theirs):20.2f}")
            mine, theirs = [], []
    print("learned weights:", np.round(learner.weights, 2).tolist())
    return 0


if __name__ == "__main__":
    sys.exit(main())
