"""Deal sets: the seeded deals a duplicate tournament replays, as reusable JSON files.

A *deal set* is everything chance decides in one game: the first dealer and, for each hand of
the game, the order of the whole 52-card deck. Each hand is dealt from its deck as the engine
deals (:func:`ohhell.engine.deal_from_deck`: one card at a time from the dealer's left, then
the turned card when the rules turn one), so the same deal set gives the same cards to the same
seats in every game that replays it, whoever sits there.

File format (version 1), UTF-8 JSON::

    {
      "format": "ohhell-deal-sets",
      "version": 1,
      "player_count": 4,
      "hands_per_game": 13,
      "seed": 2026,
      "deal_sets": [
        {"first_dealer": 2, "decks": ["7h Qs 2c ... (52 cards)", "..."]},
        ...
      ]
    }

``player_count`` and ``hands_per_game`` say which rules the file fits (any rules with that
many seats and hands per game: deck orders do not depend on hand sizes or trump rules).
``seed`` is the seed of the run that saved the file (the one its deals were drawn from, unless
they were read from another file and given another ``--seed``), or ``null`` when unknown;
``ohhell tournament --deals FILE`` seeds its bots from it when no ``--seed`` is given, so a
saved run replays alike. Each deck is 52 distinct cards in notation (``"Ah"``, ``"Td"``,
``"2c"``) separated by single spaces, top of the deck first; ``decks`` has one deck per hand,
in the order of the hands. As records, the file is read strictly: a card has one spelling (the
``"AH"``, ``"10d"`` or ``"A♥"`` people type are refused, naming it).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ohhell.engine import (
    DECK,
    Action,
    Card,
    GameState,
    NotationError,
    OhHellError,
    Rules,
    deal_from_deck,
    format_cards,
    shuffled_deck,
)
from ohhell.engine.cards import read_written_card
from ohhell.engine.jsontext import as_json, brief, parse_json
from ohhell.engine.wording import counted
from ohhell.storage_files import read_limited, write_atomic

__all__ = [
    "FORMAT",
    "MAX_DEAL_SETS",
    "VERSION",
    "DealFileError",
    "DealSet",
    "DealSets",
    "check_seed",
    "generate_deal_sets",
    "load_deal_sets",
    "save_deal_sets",
]

FORMAT: Final = "ohhell-deal-sets"
VERSION: Final = 1
#: The most deal sets :func:`generate_deal_sets` deals (under 1 KB each in memory with 13
#: hands; 100,000 sets of ``search`` against ``heuristic`` take over a day on two cores).
MAX_DEAL_SETS: Final = 100_000
#: The largest deal file read: a deal set takes about 165 bytes a hand, so :data:`MAX_DEAL_SETS`
#: of the longest schedules (30 hands: three players up and down, the turning hand twice) fit,
#: and of custom ones up to about 60 hands; an endless input is refused. A file is read whole
#: (the JSON module reads no less), each deal set packed as soon as it is parsed: 100,000 deal
#: sets of 13 hands, 217 MB, take some 510 MB at the peak of reading (the file's bytes and its
#: text), and 110 MB once read; one is written a deal set at a time.
MAX_FILE_BYTES: Final = 1024 * 1024 * 1024
_DECK_SET: Final = frozenset(DECK)
_NAMES: Final = tuple(map(str, DECK))
"""Each card's notation, by index."""
_INDICES: Final = {name: index for index, name in enumerate(_NAMES)}
"""Each card's index, by its notation (the one spelling a deal file writes)."""


class DealFileError(OhHellError, ValueError):
    """Deal sets that cannot be read from a file, made as asked (a count or a seed out of
    range) or played under the rules."""

    code = "tournament/deal_file"


