"""The fast path for search: one hand's play on 52-bit integer masks, a rollout policy and an
exact end-game solver (pure Python: the search bot needs no numpy).

Cards are ints ``0..51`` (``Card.index``: ``suit * 13 + rank - 2``), so a card's suit is
``card // 13`` and, within a suit, a higher int is a higher card. A seat's cards are a 52-bit
``int`` mask (python-chess style): "must follow suit" is ``hand & SUIT_MASKS[led] or hand``.

Three engines, because they win in different places (measured by
``benchmarks/fast_path_throughput.py``); this module holds the first, the reference of the
other two:

- :class:`HandSim`: one hand, mutable, with make/unmake (:meth:`HandSim.play` /
  :meth:`HandSim.undo`). Search uses it: each sampled world is played out with the
  :func:`policy_card` rollout policy or solved exactly with :func:`solve`. Plain ``int`` masks
  beat numpy here, where every decision depends on the cards in the trick and on the bids;
  compiled, they beat both: :mod:`ohhell.bots.compiled` holds this module's rollouts and
  solver, with the world sampler and the world weights, under numba, each search decision
  one compiled call, when numba is installed.
- :func:`ohhell.bots.batch.random_hands` (in its own module, the only one needing numpy):
  uniformly random hands vectorised over thousands of games (``uint64`` masks, one array
  operation per play for every game at once), several times OpenSpiel's C++ loop.
- :func:`ohhell.bots.compiled.random_hands`: the same random hands compiled with numba, about
  three times the numpy engine, the fastest way to play them where numba is installed.

All are unchecked (they trust their callers to play legal cards) and are kept honest by
``tests/bots/test_fast_path.py``, a differential test against :func:`ohhell.engine.apply`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ohhell.engine import Card, Rules, score_hand

__all__ = [
    "LOST_GRAB",
    "LOST_PLAY_ON",
    "LOST_SPOIL",
    "NO_TRUMP",
    "SUIT_MASKS",
    "HandSim",
    "beats",
    "cards_of",
    "legal_mask",
    "mask_of",
    "play_likelihood",
    "policy_card",
    "rival_value",
    "rollout",
    "rollout_bids",
    "rollout_card",
    "rollout_cards",
    "score_tables",
    "solve",
    "solve_leaf_estimate",
]

NO_TRUMP: Final = -1
"""The ``trump`` value of a hand played without trump."""
LOST_PLAY_ON: Final = 0
"""How a rollout plays a seat whose bid is lost: on with the policy, as if still aiming at it."""
LOST_SPOIL: Final = 1
"""... to make the others miss (:func:`_spoiler`): for scoring where a missed bid scores
nothing however it is missed."""
LOST_GRAB: Final = 2
"""... to take every trick it can (the policy needing them all): for scoring where a missed bid
scores its tricks."""
SUIT_MASKS: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * suit) for suit in range(4))
"""The 13 cards of each suit as a mask (clubs, diamonds, hearts, spades)."""


def mask_of(cards: Iterable[Card | int]) -> int:
    """The mask of ``cards`` (engine cards or card ints)."""
    mask = 0
    for card in cards:
        mask |= 1 << (card if isinstance(card, int) else card.index)
    return mask


def cards_of(mask: int) -> list[int]:
    """The card ints of ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_mask(hand: int, led: int, trump: int, must_trump: bool) -> int:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (``-1`` when
    leading): follow suit if able; else, under La Podrida, trump if able; else anything."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far."""
    suit = card // 13
    if suit == best // 13:
        return card > best
    return suit == trump


