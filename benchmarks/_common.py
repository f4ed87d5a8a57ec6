"""What the benchmarks share: the timed ones' command line, where figures go, and a seat's
lead at its table."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any


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
