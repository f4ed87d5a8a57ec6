"""Smoke test: ``benchmarks/heuristic_vs_random.py --quick`` runs and reports its figures."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_benchmark, run_script

BENCHMARK = "benchmarks/heuristic_vs_random.py"


def test_heuristic_vs_random_quick(tmp_path: Path) -> None:
    out, figures = run_benchmark(BENCHMARK, tmp_path)
    assert "mean score per game: heuristic" in out
    assert "bid hit rate: heuristic" in out
    assert figures["deal_sets"] == 4
    assert figures["decisions"] > 0
    assert 0.0 <= figures["heuristic_hit_rate"] <= 1.0


def test_too_few_sets_is_refused() -> None:
    completed = run_script(BENCHMARK, "--sets", "1", expect=2)
    assert "--sets must be at least 2" in completed.stderr
