"""Players by name (:mod:`ohhell.players`): building them before the first game, and saying so
when that is slow (the search bot's first compile after an install)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.conftest import require

from ohhell import players
from ohhell.bots import Bot, Budget
from ohhell.bots.levels import LEVELS, LevelBot
from ohhell.cli.players import PREPARING
from ohhell.engine import Action, PlayerView, Rules, apply, new_game, random_deal, view_for


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


def test_prepare_players_stops_its_slow_notice_when_done(monkeypatch: pytest.MonkeyPatch) -> None:
    timers: list[FakeTimer] = []

    class FakeTimer:
        def __init__(self, interval: float, function: object) -> None:
            self.interval, self.function = interval, function
            self.daemon = False
            self.calls: list[str] = []
            timers.append(self)

        def start(self) -> None:
            self.calls.append("start")

        def cancel(self) -> None:
            self.calls.append("cancel")

    monkeypatch.setattr(threading, "Timer", FakeTimer)
    players.prepare_players(["random"], on_slow=lambda: None, after=7)
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        players.prepare_players(["genius"], on_slow=lambda: None)
    players.prepare_players(["random"])  # no notice asked for: no timer
    assert [(t.interval, t.daemon, t.calls) for t in timers] == [
        (7, True, ["start", "cancel"]),
        (players.SLOW_PREPARE_SECONDS, True, ["start", "cancel"]),
    ]


def test_prepare_players_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        players.prepare_players(["random", "genius"], on_slow=lambda: None)


def test_ismcts_is_refused_before_the_first_game_under_rules_openspiel_cannot_hold() -> None:
    require("pyspiel")
    with pytest.raises(
        ValueError, match="the 'ismcts' bot plays only hands of OpenSpiel's"
    ) as info:
        players.prepare_players(["heuristic", "ismcts"], rules=Rules.preset("openspiel", 4))
    assert "hands of 13 cards (OpenSpiel deals at most 12" in str(info.value)
    fits = Rules(player_count=4, schedule="custom", custom_hand_sizes=(1, 2), hook=True)
    fits = Rules.from_dict({**fits.to_dict(), "trump_in_last_hand": True})
    players.prepare_players(["ismcts"], rules=fits)  # a hand OpenSpiel can hold: no error
    players.prepare_players(["heuristic"], rules=Rules.preset("openspiel", 4))  # not its rules


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


def test_levels_are_players_with_their_budgets() -> None:
    """``--bots expert,medium,...``: a level plays as its bot with its budget, unless the
    harness names a budget, and is named after the level in records and reports."""
    assert set(LEVELS) <= set(players.PLAYER_NAMES)
    seen: list[Budget] = []

    class Spy:
        name = "spy"

        def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
            seen.append(budget)
            return view.legal_actions[0]

    bot = LevelBot("hard", Spy(), LEVELS["hard"].budget)
    state = new_game(Rules(player_count=3), first_dealer=0)
    state, _ = apply(state, random_deal(state, random.Random(1)))
    view = view_for(state, min(state.to_act))
    bot.choose(view, random.Random(1), Budget())
    bot.choose(view, random.Random(1), Budget(simulations=7))
    assert seen == [LEVELS["hard"].budget, Budget(simulations=7)]
    for name, chosen in LEVELS.items():
        player = players.make_player(name)
        assert isinstance(player, LevelBot)
        assert player.name == name and player.budget == chosen.budget
        assert player.bot.name == chosen.bot


def test_simulate_with_levels(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ohhell.cli.main", "simulate", "--players", "3", "--schedule",
         "custom", "--hand-sizes", "2,1", "--bots", "hard,medium,easy", "--seed", "4",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "game-4.json").read_text())
    assert record["seats"] == ["hard 0", "medium 1", "easy 2"]
