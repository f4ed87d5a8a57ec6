"""Sampling the cards a seat cannot see, consistently with everything it knows.

What a seat knows (:class:`Knowledge`, derived from its :class:`~ohhell.engine.PlayerView`):
its own cards, the turned trump card, every card played this hand and by whom, how many cards
each seat still holds, and the voids play has shown: a seat that did not follow the suit led
holds none of it, and under La Podrida a seat that then played a non-trump holds no trump
either. The cards nobody has seen (other seats' cards and the stock) are shared out
*uniformly* among all deals consistent with that (:class:`WorldSampler`):

- seats with no known void and the stock are interchangeable, so they are merged into one
  "free" holder and split by one uniform draw at the end;
- seats void in the same suits are interchangeable too: each such group is dealt its
  members' cards together and shares them out by a uniform draw at the end;
- the unseen cards of each suit are allocated to the groups that may hold that suit and to
  the free holder, suit by suit, with each allocation drawn with probability proportional to
  the number of complete deals it leads to (exact counting by dynamic programming over the
  suits, memoised on the groups' remaining capacities), so no void constraint ever causes
  rejection or bias.

A world is a function of one 64-bit seed (:meth:`WorldSampler.draw`): the draws come from a
SplitMix64 stream written here in plain Python and in :mod:`ohhell.bots.compiled` for numba,
so the search draws the same worlds compiled or not. :meth:`WorldSampler.sample` takes the
seed from a :class:`random.Random`.

The search then weights each sampled world by how likely the revealed bids were given the
sampled hands (:func:`calibrated_bid_likelihood`, a normal around :func:`calibrated_tricks`:
the heuristic bot's calibrated card-win model, ported to masks).
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from ohhell.bots.base import sum_in_order
from ohhell.bots.fast import NO_TRUMP, SUIT_MASKS, cards_of, mask_of
from ohhell.bots.heuristic import CARD_WIN_WEIGHTS as CALIBRATION
from ohhell.bots.heuristic import (
    GUARD_CHANCE_SIDE,
    GUARD_CHANCE_TRUMP,
    RUFF_GAIN,
    RUFF_LOW,
    SMALL_HAND_FACTOR,
    calibration_group,
    calibration_shift,
    one_card_chance,
    pressed_chance,
)
from ohhell.engine import Card, Phase, PlayerView

__all__ = [
    "BID_SURPRISE",
    "Knowledge",
    "SuitTable",
    "WorldSampler",
    "calibrated_bid_likelihood",
    "calibrated_tricks",
    "guess_bids",
    "hooked_bid",
    "knowledge",
    "sample_world",
    "uniform_sampler",
]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows about where the cards are, as masks (see :mod:`ohhell.bots.fast`)."""

    seat: int
    own: int
    """The seat's own cards."""
    unseen: int
    """Cards the seat has not seen: others' cards and the stock (never the turned card)."""
    counts: tuple[int, ...]
    """Cards each seat still holds (the seat's own included)."""
    voids: tuple[int, ...]
    """Per seat, a 4-bit mask of the suits play has shown it no longer holds."""
    played: tuple[int, ...]
    """Per seat, the cards it has played this hand."""
    stock_count: int
    """Unseen cards in the stock (the turned card is seen and not counted)."""


def knowledge(view: PlayerView) -> Knowledge:
    """Derive what ``view.seat`` knows about the hidden cards; the view must be a seat's view
    of a hand being bid or played."""
    if view.seat is None or view.hand is None:
        raise ValueError("sampling needs a seat's view, not a public view")
    if view.phase not in (Phase.BID, Phase.PLAY):
        raise ValueError(f"sampling needs a hand in progress, not phase {view.phase.value}")
    n = view.player_count
    played = [0] * n
    for seat, card in view.played_cards():
        played[seat] |= 1 << card.index
    voids = list(view.shown_void_masks())
    own = mask_of(view.hand)
    seen = own | (0 if view.trump_card is None else 1 << view.trump_card.index)
    for mask in played:
        seen |= mask
    counts = tuple(view.hand_size - p.bit_count() for p in played)
    stock = 52 - n * view.hand_size - (0 if view.trump_card is None else 1)
    return Knowledge(
        seat=view.seat,
        own=own,
        unseen=((1 << 52) - 1) & ~seen,
        counts=counts,
        voids=tuple(voids),
        played=tuple(played),
        stock_count=stock,
    )


@cache
def _comb(n: int, k: int) -> int:
    return math.comb(n, k)


