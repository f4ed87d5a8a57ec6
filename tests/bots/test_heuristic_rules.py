"""The heuristic bot's rules one at a time: hand-made positions where one rule settles the card
(found by a mutation audit of ``heuristic.py``: each position fails when its rule is changed),
and the bids that depend on the scoring variants.

Where the reason cites an exact analysis, it is the QA sweeps' method: 200 deals consistent with
what the seat knows, each card valued in each by max^n search (``fast.solve``, every seat
playing for its own points); the reason counts the deals where the sensible card scored more
than the other, and less (never, unless it says so). These positions are the heuristic's own
(``POSITIONS`` in ``positions.py`` is shared with the search bot).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.bots.positions import Position, build_position

from ohhell.bots import Budget, HeuristicBot
from ohhell.bots.heuristic import (
    SMALL_HAND_SHARE,
    calibration_group,
    card_win_probabilities,
    heuristic_bid,
    small_hand,
    trick_distribution,
)
from ohhell.engine import Bid, Card, PlayerView, score_hand, view_for

HEURISTIC_POSITIONS: tuple[Position, ...] = (
    build_position(
        "certain-winner-covers-the-bid-lead-the-other-card",
        hands=("5c Ah", "6c 3h", "2s Kc", "7h 9c"),
        trump_card="4h",
        bids=(1, 0, 0, 1),
        good="5c",
        why="one trick needed and the ace of trumps takes one whenever it is played: lead the"
        " club now, while the others still hold two cards and can follow or trump it; led"
        " last, it wins if nobody has a club (exact analysis: never worse than the ace, better"
        " in 63 deals of 200)",
    ),
    build_position(
        "certain-winner-covers-the-bid-lead-the-weakest-spare-card",
        hands=("5c Kd Ah", "6c Qd 3h", "7c Jd 2s", "8c Td 9s"),
        trump_card="4h",
        bids=(1, 0, 0, 1),
        good="5c",
        why="one trick needed of three and the ace of trumps takes one whenever it is played:"
        " lead the card least likely to win, the five of clubs, not the king of diamonds,"
        " which may take a trick too many (exact analysis: better in 38 deals of 200, worse in"
        " 7; 3.4 points against 1.7 on average)",
    ),
    build_position(
        "zero-bid-lead-the-lower-of-a-suit",
        hands=("5s 9s", "4d Jc", "Kh 7c", "Jh 4h"),
        trump_card="Td",
        bids=(0, 1, 0, 0),
        good="5s",
        why="bid of zero on lead with two spades: lead the lower one, which more cards beat"
        " (exact analysis: better in 29 deals of 200, never worse)",
    ),
    build_position(
        "bid-made-on-lead-keep-the-ace-of-hearts-back",
        hands=(
            "6d 2h 9s Kd 6c Tc",
            "5h Jc 4c Td Jh Qd",
            "9c Js 7s 9d 3c 8d",
            "3h 7c 7h 4h Ts 5s",
            "Ac 3d 2d 8c Ah 5c",
        ),
        trump_card="6s",
        bids=(1, 0, 1, 1, 1),
        plays="9s Qd 7s Ts 8c 5s 5c 2h Jh Js 3c 7c Ac 6c Jc",
        good="2d 3d",
        why="bid made, on lead with 2d 3d Ah: lead a low diamond, not the ace of hearts, the best"
        " heart left, which takes the trick unless someone ruffs it (exact analysis, the 2d"
        " against the ace: better in 61 deals of 200, never worse)",
    ),
    build_position(
        "one-trick-needed-lead-the-low-trump",
        hands=("9c 3c", "4h 8h", "5d Kd"),
        trump_card="5c",
        bids=(1, 0, 0),
        good="3c",
        why="one trick of two needed, both cards trumps: lead the three, which only the two of"
        " trumps ducks under, so a seat holding any other trump takes it; the nine kept is the"
        " likelier winner of the last trick (exact analysis: better in 41 deals of 200, never"
        " worse)",
    ),
    build_position(
        "one-trick-needed-lead-the-side-card-keep-the-trump",
        hands=("Kh 5d Ks 7d", "8h 3d Ah Ac", "5s 6c 2h 9h", "Th 2s Ad 6d"),
        trump_card="6h",
        bids=(1, 2, 1, 1),
        plays="Ks Ac 5s 2s Kh Ah 2h Th",
        good="3d",
        why="one trick of the last two needed, holding the 8h (trump) and the 3d: lead the"
        " diamond, which the others can beat, and keep the trump for the last trick (exact"
        " analysis: better in 19 deals of 200, never worse)",
    ),
    build_position(
        "every-trick-needed-lead-the-trump",
        hands=("Qd Js As", "Kc Qc 4s", "3s 7h 5c"),
        trump_card="8s",
        bids=(3, 1, 0),
        plays="As 4s 3s",
        good="Js",
        why="both remaining tricks needed and no card is sure to win: lead the strongest, the"
        " trump, not the queen of diamonds (exact analysis: better in 30 deals of 200, never"
        " worse)",
    ),
    build_position(
        "every-trick-needed-lead-the-low-trump-before-the-side-queen",
        hands=("5s Qd", "8s 6s", "3h 7d", "5d Jh"),
        trump_card="Qs",
        bids=(2, 2, 0, 0),
        good="5s",
        why="both tricks needed, on lead with the five of trumps and the queen of diamonds, and"
        " neither is certain: lead the trump, which draws any lower trump that could otherwise"
        " ruff the queen (exact analysis: better in 14 deals of 200, never worse)",
    ),
    build_position(
        "every-trick-needed-ruff-with-the-lower-trump",
        hands=("6s Qc 3c 6c", "2d Tc Th Qh", "7s Jc 8c 5h"),
        trump_card="2c",
        bids=(2, 1, 2),
        plays="6s Qh 7s 8c 3c Tc 2d 5h",
        good="6c",
        why="both remaining tricks needed, last to play and void in diamonds: either trump takes"
        " this trick, so ruff with the six and keep the queen for the last (exact analysis:"
        " better in 36 deals of 200, never worse)",
    ),
    build_position(
        "every-trick-needed-ruff-with-the-ten-keep-the-king",
        hands=("9s 8c", "Ah 6s", "Kd Td", "Ks Qs"),
        trump_card="4d",
        bids=(0, 0, 2, 0),
        plays="8c Ah",
        good="Td",
        why="both tricks needed and void in clubs: the ten of trumps wins this trick unless seat"
        " 3 is void too and holds a higher trump, nearly as surely as the king; ruff with the"
        " ten and keep the king for the last trick (exact analysis: better in 20 deals of 200,"
        " never worse)",
    ),
    build_position(
        "every-trick-needed-draw-trumps-before-the-side-ace",
        hands=("Ah Qd Jd", "Ac 9c 2s", "Ks Kh Kd", "2c 5d 7d"),
        trump_card="Td",
        bids=(3, 0, 1, 1),
        good="Qd",
        why="every trick needed, the ace of hearts the master of its suit and the queen and"
        " jack of trumps not yet certain (the king and ace are out): lead the queen of trumps"
        " first, drawing trumps that could ruff the ace (exact analysis: better in 38 deals of"
        " 200, never worse)",
    ),
    build_position(
        "every-trick-needed-ruff-low-and-keep-the-king",
        hands=("6h 8d", "7s Ks", "Kh 4c"),
        trump_card="3s",
        bids=(0, 2, 0),
        plays="6h",
        good="7s",
        why="both remaining tricks needed and void in hearts: the king of trumps is not a"
        " certain winner (the ace is unseen), but kept, it takes the last trick more often than"
        " the seven would, and both tricks are needed: ruff with the seven, which only seat 2,"
        " the last to play, can over-ruff (exact analysis: better in 34 deals of 200, never"
        " worse)",
    ),
    build_position(
        "two-last-cards-zero-bid-throw-the-trump-after-the-ruffs",
        hands=("8d Jc Qh", "6d 9d 9c", "2d 9h Th", "9s 7d 3s"),
        trump_card="5d",
        bids=(1, 1, 0, 1),
        plays="Qh 9c Th 7d 3s 8d 6d",
        good="2d",
        why="bid of zero, the last to play, and both cards lose to the eight of trumps: throw the"
        " two of trumps, which would ruff any lead but a diamond in the last trick; the nine of"
        " hearts kept wins only if seat 0, which takes this trick, leads a lower heart and nobody"
        " follows higher (exact analysis: better in 38 deals of 200, never worse)",
    ),
    build_position(
        "every-trick-needed-the-seat-after-has-shown-no-trump",
        hands=(
            "Qs 9c Kh 9d 7s 2s",
            "5d Ac 9h 7h 4h Jd",
            "As 6d Th 8c 4c 5s",
            "8h 7d Kd 8s 4s Qd",
        ),
        trump_card="6s",
        bids=(3, 1, 1, 2),
        plays="Kh 9h Th 8h 9c Ac 8c 8s Kd 9d 5d 6d 4s 2s 4h As 5s Qd",
        good="7s",
        why="both remaining tricks needed; seat 1, the last to play, threw a heart on a trump"
        " lead, so it holds no trump: the seven takes this trick as surely as the queen, which"
        " is kept for the last (exact analysis: better in 23 deals of 200, never worse)",
    ),
    build_position(
        "certain-winner-kept-when-the-trick-is-lost-anyway",
        hands=(
            "Kc Qc Jc 8h Kh Ts",
            "2d 9c 5s 5d 2c Tc",
            "4d Ah 4h Qs 7h Jd",
            "8c 5h Ks 6d Qh 3h",
            "3s Qd 3d Js 6h 2s",
        ),
        trump_card="Th",
        bids=(2, 0, 2, 2, 0),
        plays="Ts 5s Qs Ks Js 8c Qd Kc Tc Jd Jc 9c 4d 6d 3s 8h 5d 4h 5h 6h Kh 2d Ah",
        good="3h",
        why="one trick needed of the last two, and the ace of trumps takes this one whatever"
        " is played: the king and ace gone, the queen is the top trump, a certain trick, so"
        " follow with the three (exact analysis: better in 66 deals of 200, never worse)",
    ),
    build_position(
        "la-podrida-a-seat-that-did-not-trump-holds-none",
        hands=(
            "Ks 4h Qs 3c 7d 4d",
            "As 7s Ts 8h 9d Kc",
            "8d 6s 7h 5d Qd 2s",
            "9h 4c 2h 5h 6d 6h",
        ),
        trump_card="Ad",
        bids=(2, 1, 2, 0),
        plays="Qs Ts 6s 6d 9h 4h 8h 7h 6h 4d 9d 5d 7s 2s 5h Ks 3c Kc",
        good="8d",
        why="both remaining tricks needed; seat 3, the last to play, threw the 5h on a spade"
        " lead, and a seat void in the suit led must trump in La Podrida, so it holds no trump:"
        " the 8d takes this trick as surely as the queen, which is kept for the last (exact"
        " analysis: better in 35 deals of 200, never worse)",
        must_trump=True,
    ),
    build_position(
        "bid-made-every-card-wins-last-to-play-the-bid-is-lost-spoil",
        hands=("2h 3c 4d", "3h 4c 5d", "4h 5c 6d", "9h Kh 5s"),
        trump_card="2s",
        bids=(1, 1, 1, 0),
        plays="2h 3h 4h",
        good="9h",
        why="bid of zero, last to play and either heart takes the trick: the bid is lost"
        " whatever it plays, so it spoils: seat 2, winning now, still needs its trick; beat it"
        " with the nine and keep the king to take a trick the others need",
    ),
    build_position(
        "bid-made-every-card-wins-now-play-the-lowest",
        hands=("2h 3c 4d", "3h 4c 5d", "9h Kh 5s", "4h 5c 6d"),
        trump_card="2s",
        bids=(1, 1, 0, 1),
        plays="2h 3h",
        good="9h",
        why="bid of zero and either heart beats the cards played so far, with seat 3 still to"
        " play: play the nine, which seat 3 can still overtake, not the king",
    ),
    build_position(
        "two-last-cards-keep-the-one-the-last-leader-can-let-win",
        hands=(
            "3c Ac Jh Kd 5h Jd",
            "5c Kc 8s 4c Qd 9c",
            "Tc 8d Ah 9d 6s 7d",
            "Ad 7h 8h Th 2c 7s",
            "2s 9s 9h Js Qs Ks",
        ),
        trump_card="Ts",
        bids=(1, 1, 1, 1, 4),
        plays="Jd Qd 9d Ad 9h 7s 2s 3c 8s 6s 4c Tc 2c 9s Ac Ks 5h Kc 7d Th Qs",
        good="Kd",
        why="one trick needed of the last two; seat 4 leads the queen of trumps, and although the"
        " ace of trumps is unseen, every seat after seat 0 has shown it holds no trump, so seat 4"
        " takes this trick and leads the last, and it has shown no diamond: the king of"
        " diamonds kept can never win, the jack of hearts can (the heuristic kept the king, a"
        " certain miss: exact analysis, the jack makes the bid in 59 deals of 200)",
    ),
    build_position(
        "two-last-cards-zero-bid-keep-the-side-card-not-the-low-trump",
        hands=("8s 9s", "8h 7d", "8c Tc", "Jd 5s", "2c 3d"),
        trump_card="Ac",
        bids=(0, 0, 1, 0, 0),
        plays="8s 8h Tc 5s",
        good="2c",
        why="bid of zero, neither card beats the ten of trumps, and seat 2 leads the last trick:"
        " throw the two of trumps, which, though the lowest trump left, takes the last trick"
        " whenever seat 2 leads another suit and nobody over-ruffs; the three of diamonds kept"
        " wins only if a lower diamond is led (exact analysis: better in 61 deals of 200, never"
        " worse)",
    ),
    build_position(
        "two-last-cards-both-losing-zero-bid-throw-the-trump",
        hands=("5d 7c", "Ts 3c", "Jh 2s", "9d 4c"),
        trump_card="Qs",
        bids=(1, 1, 0, 0),
        plays="5d Ts",
        good="2s",
        why="bid of zero and neither card beats the ten of trumps, so this trick goes the same"
        " way whichever is thrown: the two of trumps kept would take the last trick whenever"
        " the jack of hearts kept would (a heart led and nobody higher, or another suit led and"
        " nobody over-ruffing), so throw the trump (exact analysis: better in 67 deals of 200,"
        " never worse)",
    ),
    build_position(
        "two-last-cards-both-losing-one-needed-keep-the-trump",
        hands=("5d 7c", "Ts 3c", "Jh 2s", "9d 4c"),
        trump_card="Qs",
        bids=(1, 1, 1, 0),
        plays="5d Ts",
        good="Jh",
        why="one trick needed of the last two and neither card beats the ten of trumps: keep"
        " the two of trumps, which takes the last trick whenever the jack of hearts would, and"
        " more often (exact analysis: better in 67 deals of 200, never worse)",
    ),
    build_position(
        "two-last-cards-zero-bid-keep-the-card-the-trump-winner-cannot-lead-to",
        hands=("2h 6d 3d", "6h 8s Kh", "Kd Ad Qc"),
        trump_card="Ah",
        bids=(2, 3, 0),
        plays="3d 6h Ad Kh",
        good="Qc",
        why="bid of zero and both cards lose to the king of trumps, which nothing left can beat"
        " (the ace is turned; a trump led cannot be ruffed): seat 1 takes this trick and leads"
        " the last, and it ruffed the first diamond, so the king of diamonds kept can never"
        " win; throw the queen of clubs, which wins if seat 1 leads a lower club (exact"
        " analysis: better in 46 deals of 200, never worse)",
    ),
    build_position(
        "two-last-cards-both-win-take-it-with-the-ace-and-lead-the-eight",
        hands=("Qh 7h", "3c 3h", "Ah 8h"),
        trump_card="Js",
        bids=(0, 1, 1),
        plays="7h 3h",
        good="Ah",
        why="one trick needed of the last two, last to play, and either heart takes this trick"
        " and the lead of the last: take it with the ace and lead the eight, which a higher"
        " heart or a trump beats, not the ace, which only a trump beats (exact analysis: better"
        " in 26 deals of 200, never worse)",
    ),
    build_position(
        "two-last-cards-zero-bid-keep-the-suit-both-possible-leaders-lack",
        hands=("Kc 2c 2h", "9d Qh Kh", "6d 7s 3d", "5s 4c Jc", "2s 9h 4d"),
        trump_card="Ac",
        bids=(1, 0, 0, 1, 0),
        plays="2h Qh 7s Jc 9h 4c 4d 2c",
        good="9d",
        why="bid of zero and neither card can follow the trump led: seat 3 takes this trick"
        " unless seat 2, still to play, plays a higher trump, and both showed no heart in the"
        " first trick, so the king of hearts kept can never win; throw the nine of diamonds"
        " (exact analysis: better in 14 deals of 200, never worse)",
    ),
    build_position(
        "two-last-cards-zero-bid-the-seat-now-winning-may-lead-the-last",
        hands=("Qs Kh 2c", "2d 4h Ad", "Ks Ts 4c", "6c 6d Td"),
        trump_card="7h",
        bids=(1, 1, 0, 0),
        plays="Qs 2d Ts Td Kh 4h",
        good="Ks",
        why="bid of zero and neither card can follow the trump led: seat 0's king takes this"
        " trick unless seat 3, still to play, holds the ace; seat 3 has shown no spade, but"
        " seat 0, the likelier leader of the last trick, has not, so the king of spades kept"
        " could still win it: throw it and keep the four of clubs (exact analysis: better in 31"
        " deals of 200, worse in 2)",
    ),
    build_position(
        "two-last-cards-one-needed-ruff-now-the-ace-led-last-may-be-ruffed",
        hands=("Ts 6h 9h", "Ah 3d 2s", "6c As Ac", "2h Qd Qh"),
        trump_card="Jd",
        bids=(0, 1, 2, 1),
        plays="Ts 2s As Qh Ac 2h 9h",
        good="3d",
        why="one trick needed of the last two, last to play and void in clubs: ruff with the"
        " three of trumps, a certain trick, and lead the ace of hearts, the best heart left but"
        " not a certain trick while trumps are out (any seat without a heart may ruff it);"
        " throwing the ace instead, the three kept wins only if seat 2 leads another suit and"
        " nobody over-ruffs (exact analysis: better in 154 deals of 200, worse in 40; 8.8"
        " points against 2.5 on average)",
    ),
    build_position(
        "two-last-cards-one-needed-win-with-the-ace-keep-the-queen",
        hands=("4d Ad Qd 9s", "8h 7c 9h 2h", "Qs 3c 6h 9c", "As 2c Jd 8s", "Th 7d Kd 7s"),
        trump_card="Js",
        bids=(1, 0, 1, 2, 0),
        plays="9s 9h Qs 8s 7s 6h As Th 4d 8h Jd 7d",
        good="Ad",
        why="one trick needed of the last two and both diamonds beat the jack led (seat 2,"
        " still to play, may ruff either): win with the ace and lead the queen to the"
        " last trick, which the king or a ruff may beat, not the ace, which only a ruff beats"
        " (exact analysis: better in 17 deals of 200, never worse)",
        must_trump=True,
    ),
    build_position(
        "two-last-cards-zero-bid-the-seat-still-to-play-may-take-the-lead",
        hands=("9d 2s 3h Ts", "5d 8c Kc 4d", "Kd 7c Qh 6c"),
        trump_card="8s",
        bids=(2, 0, 1),
        plays="9d 5d Kd 7c 2s 8c 3h",
        good="Kc",
        why="bid of zero and no heart to follow the three led: seat 0 has shown no club, but"
        " seat 2, still to play, overtakes the three with any higher heart or a trump and then"
        " leads the last trick, perhaps a club, so the king of clubs kept could win it: throw"
        " the king and keep the four of diamonds (exact analysis: better in 26 deals of 200,"
        " worse in 2)",
    ),
    build_position(
        "two-last-cards-zero-bid-the-seat-still-to-play-may-ruff",
        hands=("9d 2s Ah Ts", "5d 8c Kc 4d", "Kd 7c Qh 6c"),
        trump_card="8s",
        bids=(2, 0, 1),
        plays="9d 5d Kd 7c 2s 8c Ah",
        good="Kc",
        why="bid of zero and no heart to follow the ace led, the best heart left: seat 0 has"
        " shown no club, but seat 2, still to play, may ruff the ace and then lead the last"
        " trick, perhaps a club, so the king of clubs kept could win it: throw the king and"
        " keep the four of diamonds (exact analysis: better in 17 deals of 200, worse in 2)",
    ),
    build_position(
        "two-last-cards-zero-bid-one-seat-still-to-play-may-ruff",
        hands=("2s Ts Ah 3d", "5d 8c Kc 4d", "Jd 9c Qh 6h", "Ks 7c 5h 2c"),
        trump_card="8s",
        bids=(2, 0, 1, 1),
        plays="2s 5d Jd Ks 7c Ts 8c 9c Ah",
        good="Kc",
        why="bid of zero and no heart to follow the ace led, the best heart left: seat 0 has"
        " shown no club and seat 2 no trump, but seat 3, the last to play, may ruff the ace and"
        " then lead the last trick, perhaps a club, so the king of clubs kept could win it:"
        " throw the king and keep the four of diamonds (exact analysis: better in 17 deals of"
        " 200, worse in 1)",
    ),
    build_position(
        "two-last-cards-zero-bid-one-seat-still-to-play-may-over-trump",
        hands=("2s Ts 3s 3d", "5d 8c Kc 4d", "Jd 9c Qh 6h", "Ks 7c 5h 2c"),
        trump_card="8s",
        bids=(2, 0, 1, 1),
        plays="2s 5d Jd Ks 7c Ts 8c 9c 3s",
        good="Kc",
        why="bid of zero and no trump to follow the three of trumps led: seat 0 has shown no"
        " club and seat 2 no trump, but seat 3, the last to play, may hold a higher trump and"
        " then lead the last trick, perhaps a club, so the king of clubs kept could win it:"
        " throw the king and keep the four of diamonds (exact analysis: better in 16 deals of"
        " 200, worse in 1)",
    ),
    build_position(
        "zero-bid-void-throw-the-trump-under-the-higher-trump",
        hands=("5h 8d 4d 2c", "Qh 6s Ks Ts", "7d 8c 5c Ah", "8h 8s 9h 7h", "Qc Td 5d 6h"),
        trump_card="4s",
        bids=(0, 2, 0, 0, 0),
        plays="2c Qh 5c 9h Qc 5d 4d Ks 7d",
        good="8s",
        why="bid of zero, void in diamonds, and every card loses to the king of trumps: throw"
        " the eight of trumps, the card likeliest to take a later trick, not the eight of"
        " hearts of the same rank (exact analysis: better in 83 deals of 200, never worse)",
    ),
    build_position(
        "lost-bid-overtake-a-seat-that-needs-the-trick",
        hands=("Ac 3h 2d 9d", "4c 4h 3d Td", "5c Jh 4d Jd", "6c Qh Ah 2h"),
        trump_card="2s",
        bids=(1, 0, 1, 4),
        plays="Ac 4c 5c 6c 3h 4h Jh",
        good="Qh",
        why="seat 3 bid all four and lost the first trick; seat 2 needs a trick and is winning"
        " this one with the jack: take it from it as cheaply as possible, with the queen (not"
        " the two, which lets it make its bid, nor the ace, kept to spoil later)",
    ),
    build_position(
        "lost-bid-lead-low-to-those-who-made-their-bids",
        hands=("Ac 9h 2d 3s", "4c Kh 3d 4s", "5c Qh 4d 5s", "6c Jh 5d 6s"),
        trump_card="2c",
        bids=(0, 0, 0, 0),
        plays="Ac 4c 5c 6c",
        good="2d",
        why="seat 0's zero is lost and every other seat has its zero so far: lead the lowest"
        " card, which one of them must take",
    ),
    build_position(
        "lost-bid-lead-low-its-own-lost-bid-not-counted",
        hands=("2c 3s 5c 4h", "Ac 8h 4d As", "Jd Ad 5h 7c", "2h 8c 6c 2d"),
        trump_card="9h",
        bids=(0, 1, 4, 0),
        plays="4h 8h 5h 2h 4d Jd 2d 5c",
        good="7c",
        why="seat 2 bid all four and lost the first trick; every other seat has just what it"
        " bid: lead the seven of clubs, which one of them may have to take, not the ace of"
        " diamonds (the three tricks seat 2 still wanted are its own, not the others'; exact"
        " analysis, each seat's points less the others' mean: better in 47 deals of 200, never"
        " worse)",
    ),
    build_position(
        "lost-bid-last-to-play-every-card-wins-take-it-with-the-king",
        hands=("6d 4c Td", "Kh 8c 7h", "3d Ks 9c", "Kd 2c 2s"),
        trump_card="9h",
        bids=(0, 3, 0, 0),
        plays="4c 8c 9c 2c Ks 2s Td",
        good="Kh",
        why="seat 1 bid all three and lost the first trick; last to play and void in spades,"
        " either trump takes the trick: take it with the king and lead the seven of trumps to"
        " the last trick, which seat 0 or 3, holding their zeros, may have to take; kept, the"
        " king would take the last trick itself (exact analysis, each seat's points less the"
        " others' mean: better in 46 deals of 200, never worse)",
    ),
    build_position(
        "lost-bid-lead-low-a-seat-that-cannot-make-its-bid-wants-nothing",
        hands=("6d 4c Td", "Kh 8c 7h", "3d Ks 9c", "Kd 2c 2s"),
        trump_card="9h",
        bids=(0, 3, 0, 0),
        plays="4c 8c 9c 2c",
        good="3d",
        why="seat 2 has lost its zero; seat 1 still wants three tricks of the two left, so its"
        " bid is lost too, and seats 0 and 3 hold their zeros: lead low, the three of diamonds,"
        " not the king of spades to steal tricks nobody can use (exact analysis, each seat's"
        " points less the others' mean: better in 30 deals of 200, worse in 1)",
    ),
    build_position(
        "lost-bid-lead-low-not-the-trump-nobody-can-beat",
        hands=("9d 9c 7d 5h", "8d Jc Jd 5c", "7h Tc Qh 9s"),
        trump_card="Ks",
        bids=(0, 0, 0),
        plays="5h Jc Qh 7h 9c Jd",
        good="Tc",
        why="seat 2's zero is lost and the others have their zeros; in La Podrida both showed"
        " no trump when they could not follow hearts, so the nine of trumps wins any trick: lead"
        " the ten of clubs, which one of them may have to take (exact analysis, each seat's"
        " points less the others' mean: better in 72 deals of 200, never worse)",
        must_trump=True,
    ),
    build_position(
        "lost-bid-lead-high-against-those-who-need-tricks",
        hands=("Ac Ah 2d 3s", "4c Kh 3d 4s", "5c Qh 4d 5s", "6c Jh 5d 6s"),
        trump_card="2c",
        bids=(0, 1, 1, 1),
        plays="Ac 4c 5c 6c",
        good="Ah",
        why="seat 0's zero is lost and every other seat still needs its trick: lead the ace and"
        " take the trick from them",
    ),
    build_position(
        "lost-bid-lead-high-when-the-tricks-wanted-match-the-bids-made",
        hands=("2c As Ah 2d 3h", "4c 4s Kh 3d 9d", "5c 5s Qh 4d 9s", "Kc 6s Jh 5d 9c"),
        trump_card="2h",
        bids=(0, 1, 0, 0),
        plays="2c 4c 5c Kc 6s As 4s 5s",
        good="Ah",
        why="seat 0's zero is lost; seat 1 still needs its trick, seat 2 has its zero and seat 3"
        " has already missed: the one trick wanted is as many as the seats with just their bid,"
        " and the spoiler then leads high, taking the trick seat 1 wants (the rule and its"
        " measurement are in ``_play_spoiler``)",
    ),
    build_position(
        "lost-bid-missed-bids-score-tricks-throw-the-low-card",
        hands=("Ac Ah 4d 7c", "4c 3h 5d 8d", "5c 4h 6d 9d", "6c Kh 2h 3s"),
        trump_card="2s",
        bids=(1, 1, 1, 4),
        plays="Ac 4c 5c 6c Ah 3h 4h",
        good="2h",
        why="seat 3 bid all four and lost the first trick, and a missed bid scores its tricks;"
        " neither heart beats the ace: throw the two and keep the king, which may take a later"
        " trick",
        missed_bid_scores_tricks=True,
    ),
    build_position(
        "lost-bid-missed-bids-score-tricks-ruff-with-the-lower-trump",
        hands=("8c Ts 2c", "Qc 9s 7c", "6c Kh 2s", "6s Kc 2h", "4d 7s Td"),
        trump_card="9d",
        bids=(0, 2, 1, 1, 3),
        plays="Ts 9s 2s 6s 7s 8c 7c 6c Kc",
        good="4d",
        why="seat 4 bid all three and lost the first trick, and a missed bid scores its tricks;"
        " last to play and void in clubs, either trump takes this trick: ruff with the four and"
        " keep the ten for the last (exact analysis: better in 40 deals of 200, never worse)",
        missed_bid_scores_tricks=True,
    ),
    build_position(
        "lost-bid-missed-bids-score-tricks-keep-the-trump-for-the-last-trick",
        hands=("Js Ts 2c", "7s 7h 2d", "8d 5c Jh"),
        trump_card="2s",
        bids=(0, 2, 3),
        plays="2c 2d 5c 8d Ts",
        good="7h",
        why="seat 1 needs both last tricks and neither card beats the ten of trumps: the bid"
        " is lost, and a missed bid scores its tricks, so throw the seven of hearts and keep"
        " the seven of trumps, the likelier winner of the last trick (exact analysis: better in"
        " 126 deals of 200, never worse)",
        missed_bid_scores_tricks=True,
    ),
    build_position(
        "lost-bid-missed-bids-score-tricks-take-every-trick",
        hands=("Kc 3h 2d", "4c 4h 3d", "5c 5h 4d", "Ac Ah 2h"),
        trump_card="2s",
        bids=(1, 1, 0, 0),
        plays="Kc 4c 5c Ac",
        good="Ah",
        why="seat 3's zero is lost and a missed bid scores its tricks: take every trick it can,"
        " leading the ace (exact analysis: better in 73 deals of 200, never worse)",
        missed_bid_scores_tricks=True,
    ),
)


@pytest.mark.parametrize("position", HEURISTIC_POSITIONS, ids=[p.name for p in HEURISTIC_POSITIONS])
def test_heuristic_follows_its_rules(position: Position) -> None:
    view = view_for(position.state, position.seat)
    assert position.good_actions < set(view.legal_actions), position.name  # a real choice
    action = HeuristicBot().choose(view, random.Random(0), Budget())
    assert action in position.good_actions, f"{position.name}: chose {action}; {position.why}"


_Deal = tuple[tuple[str, ...], str, tuple[int, ...]]
"""The hands, the trump card turned and the bids made so far."""


def _bid_view(deal: _Deal, options: dict[str, Any]) -> PlayerView:
    """The view of the seat to bid after the bids of ``deal``, under the rule ``options``."""
    hands, trump_card, bids = deal
    position = build_position(
        "bid", hands=hands, trump_card=trump_card, bids=bids, good="0", why="", **options
    )
    return view_for(position.state, position.seat)


def _best_expected_bid(view: PlayerView) -> int:
    """The legal bid of highest expected points under the heuristic's own trick distribution."""
    dist = trick_distribution(view)
    bids = [a.bid for a in view.legal_actions if isinstance(a, Bid)]

    def points(bid: int) -> float:
        return sum(
            p * score_hand(view.rules, bid=bid, won=k, hand_size=view.hand_size)
            for k, p in enumerate(dist)
        )

    return max(bids, key=points)


