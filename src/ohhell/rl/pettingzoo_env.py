"""A PettingZoo AEC environment of the full Oh Hell game under any :class:`~ohhell.engine.Rules`.

Agents are ``"seat_0"`` ... ``"seat_{n-1}"``. Each observation is a dict (the PettingZoo
convention for masked actions): ``"observation"``, the acting seat's
:func:`~ohhell.engine.view_for` encoded by :func:`~ohhell.rl.encoding.encode_view`, and
``"action_mask"`` over ``Discrete(52 + max_hand_size + 1)`` (cards, then bids). The environment
deals every hand itself from ``random.Random(seed)``; nothing else is random.

Simultaneous bidding runs through the ordinary AEC loop: the lowest seat still to bid is
selected, and its view shows only its own sealed bid; all bids appear once the last is in.

Rewards (``reward=``): ``"hand"`` (default) gives each seat the points it scored when a hand is
scored, so a game's return is the seat's final total; ``"final"`` gives the final total at the
end only; ``"win"`` gives ``1 / len(winners)`` to each winner at the end, 0 otherwise.

>>> env = OhHellEnv(Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 2)))
>>> env.reset(seed=7)
>>> env.agent_selection, env.observe("seat_0")["observation"].shape
('seat_2', (515,))
>>> while env.agents:
...     obs, reward, done, truncated, info = env.last()
...     mask = obs["action_mask"]
...     env.step(None if done else int(mask.nonzero()[0][0]))
"""

from __future__ import annotations

import random
from typing import Any, Final, Literal

from ohhell.rl import missing_extra

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]  # PettingZoo ships no types
except ImportError as exc:
    raise missing_extra(exc, "rl") from exc

from ohhell.engine import (
    GameState,
    HandScored,
    Phase,
    PlayerView,
    Rules,
    apply,
    check_action,
    format_cards,
    new_game,
    public_view,
    random_deal,
    view_for,
)
from ohhell.engine.wording import counted
from ohhell.rl.encoding import (
    ObservationLayout,
    action_count,
    action_mask,
    encode_view,
    int_to_action,
)
from ohhell.rl.seeding import seeded

__all__ = ["REWARD_MODES", "OhHellEnv", "env", "render_text"]

REWARD_MODES: Final[tuple[str, ...]] = ("hand", "final", "win")
"""The reward options; ``"hand"`` is the default."""

RewardMode = Literal["hand", "final", "win"]
Observation = dict[str, npt.NDArray[Any]]