class WorldSampler:
    """Uniform samples of the hidden cards given a seat's :class:`Knowledge`.

    Build one per decision and call :meth:`sample` many times: the counting tables are shared.

    >>> import random
    >>> from ohhell.engine import Rules, apply, new_game, random_deal, view_for
    >>> state = new_game(Rules(player_count=4))
    >>> state, _ = apply(state, random_deal(state, random.Random(5)))
    >>> sampler = WorldSampler(knowledge(view_for(state, 1)))
    >>> hands = sampler.sample(random.Random(0))
    >>> [h.bit_count() for h in hands], hands[1] == sampler.know.own
    ([1, 1, 1, 1], True)
    """

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        others = [s for s in range(len(know.counts)) if s != know.seat and know.counts[s]]
        groups: dict[int, list[int]] = {}
        for s in others:
            if know.voids[s]:
                groups.setdefault(know.voids[s], []).append(s)
        self.groups = list(groups.values())
        """The other seats that play has shown void in some suit, grouped by the suits they
        are void in. Each group is dealt its members' cards together, suit by suit, and then
        shares them out (:meth:`draw`): seats void in the same suits are interchangeable, so
        the counting tables grow with the groups, not the seats (with seven players, four
        seats void in one suit are one group)."""
        self.constrained = [s for group in self.groups for s in group]
        """The other seats that play has shown void in some suit, group by group."""
        self.free_seats = [s for s in others if not know.voids[s]]
        """The other seats with no void shown: with the stock, the free holder."""
        self.suit_cards = [cards_of(know.unseen & SUIT_MASKS[suit]) for suit in range(4)]
        """Per suit, its unseen cards."""
        self._after = [sum(len(c) for c in self.suit_cards[suit + 1 :]) for suit in range(4)]
        self._allowed = [
            [i for i, group in enumerate(self.groups) if not know.voids[group[0]] >> suit & 1]
            for suit in range(4)
        ]
        self.free_cards = sum(know.counts[s] for s in self.free_seats)
        """How many cards the free seats hold (the stock gets what is left)."""
        self._unseen_cards = cards_of(know.unseen)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._split_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        self._table: SuitTable | None = None
        caps = self._capacities()
        if sum(know.counts[s] for s in others) + know.stock_count != know.unseen.bit_count():
            raise ValueError("inconsistent knowledge: the unseen cards do not fill the hands")
        if self._count(0, caps) == 0:
            raise ValueError("inconsistent knowledge: no deal fits the voids shown")

    def _capacities(self) -> tuple[int, ...]:
        """The cards each group of :attr:`groups` holds in all."""
        return tuple(sum(self.know.counts[s] for s in group) for group in self.groups)

    def _splits(self, suit: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Each way to give the groups of constrained seats some of this suit's unseen cards:
        the new capacities and the number of ways to pick the cards (the free holder gets the
        rest). Listed once per node and kept: :meth:`_count` and :meth:`table` both ask."""
        key = (suit, caps)
        listed = self._split_memo.get(key)
        if listed is not None:
            return listed
        total = len(self.suit_cards[suit])
        free_cap = total + self._after[suit] - sum(caps)
        allowed = self._allowed[suit]
        # room[i]: the most the groups from allowed[i] on can take; a branch that would leave
        # the free holder more than free_cap is never walked
        room = [0] * (len(allowed) + 1)
        for i in range(len(allowed) - 1, -1, -1):
            room[i] = room[i + 1] + caps[allowed[i]]
        listed = []
        caps_now = list(caps)

        def walk(i: int, left: int, ways: int) -> None:
            if i == len(allowed):
                listed.append((tuple(caps_now), ways))
                return
            seat = allowed[i]
            for take in range(max(0, left - room[i + 1] - free_cap), min(left, caps[seat]) + 1):
                caps_now[seat] = caps[seat] - take
                walk(i + 1, left - take, ways * _comb(left, take))
            caps_now[seat] = caps[seat]

        if total - room[0] <= free_cap:
            walk(0, total, 1)
        self._split_memo[key] = listed
        return listed

    def _count(self, suit: int, caps: tuple[int, ...]) -> int:
        """The number of ways to deal suits ``suit..3`` given the constrained capacities."""
        if suit == 4:
            return 1 if not any(caps) else 0
        key = (suit, caps)
        hit = self._memo.get(key)
        if hit is None:
            hit = sum(ways * self._count(suit + 1, nxt) for nxt, ways in self._splits(suit, caps))
            self._memo[key] = hit
        return hit

    def _choices(self, suit: int, caps: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        """The constrained seats' capacities after each way of dealing ``suit`` and the
        running total of the complete deals each leads to (to draw one in proportion). Asked
        once for each node of :meth:`table`, which is kept."""
        nexts: list[tuple[int, ...]] = []
        running: list[int] = []
        total = 0
        for nxt, ways in self._splits(suit, caps):
            deals = ways * self._count(suit + 1, nxt)
            if deals:
                total += deals
                nexts.append(nxt)
                running.append(total)
        return nexts, running

    def table(self) -> SuitTable:
        """The suit-by-suit allocation of the unseen cards to the :attr:`groups`, as flat
        lists (built on first use, then kept): what :meth:`draw` walks, and what the compiled
        sampler takes as arrays."""
        if self._table is None:
            caps0 = self._capacities()
            ids = {(0, caps0): 0}
            order = [(0, caps0)]
            first: list[int] = []
            stop: list[int] = []
            cumulative: list[float] = []
            following: list[int] = []
            take: list[int] = []
            for suit, caps in order:  # grows as new nodes are found: a breadth-first walk
                first.append(len(cumulative))
                nexts, running = self._choices(suit, caps)
                for nxt, deals in zip(nexts, running, strict=True):
                    cumulative.append(deals / running[-1])
                    take.extend(map(operator.sub, caps, nxt))
                    if suit < 3:
                        node = ids.setdefault((suit + 1, nxt), len(order))
                        if node == len(order):
                            order.append((suit + 1, nxt))
                        following.append(node)
                    else:
                        following.append(-1)
                stop.append(len(cumulative))
            self._table = SuitTable(first, stop, cumulative, following, take)
        return self._table

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One uniformly drawn world: every seat's cards as masks (the seat's own included);
        :meth:`draw` with a seed taken from ``rng``. Subclasses that model the hidden cards
        another way override this (the search then draws its worlds here, in Python)."""
        return self.draw(rng.getrandbits(64))

    def draw(self, seed: int) -> tuple[int, ...]:
        """The world of the 64-bit ``seed``, uniform among the consistent deals over seeds:
        each suit's allocation to the groups of seats with voids, each group's cards shared
        out among its seats, then the free holder's cards, each picked by a partial shuffle
        driven by a SplitMix64 stream (the compiled sampler, :func:`ohhell.bots.compiled.draw`,
        deals the same world from the same seed)."""
        know = self.know
        stream = [seed]
        hands = [0] * len(know.counts)
        hands[know.seat] = know.own
        if self.groups:
            table = self.table()
            width = len(self.groups)
            free = know.unseen
            node = 0
            for suit in range(4):
                u = _uniform(stream)
                j = table.first[node]
                while j < table.stop[node] - 1 and u >= table.cumulative[j]:
                    j += 1
                takes = table.take[j * width : (j + 1) * width]
                pool = list(self.suit_cards[suit])
                _shuffle_prefix(stream, pool, sum(takes))
                start = 0
                for group, count in zip(self.groups, takes, strict=True):
                    hands[group[0]] |= _mask(pool[start : start + count])  # the group's, for now
                    start += count
                free &= ~_mask(pool[:start])
                node = table.following[j]
            for group in self.groups:
                if len(group) > 1:  # share the group's cards out: a uniform split by counts
                    pool = cards_of(hands[group[0]])
                    _shuffle_prefix(stream, pool, len(pool) - know.counts[group[-1]])
                    _hand_out(pool, group, know.counts, hands)
            pool = cards_of(free)
        else:
            pool = list(self._unseen_cards)
        _shuffle_prefix(stream, pool, self.free_cards)
        _hand_out(pool, self.free_seats, know.counts, hands)
        return tuple(hands)


@dataclass(frozen=True, slots=True)
class SuitTable:
    """:meth:`WorldSampler.table`: a graph whose node ``k`` is a suit and the capacities left
    to the groups of seats with voids before it is dealt (node 0: the first suit, each group's
    cards). Its ways of dealing the suit are ``first[k]`` to ``stop[k] - 1``; way ``j`` gives
    group ``i`` ``take[j * width + i]`` cards of the suit and leads to node
    ``following[j]`` (-1 after the last suit); ``cumulative[j]`` is the share of the node's
    complete deals that its ways up to ``j`` lead to (the last one 1.0)."""

    first: list[int]
    stop: list[int]
    cumulative: list[float]
    following: list[int]
    take: list[int]


# SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit state stepped by a constant and mixed.
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB
_M64: Final = (1 << 64) - 1


def _uniform(stream: list[int]) -> float:
    """The next float in [0, 1) of the SplitMix64 ``stream`` (its state, one int in a list)."""
    state = stream[0] = (stream[0] + _GOLDEN) & _M64
    z = ((state ^ (state >> 30)) * _MIX1) & _M64
    z = ((z ^ (z >> 27)) * _MIX2) & _M64
    return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)