@dataclass(frozen=True, slots=True, init=False, repr=False)
class DealSet:
    """The chance of one game: the first dealer and one 52-card deck order per hand.

    Made from the decks as :class:`~ohhell.engine.Card` sequences, it keeps them packed, a
    byte per card (under 1 KB for 13 hands, where tuples of cards take 6 KB), since a
    tournament holds all its deal sets:

    >>> from ohhell.engine import DECK
    >>> deal_set = DealSet(1, [DECK, DECK[::-1]])
    >>> deal_set.hands, deal_set.deck(1)[0], deal_set.decks[0] == DECK
    (2, Card('As'), True)
    """

    first_dealer: int
    _packed: bytes
    """Every deck's cards by index (:attr:`Card.index <ohhell.engine.Card.index>`), 52 bytes
    a hand, top of the deck first."""

    def __init__(self, first_dealer: int, decks: Iterable[Sequence[Card]]) -> None:
        """Raises :class:`DealFileError` unless ``first_dealer`` is a seat (an ``int`` from 0;
        :class:`DealSets` checks it against the table) and each deck holds the 52 cards once,
        as :func:`load_deal_sets` checks a file's: a deal set built in Python is checked as
        one read, not found wrong in the middle of a tournament."""
        if type(first_dealer) is not int or first_dealer < 0:
            raise DealFileError(
                f"a deal set's first dealer must be a seat, a whole number from 0, got"
                f" {brief(first_dealer)}"
            )
        if isinstance(decks, str | bytes) or not isinstance(decks, Iterable):
            raise DealFileError(
                f"a deal set's decks must be a sequence of decks (one per hand), got {brief(decks)}"
            )
        decks = list(decks)
        if not decks:
            raise DealFileError("a deal set needs a deck for each hand, got none")
        for hand, deck in enumerate(decks):
            problem = _deck_problem(deck)
            if problem is not None:
                raise DealFileError(f"deck {hand} of a deal set {problem}")
        object.__setattr__(self, "first_dealer", first_dealer)
        object.__setattr__(self, "_packed", bytes(card.index for deck in decks for card in deck))

    @classmethod
    def _from_packed(cls, first_dealer: int, packed: bytes) -> DealSet:
        """A deal set from its decks packed (each a permutation of the 52 indices)."""
        deal_set = cls.__new__(cls)
        object.__setattr__(deal_set, "first_dealer", first_dealer)
        object.__setattr__(deal_set, "_packed", packed)
        return deal_set

    @property
    def hands(self) -> int:
        """How many hands (decks) it deals."""
        return len(self._packed) // len(DECK)

    def deck(self, hand: int) -> tuple[Card, ...]:
        """The deck of hand ``hand`` (from 0): 52 cards, top first."""
        if not 0 <= hand < self.hands:
            raise IndexError(f"hand {hand} of a deal set of {counted(self.hands, 'hand')}")
        start = hand * len(DECK)
        return tuple(DECK[index] for index in self._packed[start : start + len(DECK)])

    @property
    def decks(self) -> tuple[tuple[Card, ...], ...]:
        """One deck per hand: 52 :class:`~ohhell.engine.Card` objects, top first."""
        return tuple(self.deck(hand) for hand in range(self.hands))

    def __repr__(self) -> str:
        return f"DealSet(first_dealer={self.first_dealer}, hands={self.hands})"

    def deals(self) -> Callable[[GameState], Action]:
        """The ``deals`` callback of :func:`ohhell.runner.play_game` that replays this set's
        decks; give ``play_game`` its ``first_dealer`` too (``first_dealer=deal_set.first_dealer``),
        or the game is dealt by a dealer drawn at random, not the set's."""

        def deal(state: GameState) -> Action:
            return deal_from_deck(state, self.deck(state.hand_index))

        return deal

    def digest(self) -> str:
        """The SHA-256 (hex) of this deal set: its first dealer and its decks, as a deal file
        writes them (a tournament journal's line names the deal set it was played on)."""
        return hashlib.sha256(self._text().encode("utf-8")).hexdigest()

    def _text(self) -> str:
        """The deal set as the deal file writes it, in canonical JSON (sorted keys, no
        spaces)."""
        return _canonical(self._document())

    def _document(self) -> dict[str, Any]:
        """As the file holds it: each deck in notation (:func:`~ohhell.engine.format_cards`),
        written here from the packed indices, without the cards."""
        size = len(DECK)
        decks = [
            " ".join(map(_NAMES.__getitem__, self._packed[start : start + size]))
            for start in range(0, len(self._packed), size)
        ]
        return {"first_dealer": self.first_dealer, "decks": decks}


