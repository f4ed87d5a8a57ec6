"""Differential test: the fast path (:mod:`ohhell.bots.fast`, :mod:`ohhell.bots.batch`)
against the reference engine.

Both fast engines are played on many random positions under every variant that changes play
(3-7 players, trump or none, La Podrida, the hook), and at every step their legal cards, trick
winners and tricks won must equal :func:`ohhell.engine.legal_actions` / :func:`apply`'s.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ohhell.bots.batch import random_hands
from ohhell.bots.fast import (
    LOST_GRAB,
    LOST_PLAY_ON,
    LOST_SPOIL,
    NO_TRUMP,
    SUIT_MASKS,
    HandSim,
    _spoiler,
    cards_of,
    mask_of,
    play_likelihood,
    policy_card,
    rollout,
    rollout_card,
    score_tables,
    solve,
)
from ohhell.engine import (
    Bid,
    Card,
    Deal,
    GameState,
    Play,
    Rules,
    Schedule,
    apply,
    legal_actions,
    new_game,
    random_deal,
)

VARIANTS = [
    (players, trump, must_trump, hook)
    for players in range(3, 8)
    for trump in (True, False)
    for must_trump in (False, True)
    for hook in (False, True)
]


def one_hand_rules(players: int, size: int, trump: bool, must_trump: bool, hook: bool) -> Rules:
    """Rules of a single hand of ``size`` cards, a trump turned when ``trump``."""
    return Rules(
        player_count=players,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(size,),
        trump_in_last_hand=trump,
        must_trump=must_trump,
        hook=hook,
    )


def engine_legal_mask(state: GameState) -> int:
    return mask_of(a.card for a in legal_actions(state) if isinstance(a, Play))


@pytest.mark.parametrize(("players", "trump", "must_trump", "hook"), VARIANTS)
def test_numpy_batch_agrees_with_engine(
    players: int, trump: bool, must_trump: bool, hook: bool
) -> None:
    size = min(7, (52 - 1) // players)
    result = random_hands(
        np.random.default_rng(players * 8 + trump * 4 + must_trump * 2 + hook),
        12,
        players=players,
        hand_size=size,
        turn_trump=trump,
        hook=hook,
        must_trump=must_trump,
        record_legal=True,
    )
    assert result.legal is not None
    rules = one_hand_rules(players, size, trump, must_trump, hook)
    for game in range(12):
        dealer = int(result.dealer[game])
        state = new_game(rules, first_dealer=dealer)
        hands = tuple(tuple(Card.from_index(int(c)) for c in row) for row in result.hands[game])
        trump_card = int(result.trump[game])
        state, _ = apply(state, Deal(hands, Card.from_index(trump_card) if trump else None))
        for i in range(players):
            seat = (dealer + 1 + i) % players
            state, _ = apply(state, Bid(seat, int(result.bids[game, seat])))
        for step in range(players * size):
            assert engine_legal_mask(state) == int(result.legal[game, step])
            seat = min(state.to_act)
            state, _ = apply(state, Play(seat, Card.from_index(int(result.plays[game, step]))))
            if step % players == players - 1 and step < players * size - 1:
                assert state.leader == result.winners[game, step // players]
        assert state.results[-1].tricks_won == tuple(int(w) for w in result.tricks_won[game])
        winners = tuple(t.winner for t in state.results[-1].tricks)
        assert winners == tuple(int(w) for w in result.winners[game])


def sim_from_state(state: GameState) -> HandSim:
    return HandSim(
        hands=[mask_of(hand) for hand in state.hands],
        trump=-1 if state.trump is None else int(state.trump),
        must_trump=state.rules.must_trump,
        leader=state.leader,
        trick=[c.index for c in state.trick],
        won=state.tricks_won,
        bids=[b if b is not None else 0 for b in state.bids],
    )


def random_position(rng: random.Random, variant: tuple[int, bool, bool, bool]) -> GameState:
    """A single hand dealt, bid and partly played at random."""
    players, trump, must_trump, hook = variant
    size = rng.randint(1, (52 - 1) // players)
    state = new_game(one_hand_rules(players, size, trump, must_trump, hook))
    state, _ = apply(state, random_deal(state, rng))
    for _ in range(players + rng.randrange(players * size)):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_int_engine_agrees_with_engine_and_undoes(variant: tuple[int, bool, bool, bool]) -> None:
    rng = random.Random(hash(variant) & 0xFFFF)
    for _ in range(6):
        state = random_position(rng, variant)
        sim = sim_from_state(state)
        start = (list(sim.hands), sim.leader, list(sim.trick), list(sim.won))
        plays = 0
        while not state.is_over:
            assert sim.legal() == engine_legal_mask(state)
            assert sim.to_act == min(state.to_act)
            card = rng.choice(cards_of(sim.legal())) if plays % 2 else policy_card(sim)
            sim.play(card)
            plays += 1
            state, _ = apply(state, Play(min(state.to_act), Card.from_index(card)))
            if not state.is_over:
                assert sim.won == list(state.tricks_won)
                assert sim.leader == state.leader
        assert tuple(sim.won) == state.results[-1].tricks_won
        for _ in range(plays):
            sim.undo()
        assert (sim.hands, sim.leader, sim.trick, sim.won) == start


def test_rollout_policy_plays_legal_cards_to_the_end() -> None:
    rng = random.Random(7)
    for variant in VARIANTS[::3]:
        state = random_position(rng, variant)
        sim = sim_from_state(state)
        left = sim.cards_left
        won = rollout(sim.copy())
        assert sum(won) == sum(state.tricks_won) + (left + len(state.trick)) // state.player_count
        assert sim.cards_left == left


def test_rollout_plays_the_policy_cards() -> None:
    """The inlined rollout loop takes the same tricks as stepping :func:`policy_card`."""
    rng = random.Random(11)
    for variant in VARIANTS:
        state = random_position(rng, variant)
        sim = sim_from_state(state)
        stepped = sim.copy()
        while stepped.cards_left:
            stepped.play(policy_card(stepped))
        assert rollout(sim.copy()) == stepped.won


@pytest.mark.parametrize("lost", [LOST_PLAY_ON, LOST_SPOIL, LOST_GRAB])
def test_rollout_card_is_the_card_the_rollout_plays(lost: int) -> None:
    """Stepping :func:`rollout_card` takes the same tricks as :func:`rollout` (lost bids played
    on, spoiling or grabbing), and every card it gives is legal."""
    rng = random.Random(17)
    for variant in VARIANTS:
        state = random_position(rng, variant)
        sim = sim_from_state(state)
        sim.bids = [rng.randint(0, 2) for _ in sim.bids]  # some bids lost: the spoiler plays
        stepped = sim.copy()
        while stepped.cards_left:
            card = rollout_card(stepped, lost=lost)
            assert stepped.legal() >> card & 1
            stepped.play(card)
        assert rollout(sim.copy(), lost=lost) == stepped.won


def test_a_lost_bid_plays_on_spoils_or_grabs() -> None:
    """Seat 0 bid 0 and has a trick already; 5 of hearts led, it holds the 2 and the ace.
    Played on as if aiming at its bid, it ducks; spoiling (the leader needs no trick), it
    ducks too; grabbing (a missed bid scores its tricks), it takes the trick with the ace."""
    two, five, six, seven, ace = 26, 29, 30, 31, 38  # hearts
    sim = HandSim(
        hands=[mask_of([two, ace]), mask_of([six, 0]), mask_of([seven, 1]), mask_of([2])],
        trump=NO_TRUMP,
        must_trump=False,
        leader=3,
        trick=[five],
        won=[1, 0, 0, 0],
        bids=[0, 1, 0, 0],
    )
    assert rollout_card(sim, lost=LOST_PLAY_ON) == two
    assert rollout_card(sim, lost=LOST_SPOIL) == two
    assert rollout_card(sim, lost=LOST_GRAB) == ace
    assert rollout(sim.copy(), lost=LOST_GRAB)[0] == 3  # and the last trick, on lead
    assert rollout(sim.copy(), lost=LOST_PLAY_ON)[0] == 1


def test_play_likelihood_counts_the_others_departures_from_the_policy() -> None:
    """Plays that follow the rollout policy weigh 1; each choice of another seat that departs
    from it multiplies the weight by ``mismatch``; the observer's own plays never count, nor
    do forced ones."""
    rng = random.Random(19)
    for variant in VARIANTS:
        state = random_position(rng, variant)
        start = sim_from_state(state)
        start.hands = [mask_of(hand) for hand in state.dealt]
        start.leader = (state.dealer + 1) % start.n
        start.trick = []
        start.won = [0] * start.n
        observer = rng.randrange(start.n)
        sim = start.copy()
        plays: list[int] = []
        departures = 0
        while sim.cards_left:
            legal = sim.legal()
            card = rng.choice(cards_of(legal))
            if sim.to_act != observer and legal & (legal - 1) and card != rollout_card(sim):
                departures += 1
            plays.append(card)
            sim.play(card)
        assert play_likelihood(start.copy(), plays, observer, 0.5) == 0.5**departures
        policy_plays: list[int] = []
        sim = start.copy()
        while sim.cards_left:
            card = rollout_card(sim)
            policy_plays.append(card)
            sim.play(card)
        assert play_likelihood(start.copy(), policy_plays, observer, 0.5) == 1.0


def test_spoiling_rollout_plays_legal_cards_to_the_end() -> None:
    """Spoiling (``LOST_SPOIL``) with many bids lost, the rollout still finishes the hand
    (every trick won by someone); the spoiler's cards are checked for legality below."""
    rng = random.Random(13)
    for variant in VARIANTS:
        state = random_position(rng, variant)
        sim = sim_from_state(state)
        sim.bids = [rng.randint(0, 2) for _ in sim.bids]  # many bids lost early
        left = sim.cards_left
        won = rollout(sim.copy(), lost=LOST_SPOIL)
        assert sum(won) == sum(state.tricks_won) + (left + len(state.trick)) // state.player_count


