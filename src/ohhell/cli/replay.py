"""``ohhell replay FILE``: check a game record by replaying it and print its score sheet."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ohhell.cli.render import format_score_sheet, score_sheet_json
from ohhell.engine import RecordError, records, score_sheet


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="validate a game record and print its score sheet",
        description="Replay a game record through the rules. A valid record prints its score"
        " sheet and exits 0; an illegal, truncated or corrupt one prints what is wrong (hand,"
        " trick, seat and rule) and exits 1.",
    )
    parser.add_argument("file", type=Path, help="record file (JSON), or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    data = sys.stdin.buffer.read() if str(args.file) == "-" else args.file.read_bytes()
    try:
        record = records.loads(data)
        state = records.replay(record)
    except RecordError as exc:
        raise RecordError(f"{args.file}: {exc}") from None
    seats = record["seats"]
    rows = score_sheet(state)
    if args.json:
        out = score_sheet_json(rows, seats, winners=state.winners)
        out["rules"] = state.rules.to_dict()
        print(json.dumps(out, indent=2))
    else:
        status = "finished" if state.is_over else f"unfinished, at {state.describe_position()}"
        print(f"{args.file}: valid record; {state.rules.describe()}; {status}")
        print(format_score_sheet(rows, seats, winners=state.winners))
    return 0
