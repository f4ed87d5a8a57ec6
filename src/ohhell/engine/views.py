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
from typing import Final

from ohhell.engine.actions import Action, Bid, Play
from ohhell.engine.cards import Card, Suit
from ohhell.engine.errors import ViewError
from ohhell.engine.jsontext import brief
from ohhell.engine.rules import Rules
from ohhell.engine.scoring import playable
from ohhell.engine.state import GameState, Phase, ScoreRow, Trick
from ohhell.engine.transitions import (
    check_seat,
    hook_forbidden_bid,
    legal_actions,
    require_state,
)
from ohhell.engine.wording import counted

__all__ = ["PlayerView", "ScoreRow", "check_view", "public_view", "score_sheet", "view_for"]


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
        masks = self.shown_void_masks()
        return tuple(frozenset(suit for suit in Suit if mask >> suit & 1) for mask in masks)

    def shown_void_masks(self) -> tuple[int, ...]:
        """:meth:`shown_voids` as bit masks: bit ``suit`` (a :class:`Suit` value) of seat
        ``s``'s mask is set when ``s`` has shown it holds none of ``suit``.

        >>> import random
        >>> from ohhell.engine import Bid, Card, Play, Rules, apply, new_game, random_deal
        >>> state = new_game(Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,)))
        >>> state, _ = apply(state, random_deal(state, random.Random(10)))
        >>> for seat in (1, 2, 0):
        ...     state, _ = apply(state, Bid(seat=seat, bid=1))
        >>> for seat, card in ((1, "3c"), (2, "8h")):  # seat 2 holds no clubs (bit 0)
        ...     state, _ = apply(state, Play(seat=seat, card=Card.from_str(card)))
        >>> view_for(state, 0).shown_void_masks()
        (0, 0, 1)
        """
        n = self.rules.player_count
        trump = self.trump
        trump_bit = 1 << trump if self.rules.must_trump and trump is not None else 0
        masks = [0] * n
        tricks = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            tricks.append((self.leader, self.trick))
        for leader, cards in tricks:
            led = cards[0].suit
            for position, card in enumerate(cards):
                if card.suit is not led:
                    masks[(leader + position) % n] |= 1 << led | (
                        trump_bit if card.suit is not trump else 0
                    )
        return tuple(masks)


def score_sheet(state: GameState, seat: int | None = None) -> tuple[ScoreRow, ...]:
    """The score sheet: one row per finished hand, plus the hand in progress once dealt.
    Sealed bids appear only to ``seat`` itself (``None``: to no one)."""
    require_state(state, "score_sheet")
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
    require_state(state, "view_for")
    check_seat(state, seat)  # as for an action of no seat
    return _view(state, seat)


def public_view(state: GameState) -> PlayerView:
    """What a spectator or the table display may know: no hand at all."""
    require_state(state, "public_view")
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


