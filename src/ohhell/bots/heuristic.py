"""The ``heuristic`` bot: rule-based bidding and card play that aims to hit its bid exactly.

Everything here is a plain function of one :class:`~ohhell.engine.PlayerView` (the seat's own
cards and public information only), so the search bot can use it as a fast rollout policy:

- :func:`card_win_probabilities` estimates, for each card held, the chance it wins a trick: a
  simple model (no opponent holds a higher card, discounted by the risk of a ruff) corrected by
  a small logistic calibration fitted in self-play (see :data:`CARD_WIN_WEIGHTS`); the top
  trump left is a certain winner;
- :func:`trick_distribution` and :func:`expected_tricks` turn those into a distribution of the
  seat's tricks (a Poisson-binomial over the cards); a lone card's chance is exact
  (:func:`one_card_chance`), and a seat not on lead that can follow no suit led, without
  trump, takes none;
- :func:`heuristic_bid` picks the legal bid with the best expected score under the rules in force
  (hook, zero-bid bonus, missed-bid scoring), nudged by the bids already made;
- :func:`heuristic_play` plays to hit the bid: with every remaining trick needed it wins as
  surely as it can while keeping the cards likeliest to win the rest (trumps drawn first);
  with enough certain winners kept back it ducks; with no
  trick needed it ducks with the highest losing card and sheds dangerous cards; otherwise it
  plays the card that maximises the chance of taking exactly the tricks still needed (the
  chance the card wins this trick combined with the distribution of the other cards' tricks;
  except on lead, where it leads the card scored highest by :data:`LEAD_WEIGHTS`, fitted to
  the search bot's leads, and, wanting no more tricks, by :data:`DUCK_LEAD_WEIGHTS`).
  Once the bid is lost it spoils the others' bids (or, when missed bids score their tricks,
  takes every trick it can). With two cards left, where the unseen cards can be dealt in few
  enough ways, it first plays out every such deal and plays a card certainly better than
  the other, if there is one (``_certainly_better``).

>>> import random
>>> from ohhell.engine import Rules, apply, new_game, random_deal, view_for
>>> state = new_game(Rules(player_count=4))
>>> state, _ = apply(state, random_deal(state, random.Random(5)))
>>> HeuristicBot().choose(view_for(state, 1), random.Random(0), Budget())  # the Kc, spades trumps
Bid(seat=1, bid=0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from ohhell.bots.base import Budget, legal_actions, sum_in_order
from ohhell.engine import (
    Action,
    Bid,
    Card,
    Phase,
    Play,
    PlayerView,
    Suit,
    playable,
    score_hand,
    trick_winner_index,
)

__all__ = [
    "HeuristicBot",
    "card_win_probabilities",
    "expected_tricks",
    "heuristic_bid",
    "heuristic_play",
    "one_card_chance",
    "trick_distribution",
    "zero_chance",
]

_SUITS = tuple(Suit)

# The card model's hand-set constants, shared with its mask port (``sampling``) and written out
# in its compiled copy (``compiled``, checked against these by a test).
GUARD_CHANCE_TRUMP: Final = 0.6
"""A guarded trump (as many of its suit below it as unseen above) survives each higher card
with this chance."""
GUARD_CHANCE_SIDE: Final = 0.45
"""The same for a guarded card of a side suit."""
SMALL_HAND_FACTOR: Final = 0.6
"""A side card's chance is scaled by this in a two-card hand not on lead."""
RUFF_LOW: Final = 0.5
"""A trump whose chance is under this is low: it may win a trick by ruffing instead."""
RUFF_GAIN: Final = 0.5
"""A low trump gains this share of its missing chance for each short side suit it can ruff."""
PRESSURE_SLOPE: Final = 0.12
"""Each trick the table overbids scales the uncertain chances down by this share (up, when it
underbids; set by hand, and measured at four players against 0, 0.06, 0.18 and 0.24, none
better: docs/bots-research.md)..."""
PRESSURE_LIMITS: Final = (0.6, 1.4)
"""...within these factors."""
PRESSURE_FIXED: Final = (0.05, 0.9)
"""Chances below the first or above the second are not scaled by the bidding pressure."""
PRESSURE_CAP: Final = 0.95
"""A chance scaled up by the bidding pressure stays under this."""

SMALL_HAND_SHARE: Final = 0.5
"""Without trump, a card is calibrated as in a small hand with a large stock (groups 3 to 6 of
:data:`CARD_WIN_WEIGHTS`) when the opponents hold less than this share of the cards the seat
cannot see (:func:`calibration_group`)."""

CHEAP_WIN_SLACK: Final = 0.05
"""Winning a trick it needs, the heuristic plays the cheapest card whose chance of holding
the trick is within this much of the best card's: a card that costs less (a lower rank, or
following suit rather than ruffing) is worth a near-equal chance."""

_SMALL_HAND_FIRST_FIT: Final = (-1.938, 0.378, 1.214, 0.027, -0.131, 1.799, 0.193, 0.0)
"""The first calibration of small hands without trump, on lead or not (see below)."""
_SMALL_HAND_NOT_LED: Final = (-3.159, 0.151, 2.472, -0.118, -0.061, 3.788, -0.843, 0.0)
"""Its refit for a seat not on lead (see below)."""
SMALL_HAND_BID_SHIFTS: Final = (-1.5, -0.5)
"""Added to the constant of a small hand's calibration when bidding, not on lead and on lead:
a seat bids lower than the chance its cards win tricks, since it makes a low bid by ducking
(see below)."""


def _bid_shifted(weights: tuple[float, ...], shift: float) -> tuple[float, ...]:
    return (round(weights[0] + shift, 3), *weights[1:])


CARD_WIN_WEIGHTS: Final[dict[int, tuple[float, ...]]] = {
    # Logistic calibration of the card-win model, per group (0: trumps; 1: side suits under a
    # trump; 2: hands without trump; 3 to 6: hands without trump where the opponents hold less
    # than SMALL_HAND_SHARE of the unseen cards, bidding not on lead and on lead, playing not on
    # lead and on lead: calibration_group), over the features of ``_features``: constant, logit of
    # the raw model's probability, rank (0 for a 2 .. 1 for an ace), higher cards unseen (at
    # most 4), cards held in the suit, cards in hand / 13, the opponents' share of the unseen
    # cards, trumps held / cards in hand. Fitted by Newton's method (L2 1e-3) on whether each
    # card held then won a trick, at every decision of 150 self-play games of four heuristic
    # bots (standard game, deal seeds 5000-5149; about 330,000 card observations), after a
    # first fit and a refit with the resulting play. The top trump left is excluded: it is set
    # to 1.
    0: (0.118, 0.053, 1.927, -0.344, 0.345, -0.802, -0.917, 0.545),
    1: (-2.718, 0.435, 2.208, -0.049, -0.012, 0.56, 0.572, 1.616),
    2: (-4.382, 0.161, 2.608, -0.466, 0.104, 1.131, 1.689, 0.0),
    # Group 2 was fitted where hands without trump deal (nearly) the whole deck, as in the standard
    # game's last hand, and misjudges the small ones with a large stock, such as the one-card last
    # hand of the descending and up-and-down schedules (an ace on lead, a sure trick, got 0.31). A
    # set for them (group 4 now) was fitted the same way on those alone: single hands without trump
    # of every size for 3 to 7 players (40 deals each, seed 4; about 114,000 card observations at
    # decisions where the opponents held under half of the unseen cards). Measured against group 2
    # there, paired over 400 deal sets (deal seed 78) of four heuristic bots: descending, 4 players
    # +0.61 points per game (CI +0.49 .. +0.72); up-and-down, 5 players +0.34 (CI +0.25 .. +0.42),
    # 3 players +0.92 (CI +0.76 .. +1.08); descending, 6 players +0.21 (CI +0.15 .. +0.28). That
    # set had no feature for the lead, which decides most there (a king led wins unless its ace is
    # out, 0.92 with three players and three cards; it gave 0.56, on lead or not). Groups 5 and 6
    # (playing) were refitted on single hands without trump of every size for 3 to 7 players (100
    # deals each, seeds 4 to 6, with two refits; 269,000 observations): the king led gets 0.76, not
    # led 0.51. Bidding, the refit's better estimates bid worse (the seat makes a low bid by
    # ducking, which the chance of a trick under the heuristic's own play does not count): on lead
    # the old set with its constant lowered by 0.5 (group 4), not on lead the refit with its
    # constant lowered by 1.5 (group 3), each tuned on deal seed 77 and paired on fresh deals (seed
    # 78) over 2,000 deal sets of single hands of 2 to 6 cards at 3 to 7 players: group 3 +0.17 to
    # +0.91 points a hand in all 19 cells where a hand is small at bidding (three players, three
    # cards: CI +0.79 .. +1.03), group 4 +0.02 to +0.21 in 18 and -0.02 (CI -0.08 .. +0.05) in the
    # other. The presets bid on none of these hands; only the three-player standard game's last
    # hand plays with groups 5 and 6 (+0.03 per game, CI -0.09 .. +0.15). docs/bots-research.md has
    # the tables.
    3: _bid_shifted(_SMALL_HAND_NOT_LED, SMALL_HAND_BID_SHIFTS[0]),
    4: _bid_shifted(_SMALL_HAND_FIRST_FIT, SMALL_HAND_BID_SHIFTS[1]),
    5: _SMALL_HAND_NOT_LED,
    6: (0.6, 0.456, -0.085, -0.179, -0.162, 0.607, -0.474, 0.0),
}


