"""Hostile and mistaken input to the command line: one clear line, the right exit status, and
nothing changed (from an audit of every command with bad values)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.cli.test_cli_simulate_replay import ohhell
from tests.conftest import require

from ohhell.cli import main as cli_main
from ohhell.cli import replay as replay_cmd
from ohhell.cli import simulate as simulate_cmd
from ohhell.cli.render import NAME_COLUMNS, format_score_sheet
from ohhell.engine import (
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    random_deal,
    score_sheet,
)

ONE_HAND = ("--players", "3", "--hand-sizes", "1", "--seed", "1", "--quiet")


def _record(tmp_path: Path) -> Path:
    done = ohhell("simulate", *ONE_HAND, "--out", str(tmp_path / "records"))
    assert done.returncode == 0, done.stderr
    return tmp_path / "records" / "game-1.json"


def _run_with_encoding(encoding: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``ohhell`` writing to a terminal that can only show ``encoding`` (a Latin-1 locale)."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    command = [sys.executable, "-m", "ohhell.cli.main", *args]
    return subprocess.run(
        command, capture_output=True, env=env, timeout=120, check=False, text=True,
        encoding="utf-8", errors="replace",
    )  # fmt: skip


def test_text_the_terminal_cannot_show_is_escaped_not_a_traceback(tmp_path: Path) -> None:
    path = _record(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    record["seats"][0] = "\U0001f600 Ann"
    path.write_text(json.dumps(record), encoding="utf-8")
    shown = _run_with_encoding("ascii", "replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "\\U0001f600 Ann" in shown.stdout
    table = shown.stdout.splitlines()[1:-1]  # escaped before the columns are measured
    assert len({len(line) for line in table}) == 1, shown.stdout
    advice = _run_with_encoding(
        "latin-1", "advise", "--hand", "As Kd", "--trump", "9h", "--seed", "1", "--samples", "20"
    )
    assert advice.returncode == 0, advice.stderr
    assert advice.stdout.splitlines()[0].startswith("Kd As; trump card 9h;")


def test_replay_refuses_an_input_larger_than_any_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path)
    size = path.stat().st_size
    monkeypatch.setattr(replay_cmd, "MAX_RECORD_BYTES", size - 1)
    assert cli_main.main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell replay: error: {path}: larger than any game record (over {size - 1:,} bytes)\n"
    )
    monkeypatch.setattr(replay_cmd, "MAX_RECORD_BYTES", size)
    assert cli_main.main(["replay", str(path)]) == 0


def test_replay_of_empty_standard_input_says_so() -> None:
    done = ohhell("replay", "-", stdin="")
    assert done.returncode == 1
    assert done.stderr == "ohhell replay: error: standard input: empty: a record is a JSON object\n"


@pytest.mark.parametrize(
    "args",
    [("replay", ""), ("rules", "--rules-file", ""), ("simulate", "--rules-file", " ")],
)
def test_an_empty_file_name_is_a_usage_error_not_the_current_folder(args: tuple[str, ...]) -> None:
    done = ohhell(*args)
    assert done.returncode == 2
    assert "a file name is needed, got an empty one" in done.stderr


def test_a_folder_where_a_record_goes_is_refused_even_with_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "game-1.json").mkdir(parents=True)
    for extra in ((), ("--overwrite",)):
        done = ohhell("simulate", *ONE_HAND, "--out", str(out), *extra)
        assert done.returncode == 1
        assert done.stderr == (
            f"ohhell simulate: error: {out / 'game-1.json'} is a folder, where a record would"
            " be written\n"
        )


def test_a_file_that_is_not_a_record_is_named_so_and_kept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "game-1.json").write_text("junk", encoding="utf-8")
    done = ohhell("simulate", *ONE_HAND, "--out", str(out))
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"ohhell simulate: error: {out / 'game-1.json'} is not a game record: it is not replaced"
        " unless --overwrite is given"
    )
    assert (out / "game-1.json").read_text(encoding="utf-8") == "junk"


def test_a_broken_link_as_out_is_named(tmp_path: Path) -> None:
    link = tmp_path / "dangling"
    link.symlink_to(tmp_path / "nowhere")
    done = ohhell("simulate", *ONE_HAND, "--out", str(link))
    assert done.returncode == 1
    assert done.stderr == (
        f"ohhell simulate: error: {link} is a symbolic link to {tmp_path / 'nowhere'}, which does"
        " not exist\n"
    )
    assert not (tmp_path / "nowhere").exists()


def test_a_folder_no_record_can_be_written_into_is_refused_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(**_: object) -> object:
        raise PermissionError(13, "Permission denied")

    played: list[object] = []
    monkeypatch.setattr(simulate_cmd.tempfile, "TemporaryFile", refused)
    monkeypatch.setattr(simulate_cmd, "_play", lambda *args, **kwargs: played.append(args))
    out = tmp_path / "out"
    assert cli_main.main(["simulate", *ONE_HAND, "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell simulate: error: cannot write records into {out}: Permission denied\n"
    )
    assert played == []
    assert not out.exists()  # the folder it made is gone again


def test_rules_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "rules.json"
    bad.write_text('{"player_count": "4"}', encoding="utf-8")
    done = ohhell("rules", "--rules-file", str(bad))
    assert done.returncode == 1
    assert done.stderr == (
        f"ohhell rules: error: rules file {bad}: player_count must be an integer from 3 to 7,"
        ' got "4"\n'  # the value as the file wrote it, not as Python would
    )
    flagged = tmp_path / "flag.json"
    flagged.write_text('{"player_count": 4, "hook": "yes", "must_trump": null}', encoding="utf-8")
    assert ohhell("rules", "--rules-file", str(flagged)).stderr == (
        f'ohhell rules: error: rules file {flagged}: hook must be true or false, got "yes"\n'
    )
    record = _record(tmp_path)
    whole = ohhell("rules", "--rules-file", str(record))
    assert whole.returncode == 1
    assert whole.stderr == (
        f"ohhell rules: error: rules file {record} is a game record: its 'rules' object is what"
        " --rules-file takes\n"
    )
    missing = ohhell("rules", "--rules-file", str(tmp_path / "none.json"))
    assert missing.stderr == (
        f"ohhell rules: error: cannot read rules file {tmp_path / 'none.json'}: No such file or"
        " directory\n"
    )
    flag = ohhell("rules", "--rules-file", str(bad), "--players", "9")
    assert flag.stderr.endswith("got 9 (--players)\n")  # the flag overrode the file
    sizes = tmp_path / "sizes.json"
    sizes.write_text('{"schedule": "custom", "custom_hand_sizes": [1, 20]}', encoding="utf-8")
    both = ohhell("rules", "--rules-file", str(sizes), "--players", "3")
    assert both.stderr == (  # the 20 is the file's, the players the flag's: both are named
        "ohhell rules: error: custom_hand_sizes entries must be integers from 1 to 17 for 3"
        f" players, got 20 (--players, rules file {sizes})\n"
    )
    twice = tmp_path / "twice.json"
    twice.write_text('{"schedule": "up-and-down", "repeat_turning_hand": true}', encoding="utf-8")
    custom = ohhell("rules", "--rules-file", str(twice), "--hand-sizes", "3")
    assert custom.stderr == (  # --hand-sizes made the schedule custom
        "ohhell rules: error: repeat_turning_hand applies only to schedule=up-and-down or"
        f" down-and-up, not custom (--hand-sizes, rules file {twice})\n"
    )


def test_a_bot_that_would_refuse_every_decision_is_refused_before_the_first_game(
    tmp_path: Path,
) -> None:
    """A search told to run more simulations than it plays without a time limit: refused
    before a record is written, not after some games."""
    out = tmp_path / "records"
    done = ohhell(
        "simulate", "--players", "3", "--bots", "search:simulations=300000,random,random",
        "--games", "3", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (
        "ohhell simulate: error: --bots: 300,000 simulations without a time limit could ask for"
        " 2,700,000 worlds in one decision, at most 1,000,000: give at most 111,111"
        " simulations, or a time limit too\n"
    )
    assert not out.exists()


def test_a_rules_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """As Windows Notepad saves UTF-8 (and as replay reads records): the mark is not an
    option."""
    marked = tmp_path / "rules.json"
    marked.write_bytes(b"\xef\xbb\xbf" + b'{"player_count": 5, "hook": true}')
    done = ohhell("rules", "--rules-file", str(marked), "--json")
    assert done.returncode == 0, done.stderr
    rules = json.loads(done.stdout)
    assert (rules["player_count"], rules["hook"]) == (5, True)


def test_a_rules_file_is_read_in_the_encodings_a_record_is(tmp_path: Path) -> None:
    """UTF-16 (as Windows' PowerShell saves text) is read as replay reads a record in it;
    bytes no encoding of JSON decodes are named, not a codec's message."""
    wide = tmp_path / "wide.json"
    wide.write_bytes('{"player_count": 6}'.encode("utf-16"))
    done = ohhell("rules", "--rules-file", str(wide), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["player_count"] == 6
    junk = tmp_path / "junk.json"
    junk.write_bytes(b'{"player_count": 6\xff}')
    refused = ohhell("rules", "--rules-file", str(junk))
    assert refused.returncode == 1
    assert refused.stderr == (
        f"ohhell rules: error: cannot read rules file {junk}: not valid JSON (not text: byte 0xff"
        " at offset 18 is not UTF-8); the file may be truncated or corrupt\n"
    )


def test_list_takes_no_rule_options() -> None:
    done = ohhell("rules", "--list", "--players", "99", "--no-hook", "--preset", "standard")
    assert done.returncode == 2  # options that exclude each other: a usage error
    assert done.stderr.endswith(
        "ohhell rules: error: --list lists the presets and takes no rule options: --preset,"
        " --players, --no-hook\n"
    )
    assert ohhell("rules", "--list", "--json").returncode == 0


def test_options_are_never_abbreviated() -> None:
    done = ohhell("simulate", "--see", "3", "--no-records", "--quiet")
    assert done.returncode == 2
    assert "unrecognized arguments: --see 3" in done.stderr


def _one_card_game() -> GameState:
    """A game of one hand of one card each, three seats, played at random to its end."""
    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1,))
    rng = random.Random(1)
    state = new_game(rules, first_dealer=0)
    while not state.is_over:
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    return state


