"""Game records: versioned, human-readable, self-contained JSON.

A record holds the rules, the seats, every deal (each seat's cards and the turned trump card),
every bid, every trick and the scores. It is described by the JSON Schema
``ohhell/schemas/record-v1.schema.json`` and documented in ``docs/records.md``. The stock is
never recorded. :func:`replay` checks a record by playing it through the engine, so an illegal,
truncated or inconsistent record raises a :class:`~ohhell.engine.errors.RecordError` naming the
hand, trick, seat and rule broken.

>>> import random
>>> from ohhell.engine import Rules, apply, legal_actions, new_game, random_deal
>>> rng = random.Random(5)
>>> state = new_game(Rules(player_count=3, schedule="custom", custom_hand_sizes=(2,)))
>>> while not state.is_over:
...     action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
...     state, _ = apply(state, action)
>>> record = to_record(state)
>>> record["format"], record["version"], len(record["hands"])
('ohhell-record', 1, 1)
>>> loads(dumps(record)) == record and to_record(replay(record)) == record
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from typing import Any, Final

from ohhell.engine.actions import Bid, Deal, Play
from ohhell.engine.cards import Card, format_cards, read_written_card, sort_cards
from ohhell.engine.errors import IllegalActionError, NotationError, RecordError, RulesError
from ohhell.engine.jsontext import as_json, brief, json_kind, parse_json
from ohhell.engine.rules import Rules
from ohhell.engine.state import GameState, Phase, Trick, new_game
from ohhell.engine.transitions import apply, require_state
from ohhell.engine.wording import counted

__all__ = ["FORMAT", "VERSION", "dumps", "loads", "replay", "to_record"]

FORMAT: Final = "ohhell-record"
VERSION: Final = 1


# --------------------------------------------------------------------------- writing


def to_record(
    state: GameState, *, seats: Sequence[str] | None = None, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The record of the game so far (finished or not), as a JSON-ready dict.

    ``seats`` names the seats (default ``"seat 0"``, ...); ``meta`` is free-form information
    (generator, seed, date) stored as is.
    """
    require_state(state, "to_record")
    n = state.player_count
    names = _seat_names(seats, n)
    meta = None if meta is None else _json_meta(meta)
    hands: list[dict[str, Any]] = []
    totals = [0] * n
    for result in state.results:
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        hands.append(
            _hand_entry(
                number=result.hand_index + 1,
                dealer=result.dealer,
                size=result.hand_size,
                dealt=result.dealt,
                trump=result.trump_card,
                bids=result.bids,
                tricks=result.tricks,
                current=(),
                won=result.tricks_won,
                points=list(result.points),
                totals=list(totals),
            )
        )
    if state.phase in (Phase.BID, Phase.PLAY):
        hands.append(
            _hand_entry(
                number=state.hand_index + 1,
                dealer=state.dealer,
                size=state.hand_size,
                dealt=state.dealt,
                trump=state.trump_card,
                bids=state.bids,
                tricks=state.tricks,
                current=state.trick,
                leader=state.leader,
                won=state.tricks_won,
                points=None,
                totals=None,
            )
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "seats": names,
        "first_dealer": state.first_dealer,
        "hands": hands,
        "result": (
            {"totals": list(state.totals), "winners": list(state.winners)}
            if state.is_over
            else None
        ),
    }
    if meta:
        record["meta"] = meta
    return record


def _seat_names(seats: Sequence[str] | None, n: int) -> list[str]:
    """The ``n`` seats' names: ``seats``, checked, or ``"seat 0"``, ... by default."""
    names = list(seats) if seats is not None else [f"seat {i}" for i in range(n)]
    if isinstance(seats, str) or len(names) != n or not all(isinstance(s, str) for s in names):
        raise RecordError(f"seats must be {n} seat names (strings), got {brief(seats)}")
    _check_text(names, "seats")
    return names


MAX_META_DEPTH: Final = 64
"""How deep :func:`to_record` lets ``meta`` nest objects and lists: far more than notes need,
and well within what :func:`dumps` and JSON readers can take (a ``meta`` nested nearly as deep
as the interpreter's recursion limit was accepted, then could not be written). Reading takes
any depth the JSON reader does, so no record written before this limit is lost."""


