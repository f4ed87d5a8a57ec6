"""The search's rollouts compiled with numba: the same cards as :func:`ohhell.bots.fast.rollout`,
several times faster.

The fast path takes, for each job, whichever of numpy vectorisation and numba compilation
measures faster. For random hands played in bulk, numpy wins (:mod:`ohhell.bots.batch`); for
the search bot's rollouts, where every card depends on the trick, the bids and the cards still
out, numba wins: ``benchmarks/fast_path_throughput.py`` measures a 4-player, 12-card rollout
several times faster than the int-mask one in :mod:`ohhell.bots.fast` (the figures are in
``docs/bots.md``).

The kernels below are the int-mask rollout policy (:func:`~ohhell.bots.fast.policy_card` and
the spoiler) written in the subset of Python that numba compiles. They run as plain Python
(slowly; the tests use that to check them on any install) until :func:`load` compiles them,
which the search bot does when it is built. numba is optional (the ``bots`` extra installs it):
without it :data:`AVAILABLE` is false and the search bot uses :func:`ohhell.bots.fast.rollout`.
Either way the search plays the same cards: ``tests/bots/test_compiled.py`` checks this module
against :func:`ohhell.bots.fast.rollout` on random positions of every player count, with and
without the spoiler and La Podrida's obligation to trump.

>>> from ohhell.bots.fast import HandSim, mask_of
>>> sim = HandSim(hands=[mask_of([12, 0]), mask_of([11, 1]), mask_of([10, 2])], trump=-1,
...               must_trump=False, leader=0, won=[0, 0, 0], bids=[1, 1, 0])
>>> rollout(sim)
[1, 1, 0]
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final, TypeVar

from ohhell.bots.fast import HandSim

__all__ = ["AVAILABLE", "load", "rollout"]

_F = TypeVar("_F", bound=Callable[..., Any])

AVAILABLE: Final = all(importlib.util.find_spec(m) is not None for m in ("numba", "numpy"))
"""Whether numba (and numpy) are installed, so that :func:`rollout` can run compiled."""

_KERNELS: list[str] = []
"""The kernels' names: :func:`load` rebinds each to its compiled version."""
_numpy: ModuleType | None = None
"""numpy, once :func:`load` has compiled the kernels."""


def _kernel(function: _F) -> _F:
    """Register ``function`` as a kernel, compiled by :func:`load` (plain Python until then)."""
    _KERNELS.append(function.__name__)
    return function


def load() -> bool:
    """Compile the kernels with numba (from its on-disk cache after the first time: about
    0.1 s; compiling takes a few seconds) and return whether :func:`rollout` now runs compiled.

    Lazy, so that importing the bots does not import numba (0.3 s); the search bot calls it
    when it is built, so no timed decision pays for it. A broken numba install leaves the
    kernels as plain Python and returns false."""
    global _numpy
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
    for name in _KERNELS:  # rebound before any is compiled: each call resolves to a kernel
        module[name] = numba.njit(cache=True)(module[name])
    module["_rollout"](
        numpy.zeros(3, numpy.int64), -1, False, 0, numpy.zeros(3, numpy.int64), 0,
        numpy.zeros(3, numpy.int64), numpy.zeros(3, numpy.int64), False,
    )  # fmt: skip
    _numpy = numpy
    return True


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
            return _weakest(legal, trump_mask)
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
def _rollout(
    hands: Any,
    trump: int,
    must_trump: bool,
    leader: int,
    trick: Any,
    played: int,
    won: Any,
    bids: Any,
    spoil: bool,
) -> None:
    """Play to the end of the hand, updating ``hands`` and ``won`` in place; ``trick`` holds
    the ``played`` cards of the current trick (room for ``n``)."""
    n = len(hands)
    trump_mask = _suit_mask(trump) if trump >= 0 else 0
    must = must_trump and trump >= 0
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
        legal = hand
        if played:
            legal = hand & _suit_mask(trick[0] // 13)
            if not legal:
                legal = hand & trump_mask if must else 0
                if not legal:
                    legal = hand
        need = bids[seat] - won[seat]
        if spoil and (need < 0 or need > _count(hand)):
            card = _spoiler(
                legal, best, (leader + best_pos) % n, seat, trump_mask, bids, won, hands
            )
        else:
            card = _policy(hand, legal, everything & ~hand, played, best, n, trump, need)
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


def rollout(sim: HandSim, *, spoil: bool = False) -> list[int]:
    """:func:`ohhell.bots.fast.rollout` (the same cards, so the same tricks won per seat),
    compiled once :func:`load` has run. ``sim`` is left as it was."""
    n = sim.n
    trick = list(sim.trick) + [0] * (n - len(sim.trick))
    numpy = _numpy
    if numpy is None:
        hands, won, bids, cards = list(sim.hands), list(sim.won), sim.bids, trick
    else:
        hands = numpy.array(sim.hands, dtype=numpy.int64)
        won = numpy.array(sim.won, dtype=numpy.int64)
        bids = numpy.array(sim.bids, dtype=numpy.int64)
        cards = numpy.array(trick, dtype=numpy.int64)
    _rollout(hands, sim.trump, sim.must_trump, sim.leader, cards, len(sim.trick), won, bids, spoil)
    return [int(w) for w in won]