class HandSim:
    """One hand's play from some position, on masks; mutable with make/unmake.

    ``hands`` are the cards each seat still holds, ``trick`` the cards played to the current
    trick from ``leader``, ``won`` the tricks won so far, ``bids`` every seat's bid (search
    fills in guesses for bids not made yet).
    """

    __slots__ = (
        "_done",
        "_history",
        "bids",
        "hands",
        "leader",
        "must_trump",
        "n",
        "trick",
        "trump",
        "won",
    )

    def __init__(
        self,
        *,
        hands: Sequence[int],
        trump: int,
        must_trump: bool,
        leader: int,
        trick: Sequence[int] = (),
        won: Sequence[int],
        bids: Sequence[int],
    ) -> None:
        self.n = len(hands)
        self.hands = list(hands)
        self.trump = trump
        self.must_trump = must_trump
        self.leader = leader
        self.trick = list(trick)
        self.won = list(won)
        self.bids = list(bids)
        self._history: list[tuple[int, int]] = []
        """Per trick completed since construction: (its leader, its winner), for undo."""
        self._done: list[list[int]] = []
        """The cards of those tricks, for undo."""

    def copy(self) -> HandSim:
        """An independent copy at the same position (without the undo history)."""
        return HandSim(
            hands=self.hands,
            trump=self.trump,
            must_trump=self.must_trump,
            leader=self.leader,
            trick=self.trick,
            won=self.won,
            bids=self.bids,
        )

    @property
    def to_act(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) % self.n

    @property
    def cards_left(self) -> int:
        """Cards not yet played, over all seats."""
        return sum(hand.bit_count() for hand in self.hands)

    def legal(self) -> int:
        """The mask of cards the seat to act may play."""
        led = self.trick[0] // 13 if self.trick else -1
        return legal_mask(self.hands[self.to_act], led, self.trump, self.must_trump)

    def best_so_far(self) -> int:
        """Position in the current (non-empty) trick of the card winning it so far."""
        trick, trump = self.trick, self.trump
        best = 0
        for i in range(1, len(trick)):
            if beats(trick[i], trick[best], trump):
                best = i
        return best

    def play(self, card: int) -> None:
        """The seat to act plays ``card`` (unchecked: it must be in :meth:`legal`)."""
        seat = (self.leader + len(self.trick)) % self.n
        self.hands[seat] ^= 1 << card
        self.trick.append(card)
        if len(self.trick) == self.n:
            winner = (self.leader + self.best_so_far()) % self.n
            self.won[winner] += 1
            self._history.append((self.leader, winner))
            self._done.append(self.trick)
            self.leader = winner
            self.trick = []

    def undo(self) -> None:
        """Take back the last :meth:`play` made on this object."""
        if not self.trick:
            leader, winner = self._history.pop()
            self.won[winner] -= 1
            self.leader = leader
            self.trick = self._done.pop()
        card = self.trick.pop()
        seat = (self.leader + len(self.trick)) % self.n
        self.hands[seat] |= 1 << card


# --------------------------------------------------------------------------- rollout policy

_TRUMP_MASKS: Final[dict[int, int]] = {NO_TRUMP: 0, **dict(enumerate(SUIT_MASKS))}


def _weakest(mask: int, trump_mask: int) -> int:
    """The card of ``mask`` least able to take a trick: the lowest-ranked non-trump (lower
    suit on ties), else the lowest trump."""
    side = mask & ~trump_mask
    if not side:
        return (mask & -mask).bit_length() - 1
    best = -1
    rank = 99
    base = 0
    for suit_mask in SUIT_MASKS:
        m = side & suit_mask
        if m:
            card = (m & -m).bit_length() - 1
            if card - base < rank:
                rank = card - base
                best = card
        base += 13
    return best


DUCK_LEAD_SCORES: Final = (1439, 1129, 544, 304, 162, -15, 536, -693)
"""The rollout policy's lead wanting no more tricks (:func:`_lead_wanting_none`): integer
weights, per card led, for being a trump, being the seat's only card of its suit, being its
lowest of the suit, each card out above it and below it (at most 4 each), each step of rank,
being the card :func:`_weakest` picks, and (divided by the cards in hand) each card held in its
suit. A conditional logit fitted to the search bot's choices at 6,825 such leads of
four-player heuristic self-play (it matches them 66 % of the time; the weakest card, 42 %),
scaled to integers so the Python and the compiled policy score alike."""


