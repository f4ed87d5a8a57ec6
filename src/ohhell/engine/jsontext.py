"""Strict JSON reading for the project's files (records, deal sets, journals, rules files).

Python's :func:`json.loads` takes more than JSON: ``NaN`` and ``Infinity``, and an object with
a key twice (the last one silently wins, so a record could show one score and hold another), and
it reads a number too large for a float as infinity. A document nested deeper than the
interpreter's recursion limit raises :class:`RecursionError`, which is not a
:class:`ValueError`. :func:`parse_json` refuses all four with a
:class:`ValueError` that says what is wrong:

>>> parse_json('{"points": [10], "points": [99]}')
Traceback (most recent call last):
...
ValueError: the key 'points' appears twice in one object
>>> parse_json('{"seed": NaN}')
Traceback (most recent call last):
...
ValueError: NaN is not a JSON number
>>> parse_json('{"seed": 1e999}')  # JSON, but no float holds it: not read as infinity
Traceback (most recent call last):
...
ValueError: the number '1e999' is too large for this program to read
>>> parse_json("[" * 100_000 + "]" * 100_000)
Traceback (most recent call last):
...
ValueError: nested too deep to read

Bytes are read as JSON's own encodings (UTF-8, with or without a byte-order mark, UTF-16 or
UTF-32); what none of them decodes, and a number too long for the interpreter to convert, are
said in the file's terms rather than Python's:

>>> parse_json(b'{"seed": 1\\xff}')
Traceback (most recent call last):
...
ValueError: not text: byte 0xff at offset 10 is not UTF-8
>>> parse_json("[" + "9" * 5000 + "]")
Traceback (most recent call last):
...
ValueError: a number with more than 4300 digits, longer than any this program reads
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any

from ohhell.engine.wording import a_or_an

__all__ = ["as_json", "brief", "exceeds_digit_limit", "json_kind", "parse_json"]


def parse_json(text: str | bytes, *, objects: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """``text`` as JSON, strictly (see the module docstring); anything else is a
    :class:`ValueError` saying what.

    ``objects``, if given, is called with each object as it is read (once no key is found
    twice), and what it returns stands for the object, so that a large document can be made
    compact while it is read; an inner object is read before the one that holds it. (The call
    takes a level of nesting from what can be read.)

    >>> parse_json('{"a": {"b": 1}}', objects=lambda obj: sorted(obj.items()))
    [('a', [('b', 1)])]
    """
    read_object: Callable[[list[tuple[str, Any]]], Any] = _unique_keys
    if objects is not None:
        read_object = lambda pairs: objects(_unique_keys(pairs))  # noqa: E731

    if isinstance(text, str) and text.startswith("\ufeff"):  # as for bytes: a file read as
        text = text[1:]  # UTF-8 keeps its byte-order mark (RFC 8259 lets a reader skip it)
    try:
        return json.loads(
            text,
            object_pairs_hook=read_object,
            parse_constant=_no_constant,
            parse_float=_finite_float,
        )
    except RecursionError:
        raise ValueError("nested too deep to read") from None
    except UnicodeDecodeError as exc:
        bad = exc.object[exc.start : exc.start + 1].hex()
        raise ValueError(
            f"not text: byte 0x{bad} at offset {exc.start} is not {exc.encoding.upper()}".replace(
                "UTF-8-SIG", "UTF-8"
            )
        ) from None
    except ValueError as exc:
        if not exceeds_digit_limit(exc):
            raise
        raise ValueError(
            f"a number with more than {sys.get_int_max_str_digits()} digits, longer than any"
            " this program reads"
        ) from None


def exceeds_digit_limit(exc: ValueError) -> bool:
    """Whether ``exc`` is :func:`int`'s refusal of a number longer than
    :func:`sys.get_int_max_str_digits` allows (whose message advises changing that limit,
    which means nothing to the reader of a file or a command line)."""
    return "integer string conversion" in str(exc)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused if no float holds it (``1e999``
    would be read as infinity, which JSON has no number for)."""
    number = float(text)
    if math.isinf(number):
        raise ValueError(f"the number {brief(text)} is too large for this program to read")
    return number