def _shuffle_prefix(stream: list[int], pool: list[int], count: int) -> None:
    """Move a uniform random choice of ``count`` of ``pool``'s items, in random order, to its
    front (the first ``count`` steps of a Fisher-Yates shuffle)."""
    length = len(pool)
    for i in range(count):
        j = i + min(length - i - 1, int(_uniform(stream) * (length - i)))
        pool[i], pool[j] = pool[j], pool[i]


def _hand_out(
    pool: list[int], seats: Sequence[int], counts: Sequence[int], hands: list[int]
) -> None:
    """Give ``seats`` in turn their ``counts`` of cards from the front of ``pool``."""
    start = 0
    for seat in seats:
        hands[seat] = _mask(pool[start : start + counts[seat]])
        start += counts[seat]


def _mask(cards: list[int]) -> int:
    """The mask of card ints (:func:`ohhell.bots.fast.mask_of` without its type check)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def uniform_sampler(view: PlayerView) -> WorldSampler:
    """The default world model of search: the unseen cards dealt uniformly among the deals
    consistent with ``view`` (a seat's view of a hand being bid or played)."""
    return WorldSampler(knowledge(view))


def sample_world(
    view: PlayerView, rng: random.Random, sampler: WorldSampler | None = None
) -> tuple[tuple[Card, ...], ...]:
    """One uniformly drawn assignment of the cards each seat still holds, consistent with
    ``view`` (its own cards are its own). For many samples of one view, pass one
    ``sampler`` (a :class:`WorldSampler` of its :func:`knowledge`): its counting tables,
    which can take tens of milliseconds with seven players, are then made once."""
    if sampler is None:
        sampler = WorldSampler(knowledge(view))
    hands = sampler.sample(rng)
    return tuple(tuple(Card.from_index(c) for c in cards_of(mask)) for mask in hands)


# --------------------------------------------------------------------------- bid model


def calibrated_tricks(
    hand: int,
    trump_card: int,
    players: int,
    on_lead: bool,
    earlier_bids: Sequence[int] = (),
) -> float:
    """The heuristic bot's bid-time estimate of the tricks a dealt ``hand`` (a mask) takes
    (:func:`ohhell.bots.heuristic.expected_tricks` on that seat's view, equal to it but on
    masks): per card the calibrated chance it wins (a lone card's exact chance; none, for a
    seat not on lead that holds only suits no other seat holds, without trump), scaled by the
    bidding pressure of the bids made before this seat (``earlier_bids``, in hands with a
    trump card ``trump_card``, ``-1`` for none)."""
    size = hand.bit_count()
    trump = trump_card // 13 if trump_card >= 0 else NO_TRUMP
    seen = hand | (1 << trump_card if trump_card >= 0 else 0)
    unseen = [13 - (seen & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
    if size == 1:  # exact, as the heuristic's
        out = [one_card_chance(hand.bit_length() - 1, trump_card, players, on_lead)]
    elif trump == NO_TRUMP and not on_lead and not any(unseen[s] for s in _suits_of(hand)):
        out = [0.0] * size  # as the heuristic: no other seat can lead its suits
    else:
        out = _card_chances(hand, trump_card, players, on_lead)
    mine_total = sum_in_order(out)
    if not earlier_bids:
        return mine_total
    unknown = players - 1 - len(earlier_bids)
    pressure = sum(earlier_bids) + unknown * size / players + mine_total - size
    if not pressure:
        return mine_total
    return sum_in_order(pressed_chance(p, pressure) for p in out)


def _suits_of(hand: int) -> list[int]:
    return [suit for suit in range(4) if hand & SUIT_MASKS[suit]]


def _card_chances(hand: int, trump_card: int, players: int, on_lead: bool) -> list[float]:
    """Per card of ``hand`` (in suit order, each suit from its top card), the heuristic's
    calibrated chance that it wins a trick."""
    size = hand.bit_count()
    trump = trump_card // 13 if trump_card >= 0 else NO_TRUMP
    seen = hand | (1 << trump_card if trump_card >= 0 else 0)
    unseen_total = 52 - seen.bit_count()
    unseen = [13 - (seen & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
    share = min(1.0, (players - 1) * size / unseen_total) if unseen_total else 0.0
    trumps_out = unseen[trump] if trump != NO_TRUMP else 0
    small = size == 2 and not on_lead  # (one card is exact: calibrated_tricks)
    length = [(hand & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
    probs: list[tuple[int, int, int, float]] = []  # (suit, rank 0..12, higher unseen, raw)
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        is_trump = suit == trump
        above_mask = ~seen & SUIT_MASKS[suit]
        for mine_above, card in enumerate(reversed(cards_of(mine))):
            higher = (above_mask >> (card + 1)).bit_count()
            below = length[suit] - mine_above - 1
            clear = (1.0 - share) ** higher
            p = clear
            if higher and below >= higher:
                p += (1.0 - clear) * (
                    GUARD_CHANCE_TRUMP if is_trump else GUARD_CHANCE_SIDE
                ) ** higher
            if not is_trump:
                if trump != NO_TRUMP and trumps_out and unseen_total:
                    p *= 1.0 - _ruff_risk(
                        unseen[suit], mine_above + 1, size, unseen_total, trumps_out, players
                    )
                if small:
                    p *= SMALL_HAND_FACTOR
            probs.append((suit, card - 13 * suit, higher, p))
    if trump != NO_TRUMP and size >= 3:
        probs = _with_ruffing_value(probs, trump, length, size)
    out: list[float] = []
    masters_lead = trump == NO_TRUMP and on_lead and all(row[2] == 0 for row in probs)
    for suit, rank, higher, raw in probs:
        group = calibration_group(
            trump=trump != NO_TRUMP,
            is_trump=suit == trump,
            share=share,
            unseen=unseen_total,
            on_lead=on_lead,
            playing=False,
        )
        if higher == 0 and (group == 0 or masters_lead):
            out.append(1.0)  # as the heuristic: sure to win whenever played (or all led)
            continue
        p = min(0.99, max(0.01, raw))
        weights = CALIBRATION[group]
        z = (
            weights[0]
            + weights[1] * math.log(p / (1.0 - p))
            + weights[2] * rank / 12
            + weights[3] * min(4, higher)
            + weights[4] * length[suit]
            + weights[5] * size / 13
            + weights[6] * share
            + weights[7] * (length[trump] / size if trump != NO_TRUMP else 0.0)
            + calibration_shift(players, group)
        )
        out.append(1.0 / (1.0 + math.exp(-z)))
    return out


@cache
def _ruff_risk(
    in_suit: int, round_: int, size: int, total: int, trumps_out: int, players: int
) -> float:
    """Chance that some opponent (each holding ``size`` cards, no void known) can trump the
    ``round_``-th round of a suit with ``in_suit`` unseen cards."""
    has_trump = 1.0 - math.exp(-trumps_out * size / total)
    mean = in_suit * size / total
    void = min(
        1.0, math.exp(-mean) * sum_in_order(mean**j / math.factorial(j) for j in range(round_))
    )
    return 1.0 - (1.0 - void * has_trump) ** (players - 1)


def _with_ruffing_value(
    probs: list[tuple[int, int, int, float]], trump: int, length: list[int], size: int
) -> list[tuple[int, int, int, float]]:
    """Low trumps win tricks by ruffing when a side suit is short (the heuristic's rule)."""
    low = sorted(
        (rank, i) for i, (suit, rank, _, p) in enumerate(probs) if suit == trump and p < RUFF_LOW
    )
    if not low:
        return probs
    short = sum(
        max(0, 2 - length[suit]) if size >= 4 else max(0, 1 - length[suit])
        for suit in range(4)
        if suit != trump
    )
    out = list(probs)
    for _, i in low[:short]:
        suit, rank, higher, p = out[i]
        out[i] = (suit, rank, higher, p + (1.0 - p) * RUFF_GAIN)
    return out


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
    """How likely the revealed ``bids`` of the other seats were if they held ``hands`` (plus
    what they have played): the product over bidders of a discretised normal, ``spread``
    tricks wide (:data:`BID_SURPRISE` of it spread over every bid alike), around
    :func:`calibrated_tricks` (each bidder's estimate with the pressure
    of the bids made before it, none when bids were ``sealed``; ``first_bidder`` bids first
    and leads). The search weights its sampled worlds by it."""
    n = len(hands)
    weight = 1.0
    earlier: list[int] = []
    for i in range(n):
        seat = (first_bidder + i) % n
        bid = bids[seat]
        if bid is None:
            continue
        if seat != know.seat:
            dealt = hands[seat] | know.played[seat]
            mean = calibrated_tricks(dealt, trump_card, n, i == 0, () if sealed else earlier)
            weight *= _normal_share(bid, mean, dealt.bit_count(), spread)
        earlier.append(bid)
    return weight


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
    """The revealed ``bids``, with :func:`calibrated_tricks` rounded (given the bids before,
    unless bids are ``sealed``) for the seats whose bid is unknown (``None``), in bidding order
    from ``first_bidder``: how the search expects the seats still to bid in a sampled world.
    Under the ``hook``, a last bidder whose rounded estimate would bring the bids' total to
    ``hand_size`` is expected to bid the next nearest number instead.

    Seat 0 holds the ace, king and queen of trumps (hearts: the three of hearts is turned);
    seat 1 bid first, nothing; seat 2, with 2-3-4 of diamonds, is expected to bid nothing:

    >>> hands = [mask_of([38, 37, 36]), mask_of([0, 1, 2]), mask_of([13, 14, 15])]
    >>> guess_bids(hands, [None, 0, None], 27, 1, 3)
    [3, 0, 0]

    Seat 0 deals and bids last; with the hook, 3 would make the total 3, so it is expected to
    bid 2:

    >>> guess_bids(hands, [None, 0, None], 27, 1, 3, hook=True)
    [2, 0, 0]
    """
    n = len(hands)
    guesses = [0] * n
    earlier: list[int] = []
    for i in range(n):
        seat = (first_bidder + i) % n
        bid = bids[seat]
        if bid is None:
            estimate = calibrated_tricks(
                hands[seat], trump_card, n, i == 0, () if sealed else earlier
            )
            bid = min(hand_size, round(estimate))
            if hook and i == n - 1 and sum(earlier) + bid == hand_size:
                bid = hooked_bid(bid, estimate, hand_size)
        guesses[seat] = bid
        earlier.append(bid)
    return guesses


def hooked_bid(bid: int, estimate: float, hand_size: int) -> int:
    """The bid next nearest ``estimate`` after ``bid`` (its rounding, which the hook forbids),
    within ``0..hand_size``.

    >>> hooked_bid(2, 2.3, 3), hooked_bid(2, 1.8, 3), hooked_bid(3, 3.4, 3), hooked_bid(0, 0.0, 3)
    (3, 1, 2, 1)
    """
    if (estimate > bid and bid < hand_size) or bid == 0:
        return bid + 1
    return bid - 1


BID_SURPRISE = 0.05
"""The share of a bid the bidder's cards do not explain (a hunch, a slip, a bid to spoil): the
bid likelihood gives it to every bid alike, the rest to the normal around the bidder's
estimate. Without it, a bid far from the estimate in every world (nine of nine without trump,
bid by a seat facing a hand with the ace and king of spades) left the few worlds least unlikely
to carry nearly all the weight, the search's bids and the bid advice then turning from one seed
to the next on a handful of worlds; with it, such a bid weighs the worlds nearly alike, as a bid
that says little. Against bots whose bids follow the estimate it changes next to nothing
(paired over ``search_vs_heuristic.py --deal-sets 200``: +0.06 per game, CI -0.24 .. +0.36);
against bidders who bid at random three times in ten, +4.3 per game (docs/bots-research.md)."""


def _normal_share(bid: int, mean: float, hand_size: int, spread: float) -> float:
    """The probability of ``bid`` under a normal around ``mean`` discretised to 0..hand_size,
    :data:`BID_SURPRISE` of it spread over every bid alike.

    Each term of the normal is taken relative to the bid nearest the mean (its term is 1), so
    a narrow ``spread`` cannot make every term underflow to 0:

    >>> _normal_share(0, 0.4, 1, 0.001), _normal_share(1, 0.4, 1, 0.001)
    (0.975, 0.025)
    """
    nearest = min(max(round(mean), 0), hand_size)
    top = (nearest - mean) ** 2
    terms = [
        math.exp((top - (b - mean) ** 2) / (2 * spread * spread)) for b in range(hand_size + 1)
    ]
    surprise = BID_SURPRISE / (hand_size + 1)
    return (1.0 - BID_SURPRISE) * terms[bid] / sum_in_order(terms) + surprise
