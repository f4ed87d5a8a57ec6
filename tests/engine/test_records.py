"""Records: writing, reading, and the errors of illegal, truncated or corrupt records."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from ohhell.engine import RecordError, Rules, apply, legal_actions, new_game, random_deal, records


def finished_record(rules: Rules | None = None, seed: int = 3) -> dict[str, Any]:
    rules = rules or Rules(player_count=3, schedule="custom", custom_hand_sizes=(2, 3))
    rng = random.Random(seed)
    state = new_game(rules, first_dealer=1)
    while not state.is_over:
        state, _ = apply(
            state, random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        )
    return records.to_record(state, seats=["Ann", "Bo", "Cy"][: rules.player_count])


def test_unfinished_records_round_trip_at_every_step() -> None:
    rules = Rules(
        player_count=3, schedule="custom", custom_hand_sizes=(2, 1), bidding="simultaneous"
    )
    rng = random.Random(9)
    state = new_game(rules)
    while not state.is_over:
        record = records.to_record(state)
        assert records.to_record(records.replay(records.loads(records.dumps(record)))) == record
        state, _ = apply(
            state, random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        )


def test_record_never_holds_the_stock() -> None:
    record = finished_record()
    for hand in record["hands"]:
        recorded = {c for cards in hand["deal"] for c in cards} | {hand["trump"]} - {None}
        assert len(recorded) == 3 * hand["cards"] + (hand["trump"] is not None)


def corrupt(mutate: Any) -> dict[str, Any]:
    record = copy.deepcopy(finished_record())
    mutate(record)
    return record


def swap_first_two_cards_of_trick(record: dict[str, Any]) -> None:
    trick = record["hands"][1]["tricks"][0]
    trick["cards"][0], trick["cards"][1] = trick["cards"][1], trick["cards"][0]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(format="chess"), "not an Oh Hell record"),
        (  # a trick more than the hand's cards: said so, not as a wrong leader
            lambda r: r["hands"][0]["tricks"].append(r["hands"][0]["tricks"][0]),
            "hand 1: 3 tricks recorded, but the hand deals 2 cards each",
        ),
        # a key that is not there is said to be missing, not to hold null
        (lambda r: r.pop("format"), "not an Oh Hell record: it has no 'format'"),
        (lambda r: r.pop("version"), "the record has no 'version' (this program reads version 1)"),
        (lambda r: r.update(version=99), "unsupported record version 99"),
        (lambda r: r["rules"].update(player_count=9), "invalid rules: player_count must be"),
        (lambda r: r["rules"].update(jokers=True), "unknown rules option 'jokers'"),
        (lambda r: r.update(seats=["a"]), "'seats' must list 3"),
        (
            lambda r: r["hands"][0]["deal"][0].__setitem__(0, "Zz"),
            "hand 1, seat 0: in the deal: invalid card 'Zz'",
        ),
        (lambda r: r["hands"][0]["bids"].__setitem__(2, 7), "hand 1, seat 2: seat 2 bid 7"),
        (lambda r: r["hands"][0]["tricks"][0].update(winner=5), "hand 1, trick 1: 'winner' is 5"),
        (
            lambda r: r["hands"][0]["tricks"][0].update(
                leader=(r["hands"][0]["tricks"][0]["leader"] + 1) % 3
            ),
            "hand 1, trick 1: 'leader' is",
        ),
        (lambda r: r["hands"][1].update(points=[99, 0, 0]), "hand 2: 'points' is [99, 0, 0]"),
        (lambda r: r["result"].update(totals=[1, 2, 3]), "result 'totals' is [1, 2, 3]"),
        (
            lambda r: r["hands"][1].__setitem__("dealer", 0),
            "hand 2: 'dealer' is 0 but the rules give 2",
        ),
        (lambda r: r["hands"].pop(), "'result' given but the game is unfinished"),
        (lambda r: r.update(result=None), "the game is finished but 'result' is missing"),
        (lambda r: r.update(result=[1]), "'result' must be an object, got an array"),
        (  # said in the file's terms: null, not Python's None
            lambda r: r["hands"][0]["tricks"][0].update(winner=None),
            "hand 1, trick 1: 'winner' is null but the rules give ",
        ),
        (lambda r: r["hands"][0].update(tricks=None), "hand 1: 'tricks' must be a list"),
        # every key but 'meta' is always written: a missing one is refused, not defaulted
        (lambda r: r["hands"][0].pop("tricks"), "hand 1: a hand is missing key 'tricks'"),
        (
            lambda r: r["rules"].pop("must_trump"),
            "invalid rules: missing 'must_trump' (a record lists every option)",
        ),
        (lambda r: r.pop("result"), "the record is missing key 'result'"),
        (
            lambda r: r["hands"][0]["tricks"][0].pop("winner"),
            "hand 1, trick 1: a trick is missing key 'winner'",
        ),
        (lambda r: r.update(hands=r["hands"] * 2), "4 hands recorded; these rules play 2"),
        # the schema's types, spelling and keys: JSON's true and 1.0 are not 1
        (lambda r: r.update(version=True), "the record's version must be the number 1, got true"),
        (lambda r: r.update(version=1.0), "the record's version must be the number 1, got 1.0"),
        (lambda r: r.update(version="1"), 'the record\'s version must be the number 1, got "1"'),
        (lambda r: r.update(meta="x"), "'meta' must be an object"),
        (lambda r: r["seats"].__setitem__(1, "\ud800"), "'\\ud800' is not text"),
        (lambda r: r.update(comment="x"), "unknown key in the record: 'comment'"),
        (
            lambda r: r["hands"][0].update(note=1, x=2),
            "hand 1: unknown keys in a hand: 'note', 'x'",
        ),
        (
            lambda r: r["hands"][0]["tricks"][0].update(x=1),
            "hand 1, trick 1: unknown key in a trick",
        ),
        (lambda r: r["result"].update(x=1), "unknown key in the result: 'x'"),
        (lambda r: r["hands"][0].update(cards=2.0), "hand 1: 'cards' is 2.0 but the rules give 2"),
        (lambda r: r["hands"][1]["deal"][0].reverse(), "hand 2, seat 0: the dealt cards must"),
        (
            lambda r: r["hands"][0].update(
                tricks_won=[bool(t) for t in r["hands"][0]["tricks_won"]]
            ),
            "hand 1: 'tricks_won' is [",
        ),
        (
            lambda r: r["result"].update(winners=[float(w) for w in r["result"]["winners"]]),
            "result 'winners' is [",
        ),
        (
            lambda r: r["hands"][0]["deal"][0].__setitem__(0, r["hands"][0]["deal"][0][0].upper()),
            "is not written as records write it",
        ),
        (
            lambda r: r["hands"][1]["tricks"][0]["cards"].__setitem__(
                0, r["hands"][1]["tricks"][0]["cards"][0].upper()
            ),
            "hand 2, trick 1, seat",
        ),
        (
            lambda r: r.update(first_dealer=None),
            "invalid first_dealer: a seat from 0 to 2, got null",
        ),
        (
            lambda r: r.update(first_dealer=True),
            "invalid first_dealer: a seat from 0 to 2, got true",
        ),
        (lambda r: r.update(first_dealer=3), "invalid first_dealer: a seat from 0 to 2, got 3"),
        (  # a value quoted as the file writes it: null, not Python's None
            lambda r: r["hands"][0]["deal"][0].__setitem__(0, None),
            "hand 1, seat 0: in the deal: a card must be a string like 'As', got null",
        ),
        (
            lambda r: r["hands"][0]["deal"][0].__setitem__(0, "10d"),
            "card '10d' is not written as records write it: 'Td'",
        ),
    ],
)
def test_corrupt_records_name_the_problem(mutate: Any, message: str) -> None:
    with pytest.raises(RecordError) as info:
        records.replay(corrupt(mutate))
    assert message in str(info.value)


def test_an_unfinished_trick_followed_by_another_names_the_unfinished_one() -> None:
    """Cut short, the first trick of hand 2 is an unfinished trick (allowed only as the last
    thing in a record); with trick 2 after it, the error says so and names trick 1 (it
    blamed trick 2's first card for playing out of turn)."""

    def cut(record: dict[str, Any]) -> None:
        trick = record["hands"][1]["tricks"][0]
        trick["cards"].pop()
        trick["winner"] = None

    with pytest.raises(RecordError) as info:
        records.replay(corrupt(cut))
    assert str(info.value).startswith("hand 2, trick 1: trick is incomplete but later tricks")


def test_json_lines_are_said_not_to_be_a_record() -> None:
    """A tournament's journal (one JSON value per line) given where a record goes is named
    for what it is, not only as text that fails to parse; a record cut short is still said to
    be truncated."""
    for text in ('{"a": 1}\n{"b": 2}\n', b'{"a": 1}\n\n[2]\n'):
        with pytest.raises(RecordError, match="one JSON value per line"):
            records.loads(text)
    with pytest.raises(RecordError, match="may be truncated or corrupt"):
        records.loads('{"a": 1,\n"b"')


def test_a_winner_named_for_an_unfinished_trick_is_refused() -> None:
    """A record cut off in the middle of a trick may not claim who won it: that trick was
    never finished, so its ``winner`` must be null."""
    state = new_game(Rules(player_count=3, schedule="custom", custom_hand_sizes=(3,)))
    state, _ = apply(state, random_deal(state, random.Random(1)))
    while len(state.trick) < 2:
        state, _ = apply(state, legal_actions(state)[0])
    record = records.to_record(state)
    trick = record["hands"][-1]["tricks"][-1]
    assert len(trick["cards"]) == 2 and trick["winner"] is None
    assert records.replay(copy.deepcopy(record)) == state
    trick["winner"] = trick["leader"]
    with pytest.raises(RecordError) as info:
        records.replay(record)
    assert str(info.value).startswith("hand 1, trick ")
    assert "'winner' given for an unfinished trick" in str(info.value)


def test_a_record_is_written_only_as_it_can_be_read() -> None:
    """``to_record`` refuses what ``replay`` would refuse in the record it writes: seat names
    that are not text, and ``meta`` that is not a JSON object."""
    state = new_game(Rules(player_count=3))
    for seats in (["a", "b", 3], "abc", ["a", "\ud800", "c"]):
        with pytest.raises(RecordError, match=r"seat names|not text"):
            records.to_record(state, seats=seats)  # type: ignore[arg-type]
    for meta in ({"when": object()}, {"x": float("nan")}, ["a"], {"k": "\ud800"}):
        with pytest.raises(RecordError, match=r"meta|not text"):
            records.to_record(state, meta=meta)  # type: ignore[arg-type]
    assert records.replay(records.to_record(state, seats=["a", "b", "c"], meta={"x": [1]})) == (
        state
    )


def test_a_record_nested_deeper_than_the_stack_is_checked_without_recursion() -> None:
    """The text check walks the record with a stack of its own: a record built in memory
    with ``meta`` nested far deeper than Python's recursion limit is a RecordError about its
    contents (here: a lone surrogate at the bottom), not a RecursionError."""
    deep: object = "\ud800"
    for _ in range(5000):
        deep = [deep]
    record = corrupt(lambda r: r.update(meta={"deep": deep}))
    with pytest.raises(RecordError, match="is not text"):
        records.replay(record)


def test_illegal_play_names_hand_trick_seat_and_rule() -> None:
    # Find a trick in which the second seat followed suit while holding another suit, then make
    # it play off-suit: the replay must name the hand, trick, seat and the follow-suit rule.
    for seed in range(200):
        record = finished_record(seed=seed)
        for h, hand in enumerate(record["hands"]):
            n = len(record["seats"])
            for t, trick in enumerate(hand["tricks"]):
                led, second = trick["cards"][0], trick["cards"][1]
                seat = (trick["leader"] + 1) % n
                others = [
                    c
                    for c in hand["deal"][seat]
                    if c[1] != led[1] and c not in _played_before(hand, t)
                ]
                if second[1] == led[1] and others:
                    trick["cards"][1] = others[0]
                    with pytest.raises(RecordError) as info:
                        records.replay(record)
                    error = info.value
                    assert (error.hand, error.trick, error.seat) == (h + 1, t + 1, seat)
                    assert error.reason == "illegal_action/must_follow_suit"
                    assert (
                        f"hand {h + 1}, trick {t + 1}, seat {seat}: seat {seat} must follow"
                        in str(error)
                    )
                    assert "[rule: must follow suit]" in str(error)
                    return
    pytest.fail("no suitable trick found")


def _played_before(hand: dict[str, Any], trick_index: int) -> set[str]:
    return {c for trick in hand["tricks"][:trick_index] for c in trick["cards"]}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        '{"format": "ohhell-record", "version": 1, "rules": {"player_count": 3}',
        "[1, 2]",
        "\xff\xfe",
    ],
)
def test_malformed_json(text: str) -> None:
    with pytest.raises(RecordError):
        records.replay(records.loads(text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"null", "a record is a JSON object, got null$"),
        (b"[1, 2]", "a record is a JSON object, got an array$"),
        (b'"hello"', "a record is a JSON object, got a string$"),
        (b"1.5", "a record is a JSON object, got a number$"),
        (b"1e999", "the number '1e999' is too large for this program to read"),
        (b"[" + b"9" * 5000 + b"]", "a number with more than 4300 digits, longer than any"),
        (b'{"format": "ohhell-record\xff"}', "not text: byte 0xff at offset 25 is not UTF-8"),
    ],
)
def test_what_is_wrong_is_said_in_the_file_s_terms(text: bytes, message: str) -> None:
    """JSON's names (null, an array), not Python's (NoneType, list); no advice about the
    interpreter's settings; no codec's message."""
    with pytest.raises(RecordError, match=message):
        records.loads(text)


