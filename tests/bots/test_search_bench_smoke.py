"""Smoke tests: the search bot's two benchmarks run in ``--quick`` mode and print figures; the
lookahead measurement's worlds are the hand as it stands."""

from __future__ import annotations

import importlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import in_ci, require, running_until_saved

from ohhell.bots import Budget
from ohhell.bots.fast import mask_of
from ohhell.bots.heuristic import HeuristicBot, heuristic_play
from ohhell.engine import Phase, Play, Rules, apply, new_game, random_deal, view_for

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, tmp_path: Path, *extra: str) -> tuple[str, dict[str, object]]:
    figures = tmp_path / "figures.json"
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick", "--json", str(figures), *extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout, json.loads(figures.read_text(encoding="utf-8"))


def test_search_vs_heuristic_quick(tmp_path: Path) -> None:
    out, figures = run("search_vs_heuristic.py", tmp_path)
    assert "points per game ahead of baseline:" in out
    assert "bids made:" in out
    assert "ms per decision: mean" in out
    assert figures["deal_sets"] == 1
    assert figures["decisions"] > 0
    assert "lead over the three baseline bots at the candidate's table:" in out
    assert set(figures["leads"]) == set(figures["margins"])  # type: ignore[arg-type]


def test_table_lead_is_the_seat_against_the_mean_of_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    common = importlib.import_module("_common")
    assert common.table_lead([40, 10, 20, 30], 0) == 20.0
    assert common.table_lead([40, 10, 20, 30], 1) == -20.0
    assert common.table_lead([7, 7, 7], 2) == 0.0


