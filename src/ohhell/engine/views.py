"""What one seat may know (:func:`view_for`) and what anyone may know (:func:`public_view`).

A view never holds another seat's cards or the stock, and sealed simultaneous bids stay hidden
until all are in. Bots, clients and the RL environment get views, never the
:class:`~ohhell.engine.GameState`.

>>> import random
>>> from ohhell.engine import Bid, Rules, apply, new_game, random_deal
>>> state = new_game(Rules(player_count=4, bidding="simultaneous"))
>>> state, _ = apply(state, random_deal(state, random.Random(3)))
>>> state, _ = apply(state, Bid(seat=2, bid=1))
>>> view_for(state, 1).bids, view_for(state, 2).bids
((None, None, None, None), (None, None, 1, None))
>>> view_for(state, 1).has_bid
(False, False, True, False)
>>> public_view(state).hand is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ohhell.engine.actions import Action
from ohhell.engine.cards import Card, Suit
from ohhell.engine.rules import Rules
from ohhell.engine.state import GameState, Phase, ScoreRow, Trick
from ohhell.engine.transitions import check_seat, legal_actions

__all__ = ["PlayerView", "ScoreRow", "public_view", "score_sheet", "view_for"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerView:
    """Everything ``seat`` may know now; ``seat`` and ``hand`` are ``None`` in a public view."""

    rules: Rules
    seat: int | None
    phase: Phase
    version: int
    hand_index: int
    hand_size: int
    dealer: int
    hand: tuple[Card, ...] | None
    trump_card: Card | None
    bids: tuple[int | None, ...]
    """Revealed bids by seat (``None``: not bid yet, or sealed)."""
    has_bid: tuple[bool, ...]
    tricks: tuple[Trick, ...]
    """This hand's completed tricks: every card played and by whom (perfect recall)."""
    leader: int
    trick: tuple[Card, ...]
    """The current trick so far, in order from ``leader``."""
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    score_sheet: tuple[ScoreRow, ...]
    to_act: frozenset[int]
    legal_actions: tuple[Action, ...]
    """This seat's legal actions (empty in a public view or when it is not to act)."""
    winners: tuple[int, ...]

    @property
    def player_count(self) -> int:
        return self.rules.player_count

    @property
    def trump(self) -> Suit | None:
        return None if self.trump_card is None else self.trump_card.suit

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    def played_cards(self) -> tuple[tuple[int, Card], ...]:
        """Every card played in this hand so far, as ``(seat, card)`` in order."""
        n = self.rules.player_count
        out = [(t.seat_of(i, n), c) for t in self.tricks for i, c in enumerate(t.cards)]
        out += [((self.leader + i) % n, c) for i, c in enumerate(self.trick)]
        return tuple(out)

    def shown_voids(self) -> tuple[frozenset[Suit], ...]:
        """The suits each seat has shown, by its plays in this hand so far, that it holds none
        of: the suit led to a trick it did not follow, and the trump suit as well where trumping
        is compulsory (``rules.must_trump``) and it neither followed nor trumped.

        >>> import random
        >>> from ohhell.engine import Bid, Card, Play, Rules, apply, new_game, random_deal
        >>> rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,),
        ...               trump_in_last_hand=True)
        >>> state = new_game(rules)
        >>> state, _ = apply(state, random_deal(state, random.Random(10)))
        >>> state.trump_card, state.hands[2]
        (Card('7d'), (Card('8h'), Card('Kh'), Card('5s')))
        >>> for seat in (1, 2, 0):
        ...     state, _ = apply(state, Bid(seat=seat, bid=1))
        >>> for seat, card in ((1, "3c"), (2, "8h")):  # seat 2 holds no clubs
        ...     state, _ = apply(state, Play(seat=seat, card=Card.from_str(card)))
        >>> [sorted(suit.letter for suit in suits) for suits in view_for(state, 0).shown_voids()]
        [[], [], ['c']]
        """
        n = self.rules.player_count
        trump = self.trump
        shown: list[set[Suit]] = [set() for _ in range(n)]
        tricks = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            tricks.append((self.leader, self.trick))
        for leader, cards in tricks:
            led = cards[0].suit
            for position, card in enumerate(cards):
                if card.suit is not led:
                    seat = (leader + position) % n
                    shown[seat].add(led)
                    if self.rules.must_trump and trump is not None and card.suit is not trump:
                        shown[seat].add(trump)
        return tuple(frozenset(suits) for suits in shown)


def score_sheet(state: GameState, seat: int | None = None) -> tuple[ScoreRow, ...]:
    """The score sheet: one row per finished hand, plus the hand in progress once dealt.
    Sealed bids appear only to ``seat`` itself (``None``: to no one)."""
    if seat is not None:
        check_seat(state, seat)  # as view_for
    if state.phase not in (Phase.BID, Phase.PLAY):
        return state.sheet
    current = ScoreRow(
        state.hand_index,
        state.dealer,
        state.hand_size,
        state.trump_card,
        _visible_bids(state, seat),
        state.tricks_won,
        None,
        state.totals,
    )
    return (*state.sheet, current)


def _visible_bids(state: GameState, seat: int | None) -> tuple[int | None, ...]:
    if state.bids_revealed:
        return state.bids
    return tuple(b if s == seat else None for s, b in enumerate(state.bids))


def view_for(state: GameState, seat: int) -> PlayerView:
    """Everything ``seat`` may know: its own hand, never another's, nor the stock. A seat is a
    plain ``int``: not a bool (``True`` would see seat 1's cards), nor a subclass, whose
    comparisons could claim every seat's cards and sealed bids."""
    check_seat(state, seat)  # as for an action of no seat
    return _view(state, seat)


def public_view(state: GameState) -> PlayerView:
    """What a spectator or the table display may know: no hand at all."""
    return _view(state, None)


def _view(state: GameState, seat: int | None) -> PlayerView:
    in_hand = state.phase in (Phase.BID, Phase.PLAY)
    return PlayerView(
        rules=state.rules,
        seat=seat,
        phase=state.phase,
        version=state.version,
        hand_index=state.hand_index,
        hand_size=state.hand_size,
        dealer=state.dealer,
        hand=(state.hands[seat] if in_hand else ()) if seat is not None else None,
        trump_card=state.trump_card,
        bids=_visible_bids(state, seat),
        has_bid=tuple(b is not None for b in state.bids),
        tricks=state.tricks,
        leader=state.leader,
        trick=state.trick,
        tricks_won=state.tricks_won,
        totals=state.totals,
        score_sheet=score_sheet(state, seat),
        to_act=state.to_act,
        legal_actions=legal_actions(state, seat) if seat is not None else (),
        winners=state.winners,
    )
