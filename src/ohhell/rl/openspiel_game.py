"""The full Oh Hell game for OpenSpiel, registered as ``python_ohhell`` on import.

OpenSpiel's own ``oh_hell`` plays one hand with the hook always on and a trump always turned.
This game plays a whole game under any :class:`~ohhell.engine.Rules`, driven by the engine.

Parameters (defaults are the standard game): ``players`` (3-7), ``schedule`` (``ascending``,
``descending``, ``up-and-down``, ``down-and-up``, ``custom``), ``hand_sizes`` (with
``schedule=custom``: sizes separated by ``;``, e.g. ``1;2``; a single size needs the
``;`` in a game string, ``hand_sizes=1;``, as OpenSpiel reads a bare ``1`` as a number),
``repeat_turning_hand``, ``trump_in_last_hand``, ``hook``, ``bidding`` (``sequential`` /
``simultaneous``),
``must_trump``, ``missed_bid_scores_tricks``, ``zero_bid_bonus``.

Chance is explicit: the first chance node picks the first dealer (uniform over the seats); then
each hand's cards are drawn one chance node at a time, uniformly from the cards not yet drawn,
in the engine's dealing order (one at a time starting left of the dealer, then the trump card
when the rules turn one). The engine's :class:`~ohhell.engine.Deal` is applied once all are drawn.

Actions: card ``c`` is ``c.index`` (0 = 2c ... 51 = As), bid ``b`` is ``52 + b``.

Simultaneous bidding is encoded sequentially: the lowest seat still to bid acts, and nobody's
information state or observation shows another seat's bid until all are in.

Returns are the final totals in points (raw, not normalised), given at the terminal state only
(zeros before); utilities lie in ``[0, max_total]``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_ohhell(players=3,schedule=custom,hand_sizes=1;2)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)
>>> game.num_distinct_actions(), game.max_game_length()
(55, 15)
"""

from __future__ import annotations

import math
import numbers
import operator
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ohhell.rl import missing_extra

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
except ImportError as exc:
    raise missing_extra(exc, "openspiel") from exc

from ohhell.bots.base import Bot, Budget
from ohhell.bots.sampling import sample_world
from ohhell.engine import (
    Card,
    GameState,
    PlayerView,
    Rules,
    RulesError,
    apply,
    deal_from_deck,
    format_cards,
    legal_actions,
    new_game,
    sort_cards,
    view_for,
)
from ohhell.engine.jsontext import brief
from ohhell.rl.encoding import (
    CARD_COUNT,
    ObservationLayout,
    action_count,
    action_to_int,
    encode_view,
    int_to_action,
    max_total,
)
from ohhell.rl.seeding import agent_rng, checked_agent

__all__ = [
    "GAME_NAME",
    "OhHellGame",
    "OhHellObserver",
    "OhHellState",
    "OpenSpielBot",
    "load_game",
    "rules_from_params",
]

GAME_NAME: Final[str] = "python_ohhell"

