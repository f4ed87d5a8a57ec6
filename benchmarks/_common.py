"""What the benchmarks share: the timed ones' command line, where figures go, a seat's lead at
its table, and the A/B runs' ``--option`` (search bot options) and ``--paired`` (an earlier
run's JSON, compared unit by unit)."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ohhell.bots.levels import bot_options
from ohhell.bots.search import SearchBot
from ohhell.tournament.stats import mean_ci


def timed_parser(
    doc: str, *, default_seconds: float, quick_seconds: float
) -> argparse.ArgumentParser:
    """A parser with ``--seconds`` (per runner) or ``--quick`` (the smoke test's short run),
    ``--seed`` and ``--json PATH``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
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
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here")
    parser.set_defaults(quick_seconds=quick_seconds)
    return parser


def seconds_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> float:
    """The time per runner the arguments ask for; a non-positive one is a usage error."""
    seconds: float = args.quick_seconds if args.quick else args.seconds
    if seconds <= 0:
        parser.error(f"--seconds must be positive, got {seconds:g}")
    return seconds


def write_figures(path: Path | None, figures: dict[str, Any]) -> None:
    """Write the figures as JSON when ``--json`` was given."""
    if path is not None:
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


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


def search_options(parser: argparse.ArgumentParser, items: Sequence[str]) -> dict[str, Any]:
    """The ``--option NAME=VALUE`` items as :class:`~ohhell.bots.search.SearchBot` keyword
    arguments (read as a bot spec's options are: :func:`ohhell.bots.levels.bot_options`); a
    malformed item, an unknown option or a bad value is a usage error."""
    try:
        options = bot_options(SearchBot, list(items), name="search")
        SearchBot(**options)
    except (TypeError, ValueError) as exc:
        parser.error(f"--option: {exc}")
    return options


def load_paired(
    parser: argparse.ArgumentParser, path: Path | None, key: str, units: set[str], unit: str
) -> dict[str, float]:
    """The per-unit figures ``key`` of an earlier run's JSON at ``path`` (``{}`` without
    one), by unit (a deal set's or deal's seed or index, as a string); one that cannot be
    read, lacks them or shares none of ``units`` is a usage error (``unit`` names one)."""
    if path is None:
        return {}
    try:
        earlier = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        parser.error(f"--paired: cannot read {path}: {exc}")
    values = earlier.get(key) if isinstance(earlier, dict) else None
    if not isinstance(values, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in values.values()
    ):
        parser.error(f"--paired: {path} has no per-{unit} figures {key!r}")
    if not units & set(values):
        parser.error(f"--paired: {path} shares no {unit} with this run (use the same --seed)")
    return {str(unit): float(v) for unit, v in values.items()}


def paired_difference(now: dict[str, float], earlier: dict[str, float]) -> tuple[float, float, int]:
    """``now`` minus ``earlier`` over the units both have: the mean, the half-width of its
    95 % confidence interval (0 for a single unit) and how many units were paired.

    >>> paired_difference({"1": 3.0, "2": 5.0, "3": 1.0}, {"1": 1.0, "2": 4.0})
    (1.5, 0.9799819922700267, 2)
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