AS_JSON_LIMIT = 200
"""The most characters :func:`as_json` quotes: a message names a value, it does not dump it."""


def as_json(value: object) -> str:
    """``value`` as a file writes it (``true``, ``null``, ``"1"``), for a message about that
    file; its ``repr`` if it is not JSON. A long one is cut to its start, saying how long it is.

    >>> as_json(True), as_json(None), as_json("1"), as_json({1, 2})
    ('true', 'null', '"1"', '{1, 2}')
    >>> as_json(list(range(1000)))[-30:]
    '50, 51, 5... (4890 characters)'

    A value nested deeper than the interpreter can write (a file may hold one that
    :func:`parse_json` could just read) is named, not written:

    >>> deep = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> as_json(deep)
    'an array nested too deep to show'
    """
    try:
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):
            text = repr(value)
    except RecursionError:
        return _too_deep(value)
    except ValueError:  # an integer past the interpreter's limit of digits it will write
        return _too_long(value)
    return _cut(text)


def brief(value: object) -> str:
    """``repr(value)`` for a message, cut to its start when long, saying how long it is (as
    :func:`as_json` cuts a value: a message names a value, it does not dump it; a seat name or
    a card of five million characters would otherwise fill a terminal).

    >>> brief("Zz"), brief("x" * 1000)[-26:]
    ("'Zz'", 'xxxxx... (1002 characters)')

    An integer longer than the interpreter will write (4,300 digits unless raised; Python
    refuses, with a ``ValueError`` of its own, to turn it into text) is named by its length,
    so the message about it can still be written:

    >>> brief(10**5000), brief(-(10**5000) + 1), brief([10**5000])
    ('an integer of 5001 digits', 'a negative integer of 5000 digits', 'a list too long to show')

    An object whose own ``repr`` fails (a bot's, say, handed back as a card) is named by its
    type, so that the message about it is still written:

    >>> class Odd:
    ...     def __repr__(self) -> str:
    ...         raise ValueError("no")
    >>> brief(Odd()), brief([Odd()])
    ('<an Odd whose repr raised ValueError>', '<a list whose repr raised ValueError>')
    """
    try:
        text = repr(value)
    except RecursionError:
        return _too_deep(value)
    except Exception as exc:  # a message must be written whatever the object
        if isinstance(exc, ValueError) and exceeds_digit_limit(exc):
            return _too_long(value)
        return f"<{a_or_an(type(value).__name__)} whose repr raised {type(exc).__name__}>"
    return _cut(text)


def _too_long(value: object) -> str:
    """``value``, which holds an integer too long to write, named by what it is."""
    if not isinstance(value, int):
        return f"a {type(value).__name__} too long to show"
    size = abs(value)
    digits = math.floor((size.bit_length() - 1) * math.log10(2)) + 1
    digits += size >= 10**digits  # the estimate is one short just below a power of ten
    return f"{'a negative' if value < 0 else 'an'} integer of {digits} digits"


def _cut(text: str) -> str:
    """``text``, cut to its first :data:`AS_JSON_LIMIT` characters when longer, saying how
    long it is."""
    if len(text) <= AS_JSON_LIMIT:
        return text
    return f"{text[:AS_JSON_LIMIT]}... ({len(text)} characters)"


def _too_deep(value: object) -> str:
    return f"{json_kind(value)} nested too deep to show"


def json_kind(value: object) -> str:
    """The JSON name of ``value``'s type, for a message about a file (Python's names, such as
    ``NoneType`` or ``dict``, mean nothing to its reader).

    >>> [json_kind(v) for v in (None, True, 1, 1.5, "a", [], {})]
    ['null', 'a boolean', 'a number', 'a number', 'a string', 'an array', 'an object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
