"""The tournament journal: played deal sets read back as they were written, a resumed
tournament playing only what is missing and reporting what an uninterrupted one reports, a line
cut short by a kill dropped, damaged journals and other tournaments refused with clear errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ohhell.engine import Rules, Schedule
from ohhell.storage_files import json_line
from ohhell.tournament import DealSetOutcome, Matchup, generate_deal_sets, run_tournament
from ohhell.tournament import journal as journal_module
from ohhell.tournament.duplicate import Failure, TournamentError
from ohhell.tournament.journal import (
    FILE_NAME,
    MAX_HEADER_BYTES,
    MAX_MICROSECONDS,
    JournalError,
    JournalWriter,
    check_build,
    check_same_tournament,
    journal_header,
    journal_outcomes,
    line_limit,
    most_line_bytes,
    outcome_from_json,
    outcome_to_json,
    read_journal,
    tournament_build,
)
from ohhell.tournament.stats import compute_stats

RULES = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2, 3))
MATCHUP = Matchup(rules=RULES, candidate="heuristic", baseline="random", seed=5)
DEAL_SETS = generate_deal_sets(RULES, 4, seed=11)
FIRST_DEALER = DEAL_SETS.sets[0].first_dealer  # of deal set 0, the journals' line 2


def _without_times(outcomes: list[DealSetOutcome] | tuple[DealSetOutcome, ...]) -> list[object]:
    return [
        (o.index, o.failure, [(g.candidate_seat, g.totals, g.winners, g.hands) for g in o.games])
        for o in outcomes
    ]


@pytest.fixture(scope="module")
def played() -> list[DealSetOutcome]:
    return run_tournament(MATCHUP, DEAL_SETS, jobs=1)


def _journal(path: Path, outcomes: list[DealSetOutcome]) -> Path:
    with JournalWriter(path, journal_header(MATCHUP, DEAL_SETS)) as writer:
        for outcome in outcomes:
            writer.append(outcome)
    return path


def test_played_deal_sets_read_back_as_written(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    voided = DealSetOutcome(3, (), Failure(3, 1, 2, "random", "it raised: no"))
    outcomes = [*played[:3], voided]
    journal = read_journal(_journal(tmp_path / FILE_NAME, outcomes))
    assert journal.header == json.loads(json.dumps(journal_header(MATCHUP, DEAL_SETS)))
    assert (journal.seed, journal.deal_sets, journal.torn, journal.finished) == (5, 4, False, True)
    read_back = tuple(journal_outcomes(journal.path))
    assert _without_times(read_back) == _without_times(outcomes)
    # times are taken to the microsecond as the journal keeps them, so they read back equal:
    # a resumed tournament reports the times an uninterrupted one does
    assert read_back == tuple(outcomes)
    assert (journal.played, journal.tally.counted, journal.tally.voided) == (4, 3, 1)
    # what the journal gathered is what the outcomes give: the report of a resumed run
    assert journal.tally.stats(MATCHUP) == compute_stats(MATCHUP, outcomes)


def test_a_resumed_tournament_plays_only_what_is_missing(played: list[DealSetOutcome]) -> None:
    played_now: list[int] = []
    resumed = run_tournament(
        MATCHUP,
        DEAL_SETS,
        jobs=2,
        done=[played[2], played[0]],
        on_done=lambda outcome: played_now.append(outcome.index),
    )
    assert sorted(played_now) == [1, 3]
    assert _without_times(resumed) == _without_times(played)
    with pytest.raises(TournamentError, match="deal set 4 was played before, but there are only 4"):
        run_tournament(MATCHUP, DEAL_SETS, jobs=1, done=[DealSetOutcome(4, ())])


def test_a_last_line_cut_short_is_dropped_and_rewritten_away(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    path = _journal(tmp_path / FILE_NAME, played[:2])
    whole = path.read_bytes()
    line = json.dumps(outcome_to_json(played[2]), separators=(",", ":")).encode()
    path.write_bytes(whole + line[: len(line) // 2])  # killed while writing the third
    journal = read_journal(path)
    assert journal.torn and not journal.finished
    assert journal.tally.indices == {0, 1}
    assert [o.index for o in journal_outcomes(path)] == [0, 1]
    JournalWriter(path, journal.header, journal).close()
    assert path.read_bytes() == whole


def _lines(path: Path) -> list[object]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _set(lines: list[object], where: tuple[object, ...], value: object) -> None:
    target = lines
    for key in where[:-1]:
        target = target[key]  # type: ignore[index]
    target[where[-1]] = value  # type: ignore[index]


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ((0, "format"), "something", "line 1: not a tournament journal"),
        ((0, "version"), 3, "line 1: unsupported 'version' 3; this program reads version 2"),
        (
            (0, "version"),
            1,  # an earlier build's: its bots were seeded otherwise
            "line 1: unsupported 'version' 1; this program reads version 2 (an earlier ohhell"
            " wrote it, whose bots play its deal sets otherwise: start the tournament again in"
            " another --out folder)",
        ),
        ((0, "version"), True, "line 1: unsupported 'version' true; this program reads"),
        ((0, "matchup", "seed"), "five", "line 1: the matchup's seed must be a whole number"),
        ((0, "build"), "0.1.0", 'line 1: build must be {"ohhell": version, "code": digest}, got'),
        ((0, "build"), {"ohhell": "0.1.0"}, 'line 1: build must be {"ohhell": version, "code":'),
        ((0, "build", "code"), 12, 'line 1: build must be {"ohhell": version, "code": digest}'),
        ((2, "index"), 0, "line 3: deal set 0 is there twice"),
        ((2, "index"), 9, "line 3: deal set 9, but the tournament has 4"),
        ((2, "index"), 4, "line 3: deal set 4, but the tournament has 4"),
        ((2, "index"), -1, "line 3: index must be a whole number, got -1"),
        ((0, "deal_sets"), 0, "line 1: deal_sets must be from 1 to 100,000, the most a"),
        ((0, "deal_sets"), 200_000, "line 1: deal_sets must be from 1 to 100,000, the most a"),
        ((1, "games", 0, "hands", 0, 2), [0, 1], "line 2: bids must be a list of 3 whole numbers"),
        ((1, "games", 0, "hands", 0), [1, 0], "line 2: a hand must be [hand_size, dealer, bids"),
        ((1, "games", 2, "candidate_seat"), 0, "line 2: deal set 0 must have one game per"),
        ((1, "games", 0, "decision_microseconds", 1, 0), -4, "line 2: decision_microseconds must"),
        (  # more than a float holds: refused, not an OverflowError
            (1, "games", 0, "decision_microseconds", 1, 0),
            10**400,
            "line 2: decision_microseconds must be from 0 to 31,536,000,000,000 (a year), got 1",
        ),
        (  # a long value is quoted by its start, not in full
            (1, "games", 0, "decision_microseconds", 1),
            [0.5] * 1000,
            "whole numbers, got [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,"
            " 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,"
            " 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,... (5000 characters)",
        ),
        ((1, "failure"), {"seat": 1}, "line 2: missing 'message'"),
        ((1, "games"), None, "line 2: games must be a list"),
        ((0, "matchup", "rules", "player_count"), 9, "line 1: the matchup's rules are not valid"),
        # scores edited by hand would change the report: they must be what the rules give
        ((1, "games", 0, "hands", 0, 0), 2, "hands of [2, 2, 3] cards; the rules deal [1, 2, 3]"),
        ((1, "games", 0, "hands", 0, 3), [0, 0, 0], "hand 1: 0 tricks won of 1"),
        ((1, "games", 0, "hands", 0, 4), [99, 0, 0], "hand 1: points [99, 0, 0], but the rules"),
        ((1, "games", 0, "totals"), [1000, 0, 0], "totals [1000, 0, 0], but its hands add up"),
        ((1, "games", 0, "winners"), [5], "winners [5], but the totals give"),
        # nor seats, dealers, bids or tricks no game under the rules can have
        ((1, "games", 0, "candidate_seat"), 9, "candidate_seat must be a seat from 0 to 2, got 9"),
        ((1, "games", 0, "hands", 1, 1), 99, "hand 2: dealer 99, but the seats are 0 to 2"),
        ((1, "games", 0, "hands", 1, 1), "x", "dealer must be a whole number"),
        (
            (1, "games", 0, "hands", 1, 1),
            FIRST_DEALER,  # hand 1's dealer again: the deal did not pass to the left
            f"hand 2: dealer {FIRST_DEALER}; the deal passes to the left, one seat a hand,"
            f" among 3 seats, so it must be {(FIRST_DEALER + 1) % 3}",
        ),
        ((1, "games", 0, "hands", 0, 2), [5, 0, 0], "hand 1: bids [5, 0, 0], but each must be"),
        ((1, "games", 0, "hands", 2, 3), [-1, 2, 2], "hand 3: tricks won [-1, 2, 2], but each"),
        (
            (1, "failure"),
            {"candidate_seat": 9, "seat": 1, "bot": "random", "message": "raised"},
            "a failure's seats must be from 0 to 2, got candidate_seat 9 and seat 1",
        ),
    ],
)
def test_damaged_journals_are_clear_errors(
    tmp_path: Path,
    played: list[DealSetOutcome],
    where: tuple[object, ...],
    value: object,
    message: str,
) -> None:
    path = _journal(tmp_path / FILE_NAME, played[:2])
    lines = _lines(path)
    _set(lines, where, value)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(JournalError) as error:
        read_journal(path)
    assert str(error.value).startswith(f"journal {path}, ")
    assert message in str(error.value)


def test_games_must_start_from_their_deal_sets_first_dealer(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    """Every game of a deal set replays its deals from its first dealer: a line whose games
    start with different dealers is refused when read, and one whose games all start with
    another dealer than the deal set's is refused when resumed against the deal sets (each
    game rotating the deal correctly on its own)."""
    path = _journal(tmp_path / FILE_NAME, played[:2])
    lines = _lines(path)

    def shift(game: dict[str, list[list[object]]]) -> None:
        for hand in game["hands"]:
            hand[1] = (int(hand[1]) + 1) % 3  # type: ignore[call-overload]

    shift(lines[1]["games"][0])  # type: ignore[index]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(JournalError, match="line 2: deal set 0: its games start with dealers"):
        read_journal(path)
    for game in lines[1]["games"][1:]:  # type: ignore[index]
        shift(game)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    journal = read_journal(path)  # consistent within the line
    first = DEAL_SETS.sets[0].first_dealer
    with pytest.raises(JournalError, match=rf"deal set's first dealer is {first}$"):
        check_same_tournament(journal, MATCHUP, DEAL_SETS)


def test_a_line_of_another_tournament_copied_in_is_refused(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    """Each line names the deal set it was played on: a line of another tournament's journal
    (other deals, the same index and first dealer) is refused where the header alone would pass
    it; a line that names none (written before lines named them) is taken as it is."""
    other_deals = generate_deal_sets(RULES, 4, seed=12)
    path = tmp_path / FILE_NAME
    with JournalWriter(path, journal_header(MATCHUP, DEAL_SETS), deal_sets=DEAL_SETS) as writer:
        writer.append(played[0])
    lines = _lines(path)
    assert lines[1]["deal_set_sha256"] == DEAL_SETS.sets[0].digest()
    check_same_tournament(read_journal(path), MATCHUP, DEAL_SETS)  # its own: no error
    assert other_deals.sets[0].first_dealer == DEAL_SETS.sets[0].first_dealer  # not told by it
    lines[1]["deal_set_sha256"] = other_deals.sets[0].digest()  # as another journal names it
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(JournalError) as info:
        check_same_tournament(read_journal(path), MATCHUP, DEAL_SETS)
    assert str(info.value) == (
        f"journal {path}, deal set 0: its line was played on other deals than this"
        " tournament's deal set 0 (a line of another tournament?)"
    )
    lines[1]["deal_set_sha256"] = "41c7"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(
        JournalError, match='line 2: deal_set_sha256 must be a SHA-256 in hex, got "41c7"'
    ):
        read_journal(path)
    del lines[1]["deal_set_sha256"]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    check_same_tournament(read_journal(path), MATCHUP, DEAL_SETS)


def test_a_deal_sets_digest_is_of_its_dealer_and_decks() -> None:
    first, second = DEAL_SETS.sets[:2]
    assert first.digest() == type(first)(first.first_dealer, first.decks).digest()
    assert len({first.digest(), second.digest()}) == 2
    moved = type(first)((first.first_dealer + 1) % 3, first.decks)
    assert moved.digest() != first.digest()


def test_bids_the_hook_forbids_are_a_clear_error(tmp_path: Path) -> None:
    hook = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2), hook=True)
    matchup = Matchup(rules=hook, candidate="heuristic", baseline="random", seed=5)
    deal_sets = generate_deal_sets(hook, 1, seed=3)
    line = json.loads(json.dumps(outcome_to_json(run_tournament(matchup, deal_sets, jobs=1)[0])))
    assert outcome_from_json(line, hook).games  # as played, it reads back
    line["games"][0]["hands"][0][2] = [1, 0, 0]  # bids totalling the one trick
    with pytest.raises(JournalError, match="hand 1: bids \\[1, 0, 0\\] total the 1 tricks"):
        outcome_from_json(line, hook)


def test_unreadable_journals_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(b"")
    with pytest.raises(JournalError, match="is empty: its header line was never written"):
        read_journal(path)
    path.write_bytes(json.dumps(journal_header(MATCHUP, DEAL_SETS)).encode()[:100])
    with pytest.raises(
        JournalError, match=r"has no whole line: its header line is cut short \(100"
    ):
        read_journal(path)
    path.write_bytes(b'{"format": "ohhell-tournament-journal"}\n{not json}\n')
    with pytest.raises(JournalError, match=r"line 1: unsupported 'version' null;"):
        read_journal(path)
    header = json.dumps(journal_header(MATCHUP, DEAL_SETS)).encode()
    path.write_bytes(header + b"\n{not json}\n")
    with pytest.raises(JournalError, match=r"line 2: not JSON"):
        read_journal(path)
    path.write_bytes(header + b"\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    with pytest.raises(JournalError, match=r"line 2: not JSON \(nested too deep to read\)"):
        read_journal(path)
    path.write_bytes(header + b'\n{"index": 0\xff}\n')
    with pytest.raises(
        JournalError, match=r"line 2: not JSON \(not text: byte 0xff at offset 11 is"
    ):
        read_journal(path)


def test_lines_longer_than_any_journal_holds_are_refused_unread(tmp_path: Path) -> None:
    """A run of zeros left by a crash, or a link to ``/dev/zero``, was read whole into memory,
    to fail with a MemoryError or not at all; a pipe waited for a writer for ever."""
    path = tmp_path / FILE_NAME
    header = json.dumps(journal_header(MATCHUP, DEAL_SETS)).encode() + b"\n"
    with path.open("wb") as file:  # sparse: the zeros take no room on disk
        file.truncate(MAX_HEADER_BYTES + 10)
    with pytest.raises(JournalError, match="line 1: longer than any journal's header"):
        read_journal(path)
    limit = line_limit(RULES)
    with path.open("wb") as file:
        file.write(header)
        file.truncate(len(header) + limit + 10)
    with pytest.raises(JournalError, match="line 2: longer than any line of this tournament"):
        read_journal(path)
    path.unlink()
    path.symlink_to("/dev/zero")
    with pytest.raises(JournalError, match=r"is a device, not a file$"):
        read_journal(path)
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(JournalError, match=r"is a pipe \(FIFO\), not a file$"):
        read_journal(path)
    path.unlink()
    path.mkdir()
    with pytest.raises(JournalError, match=r"is a folder, not a file$"):
        read_journal(path)


@pytest.mark.parametrize("players", [3, 7])
def test_a_deal_sets_line_fits_the_most_its_rules_allow(players: int) -> None:
    """The lines read back are limited from the rules: a line as long as one can be (every
    decision a year long, every score in the hundreds) must fit."""
    rules = Rules(player_count=players, schedule=Schedule.UP_AND_DOWN)
    matchup = Matchup(rules=rules, candidate="random", baseline="random", seed=5)
    outcome = run_tournament(matchup, generate_deal_sets(rules, 1, seed=3), jobs=1)[0]
    data = outcome_to_json(outcome)
    for game in data["games"]:
        game["decision_microseconds"] = [
            [MAX_MICROSECONDS] * len(times) for times in game["decision_microseconds"]
        ]
        game["totals"] = [-999_999] * players
        for hand in game["hands"]:
            hand[-1] = [-999] * players
    assert len(json_line(data)) <= most_line_bytes(rules) < line_limit(rules)


def test_another_tournament_is_named_difference_by_difference(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    journal = read_journal(_journal(tmp_path / FILE_NAME, played[:1]))
    check_same_tournament(journal, MATCHUP, DEAL_SETS)  # the same: no error
    other = Matchup(rules=RULES, candidate="search", baseline="random", seed=6)
    with pytest.raises(JournalError) as error:
        check_same_tournament(journal, other, DEAL_SETS)
    assert str(error.value) == (
        f"journal {journal.path} records another tournament:"
        ' candidate "heuristic" there, "search" here; seed 5 there, 6 here'
    )
    with pytest.raises(JournalError, match="4 deal sets there, 3 here"):
        check_same_tournament(journal, other, DEAL_SETS.first(3))
    # the same bots and rules asking for fewer deal sets: cutting short is what is refused
    with pytest.raises(JournalError) as error:
        check_same_tournament(journal, MATCHUP, DEAL_SETS.first(3))
    assert "records another tournament" not in str(error.value)
    assert (
        "records a tournament of 4 deal sets (1 played) with these bots and rules, and only 3"
        in str(error.value)
    )
    assert str(error.value).endswith(
        "a tournament can be extended, not cut short: ask for 4 deal sets or more (--deal-sets"
        " 4 or more, or leave it out; with --deals, a file that holds 4 or more), or choose"
        " another --out"
    )
    with pytest.raises(JournalError, match=r"records another tournament: other deals$"):
        check_same_tournament(journal, MATCHUP, generate_deal_sets(RULES, 4, seed=12))
    with pytest.raises(JournalError, match="its deals are not the first 4 deal sets of these 6"):
        check_same_tournament(journal, MATCHUP, generate_deal_sets(RULES, 6, seed=12))


def test_a_bot_spec_written_otherwise_is_the_same_tournament(tmp_path: Path) -> None:
    """Specs are compared as the bots they build: spacing, the options' order and how a
    number is spelt do not make another tournament; another value does."""
    spec = Matchup(rules=RULES, candidate="search:rivalry=0.5:simulations=8", baseline="random")
    with JournalWriter(tmp_path / FILE_NAME, journal_header(spec, DEAL_SETS)):
        pass  # the header: what a resumed run is compared with
    journal = read_journal(tmp_path / FILE_NAME)
    same = Matchup(rules=RULES, candidate=" search: simulations=8.0:rivalry=.50", baseline="random")
    check_same_tournament(journal, same, DEAL_SETS)
    other = Matchup(rules=RULES, candidate="search:rivalry=0.4:simulations=8", baseline="random")
    with pytest.raises(JournalError, match=r'candidate "search:rivalry=0\.5:simulations=8" there'):
        check_same_tournament(journal, other, DEAL_SETS)


def test_more_deal_sets_from_the_same_seed_extend_a_tournament(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    """Deal sets drawn from one seed are a prefix of more drawn from it, so a finished
    tournament can be extended; the extension plays only the new deal sets."""
    more = generate_deal_sets(RULES, 6, seed=11)
    assert more.first(4) == DEAL_SETS
    journal = read_journal(_journal(tmp_path / FILE_NAME, played))
    check_same_tournament(journal, MATCHUP, more)
    played_now: list[int] = []
    extended = run_tournament(
        MATCHUP, more, jobs=1, done=played, on_done=lambda o: played_now.append(o.index)
    )
    assert played_now == [4, 5]
    assert _without_times(extended) == _without_times(run_tournament(MATCHUP, more, jobs=1))


def test_a_damaged_line_says_what_the_lines_before_it_keep(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    path = _journal(tmp_path / FILE_NAME, played[:3])
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join([*lines[:3], "not json\n", lines[3]]), encoding="utf-8")
    with pytest.raises(JournalError) as error:
        read_journal(path)
    assert str(error.value).startswith(f"journal {path}, line 4: not JSON (")
    assert str(error.value).endswith(
        "(the 3 lines before it are whole: the file cut before this line keeps their 2 deal sets"
        " for --resume)"
    )
    path.write_text("".join(lines[:3]), encoding="utf-8")  # cut as it says
    assert read_journal(path).played == 2


def test_a_journal_is_played_on_only_by_the_build_that_played_it(
    tmp_path: Path, played: list[DealSetOutcome]
) -> None:
    """A journal names the build that played it, and another build may not add to it (its
    report would mix two builds' games); one that does not say (written before builds were
    recorded) passes."""
    path = _journal(tmp_path / FILE_NAME, played[:2])
    journal = read_journal(path)
    assert journal.build == tournament_build() == journal_header(MATCHUP, DEAL_SETS)["build"]
    check_build(journal)
    other = {"ohhell": "0.0.9", "code": "0123456789abcdef"}
    with JournalWriter(path, journal_header(MATCHUP, DEAL_SETS, build=other), journal):
        pass  # its two deal sets copied, under another build's header
    with pytest.raises(JournalError) as caught:
        check_build(read_journal(path))
    here = tournament_build()
    assert str(caught.value) == (
        f"journal {path} was played by another build (ohhell 0.0.9, code 0123456789abcdef;"
        f" this is ohhell {here['ohhell']}, code {here['code']}): played on, its report would"
        " mix the two builds' games. Finish it with the build that played it, or --overwrite"
        " plays it all again with this one, or choose another --out"
    )
    with JournalWriter(path, journal_header(MATCHUP, DEAL_SETS, build=other)):
        pass  # another build's that played nothing: anyone's
    check_build(read_journal(path))
    lines = _lines(_journal(path, played[:2]))
    del lines[0]["build"]  # type: ignore[attr-defined]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert read_journal(path).build is None
    check_build(read_journal(path))
    unrecorded = journal_header(MATCHUP, DEAL_SETS, build=None)
    assert "build" not in unrecorded and json.loads(json.dumps(unrecorded)) == lines[0]


def test_a_journal_played_on_keeps_its_lines_as_they_are_on_disk(
    tmp_path: Path, played: list[DealSetOutcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rewritten to play on (a new header, a torn line dropped), a journal's lines are copied
    byte for byte a chunk at a time, never all held in memory; a journal cut short after it was
    read is refused, and the file stays as it was."""
    monkeypatch.setattr(journal_module, "_COPY_CHUNK", 7)
    path = _journal(tmp_path / FILE_NAME, played[:3])
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines) + b'{"index": 3, "ga')  # torn
    journal = read_journal(path)
    assert journal.size == len(b"".join(lines)) and journal.torn
    header = journal_header(MATCHUP, DEAL_SETS, build={"ohhell": "0.0.9", "code": "0" * 16})
    with JournalWriter(path, header, journal, deal_sets=DEAL_SETS) as writer:
        writer.append(played[3])
    rewritten = path.read_bytes().splitlines(keepends=True)
    assert rewritten[1:4] == lines[1:] and json.loads(rewritten[0]) == header
    assert [o.index for o in journal_outcomes(path)] == [0, 1, 2, 3]
    before = read_journal(path)
    path.write_bytes(b"".join(rewritten[:2]))  # cut short by someone else meanwhile
    cut = path.read_bytes()
    with pytest.raises(JournalError, match="changed on disk after it was read: nothing was"):
        JournalWriter(path, header, before)
    assert path.read_bytes() == cut and list(tmp_path.iterdir()) == [path]
    # a header rewritten longer moves the lines: copied by count, the last would be cut
    path.write_bytes(json_line({**before.header, "note": "x" * 10}) + b"".join(rewritten[1:]))
    longer = path.read_bytes()
    with pytest.raises(JournalError, match="changed on disk after it was read"):
        JournalWriter(path, header, before)
    assert path.read_bytes() == longer and list(tmp_path.iterdir()) == [path]
    # the same header, a line a byte longer: the bytes read end a byte before a line's end
    path.write_bytes(rewritten[0] + rewritten[1][:-1] + b" \n" + b"".join(rewritten[2:]))
    with pytest.raises(JournalError, match="changed on disk after it was read"):
        JournalWriter(path, header, before)