_DEFAULTS: Final[dict[str, Any]] = {
    "players": 4,
    "schedule": "ascending",
    "hand_sizes": "",
    "repeat_turning_hand": False,
    "trump_in_last_hand": False,
    "hook": False,
    "bidding": "sequential",
    "must_trump": False,
    "missed_bid_scores_tricks": False,
    "zero_bid_bonus": False,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Oh Hell (full game, every variant; ohhell engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=Rules.MAX_PLAYERS,
    min_num_players=Rules.MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def load_game(game_string: str) -> Any:
    """``pyspiel.load_game`` of a ``python_ohhell`` game string, once this module has registered
    the game (what an unpickled game calls)."""
    return pyspiel.load_game(game_string)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The :class:`~ohhell.engine.Rules` for OpenSpiel game parameters (missing ones default).

    Raises :class:`~ohhell.engine.RulesError` naming a bad option, or :class:`ValueError`
    naming an unknown parameter or a malformed ``hand_sizes``.
    """
    unknown = sorted(set(params) - set(_DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown {GAME_NAME} parameter(s) {', '.join(unknown)};"
            f" allowed: {', '.join(_DEFAULTS)}"
        )
    merged = {**_DEFAULTS, **params}
    text = str(merged["hand_sizes"]).strip()
    try:
        sizes = tuple(int(part) for part in re.split(r"[;,\s]+", text) if part)
    except ValueError:
        raise ValueError(
            f"hand_sizes must be integers separated by ';' (e.g. '1;2'), got {text!r}"
        ) from None
    try:
        return _rules(merged, sizes)
    except RulesError as exc:  # name the parameters as the game string spells them
        names = [_PARAMETER_OF.get(field, field) for field in exc.fields]
        if not names:
            raise
        kind = "parameter" if len(names) == 1 else "parameters"
        raise RulesError(f"{exc} ({kind} {', '.join(names)})", fields=exc.fields) from None


_PARAMETER_OF: Final = {"player_count": "players", "custom_hand_sizes": "hand_sizes"}
"""The game parameter of each :class:`~ohhell.engine.Rules` field whose name differs."""


def _rules(merged: dict[str, Any], sizes: tuple[int, ...]) -> Rules:
    return Rules(
        player_count=merged["players"],
        schedule=merged["schedule"],
        custom_hand_sizes=sizes,
        repeat_turning_hand=merged["repeat_turning_hand"],
        trump_in_last_hand=merged["trump_in_last_hand"],
        hook=merged["hook"],
        bidding=merged["bidding"],
        must_trump=merged["must_trump"],
        missed_bid_scores_tricks=merged["missed_bid_scores_tricks"],
        zero_bid_bonus=merged["zero_bid_bonus"],
    )


class OhHellGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game factory: rules from the parameters, and the static facts OpenSpiel needs."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_from_params(params)
        if str(params.get("hand_sizes", "")).strip():  # as a game string spells it, so that
            spelt = ";".join(map(str, self.rules.custom_hand_sizes))  # str(game) loads again
            params["hand_sizes"] = spelt if ";" in spelt else f"{spelt};"
        rules = self.rules
        n = rules.player_count
        sizes = rules.hand_sizes()
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(rules),
            max_chance_outcomes=CARD_COUNT,
            num_players=n,
            min_utility=0.0,
            max_utility=float(max_total(rules)),
            utility_sum=None,
            max_game_length=sum(n + n * size for size in sizes),
        )
        super().__init__(_GAME_TYPE, info, {**_DEFAULTS, **params})
        self._chance_nodes = 1 + sum(n * size + rules.has_trump(i) for i, size in enumerate(sizes))

    def __reduce__(self) -> tuple[Callable[[str], Any], tuple[str]]:
        """Pickled (for a worker process) and copied by its game string: pyspiel would rebuild
        the C++ part alone, without the rules. Unpickling imports this module, which registers
        the game, so it loads in a fresh process too."""
        return (load_game, (str(self),))

    def new_initial_state(self) -> OhHellState:
        """The state before the first dealer is drawn."""
        return OhHellState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The first dealer, then every card drawn (dealt or turned for trump)."""
        return self._chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> OhHellObserver:
        """An observer: perfect recall gives the information state, else the observation."""
        if isinstance(iig_obs_type, dict):  # called with the parameters only
            iig_obs_type, params = None, iig_obs_type
        return OhHellObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.rules, params
        )


@dataclass(frozen=True, slots=True)
class _Core:
    """Everything a state holds; immutable, so clones share it (OpenSpiel deep-copies the
    attributes of Python states on ``clone()``)."""

    rules: Rules
    state: GameState | None
    """``None`` until the first dealer is drawn."""
    drawn: tuple[Card, ...]
    """This hand's cards drawn so far, in dealing order, while the deal is in progress."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Core:
        return self


class OhHellState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """One node of the game tree, wrapping an immutable engine :class:`GameState`."""

    def __init__(self, game: OhHellGame) -> None:
        super().__init__(game)
        self._core = _Core(game.rules, None, ())
        self._script: tuple[tuple[int, int], ...] | None = None
        """While a resample writes its history (:meth:`resample_from_infostate`): each
        action's player; the actions change nothing until the sample's core is put in."""
        self._scripted = 0

    # ----------------------------------------------------------------- for adapters

    @property
    def rules(self) -> Rules:
        return self._core.rules

    def view(self, player: int) -> PlayerView:
        """Everything ``player`` may know (what our bots get); only after the first deal's
        dealer is drawn."""
        state = self._core.state
        if state is None:
            raise ValueError("no view before the first dealer is drawn")
        return view_for(state, player)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> OhHellState:
        """A state ``player_id`` cannot tell from this one, for determinized search (IS-MCTS):
        the other seats' unplayed cards are redealt uniformly among the deals consistent with
        what ``player_id`` knows (the cards it has seen, the suits each seat has shown it
        lacks), and sealed bids it cannot see are redrawn. Only for decision nodes.

        Its history is the sample's own, not this state's: this hand's cards drawn are the
        sampled hands', and its sealed bids the redrawn ones (the true ones would tell
        ``player_id`` the hidden cards through ``history()``). pyspiel keeps a history in C++,
        written one applied action at a time, so the sample's is written by applying its
        actions to a new state without playing them (a few milliseconds for a whole game's
        history), and the sampled game is put in at the end."""
        core = self._core
        state = core.state
        if state is None or state.is_chance or state.is_over:
            raise ValueError("resample_from_infostate needs a decision node")
        draw = probability_sampler()  # OpenSpiel's: a uniform float in [0, 1)
        if isinstance(draw, bool) or not isinstance(draw, numbers.Real) or not 0 <= draw <= 1:
            raise ValueError(
                f"probability_sampler must return a number from 0 to 1, returned {draw!r}"
            )
        rng = random.Random(int(draw * 2**32))
        sample = _determinize(state, player_id, rng)
        script = _sample_history(
            [(int(item.player), int(item.action)) for item in self.full_history()],
            state,
            sample,
            view_for(state, player_id),
        )
        fresh: OhHellState = self.get_game().new_initial_state()
        fresh._script = script
        for _, action in script:
            fresh.apply_action(action)
        fresh._script, fresh._scripted = None, 0
        fresh._core = _Core(core.rules, sample, ())
        return fresh

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        if self._script is not None:  # a resample writing its history
            return self._script[self._scripted][0]
        state = self._core.state
        if state is None or state.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(state.to_act)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.state
        if state is None:
            return []
        return sorted(action_to_int(a) for a in legal_actions(state, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of this chance node (the first dealer, or a card left to draw).

        Raises :class:`ValueError` at a decision or terminal node: it has none.
        """
        core = self._core
        if core.state is not None and not core.state.is_chance:
            raise ValueError(
                "chance_outcomes() is only for chance nodes: "
                + ("the game is over" if core.state.is_over else "a player is to act")
            )
        if core.state is None:
            n = core.rules.player_count
            return [(seat, 1.0 / n) for seat in range(n)]
        drawn = {card.index for card in core.drawn}
        left = [c for c in range(CARD_COUNT) if c not in drawn]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self._script is not None:  # a resample writing its history: the core comes after
            self._scripted += 1
            return
        core = self._core
        state = core.state
        if state is None:
            self._core = _Core(core.rules, new_game(core.rules, first_dealer=int(action)), ())
        elif state.is_chance:
            if not 0 <= int(action) < CARD_COUNT or int(action) in {c.index for c in core.drawn}:
                raise ValueError(
                    f"chance outcome {action} is not a card left to draw (see chance_outcomes())"
                )
            drawn = (*core.drawn, Card.from_index(int(action)))
            if len(drawn) < _cards_to_draw(state):
                self._core = _Core(core.rules, state, drawn)
            else:
                self._core = _Core(core.rules, apply(state, deal_from_deck(state, drawn))[0], ())
        elif state.is_over:
            raise ValueError(
                f"action {action} after the end of the game: it is over (see returns())"
            )
        else:
            move = int_to_action(int(action), seat=min(state.to_act), rules=core.rules)
            self._core = _Core(core.rules, apply(state, move)[0], ())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._core.state is None:
                return f"first dealer seat {action}"
            return f"draw {Card.from_index(int(action))}"
        count = action_count(self._core.rules)
        if not 0 <= action < count:  # as int_to_action says it
            raise ValueError(f"action {action} is outside the action space 0..{count - 1}")
        if action < CARD_COUNT:
            return f"play {Card.from_index(int(action))}"
        return f"bid {action - CARD_COUNT}"

    def is_terminal(self) -> bool:
        state = self._core.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        state = self._core.state
        if state is None or not state.is_over:
            return [0.0] * self._core.rules.player_count
        return [float(t) for t in state.totals]

    def __repr__(self) -> str:
        """Where the game stands, public facts only: Python and pyspiel write it where the
        state is named in passing (pybind11's wrong-type errors quote it: ``apply_action(52.0)``
        said every hand through ``pyspiel.State``'s own ``__repr__``, which is ``__str__``).

        >>> import pyspiel
        >>> OhHellState(pyspiel.load_game("python_ohhell(players=3)"))
        <python_ohhell state: first dealer not drawn>
        """
        state = self._core.state
        if state is None:
            return "<python_ohhell state: first dealer not drawn>"
        return f"<python_ohhell state: {state.describe_position()}; dealer {state.dealer}>"

    def __str__(self) -> str:
        """The whole state, every hand included (for debugging; not an observation: a seat
        never gets it; ``repr`` gives the public position)."""
        state = self._core.state
        if state is None:
            return "first dealer not drawn"
        hands = " | ".join(format_cards(h) for h in state.hands)
        return (
            f"{state.describe_position()}; dealer {state.dealer}; hands {hands or '-'};"
            f" trump {state.trump_card or '-'}; bids {list(state.bids)};"
            f" trick {format_cards(state.trick) or '-'}; totals {list(state.totals)}"
        )