def test_wide_seat_names_keep_the_score_sheet_in_columns() -> None:
    """An emoji or a CJK character takes two columns of a terminal: the table pads by columns,
    not by characters, so every line of it is as wide as the others."""
    state = _one_card_game()
    names = ["\U0001f600\U0001f600\U0001f600", "\u738b\u82b3", "Zoe\u0301"]
    table = format_score_sheet(score_sheet(state), names, winners=state.winners)

    def columns(line: str) -> int:  # these names' characters: wide ones 2, the accent 0
        wide = sum(line.count(c) for c in "\U0001f600\u738b\u82b3")
        return len(line) + wide - line.count("\u0301")

    widths = {columns(line) for line in table.splitlines()[:-1]}  # all but the winner line
    assert len(widths) == 1, table


def test_a_long_seat_name_is_cut_to_its_start_in_the_score_sheet() -> None:
    """A name is any text of a record: one of ten thousand characters takes NAME_COLUMNS
    columns of the sheet, not ten thousand on every line."""
    state = _one_card_game()
    names = ["A" * 10_000, "Bo", "\U0001f600" * 40]
    table = format_score_sheet(score_sheet(state), names, winners=state.winners).splitlines()
    head = table[0].split(" | ")
    assert head[1].strip() == "A" * (NAME_COLUMNS - 3) + "..."
    assert head[3].strip() == "\U0001f600" * ((NAME_COLUMNS - 3) // 2) + "..."
    assert max(map(len, table)) < 4 * (NAME_COLUMNS + 3) + 30


def test_reports_that_cannot_be_written_say_the_games_are_safe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    require("rich")
    require("matplotlib")
    from ohhell.tournament import report

    def full(*args: object, **kwargs: object) -> object:
        raise OSError(28, "No space left on device", str(tmp_path / "out" / "report.csv"))

    monkeypatch.setattr(report, "write_reports", full)
    out = tmp_path / "out"
    args = ["tournament", *ONE_HAND, "--deal-sets", "2", "--jobs", "1", "--out", str(out)]
    assert cli_main.main(args) == 1
    assert capsys.readouterr().err == (
        f"ohhell tournament: error: cannot write the reports (No space left on device:"
        f" {out / 'report.csv'}); all 2 deal sets are saved in {out / 'journal.jsonl'}: the"
        " same command with --resume writes the reports\n"
    )
    monkeypatch.undo()
    assert cli_main.main([*args, "--resume"]) == 0
    assert (out / "report.png").exists()


def test_a_broken_link_where_a_record_goes_is_named_before_the_game(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "game-1.json").symlink_to(tmp_path / "gone.json")
    done = ohhell("simulate", *ONE_HAND, "--out", str(out))
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"ohhell simulate: error: {out / 'game-1.json'} is a symbolic link to"
        f" {tmp_path / 'gone.json'}, which does not exist: it is not replaced unless"
    )
    below = ohhell("simulate", *ONE_HAND, "--out", str(tmp_path / "nowhere-link" / "sub"))
    assert below.returncode == 0, below.stderr  # a plain missing folder is made
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    broken = ohhell("simulate", *ONE_HAND, "--out", str(tmp_path / "link" / "sub"))
    assert broken.stderr == (
        f"ohhell simulate: error: {tmp_path / 'link'} is a symbolic link to"
        f" {tmp_path / 'nowhere'}, which does not exist\n"
    )


