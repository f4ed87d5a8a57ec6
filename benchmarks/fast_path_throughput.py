"""Random-hand throughput of the fast path against OpenSpiel's C++ ``evaluate_bots``.

Usage::

    .venv/bin/python benchmarks/fast_path_throughput.py [--seconds S | --quick] [--batch N]
        [--json PATH]

4 players, 12 cards, uniformly random legal bids (with OpenSpiel's hook) and cards, a trump
turned. Four runners, each for the same wall-time budget, in the same run:

``fast-numba``
    :func:`ohhell.bots.compiled.random_hands`: batches of ``--batch`` hands, each played on
    the compiled kernels the search bot runs (its legal cards, trick winner and random
    stream; the hands replayed on the reference engine by ``tests/bots/test_compiled.py``).
    Without numba the kernels run as plain Python, and the figure says so.
``fast-numpy``
    :func:`ohhell.bots.batch.random_hands`: batches of ``--batch`` hands played in lockstep
    with numpy (deal, bids, every play; ``--quick`` plays batches of 1,000 and is not combined
    with ``--batch``).
``fast-int``
    :class:`ohhell.bots.fast.HandSim` (the int-mask engine search uses), one hand at a time,
    random legal bids and cards from ``random.Random``.
``openspiel-cpp``
    ``pyspiel.evaluate_bots`` with a uniform random bot per seat on
    ``oh_hell(players=4, num_tricks_fixed=12)``: the whole loop in C++.

The issue's target: the fast path >= 1x OpenSpiel C++, aiming at 3x. The fast path is the
fastest of the three runners above (the verdict names it): the search bot's own, compiled
with numba, where numba is installed. The script prints PASS/FAIL and exits 0 whatever the
verdict.

Then the search bot's own simulations: rollouts (every seat playing the rollout policy to the
end of a hand from its first card, 4 players, 12 cards, random hook-legal bids, spoiler on) on
the same positions, for the same wall time each, with ``rollout-int``
(:func:`ohhell.bots.fast.rollout`, pure Python) and ``rollout-numba``
(:func:`ohhell.bots.compiled.rollout`, compiled: loading or compiling the kernels,
:func:`ohhell.bots.compiled.load`, is not timed). The search uses the faster: numba when it is
installed.

Last, the rest of a search decision's work, per call, in Python and compiled, on positions
drawn from the same hands: ``solve`` (the exact max^n values of the seat to act's cards with two
cards left each), ``bid-weight`` (how likely the four bids were in the dealt world:
:func:`ohhell.bots.sampling.calibrated_bid_likelihood`) and ``play-weight`` (how likely the
first 24 plays were under the rollout policy: :func:`ohhell.bots.fast.play_likelihood`).

And whole decisions: the search bot's card decisions at its default simulations, on the
positions of hands of the same size played by ``heuristic`` bots, three ways: ``python`` (the
loop over worlds and every piece in Python, as without numba), ``pieces-numba`` (the loop in
Python around the compiled pieces above) and ``decision-numba`` (the whole loop one compiled
call: :func:`ohhell.bots.compiled.card_worlds`, what the search runs when numba is installed).
"""

from __future__ import annotations

import importlib.metadata
import itertools
import platform
import random
import sys
from collections.abc import Callable
from typing import Any, Final

import numpy as np
from _common import cpp_seeds, interleaved, run_main, seconds_of, timed, timed_parser, write_figures

from ohhell.bots import Budget, compiled, fast, sampling
from ohhell.bots.batch import random_hands
from ohhell.bots.fast import HandSim, cards_of, rollout
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.sampling import Knowledge, WorldSampler, knowledge
from ohhell.bots.search import DEFAULT_SIMULATIONS, SearchBot
from ohhell.engine import Phase, PlayerView, Rules, Schedule, apply, new_game, random_deal, view_for

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised only without the dev dependencies
    sys.exit("open-spiel is not installed: pip install -e '.[dev]'")


PLAYERS: Final = 4
HAND_SIZE: Final = 12
TARGET_RATIO: Final = 1.0
AIM_RATIO: Final = 3.0
DEFAULT_SECONDS: Final = 5.0
QUICK_SECONDS: Final = 0.5
DEFAULT_BATCH: Final = 10_000
QUICK_BATCH: Final = 1000
MAX_BATCH: Final = 1_000_000
"""The largest ``--batch``: numpy holds about 1.2 KB per hand of a batch at its peak (1.2 GB
here; a batch of 100,000 ran in 190 MB)."""
ROLLOUT_POSITIONS: Final = 1000
FAST_RUNNERS: Final = ("fast-numba", "fast-numpy", "fast-int")
"""The fast path's runners: the verdict rests on the fastest."""


