"""Smoke test: ``benchmarks/vs_openspiel_ismcts.py --quick`` runs and reports its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import require

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "vs_openspiel_ismcts.py"


def test_vs_openspiel_ismcts_quick(tmp_path: Path) -> None:
    require("pyspiel")
    figures_path = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--quick", "--bot", "heuristic", "--jobs", "1",
         "--json", str(figures_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "points per deal ahead, OpenSpiel scoring:" in done.stdout
    assert "points per deal ahead, standard scoring:" in done.stdout
    figures = json.loads(figures_path.read_text(encoding="utf-8"))
    assert figures["deals"] == 4
    assert 0 <= figures["bid_hit_rate"]["ours"] <= 1
    assert figures["ms_per_decision"]["ismcts"]["mean"] > 0
