"""Legality and the one way to change a game: :func:`apply`.

:func:`check_action` raises a specific :class:`~ohhell.engine.errors.IllegalActionError` whose
message names the seat, the action and the reason; :func:`is_legal` is its boolean twin and
:func:`legal_actions` lists what is allowed. The list is built for speed on its own, and the
property tests check on every kind of state that it holds exactly the actions the checks let
through, so a user interface greys out exactly the cards the engine would refuse.

>>> import random
>>> from ohhell.engine.rules import Rules
>>> from ohhell.engine.state import new_game
>>> state = new_game(Rules(player_count=3), first_dealer=0)
>>> state, events = apply(state, random_deal(state, random.Random(1)))
>>> state.phase, sorted(state.to_act)
(<Phase.BID: 'bid'>, [1])
>>> legal_actions(state)
(Bid(seat=1, bid=0), Bid(seat=1, bid=1))
>>> apply(state, Bid(seat=2, bid=0))
Traceback (most recent call last):
...
ohhell.engine.errors.NotYourTurnError: seat 2 cannot bid now: it is seat 1's turn to bid \
(hand 1 of 15 (1 card), bidding)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Final, Protocol

from ohhell.engine.actions import Action, Bid, Deal, Play
from ohhell.engine.cards import (
    DECK,
    DECK_IDS,
    Card,
    format_cards,
    is_deck_card,
    shuffled_deck,
)
from ohhell.engine.errors import (
    BidOutOfRangeError,
    CardNotHeldError,
    GameOverError,
    HookError,
    IllegalActionError,
    InvalidDealError,
    MustFollowSuitError,
    MustTrumpError,
    NotYourTurnError,
    WrongPhaseError,
)
from ohhell.engine.events import (
    BidMade,
    BidsRevealed,
    CardPlayed,
    Event,
    GameEnded,
    HandDealt,
    HandScored,
    TrickWon,
)
from ohhell.engine.jsontext import brief
from ohhell.engine.rules import BiddingMode, Rules
from ohhell.engine.scoring import playable, score_hand, trick_winner_index
from ohhell.engine.state import GameState, HandResult, Phase, ScoreRow, Trick
from ohhell.engine.wording import a_or_an, counted

__all__ = [
    "apply",
    "check_action",
    "check_seat",
    "deal_from_deck",
    "is_legal",
    "legal_actions",
    "legal_bids",
    "legal_plays",
    "random_deal",
]


# --------------------------------------------------------------------------- chance


def require_state(state: object, function: str) -> None:
    """Raise ``TypeError`` unless ``state`` is a :class:`GameState` (``function`` names the
    caller): a view, or ``None``, would otherwise fail deep inside, or (a view while bidding)
    pass for a state.

    >>> require_state(None, "apply")
    Traceback (most recent call last):
    ...
    TypeError: apply takes a GameState, got NoneType
    """
    if not isinstance(state, GameState):
        kind = type(state).__name__
        hint = " (a seat's view of the game, not the game)" * (kind == "PlayerView")
        raise TypeError(f"{function} takes a GameState, got {kind}{hint}")


def deal_from_deck(state: GameState, deck: Sequence[Card]) -> Deal:
    """The deal of the current hand from a shuffled ``deck`` (one card at a time, starting
    left of the dealer, then the turned card when the rules turn one)."""
    require_state(state, "deal_from_deck")
    if state.phase is Phase.OVER:  # as apply says of any action then
        raise GameOverError(f"the game is over: no deal is due ({state.describe_position()})")
    if state.phase is not Phase.DEAL:
        raise WrongPhaseError(f"no deal is due: {state.describe_position()}")
    return Deal.from_deck(
        deck,
        player_count=state.rules.player_count,
        dealer=state.dealer,
        hand_size=state.hand_size,
        turn_trump=state.rules.has_trump(state.hand_index),
    )


def random_deal(state: GameState, rng: random.Random) -> Deal:
    """The deal of the current hand from a deck shuffled by ``rng``.

    Use ``random.Random(seed)`` for reproducible games, ``secrets.SystemRandom()`` for live play.
    """
    require_state(state, "random_deal")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {rng!r}")
    return deal_from_deck(state, shuffled_deck(rng))


# --------------------------------------------------------------------------- legality


def legal_bids(state: GameState, seat: int) -> tuple[int, ...]:
    """The bids ``seat`` may make now (empty when it is not that seat's turn to bid); a seat
    that is not one (not an ``int`` of the table) is refused as an action's is."""
    require_state(state, "legal_bids")
    check_seat(state, seat)
    return _legal_bids(state, seat)


def _legal_bids(state: GameState, seat: int) -> tuple[int, ...]:
    if state.phase is not Phase.BID or seat not in state.to_act:
        return ()
    return _bids_of(state, seat)


def _bids_of(state: GameState, seat: int) -> tuple[int, ...]:
    """The bids of :func:`_legal_bids` for a seat known to be bidding now."""
    bids = range(state.hand_size + 1)
    forbidden = hook_forbidden_bid(state, seat)
    return tuple(bids) if forbidden is None else tuple([b for b in bids if b != forbidden])


class _Bidding(Protocol):
    """What the hook reads: a game state, or a seat's view of it (the same fields)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def bids(self) -> tuple[int | None, ...]: ...


def hook_forbidden_bid(state: _Bidding, seat: int) -> int | None:
    """Under the hook, the one bid the last bidder may not make (it may be out of range), of a
    state or of a seat's view (:func:`~ohhell.engine.check_view` checks a view's bids by it).
    Only bids made in turn have a last bidder: :class:`Rules` refuse the hook with sealed bids,
    and rules changed by hand past that check must still not let the dealer's legal bids (or
    a refusal's message) tell the sum of the sealed bids it cannot see."""
    rules = state.rules
    if not rules.hook or rules.bidding is not BiddingMode.SEQUENTIAL or seat != state.dealer:
        return None
    others = [b for s, b in enumerate(state.bids) if s != seat]
    if any(b is None for b in others):
        return None
    return state.hand_size - sum(b for b in others if b is not None)