def test_spoiler_cards_are_legal_and_beat_a_needy_winner() -> None:
    rng = random.Random(17)
    for variant in VARIANTS:
        state = random_position(rng, variant)
        sim = sim_from_state(state)
        trump_mask = 0 if sim.trump < 0 else SUIT_MASKS[sim.trump]
        best = sim.trick[sim.best_so_far()] if sim.trick else -1
        winner = (sim.leader + sim.best_so_far()) % sim.n if sim.trick else sim.to_act
        card = _spoiler(
            sim.legal(), best, winner, sim.to_act, trump_mask, sim.bids, sim.won, sim.hands
        )
        assert sim.legal() >> card & 1
    # seat 3 has lost its bid (bid 0, won 1); seat 2 is winning and needs a trick: overtake it
    sim = HandSim(
        hands=[0, 0, 0, mask_of([Card.from_str("Ah"), Card.from_str("2h")])],
        trump=3,
        must_trump=False,
        leader=0,
        trick=[Card.from_str(c).index for c in ("3h", "4h", "Kh")],
        won=[0, 0, 0, 1],
        bids=[0, 0, 1, 0],
    )
    hearts = mask_of([Card.from_str("Ah"), Card.from_str("2h")])
    kh = Card.from_str("Kh").index
    assert _spoiler(hearts, kh, 2, 3, SUIT_MASKS[3], sim.bids, sim.won, sim.hands) == (
        Card.from_str("Ah").index
    )
    # the winner needs no more: feed it the trick, keeping the ace
    assert _spoiler(hearts, kh, 2, 3, SUIT_MASKS[3], [0, 0, 0, 0], sim.won, sim.hands) == (
        Card.from_str("2h").index
    )


