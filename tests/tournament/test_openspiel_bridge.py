"""The OpenSpiel bridge: our bots play OpenSpiel ``oh_hell`` hands legally, and OpenSpiel's
IS-MCTS plays hands dealt by us, both engines in lockstep."""

from __future__ import annotations

import math
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from tests.conftest import require
from tests.engine.test_views_leak import rearrange_hidden

from ohhell.bots import RandomBot, make_bot
from ohhell.bots.base import Budget
from ohhell.engine import (
    DECK,
    Action,
    Bid,
    Deal,
    GameState,
    Play,
    PlayerView,
    Rules,
    apply,
    is_legal,
    legal_actions,
    new_game,
    view_for,
)
from ohhell.openspiel_bridge import (
    BridgeError,
    IsmctsPlayer,
    OpenSpielDeal,
    action_of,
    card_of,
    check_openspiel_rules,
    choose_openspiel_action,
    engine_state,
    from_openspiel,
    one_hand_rules,
    openspiel_game,
    openspiel_state_for_view,
    play_duplicate_deal,
    play_hand,
    random_openspiel_deal,
    to_openspiel,
)


def test_encoding_round_trips() -> None:
    assert sorted(map(card_of, range(52))) == list(DECK)
    assert all(card_of(action_of(card)) is card for card in DECK)
    assert to_openspiel(Bid(2, 3)) == 55
    assert from_openspiel(55, 2) == Bid(2, 3)
    assert from_openspiel(51, 1) == Play(1, card_of(51))
    with pytest.raises(BridgeError, match=r"0\.\.51"):
        card_of(52)


@pytest.mark.parametrize("player_count", [3, 4, 7])
def test_our_random_bot_plays_openspiel_hands_legally(player_count: int) -> None:
    require("pyspiel")
    rng = random.Random(player_count)
    bot = RandomBot()
    for hand in range(6):
        ospiel = openspiel_game(player_count).new_initial_state()
        while ospiel.is_chance_node():
            ospiel.apply_action(rng.choice([a for a, _ in ospiel.chance_outcomes()]))
        while not ospiel.is_terminal():
            state = engine_state(ospiel)
            assert sorted(to_openspiel(a) for a in legal_actions(state)) == sorted(
                ospiel.legal_actions()
            ), f"hand {hand}: {state.describe_position()}"
            action = choose_openspiel_action(bot, ospiel, rng)
            assert action in ospiel.legal_actions()
            ospiel.apply_action(action)
        (result,) = engine_state(ospiel).results
        assert result.points == tuple(int(r) for r in ospiel.returns())


class _Watcher(RandomBot):
    """A random bot that keeps every view it is handed."""

    def __init__(self) -> None:
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        self.views.append(view)
        return super().choose(view, rng, budget)


def _dealt_again(
    deal: OpenSpielDeal, state: GameState, seat: int, rng: random.Random
) -> OpenSpielDeal | None:
    """``deal`` with every card ``seat`` cannot see in ``state`` (our engine's state of the
    hand) dealt again across suits: the other seats' unplayed cards and the stock
    (``rearrange_hidden``), dealt again until every card played so far stays legal. ``None``
    if 50 deals fail (voids shown) or only the stock is hidden."""
    n, view = deal.player_count, view_for(state, seat)
    past: list[Action] = [Bid(s, b) for s, b in enumerate(state.bids) if b is not None]
    past.sort(key=lambda bid: (bid.seat - deal.dealer - 1) % n)  # from the dealer's left
    past += [Play(s, card) for s, card in view.played_cards()]
    for _ in range(50):
        other = rearrange_hidden(state, seat, rng)
        if other.hands == state.hands:
            return None
        replay = new_game(one_hand_rules(n, deal.hand_size), first_dealer=deal.dealer)
        replay, _ = apply(replay, Deal(other.dealt, deal.trump_card))
        for action in past:
            if not is_legal(replay, action):
                break
            replay, _ = apply(replay, action)
        else:
            dealt = [iter(hand) for hand in other.dealt]
            cards = tuple(
                card if i % n == seat else next(dealt[i % n]) for i, card in enumerate(deal.cards)
            )
            return replace(deal, cards=cards)
    return None