@dataclass(frozen=True, slots=True)
class DealSets:
    """The deal sets of a tournament, for ``player_count`` seats and ``hands_per_game``."""

    player_count: int
    hands_per_game: int
    sets: tuple[DealSet, ...]
    seed: int | None = None

    def __post_init__(self) -> None:
        """Raise :class:`DealFileError` (``TypeError`` for a value of the wrong kind) unless
        every deal set is for this table: as many decks as ``hands_per_game``, a first dealer
        among ``player_count`` seats. (A tournament found a wrong one in the middle of its run,
        with an error that did not name the deal set.)"""
        for name in ("player_count", "hands_per_game"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise DealFileError(f"{name} must be a whole number from 1, got {brief(value)}")
        if not isinstance(self.sets, tuple):
            raise TypeError(f"the deal sets must be a tuple of DealSet, got {brief(self.sets)}")
        if not self.sets:
            raise DealFileError("there must be at least one deal set")
        if len(self.sets) > MAX_DEAL_SETS:
            raise DealFileError(
                f"{len(self.sets):,} deal sets; a tournament plays at most {MAX_DEAL_SETS:,}"
            )
        if self.seed is not None:
            check_seed(self.seed)
        for number, deal_set in enumerate(self.sets):
            if not isinstance(deal_set, DealSet):
                raise TypeError(f"deal set {number} must be a DealSet, got {brief(deal_set)}")
            if deal_set.hands != self.hands_per_game:
                raise DealFileError(
                    f"deal set {number} holds {counted(deal_set.hands, 'deck')} for"
                    f" {counted(self.hands_per_game, 'hand')} per game: one deck per hand"
                )
            if deal_set.first_dealer >= self.player_count:
                raise DealFileError(
                    f"deal set {number}'s first dealer is seat {deal_set.first_dealer}, at a"
                    f" table of {self.player_count} (seats 0 to {self.player_count - 1})"
                )

    def check_fits(self, rules: Rules) -> None:
        """Raise :class:`DealFileError` unless these deals fit a game under ``rules``."""
        hands = len(rules.hand_sizes())
        if self.player_count != rules.player_count or self.hands_per_game != hands:
            raise DealFileError(
                f"the deal sets are for {self.player_count} players and"
                f" {counted(self.hands_per_game, 'hand')} per game; the rules have"
                f" {rules.player_count} players and {counted(hands, 'hand')}"
            )

    def first(self, count: int) -> DealSets:
        """The first ``count`` deal sets; more than the file holds is a :class:`DealFileError`."""
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"the number of deal sets must be a whole number, got {brief(count)}")
        if not 1 <= count <= len(self.sets):
            raise DealFileError(
                f"asked for {count} deal sets; there are {len(self.sets)} to choose from"
            )
        return DealSets(self.player_count, self.hands_per_game, self.sets[:count], self.seed)

    def digest(self, *, with_seed: bool = False) -> str:
        """The SHA-256 of these deal sets (hex), to tell whether two runs replay the same deals:
        of the deals alone, not of the seed a file carries (the same deals read from two files
        saved under two seeds are the same deals; a tournament's seed is compared on its own).
        ``with_seed`` gives the digest journals written before 2026-12-05 hold, of the file's
        document with its seed."""
        # the canonical JSON of the document (sorted keys, no spaces), hashed a deal set at a
        # time: the whole text would take some 8 KB a deal set at once
        document = self._head()
        if not with_seed:
            del document["seed"]
        before, after = _canonical({**document, "deal_sets": []}).split('"deal_sets":[]', 1)
        digest = hashlib.sha256(f'{before}"deal_sets":['.encode())
        for number, deal_set in enumerate(self.sets):
            digest.update(("," if number else "").encode() + deal_set._text().encode("utf-8"))
        digest.update(f"]{after}".encode())
        return digest.hexdigest()

    def _head(self) -> dict[str, Any]:
        """The file's document but its deal sets."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "player_count": self.player_count,
            "hands_per_game": self.hands_per_game,
            "seed": self.seed,
        }

    def to_json(self) -> dict[str, Any]:
        """The JSON document of the file format (see the module docstring)."""
        return {**self._head(), "deal_sets": [deal_set._document() for deal_set in self.sets]}


def _canonical(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def check_seed(seed: object, error: type[ValueError] = DealFileError) -> None:
    """Refuse a tournament's ``seed`` unless it is a whole number (a ``TypeError``) from 0 up
    (an ``error``): it deals the cards, and Python's generators seed alike from ``-n`` and
    ``n``, so a negative seed would replay another seed's deals under its name."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"the seed must be a whole number, got {brief(seed)}")
    try:
        str(seed)
    except ValueError:  # past the digits Python writes (4,300 unless raised)
        raise error(
            f"the seed must be a number Python can write, got {brief(seed)}: the journal and"
            " the reports write it, and it names the bots' generators"
        ) from None
    if seed < 0:
        raise error(
            f"the seed must be 0 or more, got {seed}: random.Random({seed}) deals as"
            f" random.Random({-seed})"
        )


