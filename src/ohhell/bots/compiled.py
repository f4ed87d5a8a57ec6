"""The search's inner loops compiled with numba: the same results as their pure-Python
references, several times faster.

The fast path takes, for each job, whichever of numpy vectorisation and numba compilation
measures faster: numba, for the search bot's work, where every card depends on the trick, the
bids and the cards still out, and for random hands played in bulk too (:func:`random_hands`,
about three times the numpy batch engine :mod:`ohhell.bots.batch`).
``benchmarks/fast_path_throughput.py`` measures each against its reference (the figures are
in ``docs/bots.md``). Compiled here, each with its reference:

- :func:`rollout`, :func:`rollout_cards`, :func:`rollout_bids`: the rollout policy
  (:func:`ohhell.bots.fast.policy_card`, with lost bids played on, spoiling or grabbing
  tricks) playing a hand out, for one position,
  for each candidate card, or for each candidate bid (:mod:`ohhell.bots.fast`);
- :func:`solve`: the exact max^n end game (:func:`ohhell.bots.fast.solve`), on an explicit
  stack (numba cannot cache recursive functions);
- :func:`play_likelihood`: how likely the plays seen were under the rollout policy
  (:func:`ohhell.bots.fast.play_likelihood`);
- :func:`calibrated_tricks`, :func:`calibrated_bid_likelihood`, :func:`guess_bids`: the
  calibrated bid model that weights worlds and guesses bids not made yet
  (:mod:`ohhell.bots.sampling`);
- :func:`random_hands`: whole hands of random legal play on the same kernels, what the
  throughput benchmark times against OpenSpiel's C++ loop (replayed on the reference engine
  by the tests).

The kernels are written in the subset of Python that numba compiles. They run as plain Python
(slowly; the tests use that to check them on any install) until :func:`load` compiles them,
which the search bot does when it is built. numba is optional (the ``bots`` extra installs it):
without it :data:`AVAILABLE` is false and the search bot uses the references. Either way the
search plays the same cards: ``tests/bots/test_compiled.py`` checks every kernel against its
reference on random positions of every player count, every way of playing lost bids and La
Podrida's obligation to trump (the bid model's floats to a relative 1e-9: compiled ``exp``,
``log`` and ``pow`` may differ from CPython's in the last bit).

>>> from ohhell.bots.fast import LOST_GRAB, LOST_PLAY_ON, LOST_SPOIL, HandSim, cards_of, mask_of
>>> sim = HandSim(hands=[mask_of([12, 0]), mask_of([11, 1]), mask_of([10, 2])], trump=-1,
...               must_trump=False, leader=0, won=[0, 0, 0], bids=[1, 1, 0])
>>> rollout(sim)
[1, 1, 0]
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Final, TypeVar

from ohhell.bots.fast import LOST_PLAY_ON, LOST_SPOIL, HandSim, cards_of
from ohhell.bots.heuristic import CARD_WIN_WEIGHTS, calibration_shift
from ohhell.bots.sampling import Knowledge, SuitTable, WorldSampler

# The rollout policy's lead wanting no more tricks, :data:`ohhell.bots.fast.DUCK_LEAD_SCORES`,
# written out here: numba's disk cache notices changes to this file only (a test checks that
# the two agree).
_DUCK_LEAD_SCORES: Final = (1439, 1129, 544, 304, 162, -15, 536, -693)
(
    _DUCK_TRUMP,
    _DUCK_SINGLE,
    _DUCK_LOWEST,
    _DUCK_ABOVE,
    _DUCK_BELOW,
    _DUCK_RANK,
    _DUCK_WEAKEST,
    _DUCK_LENGTH,
) = _DUCK_LEAD_SCORES

# The other constants the kernels read from the other bots' modules, written out for the same
# reason (a test checks each against its source): numba bakes a global into the compiled code.
_LOST_SPOIL: Final = 1
""":data:`ohhell.bots.fast.LOST_SPOIL`."""
_LOST_GRAB: Final = 2
""":data:`ohhell.bots.fast.LOST_GRAB`."""
_SMALL_HAND_SHARE: Final = 0.5
""":data:`ohhell.bots.heuristic.SMALL_HAND_SHARE`."""
_BID_SURPRISE: Final = 0.05
""":data:`ohhell.bots.sampling.BID_SURPRISE`."""
_CALIBRATION_GROUPS: Final = 7
"""How many groups of weights :data:`ohhell.bots.heuristic.CARD_WIN_WEIGHTS` has."""
# The card model's hand-set constants (:data:`ohhell.bots.heuristic.GUARD_CHANCE_TRUMP` on).
_GUARD_CHANCE_TRUMP: Final = 0.6
_GUARD_CHANCE_SIDE: Final = 0.45
_SMALL_HAND_FACTOR: Final = 0.6
_RUFF_LOW: Final = 0.5
_RUFF_GAIN: Final = 0.5
_PRESSURE_SLOPE: Final = 0.12
_PRESSURE_FLOOR: Final = 0.6
_PRESSURE_CEILING: Final = 1.4
_PRESSURE_FIXED_BELOW: Final = 0.05
_PRESSURE_FIXED_ABOVE: Final = 0.9
_PRESSURE_CAP: Final = 0.95

__all__ = [
    "AVAILABLE",
    "bid_worlds",
    "calibrated_bid_likelihood",
    "calibrated_tricks",
    "card_worlds",
    "draw",
    "guess_bids",
    "load",
    "play_likelihood",
    "random_hands",
    "rollout",
    "rollout_bids",
    "rollout_cards",
    "solve",
]

_F = TypeVar("_F", bound=Callable[..., Any])

AVAILABLE: Final = all(importlib.util.find_spec(m) is not None for m in ("numba", "numpy"))
"""Whether numba (and numpy) are installed, so that :func:`rollout` can run compiled."""

_KERNELS: list[str] = []
"""The kernels' names: :func:`load` rebinds each to its compiled version."""
_numpy: ModuleType | None = None
"""numpy, once :func:`load` has compiled the kernels."""
_SHIFTS_AT: Final = 8 * _CALIBRATION_GROUPS
_WEIGHTS: Final = [w for group in sorted(CARD_WIN_WEIGHTS) for w in CARD_WIN_WEIGHTS[group]] + [
    calibration_shift(players, group) for players in range(8) for group in range(2)
]
"""The heuristic's card-win calibration in a row: its groups of eight weights, then from
``_SHIFTS_AT`` the log-odds shift of groups 0 and 1 for 0 to 7 players."""
_weights: Any = _WEIGHTS
""":data:`_WEIGHTS` as the kernels take it (a numpy array once :func:`load` has run)."""


class _Lists:
    """What the kernels allocate scratch with while they run as plain Python: ``zeros``
    gives a list (:func:`load` swaps in numpy before compiling them)."""

    int64 = int
    float64 = float

    @staticmethod
    def zeros(size: int, dtype: type) -> list[Any]:
        return [dtype()] * size


_arrays: Any = _Lists
"""How kernels allocate arrays: :class:`_Lists`, then numpy once :func:`load` has run."""


def _kernel(function: _F) -> _F:
    """Register ``function`` as a kernel, compiled by :func:`load` (plain Python until then)."""
    _KERNELS.append(function.__name__)
    return function


def load() -> bool:
    """Compile the kernels with numba and return whether they now run compiled. The first time
    after an install or an upgrade compiling takes about 20 s; numba caches the result on disk
    (next to this module, or in the user's cache), and later processes load it in about 1 s.

    Lazy, so that importing the bots does not import numba (0.3 s); the search bot calls it
    when it is built, so no timed decision pays for it. A broken numba install leaves the
    kernels as plain Python and returns false."""
    global _numpy, _weights, _arrays
    if _numpy is not None:
        return True
    if not AVAILABLE:
        return False
    try:
        numba = importlib.import_module("numba")
        numpy = importlib.import_module("numpy")
    except ImportError:  # pragma: no cover - a broken installation
        return False
    module = globals()
    _arrays = numpy  # before compiling: the kernels' scratch arrays become numpy's
    for name in _KERNELS:  # rebound before any is compiled: each call resolves to a kernel
        # nogil: a kernel touches no Python object, and lets other threads run meanwhile (the
        # runner's overrun timer among them, which must report a bot that does not return)
        module[name] = numba.njit(cache=True, nogil=True)(module[name])
    _weights = numpy.array(_WEIGHTS, dtype=numpy.float64)
    _numpy = numpy
    _warm_up()
    return True