def deal_int_hand(rng: random.Random) -> HandSim:
    """A random hand's start on the int-mask engine: deal, random hook-legal bids, a trump."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(4)]
    dealer = rng.randrange(PLAYERS)
    bids = [0] * PLAYERS
    total = 0
    for i in range(PLAYERS):
        seat = (dealer + 1 + i) % PLAYERS
        options = [b for b in range(HAND_SIZE + 1) if i < PLAYERS - 1 or b + total != HAND_SIZE]
        bids[seat] = rng.choice(options)
        total += bids[seat]
    return HandSim(
        hands=hands,
        trump=deck[PLAYERS * HAND_SIZE] // 13,
        must_trump=False,
        leader=(dealer + 1) % PLAYERS,
        won=[0] * PLAYERS,
        bids=bids,
    )


def play_int_hand(rng: random.Random) -> None:
    """One random hand on the int-mask engine: deal, random hook-legal bids, random cards."""
    sim = deal_int_hand(rng)
    for _ in range(PLAYERS * HAND_SIZE):
        sim.play(rng.choice(cards_of(sim.legal())))


def run(seconds: float, seed: int, batch: int) -> dict[str, Any]:
    """Time the four runners for ``seconds`` each, then the rollouts, the kernels and the
    search's decisions: the figures, ready for JSON."""
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": HAND_SIZE})
    bots = [
        pyspiel.make_uniform_random_bot(seat, bot_seed)
        for seat, bot_seed in enumerate(itertools.islice(cpp_seeds(seed), PLAYERS))
    ]
    game_seeds = cpp_seeds(seed)
    np_rng = np.random.default_rng(seed)
    int_rng = random.Random(seed)
    numba = compiled.load()  # load (or compile) the kernels, untimed: false without numba
    numba_seeds = itertools.count(seed * 1_000_003)

    def play_numba() -> int:
        compiled.random_hands(
            batch, players=PLAYERS, hand_size=HAND_SIZE, hook=True, seed=next(numba_seeds)
        )
        return batch

    def play_numpy() -> int:
        random_hands(np_rng, batch, players=PLAYERS, hand_size=HAND_SIZE, hook=True)
        return batch

    def play_int() -> int:
        play_int_hand(int_rng)
        return 1

    def play_cpp() -> int:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, next(game_seeds))
        return 1

    runners: dict[str, Callable[[], int]] = {
        "fast-numba": play_numba,
        "fast-numpy": play_numpy,
        "fast-int": play_int,
        "openspiel-cpp": play_cpp,
    }
    results = interleaved(runners, seconds)  # in turns: the ratios are fair
    cpp = results["openspiel-cpp"]["hands_per_second"]
    starts = [deal_int_hand(int_rng) for _ in range(ROLLOUT_POSITIONS)]
    rollouts: dict[str, dict[str, float]] = {}
    for name, run_one in (("rollout-int", rollout), ("rollout-numba", compiled.rollout)):
        positions = itertools.cycle(starts)

        def play_rollout(run_one: Any = run_one, positions: Any = positions) -> int:
            run_one(next(positions).copy(), lost=fast.LOST_SPOIL)
            return 1

        count, elapsed = timed(play_rollout, seconds)
        rollouts[name] = {
            "rollouts": count,
            "seconds": elapsed,
            "microseconds_per_rollout": 1e6 * elapsed / count,
        }
    kernels = time_kernels(starts, seconds)
    decisions = time_decisions(card_views(seed), seconds)
    fastest = max(FAST_RUNNERS, key=lambda name: results[name]["hands_per_second"])
    ratio = results[fastest]["hands_per_second"]
    return {
        "players": PLAYERS,
        "hand_size": HAND_SIZE,
        "batch": batch,
        "seconds_per_runner": seconds,
        "seed": seed,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "open_spiel": importlib.metadata.version("open-spiel"),
        "runners": results,
        "ratio_numba_vs_cpp": results["fast-numba"]["hands_per_second"] / cpp,
        "ratio_numpy_vs_cpp": results["fast-numpy"]["hands_per_second"] / cpp,
        "ratio_int_vs_cpp": results["fast-int"]["hands_per_second"] / cpp,
        "ratio_best_vs_cpp": ratio / cpp,
        "fast_path": fastest,
        "passed": ratio / cpp >= TARGET_RATIO,
        "numba": importlib.metadata.version("numba") if numba else None,
        "rollouts": rollouts,
        "rollout_speedup_numba_vs_int": rollouts["rollout-int"]["microseconds_per_rollout"]
        / rollouts["rollout-numba"]["microseconds_per_rollout"],
        "kernels": kernels,
        "decisions": decisions,
    }


