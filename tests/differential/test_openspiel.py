"""Differential test: our engine against OpenSpiel's C++ ``oh_hell`` game.

The same deal, dealer and actions are fed to both implementations, and at every decision the
seat to act and the set of legal actions must agree; after every trick the winner and the
tricks won per seat must agree; at the end the points must agree.

Where OpenSpiel's game differs from ours, and how this test bridges each difference:

- **One hand, not a game.** OpenSpiel plays a single hand. We use
  ``Rules(schedule=Schedule.CUSTOM, custom_hand_sizes=(k,))``: a one-hand game of ``k`` cards.
- **Trick count chosen by chance.** OpenSpiel's first chance node picks the number of tricks,
  at random unless ``num_tricks_fixed`` is set. We fix it to ``k`` and assert that this chance
  node offers exactly ``k``. OpenSpiel allows 1 to ``(52 - 1) // n`` tricks (it always needs a
  card left to turn); ours allows up to ``52 // n`` (with 4 players our 13-card hand deals the
  whole deck and has no trump). Every size OpenSpiel allows is played for every player count.
- **Dealer chosen by chance.** OpenSpiel's second chance node picks the dealer; we pass the
  same seat as ``new_game(..., first_dealer=dealer)``.
- **Deals from player 0.** OpenSpiel gives deal card ``i`` to player ``i % n`` whatever the
  dealer; ours deals from the dealer's left. A :class:`~ohhell.engine.Deal` takes each seat's
  cards directly, so we build the same hands from OpenSpiel's deal.
- **A trump is always turned.** OpenSpiel turns the card after the deal in every hand; ours
  turns none in the last hand of a game, nor when the deal empties the stock. We set
  ``trump_in_last_hand=True``; ``n * k <= 51`` always leaves a card to turn.
- **The hook is always on.** OpenSpiel's last bidder (the dealer) may not make the bids total
  the tricks: our ``hook=True``.
- **Scoring.** With ``off_bid_penalty=False`` and ``points_per_trick=1`` OpenSpiel scores
  ``won + 10`` on an exact bid and ``won`` otherwise: our variant 6,
  ``missed_bid_scores_tricks=True`` (standard scoring would give 0 for a missed bid).
- **Variants OpenSpiel lacks.** It has only sequential bidding (no simultaneous bids), no La
  Podrida, no zero-bid bonus and no multi-hand schedules; those stay at our defaults here.
- **Encodings.** OpenSpiel's actions are integers: cards ``0..51``, then bid ``b`` as
  ``52 + b``; :mod:`ohhell.openspiel_bridge` maps them, and this test checks the mapping
  against OpenSpiel's own card names. Tricks won and bids are read from OpenSpiel's state
  string, the only place its Python API shows them.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Final

import pytest
from tests.conftest import require

from ohhell.engine import (
    DECK,
    Card,
    Deal,
    GameState,
    TrickWon,
    apply,
    legal_actions,
    new_game,
)
from ohhell.openspiel_bridge import (
    action_of,
    card_of,
    from_openspiel,
    one_hand_rules,
    to_openspiel,
)
from ohhell.openspiel_bridge import max_hand_size as max_tricks

require("pyspiel")  # skips the module off CI when open-spiel is missing; an error under CI
import pyspiel  # noqa: E402

PLAYER_COUNTS: Final = (3, 4, 5, 6, 7)
HANDS_PER_PLAYER_COUNT: Final = 420
"""5 player counts x 420 = 2,100 random hands, cycling through every hand size."""


@functools.cache
def openspiel_game(player_count: int, hand_size: int) -> Any:
    """OpenSpiel's ``oh_hell`` for ``player_count`` players and ``hand_size`` tricks."""
    return pyspiel.load_game(
        "oh_hell",
        {
            "players": player_count,
            "num_tricks_fixed": hand_size,
            "points_per_trick": 1,
            "off_bid_penalty": False,
        },
    )


def openspiel_row(ospiel_state: Any, label: str) -> tuple[int, ...]:
    """A per-player row (``"Bids"`` or ``"Tricks Won"``) of OpenSpiel's state string."""
    for line in str(ospiel_state).splitlines():
        if line.startswith(f"{label}:"):
            return tuple(int(value) for value in line.split(":", 1)[1].split())
    raise AssertionError(f"no {label!r} line in OpenSpiel's state:\n{ospiel_state}")


def deal_both(player_count: int, hand_size: int, rng: random.Random) -> tuple[GameState, Any]:
    """Run OpenSpiel's chance nodes with ``rng`` and give our engine the same hand: the
    states of both, ready for the first bid."""
    ospiel_state = openspiel_game(player_count, hand_size).new_initial_state()
    assert ospiel_state.chance_outcomes() == [(hand_size, 1.0)]
    ospiel_state.apply_action(hand_size)
    assert [a for a, _ in ospiel_state.chance_outcomes()] == list(range(player_count))
    dealer = rng.randrange(player_count)
    ospiel_state.apply_action(dealer)

    hands: list[list[Card]] = [[] for _ in range(player_count)]
    for i in range(player_count * hand_size):
        action = rng.choice(ospiel_state.legal_actions())
        ospiel_state.apply_action(action)
        hands[i % player_count].append(card_of(action))
    trump = rng.choice(ospiel_state.legal_actions())
    ospiel_state.apply_action(trump)
    assert not ospiel_state.is_chance_node()

    state = new_game(one_hand_rules(player_count, hand_size), first_dealer=dealer)
    state, _ = apply(state, Deal(tuple(map(tuple, hands)), card_of(trump)))
    return state, ospiel_state


