"""Deal-set files: round trip, replay of the same deals, and clear errors for bad files."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import random
from pathlib import Path

import pytest

from ohhell.engine import (
    DECK,
    Deal,
    GameState,
    Rules,
    Schedule,
    apply,
    deal_from_deck,
    legal_actions,
    new_game,
    shuffled_deck,
)
from ohhell.tournament import (
    DealFileError,
    DealSet,
    DealSets,
    generate_deal_sets,
    load_deal_sets,
    save_deal_sets,
)
from ohhell.tournament import deals as deals_module

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


def test_each_hand_is_dealt_from_its_own_deck() -> None:
    rules = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2, 3))
    deal_set = generate_deal_sets(rules, 1, seed=9).sets[0]
    deal = deal_set.deals()
    state = new_game(rules, first_dealer=deal_set.first_dealer)
    dealt: list[tuple[GameState, Deal]] = []
    while not state.is_over:
        if state.is_chance:
            action = deal(state)
            assert isinstance(action, Deal)
            dealt.append((state, action))
        else:
            action = legal_actions(state)[0]
        state, _ = apply(state, action)
    assert [before.hand_index for before, _ in dealt] == [0, 1, 2]
    for hand, (before, action) in enumerate(dealt):
        assert action == deal_from_deck(before, deal_set.decks[hand])
        if hand:
            assert action != deal_from_deck(before, deal_set.decks[0])


def test_deal_sets_are_drawn_from_random_random_of_the_seed() -> None:
    rng = random.Random(21)
    expected = tuple(
        DealSet(rng.randrange(4), tuple(shuffled_deck(rng) for _ in range(13))) for _ in range(3)
    )
    assert generate_deal_sets(RULES, 3, seed=21) == DealSets(4, 13, expected, 21)


def test_deal_sets_vary_their_first_dealer_and_each_hand_has_its_own_deck() -> None:
    deal_sets = generate_deal_sets(RULES, 20, seed=4)
    assert {deal_set.first_dealer for deal_set in deal_sets.sets} == {0, 1, 2, 3}
    for deal_set in deal_sets.sets:
        assert len(set(deal_set.decks)) == len(deal_set.decks) == 13


def test_deals_must_fit_the_rules() -> None:
    deal_sets = generate_deal_sets(RULES, 1, seed=1)
    with pytest.raises(DealFileError, match=r"4 players and 13 hands.*5 players and 10 hands"):
        deal_sets.check_fits(Rules.preset("standard", player_count=5))

    def ones(players: int, hands: int) -> Rules:
        return Rules(player_count=players, schedule=Schedule.CUSTOM, custom_hand_sizes=(1,) * hands)

    deal_sets.check_fits(ones(4, 13))  # deck orders do not depend on the hand sizes
    with pytest.raises(DealFileError, match=r"4 players and 13 hands.*3 players and 13 hands"):
        deal_sets.check_fits(ones(3, 13))
    with pytest.raises(DealFileError, match=r"4 players and 13 hands.*4 players and 12 hands"):
        deal_sets.check_fits(ones(4, 12))
    with pytest.raises(DealFileError, match="asked for 2 deal sets; there are 1"):
        deal_sets.first(2)


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d.update(format="something-else"),
            "not a deal-set file: its 'format' must be 'ohhell-deal-sets'",
        ),
        (  # a tournament's report.json: named as what it is not, not listed key by key
            lambda d: (d.clear(), d.update(bots=[], failures=[], games=1)),
            r"not a deal-set file: it has no 'format' \(a deal-set file's is 'ohhell-deal-sets'\)$",
        ),
        (
            lambda d: d.update(format=None),
            "not a deal-set file: its 'format' must be 'ohhell-deal-sets', got null$",
        ),
        (lambda d: d.update(version=99), "unsupported 'version' 99"),
        (lambda d: d.update(version=True), "unsupported 'version' true;"),  # as the file has it
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
            r"deal_sets\[0\].decks holds 12 decks, but 'hands_per_game' is 13: a deal set has one"
            r" deck per hand$",
        ),
        (  # the count at fault named, and a long value quoted by its start
            lambda d: d.update(hands_per_game=int("9" * 4000)),
            r"deal_sets\[0\].decks holds 13 decks, but 'hands_per_game' is 9{200}\.\.\. \(4000"
            r" characters\): a deal set has one deck per hand$",
        ),
        (
            lambda d: d.update(player_count=10**400),
            r"'player_count' must be 3\.\.7, got 1(0){199}\.\.\. \(401 characters\)$",
        ),
        (
            lambda d: d.update(version=10**400),
            r"unsupported 'version' 1(0){199}\.\.\. \(401 characters\); this program reads",
        ),
        (  # read as this format writes a card, as records are: one spelling each
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                0, d["deal_sets"][0]["decks"][0].replace("Jd", "jd")
            ),
            r"deal_sets\[0\].decks\[0\]: card 'jd' is not written as deal files write it: 'Jd'"
            r" \(a deck is its 52 cards, as in 'As Td 7c \.\.\.', one space between\)$",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                0, d["deal_sets"][0]["decks"][0].replace("Td", "10d")
            ),
            r"deal_sets\[0\].decks\[0\]: card '10d' is not written as deal files write it: 'Td'",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                0, d["deal_sets"][0]["decks"][0].replace("Td", "T♦")
            ),
            r"deal_sets\[0\].decks\[0\]: card 'T♦' is not written as deal files write it: 'Td'",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                0, d["deal_sets"][0]["decks"][0].replace(" ", "  ", 1)
            ),
            r"deal_sets\[0\].decks\[0\]: invalid card '': expected rank",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                0, d["deal_sets"][0]["decks"][0].replace(" ", "\t", 1)
            ),
            r"deal_sets\[0\].decks\[0\]: invalid card '..\\t..': expected rank",
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
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(
                3, d["deal_sets"][0]["decks"][3] + " Ah"
            ),
            r"deal_sets\[0\].decks\[3\] must hold each of the 52 cards once; it has 53 cards,"
            r" Ah more than once$",
        ),
        (
            lambda d: d["deal_sets"][0]["decks"].__setitem__(0, 5),
            r"deal_sets\[0\].decks\[0\] must be a string of 52 cards$",
        ),
        (
            lambda d: d.update(seeds=4),
            r"the file holds 'seeds', which a deal-set file does not have: its keys are"
            r" deal_sets, ",
        ),
        (
            lambda d: d.update(seed="a"),
            r"'seed' must be a whole number from 0 up or null, got \"a\"$",
        ),
        (  # decks well formed, read packed: the rest is checked as before
            lambda d: d["deal_sets"][0].update(first_dealer="0"),
            r"deal_sets\[0\].first_dealer must be an integer, got \"0\"$",
        ),
        (
            lambda d: d["deal_sets"][0].update(dealer=1),
            r"deal_sets\[0\] holds 'dealer', which a deal set does not have: its keys are decks,"
            r" first_dealer",
        ),
    ],
)
def test_malformed_deal_files_give_clear_errors(tmp_path: Path, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    data = generate_deal_sets(RULES, 1, seed=3).to_json()
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(DealFileError, match=f"deal file {path}: {message}"):
        load_deal_sets(path)


_DEAL_SET = generate_deal_sets(RULES, 1, seed=3).to_json()["deal_sets"][0]
_FILE = generate_deal_sets(RULES, 1, seed=3).to_json()


@pytest.mark.parametrize(
    "document",
    [
        _DEAL_SET,  # a deal set alone is not a deal-set file
        {**_FILE, "seed": _DEAL_SET},  # quoted by the message as the file has it
        {**_FILE, "format": {"decks": [], "first_dealer": 0}},  # keys in the file's order
        {**_FILE, "format": {"first_dealer": _DEAL_SET, "decks": _DEAL_SET["decks"]}},
        {**_FILE, "version": ["x", True, "\u00e9" * 300, _DEAL_SET]},
        {**_FILE, "deal_sets": [{"decks": _DEAL_SET["decks"], "first_dealer": "x"}]},
        {**_FILE, "deal_sets": [{**_DEAL_SET, "first_dealer": _DEAL_SET}]},
        {**_FILE, "deal_sets": [[_DEAL_SET]]},
        {**_FILE, "deal_sets": [_DEAL_SET, {"first_dealer": 9, "decks": []}]},
        {**_FILE, "deal_sets": [_DEAL_SET, {**_DEAL_SET, "first_dealer": 9}]},
        {**_FILE, "hands_per_game": 12},
    ],
)
def test_deal_sets_packed_as_they_are_read_are_refused_as_when_read_whole(
    tmp_path: Path, document: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deal sets are packed as they are read; wherever they stand, a file is refused with the
    message it gets read whole, quoting each value as the file has it."""
    path = _write(tmp_path, document)
    with pytest.raises(DealFileError) as packed:
        load_deal_sets(path)
    monkeypatch.setattr(deals_module, "_pack_as_read", lambda obj: obj)
    with pytest.raises(DealFileError) as whole:
        load_deal_sets(path)
    assert str(packed.value) == str(whole.value)


