"""The JSON Schema of game records (``ohhell/schemas/record-v1.schema.json``).

Records that ``records.to_record`` writes, finished or not, under every preset and player count,
must validate; corrupt records must not; and the schema must ship inside the package.
"""

from __future__ import annotations

import copy
import functools
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import fields
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import require

from ohhell.engine import (
    PRESETS,
    BiddingMode,
    GameState,
    Phase,
    Rules,
    Schedule,
    apply,
    legal_actions,
    new_game,
    random_deal,
    records,
)

Record = dict[str, Any]


def load_schema() -> Record:
    """The schema as shipped in the package."""
    resource = files("ohhell") / "schemas" / "record-v1.schema.json"
    data: Record = json.loads(resource.read_text(encoding="utf-8"))
    return data


def validator() -> Any:
    """A Draft 2020-12 validator of the schema (skips when jsonschema is missing)."""
    require("jsonschema")
    return _validator()


@functools.cache
def _validator() -> Any:
    validator_class = importlib.import_module("jsonschema").Draft202012Validator
    schema = load_schema()
    validator_class.check_schema(schema)
    return validator_class(schema)


def snapshots(rules: Rules, seed: int) -> list[GameState]:
    """States of one random game: before the first deal, in bidding, mid-trick, between hands
    and at the end."""
    rng = random.Random(seed)
    state = new_game(rules, first_dealer=rng.randrange(rules.player_count))
    out = [state]
    while not state.is_over:
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
        first_hand = state.hand_index == 0
        if (
            (first_hand and state.phase is Phase.BID and any(b is not None for b in state.bids))
            or (first_hand and state.phase is Phase.PLAY and len(state.trick) == 1)
            or (state.hand_index == 1 and state.phase is Phase.DEAL)
        ):
            out.append(state)
    out.append(state)
    return out


def test_schema_ships_as_package_data() -> None:
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["format"]["const"] == records.FORMAT
    assert schema["properties"]["version"]["const"] == records.VERSION


def test_schema_rules_match_the_rules_class() -> None:
    rules_schema = load_schema()["$defs"]["rules"]
    names = [f.name for f in fields(Rules) if f.init]
    assert list(rules_schema["properties"]) == names
    assert rules_schema["required"] == names
    assert rules_schema["properties"]["schedule"]["enum"] == [s.value for s in Schedule]
    assert rules_schema["properties"]["bidding"]["enum"] == [b.value for b in BiddingMode]


@pytest.mark.parametrize("player_count", range(3, 8))
@pytest.mark.parametrize("preset", list(PRESETS))
def test_records_of_every_preset_validate(preset: str, player_count: int) -> None:
    check = validator()
    rules = Rules.preset(preset, player_count)
    states = snapshots(rules, seed=player_count * 31 + len(preset))
    assert states[-1].is_over
    for state in states:
        record = records.to_record(state, meta={"preset": preset, "seed": 1})
        errors = [e.message for e in check.iter_errors(record)]
        assert errors == [], (state.describe_position(), errors)


def test_records_of_custom_schedules_validate() -> None:
    check = validator()
    for n in range(3, 8):
        rules = Rules(
            player_count=n,
            schedule=Schedule.CUSTOM,
            custom_hand_sizes=(52 // n, 1),
            must_trump=True,
            trump_in_last_hand=True,
        )
        for state in snapshots(rules, seed=n):
            assert check.is_valid(records.to_record(state))


def finished() -> Record:
    """A finished 4-player game of three small hands."""
    rules = Rules(player_count=4, schedule=Schedule.CUSTOM, custom_hand_sizes=(2, 3, 1))
    return records.to_record(snapshots(rules, seed=5)[-1])


def set_in(path: tuple[str | int, ...], value: object) -> Callable[[Record], None]:
    def mutate(record: Record) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def delete(path: tuple[str | int, ...]) -> Callable[[Record], None]:
    def mutate(record: Record) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


CORRUPTIONS: dict[str, Callable[[Record], None]] = {
    "wrong format": set_in(("format",), "chess-pgn"),
    "unknown version": set_in(("version",), 2),
    "version as text": set_in(("version",), "1"),
    "unknown rules option": set_in(("rules", "hoook"), True),
    "missing rules option": delete(("rules", "hook")),
    "bad schedule": set_in(("rules", "schedule"), "sideways"),
    "too many players": set_in(("rules", "player_count"), 8),
    "hook with simultaneous bids": lambda r: r["rules"].update(hook=True, bidding="simultaneous"),
    "custom sizes without custom schedule": set_in(("rules", "schedule"), "ascending"),
    "repeat without turning schedule": set_in(("rules", "repeat_turning_hand"), True),
    "custom size too large": set_in(("rules", "custom_hand_sizes"), [14, 1, 1]),
    "seat count differs": set_in(("seats",), ["a", "b", "c"]),
    "dealer out of range": set_in(("first_dealer",), 4),
    "missing hands": delete(("hands",)),
    "extra top-level key": set_in(("comment",), "hi"),
    "ten written as 10": set_in(("hands", 0, "deal", 0, 0), "10h"),
    "upper-case suit": set_in(("hands", 0, "trump"), "AS"),
    "card as a number": set_in(("hands", 0, "tricks", 0, "cards", 0), 12),
    "negative bid": set_in(("hands", 0, "bids", 0), -1),
    "bid as text": set_in(("hands", 1, "bids", 2), "two"),
    "short bids": set_in(("hands", 0, "bids"), [0, 1, 0]),
    "trick without winner": delete(("hands", 0, "tricks", 0, "winner")),
    "winner out of range": set_in(("hands", 0, "tricks", 0, "winner"), 4),
    "five cards in a trick": lambda r: r["hands"][0]["tricks"][0]["cards"].append("2c"),
    "hand number zero": set_in(("hands", 0, "number"), 0),
    "points as text": set_in(("hands", 0, "points"), "ten"),
    "result without winners": delete(("result", "winners")),
    "meta not an object": set_in(("meta",), ["x"]),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_records_fail_validation(name: str) -> None:
    check = validator()
    record = finished()
    assert check.is_valid(record)
    broken = copy.deepcopy(record)
    CORRUPTIONS[name](broken)
    assert broken != record
    assert not check.is_valid(broken)


DOCS = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def test_documented_example_is_a_valid_record() -> None:
    text = DOCS.read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    record = records.loads(example)
    assert validator().is_valid(record)
    state = records.replay(record)
    assert state.is_over
    rewritten = records.to_record(state, seats=record["seats"], meta=record["meta"])
    assert rewritten == record
    assert records.dumps(rewritten) == example
