"""``ohhell advise``: the bid advisor for a hand at a real table (or any game).

Example::

    ohhell advise --players 4 --hook --hand "As Kd 7c 2h" --trump 9h --bids 1,0

prints, for the seat that bids third (two bids before it, from the dealer's left), the
expected points of each bid it may make, best first, and the estimated chance of taking each
number of tricks when playing for the best (see :func:`ohhell.bots.advise_bid`). ``--json``
prints the same for programs, with the chances when playing for each bid. Under simultaneous
bidding no bid is known, and ``--position P`` says where the seat sits (1 leads first).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import Any

from ohhell.bots.advisor import DEFAULT_SAMPLES, BidAdvice, advise_bid, bidding_view
from ohhell.bots.search import MAX_UNTIMED_WORLDS
from ohhell.cli.options import (
    add_rules_arguments,
    positive_int,
    rule_flags_given,
    rules_from_args,
    seed_arg,
    seed_or_random,
    whole_numbers,
)
from ohhell.cli.players import prepare_bots
from ohhell.engine import (
    DECK,
    BiddingMode,
    Card,
    NotationError,
    OhHellError,
    PlayerView,
    format_cards,
    parse_cards,
    sort_cards,
)
from ohhell.engine.wording import counted

__all__ = ["AdviceError", "register", "run"]

MAX_SAMPLES = MAX_UNTIMED_WORLDS
"""The most deals ``--samples`` may ask for (the advisor's own limit): 14 s for a 4-card hand
on one core, over a minute for the longest hands, and memory grows with it."""


class AdviceError(OhHellError, ValueError):
    """A position the advisor cannot be asked about, said in the command's terms."""

    code = "cli/advise"


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "advise",
        help="advise a bid: the chance of each number of tricks and each bid's expected points",
        description="The bid advisor for a seat about to bid: give its cards, the turned trump"
        " card, the bids made before it and the rules. It samples the unseen cards many times"
        " (weighted by the bids made), plays each sampled deal out once per bid with the seat"
        " playing for that bid, as the search bot does when it bids, and prints each bid's"
        " expected points and the chance of taking each number of tricks. Of the rules, the"
        " players, the bidding and the scoring count; the schedule does not (the hand's size is"
        " the number of cards given, and whether a trump is turned is --trump or --no-trump;"
        " its flags are refused),"
        " so a hand of any size at a real table can be asked about.",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--hand", required=True, help='the seat\'s cards, e.g. "As Kd 7c 2h" (10 is T or 10)'
    )
    trump = parser.add_mutually_exclusive_group(required=True)
    trump.add_argument("--trump", metavar="CARD", help="the card turned for trump, e.g. 9h")
    trump.add_argument(
        "--no-trump", action="store_true", help="no card is turned: the hand has no trump"
    )
    parser.add_argument(
        "--bids",
        type=whole_numbers,
        default=(),
        help="the bids made before this seat's, comma-separated from the dealer's left, e.g."
        " 1,0 (default: none, the seat bids first; with the players less one, it is the dealer)",
    )
    parser.add_argument(
        "--position",
        type=positive_int,
        metavar="P",
        help="the seat's place from the dealer's left: 1 bids first and leads the first"
        " trick, the number of players is the dealer (default: after the bids given; under"
        " simultaneous bidding, where no bid is known, 1)",
    )
    parser.add_argument(
        "--samples",
        type=positive_int,
        default=DEFAULT_SAMPLES,
        help=f"deals sampled (default: {DEFAULT_SAMPLES}; more is steadier and slower; at most"
        f" {MAX_SAMPLES:,}; the advice says when the deals were worth too few)",
    )
    parser.add_argument(
        "--seed", type=seed_arg, help="seed of the sampled deals (default: a secure random one)"
    )
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")
    parser.set_defaults(run=run)


def _position(args: argparse.Namespace) -> PlayerView:
    rules = rules_from_args(args)
    try:
        hand = parse_cards(args.hand)
    except NotationError as exc:
        raise AdviceError(f"--hand: {exc}") from None
    if len(set(hand)) < len(hand):
        twice = next(card for card in hand if hand.count(card) > 1)
        raise AdviceError(f"--hand lists {twice} twice")
    try:
        trump = None if args.no_trump else Card.from_str(args.trump.strip())
    except NotationError as exc:
        raise AdviceError(f"--trump: {exc}") from None
    if trump is not None and trump in hand:
        raise AdviceError(f"--trump {trump} is in --hand: the turned card is no seat's")
    n, place = rules.player_count, args.position
    if trump is not None and len(hand) * n == len(DECK):
        raise AdviceError(
            f"{len(hand)} cards each for {n} players leave no card to turn for trump:"
            " give --no-trump instead of --trump"
        )
    if place is not None:  # said here in the command's terms, counting from 1
        if not 1 <= place <= n:
            raise AdviceError(f"--position is a place from 1 to {n} for {n} players, got {place}")
        if rules.bidding is BiddingMode.SEQUENTIAL and place != len(args.bids) + 1:
            raise AdviceError(
                f"--position {place} disagrees with the {counted(len(args.bids), 'bid')} before it"
                f" (place"
                f" {len(args.bids) + 1}): under sequential bidding every seat before bids first"
            )
    try:
        seat = None if place is None else place - 1
        return bidding_view(rules, hand, trump, list(args.bids), seat=seat)
    except ValueError as exc:
        if isinstance(exc, OhHellError):
            raise
        raise AdviceError(str(exc)) from None


