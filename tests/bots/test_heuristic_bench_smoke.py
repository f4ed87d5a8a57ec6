"""Smoke test: ``benchmarks/heuristic_vs_random.py --quick`` runs and reports its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "heuristic_vs_random.py"


def test_heuristic_vs_random_quick(tmp_path: Path) -> None:
    figures_path = tmp_path / "figures.json"
    completed = subprocess.run(
        [sys.executable, str(BENCHMARK), "--quick", "--json", str(figures_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "mean score per game: heuristic" in completed.stdout
    assert "bid hit rate: heuristic" in completed.stdout
    figures = json.loads(figures_path.read_text(encoding="utf-8"))
    assert figures["deal_sets"] == 4
    assert figures["decisions"] > 0
    assert 0.0 <= figures["heuristic_hit_rate"] <= 1.0


def test_too_few_sets_is_refused() -> None:
    completed = subprocess.run(
        [sys.executable, str(BENCHMARK), "--sets", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "--sets must be at least 2" in completed.stderr
