"""Wording shared by the project's messages and reports."""

from __future__ import annotations

__all__ = ["counted"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one (``plural``, when the plural is
    not ``noun`` + ``s``).

    >>> counted(1, "deal set"), counted(0, "deal set"), counted(3, "card")
    ('1 deal set', '0 deal sets', '3 cards')
    >>> counted(2, "worker process", "worker processes")
    '2 worker processes'
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
