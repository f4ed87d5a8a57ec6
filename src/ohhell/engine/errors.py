"""The one error hierarchy of the project.

Every error has a stable, machine-readable :attr:`~OhHellError.code` and a readable message.
Adapters turn them into their own form (an exit status, an ``error`` message on the wire, a line
in the UI) at one boundary. All of them are :class:`ValueError` subclasses, so a caller that only
knows "bad input" still catches them.

An illegal action's message is for the seat that action names: a card not held, or a suit not
followed, is explained with that seat's own cards (``holds Qc 5d Qh``). So an adapter sends it
back only to that seat's player, and takes the seat of an action from who sent it, never from
what was sent (as :func:`ohhell.runner.play_game` refuses a bot's action for another seat before
the engine sees it).

>>> issubclass(MustFollowSuitError, IllegalActionError), MustFollowSuitError.code
(True, 'illegal_action/must_follow_suit')
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "BidOutOfRangeError",
    "CardNotHeldError",
    "GameOverError",
    "HookError",
    "IllegalActionError",
    "InvalidDealError",
    "MustFollowSuitError",
    "MustTrumpError",
    "NotYourTurnError",
    "NotationError",
    "OhHellError",
    "RecordError",
    "RulesError",
    "ViewError",
    "WrongPhaseError",
]


class OhHellError(ValueError):
    """Base class of every error the project raises on purpose."""

    code: ClassVar[str] = "error"


class RulesError(OhHellError):
    """An invalid game configuration: the message names the field and the allowed values.

    :attr:`fields` names the options of :class:`~ohhell.engine.Rules` at fault (empty where
    none is, as for an unknown option), so that a front end can point at its own controls.

    >>> RulesError("hook must be true or false, got 3", fields=("hook",)).fields
    ('hook',)
    """

    code: ClassVar[str] = "rules/invalid"

    def __init__(self, message: str, *, fields: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.fields = fields


class NotationError(OhHellError):
    """Text or data that cannot be parsed: a card, an action, a rules dict."""

    code: ClassVar[str] = "notation/invalid"


class RecordError(OhHellError):
    """A game record that is malformed, truncated, inconsistent or replays an illegal action.

    :attr:`hand`, :attr:`trick` and :attr:`seat` (1-based hand and trick numbers, 0-based seat)
    locate the problem where it has a location; :attr:`reason` is the code of the underlying
    error (for example ``illegal_action/must_follow_suit``).
    """

    code: ClassVar[str] = "record/invalid"

    def __init__(
        self,
        message: str,
        *,
        hand: int | None = None,
        trick: int | None = None,
        seat: int | None = None,
        reason: str | None = None,
    ) -> None:
        where = []
        if hand is not None:
            where.append(f"hand {hand}")
        if trick is not None:
            where.append(f"trick {trick}")
        if seat is not None:
            where.append(f"seat {seat}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.hand = hand
        self.trick = trick
        self.seat = seat
        self.reason = reason


class IllegalActionError(OhHellError):
    """A well-formed action that the rules do not allow in this state. The state is unchanged.

    :attr:`seat` is the seat that tried to act (``None`` for the host's deal).
    """

    code: ClassVar[str] = "illegal_action"

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class WrongPhaseError(IllegalActionError):
    """A deal, bid or play offered when the game expects a different kind of action."""

    code: ClassVar[str] = "illegal_action/wrong_phase"


class GameOverError(IllegalActionError):
    """Any action after the last hand has been scored."""

    code: ClassVar[str] = "illegal_action/game_over"


class NotYourTurnError(IllegalActionError):
    """A seat acted out of turn (or bid twice under simultaneous bidding)."""

    code: ClassVar[str] = "illegal_action/not_your_turn"


class BidOutOfRangeError(IllegalActionError):
    """A bid below zero or above the number of cards dealt."""

    code: ClassVar[str] = "illegal_action/bid_out_of_range"


class HookError(IllegalActionError):
    """Under the hook, the last bidder may not make the bids total the number of tricks."""

    code: ClassVar[str] = "illegal_action/hook"


class CardNotHeldError(IllegalActionError):
    """A seat played a card it does not hold."""

    code: ClassVar[str] = "illegal_action/card_not_held"


class MustFollowSuitError(IllegalActionError):
    """A seat that holds the suit led played another suit."""

    code: ClassVar[str] = "illegal_action/must_follow_suit"


class MustTrumpError(IllegalActionError):
    """La Podrida: a seat void in the suit led that holds a trump must play one."""

    code: ClassVar[str] = "illegal_action/must_trump"


class InvalidDealError(IllegalActionError):
    """A deal with the wrong number of cards, repeated cards, or a wrong turned card."""

    code: ClassVar[str] = "illegal_action/invalid_deal"


class ViewError(OhHellError):
    """A :class:`~ohhell.engine.PlayerView` no game could give its seat (built or changed by
    hand: seats its rules do not have, a card twice, legal actions its facts do not give), as
    :func:`~ohhell.engine.check_view` finds it. A bot refuses it rather than deciding from it."""

    code: ClassVar[str] = "view/inconsistent"