def _warm_up() -> None:
    """Run every wrapper once on a small position, so each kernel is compiled (or loaded from
    numba's cache) here rather than in the first decision that needs it."""
    sim = HandSim(
        hands=[0b11 << 11, 0b11, 0b11 << 24], trump=0, must_trump=True, leader=0,
        won=[0, 0, 0], bids=[1, 0, 1],
    )  # fmt: skip
    rollout(sim, lost=LOST_SPOIL)
    random_hands(1, players=3, hand_size=1, hook=True, seed=0)
    rollout_cards(sim, [11, 12], lost=LOST_SPOIL)
    rollout_bids(sim, 0, [0, 1], lost=LOST_SPOIL)
    solve(sim, 0, [[0, 1, 2]] * 3)
    ending = HandSim(
        hands=[0b11 << 11, 0b1, 0b1 << 24], trump=0, must_trump=True, leader=1, trick=[1, 25],
        won=[0, 0, 0], bids=[1, 0, 1],
    )  # fmt: skip
    solve(ending, 0, [[0, 1, 2]] * 3)  # seat 0's card ends the trick
    play_likelihood(sim, [12, 0], 2, 0.5, lost=LOST_SPOIL)
    know = Knowledge(
        seat=0, own=sim.hands[0], unseen=0, counts=(2, 2, 2), voids=(0, 0, 0),
        played=(0, 0, 0), stock_count=0,
    )  # fmt: skip
    calibrated_bid_likelihood(know, sim.hands, [1, 0, None], 10, 1)
    calibrated_tricks(sim.hands[1], 10, 3, True, [1])
    guess_bids(sim.hands, [1, None, None], -1, 1, 2)
    # The whole decisions, on worlds dealt suit by suit (seat 2 has shown a void in clubs).
    sampler = WorldSampler(
        Knowledge(
            seat=0, own=sim.hands[0], unseen=sim.hands[1] | sim.hands[2], counts=(2, 2, 2),
            voids=(0, 0, 1), played=(0, 0, 0), stock_count=0,
        )
    )  # fmt: skip
    draw(sampler, 1)
    card_worlds(
        sampler, [1, 2], sim, [11, 12], [[0, 1, 2]] * 3, bids=[1, 0, 1], spread=1.0,
        trump_card=10, first_bidder=0, sealed=False, plays=[], first_leader=0, mismatch=0.75,
        lost=LOST_SPOIL, solving=False,
    )  # fmt: skip
    bid_worlds(
        sampler, [1, 2], [0, 1], bids=[None] * 3, spread=1.0, trump_card=10, trump=0,
        must_trump=True, first_bidder=1, hand_size=2, sealed=False, lost=LOST_SPOIL,
    )  # fmt: skip


@_kernel
def _suit_mask(suit: int) -> int:
    """:data:`ohhell.bots.fast.SUIT_MASKS` ``[suit]``."""
    return 0x1FFF << (13 * suit)


@_kernel
def _bit_length(mask: int) -> int:
    """``int.bit_length`` of a non-negative mask below 2**64."""
    if mask <= 0:
        return 0
    n = 1
    for shift in (32, 16, 8, 4, 2, 1):
        if mask >> shift:
            mask >>= shift
            n += shift
    return n