def check_view(view: PlayerView) -> None:
    """Raise :class:`~ohhell.engine.ViewError` unless ``view`` is whole and consistent, as
    :func:`view_for` makes one: its rules, a seat of them (or none, for a public view), seats
    and per-seat entries that the rules' table has, cards that are cards and appear once
    (the seat's hand, the turned card, the tricks), a hand of the size the hand deals less the
    cards the seat has played, a turned card where the rules turn one, and, above all, legal
    actions that the view's own facts give (the cards the hand may play to the trick, the bids
    open to the seat). A bot calls it before deciding (:func:`ohhell.bots.base.legal_actions`),
    so that a view built or changed by hand is refused with what is wrong rather than decided
    from: the search's compiled code trusts what it is given.

    >>> import dataclasses, random
    >>> from ohhell.engine import Rules, apply, new_game, random_deal
    >>> state = new_game(Rules(player_count=4), first_dealer=0)
    >>> state, _ = apply(state, random_deal(state, random.Random(1)))
    >>> view = view_for(state, 1)
    >>> check_view(view)
    >>> check_view(dataclasses.replace(view, bids=(None,) * 3))
    Traceback (most recent call last):
    ...
    ohhell.engine.errors.ViewError: inconsistent view: bids has 3 entries; the rules have 4 seats
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"check_view takes a PlayerView, got {type(view).__name__}")
    problem = _view_problem(view)
    if problem is not None:
        raise ViewError(f"inconsistent view: {problem}")


_INT: Final[frozenset[type]] = frozenset({int})
_BID: Final[frozenset[type]] = frozenset({int, type(None)})
_BOOL: Final[frozenset[type]] = frozenset({bool})
_CARD: Final[frozenset[type]] = frozenset({Card})
_PER_SEAT: Final = (("bids", _BID), ("has_bid", _BOOL), ("tricks_won", _INT), ("totals", _INT))


def _view_problem(view: PlayerView) -> str | None:
    """What is wrong with ``view``, or ``None``. (Each decision of every bot pays for this, so
    it checks types by sets of them rather than one call per entry.)"""
    rules = view.rules
    if not isinstance(rules, Rules):
        return f"rules must be Rules, got {type(rules).__name__}"
    n = rules.player_count
    seat = view.seat
    if seat is not None and not (type(seat) is int and 0 <= seat < n):
        return f"seat must be a seat from 0 to {n - 1} or None, got {brief(seat)}"
    if not isinstance(view.phase, Phase):
        return f"phase must be a Phase, got {view.phase!r}"
    numbers = (view.version, view.hand_index, view.hand_size, view.dealer, view.leader)
    if {type(value) for value in numbers} != _INT or min(numbers) < 0:
        names = ("version", "hand_index", "hand_size", "dealer", "leader")
        name, value = next(
            (name, value)
            for name, value in zip(names, numbers, strict=True)
            if type(value) is not int or value < 0
        )
        return f"{name} must be a whole number, got {value!r}"
    if view.dealer >= n or view.leader >= n:
        return f"dealer {view.dealer} and leader {view.leader} must be seats from 0 to {n - 1}"
    for name, kinds in _PER_SEAT:
        entries = getattr(view, name)
        if type(entries) is not tuple or len(entries) != n:
            count = len(entries) if isinstance(entries, tuple) else type(entries).__name__
            return f"{name} has {count} entries; the rules have {n} seats"
        if not {type(entry) for entry in entries} <= kinds:
            return f"{name} holds {entries!r}, not {' or '.join(sorted(k.__name__ for k in kinds))}"
    to_act = view.to_act
    if (
        type(to_act) is not frozenset
        or not {type(s) for s in to_act} <= _INT
        or (to_act and not 0 <= min(to_act) <= max(to_act) < n)
    ):
        return f"to_act must be a set of seats from 0 to {n - 1}, got {to_act!r}"
    problem, seen = _card_problem(view, n)
    if problem is None and view.phase in (Phase.BID, Phase.PLAY):
        problem = _hand_problem(view, n, seen)
    return problem if problem is not None else _actions_problem(view, n)


def _card_problem(view: PlayerView, n: int) -> tuple[str | None, list[Card]]:
    """Cards that are not cards, tricks that are not tricks, or a card seen twice; and the
    cards the view shows (:func:`_seen_cards`; none until the tricks are tricks)."""
    hand = view.hand
    if view.seat is None and hand is not None:
        return "a public view (no seat) holds a hand", []
    if view.seat is not None and type(hand) is not tuple:
        return f"hand must be a tuple of cards, got {type(hand).__name__}", []
    if view.trump_card is not None and type(view.trump_card) is not Card:
        return f"trump_card must be a Card or None, got {view.trump_card!r}", []
    tricks = view.tricks
    if type(tricks) is not tuple or not all(
        type(trick) is Trick
        and type(trick.cards) is tuple
        and len(trick.cards) == n
        and type(trick.leader) is int
        and 0 <= trick.leader < n
        for trick in tricks
    ):
        return f"tricks must be completed tricks of {n} cards each", []
    if type(view.trick) is not tuple or len(view.trick) >= n:
        return f"trick must be the current trick's cards, fewer than {n}", []
    seen = _seen_cards(view)
    if seen and {type(card) for card in seen} != _CARD:
        return "the hand and the tricks must hold cards (Card)", seen
    if len({card.index for card in seen}) != len(seen):  # (an index hashes faster than a card)
        twice = sorted({str(card) for card in seen if seen.count(card) > 1})
        verb = "appears" if len(twice) == 1 else "appear"
        twice_said = ", ".join(twice)
        return f"{twice_said} {verb} more than once among the hand, the tricks and the trump", seen
    return None, seen


def _hand_problem(view: PlayerView, n: int, seen: list[Card]) -> str | None:
    """During a hand: its size, its turned card, the seat's cards left and the voids shown
    (``seen``: the cards the view shows)."""
    rules = view.rules
    if view.hand_index >= rules.hand_count:
        hands = counted(rules.hand_count, "hand")
        return f"hand_index {view.hand_index}, but these rules have {hands}"
    if view.hand_size != rules.hand_size(view.hand_index):
        return (
            f"hand_size {view.hand_size}, but hand {view.hand_index + 1} of these rules deals"
            f" {rules.hand_size(view.hand_index)} cards each"
        )
    if (view.trump_card is None) == rules.has_trump(view.hand_index):
        turned = "turns a trump card" if rules.has_trump(view.hand_index) else "turns none"
        return f"trump_card is {view.trump_card!r}, but this hand {turned}"
    if (
        len(view.tricks) >= view.hand_size
        or sum(view.tricks_won) != len(view.tricks)
        or min(view.tricks_won) < 0
    ):
        return f"{len(view.tricks)} tricks played and tricks_won {view.tricks_won}"
    for bid, made in zip(view.bids, view.has_bid, strict=True):
        if bid is not None and not (made and 0 <= bid <= view.hand_size):
            return f"bids {view.bids}: a bid is from 0 to {view.hand_size}, by a seat that bid"
    most = 10 * view.hand_index + rules.cards_before(view.hand_index)  # every bid made
    if not all(0 <= total <= most for total in view.totals):
        return f"totals {view.totals}: after {view.hand_index} hands, each is from 0 to {most}"
    seat, hand = view.seat, view.hand
    if seat is not None and hand is not None:  # a card to each trick, and maybe to this one
        played = len(view.tricks) + ((seat - view.leader) % n < len(view.trick))
        if len(hand) != view.hand_size - played:
            return (
                f"seat {seat} holds {len(hand)} cards, having played {played} of {view.hand_size}"
            )
    if view.phase is Phase.PLAY and not all(view.has_bid):
        return "cards are played while bids are missing"
    return _voids_problem(view, n, seen) if view.tricks or view.trick else None


def _voids_problem(view: PlayerView, n: int, seen: list[Card]) -> str | None:
    """The voids that play has shown (:meth:`PlayerView.shown_voids`) must fit the cards: the
    seat holds none of a suit it has shown void in, and the cards it has not seen can be dealt
    to the other seats without giving any a suit it has shown void in. (The stock takes any
    card, so only the seats can lack cards: by Hall's theorem a deal fits unless, for some
    suits, the seats void in all of them hold more cards than the other suits have unseen.)"""
    voids = view.shown_void_masks()
    if not any(voids):
        return None
    seat, hand = view.seat, view.hand
    if seat is not None and hand is not None and voids[seat]:
        held = [card.suit for card in hand if voids[seat] >> card.suit & 1]
        if held:
            return f"seat {seat} holds {min(held).name.lower()}, having shown it holds none"
    played = {(view.leader + position) % n for position in range(len(view.trick))}
    others = [  # (the suits it is void in, the cards it holds) for each other seat void in some
        (voids[s], view.hand_size - len(view.tricks) - (s in played))
        for s in range(n)
        if s != seat and voids[s]
    ]
    if not others:
        return None
    unseen = [13] * 4
    for card in seen:
        unseen[card.suit] -= 1
    problem = unfillable_voids(others, unseen)
    if problem is None:
        return None
    suits, need, have = problem
    *most, last = [suit.name.lower() for suit in Suit if suits >> suit & 1]
    names = f"{', '.join(most)} and {last}" if most else last
    return (
        f"the seats shown void in {names} hold {need} cards, but only {have} cards of the"
        " other suits are unseen"
    )


def unfillable_voids(
    seats: list[tuple[int, int]], unseen: list[int]
) -> tuple[int, int, int] | None:
    """Whether the unseen cards (``unseen[suit]`` of each suit) can fill the hands of
    ``seats``, each a pair (the suits it holds none of, as a mask of :class:`Suit` bits; the
    cards it holds), with any left over going to the stock. ``None`` if they can; if not, a
    set of suits (a mask), the cards the seats void in all of them hold, and the fewer cards
    of the other suits.

    By Hall's theorem the cards fill the hands unless, for some set of suits, the seats void
    in all of them hold more cards than the other suits have. Only sets that some seat is void
    in all of can fail, each subset of each seat's voids, so a seat void in one suit costs
    one test.

    >>> unfillable_voids([(0b0001, 3), (0b0011, 2)], [5, 1, 0, 4])  # clubs 0b0001, diamonds 0b0010
    >>> unfillable_voids([(0b0011, 3), (0b0011, 2)], [5, 1, 0, 4])  # 5 cards, 4 hearts and spades
    (3, 5, 4)
    """
    masks = set()
    for void, _ in seats:
        sub = void
        while sub:  # each nonempty subset of the suits it is void in
            masks.add(sub)
            sub = (sub - 1) & void
    for mask in sorted(masks):
        need = sum(count for void, count in seats if mask & void == mask)
        have = sum(count for suit, count in enumerate(unseen) if not mask >> suit & 1)
        if need > have:
            return mask, need, have
    return None


def _seen_cards(view: PlayerView) -> list[Card]:
    """The cards ``view`` shows: its hand, the tricks, the current trick and the turned card."""
    seen = list(view.hand or ())
    for trick in view.tricks:
        seen += trick.cards
    seen += view.trick
    if view.trump_card is not None:
        seen.append(view.trump_card)
    return seen


def _actions_problem(view: PlayerView, n: int) -> str | None:
    """The legal actions must be those the view's facts give its seat."""
    actions = view.legal_actions
    if type(actions) is not tuple:
        return f"legal_actions must be a tuple, got {type(actions).__name__}"
    seat, hand = view.seat, view.hand
    expected: frozenset[Action] = frozenset()
    if seat is not None and hand is not None:
        if view.phase is Phase.PLAY and seat == (view.leader + len(view.trick)) % n:
            must = view.rules.must_trump
            cards = playable(hand, view.trick, view.trump, must_trump=must)
            if {type(a) for a in actions} <= {Play}:  # plays: each has a seat and a card
                seats = {a.seat for a in actions}  # type: ignore[union-attr]
                given = {a.card for a in actions}  # type: ignore[union-attr]
                if seats <= {seat} and len(actions) == len(cards) and given == set(cards):
                    return None  # the common case, without making an action per card
            expected = frozenset(Play(seat, card) for card in cards)
        elif view.phase is Phase.BID and seat in view.to_act:
            bids = set(range(view.hand_size + 1))
            forbidden = hook_forbidden_bid(view, seat)
            if forbidden is not None:
                bids.discard(forbidden)
            if {type(a) for a in actions} <= {Bid}:  # as for plays above
                seats = {a.seat for a in actions}  # type: ignore[union-attr]
                given_bids = {a.bid for a in actions}  # type: ignore[union-attr]
                if seats <= {seat} and len(actions) == len(bids) and given_bids == bids:
                    return None
            expected = frozenset(Bid(seat, bid) for bid in bids)
    given_actions = set(actions)
    if given_actions == expected and len(actions) == len(expected):
        return None
    wrong = sorted(map(str, given_actions - expected))
    missing = sorted(map(str, expected - given_actions))
    return (
        f"legal_actions are not what the view gives seat {seat}"
        + (f": {', '.join(wrong)} not open to it" if wrong else "")
        + (f"; {', '.join(missing)} missing" if missing else "")
    )
