"""Bridge to OpenSpiel's ``oh_hell``: our bots play OpenSpiel hands, and OpenSpiel's C++
IS-MCTS plays against our bots on hands both engines follow in lockstep.

OpenSpiel's game is one hand. Our engine plays it as a one-hand game (:func:`one_hand_rules`):
``Rules(schedule="custom", custom_hand_sizes=(k,), trump_in_last_hand=True, hook=True,
missed_bid_scores_tricks=True)``, which matches OpenSpiel's ``oh_hell`` with its defaults
(``points_per_trick=1``, ``off_bid_penalty=False``): the hook always on, a trump card always
turned, ``won + 10`` for an exact bid and ``won`` otherwise. The differential test
``tests/differential/test_openspiel.py`` checks that the two engines agree.

Encodings, found by experiment with ``state.action_to_string`` (see that test):

- cards are actions ``0..51``: ``rank_index * 4 + suit_index`` with ranks 2..A as 0..12 and
  suits in OpenSpiel's order clubs, diamonds, spades, hearts (0 = C2, 1 = D2, 2 = S2, 3 = H2,
  4 = C3, ..., 51 = HA);
- bid ``b`` is action ``52 + b``;
- the chance nodes come first: the number of tricks ``k`` (action ``k``), the dealer (action =
  seat), then the deal, card ``i`` going to player ``i % n`` whatever the dealer, then the
  turned trump card.

:class:`IsmctsBot` (bot name ``ismcts``) puts the C++ IS-MCTS in our harness and tournaments:
it rebuilds an OpenSpiel state from a seat's view and asks IS-MCTS for that seat's action.

``pyspiel`` (the ``open-spiel`` package, in the ``openspiel`` extra) is imported only when a
function needs it; without it those functions raise :class:`BridgeError` saying what to
install.
"""

from __future__ import annotations

import functools
import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final, cast

from ohhell.bots.base import Bot, Budget, checked_options, legal_actions
from ohhell.bots.sampling import WorldSampler, knowledge, sample_world
from ohhell.engine import (
    DECK,
    Action,
    Bid,
    BiddingMode,
    Card,
    Deal,
    GameState,
    OhHellError,
    Phase,
    Play,
    PlayerView,
    Rank,
    Rules,
    Schedule,
    Suit,
    apply,
    is_legal,
    new_game,
    score_hand,
    view_for,
)
from ohhell.engine.jsontext import brief
from ohhell.runner import derived_rng

__all__ = [
    "BID_OFFSET",
    "DEFAULT_ISMCTS_SIMULATIONS",
    "DEFAULT_ISMCTS_WORLDS",
    "ISMCTS_SEES",
    "MIN_ISMCTS_SIMULATIONS",
    "OPENSPIEL_PLAYERS",
    "BridgeError",
    "HandOutcome",
    "IsmctsBot",
    "IsmctsPlayer",
    "OpenSpielDeal",
    "action_of",
    "card_of",
    "check_openspiel_game",
    "check_openspiel_rules",
    "choose_openspiel_action",
    "engine_state",
    "from_openspiel",
    "ismcts_has_clock",
    "load_pyspiel",
    "max_hand_size",
    "one_hand_rules",
    "openspiel_game",
    "openspiel_state_for_view",
    "play_duplicate_deal",
    "play_hand",
    "random_openspiel_deal",
    "to_openspiel",
]

BID_OFFSET: Final = 52
"""OpenSpiel encodes bid ``b`` as action ``52 + b``, after the 52 cards."""

OPENSPIEL_SUITS: Final = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
"""OpenSpiel's suit order (its suit letters are ``C D S H``)."""

CHANCE_PLAYER: Final = -1
"""OpenSpiel's player id for chance in ``full_history()``."""

OPENSPIEL_PLAYERS: Final = range(3, 8)
"""The numbers of players OpenSpiel's ``oh_hell`` takes: 3 to 7."""

_MAX_INT32: Final = 2**31 - 1
"""The largest seed, and number of simulations, OpenSpiel's C++ bots take (a C++ ``int``)."""

