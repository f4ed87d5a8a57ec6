"""``ohhell tournament`` end to end: table, JSON, CSV and PNG, deal files saved and reused,
and errors as one line on stderr."""

from __future__ import annotations

import contextlib
import csv
import errno
import importlib.util
import json
import os
import signal
import subprocess
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import require, running_until_saved

from ohhell.cli.main import main
from ohhell.engine import Rules
from ohhell.storage_files import json_line
from ohhell.tournament import generate_deal_sets
from ohhell.tournament.journal import read_journal, tournament_build
from ohhell.tournament.report import REPORT_FILES

COMMON = ("--players", "3", "--schedule", "custom", "--hand-sizes", "1,2", "--jobs", "2")


def tournament(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ohhell.cli.main", "tournament", *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_tournament_writes_every_report_and_reuses_its_deals(tmp_path: Path) -> None:
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    deals = tmp_path / "deals.json"
    done = tournament(
        "--candidate", "heuristic", "--baseline", "random", "--deal-sets", "4", "--seed", "9",
        "--out", str(out), "--save-deals", str(deals), *COMMON,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "paired difference (heuristic - random)" in done.stdout
    assert "score per game" in done.stdout
    assert {p.name for p in out.iterdir()} == {
        "report.json",
        "report.csv",
        "report.png",
        "journal.jsonl",
    }
    assert (out / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["matchup"]["candidate"] == "heuristic"
    assert (report["deal_sets"], report["games"], report["failures"]) == (4, 12, [])
    assert {"mean", "ci95_low", "ci95_high", "n"} <= set(report["paired_difference"])
    candidate, baseline = report["bots"]
    for bot in (candidate, baseline):
        assert {
            "score_per_game",
            "score_per_hand",
            "first_place_share",
            "bid_hit_rate",
            "bid_hit_rate_by_hand_size",
            "bid_hit_rate_by_seat",
            "bid_hit_rate_by_bid_position",
            "decision_ms",
        } <= set(bot)
        assert set(bot["bid_hit_rate_by_hand_size"]) == {"1", "2"}
        assert set(bot["decision_ms"]) == {"median", "p95", "p99", "mean"}
    with (out / "report.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    metrics = {(row["role"], row["metric"]) for row in rows}
    assert ("candidate", "paired_difference_per_game") in metrics
    assert ("baseline", "bid_hit_rate_by_hand_size") in metrics

    again = tournament(  # the deal file's seed seeds the bots, as in the run that saved it
        "--candidate", "heuristic", "--baseline", "random", "--deals", str(deals),
        "--out", str(tmp_path / "again"), *COMMON,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "seed 9;" in again.stdout
    replayed = json.loads((tmp_path / "again" / "report.json").read_text(encoding="utf-8"))
    assert replayed["paired_differences"] == report["paired_differences"]

    saved = deals.read_bytes()
    for seed, refused in (("9", False), ("10", True)):  # the same deal sets may be saved again
        out = tmp_path / f"seed-{seed}"
        done = tournament(
            "--candidate", "heuristic", "--baseline", "random", "--deal-sets", "4",
            "--seed", seed, "--out", str(out), "--save-deals", str(deals), *COMMON,
        )  # fmt: skip
        assert done.returncode == int(refused), done.stderr
        assert deals.read_bytes() == saved  # never replaced by other deal sets
        if refused:
            assert done.stderr.strip() == (
                f"ohhell tournament: error: --save-deals {deals} already exists and does not"
                " hold these deal sets: remove it or choose another path"
            )
            assert not out.exists()


def test_a_deal_file_killed_while_written_leaves_nothing_behind(tmp_path: Path) -> None:
    """A run killed while it wrote --save-deals left the file's hidden temporary copy (as
    large as the file); the next run saving to that path removes it, and nothing else."""
    require("rich")
    require("matplotlib")
    folder = tmp_path / "deals[1]"  # a name that is a glob pattern is matched as itself
    folder.mkdir()
    stale = folder / ".d[1].json.k3j_x9a2.ohhell-tmp"
    kept = [folder / ".d[1].json.swp", folder / ".d1.json.k3j_x9a2.ohhell-tmp"]
    for path in (stale, *kept):
        path.write_text("{")
    done = tournament(
        "--candidate", "heuristic", "--baseline", "random", "--deal-sets", "2", "--seed", "9",
        "--out", str(tmp_path / "out"), "--save-deals", str(folder / "d[1].json"), *COMMON,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(folder.iterdir()) == sorted([folder / "d[1].json", *kept])


@pytest.mark.parametrize(
    ("flag", "value", "error"),
    [
        ("--budget-sims", "0", "a count is 1 or more, got 0"),
        ("--budget-seconds", "0", "a time is a finite number of seconds above 0, got 0"),
        ("--budget-seconds", "-1", "a time is a finite number of seconds above 0, got -1"),
        ("--budget-seconds", "nan", "a time is a finite number of seconds above 0, got nan"),
        ("--budget-seconds", "inf", "a time is a finite number of seconds above 0, got inf"),
        ("--budget-seconds", "soon", "a time is a number of seconds, got 'soon'"),
        ("--players", "four", "a number of players is a whole number, got 'four'"),
    ],
)
def test_budgets_and_players_that_do_not_parse_are_usage_errors(
    tmp_path: Path, flag: str, value: str, error: str
) -> None:
    done = tournament(*COMMON, flag, value, "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert f"ohhell tournament: error: argument {flag}: {error}" in done.stderr
    assert not (tmp_path / "out").exists()


def test_tournament_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ohhell-deal-sets", "version": 7}', encoding="utf-8")
    done = tournament("--deals", str(bad), "--out", str(tmp_path / "out"), *COMMON)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"ohhell tournament: error: deal file {bad}: unsupported 'version' 7;"
        " this program reads version 1"
    )
    unknown = tournament("--candidate", "genius", "--out", str(tmp_path / "out"), *COMMON)
    assert unknown.returncode == 1
    assert "unknown bot 'genius'" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    none = tournament("--deal-sets", "0", "--out", str(tmp_path / "out"), *COMMON)
    assert none.returncode == 2  # not the default number of deal sets: a usage error
    assert "argument --deal-sets: a count is 1 or more, got 0" in none.stderr
    assert not (tmp_path / "out").exists()  # a refused tournament leaves no folder behind
    for side in ("--candidate", "--baseline"):  # one of the two would be ignored
        both = tournament(
            *COMMON, side, "search:simulations=4", "--budget-sims", "400", "--out",
            str(tmp_path / "out"),
        )  # fmt: skip
        assert both.returncode == 1
        assert both.stderr.strip() == (
            f"ohhell tournament: error: {side} search:simulations=4 sets its own simulations,"
            " and --budget-sims 400 sets them for every bot: give one or the other"
        )
        assert not (tmp_path / "out").exists()
    both = tournament(*COMMON, "--resume", "--overwrite", "--out", str(tmp_path / "out"))
    assert both.returncode == 2
    assert "--resume and --overwrite exclude each other" in both.stderr
    bad_jobs = tournament(*COMMON, "--jobs", "100000", "--out", str(tmp_path / "out"))
    assert bad_jobs.returncode == 1  # not a process per deal set: that could sink the machine
    assert f"--jobs must be from 1 to {4 * (os.cpu_count() or 1)}" in bad_jobs.stderr
    assert "per core here), got 100000" in bad_jobs.stderr
    no_jobs = tournament(*COMMON, "--jobs", "0", "--out", str(tmp_path / "out"))
    assert no_jobs.returncode == 2
    assert "argument --jobs: a count is 1 or more, got 0" in no_jobs.stderr
    huge = tournament("--deal-sets", "1000000000", "--out", str(tmp_path / "out"), *COMMON)
    assert huge.returncode == 1  # refused at once, instead of dealing for hours
    assert huge.stderr.strip() == (
        "ohhell tournament: error: the number of deal sets must be at most 100,000, got"
        " 1,000,000,000: every set is dealt and held in memory before the first game"
    )
    assert not (tmp_path / "out").exists()
    deals = tmp_path / "deals.json"
    unknown = tournament(
        "--candidate", "genius", "--save-deals", str(deals), "--out", str(tmp_path / "out"),
        *COMMON,
    )  # fmt: skip
    assert unknown.returncode == 1 and not deals.exists()  # nor the deals it would have saved
    own = tmp_path / "out" / "journal.jsonl"
    clash = tournament("--save-deals", str(own), "--out", str(tmp_path / "out"), *COMMON)
    assert clash.returncode == 1
    assert clash.stderr.strip() == (
        f"ohhell tournament: error: --save-deals {own} is the tournament's own journal.jsonl"
        " in --out: choose another path"
    )
    folder = tournament("--save-deals", str(tmp_path), "--out", str(tmp_path / "out"), *COMMON)
    assert folder.stderr.strip() == (
        f"ohhell tournament: error: --save-deals {tmp_path} is a folder: name a file"
    )
    (tmp_path / "a-file").write_text("mine")
    nowhere = tmp_path / "a-file" / "sub" / "deals.json"
    missing = tournament("--save-deals", str(nowhere), "--out", str(tmp_path / "out"), *COMMON)
    assert missing.stderr.strip() == (
        f"ohhell tournament: error: --save-deals {nowhere}: {tmp_path / 'a-file'} is a file,"
        " not a folder"
    )
    assert folder.returncode == missing.returncode == 1
    loop = tmp_path / "loop"
    loop.symlink_to(loop)  # Path.resolve raised RuntimeError on it: a traceback
    looped = tournament("--save-deals", str(loop), "--out", str(tmp_path / "out"), *COMMON)
    assert looped.returncode == 1
    assert looped.stderr.startswith(f"ohhell tournament: error: --save-deals {loop} ")
    assert looped.stderr.count("\n") == 1
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # read to compare with the deals, it waited for a writer for ever
    piped = tournament("--save-deals", str(pipe), "--out", str(tmp_path / "out"), *COMMON)
    assert piped.stderr.strip() == (
        f"ohhell tournament: error: --save-deals {pipe} is a pipe (FIFO): name a file"
    )
    assert not (tmp_path / "out").exists()
    made = tmp_path / "new" / "folders" / "deals.json"  # made, as --out's folders are
    into_new = tournament(
        "--save-deals", str(made), "--out", str(tmp_path / "elsewhere"), "--deal-sets", "1",
        "--quiet", *COMMON,
    )  # fmt: skip
    assert into_new.returncode == 0, into_new.stderr
    assert made.is_file()
    other_rules = tournament(  # a 3-player file under the default 4 players: says what to give
        "--deals", str(made), "--out", str(tmp_path / "four"), "--schedule", "custom",
        "--hand-sizes", "1,2",
    )  # fmt: skip
    assert other_rules.returncode == 1
    assert other_rules.stderr.strip() == (
        f"ohhell tournament: error: --deals {made}: the deal sets are for 3 players and 2"
        " hands per game; the rules have 4 players and 2 hands: give --players 3 and the rest"
        " of the rules they were dealt for"
    )
    too_many = tournament("--deals", str(made), "--deal-sets", "2", "--out", str(tmp_path / "x"),
                          *COMMON)  # fmt: skip
    assert too_many.returncode == 1
    assert too_many.stderr.strip() == (
        f"ohhell tournament: error: --deal-sets 2: the deal file --deals {made} holds 1 deal"
        " set: give at most that many, or leave --deal-sets out to play them all"
    )
    assert not (tmp_path / "x").exists()
    inside = tournament(  # into --out, which the tournament makes
        "--save-deals", str(tmp_path / "out" / "deals.json"), "--out", str(tmp_path / "out"),
        "--deal-sets", "1", "--quiet", *COMMON,
    )  # fmt: skip
    assert inside.returncode == 0, inside.stderr
    assert (tmp_path / "out" / "deals.json").is_file()


def test_variants_of_one_bot_meet_by_spec(tmp_path: Path) -> None:
    """Two settings of the search bot, named by bot spec, play a tournament; a bad option
    is one line saying what was wrong."""
    require("rich")
    require("matplotlib")
    candidate, baseline = "search:simulations=16:rivalry=1", "search:simulations=16"
    out = tmp_path / "out"
    done = tournament(
        "--candidate", candidate, "--baseline", baseline, "--deal-sets", "2", "--seed", "4",
        "--out", str(out), *COMMON,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"paired difference ({candidate} - {baseline})" in done.stdout
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert (report["matchup"]["candidate"], report["matchup"]["baseline"]) == (candidate, baseline)
    assert (report["games"], report["failures"]) == (6, [])

    bad = tournament("--candidate", "search:rivalry=2", "--out", str(out), *COMMON)
    assert bad.returncode == 1
    assert bad.stderr.strip() == (
        "ohhell tournament: error: --candidate: bot 'search:rivalry=2': rivalry must be between"
        " 0 and 1, got 2.0"
    )


LONG_MATCH = (
    "--candidate", "heuristic", "--baseline", "random", "--players", "4",
    "--schedule", "custom", "--hand-sizes", "1,2,3,4,5,6,7,8", "--jobs", "2",
)  # fmt: skip
LONG = (*LONG_MATCH, "--deal-sets", "80")


def _running(out: Path, *args: str) -> AbstractContextManager[subprocess.Popen[str]]:
    """A tournament, once some deal sets are in its journal (see ``running_until_saved``)."""
    command = [sys.executable, "-m", "ohhell.cli.main", "tournament", *LONG, "--out", str(out)]
    return running_until_saved([*command, *args], out / "journal.jsonl")


def _stop_midway(out: Path, stop: signal.Signals, *args: str) -> subprocess.CompletedProcess[str]:
    """Start a tournament, send ``stop`` to its process group (as a terminal's Ctrl-C or a
    kill of the whole job does) once some deal sets are in its journal, and wait for it."""
    with _running(out, *args) as process:
        os.killpg(process.pid, stop)
        stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``, started by any of its threads (Linux's ``/proc``; a
    thread that ends while they are listed is passed over)."""
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            children += map(int, (task / "children").read_text().split())
    return children


def _played(out: Path) -> int:
    return (out / "journal.jsonl").read_bytes().count(b"\n") - 1


def test_a_killed_tournament_resumes_where_it_stopped(tmp_path: Path) -> None:
    """No game is lost when the process is killed: the same command with --resume plays the
    deal sets not yet in the journal, and reports what an uninterrupted run reports."""
    require("rich")
    require("matplotlib")
    whole = tournament(*LONG, "--seed", "21", "--out", str(tmp_path / "whole"), "--quiet")
    assert whole.returncode == 0, whole.stderr
    out = tmp_path / "out"
    killed = _stop_midway(out, signal.SIGKILL, "--seed", "21")
    assert killed.returncode == -signal.SIGKILL
    before = _played(out)
    assert 2 <= before < 80
    assert not (out / "report.json").exists()

    fresh = tournament(*LONG, "--seed", "21", "--out", str(out))
    assert fresh.returncode == 1
    assert fresh.stderr.strip() == (
        f"ohhell tournament: error: {out / 'journal.jsonl'} holds an unfinished tournament"
        f" ({before} of 80 deal sets played): add --resume to finish it, or --overwrite to"
        " replace it, or choose another --out"
    )
    other = tournament(*LONG, "--seed", "21", "--out", str(out), "--resume", "--hook")
    assert other.returncode == 1
    assert other.stderr.strip().endswith(
        "records another tournament: rules hook false there, true here"
    )
    assert _played(out) == before  # neither refused run changed the journal

    # the seed and the number of deal sets are in the journal, not the default's 100
    resumed = tournament(*LONG_MATCH, "--out", str(out), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: {before} of 80 deal sets played before" in resumed.stderr
    assert "seed 21;" in resumed.stdout
    assert _played(out) == 80
    report, expected = (
        json.loads((folder / "report.json").read_text(encoding="utf-8"))
        for folder in (out, tmp_path / "whole")
    )
    assert report["paired_differences"] == expected["paired_differences"]
    assert report["bots"][0]["bid_hit_rate"] == expected["bots"][0]["bid_hit_rate"]
    assert report["matchup"] == expected["matchup"]

    more = tournament(*LONG, "--deal-sets", "84", "--out", str(out), "--resume", "--quiet")
    assert more.returncode == 0, more.stderr  # a finished tournament extended by 4 deal sets
    assert _played(out) == 84
    extended = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert extended["deal_sets"] == 84
    assert extended["paired_differences"][:80] == expected["paired_differences"]


def test_a_finished_tournament_is_replaced_only_with_overwrite(tmp_path: Path) -> None:
    """Another tournament into the folder of a finished one is refused (its games would be
    lost) unless --overwrite is given; the same tournament again reads its games back."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    first = tournament("--deal-sets", "2", "--seed", "1", "--out", str(out), "--quiet", *COMMON)
    assert first.returncode == 0, first.stderr
    journal = (out / "journal.jsonl").read_bytes()
    reports = {name: (out / name).read_bytes() for name in REPORT_FILES}
    other = tournament("--deal-sets", "2", "--seed", "2", "--out", str(out), "--quiet", *COMMON)
    assert other.returncode == 1
    assert other.stderr == (
        f"ohhell tournament: error: journal {out / 'journal.jsonl'} records another tournament:"
        " seed 1 there, 2 here; other deals: it is finished, with its reports; --overwrite"
        " replaces it, or choose another --out\n"
    )
    assert (out / "journal.jsonl").read_bytes() == journal
    assert {name: (out / name).read_bytes() for name in REPORT_FILES} == reports
    for given in (("--deal-sets", "2", "--seed", "1"), ()):  # left out: the journal's
        again = tournament(*given, "--out", str(out), *COMMON)
        assert again.returncode == 0, again.stderr
        assert f"already played: 2 deal sets read back from {out / 'journal.jsonl'}" in (
            again.stderr
        )
        assert (out / "journal.jsonl").read_bytes() == journal  # nothing played again
        assert (out / "report.json").read_bytes() == reports["report.json"]
    deals, other_out = tmp_path / "deals.json", tmp_path / "from-file"
    saved = tournament("--deal-sets", "3", "--seed", "9", "--save-deals", str(deals), "--out",
                       str(tmp_path / "saved"), "--quiet", *COMMON)  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    first_of_file = ("--deals", str(deals), "--out", str(other_out), *COMMON)
    assert tournament(*first_of_file, "--deal-sets", "2", "--quiet").returncode == 0
    from_file = tournament(*first_of_file)  # its seed and count come from the journal
    assert from_file.returncode == 0, from_file.stderr
    assert "already played: 2 deal sets read back" in from_file.stderr
    assert (  # the file holds more than the tournament played: how to play them is said
        f"--deals {deals} holds 3 deal sets; the tournament in {other_out} is of 2:"
        " --deal-sets 3 extends it to all of them"
    ) in from_file.stderr
    anew = tournament("--deal-sets", "2", "--seed", "1", "--out", str(out), "--overwrite", *COMMON)
    assert anew.returncode == 0, anew.stderr  # played again from scratch, not read back
    assert "already played" not in anew.stderr and "extending" not in anew.stderr
    more = tournament("--deal-sets", "3", "--seed", "1", "--out", str(out), *COMMON)
    assert more.returncode == 0, more.stderr
    assert "extending: 2 of 3 deal sets played before" in more.stderr
    assert read_journal(out / "journal.jsonl").deal_sets == 3
    fewer = tournament("--deal-sets", "1", "--seed", "1", "--out", str(out), *COMMON)
    assert fewer.returncode == 1
    assert fewer.stderr.count("choose another --out") == 1
    old = out / "journal.jsonl"
    old.write_text(old.read_text(encoding="utf-8").replace('"version":2', '"version":1', 1))
    refused = tournament("--deal-sets", "2", "--seed", "1", "--out", str(out), *COMMON)
    assert refused.returncode == 1
    assert "--overwrite replaces it, or choose another --out" in refused.stderr
    replaced = tournament(
        "--deal-sets", "2", "--seed", "1", "--out", str(out), "--overwrite", *COMMON
    )  # fmt: skip
    assert replaced.returncode == 0, replaced.stderr  # an earlier version's, replaced as asked
    assert read_journal(out / "journal.jsonl").deal_sets == 2


def test_reading_a_finished_tournament_back_keeps_its_reports_until_it_replaces_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same command after a finished run writes its reports again, each replaced whole: a
    run that stops before it has rewritten them (killed, a full disk) leaves the earlier ones,
    and the journal, as they were."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    command = ["tournament", "--deal-sets", "2", "--seed", "1", "--out", str(out), *COMMON]
    assert main([*command, "--quiet"]) == 0
    before = {name: (out / name).read_bytes() for name in (*REPORT_FILES, "journal.jsonl")}
    deals = generate_deal_sets(
        Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 2)), 2, 1
    )
    lines = [json.loads(line) for line in before["journal.jsonl"].splitlines()[1:]]
    assert {line["index"]: line["deal_set_sha256"] for line in lines} == {
        i: deal_set.digest() for i, deal_set in enumerate(deals.sets)
    }  # each line names the deal set it was played on

    def full_disk(*args: object, **kwargs: object) -> list[Path]:
        assert set(before) <= {path.name for path in out.iterdir()}  # still there meanwhile
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out / "report.json"))

    monkeypatch.setattr("ohhell.tournament.report.write_reports", full_disk)
    assert main(command) == 1
    assert "cannot write the reports (No space left on device" in capsys.readouterr().err
    assert {name: (out / name).read_bytes() for name in before} == before


def test_a_tournament_is_played_on_only_by_the_build_that_played_it(tmp_path: Path) -> None:
    """The journal and the report name the build that played the games. Another build may
    read a finished tournament back, but not resume or extend it: the report would mix two
    builds' games (one that played nothing is anyone's). A journal that does not say its
    build is read back saying none, and resumed as this build's."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    path, report = out / "journal.jsonl", out / "report.json"
    first = tournament("--deal-sets", "3", "--seed", "1", "--out", str(out), "--quiet", *COMMON)
    assert first.returncode == 0, first.stderr
    header, *played = path.read_bytes().splitlines(keepends=True)
    header_data = json.loads(header)
    here = tournament_build()
    assert header_data["build"] == here
    assert json.loads(report.read_text(encoding="utf-8"))["build"] == here

    header_data["build"] = {"ohhell": "0.0.9", "code": "0123456789abcdef"}
    path.write_bytes(json_line(header_data) + played[0])  # another build's, 1 of 3 played
    cut_short = path.read_bytes()
    resumed = tournament("--out", str(out), "--resume", *COMMON)
    assert resumed.returncode == 1
    assert resumed.stderr == (
        f"ohhell tournament: error: journal {path} was played by another build (ohhell 0.0.9,"
        f" code 0123456789abcdef; this is ohhell {here['ohhell']}, code {here['code']}): played"
        " on, its report would mix the two builds' games. Finish it with the build that played"
        " it, or --overwrite plays it all again with this one, or choose another --out\n"
    )
    assert path.read_bytes() == cut_short

    path.write_bytes(json_line(header_data) + b"".join(played))  # another build's, finished
    finished = path.read_bytes()
    again = tournament("--out", str(out), *COMMON)
    assert again.returncode == 0, again.stderr
    assert "already played: 3 deal sets read back" in again.stderr
    assert path.read_bytes() == finished
    assert json.loads(report.read_text(encoding="utf-8"))["build"] == header_data["build"]
    extended = tournament("--deal-sets", "4", "--out", str(out), *COMMON)
    assert extended.returncode == 1
    assert "was played by another build (ohhell 0.0.9" in extended.stderr
    assert path.read_bytes() == finished

    path.write_bytes(json_line(header_data))  # another build's that played nothing: anyone's
    nothing = tournament("--out", str(out), "--resume", "--quiet", *COMMON)
    assert nothing.returncode == 0, nothing.stderr
    assert read_journal(path).build == here
    assert read_journal(path).played == 3

    del header_data["build"]  # as written before builds were recorded
    path.write_bytes(json_line(header_data) + b"".join(played))  # finished: read back as it is
    again = tournament("--out", str(out), "--quiet", *COMMON)
    assert again.returncode == 0, again.stderr
    assert read_journal(path).build is None  # not relabelled: nothing was played
    assert json.loads(report.read_text(encoding="utf-8"))["build"] is None
    path.write_bytes(json_line(header_data) + played[0])  # unfinished: resumed as this build's
    unknown = tournament("--out", str(out), "--resume", "--quiet", *COMMON)
    assert unknown.returncode == 0, unknown.stderr
    assert read_journal(path).build == here
    assert read_journal(path).played == 3


def test_a_new_tournament_takes_away_the_reports_of_the_one_it_replaces(tmp_path: Path) -> None:
    """A report never sits beside a journal of another tournament, even when the new one
    ends without a report of its own (here every deal set fails: no report is written)."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    first = tournament("--deal-sets", "2", "--seed", "1", "--out", str(out), "--quiet", *COMMON)
    assert first.returncode == 0, first.stderr
    assert all((out / name).exists() for name in REPORT_FILES)
    failed = tournament(
        "--deal-sets", "2", "--seed", "3", "--budget-seconds", "1e-9", "--out", str(out),
        "--quiet", "--overwrite", *COMMON,
    )  # fmt: skip
    assert failed.returncode == 1 and "no deal set was completed" in failed.stderr
    assert "Traceback" not in failed.stderr  # told as an error, not an exception escaping
    assert failed.stderr.rstrip().endswith(
        f"; {out / 'journal.jsonl'} records the voided deal sets: the same command with"
        " --overwrite plays them again (with a larger budget, say)"
    )
    assert read_journal(out / "journal.jsonl").seed == 3
    assert not any((out / name).exists() for name in REPORT_FILES)
    other = tournament("--deal-sets", "2", "--seed", "3", "--out", str(out), "--quiet", *COMMON)
    assert other.returncode == 1  # not said to be finished "with its reports": it has none
    assert other.stderr.rstrip().endswith(
        ": it is finished, every deal set voided by a bot failure, so without reports;"
        " --overwrite replaces it, or choose another --out"
    )


def test_report_files_no_tournament_wrote_are_left_alone(tmp_path: Path) -> None:
    """Report files in --out with no journal beside them are not a tournament's: a run there
    is refused and leaves them as they are, unless --overwrite says to replace them."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.csv").write_text("mine")
    refused = tournament("--deal-sets", "1", "--out", str(out), "--quiet", *COMMON)
    assert refused.returncode == 1
    assert refused.stderr == (
        f"ohhell tournament: error: {out} holds report.csv but no tournament journal"
        " (journal.jsonl), so they are not a tournament's reports there, and a tournament would"
        " replace them: choose another --out, or --overwrite replaces them\n"
    )
    assert [p.name for p in out.iterdir()] == ["report.csv"]
    assert (out / "report.csv").read_text() == "mine"
    replaced = tournament("--deal-sets", "1", "--out", str(out), "--quiet", "--overwrite", *COMMON)
    assert replaced.returncode == 0, replaced.stderr
    assert (out / "report.csv").read_text() != "mine"


def test_a_killed_runs_temporary_files_are_swept_by_the_next_run(tmp_path: Path) -> None:
    """A process killed between creating a report's or the journal's temporary file and
    renaming it into place leaves that file behind; the next tournament into the folder
    takes it away (the run never reported it), and leaves any other file alone."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    out.mkdir()
    stale = [
        out / ".journal.jsonl.k2x9ab_c.ohhell-tmp",
        out / ".report.png.q81zz0ab.ohhell-tmp",
        out / ".report.csv.a0000000.ohhell-tmp",
    ]
    for path in stale:
        path.write_text("half written")
    (out / "notes.txt").write_text("mine")
    (out / ".report.csv.original").write_text("mine too")  # eight letters: once taken
    done = tournament("--deal-sets", "1", "--out", str(out), "--quiet", *COMMON)
    assert done.returncode == 0, done.stderr
    assert not any(path.exists() for path in stale)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / ".report.csv.original").read_text() == "mine too"
    assert (out / "report.png").read_bytes().startswith(b"\x89PNG")


def test_the_out_folder_is_free_once_the_main_process_is_killed(tmp_path: Path) -> None:
    """Killed alone with SIGKILL, the main process frees its --out folder at once, though
    its workers (forked while it held the folder) outlive it for a moment: a --resume typed
    straight after is not refused as "another tournament is writing". The workers, the fork
    server and the resource tracker then end by themselves, closing the command's output:
    the workers once watched the fork server, which waited for them, and all ran for ever,
    so that ``ohhell tournament ... | tee log`` never finished."""
    import fcntl  # the lock is a flock (Linux and macOS)

    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    with _running(out, "--seed", "5") as process:
        os.kill(process.pid, signal.SIGKILL)  # not the group: the workers live on a moment
        process.wait(timeout=60)  # not communicate(): the workers hold its pipes open
        fd = os.open(out, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError if still held
        finally:
            os.close(fd)
        try:
            process.communicate(timeout=30)  # every copy of its pipes closed
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            pytest.fail("the killed tournament's workers outlived it, holding its output open")
    resumed = tournament(*LONG, "--out", str(out), "--resume", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert _played(out) == 80


def _signals(pid: int, field: str) -> int:
    """A process's signal mask of ``field`` (SigBlk: blocked, SigIgn: ignored) from /proc."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith(field)).split()[1], 16)


def test_the_fork_server_and_its_workers_never_hear_ctrl_c(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole foreground group: the fork server, while it imported what it
    preloads, and each worker, until its initializer ran, printed a KeyboardInterrupt
    traceback after the tournament's last words when it came early. The command starts the
    fork server with Ctrl-C blocked, and the workers it forks inherit that."""
    require("rich")
    sigint = 1 << (signal.SIGINT - 1)
    with _running(tmp_path / "out", "--seed", "7") as process:
        servers = [
            child
            for child in _children(process.pid)
            if b"multiprocessing.forkserver" in Path(f"/proc/{child}/cmdline").read_bytes()
        ]
        assert len(servers) == 1
        workers = _children(servers[0])
        assert len(workers) == 2
        for pid in (*servers, *workers):
            assert _signals(pid, "SigBlk") & sigint, f"process {pid} can hear Ctrl-C"
        assert not _signals(process.pid, "SigBlk") & sigint  # the main process stops them


def test_a_worker_killed_alone_ends_the_run_with_what_is_saved(tmp_path: Path) -> None:
    """Workers killed on their own (the out-of-memory killer's way) end the run with
    exit status 1 and one line saying what is saved and how to go on, not a traceback; the
    same command with --resume plays the rest."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    with _running(out, "--seed", "5") as process:
        if not Path(f"/proc/{process.pid}/task").exists():
            pytest.skip("a process's children are listed by Linux's /proc alone")
        # the workers are the fork server's children (not the fork server, nor
        # multiprocessing's resource tracker: the main process is their parent)
        (server,) = [
            child
            for child in _children(process.pid)
            if b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes()
        ]
        workers = _children(server)
        assert len(workers) == 2
        for worker in workers:
            # the first killed, the main process stops the others itself: one may be gone
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker, signal.SIGKILL)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 1, stderr
    saved = _played(out)
    assert stderr.strip().splitlines()[-1] == (
        "ohhell tournament: error: a worker process ended abruptly (killed, out of memory"
        f" perhaps, or crashed): {saved} of 80 deal sets are saved in {out / 'journal.jsonl'}:"
        " the same command with --resume plays the rest"
    )
    resumed = tournament(*LONG, "--out", str(out), "--resume", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert _played(out) == 80


def test_sigterm_stops_as_ctrl_c_does(tmp_path: Path) -> None:
    """``kill`` or ``timeout`` (SIGTERM) stops the tournament with the same message; a
    command with ``--overwrite`` is told to take ``--resume`` in its place (the two exclude
    each other, and it said "the same command with --resume", which was refused)."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    stopped = _stop_midway(out, signal.SIGTERM, "--seed", "23", "--overwrite")
    assert stopped.returncode == 128 + signal.SIGTERM, stopped.stderr
    assert stopped.stderr.strip().splitlines()[-1] == (
        f"ohhell tournament: terminated; {_played(out)} of 80 deal sets are saved in"
        f" {out / 'journal.jsonl'}: the same command with --resume in place of --overwrite"
        " plays the rest"
    )
    assert "Traceback" not in stopped.stderr
    resumed = tournament(*LONG, "--seed", "23", "--out", str(out), "--resume", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert _played(out) == 80


def test_a_hang_up_of_the_whole_group_ends_with_one_line(tmp_path: Path) -> None:
    """A closed terminal hangs up every process of the group, multiprocessing's resource
    tracker too, which ignores Ctrl-C and SIGTERM but not SIGHUP: dead of it, it was started
    again, and its KeyError tracebacks followed the tournament's last line."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    stopped = _stop_midway(out, signal.SIGHUP, "--seed", "24")
    assert stopped.returncode == 128 + signal.SIGHUP, stopped.stderr
    assert stopped.stderr.strip().splitlines() == [
        f"ohhell tournament: terminated; {_played(out)} of 80 deal sets are saved in"
        f" {out / 'journal.jsonl'}: the same command with --resume plays the rest"
    ]


def test_ctrl_c_stops_at_once_and_says_how_to_finish(tmp_path: Path) -> None:
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    stopped = _stop_midway(out, signal.SIGINT, "--seed", "22")
    assert stopped.returncode == 130, stopped.stderr
    played = _played(out)
    assert stopped.stderr.strip().splitlines()[-1] == (
        f"ohhell tournament: interrupted; {played} of 80 deal sets are saved in"
        f" {out / 'journal.jsonl'}: the same command with --resume plays the rest"
    )
    assert "Traceback" not in stopped.stderr
    nothing = tournament(*LONG, "--seed", "22", "--out", str(tmp_path / "none"), "--resume")
    assert nothing.returncode == 1
    assert nothing.stderr.strip() == (
        "ohhell tournament: error: nothing to resume: there is no journal"
        f" {tmp_path / 'none' / 'journal.jsonl'}"
    )
    resumed = tournament(*LONG, "--seed", "22", "--out", str(out), "--resume", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["deal_sets"] == 80


def test_a_second_tournament_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    """Two tournaments writing one journal would garble it: while one runs, another into its
    folder (new or resuming) is refused and changes nothing."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    busy = (
        f"ohhell tournament: error: another ohhell command is writing to {out} now: wait for"
        " it to finish, or choose another --out"
    )
    more = ("--deal-sets", "5000", "--seed", "24")  # far more than it plays in this test
    with _running(out, *more) as first:
        for again in ((), ("--resume",)):
            second = tournament(*LONG, *more, "--out", str(out), *again)
            assert second.returncode == 1
            assert second.stderr.strip() == busy
        assert first.poll() is None  # both were refused while the first was running
        os.killpg(first.pid, signal.SIGINT)
        _, stderr = first.communicate(timeout=60)
    assert first.returncode == 130, stderr
    journal = read_journal(out / "journal.jsonl")  # whole: the refused runs wrote nothing
    assert not journal.torn
    assert f"; {journal.played} of 5000 deal sets are saved in" in stderr


def test_without_the_tournament_extra_it_says_which(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    assert main(["tournament", "--deal-sets", "1", "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err.strip() == (
        "ohhell tournament: error: the tournament needs the 'tournament' extra (matplotlib is"
        " not installed): pip install 'ohhell[tournament]'"
    )
    assert not (tmp_path / "out").exists()


def test_jobs_may_be_up_to_four_per_core(tmp_path: Path) -> None:
    require("rich")
    require("matplotlib")
    most = 4 * (os.cpu_count() or 1)
    args = ("--players", "3", "--schedule", "custom", "--hand-sizes", "1", "--deal-sets", "1")
    done = tournament(*args, "--jobs", str(most), "--quiet", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    over = tournament(*args, "--jobs", str(most + 1), "--out", str(tmp_path / "over"))
    assert over.returncode == 1
    assert f"--jobs must be from 1 to {most} (4 per core here), got {most + 1}" in over.stderr
    assert not (tmp_path / "over").exists()


def test_a_journal_that_played_nothing_may_be_replaced(tmp_path: Path) -> None:
    """A tournament stopped before its first deal set was saved lost nothing: another
    tournament may start in its folder without --overwrite."""
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    first = tournament("--deal-sets", "2", "--seed", "1", "--out", str(out), "--quiet", *COMMON)
    assert first.returncode == 0, first.stderr
    header = (out / "journal.jsonl").read_bytes().split(b"\n")[0] + b"\n"
    (out / "journal.jsonl").write_bytes(header)  # as stopped before its first deal set
    other = tournament("--deal-sets", "2", "--seed", "2", "--out", str(out), "--quiet", *COMMON)
    assert other.returncode == 0, other.stderr
    assert read_journal(out / "journal.jsonl").seed == 2


def test_a_budget_no_bot_can_keep_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """A search asked for more simulations than it plays without a time limit would refuse
    every decision: the tournament is refused before it starts, not played into a journal of
    voided deal sets."""
    out = tmp_path / "out"
    for flags in (
        ("--candidate", "search", "--budget-sims", "300000"),
        ("--candidate", "expert", "--budget-sims", "300000"),  # the budget replaces the level's
        ("--baseline", "search:simulations=300000"),
    ):
        refused = tournament(*COMMON, *flags, "--out", str(out))
        assert refused.returncode == 1
        side = flags[0]
        assert refused.stderr.startswith(f"ohhell tournament: error: {side}: 300,000 simulations")
        assert refused.stderr.rstrip().endswith(
            "in one decision, at most 1,000,000: give at most 111,111 simulations, or a time"
            " limit too"
        )
        assert not out.exists()
    timed = tournament(  # with a time limit, the clock stops the search
        *COMMON, "--candidate", "search:simulations=300000", "--budget-seconds", "0.5",
        "--deal-sets", "1", "--quiet", "--out", str(out),
    )  # fmt: skip
    assert timed.returncode == 0, timed.stderr


def _finished(out: Path) -> dict[str, bytes]:
    done = tournament("--deal-sets", "2", "--seed", "4", "--out", str(out), "--quiet", *COMMON)
    assert done.returncode == 0, done.stderr
    return {path.name: path.read_bytes() for path in out.iterdir()}


def test_a_journal_that_cannot_be_written_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run again, resumed or extended, a tournament rewrites its journal before it plays: if
    that fails (a full disk), its journal and reports are as they were."""
    require("rich")
    require("matplotlib")
    from ohhell.cli import tournament as command

    out = tmp_path / "out"
    before = _finished(out)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(command, "JournalWriter", full)
    args = ["tournament", "--deal-sets", "3", "--out", str(out), "--quiet", *COMMON]
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == (
        f"ohhell tournament: error: cannot write the journal {out / 'journal.jsonl'} (No space"
        " left on device): nothing was changed: its 2 deal sets played before are kept as"
        " they were"
    )
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before


def test_a_report_that_cannot_be_replaced_changes_nothing_or_says_what_is_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Extended, a tournament takes away its old reports before it plays. A folder where a
    report goes is refused before anything changes; a report it may not remove is said, with
    the deal sets kept and how to go on."""
    require("rich")
    require("matplotlib")
    from ohhell.cli import tournament as command

    out = tmp_path / "out"
    _finished(out)
    (out / "report.png").unlink()
    (out / "report.png").mkdir()
    before = {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()}
    args = ["tournament", "--deal-sets", "3", "--out", str(out), "--quiet", *COMMON]
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == (
        f"ohhell tournament: error: {out / 'report.png'} is a folder, not a report file, and a"
        " tournament writes its report there: remove it, or choose another --out"
    )
    assert {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()} == before
    (out / "report.png").rmdir()
    (out / "report.png").touch()

    def refused(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted", str(self))

    monkeypatch.setattr(command.Path, "unlink", refused)
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == (
        f"ohhell tournament: error: cannot remove the old report {out / 'report.json'}"
        " (Operation not permitted): the 2 deal sets played before are kept; once it can be"
        " removed, the same command with --resume plays the rest"
    )
    monkeypatch.undo()
    assert main([*args, "--resume"]) == 0
    assert read_journal(out / "journal.jsonl").played == 3


def test_a_deal_set_that_cannot_be_saved_stops_the_run_and_resumes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A disk that fills during the run stops it with what is saved and how to go on; the
    deal sets saved before are kept, and --resume plays the rest."""
    require("rich")
    require("matplotlib")
    from ohhell.tournament.journal import JournalWriter

    real = JournalWriter.append
    appended: list[int] = []

    def fills(self: JournalWriter, outcome: object) -> None:
        if appended:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, outcome)  # type: ignore[arg-type]
        appended.append(1)

    monkeypatch.setattr(JournalWriter, "append", fills)
    out = tmp_path / "out"
    args = ["--deal-sets", "3", "--seed", "4", "--out", str(out), "--quiet"]
    assert main(["tournament", *args, *COMMON]) == 1
    journal = out / "journal.jsonl"
    assert capsys.readouterr().err.strip() == (
        f"ohhell tournament: error: cannot save a deal set to {journal} (No space left on"
        " device): 1 of 3 deal sets are saved there; once it can be written, the same command"
        " with --resume plays the rest"
    )
    assert read_journal(journal).played == 1
    monkeypatch.undo()
    resumed = tournament(*args, "--resume", *COMMON)
    assert resumed.returncode == 0, resumed.stderr
    assert read_journal(journal).played == 3


def test_a_file_size_limit_reached_mid_line_stops_the_run_with_how_to_go_on(
    tmp_path: Path,
) -> None:
    """A real write failure, not a mocked one: under a file size limit (``ulimit -f``) the
    journal's line is cut short and the write fails, leaving the line in the file's buffer.
    The run still says what is saved and how to resume (closing the journal tried to write
    the line again, and the second failure replaced that message with "File too large"),
    and --resume, without the limit, plays the rest."""
    require("rich")
    require("matplotlib")
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (30 * 1024, 30 * 1024))

    out = tmp_path / "out"
    args = ["--candidate", "heuristic", "--baseline", "random", "--deal-sets", "40"]
    args += ["--seed", "1", "--jobs", "1", "--quiet", "--out", str(out)]
    stopped = subprocess.run(
        [sys.executable, "-m", "ohhell.cli.main", "tournament", *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        preexec_fn=limited,
    )
    journal = out / "journal.jsonl"
    saved = read_journal(journal).played
    assert 0 < saved < 40
    assert stopped.returncode == 1
    assert stopped.stderr == (
        f"ohhell tournament: error: cannot save a deal set to {journal} (File too large):"
        f" {saved} of 40 deal sets are saved there; once it can be written, the same command"
        " with --resume plays the rest\n"
    )
    resumed = tournament(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert read_journal(journal).played == 40


def test_the_same_deals_saved_under_another_seed_are_the_same_deals(tmp_path: Path) -> None:
    """Deals read from one file, played under another --seed and saved again carry that seed
    (below); a tournament played from the first file goes on from the second, as they hold the
    same deals. A journal holding the digest of the deals with their file's seed (as before
    2026-12-05) goes on too; one of other deals does not."""
    require("rich")
    require("matplotlib")
    first, again, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "out"
    quiet = ["--quiet", *COMMON]
    made = tournament("--deal-sets", "3", "--seed", "5", "--save-deals", str(first),
                      "--out", str(tmp_path / "first"), *quiet)  # fmt: skip
    assert made.returncode == 0, made.stderr
    played = tournament("--deals", str(first), "--seed", "8", "--save-deals", str(again),
                        "--out", str(out), *quiet)  # fmt: skip
    assert played.returncode == 0, played.stderr
    resumed = tournament("--deals", str(again), "--resume", "--out", str(out), *quiet)
    assert resumed.returncode == 0, resumed.stderr
    journal = out / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    from ohhell.tournament.deals import load_deal_sets

    for digest, code in ((load_deal_sets(first).digest(with_seed=True), 0), ("0" * 64, 1)):
        header["deals_sha256"] = digest
        journal.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
        again_resumed = tournament("--deals", str(first), "--resume", "--out", str(out), *quiet)
        assert again_resumed.returncode == code, again_resumed.stderr
    assert "records another tournament: other deals" in again_resumed.stderr
    same_path = tournament("--deals", str(first), "--seed", "8", "--save-deals", str(first),
                           "--out", str(tmp_path / "third"), *quiet)  # fmt: skip
    assert same_path.returncode == 1
    assert "already holds these deal sets, with the seed 5 where this run's is 8" in (
        same_path.stderr
    )


def test_saved_deals_carry_the_seed_of_the_run_that_saved_them(tmp_path: Path) -> None:
    """Deals read from a file and played under another --seed are saved with that seed, so
    the saved file replays the run without --seed."""
    require("rich")
    require("matplotlib")
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    made = tournament(
        "--deal-sets", "2", "--seed", "21", "--save-deals", str(first), "--quiet", "--out",
        str(tmp_path / "a"), *COMMON,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    reseeded = tournament(
        "--deals", str(first), "--seed", "99", "--save-deals", str(again), "--quiet", "--out",
        str(tmp_path / "b"), *COMMON,
    )  # fmt: skip
    assert reseeded.returncode == 0, reseeded.stderr
    assert json.loads(again.read_text(encoding="utf-8"))["seed"] == 99
    replay = tournament("--deals", str(again), "--quiet", "--out", str(tmp_path / "c"), *COMMON)
    assert replay.returncode == 0, replay.stderr
    b, c = (
        json.loads((tmp_path / name / "report.json").read_text(encoding="utf-8"))
        for name in ("b", "c")
    )
    assert c["matchup"]["seed"] == 99
    assert c["paired_differences"] == b["paired_differences"]


def test_save_deals_that_cannot_be_written_is_said_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require("rich")
    require("matplotlib")
    from ohhell.cli import tournament as command

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(command, "save_deal_sets", full)
    target = tmp_path / "new" / "deals.json"
    args = ["tournament", "--save-deals", str(target), "--out", str(tmp_path / "out"), *COMMON]
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == (
        f"ohhell tournament: error: --save-deals {target}: cannot write it (No space left on"
        " device); nothing was played"
    )
    assert not (tmp_path / "new").exists()  # the folder made for it is taken away again
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    monkeypatch.undo()
    args = ["tournament", "--save-deals", str(dangling), "--out", str(tmp_path / "out"), *COMMON]
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == (
        f"ohhell tournament: error: --save-deals {dangling} is a link to"
        f" {tmp_path / 'nowhere.json'}, which does not exist: remove it or choose another path"
    )


def test_a_spec_is_named_without_the_spaces_around_it(tmp_path: Path) -> None:
    require("rich")
    require("matplotlib")
    out = tmp_path / "out"
    done = tournament(*COMMON, "--candidate", " random ", "--deal-sets", "1", "--quiet", "--out",
                      str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["matchup"]["candidate"] == "random"
    assert read_journal(out / "journal.jsonl").header["matchup"]["candidate"] == "random"


TOURNAMENT = (sys.executable, "-m", "ohhell", "tournament")


def test_a_reader_gone_ends_a_tournament_as_every_command(tmp_path: Path) -> None:
    """``ohhell tournament | head``: rich's console took the broken pipe itself and exited 1,
    a bad input's status, where every other command ends with 141, as ``cat`` does; the
    reports are written first either way."""
    with subprocess.Popen(
        [*TOURNAMENT, *COMMON, "--deal-sets", "2", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader goes away before the table
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=300) == 141, stderr
    assert "Traceback" not in stderr and "error" not in stderr, stderr
    assert all((tmp_path / "out" / name).is_file() for name in REPORT_FILES)


def test_two_runs_saving_the_same_deals_at_once_both_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several candidates started at once on one ``--save-deals`` file: the one whose file
    another run wrote first, between its look and its write, was refused as if the file
    held other deals; the same deals are what a second run may find there."""
    from ohhell.cli import tournament as command
    from ohhell.tournament import save_deal_sets

    path = tmp_path / "deals.json"
    rules = Rules(player_count=3)
    mine = generate_deal_sets(rules, 2, seed=5)

    def written_first_by_another(deal_sets: object, to: Path, *, replace: bool) -> None:
        save_deal_sets(other, to, replace=False)  # the other run, just before this one
        save_deal_sets(deal_sets, to, replace=replace)  # type: ignore[arg-type]

    other = mine
    monkeypatch.setattr(command, "save_deal_sets", written_first_by_another)
    command._save_deals(mine, path)  # the same deals: taken as saved
    path.unlink()
    other = generate_deal_sets(rules, 2, seed=6)
    with pytest.raises(command.TournamentError, match="does not hold these deal sets"):
        command._save_deals(mine, path)


def test_a_bot_of_ones_own_plays_from_the_command_line(tmp_path: Path) -> None:
    """``--candidate mybots.LowBot`` with its module on PYTHONPATH: made in each worker from
    its name, and named so in the reports."""
    require("rich")
    require("matplotlib")
    root = Path(__file__).resolve().parents[2]
    spec = "tests.tournament.own_bot.LowBot:greedy=true"
    out = tmp_path / "out"

    def play(candidate: str, deal_sets: int) -> dict[str, Any]:
        done = subprocess.run(
            [*TOURNAMENT, *COMMON, "--candidate", candidate, "--deal-sets", str(deal_sets),
             "--quiet", "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
            env={**os.environ, "PYTHONPATH": str(root)},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        report: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
        return report

    report = play(spec, 3)
    assert report["matchup"]["candidate"] == spec and report["deal_sets"] == 3
    # extended with the spec spelt another way: the tournament keeps the name it was played by
    report = play("tests.tournament.own_bot.LowBot: greedy=yes", 4)
    assert report["matchup"]["candidate"] == spec and report["deal_sets"] == 4
    assert [bot["bot"] for bot in report["bots"]] == [spec, "random"]