@pytest.mark.parametrize("player_count", [3, 5, 7])
def test_our_bot_sees_nothing_of_an_openspiel_hand_its_seat_cannot_see(player_count: int) -> None:
    """At every decision of OpenSpiel's own ``oh_hell`` hands (every bid and card, not only the
    first), the hand replayed in OpenSpiel from a deal of the cards the seat to act cannot see
    dealt again across suits: the view ``choose_openspiel_action`` hands our bot is the same,
    and is that seat's ``view_for`` of ``engine_state``, so the bot's choice is the same."""
    require("pyspiel")
    rng = random.Random(player_count)
    checked = suits_moved = 0
    for hand_size in (2, 5):
        deal = random_openspiel_deal(player_count, hand_size, rng)
        ospiel = openspiel_game(player_count).new_initial_state()
        for action in deal.chance_actions():
            ospiel.apply_action(action)
        while not ospiel.is_terminal():
            seat = ospiel.current_player()
            state = engine_state(ospiel)
            other = _dealt_again(deal, state, seat, rng)
            if other is not None:
                twin = openspiel_game(player_count).new_initial_state()
                for action in [*other.chance_actions(), *ospiel.history()[len(deal.cards) + 3 :]]:
                    twin.apply_action(action)
                hands = engine_state(twin).hands
                assert hands != state.hands
                suits_moved += [sorted(c.suit.value for c in hand) for hand in hands] != [
                    sorted(c.suit.value for c in hand) for hand in state.hands
                ]
                watcher = _Watcher()
                first = choose_openspiel_action(watcher, ospiel, random.Random(checked))
                second = choose_openspiel_action(watcher, twin, random.Random(checked))
                assert watcher.views == [view_for(state, seat)] * 2
                assert first == second
                checked += 1
            ospiel.apply_action(choose_openspiel_action(RandomBot(), ospiel, rng))
    assert checked > 6 * player_count and suits_moved > checked // 2  # of 9 per seat


def test_engine_state_needs_a_dealt_hand() -> None:
    require("pyspiel")
    ospiel = openspiel_game(4).new_initial_state()
    ospiel.apply_action(3)
    with pytest.raises(BridgeError, match="not chosen its hand size and dealer"):
        engine_state(ospiel)
    ospiel.apply_action(0)
    ospiel.apply_action(5)
    with pytest.raises(BridgeError, match="still dealing"):
        engine_state(ospiel)


@pytest.mark.parametrize(
    ("game", "params", "message"),
    [
        ("tic_tac_toe", {}, "the OpenSpiel game is 'tic_tac_toe', not oh_hell"),
        (
            "oh_hell",
            {"players": 4, "off_bid_penalty": True},
            "not played as our engine plays it: off_bid_penalty=True (ours: False)",
        ),
        (
            "oh_hell",
            {"players": 3, "points_per_trick": 3, "num_suits": 3},
            "num_suits=3 (ours: 4), points_per_trick=3 (ours: 1)",
        ),
    ],
)
def test_engine_state_refuses_another_game_or_other_points(
    game: str, params: dict[str, Any], message: str
) -> None:
    """Our bots would play for points the game does not give, or on another deck: refused,
    naming what differs, rather than played as though it were our engine's hand."""
    require("pyspiel")
    import pyspiel

    state = pyspiel.load_game(game, params).new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for refused in (engine_state, lambda s: choose_openspiel_action(RandomBot(), s, rng)):
        with pytest.raises(BridgeError, match=re.escape(message)):
            refused(state)


def test_ismcts_plays_our_hands() -> None:
    require("pyspiel")
    rng = random.Random(1)
    for hand_size in (1, 4, 12):
        deal = random_openspiel_deal(4, hand_size, rng)
        players = [make_bot("heuristic")] + [
            IsmctsPlayer(simulations=10, seed=seat) for seat in range(1, 4)
        ]
        outcome = play_hand(deal, players, rngs=[random.Random(s) for s in range(4)])
        assert sum(outcome.tricks_won) == hand_size
        assert all(len(t) == hand_size + 1 for t in outcome.decision_seconds)
        for bid, won, ours, standard in zip(
            outcome.bids,
            outcome.tricks_won,
            outcome.openspiel_returns,
            outcome.standard_points,
            strict=True,
        ):
            assert ours == (won + 10 if bid == won else won)
            assert standard == (won + 10 if bid == won else 0)


def test_duplicate_deal_rotates_our_bot_through_every_seat() -> None:
    require("pyspiel")
    deal = random_openspiel_deal(3, 3, random.Random(4), dealer=1)
    outcomes = play_duplicate_deal(deal, lambda: make_bot("heuristic"), simulations=10, seed=2)
    assert len(outcomes) == 3
    assert {o.dealer for o in outcomes} == {1}
    assert all(o.hand_size == 3 and sum(o.tricks_won) == 3 for o in outcomes)
    # pyspiel's ISMCTSBot is not reproducible from its seed (measured: 14 different action
    # sequences in 40 runs of one seeded hand), so the plays themselves are not compared