def _nesting(value: object) -> int:
    """How deep ``value`` nests dicts, lists and tuples (0 for a scalar), counted without
    recursion and only up to ``MAX_META_DEPTH + 1`` (so a structure that holds itself ends)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            depth += 1
            deepest = max(deepest, depth)
            if depth <= MAX_META_DEPTH:
                children = item.values() if isinstance(item, dict) else item
                stack.extend((child, depth) for child in children)
    return deepest


def _check_meta_depth(meta: object) -> None:
    if _nesting(meta) > MAX_META_DEPTH:
        raise RecordError(
            f"meta is nested more than {MAX_META_DEPTH} levels deep (objects and lists within"
            " each other), the most a record is written with"
        )


def _json_meta(meta: object) -> dict[str, Any]:
    """``meta`` as a file keeps it (keys as text, lists for tuples), not shared with the
    caller; anything JSON cannot hold, keys that JSON would make one (``1`` and ``"1"``) and a
    ``meta`` nested more than :data:`MAX_META_DEPTH` levels deep are a :class:`RecordError`."""
    if not isinstance(meta, dict):
        raise RecordError(f"meta must be an object (a dict), got {type(meta).__name__}")
    _check_meta_depth(meta)
    try:  # read back strictly: keys that became the same text are refused, not merged
        kept: dict[str, Any] = parse_json(json.dumps(meta, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"meta must be JSON (objects, lists, text, numbers): {exc}") from None
    _check_text(kept, "meta")
    return kept


def _hand_entry(
    *,
    number: int,
    dealer: int,
    size: int,
    dealt: tuple[tuple[Card, ...], ...],
    trump: Card | None,
    bids: Sequence[int | None],
    tricks: tuple[Trick, ...],
    current: tuple[Card, ...],
    won: Sequence[int],
    points: list[int] | None,
    totals: list[int] | None,
    leader: int = 0,
) -> dict[str, Any]:
    entries = [
        {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner} for t in tricks
    ]
    if current:
        entries.append({"leader": leader, "cards": [str(c) for c in current], "winner": None})
    return {
        "number": number,
        "dealer": dealer,
        "cards": size,
        "deal": [[str(c) for c in sort_cards(hand)] for hand in dealt],
        "trump": None if trump is None else str(trump),
        "bids": list(bids),
        "tricks": entries,
        "tricks_won": list(won),
        "points": points,
        "totals": totals,
    }


def dumps(record: dict[str, Any]) -> str:
    """The record as JSON text: indented, with short lists and tricks kept on one line, so it
    reads like a score sheet. What JSON cannot hold (``NaN``, a set, a key that is not text
    put into ``meta`` by hand) is a :class:`RecordError`: it would write a record that no
    reader takes back."""
    try:
        return _format(record, 0) + "\n"
    except (TypeError, ValueError) as exc:
        raise RecordError(f"cannot write the record as JSON: {exc}") from None


def _is_flat(value: object) -> bool:
    if isinstance(value, list):
        return all(not isinstance(v, (list, dict)) for v in value)
    if isinstance(value, dict):
        return all(not isinstance(v, dict) and _is_flat(v) for v in value.values())
    return True


_INDENTED_DEPTH: Final = 16
"""Below this depth (only ever reached inside ``meta``) values are written on one line: the
indenting recursion would run out of stack long before the JSON reader does."""


def _format(value: object, depth: int) -> str:
    inline = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    if depth >= _INDENTED_DEPTH or (
        _is_flat(value) and (not isinstance(value, dict) or len(inline) <= 80)
    ):
        return inline
    pad = "  " * (depth + 1)
    if isinstance(value, list):
        items = [pad + _format(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    assert isinstance(value, dict)
    items = [
        f"{pad}{json.dumps(k, ensure_ascii=False)}: {_format(v, depth + 1)}"
        for k, v in value.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"


# --------------------------------------------------------------------------- reading


def loads(text: str | bytes) -> dict[str, Any]:
    """Parse record JSON text (no replay; see :func:`replay`)."""
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(f"loads takes a record's text, str or bytes, got {type(text).__name__}")
    try:
        data = parse_json(text)
    except ValueError as exc:
        if _json_lines(text):
            raise RecordError(
                "not a record: the text holds one JSON value per line (JSON lines, as a"
                " tournament's journal is written), where a record is a single JSON object"
            ) from None
        raise RecordError(f"not valid JSON ({exc}); the file may be truncated or corrupt") from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {json_kind(data)}")
    return data


def _json_lines(text: str | bytes) -> bool:
    """Whether ``text`` is JSON lines: more than one line, its first two each a JSON value."""
    try:
        lines = (text if isinstance(text, str) else text.decode()).splitlines()
        first_two = [line for line in lines if line.strip()][:2]
        for line in first_two:
            parse_json(line)
    except ValueError:  # UnicodeDecodeError too
        return False
    return len(first_two) == 2


def _check_text(value: object, name: str) -> None:
    """Refuse strings that are not text: JSON's ``\\ud800`` escapes can spell lone UTF-16
    surrogates, which no UTF-8 output (a terminal, a file) can write. ``value`` is called
    ``name`` in the error, which says where in it the string is (``seats[1]``,
    ``meta["note"]``, a key of ``meta``)."""
    stack: list[tuple[object, str]] = [(value, name)]  # no recursion: any depth is fine
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise RecordError(
                    f"{where}: {brief(item)} is not text: it holds a lone UTF-16 surrogate escape"
                ) from None
        elif isinstance(item, dict):
            for key, child in item.items():
                stack.append((key, f"a key of {where}"))
                stack.append((child, f"{where}[{as_json(key)}]"))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(item))


def replay(record: dict[str, Any]) -> GameState:
    """Play a record through the engine and return the final state.

    Every action is checked by the rules; every stored winner, trick count, score and total is
    checked against the engine's. Raises :class:`RecordError` on the first problem.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, got {json_kind(record)}")
    _check_text(record, "record")
    if "format" not in record:
        raise RecordError(f"not an Oh Hell record: it has no 'format' (a record's is {FORMAT!r})")
    if record["format"] != FORMAT:
        raise RecordError(
            f"not an Oh Hell record: 'format' must be {FORMAT!r}, got {as_json(record['format'])}"
        )
    if "version" not in record:  # before the keys: another version has other ones
        raise RecordError(f"the record has no 'version' (this program reads version {VERSION})")
    version = record["version"]
    if type(version) is not int:
        raise RecordError(
            f"the record's version must be the number {VERSION}, got {as_json(version)}"
        )
    if version != VERSION:
        raise RecordError(
            f"unsupported record version {version}; this program reads version {VERSION}"
        )
    _check_keys(record, _RECORD_KEYS, "the record")
    options = record["rules"]
    if isinstance(options, dict) and (missing := sorted(_RULES_KEYS - set(options))):
        raise RecordError(  # not filled in with defaults: that would replay another game
            f"invalid rules: missing {', '.join(map(repr, missing))} (a record lists every option)",
            reason="rules/invalid",
        )
    try:
        rules = Rules.from_dict(options)
    except RulesError as exc:
        raise RecordError(f"invalid rules: {exc}", reason=exc.code) from None
    n = rules.player_count
    seats = record.get("seats")
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) for s in seats):
        raise RecordError(f"'seats' must list {n} seat names (strings)")
    if not isinstance(record.get("meta", {}), dict):
        raise RecordError("'meta' must be an object")
    first_dealer = record.get("first_dealer")
    if type(first_dealer) is not int or not 0 <= first_dealer < n:  # JSON's true is no seat
        raise RecordError(
            f"invalid first_dealer: a seat from 0 to {n - 1}, got {as_json(first_dealer)}"
        )
    state = new_game(rules, first_dealer=first_dealer)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("'hands' must be a list of hands")
    if len(hands) > rules.hand_count:
        raise RecordError(f"{len(hands)} hands recorded; these rules play {rules.hand_count}")
    for index, entry in enumerate(hands):
        state = _replay_hand(state, index, entry, is_last=index == len(hands) - 1)
    _check_result(state, record.get("result"))
    return state


