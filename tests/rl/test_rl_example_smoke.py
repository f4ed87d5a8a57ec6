"""Smoke test: ``examples/train_vs_heuristic.py --quick`` trains and prints its curve."""

from __future__ import annotations

from tests.conftest import run_script


def test_train_vs_heuristic_quick() -> None:
    completed = run_script("examples/train_vs_heuristic.py", "--quick", needs=["pettingzoo"])
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("opponents and the learner's card play: the ")
    curve = [line for line in lines if line.strip()[:1].isdigit()]
    assert len(curve) == 4  # 20 games in blocks of 5
    assert lines[-1].startswith("learned weights:")


def test_train_vs_heuristic_refuses_a_negative_seed() -> None:
    """A usage error, not the environment's traceback for seed -500000."""
    completed = run_script(
        "examples/train_vs_heuristic.py", "--seed", "-5", needs=["pettingzoo"], expect=2
    )
    assert "--seed must be 0 or more, got -5" in completed.stderr
    assert "Traceback" not in completed.stderr
