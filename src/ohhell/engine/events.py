"""Events: what :func:`~ohhell.engine.apply` reports happened. Past tense, frozen.

The event feed is what a server forwards to its clients; :func:`events_for` redacts it for one
seat, as :func:`~ohhell.engine.view_for` redacts the state: other seats' dealt cards and sealed
simultaneous bids are removed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TypeAlias

from ohhell.engine.cards import Card
from ohhell.engine.errors import IllegalActionError

__all__ = [
    "BidMade",
    "BidsRevealed",
    "CardPlayed",
    "Event",
    "GameEnded",
    "HandDealt",
    "HandScored",
    "TrickWon",
    "events_for",
]


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A hand was dealt. ``hands`` holds every seat's cards (``None`` where redacted)."""

    hand_index: int
    dealer: int
    hand_size: int
    trump_card: Card | None
    hands: tuple[tuple[Card, ...] | None, ...]


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat bid. Under simultaneous bidding ``sealed`` is true and, for other seats, ``bid``
    is ``None`` until :class:`BidsRevealed`."""

    seat: int
    bid: int | None
    sealed: bool = False


@dataclass(frozen=True, slots=True)
class BidsRevealed:
    """Simultaneous bidding: every sealed bid, revealed together."""

    bids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a card to the current trick."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick was completed; ``cards`` are in play order starting with ``leader``'s."""

    trick_index: int
    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class HandScored:
    """A hand was scored: per-seat bids, tricks won, points and running totals."""

    hand_index: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The last hand was scored. ``winners`` share the win on equal totals."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]


Event: TypeAlias = (
    HandDealt | BidMade | BidsRevealed | CardPlayed | TrickWon | HandScored | GameEnded
)


def events_for(seat: int | None, events: Iterable[Event]) -> tuple[Event, ...]:
    """The events as seat ``seat`` may see them (``None``: a spectator, who sees no hand).
    Any other ``seat`` than ``None`` or a plain ``int`` is refused (``True`` would see seat 1's
    cards, and an ``int`` subclass whose comparisons always agree every seat's), and so is a
    seat the events show is not at the table (a deal names every seat)."""
    if seat is not None and type(seat) is not int:
        raise IllegalActionError(f"no seat {seat!r}: a seat is a whole number", seat=None)
    out: list[Event] = []
    for event in events:
        if isinstance(event, HandDealt):
            if seat is not None and not 0 <= seat < len(event.hands):
                raise IllegalActionError(
                    f"no seat {seat}: seats are 0 to {len(event.hands) - 1}", seat=None
                )
            event = replace(
                event,
                hands=tuple(h if s == seat else None for s, h in enumerate(event.hands)),
            )
        elif isinstance(event, BidMade) and event.sealed and event.seat != seat:
            event = replace(event, bid=None)
        out.append(event)
    return tuple(out)