def _replay_hand(state: GameState, index: int, entry: object, *, is_last: bool) -> GameState:
    hand = index + 1
    n = state.player_count
    if not isinstance(entry, dict):
        raise RecordError("each hand must be an object", hand=hand)
    _check_keys(entry, _HAND_KEYS, "a hand", hand=hand)
    _expect(entry, "number", hand, hand)
    _expect(entry, "dealer", state.dealer, hand)
    _expect(entry, "cards", state.hand_size, hand)
    deal = _parse_deal(entry, hand, n)
    state = _act(state, deal, hand=hand)

    bids = entry.get("bids")
    if not isinstance(bids, list) or len(bids) != n:
        raise RecordError(f"'bids' must list {n} bids by seat (null where not yet bid)", hand=hand)
    order = state.bid_order
    seen_missing = False
    for seat in order:
        bid = bids[seat]
        if bid is None:
            seen_missing = True
            continue
        if seen_missing and state.bids_revealed:
            raise RecordError(
                f"bid of seat {seat} recorded after a missing earlier bid", hand=hand, seat=seat
            )
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise RecordError(f"bid {as_json(bid)} is not a whole number", hand=hand, seat=seat)
        state = _act(state, Bid(seat, bid), hand=hand)

    tricks = entry.get("tricks")
    if not isinstance(tricks, list):
        raise RecordError("'tricks' must be a list", hand=hand)
    if state.phase is Phase.BID and tricks:
        raise RecordError("tricks recorded before every seat has bid", hand=hand)
    if len(tricks) > state.hand_size:
        raise RecordError(
            f"{counted(len(tricks), 'trick')} recorded, but the hand deals"
            f" {counted(state.hand_size, 'card')} each",
            hand=hand,
        )
    for t_index, trick in enumerate(tricks):
        if state.trick and state.phase is Phase.PLAY:  # the trick before was left unfinished
            raise RecordError(
                "trick is incomplete but later tricks follow", hand=hand, trick=t_index
            )
        state = _replay_trick(state, hand, t_index + 1, trick)
    finished = state.hand_index > index or state.is_over
    if not finished:
        if not is_last:
            raise RecordError("hand is incomplete but later hands follow", hand=hand)
        _expect(entry, "tricks_won", list(state.tricks_won), hand)
        for key in ("points", "totals"):
            if entry.get(key) is not None:
                raise RecordError(f"'{key}' recorded for an unfinished hand", hand=hand)
        return state
    result = state.results[index]
    totals = [sum(r.points[s] for r in state.results) for s in range(n)]
    _expect(entry, "tricks_won", list(result.tricks_won), hand)
    _expect(entry, "points", list(result.points), hand)
    _expect(entry, "totals", totals, hand)
    return state


