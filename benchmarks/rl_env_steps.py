"""Environment steps per second under random play: our RL environments against OpenSpiel's
``oh_hell``, in the same run.

Usage::

    .venv/bin/python benchmarks/rl_env_steps.py [--seconds S] [--quick] [--json PATH]

A *step* is one decision (a bid or a card); deals happen inside the loop and their time counts.
Each runner plays uniformly random legal actions for the same wall-time budget:

``pettingzoo``
    :class:`ohhell.rl.pettingzoo_env.OhHellEnv`, full standard 4-player games (13 hands):
    ``env.last()`` (the encoded observation and action mask, as an RL loop needs) then
    ``env.step`` with a random action of the mask.
``python_ohhell``
    Our OpenSpiel game (same rules) through pyspiel: ``legal_actions`` / ``apply_action``,
    chance outcomes sampled with ``random.Random`` (one chance node per card).
``openspiel-oh_hell``
    OpenSpiel's C++ ``oh_hell`` (one hand, 4 players, trick count drawn by chance) through its
    Python API: ``legal_actions`` / ``apply_action``, chance sampled the same way.

It prints the steps per second of each and the ratios to OpenSpiel's ``oh_hell``; it measures,
it does not gate.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any, Final

try:
    import numpy as np
    import pyspiel

    import ohhell.rl.openspiel_game  # noqa: F401 - registers python_ohhell
    from ohhell.rl.pettingzoo_env import OhHellEnv
except ImportError as exc:  # pragma: no cover - only without the dev dependencies
    sys.exit(f"{exc}: install the dev extra, pip install -e '.[dev]'")

from _common import run_main, seconds_of, timed_parser, write_figures

from ohhell.engine import Rules

DEFAULT_SECONDS: Final = 5.0
QUICK_SECONDS: Final = 0.5


def run_pettingzoo(seconds: float, seed: int) -> int:
    """Steps of the PettingZoo environment within ``seconds``."""
    env = OhHellEnv(Rules(player_count=4))
    rng = np.random.default_rng(seed)
    steps, game = 0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + game)
        game += 1
        while env.agents and time.perf_counter() < deadline:
            obs, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            assert obs is not None  # last() observes unless told not to
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps


def run_openspiel(name: str, seconds: float, seed: int) -> int:
    """Decision steps of the pyspiel game ``name`` within ``seconds``."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    steps = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal() and time.perf_counter() < deadline:
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = timed_parser(__doc__, default_seconds=DEFAULT_SECONDS, quick_seconds=QUICK_SECONDS)
    args = parser.parse_args(argv)
    seconds = seconds_of(parser, args)
    runners: dict[str, Callable[[], int]] = {
        "pettingzoo": lambda: run_pettingzoo(seconds, args.seed),
        "python_ohhell": lambda: run_openspiel("python_ohhell(players=4)", seconds, args.seed),
        "openspiel-oh_hell": lambda: run_openspiel("oh_hell(players=4)", seconds, args.seed),
    }
    figures: dict[str, Any] = {"seconds": seconds, "seed": args.seed, "runners": {}}
    for name, runner in runners.items():
        start = time.perf_counter()
        steps = runner()
        elapsed = time.perf_counter() - start
        figures["runners"][name] = {"steps": steps, "steps_per_second": steps / elapsed}
        print(f"{name:>18}: {steps:>8} steps in {elapsed:5.2f}s = {steps / elapsed:10.0f} steps/s")
    reference = figures["runners"]["openspiel-oh_hell"]["steps_per_second"]
    if not reference:  # too short a time for a single step
        print("no ratio: openspiel-oh_hell took no step in the time given; give more --seconds")
        write_figures(args.json, figures)
        return 0
    for name in ("pettingzoo", "python_ohhell"):
        ratio = figures["runners"][name]["steps_per_second"] / reference
        figures["runners"][name]["ratio_to_openspiel"] = ratio
        print(f"ratio {name}/openspiel-oh_hell: {ratio:.3f}")
    write_figures(args.json, figures)
    return 0


if __name__ == "__main__":
    run_main(main)
