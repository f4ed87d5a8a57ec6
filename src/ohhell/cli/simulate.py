"""``ohhell simulate``: complete games between computer players, with their records."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ohhell.bots import RandomBot
from ohhell.cli.options import add_rules_arguments, rules_from_args
from ohhell.cli.render import format_score_sheet, score_sheet_json
from ohhell.engine import records, score_sheet
from ohhell.runner import play_game
from ohhell.storage_files import write_atomic


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help="play complete games between random players and write their records",
        description="Play complete games between random players under a preset or rule options;"
        " write one JSON record per game and print each game's score sheet.",
    )
    add_rules_arguments(parser)
    parser.add_argument("--games", type=int, default=1, help="number of games (default: 1)")
    parser.add_argument(
        "--seed", type=int, help="seed for a reproducible run (default: a secure random one)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("records"),
        help="folder for the records (default: ./records)",
    )
    parser.add_argument("--no-records", action="store_true", help="do not write records")
    parser.add_argument("--json", action="store_true", help="print score sheets as JSON lines")
    parser.add_argument(
        "--quiet", action="store_true", help="print only where records were written"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.games < 1:
        raise SystemExit("ohhell simulate: error: --games must be at least 1")
    base_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    if not args.no_records:
        args.out.mkdir(parents=True, exist_ok=True)
    seats = [f"random {i}" for i in range(rules.player_count)]
    for game in range(args.games):
        seed = base_seed + game
        rng = random.Random(seed)
        result = play_game(rules, [RandomBot() for _ in seats], deal_rng=rng)
        state = result.state
        rows = score_sheet(state)
        if args.json:
            print(
                json.dumps({"seed": seed, **score_sheet_json(rows, seats, winners=state.winners)})
            )
        elif not args.quiet:
            print(f"game {game + 1} of {args.games}: {rules.describe()}; seed {seed}")
            print(format_score_sheet(rows, seats, winners=state.winners))
            print()
        if not args.no_records:
            record = records.to_record(
                state,
                seats=seats,
                meta={
                    "generator": "ohhell simulate",
                    "seed": seed,
                    "players": ["random"] * len(seats),
                },
            )
            path = args.out / f"game-{seed}.json"
            write_atomic(path, records.dumps(record))
            if not args.json:
                print(f"record written to {path}")
    return 0
