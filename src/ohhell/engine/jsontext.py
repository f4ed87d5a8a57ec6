"""Strict JSON reading for the project's files (records, deal sets, journals, rules files).

Python's :func:`json.loads` takes more than JSON: ``NaN`` and ``Infinity``, and an object with
a key twice (the last one silently wins, so a record could show one score and hold another). A
document nested deeper than the interpreter's recursion limit raises :class:`RecursionError`,
which is not a :class:`ValueError`. :func:`parse_json` refuses all three with a
:class:`ValueError` that says what is wrong:

>>> parse_json('{"points": [10], "points": [99]}')
Traceback (most recent call last):
...
ValueError: the key 'points' appears twice in one object
>>> parse_json('{"seed": NaN}')
Traceback (most recent call last):
...
ValueError: NaN is not a JSON number
>>> parse_json("[" * 100_000 + "]" * 100_000)
Traceback (most recent call last):
...
ValueError: nested too deep to read
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["as_json", "parse_json"]


def parse_json(text: str | bytes) -> Any:
    """``text`` as JSON, strictly (see the module docstring); anything else is a
    :class:`ValueError` saying what."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deep to read") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def as_json(value: object) -> str:
    """``value`` as a file writes it (``true``, ``null``, ``"1"``), for a message about that
    file; its ``repr`` if it is not JSON.

    >>> as_json(True), as_json(None), as_json("1"), as_json({1, 2})
    ('true', 'null', '"1"', '{1, 2}')
    """
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
