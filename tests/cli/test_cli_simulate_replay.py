"""End-to-end tests of the real ``ohhell`` command: simulate, replay, rules."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.conftest import in_ci, signals_at_their_defaults

from ohhell.engine import CONVENTIONS


def ohhell_command() -> list[str]:
    """The installed ``ohhell`` command (``python -m ohhell.cli.main`` where the project is
    not installed, never in CI: there the command itself must work)."""
    script = Path(sys.executable).parent / "ohhell"
    assert script.exists() or not in_ci(), f"the ohhell command is not installed at {script}"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ohhell.cli.main"]


def ohhell(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed ``ohhell`` command, run to its end (:func:`ohhell_command`)."""
    return subprocess.run(
        [*ohhell_command(), *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        check=False,
        cwd=cwd,
    )


def test_the_command_says_its_version() -> None:
    from ohhell import __version__

    result = ohhell("--version")
    assert (result.returncode, result.stdout) == (0, f"ohhell {__version__}\n")
    module = subprocess.run(  # python -m ohhell is the same command
        [sys.executable, "-m", "ohhell", "--version"], capture_output=True, text=True, check=False
    )
    assert (module.returncode, module.stdout) == (0, f"ohhell {__version__}\n")


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "recs"
    result = ohhell("simulate", "--players", "5", "--seed", "42", "--games", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "game 1 of 2: 5 players, ascending (10 hands); seed 42" in result.stdout
    assert "total" in result.stdout and "winner" in result.stdout
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["game-42.json", "game-43.json"]
    replayed = ohhell("replay", str(files[0]))
    assert replayed.returncode == 0, replayed.stderr
    assert "valid record; 5 players, ascending (10 hands); finished" in replayed.stdout
    # same seed, same game
    again = ohhell("simulate", "--players", "5", "--seed", "42", "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again" / "game-42.json").read_text() == files[0].read_text()


def test_simulate_rule_options_and_json(tmp_path: Path) -> None:
    result = ohhell(
        "simulate", "--preset", "hook", "--players", "3", "--schedule", "up-and-down",
        "--repeat-turning-hand", "--must-trump", "--zero-bid-bonus", "--seed", "1",
        "--json", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    sheet = json.loads(result.stdout.splitlines()[0])
    assert len(sheet["hands"]) == 30 and sheet["finished"] is True
    assert sheet["record"] == str(tmp_path / "game-1.json")  # the line names its record
    record = json.loads((tmp_path / "game-1.json").read_text())
    assert record["rules"]["hook"] is True and record["rules"]["must_trump"] is True
    unrecorded = ohhell("simulate", "--seed", "2", "--json", "--no-records", cwd=tmp_path)
    assert unrecorded.returncode == 0, unrecorded.stderr
    assert json.loads(unrecorded.stdout)["record"] is None
    assert list(tmp_path.iterdir()) == [tmp_path / "game-1.json"]  # no ./records written


@pytest.mark.parametrize(
    ("flags", "changed"),
    [
        (("--players", "6"), {"player_count": 6}),
        (("--schedule", "descending"), {"schedule": "descending"}),
        (
            ("--schedule", "up-and-down", "--repeat-turning-hand"),
            {"schedule": "up-and-down", "repeat_turning_hand": True},
        ),
        (("--hand-sizes", "1,3"), {"schedule": "custom", "custom_hand_sizes": [1, 3]}),
        (("--trump-in-last-hand",), {"trump_in_last_hand": True}),
        (("--hook",), {"hook": True}),
        (("--bidding", "simultaneous"), {"bidding": "simultaneous"}),
        (("--must-trump",), {"must_trump": True}),
        (("--missed-bids-score-tricks",), {"missed_bid_scores_tricks": True}),
        (("--zero-bid-bonus",), {"zero_bid_bonus": True}),
    ],
)
def test_each_rule_flag_sets_its_own_option(
    flags: tuple[str, ...], changed: dict[str, object]
) -> None:
    """Every rule flag sets the option it names and nothing else (a flag wired to the wrong
    field would play another game under the right name)."""
    default = json.loads(ohhell("rules", "--json").stdout)
    result = ohhell("rules", "--json", *flags)
    assert result.returncode == 0, result.stderr
    rules = json.loads(result.stdout)
    assert {key: value for key, value in rules.items() if default[key] != value} == changed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "2"), "player_count must be an integer from 3 to 7, got 2 (--players)"),
        (
            ("--hook", "--bidding", "simultaneous"),
            "hook cannot be combined with bidding=simultaneous",
        ),
        (("--hook", "--bidding", "simultaneous"), "has none (--hook, --bidding)"),
        (("--repeat-turning-hand",), "repeat_turning_hand applies only to"),
        (("--repeat-turning-hand",), "not ascending (--repeat-turning-hand)\n"),
    ],
)
def test_simulate_rejects_bad_rules(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    result = ohhell("simulate", *args, "--out", str(tmp_path))
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_json_output(tmp_path: Path) -> None:
    golden = Path(__file__).parents[1] / "golden" / "records" / "standard-4p.json"
    result = ohhell("replay", "--json", str(golden))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    record = json.loads(golden.read_text())
    assert data["totals"] == record["result"]["totals"]
    assert data["winners"] == record["result"]["winners"]
    assert len(data["hands"]) == 13 and data["rules"]["player_count"] == 4


def test_replay_from_stdin() -> None:
    """A record read from standard input is replayed as the same file is: the same score
    sheet, under the name ``-``."""
    golden = Path(__file__).parents[1] / "golden" / "records" / "hook-4p.json"
    result = ohhell("replay", "-", stdin=golden.read_text())
    assert result.returncode == 0, result.stderr
    from_file = ohhell("replay", str(golden))
    assert from_file.returncode == 0, from_file.stderr
    assert result.stdout == from_file.stdout.replace(f"{golden}: ", "-: ", 1)
    assert result.stdout.startswith("-: valid record; 4 players, ascending (13 hands), hook;")
    assert "winner" in result.stdout


def test_replay_rejects_illegal_truncated_and_corrupt(tmp_path: Path) -> None:
    golden = Path(__file__).parents[1] / "golden" / "records" / "standard-4p.json"
    text = golden.read_text()
    truncated = tmp_path / "truncated.json"
    truncated.write_text(text[: len(text) // 3])
    result = ohhell("replay", str(truncated))
    assert result.returncode == 1
    assert "not valid JSON" in result.stderr and "truncated" in result.stderr

    record = json.loads(text)
    hand = record["hands"][4]
    hand["bids"][hand["dealer"]] = 99
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(record))
    result = ohhell("replay", str(illegal))
    assert result.returncode == 1
    assert f"hand 5, seat {hand['dealer']}: seat {hand['dealer']} bid 99" in result.stderr
    assert "Traceback" not in result.stderr

    missing = ohhell("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 1 and "No such file" in missing.stderr


def test_replay_rejects_json_that_python_cannot_parse_or_print(tmp_path: Path) -> None:
    """Nested too deep for the parser, a number too long to read, a name that is not text:
    one line each, nothing printed to stdout."""
    golden = Path(__file__).parents[1] / "golden" / "records" / "standard-4p.json"
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    long_number = tmp_path / "long.json"
    long_number.write_text(
        golden.read_text().replace('"format"', '"x": ' + "9" * 5000 + ', "format"')
    )
    record = json.loads(golden.read_text())
    record["seats"][0] = "\ud800"  # a lone surrogate: JSON can spell it, no output can print it
    surrogate = tmp_path / "surrogate.json"
    surrogate.write_text(json.dumps(record))
    for path, message in (
        (deep, "not valid JSON (nested too deep to read)"),
        (long_number, "not valid JSON (a number with more than 4300 digits, longer than any"),
        (surrogate, "record[\"seats\"][0]: '\\ud800' is not text: it holds a lone UTF-16"),
    ):
        result = ohhell("replay", str(path))
        assert result.returncode == 1, path
        assert result.stderr.startswith(f"ohhell replay: error: {path}: {message}"), result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""


def test_rules_file_then_flags(tmp_path: Path) -> None:
    """The preset, then the rules file, then the flags given: ``--players`` too."""
    rules_file = tmp_path / "rules.json"
    rules_file.write_text('{"player_count": 5, "hook": true}')
    from_file = ohhell("rules", "--rules-file", str(rules_file))
    assert from_file.returncode == 0 and "5 players" in from_file.stdout, from_file.stdout
    flagged = ohhell("rules", "--rules-file", str(rules_file), "--players", "3", "--no-hook")
    assert flagged.returncode == 0, flagged.stderr
    assert "3 players" in flagged.stdout and "hook" not in flagged.stdout.splitlines()[0]
    # --hand-sizes makes the schedule custom over a preset's own, unless --schedule says
    custom = ohhell("rules", "--preset", "descending", "--hand-sizes", "1,2")
    assert custom.returncode == 0 and "hand sizes: 1 2\n" in custom.stdout, custom.stderr
    clash = ohhell("rules", "--schedule", "descending", "--hand-sizes", "1,2")
    assert clash.returncode == 1
    assert "custom_hand_sizes is only allowed with schedule=custom" in clash.stderr
    assert "(--hand-sizes, --schedule)" in clash.stderr  # the flags that set those fields
    # what the rules file holds is named as the file names it, with no flag the user did not give
    for options, message in (
        ('{"player_count": 5, "colour": "red"}', "unknown rules option 'colour'"),
        ('{"player_count": 9}', "player_count must be an integer from 3 to 7, got 9\n"),
    ):
        rules_file.write_text(options)
        from_the_file = ohhell("rules", "--rules-file", str(rules_file))
        assert from_the_file.returncode == 1 and message in from_the_file.stderr
        assert "--" not in from_the_file.stderr


def test_a_command_line_that_does_not_parse_gets_the_commands_usage() -> None:
    for args, error in (
        (("simulate", "--frob"), "ohhell simulate: error: unrecognized arguments: --frob"),
        (("replay", "x.json", "--frob"), "ohhell replay: error: unrecognized arguments: --frob"),
        (("simulate", "--players", "x"), "ohhell simulate: error: argument --players"),
        (("rules", "--hand-sizes", "1,x"), "argument --hand-sizes: must be whole numbers"),
        # Python seeds alike from -5 and 5: a negative seed would replay seed 5 as "game--5"
        (("simulate", "--seed", "-5"), "error: argument --seed: a seed is 0 or more, got -5"),
        (("tournament", "--seed", "1.5"), "error: argument --seed: a seed is a whole number"),
        (("advise", "--hand", "As", "--trump", "2c", "--seed", "-1"), "a seed is 0 or more"),
    ):
        done = ohhell(*args)
        assert done.returncode == 2, args
        assert done.stderr.startswith(f"usage: ohhell {args[0]} "), done.stderr
        assert error in done.stderr


def test_broken_pipe_is_quiet() -> None:
    """A reader that stops early (``| head``) is not an error worth a message, nor a bad
    input's status 1: 141, as a process that SIGPIPE ends (``cat``) has under a shell."""
    command = ohhell_command()
    with subprocess.Popen(
        [*command, "simulate", "--games", "30", "--seed", "1", "--no-records"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b"game 1 of 30")
        process.stdout.close()
        stderr = process.stderr.read()
        assert process.wait(timeout=120) == 141
    assert stderr == b""


def test_rules_command_lists_presets_and_shows_schedule() -> None:
    listed = ohhell("rules", "--list")
    assert listed.returncode == 0 and listed.stdout.startswith("standard")
    as_json = json.loads(ohhell("rules", "--list", "--json").stdout)
    assert next(iter(as_json)) == "standard" and as_json["hook"]["options"] == {"hook": True}
    assert "la-podrida" in as_json and as_json["la-podrida"]["description"]
    shown = ohhell("rules", "--players", "4")
    assert "hand sizes: 1 2 3 4 5 6 7 8 9 10 11 12 13" in shown.stdout
    assert "TTTTTTTTTTTT-" in shown.stdout
    conventions = shown.stdout.split("conventions (not options; docs/rules.md):\n")[1]
    assert "the winner of a trick leads the next one" in conventions  # visible defaults
    assert "every card of the finished tricks" in conventions  # what a seat sees
    assert "which seats have bid is public" in conventions  # simultaneous bidding
    assert len(conventions.splitlines()) == len(CONVENTIONS)


def test_demo_script_exists_and_is_what_readme_says() -> None:
    root = Path(__file__).parents[2]
    readme = (root / "README.md").read_text()
    assert "bash scripts/demo.sh" in readme and "bash scripts/test.sh" in readme
    assert "bash scripts/test.sh" in (root / ".ci" / "run").read_text()
    assert shutil.which("bash")


def test_simulate_with_bots(tmp_path: Path) -> None:
    result = ohhell(
        "simulate", "--players", "3", "--bots", "heuristic,random,random", "--seed", "9",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "game-9.json").read_text())
    assert record["seats"] == ["heuristic 0", "random 1", "random 2"]
    assert record["meta"]["players"] == ["heuristic", "random", "random"]
    refused = tmp_path / "refused"
    bad = ohhell("simulate", "--bots", "genius", "--out", str(refused))
    assert bad.returncode == 1 and "unknown bot 'genius'" in bad.stderr
    assert not refused.exists()  # a refused run leaves no folder behind
    wrong = ohhell("simulate", "--players", "4", "--bots", "random,random", "--out", str(tmp_path))
    assert wrong.returncode == 1 and "2 bots for 4 players" in wrong.stderr
    unnamed = ohhell("simulate", "--bots", "random,,random,random", "--out", str(tmp_path))
    assert unnamed.returncode == 1 and "--bots: bot 2 of 'random,,random,random' has no name" in (
        unnamed.stderr
    )


def test_simulate_with_bot_specs(tmp_path: Path) -> None:
    """Bots named with options play, and their records name them by spec; a bad option is
    one line saying what was wrong, and no record is written."""
    result = ohhell(
        "simulate", "--players", "3", "--schedule", "custom", "--hand-sizes", "2,3",
        "--bots", "search:simulations=16:rivalry=1,medium,heuristic", "--seed", "4",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "game-4.json").read_text())
    assert record["meta"]["players"] == ["search:simulations=16:rivalry=1", "medium", "heuristic"]
    out = tmp_path / "bad"
    bad = ohhell("simulate", "--players", "3", "--bots", "hard:nope=1", "--out", str(out))
    assert bad.returncode == 1
    assert bad.stderr.startswith(
        "ohhell simulate: error: --bots: bot 'hard:nope=1': hard (search) has no option 'nope';"
        " its options: min_worlds, "
    )
    assert "Traceback" not in bad.stderr
    assert not out.exists() or not any(out.iterdir())


def test_simulate_never_replaces_a_record_unless_told(tmp_path: Path) -> None:
    """A record of the same name from another command is another game (other rules, bots or
    seed): a run that would replace one is refused before its first game. The same command
    run again writes the same game, and may."""
    out = tmp_path / "out"
    first = ohhell(
        "simulate", "--preset", "hook", "--players", "5", "--seed", "1", "--out", str(out)
    )
    assert first.returncode == 0, first.stderr
    kept = (out / "game-1.json").read_text(encoding="utf-8")
    again = ohhell("simulate", "--seed", "0", "--games", "3", "--out", str(out), "--json")
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr == (
        f"ohhell simulate: error: {out / 'game-1.json'} holds another game: it is not"
        " replaced unless --overwrite is given (or choose another --seed or --out)\n"
    )
    assert sorted(p.name for p in out.iterdir()) == ["game-1.json"]  # nothing played
    assert (out / "game-1.json").read_text(encoding="utf-8") == kept
    # the same command again writes the same game: nothing is lost, so it is not refused
    rerun = ohhell(
        "simulate", "--preset", "hook", "--players", "5", "--seed", "1", "--out", str(out)
    )
    assert rerun.returncode == 0, rerun.stderr
    assert (out / "game-1.json").read_text(encoding="utf-8") == kept
    replaced = ohhell("simulate", "--seed", "1", "--out", str(out), "--overwrite", "--quiet")
    assert replaced.returncode == 0, replaced.stderr
    assert json.loads((out / "game-1.json").read_text())["rules"]["player_count"] == 4
    empty = ohhell("simulate", "--out", "")
    assert empty.returncode == 2 and "argument --out: a folder name is needed" in empty.stderr


def _long_simulate(out: Path, *args: str, until_records: int) -> subprocess.Popen[str]:
    """``ohhell simulate`` of 200 games into ``out``, running in the background once it has
    written ``until_records`` records."""
    command = ohhell_command()
    process = subprocess.Popen(
        [*command, "simulate", "--players", "3", "--bots", "search:simulations=64", "--seed",
         "1", "--games", "200", "--out", str(out), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=signals_at_their_defaults,
    )  # fmt: skip
    try:
        while len(list(out.glob("game-*.json"))) < until_records:
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
    except BaseException:
        process.kill()
        raise
    return process


@pytest.mark.parametrize(
    ("signum", "word"),
    [(signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated"), (signal.SIGHUP, "terminated")],
    ids=["ctrl-c", "sigterm", "sighup"],
)
def test_a_stopped_simulate_has_written_every_game_it_reported(
    tmp_path: Path, signum: signal.Signals, word: str
) -> None:
    """Ctrl-C, SIGTERM and SIGHUP stop a run alike (exit 130, 143, 129): the game being
    played is lost, each game reported is on disk whole, and no temporary file is left; a
    killed run's temporary files are swept by the next run into the folder."""
    out = tmp_path / "out"
    (out).mkdir()
    (out / ".game-99.json.abcdefgh.ohhell-tmp").write_text("{", encoding="utf-8")  # a killed run's
    process = _long_simulate(out, "--json", until_records=2)
    try:
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + signum, stderr
    written = sorted(out.iterdir())
    assert all(p.name.startswith("game-") for p in written)  # no temporary file
    reported = [json.loads(line) for line in stdout.splitlines()]
    # each report follows its record; the last record written may be unreported, if the stop
    # came while its report was printed (the stop's line counts it)
    assert reported and len(written) - 1 <= len(reported) <= len(written)
    assert {Path(game["record"]) for game in reported} <= set(written)  # each names its record
    assert all(Path(game["record"]).name == f"game-{game['seed']}.json" for game in reported)
    assert stderr.strip().endswith(f"{word}; {len(written)} of 200 records are written in {out}")
    for path in written:
        assert ohhell("replay", str(path)).returncode == 0


def _wait_for(process: subprocess.Popen[str], kernel_function: str) -> None:
    """Until ``process`` waits in ``kernel_function`` (``pipe_read``, ``pipe_write``: Linux's
    /proc says where a process sleeps), or, where there is no /proc (macOS), two seconds."""
    waiting = Path(f"/proc/{process.pid}/wchan")
    deadline = time.monotonic() + 20
    while waiting.exists() and time.monotonic() < deadline:
        if kernel_function in waiting.read_text():  # (the kernel's pipe_read, anon_pipe_read)
            return
        time.sleep(0.01)
    time.sleep(2)


def test_a_simulate_whose_reader_stalls_still_stops_at_once() -> None:
    """``ohhell simulate | less``, not scrolled: once the pipe is full the report's print
    waits for the reader, and it was in the section a stop waits for, so SIGTERM (or Ctrl-C)
    did nothing until the reader went on."""
    process = subprocess.Popen(
        [*ohhell_command(), "simulate", "--players", "3", "--hand-sizes", "1", "--games",
         "100000", "--no-records"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=signals_at_their_defaults,
    )  # fmt: skip
    try:
        _wait_for(process, "pipe_write")  # the pipe is full: the reader has stalled
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.stdout is not None and process.stderr is not None
    stderr = process.stderr.read()
    for stream in (process.stdout, process.stderr):
        stream.close()
    assert (process.returncode, stderr) == (143, "ohhell simulate: terminated\n")


@pytest.mark.parametrize(
    ("signum", "word"),
    [(signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated"), (signal.SIGHUP, "terminated")],
    ids=["ctrl-c", "sigterm", "sighup"],
)
def test_any_command_stopped_before_its_work_says_so(signum: signal.Signals, word: str) -> None:
    """A stop before a command's own stopping takes over (``replay -`` waiting for its
    record; a tournament reading a long journal before its first game) ends it as Ctrl-C
    does, with one line and 128 + the signal, not killed without a word by SIGTERM's or
    SIGHUP's default."""
    command = ohhell_command()
    process = subprocess.Popen(
        [*command, "replay", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=signals_at_their_defaults,
    )  # fmt: skip
    try:
        _wait_for(process, "pipe_read")  # until it waits for its record
        process.send_signal(signum)
        process.wait(timeout=60)  # its input still open (communicate would close it)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.stdout is not None and process.stderr is not None and process.stdin
    stdout, stderr = process.stdout.read(), process.stderr.read()
    for stream in (process.stdin, process.stdout, process.stderr):
        stream.close()
    assert (process.returncode, stdout, stderr) == (128 + signum, "", f"ohhell replay: {word}\n")


def test_a_seat_name_cannot_break_the_score_sheet(tmp_path: Path) -> None:
    """A record's seat names are any text; printed, their control characters are escaped, so
    a newline or a terminal escape in a name cannot break the table or colour the terminal."""
    out = tmp_path / "out"
    assert ohhell("simulate", "--seed", "3", "--out", str(out), "--quiet").returncode == 0
    record = json.loads((out / "game-3.json").read_text())
    record["seats"][0] = "Ann\nBob\x1b[31m"
    path = tmp_path / "named.json"
    path.write_text(json.dumps(record))
    shown = ohhell("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "Ann\\nBob\\x1b[31m" in shown.stdout and "\x1b" not in shown.stdout
    table = shown.stdout.splitlines()[1:]
    assert table[0].count("|") == 4 and table[0].startswith("hand cards trump")


def test_a_rerun_that_plays_the_game_otherwise_keeps_the_record_there(tmp_path: Path) -> None:
    """Bots that think by the clock can play the same seed otherwise: the record already there
    is kept and the run stops, unless --overwrite (the same game is left as it is)."""
    import random

    from ohhell.bots import RandomBot
    from ohhell.cli.simulate import SimulateError, _write_record
    from ohhell.engine import Rules, records
    from ohhell.runner import play_game

    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 2))
    first, other = (
        records.dumps(
            records.to_record(
                play_game(rules, [RandomBot()] * 3, deal_rng=random.Random(1), bot_rngs=rngs).state
            )
        )
        for rngs in ([random.Random(s) for s in (1, 2, 3)], [random.Random(s) for s in (4, 5, 6)])
    )
    assert first != other  # the same deals, played otherwise
    path = tmp_path / "game-1.json"
    path.write_text(first, encoding="utf-8")
    _write_record(path, first, overwrite=False)  # the same game: nothing to do
    with pytest.raises(SimulateError, match="holds another game of the same seed"):
        _write_record(path, other, overwrite=False)
    assert path.read_text(encoding="utf-8") == first
    _write_record(path, other, overwrite=True)
    assert path.read_text(encoding="utf-8") == other
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-1.json"]


@pytest.mark.parametrize("games", ["0", "-2", "two"])
def test_simulate_games_must_be_a_positive_count(games: str, tmp_path: Path) -> None:
    """A bad --games is a usage error (exit 2, with the usage), as any bad argument is."""
    result = ohhell("simulate", "--games", games, "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "usage: ohhell simulate" in result.stderr
    assert "error: argument --games:" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_second_simulate_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    """Two runs writing one folder could race for its records: while one runs, another into
    its folder is refused and writes nothing."""
    out = tmp_path / "out"
    first = _long_simulate(out, "--quiet", until_records=1)
    try:
        second = ohhell("simulate", "--players", "3", "--seed", "500", "--out", str(out))
        assert second.returncode == 1
        assert second.stderr.strip() == (
            f"ohhell simulate: error: another ohhell command is writing to {out} now: wait for"
            " it to finish, or choose another --out"
        )
        assert not (out / "game-500.json").exists()
        assert first.poll() is None  # refused while the first was running
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 130


@pytest.mark.parametrize(
    "other",
    [("--seed", "2"), ("--bots", "heuristic"), ("--zero-bid-bonus",)],
    ids=["seed", "bots", "rules"],
)
def test_a_record_of_another_seed_bots_or_rules_is_another_game(
    tmp_path: Path, other: tuple[str, ...]
) -> None:
    """A record under the name this run would write is the same game only if its seed, bots
    and rules are all this run's: otherwise it is refused before the first game is played."""
    out = tmp_path / "out"
    one_hand = ("--players", "3", "--hand-sizes", "1", "--seed", "1", "--quiet")
    before = ohhell("simulate", *one_hand, *other, "--out", str(tmp_path / "before"))
    assert before.returncode == 0, before.stderr
    out.mkdir()
    (out / "game-1.json").write_bytes(next((tmp_path / "before").glob("game-*.json")).read_bytes())
    kept = (out / "game-1.json").read_bytes()
    again = ohhell("simulate", *one_hand, "--out", str(out))
    assert again.returncode == 1
    assert again.stderr == (
        f"ohhell simulate: error: {out / 'game-1.json'} holds another game: it is not"
        " replaced unless --overwrite is given (or choose another --seed or --out)\n"
    )
    assert (out / "game-1.json").read_bytes() == kept


def test_a_refusal_counts_the_other_records_in_the_way(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = ohhell("simulate", "--players", "4", "--seed", "1", "--games", "3", "--out", str(out))
    assert first.returncode == 0, first.stderr
    again = ohhell("simulate", "--players", "3", "--seed", "2", "--games", "3", "--out", str(out))
    assert again.returncode == 1
    assert again.stderr.startswith(
        f"ohhell simulate: error: {out / 'game-2.json'} (and 1 more) holds another game:"
    )


def test_replay_json_gives_each_hand_as_the_record_has_it() -> None:
    """Every field of each hand of ``replay --json`` (the dealer, the trump, or ``null`` in a
    hand without one) is the record's own, under the record's own name."""
    golden = Path(__file__).parents[1] / "golden" / "records" / "standard-4p.json"
    result = ohhell("replay", "--json", str(golden))
    assert result.returncode == 0, result.stderr
    record = json.loads(golden.read_text())
    fields = ("number", "dealer", "cards", "trump", "bids", "tricks_won", "points", "totals")
    assert json.loads(result.stdout)["hands"] == [
        {field: hand[field] for field in fields} for hand in record["hands"]
    ]
    assert record["hands"][-1]["trump"] is None  # the last hand, every card dealt


def test_each_json_line_and_record_says_its_own_seed(tmp_path: Path) -> None:
    """Game N of a run from --seed S is the game of seed S + N - 1: its JSON line and its
    record's ``meta`` say so, with the command and bots that played it."""
    out = tmp_path / "out"
    result = ohhell(
        "simulate", "--players", "3", "--hand-sizes", "1", "--bots", "heuristic,random,random",
        "--seed", "5", "--games", "2", "--json", "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(line["seed"], line["record"]) for line in lines] == [
        (5, str(out / "game-5.json")),
        (6, str(out / "game-6.json")),
    ]
    record = json.loads((out / "game-6.json").read_text())
    assert record["meta"] == {
        "generator": "ohhell simulate",
        "seed": 6,
        "players": ["heuristic", "random", "random"],
    }
    assert record["seats"] == ["heuristic 0", "random 1", "random 2"]


def test_quiet_prints_only_where_each_record_is(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = ohhell(
        "simulate", "--players", "3", "--hand-sizes", "1", "--seed", "3", "--games", "2",
        "--quiet", "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        f"record written to {out / 'game-3.json'}\nrecord written to {out / 'game-4.json'}\n"
    )


def test_a_rerun_never_replaces_a_record_that_differs_from_its_game(tmp_path: Path) -> None:
    """The same command again, where the record of its game differs from the game it plays
    (as a clock's bot may play it otherwise): the record there is kept and the run stops."""
    out = tmp_path / "out"
    command = ("simulate", "--players", "3", "--hand-sizes", "1", "--seed", "1", "--quiet")
    assert ohhell(*command, "--out", str(out)).returncode == 0
    record = json.loads((out / "game-1.json").read_text())
    record["seats"] = ["Ann", "Bo", "Cy"]  # another game of the same command, seed and bots
    (out / "game-1.json").write_text(json.dumps(record))
    kept = (out / "game-1.json").read_bytes()
    again = ohhell(*command, "--out", str(out))
    assert again.returncode == 1
    assert again.stderr.startswith(
        f"ohhell simulate: error: {out / 'game-1.json'} holds another game of the same seed"
    )
    assert (out / "game-1.json").read_bytes() == kept


def test_a_long_run_looks_only_at_the_records_that_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The records a run would replace are found by listing --out once, not by a look per
    game: --games 10000000 does not wait minutes, holding ten million names, before its first
    game. Another game's record in the range is still refused, and a name that only looks
    like one (game-0500.json) is not in the way."""
    from ohhell.cli import main, simulate

    out = tmp_path / "out"
    out.mkdir()
    (out / "game-500.json").write_text("{}", encoding="utf-8")  # not this run's game
    (out / "game-0501.json").write_text("{}", encoding="utf-8")
    looked = []
    in_the_way = simulate._in_the_way
    monkeypatch.setattr(
        simulate, "_in_the_way", lambda path, *rest: looked.append(path) or in_the_way(path, *rest)
    )
    argv = ["simulate", "--seed", "0", "--games", "10000000", "--players", "3", "--out", str(out)]
    assert main.main(argv) == 1
    assert "game-500.json holds another game" in capsys.readouterr().err
    assert looked == [out / "game-500.json"]


SIMULATE = (sys.executable, "-m", "ohhell.cli.main", "simulate")


def test_a_full_disk_says_what_failed_and_what_is_saved(tmp_path: Path) -> None:
    """Standard output on a full disk is named as such (not taken for the records' disk), a
    record that cannot be written is named, and either way the message says how many records
    are safe in the folder."""
    out = tmp_path / "out"
    with open("/dev/full", "w", encoding="utf-8") as full:
        stopped = subprocess.run(
            [*SIMULATE, "--seed", "1", "--games", "3", "--out", str(out)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert stopped.returncode == 1
    assert stopped.stderr == (
        "ohhell simulate: error: cannot write to standard output (No space left on device):"
        f" 1 of 3 records are written in {out}\n"
    )
    assert [p.name for p in out.iterdir()] == ["game-1.json"]

    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))  # less than a record

    small = tmp_path / "small"
    refused = subprocess.run(
        [*SIMULATE, "--seed", "1", "--games", "2", "--out", str(small)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=limited,
    )
    assert refused.returncode == 1
    assert refused.stderr == (
        f"ohhell simulate: error: cannot write {small / 'game-1.json'} (File too large): 0 of 2"
        f" records are written in {small}; once it can be written, the same command writes the"
        " rest (the records there are kept)\n"
    )
    assert not small.exists()  # the folder it made, left empty (no temporary file), is gone


@pytest.mark.usefixtures("default_stop_handlers")
def test_a_stop_while_a_record_is_written_reports_that_record_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stop that comes as a record is written waits for it to be on disk; the game is then
    reported, as every game whose record is on disk is, before the run stops: a reader of the
    JSON lines learns of every record written."""
    import os

    from ohhell.cli import simulate
    from ohhell.cli.main import main

    write = simulate._write_record

    def stopped_while_writing(path: Path, text: str, *, overwrite: bool) -> None:
        if path.name == "game-2.json":
            os.kill(os.getpid(), signal.SIGTERM)  # noted, held back until the record is written
        write(path, text, overwrite=overwrite)

    monkeypatch.setattr(simulate, "_write_record", stopped_while_writing)
    out = tmp_path / "out"
    args = ["simulate", "--players", "3", "--schedule", "custom", "--hand-sizes", "1,2"]
    assert main([*args, "--games", "5", "--seed", "1", "--out", str(out), "--json"]) == 143
    captured = capsys.readouterr()
    reported = [json.loads(line)["record"] for line in captured.out.splitlines()]
    assert reported == [str(out / "game-1.json"), str(out / "game-2.json")]
    assert sorted(path.name for path in out.iterdir()) == ["game-1.json", "game-2.json"]
    assert captured.err == f"ohhell simulate: terminated; 2 of 5 records are written in {out}\n"
