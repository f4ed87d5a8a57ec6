"""Plain-text rendering of score sheets (stdlib only, so the core install stays lean)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from ohhell.engine import ScoreRow

__all__ = ["NAME_COLUMNS", "format_score_sheet", "score_sheet_json"]

NAME_COLUMNS = 24
"""The most columns a seat's name takes in a score sheet: a longer one is cut to its start."""


def format_score_sheet(
    rows: Sequence[ScoreRow],
    seats: Sequence[str],
    *,
    winners: Sequence[int] = (),
    sealed: Sequence[int] = (),
    encoding: str | None = None,
) -> str:
    """The score sheet as a table: per hand and seat the bid, tricks won, points and total.

    An unfinished hand shows ``-`` for bids not yet made, ``?`` for the ``sealed`` seats'
    (made, and hidden until every seat has bid), and no points. A seat
    name's control characters are shown escaped, so a name cannot break the table's lines, and
    so is what ``encoding`` (the terminal's) cannot show, before the columns are measured; a
    name wider than :data:`NAME_COLUMNS` is cut to its start (the record keeps it whole).
    """
    seats = [_printable(name) for name in seats]
    if encoding is not None:
        seats = [name.encode(encoding, "backslashreplace").decode(encoding) for name in seats]
    seats = [_cut(name, NAME_COLUMNS) for name in seats]
    width = max(len("bid won pts total"), *(_cells(s) for s in seats))
    head = f"{'hand':>4} {'cards':>5} {'trump':>5} {'dealer':<{width}}"
    lines = [
        head + "".join(f" | {_centred(name, width)}" for name in seats),
        " " * len(head) + "".join(f" | {'bid won pts total':>{width}}" for _ in seats),
    ]
    lines.append("-" * _cells(lines[0]))
    for row in rows:
        trump = str(row.trump_card) if row.trump_card else "none"
        dealer = seats[row.dealer] + " " * (width - _cells(seats[row.dealer]))
        line = f"{row.number:>4} {row.hand_size:>5} {trump:>5} {dealer}"
        for seat in range(len(seats)):
            bid = row.bids[seat]
            bid_text = str(bid) if bid is not None else "?" if seat in sealed else "-"
            points = "" if row.points is None else str(row.points[seat])
            running = "" if row.points is None else str(row.totals[seat])
            cell = f"{bid_text:>3} {row.tricks_won[seat]:>3} {points:>3} {running:>5}"
            line += f" | {cell:>{width}}"
        lines.append(line)
    lines.append("-" * _cells(lines[0]))
    totals = rows[-1].totals if rows else (0,) * len(seats)
    line = f"{'total':>{len(head)}}"
    for seat, seat_total in enumerate(totals):
        mark = "*" if seat in winners else " "
        line += f" | {mark + str(seat_total):>{width}}"
    lines.append(line)
    if winners:
        names = ", ".join(seats[w] for w in winners)
        lines.append(f"{'winner' if len(winners) == 1 else 'shared win'}: {names} (*)")
    return "\n".join(lines)


def _cells(text: str) -> int:
    """How many columns of a terminal ``text`` takes: two for a wide character (an emoji,
    a CJK character), none for a combining mark (an emoji's variation selector is not one: it
    widens a narrow symbol to an emoji's two columns).

    >>> _cells("Ann"), _cells("\U0001f600 Ann"), _cells("Zoe\u0301"), _cells("\u2764\ufe0f")
    (3, 6, 3, 2)
    """
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _cut(text: str, columns: int) -> str:
    """``text`` in at most ``columns`` columns: cut to its start and ``...`` when wider.

    >>> _cut("Ann", 5), _cut("Annabelle", 5), _cut("\U0001f600\U0001f600\U0001f600", 5)
    ('Ann', 'An...', '\U0001f600...')
    """
    if _cells(text) <= columns:
        return text
    kept, used = [], 0
    for c in text:
        used += _cells(c)
        if used > columns - 3:
            break
        kept.append(c)
    return "".join(kept) + "..."


def _centred(text: str, width: int) -> str:
    """``text`` centred in ``width`` columns, any odd space on the right (as the format spec
    ``^`` pads)."""
    room = max(0, width - _cells(text))
    return " " * (room // 2) + text + " " * (room - room // 2)


def _printable(name: str) -> str:
    r"""``name`` with its control characters (a newline, a terminal's escape) escaped.

    >>> _printable("Ann\nBob\x1b[31m")
    'Ann\\nBob\\x1b[31m'
    """
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in ("Cc", "Cf") else c
        for c in name
    )


def score_sheet_json(
    rows: Sequence[ScoreRow],
    seats: Sequence[str],
    *,
    winners: Sequence[int] = (),
    sealed: Sequence[int] = (),
) -> dict[str, Any]:
    """The score sheet as a JSON-ready dict for machines; ``sealed``: the seats whose bid in
    the hand under way is made and hidden, until every seat has bid."""
    return {
        "seats": list(seats),
        "hands": [
            {
                "number": row.number,
                "dealer": row.dealer,
                "cards": row.hand_size,
                "trump": None if row.trump_card is None else str(row.trump_card),
                "bids": list(row.bids),
                "tricks_won": list(row.tricks_won),
                # a hand under way has neither, as in its record (the game's totals so far
                # are the sheet's own "totals")
                "points": None if row.points is None else list(row.points),
                "totals": None if row.points is None else list(row.totals),
            }
            for row in rows
        ],
        "totals": list(rows[-1].totals) if rows else [0] * len(seats),
        "winners": list(winners),
        "sealed_bids": list(sealed),
        "finished": bool(winners),
    }
