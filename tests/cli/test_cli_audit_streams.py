"""From an audit of simulate, replay and rules as a careless or hostile user runs them: a file
named ``-``, closed standard streams, Ctrl-C while the command starts, a record edited since
the run that wrote it, an unreadable record in the way, and a rules file that is not JSON."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.cli.test_cli_simulate_replay import ohhell, ohhell_command
from tests.conftest import require, signals_at_their_defaults

from ohhell.cli import main as cli_main
from ohhell.storage_files import TEMPORARY_MARK

ONE_HAND = ("--players", "3", "--hand-sizes", "1", "--seed", "1", "--quiet")


def _record(tmp_path: Path) -> Path:
    done = ohhell("simulate", *ONE_HAND, "--out", str(tmp_path / "records"))
    assert done.returncode == 0, done.stderr
    return tmp_path / "records" / "game-1.json"


def test_a_file_named_dash_is_replayed_as_dot_slash_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-`` is standard input; ``./-``, as for ``cat``, is the file named ``-`` (it was read
    as standard input too)."""
    (tmp_path / "-").write_bytes(_record(tmp_path).read_bytes())
    monkeypatch.chdir(tmp_path)
    assert cli_main.main(["replay", "./-"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("./-: valid record; 3 players, custom (1 hand);")
    (tmp_path / "-").unlink()
    assert cli_main.main(["replay", "./-"]) == 1  # named as typed, not as standard input
    assert capsys.readouterr().err == "ohhell replay: error: No such file or directory: ./-\n"


def _without_fd(fd: int) -> None:
    os.close(fd)


def test_closed_standard_output_is_refused_before_a_game_is_played(tmp_path: Path) -> None:
    """``ohhell ... >&-``: a clear refusal, no traceback, and no record written that the run
    could never report (it wrote one, then failed on sys.stdout being None)."""
    out = tmp_path / "records"
    for args in (["simulate", *ONE_HAND, "--out", str(out)], ["rules"]):
        done = subprocess.run(
            [sys.executable, "-m", "ohhell.cli.main", *args],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=lambda: _without_fd(1),
            timeout=120,
            check=False,
            text=True,
        )
        assert done.returncode == 1, done.stderr
        assert done.stderr == (
            f"ohhell {args[0]}: error: standard output is closed (>&-): nothing could be"
            " printed; redirect it to /dev/null to discard what the command prints\n"
        )
    assert not out.exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_standard_output_on_a_full_disk_is_named(tmp_path: Path) -> None:
    """``ohhell ... > /dev/full``: the operating system's error names no file, so each
    command says it is standard output that could not be written (they said only "No space
    left on device"), and the tournament, whose reports are written by then, says where."""
    require("matplotlib")  # the tournament's plot
    record = _record(tmp_path)
    out = tmp_path / "tournament"
    tournament = ["tournament", "--candidate", "heuristic", "--baseline", "random"]
    for args, after in (
        (["rules", "--preset", "standard"], ""),
        (["rules", "--list"], ""),
        (["replay", str(record)], ""),
        (["replay", "--json", str(record)], ""),
        (["advise", "--hand", "As Kd", "--players", "3", "--trump", "2c", "--json"], ""),
        (
            [*tournament, "--deal-sets", "1", "--players", "3", "--out", str(out)],
            "; the reports are written: "
            + ", ".join(str(out / name) for name in ("report.json", "report.csv", "report.png")),
        ),
    ):
        with open("/dev/full", "w", encoding="utf-8") as full:
            done = subprocess.run(
                [*ohhell_command(), *args],
                stdout=full,
                stderr=subprocess.PIPE,
                timeout=120,
                check=False,
                text=True,
            )
        assert done.returncode == 1, done.stderr
        assert done.stderr.splitlines()[-1] == (
            f"ohhell {args[0]}: error: cannot write to standard output (No space left on"
            f" device){after}"
        )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["tournament", "--help"]])
