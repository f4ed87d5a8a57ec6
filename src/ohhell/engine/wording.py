"""Wording shared by the project's messages and reports."""

from __future__ import annotations

__all__ = ["a_or_an", "counted"]


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural (``noun`` + ``s``) unless the count is one.

    >>> counted(1, "deal set"), counted(0, "deal set"), counted(3, "card")
    ('1 deal set', '0 deal sets', '3 cards')
    """
    return f"{count} {noun if count == 1 else noun + 's'}"


def a_or_an(word: str) -> str:
    """``word`` after its indefinite article, as spoken for the names of types.

    >>> a_or_an("float"), a_or_an("int64"), a_or_an("Suit")
    ('a float', 'an int64', 'a Suit')
    """
    return f"{'an' if word[:1].lower() in set('aeiou') else 'a'} {word}"