def _lead_wanting_none(legal: int, hand: int, out: int, trump_mask: int) -> int:
    """The card to lead wanting no more tricks: the highest score under
    :data:`DUCK_LEAD_SCORES` (the lowest card on a tie)."""
    trump_w, single_w, lowest_w, above_w, below_w, rank_w, weakest_w, length_w = DUCK_LEAD_SCORES
    weakest = _weakest(legal, trump_mask)
    left = hand.bit_count()
    best = -1
    top = -(1 << 60)
    rest = legal
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        suit_mask = SUIT_MASKS[card // 13]
        mine = hand & suit_mask
        length = mine.bit_count()
        above = (out & suit_mask & ~((2 << card) - 1)).bit_count()
        below = (out & suit_mask & ((1 << card) - 1)).bit_count()
        score = (
            left
            * (
                trump_w * (trump_mask >> card & 1)
                + single_w * (length == 1)
                + lowest_w * ((mine & -mine) == low)
                + above_w * min(above, 4)
                + below_w * min(below, 4)
                + rank_w * (card % 13)
                + weakest_w * (card == weakest)
            )
            + length_w * length
        )
        if score > top:
            top = score
            best = card
    return best


def _strength(card: int, out: int, trump_mask: int) -> int:
    """How likely ``card`` is to take a trick, as an integer: trumps above side cards, fewer
    cards out above it in its suit, then rank."""
    above = (out & SUIT_MASKS[card // 13] & ~((2 << card) - 1)).bit_count()
    return (3 * (trump_mask >> card & 1) - above) * 13 + card % 13


def _strongest_by_strength(mask: int, out: int, trump_mask: int) -> int:
    """The card of the non-empty ``mask`` highest in :func:`_strength` (the lower suit on a
    tie). Within a suit the higher card is the stronger, so only each suit's top card is
    compared."""
    best = -1
    top = -(1 << 30)
    for suit_mask in SUIT_MASKS:
        mine = mask & suit_mask
        if mine:
            card = mine.bit_length() - 1
            strength = _strength(card, out, trump_mask)
            if strength > top:
                top = strength
                best = card
    return best


def _shed(hand: int, legal: int, out: int, trump_mask: int, keep: int) -> int:
    """The card to play of ``legal`` keeping back the ``keep`` strongest cards of ``hand``
    (by :func:`_strength`) for the tricks still wanted: the strongest of the others, shed
    while it does no harm; the weakest legal card when every legal card is kept."""
    kept = 0
    for _ in range(keep):
        kept |= 1 << _strongest_by_strength(hand & ~kept, out, trump_mask)
    spare = legal & ~kept
    if not spare:
        return _weakest(legal, trump_mask)
    return _strongest_by_strength(spare, out, trump_mask)


def _strongest(mask: int, trump_mask: int) -> int:
    """The card of ``mask`` most able to take a trick: the highest trump, else the
    highest-ranked card (lower suit on ties)."""
    trumps = mask & trump_mask
    if trumps:
        return trumps.bit_length() - 1
    best = -1
    rank = -1
    base = 0
    for suit_mask in SUIT_MASKS:
        m = mask & suit_mask
        if m:
            card = m.bit_length() - 1
            if card - base > rank:
                rank = card - base
                best = card
        base += 13
    return best


def _policy(
    hand: int, legal: int, out: int, trick: Sequence[int], best: int, n: int, trump: int, need: int
) -> int:
    """The rollout policy's card (see :func:`policy_card`): ``hand`` the seat's cards,
    ``legal`` those it may play, ``out`` the other seats' cards, ``trick`` the cards played to
    the current trick, ``best`` the card winning it (``-1`` when leading), ``need`` the tricks
    the seat still needs for its bid."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    trump_mask = _TRUMP_MASKS[trump]
    left = hand.bit_count()
    if 0 < need < left and trump_mask:
        # trumps above every trump still out win whenever played: with enough of them kept
        # back, the seat can lose the tricks in between
        top_out = (out & trump_mask).bit_length()
        sure = hand & trump_mask & ~((1 << top_out) - 1)
        if sure.bit_count() >= need:
            spare = legal & ~sure
            if spare:
                legal = spare
                need = 0
    if best < 0:  # leading
        if need <= 0:
            return _lead_wanting_none(legal, hand, out, trump_mask)
        top_trump = legal & trump_mask
        if top_trump and top_trump.bit_length() > (out & trump_mask).bit_length():
            return top_trump.bit_length() - 1  # draw trumps with the master trump
        for suit_mask in SUIT_MASKS:
            mine = legal & suit_mask
            if mine and mine.bit_length() > (out & suit_mask).bit_length() and out & suit_mask:
                return mine.bit_length() - 1  # a master card of a side suit
        if need >= left:
            return _strongest(legal, trump_mask)
        return _weakest(legal, trump_mask)
    suit = best // 13
    if suit == trump:
        winners = legal & trump_mask & ~((2 << best) - 1)
    else:
        winners = (legal & SUIT_MASKS[suit] & ~((2 << best) - 1)) | (legal & trump_mask)
    if need > 0:
        if need < left:
            if not winners:
                # losing this trick: keep the strongest cards for the tricks needed, shed
                # the strongest of the rest (the card likeliest to take a trick not wanted)
                return _shed(hand, legal, out, trump_mask, need)
            if winners == legal and (len(trick) == n - 1 or winners & SUIT_MASKS[suit] == 0):
                # every card wins the trick so far, last to play or trumping in: win with
                # the strongest card beyond those kept for the other tricks needed
                return _shed(hand, legal, out, trump_mask, need - 1)
        if not winners:
            return _weakest(legal, trump_mask)
        if len(trick) == n - 1 or winners & SUIT_MASKS[suit] == 0:
            return (winners & -winners).bit_length() - 1  # last, or trumping in: cheapest
        # following suit with others still to play: the cheapest master card if any, else
        # the highest
        suit_mask = SUIT_MASKS[suit]
        top_out = (out & suit_mask).bit_length()
        masters = winners & ~((1 << top_out) - 1)
        if masters:
            return (masters & -masters).bit_length() - 1
        return winners.bit_length() - 1
    losers = legal & ~winners
    if losers:
        return _strongest(losers, trump_mask)  # shed the most dangerous card that loses
    if len(trick) < n - 1:
        return (winners & -winners).bit_length() - 1  # someone may still overtake
    return winners.bit_length() - 1


def _spoiler(
    legal: int,
    best: int,
    winner: int,
    seat: int,
    trump_mask: int,
    bids: Sequence[int],
    won: Sequence[int],
    hands: Sequence[int],
) -> int:
    """A lost bid's card: make the others miss. On lead, lead strong while at least as many
    seats still need tricks (and can make them) as have just what they bid, else weak; in a
    trick, beat a winner that still needs tricks as cheaply as possible, otherwise lose with
    the most dangerous card (feeding a seat that needs no more)."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if best < 0:
        hungry = fed = 0
        for other, bid in enumerate(bids):
            if other != seat:
                need = bid - won[other]
                hungry += 0 < need <= hands[other].bit_count()
                fed += need == 0
        return _strongest(legal, trump_mask) if hungry >= fed else _weakest(legal, trump_mask)
    suit = best // 13
    if trump_mask >> best & 1:
        winners = legal & trump_mask & ~((2 << best) - 1)
    else:
        winners = (legal & SUIT_MASKS[suit] & ~((2 << best) - 1)) | (legal & trump_mask)
    if bids[winner] - won[winner] > 0:
        if winners:
            follow = winners & SUIT_MASKS[suit]
            pick = follow or winners
            return (pick & -pick).bit_length() - 1
        return _weakest(legal, trump_mask)
    losers = legal & ~winners
    if losers:
        return _strongest(losers, trump_mask)
    return (legal & -legal).bit_length() - 1


def policy_card(sim: HandSim, need: int | None = None) -> int:
    """The rollout policy's card for the seat to act: play to hit the bid exactly.

    Still needing tricks: with enough master trumps kept back for them, lose the tricks in
    between; on lead, cash a master trump or a master card of a side suit, else lead the
    strongest card when every trick is needed and the weakest otherwise; in a trick, win as
    cheaply as is safe (the lowest winner when last or trumping in, else the cheapest master
    card or the highest card). Needing some tricks but not all, it keeps its strongest cards
    (by :func:`_strength`) back for them: unable to win the trick, it sheds the strongest card
    beyond those (the card likeliest to take a trick too many), and with every card winning
    the trick so far (last to play, or trumping in), it wins with that card. Needing every
    trick and unable to win this one, it throws the weakest card.

    Needing no more (or having overshot): lead the card scored highest by
    :data:`DUCK_LEAD_SCORES` (fitted to the search bot's own leads); in a trick, shed the most
    dangerous card that still loses, or, forced to win, the lowest winner while others may
    still overtake and the highest when last.

    It sees the cards the other seats hold together (not who holds which): a rollout policy
    for search, which plays in sampled worlds (so in a world with a stock it knows which
    unseen cards lie there; hiding them was measured no better, ``docs/bots-research.md``).
    Deterministic.
    ``need`` overrides the tricks the seat still needs (its bid less its tricks).
    """
    seat = sim.to_act
    hands = sim.hands
    hand = hands[seat]
    out = 0
    for other in hands:
        out |= other
    trick = sim.trick
    best = trick[sim.best_so_far()] if trick else -1
    return _policy(
        hand,
        sim.legal(),
        out & ~hand,
        trick,
        best,
        sim.n,
        sim.trump,
        sim.bids[seat] - sim.won[seat] if need is None else need,
    )


def rollout_card(sim: HandSim, *, lost: int = LOST_PLAY_ON) -> int:
    """The card :func:`rollout` would play for the seat to act: :func:`policy_card`, or, the
    seat's bid being lost, as ``lost`` says (:data:`LOST_SPOIL`: :func:`_spoiler`'s card;
    :data:`LOST_GRAB`: the policy's card for a seat needing every trick)."""
    seat = sim.to_act
    hand = sim.hands[seat]
    need = sim.bids[seat] - sim.won[seat]
    if lost == LOST_SPOIL and (need < 0 or need > hand.bit_count()):
        trick = sim.trick
        position = sim.best_so_far() if trick else 0
        return _spoiler(
            sim.legal(),
            trick[position] if trick else -1,
            (sim.leader + position) % sim.n,
            seat,
            _TRUMP_MASKS[sim.trump],
            sim.bids,
            sim.won,
            sim.hands,
        )
    if lost == LOST_GRAB and need < 0:
        return policy_card(sim, need=hand.bit_count())
    return policy_card(sim)


def play_likelihood(
    sim: HandSim, plays: Sequence[int], observer: int, mismatch: float, *, lost: int = LOST_PLAY_ON
) -> float:
    """How likely the other seats' ``plays`` were, if they play like the rollout policy: ``sim``
    is the hand's start in one sampled world (every seat's dealt cards, the first leader, no
    trick won) and ``plays`` the cards played since, in order. Each play of a seat other than
    ``observer`` that had a choice counts 1 when it is :func:`rollout_card`'s card and
    ``mismatch`` otherwise. ``sim`` is consumed."""
    weight = 1.0
    for card in plays:
        seat = sim.to_act
        if seat != observer:
            legal = sim.legal()
            if legal & (legal - 1) and rollout_card(sim, lost=lost) != card:
                weight *= mismatch
        sim.play(card)
    return weight


def rollout(sim: HandSim, *, lost: int = LOST_PLAY_ON) -> list[int]:
    """Play ``sim`` to the end of the hand with :func:`policy_card`; the tricks won per seat.
    ``sim`` is consumed (play on a :meth:`HandSim.copy` to keep it).

    A seat whose bid is lost (overshot, or more tricks needed than cards left) plays as
    ``lost`` says: on with the policy (:data:`LOST_PLAY_ON`), :func:`_spoiler`'s cards to make
    the others miss theirs (:data:`LOST_SPOIL`, for scoring where a missed bid scores nothing
    however it is missed) or the policy's for a seat needing every trick left
    (:data:`LOST_GRAB`, for scoring where a missed bid scores its tricks)."""
    n = sim.n
    hands = sim.hands
    trump = sim.trump
    trump_mask = _TRUMP_MASKS[trump]
    must_trump = sim.must_trump and trump >= 0
    won = sim.won
    bids = sim.bids
    leader = sim.leader
    trick = sim.trick
    best = -1
    best_pos = 0
    # the trick's winner so far is tracked inline here and below (beats(), written out): this
    # is the search's innermost loop in pure Python, and it saves a function call per card
    for i, card in enumerate(trick):
        if (
            best < 0
            or (card // 13 == best // 13 and card > best)
            or (card // 13 == trump and best // 13 != trump)
        ):
            best, best_pos = card, i
    everything = 0
    for hand in hands:
        everything |= hand
    while everything:
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        if trick:
            legal = hand & SUIT_MASKS[trick[0] // 13]
            if not legal:
                legal = hand & trump_mask if must_trump else 0
                if not legal:
                    legal = hand
        else:
            legal = hand
        need = bids[seat] - won[seat]
        if lost == LOST_SPOIL and (need < 0 or need > hand.bit_count()):
            card = _spoiler(
                legal, best, (leader + best_pos) % n, seat, trump_mask, bids, won, hands
            )
        else:
            if lost == LOST_GRAB and need < 0:
                need = hand.bit_count()
            card = _policy(hand, legal, everything & ~hand, trick, best, n, trump, need)
        bit = 1 << card
        hands[seat] = hand ^ bit
        everything ^= bit
        if (
            best < 0
            or (card // 13 == best // 13 and card > best)
            or (card // 13 == trump and best // 13 != trump)
        ):
            best, best_pos = card, len(trick)
        trick.append(card)
        if len(trick) == n:
            leader = (leader + best_pos) % n
            won[leader] += 1
            trick = []
            best = -1
    sim.trick = trick
    sim.leader = leader
    return won


def rollout_cards(
    sim: HandSim, cards: Sequence[int], *, lost: int = LOST_PLAY_ON
) -> list[list[int]]:
    """For each of ``cards`` (legal for the seat to act), the tricks each seat takes when the
    seat to act plays the card and :func:`rollout` finishes the hand. ``sim`` is left as it
    was."""
    out: list[list[int]] = []
    for card in cards:
        branch = sim.copy()
        branch.play(card)
        out.append(rollout(branch, lost=lost))
    return out


def rival_value(points: Sequence[int], seat: int, rivalry: float) -> float:
    """``seat``'s points less ``rivalry`` times the mean of the other seats' points: what the
    search maximises (``rivalry`` 0: its own points alone; 1: its lead over the table).

    >>> rival_value([14, 0, 12, 10], 0, 0.0)
    14.0
    >>> rival_value([14, 0, 12, 10], 0, 0.5)
    10.333333333333334
    """
    own = points[seat]
    return own - rivalry * (sum(points) - own) / (len(points) - 1)


def rollout_bids(
    sim: HandSim, seat: int, bids: Sequence[int], *, lost: int = LOST_PLAY_ON
) -> list[int]:
    """For each of ``bids``, the tricks ``seat`` takes when it bids that (the other seats'
    bids being ``sim.bids``) and :func:`rollout` plays the hand. ``sim`` is left as it was."""
    out: list[int] = []
    for bid in bids:
        branch = sim.copy()
        branch.bids[seat] = bid
        out.append(rollout(branch, lost=lost)[seat])
    return out


# --------------------------------------------------------------------------- exact solver


def score_tables(rules: Rules, bids: Sequence[int], hand_size: int) -> list[list[int]]:
    """Per seat, its points for the hand by tricks won (``0..hand_size``), from
    :func:`ohhell.engine.score_hand` so every scoring variant counts."""
    return [
        [score_hand(rules, bid=bid, won=won, hand_size=hand_size) for won in range(hand_size + 1)]
        for bid in bids
    ]


def solve_leaf_estimate(sim: HandSim) -> int:
    """An upper bound on the play sequences left (the product of each seat's card count
    factorial, as if no suit had to be followed): the solver's cost guard."""
    total = 1
    for hand in sim.hands:
        for k in range(2, hand.bit_count() + 1):
            total *= k
    return total


def solve(
    sim: HandSim, root: int, scores: Sequence[Sequence[int]], rivalry: float = 0.0
) -> dict[int, tuple[int, ...]]:
    """Exact values of the seat to act's legal cards: every seat's points for the hand after
    each, with perfect information (one sampled world), by max^n search.

    ``root`` plays its later cards for :func:`rival_value` (its points less ``rivalry`` times
    the others' mean: its own points alone at 0). The opponent model (documented choice):
    every other seat plays to maximise its *own* points for the hand (``scores[seat][tricks]``),
    which is how people play Oh Hell; among cards equal for the seat choosing, it picks the one
    worst for ``root`` (a paranoid tie-break, so the value is never optimistic about
    indifferent opponents). Transpositions are cached.
    """
    n = sim.n
    cache: dict[tuple[object, ...], tuple[int, ...]] = {}

    def better(result: tuple[int, ...], best: tuple[int, ...], seat: int) -> bool:
        if seat == root:
            return rival_value(result, root, rivalry) > rival_value(best, root, rivalry)
        return result[seat] > best[seat] or (
            result[seat] == best[seat]
            and rival_value(result, root, rivalry) < rival_value(best, root, rivalry)
        )

    def value() -> tuple[int, ...]:
        if not any(sim.hands):
            return tuple(scores[s][sim.won[s]] for s in range(n))
        key = (*sim.hands, sim.leader, *sim.trick, *sim.won)
        hit = cache.get(key)
        if hit is not None:
            return hit
        seat = sim.to_act
        best: tuple[int, ...] | None = None
        for card in cards_of(sim.legal()):
            sim.play(card)
            result = value()
            sim.undo()
            if best is None or better(result, best, seat):
                best = result
        assert best is not None
        cache[key] = best
        return best

    out: dict[int, tuple[int, ...]] = {}
    for card in cards_of(sim.legal()):
        sim.play(card)
        out[card] = value()
        sim.undo()
    return out
