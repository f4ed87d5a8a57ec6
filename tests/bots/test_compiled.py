"""Differential test: the numba-compiled kernels (:mod:`ohhell.bots.compiled`: rollouts, the
exact solver, world weights) against their pure-Python references (:mod:`ohhell.bots.fast`,
:mod:`ohhell.bots.sampling`), and the search bot playing the same cards with either.

The kernels are compiled here when numba is installed (``compiled.load()``); without it they
run as plain Python, so the comparison holds on any install. Under ``CI=true`` numba must be
installed, so CI checks the compiled code."""

from __future__ import annotations

import inspect
import random
import re
from typing import Any

import pytest
from tests.bots.test_fast_path import VARIANTS, random_position, sim_from_state
from tests.conftest import require, run_python

from ohhell.bots import Budget, compiled, fast, sampling
from ohhell.bots.fast import (
    LOST_GRAB,
    LOST_PLAY_ON,
    LOST_SPOIL,
    HandSim,
    cards_of,
    mask_of,
    rollout,
)
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.sampling import Knowledge
from ohhell.bots.search import SearchBot
from ohhell.engine import (
    DECK,
    Bid,
    Card,
    Deal,
    Phase,
    Play,
    Rules,
    apply,
    new_game,
    random_deal,
    view_for,
)

LOST_MODES = (LOST_PLAY_ON, LOST_SPOIL, LOST_GRAB)
"""How rollouts play a seat whose bid is lost: on, spoiling or grabbing tricks."""


def test_compiled_kernels_load() -> None:
    require("numba")  # skips without numba, except under CI=true, where it fails
    assert compiled.AVAILABLE
    assert compiled.load()
    assert compiled.load()  # once loaded, stays loaded


def test_loading_compiles_every_kernel_called_from_python() -> None:
    """:func:`compiled.load` compiles (or loads from numba's cache) every kernel that a wrapper
    calls, so no timed decision, the first one included, pays for compiling one (seconds,
    more than any time budget). The kernels they call are compiled into them."""
    require("numba")
    assert compiled.load()
    names = [name for name in compiled.__all__ if name != "AVAILABLE"]
    wrappers = "".join(inspect.getsource(getattr(compiled, name)) for name in names)
    called = [name for name in compiled._KERNELS if re.search(rf"\b{name}\(", wrappers)]
    assert "_card_worlds" in called
    assert "_solve_cards" in called
    assert [name for name in called if not getattr(compiled, name).signatures] == []


def test_every_kernel_lets_other_threads_run() -> None:
    """A compiled kernel releases the interpreter lock: a search stuck in one (a bug, or a view
    no game gives) would otherwise stop every thread, the runner's overrun timer included, which
    then could not report it as ``play_game`` promises."""
    require("numba")
    assert compiled.load()
    held = [
        name for name in compiled._KERNELS if not getattr(compiled, name).targetoptions.get("nogil")
    ]
    assert held == []


def test_importing_the_bots_or_the_cli_does_not_import_numba() -> None:
    """numba is loaded when a search bot is built, not when the CLI starts (it costs 0.3 s)."""
    code = (
        "import sys\n"
        "import ohhell.cli.main, ohhell.bots.search, ohhell.bots.levels\n"
        "print('numba' in sys.modules)\n"
    )
    assert run_python(code) == "False"


