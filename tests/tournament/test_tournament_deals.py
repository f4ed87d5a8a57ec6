"""Deal-set files: round trip, replay of the same deals, and clear errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ohhell.engine import DECK, Rules, apply, new_game
from ohhell.tournament import (
    DealFileError,
    generate_deal_sets,
    load_deal_sets,
    save_deal_sets,
)

RULES = Rules.preset("standard", player_count=4)


def test_round_trip(tmp_path: Path) -> None:
    deal_sets = generate_deal_sets(RULES, 3, seed=42)
    path = tmp_path / "deals.json"
    save_deal_sets(deal_sets, path)
    assert load_deal_sets(path) == deal_sets
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["seed"]) == ("ohhell-deal-sets", 1, 42)
    assert len(data["deal_sets"][0]["decks"]) == len(RULES.hand_sizes()) == 13


def test_same_seed_same_deals_and_each_deck_is_whole() -> None:
    deal_sets = generate_deal_sets(RULES, 2, seed=7)
    assert deal_sets == generate_deal_sets(RULES, 2, seed=7)
    assert deal_sets != generate_deal_sets(RULES, 2, seed=8)
    for deal_set in deal_sets.sets:
        assert all(sorted(deck) == list(DECK) for deck in deal_set.decks)


def test_a_deal_set_replays_the_same_hands() -> None:
    deal_set = generate_deal_sets(RULES, 1, seed=5).sets[0]
    deal = deal_set.deals()
    state = new_game(RULES, first_dealer=deal_set.first_dealer)
    first = deal(state)
    assert deal(state) == first
    state, _ = apply(state, first)
    assert state.hands == first.hands  # type: ignore[union-attr]


def test_deals_must_fit_the_rules() -> None:
    deal_sets = generate_deal_sets(RULES, 1, seed=1)
    with pytest.raises(DealFileError, match=r"4 players and 13 hands.*5 players and 10 hands"):
        deal_sets.check_fits(Rules.preset("standard", player_count=5))
    with pytest.raises(DealFileError, match="asked for 2 deal sets; there are 1"):
        deal_sets.first(2)


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="something-else"), "'format' must be 'ohhell-deal-sets'"),
        (lambda d: d.update(version=99), "unsupported 'version' 99"),
        (lambda d: d.update(version=True), "unsupported 'version' True"),
        (lambda d: d.update(version=1.0), "unsupported 'version' 1.0"),
        (lambda d: d.update(seed=-5), r"'seed' must be a whole number from 0 up or null, got -5"),
        (lambda d: d.update(player_count=9), "'player_count' must be 3..7, got 9"),
        (lambda d: d.update(deal_sets=[]), "'deal_sets' must be a non-empty list"),
        (
            lambda d: d["deal_sets"][0].update(first_dealer=4),
            r"deal_sets\[0\].first_dealer must be 0..3, got 4",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].pop(),
            r"deal_sets\[0\].decks must be a list of 13 decks",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(2, "As Ks"),
            r"deal_sets\[0\].decks\[2\] must hold each of the 52 cards once; it has 2 cards",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(0, "Zz " * 52),
            r"deal_sets\[0\].decks\[0\]: ",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                1, d["deal_sets"][0]["decks"][1].replace("2c", "Ah")
            ),
            r"deal_sets\[0\].decks\[1\] must hold each of the 52 cards once; it has 52 cards,"
            r" Ah more than once, missing 2c",
        ),
        (lambda d: d.update(seeds=4), r"the file has no key 'seeds'; its keys are deal_sets, "),
        (
            lambda d: d.update(seed="a"),
            r"'seed' must be a whole number from 0 up or null, got 'a'$",
        ),
        (
            lambda d: d["deal_sets"][0].update(dealer=1),
            r"deal_sets\[0\] has no key 'dealer'; its keys are decks, first_dealer",
        ),
    ],
)
def test_malformed_deal_files_give_clear_errors(tmp_path: Path, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    data = generate_deal_sets(RULES, 1, seed=3).to_json()
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(DealFileError, match=f"deal file {path}: {message}"):
        load_deal_sets(path)


def test_deal_sets_are_not_drawn_from_a_negative_seed() -> None:
    """``random.Random(-5)`` deals as ``random.Random(5)``: a negative seed would replay
    another seed's deals under its name (and a journal refuses it on resuming)."""
    with pytest.raises(DealFileError, match=r"the seed must be 0 or more, got -5"):
        generate_deal_sets(RULES, 1, seed=-5)


def test_unreadable_deal_files(tmp_path: Path) -> None:
    with pytest.raises(DealFileError, match="cannot read deal file"):
        load_deal_sets(tmp_path / "missing.json")
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(DealFileError, match="is not valid JSON"):
        load_deal_sets(path)
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # too deep to parse
    with pytest.raises(DealFileError, match="is not valid JSON: nested too deep to read"):
        load_deal_sets(path)