class OhHellEnv(AECEnv):  # type: ignore[misc]  # AECEnv is untyped (Any)
    """The AEC environment; see the module docstring and ``docs/rl.md``."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "name": "ohhell_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        reward: RewardMode = "hand",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules if rules is not None else Rules(player_count=4)
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be an ohhell.engine.Rules, got {rules!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}; got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, human or None; got {render_mode!r}")
        self.reward_mode: RewardMode = reward
        self.render_mode = render_mode
        n = self.rules.player_count
        self.possible_agents = [f"seat_{seat}" for seat in range(n)]
        self.agents: list[str] = []
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.layout = ObservationLayout.for_rules(self.rules)
        count = action_count(self.rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.layout.size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._rng = random.Random()
        self._state: GameState = new_game(self.rules)

    # ----------------------------------------------------------------- PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._agent(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. The first dealer and every deal come from ``random.Random(seed)``;
        without a seed the generator goes on from the last game's (as Gymnasium's does), so a
        run of games is reproducible from its first seed, and the first game of an environment
        never seeded is dealt from a fresh, unseeded generator. ``seed`` is any integer from 0
        up, NumPy's included. There are no ``options``: any given are ignored (PettingZoo's
        ``api_test`` checks that they are accepted)."""
        del options
        if seed is not None:
            self._rng = seeded(seed)
        state = new_game(self.rules, first_dealer=self._rng.randrange(self.rules.player_count))
        self._state, _ = apply(state, random_deal(state, self._rng))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._selected_agent()

    def observe(self, agent: str) -> Observation:
        """``agent``'s view, encoded; its action mask is all zeros unless it is to act."""
        self._check_reset("observe")
        view = self.view(agent)
        return {"observation": encode_view(view, self.layout), "action_mask": action_mask(view)}

    def step(self, action: int | None) -> None:
        """Apply ``action`` (an integer of the action space) for :attr:`agent_selection`.

        Raises :class:`ValueError` for a number outside the action space and the engine's
        :class:`~ohhell.engine.IllegalActionError` for an illegal one (the state is unchanged).
        """
        self._check_playing("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents that are done")
        move = int_to_action(action, seat=self._seat_of[agent], rules=self.rules)
        check_action(self._state, move)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        state, events = apply(self._state, move)
        for event in events:
            if isinstance(event, HandScored) and self.reward_mode == "hand":
                for seat, points in enumerate(event.points):
                    self.rewards[self.possible_agents[seat]] = float(points)
        if state.is_over:
            self._finish(state)
        elif state.is_chance:
            state, _ = apply(state, random_deal(state, self._rng))
        self._state = state
        self.agent_selection = self._selected_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """What :attr:`agent_selection` sees now: its observation (``None`` unless
        ``observe``), reward since it last acted, whether it is done, and its info."""
        self._check_playing("last")
        return super().last(observe)  # type: ignore[no-any-return]

    def render(self) -> str | None:
        """The table as text: the public view only (scores, bids, trump, tricks), never a
        hand. ``"ansi"`` returns it; ``"human"`` prints it."""
        self._check_reset("render")
        text = render_text(public_view(self._state))
        if self.render_mode == "human":
            print(text)  # noqa: T201 - the human render mode prints
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # ----------------------------------------------------------------- extras

    def view(self, agent: str) -> PlayerView:
        """Everything ``agent`` may know now (what bots get, and what observations encode)."""
        self._check_reset("view")
        return view_for(self._state, self._seat_of[self._agent(agent)])

    def _agent(self, agent: str) -> str:
        if not isinstance(agent, str) or agent not in self._seat_of:  # a list is not hashed
            raise ValueError(f"no agent {agent!r}; agents are {', '.join(self.possible_agents)}")
        return agent

    def public_view(self) -> PlayerView:
        """What a spectator may know: no seat's cards."""
        self._check_reset("public_view")
        return public_view(self._state)

    def _check_reset(self, method: str) -> None:
        if not hasattr(self, "agent_selection"):
            raise RuntimeError(f"{method}() before reset(): call reset() to start a game")

    def _check_playing(self, method: str) -> None:
        self._check_reset(method)
        if not self.agents:
            raise RuntimeError(
                f"{method}() after the game ended: every agent is done (public_view() still"
                " shows the final totals); call reset() to start a new game"
            )

    def _selected_agent(self) -> str:
        to_act = self._state.to_act
        if not to_act:
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[min(to_act)]

    def _finish(self, state: GameState) -> None:
        if self.reward_mode == "final":
            for seat, total in enumerate(state.totals):
                self.rewards[self.possible_agents[seat]] = float(total)
        elif self.reward_mode == "win":
            for seat in state.winners:
                self.rewards[self.possible_agents[seat]] = 1.0 / len(state.winners)
        self.terminations = dict.fromkeys(self.agents, True)
        for seat, agent in enumerate(self.possible_agents):
            self.infos[agent] = {"totals": state.totals, "winner": seat in state.winners}


def render_text(view: PlayerView) -> str:
    """A few lines describing ``view``'s table (a public view shows no hand)."""
    rules = view.rules
    lines = [f"{rules.describe()}"]
    if view.phase is Phase.OVER:
        lines.append(f"game over; totals {list(view.totals)}; winners {list(view.winners)}")
        return "\n".join(lines)
    trump = view.trump_card or "none"
    lines.append(
        f"hand {view.hand_index + 1} of {rules.hand_count}"
        f" ({counted(view.hand_size, 'card')}),"
        f" dealer seat {view.dealer}, trump card {trump}, phase {view.phase.value}"
    )
    bids = [
        "?" if b is None and done else "-" if b is None else str(b)
        for b, done in zip(view.bids, view.has_bid, strict=True)
    ]
    lines.append(f"bids {' '.join(bids)}; tricks won {list(view.tricks_won)}")
    lines.append(f"current trick (led by seat {view.leader}): {format_cards(view.trick) or '-'}")
    lines.append(f"totals {list(view.totals)}; to act {sorted(view.to_act)}")
    if view.hand is not None:
        lines.append(f"seat {view.seat} holds {format_cards(view.hand)}")
    return "\n".join(lines)


def env(
    rules: Rules | None = None, *, reward: RewardMode = "hand", render_mode: str | None = None
) -> OhHellEnv:
    """The environment (PettingZoo's usual factory name). Illegal actions raise an error
    rather than end the game, so no wrapper is applied."""
    return OhHellEnv(rules, reward=reward, render_mode=render_mode)
