"""One seat's view as fixed-size numbers, and actions as integers.

Everything here starts from a :class:`~ohhell.engine.PlayerView` (what one seat may know), never
from a :class:`~ohhell.engine.GameState`, so an encoding cannot carry another seat's cards or the
stock. ``docs/rl.md`` documents the layout; :class:`ObservationLayout` is its single source.

Seats are encoded *relative to the observer*: relative seat ``r`` is ``(seat - observer) % n``,
so ``r = 0`` is the observer, ``r = 1`` the seat on its left, and so on.

Actions are integers over a fixed space of ``52 + max_hand_size + 1``: card ``c`` is
``c.index`` (0 = 2c ... 51 = As), bid ``b`` is ``52 + b``.

>>> from ohhell.engine import Bid, Card, Play, Rules
>>> rules = Rules(player_count=4)
>>> action_count(rules), action_to_int(Play(1, Card.from_str("As"))), action_to_int(Bid(1, 3))
(66, 51, 55)
>>> int_to_action(55, seat=1, rules=rules)
Bid(seat=1, bid=3)
>>> ObservationLayout.for_rules(rules).size
740
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ohhell.rl import missing_extra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:
    raise missing_extra(exc, "rl") from exc

from ohhell.engine import Action, Bid, Card, Phase, Play, PlayerView, Rules

__all__ = [
    "CARD_COUNT",
    "ObservationLayout",
    "action_count",
    "action_mask",
    "action_to_int",
    "encode_view",
    "int_to_action",
    "max_total",
]

CARD_COUNT: Final[int] = 52
"""Cards in the deck; card actions are ``0..51``, bid actions start here."""

_PHASES: Final[tuple[Phase, ...]] = (Phase.DEAL, Phase.BID, Phase.PLAY, Phase.OVER)


def action_count(rules: Rules) -> int:
    """Size of the action space: 52 cards, then bids ``0..rules.max_hand_size``."""
    return CARD_COUNT + rules.max_hand_size + 1


def action_to_int(action: Action) -> int:
    """The integer of a :class:`~ohhell.engine.Bid` or :class:`~ohhell.engine.Play`."""
    if isinstance(action, Play):
        return action.card.index
    if isinstance(action, Bid):
        return CARD_COUNT + action.bid
    raise ValueError(f"only bids and plays have action numbers, not {action!r}")


def int_to_action(
    number: int | np.integer | npt.NDArray[np.integer], *, seat: int, rules: Rules
) -> Action:
    """The action ``number`` taken by ``seat`` (the inverse of :func:`action_to_int`).

    Raises :class:`ValueError` naming the number when it is outside the action space.
    """
    count = action_count(rules)
    if isinstance(number, np.ndarray) and number.shape == () and number.dtype.kind in "iu":
        number = number[()]  # a 0-d array, as some training libraries hand out actions
    if isinstance(number, bool) or not isinstance(number, (int, np.integer)):
        raise ValueError(f"an action must be an integer 0..{count - 1}, got {number!r}")
    value = int(number)
    if not 0 <= value < count:
        raise ValueError(f"action {value} is outside the action space 0..{count - 1}")
    if value < CARD_COUNT:
        return Play(seat, Card.from_index(value))
    return Bid(seat, value - CARD_COUNT)


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """1 for each of ``view.legal_actions``, 0 elsewhere (all 0 when the seat is not to act)."""
    mask = np.zeros(action_count(view.rules), dtype=np.int8)
    for action in view.legal_actions:
        mask[action_to_int(action)] = 1
    return mask


def max_total(rules: Rules) -> int:
    """An upper bound on a seat's final total: a made bid of every card in every hand."""
    return sum(10 + size for size in rules.hand_sizes())


@dataclass(frozen=True, slots=True)
class ObservationLayout:
    """Where each block of the observation vector lies: ``(name, start, shape)`` in order."""

    blocks: tuple[tuple[str, int, tuple[int, ...]], ...]
    size: int
    total_bound: int
    """:func:`max_total` of the rules: totals are divided by it."""

    @staticmethod
    def for_rules(rules: Rules) -> ObservationLayout:
        """The layout for ``rules`` (its sizes depend on the player count and schedule)."""
        n, top, hands = rules.player_count, rules.max_hand_size, rules.hand_count
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (CARD_COUNT,)),
            ("trump_card", (CARD_COUNT,)),
            ("trump_suit", (5,)),
            ("phase", (len(_PHASES),)),
            ("bids", (n, top + 1)),
            ("has_bid", (n,)),
            ("tricks_won", (n, top + 1)),
            ("current_trick", (n, CARD_COUNT)),
            ("leader", (n,)),
            ("played", (CARD_COUNT,)),
            ("played_by", (n, CARD_COUNT)),
            ("hand_size", (top + 1,)),
            ("hand_index", (hands,)),
            ("dealer", (n,)),
            ("to_act", (n,)),
            ("totals", (n,)),
        ]
        blocks: list[tuple[str, int, tuple[int, ...]]] = []
        start = 0
        for name, shape in shapes:
            blocks.append((name, start, shape))
            start += math.prod(shape)
        return ObservationLayout(tuple(blocks), start, max_total(rules))

    def views(self, vector: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """Named, reshaped views into ``vector`` (writing to them writes to ``vector``)."""
        return {
            name: vector[start : start + math.prod(shape)].reshape(shape)
            for name, start, shape in self.blocks
        }


def encode_view(
    view: PlayerView, layout: ObservationLayout | None = None
) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (values in ``[0, 1]``; see ``docs/rl.md``).

    Raises :class:`ValueError` for a public view: observations belong to one seat.
    """
    if view.seat is None or view.hand is None:
        raise ValueError("encode_view needs one seat's view (view_for), not a public view")
    rules = view.rules
    layout = layout or ObservationLayout.for_rules(rules)
    vector = np.zeros(layout.size, dtype=np.float32)
    part = layout.views(vector)
    n, me = rules.player_count, view.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    for card in view.hand:
        part["hand"][card.index] = 1.0
    if view.trump_card is not None:
        part["trump_card"][view.trump_card.index] = 1.0
        part["trump_suit"][int(view.trump_card.suit)] = 1.0
    else:
        part["trump_suit"][4] = 1.0
    part["phase"][_PHASES.index(view.phase)] = 1.0
    in_hand = view.phase in (Phase.BID, Phase.PLAY)
    if in_hand:
        for seat, bid in enumerate(view.bids):
            if bid is not None:
                part["bids"][rel(seat), bid] = 1.0
        for seat, done in enumerate(view.has_bid):
            part["has_bid"][rel(seat)] = float(done)
        for seat, won in enumerate(view.tricks_won):
            part["tricks_won"][rel(seat), won] = 1.0
        for position, card in enumerate(view.trick):
            part["current_trick"][rel((view.leader + position) % n), card.index] = 1.0
        part["leader"][rel(view.leader)] = 1.0
        for seat, card in view.played_cards():
            part["played"][card.index] = 1.0
            part["played_by"][rel(seat), card.index] = 1.0
    if view.phase is not Phase.OVER:
        part["hand_size"][view.hand_size] = 1.0
        part["hand_index"][view.hand_index] = 1.0
    part["dealer"][rel(view.dealer)] = 1.0
    for seat in view.to_act:
        part["to_act"][rel(seat)] = 1.0
    bound = layout.total_bound
    for seat, total in enumerate(view.totals):
        part["totals"][rel(seat)] = total / bound
    return vector
