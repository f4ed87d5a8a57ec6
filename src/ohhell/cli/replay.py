"""``ohhell replay FILE``: check a game record by replaying it and print its score sheet."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ohhell.cli.options import file_arg
from ohhell.cli.render import format_score_sheet, score_sheet_json
from ohhell.engine import RecordError, records, score_sheet
from ohhell.storage_files import read_limited

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest input ``replay`` reads: a record of the longest game (seven players, or three
playing up and down with the turning hand twice) is some 30 kB, so 16 MiB leaves room for any
``meta`` and still refuses an endless input."""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="validate a game record and print its score sheet",
        description="Replay a game record through the rules. A valid record prints its score"
        " sheet and exits 0; an illegal, truncated or corrupt one prints what is wrong (hand,"
        " trick, seat and rule) and exits 1.",
    )
    parser.add_argument(
        "file",
        type=_record_arg,
        help="record file (JSON), or - for standard input (./- for a file named -)",
    )
    parser.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    parser.set_defaults(run=run)


def _record_arg(text: str) -> str:
    """The record argument as typed: ``-`` is standard input, and ``./-`` the file named ``-``
    (a :class:`Path` would make both ``-``)."""
    file_arg(text)  # an empty name is refused
    return text


def _read(file: str) -> bytes:
    """The record's bytes, from the file or standard input (``-``); past
    :data:`MAX_RECORD_BYTES` it is not a record (``/dev/zero`` would fill the memory)."""
    if file == "-" and sys.stdin is None:  # started with <&-
        raise RecordError("standard input is closed: there is no record to read")
    source = sys.stdin.buffer if file == "-" else Path(file)
    try:
        data = read_limited(source, MAX_RECORD_BYTES, "game record")
    except ValueError as exc:
        raise RecordError(f"{_name(file)}: {exc}") from None
    except OSError as exc:
        exc.filename = file  # as typed: a Path names ./- as -, which reads as standard input
        raise
    if not data.strip():
        raise RecordError(f"{_name(file)}: empty: a record is a JSON object")
    return data


def _name(file: str) -> str:
    return "standard input" if file == "-" else file


def run(args: argparse.Namespace) -> int:
    data = _read(args.file)
    try:
        record = records.loads(data)
        state = records.replay(record)
    except RecordError as exc:
        raise RecordError(f"{_name(args.file)}: {exc}") from None
    seats = record["seats"]
    rows = score_sheet(state)  # as the table sees it: sealed bids hidden, who has bid shown
    sealed = [] if state.bids_revealed else [s for s, b in enumerate(state.bids) if b is not None]
    if args.json:
        out = score_sheet_json(rows, seats, winners=state.winners, sealed=sealed)
        out["rules"] = state.rules.to_dict()
        print(json.dumps(out, indent=2))
    else:
        status = "finished" if state.is_over else f"unfinished, at {state.describe_position()}"
        print(f"{args.file}: valid record; {state.rules.describe()}; {status}")
        sheet = format_score_sheet(
            rows, seats, winners=state.winners, sealed=sealed, encoding=sys.stdout.encoding
        )
        print(sheet)
    return 0
