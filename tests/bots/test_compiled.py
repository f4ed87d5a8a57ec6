"""Differential test: the numba-compiled rollouts (:mod:`ohhell.bots.compiled`) against the
int-mask ones (:func:`ohhell.bots.fast.rollout`), and the search bot playing the same cards
with either.

The kernels are compiled here when numba is installed (``compiled.load()``); without it they
run as plain Python, so the comparison holds on any install. Under ``CI=true`` numba must be
installed, so CI checks the compiled code."""

from __future__ import annotations

import random

import pytest
from tests.bots.test_fast_path import VARIANTS, random_position, sim_from_state
from tests.conftest import require, run_python

from ohhell.bots import Budget, compiled
from ohhell.bots.fast import rollout
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.search import SearchBot
from ohhell.engine import Rules, apply, new_game, random_deal, view_for


def test_compiled_kernels_load() -> None:
    require("numba")  # skips without numba, except under CI=true, where it fails
    assert compiled.AVAILABLE
    assert compiled.load()
    assert compiled.load()  # once loaded, stays loaded


def test_importing_the_bots_or_the_cli_does_not_import_numba() -> None:
    """numba is loaded when a search bot is built, not when the CLI starts (it costs 0.3 s)."""
    code = (
        "import sys\n"
        "import ohhell.cli.main, ohhell.bots.search, ohhell.bots.levels\n"
        "print('numba' in sys.modules)\n"
    )
    assert run_python(code) == "False"


@pytest.mark.parametrize("spoil", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_rollout_takes_the_same_tricks(
    variant: tuple[int, bool, bool, bool], spoil: bool
) -> None:
    """On random positions of every variant that changes play (3-7 players, trump or none, La
    Podrida, the hook; random bids, so many are lost and the spoiler plays), before and inside
    tricks: the same tricks won per seat, and the position left as it was."""
    compiled.load()  # compiled where numba is installed, else the kernels as plain Python
    rng = random.Random(hash((variant, spoil)) & 0xFFFF)
    for _ in range(25):
        sim = sim_from_state(random_position(rng, variant))
        before = (list(sim.hands), list(sim.trick), list(sim.won), sim.leader)
        won = compiled.rollout(sim, spoil=spoil)
        assert (sim.hands, sim.trick, sim.won, sim.leader) == before
        assert won == rollout(sim.copy(), spoil=spoil)


def test_search_plays_the_same_compiled_or_not() -> None:
    """Same view, same seed: the same bid or card with the compiled rollouts and without."""
    rules = Rules(player_count=4)
    rng = random.Random(5)
    state = new_game(rules, first_dealer=1)
    budget = Budget(simulations=40)
    heuristic = HeuristicBot()
    compared = 0
    while not state.is_over and compared < 40:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
            continue
        seat = min(state.to_act)
        view = view_for(state, seat)
        if len(view.legal_actions) > 1:
            seed = rng.randrange(2**32)
            fast = SearchBot(compiled=True).choose(view, random.Random(seed), budget)
            slow = SearchBot(compiled=False).choose(view, random.Random(seed), budget)
            assert fast == slow
            compared += 1
        state, _ = apply(state, heuristic.choose(view, rng, budget))
    assert compared == 40
