"""Wording shared by the project's messages and reports."""

from __future__ import annotations

__all__ = ["a_or_an", "counted"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one (``plural``, when the plural is
    not ``noun`` + ``s``).

    >>> counted(1, "deal set"), counted(0, "deal set"), counted(3, "card")
    ('1 deal set', '0 deal sets', '3 cards')
    >>> counted(2, "worker process", "worker processes")
    '2 worker processes'
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def a_or_an(word: str) -> str:
    """``word`` after its indefinite article, as spoken for the names of types.

    >>> a_or_an("float"), a_or_an("int64"), a_or_an("Suit")
    ('a float', 'an int64', 'a Suit')
    """
    return f"{'an' if word[:1].lower() in set('aeiou') else 'a'} {word}"