@pytest.mark.parametrize("depth", range(980, 1000))
def test_a_deal_file_nested_deep_is_refused_as_when_read_whole(
    tmp_path: Path, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading packed takes a level of nesting or two from what JSON can be read: the file is
    read again whole where it needs them."""
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "{}" + "]" * depth, encoding="utf-8")
    with pytest.raises(DealFileError) as packed:
        load_deal_sets(path)
    monkeypatch.setattr(deals_module, "_pack_as_read", lambda obj: obj)
    monkeypatch.setattr(deals_module, "_read_packed", lambda raw: None)
    with pytest.raises(DealFileError) as whole:
        load_deal_sets(path)
    assert str(packed.value) == str(whole.value)


@pytest.mark.parametrize("players", [3, 7])
def test_deal_sets_packed_as_they_are_read_are_those_read_whole(
    tmp_path: Path, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_sets = generate_deal_sets(Rules.preset("standard", player_count=players), 5, seed=9)
    path = tmp_path / "deals.json"
    save_deal_sets(deal_sets, path)
    packed = load_deal_sets(path)
    monkeypatch.setattr(deals_module, "_pack_as_read", lambda obj: obj)
    whole = load_deal_sets(path)
    assert packed == whole == deal_sets
    assert [s.decks for s in packed.sets] == [s.decks for s in deal_sets.sets]


@pytest.mark.parametrize("where", ["format", "first_dealer"])
def test_a_value_nested_just_less_deep_than_can_be_read_is_named_not_quoted(
    tmp_path: Path, where: str
) -> None:
    """A value the reader could just read may be too deep to write back in a message (a
    ``RecursionError`` there, before): it is named instead. The depth is swept, since the
    stack's own depth where the message is made sets where that happens."""
    path = tmp_path / "deep.json"
    template = json.dumps({**_FILE, "deal_sets": [{**_DEAL_SET, "first_dealer": "X"}]})
    if where == "format":
        template = json.dumps({"format": "X"})
    for depth in range(900, 1000):
        path.write_text(template.replace('"X"', "[" * depth + "]" * depth), encoding="utf-8")
        with pytest.raises(DealFileError):
            load_deal_sets(path)


def test_an_oversized_deal_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deals.json"
    save_deal_sets(generate_deal_sets(RULES, 1, seed=3), path)
    monkeypatch.setattr(deals_module, "MAX_FILE_BYTES", path.stat().st_size - 1)
    with pytest.raises(DealFileError, match=f"deal file {path}: larger than any deal file"):
        load_deal_sets(path)


def test_a_deal_file_is_read_as_json_text_as_records_are(tmp_path: Path) -> None:
    """A byte-order mark (which some editors write) is read; a byte that is not text is named
    by its offset, in the file's terms, not the codec's."""
    deal_sets = generate_deal_sets(RULES, 1, seed=3)
    path = tmp_path / "deals.json"
    save_deal_sets(deal_sets, path)
    text = path.read_bytes()
    path.write_bytes(b"\xef\xbb\xbf" + text)
    assert load_deal_sets(path) == deal_sets
    path.write_bytes(text.replace(b'"seed"', b'"s\xffeed"', 1))
    offset = text.index(b'"seed"') + 2
    with pytest.raises(DealFileError) as info:
        load_deal_sets(path)
    assert str(info.value) == (
        f"deal file {path}: not valid JSON (not text: byte 0xff at offset {offset} is not UTF-8);"
        " the file may be truncated or corrupt"
    )


def test_a_deal_file_of_more_deal_sets_than_a_tournament_plays_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused as it is read, not after hours of play: a journal of more deal sets than
    ``MAX_DEAL_SETS`` could not be read back to resume it."""
    path = tmp_path / "deals.json"
    save_deal_sets(generate_deal_sets(RULES, 3, seed=3), path)
    monkeypatch.setattr(deals_module, "MAX_DEAL_SETS", 2)
    with pytest.raises(
        DealFileError, match=f"deal file {path}: 'deal_sets' lists 3 deal sets; a tournament"
    ):
        load_deal_sets(path)


def test_the_digest_covers_every_deal_set() -> None:
    deal_sets = generate_deal_sets(RULES, 2, seed=6)
    other = generate_deal_sets(RULES, 2, seed=16)
    mixed = DealSets(4, 13, (deal_sets.sets[0], other.sets[1]), 6)
    assert mixed.digest() != deal_sets.digest()
    assert DealSets(4, 13, deal_sets.sets, 6).digest() == deal_sets.digest()


@pytest.mark.parametrize("seed", [None, 0, 12])
def test_the_digest_is_of_the_file_s_canonical_json_hashed_a_deal_set_at_a_time(
    seed: int | None,
) -> None:
    """Journals hold the SHA-256 of the deal file's document in canonical JSON (sorted keys,
    no spaces), of the deals alone or, as older journals do, with the seed; it is hashed a deal
    set at a time, not built whole, and must stay that digest."""
    deal_sets = dataclasses.replace(generate_deal_sets(RULES, 3, seed=6), seed=seed)
    for with_seed in (False, True):
        document = deal_sets.to_json()
        if not with_seed:
            del document["seed"]
        text = json.dumps(document, sort_keys=True, separators=(",", ":"))
        expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
        assert deal_sets.digest(with_seed=with_seed) == expected
    single = deal_sets.sets[1]
    text = json.dumps(deal_sets.to_json()["deal_sets"][1], sort_keys=True, separators=(",", ":"))
    assert single.digest() == hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize(("count", "seed"), [(1, None), (3, 0), (2, 2**70)])
def test_a_deal_file_is_written_a_deal_set_at_a_time_as_json_with_an_indent_of_one(
    tmp_path: Path, count: int, seed: int | None
) -> None:
    deal_sets = dataclasses.replace(generate_deal_sets(RULES, count, seed=6), seed=seed)
    path = tmp_path / "deals.json"
    save_deal_sets(deal_sets, path)
    assert path.read_text(encoding="utf-8") == json.dumps(deal_sets.to_json(), indent=1) + "\n"
    assert load_deal_sets(path) == deal_sets


def test_a_deal_set_keeps_its_decks_packed_and_gives_them_back_as_cards() -> None:
    rng = random.Random(4)
    decks = tuple(shuffled_deck(rng) for _ in range(3))
    deal_set = DealSet(2, decks)
    assert (deal_set.first_dealer, deal_set.hands, deal_set.decks) == (2, 3, decks)
    assert deal_set.deck(2) == decks[2] and deal_set == DealSet(2, list(decks))
    assert pickle.loads(pickle.dumps(deal_set)) == deal_set  # as the workers get it
    assert repr(deal_set) == "DealSet(first_dealer=2, hands=3)"
    with pytest.raises(IndexError, match="hand 3 of a deal set of 3 hands"):
        deal_set.deck(3)
    with pytest.raises(DealFileError, match="deck 0 of a deal set must hold each of the 52 cards"):
        DealSet(0, [decks[0][:51]])


@pytest.mark.parametrize(
    ("first_dealer", "decks", "error", "message"),
    [
        (-1, [DECK], DealFileError, "first dealer must be a seat, a whole number from 0, got -1"),
        ("0", [DECK], DealFileError, "first dealer must be a seat, a whole number from 0, got '0'"),
        (True, [DECK], DealFileError, "got True"),
        (0, [], DealFileError, "a deal set needs a deck for each hand, got none"),
        (0, "As", DealFileError, "decks must be a sequence of decks"),
        (0, [DECK, [DECK[0]] * 52], DealFileError, "deck 1 of a deal set must hold each of the"),
        (0, [["As"] * 52], DealFileError, r"must hold cards \(Card.from_str\('As'\) makes one\)"),
        (0, [None], DealFileError, "deck 0 of a deal set must be a sequence of the 52 cards"),
    ],
)
def test_a_deal_set_built_in_python_is_checked_as_a_files_is(
    first_dealer: object, decks: object, error: type[Exception], message: str
) -> None:
    """A deal set made in Python was taken as given: one card 52 times, text for cards or a
    dealer of ``'x'`` failed in the middle of a tournament, with an error not naming the set."""
    with pytest.raises(error, match=message):
        DealSet(first_dealer, decks)  # type: ignore[arg-type]


def test_deal_sets_must_fit_their_table() -> None:
    fine = DealSet(3, [DECK, DECK])
    assert DealSets(4, 2, (fine,)).sets == (fine,)
    with pytest.raises(DealFileError, match="deal set 1's first dealer is seat 3, at a table of 3"):
        DealSets(3, 2, (DealSet(0, [DECK, DECK]), fine))
    with pytest.raises(DealFileError, match="deal set 0 holds 2 decks for 3 hands per game"):
        DealSets(4, 3, (fine,))
    with pytest.raises(DealFileError, match="there must be at least one deal set"):
        DealSets(4, 2, ())
    with pytest.raises(TypeError, match="deal set 0 must be a DealSet, got 'x'"):
        DealSets(4, 2, ("x",))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a tuple of DealSet"):
        DealSets(4, 2, [fine])  # type: ignore[arg-type]
    with pytest.raises(DealFileError, match="player_count must be a whole number from 1"):
        DealSets(0, 2, (fine,))
    with pytest.raises(DealFileError, match="the seed must be 0 or more"):
        DealSets(4, 2, (fine,), -3)
    with pytest.raises(TypeError, match="the number of deal sets must be a whole number"):
        DealSets(4, 2, (fine,)).first(1.5)  # type: ignore[arg-type]


def test_saving_without_replace_keeps_the_file_there(tmp_path: Path) -> None:
    path = tmp_path / "deals.json"
    save_deal_sets(generate_deal_sets(RULES, 1, seed=1), path)
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        save_deal_sets(generate_deal_sets(RULES, 1, seed=2), path, replace=False)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["deals.json"]  # no temporary left


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
    with pytest.raises(DealFileError, match=": not valid JSON \\("):
        load_deal_sets(path)
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # too deep to parse
    with pytest.raises(DealFileError, match=r": not valid JSON \(nested too deep to read\)"):
        load_deal_sets(path)