def _determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    """``state`` with every hidden fact ``player`` cannot see drawn again at random: the
    other seats' unplayed cards uniformly among the deals consistent with what ``player``
    knows (voids shown, La Podrida's trump obligations: :func:`ohhell.bots.sampling.sample_world`,
    the search bot's sampler), and the sealed bids it cannot see."""
    view = view_for(state, player)
    new_hands = sample_world(view, rng)  # each in the engine's order, as a deal leaves them
    played: dict[int, list[Card]] = {s: [] for s in range(state.player_count)}
    for seat, card in view.played_cards():
        played[seat].append(card)
    dealt = tuple(tuple(sorted((*new_hands[s], *played[s]))) for s in range(state.player_count))
    bids = tuple(
        rng.randint(0, state.hand_size) if seen_bid is None and real is not None else real
        for seen_bid, real in zip(view.bids, state.bids, strict=True)
    )
    return replace(state, hands=new_hands, dealt=dealt, bids=bids)


def _sample_history(
    history: list[tuple[int, int]], state: GameState, sample: GameState, view: PlayerView
) -> tuple[tuple[int, int], ...]:
    """``history`` (``(player, action)`` pairs) that led to ``state``, rewritten to lead to
    ``sample`` (:func:`_determinize` of ``state`` for ``view``'s seat): this hand's cards
    drawn become the sample's, each other seat's in its own places of the dealing order (the
    seat's own cards and the turned trump card stay as they were drawn), and the sealed bids
    ``view`` cannot see become the sample's.
    Earlier hands were played out to their last card, so their draws are public."""
    dealt_to = {card.index: seat for seat, hand in enumerate(state.dealt) for card in hand}
    redealt = [iter(hand) for hand in sample.dealt]
    chance = int(pyspiel.PlayerId.CHANCE)
    draws = [i for i, (player, _) in enumerate(history) if player == chance]
    this_hand = draws[len(draws) - _cards_to_draw(state) :]
    out = list(history)
    for i in this_hand:
        seat = dealt_to.get(history[i][1])  # None: the turned trump card
        if seat is not None and seat != view.seat:  # its own cards, in the order it saw them
            out[i] = (chance, next(redealt[seat]).index)
    for i in range(this_hand[-1] + 1, len(out)):
        player, action = out[i]
        if action >= CARD_COUNT and view.bids[player] is None:  # a bid it cannot see
            bid = sample.bids[player]
            assert bid is not None  # the sample redraws only bids made
            out[i] = (player, CARD_COUNT + bid)
    return tuple(out)


