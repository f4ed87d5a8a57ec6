"""Smoke test: ``benchmarks/rl_env_steps.py --quick`` runs and reports its figures."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_benchmark


def test_rl_env_steps_quick(tmp_path: Path) -> None:
    out, figures = run_benchmark(
        "benchmarks/rl_env_steps.py", tmp_path, needs=["pyspiel", "pettingzoo"]
    )
    assert "ratio pettingzoo/openspiel-oh_hell:" in out
    assert set(figures["runners"]) == {"pettingzoo", "python_ohhell", "openspiel-oh_hell"}
    assert all(row["steps"] > 0 for row in figures["runners"].values())
