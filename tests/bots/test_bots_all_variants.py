"""Every bot (random, heuristic, search) plays complete games under every preset and variant at
3-7 players, and a bot's decision (every level's and OpenSpiel's IS-MCTS's too) depends only on
what its seat can see."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.conftest import require
from tests.engine.test_views_leak import rearrange_hidden, stock

from ohhell.bots import Bot, Budget, HeuristicBot, RandomBot, SearchBot
from ohhell.bots.levels import BOT_NAMES, LEVELS, level, make_bot
from ohhell.engine import (
    PRESETS,
    GameState,
    Rules,
    apply,
    new_game,
    random_deal,
    view_for,
)
from ohhell.players import make_player
from ohhell.runner import play_game

PLAYER_COUNTS = (3, 4, 5, 6, 7)

COMBINED: dict[str, dict[str, Any]] = {
    "podrida-simultaneous-scoring": {
        "must_trump": True,
        "bidding": "simultaneous",
        "missed_bid_scores_tricks": True,
        "zero_bid_bonus": True,
    },
    "hook-podrida-zero-bonus": {"hook": True, "must_trump": True, "zero_bid_bonus": True},
    "turning-hand-twice-trump-last": {
        "schedule": "up-and-down",
        "repeat_turning_hand": True,
        "trump_in_last_hand": True,
        "hook": True,
    },
}


def _rules(name: str, players: int) -> Rules:
    if name in PRESETS:
        return Rules.preset(name, players)
    return Rules.from_dict({"player_count": players, **COMBINED[name]})


SMALL = Budget(simulations=16)
"""A search budget small enough for whole games in a test (the other bots ignore it)."""


def _search() -> SearchBot:
    return SearchBot(min_worlds=2)


def _lineup(players: int, seed: int) -> list[Bot]:
    """Search, heuristic and random bots in turn, from a seat that moves with the seed: every
    table (at least three seats) exercises all three."""
    kinds: tuple[Callable[[], Bot], ...] = (_search, HeuristicBot, RandomBot)
    return [kinds[(seat + seed) % len(kinds)]() for seat in range(players)]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("variant", [*PRESETS, *COMBINED])
def test_bots_play_whole_games_legally(variant: str, players: int) -> None:
    """The harness refuses an illegal action (``BotFailure``), so a finished game is a legal
    one; each bot must have decided in it, bids and cards."""
    rules = _rules(variant, players)
    seed = players * 101 + len(variant)
    lineup = _lineup(players, seed)
    assert {bot.name for bot in lineup} == set(BOT_NAMES)
    result = play_game(rules, lineup, deal_rng=random.Random(seed), budget=SMALL)
    assert result.state.is_over
    assert len(result.state.results) == rules.hand_count
    assert [r.hand_size for r in result.state.results] == list(rules.hand_sizes())
    decisions = len(rules.hand_sizes()) + sum(rules.hand_sizes())  # a bid and a card a trick
    assert [len(t) for t in result.decision_seconds] == [decisions] * players


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_heuristic_table_plays_every_hand(players: int) -> None:
    """An all-heuristic table under the hook (the dealer is restricted at every hand)."""
    rules = Rules.preset("hook", players)
    result = play_game(rules, [HeuristicBot()] * players, deal_rng=random.Random(players))
    assert len(result.state.results) == rules.hand_count


def _states(rules: Rules, seed: int) -> list[GameState]:
    """Every decision point of one random game."""
    rng = random.Random(seed)
    state = new_game(rules, first_dealer=seed % rules.player_count)
    out: list[GameState] = []
    while not state.is_over:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
            continue
        out.append(state)
        state, _ = apply(state, rng.choice(view_for(state, min(state.to_act)).legal_actions))
    return out


HIDDEN_VARIANTS = ("standard", "simultaneous", "la-podrida", "hook-podrida-zero-bonus")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("name", [*BOT_NAMES, *LEVELS])
def test_decision_ignores_cards_the_seat_cannot_see(name: str, players: int) -> None:
    """Every bot and every level, bids and cards, at every table size: the other seats' cards
    and the stock dealt again (which cards are out, not only who holds them) and sealed bids
    made again change nothing the seat sees, so they must change nothing it decides (same
    seed). The levels think for the small budget given them (their own, of seconds, would
    stop on the clock, and the same seed would not repeat a decision)."""
    bot = _search() if name == "search" else make_player(name)
    shuffler = random.Random(7)
    checked = hands_moved = stock_moved = bids_moved = 0
    for variant in HIDDEN_VARIANTS:
        rules = _rules(variant, players)
        states = _states(rules, seed=11 + players)
        sealed = [s for s in states if not s.bids_revealed and s.bids.count(None) < players]
        for state in states[::11] + sealed[::3]:
            seat = min(state.to_act)
            other = rearrange_hidden(state, seat, shuffler)
            view = view_for(state, seat)
            assert view_for(other, seat) == view  # only hidden things moved
            hands_moved += other.hands != state.hands
            stock_moved += stock(other) != stock(state)
            bids_moved += other.bids != state.bids
            first = bot.choose(view, random.Random(3), SMALL)
            second = bot.choose(view_for(other, seat), random.Random(3), SMALL)
            assert first == second, (variant, state.describe_position())
            checked += 1
    assert hands_moved > 50 and stock_moved > 50 and bids_moved > 5, (checked, players)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_ismcts_decision_ignores_cards_the_seat_cannot_see(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenSpiel's IS-MCTS in our harness (``ismcts``; on OpenSpiel's hands: bids in turn, the
    hook, a trump card always turned) with the other seats' cards and the stock dealt again
    searches the same OpenSpiel states (every card dealt in them), from the same seeds, for the
    same simulations, and so decides alike (same seed). The C++ search is not reproducible from
    its seed (see ``IsmctsPlayer``), so each search's policy is kept and given again to a
    search of the same input: what differs between the twins can only come from the input."""
    require("pyspiel")
    from ohhell.openspiel_bridge import IsmctsBot

    searched: list[tuple[object, ...]] = []
    policies: dict[tuple[object, ...], list[tuple[int, float]]] = {}
    search = IsmctsBot._search

    def remembered(
        bot: IsmctsBot, ospiel_state: Any, seed: int, simulations: int, seconds: float | None
    ) -> list[tuple[int, float]]:
        history = tuple((int(h.player), int(h.action)) for h in ospiel_state.full_history())
        searched.append(key := (history, seed, simulations, seconds))
        if key not in policies:
            policies[key] = search(bot, ospiel_state, seed, simulations, seconds)
        return policies[key]

    monkeypatch.setattr(IsmctsBot, "_search", remembered)
    rules = Rules(
        player_count=players,
        schedule="custom",
        custom_hand_sizes=(2, 4),
        hook=True,
        trump_in_last_hand=True,
        missed_bid_scores_tricks=True,
    )
    bot = make_player("ismcts")
    budget = Budget(simulations=8)  # four searches of two
    shuffler = random.Random(7)
    checked = moved = 0
    for state in _states(rules, seed=players):
        seat = min(state.to_act)
        other = rearrange_hidden(state, seat, shuffler)
        view = view_for(state, seat)
        assert view_for(other, seat) == view
        moved += other.hands != state.hands
        searched.clear()
        first = bot.choose(view, random.Random(3), budget)
        seen, searched[:] = list(searched), []
        second = bot.choose(view_for(other, seat), random.Random(3), budget)
        assert searched == seen
        assert first == second, state.describe_position()
        checked += len(seen) > 0
    assert checked > 4 * players and moved > 4 * players


def test_levels_name_bots_and_budgets() -> None:
    for name, chosen in LEVELS.items():
        bot, budget = level(name)
        assert bot.name == chosen.bot and budget == chosen.budget
    # the budgets docs/bots.md's ladder promises
    assert [(name, chosen.bot, chosen.budget) for name, chosen in LEVELS.items()] == [
        ("easy", "random", Budget()),
        ("medium", "heuristic", Budget()),
        ("hard", "search", Budget(simulations=1280, seconds=0.15)),
        ("expert", "search", Budget(simulations=5000, seconds=0.5)),
    ]
    assert make_bot("random").name == "random"
    with pytest.raises(ValueError, match="unknown bot 'genius'; bots: random, heuristic"):
        make_bot("genius")
    with pytest.raises(ValueError, match=r"search \('hard' is a level: level_bot\('hard'\)\)$"):
        make_bot("hard")
    with pytest.raises(ValueError, match="unknown level 'godlike'; levels: easy"):
        level("godlike")