PLAYER_COUNT_SHIFTS: Final[dict[int, tuple[float, float]]] = {
    # Added to the calibrated log-odds of groups 0 and 1 (hands with a trump) with 5 to 7
    # players: the weights were fitted on four-player games, and with more opponents they
    # overrate a card (7 players, side suits: 10.4 % predicted, 5.8 % won). Fitted as one
    # intercept per group and player count at every decision of single hands with a trump of
    # every size (20 deals each, seed 6). Measured against no shift, paired over 400 deal sets
    # (deal seed 79) of four heuristic bots in the standard game: 5 players +1.09 points per
    # game (CI +0.51 .. +1.66), 6 players +1.23 (CI +0.78 .. +1.69), 7 players +0.59 (CI
    # +0.21 .. +0.97). Three players are underrated, but the fitted shift (+0.25, +0.46) cost
    # 3.90 points per game there when bidding (see PLAY_SHIFTS); four players have none.
    5: (-0.413, -0.36),
    6: (-0.546, -0.705),
    7: (-0.84, -0.923),
}

PLAY_SHIFTS: Final[dict[int, tuple[float, ...]]] = {
    # Added to the log-odds of groups 0, 1 and 2 while playing cards (not when bidding) with
    # three players, where the fit underrates a card (side suits at bid time, 6 to 9 cards:
    # 19.0 % predicted, 26.2 % won; without trump, 15-card hands: 24.3 % and 33.3 %). Fitted
    # as the shifts above (group 2 on the 15-card last hand). Paired over 400 deal sets (deal
    # seed 79), standard game, against none: +2.53 points per game (CI +1.25 .. +3.82);
    # without the group-2 shift +1.46; half as large again +1.38 (CI -0.04 .. +2.81). The
    # same shifts when bidding too cost 3.90 (groups 0 and 1) and 1.30 (group 2).
    3: (0.247, 0.461, 1.058),
}


# The card led when some tricks are still needed but not all (and fewer sure winners are
# held than needed): the card of highest score, the score being these weights times the
# features of ``_lead_features``. Fitted (conditional logit, L2 1e-2) to the search bot's
# choices at 25,200 such leads of three-player heuristic self-play (standard game, deal
# seeds 7000-7119 and 8000-8119), where the heuristic's own lead, the lookahead below,
# fell furthest behind: behind the heuristic's bids, the search's card there alone was
# +9.3 points per game (100 deal sets). Paired against the lookahead over 300 deal sets
# of the standard game with three players: +3.87 points per game (CI +2.21 .. +5.53, deal
# seed 5), +2.48 (CI +0.95 .. +4.01, seed 9), +4.03 (CI +2.29 .. +5.76, seed 11); +2.0 to
# +3.7 under each preset. Both weights hold at 4 to 7 players (docs/bots-research.md); at four,
# against the lookahead and the weakest card, over 300 deal sets: +2.77 points per game
# (CI +1.72 .. +3.82, seed 5), +2.81 (CI +1.80 .. +3.82, seed 9), +4.16 (CI +3.05 ..
# +5.27, seed 11); 200 deal sets (seed 5): hook +2.04, La Podrida +4.72, missed bids
# scoring tricks +2.19.
# fmt: off
LEAD_WEIGHTS: Final[tuple[float, ...]] = (
    0.14, 0.17, 0.66, 1.15, -0.24, 0.1, -0.7,
    0.55, -0.01, 0.06, -0.67, -0.51, -0.05, -0.38,
)
# fmt: on

# The card led when no more tricks are wanted: the card of highest score under these
# weights and the features of ``_duck_lead_features``, fitted as LEAD_WEIGHTS to the
# search bot's choices at 6,880 such leads of three-player self-play (deal seeds
# 7000-7149 and 8000-8149; it picks the search's card 64 % of the time, the weakest card
# 42 %). The search prefers a low trump, a singleton and a card under unseen higher ones.
# Paired against leading the weakest card over 300 deal sets of the standard game with
# three players: +1.46 points per game (CI +0.45 .. +2.46, deal seed 5), +2.01 (CI +0.97
# .. +3.04, seed 9), +2.19 (CI +1.18 .. +3.20, seed 11).
# fmt: off
DUCK_LEAD_WEIGHTS: Final[tuple[float, ...]] = (
    0.15, -0.27, 1.66, -0.49, 0.67, 0.25,
    0.82, 0.24, 0.93, 0.58, -0.3, 0.75,
)
# fmt: on


# The chance that a seat bidding zero takes no trick, ducking as the heuristic ducks: a
# logistic fit on the features of ``zero_chance``. The distribution of the seat's tricks
# (``trick_distribution``) is of cards played for what they are worth; a seat that bids zero
# plays every card to lose, and in larger hands takes none far more often: 29 % of
# four-player hands of 10 cards where that distribution gives 7 %. (In small hands without
# trump less often: 63 to 81 % of two-card hands where it gives 78 to 88 %, since its chances
# there are set for bidding low.) Given that chance, side aces and kings and high cards of
# long side suits are ducked more often than it allows, and trumps less.
# Fitted on 22,200 hands of 2 cards or more where one seat bid zero whenever it could against
# three heuristic seats: 250 games of the standard game at each of 3 to 7 players and of La
# Podrida at 4 (deal seeds 1000 * players + game), and at 3 to 6 players 300 games each of
# three custom hands, small to large and large to small, for hands without trump of every size
# (the game's last hand). Log-loss on a held-out third: 0.631 with the distribution's own
# chance, 0.451 with its first twelve features (the distribution's chance, size, players and
# rules), 0.440 with all. ``heuristic_bid`` uses it under the zero-bid bonus only: in the other
# scorings, where a zero made is worth no more than a trick bid, it measured mixed
# (docs/bots-research.md).
# fmt: off
ZERO_CHANCE_WEIGHTS: Final[tuple[float, ...]] = (
    0.579, 0.838, -1.981, -0.105, 0.633, -0.315, 2.496, 0.039, -1.304,
    -1.108, 0.704, -0.125, 0.427, 2.16, -0.903, -1.807, 1.577, -0.143,
)
# fmt: on


