"""Smoke test: ``benchmarks/rl_env_steps.py --quick`` runs and reports its figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_env_steps.py"


def test_rl_env_steps_quick(tmp_path: Path) -> None:
    if os.environ.get("CI") != "true":  # in CI a missing test dependency is an error
        pytest.importorskip("pyspiel")
        pytest.importorskip("pettingzoo")
    figures_path = tmp_path / "figures.json"
    completed = subprocess.run(
        [sys.executable, str(BENCHMARK), "--quick", "--json", str(figures_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "ratio pettingzoo/openspiel-oh_hell:" in completed.stdout
    figures = json.loads(figures_path.read_text(encoding="utf-8"))
    assert set(figures["runners"]) == {"pettingzoo", "python_ohhell", "openspiel-oh_hell"}
    assert all(row["steps"] > 0 for row in figures["runners"].values())
