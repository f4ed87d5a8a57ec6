"""The tournament journal: every deal set on disk as soon as it is played, so that a tournament
stopped part-way (Ctrl-C, a killed process, a machine gone down) resumes where it stopped.

``ohhell tournament`` keeps it as ``journal.jsonl`` in its ``--out`` folder; the same command
with ``--resume`` plays only the deal sets the journal does not hold, and its reports are the
ones an uninterrupted run would have written (the bots' random generators are seeded per deal
set and game, so a deal set played again plays the same; only decision times differ). With a
larger ``--deal-sets`` it extends the tournament (:func:`check_same_tournament`).

Format (version 2), JSON Lines in UTF-8. The first line is the header, every other line one
played deal set, in the order they finished::

    {"format": "ohhell-tournament-journal", "version": 2, "matchup": {...},
     "deal_sets": 100, "deals_sha256": "9f2c...",
     "build": {"ohhell": "0.1.0", "code": "1312b350e0ea00a8"}}
    {"index": 3, "deal_set_sha256": "41c7...",
     "games": [{"candidate_seat": 0, "totals": [...], "winners": [...],
     "hands": [[hand_size, dealer, bids, tricks_won, points], ...],
     "decision_microseconds": [[...], ...]}, ...], "failure": null}

(each record on one line). ``matchup`` is :meth:`~ohhell.tournament.duplicate.Matchup.to_json`,
``deal_sets`` the number of deal sets in the tournament and ``deals_sha256`` their
:meth:`~ohhell.tournament.deals.DealSets.digest`, and ``build`` the build that played it
(:func:`tournament_build`: the package's version and a digest of the code a game's result
depends on). A tournament is resumed or extended only by the build that played it
(:func:`check_build`), so that its report never mixes two builds' games; a finished one is read
back by any build, since nothing is played, and one that played nothing is any build's. A
journal written before builds were recorded (2026-12-05) has no ``build``: read back, it keeps
none (its report says ``null``); resumed, it is taken to be of the build that resumes it.

A deal set's line names the deal set it was played on (``deal_set_sha256``, its
:meth:`~ohhell.tournament.deals.DealSet.digest`: a line of another tournament, copied in, is
refused where the header alone would pass it; lines written before 2026-12-05 have none) and
holds its games, the fields of
:class:`~ohhell.tournament.duplicate.GameOutcome` (each decision's time in whole
microseconds, per seat), or, when a bot failure voided it, no games and the
:class:`~ohhell.tournament.duplicate.Failure` as an object of its fields.

Each line is written whole, flushed and fsynced before its deal set counts as played. A last
line cut short (the process killed while writing it) is dropped when the journal is read back,
and its deal set is played again; any other damage is a :class:`JournalError` naming the line.
That includes seats, dealers, bids and tricks that no game under the rules can have (a dealer
out of turn, a bid larger than the hand, bids the hook forbids) and scores that are not what the
rules give for the bids and tricks recorded (points, totals, winners, the hand sizes), and games
of a deal set that do not start from its first dealer. So a line edited by hand cannot make
a report's scores disagree with its bids and tricks, or hold bids or tricks no game could have;
it can still change them consistently (the journal is a record of the run, not a seal on it).
The decision times are measurements, which no rule checks: they are only required to be whole,
non-negative microseconds.
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import EllipsisType
from typing import IO, Any, Final

from ohhell import __version__
from ohhell.engine import OhHellError, Rules, score_hand, winners
from ohhell.engine.jsontext import as_json, json_kind, parse_json
from ohhell.engine.wording import counted
from ohhell.players import same_player
from ohhell.provenance import RESULT_SOURCES, code_fingerprint
from ohhell.storage_files import append_json_line, json_line, kind_of, write_atomic
from ohhell.tournament.deals import MAX_DEAL_SETS, DealSet, DealSets
from ohhell.tournament.duplicate import (
    DealSetOutcome,
    Failure,
    GameOutcome,
    HandRow,
    Matchup,
)
from ohhell.tournament.stats import Tally

__all__ = [
    "FILE_NAME",
    "FORMAT",
    "VERSION",
    "Journal",
    "JournalError",
    "JournalWriter",
    "OtherTournamentError",
    "check_build",
    "check_same_tournament",
    "journal_header",
    "journal_outcomes",
    "outcome_from_json",
    "outcome_to_json",
    "read_journal",
    "tournament_build",
]

FILE_NAME: Final = "journal.jsonl"
FORMAT: Final = "ohhell-tournament-journal"
VERSION: Final = 2
"""Version 1 journals were written by builds that seeded the bots' generators otherwise (their
deal sets would not play again the same), so they are refused."""
DEAL_SET_KEY: Final = "deal_set_sha256"
"""A line's key for the digest of the deal set it was played on (:meth:`DealSet.digest
<ohhell.tournament.deals.DealSet.digest>`; lines written before 2026-12-05 have none)."""
_SHA256: Final = re.compile(r"[0-9a-f]{64}")
MAX_MICROSECONDS: Final = 365 * 24 * 3600 * 10**6
"""The longest decision a journal may record (a year): a longer one was edited
in by hand, and a large enough one could not even be read as seconds."""

MAX_HEADER_BYTES: Final = 64 * 1024 * 1024
"""The longest header line read (a custom schedule of millions of hands would fit): a longer
first line, a file of zeros say, is refused, not read into memory."""
_LEAST_LINE_LIMIT: Final = 16 * 1024 * 1024


def line_limit(rules: Rules) -> int:
    """The longest deal set's line read from the journal of a tournament under ``rules``: four
    times the most its games can write (:func:`most_line_bytes`), and never under 16 MiB (a
    bot failure's message). A longer line, a run of zeros left in the file by a crash say, is
    refused, not read into memory."""
    return max(_LEAST_LINE_LIMIT, 4 * most_line_bytes(rules))


def most_line_bytes(rules: Rules) -> int:
    """The most bytes the games of a deal set's line can take under ``rules`` (one game per
    seat; each number at most 24 bytes with what follows it), its digest and keys included."""
    seats = rules.player_count
    numbers = 16 + sum(3 * seats + 3 + seats * (size + 1) for size in rules.hand_sizes())
    return 1024 + seats * (256 + 24 * numbers)


class JournalError(OhHellError, ValueError):
    """A journal that cannot be read, or that records a different tournament."""

    code = "tournament/journal"


class OtherTournamentError(JournalError):
    """A journal of another tournament: other bots, rules, budget, seed or deals
    (:func:`check_same_tournament`)."""

    code = "tournament/journal/other"


TOURNAMENT_SOURCES: Final = (*RESULT_SOURCES, "tournament/duplicate.py")
"""The code a tournament's games depend on (:func:`~ohhell.provenance.code_fingerprint`):
the engine, the bots and what plays them, with how a deal set is played and its bots seeded."""


def tournament_build() -> dict[str, str]:
    """This build, as a journal records it: the package's version and the digest of
    :data:`TOURNAMENT_SOURCES`.

    >>> sorted(tournament_build()), len(tournament_build()["code"])
    (['code', 'ohhell'], 16)
    """
    return {"ohhell": __version__, "code": code_fingerprint(TOURNAMENT_SOURCES)}


def journal_header(
    matchup: Matchup,
    deal_sets: DealSets,
    *,
    build: dict[str, str] | EllipsisType | None = ...,
) -> dict[str, Any]:
    """The header line: what is played (the matchup), on which deals, by which build
    (``build``: this one, :func:`tournament_build`, by default; ``None`` where it is not known,
    a journal read back from before builds were recorded, which then says none)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "matchup": matchup.to_json(),
        "deal_sets": len(deal_sets.sets),
        "deals_sha256": deal_sets.digest(),
    }
    build = tournament_build() if build is ... else build
    return header if build is None else {**header, "build": build}


def outcome_to_json(outcome: DealSetOutcome, deal_set: DealSet | None = None) -> dict[str, Any]:
    """One deal set's line (see the module docstring), naming the ``deal_set`` it was played on
    by its digest where given."""
    failure = outcome.failure
    named = {} if deal_set is None else {DEAL_SET_KEY: deal_set.digest()}
    return {
        "index": outcome.index,
        **named,
        "games": [
            {
                "candidate_seat": game.candidate_seat,
                "totals": game.totals,
                "winners": game.winners,
                "hands": [
                    [row.hand_size, row.dealer, row.bids, row.tricks_won, row.points]
                    for row in game.hands
                ],
                "decision_microseconds": [
                    [round(seconds * 1e6) for seconds in seat] for seat in game.decision_seconds
                ],
            }
            for game in outcome.games
        ],
        "failure": None
        if failure is None
        else {
            "candidate_seat": failure.candidate_seat,
            "seat": failure.seat,
            "bot": failure.bot,
            "message": failure.message,
        },
    }


class _Bad(Exception):
    """Raised inside :func:`outcome_from_json`; becomes a :class:`JournalError` with the line."""


def _field(data: object, key: str) -> Any:
    if not isinstance(data, dict):
        raise _Bad(f"expected an object, got {json_kind(data)}")
    if key not in data:
        raise _Bad(f"missing {key!r}")
    return data[key]


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Bad(f"{what} must be a whole number, got {as_json(value)}")
    return value


def _ints(value: object, what: str, length: int | None = None) -> tuple[int, ...]:
    """A list of integers (negative allowed: points can be), of ``length`` when given."""
    if (
        not isinstance(value, list)
        or (length is not None and len(value) != length)
        or not all(type(item) is int for item in value)  # a bool is no whole number here
    ):
        count = "" if length is None else f" {length}"
        raise _Bad(f"{what} must be a list of{count} whole numbers, got {as_json(value)}")
    return tuple(value)


def _game(data: object, deal_set: int, rules: Rules) -> GameOutcome:
    players = rules.player_count
    candidate_seat = _int(_field(data, "candidate_seat"), "candidate_seat")
    hands = _field(data, "hands")
    if not isinstance(hands, list):
        raise _Bad(f"hands must be a list, got {as_json(hands)}")
    if candidate_seat >= players:
        raise _Bad(f"candidate_seat must be a seat from 0 to {players - 1}, got {candidate_seat}")
    rows = []
    for row in hands:
        if not isinstance(row, list) or len(row) != 5:
            raise _Bad(
                f"a hand must be [hand_size, dealer, bids, tricks_won, points], got {as_json(row)}"
            )
        rows.append(
            HandRow(
                _int(row[0], "hand_size"),
                _int(row[1], "dealer"),
                _ints(row[2], "bids", players),
                _ints(row[3], "tricks_won", players),
                _ints(row[4], "points", players),
            )
        )
    micros = _field(data, "decision_microseconds")
    if not isinstance(micros, list) or len(micros) != players:
        raise _Bad(f"decision_microseconds must have one list per seat, got {as_json(micros)}")
    counts = [_ints(per_seat, "decision_microseconds") for per_seat in micros]
    wrong = [us for per_seat in counts for us in per_seat if not 0 <= us <= MAX_MICROSECONDS]
    if wrong:
        raise _Bad(
            f"decision_microseconds must be from 0 to {MAX_MICROSECONDS:,} (a year), got"
            f" {wrong[0]:,}"
        )
    timings = tuple(tuple(us / 1e6 for us in per_seat) for per_seat in counts)
    game = GameOutcome(
        deal_set=deal_set,
        candidate_seat=candidate_seat,
        totals=_ints(_field(data, "totals"), "totals", players),
        winners=_ints(_field(data, "winners"), "winners"),
        hands=tuple(rows),
        decision_seconds=timings,
    )
    _check_scores(game, rules)
    return game


def _check_scores(game: GameOutcome, rules: Rules) -> None:
    """A game's rows, totals and winners must be what the rules give for its bids and tricks:
    a line edited by hand cannot make them disagree."""
    where = f"the game with the candidate in seat {game.candidate_seat}"
    sizes = rules.hand_sizes()
    if [row.hand_size for row in game.hands] != list(sizes):
        raise _Bad(
            f"{where} has hands of {[row.hand_size for row in game.hands]} cards;"
            f" the rules deal {list(sizes)}"
        )
    players = rules.player_count
    for number, row in enumerate(game.hands, start=1):
        if row.dealer >= players:
            raise _Bad(
                f"{where}, hand {number}: dealer {row.dealer}, but the seats are 0 to {players - 1}"
            )
        dealer = (game.hands[0].dealer + number - 1) % players
        if row.dealer != dealer:
            raise _Bad(
                f"{where}, hand {number}: dealer {row.dealer}; the deal passes to the left,"
                f" one seat a hand, among {players} seats, so it must be {dealer}"
            )
        for what, values in (("bids", row.bids), ("tricks won", row.tricks_won)):
            if not all(0 <= value <= row.hand_size for value in values):
                raise _Bad(
                    f"{where}, hand {number}: {what} {list(values)}, but each must be from 0"
                    f" to the hand's {row.hand_size} cards"
                )
        if rules.hook and sum(row.bids) == row.hand_size:
            raise _Bad(
                f"{where}, hand {number}: bids {list(row.bids)} total the {row.hand_size}"
                " tricks, which the hook forbids"
            )
        if sum(row.tricks_won) != row.hand_size:
            raise _Bad(
                f"{where}, hand {number}: {sum(row.tricks_won)} tricks won of {row.hand_size}"
            )
        points = tuple(
            score_hand(rules, bid=bid, won=won, hand_size=row.hand_size)
            for bid, won in zip(row.bids, row.tricks_won, strict=True)
        )
        if row.points != points:
            raise _Bad(
                f"{where}, hand {number}: points {list(row.points)}, but the rules give"
                f" {list(points)}"
            )
    totals = tuple(
        sum(row.points[seat] for row in game.hands) for seat in range(rules.player_count)
    )
    if game.totals != totals:
        raise _Bad(f"{where}: totals {list(game.totals)}, but its hands add up to {list(totals)}")
    if game.winners != winners(totals):
        raise _Bad(
            f"{where}: winners {list(game.winners)}, but the totals give {list(winners(totals))}"
        )


def outcome_from_json(data: object, rules: Rules) -> DealSetOutcome:
    """A deal set's line read back, for a tournament under ``rules``; raises
    :class:`JournalError` when it is not one, or when its scores are not what the rules give."""
    players = rules.player_count
    try:
        index = _int(_field(data, "index"), "index")
        games = _field(data, "games")
        if not isinstance(games, list):
            raise _Bad(f"games must be a list, got {as_json(games)}")
        raw_failure = _field(data, "failure")
        failure = None
        if raw_failure is not None:
            message, bot = _field(raw_failure, "message"), _field(raw_failure, "bot")
            if not isinstance(message, str) or not isinstance(bot, str):
                raise _Bad("a failure's bot and message must be text")
            failure = Failure(
                index,
                _int(_field(raw_failure, "candidate_seat"), "candidate_seat"),
                _int(_field(raw_failure, "seat"), "seat"),
                bot,
                message,
            )
            if max(failure.candidate_seat, failure.seat) >= players:
                raise _Bad(
                    f"a failure's seats must be from 0 to {players - 1}, got candidate_seat"
                    f" {failure.candidate_seat} and seat {failure.seat}"
                )
        outcome = DealSetOutcome(index, tuple(_game(game, index, rules) for game in games), failure)
    except _Bad as exc:
        raise JournalError(str(exc)) from None
    expected = 0 if failure is not None else players
    first_dealers = sorted({game.hands[0].dealer for game in outcome.games if game.hands})
    if len(first_dealers) > 1:
        raise JournalError(
            f"deal set {index}: its games start with dealers {first_dealers}, but every game of"
            " a deal set replays the same deals from the same first dealer"
        )
    if sorted(game.candidate_seat for game in outcome.games) != list(range(expected)):
        raise JournalError(
            f"deal set {index} must have one game per candidate seat 0..{players - 1}"
            if failure is None
            else f"deal set {index} was voided by a failure, so it must have no games"
        )
    return outcome


@dataclass(frozen=True, slots=True)
class Journal:
    """A journal read back: its header and the statistics of the deal sets it holds (its
    games are not kept: see :func:`journal_outcomes` for them), whether its last line was torn
    and how many bytes its whole lines take, and per deal set the digest its line names (none
    for lines that name none) and the first dealer of its games (none where it was voided)."""

    path: Path
    header: dict[str, Any]
    tally: Tally
    """The deal sets it holds, gathered for the report (:class:`~ohhell.tournament.stats.Tally`):
    a run that plays on adds its own deal sets to it."""
    torn: bool
    size: int
    """The bytes of its whole lines, which a run that plays on keeps (:class:`JournalWriter`)."""
    deal_set_digests: Mapping[int, str] = field(default_factory=dict)
    first_dealers: Mapping[int, int] = field(default_factory=dict)

    @property
    def seed(self) -> int:
        seed: int = self.header["matchup"]["seed"]
        return seed

    @property
    def deal_sets(self) -> int:
        count: int = self.header["deal_sets"]
        return count

    @property
    def build(self) -> dict[str, str] | None:
        """The build that played it (:func:`tournament_build`), or ``None`` where the journal
        does not say (written before builds were recorded)."""
        build: dict[str, str] | None = self.header.get("build")
        return build

    @property
    def played(self) -> int:
        """The deal sets it holds, voided ones included."""
        return len(self.tally)

    @property
    def finished(self) -> bool:
        """Whether every deal set of the tournament the journal was written for is in it."""
        return self.played >= self.deal_sets


def _check_header(header: object) -> tuple[dict[str, Any], Rules]:
    """The header line checked, and the tournament's rules read from it."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _Bad(f"not a tournament journal (its first line has no 'format': {FORMAT!r})")
    if type(header.get("version")) is not int or header.get("version") != VERSION:
        earlier = type(header.get("version")) is int and 1 <= header["version"] < VERSION
        raise _Bad(
            f"unsupported 'version' {as_json(header.get('version'))}; this program reads version"
            f" {VERSION}"
            + (
                " (an earlier ohhell wrote it, whose bots play its deal sets otherwise: start the"
                " tournament again in another --out folder)"
                if earlier
                else ""
            )
        )
    matchup = _field(header, "matchup")
    _int(_field(matchup, "seed"), "the matchup's seed")
    try:
        rules = Rules.from_dict(_field(matchup, "rules"))
    except OhHellError as exc:
        raise _Bad(f"the matchup's rules are not valid: {exc}") from None
    if not 1 <= _int(_field(header, "deal_sets"), "deal_sets") <= MAX_DEAL_SETS:
        raise _Bad(
            f"deal_sets must be from 1 to {MAX_DEAL_SETS:,}, the most a tournament can have,"
            f" got {header['deal_sets']:,}"
        )
    if not isinstance(_field(header, "deals_sha256"), str):
        raise _Bad("deals_sha256 must be text")
    build = header.get("build")
    if build is not None and not (
        isinstance(build, dict)
        and build.keys() == {"ohhell", "code"}
        and all(isinstance(value, str) for value in build.values())
    ):
        raise _Bad(f'build must be {{"ohhell": version, "code": digest}}, got {as_json(build)}')
    return header, rules


class _Reading:
    """One pass over a journal, a line at a time: its header checked (:attr:`header`), then
    :meth:`outcomes` reads each deal set's line back and checks it. Each error is a
    :class:`JournalError` naming the file and line; a missing or unreadable file raises
    :class:`OSError`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.torn = False
        self.size = 0
        if self.path.exists() and not self.path.is_file():  # a pipe would wait for a writer
            raise JournalError(f"journal {self.path} is {kind_of(self.path)}, not a file")
        self._handle = self.path.open("rb")
        try:
            first = self._handle.readline(MAX_HEADER_BYTES + 1)
            if len(first) > MAX_HEADER_BYTES:
                raise JournalError(
                    f"journal {self.path}, line 1: longer than any journal's header (over"
                    f" {MAX_HEADER_BYTES:,} bytes)"
                )
            if not first.endswith(b"\n"):
                raise JournalError(
                    f"journal {self.path} is empty: its header line was never written"
                    if not first
                    else f"journal {self.path} has no whole line: its header line is cut short"
                    f" ({counted(len(first), 'byte')} and no line end)"
                )
            where = f"journal {self.path}, line 1"
            try:
                data = parse_json(first[:-1])  # bytes: a byte not text is named by offset
            except ValueError as exc:
                raise JournalError(f"{where}: not JSON ({exc})") from None
            try:
                self.header, self._rules = _check_header(data)
            except _Bad as exc:
                raise JournalError(f"{where}: {exc}") from None
        except BaseException:
            self._handle.close()
            raise
        self.size = len(first)

    def outcomes(self) -> Iterator[tuple[DealSetOutcome, dict[str, Any]]]:
        """Each deal set's line, read back as an outcome, with its JSON; a last line cut short
        (the process killed while writing it) ends them and sets :attr:`torn`."""
        seen: set[int] = set()
        limit = line_limit(self._rules)
        with self._handle as handle:
            lines = iter(lambda: handle.readline(limit + 1), b"")
            for number, line in enumerate(lines, start=2):
                where = f"journal {self.path}, line {number}"
                kept = (
                    f" (the {number - 1} lines before it are whole: the file cut before this"
                    f" line keeps their {counted(number - 2, 'deal set')} for --resume)"
                    if number > 2
                    else ""
                )
                if len(line) > limit:
                    raise JournalError(
                        f"{where}: longer than any line of this tournament (over {limit:,}"
                        f" bytes){kept}"
                    )
                if not line.endswith(b"\n"):
                    self.torn = True
                    return
                try:
                    data = parse_json(line[:-1])  # bytes: a byte not text is named by offset
                except ValueError as exc:
                    raise JournalError(f"{where}: not JSON ({exc}){kept}") from None
                try:
                    outcome = outcome_from_json(data, self._rules)
                except JournalError as exc:
                    raise JournalError(f"{where}: {exc}{kept}") from None
                if outcome.index in seen:
                    raise JournalError(f"{where}: deal set {outcome.index} is there twice{kept}")
                if outcome.index >= self.header["deal_sets"]:
                    raise JournalError(
                        f"{where}: deal set {outcome.index}, but the tournament has"
                        f" {self.header['deal_sets']}{kept}"
                    )
                digest = data.get(DEAL_SET_KEY)
                if DEAL_SET_KEY in data and (
                    not isinstance(digest, str) or not _SHA256.fullmatch(digest)
                ):
                    raise JournalError(
                        f"{where}: {DEAL_SET_KEY} must be a SHA-256 in hex, got"
                        f" {as_json(digest)}{kept}"
                    )
                seen.add(outcome.index)
                self.size += len(line)
                yield outcome, data


def read_journal(path: Path) -> Journal:
    """Read a journal (see the module docstring), a line at a time, into the statistics of
    its deal sets (:class:`Journal`). A missing or unreadable file raises :class:`OSError`; a
    damaged one :class:`JournalError` naming the file and line."""
    reading = _Reading(path)
    tally = Tally()
    digests: dict[int, str] = {}
    first_dealers: dict[int, int] = {}
    for outcome, data in reading.outcomes():
        tally.add(outcome)
        if DEAL_SET_KEY in data:
            digests[outcome.index] = data[DEAL_SET_KEY]
        if outcome.games and outcome.games[0].hands:
            first_dealers[outcome.index] = outcome.games[0].hands[0].dealer
    return Journal(
        reading.path, reading.header, tally, reading.torn, reading.size, digests, first_dealers
    )


def journal_outcomes(path: Path) -> Iterator[DealSetOutcome]:
    """The deal sets of a journal with their games, read back one line at a time and checked
    as :func:`read_journal` checks them, in the order they were played (a last line cut short
    is left out)."""
    for outcome, _ in _Reading(path).outcomes():
        yield outcome


def _same_deals(digest: str, deal_sets: DealSets) -> bool:
    """Whether ``digest`` is that of ``deal_sets``: of the deals alone or, as journals written
    before 2026-12-05 hold it, with the seed (reckoned only then: a long hash)."""
    return digest == deal_sets.digest() or digest == deal_sets.digest(with_seed=True)


def check_same_tournament(journal: Journal, matchup: Matchup, deal_sets: DealSets) -> None:
    """Raise :class:`JournalError` unless ``journal`` records the tournament of ``matchup`` on
    ``deal_sets``, naming every difference.

    More deal sets than the journal's are allowed when its deal sets are the first of them (as
    with a larger ``--deal-sets`` from the same seed, or from the same deal file): the
    tournament is extended, to narrow its confidence intervals."""
    recorded = journal.header
    differences: list[str] = []
    for key, value in matchup.to_json().items():
        there = recorded["matchup"].get(key)
        if there == value or (
            key in ("candidate", "baseline")
            and isinstance(there, str)
            and same_player(there, value)
        ):
            continue
        if isinstance(there, dict) and isinstance(value, dict):  # the rules: name the options
            differences.extend(
                f"{key} {option} {as_json(there.get(option))} there,"
                f" {as_json(value.get(option))} here"
                for option in sorted(there.keys() | value.keys())
                if there.get(option) != value.get(option)
            )
        else:
            differences.append(f"{key} {as_json(there)} there, {as_json(value)} here")
    count = len(deal_sets.sets)
    if recorded["deal_sets"] > count:
        if not differences:  # the same tournament, asked for fewer deal sets than it has
            raise JournalError(
                f"journal {journal.path} records a tournament of {recorded['deal_sets']} deal"
                f" sets ({journal.played} played) with these bots and rules, and only"
                f" {count} {'is' if count == 1 else 'are'} asked for here:"
                " a tournament can be extended, not cut short: ask for"
                f" {recorded['deal_sets']} deal sets or more (--deal-sets"
                f" {recorded['deal_sets']} or more, or leave it out; with --deals, a file"
                f" that holds {recorded['deal_sets']} or more), or choose another --out"
            )
        differences.append(f"{recorded['deal_sets']} deal sets there, {count} here")
    elif not _same_deals(recorded["deals_sha256"], deal_sets.first(recorded["deal_sets"])):
        differences.append(
            "other deals"
            if recorded["deal_sets"] == count
            else f"its deals are not the first {counted(recorded['deal_sets'], 'deal set')}"
            f" of these {count}"
        )
    if differences:
        raise OtherTournamentError(
            f"journal {journal.path} records another tournament: {'; '.join(differences)}"
        )
    for index, digest in journal.deal_set_digests.items():
        if digest != deal_sets.sets[index].digest():
            raise JournalError(
                f"journal {journal.path}, deal set {index}: its line was played on other"
                f" deals than this tournament's deal set {index} (a line of another"
                " tournament?)"
            )
    for index, dealer in journal.first_dealers.items():
        if dealer != deal_sets.sets[index].first_dealer:
            raise JournalError(
                f"journal {journal.path}, deal set {index}: its games start with dealer"
                f" {dealer}, but the deal set's first dealer is"
                f" {deal_sets.sets[index].first_dealer}"
            )


def _build_name(build: dict[str, str]) -> str:
    return f"ohhell {build['ohhell']}, code {build['code']}"


def check_build(journal: Journal, here: dict[str, str] | None = None) -> None:
    """Raise :class:`JournalError` if another build than this one (``here``, by default
    :func:`tournament_build`) played ``journal``: resumed or extended, its report would mix the
    two builds' games. A journal that does not say its build passes, and so does one that
    played nothing."""
    there, here = journal.build, here or tournament_build()
    if journal.played and there is not None and there != here:
        raise JournalError(
            f"journal {journal.path} was played by another build ({_build_name(there)}; this"
            f" is {_build_name(here)}): played on, its report would mix the two builds' games."
            " Finish it with the build that played it, or --overwrite plays it all again with"
            " this one, or choose another --out"
        )


_COPY_CHUNK: Final = 1 << 20
"""Bytes copied at a time when a journal is rewritten (:class:`JournalWriter`)."""


def _lines_after_header(journal: Journal | None) -> Iterator[bytes]:
    """The whole lines of ``journal`` after its header, as they are on disk, a chunk at a
    time (none for no journal)."""
    if journal is None:
        return
    changed = JournalError(
        f"journal {journal.path} changed on disk after it was read: nothing was written; run"
        " the command again to read it afresh"
    )
    with journal.path.open("rb") as handle:
        header = handle.readline(MAX_HEADER_BYTES + 1)
        try:  # the lines read are copied only if they are where they were read
            if not header.endswith(b"\n") or parse_json(header[:-1]) != journal.header:
                raise changed
        except ValueError:
            raise changed from None
        left = journal.size - len(header)
        last = b"\n"
        while left > 0:
            chunk = handle.read(min(left, _COPY_CHUNK))
            if not chunk:
                raise changed
            left -= len(chunk)
            last = chunk[-1:]
            yield chunk
        if last != b"\n":  # a line cut where a whole one was read
            raise changed


class JournalWriter:
    """Appends played deal sets to a journal, each line flushed and fsynced (see the module
    docstring). Use as a context manager."""

    def __init__(
        self,
        path: Path,
        header: dict[str, Any],
        earlier: Journal | None = None,
        *,
        deal_sets: DealSets | None = None,
    ) -> None:
        """Write ``path`` afresh (atomically) with ``header`` and the deal sets of the
        ``earlier`` journal (read back from ``path`` or elsewhere), their lines copied as they
        are, then open it for appending. A resumed journal is rewritten this way, which also
        drops a torn last line. Each line appended names the deal set of ``deal_sets`` it was
        played on, where given."""
        self.path = Path(path)
        self._deal_sets = deal_sets
        write_atomic(self.path, itertools.chain([json_line(header)], _lines_after_header(earlier)))
        self._handle: IO[bytes] = self.path.open("ab")

    def append(self, outcome: DealSetOutcome) -> None:
        """Add one played deal set; it is on disk when this returns."""
        append_json_line(self._handle, self._line(outcome))

    def _line(self, outcome: DealSetOutcome) -> dict[str, Any]:
        played_on = None if self._deal_sets is None else self._deal_sets.sets[outcome.index]
        return outcome_to_json(outcome, played_on)

    def close(self) -> None:
        """Close the file (again: no effect). After a failed :meth:`append` (a full disk) the
        unwritten line is dropped, not written again: the lines on disk stay whole, and a
        resumed run reads them."""
        with contextlib.suppress(OSError):  # the buffer's flush fails as the append did
            self._handle.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