def _replay_trick(state: GameState, hand: int, number: int, trick: object) -> GameState:
    n = state.player_count
    if not isinstance(trick, dict):
        raise RecordError("each trick must be an object", hand=hand, trick=number)
    _check_keys(trick, _TRICK_KEYS, "a trick", hand=hand, trick=number)
    _expect(trick, "leader", state.leader, hand, trick=number)
    cards = trick.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= n:
        raise RecordError(f"'cards' must list 1 to {n} cards", hand=hand, trick=number)
    before = len(state.results)
    for position, text in enumerate(cards):
        seat = (state.leader + position) % n
        try:
            card = _card(text)
        except NotationError as exc:
            raise RecordError(
                str(exc), hand=hand, trick=number, seat=seat, reason=exc.code
            ) from None
        tricks_before = len(state.tricks)
        state = _act(state, Play(seat, card), hand=hand, trick=number)
        completed = len(state.results) > before or len(state.tricks) > tricks_before
        if completed:  # with the last card listed: a trick has at most one card per seat
            played = (
                state.results[-1].tricks[-1] if len(state.results) > before else state.tricks[-1]
            )
            _expect(trick, "winner", played.winner, hand, trick=number)
            return state
    if trick.get("winner") is not None:
        raise RecordError("'winner' given for an unfinished trick", hand=hand, trick=number)
    return state


def _parse_deal(entry: dict[str, Any], hand: int, n: int) -> Deal:
    raw = entry.get("deal")
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(f"'deal' must list {n} hands of cards, one per seat", hand=hand)
    hands: list[tuple[Card, ...]] = []
    for seat, cards in enumerate(raw):
        if not isinstance(cards, list):
            raise RecordError("dealt cards must be a list", hand=hand, seat=seat)
        try:
            dealt = tuple(_card(c) for c in cards)
        except NotationError as exc:
            raise RecordError(
                f"in the deal: {exc}", hand=hand, seat=seat, reason=exc.code
            ) from None
        if dealt != sort_cards(dealt):
            raise RecordError(
                f"the dealt cards must be in display order ({format_cards(sort_cards(dealt))}),"
                f" got {format_cards(dealt)}",
                hand=hand,
                seat=seat,
            )
        hands.append(dealt)
    trump = entry.get("trump")
    try:
        trump_card = None if trump is None else _card(trump)
    except NotationError as exc:
        raise RecordError(f"trump card: {exc}", hand=hand, reason=exc.code) from None
    return Deal(tuple(hands), trump_card)


