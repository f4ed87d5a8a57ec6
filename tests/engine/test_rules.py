"""Rules: validation, derived schedule and trump facts, presets, serialisation."""

from __future__ import annotations

import pytest

from ohhell.engine import PRESETS, BiddingMode, Rules, RulesError, Schedule


@pytest.mark.parametrize(("players", "hands"), [(3, 15), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_standard_schedule_by_player_count(players: int, hands: int) -> None:
    rules = Rules(player_count=players)
    assert rules.hand_count == hands
    assert rules.hand_sizes() == tuple(range(1, hands + 1))
    assert rules.max_hand_size == hands


def test_schedules() -> None:
    assert Rules(player_count=7, schedule=Schedule.DESCENDING).hand_sizes() == (7, 6, 5, 4, 3, 2, 1)
    assert Rules(player_count=7, schedule="up-and-down").hand_sizes() == (
        1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1,
    )  # fmt: skip
    assert Rules(player_count=7, schedule="down-and-up").hand_sizes() == (
        7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7,
    )  # fmt: skip
    twice = Rules(player_count=7, schedule="up-and-down", repeat_turning_hand=True)
    assert twice.hand_sizes() == (1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1)
    twice = Rules(player_count=7, schedule="down-and-up", repeat_turning_hand=True)
    assert twice.hand_sizes() == (7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7)
    assert Rules(player_count=3, schedule="custom", custom_hand_sizes=(2, 17)).hand_sizes() == (
        2,
        17,
    )


def test_trump_rules() -> None:
    rules = Rules(player_count=4)
    # every hand but the last (which is also the 13-card hand that empties the deck)
    assert [rules.has_trump(i) for i in range(13)] == [True] * 12 + [False]
    down = Rules(player_count=4, schedule="down-and-up")
    # 13 cards x 4 players leaves no stock; the last hand of the game never has a trump
    assert down.has_trump(0) is False
    assert down.has_trump(1) is True
    assert down.has_trump(down.hand_count - 1) is False
    descending = Rules(player_count=3, schedule="descending")
    assert descending.has_trump(0) is True  # 45 cards dealt, 7 in the stock
    assert descending.has_trump(14) is False  # last hand: one card each, but no trump
    single = Rules(
        player_count=4, schedule="custom", custom_hand_sizes=(5,), trump_in_last_hand=True
    )
    assert single.has_trump(0) is True


def test_dealer_rotates_left() -> None:
    rules = Rules(player_count=5)
    assert [rules.dealer(3, i) for i in range(6)] == [3, 4, 0, 1, 2, 3]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"player_count": 2}, "player_count"),
        ({"player_count": 8}, "player_count"),
        ({"player_count": "4"}, "player_count"),
        ({"player_count": True}, "player_count"),
        ({"player_count": 4, "schedule": "sideways"}, "schedule"),
        ({"player_count": 4, "bidding": "secret"}, "bidding"),
        ({"player_count": 4, "hook": "yes"}, "hook"),
        ({"player_count": 4, "must_trump": 1}, "must_trump"),
        ({"player_count": 4, "repeat_turning_hand": True}, "repeat_turning_hand"),
        ({"player_count": 4, "schedule": "custom"}, "custom_hand_sizes"),
        ({"player_count": 4, "schedule": "custom", "custom_hand_sizes": [14]}, "custom_hand_sizes"),
        ({"player_count": 4, "schedule": "custom", "custom_hand_sizes": [0]}, "custom_hand_sizes"),
        ({"player_count": 4, "custom_hand_sizes": [3]}, "custom_hand_sizes"),
        ({"player_count": 4, "hook": True, "bidding": "simultaneous"}, "hook"),
        ({"player_count": 4, "colour": "red"}, "colour"),
        ({"schedule": "ascending"}, "player_count"),
    ],
)
def test_invalid_rules_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(options)
    assert field in str(info.value)
    # the fields at fault, as data, for front ends: each an option of Rules
    options_of_rules = set(Rules(player_count=4).to_dict())
    assert set(info.value.fields) <= options_of_rules
    assert (field in info.value.fields) == (field in options_of_rules)


