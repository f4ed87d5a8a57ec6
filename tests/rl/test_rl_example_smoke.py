"""Smoke test: ``examples/train_vs_heuristic.py --quick`` trains and prints its curve."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_vs_heuristic.py"


def test_train_vs_heuristic_quick() -> None:
    if os.environ.get("CI") != "true":  # in CI a missing test dependency is an error
        pytest.importorskip("pettingzoo")
    completed = subprocess.run(
        [sys.executable, str(EXAMPLE), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("opponents and the learner's card play: the ")
    curve = [line for line in lines if line.strip()[:1].isdigit()]
    assert len(curve) == 4  # 20 games in blocks of 5
    assert lines[-1].startswith("learned weights:")