def _cards_to_draw(state: GameState) -> int:
    rules = state.rules
    return rules.player_count * state.hand_size + rules.has_trump(state.hand_index)


# --------------------------------------------------------------------------- observations


@dataclass(frozen=True, slots=True)
class _HandRecord:
    """One hand as one seat knows it (perfect recall)."""

    cards: tuple[Card, ...]
    """The seat's own cards as dealt (so far, while dealing)."""
    trump_card: Card | None
    dealt: bool
    """Whether the deal is complete (and the trump card, if any, turned)."""
    bids: tuple[int | None, ...]
    plays: tuple[Card, ...]
    """Every card played in the hand, in order."""


def _history_for(core: _Core, player: int) -> list[_HandRecord]:
    """Every hand so far as ``player`` knows it: from the finished hands' public facts and its
    own cards, and from :func:`view_for` for the hand in progress."""
    state = core.state
    if state is None:
        return []
    records = [
        _HandRecord(
            cards=result.dealt[player],
            trump_card=result.trump_card,
            dealt=True,
            bids=result.bids,
            plays=tuple(card for trick in result.tricks for card in trick.cards),
        )
        for result in state.results
    ]
    if state.is_over:
        return records
    n = state.player_count
    if state.is_chance:
        mine = tuple(
            card
            for i, card in enumerate(core.drawn[: n * state.hand_size])
            if (state.dealer + 1 + i) % n == player
        )
        records.append(_HandRecord(sort_cards(mine), None, False, (None,) * n, ()))
        return records
    view = view_for(state, player)
    played = view.played_cards()
    own_played = [card for seat, card in played if seat == player]
    cards = sort_cards((*(view.hand or ()), *own_played))
    plays = tuple(card for _, card in played)
    records.append(_HandRecord(cards, view.trump_card, True, view.bids, plays))
    return records


class OhHellObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    With ``perfect_recall`` it gives the information state: the seat, the first dealer and,
    per hand, the seat's own cards, the trump card, the visible bids and every card played
    in order (see ``docs/rl.md``). Without, it gives the current view encoded by
    :func:`~ohhell.rl.encoding.encode_view`.
    """

    def __init__(self, iig_obs_type: Any, rules: Rules, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        if not iig_obs_type.public_info or (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "only single-player observations with public information are supported, got"
                f" public_info={iig_obs_type.public_info},"
                f" private_info={iig_obs_type.private_info},"
                f" perfect_recall={iig_obs_type.perfect_recall}"
            )
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        n, top = rules.player_count, rules.max_hand_size
        hands = rules.hand_count
        self._layout = ObservationLayout.for_rules(rules)
        if self.perfect_recall:
            shapes: Sequence[tuple[str, tuple[int, ...]]] = (
                ("seat", (n,)),
                ("first_dealer", (n,)),
                ("cards", (hands, CARD_COUNT)),
                ("trump_card", (hands, CARD_COUNT + 1)),
                ("bids", (hands, n, top + 1)),
                ("plays", (hands, top * n, CARD_COUNT)),
            )
        else:
            shapes = tuple((name, shape) for name, _, shape in self._layout.blocks)
        size = sum(math.prod(shape) for _, shape in shapes)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, shape in shapes:
            width = math.prod(shape)
            self.dict[name] = self.tensor[start : start + width].reshape(shape)
            start += width

    def _check_player(self, player: object) -> None:
        """A player of the game: OpenSpiel's state methods check the id in C++, but an observer
        called directly does not, and ``-1`` would index the last seat's cards."""
        n = self.rules.player_count
        if isinstance(player, bool) or not (
            isinstance(player, numbers.Integral) and 0 <= int(player) < n
        ):
            raise ValueError(f"player must be a seat from 0 to {n - 1}, got {brief(player)}")

    def set_from(self, state: OhHellState, player: int) -> None:
        """Write ``player``'s information state (or observation) of ``state`` to the tensor."""
        self._check_player(player)
        self.tensor.fill(0.0)
        core = state._core
        if not self.perfect_recall:
            if core.state is not None:
                self.tensor[:] = encode_view(view_for(core.state, player), self._layout)
            return
        n = self.rules.player_count
        self.dict["seat"][player] = 1.0
        if core.state is None:
            return
        self.dict["first_dealer"][(core.state.first_dealer - player) % n] = 1.0
        for h, record in enumerate(_history_for(core, player)):
            for card in record.cards:
                self.dict["cards"][h, card.index] = 1.0
            if record.dealt:
                trump = CARD_COUNT if record.trump_card is None else record.trump_card.index
                self.dict["trump_card"][h, trump] = 1.0
            for seat, bid in enumerate(record.bids):
                if bid is not None:
                    self.dict["bids"][h, (seat - player) % n, bid] = 1.0
            for i, card in enumerate(record.plays):
                self.dict["plays"][h, i, card.index] = 1.0

    def string_from(self, state: OhHellState, player: int) -> str:
        """``player``'s information state (or observation) of ``state`` as text."""
        self._check_player(player)
        core = state._core
        head = f"seat {player}"
        if core.state is None:
            return f"{head}; first dealer not drawn"
        if not self.perfect_recall:
            position = core.state.describe_position()
            return f"{head}; {position}; {_view_line(view_for(core.state, player))}"
        lines = [f"{head}; first dealer {core.state.first_dealer}"]
        for h, record in enumerate(_history_for(core, player)):
            line = f"hand {h + 1}: cards {format_cards(sort_cards(record.cards)) or '-'}"
            if record.dealt:
                bids = " ".join("-" if b is None else str(b) for b in record.bids)
                line += f"; trump {record.trump_card or '-'}; bids {bids}"
                line += f"; plays {format_cards(record.plays) or '-'}"
            lines.append(line)
        return "\n".join(lines)