@pytest.mark.parametrize("lost", LOST_MODES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_rollout_takes_the_same_tricks(
    variant: tuple[int, bool, bool, bool], lost: int
) -> None:
    """On random positions of every variant that changes play (3-7 players, trump or none, La
    Podrida, the hook; random bids, so many are lost and the spoiler or the grab plays), before
    and inside tricks: the same tricks won per seat, and the position left as it was."""
    compiled.load()  # compiled where numba is installed, else the kernels as plain Python
    rng = random.Random(hash((variant, lost)) & 0xFFFF)
    for _ in range(25):
        sim = sim_from_state(random_position(rng, variant))
        before = (list(sim.hands), list(sim.trick), list(sim.won), sim.leader)
        won = compiled.rollout(sim, lost=lost)
        assert (sim.hands, sim.trick, sim.won, sim.leader) == before
        assert won == rollout(sim.copy(), lost=lost)


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_policy_chooses_the_same_card_for_every_need(
    variant: tuple[int, bool, bool, bool],
) -> None:
    """Every card the rollout policy chooses along random hands, for every number of tricks
    still needed (none, some, all, more than it can take, overshot): the same compiled and in
    Python, so each of its rules (the fitted lead, keeping cards back, shedding) is checked
    on its own, not only through the tricks a whole rollout takes."""
    compiled.load()
    rng = random.Random(hash(variant) & 0xFFFF)
    for _ in range(12):
        sim = sim_from_state(random_position(rng, variant))
        while any(sim.hands):
            seat = sim.to_act
            hand = sim.hands[seat]
            out = 0
            for other in sim.hands:
                out |= other
            best = sim.trick[sim.best_so_far()] if sim.trick else -1
            for need in range(-1, hand.bit_count() + 2):
                expected = fast._policy(
                    hand, sim.legal(), out & ~hand, sim.trick, best, sim.n, sim.trump, need
                )
                got = compiled._policy(
                    hand, sim.legal(), out & ~hand, len(sim.trick), best, sim.n, sim.trump, need
                )
                assert got == expected, (need, cards_of(hand), sim.trick)
            sim.play(fast.policy_card(sim))


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize(
    "preset", ["standard", "hook", "simultaneous", "la-podrida", "score-tricks"]
)
def test_search_plays_the_same_compiled_or_not(
    preset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same view, same seed: the same bid or card with the decision loops compiled
    (:func:`compiled.card_worlds`, :func:`compiled.bid_worlds`: worlds drawn, weighted and
    searched in one call) and in Python, through bids, rollouts, the exact end game, play
    weighting, sealed bids and the spoiler, with voids shown (so worlds are dealt suit by
    suit), valuing cards by the seat's own points and by its lead (``rivalry``), the bids
    to come guessed once per world or after each candidate bid (``guess_after_bid``)."""
    if compiled.AVAILABLE:
        assert compiled.load()
    calls = {"cards": 0, "bids": 0}
    card_worlds, bid_worlds = compiled.card_worlds, compiled.bid_worlds

    def count_cards(*args: Any, **kwargs: Any) -> Any:
        calls["cards"] += 1
        return card_worlds(*args, **kwargs)

    def count_bids(*args: Any, **kwargs: Any) -> Any:
        calls["bids"] += 1
        return bid_worlds(*args, **kwargs)

    monkeypatch.setattr(compiled, "card_worlds", count_cards)
    monkeypatch.setattr(compiled, "bid_worlds", count_bids)
    rules = Rules.preset(preset, players)
    rng = random.Random(players)
    state = new_game(rules, first_dealer=1)
    budget = Budget(simulations=40)
    heuristic = HeuristicBot()
    compared = constrained = 0
    while not state.is_over and compared < 30:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
            continue
        seat = min(state.to_act)
        view = view_for(state, seat)
        if len(view.legal_actions) > 1:
            seed = rng.randrange(2**32)
            rivalry = (0.0, 0.5, 1.0)[compared % 3]
            after = compared % 2 == 1
            fast = SearchBot(compiled=True, rivalry=rivalry, guess_after_bid=after)
            slow = SearchBot(compiled=False, rivalry=rivalry, guess_after_bid=after)
            assert fast.choose(view, random.Random(seed), budget) == slow.choose(
                view, random.Random(seed), budget
            )
            compared += 1
            constrained += bool(sampling.uniform_sampler(view).constrained)
        state, _ = apply(state, heuristic.choose(view, rng, budget))
    assert compared == 30
    assert constrained > 0
    if compiled.AVAILABLE:  # the compiled loops made the decisions compared
        assert calls["cards"] > 0
        assert calls["bids"] > 0


def test_compiled_draw_deals_the_same_worlds() -> None:
    """The compiled sampler deals the same world as :meth:`WorldSampler.draw` from the same
    seed, on random positions of every variant (seeds over the whole 64 bits)."""
    compiled.load()
    rng = random.Random(7)
    constrained = grouped = 0
    for variant in VARIANTS:
        for _ in range(4):
            state = random_position(rng, variant)
            if state.phase not in (Phase.BID, Phase.PLAY):
                continue
            sampler = sampling.WorldSampler(
                sampling.knowledge(view_for(state, rng.randrange(variant[0])))
            )
            constrained += bool(sampler.constrained)
            grouped += any(len(group) > 1 for group in sampler.groups)
            for _ in range(5):
                seed = rng.getrandbits(64)
                assert compiled.draw(sampler, seed) == sampler.draw(seed)
    assert constrained >= 50
    assert grouped >= 5  # seats void in the same suits, dealt as one group and then split


def _snapshot(sim: HandSim) -> tuple[object, ...]:
    return (list(sim.hands), list(sim.trick), list(sim.won), list(sim.bids), sim.leader)


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_candidates_and_solver_agree(variant: tuple[int, bool, bool, bool]) -> None:
    """Each legal card rolled out (lost bids played on, spoiling or grabbing) and the exact
    max^n values of the legal cards (random score tables, so ties and tie-breaks are
    exercised): the same numbers compiled and in Python, the position left as it was."""
    compiled.load()
    rng = random.Random(f"solve/{variant}")  # the same in every run, as hash() of a str is not
    solved = 0
    for _ in range(25):
        sim = sim_from_state(random_position(rng, variant))
        if not any(sim.hands):
            continue
        before = _snapshot(sim)
        cards = cards_of(sim.legal())
        for lost in LOST_MODES:
            expected = fast.rollout_cards(sim, cards, lost=lost)
            assert compiled.rollout_cards(sim, cards, lost=lost) == expected
        if fast.solve_leaf_estimate(sim) <= 5000:
            width = max(h.bit_count() for h in sim.hands) + sum(sim.won) + 1
            scores = [[rng.randint(-5, 12) for _ in range(width)] for _ in range(sim.n)]
            root = sim.to_act
            for rivalry in (0.0, 0.5, 1.0):
                expected = fast.solve(sim.copy(), root, scores, rivalry)
                assert compiled.solve(sim, root, scores, rivalry) == expected
            solved += 1
        assert _snapshot(sim) == before
    assert solved >= 5


@pytest.mark.parametrize("players", range(3, 8))
def test_compiled_bid_rollouts_agree(players: int) -> None:
    """Every candidate bid played out from the hand's start, trump or none, La Podrida or not."""
    compiled.load()
    rng = random.Random(players)
    for _ in range(20):
        size = rng.randint(1, 51 // players)
        deck = rng.sample(range(52), 52)
        hands = [mask_of(deck[i * size : (i + 1) * size]) for i in range(players)]
        sim = HandSim(
            hands=hands,
            trump=rng.choice([-1, 0, 1, 2, 3]),
            must_trump=rng.random() < 0.5,
            leader=rng.randrange(players),
            won=[0] * players,
            bids=[rng.randint(0, size) for _ in range(players)],
        )
        before = _snapshot(sim)
        seat = rng.randrange(players)
        bids = list(range(size + 1))
        for lost in LOST_MODES:
            expected = fast.rollout_bids(sim, seat, bids, lost=lost)
            assert compiled.rollout_bids(sim, seat, bids, lost=lost) == expected
        assert _snapshot(sim) == before


def test_compiled_rollout_bids_refuses_a_hand_in_play() -> None:
    sim = HandSim(
        hands=[0b10, 0b100, 0b1000], trump=-1, must_trump=False, leader=0, trick=[0],
        won=[0, 0, 0], bids=[0, 0, 0],
    )  # fmt: skip
    with pytest.raises(ValueError, match="hand's start"):
        compiled.rollout_bids(sim, 0, [0, 1])


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_play_likelihood_agrees(variant: tuple[int, bool, bool, bool]) -> None:
    """The weight of the plays seen so far, replayed from the hand's start: the same factor
    compiled and in Python, for plays that follow the rollout policy, the spoiler or neither,
    whichever way lost bids are played."""
    compiled.load()
    players, trump, must_trump, _ = variant
    rng = random.Random(f"replay/{variant}")
    for _ in range(20):
        size = rng.randint(1, 51 // players)
        deck = rng.sample(range(52), 52)
        start = HandSim(
            hands=[mask_of(deck[i * size : (i + 1) * size]) for i in range(players)],
            trump=rng.randrange(4) if trump else -1,
            must_trump=must_trump,
            leader=rng.randrange(players),
            won=[0] * players,
            bids=[rng.randint(0, size) for _ in range(players)],
        )
        sim = start.copy()
        plays: list[int] = []
        for _ in range(rng.randrange(players * size + 1)):
            policy = fast.rollout_card(sim, lost=LOST_SPOIL)
            card = policy if rng.random() < 0.6 else rng.choice(cards_of(sim.legal()))
            plays.append(card)
            sim.play(card)
        observer = rng.randrange(players)
        before = _snapshot(start)
        for lost in LOST_MODES:
            expected = fast.play_likelihood(start.copy(), plays, observer, 0.75, lost=lost)
            assert compiled.play_likelihood(start, plays, observer, 0.75, lost=lost) == expected
        assert _snapshot(start) == before


def test_compiled_bid_model_agrees_on_lone_cards() -> None:
    """One card without trump, on lead or not: the top card of its suit is sure only when
    led, compiled as in Python."""
    compiled.load()
    for players in range(3, 8):
        for index in range(52):
            for on_lead in (False, True):
                expected = sampling.calibrated_tricks(1 << index, -1, players, on_lead)
                got = compiled.calibrated_tricks(1 << index, -1, players, on_lead)
                assert got == pytest.approx(expected, rel=1e-9)
                assert (expected == 1.0) == (on_lead and index % 13 == 12)


@pytest.mark.parametrize("players", range(3, 8))
def test_compiled_bid_model_agrees(players: int) -> None:
    """The calibrated trick estimate, the bid likelihood of a world and the guessed bids: the
    same compiled and in Python (the floats to a relative 1e-9: the compiled ``exp``, ``log``
    and ``pow`` may differ from CPython's in the last bit), sealed bids or not, and under
    the hook, where the last bidder's guess never brings the total to the hand's size."""
    compiled.load()
    rng = random.Random(players * 7)
    hooked = 0
    for _ in range(60):
        size = rng.randint(1, 51 // players)
        deck = rng.sample(range(52), 52)
        hands = [mask_of(deck[i * size : (i + 1) * size]) for i in range(players)]
        trump_card = deck[players * size] if rng.random() < 0.8 else -1
        first = rng.randrange(players)
        sealed = rng.random() < 0.3
        earlier = [rng.randint(0, size) for _ in range(rng.randrange(players))]
        on_lead = rng.random() < 0.5
        expected = sampling.calibrated_tricks(hands[0], trump_card, players, on_lead, earlier)
        got = compiled.calibrated_tricks(hands[0], trump_card, players, on_lead, earlier)
        assert got == pytest.approx(expected, rel=1e-9)
        bids = [rng.randint(0, size) if rng.random() < 0.7 else None for _ in range(players)]
        gone = rng.randrange(size)  # cards each seat has played: the world holds the rest
        played = [mask_of(cards_of(hand)[:gone]) for hand in hands]
        held = [hand & ~out for hand, out in zip(hands, played, strict=True)]
        know = Knowledge(
            seat=0, own=held[0], unseen=0, counts=(size - gone,) * players,
            voids=(0,) * players, played=tuple(played), stock_count=0,
        )  # fmt: skip
        expected = sampling.calibrated_bid_likelihood(
            know, held, bids, trump_card, first, 0.8, sealed=sealed
        )
        got = compiled.calibrated_bid_likelihood(
            know, held, bids, trump_card, first, 0.8, sealed=sealed
        )
        assert got == pytest.approx(expected, rel=1e-9)
        hook = not sealed and rng.random() < 0.5
        expected_bids = sampling.guess_bids(
            hands, bids, trump_card, first, size, sealed=sealed, hook=hook
        )
        got_bids = compiled.guess_bids(
            hands, bids, trump_card, first, size, sealed=sealed, hook=hook
        )
        assert got_bids == expected_bids
        hooked += hook and bids[(first - 1) % players] is None
        if hook and bids[(first - 1) % players] is None:
            assert sum(expected_bids) != size
    assert hooked > 0


def test_the_compiled_rollout_lead_uses_the_python_scores() -> None:
    """The rollout policy's lead wanting no more tricks is scored alike compiled and in
    Python (the compiled module writes the scores out for numba's cache)."""
    assert compiled._DUCK_LEAD_SCORES == fast.DUCK_LEAD_SCORES


def test_the_kernels_constants_written_out_agree_with_their_sources() -> None:
    """numba bakes the globals a kernel reads into its cached code, and its disk cache
    notices changes to the kernel's own file only; so the constants the kernels take from
    the other modules are written out in ``compiled`` and checked here."""
    from ohhell.bots import heuristic

    assert (compiled._LOST_SPOIL, compiled._LOST_GRAB) == (fast.LOST_SPOIL, fast.LOST_GRAB)
    assert compiled._SMALL_HAND_SHARE == heuristic.SMALL_HAND_SHARE
    assert compiled._BID_SURPRISE == sampling.BID_SURPRISE
    assert len(heuristic.CARD_WIN_WEIGHTS) == compiled._CALIBRATION_GROUPS
    assert sorted(heuristic.CARD_WIN_WEIGHTS) == list(range(compiled._CALIBRATION_GROUPS))
    assert (compiled._GUARD_CHANCE_TRUMP, compiled._GUARD_CHANCE_SIDE) == (
        heuristic.GUARD_CHANCE_TRUMP,
        heuristic.GUARD_CHANCE_SIDE,
    )
    assert compiled._SMALL_HAND_FACTOR == heuristic.SMALL_HAND_FACTOR
    assert (compiled._RUFF_LOW, compiled._RUFF_GAIN) == (heuristic.RUFF_LOW, heuristic.RUFF_GAIN)
    assert compiled._PRESSURE_SLOPE == heuristic.PRESSURE_SLOPE
    assert (compiled._PRESSURE_FLOOR, compiled._PRESSURE_CEILING) == heuristic.PRESSURE_LIMITS
    assert (compiled._PRESSURE_FIXED_BELOW, compiled._PRESSURE_FIXED_ABOVE) == (
        heuristic.PRESSURE_FIXED
    )
    assert compiled._PRESSURE_CAP == heuristic.PRESSURE_CAP


@pytest.mark.parametrize(
    ("players", "hand_size", "hook"), [(4, 12, True), (3, 1, False), (7, 7, True), (5, 3, False)]
)
def test_compiled_random_hands_are_hands_the_reference_engine_plays(
    players: int, hand_size: int, hook: bool
) -> None:
    """The fast path's random hands (what the throughput benchmark times against OpenSpiel's
    C++ loop) replayed on the reference engine: the deal, every bid (the hook's included) and
    every card legal there, and the same tricks won; the same hands compiled or as plain
    Python, from the same seed."""
    compiled.load()
    rules = Rules(
        player_count=players,
        schedule="custom",
        custom_hand_sizes=(hand_size,),
        trump_in_last_hand=True,
        hook=hook,
    )
    dealt = players * hand_size
    for seed in range(25):
        _, out = compiled.random_hands(
            1, players=players, hand_size=hand_size, hook=hook, seed=seed
        )
        dealer, trump = out[0], DECK[out[1]]
        hands: list[list[Card]] = [[] for _ in range(players)]
        for i, index in enumerate(out[2 : 2 + dealt]):
            hands[(dealer + 1 + i) % players].append(DECK[index])
        state = new_game(rules, first_dealer=dealer)
        state, _ = apply(state, Deal(tuple(tuple(hand) for hand in hands), trump))
        bids = out[2 + dealt : 2 + dealt + players]
        for i, bid in enumerate(bids):
            state, _ = apply(state, Bid((dealer + 1 + i) % players, bid))  # legal, or it raises
        plays = out[2 + dealt + players : 2 + 2 * dealt + players]
        for index in plays:
            (seat,) = state.to_act
            state, _ = apply(state, Play(seat, DECK[index]))
        assert state.is_over
        assert list(state.results[0].tricks_won) == out[-players:]


def test_compiled_random_hands_are_the_plain_python_kernels_hands() -> None:
    """The same hands from the same seed compiled and as plain Python (the kernels before
    :func:`compiled.load`, in a fresh interpreter)."""
    compiled.load()
    cases = [(4, 12, True), (7, 7, True), (3, 1, False)]
    here = [
        compiled.random_hands(60, players=p, hand_size=k, hook=hook, seed=9) for p, k, hook in cases
    ]
    plain = run_python(
        "from ohhell.bots import compiled\n"
        f"print([compiled.random_hands(60, players=p, hand_size=k, hook=h, seed=9)"
        f" for p, k, h in {cases!r}])"
    )
    assert plain == str(here)


@pytest.mark.parametrize("players", range(3, 8))
def test_compiled_bid_estimates_agree_with_their_worth(players: int) -> None:
    """The advisor's estimate (every bid) the same compiled and in Python: the worlds drawn,
    the trick chances and what the worlds are worth (up to the last bits of the weights),
    after bids made at random."""
    if compiled.AVAILABLE:
        assert compiled.load()
    rng = random.Random(f"worth/{players}")
    weighed = 0  # estimates whose worlds the bids weighed unequally
    for _ in range(4):
        size = rng.randint(2, min(8, 51 // players))
        state = new_game(Rules(player_count=players, schedule="custom", custom_hand_sizes=[size]))
        state, _ = apply(state, random_deal(state, rng))
        for _ in range(rng.randrange(players)):
            state, _ = apply(state, Bid(min(state.to_act), rng.randint(0, size)))
        view = view_for(state, min(state.to_act))
        seed = rng.getrandbits(32)
        fast_one, slow = (  # the same up to the last bits of the weights' arithmetic
            SearchBot(compiled=flag).estimate_bids(
                view,
                random.Random(seed),
                Budget(),
                every_bid=True,
                worlds=60,
            )
            for flag in (True, False)
        )
        assert (fast_one.worlds, fast_one.best) == (slow.worlds, slow.best)
        assert fast_one.effective_worlds == pytest.approx(slow.effective_worlds, rel=1e-12)
        for bid, chances in slow.by_bid.items():
            assert fast_one.by_bid[bid] == pytest.approx(chances, rel=1e-12, abs=1e-15)
        assert 0 < fast_one.effective_worlds <= fast_one.worlds == 60
        weighed += fast_one.effective_worlds < 59.0
    assert weighed > 0
