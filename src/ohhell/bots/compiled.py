"""The search's rollouts compiled with numba: the same cards as :func:`ohhell.bots.fast.rollout`,
several times faster.

The fast path takes, for each job, whichever of numpy vectorisation and numba compilation
measures faster. For random hands played in bulk, numpy wins (:mod:`ohhell.bots.batch`); for
the search bot's rollouts, where every card depends on the trick, the bids and the cards still
out, numba wins: ``benchmarks/fast_path_throughput.py`` measures a 4-player, 12-card rollout
several times faster than the int-mask one in :mod:`ohhell.bots.fast` (the figures are in
``docs/bots.md``).

The kernels below are the int-mask rollout policy (:func:`~ohhell.bots.fast.policy_card` and
the spoiler) written in the subset of Python that numba compiles. numba is optional (the
``bots`` extra installs it): without it :data:`AVAILABLE` is false, the same kernels run as
plain Python (slowly; the tests use that to check them anywhere) and the search bot uses
:func:`ohhell.bots.fast.rollout` instead. Either way the search plays the same cards:
``tests/bots/test_compiled.py`` checks this module against :func:`ohhell.bots.fast.rollout` on
random positions of every player count, with and without the spoiler and La Podrida's
obligation to trump.

>>> from ohhell.bots.fast import HandSim, mask_of
>>> sim = HandSim(hands=[mask_of([12, 0]), mask_of([11, 1]), mask_of([10, 2])], trump=-1,
...               must_trump=False, leader=0, won=[0, 0, 0], bids=[1, 1, 0])
>>> rollout(sim)
[1, 1, 0]
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final, TypeVar, cast

from ohhell.bots.fast import SUIT_MASKS, HandSim

__all__ = ["AVAILABLE", "rollout"]

_F = TypeVar("_F", bound=Callable[..., Any])

try:
    _numba: ModuleType | None = importlib.import_module("numba")
    _numpy: ModuleType | None = importlib.import_module("numpy")
except ImportError:  # pragma: no cover - depends on the installation
    _numba = _numpy = None

AVAILABLE: Final = _numba is not None
"""Whether numba is installed, so that :func:`rollout` runs compiled."""


def _jit(function: _F) -> _F:
    """Compile ``function`` with numba (cached on disk) when numba is installed."""
    if _numba is None:  # pragma: no cover - depends on the installation
        return function
    return cast(_F, _numba.njit(cache=True)(function))


_S0, _S1, _S2, _S3 = SUIT_MASKS


@_jit
def _suit_mask(suit: int) -> int:
    if suit == 0:
        return _S0
    if suit == 1:
        return _S1
    if suit == 2:
        return _S2
    return _S3


@_jit
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


@_jit
def _lowest(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return _bit_length(mask & -mask) - 1


@_jit
def _count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@_jit
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


@_jit
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


@_jit
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


@_jit
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


@_jit
def _takes(card: int, best: int, trump: int) -> bool:
    if best < 0:
        return True
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump and best // 13 != trump


@_jit
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
    compiled when :data:`AVAILABLE`. ``sim`` is left as it was."""
    n = sim.n
    trick = list(sim.trick) + [0] * (n - len(sim.trick))
    if _numpy is None:  # pragma: no cover - depends on the installation
        hands, won, bids, cards = list(sim.hands), list(sim.won), sim.bids, trick
    else:
        int64 = _numpy.int64
        hands = _numpy.array(sim.hands, dtype=int64)
        won = _numpy.array(sim.won, dtype=int64)
        bids = _numpy.array(sim.bids, dtype=int64)
        cards = _numpy.array(trick, dtype=int64)
    _rollout(hands, sim.trump, sim.must_trump, sim.leader, cards, len(sim.trick), won, bids, spoil)
    return [int(w) for w in won]
