"""Rule options on the command line: ``--preset`` plus one flag per option of :class:`Rules`."""

from __future__ import annotations

import argparse
import math
import random
import re
from pathlib import Path
from typing import Any

from ohhell.engine import PRESETS, BiddingMode, Rules, RulesError, Schedule
from ohhell.engine.jsontext import exceeds_digit_limit, parse_json
from ohhell.storage_files import read_limited

__all__ = [
    "RULE_FLAGS",
    "add_rules_arguments",
    "file_arg",
    "folder_arg",
    "rule_flags_given",
    "rules_from_args",
    "seed_arg",
    "whole_numbers",
]

DEFAULT_PLAYERS = 4
"""Players when neither ``--players`` nor the rules file says."""

MAX_RULES_FILE_BYTES = 1024 * 1024
"""The largest ``--rules-file`` read: its ten options take a few hundred bytes."""


_SWITCHES = (
    (
        "--repeat-turning-hand",
        "repeat_turning_hand",
        "play the turning hand twice (up-and-down, down-and-up)",
    ),
    (
        "--trump-in-last-hand",
        "trump_in_last_hand",
        "turn a trump in the last hand too (extension)",
    ),
    ("--hook", "hook", "bids may not total the tricks (variant 3)"),
    (
        "--must-trump",
        "must_trump",
        "La Podrida: a seat void in the suit led must trump (variant 5)",
    ),
    (
        "--missed-bids-score-tricks",
        "missed_bid_scores_tricks",
        "a missed bid scores its tricks (variant 6)",
    ),
    ("--zero-bid-bonus", "zero_bid_bonus", "a made zero bid scores 5 + hand size (variant 7)"),
)
"""The rules' true-or-false options: flag, field of :class:`Rules`, help."""

_FLAGS = {
    "player_count": ("--players", "players"),
    "schedule": ("--schedule", "schedule"),
    "custom_hand_sizes": ("--hand-sizes", "hand_sizes"),
    "bidding": ("--bidding", "bidding"),
    **{field: (flag, field) for flag, field, _ in _SWITCHES},
}
"""The flag that sets each field of :class:`Rules`, and where argparse keeps its value, for
errors to name the flags given."""

RULE_FLAGS = (("--preset", "preset"), ("--rules-file", "rules_file"), *_FLAGS.values())
"""Every rule option's flag and where argparse keeps its value."""


def rule_flags_given(args: argparse.Namespace) -> list[str]:
    """The rule options given on the command line, as typed (``--no-hook`` too)."""
    given = []
    for flag, dest in RULE_FLAGS:
        value = getattr(args, dest)
        if value is False:
            given.append(f"--no-{flag.removeprefix('--')}")
        elif value is not None:
            given.append(flag)
    return given


_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*")


def _integer(text: str, what: str) -> int:
    """``text`` as an integer, written in the digits 0-9, for argparse (``what`` names it).
    Python's :func:`int` reads more: other scripts' digits (``٣`` as 3) and Python's digit
    groups (``5_0`` as 50), which a command line does not mean."""
    if not text.isascii() or "_" in text:
        raise argparse.ArgumentTypeError(
            f"{what} is a whole number in the digits 0-9, got {text!r}"
        )
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{what} is a whole number, got {text!r}")
    try:
        return int(text)
    except ValueError as exc:
        if exceeds_digit_limit(exc):
            raise argparse.ArgumentTypeError(
                f"{what} of {len(text.strip()):,} digits is longer than any this program takes"
            ) from None
        raise argparse.ArgumentTypeError(f"{what} is a whole number, got {text!r}") from None


def _whole_number(text: str, low: int | None, what: str) -> int:
    """``text`` as a whole number of at least ``low`` (any, if None), for argparse (``what``
    names it)."""
    value = _integer(text, what)
    if low is not None and value < low:
        raise argparse.ArgumentTypeError(f"{what} is {low} or more, got {value}")
    return value


def seed_arg(text: str) -> int:
    """A ``--seed`` value: a whole number from 0 up. Python's generators seed alike from
    ``-n`` and ``n``, so a negative seed would replay another seed's games under its name."""
    return _whole_number(text, 0, "a seed")


def positive_int(text: str) -> int:
    """A count of at least 1 (``--games``)."""
    return _whole_number(text, 1, "a count")


def positive_seconds(text: str) -> float:
    """A time of more than 0 seconds (``--budget-seconds``): a number, not ``nan`` or
    ``inf``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a time is a number of seconds, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(
            f"a time is a finite number of seconds above 0, got {text}"
        )
    return value


def players_arg(text: str) -> int:
    """A ``--players`` value: a whole number (3 to 7 is checked with the rules, which say
    why)."""
    return _whole_number(text, None, "a number of players")


def seed_or_random(seed: int | None) -> int:
    """``seed`` when one was given, else a secure random one, which no bot can guess (a bot
    that knows the seed could deal the cards again: docs/bots.md, the contract)."""
    return seed if seed is not None else random.SystemRandom().randrange(2**63)


def folder_arg(text: str) -> Path:
    """A folder to write into (``--out``); an empty name is refused, not read as the current
    folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a folder name is needed, got an empty one")
    return Path(text)