def test_rules_and_deal_files_larger_than_any_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ohhell.cli import options
    from ohhell.tournament import deals

    rules_file = tmp_path / "rules.json"
    rules_file.write_text('{"player_count": 3, "hook": true}', encoding="utf-8")
    monkeypatch.setattr(options, "MAX_RULES_FILE_BYTES", 10)
    assert cli_main.main(["rules", "--rules-file", str(rules_file)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell rules: error: cannot read rules file {rules_file}: larger than any rules file"
        " (over 10 bytes)\n"
    )
    deal_file = tmp_path / "deals.json"
    deals.save_deal_sets(deals.generate_deal_sets(Rules(player_count=3), 1, 1), deal_file)
    monkeypatch.setattr(deals, "MAX_FILE_BYTES", 100)
    with pytest.raises(deals.DealFileError) as error:
        deals.load_deal_sets(deal_file)
    assert str(error.value) == f"deal file {deal_file}: larger than any deal file (over 100 bytes)"


@pytest.mark.usefixtures("default_stop_handlers")
def test_a_stop_while_the_reports_are_written_waits_for_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    require("rich")
    require("matplotlib")
    from ohhell.tournament import report

    write = report.write_reports

    def stopped_while_writing(*args: Any, **kwargs: Any) -> list[Path]:
        os.kill(os.getpid(), signal.SIGTERM)  # handled at once: noted, held
        return write(*args, **kwargs)

    monkeypatch.setattr(report, "write_reports", stopped_while_writing)
    out = tmp_path / "out"
    args = ["tournament", *ONE_HAND, "--deal-sets", "2", "--jobs", "1", "--out", str(out)]
    assert cli_main.main(args) == 128 + signal.SIGTERM
    assert capsys.readouterr().err.endswith(
        f"ohhell tournament: terminated; all 2 deal sets are saved in {out / 'journal.jsonl'}"
        " and the reports are written\n"
    )
    assert all((out / name).exists() for name in report.REPORT_FILES)


def test_an_unfinished_record_replays_as_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record cut short is valid: its sheet shows the bids not yet made as ``-`` and no
    points, and it has no winner; as JSON, ``finished`` is false."""
    from ohhell.engine import records

    rules = Rules(player_count=3, schedule="custom", custom_hand_sizes=(1, 1))
    rng = random.Random(1)
    state = new_game(rules, first_dealer=0)
    while state.is_chance or state.bids.count(None) > 2:  # one bid made
        action = random_deal(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    path = tmp_path / "cut.json"
    path.write_text(records.dumps(records.to_record(state, seats=["Ann", "Bo", "Cy"])))
    assert cli_main.main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert (
        f"{path}: valid record; " in text
        and "; unfinished, at hand 1 of 2 (1 card), bidding\n" in text
    )
    assert "winner" not in text
    hand_1 = text.splitlines()[4].split(" | ")
    assert [cell.split() for cell in hand_1[1:]] == [["-", "0"], ["0", "0"], ["-", "0"]]
    assert cli_main.main(["replay", "--json", str(path)]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert (sheet["finished"], sheet["winners"], len(sheet["hands"])) == (False, [], 1)
    hand = sheet["hands"][0]
    assert hand["points"] is None and hand["bids"].count(None) == 2
    assert hand["totals"] is None and sheet["totals"] == [0, 0, 0]  # as its record, and so far
    assert sheet["sealed_bids"] == []  # bids in turn: none is sealed


def test_an_unfinished_record_shows_who_has_made_a_sealed_bid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under simultaneous bidding, a hand cut short while its bids were sealed shows which
    seats have bid (public), as ``?``, and not what (hidden until every seat has bid)."""
    from ohhell.engine import Bid, BiddingMode, records

    rules = Rules(
        player_count=3,
        schedule="custom",
        custom_hand_sizes=(2, 2),
        bidding=BiddingMode.SIMULTANEOUS,
    )
    rng = random.Random(1)
    state = new_game(rules, first_dealer=0)
    while state.is_chance or state.bids != (None, 1, None):
        if state.is_chance:
            state, _ = apply(state, random_deal(state, rng))
        else:
            state, _ = apply(state, Bid(1, 1))
    path = tmp_path / "cut.json"
    path.write_text(records.dumps(records.to_record(state, seats=["Ann", "Bo", "Cy"])))
    assert cli_main.main(["replay", str(path)]) == 0
    hand_1 = capsys.readouterr().out.splitlines()[4].split(" | ")
    assert [cell.split() for cell in hand_1[1:]] == [["-", "0"], ["?", "0"], ["-", "0"]]
    assert cli_main.main(["replay", "--json", str(path)]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["sealed_bids"] == [1] and sheet["hands"][0]["bids"] == [None, None, None]


def test_a_record_file_of_blank_lines_is_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "blank.json"
    path.write_text("\n  \n", encoding="utf-8")
    assert cli_main.main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell replay: error: {path}: empty: a record is a JSON object\n"
    )


def test_whole_numbers_take_spaces_around_each_and_a_blank_list_is_none() -> None:
    """``--bids ""`` (or blank) is no bids made yet, as no ``--bids`` is."""
    import argparse

    from ohhell.cli.options import whole_numbers

    assert whole_numbers("") == () and whole_numbers("  ") == ()
    assert whole_numbers(" 1, 0 ,2") == (1, 0, 2)
    with pytest.raises(argparse.ArgumentTypeError, match="separated by commas, got '1 2'"):
        whole_numbers("1 2")  # a list without its commas, not the number 12


def test_numbers_are_written_in_ascii_digits_and_of_a_sane_length() -> None:
    """Python's int() reads other scripts' digits (٣ is 3) and refuses a number of more
    than 4,300 digits with advice about the interpreter: both are said in the command's terms."""
    arabic = ohhell("rules", "--players", "\u0663")
    assert arabic.returncode == 2
    assert "argument --players: a number of players is a whole number in the digits 0-9, got" in (
        arabic.stderr
    )
    long = ohhell("simulate", "--games", "1", "--seed", "9" * 5000, "--no-records")
    assert long.returncode == 2
    assert "argument --seed: a seed of 5,000 digits is longer than any this program takes" in (
        long.stderr
    )
    hands = ohhell("rules", "--schedule", "custom", "--hand-sizes", "1,\u0662")
    assert hands.returncode == 2
    assert "each number is a whole number in the digits 0-9" in hands.stderr


@pytest.mark.parametrize("text", ["5_0", "0x10", "5.0", "1e3", "5 0"])
def test_a_seed_is_read_only_as_digits(text: str) -> None:
    """Python's int() reads ``5_0`` as 50: a command line means no such thing, and says so."""
    import argparse

    from ohhell.cli.options import seed_arg

    with pytest.raises(argparse.ArgumentTypeError, match="a seed is a whole number"):
        seed_arg(text)
    assert seed_arg(" +50 ") == 50  # a sign and spaces around the digits are still read


@pytest.mark.parametrize("text", ["[4]", '"standard"', "4"])
def test_a_rules_file_must_hold_an_object(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rules.json"
    path.write_text(text, encoding="utf-8")
    assert cli_main.main(["rules", "--rules-file", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"ohhell rules: error: rules file {path} must hold a JSON object of options\n"
    )


def test_the_winners_are_marked_and_named_under_the_totals() -> None:
    state = _one_card_game()
    rows = score_sheet(state)
    totals = [str(total) for total in rows[-1].totals]
    for winners, named in (((1,), "winner: Bo (*)"), ((0, 2), "shared win: Ann, Cy (*)")):
        table = format_score_sheet(rows, ["Ann", "Bo", "Cy"], winners=winners).splitlines()
        marked = ["*" + total if seat in winners else total for seat, total in enumerate(totals)]
        assert [cell.strip() for cell in table[-2].split("|")[1:]] == marked
        assert table[-1] == named


def test_seat_names_are_centred_and_their_format_characters_escaped() -> None:
    """A name is centred over its column, any odd space on its right; an invisible format
    character (a right-to-left override would turn the rest of the line around) is escaped."""
    rows = score_sheet(new_game(Rules(player_count=3)))
    head = format_score_sheet(rows, ["Bo", "Ann", "Cy\u202e"]).splitlines()[0]
    assert head.split(" | ")[1:] == [
        " " * 7 + "Bo" + " " * 8,
        " " * 7 + "Ann" + " " * 7,
        " " * 4 + "Cy\\u202e" + " " * 5,
    ]


def test_a_file_name_cannot_break_the_error_line(tmp_path: Path) -> None:
    """A name holding a newline split the one line of an error in two, and an escape sequence
    reached the terminal raw; each is written as Python writes it in a string."""
    odd = tmp_path / "nl\nfile\x1b[31m"
    odd.write_text("x", encoding="utf-8")
    for args in (("simulate", *ONE_HAND, "--out", str(odd)), ("replay", str(odd / "x"))):
        done = ohhell(*args)
        assert done.returncode == 1, done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert "nl\\nfile\\x1b[31m" in done.stderr and "\x1b" not in done.stderr