@_kernel
def _lowest(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return _bit_length(mask & -mask) - 1


@_kernel
def _count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@_kernel
def _weakest(mask: int, trump_mask: int) -> int:
    side = mask & ~trump_mask
    if not side:
        return _lowest(mask)
    best = -1
    rank = 99
    for suit in range(4):
        m = side & _suit_mask(suit)
        if m:
            card = _lowest(m)
            if card - 13 * suit < rank:
                rank = card - 13 * suit
                best = card
    return best


@_kernel
def _lead_wanting_none(legal: int, hand: int, out: int, trump_mask: int) -> int:
    """:func:`ohhell.bots.fast._lead_wanting_none`."""
    weakest = _weakest(legal, trump_mask)
    left = _count(hand)
    best = -1
    top = -(1 << 60)
    rest = legal
    while rest:
        low = rest & -rest
        card = _bit_length(low) - 1
        rest ^= low
        suit_mask = _suit_mask(card // 13)
        mine = hand & suit_mask
        length = _count(mine)
        above = _count(out & suit_mask & ~((2 << card) - 1))
        below = _count(out & suit_mask & ((1 << card) - 1))
        score = (
            left
            * (
                _DUCK_TRUMP * ((trump_mask >> card) & 1)
                + _DUCK_SINGLE * (1 if length == 1 else 0)
                + _DUCK_LOWEST * (1 if (mine & -mine) == low else 0)
                + _DUCK_ABOVE * min(above, 4)
                + _DUCK_BELOW * min(below, 4)
                + _DUCK_RANK * (card % 13)
                + _DUCK_WEAKEST * (1 if card == weakest else 0)
            )
            + _DUCK_LENGTH * length
        )
        if score > top:
            top = score
            best = card
    return best


@_kernel
def _strength(card: int, out: int, trump_mask: int) -> int:
    """:func:`ohhell.bots.fast._strength`."""
    above = _count(out & _suit_mask(card // 13) & ~((2 << card) - 1))
    return (3 * ((trump_mask >> card) & 1) - above) * 13 + card % 13


@_kernel
def _strongest_by_strength(mask: int, out: int, trump_mask: int) -> int:
    """:func:`ohhell.bots.fast._strongest_by_strength`."""
    best = -1
    top = -(1 << 30)
    for suit in range(4):
        mine = mask & _suit_mask(suit)
        if mine:
            card = _bit_length(mine) - 1
            strength = _strength(card, out, trump_mask)
            if strength > top:
                top = strength
                best = card
    return best


@_kernel
def _shed(hand: int, legal: int, out: int, trump_mask: int, keep: int) -> int:
    """:func:`ohhell.bots.fast._shed`."""
    kept = 0
    for _ in range(keep):
        kept |= 1 << _strongest_by_strength(hand & ~kept, out, trump_mask)
    spare = legal & ~kept
    if not spare:
        return _weakest(legal, trump_mask)
    return _strongest_by_strength(spare, out, trump_mask)


@_kernel
def _strongest(mask: int, trump_mask: int) -> int:
    trumps = mask & trump_mask
    if trumps:
        return _bit_length(trumps) - 1
    best = -1
    rank = -1
    for suit in range(4):
        m = mask & _suit_mask(suit)
        if m:
            card = _bit_length(m) - 1
            if card - 13 * suit > rank:
                rank = card - 13 * suit
                best = card
    return best


@_kernel
def _policy(
    hand: int, legal: int, out: int, played: int, best: int, n: int, trump: int, need: int
) -> int:
    """:func:`ohhell.bots.fast._policy`, with ``played`` the number of cards in the trick."""
    if legal & (legal - 1) == 0:
        return _bit_length(legal) - 1
    trump_mask = _suit_mask(trump) if trump >= 0 else 0
    left = _count(hand)
    if 0 < need < left and trump_mask:
        top_out = _bit_length(out & trump_mask)
        sure = hand & trump_mask & ~((1 << top_out) - 1)
        if _count(sure) >= need:
            spare = legal & ~sure
            if spare:
                legal = spare
                need = 0
    if best < 0:
        if need <= 0:
            return _lead_wanting_none(legal, hand, out, trump_mask)
        top_trump = legal & trump_mask
        if top_trump and _bit_length(top_trump) > _bit_length(out & trump_mask):
            return _bit_length(top_trump) - 1
        for suit in range(4):
            suit_mask = _suit_mask(suit)
            mine = legal & suit_mask
            if mine and _bit_length(mine) > _bit_length(out & suit_mask) and out & suit_mask:
                return _bit_length(mine) - 1
        if need >= left:
            return _strongest(legal, trump_mask)
        return _weakest(legal, trump_mask)
    suit = best // 13
    above = ~((2 << best) - 1)
    if suit == trump:
        winners = legal & trump_mask & above
    else:
        winners = (legal & _suit_mask(suit) & above) | (legal & trump_mask)
    if need > 0:
        if need < left:
            if not winners:
                return _shed(hand, legal, out, trump_mask, need)
            if winners == legal and (played == n - 1 or winners & _suit_mask(suit) == 0):
                return _shed(hand, legal, out, trump_mask, need - 1)
        if not winners:
            return _weakest(legal, trump_mask)
        if played == n - 1 or winners & _suit_mask(suit) == 0:
            return _lowest(winners)
        top_out = _bit_length(out & _suit_mask(suit))
        masters = winners & ~((1 << top_out) - 1)
        if masters:
            return _lowest(masters)
        return _bit_length(winners) - 1
    losers = legal & ~winners
    if losers:
        return _strongest(losers, trump_mask)
    if played < n - 1:
        return _lowest(winners)
    return _bit_length(winners) - 1


@_kernel
def _spoiler(
    legal: int,
    best: int,
    winner: int,
    seat: int,
    trump_mask: int,
    bids: Any,
    won: Any,
    hands: Any,
) -> int:
    """:func:`ohhell.bots.fast._spoiler`."""
    if legal & (legal - 1) == 0:
        return _bit_length(legal) - 1
    if best < 0:
        hungry = 0
        fed = 0
        for other in range(len(bids)):
            if other != seat:
                need = bids[other] - won[other]
                if 0 < need <= _count(hands[other]):
                    hungry += 1
                if need == 0:
                    fed += 1
        if hungry >= fed:
            return _strongest(legal, trump_mask)
        return _weakest(legal, trump_mask)
    suit = best // 13
    above = ~((2 << best) - 1)
    if trump_mask >> best & 1:
        winners = legal & trump_mask & above
    else:
        winners = (legal & _suit_mask(suit) & above) | (legal & trump_mask)
    if bids[winner] - won[winner] > 0:
        if winners:
            follow = winners & _suit_mask(suit)
            return _lowest(follow if follow else winners)
        return _weakest(legal, trump_mask)
    losers = legal & ~winners
    if losers:
        return _strongest(losers, trump_mask)
    return _lowest(legal)


@_kernel
def _takes(card: int, best: int, trump: int) -> bool:
    if best < 0:
        return True
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump and best // 13 != trump


@_kernel
def _legal(hand: int, led: int, trump: int, must_trump: bool) -> int:
    """:func:`ohhell.bots.fast.legal_mask`: the cards of ``hand`` playable to a trick led in
    suit ``led`` (``-1`` when leading)."""
    if led < 0:
        return hand
    follow = hand & _suit_mask(led)
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & _suit_mask(trump)
        if trumps:
            return trumps
    return hand


@_kernel
def _rollout_choice(
    hands: Any,
    seat: int,
    legal: int,
    everything: int,
    played: int,
    best: int,
    winner: int,
    trump: int,
    bids: Any,
    won: Any,
    lost: int,
) -> int:
    """:func:`ohhell.bots.fast.rollout_card`: for a seat whose bid is lost, as ``lost`` says
    (the spoiler's card, or the policy's needing every trick), else the rollout policy's;
    ``winner`` holds the card ``best`` winning the trick so far, ``everything`` all the cards
    still held."""
    hand = hands[seat]
    need = bids[seat] - won[seat]
    if lost == _LOST_SPOIL and (need < 0 or need > _count(hand)):
        trump_mask = _suit_mask(trump) if trump >= 0 else 0
        return _spoiler(legal, best, winner, seat, trump_mask, bids, won, hands)
    if lost == _LOST_GRAB and need < 0:
        need = _count(hand)
    return _policy(hand, legal, everything & ~hand, played, best, len(hands), trump, need)


@_kernel
def _rollout(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    trick: Any,
    played: int,
    won: Any,
    bids: Any,
    lost: int,
) -> None:
    """Play to the end of the hand, updating ``hands`` and ``won`` in place; ``trick`` holds
    the ``played`` cards of the current trick (room for ``n``)."""
    n = len(hands)
    best = -1
    best_pos = 0
    for i in range(played):
        if _takes(trick[i], best, trump):
            best = trick[i]
            best_pos = i
    everything = 0
    for seat in range(n):
        everything |= hands[seat]
    while everything:
        seat = (leader + played) % n
        hand = hands[seat]
        legal = _legal(hand, trick[0] // 13 if played else -1, trump, must_trump)
        card = _rollout_choice(
            hands, seat, legal, everything, played, best, (leader + best_pos) % n, trump, bids,
            won, lost,
        )  # fmt: skip
        bit = 1 << card
        hands[seat] = hand ^ bit
        everything ^= bit
        if _takes(card, best, trump):
            best = card
            best_pos = played
        trick[played] = card
        played += 1
        if played == n:
            leader = (leader + best_pos) % n
            won[leader] += 1
            played = 0
            best = -1


@_kernel
def _rollout_cards(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    trick: Any,
    played: int,
    won: Any,
    bids: Any,
    lost: int,
    cards: Any,
    out: Any,
) -> None:
    """:func:`ohhell.bots.fast.rollout_cards` into ``out`` (``out[j * n + s]``: seat ``s``'s
    tricks after ``cards[j]``; the arguments left as they were)."""
    n = len(hands)
    seat = (leader + played) % n
    for j in range(len(cards)):
        card = cards[j]
        branch_hands = hands.copy()
        branch_trick = trick.copy()
        branch_won = won.copy()
        branch_hands[seat] ^= 1 << card
        branch_trick[played] = card
        now = leader
        if played + 1 == n:  # the card ends the trick
            now = (leader + _winning_position(branch_trick, 0, n, trump)) % n
            branch_won[now] += 1
        _rollout(
            branch_hands, trump, must_trump, now, branch_trick, (played + 1) % n, branch_won,
            bids, lost,
        )  # fmt: skip
        for s in range(n):
            out[j * n + s] = branch_won[s]


@_kernel
def _rollout_bids(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    trick: Any,
    won: Any,
    bids: Any,
    seat: int,
    candidates: Any,
    lost: int,
    out: Any,
) -> None:
    """:func:`ohhell.bots.fast.rollout_bids` into ``out`` from the hand's start (``won``
    zeros, ``trick`` scratch), the arguments left as they were."""
    for j in range(len(candidates)):
        branch_hands = hands.copy()
        branch_won = won.copy()
        branch_bids = bids.copy()
        branch_bids[seat] = candidates[j]
        _rollout(branch_hands, trump, must_trump, leader, trick, 0, branch_won, branch_bids, lost)
        out[j] = branch_won[seat]


@_kernel
def _winning_position(cards: Any, start: int, n: int, trump: int) -> int:
    """The position in the full trick ``cards[start : start + n]`` of the card that takes it."""
    best = -1
    best_pos = 0
    for i in range(n):
        if _takes(cards[start + i], best, trump):
            best = cards[start + i]
            best_pos = i
    return best_pos


# The solver's frames: per ply, these slots of ``frames[_FRAME * ply :]``.
_LEADER, _PLAYED, _PENDING, _SEAT, _CARD, _WINNER, _CHOSEN, _FRAME = range(8)


@_kernel
def _solve(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    line: Any,
    played: int,
    top: int,
    won: Any,
    scores: Any,
    width: int,
    root: int,
    rivalry: float,
    results: Any,
    frames: Any,
) -> None:
    """:func:`ohhell.bots.fast.solve`'s max^n value of a position into
    ``results[top * n : top * n + n]``: ``line[top - played : top]`` is the current trick
    and ``scores[seat * width + tricks]`` the points. A depth-first search on an explicit
    stack (numba cannot cache recursive functions): ``results[ply * n :]`` holds the value of
    the node at each ply, ``frames`` (see ``_FRAME``) how to resume and undo it. Every play is
    undone before returning."""
    n = len(hands)
    ply = top
    frames[_FRAME * ply + _LEADER] = leader
    frames[_FRAME * ply + _PLAYED] = played
    frames[_FRAME * ply + _PENDING] = -1
    while True:
        frame = _FRAME * ply
        if frames[frame + _PENDING] == -1:  # a new node: a leaf, or list its moves
            everything = 0
            for s in range(n):
                everything |= hands[s]
            if everything:
                played = frames[frame + _PLAYED]
                seat = (frames[frame + _LEADER] + played) % n
                led = line[ply - played] // 13 if played else -1
                frames[frame + _PENDING] = _legal(hands[seat], led, trump, must_trump)
                frames[frame + _SEAT] = seat
                frames[frame + _CHOSEN] = 0
            else:
                for s in range(n):
                    results[ply * n + s] = scores[s * width + won[s]]
                frames[frame + _PENDING] = 0
        if frames[frame + _PENDING] == 0:  # done: back to the parent, which takes the value
            if ply == top:
                return
            ply -= 1
            frame = _FRAME * ply
            seat = frames[frame + _SEAT]
            hands[seat] |= 1 << frames[frame + _CARD]
            if frames[frame + _WINNER] >= 0:
                won[frames[frame + _WINNER]] -= 1
            base = ply * n
            child = base + n
            # root ranks by its rival value, the others by their points, ties by the least
            # rival value for root (computed only where it decides)
            if not frames[frame + _CHOSEN]:
                better = True
            elif seat == root:
                better = _rival_value(results, child, n, root, rivalry) > _rival_value(
                    results, base, n, root, rivalry
                )
            else:
                mine = results[child + seat]
                better = mine > results[base + seat] or (
                    mine == results[base + seat]
                    and _rival_value(results, child, n, root, rivalry)
                    < _rival_value(results, base, n, root, rivalry)
                )
            if better:
                for s in range(n):
                    results[base + s] = results[child + s]
                frames[frame + _CHOSEN] = 1
            continue
        pending = frames[frame + _PENDING]  # play the next move, lowest card first
        card = _lowest(pending)
        frames[frame + _PENDING] = pending ^ (1 << card)
        frames[frame + _CARD] = card
        hands[frames[frame + _SEAT]] ^= 1 << card
        line[ply] = card
        now = frames[frame + _LEADER]
        played = frames[frame + _PLAYED] + 1
        frames[frame + _WINNER] = -1
        if played == n:  # the card ends the trick
            now = (now + _winning_position(line, ply + 1 - n, n, trump)) % n
            won[now] += 1
            frames[frame + _WINNER] = now
            played = 0
        ply += 1
        frame = _FRAME * ply
        frames[frame + _LEADER] = now
        frames[frame + _PLAYED] = played
        frames[frame + _PENDING] = -1


# --------------------------------------------------------------------------- world weights


@_kernel
def _replay_likelihood(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    plays: Any,
    observer: int,
    mismatch: float,
    won: Any,
    bids: Any,
    lost: int,
) -> float:
    """:func:`ohhell.bots.fast.play_likelihood`: replay ``plays`` from the hand's start
    (``hands`` the dealt cards, updated in place; ``won`` zeros), multiplying the weight by
    ``mismatch`` for each play of another seat, with a choice, that the rollout policy (or the
    spoiler) would not have made."""
    n = len(hands)
    weight = 1.0
    best = -1
    best_pos = 0
    played = 0
    led = 0
    everything = 0
    for seat in range(n):
        everything |= hands[seat]
    for card in plays:
        seat = (leader + played) % n
        hand = hands[seat]
        if seat != observer:
            legal = _legal(hand, led if played else -1, trump, must_trump)
            if legal & (legal - 1):
                choice = _rollout_choice(
                    hands, seat, legal, everything, played, best, (leader + best_pos) % n, trump,
                    bids, won, lost,
                )  # fmt: skip
                if choice != card:
                    weight *= mismatch
        bit = 1 << card
        hands[seat] = hand ^ bit
        everything ^= bit
        if played == 0:
            led = card // 13
        if _takes(card, best, trump):
            best = card
            best_pos = played
        played += 1
        if played == n:
            leader = (leader + best_pos) % n
            won[leader] += 1
            played = 0
            best = -1
    return weight


@_kernel
def _calibrated_tricks(
    hand: int,
    trump_card: int,
    players: int,
    on_lead: bool,
    earlier: Any,
    n_earlier: int,
    weights: Any,
    probs: Any,
) -> float:
    """:func:`ohhell.bots.sampling.calibrated_tricks` with ``earlier[:n_earlier]`` the bids made
    before, ``weights`` the calibration (:data:`_WEIGHTS`) and ``probs`` scratch (4 per card)."""
    size = _count(hand)
    trump = trump_card // 13 if trump_card >= 0 else -1
    seen = hand | ((1 << trump_card) if trump_card >= 0 else 0)
    unseen_total = 52 - _count(seen)
    if size == 1:  # exact, as the heuristic's
        probs[3] = _one_card_chance(_bit_length(hand) - 1, trump_card, players, on_lead)
        return _pressured(probs[3], size, players, earlier, n_earlier, probs, 1)
    if trump < 0 and not on_lead:
        followed = False  # can another seat lead one of its suits?
        for suit in range(4):
            if hand & _suit_mask(suit) and _count(~seen & _suit_mask(suit)):
                followed = True
        if not followed:
            return 0.0  # no trick, whatever the pressure
    share = 0.0
    if unseen_total:
        share = min(1.0, (players - 1) * size / unseen_total)
    trumps_out = 13 - _count(seen & _suit_mask(trump)) if trump >= 0 else 0
    small = size == 2 and not on_lead
    k = 0
    for suit in range(4):
        mine = hand & _suit_mask(suit)
        if not mine:
            continue
        is_trump = suit == trump
        length = _count(mine)
        above_mask = ~seen & _suit_mask(suit)
        mine_above = 0
        while mine:
            card = _bit_length(mine) - 1
            mine ^= 1 << card
            higher = _count(above_mask >> (card + 1))
            below = length - mine_above - 1
            clear = math.pow(1.0 - share, higher)
            p = clear
            if higher and below >= higher:
                p += (1.0 - clear) * math.pow(
                    _GUARD_CHANCE_TRUMP if is_trump else _GUARD_CHANCE_SIDE, higher
                )
            if not is_trump:
                if trump >= 0 and trumps_out and unseen_total:
                    in_suit = 13 - _count(seen & _suit_mask(suit))
                    p *= 1.0 - _ruff_risk(
                        in_suit, mine_above + 1, size, unseen_total, trumps_out, players
                    )
                if small:
                    p *= _SMALL_HAND_FACTOR
            probs[4 * k + 0] = suit
            probs[4 * k + 1] = card - 13 * suit
            probs[4 * k + 2] = higher
            probs[4 * k + 3] = p
            k += 1
            mine_above += 1
    trump_length = _count(hand & _suit_mask(trump)) if trump >= 0 else 0
    if trump >= 0 and size >= 3:
        short = 0
        for suit in range(4):
            if suit != trump:
                length = _count(hand & _suit_mask(suit))
                short += max(0, 2 - length) if size >= 4 else max(0, 1 - length)
        # The ``short`` lowest-ranked low trumps (below 0.5) gain ruffing value; within the
        # trump suit the rows run from the highest card down, so the lowest come last.
        i = k - 1
        while short > 0 and i >= 0:
            if probs[4 * i + 0] == trump and probs[4 * i + 3] < _RUFF_LOW:
                probs[4 * i + 3] = probs[4 * i + 3] + (1.0 - probs[4 * i + 3]) * _RUFF_GAIN
                short -= 1
            i -= 1
    masters_lead = trump < 0 and on_lead
    for i in range(k):
        masters_lead = masters_lead and probs[4 * i + 2] == 0
    total = 0.0
    for i in range(k):
        suit = int(probs[4 * i + 0])
        rank = int(probs[4 * i + 1])
        higher = int(probs[4 * i + 2])
        # heuristic.calibration_group, inlined (bidding)
        if trump >= 0:
            group = 0 if suit == trump else 1
        else:
            group = 2
            if unseen_total and share < _SMALL_HAND_SHARE:
                group = 4 if on_lead else 3
        if higher == 0 and (group == 0 or masters_lead):
            probs[4 * i + 3] = 1.0
            total += 1.0
            continue
        p = min(0.99, max(0.01, probs[4 * i + 3]))
        z = (
            weights[8 * group + 0]
            + weights[8 * group + 1] * math.log(p / (1.0 - p))
            + weights[8 * group + 2] * rank / 12
            + weights[8 * group + 3] * min(4, higher)
            + weights[8 * group + 4] * _count(hand & _suit_mask(suit))
            + weights[8 * group + 5] * size / 13
            + weights[8 * group + 6] * share
            + weights[8 * group + 7] * (trump_length / size if trump >= 0 else 0.0)
        )
        if group < 2:
            z += weights[_SHIFTS_AT + 2 * players + group]
        probs[4 * i + 3] = 1.0 / (1.0 + math.exp(-z))
        total += probs[4 * i + 3]
    return _pressured(total, size, players, earlier, n_earlier, probs, k)


@_kernel
def _pressured(
    total: float, size: int, players: int, earlier: Any, n_earlier: int, probs: Any, k: int
) -> float:
    """The ``k`` chances of ``probs`` (``probs[4 * i + 3]``, summing to ``total``) scaled by
    the bidding pressure of ``earlier[:n_earlier]``, summed (the end of
    :func:`ohhell.bots.sampling.calibrated_tricks`)."""
    if n_earlier == 0:
        return total
    bid_sum = 0
    for i in range(n_earlier):
        bid_sum += earlier[i]
    unknown = players - 1 - n_earlier
    pressure = bid_sum + unknown * size / players + total - size
    if pressure == 0.0:
        return total
    factor = max(_PRESSURE_FLOOR, min(_PRESSURE_CEILING, 1.0 - _PRESSURE_SLOPE * pressure))
    scaled = 0.0
    for i in range(k):
        p = probs[4 * i + 3]
        fixed = p > _PRESSURE_FIXED_ABOVE or p < _PRESSURE_FIXED_BELOW
        scaled += p if fixed else min(_PRESSURE_CAP, p * factor)
    return scaled


@_kernel
def _one_card_chance(card: int, trump_card: int, players: int, on_lead: bool) -> float:
    """:func:`ohhell.bots.heuristic.one_card_chance`."""
    suit = card // 13
    rank = card % 13
    trump = trump_card // 13 if trump_card >= 0 else -1
    unseen = 51 if trump_card < 0 else 50
    higher = 12 - rank
    lower = rank
    if trump == suit:
        if trump_card % 13 > rank:
            higher -= 1
        else:
            lower -= 1
    chance = 1.0
    others = players - 1
    beaten_by = higher
    if suit != trump:
        if trump >= 0:
            beaten_by += 12
        if not on_lead:
            chance = lower / unseen
            unseen -= 1
            others -= 1
    for i in range(others):
        chance *= max(0.0, (unseen - beaten_by - i) / (unseen - i))
    return chance


@_kernel
def _ruff_risk(
    in_suit: int, round_: int, size: int, total: int, trumps_out: int, players: int
) -> float:
    """:func:`ohhell.bots.sampling._ruff_risk`."""
    has_trump = 1.0 - math.exp(-trumps_out * size / total)
    mean = in_suit * size / total
    poisson = 0.0
    factorial = 1
    for j in range(round_):
        if j:
            factorial *= j
        poisson += math.pow(mean, j) / factorial
    void = min(1.0, math.exp(-mean) * poisson)
    return 1.0 - math.pow(1.0 - void * has_trump, players - 1)


@_kernel
def _normal_share(bid: int, mean: float, hand_size: int, spread: float) -> float:
    """:func:`ohhell.bots.sampling._normal_share` (with :data:`_BID_SURPRISE`)."""
    nearest = min(max(round(mean), 0), hand_size)
    total = 0.0
    mine = 0.0
    for b in range(hand_size + 1):
        term = math.exp(
            (math.pow(nearest - mean, 2) - math.pow(b - mean, 2)) / (2 * spread * spread)
        )
        total += term
        if b == bid:
            mine = term
    return (1.0 - _BID_SURPRISE) * mine / total + _BID_SURPRISE / (hand_size + 1)


@_kernel
def _bid_likelihood(
    hands: Any,
    played: Any,
    bids: Any,
    trump_card: int,
    first_bidder: int,
    spread: float,
    sealed: bool,
    observer: int,
    weights: Any,
    earlier: Any,
    probs: Any,
) -> float:
    """:func:`ohhell.bots.sampling.calibrated_bid_likelihood` (``bids`` ``-1`` where unknown)."""
    n = len(hands)
    weight = 1.0
    n_earlier = 0
    for i in range(n):
        seat = (first_bidder + i) % n
        bid = bids[seat]
        if bid < 0:
            continue
        if seat != observer:
            dealt = hands[seat] | played[seat]
            mean = _calibrated_tricks(
                dealt, trump_card, n, i == 0, earlier, 0 if sealed else n_earlier, weights, probs
            )
            weight *= _normal_share(bid, mean, _count(dealt), spread)
        earlier[n_earlier] = bid
        n_earlier += 1
    return weight


@_kernel
def _guess_bids(
    hands: Any,
    bids: Any,
    trump_card: int,
    first_bidder: int,
    hand_size: int,
    sealed: bool,
    hook: bool,
    weights: Any,
    earlier: Any,
    probs: Any,
) -> None:
    """:func:`ohhell.bots.sampling.guess_bids`, filling the unknown (``-1``) ``bids`` in place."""
    n = len(hands)
    total = 0
    for i in range(n):
        seat = (first_bidder + i) % n
        bid = bids[seat]
        if bid < 0:
            estimate = _calibrated_tricks(
                hands[seat], trump_card, n, i == 0, earlier, 0 if sealed else i, weights, probs
            )
            bid = min(hand_size, round(estimate))  # half to even, as in Python
            if hook and i == n - 1 and total + bid == hand_size:
                bid = _hooked_bid(bid, estimate, hand_size)
            bids[seat] = bid
        earlier[i] = bid
        total += bid


@_kernel
def _hooked_bid(bid: int, estimate: float, hand_size: int) -> int:
    """:func:`ohhell.bots.sampling.hooked_bid`."""
    if (estimate > bid and bid < hand_size) or bid == 0:
        return bid + 1
    return bid - 1


# --------------------------------------------------------------------------- worlds


_GOLDEN: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB
_M64: Final = (1 << 64) - 1


@_kernel
def _uniform(stream: Any) -> float:
    """:func:`ohhell.bots.sampling._uniform`: the next float of the SplitMix64 ``stream``."""
    state = (stream[0] + _GOLDEN) & _M64
    stream[0] = state
    z = ((state ^ (state >> 30)) * _MIX1) & _M64
    z = ((z ^ (z >> 27)) * _MIX2) & _M64
    return float((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)


@_kernel
def _shuffle_prefix(stream: Any, pool: Any, length: int, count: int) -> None:
    """:func:`ohhell.bots.sampling._shuffle_prefix` on ``pool[:length]``."""
    for i in range(count):
        j = i + min(length - i - 1, int(_uniform(stream) * (length - i)))
        card = pool[i]
        pool[i] = pool[j]
        pool[j] = card


@_kernel
def _draw(
    seed: int,
    stream: Any,
    seat: int,
    own: int,
    unseen: int,
    counts: Any,
    constrained: Any,
    group_ends: Any,
    free_seats: Any,
    free_cards: int,
    suit_cards: Any,
    first: Any,
    stop: Any,
    cumulative: Any,
    following: Any,
    take: Any,
    pool: Any,
    hands: Any,
) -> None:
    """:meth:`ohhell.bots.sampling.WorldSampler.draw` into ``hands``: ``constrained`` lists the
    seats of the sampler's groups, group ``i`` ending before ``group_ends[i]``;
    ``suit_cards[13 * suit :]`` lists each suit's unseen cards (-1 after the last), the rest is
    the sampler's :class:`~ohhell.bots.sampling.SuitTable`."""
    for s in range(len(hands)):
        hands[s] = 0
    hands[seat] = own
    stream[0] = seed
    width = len(group_ends)
    free = unseen
    if width > 0:
        node = 0
        for suit in range(4):
            u = _uniform(stream)
            j = first[node]
            while j < stop[node] - 1 and u >= cumulative[j]:
                j += 1
            length = 0
            while length < 13 and suit_cards[13 * suit + length] >= 0:
                pool[length] = suit_cards[13 * suit + length]
                length += 1
            total = 0
            for i in range(width):
                total += take[j * width + i]
            _shuffle_prefix(stream, pool, length, total)
            start = 0
            for i in range(width):
                holder = constrained[group_ends[i - 1] if i else 0]  # the group's, for now
                for _ in range(take[j * width + i]):
                    hands[holder] |= 1 << pool[start]
                    start += 1
            for k in range(total):
                free &= ~(1 << pool[k])
            node = following[j]
        for i in range(width):
            begin = group_ends[i - 1] if i else 0
            end = group_ends[i]
            if end - begin > 1:  # share the group's cards out: a uniform split by counts
                length = _pool_of(hands[constrained[begin]], pool)
                _shuffle_prefix(stream, pool, length, length - counts[constrained[end - 1]])
                _hand_out(pool, constrained[begin:end], counts, hands)
    length = _pool_of(free, pool)
    _shuffle_prefix(stream, pool, length, free_cards)
    _hand_out(pool, free_seats, counts, hands)


@_kernel
def _pool_of(mask: int, pool: Any) -> int:
    """Write ``mask``'s cards into ``pool``, lowest first; returns how many."""
    length = 0
    while mask:
        card = _lowest(mask)
        pool[length] = card
        length += 1
        mask ^= 1 << card
    return length


@_kernel
def _hand_out(pool: Any, seats: Any, counts: Any, hands: Any) -> None:
    """Give ``seats`` in turn their ``counts`` of cards from the front of ``pool``."""
    start = 0
    for seat in seats:
        hands[seat] = 0
        for _ in range(counts[seat]):
            hands[seat] |= 1 << pool[start]
            start += 1


@_kernel
def _rival_value(points: Any, offset: int, n: int, seat: int, rivalry: float) -> float:
    """:func:`ohhell.bots.fast.rival_value` of ``points[offset : offset + n]``."""
    total = 0
    for s in range(n):
        total += points[offset + s]
    own = points[offset + seat]
    value: float = own - rivalry * (total - own) / (n - 1)
    return value


@_kernel
def _solve_cards(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    line: Any,
    played: int,
    won: Any,
    scores: Any,
    width: int,
    root: int,
    rivalry: float,
    cards: Any,
    results: Any,
    frames: Any,
    out: Any,
) -> None:
    """The wrapper :func:`solve`'s loop: every seat's exact points after each of ``cards``
    (``line[:played]`` the current trick) into ``out`` (``out[j * n + s]``), the arguments
    left as they were."""
    n = len(hands)
    for j in range(len(cards)):
        card = cards[j]
        hands[root] ^= 1 << card
        line[played] = card
        now_leader = leader
        now = played + 1
        if now == n:  # the card ends the trick
            now_leader = (leader + _winning_position(line, 0, n, trump)) % n
            won[now_leader] += 1
            now = 0
        _solve(
            hands, trump, must_trump, now_leader, line, now, played + 1, won, scores, width,
            root, rivalry, results, frames,
        )  # fmt: skip
        for s in range(n):
            out[j * n + s] = results[(played + 1) * n + s]
        if now == 0:
            won[now_leader] -= 1
        hands[root] ^= 1 << card


@_kernel
def _card_worlds(
    seeds: Any,
    stream: Any,
    world: _SamplerArgs,
    spread: float,
    played_by: Any,
    known_bids: Any,
    trump_card: int,
    first_bidder: int,
    sealed: bool,
    mismatch: float,
    plays: Any,
    first_leader: int,
    trump: int,
    must_trump: bool,
    leader: int,
    trick: Any,
    played: int,
    won: Any,
    bids: Any,
    lost: int,
    cards: Any,
    solving: bool,
    scores: Any,
    width: int,
    rivalry: float,
    model: Any,
    totals: Any,
    sums: Any,
    first_world: Any,
) -> None:
    """The search's card decision over the worlds of ``seeds`` (see
    :meth:`ohhell.bots.search.SearchBot._choose_card`, whose loop in Python this is): each
    world drawn (:func:`_draw`), weighted by the revealed bids (when ``spread``) and the plays
    seen (when ``mismatch < 1``), and each of ``cards`` valued by ``seat``'s points after a
    rollout or, when ``solving``, by the exact end game, less ``rivalry`` times the other
    seats' mean points (:func:`_rival_value`). Adds each card's weighted value to
    ``totals`` and the weights to ``sums[0]``; ``first_world`` gets the first world's hands.
    ``world`` is the sampler: :func:`_draw`'s arguments from ``seat`` to ``take``, a tuple
    (:func:`_sampler_arrays`)."""
    seat, counts = world[0], world[3]
    n = len(counts)
    pool = _arrays.zeros(52, _arrays.int64)
    hands = _arrays.zeros(n, _arrays.int64)
    start = _arrays.zeros(n, _arrays.int64)
    zeros = _arrays.zeros(n, _arrays.int64)
    earlier = _arrays.zeros(n, _arrays.int64)
    probs = _arrays.zeros(4 * 52, _arrays.float64)
    tricks = _arrays.zeros(len(cards) * n, _arrays.int64)
    points = _arrays.zeros(len(cards) * n, _arrays.int64)
    left = 0
    for s in range(n):
        left += counts[s]
    line = _arrays.zeros(played + left + 1, _arrays.int64)
    for i in range(played):
        line[i] = trick[i]
    results = _arrays.zeros((played + left + 2) * n, _arrays.int64)
    frames = _arrays.zeros((played + left + 2) * _FRAME, _arrays.int64)
    sim_won = won.copy()
    for w in range(len(seeds)):
        _draw(seeds[w], stream, *world, pool, hands)
        if w == 0:
            for s in range(n):
                first_world[s] = hands[s]
        weight = 1.0
        if spread > 0.0:
            weight = _bid_likelihood(
                hands, played_by, known_bids, trump_card, first_bidder, spread, sealed, seat, model,
                earlier, probs,
            )  # fmt: skip
        if mismatch < 1.0 and len(plays) > 0:
            for s in range(n):
                start[s] = hands[s] | played_by[s]
                zeros[s] = 0
            weight *= _replay_likelihood(
                start, trump, must_trump, first_leader, plays, seat, mismatch, zeros, bids, lost
            )
        if solving:
            _solve_cards(
                hands, trump, must_trump, leader, line, played, sim_won, scores, width, seat,
                rivalry, cards, results, frames, points,
            )  # fmt: skip
        else:
            _rollout_cards(
                hands, trump, must_trump, leader, trick, played, won, bids, lost, cards, tricks
            )
            for i in range(len(cards) * n):
                points[i] = scores[(i % n) * width + tricks[i]]
        for j in range(len(cards)):
            totals[j] += weight * _rival_value(points, j * n, n, seat, rivalry)
        sums[0] += weight


@_kernel
def _bid_worlds(
    seeds: Any,
    stream: Any,
    world: _SamplerArgs,
    spread: float,
    known_bids: Any,
    trump_card: int,
    first_bidder: int,
    sealed: bool,
    hand_size: int,
    trump: int,
    must_trump: bool,
    lost: int,
    candidates: Any,
    model: Any,
    tallies: Any,
    sums: Any,
    guess_after_bid: bool,
    hook: bool,
) -> None:
    """The search's bid estimate over the worlds of ``seeds`` (see
    :meth:`ohhell.bots.search.SearchBot.estimate_bids`, whose loop in Python this is): each
    world drawn, weighted by the revealed bids, the bids not made yet guessed (once per world,
    or after each candidate bid is put in with ``guess_after_bid``), and the hand played out
    aiming at each candidate bid; ``tallies[j * (hand_size + 1) + t]`` gains the world's
    weight when bidding ``candidates[j]`` takes ``t`` tricks, ``sums[0]`` the weights and
    ``sums[1]`` their squares. ``world`` is the sampler, as :func:`_card_worlds` takes it."""
    seat, counts = world[0], world[3]
    n = len(counts)
    pool = _arrays.zeros(52, _arrays.int64)
    hands = _arrays.zeros(n, _arrays.int64)
    zeros = _arrays.zeros(n, _arrays.int64)
    earlier = _arrays.zeros(n, _arrays.int64)
    guesses = _arrays.zeros(n, _arrays.int64)
    trick = _arrays.zeros(n, _arrays.int64)
    probs = _arrays.zeros(4 * 52, _arrays.float64)
    tricks = _arrays.zeros(len(candidates), _arrays.int64)
    for w in range(len(seeds)):
        _draw(seeds[w], stream, *world, pool, hands)
        weight = 1.0
        if spread > 0.0:
            weight = _bid_likelihood(
                hands, zeros, known_bids, trump_card, first_bidder, spread, sealed, seat, model,
                earlier, probs,
            )  # fmt: skip
        if weight == 0.0:
            continue
        if guess_after_bid:
            for j in range(len(candidates)):
                for s in range(n):
                    guesses[s] = known_bids[s]
                guesses[seat] = candidates[j]
                _guess_bids(
                    hands, guesses, trump_card, first_bidder, hand_size, sealed, hook, model,
                    earlier, probs,
                )  # fmt: skip
                branch_hands = hands.copy()
                branch_won = zeros.copy()
                _rollout(
                    branch_hands, trump, must_trump, first_bidder, trick, 0, branch_won, guesses,
                    lost,
                )  # fmt: skip
                tallies[j * (hand_size + 1) + branch_won[seat]] += weight
        else:
            for s in range(n):
                guesses[s] = known_bids[s]
            _guess_bids(
                hands, guesses, trump_card, first_bidder, hand_size, sealed, False, model,
                earlier, probs,
            )  # fmt: skip
            _rollout_bids(
                hands, trump, must_trump, first_bidder, trick, zeros, guesses, seat, candidates,
                lost, tricks,
            )  # fmt: skip
            for j in range(len(candidates)):
                tallies[j * (hand_size + 1) + tricks[j]] += weight
        sums[0] += weight
        sums[1] += weight * weight


# --------------------------------------------------------------------------- wrappers


def _ints(values: Sequence[int]) -> Any:
    """``values`` as the kernels take them: an int64 array once compiled, else a list."""
    numpy = _numpy
    return list(values) if numpy is None else numpy.array(values, dtype=numpy.int64)


def _scratch(size: int) -> Any:
    numpy = _numpy
    return [0.0] * size if numpy is None else numpy.empty(size, dtype=numpy.float64)


@_kernel
def _random_hand(
    stream: Any, players: int, hand_size: int, hook: bool, pool: Any, hands: Any, out: Any
) -> None:
    """One random hand, as the fast path plays it: a deck shuffled from ``stream``, a random
    dealer, uniformly random bids (the hooked dealer's among those the hook allows) and
    uniformly random legal cards. ``out`` gets the dealer, the trump card, the hands dealt
    (card by card, from the dealer's left), the bids in bidding order, the cards in play order
    and the tricks won per seat, in that order."""
    for i in range(52):
        pool[i] = i
    dealt = players * hand_size
    _shuffle_prefix(stream, pool, 52, dealt + 1)
    dealer = min(players - 1, int(_uniform(stream) * players))
    trump_card = pool[dealt]
    trump = trump_card // 13
    for seat in range(players):
        hands[seat] = 0
    for i in range(dealt):
        hands[(dealer + 1 + i) % players] |= 1 << pool[i]
    out[0] = dealer
    out[1] = trump_card
    at = 2
    for i in range(dealt):
        out[at + i] = pool[i]
    at += dealt
    total = 0
    for i in range(players):
        choices = hand_size + 1
        forbidden = hand_size - total
        hooked = hook and i == players - 1 and 0 <= forbidden <= hand_size
        if hooked:
            choices -= 1
        bid = min(choices - 1, int(_uniform(stream) * choices))
        if hooked and bid >= forbidden:
            bid += 1
        total += bid
        out[at + i] = bid
    at += players
    leader = (dealer + 1) % players
    won_at = at + dealt
    for seat in range(players):
        out[won_at + seat] = 0
    for _ in range(hand_size):
        best = -1
        winner = leader
        led = -1
        for position in range(players):
            seat = (leader + position) % players
            legal = _legal(hands[seat], led, trump, False)
            pick = min(_count(legal) - 1, int(_uniform(stream) * _count(legal)))
            for _ in range(pick):
                legal &= legal - 1  # the lowest card gone, pick times
            card = _lowest(legal)
            hands[seat] ^= 1 << card
            if position == 0:
                led = card // 13
            if _takes(card, best, trump):
                best = card
                winner = seat
            out[at] = card
            at += 1
        out[won_at + winner] += 1
        leader = winner


@_kernel
def _random_hands(
    stream: Any, count: int, players: int, hand_size: int, hook: bool, out: Any
) -> int:
    """``count`` random hands (:func:`_random_hand`), each into ``out`` in turn; the tricks
    won by seat 0 in all of them (a result that depends on every card)."""
    pool = _arrays.zeros(52, _arrays.int64)
    hands = _arrays.zeros(players, _arrays.int64)
    won = 0
    for _ in range(count):
        _random_hand(stream, players, hand_size, hook, pool, hands, out)
        won += out[len(out) - players]
    return won


def random_hands(
    count: int, *, players: int, hand_size: int, hook: bool, seed: int
) -> tuple[int, list[int]]:
    """Play ``count`` random hands on the fast path, compiled once :func:`load` has run, as
    ``benchmarks/fast_path_throughput.py`` times it against OpenSpiel's C++ loop: each a
    shuffled deck (a trump card turned), a random dealer, random bids (hook-legal under
    ``hook``) and random legal cards, drawn from SplitMix64 seeded with ``seed``. Returns the
    tricks seat 0 won in them all, and the last hand (:func:`_random_hand`'s ``out``: the
    dealer, the trump card, the hands dealt card by card from the dealer's left, the bids in
    bidding order, the cards in play order, the tricks won per seat), which
    ``tests/bots/test_compiled.py`` replays on the reference engine."""
    if players * hand_size >= 52:
        raise ValueError(f"{players} hands of {hand_size} cards leave no card to turn for trump")
    out = _ints([0] * (2 + 2 * players * hand_size + 2 * players))
    won = _random_hands(_seeds([seed]), count, players, hand_size, hook, out)
    return int(won), [int(value) for value in out]


def rollout(sim: HandSim, *, lost: int = LOST_PLAY_ON) -> list[int]:
    """:func:`ohhell.bots.fast.rollout` (the same cards, so the same tricks won per seat),
    compiled once :func:`load` has run. ``sim`` is left as it was."""
    won = _ints(sim.won)
    trick = _ints(list(sim.trick) + [0] * (sim.n - len(sim.trick)))
    _rollout(
        _ints(sim.hands), sim.trump, sim.must_trump, sim.leader, trick, len(sim.trick), won,
        _ints(sim.bids), lost,
    )  # fmt: skip
    return [int(w) for w in won]


def rollout_cards(
    sim: HandSim, cards: Sequence[int], *, lost: int = LOST_PLAY_ON
) -> list[list[int]]:
    """:func:`ohhell.bots.fast.rollout_cards`, compiled once :func:`load` has run."""
    n = sim.n
    out = _ints([0] * (len(cards) * n))
    _rollout_cards(
        _ints(sim.hands), sim.trump, sim.must_trump, sim.leader,
        _ints(list(sim.trick) + [0] * (sim.n - len(sim.trick))), len(sim.trick),
        _ints(sim.won), _ints(sim.bids), lost, _ints(cards), out,
    )  # fmt: skip
    return [[int(t) for t in out[j * n : (j + 1) * n]] for j in range(len(cards))]


def rollout_bids(
    sim: HandSim, seat: int, bids: Sequence[int], *, lost: int = LOST_PLAY_ON
) -> list[int]:
    """:func:`ohhell.bots.fast.rollout_bids` from the hand's start (no card played),
    compiled once :func:`load` has run."""
    if sim.trick or any(sim.won):
        raise ValueError("rollout_bids starts from the hand's start")
    out = _ints([0] * len(bids))
    _rollout_bids(
        _ints(sim.hands), sim.trump, sim.must_trump, sim.leader, _ints([0] * sim.n),
        _ints(sim.won), _ints(sim.bids), seat, _ints(bids), lost, out,
    )  # fmt: skip
    return [int(t) for t in out]


def solve(
    sim: HandSim, root: int, scores: Sequence[Sequence[int]], rivalry: float = 0.0
) -> dict[int, tuple[int, ...]]:
    """:func:`ohhell.bots.fast.solve` (the same values), compiled once :func:`load` has run;
    ``root`` is the seat to act. ``sim`` is left as it was."""
    n = sim.n
    played = len(sim.trick)
    left = sum(hand.bit_count() for hand in sim.hands)
    cards = cards_of(sim.legal())
    out = _ints([0] * (len(cards) * n))
    _solve_cards(
        _ints(sim.hands), sim.trump, sim.must_trump, sim.leader,
        _ints(list(sim.trick) + [0] * (left + 1)), played, _ints(sim.won),
        _ints([points for row in scores for points in row]), len(scores[0]), root, rivalry,
        _ints(cards), _ints([0] * ((played + left + 2) * n)),
        _ints([0] * ((played + left + 2) * _FRAME)), out,
    )  # fmt: skip
    return {card: tuple(int(p) for p in out[j * n : (j + 1) * n]) for j, card in enumerate(cards)}


def play_likelihood(
    sim: HandSim, plays: Sequence[int], observer: int, mismatch: float, *, lost: int = LOST_PLAY_ON
) -> float:
    """:func:`ohhell.bots.fast.play_likelihood`, compiled once :func:`load` has run (``sim``,
    the hand's start, is left as it was)."""
    return float(
        _replay_likelihood(
            _ints(sim.hands),
            sim.trump,
            sim.must_trump,
            sim.leader,
            _ints(plays),
            observer,
            mismatch,
            _ints(sim.won),
            _ints(sim.bids),
            lost,
        )
    )


def calibrated_tricks(
    hand: int, trump_card: int, players: int, on_lead: bool, earlier_bids: Sequence[int] = ()
) -> float:
    """:func:`ohhell.bots.sampling.calibrated_tricks`, compiled once :func:`load` has run."""
    return float(
        _calibrated_tricks(
            hand,
            trump_card,
            players,
            on_lead,
            _ints(list(earlier_bids) or [0]),
            len(earlier_bids),
            _weights,
            _scratch(4 * 52),
        )
    )


def calibrated_bid_likelihood(
    know: Knowledge,
    hands: Sequence[int],
    bids: Sequence[int | None],
    trump_card: int,
    first_bidder: int,
    spread: float = 1.0,
    *,
    sealed: bool = False,
) -> float:
    """:func:`ohhell.bots.sampling.calibrated_bid_likelihood`, compiled once :func:`load` has
    run."""
    n = len(hands)
    return float(
        _bid_likelihood(
            _ints(hands),
            _ints(know.played),
            _ints([-1 if b is None else b for b in bids]),
            trump_card,
            first_bidder,
            spread,
            sealed,
            know.seat,
            _weights,
            _ints([0] * n),
            _scratch(4 * 52),
        )
    )


def guess_bids(
    hands: Sequence[int],
    bids: Sequence[int | None],
    trump_card: int,
    first_bidder: int,
    hand_size: int,
    *,
    sealed: bool = False,
    hook: bool = False,
) -> list[int]:
    """:func:`ohhell.bots.sampling.guess_bids`, compiled once :func:`load` has run."""
    out = _ints([-1 if b is None else b for b in bids])
    _guess_bids(
        _ints(hands), out, trump_card, first_bidder, hand_size, sealed, hook, _weights,
        _ints([0] * len(hands)), _scratch(4 * 52),
    )  # fmt: skip
    return [int(b) for b in out]


def _floats(values: Sequence[float]) -> Any:
    numpy = _numpy
    return list(values) if numpy is None else numpy.array(values, dtype=numpy.float64)


def _seeds(values: Sequence[int]) -> Any:
    numpy = _numpy
    return list(values) if numpy is None else numpy.array(values, dtype=numpy.uint64)


_SamplerArgs = tuple[int, int, int, Any, Any, Any, Any, int, Any, Any, Any, Any, Any, Any]
""":func:`_draw`'s arguments from ``seat`` to ``take``."""


def _sampler_arrays(sampler: WorldSampler) -> _SamplerArgs:
    """The arguments of :func:`_draw` that describe ``sampler`` (after the seed and stream)."""
    know = sampler.know
    table = sampler.table() if sampler.groups else SuitTable([], [], [], [], [])
    suit_cards = [-1] * 52
    for suit, cards in enumerate(sampler.suit_cards):
        suit_cards[13 * suit : 13 * suit + len(cards)] = cards
    group_ends = list(itertools.accumulate(len(group) for group in sampler.groups))
    return (
        know.seat, know.own, know.unseen, _ints(know.counts), _ints(sampler.constrained),
        _ints(group_ends), _ints(sampler.free_seats), sampler.free_cards, _ints(suit_cards),
        _ints(table.first),
        _ints(table.stop), _floats(table.cumulative), _ints(table.following), _ints(table.take),
    )  # fmt: skip


def draw(sampler: WorldSampler, seed: int) -> tuple[int, ...]:
    """:meth:`ohhell.bots.sampling.WorldSampler.draw` (the same world from the same seed),
    compiled once :func:`load` has run."""
    hands = _ints([0] * len(sampler.know.counts))
    _draw(_seeds([seed])[0], _seeds([0]), *_sampler_arrays(sampler), _ints([0] * 52), hands)
    return tuple(int(h) for h in hands)


def card_worlds(
    sampler: WorldSampler,
    seeds: Sequence[int],
    sim: HandSim,
    cards: Sequence[int],
    scores: Sequence[Sequence[int]],
    *,
    bids: Sequence[int | None],
    spread: float,
    trump_card: int,
    first_bidder: int,
    sealed: bool,
    plays: Sequence[int],
    first_leader: int,
    mismatch: float,
    lost: int,
    solving: bool,
    rivalry: float = 0.0,
) -> tuple[list[float], float, tuple[int, ...]]:
    """The search's card decision (:meth:`ohhell.bots.search.SearchBot._choose_card`'s loop)
    over the worlds ``sampler`` draws from ``seeds``, from the position ``sim`` (its hands are
    not used: each world's are): each card's weighted value in total (its points less
    ``rivalry`` times the other seats' mean), the weights' sum and the first world's hands.
    ``bids`` as revealed (weighting the worlds by the calibrated bid model when ``spread``),
    ``sim.bids`` with guesses for the rest (the rollouts')."""
    n = sim.n
    totals = _floats([0.0] * len(cards))
    sums = _floats([0.0])
    first_world = _ints([0] * n)
    _card_worlds(
        _seeds(seeds), _seeds([0]), _sampler_arrays(sampler), spread,
        _ints(sampler.know.played), _ints([-1 if b is None else b for b in bids]), trump_card,
        first_bidder, sealed, mismatch, _ints(plays), first_leader, sim.trump, sim.must_trump,
        sim.leader, _ints(list(sim.trick) + [0] * (n - len(sim.trick))), len(sim.trick),
        _ints(sim.won), _ints(sim.bids), lost, _ints(cards), solving,
        _ints([points for row in scores for points in row]), len(scores[0]), rivalry, _weights,
        totals, sums, first_world,
    )  # fmt: skip
    return [float(t) for t in totals], float(sums[0]), tuple(int(h) for h in first_world)


def bid_worlds(
    sampler: WorldSampler,
    seeds: Sequence[int],
    candidates: Sequence[int],
    *,
    bids: Sequence[int | None],
    spread: float,
    trump_card: int,
    trump: int,
    must_trump: bool,
    first_bidder: int,
    hand_size: int,
    sealed: bool,
    lost: int,
    guess_after_bid: bool = False,
    hook: bool = False,
) -> tuple[list[list[float]], float, float]:
    """The search's bid estimate (:meth:`ohhell.bots.search.SearchBot.estimate_bids`'s loop)
    over the worlds ``sampler`` draws from ``seeds``: per candidate bid, the weight of the
    worlds in which aiming at it takes each number of tricks; the weights' sum, and the sum of
    their squares."""
    width = hand_size + 1
    tallies = _floats([0.0] * (len(candidates) * width))
    sums = _floats([0.0, 0.0])
    _bid_worlds(
        _seeds(seeds), _seeds([0]), _sampler_arrays(sampler), spread,
        _ints([-1 if b is None else b for b in bids]), trump_card, first_bidder, sealed,
        hand_size, trump, must_trump, lost, _ints(candidates), _weights, tallies, sums,
        guess_after_bid, hook,
    )  # fmt: skip
    flat = [float(t) for t in tallies]
    rows = [flat[j * width : (j + 1) * width] for j in range(len(candidates))]
    return rows, float(sums[0]), float(sums[1])