_CARD_OF_ACTION: Final[tuple[Card, ...]] = tuple(
    Card.of(OPENSPIEL_SUITS[action % 4], Rank(action // 4 + 2)) for action in range(52)
)
_ACTION_OF_CARD: Final[dict[Card, int]] = {card: a for a, card in enumerate(_CARD_OF_ACTION)}


class BridgeError(OhHellError, ValueError):
    """OpenSpiel is missing, or an OpenSpiel state cannot be matched by our engine."""

    code = "openspiel/bridge"


def _whole(value: object, what: str) -> int:
    """``value`` if it is a whole number (not a ``bool``), else a ``TypeError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a whole number, got {brief(value)}")
    return value


def _check_rng(rng: object, what: str = "rng") -> None:
    if not isinstance(rng, random.Random):
        raise TypeError(f"{what} must be a random.Random, got {brief(rng)}")


def _check_player_count(player_count: object) -> int:
    """``player_count`` if OpenSpiel's ``oh_hell`` takes that many players (3 to 7), else a
    :class:`BridgeError` (a ``TypeError`` if it is not a whole number), said before OpenSpiel
    is asked."""
    count = _whole(player_count, "the number of players")
    if count not in OPENSPIEL_PLAYERS:
        raise BridgeError(f"OpenSpiel's oh_hell takes 3 to 7 players, got {count}")
    return count


def card_of(action: int) -> Card:
    """Our card for OpenSpiel's card action ``action`` (0..51).

    >>> str(card_of(0)), str(card_of(3)), str(card_of(51))
    ('2c', '2h', 'Ah')
    """
    if not 0 <= _whole(action, "an OpenSpiel card action") < len(DECK):
        raise BridgeError(f"OpenSpiel card actions are 0..51, got {action}")
    return _CARD_OF_ACTION[action]


def action_of(card: Card) -> int:
    """OpenSpiel's card action for ``card`` (the inverse of :func:`card_of`)."""
    if not isinstance(card, Card):
        raise TypeError(
            f"action_of takes a Card (ohhell.engine.Card, e.g. Card.from_str('As')), got {card!r}"
        )
    return _ACTION_OF_CARD[card]


def to_openspiel(action: Action) -> int:
    """OpenSpiel's action for our bid or play (a bid past any hand of OpenSpiel's, which
    would read as a card or as nothing, is a :class:`BridgeError`)."""
    if isinstance(action, Bid):
        most = max_hand_size(OPENSPIEL_PLAYERS[0])
        if not 0 <= _whole(action.bid, "a bid") <= most:
            raise BridgeError(f"OpenSpiel's oh_hell bids are 0 to {most}, not {action.bid}")
        return BID_OFFSET + action.bid
    if isinstance(action, Play):
        return action_of(action.card)
    raise BridgeError(f"OpenSpiel has no player action for {action!r}")


def from_openspiel(action: int, seat: int) -> Bid | Play:
    """Our bid or play for OpenSpiel's player action ``action`` taken by ``seat``: a card
    (0..51) or a bid (from 52, up to the largest hand, of 3 players)."""
    last = BID_OFFSET + max_hand_size(OPENSPIEL_PLAYERS[0])
    if not 0 <= _whole(action, "an OpenSpiel action") <= last:
        raise BridgeError(
            f"OpenSpiel's oh_hell player actions are 0..{last} (cards 0..51, then bids 0 to"
            f" {last - BID_OFFSET}), got {action}"
        )
    if _whole(seat, "a seat") not in range(OPENSPIEL_PLAYERS[-1]):
        raise BridgeError(
            f"OpenSpiel's oh_hell seats are 0 to {OPENSPIEL_PLAYERS[-1] - 1}, got {seat}"
        )
    if action >= BID_OFFSET:
        return Bid(seat, action - BID_OFFSET)
    return Play(seat, card_of(action))


def max_hand_size(player_count: int) -> int:
    """The largest hand OpenSpiel allows: one card must stay in the stock to be turned."""
    return (len(DECK) - 1) // _check_player_count(player_count)


def one_hand_rules(player_count: int, hand_size: int) -> Rules:
    """Our rules for OpenSpiel's ``oh_hell`` hand of ``hand_size`` cards (module docstring)."""
    return Rules(
        player_count=player_count,
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(hand_size,),
        trump_in_last_hand=True,
        hook=True,
        missed_bid_scores_tricks=True,
    )


def load_pyspiel() -> ModuleType:
    """The ``pyspiel`` module, or a :class:`BridgeError` saying how to install it."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError as exc:
        raise BridgeError(
            f"OpenSpiel is not installed ({exc}): pip install 'ohhell[openspiel]'"
        ) from None


@functools.cache
def openspiel_game(player_count: int) -> Any:
    """OpenSpiel's ``oh_hell`` for ``player_count`` players with its default scoring; the
    number of tricks is its first chance node, so one game serves every hand size."""
    _check_player_count(player_count)
    return load_pyspiel().load_game(
        "oh_hell", {"players": player_count, "points_per_trick": 1, "off_bid_penalty": False}
    )


@dataclass(frozen=True, slots=True)
class OpenSpielDeal:
    """Everything chance decides in an OpenSpiel hand: its size, the dealer, the dealt cards
    in OpenSpiel's order (card ``i`` to player ``i % n``) and the turned trump card."""

    player_count: int
    hand_size: int
    dealer: int
    cards: tuple[Card, ...]
    trump_card: Card

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, as OpenSpiel deals them."""
        n = self.player_count
        return tuple(self.cards[seat::n] for seat in range(n))

    def chance_actions(self) -> list[int]:
        """OpenSpiel's chance actions for this deal, in order."""
        return [
            self.hand_size,
            self.dealer,
            *(action_of(card) for card in self.cards),
            action_of(self.trump_card),
        ]

    def engine_deal(self) -> Deal:
        """The same deal as our engine's :class:`~ohhell.engine.Deal`."""
        return Deal(self.hands(), self.trump_card)


def random_openspiel_deal(
    player_count: int, hand_size: int, rng: random.Random, *, dealer: int | None = None
) -> OpenSpielDeal:
    """A random deal of ``hand_size`` cards per seat (1..:func:`max_hand_size`), dealt by
    ``dealer`` (a seat; by default one drawn from ``rng``)."""
    most = max_hand_size(player_count)
    if not 1 <= _whole(hand_size, "the hand size") <= most:
        raise BridgeError(
            f"OpenSpiel's oh_hell deals 1..{most} cards to each of {player_count} players,"
            f" not {hand_size}"
        )
    if dealer is not None and _whole(dealer, "the dealer") not in range(player_count):
        raise BridgeError(
            f"the dealer must be a seat from 0 to {player_count - 1} of {player_count} players,"
            f" got {dealer}"
        )
    _check_rng(rng)
    deck = list(DECK)
    rng.shuffle(deck)
    used = player_count * hand_size
    return OpenSpielDeal(
        player_count,
        hand_size,
        rng.randrange(player_count) if dealer is None else dealer,
        tuple(deck[:used]),
        deck[used],
    )


_SAME_AS_OURS: Final = {
    "num_suits": 4,
    "num_cards_per_suit": 13,
    "points_per_trick": 1,
    "off_bid_penalty": False,
}
"""The parameters of OpenSpiel's ``oh_hell`` under which its hands are our engine's
(:func:`one_hand_rules`): the 52-card deck and ``won + 10`` for an exact bid, ``won``
otherwise."""


def check_openspiel_game(game: Any) -> None:
    """Raise :class:`BridgeError` unless ``game`` is OpenSpiel's ``oh_hell`` under parameters
    our engine plays alike (:data:`_SAME_AS_OURS`): another game, another deck or other points
    (our bots would play for points the game does not give) are refused, naming what differs."""
    name = game.get_type().short_name
    if name != "oh_hell":
        raise BridgeError(f"the OpenSpiel game is {name!r}, not oh_hell")
    params = game.get_parameters()
    if differences := [
        f"{key}={params.get(key)!r} (ours: {value!r})"
        for key, value in _SAME_AS_OURS.items()
        if params.get(key) != value
    ]:
        raise BridgeError(
            "this oh_hell is not played as our engine plays it: " + ", ".join(differences)
        )


def engine_state(ospiel_state: Any) -> GameState:
    """Our engine's state for an OpenSpiel ``oh_hell`` state that is past its deal: the same
    hand, dealer, trump card, bids and plays (from ``ospiel_state.full_history()``). A state of
    another game, or of an ``oh_hell`` scored otherwise, is refused
    (:func:`check_openspiel_game`)."""
    if not callable(getattr(ospiel_state, "get_game", None)):
        raise TypeError(f"engine_state takes an OpenSpiel state, got {brief(ospiel_state)}")
    check_openspiel_game(ospiel_state.get_game())
    n = ospiel_state.num_players()
    history = [(step.player, step.action) for step in ospiel_state.full_history()]
    chance = [action for player, action in history if player == CHANCE_PLAYER]
    if len(chance) < 2:
        raise BridgeError("the OpenSpiel state has not chosen its hand size and dealer yet")
    hand_size, dealer = chance[0], chance[1]
    if len(chance) != 2 + n * hand_size + 1:
        raise BridgeError(
            f"the OpenSpiel state is still dealing ({len(chance) - 2} of"
            f" {n * hand_size + 1} cards dealt and turned)"
        )
    cards = tuple(card_of(action) for action in chance[2:-1])
    deal = OpenSpielDeal(n, hand_size, dealer, cards, card_of(chance[-1]))
    state = new_game(one_hand_rules(n, hand_size), first_dealer=dealer)
    state, _ = apply(state, deal.engine_deal())
    for player, action in history:
        if player != CHANCE_PLAYER:
            state, _ = apply(state, from_openspiel(action, player))
    return state


def choose_openspiel_action(
    bot: Bot,
    ospiel_state: Any,
    rng: random.Random,
    budget: Budget = Budget(),  # noqa: B008
) -> int:
    """Our ``bot``'s choice, as an OpenSpiel action, for the player to act in
    ``ospiel_state``; it sees only :func:`~ohhell.engine.view_for` that seat."""
    seat = ospiel_state.current_player()
    if seat < 0:
        raise BridgeError(f"no player is to act in the OpenSpiel state (player id {seat})")
    state = engine_state(ospiel_state)
    action = bot.choose(view_for(state, seat), rng, budget)
    if not is_legal(state, action):
        raise BridgeError(
            f"bot {bot.name!r} chose {action}, which is illegal ({state.describe_position()})"
        )
    return to_openspiel(action)


MIN_ISMCTS_SIMULATIONS: Final = 2
"""``pyspiel.ISMCTSBot`` fails with one simulation: the first only creates the root node."""


class IsmctsPlayer:
    """OpenSpiel's C++ IS-MCTS bot (``pyspiel.ISMCTSBot``) with a random-rollout evaluator,
    playing OpenSpiel ``oh_hell`` states.

    It searches the real OpenSpiel state, and OpenSpiel's ``oh_hell`` resampling keeps that
    state's set of dealt cards (see :func:`openspiel_state_for_view`), so it effectively knows
    which cards are in the stock: hidden information our bots in :func:`play_hand` do not
    have, which :class:`IsmctsBot` (built from a seat's view) does not get either. It is there
    to measure that advantage (``ismcts_sees="state"``), not for a fair match.

    Measured: unlike our bots, it is not reproducible from its seed (one seeded hand replayed
    40 times with 10 simulations gave 14 different action sequences), so matches against it are
    statistically, not exactly, repeatable.
    """

    @checked_options
    def __init__(
        self,
        *,
        simulations: int,
        seed: int,
        uct_c: float = 2.0,
        rollouts: int = 1,
    ) -> None:
        _check_search(simulations=simulations, uct_c=uct_c)
        if rollouts < 1:
            raise BridgeError(f"rollouts must be positive, got {rollouts}")
        if not 0 <= seed <= _MAX_INT32:
            raise BridgeError(
                f"IS-MCTS's seed must be from 0 to {_MAX_INT32} (OpenSpiel takes a 32-bit int),"
                f" got {seed}"
            )
        self.name = f"openspiel-ismcts-{simulations}"
        self.simulations = simulations
        self._bot = _new_ismcts(seed=seed, simulations=simulations, uct_c=uct_c, rollouts=rollouts)

    def step(self, ospiel_state: Any) -> int:
        """The IS-MCTS action for the player to act in ``ospiel_state``."""
        action: int = self._bot.step(ospiel_state)
        return action


def _check_search(*, simulations: int | None, uct_c: float) -> None:
    """Refuse IS-MCTS settings OpenSpiel's search cannot run (each already a whole number or
    a finite number, :func:`~ohhell.bots.base.checked_options`): fewer than
    :data:`MIN_ISMCTS_SIMULATIONS` simulations or more than a 32-bit int holds (``None``: the
    budget's), or a negative exploration constant ``uct_c``."""
    if simulations is not None and simulations < MIN_ISMCTS_SIMULATIONS:
        raise BridgeError(
            f"IS-MCTS needs at least {MIN_ISMCTS_SIMULATIONS} simulations, got {simulations}"
        )
    if simulations is not None and simulations > _MAX_INT32:
        raise BridgeError(
            f"IS-MCTS takes at most {_MAX_INT32} simulations (OpenSpiel takes a 32-bit int),"
            f" got {simulations}"
        )
    if uct_c < 0:
        raise BridgeError(
            f"uct_c must be 0 or more (how much IS-MCTS explores: 0 not at all), got {uct_c}"
        )


def _new_ismcts(
    *,
    seed: int,
    simulations: int,
    uct_c: float,
    rollouts: int,
    final_policy: str = "MAX_VISIT_COUNT",
    seconds: float | None = None,
) -> Any:
    """A ``pyspiel.ISMCTSBot`` with a random-rollout evaluator (about 4 microseconds to build),
    stopping after ``simulations``, or, when ``seconds`` is given, on OpenSpiel's clock instead
    (its search then ignores the simulations; :func:`ismcts_has_clock`)."""
    pyspiel = load_pyspiel()
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
    arguments = [
        seed,
        evaluator,  # the Python binding keeps the evaluator alive with the bot
        uct_c,
        simulations,
        -1,  # unlimited world samples: every simulation resamples from the root state
        getattr(pyspiel.ISMCTSFinalPolicyType, final_policy),
        False,  # information state strings, not observation strings
        False,  # oh_hell's resampled worlds share the player's action sets
    ]
    if seconds is not None:
        arguments.append(seconds)  # max_wall_clock_time (ismcts_has_clock)
    return pyspiel.ISMCTSBot(*arguments)


@functools.cache
def ismcts_has_clock() -> bool:
    """Whether the installed OpenSpiel's C++ IS-MCTS takes a time limit (``max_wall_clock_time``,
    in open-spiel 2.0; not in every release the ``openspiel`` extra allows), so that
    :class:`IsmctsBot` can keep a budget of seconds."""
    try:
        _new_ismcts(seed=0, simulations=MIN_ISMCTS_SIMULATIONS, uct_c=1.0, rollouts=1, seconds=1.0)
    except TypeError:  # pybind11's refusal of an argument the binding does not have
        return False
    return True


DEFAULT_ISMCTS_SIMULATIONS: Final = 1000
"""IS-MCTS simulations per decision of :class:`IsmctsBot` under ``Budget()``."""

_LEAST_SEARCH_SECONDS: Final = 0.0005
"""The shortest time limit :class:`IsmctsBot` gives one search (OpenSpiel reads 0 as none)."""

DEFAULT_ISMCTS_WORLDS: Final = 10
"""Sampled root states per decision of :class:`IsmctsBot` (see its docstring)."""


def check_openspiel_rules(rules: Rules) -> None:
    """Raise :class:`BridgeError` naming every reason why some hand of ``rules`` is not a hand
    of OpenSpiel's ``oh_hell`` (turn-by-turn bids, the hook, a turned trump card, at most
    :func:`max_hand_size` cards, no La Podrida obligation, no zero-bid bonus).

    The miss scoring is not checked: OpenSpiel plays for ``won + 10`` on an exact bid and
    ``won`` otherwise (our ``missed_bid_scores_tricks=True``); under other scoring the hands
    are the same and IS-MCTS still plays for OpenSpiel's points.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (ohhell.engine.Rules), got {brief(rules)}")
    problems = []
    if rules.bidding is BiddingMode.SIMULTANEOUS:
        problems.append("simultaneous bidding (OpenSpiel's seats bid in turn)")
    if not rules.hook:
        problems.append("no hook (OpenSpiel's dealer is always hooked)")
    if rules.must_trump:
        problems.append("La Podrida's obligation to trump (OpenSpiel has none)")
    if rules.zero_bid_bonus:
        problems.append("the zero-bid bonus (OpenSpiel's scoring has none)")
    limit = max_hand_size(rules.player_count)
    sizes = rules.hand_sizes()
    too_big = sorted({size for size in sizes if size > limit})
    if too_big:
        problems.append(
            f"hands of {', '.join(map(str, too_big))} cards (OpenSpiel deals at most {limit}"
            f" to each of {rules.player_count} players)"
        )
    # a hand of at most ``limit`` cards leaves a card to turn: only the last-hand rule stops it
    if not rules.trump_in_last_hand:
        problems.append(
            f"no trump card turned in the last hand, hand {rules.hand_count} (OpenSpiel always"
            " turns one; trump_in_last_hand turns one there)"
        )
    if problems:
        raise BridgeError(
            f"these rules are not OpenSpiel's oh_hell ({rules.describe()}): {'; '.join(problems)}"
        )


def _check_seat_to_act(view: PlayerView) -> None:
    """Refuse (:class:`BridgeError`) a view that OpenSpiel's ``oh_hell`` cannot hold at a
    decision of its seat: rules or a hand not OpenSpiel's, a public view, a seat not to act."""
    check_openspiel_rules(view.rules)
    seat = view.seat
    if seat is None or view.hand is None:
        raise BridgeError("IS-MCTS needs a seat's view, not a public view")
    if view.phase not in (Phase.BID, Phase.PLAY) or not view.is_my_turn:
        raise BridgeError(
            f"seat {seat} is not to act (phase {view.phase.value}, to act {sorted(view.to_act)})"
        )
    if view.trump_card is None or view.hand_size > max_hand_size(view.player_count):
        raise BridgeError(
            f"hand {view.hand_index + 1} ({view.hand_size} cards, trump card"
            f" {view.trump_card}) is not a hand of OpenSpiel's oh_hell"
        )


def openspiel_state_for_view(
    view: PlayerView, rng: random.Random, sampler: WorldSampler | None = None
) -> Any:
    """An OpenSpiel ``oh_hell`` state consistent with ``view`` with the seat to act: its hand
    size, dealer and trump card, the seat's own dealt cards, the revealed bids in bidding order
    and every card played, in order.

    OpenSpiel's state must hold every seat's cards, so the cards the seat cannot see are dealt
    from one world drawn uniformly among those consistent with the view
    (:func:`ohhell.bots.sampling.sample_world`; cards already played go back into their
    players' dealt hands). The seat's ``information_state_string`` does not depend on that
    draw. But OpenSpiel's ``ResampleFromInfostate`` for ``oh_hell`` (what IS-MCTS samples its
    worlds with) is *not* a function of the information state: it deals the other players'
    hidden cards of the state it is given out again among them and never brings in a stock
    card (measured: 500 of 500 resamples kept the root's exact set of dealt cards). It does try
    to respect the voids play has shown (cards only one player can hold go to that player, the
    rest are handed out greedily in a random order of players), but the greedy step fails
    often: 12-19 % of its resamples broke a shown void in the positions measured. So searching
    from one such state treats its sampled split between the other hands and the stock as
    known; :class:`IsmctsBot` spreads its simulations over several independently drawn states
    to undo that bias, drawing them all with one ``sampler`` (a
    :class:`~ohhell.bots.sampling.WorldSampler` of the view's knowledge, made here if not
    given), whose setup is then paid once.
    """
    _check_seat_to_act(view)
    holdings = sample_world(view, rng, sampler)
    seat = view.seat
    n = view.player_count
    played: list[list[Card]] = [[] for _ in range(n)]
    for player, card in view.played_cards():
        played[player].append(card)
    dealt = [sorted((*holdings[s], *played[s]), key=action_of) for s in range(n)]
    cards = tuple(dealt[i % n][i // n] for i in range(n * view.hand_size))
    assert view.trump_card is not None  # checked
    deal = OpenSpielDeal(n, view.hand_size, view.dealer, cards, view.trump_card)
    ospiel_state = openspiel_game(n).new_initial_state()
    actions = deal.chance_actions()
    for offset in range(1, n + 1):  # bids are revealed in turn, from the dealer's left
        bid = view.bids[(view.dealer + offset) % n]
        if bid is None:
            break
        actions.append(BID_OFFSET + bid)
    actions += [action_of(card) for _, card in view.played_cards()]
    for action in actions:
        try:
            ospiel_state.apply_action(action)
        except Exception as exc:  # pyspiel.SpielError: OpenSpiel refused the replay
            raise BridgeError(
                f"OpenSpiel refused action {action} while rebuilding seat {seat}'s view: {exc}"
            ) from None
    if ospiel_state.current_player() != seat:
        raise BridgeError(
            f"the rebuilt OpenSpiel state has player {ospiel_state.current_player()} to act,"
            f" not seat {seat}"
        )
    return ospiel_state


class IsmctsBot:
    """OpenSpiel's C++ IS-MCTS as one of our bots (name ``ismcts``), for hands that are
    OpenSpiel ``oh_hell`` hands (:func:`check_openspiel_rules`; other rules raise
    :class:`BridgeError`, which the harness reports as a bot failure).

    Each decision draws ``worlds`` OpenSpiel states consistent with the view
    (:func:`openspiel_state_for_view`), runs a fresh ``pyspiel.ISMCTSBot`` seeded from ``rng``
    on each with an equal share of ``budget.simulations`` (default
    :data:`DEFAULT_ISMCTS_SIMULATIONS`; at least two per search, so a small budget searches
    fewer states), and plays the action with the most root visits summed
    over the searches. Several states are needed because OpenSpiel's resampling keeps the
    given state's set of dealt cards (see :func:`openspiel_state_for_view`); ``worlds=1`` is
    plain OpenSpiel IS-MCTS from one sampled state. Under a budget of seconds alone each search
    stops on OpenSpiel's clock, the time shared among the states (90 % of the budget, the rest
    left for rebuilding them); an open-spiel without that clock refuses such a budget
    (:func:`ismcts_has_clock`). OpenSpiel's search stops by its clock or by its simulations,
    not by whichever comes first, so a budget of both is refused (:meth:`check_budget`), as
    is a budget of seconds beside the ``simulations`` option.
    ``simulations``, when given, fixes the simulations per decision whatever the budget says
    (so IS-MCTS can search with a budget of its own beside bots that share the harness's
    budget). IS-MCTS maximises OpenSpiel's points (``won + 10`` exact, ``won`` otherwise).

    Not reproducible: the C++ bot gives different actions from the same seed (see
    :class:`IsmctsPlayer`), so games with it repeat only statistically.
    """

    name = "ismcts"

    @checked_options
    def __init__(
        self,
        *,
        worlds: int = DEFAULT_ISMCTS_WORLDS,
        uct_c: float = 2.0,
        rollouts: int = 1,
        simulations: int | None = None,
    ) -> None:
        if worlds < 1 or rollouts < 1:
            raise BridgeError(f"worlds and rollouts must be positive, got {worlds}, {rollouts}")
        _check_search(simulations=simulations, uct_c=uct_c)
        load_pyspiel()  # fail when the bot is built, not at its first decision
        self.worlds = worlds
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts

    def check_budget(self, budget: Budget) -> None:
        """Refuse a budget of more simulations than OpenSpiel's search takes (a 32-bit int;
        ``simulations``, when set, stands in for the budget's and was checked when built); a
        budget of seconds with simulations too (the budget's or the ``simulations`` option's:
        OpenSpiel's search keeps one or the other, and the slower decisions of a search by
        simulations would be voided as overruns); or a budget of seconds where the installed
        OpenSpiel's search has no clock (:func:`ismcts_has_clock`)."""
        if self.simulations is None and (budget.simulations or 0) > _MAX_INT32:
            raise BridgeError(
                f"IS-MCTS takes at most {_MAX_INT32} simulations (OpenSpiel takes a 32-bit int),"
                f" got a budget of {budget.simulations}"
            )
        if budget.seconds is not None and (self.simulations or budget.simulations) is not None:
            raise BridgeError(
                "the 'ismcts' bot cannot keep a budget of seconds and of simulations both"
                " (OpenSpiel's search stops by its clock or by its simulations, not by"
                " whichever comes first): give it one or the other"
            )
        if self._timed(budget) and not ismcts_has_clock():
            raise BridgeError(
                "the 'ismcts' bot has no clock with this open-spiel (its C++ search runs all its"
                " simulations; open-spiel 2.0 and later take a time limit), so under a budget of"
                " seconds its slower decisions would be voided as overruns: give it a budget of"
                " simulations"
            )

    def _timed(self, budget: Budget) -> bool:
        """Whether a decision under ``budget`` searches by OpenSpiel's clock: under a budget of
        seconds where no simulations are given (OpenSpiel's search stops by its clock or by its
        simulations, not by whichever comes first)."""
        return budget.seconds is not None and (self.simulations or budget.simulations) is None

    def _search(
        self, ospiel_state: Any, seed: int, simulations: int, seconds: float | None
    ) -> list[tuple[int, float]]:
        """One OpenSpiel IS-MCTS search from ``ospiel_state``: its root's share of visits per
        action (:func:`_new_ismcts`)."""
        search = _new_ismcts(
            seed=seed,
            simulations=simulations,
            uct_c=self.uct_c,
            rollouts=self.rollouts,
            final_policy="NORMALIZED_VISIT_COUNT",
            seconds=seconds,
        )
        policy: list[tuple[int, float]] = search.step_with_policy(ospiel_state)[0]
        return policy

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        """IS-MCTS's action for ``view.seat``."""
        start = time.perf_counter()
        actions = legal_actions(view, rng, budget)  # the call checked
        self.check_budget(budget)  # a budget it can keep
        _check_seat_to_act(view)  # rules and a hand that OpenSpiel's oh_hell holds
        if len(actions) == 1:
            return actions[0]
        sampler = WorldSampler(knowledge(view))  # its setup made once for every world
        first = openspiel_state_for_view(view, rng, sampler)
        seat: int = first.current_player()  # view.seat, checked when rebuilt
        # IS-MCTS's first simulation only creates its root: each search needs two at least
        timed = self._timed(budget)
        if timed:
            simulations = _MAX_INT32
        else:
            simulations = self.simulations or max(
                MIN_ISMCTS_SIMULATIONS, budget.simulations or DEFAULT_ISMCTS_SIMULATIONS
            )
        worlds = min(self.worlds, simulations // MIN_ISMCTS_SIMULATIONS)
        # Under a budget of seconds, each world's search gets an equal share of the time
        # left, kept to 90 % of it for the states rebuilt between the searches.
        deadline = None if not timed else start + 0.9 * cast(float, budget.seconds)
        visits: dict[int, float] = {}
        for world in range(worlds):
            ospiel_state = first if world == 0 else openspiel_state_for_view(view, rng, sampler)
            share = simulations // worlds + (world < simulations % worlds)
            seconds = None
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0 and visits:  # out of time: the searches so far decide
                    break
                # never 0, which OpenSpiel reads as no limit at all
                seconds = max(_LEAST_SEARCH_SECONDS, left / (worlds - world))
            seed = rng.randrange(2**31)
            try:
                policy = self._search(ospiel_state, seed, share, seconds)
            except load_pyspiel().SpielError:
                # On the clock, a search can end before its root's first visit (OpenSpiel's
                # first simulation only creates the root), and OpenSpiel then fails: the
                # searches so far decide, or, if none, the least search there is, untimed.
                if seconds is None:
                    raise
                if visits:
                    break
                policy = self._search(ospiel_state, seed, MIN_ISMCTS_SIMULATIONS, None)
            weight = share if seconds is None else seconds  # its simulations, or its time
            for choice, probability in policy:
                visits[choice] = visits.get(choice, 0.0) + probability * weight
        best = max(sorted(visits), key=visits.__getitem__)
        action = from_openspiel(best, seat)
        if action not in actions:
            raise BridgeError(f"IS-MCTS chose {action}, which is not legal for seat {seat}")
        return action


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One OpenSpiel hand played by a mix of our bots and IS-MCTS players."""

    hand_size: int
    dealer: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    openspiel_returns: tuple[float, ...]
    """OpenSpiel's returns: ``won + 10`` for an exact bid, ``won`` otherwise."""
    standard_points: tuple[int, ...]
    """Our standard scoring of the same bids and tricks: ``10 + won`` exact, 0 otherwise."""
    decision_seconds: tuple[tuple[float, ...], ...]


def play_hand(
    deal: OpenSpielDeal,
    players: Sequence[Bot | IsmctsPlayer],
    *,
    rngs: Sequence[random.Random],
    budget: Budget = Budget(),  # noqa: B008 - immutable
) -> HandOutcome:
    """Play ``deal`` in OpenSpiel and in our engine in lockstep: our bots (seats holding a
    :class:`~ohhell.bots.base.Bot`) choose from their view of our state, IS-MCTS players from
    the OpenSpiel state, and every action is applied to both. Raises :class:`BridgeError` if
    the engines disagree (seat to act, legality or points) or one of our bots plays illegally.
    """
    n = deal.player_count
    if len(players) != n or len(rngs) != n:
        raise BridgeError(f"{len(players)} players and {len(rngs)} generators for {n} seats")
    for seat, (player, rng) in enumerate(zip(players, rngs, strict=True)):
        if not isinstance(player, IsmctsPlayer) and not callable(getattr(player, "choose", None)):
            raise TypeError(
                f"players[{seat}] must be a bot (with a choose method) or an IsmctsPlayer,"
                f" got {brief(player)}"
            )
        _check_rng(rng, f"rngs[{seat}]")
    ospiel_state = openspiel_game(n).new_initial_state()
    for action in deal.chance_actions():
        ospiel_state.apply_action(action)
    rules = one_hand_rules(n, deal.hand_size)
    state = new_game(rules, first_dealer=deal.dealer)
    state, _ = apply(state, deal.engine_deal())
    timings: list[list[float]] = [[] for _ in range(n)]
    while not ospiel_state.is_terminal():
        seat = ospiel_state.current_player()
        if state.to_act != frozenset({seat}):
            raise BridgeError(
                f"OpenSpiel has seat {seat} to act, our engine {sorted(state.to_act)}"
                f" ({state.describe_position()})"
            )
        player = players[seat]
        start = time.perf_counter()
        if isinstance(player, IsmctsPlayer):
            ours = from_openspiel(player.step(ospiel_state), seat)
        else:
            ours = player.choose(view_for(state, seat), rngs[seat], budget)
        timings[seat].append(time.perf_counter() - start)
        if not is_legal(state, ours):
            raise BridgeError(
                f"seat {seat} ({player.name}) chose {ours}, illegal here"
                f" ({state.describe_position()})"
            )
        ospiel_state.apply_action(to_openspiel(ours))
        state, _ = apply(state, ours)
    (result,) = state.results
    returns = tuple(float(r) for r in ospiel_state.returns())
    if tuple(float(p) for p in result.points) != returns:
        raise BridgeError(f"points differ: ours {result.points}, OpenSpiel's {returns}")
    standard = Rules(player_count=n)
    return HandOutcome(
        hand_size=deal.hand_size,
        dealer=deal.dealer,
        bids=result.bids,
        tricks_won=result.tricks_won,
        openspiel_returns=returns,
        standard_points=tuple(
            score_hand(standard, bid=b, won=w, hand_size=deal.hand_size)
            for b, w in zip(result.bids, result.tricks_won, strict=True)
        ),
        decision_seconds=tuple(tuple(t) for t in timings),
    )


ISMCTS_SEES: Final = ("view", "state")
"""What the IS-MCTS seats of :func:`play_duplicate_deal` search from: their own view
(:class:`IsmctsBot`, worlds sampled from what the seat knows; the default, the fair match) or
the real OpenSpiel state (:class:`IsmctsPlayer`, as OpenSpiel plays, which lets it know which
cards are in the stock: it sees hidden information, so it is for measuring that advantage
only)."""


def play_duplicate_deal(
    deal: OpenSpielDeal,
    make_candidate: Callable[[], Bot],
    *,
    simulations: int,
    seed: int,
    budget: Budget = Budget(),  # noqa: B008 - immutable
    ismcts_sees: str = "view",
) -> tuple[HandOutcome, ...]:
    """Duplicate on one OpenSpiel deal: ``n`` hands, the candidate (a fresh bot from
    ``make_candidate``) in seat ``r`` of hand ``r`` and IS-MCTS with ``simulations`` per decision
    in the other seats, searching from what ``ismcts_sees`` (:data:`ISMCTS_SEES`); every
    generator is seeded from ``seed``, the rotation and the seat."""
    if ismcts_sees not in ISMCTS_SEES:
        raise BridgeError(
            f"ismcts_sees must be one of {', '.join(ISMCTS_SEES)}, got {ismcts_sees!r}"
        )
    _whole(seed, "the seed")  # said as given, not as the number each seat's is made from
    n = deal.player_count

    def opponent(rotation: int, seat: int) -> Bot | IsmctsPlayer:
        if ismcts_sees == "view":
            return IsmctsBot(simulations=simulations)
        return IsmctsPlayer(
            simulations=simulations, seed=(seed * 1009 + rotation * 31 + seat) % 2**31
        )

    outcomes = []
    for rotation in range(n):
        players = [
            make_candidate() if seat == rotation else opponent(rotation, seat) for seat in range(n)
        ]
        rngs = [derived_rng("openspiel-duplicate", seed, rotation, seat) for seat in range(n)]
        outcomes.append(play_hand(deal, players, rngs=rngs, budget=budget))
    return tuple(outcomes)
