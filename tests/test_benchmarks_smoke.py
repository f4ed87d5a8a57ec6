"""Smoke test: ``benchmarks/engine_vs_openspiel.py --quick`` runs and reports its ratios."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_benchmark


def test_engine_vs_openspiel_quick(tmp_path: Path) -> None:
    out, figures = run_benchmark("benchmarks/engine_vs_openspiel.py", tmp_path, needs=["pyspiel"])
    assert "ratio ours/OpenSpiel-Python:" in out
    assert "ratio ours/OpenSpiel-C++:" in out
    assert set(figures["runners"]) == {"ohhell", "openspiel-python", "openspiel-cpp"}
    assert all(row["hands"] > 0 for row in figures["runners"].values())
