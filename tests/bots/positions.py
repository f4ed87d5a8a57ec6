"""Hand-made positions where the sensible action is clear, for checking any bot.

Each :class:`Position` is a game state reached by a hand-picked deal and a sequence of bids and
plays, the seat to act, the set of actions a sensible player may take there, and why. The four
blunders of issue 3 are among them. Any bot can be checked against :data:`POSITIONS`::

    from tests.bots.positions import POSITIONS
    for p in POSITIONS:
        action = bot.choose(view_for(p.state, p.seat), random.Random(0), Budget())
        assert action in p.good_actions, (p.name, action, p.why)

Positions use four seats unless they say otherwise (as many as the hands given), the last
seat deals (so seat 0 bids first and leads), and one hand of the given size
(``schedule=custom``), with a trump turned unless the trump card is ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ohhell.engine import (
    Action,
    Bid,
    Card,
    Deal,
    GameState,
    Play,
    Rules,
    Schedule,
    apply,
    new_game,
    parse_cards,
)

__all__ = ["POSITIONS", "Position", "build_position"]


@dataclass(frozen=True, slots=True)
class Position:
    """A state, the seat to act, the sensible actions and the reason they are sensible."""

    name: str
    state: GameState
    seat: int
    good_actions: frozenset[Action]
    why: str


def build_position(
    name: str,
    *,
    hands: tuple[str, ...],
    trump_card: str | None,
    bids: tuple[int, ...],
    plays: str = "",
    good: str,
    why: str,
    **options: Any,
) -> Position:
    """Deal ``hands`` (seat 0 on; one per player, the last seat dealing), apply ``bids``
    (from seat 0) and ``plays`` (cards in play order, each by the seat to play), and name the
    ``good`` actions for the seat then to act: cards (``"As Ks"``) in the play phase, bids
    (``"2"`` or ``"1 2"``) in the bidding phase."""
    dealt = tuple(parse_cards(hand) for hand in hands)
    size = len(dealt[0])
    rules = Rules(
        player_count=len(dealt),
        schedule=Schedule.CUSTOM,
        custom_hand_sizes=(size,),
        trump_in_last_hand=trump_card is not None,
        **options,
    )
    state = new_game(rules, first_dealer=len(dealt) - 1)
    trump = Card.from_str(trump_card) if trump_card is not None else None
    state, _ = apply(state, Deal(dealt, trump))
    for bid in bids:
        state, _ = apply(state, Bid(min(state.to_act), bid))
    for card in parse_cards(plays):
        state, _ = apply(state, Play(min(state.to_act), card))
    (seat,) = state.to_act
    actions: frozenset[Action]
    if state.bids[seat] is None:
        actions = frozenset(Bid(seat, int(b)) for b in good.split())
    else:
        actions = frozenset(Play(seat, c) for c in parse_cards(good))
    return Position(name, state, seat, actions, why)


_LAST_TRICK_LEAD_SHOWN_VOID: dict[str, Any] = {
    "hands": ("2h 4s 7s 3c", "As Ks 2s 9c", "3h 4d Jc Jh", "Kh 3s 6s 2c"),
    "trump_card": None,
    "plays": "2h 2s 3h Kh 3s 4s As 4d Ks",
}
"""Seat 1 shows it has no heart in the first trick, takes the third with the king of spades and
will lead the last; seat 2, with Jc Jh and no spade, discards one."""

POSITIONS: tuple[Position, ...] = (
    build_position(
        "all-needed-lead-top-trump",
        hands=("As Ks 4s", "Qs 5h 6h", "Js 7d 8d", "Ts 9c 2c"),
        trump_card="2s",
        bids=(3, 0, 0, 0),
        good="As Ks",
        why="every trick is needed: lead the top trumps (a low trump loses to any higher one)",
    ),
    build_position(
        "ruff-low-when-low-trump-wins",
        hands=("Kh 2c 3c", "Qh 4c 5c", "Jh 6c 7c", "As 2s 5d"),
        trump_card="3s",
        bids=(1, 0, 0, 2),
        plays="Kh Qh Jh",
        good="2s 5d",
        why="last to play and void, two tricks needed: never trump with the ace (the 2 of trumps"
        " wins as surely); ruffing low, or throwing the 5d and ruffing low later, both keep the"
        " ace for a later trick (exact analysis over 3,000 bid-weighted worlds: As 4.7, 2s 10.5,"
        " 5d 11.2 points; on this deal only the discard makes exactly two, since the 5d would"
        " win a trick nobody else can follow)",
    ),
    build_position(
        "ruff-low-keep-top-trump-for-later",
        hands=("Kh Ah 3c", "Qh 4c 5c", "Jh 6c 7c", "As 5s 4d"),
        trump_card="3s",
        bids=(1, 0, 0, 2),
        plays="Kh Qh Jh",
        good="5s 4d",
        why="two tricks needed: never spend the ace here; win this one with the low trump, or"
        " throw the 4d and ruff low later (exact analysis over 3,000 bid-weighted worlds: As 5.5,"
        " 5s 10.8, 4d 11.5 points; on this deal only the discard makes exactly two)",
    ),
    build_position(
        "second-to-last-trick-duck",
        hands=("Kh 3c", "Qh 4c", "Jh 6c", "As 4d"),
        trump_card="3s",
        bids=(1, 0, 0, 1),
        plays="Kh Qh Jh",
        good="4d",
        why="only one trick is needed and the trump ace takes the last one: do not trump now",
    ),
    build_position(
        "second-to-last-trick-duck-six-players",
        hands=("Ks 3c", "Qs 4c", "Js 5c", "Ts 6c", "9s 7c", "Ac 4d"),
        trump_card="2c",
        bids=(1, 0, 0, 0, 0, 1),
        plays="Ks Qs Js Ts 9s",
        good="4d",
        why="as above at a larger table, where trumping now to make a zero bidder take the"
        " last trick is tempting: it risks the seat's own sure bid",
    ),
    build_position(
        "second-to-last-trick-duck-seven-players",
        hands=("Kd 3c", "Qd 4c", "Jd 5c", "Td 6c", "9d 7c", "8d 8c", "Ah 5s"),
        trump_card="3h",
        bids=(1, 0, 0, 0, 0, 0, 1),
        plays="Kd Qd Jd Td 9d 8d",
        good="5s",
        why="as above, with five zero bids at the table",
    ),
    build_position(
        "hooked-dealer-with-trump-ace",
        hands=("Kh 3c", "Qh 4c", "Jh 6c", "As 3h"),
        trump_card="3s",
        bids=(0, 1, 0),
        good="2",
        why="the hook forbids 1; the trump ace always wins a trick, so zero is a certain miss",
        hook=True,
    ),
    build_position(
        "lone-ace-on-lead-without-trump-bids-one",
        hands=("As", "Kh", "Qd", "Jc"),
        trump_card=None,
        bids=(),
        good="1",
        why="one card each, no trump (the last hand of the descending and up-and-down"
        " schedules) and the seat leads: its ace takes the trick whatever the others hold",
    ),
    build_position(
        "bid-made-duck-with-highest-loser",
        hands=("Kh 2c 3c", "5h 4c 5c", "6h 6c 7c", "Ah Qh 2h"),
        trump_card="3s",
        bids=(1, 0, 1, 0),
        plays="Kh 5h 6h",
        good="Qh",
        why="bid made: lose with the highest card that still loses (the queen under the king)",
    ),
    build_position(
        "bid-made-discard-danger",
        hands=("Kh 2c 3c", "5h 4c 5c", "6h 6c 7c", "Kd 2d 9c"),
        trump_card="3s",
        bids=(1, 0, 1, 0),
        plays="Kh 5h 6h",
        good="Kd 9c",
        why="bid of zero and void in the suit led: throw away a dangerous card (the king, or the"
        " nine of clubs, which is the highest club here and would win the clubs seat 0 must lead"
        " next), never the two",
    ),
    build_position(
        "need-trick-win-cheaply-last",
        hands=("Th 2c 3c", "2h 4c 5c", "5h 6c 7c", "Ah Jh 3d"),
        trump_card="3s",
        bids=(1, 0, 0, 2),
        plays="Th 2h 5h",
        good="Jh",
        why="last to play and two tricks needed: the jack wins this trick, the ace a later one",
    ),
    build_position(
        "zero-bid-lead-lowest",
        # (With the ace of clubs in this hand the zero was lost whatever was led, so the lead
        # hardly mattered: the search valued 2h 0.7 % above 7d, within sampling noise.)
        hands=("9d 7d 2h", "5h 4c 5c", "6h 6c 7c", "Kd 2d 9c"),
        trump_card="3s",
        bids=(0, 1, 1, 1),
        good="2h",
        why="bid of zero on lead: lead the card least likely to win (not a diamond)",
    ),
    build_position(
        "no-trump-all-needed-lead-ace",
        hands=("Ah Qh", "Kh 4c", "Jh 6c", "2d 3d"),
        trump_card=None,
        bids=(2, 0, 0, 0),
        good="Ah",
        why="no trump and both tricks needed: cash the ace first (the queen may still fall)",
    ),
    build_position(
        "lost-bid-let-opponent-overshoot",
        hands=("2c 6d 9h Th", "3c Kd 8h 5s", "4c 7d 2h 6s", "Ac 5d Ah 3h"),
        trump_card="3s",
        bids=(2, 1, 0, 0),
        plays="2c 3c 4c Ac 5d 6d Kd 7d 8h 2h",
        good="3h",
        why="seat 3's zero is lost; seat 1 has made its bid of one and is winning: let it take"
        " a trick too many rather than rescue it with the ace",
    ),
    build_position(
        "ruff-low-keep-the-top-trump-for-a-later-trick",
        hands=("Ah 2c 3c", "Qh 4c 5c", "Jh 6c 7c", "4s 6s Ks"),
        trump_card="As",
        bids=(1, 0, 0, 2),
        plays="Ah Qh Jh",
        good="4s 6s",
        why="two tricks of three needed, last to play and void: ruff low, which wins as surely,"
        " and keep the king, the top trump left (the ace is turned), for the second; ruffing"
        " with the king leaves two low trumps of which exactly one must win (a QA sweep's exact"
        " analysis: the low ruff never does worse)",
    ),
    build_position(
        "last-card-kept-where-its-suit-can-be-led",
        **_LAST_TRICK_LEAD_SHOWN_VOID,
        bids=(0, 3, 1, 1),
        good="Jh",
        why="one trick needed, the king of spades takes this one and seat 1 leads the last, and"
        " it showed no heart in the first trick: the jack of hearts kept can never win (found by"
        " a QA sweep's exact analysis: the heuristic kept it, a certain miss)",
    ),
    build_position(
        "last-card-kept-that-cannot-win",
        **_LAST_TRICK_LEAD_SHOWN_VOID,
        bids=(0, 3, 0, 1),
        good="Jc",
        why="as above with a bid of zero: keep the jack of hearts, which seat 1, leading the last"
        " trick with no heart, can never let win",
    ),
    build_position(
        "last-card-kept-where-no-seat-that-can-lead-it-holds-its-suit",
        hands=("5c Kc 3s 9s Qs Ks", "Jc 2d 8d 5h 4s 8s", "Ac 2h 4h Kh 2s As", "4c 6c 6d Qd 7h Th"),
        trump_card="Tc",
        bids=(2, 1, 2, 1),
        plays="Kc Jc Ac 4c As 6c 3s 4s 6d 5c 2d 2h 9s 8s 2s Qd Qs",
        good="8d",
        why="La Podrida, one trick needed with 8d 5h and no way to take this one: seat 3, shown"
        " to hold no spade and so (must trump) no club either, cannot take it, so seat 0 or"
        " seat 2 leads the last trick, and both have shown no diamond: a diamond kept can never"
        " win, the heart can (found by a QA sweep's exact analysis: the heuristic kept the"
        " diamond, a certain miss)",
        must_trump=True,
    ),
    build_position(
        "last-card-kept-the-lowest-of-its-suit",
        hands=("Ah 3d", "3h 4c", "2c 7d", "5s 6s"),
        trump_card=None,
        bids=(1, 0, 1, 0),
        plays="Ah 3h",
        good="2c",
        why="one trick needed, the ace of hearts takes this one and seat 0 leads the last: the"
        " two of clubs kept could only be beaten if clubs were led, and never win otherwise",
    ),
    build_position(
        "last-card-kept-the-lowest-of-its-suit-for-a-zero",
        hands=("Ah 3d", "3h 4c", "2c 7d", "5s 6s"),
        trump_card=None,
        bids=(1, 0, 0, 0),
        plays="Ah 3h",
        good="7d",
        why="as above with the bid made: keep the two of clubs, which can never win, not the"
        " seven of diamonds, which wins if seat 0 leads a lower diamond (a QA sweep's exact"
        " analysis: the heuristic kept a card that could win)",
    ),
    build_position(
        "must-win-now-keep-the-card-that-can-lose",
        hands=("Ah 2c", "8d 3c", "4d 5c", "Td Ad"),
        trump_card="2d",
        bids=(1, 0, 0, 1),
        plays="Ah 8d 4d",
        good="Ad",
        why="one trick needed and either trump takes this one: win with the ace and keep the ten,"
        " which can lose the last trick; won with the ten, the ace takes the last one too (a"
        " certain miss the heuristic made, found by a QA sweep)",
    ),
    build_position(
        "certain-winner-kept-shed-the-other-winner",
        hands=("7h 2d 3c", "Th 9d 4c", "3h Kd 5c", "As Ad 8d"),
        trump_card="2s",
        bids=(1, 1, 0, 1),
        plays="7h Th 3h",
        good="Ad",
        why="one trick needed and the ace of trumps is certain to take one: every other card must"
        " lose, so shed the master diamond now; kept, it takes a second trick (the heuristic"
        " threw the eight, keeping the ace for a trick too many; a QA sweep's exact analysis)",
    ),
    build_position(
        "every-trick-needed-ruff-low",
        hands=("Jd 5c 6c", "3h 4h Ah", "7d 8c Kh", "9d Qh 2s"),
        trump_card="2h",
        bids=(1, 3, 0, 0),
        plays="Jd",
        good="3h 4h",
        why="all three tricks needed: the ace of trumps wins whenever it is played, and this ruff"
        " is a low trump's best chance of its trick; ruffing with the ace leaves two low trumps"
        " that must both win later (the heuristic ruffed with the ace; a QA sweep)",
    ),
    build_position(
        "two-last-cards-the-seats-together-settle-the-kept-spade-losing",
        hands=(
            "4c 8c 3d 7d 8d Qd 3h 2s 3s 4s 6s",
            "2c Jc 9d Td 6h 9h Kh Ah 7s Ts As",
            "3c Tc Ac 2d 5d 6d 7h 8h Qh 9s Ks",
        ),
        trump_card="4d",
        bids=(2, 4, 4),
        plays="Qd 9d 2d 3h Kh 7h As 9s 6s Ah 8h 8c Td 5d 7d 2c Tc 4c Ks 4s Ts Qh 3s 9h Ac 2s Jc"
        " 6d 3d",
        good="6h",
        why="no trick wanted and no diamond: either card loses this trick, and seat 2 leads the"
        " last. The one spade left below the 7s is the 5s, and if seat 2 leads it, seat 0 (shown"
        " to hold no heart and no club) beats the 7s with a higher spade or a trump: the 7s kept"
        " never wins, the 6h kept can (a low heart led, seat 0 holding a spade), so throw the 6h"
        " (the heuristic reasoned about each seat apart and kept it; found in self-play)",
    ),
    build_position(
        "two-last-cards-a-seat-that-must-hold-a-trump-ruffs-the-lead",
        hands=(
            "2c 7c Jd Ad 2h 8h Ah 5s 6s 8s Qs Ks",
            "9c 4d 6d 7d 8d 9d Kd 9h 2s 9s Ts Js",
            "3c 4c 8c Qc 2d 3d 5d Qd 5h 7h Kh 4s",
            "5c 6c Jc Kc Ac Td 3h 6h Th 3s 7s As",
        ),
        trump_card="4h",
        bids=(4, 1, 3, 4),
        plays="Ad Kd 5d Td Jd 9d Qd Th As 8s Ts 4s Ac 7c 9c 3c Kc 2c 9h 4c 2s 5h 3s 5s 8c 5c Ah"
        " Js Ks 9s 7h 7s 2d 6h 8h 8d 6s 7d Kh 3h",
        good="Qc",
        why="La Podrida, no trick wanted, on lead with Qc 3d: seat 0 has shown it holds no club"
        " and no diamond, and only one spade is left, so it holds a trump and must ruff the"
        " queen; the 3d kept then loses to seat 1, which holds only diamonds, all higher. Led"
        " first, the 3d can leave the queen to take the last trick (seat 3 leading a club):"
        " lead the queen (the heuristic led the 3d; found in self-play)",
        must_trump=True,
    ),
    build_position(
        "bid-lost-whatever-it-plays-keep-the-card-that-stops-a-bid",
        hands=("Qs 6c Kc", "3s 7h 8h", "2s Tc Ac"),
        trump_card="2d",
        bids=(2, 0, 0),
        plays="Qs 3s 2s 6c 7h",
        good="Tc",
        why="La Podrida, three players: a bid of zero, and both clubs take seat 0's 6c (seat 1"
        " threw a heart, so it has no club and, as it must trump, no trump): the bid is lost"
        " whatever it plays. Keep the ace for the last trick it leads, which then stops seat 0"
        " taking the trick it still needs with a high club; led, the ten would let it (both bots"
        " kept the ten; found by a helper's hunt, 2026-12-05)",
        must_trump=True,
    ),
    build_position(
        "bid-lost-whatever-it-plays-missed-bids-score-tricks-win-low",
        hands=("4d Ks 2c 7h", "5d 7s Tc 3c", "Ad 6s 5h 8h"),
        trump_card="9h",
        bids=(2, 1, 1),
        plays="4d 5d Ad 6s Ks 7s 2c Tc",
        good="5h",
        why="missed bids score their tricks, three players: one trick bid and taken, and both"
        " trumps take this one, so the bid is lost and every trick counts: win with the five"
        " and keep the eight, which loses the last trick to fewer unseen trumps (the heuristic"
        " won with the eight, as if keeping a card to duck with; found by a helper's hunt,"
        " 2026-12-05)",
        missed_bid_scores_tricks=True,
    ),
    build_position(
        "no-trick-wanted-never-lead-a-certain-winner",
        hands=("2s 5d 8d 9s Ts", "3s 7s Kd Js 9d", "As Qc Jc 4d 6d"),
        trump_card="5h",
        bids=(1, 1, 2),
        plays="2s 3s As Qc 5d 7s",
        good="4d 6d",
        why="La Podrida, three players: its two tricks taken, on lead with Jc 4d 6d. Both other"
        " seats threw a card on the queen of clubs, so they hold no club and, as they must"
        " trump, no trump: the jack of clubs led takes the trick for certain, a trick too many;"
        " a diamond led may lose (the heuristic led the jack by its fitted weights; found by a"
        " helper's hunt, 2026-12-05)",
        must_trump=True,
    ),
    build_position(
        "one-trick-wanted-keep-the-trump-no-one-can-beat",
        hands=(
            "Kd 9c 7c 4h 7d 8c Qc 8d Jd 5c",
            "6d 3c 4s As 2d 9h 8h 5d 3d 5h",
            "Ad Ac Kc 5s Ts Ks Jc 4c Tc 2s",
            "Td 2c 9s 7s 7h 6h 3h 2h Qh Jh",
        ),
        trump_card="3s",
        bids=(1, 1, 5, 2),
        plays="Kd 6d Ad Td Ac 2c 9c 3c Kc 9s 7c 4s 7s 4h As 5s 2d Ts 7h 7d Ks 6h 8c 9h"
        " Jc 3h Qc 8h 8d 5d 4c 2h Jd 3d",
        good="Tc",
        why="one more trick wanted, with Tc 2s: every other seat has shown it holds no spade"
        " (trumps), so the two takes the last trick whatever happens. Throw the ten on the"
        " diamonds; ruffing now takes this trick and leaves the ten, which may take the last"
        " one too, a trick too many (the heuristic counted the two beatable by the unseen"
        " trumps, all of which are in the stock; found by a helper's hunt, 2026-12-05)",
    ),
    build_position(
        "one-trick-wanted-three-players-keep-the-trump-no-one-can-beat",
        hands=(
            "Kh Ts Tc Ks 4d Jc",
            "6h 8c 5d 4c Ad 7c",
            "2h As Qh 4s 3h 9s",
        ),
        trump_card="Ah",
        bids=(2, 1, 3),
        plays="Kh 6h 2h Ts 8c As Qh Tc 5d 4s Ks 4c 4d Ad",
        good="9s",
        why="three players, one more trick wanted, with 3h 9s: both other seats threw a card on"
        " the queen of hearts, so neither holds a trump and the three takes the last trick for"
        " certain. Throw the nine of spades on the diamonds; ruffing takes this trick and leads"
        " the nine, which the jack of clubs and a club cannot beat (the heuristic ruffed; found"
        " by a helper's hunt, 2026-12-05)",
    ),
)
