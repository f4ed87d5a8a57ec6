"""``ohhell tournament``: a duplicate tournament between two bots, with its reports.

Example::

    ohhell tournament --candidate heuristic --baseline random --deal-sets 100 --players 4 \\
        --seed 7 --jobs 2 --out tournament-out --save-deals deals.json

plays 100 deal sets x 4 rotations (400 games), prints the table and writes ``report.json``,
``report.csv`` and ``report.png`` into ``tournament-out`` (see :mod:`ohhell.tournament`).
Every deal set is saved to ``tournament-out/journal.jsonl`` as it finishes
(:mod:`ohhell.tournament.journal`): stopped part-way, the same command with ``--resume`` plays
only what is missing. While it runs the folder is the tournament's alone: a second tournament
into it is refused.
Two settings of one bot meet by bot spec (:mod:`ohhell.bots.levels`), e.g.
``--candidate search:rivalry=0.5 --baseline search``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import glob
import importlib.util
import os
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ohhell.bots.base import Budget
from ohhell.cli.options import (
    add_rules_arguments,
    file_arg,
    folder_arg,
    positive_int,
    positive_seconds,
    rules_from_args,
    seed_arg,
    seed_or_random,
)
from ohhell.cli.players import prepare_bots
from ohhell.cli.stopping import Stop, last_words, stopped_by_signals
from ohhell.cli.streams import StandardOutputError, say
from ohhell.engine import Rules
from ohhell.engine.jsontext import as_json
from ohhell.engine.wording import counted
from ohhell.players import PLAYER_NAMES, make_player
from ohhell.storage_files import InUseError, kind_of, remove_stale_temporaries, sole_writer
from ohhell.tournament.deals import (
    DealFileError,
    DealSets,
    generate_deal_sets,
    load_deal_sets,
    save_deal_sets,
)
from ohhell.tournament.duplicate import (
    DealSetOutcome,
    Matchup,
    TournamentError,
    check_bots,
    check_jobs,
    default_jobs,
    play_tournament,
    start_fork_server,
)
from ohhell.tournament.journal import (
    FILE_NAME,
    Journal,
    JournalError,
    JournalWriter,
    OtherTournamentError,
    check_build,
    check_same_tournament,
    journal_header,
    read_journal,
    tournament_build,
)
from ohhell.tournament.report import REPORT_FILES
from ohhell.tournament.stats import Tally, TournamentStats

if TYPE_CHECKING:
    from rich.console import Console

DEFAULT_DEAL_SETS = 100


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "tournament",
        help="play a duplicate tournament between two bots and report the results",
        description="Duplicate tournament: for each deal set the candidate plays once from"
        " every seat against copies of the baseline, on the same deals. Prints a table and"
        " writes report.json, report.csv and report.png into --out, and saves each deal set"
        f" to --out/{FILE_NAME} as it is played, so that a stopped tournament can resume.",
    )
    parser.add_argument(
        "--candidate",
        type=str.strip,  # as the reports and the journal name it
        default="heuristic",
        help=f"bot to evaluate ({', '.join(PLAYER_NAMES)}, or one of your own by where it is"
        " defined, module.Name, its module importable), with options for it if any:"
        " NAME:OPTION=VALUE:..., e.g. search:rivalry=0.5 (default: heuristic)",
    )
    parser.add_argument(
        "--baseline",
        type=str.strip,
        default="random",
        help="bot to compare against, named the same way (default: random)",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--deal-sets",
        type=positive_int,
        help="number of deal sets (default: as many as the tournament in --out, resumed or"
        f" finished, else all in --deals, else {DEFAULT_DEAL_SETS})",
    )
    parser.add_argument("--deals", type=file_arg, help="replay the deal sets of this file")
    parser.add_argument("--save-deals", type=file_arg, help="write the deal sets to this file")
    parser.add_argument(
        "--seed",
        type=seed_arg,
        help="seed of the deals and bots (default: the tournament's in --out, resumed or"
        " finished, else the --deals file's, else a secure random one)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=default_jobs(),
        help="worker processes (default: every core, here %(default)s)",
    )
    parser.add_argument(
        "--out",
        type=folder_arg,
        default=Path("tournament-out"),
        help="folder for the reports (default: ./tournament-out)",
    )
    parser.add_argument(
        "--budget-sims",
        type=positive_int,
        help="simulations per decision for the bots that search",
    )
    parser.add_argument(
        "--budget-seconds",
        type=positive_seconds,
        help="seconds per decision: alone, a time to think (search samples worlds until it is"
        " spent, or its own simulations are, when its spec sets them; ismcts keeps it by"
        " OpenSpiel's clock, which open-spiel 2.0 has; with an earlier one give it"
        " --budget-sims); with --budget-sims too, whichever runs out first (ismcts refuses"
        " both)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help=f"finish the tournament saved in --out/{FILE_NAME}: give the same options as the"
        " run that was stopped (its seed and number of deal sets are read from the journal"
        " when --seed and --deal-sets are not given); only the deal sets it does not hold are"
        " played. A larger --deal-sets extends a tournament",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the tournament in --out, its journal and reports, finished or not"
        " (without it another tournament there is refused, unless it played nothing, and the"
        " same finished one is read back: its reports are written again)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress and no table")
    parser.set_defaults(run=run)


def _bot_specs(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The two bots' specs, each with the flag that named it (for errors)."""
    return (("--candidate", args.candidate), ("--baseline", args.baseline))


