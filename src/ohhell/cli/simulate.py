"""``ohhell simulate``: complete games between computer players, with their records."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ohhell.bots import Bot
from ohhell.cli.options import add_rules_arguments, rules_from_args, seed_arg
from ohhell.cli.players import prepare_bots
from ohhell.cli.render import format_score_sheet, score_sheet_json
from ohhell.engine import RulesError, records, score_sheet
from ohhell.players import PLAYER_NAMES, make_player
from ohhell.runner import play_game
from ohhell.storage_files import write_atomic


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help="play complete games between computer players and write their records",
        description="Play complete games between computer players (random by default) under a"
        " preset or rule options; write one JSON record per game and print each game's score"
        " sheet.",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        default="random",
        help="one bot name for every seat, or a comma-separated name per seat, e.g."
        f" heuristic,random,random,random (bots: {', '.join(PLAYER_NAMES)}; default: random);"
        " a name may carry options for its bot, NAME:OPTION=VALUE:..., e.g. search:rivalry=0.5",
    )
    parser.add_argument("--games", type=int, default=1, help="number of games (default: 1)")
    parser.add_argument(
        "--seed", type=seed_arg, help="seed for a reproducible run (default: a secure random one)"
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
        "--quiet",
        action="store_true",
        help="no score sheets: print only where records were written (--json lines still print)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.games < 1:
        raise SystemExit("ohhell simulate: error: --games must be at least 1")
    base_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    names = _bot_names(args.bots, rules.player_count)
    seats = [f"{name} {i}" for i, name in enumerate(names)]
    try:
        prepare_bots(names, "simulate", rules=rules, quiet=args.quiet)
    except ValueError as exc:
        raise RulesError(f"--bots: {exc}") from None
    if not args.no_records:  # only once the bots are known good: a refused run leaves nothing
        args.out.mkdir(parents=True, exist_ok=True)
    for game in range(args.games):
        seed = base_seed + game
        rng = random.Random(seed)
        result = play_game(rules, _make_bots(names), deal_rng=rng)
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
                    "players": names,
                },
            )
            path = args.out / f"game-{seed}.json"
            write_atomic(path, records.dumps(record))
            if not args.json:
                print(f"record written to {path}")
    return 0


def _bot_names(text: str, player_count: int) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) == 1:
        names *= player_count
    if len(names) != player_count:
        raise RulesError(f"--bots names {len(names)} bots for {player_count} players")
    return names


def _make_bots(names: list[str]) -> list[Bot]:
    return [make_player(name) for name in names]  # names checked by prepare_bots