def file_arg(text: str) -> Path:
    """A file to read or write (``--rules-file``, ``--deals``, a record); an empty name is
    refused, not read as the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a file name is needed, got an empty one")
    return Path(text)


def whole_numbers(text: str) -> tuple[int, ...]:
    """A comma-separated list of whole numbers (``--hand-sizes 1,2,3``, ``--bids 1,0``);
    spaces around each number are ignored (not inside one: ``1 2`` is refused, not read as 12)
    and an empty or blank text is the empty list."""
    text = text.strip()
    try:
        return tuple(_integer(item, "each number") for item in text.split(",")) if text else ()
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(
            f"must be whole numbers separated by commas, got {text!r}: {exc}"
        ) from None


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "rules",
        "a preset, changed by the rules file, then by the other options, whatever their order"
        " (`ohhell rules --list` lists the presets; `ohhell rules` with these options shows"
        " the game they make). An option not given keeps the preset's value: the standard game"
        " deals 1 card, then 2, up to the largest hand, bids in turn, plays the turning hand"
        " once and has every variant off. The points the rules leave open (cards dealt from"
        " the dealer's left, no trump when the deal empties the stock, the trick's winner"
        " leads, equal totals share the win, ...) are listed by `ohhell rules` and explained"
        " in docs/rules.md",
    )
    group.add_argument(
        "--preset",
        choices=list(PRESETS),
        help="named rule set (default: standard)",
    )
    group.add_argument(
        "--players",
        type=players_arg,
        help=f"number of players, 3 to 7 (default: the rules file's, else {DEFAULT_PLAYERS})",
    )
    group.add_argument(
        "--rules-file", type=file_arg, help="JSON file of rules options (as in a record's 'rules')"
    )
    group.add_argument(
        "--schedule", choices=[s.value for s in Schedule], help="order of hand sizes"
    )
    group.add_argument(
        "--hand-sizes",
        type=whole_numbers,
        help="comma-separated hand sizes, e.g. 1,2,3 (implies --schedule custom)",
    )
    group.add_argument(
        "--bidding", choices=[b.value for b in BiddingMode], help="sequential or simultaneous"
    )
    for flag, field, text in _SWITCHES:
        group.add_argument(
            flag, dest=field, action=argparse.BooleanOptionalAction, default=None, help=text
        )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the arguments describe; raises :class:`RulesError` naming the bad option
    and the flags given that set it.
    Each source overrides the one before: the preset, the rules file, then the flags given."""
    preset = PRESETS[args.preset or "standard"]
    options: dict[str, Any] = {"player_count": DEFAULT_PLAYERS, **preset.options}
    from_file: dict[str, Any] = {}
    if args.rules_file is not None:
        try:
            raw = read_limited(args.rules_file, MAX_RULES_FILE_BYTES, "rules file")
        except OSError as exc:
            raise RulesError(
                f"cannot read rules file {args.rules_file}: {exc.strerror or exc}"
            ) from None
        except ValueError as exc:  # larger than any rules file
            raise RulesError(f"cannot read rules file {args.rules_file}: {exc}") from None
        try:
            from_file = parse_json(raw)  # as replay reads records: UTF-8, -16 or -32
        except ValueError as exc:  # and said as replay says it of a record
            raise RulesError(
                f"cannot read rules file {args.rules_file}: not valid JSON ({exc}); the file"
                " may be truncated or corrupt"
            ) from None
        if not isinstance(from_file, dict):
            raise RulesError(f"rules file {args.rules_file} must hold a JSON object of options")
        if "format" in from_file and isinstance(from_file.get("rules"), dict):
            raise RulesError(
                f"rules file {args.rules_file} is a game record: its 'rules' object is what"
                " --rules-file takes"
            )
        options.update(from_file)
    if args.players is not None:
        options["player_count"] = args.players
    for field in ("schedule", "bidding", *(field for _, field, _ in _SWITCHES)):
        value = getattr(args, field)
        if value is not None:
            options[field] = value
    if args.hand_sizes is not None:
        options["custom_hand_sizes"] = args.hand_sizes
        if args.schedule is None:  # over the preset's or the rules file's schedule
            options["schedule"] = "custom"
    try:
        return Rules.from_dict(options)
    except RulesError as exc:  # name the flags given too: the user typed those, not fields
        flagged = {  # the fields in question that flags set, and with which flag
            field: _FLAGS[field][0]
            for field in exc.fields
            if getattr(args, _FLAGS[field][1]) is not None
        }
        if "schedule" in exc.fields and "schedule" not in flagged and args.hand_sizes is not None:
            flagged["schedule"] = "--hand-sizes"  # which makes the schedule custom
        in_file = args.rules_file is not None and (
            not exc.fields or any(f in from_file and f not in flagged for f in exc.fields)
        )
        if not flagged:  # from the preset or the rules file, which use the fields' names
            if in_file:
                raise RulesError(
                    f"rules file {args.rules_file}: {exc}", fields=exc.fields
                ) from None
            raise
        given = list(dict.fromkeys(flagged.values()))
        if in_file:  # the flags and the file together
            given.append(f"rules file {args.rules_file}")
        raise RulesError(f"{exc} ({', '.join(given)})", fields=exc.fields) from None
