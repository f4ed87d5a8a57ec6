"""Smoke tests: the search bot's two benchmarks run in ``--quick`` mode and print figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import require

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, tmp_path: Path, *extra: str) -> tuple[str, dict[str, object]]:
    figures = tmp_path / "figures.json"
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick", "--json", str(figures), *extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout, json.loads(figures.read_text(encoding="utf-8"))


def test_search_vs_heuristic_quick(tmp_path: Path) -> None:
    out, figures = run("search_vs_heuristic.py", tmp_path)
    assert "points per game ahead of baseline:" in out
    assert "bids made:" in out
    assert "ms per decision: mean" in out
    assert figures["deal_sets"] == 1
    assert figures["decisions"] > 0


def test_search_vs_heuristic_splits_bids_from_play(tmp_path: Path) -> None:
    out, figures = run("search_vs_heuristic.py", tmp_path, "--part", "bids")
    assert out.startswith("search bids only (")
    assert figures["part"] == "bids"
    assert figures["decisions"] > 0


def test_fast_path_throughput_quick(tmp_path: Path) -> None:
    require("pyspiel")
    out, figures = run("fast_path_throughput.py", tmp_path)
    assert "ratio fast path/OpenSpiel-C++:" in out
    assert set(figures["runners"]) == {"fast-numpy", "fast-int", "openspiel-cpp"}  # type: ignore[arg-type]


def test_search_vs_heuristic_oracle_is_labelled(tmp_path: Path) -> None:
    """``--oracle`` measures an upper bound (the search sees the true deal); the report says
    so, and the figures record it."""
    out, figures = run("search_vs_heuristic.py", tmp_path, "--oracle", "play")
    assert out.startswith("search with an ORACLE for play (sees the true deal)")
    assert figures["oracle"] == "play"
    assert figures["decisions"] > 0


def test_search_vs_heuristic_pairs_runs_on_the_same_deal_sets(tmp_path: Path) -> None:
    """The JSON keeps each deal set's margin; ``--paired`` compares two runs seed by seed. The
    search is deterministic for a simulations budget, so a rerun pairs to exactly zero."""
    first = tmp_path / "first"
    first.mkdir()
    _, figures = run("search_vs_heuristic.py", first)
    assert set(figures["margins"]) == {"1"}  # type: ignore[arg-type]
    out, again = run("search_vs_heuristic.py", tmp_path, "--paired", str(first / "figures.json"))
    assert again["margins"] == figures["margins"]
    assert "+0.00 points per game (95% CI +0.00 .. +0.00) over 1 deal sets" in out


def test_search_vs_heuristic_refuses_a_run_it_cannot_pair_with(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"margins": {"500": 1.0}}), encoding="utf-8")
    script = str(BENCHMARKS / "search_vs_heuristic.py")
    completed = subprocess.run(
        [sys.executable, script, "--quick", "--paired", str(other)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 2
    assert "shares no deal set" in completed.stderr