def test_error_lists_allowed_values() -> None:
    with pytest.raises(RulesError, match="ascending, descending, up-and-down, down-and-up, custom"):
        Rules(player_count=4, schedule="sideways")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="3 to 7"):
        Rules(player_count=2)


@pytest.mark.parametrize(
    ("options", "python", "json"),
    [
        ({"player_count": True}, "got True", "got true"),
        ({"player_count": 4, "hook": None}, "got None", "got null"),
        ({"player_count": 4, "must_trump": "yes"}, "got 'yes'", 'got "yes"'),
        ({"player_count": 4, "schedule": False}, "got False", "got false"),
        (
            {"player_count": 4, "schedule": "custom", "custom_hand_sizes": [1, None]},
            "got None",
            "got null",
        ),
    ],
)
def test_a_bad_value_is_shown_as_its_source_writes_it(
    options: dict[str, object], python: str, json: str
) -> None:
    """Rules built in Python show a bad value as Python writes it; rules read from a dict (a
    rules file, a record) as JSON does, and only while reading it."""
    with pytest.raises(RulesError) as built:
        Rules(**options)  # type: ignore[arg-type]
    assert str(built.value).endswith(python)
    with pytest.raises(RulesError) as read:
        Rules.from_dict(options)
    assert str(read.value).endswith(json)
    assert str(read.value).removesuffix(json) == str(built.value).removesuffix(python)
    with pytest.raises(RulesError, match=f"{python}$"):  # reading again left nothing behind
        Rules(**options)  # type: ignore[arg-type]


def test_rules_are_frozen() -> None:
    rules = Rules(player_count=4)
    with pytest.raises(AttributeError):
        rules.hook = True  # type: ignore[misc]


def test_presets_standard_first_and_valid() -> None:
    assert next(iter(PRESETS)) == "standard"
    assert Rules.preset("standard", 4) == Rules(player_count=4)
    for name in PRESETS:
        for players in range(3, 8):
            rules = Rules.preset(name, players)
            assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.preset("simultaneous", 5).bidding is BiddingMode.SIMULTANEOUS
    with pytest.raises(RulesError, match="unknown preset 'nope'; presets: standard"):
        Rules.preset("nope")


def test_to_dict_is_stable() -> None:
    assert Rules(player_count=3, hook=True).to_dict() == {
        "player_count": 3,
        "schedule": "ascending",
        "repeat_turning_hand": False,
        "custom_hand_sizes": [],
        "trump_in_last_hand": False,
        "hook": True,
        "bidding": "sequential",
        "must_trump": False,
        "missed_bid_scores_tricks": False,
        "zero_bid_bonus": False,
    }


def test_the_rules_tables_cannot_be_changed_at_run_time() -> None:
    """The hand counts by player count and the presets are read-only: a caller editing them
    would change every later game (the engine holds no state that can drift)."""
    from ohhell.engine.rules import HANDS_BY_PLAYER_COUNT

    with pytest.raises(TypeError):
        HANDS_BY_PLAYER_COUNT[4] = 20  # type: ignore[index]
    with pytest.raises(TypeError):
        PRESETS["mine"] = PRESETS["standard"]  # type: ignore[index]
    assert Rules(player_count=4).hand_sizes()[-1] == 13


@pytest.mark.parametrize("name", ["schedule", "bidding"])
def test_a_value_nested_deep_is_refused_not_a_recursion_error(name: str) -> None:
    """A rules file may hold a value nested just under what JSON is read to: it is refused
    as a bad value (before, the enum's own message wrote it out and raised RecursionError).
    The depth is swept, since where that happened depends on the stack's own depth."""
    value: list[object] = []
    for depth in range(1, 1000):
        value = [value]
        if depth >= 900:
            with pytest.raises(RulesError, match=f"{name} must be one of .*; got "):
                Rules.from_dict({"player_count": 4, name: value})