def _earlier_run(path: Path, *, resume: bool, overwrite: bool = False) -> Journal | None:
    """The journal to resume (``resume``), else the finished tournament in its place, if any
    (:func:`_finished_before`). Without ``overwrite`` a new tournament does not replace an
    unfinished one, or one it cannot read: that would lose its games (one that played nothing
    may go); with it, whatever is there is replaced, as asked."""
    if resume:
        if not path.exists():
            raise JournalError(f"nothing to resume: there is no journal {path}")
        return read_journal(path)
    if overwrite or not path.exists():
        return None
    try:
        journal = read_journal(path)
    except JournalError as exc:
        raise JournalError(
            f"{exc}; --overwrite replaces it, or choose another --out, to start a new tournament"
        ) from None
    if journal.played and not journal.finished:
        raise JournalError(
            f"{path} holds an unfinished tournament ({journal.played} of"
            f" {journal.deal_sets} deal sets played): add --resume to finish it, or"
            " --overwrite to replace it, or choose another --out"
        )
    return journal if journal.played else None


def _check_foreign_reports(out: Path, journal_path: Path, *, overwrite: bool) -> None:
    """Refuse (without ``overwrite``) report files in ``out`` that no tournament there wrote:
    with no journal beside them they are someone else's, and a run replaces its reports."""
    if overwrite or journal_path.exists():
        return
    if present := [name for name in REPORT_FILES if (out / name).exists()]:
        raise TournamentError(
            f"{out} holds {', '.join(present)} but no tournament journal ({journal_path.name}),"
            " so they are not a tournament's reports there, and a tournament would replace"
            " them: choose another --out, or --overwrite replaces them"
        )


def _finished_before(journal: Journal, matchup: Matchup, deal_sets: DealSets) -> Journal:
    """A finished tournament in ``--out`` when a new one starts (without ``--overwrite``): the
    same tournament is read back (its reports are written again, nothing is played; a larger
    ``--deal-sets`` extends it); another is refused, since its games would be lost."""
    try:
        check_same_tournament(journal, matchup, deal_sets)
    except OtherTournamentError as exc:
        what = (
            "with its reports"
            if journal.tally.counted
            else "every deal set voided by a bot failure, so without reports"
        )
        raise OtherTournamentError(
            f"{exc}: it is finished, {what}; --overwrite replaces it, or choose another --out"
        ) from None
    except JournalError as exc:  # the same one, cut short
        raise JournalError(f"{exc}; --overwrite replaces it") from None
    return journal


def _budget(args: argparse.Namespace, rules: Rules) -> Budget:
    """The budget the flags give every bot; refused where a bot cannot keep it, or cannot play
    ``rules`` (:func:`~ohhell.tournament.duplicate.check_bots`, with the flags' names)."""
    try:
        budget = Budget(simulations=args.budget_sims, seconds=args.budget_seconds)
    except ValueError as exc:
        raise TournamentError(f"bad budget: {exc}") from None
    check_bots(rules, _bot_specs(args), budget, simulations="--budget-sims")
    return budget


