"""Crash-safe file writing: a record is either fully written or not there at all, and a
folder has one writer at a time."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock
    fcntl = None  # type: ignore[assignment]

__all__ = ["FolderBusyError", "sole_writer", "write_atomic"]


class FolderBusyError(OSError):
    """Another process holds the folder (see :func:`sole_writer`)."""


@contextmanager
def sole_writer(folder: Path) -> Iterator[Path]:
    """Hold ``folder`` (made, with its parents, if missing) for this process alone while
    inside; :class:`FolderBusyError` at once if another process holds it.

    The lock is an advisory ``flock`` on the folder itself, so no lock file is left behind,
    and the system drops it when the holder exits, however it exits: a killed process leaves no
    stale lock. Child processes forked while inside hold it with their parent until they exit.
    If the body raises, a folder this call made is removed again while it is still empty, so a
    refused command leaves nothing behind. Where ``flock`` does not exist (Windows) the folder
    is made but not locked.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{folder} is a file, not a folder")
    made = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise FolderBusyError(f"{folder} is in use by another process") from None
        try:
            yield folder
        except BaseException:
            if made:
                with suppress(OSError):  # not empty: it holds what the body wrote
                    folder.rmdir()
            raise
    finally:
        os.close(fd)  # closing the descriptor drops the lock


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file, fsync and rename, so a killed process
    never leaves a truncated file behind."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