def advice_json(view: PlayerView, advice: BidAdvice, seed: int) -> dict[str, Any]:
    """The advice as ``--json`` prints it (``docs/bots.md`` lists the keys)."""
    assert view.seat is not None
    return {
        "hand": format_cards(sort_cards(view.hand or ())),
        "trump_card": None if view.trump_card is None else str(view.trump_card),
        "bids_before": [bid for bid in view.bids if bid is not None],
        "position": view.seat + 1,
        "players": view.rules.player_count,
        "trick_probabilities": list(advice.trick_probabilities),
        "expected_scores": {str(bid): score for bid, score in advice.expected_scores.items()},
        "trick_probabilities_by_bid": {
            str(bid): list(chances) for bid, chances in advice.by_bid.items()
        },
        "best_bid": advice.best_bid,
        "samples": advice.samples,
        "effective_samples": advice.effective_samples,
        "rough": advice.rough,
        "seed": seed,
    }


def format_advice(view: PlayerView, advice: BidAdvice, seed: int) -> str:
    """The advice as a short text: the position, the trick chances and the bids, best first,
    and the seed that samples the same deals again."""
    assert view.seat is not None
    n = view.rules.player_count
    before = [str(bid) for bid in view.bids if bid is not None]
    trump = "no trump" if view.trump_card is None else f"trump card {view.trump_card}"
    role = " (the dealer)" if view.seat == n - 1 else " (leads first)" if view.seat == 0 else ""
    rules = ", ".join([f"{n} players", *view.rules.variants()])
    if view.rules.bidding is BiddingMode.SIMULTANEOUS:
        bidding = f"place {view.seat + 1} of {n} from the dealer's left{role}; bids sealed"
    else:
        bidding = (
            f"bidding {view.seat + 1} of {n}{role}; bids before: {', '.join(before) or 'none'}"
        )
    lines = [
        f"{format_cards(sort_cards(view.hand or ()))}; {trump}; {rules}",
        bidding,
        "",
        f"tricks  chance (playing for {advice.best_bid})",
    ]
    for tricks, chance in enumerate(advice.trick_probabilities):
        lines.append(f"{tricks:>6}  {100 * chance:5.1f} %")
    lines += ["", "bid  expected points"]
    ranked = sorted(
        advice.expected_scores.items(), key=lambda item: (item[0] != advice.best_bid, -item[1])
    )
    for bid, score in ranked:
        best = "  <- best" if bid == advice.best_bid else ""
        lines.append(f"{bid:>3}  {score:15.2f}{best}")
    illegal = sorted(set(range(view.hand_size + 1)) - set(advice.expected_scores))
    if illegal:
        lines.append(f"not allowed here: {', '.join(map(str, illegal))} (the hook)")
    if advice.rough:
        lines.append(rough_warning(advice))
    lines.append(f"({advice.samples} sampled deals, --seed {seed})")
    return "\n".join(lines)


def rough_warning(advice: BidAdvice) -> str:
    """What a rough advice (:attr:`BidAdvice.rough`) is worth, and how many deals would
    steady it: those drawn, scaled to the effective deals aimed at, in two figures."""
    effective = advice.effective_samples
    needed = advice.samples * advice.steady_target / effective if effective > 0 else MAX_SAMPLES
    step = 10 ** max(0, len(str(math.ceil(needed))) - 2)
    samples = min(MAX_SAMPLES, math.ceil(needed / step) * step)
    return (
        f"rough: a few deals explain the bids made so far much better than the rest, so the"
        f" {advice.samples} deals sampled are worth about {int(effective)} equally weighted"
        f" ones; the figures can turn with the seed (--samples {samples} would steady them)"
    )


SCHEDULE_FLAGS = (
    ("--schedule", "schedule"),
    ("--hand-sizes", "hand_sizes"),
    ("--repeat-turning-hand", "repeat_turning_hand"),
    ("--trump-in-last-hand", "trump_in_last_hand"),
)
"""The rule options of the schedule: they do not count for one hand's advice (a preset's or
a rules file's are let be; the flags, given on purpose, are refused rather than ignored)."""


def run(args: argparse.Namespace) -> int:
    schedule = [flag for flag, dest in SCHEDULE_FLAGS if getattr(args, dest) is not None]
    if given := [flag for flag in rule_flags_given(args) if flag.replace("no-", "") in schedule]:
        args.command_parser.error(
            f"{', '.join(given)}: the schedule does not count for advice on one hand: its"
            " size is the cards in --hand, and --trump or --no-trump says whether a trump is"
            " turned"
        )
    if args.samples > MAX_SAMPLES:
        raise AdviceError(f"--samples must be from 1 to {MAX_SAMPLES:,}, got {args.samples:,}")
    view = _position(args)
    seed = seed_or_random(args.seed)
    prepare_bots(["search"], "advise")  # the advice is the search's: say so if it compiles
    advice = advise_bid(view, random.Random(seed), samples=args.samples)
    if args.json:
        print(json.dumps(advice_json(view, advice, seed)))
    else:
        print(format_advice(view, advice, seed))
    return 0