def test_policy_ducks_when_master_trumps_cover_the_bid() -> None:
    """Needing one trick while holding the master trump: lose this trick, keep the ace."""
    spades = 3
    sim = HandSim(
        hands=[
            mask_of([Card.from_str("3c")]),
            mask_of([Card.from_str("4c")]),
            mask_of([Card.from_str("6c")]),
            mask_of([Card.from_str("As"), Card.from_str("4d")]),
        ],
        trump=spades,
        must_trump=False,
        leader=0,
        trick=[Card.from_str(c).index for c in ("Kh", "Qh", "Jh")],
        won=[0, 0, 0, 0],
        bids=[1, 0, 0, 1],
    )
    assert policy_card(sim) == Card.from_str("4d").index
    sim.bids[3] = 2
    assert policy_card(sim) == Card.from_str("As").index


def _last_seat_holding(hand: str, trick: str, *, trump: int, bid: int = 1) -> HandSim:
    """Seat 3 of four, holding ``hand`` and needing ``bid`` tricks, last to play to the three
    cards of ``trick`` (led by seat 0); the others hold a low club each."""
    cards = [Card.from_str(c).index for c in trick.split()]
    return HandSim(
        hands=[mask_of([Card.from_str(c)]) for c in ("2c", "3c", "4c")]
        + [mask_of(Card.from_str(c) for c in hand.split())],
        trump=trump,
        must_trump=False,
        leader=0,
        trick=cards,
        won=[0, 0, 0, 0],
        bids=[0, 0, 0, bid],
    )


