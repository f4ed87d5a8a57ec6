"""What the benchmarks share: the timed ones' command line, where figures go, a seat's lead at
its table, the A/B runs' ``--option`` (search bot options) and ``--paired`` (an earlier run's
JSON, compared unit by unit), and the long runs' ``--journal`` (:class:`RunJournal`)."""

from __future__ import annotations

import argparse
import contextlib
import inspect
import itertools
import json
import math
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Final, NoReturn

from ohhell import provenance
from ohhell.bots import Bot, Budget, check_budget
from ohhell.bots.levels import bot_options
from ohhell.bots.search import SearchBot
from ohhell.cli.main import reader_gone
from ohhell.cli.options import seed_arg
from ohhell.players import same_player
from ohhell.provenance import RESULT_SOURCES
from ohhell.storage_files import (
    InUseError,
    append_json_line,
    complete_lines,
    forget_held,
    hold_in_process,
    json_line,
    release_inherited_locks,
    write_atomic,
)
from ohhell.tournament.duplicate import end_with_parent
from ohhell.tournament.journal import MAX_MICROSECONDS
from ohhell.tournament.stats import mean_ci

CPP_SEEDS: Final = 2**31
"""OpenSpiel's C++ seeds are 32-bit ``int``s: the seeds handed to it (``--seed``, any whole
number from 0, counted up from it) are taken modulo this."""


def run_main(main: Callable[[], int]) -> NoReturn:
    """Run a benchmark's ``main`` as its command and exit with its status. A reader that goes
    away early (``| head``) ends it quietly with 141, as SIGPIPE ends ``cat`` and as the
    ``ohhell`` commands end (:func:`ohhell.cli.main.reader_gone`), not with a traceback."""
    try:
        code = main()
        sys.stdout.flush()  # what is still buffered fails here, not at exit
    except BrokenPipeError:
        code = reader_gone()
    sys.exit(code)


def cpp_seeds(seed: int) -> Iterator[int]:
    """``seed``, ``seed + 1``, ... as OpenSpiel's C++ takes seeds (modulo :data:`CPP_SEEDS`).

    >>> import itertools
    >>> list(itertools.islice(cpp_seeds(2**31 - 1), 3))
    [2147483647, 0, 1]
    """
    return (count % CPP_SEEDS for count in itertools.count(seed))


