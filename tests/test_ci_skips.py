"""In CI no test is skipped: :func:`tests.conftest.pytest_runtest_logreport` turns any skip
into a failure there, and on a laptop a skip stays a skip with its reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SKIPPING = """
import pytest

def test_skipped_inside():
    pytest.skip("a reason")

@pytest.mark.skipif(True, reason="another reason")
def test_skipped_by_mark():
    pass

def test_run():
    pass
"""


def _pytest(tmp_path: Path, ci: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_skipping.py").write_text(SKIPPING, encoding="utf-8")
    env = {**os.environ, "CI": ci}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-p", "no:randomly", "--rootdir", str(tmp_path), str(tmp_path / "test_skipping.py")],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False,
    )  # fmt: skip


def test_a_skip_fails_the_run_in_ci(tmp_path: Path) -> None:
    result = _pytest(tmp_path, "true")
    assert result.returncode == 1, result.stdout
    assert result.stdout.count("skipped in CI, where every test must run") >= 2
    assert "a reason" in result.stdout and "another reason" in result.stdout


def test_a_skip_stays_a_skip_elsewhere(tmp_path: Path) -> None:
    result = _pytest(tmp_path, "")
    assert result.returncode == 0, result.stdout
    assert "1 passed, 2 skipped" in result.stdout