def test_paired_difference_takes_the_units_both_runs_have(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    common = importlib.import_module("_common")
    now, earlier = {"1": 3.0, "2": 5.0, "9": 1.0}, {"1": 1.0, "2": 4.0}
    mean, half, count = common.paired_difference(now, earlier)
    assert (mean, count) == (1.5, 2)
    assert half > 0
    assert common.paired_difference({"4": 2.0}, {"4": 2.0}) == (0.0, 0.0, 1)
    with pytest.raises(ValueError, match="share nothing"):
        common.paired_difference({"1": 0.0}, {"2": 0.0})


def test_search_vs_heuristic_splits_bids_from_play(tmp_path: Path) -> None:
    out, figures = run("search_vs_heuristic.py", tmp_path, "--part", "bids")
    assert out.startswith("search bids only (")
    assert figures["part"] == "bids"
    assert figures["decisions"] > 0


def test_fast_path_throughput_quick(tmp_path: Path) -> None:
    require("pyspiel")
    out, figures = run("fast_path_throughput.py", tmp_path)
    assert f"ratio fast path ({figures['fast_path']})/OpenSpiel-C++:" in out
    assert figures["fast_path"] in ("fast-numba", "fast-numpy", "fast-int")  # the measured best
    assert set(figures["runners"]) == {"fast-numba", "fast-numpy", "fast-int", "openspiel-cpp"}  # type: ignore[arg-type]
    assert "ratio rollout-numba/rollout-int:" in out
    assert set(figures["rollouts"]) == {"rollout-int", "rollout-numba"}  # type: ignore[arg-type]
    assert figures["rollout_speedup_numba_vs_int"] > 0  # type: ignore[operator]
    assert set(figures["kernels"]) == {"solve", "bid-weight", "play-weight"}  # type: ignore[arg-type]
    assert "The rest of a search decision's work, per call" in out
    assert "Search card decisions (" in out
    assert set(figures["decisions"]) == {"python", "pieces-numba", "decision-numba"}  # type: ignore[arg-type]
    assert all(row["decisions"] > 0 for row in figures["decisions"].values())  # type: ignore[attr-defined]
    # the kernels ran compiled (numba is part of the dev install, so always under CI)
    assert figures["numba"] is not None or not in_ci()


def test_search_vs_heuristic_oracle_is_labelled(tmp_path: Path) -> None:
    """``--oracle`` measures an upper bound (the search sees the true deal); the report says
    so, and the figures record it."""
    out, figures = run("search_vs_heuristic.py", tmp_path, "--oracle", "play")
    assert out.startswith("ORACLE for play (sees the true deal): search (")
    assert "n/a, a measurement" in out
    assert figures["oracle"] == "play"
    assert figures["decisions"] > 0


def test_search_vs_heuristic_pairs_runs_on_the_same_deal_sets(tmp_path: Path) -> None:
    """The JSON keeps each deal set's margin; ``--paired`` compares two runs seed by seed. The
    search is deterministic for a simulations budget, so a rerun pairs to exactly zero."""
    first = tmp_path / "first"
    first.mkdir()
    _, figures = run("search_vs_heuristic.py", first)
    assert set(figures["margins"]) == {"1"}  # type: ignore[arg-type]
    out, again = run("search_vs_heuristic.py", tmp_path, "--paired", str(first / "figures.json"))
    assert again["margins"] == figures["margins"]
    assert "+0.00 points per game (no CI) over 1 deal set" in out  # one set: no interval


def test_search_vs_heuristic_pairs_the_lead_at_the_table_too(tmp_path: Path) -> None:
    """docs/bots.md pairs the lead at the table as well as the margin (``--paired A.json``):
    both are printed, the lead's only where the earlier run kept it."""
    earlier = tmp_path / "earlier.json"
    earlier.write_text(
        json.dumps(
            {"benchmark": "search_vs_heuristic", "margins": {"1": 1.0}, "leads": {"1": 2.0}}
        ),
        encoding="utf-8",
    )
    out, figures = run("search_vs_heuristic.py", tmp_path, "--paired", str(earlier))
    lead = figures["leads"]["1"] - 2.0  # type: ignore[index]
    assert "points per game (no CI) over 1 deal set" in out
    assert f", lead at the table: {lead:+.2f} (no CI) over 1 deal set" in out


def test_search_vs_heuristic_refuses_a_run_it_cannot_pair_with(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps({"benchmark": "search_vs_heuristic", "margins": {"500": 1.0}}), encoding="utf-8"
    )
    script = str(BENCHMARKS / "search_vs_heuristic.py")
    completed = subprocess.run(
        [sys.executable, script, "--quick", "--paired", str(other)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 2
    assert "shares no deal set" in completed.stderr


def test_lookahead_measurement_is_labelled(tmp_path: Path) -> None:
    """``--candidate lookahead`` with ``--oracle play`` bounds a perfect model of play and of
    the hidden cards; it is reported as a measurement, never judged against the targets."""
    out, figures = run(
        "search_vs_heuristic.py", tmp_path, "--candidate", "lookahead", "--oracle", "play"
    )
    assert out.startswith("ORACLE for play (sees the true deal): heuristic bids, one-step")
    assert "n/a, a measurement" in out
    assert "PASS" not in out and "FAIL" not in out
    assert figures["candidate"] == "lookahead"
    assert figures["decisions"] > 0


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (("--part", "bids"), "apply to --candidate search only"),
        (("--option", "boost=2"), "apply to --candidate search only"),
        (("--oracle", "all"), "only --oracle play applies"),
    ],
)
def test_lookahead_refuses_what_does_not_apply_to_it(extra: tuple[str, ...], reason: str) -> None:
    script = str(BENCHMARKS / "search_vs_heuristic.py")
    completed = subprocess.run(
        [sys.executable, script, "--quick", "--candidate", "lookahead", *extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 2
    assert reason in completed.stderr


def test_world_state_rebuilds_the_hand_from_a_view_and_the_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lookahead's worlds: from a seat's view and every seat's cards, ``world_state`` is the
    true state of the hand, so the rest of the hand plays out to the same result."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("search_vs_heuristic")
    rules = Rules.preset("standard", 4)
    rng = random.Random(5)
    state = new_game(rules, first_dealer=2)
    checked = 0
    while not state.is_over and checked < 40:
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
            continue
        seat = next(iter(state.to_act))
        view = view_for(state, seat)
        if state.phase is Phase.PLAY:
            world = bench.world_state(view, tuple(mask_of(hand) for hand in state.hands))
            for name in ("hands", "dealt", "bids", "tricks", "trick", "leader", "tricks_won"):
                assert getattr(world, name) == getattr(state, name), name
            assert (world.dealer, world.hand_size, world.trump_card) == (
                state.dealer,
                state.hand_size,
                state.trump_card,
            )
            ends = []
            for start in (state, world):
                done = len(start.results)
                while len(start.results) == done:
                    turn = next(iter(start.to_act))
                    start, _ = apply(start, Play(turn, heuristic_play(view_for(start, turn))))
                ends.append((start.results[-1].tricks_won, start.results[-1].points))
            assert ends[0] == ends[1]
            checked += 1
        state, _ = apply(state, HeuristicBot().choose(view, rng, Budget()))
    assert checked == 40


def test_run_journal_keeps_what_was_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--journal``'s file: records read back, a line cut short dropped, and a journal of
    other settings, a damaged one or one being written refused with the reason."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    common = importlib.import_module("_common")
    path = tmp_path / "run.jsonl"
    settings = {"simulations": 24, "options": {}}
    with common.RunJournal(path, "bench", settings) as journal:
        journal.add("1", {"margin": 2.5})
        journal.add("2", {"margin": -1.0})
        with pytest.raises(common.JournalMismatch, match="being written by another run now"):
            common.RunJournal(path, "bench", settings)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"unit": "3", "rec')  # killed while writing
    again = common.RunJournal(path, "bench", settings)
    assert again.done == {"1": {"margin": 2.5}, "2": {"margin": -1.0}}
    again.add("3", {"margin": 0.0})
    again.close()
    assert path.read_text(encoding="utf-8").count("\n") == 4  # the torn line is gone
    with common.RunJournal(path, "bench", settings) as reread:
        assert reread.done["3"] == {"margin": 0.0}
    with pytest.raises(common.JournalMismatch, match="simulations 24 there, 48 here"):
        common.RunJournal(path, "bench", {"simulations": 48, "options": {}})
    with pytest.raises(common.JournalMismatch, match="is of bench, not other"):
        common.RunJournal(path, "other", settings)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(path.read_text(encoding="utf-8").replace('"unit"', '"u"', 1))
    with pytest.raises(common.JournalMismatch, match="line 2 is damaged"):
        common.RunJournal(damaged, "bench", settings)
    twice = tmp_path / "twice.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    twice.write_text("".join([*lines, lines[1].replace("2.5", "999")]), encoding="utf-8")
    with pytest.raises(common.JournalMismatch, match="line 5: unit 1 is there twice"):
        common.RunJournal(twice, "bench", settings)

    def read_back(record: dict[str, float]) -> float:
        return float(record["margin"])

    shapeless = tmp_path / "shapeless.jsonl"
    shapeless.write_text("".join([lines[0], '{"unit": "1", "record": {}}\n']), encoding="utf-8")
    with pytest.raises(common.JournalMismatch, match="line 2 is damaged"):
        common.RunJournal(shapeless, "bench", settings, read_back)
    with common.RunJournal(path, "bench", settings, read_back) as checked:
        assert checked.done["1"] == {"margin": 2.5}
    stranger = tmp_path / "notes.txt"
    stranger.write_text("shopping list\n", encoding="utf-8")
    with pytest.raises(common.JournalMismatch, match="line 1 is not a journal header"):
        common.RunJournal(stranger, "bench", settings)
    assert stranger.read_text(encoding="utf-8") == "shopping list\n"  # left as it was
    stranger.write_text("no newline", encoding="utf-8")
    with pytest.raises(common.JournalMismatch, match="line 1 is not a journal header"):
        common.RunJournal(stranger, "bench", settings)
    assert stranger.read_text(encoding="utf-8") == "no newline"
    listed = tmp_path / "listed.jsonl"  # settings that are not an object: not a header
    listed.write_text(
        lines[0].replace('"settings": {', '"settings": [{', 1).replace("}}", "}]}", 1)
    )
    with pytest.raises(common.JournalMismatch, match="line 1 is not a journal header"):
        common.RunJournal(listed, "bench", settings)

    def overflows(record: dict[str, float]) -> float:
        return common.finite_number(record["margin"])

    huge = tmp_path / "huge.jsonl"
    huge.write_text("".join([lines[0], '{"unit": "1", "record": {"margin": 1e999999}}\n']))
    with pytest.raises(common.JournalMismatch, match="line 2 is damaged"):
        common.RunJournal(huge, "bench", settings, overflows)
    big = tmp_path / "big.jsonl"
    big.write_text("".join([lines[0], '{"unit": "1", "record": {"margin": 1%s}}\n' % ("0" * 400)]))
    with pytest.raises(common.JournalMismatch, match="line 2 is damaged"):  # an OverflowError
        common.RunJournal(big, "bench", settings, overflows)
    header = path.read_text(encoding="utf-8").split("\n")[0]
    path.write_text(header[:20], encoding="utf-8")  # killed while writing the header
    with common.RunJournal(path, "bench", settings) as empty:
        assert empty.done == {}
    assert path.read_text(encoding="utf-8") == header + "\n"


def test_a_journal_that_cannot_be_written_ends_the_run_saying_what_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    common = importlib.import_module("_common")
    path = tmp_path / "run.jsonl"
    journal = common.RunJournal(path, "bench", {"simulations": 24}, unit="deal set")
    journal.add("1", {"margin": 2.5})
    real = common.append_json_line

    def full(handle: Any, data: Any) -> None:
        handle.write(b'{"unit": "2", "rec')  # as far as the disk took it
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(common, "append_json_line", full)
    with pytest.raises(SystemExit) as stopped:
        journal.add("2", {"margin": 1.0})
    assert stopped.value.code == 1
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith(
            f"error: --journal: cannot write {path}: No space left on device; 1 deal sets are saved"
            " there: once it can be written, the same command plays the rest"
        )
    )
    monkeypatch.setattr(common, "append_json_line", real)
    with common.RunJournal(path, "bench", {"simulations": 24}) as again:
        assert again.done == {"1": {"margin": 2.5}}  # the torn line is dropped


def test_a_journal_takes_its_bot_spec_written_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    common = importlib.import_module("_common")
    path = tmp_path / "run.jsonl"
    with common.RunJournal(path, "bench", {"bot": "search:rivalry=0.5", "seed": 1}) as journal:
        journal.add("1", {"margin": 2.5})
    with common.RunJournal(path, "bench", {"bot": "search: rivalry=.50", "seed": 1}) as again:
        assert again.done == {"1": {"margin": 2.5}}
    with pytest.raises(common.JournalMismatch, match=r"bot 'search:rivalry=0\.5' there"):
        common.RunJournal(path, "bench", {"bot": "search:rivalry=0.4", "seed": 1})


def test_journal_records_out_of_shape_are_damaged_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each benchmark reads its records back strictly: an edit that would end the run in a
    traceback, or skew its figures, is a damaged line."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    search = importlib.import_module("search_vs_heuristic")
    good = {"margin": 1.5, "lead": 2.0, "bids_made": 30, "bids": 52, "microseconds": [5, 7]}
    assert search._result_of(good).bids == 52
    for change in (
        {"bids": 0},
        {"bids_made": 53},
        {"microseconds": []},
        {"margin": float("nan")},
        {"bids": True},
        {"microseconds": [-1]},
    ):
        with pytest.raises((TypeError, ValueError, KeyError, ArithmeticError)):
            search._result_of(good | change)
    require("pyspiel")
    ismcts = importlib.import_module("vs_openspiel_ismcts")
    hand = {
        "hand_size": 2, "dealer": 1, "bids": [0, 1, 1, 0], "tricks_won": [0, 1, 1, 0],
        "openspiel_returns": [10.0, 11.0, 11.0, 10.0], "standard_points": [10, 11, 11, 10],
        "decision_seconds": [[9, 3], [8, 2], [7, 1], [6, 4]],
    }  # fmt: skip
    assert len(ismcts._outcomes_of([hand] * 4)) == 4
    for records in (
        [hand] * 3,  # a deal is four hands
        [],
        [hand | {"bids": [1]}] * 4,
        [hand | {"tricks_won": [0, 0, 0, 0]}] * 4,
        [hand | {"openspiel_returns": [float("inf"), 0, 0, 0]}] * 4,
        [hand | {"hand_size": 13}] * 4,
    ):
        with pytest.raises((TypeError, ValueError, KeyError, ArithmeticError)):
            ismcts._outcomes_of(records)


def test_search_vs_heuristic_continues_from_its_journal(tmp_path: Path) -> None:
    """A run with ``--journal`` saves each deal set; a larger run with the same journal plays
    only the new ones, and reports the saved ones as they were played."""
    script = str(BENCHMARKS / "search_vs_heuristic.py")
    journal = tmp_path / "run.jsonl"

    def bench(deal_sets: int, *extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, script, "--deal-sets", str(deal_sets), "--simulations", "24",
             "--workers", "2", "--journal", str(journal), *extra],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip

    first = bench(2, "--json", str(tmp_path / "first.json"))
    assert first.returncode == 0, first.stderr
    assert f"journal {journal}: 0 of 2 read back, 2 played now" in first.stdout
    more = bench(3, "--json", str(tmp_path / "more.json"))
    assert more.returncode == 0, more.stderr
    assert f"journal {journal}: 2 of 3 read back, 1 played now" in more.stdout
    before, after = (
        json.loads((tmp_path / name).read_text(encoding="utf-8"))
        for name in ("first.json", "more.json")
    )
    assert {seed: after["margins"][seed] for seed in ("1", "2")} == before["margins"]
    assert after["from_journal"] == 2
    other = bench(3, "--part", "bids")
    assert other.returncode == 2
    assert "written with other settings: part 'all' there, 'bids' here" in other.stderr


def test_search_vs_heuristic_killed_frees_its_journal_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed outright (SIGKILL to the main process, its workers left running) frees its
    journal at once, so the same command goes on; the workers end too."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    common = importlib.import_module("_common")
    journal = tmp_path / "run.jsonl"
    command = [  # deal sets of seconds each: a worker is in the middle of one when it is killed
        sys.executable, str(BENCHMARKS / "search_vs_heuristic.py"), "--deal-sets", "500",
        "--simulations", "1500", "--workers", "2", "--journal", str(journal),
    ]  # fmt: skip
    with running_until_saved(command, journal) as process:
        os.kill(process.pid, signal.SIGKILL)  # the main process only
        process.wait(timeout=60)  # not its output: the workers may hold its pipes a moment
        settings = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])["settings"]
        again = common.RunJournal(journal, "search_vs_heuristic", settings)  # not refused
        again.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.killpg(process.pid, 0)  # a worker of the group is still there
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the workers outlived the killed run by 30 s")


def test_search_vs_heuristic_stopped_says_what_is_saved(tmp_path: Path) -> None:
    """Ctrl-C stops a long run at once; the deal sets finished are in its journal."""
    journal = tmp_path / "run.jsonl"
    command = [
        sys.executable, str(BENCHMARKS / "search_vs_heuristic.py"), "--deal-sets", "500",
        "--simulations", "24", "--workers", "2", "--journal", str(journal),
    ]  # fmt: skip
    with running_until_saved(command, journal) as process:
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    saved = journal.read_bytes().count(b"\n") - 1
    assert stderr.strip().splitlines()[-1] == (
        f"interrupted; {saved} deal sets are saved in {journal}: the same command plays the rest"
    )
    assert "Traceback" not in stderr
