"""Reinforcement-learning adapters: a PettingZoo environment and an OpenSpiel game.

Install the extra ``ohhell[rl]`` (PettingZoo, Gymnasium, NumPy) and ``open-spiel`` for the
OpenSpiel game. The modules are imported on demand, so importing this package needs neither:

- :mod:`ohhell.rl.encoding`: a seat's view as fixed-size arrays, actions as integers.
- :mod:`ohhell.rl.pettingzoo_env`: :class:`~ohhell.rl.pettingzoo_env.OhHellEnv`, an AEC
  environment of the full multi-hand game under any :class:`~ohhell.engine.Rules`.
- :mod:`ohhell.rl.openspiel_game`: the OpenSpiel game ``python_ohhell``, registered on import,
  and :class:`~ohhell.rl.openspiel_game.OpenSpielBot`, any :class:`~ohhell.bots.Bot` as an
  OpenSpiel bot.
- :mod:`ohhell.rl.agents`: any :class:`~ohhell.bots.Bot` as a PettingZoo policy.

``docs/rl.md`` documents the encodings, rewards and returns.
"""

from __future__ import annotations


def missing_extra(exc: ImportError, extra: str) -> ModuleNotFoundError:
    """The error for a module of this package imported without the extra that installs what
    it needs: which module is missing, and the install command."""
    return ModuleNotFoundError(
        f"{exc.name or exc} is not installed; ohhell.rl needs it: pip install 'ohhell[{extra}]'",
        name=exc.name,
    )