def test_help_on_a_full_disk_or_to_a_reader_gone_is_said_as_any_output(args: list[str]) -> None:
    """argparse drops a failed write of its help without a word: ``ohhell --help > /dev/full``
    ended with 0 having printed nothing."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [*ohhell_command(), *args], stdout=full, stderr=subprocess.PIPE, text=True, check=False
        )
    assert (done.returncode, done.stderr) == (
        1,
        "ohhell: error: cannot write to standard output (No space left on device)\n",
    )
    with subprocess.Popen(
        [*ohhell_command(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader goes away before the help is written
        assert (process.wait(timeout=60), process.stderr.read()) == (141, b"")
    closed = subprocess.run(  # >&-: it was an AttributeError's traceback
        [*ohhell_command(), *args],
        stderr=subprocess.PIPE,
        preexec_fn=lambda: _without_fd(1),
        text=True,
        check=False,
    )
    assert (closed.returncode, closed.stderr) == (
        1,
        "ohhell: error: cannot write to standard output (it is closed: >&-)\n",
    )


def test_closed_standard_input_is_said_so(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ohhell.cli.main", "replay", "-"],
        capture_output=True,
        preexec_fn=lambda: _without_fd(0),
        timeout=120,
        check=False,
        text=True,
    )
    assert done.returncode == 1
    assert done.stderr == (
        "ohhell replay: error: standard input is closed: there is no record to read\n"
    )


INTERRUPT_IMPORT = """
import os, signal, sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "ohhell.cli.simulate":
            raise KeyboardInterrupt  # Ctrl-C while the commands are imported