def test_bad_hand_size_is_a_clear_error() -> None:
    with pytest.raises(BridgeError, match=r"deals 1..12 cards to each of 4 players, not 13"):
        random_openspiel_deal(4, 13, random.Random(0))


def test_openspiel_rules_check_names_every_problem() -> None:
    for n in range(3, 8):
        check_openspiel_rules(one_hand_rules(n, 51 // n))
    with pytest.raises(BridgeError) as caught:
        check_openspiel_rules(Rules(player_count=4, zero_bid_bonus=True, must_trump=True))
    message = str(caught.value)
    assert "no hook" in message
    assert "La Podrida" in message
    assert "zero-bid bonus" in message
    assert "hands of 13 cards (OpenSpiel deals at most 12 to each of 4 players)" in message
    assert "simultaneous" not in message


@pytest.mark.parametrize("player_count", [3, 5, 7])
def test_state_rebuilt_from_a_view_replays_into_the_same_view(player_count: int) -> None:
    """Our engine's state of the OpenSpiel state rebuilt from a seat's view shows that seat the
    same hand, trump, bids, tricks and legal actions."""
    require("pyspiel")
    rng = random.Random(player_count)
    for hand_size in (1, 4, 51 // player_count):
        deal = random_openspiel_deal(player_count, hand_size, rng)
        state = new_game(one_hand_rules(player_count, hand_size), first_dealer=deal.dealer)
        state, _ = apply(state, deal.engine_deal())
        while not state.is_over:
            (seat,) = state.to_act
            view = view_for(state, seat)
            rebuilt = view_for(engine_state(openspiel_state_for_view(view, rng)), seat)
            assert rebuilt.hand == view.hand
            assert rebuilt.trump_card == view.trump_card
            assert (rebuilt.bids, rebuilt.tricks, rebuilt.trick) == (
                view.bids,
                view.tricks,
                view.trick,
            )
            assert rebuilt.legal_actions == view.legal_actions
            state, _ = apply(state, RandomBot().choose(view, rng, Budget()))


def test_openspiel_resampling_keeps_the_dealt_card_set() -> None:
    """Why :class:`~ohhell.openspiel_bridge.IsmctsBot` searches several sampled states:
    OpenSpiel's ``oh_hell`` resamples a state by permuting its hidden dealt cards among the
    other players, never swapping in stock cards, so one state fixes which cards are out."""
    require("pyspiel")
    deal = random_openspiel_deal(4, 6, random.Random(1), dealer=0)
    ospiel = openspiel_game(4).new_initial_state()
    for action in deal.chance_actions():
        ospiel.apply_action(action)
    dealt = set(deal.chance_actions()[2:-1])
    rng = random.Random(0)
    resampled = [ospiel.resample_from_infostate(1, rng.random) for _ in range(50)]
    assert all(set(state.history()[2:26]) == dealt for state in resampled)
    assert len({tuple(state.history()) for state in resampled}) > 1


def test_duplicate_deal_with_ismcts_searching_from_its_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ismcts_sees="view"``, the default: the IS-MCTS seats are bots deciding from their own
    view (never the OpenSpiel state, which would tell them the stock)."""
    require("pyspiel")
    from ohhell import openspiel_bridge

    def no_state_player(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("an IS-MCTS player was given the real OpenSpiel state")

    monkeypatch.setattr(openspiel_bridge.IsmctsPlayer, "__init__", no_state_player)
    deal = random_openspiel_deal(4, 2, random.Random(5), dealer=3)
    outcomes = play_duplicate_deal(
        deal, lambda: make_bot("heuristic"), simulations=8, seed=3, ismcts_sees="view"
    )
    assert len(outcomes) == 4
    assert all(sum(o.tricks_won) == 2 and len(o.bids) == 4 for o in outcomes)
    by_default = play_duplicate_deal(deal, lambda: make_bot("heuristic"), simulations=8, seed=3)
    assert len(by_default) == 4  # no IsmctsPlayer was built: the view is the default
    with pytest.raises(BridgeError, match="ismcts_sees must be one of view, state, got 'all'"):
        play_duplicate_deal(
            deal, lambda: make_bot("heuristic"), simulations=8, seed=3, ismcts_sees="all"
        )


def test_random_deals_need_a_card_each_and_pick_any_dealer() -> None:
    with pytest.raises(BridgeError, match=r"deals 1..12 cards to each of 4 players, not 0"):
        random_openspiel_deal(4, 0, random.Random(0))
    deals = [random_openspiel_deal(4, 12, random.Random(seed)) for seed in range(40)]
    assert {deal.dealer for deal in deals} == {0, 1, 2, 3}
    assert all(len(set(deal.cards) | {deal.trump_card}) == 49 for deal in deals)
    assert random_openspiel_deal(4, 1, random.Random(0), dealer=2).dealer == 2


def test_engine_state_needs_the_trump_card_turned() -> None:
    """Every card dealt is not enough: the trump card must be turned too."""
    require("pyspiel")
    deal = random_openspiel_deal(4, 3, random.Random(2))
    ospiel = openspiel_game(4).new_initial_state()
    for action in deal.chance_actions()[:-1]:
        ospiel.apply_action(action)
    with pytest.raises(BridgeError, match=r"still dealing \(12 of 13 cards dealt and turned\)"):
        engine_state(ospiel)
    ospiel.apply_action(deal.chance_actions()[-1])
    assert view_for(engine_state(ospiel), 0).trump_card == deal.trump_card


def test_an_illegal_choice_of_our_bot_is_refused() -> None:
    require("pyspiel")

    class Overbidder(RandomBot):
        name = "overbidder"

        def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
            assert view.seat is not None
            return Bid(view.seat, view.hand_size + 1)

    deal = random_openspiel_deal(4, 3, random.Random(3), dealer=3)
    ospiel = openspiel_game(4).new_initial_state()
    for action in deal.chance_actions():
        ospiel.apply_action(action)
    with pytest.raises(BridgeError, match=r"bot 'overbidder' chose .*, which is illegal"):
        choose_openspiel_action(Overbidder(), ospiel, random.Random(0))


def test_duplicate_deal_seats_our_bot_in_seat_r_of_hand_r() -> None:
    require("pyspiel")
    seats: list[set[int]] = []

    class Seated(RandomBot):
        """A random bot that notes the seats it plays for, one set per bot built."""

        def __init__(self) -> None:
            self.played_for: set[int] = set()
            seats.append(self.played_for)

        def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
            assert view.seat is not None
            self.played_for.add(view.seat)
            return super().choose(view, rng, budget)

    deal = random_openspiel_deal(3, 2, random.Random(6), dealer=0)
    outcomes = play_duplicate_deal(deal, Seated, simulations=4, seed=1)
    assert len(outcomes) == 3
    assert seats == [{0}, {1}, {2}]


def test_duplicate_deal_gives_ismcts_seeing_its_view_the_simulations_asked(
    ismcts_simulations: list[int],
) -> None:
    """``simulations`` is what every IS-MCTS decision searches under ``ismcts_sees="view"`` too
    (8: four searches of two), not :class:`~ohhell.openspiel_bridge.IsmctsBot`'s default."""
    shares = ismcts_simulations
    deal = random_openspiel_deal(3, 2, random.Random(7), dealer=1)
    play_duplicate_deal(deal, RandomBot, simulations=8, seed=4, ismcts_sees="view")
    assert shares and set(shares) == {2} and len(shares) % 4 == 0


@pytest.mark.parametrize("player_count", [2, 8])
def test_openspiel_s_oh_hell_takes_3_to_7_players(
    player_count: int, capfd: pytest.CaptureFixture[str]
) -> None:
    """Said by the bridge before OpenSpiel is asked (which would print "OpenSpiel exception:"
    to stderr and raise its own SpielError), for a game and for a random deal."""
    message = rf"^OpenSpiel's oh_hell takes 3 to 7 players, got {player_count}$"
    with pytest.raises(BridgeError, match=message):
        openspiel_game(player_count)
    with pytest.raises(BridgeError, match=message):
        random_openspiel_deal(player_count, 1, random.Random(0))
    assert capfd.readouterr().err == ""
    with pytest.raises(TypeError, match=r"^the number of players must be a whole number, got 4.0$"):
        openspiel_game(4.0)


def test_a_random_deal_s_dealer_is_a_seat_and_its_sizes_whole_numbers() -> None:
    with pytest.raises(BridgeError, match=r"^the dealer must be a seat from 0 to 3 of 4 players"):
        random_openspiel_deal(4, 1, random.Random(0), dealer=7)
    with pytest.raises(BridgeError, match=r"got -1$"):
        random_openspiel_deal(4, 1, random.Random(0), dealer=-1)
    with pytest.raises(TypeError, match=r"^the dealer must be a whole number, got True$"):
        random_openspiel_deal(4, 1, random.Random(0), dealer=True)
    with pytest.raises(TypeError, match=r"^the hand size must be a whole number, got 2.5$"):
        random_openspiel_deal(4, 2.5, random.Random(0))  # type: ignore[arg-type]


def test_the_encodings_refuse_what_is_not_an_action_or_a_card() -> None:
    """An action id past the largest bid (17, of 3 players) is no OpenSpiel action, and a
    card's text or a fraction is not what the encodings take."""
    assert from_openspiel(52 + 17, 0) == Bid(0, 17)
    for action in (999, 52 + 18, -1):
        with pytest.raises(BridgeError, match=rf"player actions are 0..69 .*, got {action}$"):
            from_openspiel(action, 0)
    with pytest.raises(BridgeError, match=r"^OpenSpiel's oh_hell seats are 0 to 6, got -1$"):
        from_openspiel(55, -1)
    with pytest.raises(TypeError, match=r"^an OpenSpiel action must be a whole number, got '1'$"):
        from_openspiel("1", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^action_of takes a Card .*, got 'As'$"):
        action_of("As")  # type: ignore[arg-type]
    for action in (1.5, True):
        with pytest.raises(TypeError, match=r"^an OpenSpiel card action must be a whole number"):
            card_of(action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"seed": 2**40}, BridgeError, r"^IS-MCTS's seed must be from 0 to 2147483647 \(Open"),
        ({"seed": -1}, BridgeError, r"^IS-MCTS's seed must be from 0 to 2147483647 .*, got -1$"),
        ({"seed": 1.5}, TypeError, r"^seed must be a whole number, got 1.5$"),
        ({"simulations": 2.5}, TypeError, r"^simulations must be a whole number, got 2.5$"),
        ({"simulations": 2**31}, BridgeError, r"^IS-MCTS takes at most 2147483647 simulations"),
        ({"uct_c": math.nan}, ValueError, r"^uct_c must be a finite number, got nan$"),
        ({"uct_c": -1.0}, BridgeError, r"^uct_c must be 0 or more .*, got -1.0$"),
        ({"rollouts": 0}, BridgeError, r"^rollouts must be positive, got 0$"),
    ],
    ids=[
        "huge seed",
        "negative seed",
        "fraction seed",
        "fraction simulations",
        "huge simulations",
        "nan uct_c",
        "negative uct_c",
        "no rollouts",
    ],
)
def test_ismcts_player_options_are_checked_before_openspiel_sees_them(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    given: dict[str, Any] = {"simulations": 4, "seed": 0} | options
    with pytest.raises(error, match=message):
        IsmctsPlayer(**given)


def test_the_bridge_refuses_arguments_of_the_wrong_kind_by_name() -> None:
    """A bid of -3 became OpenSpiel's action 49, the ace of diamonds; ``None`` for a generator,
    a state or rules was an ``AttributeError`` from deep inside."""
    for bid in (-3, 18, 40):
        with pytest.raises(BridgeError, match=f"^OpenSpiel's oh_hell bids are 0 to 17, not {bid}$"):
            to_openspiel(Bid(0, bid))
    with pytest.raises(TypeError, match=r"^a bid must be a whole number, got None$"):
        to_openspiel(Bid(0, None))  # type: ignore[arg-type]
    assert to_openspiel(Bid(0, 17)) == 69
    for rng in (None, 7):
        with pytest.raises(TypeError, match=f"^rng must be a random.Random, got {rng}$"):
            random_openspiel_deal(4, 3, rng)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^engine_state takes an OpenSpiel state, got None$"):
        engine_state(None)
    with pytest.raises(
        TypeError, match=r"^rules must be a Rules \(ohhell.engine.Rules\), got None"
    ):
        check_openspiel_rules(None)  # type: ignore[arg-type]
    deal = random_openspiel_deal(3, 2, random.Random(0))
    rngs = [random.Random(seat) for seat in range(3)]
    with pytest.raises(TypeError, match=r"^players\[1\] must be a bot"):
        play_hand(deal, [RandomBot(), None, RandomBot()], rngs=rngs)  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^rngs\[2\] must be a random.Random, got 2$"):
        play_hand(deal, [RandomBot()] * 3, rngs=[*rngs[:2], 2])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^the seed must be a whole number, got 1\.5$"):
        play_duplicate_deal(deal, RandomBot, simulations=10, seed=1.5)  # type: ignore[arg-type]
