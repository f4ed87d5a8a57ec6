"""Duplicate tournaments between bots, and their reports.

- :mod:`~ohhell.tournament.deals`: deal sets (first dealer and deck orders) and their files.
- :mod:`~ohhell.tournament.duplicate`: the candidate rotated through every seat against copies
  of the baseline on the same deals, on every local core.
- :mod:`~ohhell.tournament.stats`: means with 95 % confidence intervals, the paired difference,
  bid hit rates, first-place shares, decision times.
- :mod:`~ohhell.tournament.report`: terminal table, JSON, CSV and PNG.
- :mod:`~ohhell.tournament.journal`: each played deal set on disk as it finishes, so that a
  stopped tournament resumes.

The command line is ``ohhell tournament`` (:mod:`ohhell.cli.tournament`).
"""

from ohhell.tournament.deals import (
    DealFileError,
    DealSet,
    DealSets,
    generate_deal_sets,
    load_deal_sets,
    save_deal_sets,
)
from ohhell.tournament.duplicate import (
    DealSetOutcome,
    Failure,
    GameOutcome,
    HandRow,
    Matchup,
    TournamentError,
    play_deal_set,
    play_tournament,
    run_tournament,
)
from ohhell.tournament.journal import JournalError, journal_outcomes, read_journal
from ohhell.tournament.report import render_table, write_reports
from ohhell.tournament.stats import (
    Estimate,
    Tally,
    TournamentStats,
    compute_stats,
    mean_ci,
    share_ci,
)

__all__ = [
    "DealFileError",
    "DealSet",
    "DealSetOutcome",
    "DealSets",
    "Estimate",
    "Failure",
    "GameOutcome",
    "HandRow",
    "JournalError",
    "Matchup",
    "Tally",
    "TournamentError",
    "TournamentStats",
    "compute_stats",
    "generate_deal_sets",
    "journal_outcomes",
    "load_deal_sets",
    "mean_ci",
    "play_deal_set",
    "play_tournament",
    "read_journal",
    "render_table",
    "run_tournament",
    "save_deal_sets",
    "share_ci",
    "write_reports",
]