sys.meta_path.insert(0, Interrupt())
from ohhell.cli.main import main  # as the installed ohhell script starts
sys.exit(main(["rules", "--list"]))
"""


@pytest.mark.parametrize(
    ("stop", "status", "said"),
    [
        ("raise KeyboardInterrupt", 130, "interrupted"),
        ("os.kill(os.getpid(), signal.SIGTERM)", 143, "terminated"),
        ("os.kill(os.getpid(), signal.SIGHUP)", 129, "terminated"),
    ],
)
def test_a_stop_while_the_command_starts_is_not_a_traceback(
    stop: str, status: int, said: str
) -> None:
    """Importing the commands takes a good part of a second, in which a Ctrl-C ended the
    command with a traceback from the import, and SIGTERM or SIGHUP silently, as the signal's
    default action (status -15 or -1), where later they end it with one line."""
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPT_IMPORT.replace("raise KeyboardInterrupt", stop)],
        capture_output=True,
        timeout=120,
        check=False,
        text=True,
        preexec_fn=signals_at_their_defaults,  # as at a terminal (`nohup pytest` ignores SIGHUP)
    )
    assert (done.returncode, done.stdout, done.stderr) == (status, "", f"ohhell: {said}\n")


def test_a_record_edited_since_its_run_is_named_with_the_place_it_no_longer_replays(
    tmp_path: Path,
) -> None:
    """The same command again (which may rewrite its own records) meets a record it wrote,
    since edited: the message says where it no longer replays, not that a bot thinking by the
    clock (these are random bots, seeded) played it otherwise."""
    path = _record(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    points = record["hands"][0]["points"]
    record["hands"][0]["points"] = [p + 1 for p in points]
    edited = json.dumps(record)
    path.write_text(edited, encoding="utf-8")
    done = ohhell("simulate", *ONE_HAND, "--out", str(path.parent))
    assert done.returncode == 1
    assert done.stderr == (
        f"ohhell simulate: error: {path} holds another game of the same seed (edited or"
        f" damaged since it was written: hand 1: 'points' is {[p + 1 for p in points]} but the"
        f" rules give {points}): it is kept; --overwrite replaces it\n"
    )
    assert path.read_text(encoding="utf-8") == edited


def test_a_record_in_the_way_that_cannot_be_read_is_not_called_something_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path)
    real = Path.open

    def unreadable(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == path:  # as for a user who is not root, with the file's mode 000
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", unreadable)
    args = ["simulate", *ONE_HAND, "--players", "4", "--out", str(path.parent)]
    assert cli_main.main(args) == 1
    assert capsys.readouterr().err == (
        f"ohhell simulate: error: {path} cannot be read (Permission denied): it is not replaced"
        " unless --overwrite is given (or choose another --seed or --out)\n"
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"hook": tru', "Expecting value: line 1 column 10 (char 9)"),
        ('{"hook": true, "hook": false}', "the key 'hook' appears twice in one object"),
    ],
)
def test_a_rules_file_that_is_not_json_says_so(
    text: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As replay says of a record: the parser's words alone did not say what was wrong."""
    path = tmp_path / "rules.json"
    path.write_text(text, encoding="utf-8")
    assert cli_main.main(["rules", "--rules-file", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell rules: error: cannot read rules file {path}: not valid JSON ({why}); the file"
        " may be truncated or corrupt\n"
    )


def test_each_game_is_reported_before_the_next_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Into a pipe, standard output is block-buffered (unless PYTHONUNBUFFERED is set, as it
    often is where tests run): the reports came only when 8 kB had gathered or the run ended,
    so a reader following a long run saw nothing, and a killed run lost the reports, a line
    cut in two among them, of records already on disk."""
    from ohhell.cli import simulate as simulate_cmd

    raw = io.BytesIO()
    stdout = io.TextIOWrapper(io.BufferedWriter(raw, buffer_size=1 << 16), encoding="utf-8")  # type: ignore[arg-type]
    monkeypatch.setattr(sys, "stdout", stdout)
    seen: list[int] = []
    play = simulate_cmd.play_game

    def play_and_look(*args: Any, **kwargs: Any) -> Any:
        seen.append(raw.getvalue().count(b"\n"))  # lines out when each game starts
        return play(*args, **kwargs)

    monkeypatch.setattr(simulate_cmd, "play_game", play_and_look)
    args = ["simulate", *ONE_HAND, "--games", "3", "--json", "--out", str(tmp_path / "out")]
    assert cli_main.main(args) == 0
    assert seen == [0, 1, 2]
    assert [json.loads(line)["seed"] for line in raw.getvalue().splitlines()] == [1, 2, 3]


def test_a_seed_too_long_for_a_file_name_is_refused_before_the_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was refused only once the first game was played (with the expert bots, minutes),
    when its record could not be written."""
    out = tmp_path / "out"
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    # one too many for write_atomic's name: a dot, the record's, a dot, 8 random characters
    digits = limit - len(".game-.json.") - 8 - len(TEMPORARY_MARK) + 1
    seed = "1" + "0" * (digits - 1)
    args = ["simulate", *ONE_HAND, "--seed", seed, "--out", str(out)]
    assert cli_main.main(args) == 1
    assert capsys.readouterr().err == (
        f"ohhell simulate: error: the seeds of this run ({digits} digits) make the records'"
        f" names (game-SEED.json) longer than {out} allows ({limit} bytes): choose a smaller"
        " --seed\n"
    )
    assert not out.exists()
    shorter = ["simulate", *ONE_HAND, "--seed", seed[:-1], "--out", str(out)]
    assert cli_main.main(shorter) == 0
    assert [path.name for path in out.iterdir()] == [f"game-{seed[:-1]}.json"]


def test_a_record_saved_again_in_utf_16_is_the_same_game_for_a_rerun(tmp_path: Path) -> None:
    """Records are read in UTF-8, -16 or -32 (as a Windows editor may save one); a rerun of the
    command that wrote it compared its text as UTF-8 and ended in a UnicodeDecodeError
    traceback. It is the same game: kept as it is."""
    path = _record(tmp_path)
    resaved = path.read_text(encoding="utf-8").replace("\n", "\r\n").encode("utf-16")
    path.write_bytes(resaved)
    done = ohhell("simulate", *ONE_HAND, "--out", str(path.parent))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"record written to {path}\n"
    assert path.read_bytes() == resaved


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero"])
def test_a_fifo_or_device_in_the_way_is_refused_not_read(kind: str, tmp_path: Path) -> None:
    """Whether a file in the way is this run's record was found by reading it whole: a FIFO
    there made the run wait for a writer for ever, and a link to /dev/zero read until the
    memory ran out."""
    out = tmp_path / "out"
    out.mkdir()
    path = out / "game-1.json"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    done = subprocess.run(
        [sys.executable, "-m", "ohhell.cli.main", "simulate", *ONE_HAND, "--out", str(out)],
        capture_output=True,
        timeout=60,
        check=False,
        text=True,
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"ohhell simulate: error: {path} is not a regular file: it is not replaced unless"
        " --overwrite is given (or choose another --seed or --out)\n"
    )


def test_a_file_in_the_way_larger_than_any_record_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ohhell.cli import simulate as simulate_cmd

    out = tmp_path / "out"
    out.mkdir()
    (out / "game-1.json").write_bytes(b" " * 101)
    monkeypatch.setattr(simulate_cmd, "MAX_RECORD_BYTES", 100)
    assert cli_main.main(["simulate", *ONE_HAND, "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell simulate: error: {out / 'game-1.json'} is larger than any game record (over 100"
        " bytes): it is not replaced unless --overwrite is given (or choose another --seed or"
        " --out)\n"
    )