def legal_plays(state: GameState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` may play now (empty when it is not that seat's turn to play); a seat
    that is not one is refused as in :func:`legal_bids`."""
    require_state(state, "legal_plays")
    check_seat(state, seat)
    return _legal_plays(state, seat)


def _legal_plays(state: GameState, seat: int) -> tuple[Card, ...]:
    if (
        state.phase is not Phase.PLAY
        or seat != (state.leader + len(state.trick)) % state.player_count
    ):
        return ()
    return playable(state.hands[seat], state.trick, state.trump, must_trump=state.rules.must_trump)


_MAX_SEATS: Final = Rules.MAX_PLAYERS
_PLAYS: Final = tuple(tuple(Play(seat, card) for card in DECK) for seat in range(_MAX_SEATS))
"""``Play(seat, card)`` for every seat and card, made once: actions are immutable, and the
legal actions are listed at every step of every game."""
_BIDS: Final = tuple(
    tuple(Bid(seat, bid) for bid in range(len(DECK) + 1)) for seat in range(_MAX_SEATS)
)
"""``Bid(seat, bid)`` for every seat and bid, made once (as :data:`_PLAYS`)."""
_CARDS_PLAYED: Final = tuple(
    tuple(CardPlayed(seat, card) for card in DECK) for seat in range(_MAX_SEATS)
)
"""The :class:`CardPlayed` event of every seat and card, made once (as :data:`_PLAYS`)."""


def legal_actions(state: GameState, seat: int | None = None) -> tuple[Action, ...]:
    """Every legal action now, for ``seat`` or for every seat to act; deals are not listed
    (the host supplies them when :attr:`~GameState.is_chance`)."""
    require_state(state, "legal_actions")
    if seat is not None:
        check_seat(state, seat)
    phase = state.phase
    if phase is Phase.PLAY:
        trick, rules = state.trick, state.rules
        turn = (state.leader + len(trick)) % rules.player_count
        if seat is not None and seat != turn:
            return ()
        plays = _PLAYS[turn]
        hand = playable(state.hands[turn], trick, state.trump, must_trump=rules.must_trump)
        return tuple([plays[card.index] for card in hand])
    if phase is Phase.BID:
        to_act = state.to_act
        if seat is not None and seat not in to_act:
            return ()
        seats = sorted(to_act) if seat is None else (seat,)
        return tuple([_BIDS[s][b] for s in seats for b in _bids_of(state, s)])
    return ()


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is allowed now (the boolean twin of :func:`check_action`)."""
    require_state(state, "is_legal")
    try:
        check_action(state, action)
    except IllegalActionError:
        return False
    return True


def _said(action: object) -> str:
    """``str(action)`` for a message (``seat 1 bids 2``), or, if it holds a number too long to
    write, :func:`~ohhell.engine.jsontext.brief`'s name for it."""
    try:
        return str(action)
    except ValueError:
        return brief(action)


def check_action(state: GameState, action: object) -> None:
    """Raise the specific :class:`IllegalActionError` that forbids ``action``, if any."""
    require_state(state, "check_action")
    if state.phase is Phase.OVER:
        raise GameOverError(
            f"the game is over; {_said(action)} is not possible", seat=_seat_of(state, action)
        )
    if isinstance(action, Play):
        _check_play(state, action)
    elif isinstance(action, Bid):
        _check_bid(state, action)
    elif isinstance(action, Deal):
        _check_deal(state, action)
    else:
        raise IllegalActionError(f"not an action: {brief(action)} (expected a Deal, Bid or Play)")


def _seat_of(state: GameState, action: object) -> int | None:
    """The seat an action names, for its error's ``seat``: ``None`` unless it is one of the
    table's seats (a plain ``int`` in range), so that an error is never routed to a seat that
    is not at the table."""
    seat = action.seat if isinstance(action, (Bid, Play)) else None
    return seat if _is_seat(state, seat) else None


def _is_seat(state: GameState, seat: object) -> bool:
    """Whether ``seat`` is one of the table's seats: a plain ``int`` from 0 (see
    :func:`check_seat`)."""
    return type(seat) is int and 0 <= seat < state.player_count


def check_seat(state: GameState, seat: object) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` is a seat of ``state``'s table: a plain
    ``int`` from 0, not a bool (``True`` would be seat 1), a float or a subclass, whose
    comparisons could say anything (the legal actions of ``1.0`` would be refused when played).
    """
    if _is_seat(state, seat):
        return
    if type(seat) is not int:
        raise IllegalActionError(
            f"no seat {brief(seat)}: a seat is an int from 0 to {state.player_count - 1},"
            f" not {a_or_an(type(seat).__name__)}",
            seat=None,
        )
    if not 0 <= seat < state.player_count:
        raise IllegalActionError(
            f"no seat {brief(seat)}: seats are 0 to {state.player_count - 1}", seat=None
        )


def _check_seat(state: GameState, seat: object, what: str) -> None:
    check_seat(state, seat)
    assert isinstance(seat, int)
    waited_for = seat in state.to_act
    if not waited_for:
        if state.phase is Phase.BID and state.bids[seat] is not None:
            reason = f"seat {seat} has already bid"
        else:
            turn = " and ".join(str(s) for s in sorted(state.to_act))
            reason = f"it is seat {turn}'s turn to {state.phase.value}"
        raise NotYourTurnError(
            f"seat {seat} cannot {what} now: {reason} ({state.describe_position()})", seat=seat
        )


def _check_bid(state: GameState, action: Bid) -> None:
    seat, bid = action.seat, action.bid
    if state.phase is not Phase.BID:
        raise WrongPhaseError(
            f"seat {brief(seat)} cannot bid now: the game waits for a {state.phase.value}"
            f" ({state.describe_position()})",
            seat=_seat_of(state, action),
        )
    _check_seat(state, seat, "bid")
    size = state.hand_size
    if type(bid) is not int:  # a bool, or an int subclass whose == could dodge the hook
        raise BidOutOfRangeError(
            f"seat {seat} bid {brief(bid)}: a bid must be an int from 0 to {size},"
            f" not {a_or_an(type(bid).__name__)} ({state.describe_position()})",
            seat=seat,
        )
    if not 0 <= bid <= size:
        raise BidOutOfRangeError(
            f"seat {seat} bid {brief(bid)}: a bid must be a whole number from 0 to {size}"
            f" ({state.describe_position()})",
            seat=seat,
        )
    if bid == hook_forbidden_bid(state, seat):
        others = sum(b for s, b in enumerate(state.bids) if s != seat and b is not None)
        raise HookError(
            f"seat {seat} (dealer, last to bid) may not bid {bid}: with the hook the bids may not"
            f" total {size} (the others bid {others}) ({state.describe_position()})",
            seat=seat,
        )


def _check_play(state: GameState, action: Play) -> None:
    seat, card = action.seat, action.card
    if state.phase is not Phase.PLAY:
        raise WrongPhaseError(
            f"seat {brief(seat)} cannot play a card now: the game waits for a {state.phase.value}"
            f" ({state.describe_position()})",
            seat=_seat_of(state, action),
        )
    trick = state.trick
    if type(seat) is not int or seat != (state.leader + len(trick)) % state.rules.player_count:
        _check_seat(state, seat, "play")  # which raises the error that says why
    hand = state.hands[seat]
    for held in hand:  # by identity: the hand holds only the deck's cards
        if held is card:
            if not trick or card.suit is trick[0].suit:
                return  # on lead, or following suit, playable always allows it: most plays
            break
    if id(card) not in DECK_IDS:  # not one of the deck's 52 cards, the only cards there are
        if not isinstance(card, Card):
            raise CardNotHeldError(
                f"seat {seat} cannot play {brief(card)}: not a card (Card.from_str('As') makes one)"
                f" ({state.describe_position()})",
                seat=seat,
            )
        raise CardNotHeldError(
            f"seat {seat} cannot play {brief(card)}: not one of the deck's cards, but an object"
            " made to look like one (Card(suit, rank) and Card.from_str('As') give the deck's)"
            f" ({state.describe_position()})",
            seat=seat,
        )
    allowed = playable(hand, state.trick, state.trump, must_trump=state.rules.must_trump)
    if card in allowed:  # a card of the hand: the one test on the path of every legal play
        return
    if card not in hand:
        raise CardNotHeldError(
            f"seat {seat} does not hold {card} (holds {format_cards(hand)})"
            f" ({state.describe_position()})",
            seat=seat,
        )
    led = state.trick[0].suit  # on lead every card is allowed: a trick is under way
    if allowed[0].suit is led:
        raise MustFollowSuitError(
            f"seat {seat} must follow {led.name.lower()} (holds {format_cards(allowed)}),"
            f" tried {card} ({state.describe_position()})",
            seat=seat,
        )
    raise MustTrumpError(
        f"seat {seat} cannot follow {led.name.lower()} and must trump (La Podrida;"
        f" holds {format_cards(allowed)}), tried {card} ({state.describe_position()})",
        seat=seat,
    )


def _check_deal(state: GameState, deal: Deal) -> None:
    if state.phase is not Phase.DEAL:
        raise WrongPhaseError(
            f"no deal is due: the game waits for a {state.phase.value}"
            f" ({state.describe_position()})"
        )
    n, size = state.player_count, state.hand_size
    cards = "card" if size == 1 else "cards"
    where = f"hand {state.hand_index + 1} deals {size} {cards} to each of {n} seats"
    hands = deal.hands
    if not isinstance(hands, tuple):
        raise InvalidDealError(f"invalid deal: the hands must be a tuple, got {hands!r}")
    if len(hands) != n:
        raise InvalidDealError(f"invalid deal: {where}, got {len(hands)} hands")
    seen: set[int] = set()  # the cards' indexes (each card checked to be the deck's)
    for seat, hand in enumerate(hands):
        if not isinstance(hand, tuple):
            raise InvalidDealError(
                f"invalid deal: seat {seat}'s cards must be a tuple, got {hand!r}"
            )
        if len(hand) != size:
            raise InvalidDealError(
                f"invalid deal: {where}, seat {seat} got {counted(len(hand), 'card')}"
            )
        for card in hand:
            if id(card) not in DECK_IDS:  # is_deck_card, for 52 cards at a time
                raise InvalidDealError(f"invalid deal: seat {seat} got {card!r}, not a card")
            if card.index in seen:
                raise InvalidDealError(f"invalid deal: {card} is dealt twice")
            seen.add(card.index)
    wants_trump = state.rules.has_trump(state.hand_index)
    if wants_trump and deal.trump_card is None:
        raise InvalidDealError(f"invalid deal: {where} and turns a trump card; none given")
    if not wants_trump and deal.trump_card is not None:
        raise InvalidDealError(
            f"invalid deal: no trump is turned in hand {state.hand_index + 1}"
            f" (last hand or empty stock), got {deal.trump_card}"
        )
    if deal.trump_card is not None:
        if not is_deck_card(deal.trump_card):
            raise InvalidDealError(f"invalid deal: trump card {deal.trump_card!r} is not a card")
        if deal.trump_card.index in seen:
            raise InvalidDealError(f"invalid deal: trump card {deal.trump_card} is also dealt")


# --------------------------------------------------------------------------- transitions


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal action: the new state and the events it produced.

    An illegal, out-of-turn or malformed action raises a specific
    :class:`~ohhell.engine.errors.IllegalActionError`; ``state`` is never changed (it is
    immutable).
    """
    if type(state) is not GameState:  # as require_state, once: a subclass is checked there
        require_state(state, "apply")
    if type(action) is Play and state.phase is Phase.PLAY:  # most steps: checked as below
        _check_play(state, action)
        return _apply_play(state, action)
    check_action(state, action)
    if isinstance(action, Play):
        return _apply_play(state, action)
    if isinstance(action, Bid):
        return _apply_bid(state, action)
    return _apply_deal(state, action)


def _apply_deal(state: GameState, deal: Deal) -> tuple[GameState, tuple[Event, ...]]:
    hands = tuple(tuple(sorted(hand, key=_BY_INDEX)) for hand in deal.hands)
    new = _replace(
        state,
        phase=Phase.BID,
        dealt=hands,
        hands=hands,
        trump_card=deal.trump_card,
        leader=(state.dealer + 1) % state.player_count,
    )
    event = HandDealt(state.hand_index, state.dealer, state.hand_size, deal.trump_card, hands)
    return new, (event,)


def _apply_bid(state: GameState, action: Bid) -> tuple[GameState, tuple[Event, ...]]:
    bids = list(state.bids)
    bids[action.seat] = action.bid
    sealed = state.rules.bidding is BiddingMode.SIMULTANEOUS
    events: list[Event] = [BidMade(action.seat, action.bid, sealed)]
    done = all(b is not None for b in bids)
    if done and sealed:
        events.append(BidsRevealed(tuple(b for b in bids if b is not None)))
    new = _replace(state, bids=tuple(bids), phase=Phase.PLAY if done else Phase.BID)
    return new, tuple(events)


def _apply_play(state: GameState, action: Play) -> tuple[GameState, tuple[Event, ...]]:
    seat, card = action.seat, action.card
    n = state.rules.player_count
    hands = list(state.hands)
    held = hands[seat] = tuple([c for c in hands[seat] if c is not card])
    trick = (*state.trick, card)
    played = _CARDS_PLAYED[seat][card.index]
    leader = state.leader
    if len(trick) < n:
        new = _in_hand(state, tuple(hands), trick, state.tricks, leader, state.tricks_won)
        return new, (played,)

    winner = (leader + trick_winner_index(trick, state.trump)) % n
    counts = list(state.tricks_won)
    counts[winner] += 1
    won = tuple(counts)
    tricks = (*state.tricks, Trick(leader, trick, winner))
    events = (played, TrickWon(len(state.tricks), leader, trick, winner))
    if held:  # cards left (every seat holds as many): the hand goes on
        return _in_hand(state, tuple(hands), (), tricks, winner, won), events
    return _score_hand(state, tricks, won, list(events))


def _score_hand(
    state: GameState, tricks: tuple[Trick, ...], won: tuple[int, ...], events: list[Event]
) -> tuple[GameState, tuple[Event, ...]]:
    rules, size = state.rules, state.hand_size
    bids = tuple(b if b is not None else 0 for b in state.bids)
    points = tuple(
        score_hand(rules, bid=b, won=w, hand_size=size) for b, w in zip(bids, won, strict=True)
    )
    totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
    result = HandResult(
        hand_index=state.hand_index,
        dealer=state.dealer,
        hand_size=size,
        trump_card=state.trump_card,
        dealt=state.dealt,
        bids=bids,
        tricks=tricks,
        tricks_won=won,
        points=points,
    )
    events.append(HandScored(state.hand_index, bids, won, points, totals))
    next_index = state.hand_index + 1
    over = next_index >= rules.hand_count
    n = rules.player_count
    new = GameState(
        rules=rules,
        first_dealer=state.first_dealer,
        hand_index=next_index,
        phase=Phase.OVER if over else Phase.DEAL,
        dealt=(),
        hands=(),
        trump_card=None,
        bids=(None,) * n,
        tricks=(),
        leader=(rules.dealer(state.first_dealer, next_index) + 1) % n,
        trick=(),
        tricks_won=(0,) * n,
        results=(*state.results, result),
        totals=totals,
        version=state.version + 1,
        sheet=(
            *state.sheet,
            ScoreRow(
                state.hand_index, state.dealer, size, state.trump_card, bids, won, points, totals
            ),
        ),
    )
    if over:
        events.append(GameEnded(totals, new.winners))
    return new, tuple(events)


_BY_INDEX: Final = attrgetter("index")
"""A card's sort key: its index (the order of :class:`Card`, compared as ints)."""
_FIELDS: Final = tuple(field.name for field in fields(GameState))
_new = object.__new__


def _setter(name: str) -> Callable[[GameState, object], None]:
    """The slot setter of ``GameState``'s field ``name``: what ``object.__setattr__`` looks up
    and calls, looked up once."""
    setter: Callable[[GameState, object], None] = getattr(GameState, name).__set__
    return setter


_set_rules = _setter("rules")
_set_first_dealer = _setter("first_dealer")
_set_hand_index = _setter("hand_index")
_set_phase = _setter("phase")
_set_dealt = _setter("dealt")
_set_hands = _setter("hands")
_set_trump_card = _setter("trump_card")
_set_bids = _setter("bids")
_set_tricks = _setter("tricks")
_set_leader = _setter("leader")
_set_trick = _setter("trick")
_set_tricks_won = _setter("tricks_won")
_set_results = _setter("results")
_set_totals = _setter("totals")
_set_version = _setter("version")
_set_sheet = _setter("sheet")
_SETTERS: Final = tuple((name, _setter(name)) for name in _FIELDS)


def _replace(state: GameState, **changes: object) -> GameState:
    """A copy of ``state`` with ``changes`` and the version advanced. It is built as
    :func:`dataclasses.replace` would build it, without the frozen dataclass's ``__init__``
    (twice as fast, on the hot path of every game: the changes come from this module, already
    checked)."""
    changes.setdefault("version", state.version + 1)
    new = _new(GameState)
    for name, set_field in _SETTERS:
        set_field(new, changes[name] if name in changes else getattr(state, name))
    return new


def _in_hand(
    state: GameState,
    hands: tuple[tuple[Card, ...], ...],
    trick: tuple[Card, ...],
    tricks: tuple[Trick, ...],
    leader: int,
    won: tuple[int, ...],
) -> GameState:
    """:func:`_replace` of a card played that does not end the hand, the most common step of
    all, slot by slot (each of :data:`_FIELDS`, which a test checks)."""
    new = _new(GameState)
    _set_rules(new, state.rules)
    _set_first_dealer(new, state.first_dealer)
    _set_hand_index(new, state.hand_index)
    _set_phase(new, state.phase)
    _set_dealt(new, state.dealt)
    _set_hands(new, hands)
    _set_trump_card(new, state.trump_card)
    _set_bids(new, state.bids)
    _set_tricks(new, tricks)
    _set_leader(new, leader)
    _set_trick(new, trick)
    _set_tricks_won(new, won)
    _set_results(new, state.results)
    _set_totals(new, state.totals)
    _set_version(new, state.version + 1)
    _set_sheet(new, state.sheet)
    return new