def play_both(player_count: int, hand_size: int, seed: int) -> None:
    """Play one random hand through both engines, asserting that they agree throughout."""
    rng = random.Random(seed)
    where = f"{player_count} players, {hand_size} cards, seed {seed}"
    state, ospiel_state = deal_both(player_count, hand_size, rng)
    won = [0] * player_count
    step = 0
    while not ospiel_state.is_terminal():
        at = f"{where}, step {step}"
        assert not state.is_over, f"{at}: our hand ended before OpenSpiel's"
        (seat,) = state.to_act
        assert ospiel_state.current_player() == seat, f"{at}: different seat to act"
        ours = sorted(to_openspiel(a) for a in legal_actions(state))
        theirs = sorted(ospiel_state.legal_actions())
        assert ours == theirs, f"{at}: legal actions differ ({state.describe_position()})"

        action = rng.choice(theirs)
        state, events = apply(state, from_openspiel(action, seat))
        ospiel_state.apply_action(action)
        step += 1
        for event in events:
            if not isinstance(event, TrickWon):
                continue
            won[event.winner] += 1
            assert openspiel_row(ospiel_state, "Tricks Won") == tuple(won), (
                f"{at}: tricks won differ after trick {event.trick_index + 1}"
            )
            if not ospiel_state.is_terminal():
                assert ospiel_state.current_player() == event.winner, (
                    f"{at}: different winner of trick {event.trick_index + 1}"
                )

    assert state.is_over, f"{where}: OpenSpiel's hand ended before ours"
    (result,) = state.results
    assert result.bids == openspiel_row(ospiel_state, "Bids"), f"{where}: bids differ"
    assert result.tricks_won == tuple(won), f"{where}: tricks won differ"
    assert result.points == tuple(int(r) for r in ospiel_state.returns()), (
        f"{where}: points differ (bids {result.bids}, won {result.tricks_won})"
    )


def hand_size_of(player_count: int, index: int) -> int:
    """The hand size of random hand ``index``: cycles through every size OpenSpiel allows."""
    return 1 + index % max_tricks(player_count)


# ------------------------------------------------------------------------------ sanity


def test_card_mapping_is_a_bijection() -> None:
    assert sorted(map(card_of, range(52))) == list(DECK)
    assert [action_of(card_of(a)) for a in range(52)] == list(range(52))
    assert all(card_of(action_of(card)) is card for card in DECK)


def test_card_mapping_matches_openspiel_card_names() -> None:
    """OpenSpiel names a card suit letter first (``"C2"``, ``"HA"``); ours rank first."""
    ospiel_state = openspiel_game(4, 1).new_initial_state()
    ospiel_state.apply_action(1)
    ospiel_state.apply_action(0)
    names = [ospiel_state.action_to_string(a) for a in range(52)]
    assert names[:4] == ["C2", "D2", "S2", "H2"]
    assert names == [card_of(a).suit.letter.upper() + card_of(a).rank.letter for a in range(52)]


def test_bid_encoding_matches_openspiel() -> None:
    state, ospiel_state = deal_both(3, 2, random.Random(0))
    assert ospiel_state.legal_actions() == [52, 53, 54]
    assert [ospiel_state.action_to_string(a) for a in (52, 53, 54)] == ["0", "1", "2"]
    assert [to_openspiel(a) for a in legal_actions(state)] == [52, 53, 54]


@pytest.mark.parametrize("player_count", PLAYER_COUNTS)
def test_openspiel_hand_sizes_are_the_ones_covered(player_count: int) -> None:
    """OpenSpiel's random trick count ranges over 1..(52-1)//n, and the random hands below
    play each of those sizes."""
    game = pyspiel.load_game("oh_hell", {"players": player_count})
    outcomes = [a for a, _ in game.new_initial_state().chance_outcomes()]
    sizes = list(range(1, max_tricks(player_count) + 1))
    assert outcomes == sizes
    played = {hand_size_of(player_count, i) for i in range(HANDS_PER_PLAYER_COUNT)}
    assert sorted(played) == sizes


@pytest.mark.parametrize("player_count", PLAYER_COUNTS)
def test_a_hand_of_every_size(player_count: int) -> None:
    for hand_size in range(1, max_tricks(player_count) + 1):
        play_both(player_count, hand_size, seed=hand_size)


# ------------------------------------------------------------------------------ differential


@pytest.mark.parametrize("player_count", PLAYER_COUNTS)
def test_random_hands_agree_with_openspiel(player_count: int) -> None:
    """420 seeded random hands per player count (2,100 in all): same seat to act and legal
    actions at every step, same trick winners and tricks won, same points."""
    for index in range(HANDS_PER_PLAYER_COUNT):
        seed = player_count * 10_000 + index
        play_both(player_count, hand_size_of(player_count, index), seed=seed)
