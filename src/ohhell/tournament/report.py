"""Tournament reports: a terminal table (rich), JSON, CSV and a PNG plot (matplotlib, Agg).

Files written into the output folder by :func:`write_reports`:

``report.json``
    :meth:`TournamentStats.to_json <ohhell.tournament.stats.TournamentStats.to_json>` plus the
    matchup (bots, budget, seed) and the build that played it (``build``: the package's
    version and a digest of its code, :func:`~ohhell.tournament.journal.tournament_build`).
``report.csv``
    The same figures in long form, one figure per row:
    ``role,bot,metric,key,value,ci95_low,ci95_high,n`` (``key`` is the hand size, seat or
    bidding position for the per-key metrics, empty otherwise; ``n`` the sample size: deal sets
    for means, bids for hit rates, decisions for times). The last row, of role ``tournament``,
    counts the deal sets voided by a bot failure (``n``: the deal sets played);
    ``report.json`` lists each failure.
``report.png``
    Left: a histogram of the paired score differences per deal set with their mean and 95 %
    confidence interval. Right: bid hit rate by hand size, one line per bot.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ohhell.engine.wording import counted
from ohhell.storage_files import write_atomic
from ohhell.tournament.duplicate import Matchup
from ohhell.tournament.stats import BotStats, Rate, TournamentStats, fixed, reported_ms

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["REPORT_FILES", "csv_rows", "render_table", "report_json", "write_reports"]

REPORT_FILES = ("report.json", "report.csv", "report.png")

CSV_HEADER = ("role", "bot", "metric", "key", "value", "ci95_low", "ci95_high", "n")


def _pct(rate: Rate) -> str:
    """A rate in per cent to a tenth, an exact half rounded up as people round (from the counts:
    through a float, 51 of 80, 63.75 %, came out 63.7).

    >>> _pct(Rate(51, 80)), _pct(Rate(49, 80)), _pct(Rate(2, 3)), _pct(Rate(0, 0))
    ('63.8 %', '61.3 %', '66.7 %', '-')
    """
    if not rate.total:
        return "-"
    tenths = (2000 * rate.hits + rate.total) // (2 * rate.total)  # 1000 * hits / total, rounded
    return f"{tenths // 10}.{tenths % 10} %"


def render_table(stats: TournamentStats, console: Console) -> None:
    """Print the summary table and the paired difference to ``console``."""
    from rich.table import Table

    sets = counted(stats.deal_sets, "deal set")
    table = Table(title=f"Duplicate tournament: {stats.rules}; {sets}")
    table.add_column("")
    for bot in (stats.candidate, stats.baseline):
        table.add_column(f"{bot.role}: {bot.bot}", justify="right", overflow="fold")

    def row(label: str, cells: list[str]) -> None:
        table.add_row(label, *cells)

    bots = (stats.candidate, stats.baseline)
    ci = " (95 % CI)" if stats.deal_sets > 1 else ""  # one deal set: no interval to give
    row(f"score per game{ci}", [str(b.score_per_game) for b in bots])
    row(f"score per hand{ci}", [str(b.score_per_hand) for b in bots])
    row("bids made", [_pct(b.bids) for b in bots])
    row(  # the baseline's is per seat it holds: the seats' shares of a game add up to 100 %
        "first-place share, per seat",
        [f"{fixed(100 * b.first_place_share.mean, 1)} %" for b in bots],
    )
    for key, label in (("median", "ms/decision median"), ("p95", "  p95"), ("p99", "  p99")):
        row(label, [fixed(b.decision_ms[key], 3) if b.decision_ms else "-" for b in bots])
    sizes = sorted(set(stats.candidate.bids_by_hand_size) | set(stats.baseline.bids_by_hand_size))
    for size in sizes:
        row(
            f"bids made, {counted(size, 'card')}",
            [_pct(b.bids_by_hand_size.get(size, Rate(0, 0))) for b in bots],
        )
    for seat in sorted(stats.candidate.bids_by_seat):
        row(
            f"bids made, seat {seat}",
            [_pct(b.bids_by_seat.get(seat, Rate(0, 0))) for b in bots],
        )
    console.print(table)
    console.print(  # soft_wrap: a line is never broken inside, even into a pipe's 80 columns
        f"paired difference ({stats.candidate.bot} - {stats.baseline.bot}) per game:"
        f" {stats.paired_difference} over {counted(stats.deal_sets, 'deal set')}",
        soft_wrap=True,
    )
    if stats.failures:
        voided = counted(len(stats.failures), "deal set")
        console.print(f"[bold red]{voided} voided by a bot failure:", soft_wrap=True)
        for failure in stats.failures:
            console.print(
                f"  deal set {failure.deal_set}: {failure.message}", markup=False, soft_wrap=True
            )


def report_json(
    stats: TournamentStats, matchup: Matchup, build: dict[str, str] | None = None
) -> dict[str, Any]:
    """The JSON report: the matchup, the build that played it (its journal's
    :attr:`~ohhell.tournament.journal.Journal.build`; ``None`` where not known) and every
    statistic."""
    return {
        "matchup": matchup.to_json(),
        "build": build,
        **stats.to_json(),
    }


def _bot_rows(bot: BotStats) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for metric, estimate in (
        ("score_per_game", bot.score_per_game),
        ("score_per_hand", bot.score_per_hand),
        ("first_place_share", bot.first_place_share),
    ):
        rows.append((metric, "", estimate.mean, estimate.low, estimate.high, estimate.n))
    rows.append(("bid_hit_rate", "", bot.bids.rate, None, None, bot.bids.total))
    for metric, table in (
        ("bid_hit_rate_by_hand_size", bot.bids_by_hand_size),
        ("bid_hit_rate_by_seat", bot.bids_by_seat),
        ("bid_hit_rate_by_bid_position", bot.bids_by_position),
    ):
        for key, rate in sorted(table.items()):
            rows.append((metric, key, rate.rate, None, None, rate.total))
    for name, value in bot.decision_ms.items():
        rows.append((f"decision_ms_{name}", "", reported_ms(value), None, None, bot.decisions))
    return [(bot.role, bot.bot, *row) for row in rows]


def csv_rows(stats: TournamentStats) -> list[tuple[Any, ...]]:
    """The rows of ``report.csv`` after its header (see the module docstring)."""
    rows = _bot_rows(stats.candidate) + _bot_rows(stats.baseline)
    paired = stats.paired_difference
    rows.append(
        (
            "candidate",
            stats.candidate.bot,
            "paired_difference_per_game",
            "",
            paired.mean,
            paired.low,
            paired.high,
            paired.n,
        )
    )
    voided = len(stats.failures)
    rows.append(
        ("tournament", "", "voided_deal_sets", "", voided, None, None, stats.deal_sets + voided)
    )
    return rows


def _csv_text(stats: TournamentStats) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for row in csv_rows(stats):
        writer.writerow("" if value is None else value for value in row)
    return buffer.getvalue()


def _write_png(stats: TournamentStats, path: Path) -> None:
    # a figure of its own, drawn by Agg, not through pyplot: matplotlib.use("Agg") switched
    # the backend of the whole process (a notebook calling this stopped showing its plots)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(12, 4.5))
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2)
    paired = stats.paired_difference
    left.hist(
        stats.paired_differences, bins="auto", color="tab:blue", alpha=0.75, edgecolor="white"
    )  # edges: neighbouring bars of one height read as one bar without them
    left.axvline(paired.mean, color="black", label=f"mean {fixed(paired.mean, 2)}")
    if paired.low is not None and paired.high is not None:
        left.axvspan(  # behind the bars, which keep their own colour
            paired.low, paired.high, color="tab:orange", alpha=0.3, label="95 % CI", zorder=0
        )
    left.axvline(0, color="grey", linestyle=":")
    title = f"{stats.candidate.bot} - {stats.baseline.bot}: paired score per game"
    left.set_title("\n".join(textwrap.wrap(title, 60)))  # long bot specs: lines, not clipped
    left.set_xlabel("score difference per deal set")
    left.set_ylabel("deal sets")
    left.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts: no "0.2 deal sets"
    left.legend()
    for bot in (stats.candidate, stats.baseline):
        sizes = sorted(bot.bids_by_hand_size)
        rates = [bot.bids_by_hand_size[size].rate or 0.0 for size in sizes]
        right.plot(sizes, rates, marker="o", label=f"{bot.role}: {bot.bot}")
    right.set_title("bid hit rate by hand size")
    right.set_xlabel("cards per seat")
    right.xaxis.set_major_locator(MaxNLocator(integer=True))  # no "5.25 cards"
    right.set_ylabel("bids made")
    right.set_ylim(0, 1)
    right.legend()
    figure.tight_layout()
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=100)
    write_atomic(path, image.getvalue())  # whole or not at all, as the other reports


def write_reports(
    stats: TournamentStats, matchup: Matchup, out: Path, build: dict[str, str] | None = None
) -> list[Path]:
    """Write ``report.json`` (:func:`report_json`), ``report.csv`` and ``report.png`` into
    ``out`` (created if needed) and return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    json_path, csv_path, png_path = (out / name for name in REPORT_FILES)
    write_atomic(json_path, json.dumps(report_json(stats, matchup, build), indent=2) + "\n")
    write_atomic(csv_path, _csv_text(stats))
    _write_png(stats, png_path)
    return [json_path, csv_path, png_path]
