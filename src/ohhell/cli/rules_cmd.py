"""``ohhell rules``: list the presets and show what a rule set means."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ohhell.cli.options import add_rules_arguments, rule_flags_given, rules_from_args
from ohhell.engine import CONVENTIONS, PRESETS


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rules",
        help="list presets, or show the hand schedule of a rule set",
        description="Check a rule set and show the game it makes: hand sizes, trumps and every"
        " option (without options, the standard game for 4 players). --list lists the named"
        " presets instead.",
    )
    add_rules_arguments(parser)
    parser.add_argument("--list", action="store_true", help="list the presets")
    parser.add_argument(
        "--json", action="store_true", help="print the rules (or, with --list, the presets) as JSON"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        given = rule_flags_given(args)
        if given:  # a usage error, as for options that exclude each other
            args.command_parser.error(
                f"--list lists the presets and takes no rule options: {', '.join(given)}"
            )
        if args.json:
            presets = {
                name: {"description": preset.description, "options": dict(preset.options)}
                for name, preset in PRESETS.items()
            }
            print(json.dumps(presets, indent=2))
            return 0
        for name, preset in PRESETS.items():
            print(f"{name:<14} {preset.description}")
        return 0
    rules = rules_from_args(args)
    if args.json:
        print(json.dumps(rules.to_dict(), indent=2))
        return 0
    print(rules.describe())
    sizes = rules.hand_sizes()
    trumps = "".join("T" if rules.has_trump(i) else "-" for i in range(len(sizes)))
    print(f"hand sizes: {' '.join(map(str, sizes))}")
    print(f"trump turned (T) or not (-): {trumps}")
    for key, value in rules.to_dict().items():
        print(f"  {key} = {json.dumps(value)}")
    print("conventions (not options; docs/rules.md):")
    for convention in CONVENTIONS:
        print(f"  {convention}")
    return 0
