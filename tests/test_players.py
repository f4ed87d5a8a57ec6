"""Players by name (:mod:`ohhell.players`): building them before the first game, and saying so
when that is slow (the search bot's first compile after an install)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.conftest import require

from ohhell import players
from ohhell.bots import Bot
from ohhell.cli.players import PREPARING


def test_prepare_players_builds_each_name_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = players.make_player

    def build(name: str) -> Bot:
        built.append(name)
        return real(name)

    monkeypatch.setattr(players, "make_player", build)
    slow: list[bool] = []
    players.prepare_players(
        ["heuristic", "random", "heuristic"], on_slow=lambda: slow.append(True), after=60
    )
    assert built == ["heuristic", "random"]
    assert slow == []  # done long before the minute: nothing said


def test_prepare_players_says_when_it_is_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    said = threading.Event()

    def slow_build(name: str) -> Bot:
        assert said.wait(timeout=30), "on_slow was not called while building"
        return players.make_bot(name)

    monkeypatch.setattr(players, "make_player", slow_build)
    calls: list[str] = []

    def on_slow() -> None:
        calls.append(threading.current_thread().name)
        said.set()

    players.prepare_players(["random"], on_slow=on_slow, after=0.01)
    assert len(calls) == 1


def test_prepare_players_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        players.prepare_players(["random", "genius"], on_slow=lambda: None)


def test_the_first_search_bot_after_an_install_is_announced(tmp_path: Path) -> None:
    """End to end: with an empty numba cache (as after an install) ``ohhell simulate`` with a
    search bot compiles its kernels and says so on stderr before the first game."""
    require("numba")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    script = Path(sys.executable).parent / "ohhell"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ohhell.cli.main"]
    result = subprocess.run(
        [*command, "simulate", "--players", "3", "--schedule", "custom", "--hand-sizes", "1",
         "--bots", "search,random,random", "--seed", "3", "--no-records"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"ohhell simulate: {PREPARING}" in result.stderr
    assert "total" in result.stdout
    assert any((tmp_path / "numba-cache").rglob("*.nbi"))  # the compiled code was cached