KernelCall = Callable[[HandSim], object]


def kernel_calls(sim: HandSim) -> dict[str, tuple[KernelCall, KernelCall]]:
    """Per kernel, its Python and compiled calls on the hand that starts at ``sim``."""
    plays: list[int] = []
    end = sim.copy()
    while sum(h.bit_count() for h in end.hands) > 2 * PLAYERS:
        plays.append(fast.rollout_card(end, lost=fast.LOST_SPOIL))
        end.play(plays[-1])
    scores = [[t * 2 - 1 for t in range(HAND_SIZE + 1)] for _ in range(PLAYERS)]
    know = Knowledge(
        seat=0, own=sim.hands[0], unseen=0, counts=(HAND_SIZE,) * PLAYERS,
        voids=(0,) * PLAYERS, played=(0,) * PLAYERS, stock_count=0,
    )  # fmt: skip
    trump_card = 13 * sim.trump  # the turned card: the two of trumps will do for timing
    seen = plays[: 2 * 12]
    return {
        "solve": (
            lambda _: fast.solve(end.copy(), end.to_act, scores),
            lambda _: compiled.solve(end, end.to_act, scores),
        ),
        "bid-weight": (
            lambda s: sampling.calibrated_bid_likelihood(know, s.hands, s.bids, trump_card, 1),
            lambda s: compiled.calibrated_bid_likelihood(know, s.hands, s.bids, trump_card, 1),
        ),
        "play-weight": (
            lambda s: fast.play_likelihood(s.copy(), seen, 0, 0.75, lost=fast.LOST_SPOIL),
            lambda s: compiled.play_likelihood(s, seen, 0, 0.75, lost=fast.LOST_SPOIL),
        ),
    }


def time_kernels(starts: list[HandSim], seconds: float) -> dict[str, dict[str, float]]:
    """Microseconds per call of each kernel in Python and compiled, cycling over ``starts``."""
    calls = [(start, kernel_calls(start)) for start in starts[:200]]
    out: dict[str, dict[str, float]] = {}
    for name in calls[0][1]:
        row: dict[str, float] = {}
        for which, label in ((0, "python"), (1, "numba")):
            cycle = itertools.cycle(calls)

            def call_once(cycle: Any = cycle, name: str = name, which: int = which) -> int:
                start, table = next(cycle)
                table[name][which](start)
                return 1

            count, elapsed = timed(call_once, seconds / 3)
            row[f"{label}_us"] = 1e6 * elapsed / count
        row["speedup"] = row["python_us"] / row["numba_us"]
        out[name] = row
    return out


class PythonLoop(WorldSampler):
    """The uniform sampler under another name: a search given it runs its loop over worlds in
    Python (it compiles the loop only around its own default sampler)."""


def card_views(seed: int, hands: int = 4) -> list[PlayerView]:
    """Every card decision with a choice in ``hands`` hands of :data:`HAND_SIZE` cards played
    by four ``heuristic`` bots: the seat's view."""
    rules = Rules(player_count=PLAYERS, schedule=Schedule.CUSTOM, custom_hand_sizes=(HAND_SIZE,))
    rng = random.Random(seed)
    bot = HeuristicBot()
    views: list[PlayerView] = []
    for _ in range(hands):
        state = new_game(rules, first_dealer=rng.randrange(PLAYERS))
        while not state.is_over:
            if state.is_chance:
                state, _ = apply(state, random_deal(state, rng))
                continue
            view = view_for(state, min(state.to_act))
            if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
                views.append(view)
            state, _ = apply(state, bot.choose(view, rng, Budget()))
    return views


def time_decisions(views: list[PlayerView], seconds: float) -> dict[str, dict[str, float]]:
    """Milliseconds per card decision of the search bot (default simulations), cycling over
    ``views``: every piece in Python, the pieces compiled, the whole decision compiled."""
    bots = {
        "python": SearchBot(compiled=False),
        "pieces-numba": SearchBot(sampler=lambda view: PythonLoop(knowledge(view))),
        "decision-numba": SearchBot(),
    }
    out: dict[str, dict[str, float]] = {}
    for name, bot in bots.items():
        cycle = itertools.cycle(views)
        rng = random.Random(1)

        def decide(bot: SearchBot = bot, cycle: Any = cycle, rng: random.Random = rng) -> int:
            bot.choose(next(cycle), rng, Budget())
            return 1

        count, elapsed = timed(decide, seconds)
        out[name] = {"decisions": count, "ms_per_decision": 1e3 * elapsed / count}
    for row in out.values():
        row["speedup_vs_python"] = out["python"]["ms_per_decision"] / row["ms_per_decision"]
    return out