def _same_command(args: argparse.Namespace) -> str:
    """How a stopped tournament goes on: the same command with ``--resume``, which excludes
    ``--overwrite`` (that would play it all again)."""
    if args.overwrite:
        return "the same command with --resume in place of --overwrite"
    return "the same command with --resume"


def run(args: argparse.Namespace) -> int:
    if args.resume and args.overwrite:  # go on with the tournament there, or replace it
        args.command_parser.error("--resume and --overwrite exclude each other")
    for module in ("rich", "matplotlib"):  # the tournament extra: the table and the plot
        if importlib.util.find_spec(module) is None:
            raise TournamentError(
                f"the tournament needs the 'tournament' extra ({module} is not installed):"
                " pip install 'ohhell[tournament]'"
            )
    for flag, spec in _bot_specs(args):
        try:  # a bad spec is said first: before any file is looked at
            make_player(spec)
        except ValueError as exc:
            raise TournamentError(f"{flag}: {exc}") from None
    rules = rules_from_args(args)
    budget = _budget(args, rules)  # refused before anything is written
    check_jobs(args.jobs, "--jobs")
    if args.save_deals is not None:
        for name in (FILE_NAME, *REPORT_FILES):
            # realpath, not Path.resolve: a loop of links is left as it is, not an exception
            if os.path.realpath(args.save_deals) == os.path.realpath(args.out / name):
                raise TournamentError(
                    f"--save-deals {args.save_deals} is the tournament's own {name}"
                    " in --out: choose another path"
                )
        if args.save_deals.is_dir():
            raise TournamentError(f"--save-deals {args.save_deals} is a folder: name a file")
        if args.save_deals.exists() and not args.save_deals.is_file():  # read, were it a file
            raise TournamentError(  # a pipe would wait for a writer; a device, never end
                f"--save-deals {args.save_deals} is {kind_of(args.save_deals)}: name a file"
            )
        blocked = next(  # its folders are made, as --out's are, unless a file is in the way
            (p for p in args.save_deals.parents if p.exists() or p.is_symlink()), None
        )
        if blocked is not None and not blocked.is_dir():
            raise TournamentError(
                f"--save-deals {args.save_deals}: {blocked} is {kind_of(blocked)}, not a folder"
            )
    try:
        with sole_writer(args.out):  # two tournaments writing one journal would garble it
            return _run_into(args, rules, budget)
    except InUseError:
        raise TournamentError(
            f"another ohhell command is writing to {args.out} now: wait for it to finish,"
            " or choose another --out"
        ) from None


def _save_deals(deal_sets: DealSets, path: Path) -> None:
    """``--save-deals``: write the deal sets to ``path``, which may already hold them (the same
    command run again) but nothing else: a saved deal file is what makes tournaments
    comparable, so it is never replaced."""
    refused = TournamentError(
        f"--save-deals {path} already exists and does not hold these deal sets:"
        " remove it or choose another path"
    )
    if path.is_symlink() and not path.exists():
        raise TournamentError(
            f"--save-deals {path} is a link to {os.readlink(path)}, which does not exist:"
            " remove it or choose another path"
        )

    def check_there() -> None:  # the file at path holds these deal sets, or it is refused
        try:
            there = load_deal_sets(path)
        except DealFileError:
            raise refused from None
        if there.to_json() == deal_sets.to_json():
            return
        if there.digest() == deal_sets.digest():  # the same deals, kept with another seed
            raise TournamentError(
                f"--save-deals {path} already holds these deal sets, with the seed"
                f" {as_json(there.seed)} where this run's is {deal_sets.seed}: remove it or"
                " choose another path (a deal file keeps the seed of the run that saved it)"
            )
        raise refused

    if path.parent.is_dir():  # a run killed while writing this file left its temporary file
        with contextlib.suppress(OSError):  # a folder it may not change: written below, or said
            remove_stale_temporaries(path.parent, glob.escape(path.name))  # (a live one stays)
    if path.exists():
        check_there()
        return
    made = [folder for folder in path.parents if not folder.exists()]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_deal_sets(deal_sets, path, replace=False)
    except FileExistsError:  # another process wrote it meanwhile: the same deals, perhaps
        check_there()  # (tournaments of several candidates started at once on one deal file)
    except OSError as exc:  # a full disk, a folder it may not write in
        for folder in made:  # the folders it made for the file, innermost first
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise TournamentError(
            f"--save-deals {path}: cannot write it ({exc.strerror or exc}); nothing was played"
        ) from None