ZERO_CHANCE_SHARE: Final = 0.5
"""How far ``heuristic_bid`` moves a bid of zero's chance from the distribution's towards
:func:`zero_chance`, which was fitted against heuristic seats: they let a seat that ducks take
no trick more often than random seats do, and the whole way it measured +5.8 points per game
against the heuristic before it, -8.9 against three ``random`` (where it lost +66.2 to +57.3)
and no better against three ``search``; half way, +5.1, -3.9 and +1.3 (docs/bots-research.md)."""


def calibration_shift(players: int, group: int, *, playing: bool = False) -> float:
    """What :data:`PLAYER_COUNT_SHIFTS` (and, when ``playing`` cards, :data:`PLAY_SHIFTS`) add
    to the log-odds of a card of ``group``."""
    total = 0.0
    for table in (PLAYER_COUNT_SHIFTS, PLAY_SHIFTS if playing else {}):
        shifts = table.get(players)
        if shifts is not None and group < len(shifts):
            total += shifts[group]
    return total


def calibration_group(
    *, trump: bool, is_trump: bool, share: float, unseen: int, on_lead: bool, playing: bool
) -> int:
    """The group of :data:`CARD_WIN_WEIGHTS` a card is calibrated by: ``trump`` whether the
    hand has a trump suit, ``is_trump`` whether the card is a trump, ``share`` the share of the
    ``unseen`` cards the opponents hold, ``on_lead`` whether the seat leads the next card and
    ``playing`` whether the cards are being played (not bid on). The compiled search inlines
    the same rule for bidding."""
    if trump:
        return 0 if is_trump else 1
    if not small_hand(share=share, unseen=unseen):
        return 2
    if playing:
        return 6 if on_lead else 5
    return 4 if on_lead else 3


def small_hand(*, share: float, unseen: int) -> bool:
    """Whether a hand without trump is calibrated as a small hand with a large stock (groups 3
    to 6 of :data:`CARD_WIN_WEIGHTS`): the opponents hold ``share`` of the ``unseen`` cards,
    under :data:`SMALL_HAND_SHARE`."""
    return unseen > 0 and share < SMALL_HAND_SHARE


@dataclass(slots=True)
class _Knowledge:
    """What the seat knows about the cards it cannot see, computed once per decision."""

    seat: int
    """The seat deciding."""
    trump: Suit | None
    unseen: list[list[int]]
    """Ranks not seen by the seat (held by others or in the stock), per suit."""
    unseen_count: int
    void: tuple[frozenset[Suit], ...]
    """Suits each seat has shown it no longer holds."""
    cards_left: list[int]
    """How many cards each seat still holds."""