# (P(0), P(1)) = (0.470, 0.457): the standard scoring makes one worth 11 and zero 10, so it bids
# one; when a missed bid scores its tricks, the tricks are scored either way and the likelier
# count is the better bid
_THREE_PLAYERS: _Deal = (("2s 2d Kd 3d", "Kc Jh Qh 9d", "Ks 6d 3h 7d"), "2c", (0, 2))
# (P(0), P(1)) = (0.425, 0.471) with 8 cards: a zero made scores 5 + 8 = 13 with the zero-bid bonus
_EIGHT_CARDS: _Deal = (
    (
        "5s 9s Td Qs Ks 8h 2h Ad",
        "4d Jc Qh Js Th 3h 5c 2d",
        "Kh 7c 3s 4c 2c 6s Tc 4s",
        "Jh 4h 3d Ac Ah Qd 8c Kd",
    ),
    "8d",
    (3, 1),
)


@pytest.mark.parametrize(
    ("deal", "options", "bid"),
    [
        (_THREE_PLAYERS, {}, 1),
        (_THREE_PLAYERS, {"missed_bid_scores_tricks": True}, 0),
        (_EIGHT_CARDS, {}, 1),
        (_EIGHT_CARDS, {"zero_bid_bonus": True}, 0),
    ],
    ids=["standard", "missed-bids-score-tricks", "eight-cards", "zero-bid-bonus"],
)
def test_bid_follows_the_scoring_in_force(deal: _Deal, options: dict[str, Any], bid: int) -> None:
    """The same hand and bids: the scoring options change the bid of best expected points."""
    view = _bid_view(deal, options)
    assert heuristic_bid(view) == _best_expected_bid(view) == bid


