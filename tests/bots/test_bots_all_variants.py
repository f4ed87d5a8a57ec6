"""Every bot plays complete games under every preset and variant at 3-7 players, and a bot's
decision depends only on what its seat can see."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from ohhell.bots import Bot, Budget, HeuristicBot, RandomBot
from ohhell.bots.levels import LEVELS, level, make_bot
from ohhell.engine import PRESETS, GameState, Rules, apply, new_game, random_deal, view_for
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


def _lineup(players: int, seed: int) -> list[Bot]:
    """Heuristic and random bots mixed, so each game exercises both."""
    return [HeuristicBot() if (seat + seed) % 2 == 0 else RandomBot() for seat in range(players)]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("variant", [*PRESETS, *COMBINED])
def test_bots_play_whole_games_legally(variant: str, players: int) -> None:
    rules = _rules(variant, players)
    seed = players * 101 + len(variant)
    result = play_game(rules, _lineup(players, seed), deal_rng=random.Random(seed))
    assert result.state.is_over
    assert len(result.state.results) == rules.hand_count


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


def _reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same state with the cards ``seat`` cannot see dealt differently among the others."""
    others = [s for s in range(state.player_count) if s != seat]
    pool = [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s] = tuple(sorted(pool[:size]))
        pool = pool[size:]
    return dataclasses.replace(state, hands=tuple(hands))


@pytest.mark.parametrize("bot", [HeuristicBot(), RandomBot()], ids=lambda b: b.name)
@pytest.mark.parametrize("variant", ["standard", "simultaneous", "la-podrida"])
def test_decision_ignores_cards_the_seat_cannot_see(bot: Bot, variant: str) -> None:
    rules = Rules.preset(variant, 4)
    shuffler = random.Random(7)
    changed = 0
    for state in _states(rules, seed=11)[::3]:
        seat = min(state.to_act)
        other = _reshuffle_hidden(state, seat, shuffler)
        changed += other.hands != state.hands
        first = bot.choose(view_for(state, seat), random.Random(3), Budget())
        second = bot.choose(view_for(other, seat), random.Random(3), Budget())
        assert first == second, state.describe_position()
    assert changed > 10  # the hidden cards really moved


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
    with pytest.raises(ValueError, match="unknown level 'godlike'; levels: easy"):
        level("godlike")