def _knowledge(view: PlayerView) -> _Knowledge:
    if view.hand is None or view.seat is None:
        raise ValueError("the heuristic needs a seat's view, not a public view")
    n = view.rules.player_count
    seen = [False] * 52
    for card in view.hand:
        seen[card.index] = True
    if view.trump_card is not None:
        seen[view.trump_card.index] = True
    played_by = [0] * n
    for seat, card in view.played_cards():
        seen[card.index] = True
        played_by[seat] += 1
    void = view.shown_voids()
    unseen: list[list[int]] = [[], [], [], []]
    for index in range(52):
        if not seen[index]:
            unseen[index // 13].append(index % 13 + 2)
    cards_left = [view.hand_size - played_by[s] for s in range(n)]
    return _Knowledge(view.seat, view.trump, unseen, sum(map(len, unseen)), void, cards_left)


def _higher_unseen(know: _Knowledge, card: Card) -> int:
    rank = card.rank
    return sum(1 for r in know.unseen[card.suit] if r > rank)


# --------------------------------------------------------------------------- estimates


def card_win_probabilities(view: PlayerView) -> dict[Card, float]:
    """For each card the seat holds, an estimate of the chance it wins a trick later in this
    hand (before the seat's next card is played; the current trick is not counted specially)."""
    know = _knowledge(view)
    assert view.hand is not None and view.seat is not None
    return _win_probabilities(view, know, view.hand, on_lead=view.leader == view.seat)


def _win_probabilities(
    view: PlayerView, know: _Knowledge, hand: Sequence[Card], *, on_lead: bool
) -> dict[Card, float]:
    """The calibrated chance that each card of ``hand`` wins a trick (:data:`CARD_WIN_WEIGHTS`);
    for a lone card at bidding time, the exact chance (:func:`one_card_chance`)."""
    if view.phase is Phase.BID and len(hand) == 1:
        turned = view.trump_card.index if view.trump_card is not None else -1
        n = view.rules.player_count
        return {hand[0]: one_card_chance(hand[0].index, turned, n, on_lead)}
    raw = _raw_probabilities(view, know, hand, on_lead=on_lead)
    out: dict[Card, float] = {}
    # without trump, a seat on lead whose every card is the best of its suit left takes
    # every trick: it wins with each card it leads and so leads the next (Ac Kc Qc: three)
    masters_lead = (
        on_lead and know.trump is None and all(_higher_unseen(know, c) == 0 for c in hand)
    )
    for card, (group, features) in _features(view, know, hand, raw, on_lead=on_lead).items():
        if features[3] == 0.0 and (group == 0 or masters_lead):
            # the top trump left wins whenever it is played
            out[card] = 1.0
            continue
        z = sum_in_order(w * f for w, f in zip(CARD_WIN_WEIGHTS[group], features, strict=True))
        z += calibration_shift(view.rules.player_count, group, playing=view.phase is Phase.PLAY)
        out[card] = 1.0 / (1.0 + math.exp(-z))
    return out


def _features(
    view: PlayerView,
    know: _Knowledge,
    hand: Sequence[Card],
    raw: dict[Card, float],
    *,
    on_lead: bool,
) -> dict[Card, tuple[int, tuple[float, ...]]]:
    """Per card: its group (:func:`calibration_group`) and the features of the calibration
    model."""
    n = view.rules.player_count
    trump = know.trump
    length = [0, 0, 0, 0]
    for card in hand:
        length[card.suit] += 1
    size = len(hand)
    others = sum(know.cards_left[s] for s in range(n) if s != view.seat)
    share = min(1.0, others / know.unseen_count) if know.unseen_count else 0.0
    out: dict[Card, tuple[int, tuple[float, ...]]] = {}
    for card in hand:
        p = min(0.99, max(0.01, raw[card]))
        group = calibration_group(
            trump=trump is not None,
            is_trump=card.suit is trump,
            share=share,
            unseen=know.unseen_count,
            on_lead=on_lead,
            playing=view.phase is Phase.PLAY,
        )
        features = (
            1.0,
            math.log(p / (1.0 - p)),
            (card.rank - 2) / 12,
            float(min(4, _higher_unseen(know, card))),
            float(length[card.suit]),
            size / 13,
            share,
            length[trump] / size if trump is not None else 0.0,
        )
        out[card] = (group, features)
    return out


def _raw_probabilities(
    view: PlayerView, know: _Knowledge, hand: Sequence[Card], *, on_lead: bool
) -> dict[Card, float]:
    """The uncalibrated model: the chance no opponent holds a higher card, discounted by the
    risk of a ruff, with some ruffing value for low trumps."""
    seat = view.seat
    assert seat is not None
    n = view.rules.player_count
    trump = know.trump
    others = [s for s in range(n) if s != seat]
    opp_cards = sum(know.cards_left[s] for s in others)
    unseen_total = know.unseen_count
    share = min(1.0, opp_cards / unseen_total) if unseen_total else 0.0
    trumps_out = len(know.unseen[trump]) if trump is not None else 0
    by_suit: dict[Suit, list[Card]] = {}
    for card in hand:
        by_suit.setdefault(card.suit, []).append(card)
    probs: dict[Card, float] = {}
    small = len(hand) == 2 and not on_lead  # (a lone card is bid by its exact chance)
    for suit, cards in by_suit.items():
        cards.sort(key=lambda c: c.rank, reverse=True)
        is_trump = suit is trump
        for mine_above, card in enumerate(cards):
            higher = _higher_unseen(know, card)
            below = len(cards) - mine_above - 1
            clear = (1.0 - share) ** higher
            p = clear
            if higher and below >= higher:
                p += (1.0 - clear) * (
                    GUARD_CHANCE_TRUMP if is_trump else GUARD_CHANCE_SIDE
                ) ** higher
            if not is_trump:
                if trump is not None and trumps_out:
                    p *= 1.0 - _ruff_risk(know, suit, mine_above + 1, others, trumps_out)
                if small:
                    p *= SMALL_HAND_FACTOR
            probs[card] = p
    if trump is not None and len(hand) >= 3:
        _add_ruffing_value(probs, by_suit, trump, len(hand))
    return probs


def _ruff_risk(
    know: _Knowledge, suit: Suit, round_: int, others: Sequence[int], trumps_out: int
) -> float:
    """Chance that some opponent can trump the ``round_``-th round of ``suit``."""
    total = know.unseen_count
    if total == 0:
        return 0.0
    in_suit = len(know.unseen[suit])
    safe = 1.0
    for seat in others:
        k = know.cards_left[seat]
        if k <= 0 or (know.trump is not None and know.trump in know.void[seat]):
            continue
        has_trump = 1.0 - math.exp(-trumps_out * k / total)
        if suit in know.void[seat]:
            void = 1.0
        else:
            mean = in_suit * k / total
            void = math.exp(-mean) * sum_in_order(
                mean**j / math.factorial(j) for j in range(round_)
            )
            void = min(1.0, void)
        safe *= 1.0 - void * has_trump
    return 1.0 - safe


def _add_ruffing_value(
    probs: dict[Card, float], by_suit: dict[Suit, list[Card]], trump: Suit, size: int
) -> None:
    """Low trumps win tricks by ruffing when a side suit is short."""
    trumps = by_suit.get(trump, [])
    low = sorted((c for c in trumps if probs[c] < RUFF_LOW), key=lambda c: c.rank)
    if not low:
        return
    short = 0
    for suit in _SUITS:
        if suit is trump:
            continue
        length = len(by_suit.get(suit, []))
        short += max(0, 2 - length) if size >= 4 else max(0, 1 - length)
    for card in low[:short]:
        probs[card] += (1.0 - probs[card]) * RUFF_GAIN


def _poisson_binomial(probs: Sequence[float], size: int) -> tuple[float, ...]:
    dist = [1.0] + [0.0] * size
    for p in probs:
        for k in range(size, 0, -1):
            dist[k] = dist[k] * (1.0 - p) + dist[k - 1] * p
        dist[0] *= 1.0 - p
    return tuple(dist)


def one_card_chance(card: int, trump_card: int, players: int, on_lead: bool) -> float:
    """The exact chance that a lone ``card`` (a card index, ``Card.index``) takes the trick of
    a one-card hand, the other seats' cards being any of those unseen (``trump_card`` is the
    turned card's index, -1 for none). Each seat plays its only card, so the seat on lead
    wins unless another holds a higher card of its suit or a trump; any other seat needs the
    leader's card to be a lower one of its suit, unless its card is a trump.

    >>> from ohhell.engine import Card
    >>> round(one_card_chance(Card.from_str("Kd").index, -1, 3, True), 4)  # 49/51: the Ad out
    0.9608
    >>> round(one_card_chance(Card.from_str("Kd").index, -1, 3, False), 4)  # a diamond led
    0.2114
    """
    suit, rank = divmod(card, 13)
    trump = trump_card // 13 if trump_card >= 0 else -1
    unseen = 51 - (trump_card >= 0)
    turned_in_suit = trump == suit
    higher = 12 - rank - (turned_in_suit and trump_card % 13 > rank)
    lower = rank - (turned_in_suit and trump_card % 13 < rank)
    chance, others = 1.0, players - 1
    if suit == trump:
        beaten_by = higher
    else:
        beaten_by = higher + (12 if trump >= 0 else 0)
        if not on_lead:  # the leader's card must be a lower one of this suit
            chance, unseen, others = lower / unseen, unseen - 1, others - 1
    for i in range(others):
        chance *= max(0.0, (unseen - beaten_by - i) / (unseen - i))
    return chance


def _bid_time_probabilities(view: PlayerView) -> list[float]:
    know = _knowledge(view)
    assert view.hand is not None and view.seat is not None
    on_lead = view.leader == view.seat
    if know.trump is None and not on_lead and not any(know.unseen[c.suit] for c in view.hand):
        # no other seat holds a card of the seat's suits, without trump: it never follows the
        # suit led, so it takes no trick (13 spades when the whole deck is dealt)
        probs = [0.0] * len(view.hand)
    else:
        probs = list(_win_probabilities(view, know, view.hand, on_lead=on_lead).values())
    pressure = _bidding_pressure(view, sum_in_order(probs))
    if pressure:
        probs = [pressed_chance(p, pressure) for p in probs]
    return probs


def pressed_chance(chance: float, pressure: float) -> float:
    """A card's chance under the bidding ``pressure`` (:func:`_bidding_pressure`): scaled down
    when the table overbids, up when it underbids, unless it is nearly certain either way."""
    low, high = PRESSURE_FIXED
    if chance < low or chance > high:
        return chance
    floor, ceiling = PRESSURE_LIMITS
    return min(PRESSURE_CAP, chance * max(floor, min(ceiling, 1.0 - PRESSURE_SLOPE * pressure)))


def _bidding_pressure(view: PlayerView, mine: float) -> float:
    """How far the table (known bids, plus a fair share for seats yet to bid) overbids the
    tricks, once this seat's own estimate is included. Positive: tricks will be contested."""
    assert view.seat is not None
    known = [b for s, b in enumerate(view.bids) if s != view.seat and b is not None]
    if not known:
        return 0.0
    n = view.rules.player_count
    unknown = n - 1 - len(known)
    per_seat = view.hand_size / n
    return sum(known) + unknown * per_seat + mine - view.hand_size


def trick_distribution(view: PlayerView) -> tuple[float, ...]:
    """The estimated probability of taking 0..hand_size tricks, from the seat's cards alone."""
    return _poisson_binomial(_bid_time_probabilities(view), view.hand_size)


def expected_tricks(view: PlayerView) -> float:
    """The estimated number of tricks the seat's cards will take in this hand."""
    return sum_in_order(_bid_time_probabilities(view))


def zero_chance(view: PlayerView, dist: Sequence[float] | None = None) -> float:
    """The chance the seat takes no trick when it bids zero and ducks every trick, from
    ``dist``, the distribution of its tricks with its cards played for what they are worth
    (:func:`trick_distribution`, computed when not given), the hand's size, the players, the
    rules, and the hand's high cards, trumps and short suits (:data:`ZERO_CHANCE_WEIGHTS`):
    in larger hands a seat that ducks every trick takes none far more often than that
    distribution says; in small hands without trump less often. With one card there is
    nothing to duck with: ``dist[0]``.

    Ten cards each, four players, no trump turned (the game's last hand): the distribution
    gives seat 0 a 6 % chance of no trick; ducking, it takes none 51 % of the time. It bids two;
    with the zero-bid bonus (15 points for ten cards), zero.

    >>> import random
    >>> from ohhell.engine import Rules, apply, new_game, random_deal, view_for
    >>> def seat_0(**options):
    ...     rules = Rules(player_count=4, schedule="custom", custom_hand_sizes=(10,), **options)
    ...     state = new_game(rules, first_dealer=3)
    ...     return view_for(apply(state, random_deal(state, random.Random(4)))[0], 0)
    >>> view = seat_0()
    >>> round(trick_distribution(view)[0], 2), round(zero_chance(view), 2), heuristic_bid(view)
    (0.06, 0.51, 2)
    >>> heuristic_bid(seat_0(zero_bid_bonus=True))
    0
    """
    size = view.hand_size
    dist = trick_distribution(view) if dist is None else dist
    natural = dist[0]
    if size == 1 or view.hand is None:
        return natural
    p = min(max(natural, 1e-4), 1.0 - 1e-4)
    odds = math.log(p / (1.0 - p))
    share = size / (52 // view.rules.player_count)
    players = (view.rules.player_count - 4) / 3
    no_trump = float(view.trump_card is None)
    trump = view.trump
    length = {suit: sum(1 for c in view.hand if c.suit is suit) for suit in _SUITS}
    side = [c for c in view.hand if c.suit is not trump]
    trumps = [c for c in view.hand if c.suit is trump]
    features = (
        1.0,
        odds,
        share,
        float(view.rules.must_trump),
        players,
        odds * share,
        share * share,
        odds * players,
        share * players,
        no_trump,
        no_trump * share,
        no_trump * odds,
        sum(1 for c in side if c.rank >= 13) / size,  # side aces and kings
        sum(1 for c in side if c.rank >= 12 and length[c.suit] >= 3) / size,  # high, long suit
        len(trumps) / size,
        sum(1 for c in trumps if c.rank >= 11) / size,  # high trumps
        sum(1 for c in side if c.rank <= 6) / size,  # low side cards
        sum(1 for suit in _SUITS if suit is not trump and length[suit] <= 1) / 4,  # short suits
    )
    x = sum_in_order(w * f for w, f in zip(ZERO_CHANCE_WEIGHTS, features, strict=True))
    return 1.0 / (1.0 + math.exp(-x))


def heuristic_bid(view: PlayerView) -> int:
    """The legal bid with the best expected score under the rules in force (hook, zero-bid
    bonus, missed-bid scoring), from the heuristic distribution of the seat's tricks; with the
    zero-bid bonus, a bid of zero is made with a chance half way from the distribution's to
    its chance when ducking every trick (:func:`zero_chance`, :data:`ZERO_CHANCE_SHARE`)."""
    bids = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
    if not bids:
        raise ValueError(f"seat {view.seat} has no bid to make now")
    dist = trick_distribution(view)
    size = view.hand_size
    rules = view.rules
    expected = sum_in_order(k * p for k, p in enumerate(dist))
    zero = dist
    if rules.zero_bid_bonus and 0 in bids and dist[0] < 1.0:
        # ducking: no trick with the chance ZERO_CHANCE_SHARE gives, else as the distribution
        made = dist[0] + ZERO_CHANCE_SHARE * (zero_chance(view, dist) - dist[0])
        zero = (made, *((1.0 - made) * p / (1.0 - dist[0]) for p in dist[1:]))

    def value(bid: int) -> tuple[float, float]:
        chances = zero if bid == 0 else dist
        score = sum_in_order(
            p * score_hand(rules, bid=bid, won=k, hand_size=size) for k, p in enumerate(chances)
        )
        return score, -abs(bid - expected)

    return max(bids, key=value)


# --------------------------------------------------------------------------- card play


def _beats(card: Card, best: Card, trump: Suit | None) -> bool:
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump and best.suit is not trump


def _hold_probability(know: _Knowledge, card: Card, led: Suit, later: Sequence[int]) -> float:
    """Chance that ``card``, now winning the trick, is not beaten by the seats still to play."""
    if not later:
        return 1.0
    trump = know.trump
    total = know.unseen_count or 1
    higher = _higher_unseen(know, card)
    trumps_out = len(know.unseen[trump]) if trump is not None else 0
    safe = 1.0
    for seat in later:
        k = know.cards_left[seat]
        holds_higher = 1.0 - (1.0 - min(1.0, k / total)) ** higher
        void = 1.0 if led in know.void[seat] else math.exp(-len(know.unseen[led]) * k / total)
        no_trump = trump is None or trump in know.void[seat]
        if card.suit is led:
            # beaten by a higher card of the suit, or by a trump from a seat void in it
            p_beat = (1.0 - void) * holds_higher
            if card.suit is not trump and not no_trump and trumps_out:
                p_beat += void * (1.0 - math.exp(-trumps_out * k / total))
        else:
            # a ruff: beaten only by an over-ruff from a seat also void in the suit led
            p_beat = 0.0 if no_trump else void * holds_higher
        safe *= 1.0 - min(1.0, p_beat)
    return safe


def _sure_winners(know: _Knowledge, hand: Sequence[Card], *, voids: bool = True) -> list[Card]:
    """Trumps that no card another seat may hold can beat: they win whenever played. Every
    trump is one when each other seat still holding cards has shown it holds no trump (the
    unseen trumps are then in the stock), unless ``voids`` is false: then only the trumps
    above every unseen one."""
    trump = know.trump
    if trump is None:
        return []
    others_hold_trumps = not voids or any(
        trump not in know.void[s]
        for s, left in enumerate(know.cards_left)
        if left and s != know.seat
    )
    top = max(know.unseen[trump], default=0) if others_hold_trumps else 0
    return [c for c in hand if c.suit is trump and c.rank > top]


def _later_seats(view: PlayerView) -> list[int]:
    """The seats to play to the current trick after the seat to act, in order."""
    n = view.rules.player_count
    return [(view.leader + i) % n for i in range(len(view.trick) + 1, n)]


def heuristic_play(view: PlayerView) -> Card:
    """The card to play: see the module docstring for the plan."""
    cards = [a.card for a in view.legal_actions if isinstance(a, Play)]
    if not cards:
        raise ValueError(f"seat {view.seat} has no card to play now")
    if len(cards) == 1:
        return cards[0]
    assert view.hand is not None and view.seat is not None
    know = _knowledge(view)
    if len(view.hand) == 2:
        certain = _certainly_better(view, know)
        if certain is not None:
            return certain
    seat = view.seat
    bid = view.bids[seat]
    won = view.tricks_won[seat]
    left = len(view.hand)
    need = (bid if bid is not None else 0) - won
    later = _later_seats(view)
    if (
        need < 0
        or need > left
        or (  # every card it may play certainly takes this trick, a trick too many
            need == 0
            and view.trick
            and all(_trick_winner_if_certain(view, know, c, later) == seat for c in cards)
        )
    ):  # the bid is lost, whatever it plays
        if view.rules.missed_bid_scores_tricks:
            return _play_greedy(view, know, cards)
        return _play_spoiler(view, know, cards)
    strength = _win_probabilities(view, know, view.hand, on_lead=not view.trick)
    if need == 0:
        return _play_duck(view, know, cards, strength, later)
    # on lead, trumps certain only by the others' voids leave the lead to the fitted weights:
    # leading spare cards to lose, keeping them, played La Podrida worse (docs/bots-research.md)
    sure = _sure_winners(know, view.hand, voids=bool(view.trick))
    if need == left:
        return _play_win(view, know, cards, strength, later, every=True)
    spare = [c for c in cards if c not in sure] or cards
    best = _current_best(view, know.trump) if view.trick else None
    if len(sure) >= need and (best is None or any(not _beats(c, best, know.trump) for c in spare)):
        # enough certain winners are kept back: lose this trick with a spare card (when every
        # spare card would win it, the lookahead weighs which card to win it with instead)
        return _play_duck(view, know, spare, strength, later, keeping=True)
    if not view.trick:
        return _best_by(
            cards, LEAD_WEIGHTS, lambda c: _lead_features(view, know, c, strength, later, need)
        )
    return _play_lookahead(view, know, cards, strength, later, need)


ENDING_DEALS: Final = 400
"""The most deals of the unseen cards :func:`_certainly_better` plays out; with more (the
stock's cards among them, most hands) it stands aside."""


def _certainly_better(view: PlayerView, know: _Knowledge) -> Card | None:
    """With two cards left and both playable: the card that scores at least as much as the
    other in every deal of the unseen cards that fits the seat's facts (the cards each seat
    holds, the suits it has shown it lacks) and whatever the others play, and more in some
    deal; ``None`` when neither card is, or when there are more than :data:`ENDING_DEALS`
    such deals. The rules above reason about each seat apart; this settles what only the
    seats' holdings together can (a seat that must hold the last trump because it has shown
    it lacks the other suits left), and a card it names is never worse."""
    assert view.hand is not None and view.seat is not None
    seat, n, trump = view.seat, view.rules.player_count, know.trump
    first, second = view.hand
    others = [s for s in range(n) if s != seat and know.cards_left[s]]
    unseen = [
        Card.from_index(suit * 13 + rank - 2) for suit in _SUITS for rank in know.unseen[suit]
    ]
    if _deal_bound(others, know, unseen) > ENDING_DEALS:
        return None
    later = _later_seats(view)
    bid, won, size = view.bids[seat], view.tricks_won[seat], view.hand_size
    assert bid is not None  # cards are played once every bid is known
    scores = [score_hand(view.rules, bid=bid, won=won + t, hand_size=size) for t in range(3)]
    must_trump = view.rules.must_trump

    def outcomes(card: Card, holding: dict[int, tuple[Card, ...]]) -> set[int]:
        """The seat's scores over every way the seats after it can play this trick."""
        kept = second if card is first else first
        found: set[int] = set()

        def follow(trick: list[Card], i: int) -> None:
            if i < len(later):
                held = holding[later[i]]
                for c in playable(held, trick, trump, must_trump=must_trump):
                    follow([*trick, c], i + 1)
                return
            winner = (view.leader + trick_winner_index(trick, trump)) % n
            last = [kept if s == seat else _left(holding[s], trick) for s in range(n)]
            order = [(winner + i) % n for i in range(n)]
            last_winner = order[trick_winner_index([last[s] for s in order], trump)]
            found.add(scores[(winner == seat) + (last_winner == seat)])

        follow([*view.trick, card], 0)
        return found

    first_ok = second_ok = True  # no deal yet where the card does worse than the other may
    first_more = second_more = False
    for holding in _holdings(others, know, unseen):
        one, two = outcomes(first, holding), outcomes(second, holding)
        first_ok = first_ok and min(one) >= max(two)
        second_ok = second_ok and min(two) >= max(one)
        first_more = first_more or min(one) > max(two)
        second_more = second_more or min(two) > max(one)
        if not (first_ok or second_ok):
            return None
    if first_ok and first_more:
        return first
    if second_ok and second_more:
        return second
    return None


def _deal_bound(others: Sequence[int], know: _Knowledge, unseen: Sequence[Card]) -> int:
    """At least the number of deals :func:`_holdings` yields: each seat in turn (the fewest
    cards it may hold first) chooses its cards from those of its suits, or from the cards the
    seats before it left if fewer."""
    fits = sorted(
        (sum(1 for c in unseen if c.suit not in know.void[seat]), know.cards_left[seat])
        for seat in others
    )
    bound, pool = 1, len(unseen)
    for fit, k in fits:
        bound *= math.comb(min(fit, pool), k)
        pool -= k
    return bound


def _left(held: tuple[Card, ...], trick: Sequence[Card]) -> Card:
    """A seat's last card: of the cards it held, the one not in ``trick``."""
    (card,) = [c for c in held if c not in trick] if len(held) == 2 else held
    return card


def _holdings(
    others: Sequence[int], know: _Knowledge, unseen: Sequence[Card]
) -> Iterator[dict[int, tuple[Card, ...]]]:
    """Every way to deal the ``unseen`` cards to the ``others`` (``know.cards_left`` each,
    none of a suit a seat has shown it lacks; the rest in the stock)."""
    if not others:
        yield {}
        return
    seat, rest = others[0], others[1:]
    void = know.void[seat]
    fits = [c for c in unseen if c.suit not in void]
    for held in combinations(fits, know.cards_left[seat]):
        left = [c for c in unseen if c not in held]
        for holding in _holdings(rest, know, left):
            holding[seat] = held
            yield holding


@dataclass(frozen=True, slots=True)
class _Outlook:
    """What playing one card now means for taking exactly the tricks still needed."""

    now: float
    """The chance the card wins this trick."""
    take: float
    """The chance the other cards take one trick fewer than needed (right if it wins)."""
    keep: float
    """The chance the other cards take exactly the tricks needed (right if it loses)."""

    @property
    def hit(self) -> float:
        """The chance of taking exactly the tricks needed, playing the card now."""
        return self.now * self.take + (1.0 - self.now) * self.keep


def _outlook(
    view: PlayerView,
    know: _Knowledge,
    card: Card,
    strength: dict[Card, float],
    later: Sequence[int],
    need: int,
) -> _Outlook:
    hand = view.hand
    assert hand is not None
    if view.trick and not _beats(card, _current_best(view, know.trump), know.trump):
        now = 0.0
    else:
        led = view.trick[0].suit if view.trick else card.suit
        now = _hold_probability(know, card, led, later)
    others = [strength[c] for c in hand if c != card]
    if len(hand) == 2:  # the last trick: settled by what the seat knows, where it can be
        others = [_kept_chance(view, know, card, later, strength)]
    rest = _poisson_binomial(others, len(hand) - 1)
    keep = rest[need] if need < len(rest) else 0.0
    take = rest[need - 1] if need >= 1 else 0.0
    return _Outlook(now, take, keep)


def _play_lookahead(
    view: PlayerView,
    know: _Knowledge,
    cards: Sequence[Card],
    strength: dict[Card, float],
    later: Sequence[int],
    need: int,
) -> Card:
    """The card that maximises the chance of taking exactly ``need`` more tricks: the chance
    it wins this trick combined with the distribution of the tricks the other cards take.

    A certain winner (the top trump left) is not spent on a trick another card wins as surely
    while more tricks are needed after it than the certain winners cover: kept, it takes one
    of them whatever happens (the estimate of the other cards' tricks, card by card, cannot see
    that control; with more certain winners than tricks wanted, the estimate decides)."""
    sure = set(_sure_winners(know, cards))
    if view.trick and 1 <= len(sure) <= need - 1:
        certain = [c for c in cards if _outlook(view, know, c, strength, later, need).now >= 1.0]
        if any(c not in sure for c in certain):
            cards = [c for c in cards if c not in sure or c not in certain]
    return max(
        cards,
        key=lambda card: (_outlook(view, know, card, strength, later, need).hit, -card.rank),
    )


def _lead_features(
    view: PlayerView,
    know: _Knowledge,
    card: Card,
    strength: dict[Card, float],
    later: Sequence[int],
    need: int,
) -> tuple[float, ...]:
    """The features :data:`LEAD_WEIGHTS` weigh, for leading ``card``: its chance to win the
    trick, the lookahead's chance of hitting the bid, its strength, its rank, whether it is a
    trump and whether no unseen card beats it; the length of its suit in hand (over the cards
    left), whether it is the lowest, the highest, the only card of its suit held; the chance
    to win and the strength times the share of the cards left that must win; the expected
    tricks of the other cards beyond those still needed (over the cards left); and how much
    more often the bid is hit winning this trick than losing it."""
    hand = view.hand
    assert hand is not None
    left = len(hand)
    outlook = _outlook(view, know, card, strength, later, need)
    suit = [c for c in hand if c.suit is card.suit]
    share = need / left
    others = sum_in_order(strength[c] for c in hand if c != card)
    return (
        outlook.now,
        outlook.hit,
        strength[card],
        (card.rank - 2) / 12,
        float(card.suit is know.trump),
        float(_higher_unseen(know, card) == 0),
        len(suit) / left,
        float(card.rank == min(c.rank for c in suit)),
        float(card.rank == max(c.rank for c in suit)),
        float(len(suit) == 1),
        outlook.now * share,
        strength[card] * share,
        (others - (need - outlook.now)) / left,
        outlook.take - outlook.keep,
    )


def _duck_lead_features(
    view: PlayerView, know: _Knowledge, card: Card, strength: dict[Card, float]
) -> tuple[float, ...]:
    """The features :data:`DUCK_LEAD_WEIGHTS` weigh, for leading ``card`` wanting no more
    tricks: its strength, its rank, whether it is a trump; the length of its suit in hand
    (over the cards left), whether it is the lowest, the highest, the only card of its suit
    held; the unseen cards of its suit (over 13), those above it and those below it (at most
    4, over 4), whether none is above it, and whether it is the seat's weakest card."""
    hand = view.hand
    assert hand is not None
    suit = [c.rank for c in hand if c.suit is card.suit]
    unseen = know.unseen[card.suit]
    higher = sum(1 for rank in unseen if rank > card.rank)
    lower = len(unseen) - higher
    weakest = min(hand, key=lambda c: (strength[c], c.rank))
    return (
        strength[card],
        (card.rank - 2) / 12,
        float(card.suit is know.trump),
        len(suit) / len(hand),
        float(card.rank == min(suit)),
        float(card.rank == max(suit)),
        float(len(suit) == 1),
        len(unseen) / 13,
        min(higher, 4) / 4,
        min(lower, 4) / 4,
        float(higher == 0),
        float(card == weakest),
    )


def _best_by(
    cards: Sequence[Card],
    weights: Sequence[float],
    features: Callable[[Card], tuple[float, ...]],
) -> Card:
    """The card of highest score, ``weights`` times its ``features`` (the lowest on a tie)."""

    def score(card: Card) -> tuple[float, int]:
        return sum_in_order(w * f for w, f in zip(weights, features(card), strict=True)), -card.rank

    return max(cards, key=score)


def _current_best(view: PlayerView, trump: Suit | None) -> Card:
    return view.trick[trick_winner_index(view.trick, trump)]


def _winners_now(view: PlayerView, know: _Knowledge, cards: Sequence[Card]) -> list[Card]:
    if not view.trick:
        return list(cards)
    best = _current_best(view, know.trump)
    return [c for c in cards if _beats(c, best, know.trump)]


def _trick_winner_if_certain(
    view: PlayerView, know: _Knowledge, card: Card, later: Sequence[int]
) -> int | None:
    """The seat that takes the current trick once the seat to play adds ``card``, when that
    is already certain (no seat still to play can beat the best card, :func:`_could_beat`),
    else ``None``."""
    trick = [*view.trick, card]
    best_index = trick_winner_index(trick, know.trump)
    best = trick[best_index]
    if any(_could_beat(know, seat, best, trick[0].suit) for seat in later):
        return None
    return (view.leader + best_index) % view.rules.player_count


def _could_beat(know: _Knowledge, seat: int, best: Card, led: Suit) -> bool:
    """Whether ``seat``, still to play to this trick, may hold a card that beats ``best``, as
    far as the unseen cards and the suits it has shown it lacks tell: a higher card of the
    suit led (when ``best`` is of that suit), or a trump (a higher one over a trump). A seat
    that cannot beat the best card now cannot beat a higher one played after it either."""
    trump = know.trump
    void = know.void[seat]
    if best.suit is led:
        if led not in void and any(rank > best.rank for rank in know.unseen[led]):
            return True
        if trump is None or led is trump or trump in void:
            return False
        return bool(know.unseen[trump])  # any trump ruffs it
    # a trump is best on a side suit led: only a higher trump beats it
    return trump not in void and any(rank > best.rank for rank in know.unseen[best.suit])


def _last_trick_chance(
    view: PlayerView, know: _Knowledge, kept: Card, leaders: Sequence[int]
) -> float | None:
    """Where the seat's known facts settle it, whether ``kept``, its last card, takes the last
    trick, led by one of ``leaders`` (1.0 or 0.0; ``None`` where the facts do not settle it):
    a card that is not trump cannot win unless its suit is led, a leader shown void in that
    suit cannot lead it, and one that leads it beats the lowest card of the suit left; a card
    the seat leads that no unseen card can beat (nor ruff) wins."""
    trump = know.trump
    if list(leaders) == [view.seat]:
        beaten = _higher_unseen(know, kept) > 0
        ruffed = trump is not None and kept.suit is not trump and bool(know.unseen[trump])
        return None if beaten or ruffed else 1.0
    if view.seat in leaders or kept.suit is trump:
        return None
    if all(kept.suit in know.void[leader] for leader in leaders):
        return 0.0
    if all(rank > kept.rank for rank in know.unseen[kept.suit]):
        return 0.0  # its suit can only be led with a higher card: the lowest left never wins
    return None


def _kept_chance(
    view: PlayerView,
    know: _Knowledge,
    card: Card,
    later: Sequence[int],
    strength: dict[Card, float],
) -> float:
    """With two cards left, the chance the card kept after playing ``card`` takes the last
    trick: settled by :func:`_last_trick_chance` where the facts allow, else its
    ``strength``. The last trick's leader is this trick's winner: certain, or one of the seats
    that can still take it when the seat's card cannot.

    When neither card wins this trick and one is a trump, the other not, the trick goes the
    same way whichever is played, and a trump kept takes the last trick whenever the side
    card kept would (its suit led and nobody following higher or ruffing, the trump wins as
    well): its chance is never put below the side card's."""
    chance = _kept_card_chance(view, know, card, later, strength)
    kept = _other(view, card)
    trump = know.trump
    if (
        view.trick
        and trump is not None
        and (card.suit is trump) is not (kept.suit is trump)
        and not any(_beats(c, _current_best(view, trump), trump) for c in (card, kept))
    ):
        swapped = _kept_card_chance(view, know, kept, later, strength)
        return max(chance, swapped) if kept.suit is trump else min(chance, swapped)
    return chance


def _kept_card_chance(
    view: PlayerView,
    know: _Knowledge,
    card: Card,
    later: Sequence[int],
    strength: dict[Card, float],
) -> float:
    """:func:`_kept_chance` before the trump's dominance: the facts, else the strength."""
    kept = _other(view, card)
    if not view.trick:
        return strength[kept]
    winner = _trick_winner_if_certain(view, know, card, later)
    if winner is not None:
        leaders: list[int] = [winner]
    elif not _beats(card, _current_best(view, know.trump), know.trump):
        n = view.rules.player_count
        best = (view.leader + trick_winner_index(view.trick, know.trump)) % n
        led = view.trick[0].suit
        top = _current_best(view, know.trump)
        leaders = [best, *(s for s in later if _could_beat(know, s, top, led))]
    else:
        return strength[kept]
    chance = _last_trick_chance(view, know, kept, leaders)
    return strength[kept] if chance is None else chance


def _play_win(
    view: PlayerView,
    know: _Knowledge,
    cards: Sequence[Card],
    strength: dict[Card, float],
    later: Sequence[int],
    *,
    every: bool = False,
) -> Card:
    """Take this trick as surely and as cheaply as possible (lose cheaply if it cannot).

    ``every``: every trick left is needed, so a card is judged by its chance to win this
    trick times the chance that the cards kept win all the others (their strengths): a high
    trump spent where a low one wins nearly as surely is missed later."""
    trump = know.trump
    if not view.trick:
        return _lead_to_win(know, cards, strength, every=every)
    led = view.trick[0].suit
    winners = _winners_now(view, know, cards)
    if led is not trump and view.hand is not None:
        # ruffing with every trick wanted: a certain winner wins later anyway, so ruff with
        # a trump that is not one, whose best chance of a trick this is
        sure = _sure_winners(know, view.hand)
        if any(c.suit is trump and c not in sure for c in winners):
            winners = [c for c in winners if c not in sure]
    if winners:
        scored = [(_hold_probability(know, c, led, later), c) for c in winners]
        if every and view.hand is not None:
            scored = [
                (p * math.prod(strength[o] for o in view.hand if o != c), c) for p, c in scored
            ]
        # the cheapest card that scores as well as any: lowest rank, and follow suit before a ruff
        top = max(p for p, _ in scored)
        good = [c for p, c in scored if p >= top - CHEAP_WIN_SLACK]
        return min(good, key=lambda c: (c.suit is trump and led is not trump, c.rank))
    return _discard(know, cards, strength, view, later)


def _lead_to_win(
    know: _Knowledge, cards: Sequence[Card], strength: dict[Card, float], *, every: bool = False
) -> Card:
    trump = know.trump
    sure = _sure_winners(know, cards)
    if sure:
        # draw trumps from the top
        return max(sure, key=lambda c: c.rank)
    trumps = [c for c in cards if c.suit is trump]
    if every and trumps and trump is not None and know.unseen[trump]:
        # every trick needed and no trump certain yet: draw trumps before cashing a side
        # suit's master, which a seat out of that suit could ruff
        return max(trumps, key=lambda c: c.rank)
    bosses = [c for c in cards if _higher_unseen(know, c) == 0]
    if bosses:
        return max(bosses, key=lambda c: (strength[c], c.rank))
    # no boss card: lead the strongest card (top trump first)
    return max(cards, key=lambda c: (c.suit is trump, strength[c], c.rank))


def _discard(
    know: _Knowledge,
    cards: Sequence[Card],
    strength: dict[Card, float],
    view: PlayerView | None = None,
    later: Sequence[int] = (),
) -> Card:
    """A card to lose with while tricks are still wanted: the weakest; with two cards left
    (given the ``view``), the one whose partner is likelier to take the last trick."""
    trump = know.trump
    if view is not None and view.hand is not None and len(view.hand) == 2 and len(cards) == 2:
        return max(
            cards,
            key=lambda c: (_kept_chance(view, know, c, later, strength), -strength[c]),
        )
    return min(cards, key=lambda c: (strength[c], c.suit is trump, c.rank))


def _other(view: PlayerView, card: Card) -> Card:
    """The seat's other card, of two."""
    assert view.hand is not None
    (other,) = [c for c in view.hand if c != card]
    return other


def _play_duck(
    view: PlayerView,
    know: _Knowledge,
    cards: Sequence[Card],
    strength: dict[Card, float],
    later: Sequence[int],
    *,
    keeping: bool = False,
) -> Card:
    """Lose this trick if the seat can, and shed what could win a trick later: ``cards`` are
    the cards it may play, all of which should lose (``keeping``: certain winners, not among
    ``cards``, are kept back for the tricks still needed)."""
    trump = know.trump
    if not view.trick:
        if not keeping:
            # never a lead that certainly takes the trick (its suit and the trumps shown gone
            # from every other hand) while another card may lose it
            safe = [c for c in cards if _trick_winner_if_certain(view, know, c, later) is None]
            return _best_by(
                safe or cards,
                DUCK_LEAD_WEIGHTS,
                lambda c: _duck_lead_features(view, know, c, strength),
            )
        # lead the card least likely to win, the lowest of its suit
        return min(cards, key=lambda c: (strength[c], c.rank))
    led = view.trick[0].suit
    best = _current_best(view, trump)
    losers = [c for c in cards if not _beats(c, best, trump)]
    if len(losers) == 2 and view.hand is not None and len(view.hand) == 2:
        # the last trick next: keep the card less likely to take it, by what the seat knows
        return min(
            losers, key=lambda c: (_kept_chance(view, know, c, later, strength), -strength[c])
        )
    if losers:
        # shed the most dangerous card that still loses
        return max(losers, key=lambda c: (strength[c] if c.suit is not led else 2.0, c.rank))
    # every card wins now: if later seats may still overtake, play the lowest; otherwise
    # (certain winners kept back for the tricks still needed: with none to keep, the bid would
    # be lost whatever it played, and the lost bid's play chose) win with the highest and keep
    # the low cards for ducking later
    if later:
        return min(cards, key=lambda c: (c.suit is trump, c.rank))
    return max(cards, key=lambda c: (strength[c], c.rank))


def _play_greedy(view: PlayerView, know: _Knowledge, cards: Sequence[Card]) -> Card:
    """Missed bids score their tricks: take every trick possible."""
    assert view.hand is not None
    strength = _win_probabilities(view, know, view.hand, on_lead=not view.trick)
    later = _later_seats(view)
    return _play_win(view, know, cards, strength, later)


def _play_spoiler(view: PlayerView, know: _Knowledge, cards: Sequence[Card]) -> Card:
    """The seat's own bid is lost: make the others miss theirs."""
    assert view.hand is not None and view.seat is not None
    n = view.rules.player_count
    trump = know.trump
    strength = _win_probabilities(view, know, view.hand, on_lead=not view.trick)
    left = len(view.hand)
    needs = {  # a seat needing more tricks than are left has lost its bid: nothing to spoil
        s: (b - view.tricks_won[s])
        for s, b in enumerate(view.bids)
        if b is not None and s != view.seat and b - view.tricks_won[s] <= left
    }
    if not view.trick:
        # lead high while the tricks the others still need are at least as many as the seats
        # with just what they bid (steal those tricks), low otherwise (feed those seats); the
        # rollouts' spoiler counts the seats on both sides: the two measured alike (0.00 to
        # +0.01 points per game over 300 deal sets, 3 to 5 players)
        hungry = sum(max(0, v) for v in needs.values())
        fed = sum(1 for v in needs.values() if v == 0)
        if hungry >= fed:
            return max(cards, key=lambda c: (strength[c], c.rank))
        return min(cards, key=lambda c: (strength[c], c.rank))
    winner = (view.leader + trick_winner_index(view.trick, trump)) % n
    led = view.trick[0].suit
    best = _current_best(view, trump)
    if needs.get(winner, 0) > 0:
        beaters = _winners_now(view, know, cards)
        if beaters:
            return min(beaters, key=lambda c: (c.suit is trump and led is not trump, c.rank))
        return _discard(know, cards, strength)
    losers = [c for c in cards if not _beats(c, best, trump)]
    if losers:
        return max(losers, key=lambda c: (strength[c], c.rank))
    if len(view.trick) == n - 1:
        # the last to play and every card wins: win with the strongest, keeping the low cards
        # to lead into the seats that want no more tricks
        return max(cards, key=lambda c: (strength[c], c.rank))
    return min(cards, key=lambda c: c.rank)


class HeuristicBot:
    """Rule-based bidding and play (see the module docstring); deterministic, ignores the
    random generator and the budget. It takes 0.14 ms per decision on average; a decision
    between its last two cards that plays out every deal left (:func:`_certainly_better`)
    took up to 25 ms."""

    name = "heuristic"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        legal_actions(view, rng, budget)  # the call checked, and the seat is to act
        assert view.seat is not None  # a seat with an action to take
        if view.phase is Phase.BID:
            return Bid(view.seat, heuristic_bid(view))
        return Play(view.seat, heuristic_play(view))