class _Stopped(Exception):
    """A stopping signal ended the run; its message is said, and ``status`` is the exit
    status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _console(*, stderr: bool = False) -> Console:
    """rich's console, but for a reader gone (``ohhell tournament | head``): rich's own
    ``on_broken_pipe`` exits with 1, a bad input's status; this one raises the
    ``BrokenPipeError``, which :func:`ohhell.cli.main.main` ends with 141, as for every
    command."""
    from rich.console import Console

    class PipedConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    return PipedConsole(stderr=stderr)


def _run_into(args: argparse.Namespace, rules: Rules, budget: Budget) -> int:
    """The tournament, once its ``--out`` folder is this process's alone: the deals and the
    journal to go on from, then the games (:func:`_play`), then the reports
    (:func:`_report`)."""
    # rich and matplotlib (the tournament extra) are imported only when a tournament runs
    from ohhell.tournament.report import render_table

    for name in (FILE_NAME, *REPORT_FILES):  # a killed run's temporary files, never reported
        remove_stale_temporaries(args.out, name)
    journal_path = args.out / FILE_NAME
    _check_foreign_reports(args.out, journal_path, overwrite=args.overwrite)
    for name in REPORT_FILES:  # replaced by this run's: refused now, before anything changes
        if (path := args.out / name).exists() and not path.is_file():
            raise TournamentError(
                f"{path} is {kind_of(path)}, not a report file, and a tournament writes its"
                " report there: remove it, or choose another --out"
            )
    journal = _earlier_run(journal_path, resume=args.resume, overwrite=args.overwrite)
    # a new run next to a finished one: compared with it below, and read back if the same;
    # with --overwrite the new one replaces it, whatever it was
    finished = None if args.resume or args.overwrite else journal
    journal = journal if args.resume else None
    seed, deal_sets = _seed_and_deals(args, rules, journal or finished)
    matchup = Matchup(
        rules=rules,
        candidate=args.candidate,
        baseline=args.baseline,
        budget=budget,
        seed=seed,
    )
    if finished is not None:  # checked there to be the same tournament
        journal = _finished_before(finished, matchup, deal_sets)
    elif journal is not None:
        check_same_tournament(journal, matchup, deal_sets)
    if journal is not None:  # its bots as it names them, however this command spells them
        named = journal.header["matchup"]
        matchup = dataclasses.replace(
            matchup, candidate=named["candidate"], baseline=named["baseline"]
        )
    this_build = tournament_build()  # reckoned once: the journal's header and the report's
    build: dict[str, str] | None = this_build
    if journal is not None:
        if journal.played == len(deal_sets.sets):  # read back: the build that played it, or none
            build = journal.build
        else:  # played on: by the build that played it (a journal of no build is taken as it)
            check_build(journal, this_build)
    for flag, spec in _bot_specs(args):
        try:  # here, not in the workers: they load what this compiles from numba's disk cache
            prepare_bots(
                (spec,), "tournament", rules=rules, budget=matchup.budget, quiet=args.quiet
            )
        except ValueError as exc:
            raise TournamentError(f"{flag}: {exc}") from None
    if args.save_deals is not None:  # once nothing else can refuse the run
        # with the run's seed, which seeds the bots when the file is replayed without --seed
        _save_deals(dataclasses.replace(deal_sets, seed=seed), args.save_deals)
    total = len(deal_sets.sets)
    if journal is not None and not args.quiet:
        torn = "; a last line cut short is dropped" if journal.torn else ""
        if finished is not None and journal.played == total:  # the same one, run again
            played = counted(journal.played, "deal set")
            say(f"already played: {played} read back from {journal_path}")
        elif finished is not None:  # a larger --deal-sets: extended, as with --resume
            say(f"extending: {journal.played} of {total} deal sets played before")
        else:
            say(f"resuming: {journal.played} of {total} deal sets played before{torn}")
    try:
        tally = _play(args, matchup, deal_sets, journal_path, journal, build)
        stats, paths = _report(args, matchup, tally, journal_path, build)
    except _Stopped as stopped:
        return stopped.status
    if not args.quiet:
        console = _console()
        try:
            render_table(stats, console)
            console.print(
                f"seed {seed}; reports written: {', '.join(map(str, paths))}",
                markup=False,
                soft_wrap=True,
            )
        except StandardOutputError as exc:  # the reports are safe: say so
            raise TournamentError(
                f"cannot write to standard output ({exc.strerror}); the reports are written:"
                f" {', '.join(map(str, paths))}"
            ) from None
    return 0


def _seed_and_deals(
    args: argparse.Namespace, rules: Rules, before: Journal | None
) -> tuple[int, DealSets]:
    """The run's seed and deal sets. What the flags do not give comes from ``before`` (the run
    resumed, or the finished one in ``--out``), then the deal file (``--deals``), then the
    defaults."""
    from_file = load_deal_sets(args.deals) if args.deals is not None else None
    seed = args.seed
    if seed is None and before is not None:
        seed = before.seed
    if seed is None and from_file is not None:
        seed = from_file.seed  # the deal file's seed plays its bots as the run that saved it
    seed = seed_or_random(seed)
    count = args.deal_sets
    if count is None and before is not None:  # the tournament's, not the default's
        count = before.deal_sets
        if from_file is not None:  # a file of fewer: compared as it is, not refused for that
            held = len(from_file.sets)
            if held > count and not args.quiet:  # a file of more: played on only if asked
                say(
                    f"--deals {args.deals} holds {counted(held, 'deal set')}; the tournament in"
                    f" {args.out} is of {count}: --deal-sets {held} extends it to all of them"
                )
            count = min(count, held)
    if from_file is None:
        return seed, generate_deal_sets(rules, DEFAULT_DEAL_SETS if count is None else count, seed)
    try:
        from_file.check_fits(rules)
    except DealFileError as exc:
        players = from_file.player_count
        hint = f"--players {players}" if players != rules.player_count else "the options"
        raise DealFileError(
            f"--deals {args.deals}: {exc}: give {hint} and the rest of the rules they were"
            " dealt for"
        ) from None
    if count is not None and count > len(from_file.sets):
        raise DealFileError(
            f"--deal-sets {count}: the deal file --deals {args.deals} holds"
            f" {counted(len(from_file.sets), 'deal set')}: give at most that many, or leave"
            " --deal-sets out to play them all"
        )
    return seed, from_file if count is None else from_file.first(count)


def _play(
    args: argparse.Namespace,
    matchup: Matchup,
    deal_sets: DealSets,
    journal_path: Path,
    journal: Journal | None,
    build: dict[str, str] | None,
) -> Tally:
    """Play the deal sets the ``journal`` read back (if any) does not hold, each saved to the
    journal (whose header names ``build``: the build that played them, ``None`` where not
    known) as it finishes, with a progress bar (or, off a terminal, a line every tenth); the
    statistics of every deal set, gathered as they finish (the games are not kept, so a
    tournament of any length fits in memory). A stopping signal saves what is played and
    raises :class:`_Stopped`."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    total = len(deal_sets.sets)
    tally = Tally() if journal is None else journal.tally  # played on: its deal sets and these
    if len(tally) == total:  # read back: the journal and its reports stay as they are
        return tally
    try:  # rewritten whole, atomically: it is as it was if this fails
        header = journal_header(matchup, deal_sets, build=build)
        writer = JournalWriter(journal_path, header, journal, deal_sets=deal_sets)
    except OSError as exc:
        kept = (
            f": its {counted(len(tally), 'deal set')} played before are kept as they were"
            if tally
            else ""
        )
        raise TournamentError(
            f"cannot write the journal {journal_path} ({exc.strerror or exc}): nothing was"
            f" changed{kept}"
        ) from None
    try:
        for name in REPORT_FILES:  # they describe what the journal held before: until this
            (args.out / name).unlink(missing_ok=True)  # run writes its own, there are none
    except OSError as exc:  # a file it may not remove (checked to be files in _run_into)
        writer.close()
        kept = f" the {counted(len(tally), 'deal set')} played before are kept;" if tally else ""
        raise TournamentError(
            f"cannot remove the old report {exc.filename} ({exc.strerror or exc}):{kept} once"
            f" it can be removed, {_same_command(args)} plays the rest"
        ) from None
    errors = _console(stderr=True)
    with (
        writer,
        Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=errors,
            disable=args.quiet or not errors.is_terminal,
        ) as progress,
    ):
        task = progress.add_task(f"{matchup.candidate} vs {matchup.baseline}", total=total)
        progress.advance(task, len(tally))
        step = max(1, total // 10)
        saved = len(tally)
        voided = tally.voided

        def on_done(outcome: DealSetOutcome) -> None:
            nonlocal saved, voided
            try:
                writer.append(outcome)
            except OSError as exc:  # a full disk, say: what is on disk is kept, and resumed
                writer.close()
                on_disk = read_journal(journal_path).played  # a torn line is not
                raise TournamentError(
                    f"cannot save a deal set to {journal_path} ({exc.strerror or exc}):"
                    f" {on_disk} of {total} deal sets are saved there; once it can be written,"
                    f" {_same_command(args)} plays the rest"
                ) from None
            tally.add(outcome)
            saved += 1
            progress.advance(task)
            if outcome.failure is not None:
                voided += 1
                if not args.quiet:
                    say(f"bot failure, deal set voided: {outcome.failure.message}")
            if progress.disable and not args.quiet and (saved % step == 0 or saved == total):
                failed = f" ({voided} voided by a bot failure)" if voided else ""
                say(f"{saved}/{total} deal set{'' if total == 1 else 's'} played{failed}")

        stop = Stop()
        try:
            with (
                stopped_by_signals(stop),
                contextlib.closing(
                    play_tournament(matchup, deal_sets, jobs=args.jobs, skip=tally.indices)
                ) as played,
            ):
                if args.jobs > 1 and total - len(tally) > 1:  # played by worker processes
                    start_fork_server()  # Ctrl-C held back from it and its workers
                for outcome in played:
                    on_done(outcome)
            return tally
        except KeyboardInterrupt:
            # a second Ctrl-C would lose the line saying how to go on; a third leaves at once
            with contextlib.suppress(KeyboardInterrupt), last_words():
                progress.stop()
                writer.close()
                saved = read_journal(journal_path).played  # what is on disk, exactly
                say(
                    f"ohhell tournament: {stop.how}; {saved} of {total} deal sets are saved in"
                    f" {journal_path}: {_same_command(args)} plays the rest"
                )
            raise _Stopped(stop.exit_status) from None
        except BrokenProcessPool:  # a worker killed (out of memory, say) or crashed in C
            progress.stop()
            writer.close()
            saved = read_journal(journal_path).played
            raise TournamentError(
                "a worker process ended abruptly (killed, out of memory perhaps, or crashed):"
                f" {saved} of {total} deal sets are saved in {journal_path}:"
                f" {_same_command(args)} plays the rest"
            ) from None


def _report(
    args: argparse.Namespace,
    matchup: Matchup,
    tally: Tally,
    journal_path: Path,
    build: dict[str, str] | None,
) -> tuple[TournamentStats, list[Path]]:
    """The statistics ``tally`` gathered and the report files written in ``--out``, naming the
    ``build`` that played them (``None`` where not known). A stopping signal waits for the
    files, then raises :class:`_Stopped`."""
    from ohhell.tournament.report import write_reports  # the tournament extra: matplotlib

    total = len(tally)
    stop = Stop()
    paths: list[Path] = []
    try:  # the reports are a second or two: a stop then waits for them, so none is missing
        with stopped_by_signals(stop), stop.held():
            try:
                stats = tally.stats(matchup)
            except TournamentError as exc:  # every deal set voided: no figure to report
                raise TournamentError(
                    f"{exc}; {journal_path} records the voided deal sets: the same command with"
                    " --overwrite plays them again (with a larger budget, say)"
                ) from None
            try:
                paths = write_reports(stats, matchup, args.out, build)
            except OSError as exc:  # a full disk, say: the games are safe in the journal
                raise TournamentError(
                    f"cannot write the reports ({exc.strerror or exc}: {exc.filename});"
                    f" all {total} deal sets are saved in {journal_path}:"
                    f" {_same_command(args)} writes the reports"
                ) from None
    except KeyboardInterrupt:  # held: after the reports, unless it came before the section
        reports = (
            "the reports are written" if paths else f"{_same_command(args)} writes the reports"
        )
        say(
            f"ohhell tournament: {stop.how}; all {total} deal sets are saved in {journal_path}"
            f" and {reports}"
        )
        raise _Stopped(stop.exit_status) from None
    return stats, paths
