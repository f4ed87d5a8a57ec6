"""Smoke test: ``examples/train_vs_heuristic.py --quick`` trains, and its curve shows it."""

from __future__ import annotations

from tests.conftest import run_script


def test_train_vs_heuristic_quick_learns() -> None:
    """The curve's points are measured on the same held-out games: after its 50 games of
    training the learner scores more there than untrained (bidding 0 in every hand)."""
    completed = run_script("examples/train_vs_heuristic.py", "--quick", needs=["pettingzoo"])
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("opponents and the learner's card play: the ")
    curve = [line.split() for line in lines if line.strip()[:1].isdigit()]
    assert [int(point[0]) for point in curve] == [0, 1, 2, 5, 10, 20, 50]
    untrained, trained = float(curve[0][1]), float(curve[-1][1])
    assert trained > untrained + 1.0  # 3.36 and 5.08 points per hand
    assert lines[-1].startswith("learned weights:")


def test_train_vs_heuristic_refuses_a_negative_seed() -> None:
    """A usage error, not the environment's traceback for seed -500000."""
    completed = run_script(
        "examples/train_vs_heuristic.py", "--seed", "-5", needs=["pettingzoo"], expect=2
    )
    assert "--seed must be 0 or more, got -5" in completed.stderr
    assert "Traceback" not in completed.stderr