def generate_deal_sets(rules: Rules, count: int, seed: int) -> DealSets:
    """``count`` deal sets for games under ``rules``, drawn from ``random.Random(seed)``.

    At most :data:`MAX_DEAL_SETS`: the sets are dealt and held before the first game.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {rules!r}")
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"the number of deal sets must be a whole number, got {count!r}")
    if count < 1:
        raise DealFileError(f"the number of deal sets must be at least 1, got {count}")
    check_seed(seed)
    if count > MAX_DEAL_SETS:
        raise DealFileError(
            f"the number of deal sets must be at most {MAX_DEAL_SETS:,}, got {count:,}:"
            " every set is dealt and held in memory before the first game"
        )
    rng = random.Random(seed)
    hands = len(rules.hand_sizes())
    sets = tuple(
        DealSet(
            first_dealer=rng.randrange(rules.player_count),
            decks=tuple(shuffled_deck(rng) for _ in range(hands)),
        )
        for _ in range(count)
    )
    return DealSets(rules.player_count, hands, sets, seed)


def save_deal_sets(deal_sets: DealSets, path: Path, *, replace: bool = True) -> None:
    """Write ``deal_sets`` to ``path`` (atomically) in the file format; with ``replace=False``
    a file already there is a :class:`FileExistsError`, never replaced."""
    write_atomic(Path(path), _file_chunks(deal_sets), replace=replace)


def _file_chunks(deal_sets: DealSets) -> Iterator[bytes]:
    """The file's text, ``json.dumps(deal_sets.to_json(), indent=1)`` and a newline, a deal set
    at a time: the whole text would take some 2 KB a deal set at once.

    >>> from ohhell.engine import Rules
    >>> deal_sets = generate_deal_sets(Rules(player_count=3), 2, seed=1)
    >>> text = json.dumps(deal_sets.to_json(), indent=1) + "\\n"
    >>> b"".join(_file_chunks(deal_sets)) == text.encode()
    True
    """
    before, after = json.dumps({**deal_sets._head(), "deal_sets": []}, indent=1).split(
        '"deal_sets": []', 1
    )
    yield f'{before}"deal_sets": ['.encode()
    for number, deal_set in enumerate(deal_sets.sets):
        lines = json.dumps(deal_set._document(), indent=1).split("\n")  # a level deeper: 2
        yield (("," if number else "") + "".join(f"\n  {line}" for line in lines)).encode()
    yield f"\n ]{after}\n".encode()


def load_deal_sets(path: Path) -> DealSets:
    """Read a deal-set file; anything malformed is a :class:`DealFileError` naming the file and
    the field at fault."""
    try:
        raw = read_limited(Path(path), MAX_FILE_BYTES, "deal file")
    except OSError as exc:
        raise DealFileError(f"cannot read deal file {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise DealFileError(f"deal file {path}: {exc}") from None
    data = _read_packed(raw)
    if data is None:  # read again, plainly, to say what is wrong as a plain reading says it
        try:  # bytes: a byte-order mark is read, bad bytes named
            data = parse_json(raw)
        except ValueError as exc:
            raise DealFileError(  # as records say it
                f"deal file {path}: not valid JSON ({exc}); the file may be truncated or corrupt"
            ) from None
    try:
        return _parse(data)
    except DealFileError as exc:
        raise DealFileError(f"deal file {path}: {exc}") from None


_KEYS = frozenset({"format", "version", "player_count", "hands_per_game", "seed", "deal_sets"})
_SET_KEYS = frozenset({"first_dealer", "decks"})


def _no_other_keys(data: dict[str, Any], keys: frozenset[str], where: str, what: str) -> None:
    """Refuse a key the format does not have (a misspelt ``seeds`` would be ignored)."""
    if other := sorted(set(data) - keys):
        raise DealFileError(
            f"{where} holds {', '.join(map(repr, other))}, which {what} does not have: its keys"
            f" are {', '.join(sorted(keys))}"
        )


@dataclass(frozen=True, slots=True)
class _ReadDealSet:
    """A deal set's object in a deal file, its decks checked and packed as they were read (by
    :func:`_pack_as_read`); its first dealer is checked with the rest of the file."""

    first_dealer: object
    packed: bytes


def _read_packed(raw: bytes) -> object:
    """``raw`` as JSON, each deal set's decks packed as they are read (:func:`_pack_as_read`):
    a deck's text takes some 200 bytes, and its cards' objects more, where packed it takes 52.
    100,000 deal sets of 13 hands are read in a fifth of the time and two thirds of the memory.

    ``None`` where that reading could say less than a plain one (:func:`parse_json`, which the
    caller does then): invalid JSON (whose message is the plain reading's), or an object packed
    anywhere but in the list of deal sets, where a message may quote it as the file has it.
    """
    packed = 0

    def pack(obj: dict[str, Any]) -> object:
        nonlocal packed
        read = _pack_as_read(obj)
        packed += read is not obj
        return read

    try:
        data = parse_json(raw, objects=pack)
    except ValueError:
        return None
    sets = data.get("deal_sets") if isinstance(data, dict) else None
    if packed and (
        not isinstance(sets, list)
        or sum(isinstance(deal_set, _ReadDealSet) for deal_set in sets) != packed
    ):
        return None
    return data


def _pack_as_read(obj: dict[str, Any]) -> object:
    """``obj`` packed as a :class:`_ReadDealSet` if it has a deal set's keys and its decks are
    each the 52 cards, written as this format writes them; else ``obj`` itself, for
    :func:`_parse` to say what is wrong."""
    if obj.keys() != _SET_KEYS:
        return obj
    decks = obj["decks"]
    if type(decks) is not list:
        return obj
    packed = []
    for deck in decks:
        if type(deck) is not str:
            return obj
        try:
            indices = bytes(map(_INDICES.__getitem__, deck.split(" ")))
        except KeyError:
            return obj
        if len(indices) != len(DECK) or len(set(indices)) != len(DECK):
            return obj
        packed.append(indices)
    return _ReadDealSet(obj["first_dealer"], b"".join(packed))


def _parse(data: object) -> DealSets:
    if not isinstance(data, dict):
        raise DealFileError("the top level must be a JSON object")
    if "format" not in data:
        raise DealFileError(
            f"not a deal-set file: it has no 'format' (a deal-set file's is {FORMAT!r})"
        )
    if data["format"] != FORMAT:
        raise DealFileError(
            f"not a deal-set file: its 'format' must be {FORMAT!r}, got {as_json(data['format'])}"
        )
    _no_other_keys(data, _KEYS, "the file", "a deal-set file")
    if type(data.get("version")) is not int or data.get("version") != VERSION:  # not true, 1.0
        raise DealFileError(
            f"unsupported 'version' {as_json(data.get('version'))}; this program reads version"
            f" {VERSION}"
        )
    player_count = _integer(data.get("player_count"), "'player_count'", 3, 7)
    hands_per_game = _integer(data.get("hands_per_game"), "'hands_per_game'", 1, None)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise DealFileError(f"'seed' must be a whole number from 0 up or null, got {as_json(seed)}")
    if seed is not None and seed < 0:
        raise DealFileError(
            f"'seed' must be a whole number from 0 up or null, got {seed} (a negative seed"
            " deals as its positive twin)"
        )
    raw_sets = data.get("deal_sets")
    if not isinstance(raw_sets, list) or not raw_sets:
        raise DealFileError("'deal_sets' must be a non-empty list")
    if len(raw_sets) > MAX_DEAL_SETS:
        raise DealFileError(
            f"'deal_sets' lists {len(raw_sets):,} deal sets; a tournament plays at most"
            f" {MAX_DEAL_SETS:,}"
        )
    sets = tuple(
        _parse_set(raw, f"deal_sets[{i}]", player_count, hands_per_game)
        for i, raw in enumerate(raw_sets)
    )
    return DealSets(player_count, hands_per_game, sets, seed)


def _parse_set(raw: object, where: str, player_count: int, hands: int) -> DealSet:
    if isinstance(raw, _ReadDealSet):  # its decks checked as they were read
        dealer = _integer(raw.first_dealer, f"{where}.first_dealer", 0, player_count - 1)
        _check_deck_count(len(raw.packed) // len(DECK), hands, where)
        return DealSet._from_packed(dealer, raw.packed)
    if not isinstance(raw, dict):
        raise DealFileError(f"{where} must be an object with 'first_dealer' and 'decks'")
    _no_other_keys(raw, _SET_KEYS, where, "a deal set")
    dealer = _integer(raw.get("first_dealer"), f"{where}.first_dealer", 0, player_count - 1)
    decks = raw.get("decks")
    if not isinstance(decks, list):
        raise DealFileError(f"{where}.decks must be a list of decks (one per hand)")
    _check_deck_count(len(decks), hands, where)
    return DealSet(
        dealer, tuple(_parse_deck(deck, f"{where}.decks[{h}]") for h, deck in enumerate(decks))
    )


def _check_deck_count(count: int, hands: int, where: str) -> None:
    if count != hands:
        raise DealFileError(
            f"{where}.decks holds {counted(count, 'deck')}, but 'hands_per_game' is"
            f" {as_json(hands)}: a deal set has one deck per hand"
        )


def _deck_problem(deck: object) -> str | None:
    """What keeps ``deck`` from being a deck (its 52 cards once each), to follow the deck's
    name in a message; ``None`` for a deck."""
    if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
        return f"must be a sequence of the 52 cards, got {brief(deck)}"
    cards = tuple(deck)
    strangers = [card for card in cards if not isinstance(card, Card)]
    if strangers:
        return f"must hold cards (Card.from_str('As') makes one), got {brief(strangers[0])}"
    if len(cards) == len(DECK) and frozenset(cards) == _DECK_SET:
        return None
    missing = sorted(_DECK_SET - frozenset(cards))
    twice = sorted({card for card in cards if cards.count(card) > 1})
    return (
        f"must hold each of the 52 cards once; it has {len(cards)} cards"
        + (f", {format_cards(twice)} more than once" if twice else "")
        + (f", missing {format_cards(missing)}" if missing else "")
    )


def _parse_deck(raw: object, where: str) -> tuple[Card, ...]:
    if not isinstance(raw, str):
        raise DealFileError(f"{where} must be a string of 52 cards")
    try:  # as this format writes them: one spelling each, one space between
        cards = tuple(read_written_card(text, "deal files") for text in raw.split(" "))
    except NotationError as exc:
        raise DealFileError(
            f"{where}: {exc} (a deck is its 52 cards, as in 'As Td 7c ...', one space between)"
        ) from None
    problem = _deck_problem(cards)
    if problem is not None:
        raise DealFileError(f"{where} {problem}")
    return cards


def _integer(value: object, name: str, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealFileError(f"{name} must be an integer, got {as_json(value)}")
    if value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise DealFileError(f"{name} must be {bounds}, got {as_json(value)}")
    return value
