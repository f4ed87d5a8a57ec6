"""A bot's random generator must not tell it how the cards were dealt.

The seed that deals a tournament's cards also seeds the bots' generators (so a run repeats), and
a bot holds its generator: Mersenne Twister's seeding can be undone from its state. These tests
undo it, as a cheating bot would, and check that what comes out is a digest, not the seed.
"""

from __future__ import annotations

import hashlib
import random
from typing import ClassVar

import pytest
from tests.conftest import require

from ohhell.bots import RandomBot
from ohhell.bots.base import Budget
from ohhell.engine import Action, PlayerView, Rules
from ohhell.runner import derived_rng
from ohhell.tournament import duplicate
from ohhell.tournament.deals import generate_deal_sets

_M32 = 0xFFFFFFFF
_N = 624


def _init_genrand(seed: int) -> list[int]:
    state = [seed]
    for i in range(1, _N):
        state.append((1812433253 * (state[-1] ^ (state[-1] >> 30)) + i) & _M32)
    return state


def _mix(word: int, factor: int) -> int:
    return ((word ^ (word >> 30)) * factor) & _M32


def seed_of(rng: random.Random) -> int:
    """The integer a fresh ``random.Random`` was seeded with, found from its state by undoing
    ``init_by_array`` (CPython seeds a ``str`` with the integer of its bytes and their SHA-512)."""
    final = rng.getstate()[1][:_N]
    first = [0] * _N  # the state after init_by_array's first loop
    first[1] = ((final[1] + 1) & _M32) ^ _mix(final[_N - 1], 1566083941)
    for i in range(2, _N):
        previous = first[1] if i == 2 else final[i - 1]
        first[i] = ((final[i] + i) & _M32) ^ _mix(previous, 1566083941)
    start = _init_genrand(19650218)
    raw = {
        i - 1: (first[i] - (start[i] ^ _mix(first[i - 1], 1664525))) & _M32 for i in range(3, _N)
    }
    for length in range(1, 200):  # the key's length in 32-bit words
        key = [0] * length
        for t in range(2, 2 + length):
            key[t % length] = (raw[t] - (t % length)) & _M32
        value = sum(word << (32 * j) for j, word in enumerate(key))
        if random.Random(value).getstate() == rng.getstate():
            return value
    raise AssertionError("no key found")  # pragma: no cover - the inversion is exact


def test_the_inversion_finds_the_seed_of_a_generator() -> None:
    """The attack works: a plain seed, and text, come back out of a generator's state."""
    assert seed_of(random.Random(2**62 + 12345)) == 2**62 + 12345
    text_seed = seed_of(random.Random("tournament/2540472583083988119/3"))
    assert b"tournament/2540472583083988119/3" in text_seed.to_bytes(200, "big")


class _Recorder(RandomBot):
    """Keeps the generator it is handed, untouched, at its first decision."""

    handed: ClassVar[list[random.Random]] = []
    seen: ClassVar[list[random.Random]] = []

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Action:
        if not any(handed is rng for handed in _Recorder.handed):
            _Recorder.handed.append(rng)
            clone = random.Random()
            clone.setstate(rng.getstate())
            _Recorder.seen.append(clone)
        return super().choose(view, rng, budget)


# seeds as a run without --seed draws them (``randrange(2**63)``), fixed so that a failure
# replays: an even one, an odd one, the largest
RUN_SEEDS = [2540472583083988118, 6917529027641081857, 2**63 - 1]


@pytest.mark.parametrize("seed", RUN_SEEDS)
def test_a_tournament_bots_generator_gives_a_digest_not_the_seed(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(2,))
    deal_sets = generate_deal_sets(rules, 2, seed)
    monkeypatch.setattr(duplicate, "resolve_bot", lambda name: _Recorder())
    monkeypatch.setattr(_Recorder, "handed", [])
    monkeypatch.setattr(_Recorder, "seen", [])
    matchup = duplicate.Matchup(rules=rules, candidate="random", baseline="random", seed=seed)
    duplicate.play_deal_set(matchup, 1, deal_sets.sets[1])
    assert len(_Recorder.seen) == 3 * 3  # every seat of every rotation
    for rng in _Recorder.seen:
        key = seed_of(rng)
        assert key.bit_length() <= 256  # a SHA-256 digest
        assert str(seed).encode() not in key.to_bytes(32, "big")
        assert seed.to_bytes(8, "big") not in key.to_bytes(32, "big")
    digests = {seed_of(rng) for rng in _Recorder.seen}
    assert len(digests) == 9  # each seat and game its own
    first = hashlib.sha256(f"ohhell-tournament/{seed}/1/0/0".encode()).digest()
    assert int.from_bytes(first, "big") in digests


def test_derived_generators_repeat_and_differ() -> None:
    assert derived_rng("a", 1).getstate() == derived_rng("a", 1).getstate()
    assert derived_rng("a", 1).getstate() != derived_rng("a", 2).getstate()
    assert derived_rng("a", 12).getstate() != derived_rng("a1", 2).getstate()


@pytest.mark.parametrize("seed", [738734374930, 738734374931])
def test_an_openspiel_duplicate_candidates_generator_gives_a_digest(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """The same for the OpenSpiel duplicate (``play_duplicate_deal``), whose deals the
    benchmark draws from the seed it is given (fixed seeds, an even and an odd one, so that
    a failure replays)."""
    require("pyspiel")
    from ohhell.openspiel_bridge import play_duplicate_deal, random_openspiel_deal

    monkeypatch.setattr(_Recorder, "handed", [])
    monkeypatch.setattr(_Recorder, "seen", [])
    deal = random_openspiel_deal(3, 2, random.Random(seed), dealer=0)
    play_duplicate_deal(deal, _Recorder, simulations=8, seed=seed, ismcts_sees="view")
    assert len(_Recorder.seen) == 3  # the candidate in each rotation
    for rng in _Recorder.seen:
        key = seed_of(rng)
        assert key.bit_length() <= 256
        assert str(seed).encode() not in key.to_bytes(32, "big")
        assert seed.to_bytes(8, "big") not in key.to_bytes(32, "big")