def _act(
    state: GameState, action: Deal | Bid | Play, *, hand: int, trick: int | None = None
) -> GameState:
    try:
        state, _ = apply(state, action)
    except IllegalActionError as exc:
        raise RecordError(
            f"{exc} [rule: {exc.code.split('/')[-1].replace('_', ' ')}]",
            hand=hand,
            trick=trick,
            seat=exc.seat,
            reason=exc.code,
        ) from None
    return state


def _expect(
    data: dict[str, Any], key: str, expected: object, hand: int, *, trick: int | None = None
) -> None:
    if key not in data:
        raise RecordError(f"missing {key!r}", hand=hand, trick=trick)
    got = data[key]
    if not _same(got, expected):
        raise RecordError(
            f"{key!r} is {as_json(got)} but the rules give {as_json(expected)}",
            hand=hand,
            trick=trick,
            reason="record/inconsistent",
        )


def _check_result(state: GameState, result: object) -> None:
    if not state.is_over:
        if result is not None:
            raise RecordError("'result' given but the game is unfinished")
        return
    if result is None:
        raise RecordError("the game is finished but 'result' is missing")
    if not isinstance(result, dict):
        raise RecordError(f"'result' must be an object, got {json_kind(result)}")
    _check_keys(result, _RESULT_KEYS, "the result")
    for key, expected in (("totals", list(state.totals)), ("winners", list(state.winners))):
        if not _same(result.get(key), expected):
            raise RecordError(
                f"result {key!r} is {as_json(result.get(key))} but the rules give"
                f" {as_json(expected)}",
                reason="record/inconsistent",
            )


_RECORD_KEYS: Final = frozenset(
    ("format", "version", "rules", "seats", "first_dealer", "hands", "result", "meta")
)
_HAND_KEYS: Final = frozenset(
    {
        "number",
        "dealer",
        "cards",
        "deal",
        "trump",
        "bids",
        "tricks",
        "tricks_won",
        "points",
        "totals",
    }
)
_TRICK_KEYS: Final = frozenset(("leader", "cards", "winner"))
_RULES_KEYS: Final = frozenset(f.name for f in fields(Rules) if f.init)
_RESULT_KEYS: Final = frozenset(("totals", "winners"))
"""The keys each object of a record may have (the schema's ``properties``)."""
_OPTIONAL_KEYS: Final = frozenset(("meta",))
"""The only one of them that may be left out; every other is required (the schema's
``required``)."""


def _check_keys(
    data: dict[str, Any],
    allowed: frozenset[str],
    what: str,
    *,
    hand: int | None = None,
    trick: int | None = None,
) -> None:
    unknown = sorted(set(data) - allowed, key=repr)  # keys put in by hand may not be text
    if unknown:
        raise RecordError(
            f"unknown {'key' if len(unknown) == 1 else 'keys'} in {what}:"
            f" {', '.join(map(brief, unknown))}",
            hand=hand,
            trick=trick,
        )
    missing = sorted(allowed - _OPTIONAL_KEYS - set(data))
    if missing:  # a writer always writes them (null where not known yet): the record is cut
        raise RecordError(
            f"{what} is missing {'key' if len(missing) == 1 else 'keys'}"
            f" {', '.join(map(repr, missing))}",
            hand=hand,
            trick=trick,
        )


def _card(text: object) -> Card:
    """A card as records write it (``"As"``, ``"Td"``): the notation people type (``"AS"``,
    ``"10d"``) is for people; a record has one spelling of each card."""
    return read_written_card(text, "records")


def _same(got: object, expected: object) -> bool:
    """``got`` is ``expected``, type for type: JSON's ``true`` and ``1.0`` are not ``1``."""
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(got) == len(expected)
            and all(_same(g, e) for g, e in zip(got, expected, strict=True))
        )
    return type(got) is type(expected) and got == expected
