"""Which build of the code played a result: a digest of the source it depends on.

A long run saved as it goes (a tournament's journal, a benchmark's) is resumed later, perhaps
after the code has changed; games of two builds would then mix in one report. The run keeps
:func:`code_fingerprint` of the code it played with, and a resumed run compares its own.

>>> len(code_fingerprint())
16
>>> code_fingerprint() == code_fingerprint(), code_fingerprint() == code_fingerprint(("engine",))
(True, False)
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Final

import ohhell

__all__ = ["RESULT_SOURCES", "code_fingerprint"]

RESULT_SOURCES: Final = ("engine", "bots", "runner.py", "players.py", "openspiel_bridge.py")
"""The parts of the ``ohhell`` package (folders and modules, relative to it) that a played
game's result depends on: the rules engine, the bots and what plays them."""


def code_fingerprint(parts: Iterable[str] = RESULT_SOURCES, extra: Iterable[Path] = ()) -> str:
    """Sixteen hex digits of a SHA-256 digest of the source of the package's ``parts`` (every
    ``.py`` file, with its path), of the ``extra`` files (with their names: a script's own
    seeding and bots), of the installed open-spiel's version (OpenSpiel's bots play in
    tournaments and benchmarks) and of the Python that runs them (``cpython-3.11``: an
    interpreter's arithmetic may differ in the last bit, where a bot's choice can turn). Any
    change to those files' bytes changes it, and so does another Python."""
    root = Path(ohhell.__file__).parent
    digest = hashlib.sha256()
    for part in parts:
        paths = sorted((root / part).rglob("*.py")) if (root / part).is_dir() else [root / part]
        for path in paths:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    for path in extra:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    python = f"{sys.implementation.name}-{sys.version_info.major}.{sys.version_info.minor}"
    digest.update(python.encode() + b"\0")
    try:
        digest.update(importlib.metadata.version("open-spiel").encode())
    except importlib.metadata.PackageNotFoundError:
        digest.update(b"no open-spiel")
    return digest.hexdigest()[:16]