def test_truncated_file_is_reported() -> None:
    text = records.dumps(finished_record())
    with pytest.raises(RecordError, match="not valid JSON"):
        records.loads(text[: len(text) // 2])


def test_what_python_reads_but_json_is_not_is_refused() -> None:
    """A key twice in one object (Python keeps the last: a record showing one score could hold
    another) and NaN or Infinity (no JSON number) are refused, naming what is wrong."""
    text = records.dumps(finished_record())
    points = text.index('"points": [')
    twice = text[:points] + '"points": [99, 0, 0], ' + text[points:]
    with pytest.raises(RecordError, match="the key 'points' appears twice in one object"):
        records.loads(twice)
    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(RecordError, match=f"{constant} is not a JSON number"):
            records.loads(text.replace("{", f'{{"meta": {{"x": {constant}}},', 1))
    assert records.loads(text) == json.loads(text)


def test_dumps_is_valid_json_and_readable() -> None:
    record = finished_record()
    text = records.dumps(record)
    assert json.loads(text) == record
    assert '"deal": [\n' in text and '["' in text  # one seat's cards per line


def test_meta_is_written_64_levels_deep_at_most_and_read_however_deep() -> None:
    """``meta``, the only free-form part, may be written nesting 64 levels (deep values go on
    one line), and read and replayed. One level more is refused by the writer (which once took
    ``meta`` nested nearly as deep as the recursion limit, then failed with a RecursionError
    writing it); the reader still takes the deeper ones earlier builds wrote."""
    state = new_game(Rules(player_count=3))
    deepest = json.loads("[" * 63 + "]" * 63)  # in meta's object: 64 levels
    record = records.to_record(state, meta={"x": deepest})
    text = records.dumps(record)
    assert records.loads(text) == record
    assert records.replay(records.loads(text)) == state
    too_deep = "meta is nested more than 64 levels deep (objects and lists within each other)"
    with pytest.raises(RecordError, match=re.escape(too_deep)):
        records.to_record(state, meta={"x": [deepest]})
    deep = json.loads("[" * 800 + "]" * 800)  # as builds before the limit could write
    earlier = records.loads(json.dumps({**record, "meta": {"x": deep}}))
    assert records.replay(earlier) == state
    for depth in (970, 985, 5000):  # where the writer failed, and beyond: a RecordError
        nested: object = []
        for _ in range(depth):
            nested = [nested]
        with pytest.raises(RecordError, match=re.escape(too_deep)):
            records.to_record(state, meta={"x": nested})
    itself: dict[str, object] = {}
    itself["me"] = itself
    with pytest.raises(RecordError, match=re.escape(too_deep)):
        records.to_record(state, meta=itself)


def test_meta_keys_that_json_makes_one_are_refused() -> None:
    """``1`` and ``"1"`` are one key once written: refused, not silently merged."""
    state = new_game(Rules(player_count=3))
    with pytest.raises(RecordError, match="the key '1' appears twice in one object"):
        records.to_record(state, meta={1: "first", "1": "second"})


def test_a_number_too_large_for_a_float_is_refused() -> None:
    """``1e999`` is JSON, but Python reads it as infinity, which the writer cannot write back:
    refused as it is read, as NaN and Infinity are."""
    text = records.dumps(finished_record())
    with pytest.raises(RecordError, match="the number '1e999' is too large for this program"):
        records.loads(text.replace("{", '{"meta": {"seed": 1e999},', 1))


def test_long_values_are_quoted_by_their_start() -> None:
    """A message names a value; it does not dump a million characters of it."""
    record = finished_record()
    huge = "x" * 1_000_000
    for mutate in (
        lambda r: r.update({huge: 1}),  # an unknown key
        lambda r: r["hands"][0]["deal"][0].__setitem__(0, huge),  # a card
        lambda r: r["rules"].__setitem__("schedule", huge),  # a rules option
        lambda r: r.__setitem__("first_dealer", huge),
        lambda r: r["seats"].__setitem__(1, huge + "\ud800"),  # not text
    ):
        broken = copy.deepcopy(record)
        mutate(broken)
        with pytest.raises(RecordError) as info:
            records.replay(broken)
        message = str(info.value)
        assert "xxxxx... (100000" in message and len(message) < 1000, message[:300]


def test_text_that_is_not_text_is_found_where_it_is() -> None:
    state = new_game(Rules(player_count=3))
    with pytest.raises(RecordError, match=re.escape("seats[1]: '\\ud800' is not text")):
        records.to_record(state, seats=["a", "\ud800", "c"])
    with pytest.raises(RecordError, match=re.escape("meta[\"note\"][1]: '\\ud800' is not")):
        records.to_record(state, meta={"note": ["fine", "\ud800"]})
    with pytest.raises(RecordError, match=re.escape('a key of record["meta"]: \'\\ud800')):
        records.replay(corrupt(lambda r: r.update(meta={"\ud800": 1})))
