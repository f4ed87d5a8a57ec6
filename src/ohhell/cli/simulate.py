"""``ohhell simulate``: complete games between computer players, with their records."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from ohhell.bots import Bot
from ohhell.cli.options import (
    add_rules_arguments,
    folder_arg,
    positive_int,
    rules_from_args,
    seed_arg,
    seed_or_random,
)
from ohhell.cli.players import prepare_bots
from ohhell.cli.render import format_score_sheet, score_sheet_json
from ohhell.cli.replay import MAX_RECORD_BYTES
from ohhell.cli.stopping import Stop, stopped_by_signals
from ohhell.cli.streams import say
from ohhell.engine import GameState, OhHellError, Rules, RulesError, records, score_sheet
from ohhell.players import PLAYER_NAMES, make_player
from ohhell.runner import play_game
from ohhell.storage_files import (
    TEMPORARY_MARK,
    InUseError,
    broken_link,
    read_limited,
    remove_stale_temporaries,
    sole_writer,
    write_atomic,
)

__all__ = ["SimulateError", "register", "run"]


class SimulateError(OhHellError):
    """A run of ``ohhell simulate`` refused, said in the command's terms."""

    code = "cli/simulate"


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
        " a name may carry options for its bot, NAME:OPTION=VALUE:..., e.g. search:rivalry=0.5;"
        " a bot of your own is named module.Name, its module importable",
    )
    parser.add_argument(
        "--games", type=positive_int, default=1, help="number of games (default: 1)"
    )
    parser.add_argument(
        "--seed", type=seed_arg, help="seed for a reproducible run (default: a secure random one)"
    )
    parser.add_argument(
        "--out",
        type=folder_arg,
        default=Path("records"),
        help="folder for the records (default: ./records)",
    )
    parser.add_argument("--no-records", action="store_true", help="do not write records")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace records of the same name in --out (without it, a run whose records"
        " would replace another game's is refused before its first game; the same command"
        " run again writes the same games, and may)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print each game as a JSON line: its seed, where its record was written (null"
        " with --no-records) and its score sheet",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no score sheets: print only where records were written (with --json the JSON"
        " lines print, each naming its record)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    base_seed = seed_or_random(args.seed)
    names = _bot_names(args.bots, rules.player_count)
    try:
        prepare_bots(names, "simulate", rules=rules, quiet=args.quiet)
    except ValueError as exc:
        raise RulesError(f"--bots: {exc}") from None
    seeds = range(base_seed, base_seed + args.games)
    if args.no_records:
        return _play(args, rules, names, seeds, out=None)
    try:  # only once the bots are known good: a refused run leaves nothing
        with sole_writer(args.out) as out:  # two runs writing one folder could race
            remove_stale_temporaries(out, "game-*.json")
            paths = _taken(out, seeds)  # what is there, not a look per game: --games 10**7
            found = [(path, _in_the_way(path, rules, names, seed)) for path, seed in paths]
            other = [(path, what) for path, what in found if what is not None]
            folders = [path for path, what in other if what == "is a folder"]
            if folders:  # --overwrite replaces records, never a folder
                raise SimulateError(f"{folders[0]} is a folder, where a record would be written")
            if other and not args.overwrite:
                path, what = other[0]
                more = f" (and {len(other) - 1} more)" if len(other) > 1 else ""
                raise SimulateError(
                    f"{path}{more} {what}: it is not replaced unless --overwrite is given"
                    " (or choose another --seed or --out)"
                )
            _check_writable(out, seeds)
            return _play(args, rules, names, seeds, out=out)
    except InUseError:
        raise SimulateError(
            f"another ohhell command is writing to {args.out} now: wait for it to finish, or"
            " choose another --out"
        ) from None


def _file_name(seed: int) -> str:
    return f"game-{seed}.json"


def _taken(out: Path, seeds: range) -> list[tuple[Path, int]]:
    """The names in ``out`` that a game of ``seeds`` would write to (a file, a folder or a
    link, broken or not), with their seeds, in seed order: found by listing ``out`` once,
    not by a look per game, which a long run (``--games 10000000``) would wait minutes for,
    holding every name in memory, before its first game."""
    taken = []
    with os.scandir(out) as entries:
        for entry in entries:
            digits = entry.name.removeprefix("game-").removesuffix(".json")
            if not (digits.isascii() and digits.isdigit() and len(digits) < 1000):
                continue
            seed = int(digits)
            if seed in seeds and entry.name == _file_name(seed):  # not game-01.json
                taken.append((out / entry.name, seed))
    return sorted(taken, key=lambda found: found[1])


def _in_the_way(path: Path, rules: Rules, names: list[str], seed: int) -> str | None:
    """What ``path`` holds that writing this game's record there would replace, said for an
    error; ``None`` if nothing, or the record of this very game as a rerun of the same command
    would write it: the same rules, bots and seed (so a demo or a README command can be run
    twice). Whether the game then comes out the same is checked when it is written (bots that
    think by the clock may play it otherwise)."""
    if path.is_dir():
        return "is a folder"
    if problem := broken_link(path):
        return problem.removeprefix(f"{path} ")
    if not path.exists():
        return None
    if not path.is_file():  # reading a FIFO would wait for a writer, /dev/zero never end
        return "is not a regular file"
    try:
        data = _record_bytes(path)
    except OSError as exc:  # not a reason to call it something else
        return f"cannot be read ({exc.strerror or exc})"
    except ValueError as exc:
        return f"is {exc}"  # larger than any game record
    try:
        record = records.loads(data)
    except ValueError:
        return "is not a game record"
    meta = record.get("meta")
    same = (
        record.get("rules") == rules.to_dict()
        and isinstance(meta, dict)
        and meta.get("generator") == "ohhell simulate"
        and meta.get("seed") == seed
        and meta.get("players") == names
    )
    return None if same else "holds another game"


def _record_bytes(path: Path) -> bytes:
    """The bytes of the record file at ``path``, refused with a :class:`ValueError` if it is
    not a regular file (reading a FIFO would wait for a writer, and a link to ``/dev/zero``
    fill the memory) or is larger than any record."""
    if not path.is_file():
        raise ValueError(f"{path} is not a regular file")
    return read_limited(path, MAX_RECORD_BYTES, "game record")


def _check_writable(out: Path, seeds: range) -> None:
    """Refuse a folder no record can be written into before the first game is played (with
    the expert bots, minutes), not after it: one that cannot be written, or whose file names
    cannot be as long as the records' names (a seed of hundreds of digits)."""
    try:
        with tempfile.TemporaryFile(dir=out):  # unnamed where it can be: nothing left behind
            pass
    except OSError as exc:
        raise SimulateError(f"cannot write records into {out}: {exc.strerror or exc}") from None
    # the longest name written: the last seed's record, under write_atomic's temporary name
    longest = len(os.fsencode(f".{_file_name(seeds[-1])}.12345678{TEMPORARY_MARK}"))
    try:
        limit = os.pathconf(out, "PC_NAME_MAX") if hasattr(os, "pathconf") else None
    except (OSError, ValueError):  # a system that does not say
        limit = None
    if limit is not None and 0 < limit < longest:
        raise SimulateError(
            f"the seeds of this run ({len(str(seeds[-1])):,} digits) make the records' names"
            f" (game-SEED.json) longer than {out} allows ({limit} bytes): choose a smaller"
            " --seed"
        )


def _play(
    args: argparse.Namespace, rules: Rules, names: list[str], seeds: range, *, out: Path | None
) -> int:
    """Play a game per seed; each is reported once its record is on disk (into ``out``,
    unless it is ``None``). SIGTERM and SIGHUP stop the run as Ctrl-C does: the game being
    played is lost, every game reported is saved."""
    seats = [f"{name} {i}" for i, name in enumerate(names)]
    stop = Stop()
    written = 0
    try:
        with stopped_by_signals(stop):
            for number, seed in enumerate(seeds, 1):
                state = play_game(rules, _make_bots(names), deal_rng=random.Random(seed)).state
                path = None if out is None else out / _file_name(seed)
                stopping, before = False, written  # a stop that came as the record was written
                try:
                    with stop.held():  # never a record on disk that the run does not count
                        if path is not None:
                            kept = _kept(written, seeds, out)  # said if it cannot be written
                            _save(state, path, seats, names, seed, args.overwrite, kept)
                            written += 1
                except KeyboardInterrupt:
                    if written == before and path is not None:  # nothing was written
                        raise
                    stopping = True  # held back until the record was on disk: it is
                    # reported as every record is, and then the run stops
                try:  # outside the held section: a stop ends a print blocked on a reader
                    _report(args, rules, state, seats, seed, number, path)  # who stalls
                    sys.stdout.flush()  # reported now, not when a pipe's buffer fills
                except BrokenPipeError:
                    raise  # the reader went away: the command's own way out
                except OSError as exc:  # standard output is a full disk
                    raise SimulateError(
                        f"cannot write to standard output ({exc.strerror or exc})"
                        f"{_kept(written, seeds, out)}"
                    ) from None
                if stopping:
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        saved = f"; {written} of {len(seeds)} records are written in {out}" if out else ""
        say(f"ohhell simulate: {stop.how}{saved}")
        return stop.exit_status
    return 0


def _save(
    state: GameState,
    path: Path,
    seats: list[str],
    names: list[str],
    seed: int,
    overwrite: bool,
    kept: str,
) -> None:
    """Write the record of the game ``state`` to ``path``; if it cannot be written, a
    :class:`SimulateError` that says so, and what the run has saved (``kept``)."""
    record = records.to_record(
        state, seats=seats, meta={"generator": "ohhell simulate", "seed": seed, "players": names}
    )
    try:
        _write_record(path, records.dumps(record), overwrite=overwrite)
    except OSError as exc:  # a full disk, a folder made read-only
        raise SimulateError(
            f"cannot write {path} ({exc.strerror or exc}){kept}; once it can be written, the"
            " same command writes the rest (the records there are kept)"
        ) from None


def _kept(written: int, seeds: range, out: Path | None) -> str:
    """What a run stopped by an error has saved, for its message."""
    return "" if out is None else f": {written} of {len(seeds)} records are written in {out}"


def _write_record(path: Path, text: str, *, overwrite: bool) -> None:
    """Write a game's record, never replacing another game's without ``overwrite``: the same
    game written before (a rerun of the same command) is left as it is, even saved again in
    another encoding or with other line ends."""
    try:
        write_atomic(path, text, replace=overwrite)
    except FileExistsError:
        if _read_record(path) != records.loads(text):
            raise SimulateError(
                f"{path} holds another game of the same seed ({_why_other(path)}): it is kept;"
                " --overwrite replaces it"
            ) from None


def _read_record(path: Path) -> dict[str, Any] | None:
    """The record at ``path`` as :func:`records.loads` reads it (UTF-8, -16 or -32), or None
    if it cannot be read or is not one."""
    try:
        return records.loads(_record_bytes(path))
    except (OSError, ValueError):  # RecordError is a ValueError
        return None


def _why_other(path: Path) -> str:
    """Why a record of this run's rules, bots and seed differs from the game just played: it
    was edited (it no longer replays: said where), or its bots think by the clock."""
    try:
        records.replay(records.loads(_record_bytes(path)))
    except OSError as exc:
        return f"it cannot be read now: {exc.strerror or exc}"
    except ValueError as exc:  # RecordError is a ValueError
        return f"edited or damaged since it was written: {exc}"
    return "a bot that thinks by the clock played it otherwise, or it was edited"


def _report(
    args: argparse.Namespace,
    rules: Rules,
    state: GameState,
    seats: list[str],
    seed: int,
    number: int,
    path: Path | None,
) -> None:
    """Print a finished game (its record already written to ``path``, if any)."""
    rows = score_sheet(state)
    if args.json:
        record = {"record": str(path) if path is not None else None}
        sheet = score_sheet_json(rows, seats, winners=state.winners)
        print(json.dumps({"seed": seed, **record, **sheet}))
        return
    if not args.quiet:
        print(f"game {number} of {args.games}: {rules.describe()}; seed {seed}")
        print(format_score_sheet(rows, seats, winners=state.winners, encoding=sys.stdout.encoding))
        print()
    if path is not None:
        print(f"record written to {path}")


def _bot_names(text: str, player_count: int) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if "" in names:
        raise RulesError(f"--bots: bot {names.index('') + 1} of {text!r} has no name")
    if len(names) == 1:
        names *= player_count
    if len(names) != player_count:
        raise RulesError(f"--bots names {len(names)} bots for {player_count} players")
    return names


def _make_bots(names: list[str]) -> list[Bot]:
    return [make_player(name) for name in names]  # names checked by prepare_bots
