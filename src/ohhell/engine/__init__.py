"""The Oh Hell rules engine: pure, typed, standard library only.

Glossary
--------
hand
    One deal with its bidding and play ("round"); RULES.md's word. A game has 15/13/10/8/7 hands
    for 3/4/5/6/7 players under the standard schedule. ``hand_index`` is 0-based; the table
    calls hand 0 "hand 1".
cards (of a seat)
    What one seat holds: ``state.hands[seat]``. ``hand_size`` is the number dealt to each seat.
seat
    A position ``0..n-1``; play and dealing go clockwise, to increasing seat numbers.
dealer, lead, trick, trump, stock
    As in RULES.md. The stock (cards not dealt) is never stored or shown.
to act
    The seats whose action the game waits for (several under simultaneous bidding).

The surface
-----------
- :class:`Rules` (frozen, validated; :data:`PRESETS`, :data:`CONVENTIONS`) and :func:`new_game`.
- Actions :class:`Deal` (chance, from the host: :func:`random_deal`, :func:`deal_from_deck`),
  :class:`Bid`, :class:`Play`.
- :func:`apply` returns the new :class:`GameState` and the :mod:`events <ohhell.engine.events>`
  it produced (:func:`events_for` re-tells them to one seat); :func:`check_action`,
  :func:`is_legal`, :func:`legal_actions`, :func:`legal_bids`, :func:`legal_plays`.
- :func:`view_for` / :func:`public_view` for what a seat or a spectator may know
  (:func:`check_view` checks a view made elsewhere); :func:`score_sheet` for the table's rows.
- Scoring and tricks on their own: :func:`score_hand`, :func:`winners`, :func:`playable`,
  :func:`trick_winner_index`.
- Cards: :class:`Card`, :class:`Suit`, :class:`Rank`, :data:`DECK`, :func:`parse_cards`,
  :func:`format_cards`, :func:`sort_cards`, :func:`shuffled_deck`.
- Errors: every one the engine raises on purpose is an :class:`OhHellError` (a ``ValueError``):
  :class:`RulesError`, :class:`NotationError`, :class:`RecordError`, :class:`ViewError`, and
  :class:`IllegalActionError` with one subclass per rule broken (:mod:`ohhell.engine.errors`).
- :mod:`ohhell.engine.records` for JSON game records.

>>> import random
>>> rules = Rules.preset("standard", player_count=4)
>>> rng = random.Random(2026)
>>> state = new_game(rules, first_dealer=rng.randrange(4))
>>> while not state.is_over:
...     if state.is_chance:
...         action = random_deal(state, rng)
...     else:
...         action = rng.choice(legal_actions(state))
...     state, events = apply(state, action)
>>> len(state.results), sum(r.hand_size for r in state.results)
(13, 91)
"""

from ohhell.engine.actions import Action, Bid, Deal, Play
from ohhell.engine.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    shuffled_deck,
    sort_cards,
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
    NotationError,
    NotYourTurnError,
    OhHellError,
    RecordError,
    RulesError,
    ViewError,
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
    events_for,
)
from ohhell.engine.rules import CONVENTIONS, PRESETS, BiddingMode, Preset, Rules, Schedule
from ohhell.engine.scoring import playable, score_hand, trick_winner_index, winners
from ohhell.engine.state import GameState, HandResult, Phase, ScoreRow, Trick, new_game
from ohhell.engine.transitions import (
    apply,
    check_action,
    deal_from_deck,
    is_legal,
    legal_actions,
    legal_bids,
    legal_plays,
    random_deal,
)
from ohhell.engine.views import PlayerView, check_view, public_view, score_sheet, view_for

__all__ = [
    "CONVENTIONS",
    "DECK",
    "PRESETS",
    "Action",
    "Bid",
    "BidMade",
    "BidOutOfRangeError",
    "BiddingMode",
    "BidsRevealed",
    "Card",
    "CardNotHeldError",
    "CardPlayed",
    "Deal",
    "Event",
    "GameEnded",
    "GameOverError",
    "GameState",
    "HandDealt",
    "HandResult",
    "HandScored",
    "HookError",
    "IllegalActionError",
    "InvalidDealError",
    "MustFollowSuitError",
    "MustTrumpError",
    "NotYourTurnError",
    "NotationError",
    "OhHellError",
    "Phase",
    "Play",
    "PlayerView",
    "Preset",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "Schedule",
    "ScoreRow",
    "Suit",
    "Trick",
    "TrickWon",
    "ViewError",
    "WrongPhaseError",
    "apply",
    "check_action",
    "check_view",
    "deal_from_deck",
    "events_for",
    "format_cards",
    "is_legal",
    "legal_actions",
    "legal_bids",
    "legal_plays",
    "new_game",
    "parse_cards",
    "playable",
    "public_view",
    "random_deal",
    "score_hand",
    "score_sheet",
    "shuffled_deck",
    "sort_cards",
    "trick_winner_index",
    "view_for",
    "winners",
]