@pytest.mark.parametrize("missed_bid_scores_tricks", [False, True])
def test_hooked_dealer_certain_to_miss_bids_nearest_its_tricks(
    *, missed_bid_scores_tricks: bool
) -> None:
    """The dealer's As Ks take both tricks for certain and the hook forbids two (the others bid
    zero): zero and one score alike, and the tie goes to the bid nearest the expected tricks."""
    view = _bid_view(
        (("Kh 3c", "Qh 4c", "Jh 6c", "As Ks"), "2s", (0, 0, 0)),
        {"hook": True, "missed_bid_scores_tricks": missed_bid_scores_tricks},
    )
    assert trick_distribution(view)[2] == 1.0
    assert heuristic_bid(view) == 1


def test_small_hand_calibration_group_is_strictly_under_the_share() -> None:
    """Without trump, groups 3 to 6 (a small hand with a large stock) are for an opponents'
    share of the unseen cards *under* ``SMALL_HAND_SHARE``; at the share itself, group 2."""
    seat = {"trump": False, "is_trump": False, "on_lead": False, "playing": True}
    assert calibration_group(share=SMALL_HAND_SHARE, unseen=20, **seat) == 2
    assert calibration_group(share=0.49, unseen=20, **seat) == 5
    assert calibration_group(share=0.0, unseen=0, **seat) == 2
    assert small_hand(share=0.49, unseen=20)
    assert not small_hand(share=SMALL_HAND_SHARE, unseen=20)
    assert not small_hand(share=0.0, unseen=0)


def test_small_hand_without_trump_rates_a_king_led_above_one_not_led() -> None:
    """Three players, three cards, no trump: a king led wins unless its ace is among the
    opponents' four of the 49 unseen cards (45/49, 0.92). Playing, the seat on lead rates its
    kings well above the seat that follows (group 6 against group 5)."""
    kings = ("Ks Kd 2c", "2h 3h 4h", "5h 6h 7h")
    led = view_for(
        build_position(
            "on lead", hands=kings, trump_card=None, bids=(0, 0, 0), good="", why=""
        ).state,
        0,
    )
    follows = view_for(
        build_position(
            "following",
            hands=(kings[1], kings[0], kings[2]),
            trump_card=None,
            bids=(0, 0, 0),
            plays="2h",
            good="",
            why="",
        ).state,
        1,
    )
    king = Card.from_str("Ks")
    on_lead = card_win_probabilities(led)[king]
    assert 0.7 < on_lead < 0.92
    assert card_win_probabilities(follows)[king] < on_lead - 0.2
