"""Standard output that names itself when it cannot be written.

The operating system's error for a full disk or a broken device names no file, so ``ohhell
rules > /dev/full`` could only say "No space left on device", leaving the reader to guess
which of the command's files filled. Within :func:`standard_output_named` (which
:func:`ohhell.cli.main.main` puts around every command) a failed write to standard output is
a :class:`StandardOutputError`, said as "cannot write to standard output".
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

__all__ = ["StandardOutputError", "one_line", "say", "standard_output_named"]


class StandardOutputError(OSError):
    """Standard output could not be written (``> /dev/full``): said as such, since the
    operating system's error names no file."""


class _NamedStandardOutput:
    """Standard output as the commands write to it: each write or flush that fails (but for
    a reader gone, ``BrokenPipeError``) raises :class:`StandardOutputError`, so that the
    message names standard output rather than leaving the reader to guess which file filled.
    Everything else is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with _named():
            return self._stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        with _named():
            self._stream.writelines(lines)

    def flush(self) -> None:
        with _named():
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _named() -> Iterator[None]:
    """A write error of the block (a reader gone aside) as :class:`StandardOutputError`."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StandardOutputError(exc.errno, exc.strerror) from exc


@contextlib.contextmanager
def standard_output_named() -> Iterator[None]:
    """Within the block, ``sys.stdout`` is :class:`_NamedStandardOutput` around itself
    (unless there is none: ``None``, started with ``>&-``, stays as it is)."""
    stream = sys.stdout
    if stream is None:
        yield
        return
    sys.stdout = _NamedStandardOutput(stream)
    try:
        yield
    finally:
        sys.stdout = stream


def one_line(text: str) -> str:
    """``text`` with what is not printable escaped as Python writes it in a string: a message
    stays one line, and a terminal shows a file's name as typed, whatever it holds (a newline
    split the line in two, an escape sequence could recolour the terminal).

    >>> one_line("cannot write dir\\nname/game-1.json (\\x1b[31mred)"), one_line("Åsa ♠ 1")
    ('cannot write dir\\\\nname/game-1.json (\\\\x1b[31mred)', 'Åsa ♠ 1')
    """
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape", "backslashreplace").decode()
        for char in text
    )


def say(message: str) -> None:
    """Print ``message``, one line for the person running the command, to standard error."""
    print(one_line(message), file=sys.stderr)
