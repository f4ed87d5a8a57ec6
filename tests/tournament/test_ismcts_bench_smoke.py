"""Smoke test: ``benchmarks/vs_openspiel_ismcts.py --quick`` runs and reports its figures."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_benchmark


def test_vs_openspiel_ismcts_quick(tmp_path: Path) -> None:
    out, figures = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", tmp_path, "--bot", "heuristic", "--jobs", "1",
        needs=["pyspiel"],
    )  # fmt: skip
    assert "searching the real state" in out
    assert figures["ismcts_sees"] == "state"
    assert "points per deal ahead, OpenSpiel scoring:" in out
    assert "points per deal ahead, standard scoring:" in out
    assert figures["deals"] == 4
    assert 0 <= figures["bid_hit_rate"]["ours"] <= 1
    assert figures["ms_per_decision"]["ismcts"]["mean"] > 0


def test_vs_openspiel_ismcts_quick_searching_from_the_view(tmp_path: Path) -> None:
    out, figures = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", tmp_path, "--bot", "heuristic", "--jobs", "1",
        "--ismcts-sees", "view", needs=["pyspiel"],
    )  # fmt: skip
    assert "searching worlds from its view" in out
    assert figures["ismcts_sees"] == "view"
    assert figures["deals"] == 4