def report(figures: dict[str, Any]) -> str:
    """The figures as a table and the ratio lines."""
    lines = [
        f"Random complete hands, {figures['players']} players x {figures['hand_size']} cards,"
        f" {figures['seconds_per_runner']:g} s per runner, batches of {figures['batch']}"
        f" (Python {figures['python']}, numpy {figures['numpy']},"
        f" open-spiel {figures['open_spiel']})",
        "",
        f"{'runner':<14} {'hands':>9} {'seconds':>8} {'hands/s':>11}",
    ]
    for name, row in figures["runners"].items():
        lines.append(
            f"{name:<14} {row['hands']:>9} {row['seconds']:>8.2f} {row['hands_per_second']:>11.1f}"
        )
    verdict = "PASS" if figures["passed"] else "FAIL"
    lines += [
        "",
        f"ratio fast-numba/OpenSpiel-C++: {figures['ratio_numba_vs_cpp']:.2f}x"
        + ("" if figures["numba"] else " (numba not installed: plain Python)"),
        f"ratio fast-numpy/OpenSpiel-C++: {figures['ratio_numpy_vs_cpp']:.2f}x",
        f"ratio fast-int/OpenSpiel-C++:   {figures['ratio_int_vs_cpp']:.3f}x",
        f"ratio fast path ({figures['fast_path']})/OpenSpiel-C++:"
        f" {figures['ratio_best_vs_cpp']:.2f}x (target >= {TARGET_RATIO:g}x, aim"
        f" {AIM_RATIO:g}x: {verdict})",
        "",
        "Search rollouts (policy play of a whole hand, same positions), numba"
        f" {figures['numba'] or 'not installed: the kernels ran as plain Python'}",
        f"{'runner':<14} {'rollouts':>9} {'seconds':>8} {'us/rollout':>11}",
    ]
    for name, row in figures["rollouts"].items():
        lines.append(
            f"{name:<14} {row['rollouts']:>9} {row['seconds']:>8.2f}"
            f" {row['microseconds_per_rollout']:>11.1f}"
        )
    lines.append(f"ratio rollout-numba/rollout-int: {figures['rollout_speedup_numba_vs_int']:.2f}x")
    lines += [
        "",
        "The rest of a search decision's work, per call",
        f"{'kernel':<14} {'python us':>10} {'numba us':>9} {'speedup':>8}",
    ]
    for name, row in figures["kernels"].items():
        lines.append(
            f"{name:<14} {row['python_us']:>10.1f} {row['numba_us']:>9.1f} {row['speedup']:>7.1f}x"
        )
    lines += [
        "",
        f"Search card decisions ({DEFAULT_SIMULATIONS} simulations), {HAND_SIZE}-card hands",
        f"{'runner':<15} {'decisions':>9} {'ms/decision':>12} {'speedup':>8}",
    ]
    for name, row in figures["decisions"].items():
        lines.append(
            f"{name:<15} {row['decisions']:>9} {row['ms_per_decision']:>12.2f}"
            f" {row['speedup_vs_python']:>7.1f}x"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run the benchmark, print the table, write JSON if asked."""
    parser = timed_parser(__doc__, default_seconds=DEFAULT_SECONDS, quick_seconds=QUICK_SECONDS)
    parser.add_argument(
        "--batch",
        type=int,
        help=f"numpy batch (default {DEFAULT_BATCH}; --quick: {QUICK_BATCH}, not with --batch)",
    )
    args = parser.parse_args(argv)
    if args.quick and args.batch is not None:
        parser.error("argument --quick: not allowed with argument --batch")
    seconds = seconds_of(parser, args)
    batch = args.batch
    if batch is None:
        batch = QUICK_BATCH if args.quick else DEFAULT_BATCH
    if not 1 <= batch <= MAX_BATCH:
        parser.error(
            f"--batch must be from 1 to {MAX_BATCH:,} (numpy holds about 1.2 KB per hand of"
            f" a batch), got {batch:,}"
        )
    figures = run(seconds, args.seed, batch)
    print(report(figures))
    write_figures(args.json, figures)
    return 0


if __name__ == "__main__":
    run_main(main)