def timed(play: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Call ``play`` (which returns how many units, hands or rollouts, it played) until
    ``seconds`` have passed: the units played and the time taken."""
    units = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        units += play()
        elapsed = time.perf_counter() - start
    return units, elapsed


def interleaved(
    runners: Mapping[str, Callable[[], int]], seconds: float, rounds: int = 10
) -> dict[str, dict[str, float]]:
    """Time each of ``runners`` (see :func:`timed`) for ``seconds`` in all, in ``rounds``
    turns taken one after another (A B C A B C ...), so that a change in the machine's load
    during the run falls on every runner alike instead of on whichever ran then: by runner,
    the hands played, the seconds taken and hands per second."""
    totals = {name: [0, 0.0] for name in runners}
    for _ in range(rounds):
        for name, play in runners.items():
            units, elapsed = timed(play, seconds / rounds)
            totals[name][0] += units
            totals[name][1] += elapsed
    return {
        name: {"hands": units, "seconds": elapsed, "hands_per_second": units / elapsed}
        for name, (units, elapsed) in totals.items()
    }


def timed_parser(
    doc: str, *, default_seconds: float, quick_seconds: float
) -> argparse.ArgumentParser:
    """A parser with ``--seconds`` (per runner) or ``--quick`` (the smoke test's short run),
    ``--seed`` and ``--json PATH``."""
    parser = argparse.ArgumentParser(description=" ".join(doc.split("\n\n")[0].split()))
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds",
        type=float,
        default=default_seconds,
        help=f"wall-time budget per runner (default {default_seconds:g})",
    )
    budget.add_argument(
        "--quick", action="store_true", help=f"{quick_seconds:g} s per runner, for smoke tests"
    )
    parser.add_argument("--seed", type=seed_arg, default=2026, help="random seed (default 2026)")
    parser.add_argument(
        "--json", type=output_path, metavar="PATH", help="also write the figures here"
    )
    parser.set_defaults(quick_seconds=quick_seconds)
    return parser


def seconds_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> float:
    """The time per runner the arguments ask for; one that is not a positive finite number
    (``nan``, ``inf``) is a usage error."""
    seconds: float = args.quick_seconds if args.quick else args.seconds
    if not math.isfinite(seconds) or seconds <= 0:
        parser.error(f"--seconds must be a positive number of seconds, got {seconds:g}")
    return seconds


def output_path(text: str) -> Path:
    """An argparse ``type`` for ``--json PATH``: a file that can be written, checked before the
    run (a missing or unwritable directory, or a directory, is a usage error), not after it.

    >>> output_path("/nonexistent/x.json")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: cannot write /nonexistent/x.json: no directory /nonexistent
    """
    path = Path(text)
    folder = path.parent
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: it is a directory")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return path


def refuse_same_file(parser: argparse.ArgumentParser, **paths: Path | None) -> None:
    """A usage error if two of the files given (by flag name: ``json=..., journal=...``) are
    one file, which the run would write over the other (``--json`` over its ``--journal``)."""
    named = [(flag, path) for flag, path in paths.items() if path is not None]
    for (flag, path), (other, there) in itertools.combinations(named, 2):
        same = path.resolve() == there.resolve() or (
            path.exists() and there.exists() and path.samefile(there)
        )
        if same:
            parser.error(f"--{flag} and --{other} name the same file, {path}: give two files")


def check_bot_budget(
    parser: argparse.ArgumentParser,
    flag: str,
    bot: Bot,
    budget: Budget = Budget(),  # noqa: B008
) -> None:
    """A usage error naming ``flag`` if ``bot`` would refuse to decide under ``budget``
    (:func:`ohhell.bots.check_budget`): said before the run, not as a traceback in it."""
    try:
        check_budget(bot, budget)
    except ValueError as exc:
        parser.error(f"{flag}: {exc}")


def write_figures(path: Path | None, figures: dict[str, Any]) -> None:
    """Write the figures as JSON when ``--json`` was given; a file that cannot be written
    then is a one-line error on stderr and exit status 1."""
    if path is None:
        return
    try:  # a file already there stays whole if this fails
        write_atomic(path, json.dumps(figures, indent=2) + "\n")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        prog = Path(sys.argv[0]).name
        print(f"{prog}: error: --json: cannot write {path}: {reason}", file=sys.stderr)
        raise SystemExit(1) from None


def table_lead(points: Sequence[float], seat: int) -> float:
    """How far ``seat``'s points are ahead of the mean of the others' points at its table.

    >>> table_lead([40, 10, 20, 30], 0)
    20.0
    """
    return points[seat] - statistics.fmean(p for other, p in enumerate(points) if other != seat)


def add_ab_arguments(parser: argparse.ArgumentParser, unit: str) -> None:
    """``--option NAME=VALUE`` (repeatable) and ``--paired PATH``; ``unit`` names what the
    paired difference is taken over (``deal sets``, ``deals``)."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a SearchBot option (repeatable), e.g. --option bid_factor=4",
    )
    parser.add_argument(
        "--paired",
        type=Path,
        metavar="PATH",
        help=f"an earlier run's --json: also print the paired difference over the same {unit}",
    )


def search_options(
    parser: argparse.ArgumentParser,
    items: Sequence[str],
    reserved: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The ``--option NAME=VALUE`` items as :class:`~ohhell.bots.search.SearchBot` keyword
    arguments (read as a bot spec's options are: :func:`ohhell.bots.levels.bot_options`); a
    malformed item, an unknown option or a bad value is a usage error. ``reserved`` maps the
    options the benchmark sets with a flag of its own to that flag (``{"simulations":
    "--simulations"}``): giving one as an ``--option`` is a usage error naming the flag."""
    reserved = reserved or {}
    for item in items:
        name = item.partition("=")[0].strip()
        if name in reserved:
            parser.error(f"--option {name}: use {reserved[name]} (not an --option here)")
    try:
        options = bot_options(SearchBot, list(items), name="search")
        SearchBot(**options)
    except (TypeError, ValueError) as exc:
        parser.error(f"--option: {exc}")
    return options


def changed_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The search bot's ``options`` that differ from its defaults: an ``--option`` set to its
    default plays the bot as it ships.

    >>> changed_options({"rivalry": 0.25, "spoiler": False, "gone": 1})  # gone: not now
    {'spoiler': False, 'gone': 1}
    """
    parameters = inspect.signature(SearchBot).parameters  # one it lacks (an older run's): changed
    return {
        name: value
        for name, value in options.items()
        if name not in parameters or parameters[name].default != value
    }


def settled(value: float) -> float:
    """A mean of leads at tables (:func:`table_lead`), to a billionth: such means are
    fractions of a few seats, and the floats they are reached through leave residue (a lead of
    exactly nothing as ``2.2e-16``, or ``-2.2e-16``, printed as ``-0.00``).

    >>> from statistics import fmean
    >>> tables = [[11, 16, 8, 4], [5, 7, 2, 9], [18, 16, 16, 17], [19, 17, 13, 14]]
    >>> leads = [table_lead(points, seat) for seat, points in enumerate(tables)]
    >>> fmean(leads), settled(fmean(leads))
    (2.220446049250313e-16, 0.0)
    """
    return round(value, 9) + 0.0  # + 0.0: no -0.0


def load_paired(
    parser: argparse.ArgumentParser,
    path: Path | None,
    key: str,
    units: set[str],
    unit: str,
    *,
    benchmark: str,
    settings: Mapping[str, Any] | None = None,
    opponents: Mapping[str, Any] | None = None,
    optional: bool = False,
) -> dict[str, float]:
    """The per-unit figures ``key`` of an earlier run's JSON at ``path`` (``{}`` without
    one), by unit (a deal set's or deal's seed or index, as a string). The JSON must be a
    ``--json`` of ``benchmark`` (its ``"benchmark"`` figure) run with the same ``settings``
    (what fixes which cards a unit deals besides its key, e.g. ``{"seed": 5}``) and the same
    ``opponents`` (how the bots it meets are set); one that
    cannot be read, is another benchmark's, differs in either, lacks the figures or shares
    none of ``units`` is a usage error (``unit`` names one). ``optional`` figures, which runs
    saved before they were measured lack, are ``{}`` when the JSON has none."""
    if path is None:
        return {}
    try:
        earlier = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:  # its reason, not Python's "[Errno 2] ... 'path'"
        parser.error(f"--paired: cannot read {path}: {exc.strerror or exc}")
    except ValueError as exc:
        parser.error(f"--paired: cannot read {path}: {exc}")
    if not isinstance(earlier, dict) or "benchmark" not in earlier:
        parser.error(f"--paired: {path} is not a --json of {benchmark}")
    if earlier["benchmark"] != benchmark:
        parser.error(f"--paired: {path} is a --json of {earlier['benchmark']}, not of {benchmark}")
    for what, alike in ((f"{unit}s", settings), ("opponents", opponents)):
        for name, value in (alike or {}).items():
            if earlier.get(name) != value:
                parser.error(
                    f"--paired: {path} was run with {name} {earlier.get(name)}, this run"
                    f" {value}: the {what} differ"
                )
    values = earlier.get(key)
    if optional and values is None:
        return {}
    if not isinstance(values, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in values.values()
    ):
        parser.error(f"--paired: {path} has no per-{unit} figures {key!r}")
    if not all(math.isfinite(v) for v in values.values()):
        parser.error(f"--paired: {path} has a figure in {key!r} that is not a finite number")
    if not units & set(values):
        parser.error(f"--paired: {path} shares no {unit} with this run (use the same --seed)")
    return {str(unit): float(v) for unit, v in values.items()}


def paired_difference(now: dict[str, float], earlier: dict[str, float]) -> tuple[float, float, int]:
    """``now`` minus ``earlier`` over the units both have: the mean, the half-width of its
    95 % confidence interval (0 for a single unit) and how many units were paired.

    >>> paired_difference({"1": 3.0, "2": 5.0, "3": 1.0}, {"1": 1.0, "2": 4.0})
    (1.5, 6.353102368087347, 2)
    """
    common = sorted(set(now) & set(earlier), key=int)
    if not common:
        raise ValueError("the two runs share nothing (compare runs with the same --seed)")
    mean, half = mean_ci95([now[unit] - earlier[unit] for unit in common])
    return mean, half, len(common)


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95 % confidence interval (0 for a
    single value): :func:`ohhell.tournament.stats.mean_ci`, as the tournament reports it."""
    estimate = mean_ci(list(values))
    return estimate.mean, estimate.half_width or 0.0


JOURNAL_FORMAT: Final = "ohhell-benchmark-journal"


class JournalMismatch(ValueError):
    """A journal that cannot be continued by this run (another benchmark or other settings,
    damage, or another run writing it now)."""


class RunJournal:
    """A long run's finished units (deal sets, deals) on disk as each finishes, so that a run
    stopped part-way (Ctrl-C, a kill, a machine gone down) continues where it stopped: the same
    command with the same ``--journal PATH`` plays only the units the journal does not hold.

    JSON Lines: the first line ``{"format": "ohhell-benchmark-journal", "benchmark": NAME,
    "settings": {...}}``, then one ``{"unit": KEY, "record": {...}}`` per unit, each flushed and
    fsynced as it is written. The settings are what a unit's result depends on, so a journal
    of other settings is refused (:class:`JournalMismatch`, naming the differences); a larger
    run with the same settings reuses what it holds. A last line cut short by a kill is dropped
    (its unit is played again). While open the file is locked (``flock``): a second run
    writing it is refused.
    """

    def __init__(
        self,
        path: Path | None,
        benchmark: str,
        settings: dict[str, Any],
        check: Callable[[Any], object] | None = None,
        unit: str = "unit",
    ) -> None:
        self.path = path
        self.unit = unit
        """What a line holds (``deal set``, ``deal``), for messages."""
        self.check = check
        """Reads a record back as the benchmark will, so that one edited out of shape is a
        damaged line (raising ``KeyError``, ``TypeError``, ``ValueError`` or an
        ``ArithmeticError``), not a traceback later."""
        self.done: dict[str, Any] = {}
        """The records read back, by unit (each at most once)."""
        self._handle: IO[bytes] | None = None
        if path is None:
            return
        header = {"format": JOURNAL_FORMAT, "benchmark": benchmark, "settings": settings}
        handle = path.open("a+b")
        try:
            try:  # for this process: its workers close their copies (start_worker)
                hold_in_process(handle.fileno(), path)
            except InUseError:
                raise JournalMismatch(
                    f"journal {path} is being written by another run now"
                ) from None
            handle.seek(0)
            raw = handle.read()
            lines, length = complete_lines(raw)
            if not lines:  # new, or killed while writing its first line
                if not json_line(header).startswith(raw):
                    raise JournalMismatch(f"journal {path}: line 1 is not a journal header")
                handle.truncate(0)
                append_json_line(handle, header)
            else:
                self._read(path, lines, header)
                if length < len(raw):
                    handle.truncate(length)  # a line cut short by a kill
        except BaseException:
            forget_held(handle.fileno())
            handle.close()
            raise
        self._handle = handle

    def _read(self, path: Path, lines: list[bytes], header: dict[str, Any]) -> None:
        """Load the records of ``lines`` after checking the header among them."""
        try:
            first = json.loads(lines[0])
        except ValueError:
            raise JournalMismatch(f"journal {path}: line 1 is not a journal header") from None
        if not isinstance(first, dict) or first.get("format") != JOURNAL_FORMAT:
            raise JournalMismatch(f"journal {path}: line 1 is not a journal header")
        if first.get("benchmark") != header["benchmark"]:
            raise JournalMismatch(
                f"journal {path} is of {first.get('benchmark')}, not {header['benchmark']}"
            )
        theirs = first.get("settings")
        if not isinstance(theirs, dict):
            raise JournalMismatch(f"journal {path}: line 1 is not a journal header")
        if theirs != header["settings"]:
            mine = header["settings"]
            differ = [
                f"{key} {theirs.get(key)!r} there, {mine.get(key)!r} here"
                for key in sorted(set(mine) | set(theirs))
                if not _same_setting(key, theirs.get(key), mine.get(key))
            ]
            if differ:
                raise JournalMismatch(
                    f"journal {path} was written with other settings: {'; '.join(differ)}"
                )
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
                unit, record = entry["unit"], entry["record"]
                if self.check is not None:
                    self.check(record)
            except (ValueError, TypeError, KeyError, ArithmeticError):
                raise JournalMismatch(f"journal {path}: line {number} is damaged") from None
            if str(unit) in self.done:
                raise JournalMismatch(f"journal {path}: line {number}: unit {unit} is there twice")
            self.done[str(unit)] = record

    def add(self, unit: str, record: Any) -> None:
        """Write one finished unit; it is on disk when this returns (nothing without a path).
        A file that cannot be written (a full disk) ends the run: a one-line error on stderr
        saying what is saved, and exit status 1 (the same command plays the rest)."""
        if self._handle is None:
            return
        try:
            append_json_line(self._handle, {"unit": unit, "record": record})
        except OSError as exc:
            self.close()
            prog = Path(sys.argv[0]).name
            print(
                f"{prog}: error: --journal: cannot write {self.path}: {exc.strerror or exc};"
                f" {self.saved_on_disk()} {self.unit}s are saved there: once it can be written,"
                " the same command plays the rest",
                file=sys.stderr,
            )
            raise SystemExit(1) from None

    def close(self) -> None:
        """Close the file, which drops its lock (again: no effect). Data a failed write left
        in the buffer is dropped: what is on disk is what the journal holds."""
        if self._handle is not None:
            forget_held(self._handle.fileno())
            with contextlib.suppress(OSError):  # flushing what a full disk refused
                self._handle.close()
            self._handle = None

    def __enter__(self) -> RunJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def saved_on_disk(self) -> int:
        """How many units the file holds now, exactly (stopped at any point, even inside
        :meth:`add`)."""
        if self.path is None:
            return 0
        return max(0, len(complete_lines(self.path.read_bytes())[0]) - 1)

    def summary(self, used: int, total: int) -> str:
        """A line for the report: how many of the ``total`` units came from the journal."""
        if self.path is None:
            return ""
        return f"journal {self.path}: {used} of {total} read back, {total - used} played now"


def _same_setting(key: str, there: object, here: object) -> bool:
    """Whether a journal's setting is this run's: equal, or a bot spec written otherwise
    (``--bot search:rivalry=.5`` for ``search:rivalry=0.5``, :func:`ohhell.players.same_player`)."""
    if there == here:
        return True
    return (
        key == "bot"
        and isinstance(there, str)
        and isinstance(here, str)
        and same_player(there, here)
    )


def code_fingerprint(script: str | None = None) -> str:
    """:func:`ohhell.provenance.code_fingerprint` of the rules engine, the bots and what plays
    them, with this module and the benchmark ``script`` (its ``__file__``: its own bots and
    seeding): a journal's results belong to one build of them.

    >>> len(code_fingerprint(__file__))
    16
    """
    return provenance.code_fingerprint(
        RESULT_SOURCES, extra=(Path(__file__), *([Path(script)] if script else []))
    )


def add_journal_argument(parser: argparse.ArgumentParser, unit: str) -> None:
    """``--journal PATH`` (see :class:`RunJournal`)."""
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="PATH",
        help=f"save each finished {unit} to PATH as it is played; the same command with the"
        f" same PATH after a stop plays only the {unit}s not saved there",
    )


def open_journal(
    parser: argparse.ArgumentParser,
    path: Path | None,
    benchmark: str,
    settings: dict[str, Any],
    check: Callable[[Any], object] | None = None,
    unit: str = "unit",
) -> RunJournal:
    """:class:`RunJournal`, a journal that cannot be continued being a usage error."""
    try:
        return RunJournal(path, benchmark, settings, check, unit)
    except JournalMismatch as exc:
        parser.error(f"--journal: {exc}")
    except OSError as exc:  # its reason, not Python's "[Errno 21] ... 'path'"
        parser.error(f"--journal: cannot open {exc.filename or path}: {exc.strerror or exc}")


def start_worker() -> None:
    """A worker process's initializer: Ctrl-C is the main process's to handle (it stops the
    workers and says what the journal holds, :func:`interrupted`); a worker closes its copy of
    the journal's lock and ends when the main process is killed, so that the same command can
    go on at once. (SIGTERM stays: ``multiprocessing.Pool`` stops its workers with it.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    release_inherited_locks()
    end_with_parent()


def interrupted(journal: RunJournal, unit: str) -> int:
    """After Ctrl-C: say what is saved and how to go on; the exit status (130)."""
    journal.close()
    if journal.path is None:
        print(f"interrupted; nothing is saved (--journal PATH saves each {unit})", file=sys.stderr)
    else:
        print(
            f"interrupted; {journal.saved_on_disk()} {unit}s are saved in {journal.path}: the"
            " same command"
            " plays the rest",
            file=sys.stderr,
        )
    return 130


def finite_number(value: object) -> float:
    """A number of a journal record: an int or a float, finite (a ``TypeError`` or
    ``ValueError``, or an ``OverflowError`` for an int no float holds: a damaged line).

    >>> finite_number(3), finite_number(-0.5)
    (3.0, -0.5)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"not a number: {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {value!r}")
    return number


def whole_number(value: object, low: int = 0, high: int | None = None) -> int:
    """A count of a journal record: an int from ``low`` (to ``high``), else a damaged line."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not a whole number: {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{value} is out of range")
    return value


def decision_seconds(value: object) -> list[float]:
    """A journal record's decision times, whole microseconds (:func:`microseconds`), as
    seconds; at least one, each from 0 to a year (a tournament journal's ceiling,
    :data:`ohhell.tournament.journal.MAX_MICROSECONDS`), else a damaged line."""
    if not isinstance(value, list) or not value:
        raise ValueError("no decision times")
    return [whole_number(us, 0, MAX_MICROSECONDS) / 1e6 for us in value]


def microseconds(seconds: Sequence[float]) -> list[int]:
    """Decision times as whole microseconds, for a journal.

    >>> microseconds([0.0041234, 1.5])
    [4123, 1500000]
    """
    return [round(s * 1e6) for s in seconds]
