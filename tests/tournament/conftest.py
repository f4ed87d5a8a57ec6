"""Fixtures shared by the tournament and OpenSpiel bridge tests."""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import require


@pytest.fixture
def ismcts_simulations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The simulations each OpenSpiel IS-MCTS search is built with, in order (the searches
    themselves run as they would)."""
    require("pyspiel")
    from ohhell import openspiel_bridge

    shares: list[int] = []
    real = openspiel_bridge._new_ismcts

    def recording(**kwargs: Any) -> Any:
        shares.append(kwargs["simulations"])
        return real(**kwargs)

    monkeypatch.setattr(openspiel_bridge, "_new_ismcts", recording)
    return shares