def test_policy_losing_a_trick_it_needs_sheds_the_card_likeliest_to_win_one_not_wanted() -> None:
    """Needing one trick of five and unable to win this one: keep the queen for the trick
    wanted and the low hearts for ducking; shed the nine, which could take a trick too many.
    (The rollouts used to throw the weakest card, the four.)"""
    diamonds = 1
    sim = _last_seat_holding("4h 5h 6h 9h Qh", "3d 5d Kh", trump=diamonds)
    assert policy_card(sim) == Card.from_str("9h").index


def test_policy_sure_of_a_trick_takes_it_with_the_card_it_can_spare() -> None:
    """Last to play, every card it holds wins the trick: needing one trick of two, win with
    the queen and keep the three, which can lose the last trick. (It used to win with the
    cheapest card, then take the last trick too with the queen.)"""
    hearts = 2
    sim = _last_seat_holding("3h Qh", "2d Qd Jd", trump=hearts)
    assert policy_card(sim) == Card.from_str("Qh").index
    sim.bids[3] = 2  # needing both: the rule of a seat needing every trick, the cheapest
    assert policy_card(sim) == Card.from_str("3h").index


def brute_force_values(
    sim: HandSim, root: int, scores: list[list[int]], rivalry: float = 0.0
) -> dict[int, tuple[int, ...]]:
    """The max^n values by plain recursion on copies (no cache, no undo), for checking: each
    seat ranks outcomes by its own points, then by the least for ``root``; ``root`` ranks
    them by its points less ``rivalry`` times the others' mean."""

    def rank(result: tuple[int, ...], seat: int) -> tuple[float, ...]:
        others = (sum(result) - result[root]) / (len(result) - 1)
        mine = result[root] - rivalry * others
        return (mine,) if seat == root else (result[seat], -mine)

    def value(node: HandSim) -> tuple[int, ...]:
        if not any(node.hands):
            return tuple(scores[s][node.won[s]] for s in range(node.n))
        seat = node.to_act
        best: tuple[int, ...] | None = None
        for card in cards_of(node.legal()):
            child = node.copy()
            child.play(card)
            result = value(child)
            if best is None or rank(result, seat) > rank(best, seat):
                best = result
        assert best is not None
        return best

    out = {}
    for card in cards_of(sim.legal()):
        child = sim.copy()
        child.play(card)
        out[card] = value(child)
    return out


def test_solver_matches_brute_force_on_small_end_games() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        variant = rng.choice(VARIANTS)
        players = variant[0]
        size = rng.randint(1, 3)
        state = new_game(one_hand_rules(players, size, *variant[1:]))
        state, _ = apply(state, random_deal(state, rng))
        while not state.is_over and state.phase.value == "bid":
            state, _ = apply(state, rng.choice(legal_actions(state)))
        for _ in range(rng.randrange(players)):
            state, _ = apply(state, rng.choice(legal_actions(state)))
        sim = sim_from_state(state)
        root = sim.to_act
        scores = score_tables(state.rules, sim.bids, size)
        rivalry = rng.choice([0.0, 0.5, 1.0])
        expected = brute_force_values(sim, root, scores, rivalry)
        assert solve(sim, root, scores, rivalry) == expected
        checked += 1


def test_solver_matches_brute_force_on_four_card_hands() -> None:
    """Four cards each, from the first lead: different lines reach the same cards with other
    tricks won, so the solver's table must tell them apart."""
    rng = random.Random(3)
    for _ in range(12):
        variant = rng.choice([v for v in VARIANTS if v[0] in (3, 4)])
        state = new_game(one_hand_rules(variant[0], 4, *variant[1:]))
        state, _ = apply(state, random_deal(state, rng))
        while state.phase.value == "bid":
            state, _ = apply(state, rng.choice(legal_actions(state)))
        sim = sim_from_state(state)
        scores = score_tables(state.rules, sim.bids, 4)
        assert solve(sim, sim.to_act, scores, 0.5) == brute_force_values(
            sim, sim.to_act, scores, 0.5
        )


def test_random_hands_refuses_impossible_deals() -> None:
    with pytest.raises(ValueError, match="players must be 3 to 7"):
        random_hands(np.random.default_rng(0), 1, players=2, hand_size=1)
    with pytest.raises(ValueError, match="cannot deal 13 cards to 4 players"):
        random_hands(np.random.default_rng(0), 1, players=4, hand_size=13)