def _view_line(view: PlayerView) -> str:
    """The observation string's view: everything the observation tensor holds, as text. Bids
    are ``-`` (not yet bid), ``?`` (bid, sealed) or the bid; each trick of the hand is
    ``[seat L: cards]``, the cards in order of play from its leader ``L`` (the current trick's
    leader is known while bidding too: the seat that will lead the first)."""
    bids = " ".join(
        str(bid) if bid is not None else "?" if made else "-"
        for bid, made in zip(view.bids, view.has_bid, strict=True)
    )
    tricks = " ".join(
        f"[seat {trick.leader}: {format_cards(trick.cards)}]" for trick in view.tricks
    )
    return (
        f"dealer {view.dealer}; hand {format_cards(sort_cards(view.hand or ())) or '-'};"
        f" trump {view.trump_card or '-'}; bids {bids}; tricks {tricks or '-'};"
        f" trick [seat {view.leader}: {format_cards(view.trick) or '-'}];"
        f" won {list(view.tricks_won)}; totals {list(view.totals)}"
    )


pyspiel.register_game(_GAME_TYPE, OhHellGame)


class OpenSpielBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel is untyped
    """An OpenSpiel bot for ``python_ohhell`` that asks any :class:`~ohhell.bots.Bot` (for
    ``evaluate_bots`` and any Python loop over :class:`OhHellState`): it hands the bot the
    acting seat's view (never the state) and turns its action into the game's integer."""

    def __init__(
        self, bot: Bot, player_id: int, *, seed: int | None = None, budget: Budget | None = None
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.budget = checked_agent(bot, budget)
        wrong = TypeError(f"player_id must be a seat, a whole number, got {player_id!r}")
        if isinstance(player_id, bool):
            raise wrong
        try:  # an int, or numpy's; not text or a float
            seat = operator.index(player_id)
        except TypeError:
            raise wrong from None
        if seat < 0:
            raise ValueError(f"player_id must be a seat, from 0, got {player_id!r}")
        self.bot = bot
        self._player_id = seat
        self.rng = agent_rng(seed)

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        """Nothing to reset: the bot reads each decision's view afresh."""

    def step(self, state: OhHellState) -> int:
        """The bot's action for ``state``'s current player, which must be this bot's seat."""
        if not isinstance(state, OhHellState):
            raise TypeError(f"OpenSpielBot plays python_ohhell states, got {type(state).__name__}")
        if state.current_player() != self._player_id:
            raise ValueError(
                f"seat {self._player_id}'s bot asked to act for player {state.current_player()}"
            )
        view = state.view(self._player_id)
        return action_to_int(self.bot.choose(view, self.rng, self.budget))
