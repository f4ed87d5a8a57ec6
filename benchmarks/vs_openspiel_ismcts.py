"""Our bot against OpenSpiel's C++ IS-MCTS on OpenSpiel's ``oh_hell``, in duplicate.

Usage::

    .venv/bin/python benchmarks/vs_openspiel_ismcts.py [--bot NAME] [--sims N] [--deals N]
        [--jobs N] [--seed S] [--ismcts-sees view|state] [--quick] [--json PATH]
        [--option NAME=VALUE ...] [--paired PATH] [--journal PATH]

4 players. Deal ``i`` has ``1 + i % 12`` cards per seat (OpenSpiel's hand sizes 1 to 12 for 4
players), a random dealer and a random deal. Each deal is played 4 times with the same cards,
our bot (``--bot``, a bot name or spec such as ``search:rivalry=0.5``; default ``search``) in
seat ``r`` of play ``r`` and IS-MCTS (``pyspiel.ISMCTSBot``, random-rollout evaluator, ``--sims``
simulations per decision) in the other three seats (see
:func:`ohhell.openspiel_bridge.play_duplicate_deal`).

Printed figures:

- points per deal ahead: per deal, our bot's mean score over its 4 seats minus the IS-MCTS
  seats' mean score in the same hands, averaged over deals with a 95 % confidence interval over
  deals; under OpenSpiel's scoring (its returns: ``won + 10`` exact, ``won`` otherwise) and under
  our standard scoring (``10 + won`` exact, 0 otherwise);
- bid hit rate of our bot and of IS-MCTS;
- milliseconds per decision (mean, median, p99) of both.

The issue's target for the search bot at 10,000 simulations and 2,000 deals: ahead by at least
1.5 points per deal under OpenSpiel's scoring (CI lower bound above 1.0), at least 70 % of bids
made, at most 50 ms mean per decision. The script prints PASS/FAIL per target for our bot (with
a single deal there is no confidence interval, so the lower bound is not established: FAIL),
``n/a`` for any other bot than the search bot as it ships (another ``--bot``, a spec with
options, ``--option``), against IS-MCTS at another number of simulations (``--sims``,
``--quick``) and against IS-MCTS knowing the stock (``--ismcts-sees state``, below), and exits
0 whatever the verdicts (it measures, it does not gate).

``--quick`` plays 4 deals at 20 simulations; it is not combined with ``--deals`` or ``--sims``.

For A/B runs, ``--option`` passes a :class:`~ohhell.bots.search.SearchBot` option (a number,
``true`` or ``false``; ``--bot search`` only), and the JSON keeps each deal's lead under
OpenSpiel's scoring (``leads``), so ``--paired PATH`` (an earlier run's JSON of this
benchmark, same ``--seed``: another seed, or another benchmark's JSON, is refused) prints the
paired difference over the deals both played: the same seed deals the same cards (OpenSpiel's
IS-MCTS is seeded alike but is not reproducible from its seed, so pairing removes the deals'
variance, not its own).

``--journal PATH`` saves each deal's four hands as they finish (``_common.RunJournal``): the
same command with the same path, after Ctrl-C or a kill, plays only the deals not saved there;
a larger ``--deals`` reuses those it holds. A journal of other settings (bot, options,
simulations, ``--ismcts-sees``, seed), or by another build of the engine and the bots
(``source``), is refused.

IS-MCTS sees what its seat knows (``--ismcts-sees view``, the default): each IS-MCTS seat is
:class:`~ohhell.openspiel_bridge.IsmctsBot`, which runs OpenSpiel's C++ IS-MCTS from 10
states sampled from its view, the simulations shared among them (10 searches of 1,000 at the
default 10,000: a variant of OpenSpiel's single search, needed because of the next point; see
``docs/bots.md``). ``--ismcts-sees state`` plays IS-MCTS as OpenSpiel ships it, on the true
OpenSpiel state, one search of all the simulations. OpenSpiel's ``oh_hell`` resamples worlds
by dealing the hidden *dealt* cards out again among the other players (it never brings stock
cards in, and its greedy deal breaks a shown void in about one resample of eight), so IS-MCTS
then knows which cards are in the stock: hidden information no seat has, which is why the
targets are not judged there.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict
from functools import partial
from typing import Any, Final

from _common import (
    add_ab_arguments,
    add_journal_argument,
    changed_options,
    check_bot_budget,
    code_fingerprint,
    decision_seconds,
    finite_number,
    interrupted,
    load_paired,
    microseconds,
    open_journal,
    output_path,
    paired_difference,
    refuse_same_file,
    run_main,
    search_options,
    settled,
    start_worker,
    table_lead,
    whole_number,
    write_figures,
)

from ohhell.bots import compiled as compiled_path
from ohhell.bots.base import Bot, Budget
from ohhell.bots.levels import make_bot, split_spec
from ohhell.bots.search import SearchBot
from ohhell.cli.options import seed_arg
from ohhell.engine.wording import counted
from ohhell.openspiel_bridge import (
    ISMCTS_SEES,
    MIN_ISMCTS_SIMULATIONS,
    BridgeError,
    HandOutcome,
    IsmctsBot,
    load_pyspiel,
    play_duplicate_deal,
    random_openspiel_deal,
)
from ohhell.tournament.duplicate import (
    start_fork_server,
    stop_pool,
    stops_deferred,
    worker_context,
)
from ohhell.tournament.stats import mean_ci, percentile

BENCHMARK: Final = "vs_openspiel_ismcts"
PLAYERS: Final = 4
MAX_HAND: Final = 12
DEFAULT_DEALS: Final = 2000
DEFAULT_SIMS: Final = 10_000
QUICK_DEALS: Final = 4
QUICK_SIMS: Final = 20
TARGET_AHEAD: Final = 1.5
TARGET_LOWER: Final = 1.0
TARGET_HIT_RATE: Final = 0.70
TARGET_MEAN_MS: Final = 50.0


def play_deal(
    bot: str,
    sims: int,
    seed: int,
    index: int,
    ismcts_sees: str = "view",
    options: dict[str, Any] | None = None,
) -> tuple[HandOutcome, ...]:
    """The 4 rotations of deal ``index`` (a worker task); ``options`` build the search bot."""
    rng = random.Random(f"vs-ismcts/{seed}/{index}")
    deal = random_openspiel_deal(PLAYERS, 1 + index % MAX_HAND, rng)

    def candidate() -> Bot:
        return SearchBot(**options) if options else make_bot(bot)

    return play_duplicate_deal(
        deal, candidate, simulations=sims, seed=seed * 100_003 + index, ismcts_sees=ismcts_sees
    )


def _play_indexed(
    bot: str, sims: int, seed: int, ismcts_sees: str, options: dict[str, Any], index: int
) -> tuple[int, tuple[HandOutcome, ...]]:
    return index, play_deal(bot, sims, seed, index, ismcts_sees, options)


def _record_of(hand: HandOutcome) -> dict[str, Any]:
    """One rotation of a deal as a journal record (decision times in whole microseconds)."""
    record = asdict(hand)
    record["decision_seconds"] = [microseconds(seat) for seat in hand.decision_seconds]
    return record


def _outcomes_of(records: list[dict[str, Any]]) -> tuple[HandOutcome, ...]:
    """A journal record (a deal's four hands) read back; one out of shape raises (a damaged
    line, :class:`RunJournal`)."""
    if not isinstance(records, list) or len(records) != PLAYERS:
        raise ValueError(f"a deal is {PLAYERS} hands, one from each seat")
    return tuple(_outcome_of(record) for record in records)


def _outcome_of(record: dict[str, Any]) -> HandOutcome:
    size = whole_number(record["hand_size"], 1, MAX_HAND)

    def per_seat(key: str) -> list[Any]:
        values = record[key]
        if not isinstance(values, list) or len(values) != PLAYERS:
            raise ValueError(f"{key} must have one entry per seat")
        return values

    tricks = tuple(whole_number(won, 0, size) for won in per_seat("tricks_won"))
    if sum(tricks) != size:
        raise ValueError("the tricks won must add up to the hand size")
    return HandOutcome(
        hand_size=size,
        dealer=whole_number(record["dealer"], 0, PLAYERS - 1),
        bids=tuple(whole_number(bid, 0, size) for bid in per_seat("bids")),
        tricks_won=tricks,
        openspiel_returns=tuple(map(finite_number, per_seat("openspiel_returns"))),
        standard_points=tuple(whole_number(points) for points in per_seat("standard_points")),
        decision_seconds=tuple(map(tuple, map(decision_seconds, per_seat("decision_seconds")))),
    )


def summarize(per_deal: Sequence[tuple[HandOutcome, ...]]) -> dict[str, Any]:
    """The figures of the module docstring, as a JSON-ready dict."""
    ahead_os: list[float] = []
    ahead_std: list[float] = []
    ours_hits = ours_bids = theirs_hits = theirs_bids = 0
    ours_s: list[float] = []
    theirs_s: list[float] = []
    for hands in per_deal:
        diff_os = []
        diff_std = []
        for rotation, hand in enumerate(hands):
            diff_os.append(table_lead(hand.openspiel_returns, rotation))
            diff_std.append(table_lead(hand.standard_points, rotation))
            for seat in range(PLAYERS):
                hit = int(hand.bids[seat] == hand.tricks_won[seat])
                if seat == rotation:
                    ours_hits += hit
                    ours_bids += 1
                    ours_s.extend(hand.decision_seconds[seat])
                else:
                    theirs_hits += hit
                    theirs_bids += 1
                    theirs_s.extend(hand.decision_seconds[seat])
        ahead_os.append(settled(statistics.fmean(diff_os)))
        ahead_std.append(settled(statistics.fmean(diff_std)))

    def timing(seconds: list[float]) -> dict[str, float]:
        return {
            "mean": 1000 * statistics.fmean(seconds),
            "median": 1000 * percentile(seconds, 50),
            "p99": 1000 * percentile(seconds, 99),
        }

    return {
        "deals": len(per_deal),
        "leads": {str(index): lead for index, lead in enumerate(ahead_os)},
        "ahead_openspiel_scoring": mean_ci(ahead_os).to_json(),
        "ahead_standard_scoring": mean_ci(ahead_std).to_json(),
        "bid_hit_rate": {"ours": ours_hits / ours_bids, "ismcts": theirs_hits / theirs_bids},
        "ms_per_decision": {"ours": timing(ours_s), "ismcts": timing(theirs_s)},
    }


def _ci(figure: dict[str, Any]) -> str:
    low, high = figure["ci95_low"], figure["ci95_high"]
    interval = " (no CI: 1 deal)" if low is None else f" (95 % CI {low:+.2f} to {high:+.2f})"
    return f"{figure['mean']:+.2f}{interval}"


def verdicts(figures: dict[str, Any], *, sims: int = DEFAULT_SIMS) -> dict[str, str]:
    """PASS/FAIL of our bot against the issue's targets (see the module docstring), by target
    (``ahead``, ``bids``, ``ms``); without a confidence interval (a single deal) the lower
    bound is not established, which fails. The targets are for the search bot as it ships
    (``figures["bot"]`` is ``search``, without options) against IS-MCTS at
    :data:`DEFAULT_SIMS` simulations searching from its view: for another bot, against
    another number of simulations (``--sims``, ``--quick``) or against IS-MCTS on the real
    state (``figures["ismcts_sees"]`` ``state``, knowing the stock), each is ``n/a``."""
    shipped = figures["bot"] == "search" and not changed_options(figures["options"])

    def verdict(ok: bool) -> str:
        if not shipped:
            return "n/a, not the search bot as it ships"
        if sims != DEFAULT_SIMS:
            return f"n/a (the targets are against {DEFAULT_SIMS:,} simulations, not {sims:,})"
        if figures["ismcts_sees"] != "view":
            return "n/a (IS-MCTS searched the real state, knowing the stock)"
        return "PASS" if ok else "FAIL"

    ahead = figures["ahead_openspiel_scoring"]
    low = ahead["ci95_low"]
    lower = "" if low is not None else " (no CI, so the lower bound is not established)"
    judged = shipped and sims == DEFAULT_SIMS and figures["ismcts_sees"] == "view"
    return {
        "ahead": verdict(ahead["mean"] >= TARGET_AHEAD and low is not None and low > TARGET_LOWER)
        + (lower if judged else ""),
        "bids": verdict(figures["bid_hit_rate"]["ours"] >= TARGET_HIT_RATE),
        "ms": verdict(figures["ms_per_decision"]["ours"]["mean"] <= TARGET_MEAN_MS),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", help="our bot (default: search)")
    parser.add_argument(
        "--sims",
        type=int,
        help=f"IS-MCTS simulations/decision, at least {MIN_ISMCTS_SIMULATIONS}"
        f" (default {DEFAULT_SIMS})",
    )
    parser.add_argument(
        "--deals", type=int, help=f"deals (each played 4 times; default {DEFAULT_DEALS})"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument(
        "--seed",
        type=seed_arg,
        default=2026,
        help="seed of the deals (default 2026); OpenSpiel's IS-MCTS is not reproducible from"
        " a seed, so two runs of one seed play the same deals and agree only within their noise",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_DEALS} deals, {QUICK_SIMS} sims (not with --deals or --sims)",
    )
    parser.add_argument(
        "--ismcts-sees",
        choices=ISMCTS_SEES,
        default="view",
        help="IS-MCTS searches worlds sampled from its seat's view (the default: it cannot know"
        " the stock) or the real OpenSpiel state (as OpenSpiel plays: it then knows the stock,"
        " and the targets are not judged)",
    )
    parser.add_argument("--json", type=output_path, help="also write the figures to this JSON file")
    add_journal_argument(parser, "deal")
    add_ab_arguments(parser, "deals")
    args = parser.parse_args(argv)
    for flag, value in (("--deals", args.deals), ("--sims", args.sims)):
        if args.quick and value is not None:
            parser.error(f"argument --quick: not allowed with argument {flag}")
    if args.quick:
        deals, sims = QUICK_DEALS, QUICK_SIMS
    else:
        deals = DEFAULT_DEALS if args.deals is None else args.deals
        sims = DEFAULT_SIMS if args.sims is None else args.sims
    if deals < 1:
        parser.error(f"--deals must be at least 1, got {deals}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    if sims < MIN_ISMCTS_SIMULATIONS:
        parser.error("--sims must be at least 2 (IS-MCTS needs two simulations)")
    bot = args.bot or "search"
    searching = split_spec(bot)[0] == "search"
    compiled = compiled_path.load() if searching else None  # before the clock starts
    if args.option and bot != "search":
        parser.error("--option applies to --bot search only")
    options = search_options(parser, args.option)
    try:  # build our bot once, as each deal does, so a bad --bot or budget fails here
        ours = SearchBot(**options) if options else make_bot(bot)
    except ValueError as exc:
        parser.error(f"--bot: {exc}")
    check_bot_budget(parser, "--option" if options else "--bot", ours)
    refuse_same_file(parser, json=args.json, journal=args.journal, paired=args.paired)
    earlier = load_paired(
        parser,
        args.paired,
        "leads",
        {str(i) for i in range(deals)},
        "deal",
        benchmark=BENCHMARK,
        settings={"seed": args.seed},
        opponents={"ismcts_simulations": sims, "ismcts_sees": args.ismcts_sees},
    )
    try:
        load_pyspiel()
    except BridgeError as exc:
        sys.exit(str(exc))
    check_bot_budget(parser, "--sims", IsmctsBot(), Budget(simulations=sims))
    settings = {
        "source": code_fingerprint(__file__),
        "bot": bot,
        "options": options,
        "ismcts_simulations": sims,
        "ismcts_sees": args.ismcts_sees,
        "seed": args.seed,
    }
    with open_journal(parser, args.journal, BENCHMARK, settings, _outcomes_of, "deal") as journal:
        done = {
            i: _outcomes_of(journal.done[str(i)]) for i in range(deals) if str(i) in journal.done
        }
        todo = [i for i in range(deals) if i not in done]
        start = time.perf_counter()

        def finished(index: int, hands: tuple[HandOutcome, ...]) -> None:
            journal.add(str(index), [_record_of(hand) for hand in hands])
            done[index] = hands

        task = partial(_play_indexed, bot, sims, args.seed, args.ismcts_sees, options)
        try:
            if args.jobs == 1 or len(todo) <= 1:
                for index in todo:
                    finished(*task(index))
            else:
                start_fork_server()  # Ctrl-C held back from it and its workers
                pool = ProcessPoolExecutor(
                    max_workers=min(args.jobs, len(todo)),
                    mp_context=worker_context(),
                    initializer=start_worker,
                )
                try:
                    with stops_deferred():  # the submissions start the workers: none unknown
                        futures = [pool.submit(task, index) for index in todo]
                    for future in as_completed(futures):
                        finished(*future.result())
                except BaseException:  # Ctrl-C: play nothing more; what is saved stays
                    stop_pool(pool)
                    raise
                pool.shutdown()
        except KeyboardInterrupt:
            return interrupted(journal, "deal")
        per_deal = [done[i] for i in range(deals)]
    figures = {
        "benchmark": BENCHMARK,
        "bot": bot,
        "options": options,
        "ismcts_simulations": sims,
        "ismcts_sees": args.ismcts_sees,
        "seed": args.seed,
        "jobs": args.jobs,
        "compiled": compiled,
        "wall_seconds": time.perf_counter() - start,
        "from_journal": deals - len(todo),
        **summarize(per_deal),
    }
    searched = "the real state" if args.ismcts_sees == "state" else "worlds from its view"
    named = bot + "".join(f", {k}={v:g}" for k, v in options.items())
    print(
        f"{named} vs OpenSpiel IS-MCTS ({sims} simulations, searching {searched}),"
        f" {PLAYERS} players, hand sizes"
        f" 1-{min(deals, MAX_HAND)}, {counted(deals, 'deal')} x {PLAYERS} seats,"
        f" {figures['wall_seconds']:.1f} s"
        + (", numba not loaded: our search in pure Python" if compiled is False else "")
    )
    judged = verdicts(figures, sims=sims)
    print(
        f"points per deal ahead, OpenSpiel scoring: {_ci(figures['ahead_openspiel_scoring'])}"
        f" target >= {TARGET_AHEAD:+g}, CI lower bound > {TARGET_LOWER:+g}: {judged['ahead']}"
    )
    print(f"points per deal ahead, standard scoring:  {_ci(figures['ahead_standard_scoring'])}")
    hits = figures["bid_hit_rate"]
    print(
        f"bids made: {bot} {100 * hits['ours']:.1f} %, IS-MCTS {100 * hits['ismcts']:.1f} %"
        f" target >= {100 * TARGET_HIT_RATE:g} %: {judged['bids']}"
    )
    for who, ms in figures["ms_per_decision"].items():
        target = f" target mean <= {TARGET_MEAN_MS:g}: {judged['ms']}" if who == "ours" else ""
        print(
            f"ms per decision, {who}: mean {ms['mean']:.2f}, median {ms['median']:.2f},"
            f" p99 {ms['p99']:.2f}{target}"
        )
    if args.ismcts_sees == "state":
        print(
            "note: IS-MCTS searched the real OpenSpiel state, so it knew which cards are in the"
            " stock (these figures favour it); --ismcts-sees view restricts it to its seat's view"
        )
    if args.paired is not None:
        mean, half, count = paired_difference(figures["leads"], earlier)
        interval = "no CI" if count < 2 else f"95 % CI {mean - half:+.2f} to {mean + half:+.2f}"
        print(
            f"paired against {args.paired}: {mean:+.2f} points per deal, OpenSpiel scoring"
            f" ({interval}) over {counted(count, 'deal')}"
        )
    if args.journal is not None:
        print(journal.summary(figures["from_journal"], deals))
    write_figures(args.json, figures)
    return 0


if __name__ == "__main__":
    run_main(main)
