"""Shared test helpers."""

from __future__ import annotations

import os

import pytest


def require(module: str) -> None:
    """Import ``module`` or skip the calling test with a clear reason, except under CI=true,
    where a missing test dependency is an error (no test is silently skipped in CI)."""
    try:
        __import__(module)
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(
            f"{module} is not installed ({exc}); install the extra: pip install -e '.[dev]'"
        )
