"""Crash-safe file writing: a record is either fully written or not there at all; a journal
(JSON Lines, appended one synced line at a time) loses at most the line being written; and a
folder or file has one writer at a time."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from fnmatch import fnmatch
from pathlib import Path
from typing import IO, Any, Final

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "TEMPORARY_MARK",
    "InUseError",
    "append_json_line",
    "broken_link",
    "complete_lines",
    "forget_held",
    "hold_exclusively",
    "hold_in_process",
    "json_line",
    "kind_of",
    "read_limited",
    "release_inherited_locks",
    "remove_stale_temporaries",
    "sole_writer",
    "write_atomic",
]


def _read_umask() -> int:
    umask = os.umask(0)  # the only way to read it is to set it: once, at import
    os.umask(umask)
    return umask


_UMASK = _read_umask()
"""The process's umask when this module was imported, for the permissions of the files
:func:`write_atomic` makes (read once: reading it means setting it, which would race with
other threads making files)."""

_HELD: dict[int, tuple[int, int]] = {}
"""The descriptors held locked in this process (:func:`sole_writer`, :func:`hold_in_process`),
with the device and inode of what each is open on, which forked workers close
(:func:`release_inherited_locks`): only if it is still that file, since a descriptor closed
without :func:`forget_held` leaves its number to be reused."""


class InUseError(OSError):
    """Another process holds the folder or file (:func:`hold_exclusively`)."""


def hold_exclusively(fd: int, path: Path) -> None:
    """Lock the open file or folder ``fd`` (``path``, for the message) for this process:
    an advisory ``flock``, which the system drops when the descriptor is closed or the process
    ends, however it ends, so a killed process leaves no stale lock. Child processes forked
    while it is held hold it too, until they exit or call :func:`release_inherited_locks`.
    :class:`InUseError` at once if another
    process holds it. Where ``flock`` does not exist (Windows) nothing is locked."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise InUseError(f"{path} is in use by another process") from None


def hold_in_process(fd: int, path: Path) -> None:
    """:func:`hold_exclusively`, for as long as this process keeps ``fd`` open: worker
    processes forked meanwhile close their copies (:func:`release_inherited_locks`), so a
    process killed with its workers still running frees ``path`` at once. Call
    :func:`forget_held` before closing ``fd``."""
    hold_exclusively(fd, path)
    held = os.fstat(fd)
    _HELD[fd] = (held.st_dev, held.st_ino)


def forget_held(fd: int) -> None:
    """``fd``, held by :func:`hold_in_process`, is about to be closed (its number may then be
    reused by another file, which workers must not close)."""
    _HELD.pop(fd, None)


def read_limited(source: Path | IO[bytes], limit: int, what: str) -> bytes:
    """The bytes of the file ``source`` (a path, or a stream such as standard input), refused
    with a :class:`ValueError` past ``limit`` bytes, larger than any ``what`` can be
    (``/dev/zero``, or a wrong file, would fill the memory)."""
    if isinstance(source, Path):
        with source.open("rb") as stream:
            data = stream.read(limit + 1)
    else:
        data = source.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than any {what} (over {limit:,} bytes)")
    return data


def kind_of(path: Path) -> str:
    """What ``path`` is, for a message that it is not what was asked for: ``a file``, ``a
    folder``, ``a pipe (FIFO)``, ``a device``, ``a socket``, ``a loop of symbolic links``,
    ``a symbolic link to nothing`` or ``nothing`` (a FIFO given as a folder was "a file").

    >>> kind_of(Path("/dev/null")), kind_of(Path("/")), kind_of(Path("/no/such/file"))
    ('a device', 'a folder', 'nothing')
    """
    try:
        mode = Path(path).stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a loop of symbolic links"
        return "a symbolic link to nothing" if Path(path).is_symlink() else "nothing"
    for test, kind in (
        (stat.S_ISREG, "a file"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a pipe (FIFO)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "not a file"  # pragma: no cover - a door or a whiteout: no other kinds on Linux


def broken_link(path: Path) -> str | None:
    """What is wrong with ``path`` if it is a symbolic link to nothing, said for an error
    (``mkdir`` would say "File exists" of it, and ``open`` "No such file")."""
    if path.is_symlink() and not path.exists():
        if kind_of(path) == "a loop of symbolic links":  # it exists, but never ends
            return f"{path} is a loop of symbolic links"
        return f"{path} is a symbolic link to {os.readlink(path)}, which does not exist"
    return None


def json_line(value: Any) -> bytes:
    """``value`` as one line of JSON Lines (compact, UTF-8, ending in a newline)."""
    return (json.dumps(value, separators=(",", ":")) + "\n").encode("utf-8")


def append_json_line(handle: IO[bytes], value: Any) -> None:
    """Append ``value`` to the journal open (in binary append mode) as ``handle``: written
    whole, flushed and fsynced, so it is on disk when this returns."""
    handle.write(json_line(value))
    handle.flush()
    os.fsync(handle.fileno())


def complete_lines(raw: bytes) -> tuple[list[bytes], int]:
    """The complete lines of a journal's bytes, and how many bytes they take. Whatever follows
    the last newline is a line cut short (the process killed while writing it): it is not
    among them, and a writer going on truncates the file to the length first.

    >>> complete_lines(b'{"a":1}\\n{"b":2}\\n{"c"')
    ([b'{"a":1}', b'{"b":2}'], 16)
    """
    lines = raw.split(b"\n")[:-1]
    return lines, sum(len(line) + 1 for line in lines)


@contextmanager
def sole_writer(folder: Path) -> Iterator[Path]:
    """Hold ``folder`` (made, with its parents, if missing) for this process alone while
    inside (:func:`hold_exclusively` on the folder itself, so no lock file is left behind);
    :class:`InUseError` at once if another process holds it. If the body raises, a folder
    this call made is removed again while it is still empty, so a refused command leaves
    nothing behind."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{folder} is {kind_of(folder)}, not a folder")
    for path in (folder, *folder.parents):
        if problem := broken_link(path):
            raise FileNotFoundError(problem)
    made = [  # deepest first; never a ".." (a folder that was there, reached another way)
        p for p in (folder, *folder.parents) if p.name not in ("", ".", "..") and not p.exists()
    ]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # said of the folder asked for, and of what is in the way
        blocked = next((p for p in folder.parents if p.exists() and not p.is_dir()), None)
        why = f"{blocked} is {kind_of(blocked)}, not a folder" if blocked else exc.strerror
        raise OSError(exc.errno, f"cannot make the folder {folder}: {why or exc}") from None
    # Windows cannot open a folder, and nothing is locked there (hold_exclusively)
    fd = os.open(folder, os.O_RDONLY) if fcntl is not None else None
    try:
        if fd is not None:
            hold_in_process(fd, folder)
        try:
            yield folder
        except BaseException:
            for path in made:
                with suppress(OSError):  # not empty: it holds what the body wrote
                    path.rmdir()
            raise
    finally:
        if fd is not None:
            forget_held(fd)
            os.close(fd)  # closing the descriptor drops the lock


def release_inherited_locks() -> None:
    """In a child process forked inside :func:`sole_writer` (or while a descriptor is held by
    :func:`hold_in_process`): close its copies of the locked
    descriptors, so that the lock lasts as long as the parent holds it, not until the child
    ends too (a parent killed with SIGKILL then frees its folder at once). The parent's lock
    is untouched: a ``flock`` stays until every copy of its descriptor is closed."""
    for fd, identity in list(_HELD.items()):
        with suppress(OSError):  # already closed in this process
            now = os.fstat(fd)
            if (now.st_dev, now.st_ino) == identity:  # not a pipe that took its number
                os.close(fd)
    _HELD.clear()


def _named(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path``, the file asked for, instead of the temporary file."""
    if exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, str(path))


def write_atomic(path: Path, text: str | bytes | Iterable[bytes], *, replace: bool = True) -> None:
    """Write ``text`` (as UTF-8; bytes as they are, or chunks of bytes one after another, for
    a file too large to hold in memory at once) to ``path`` via a temporary file beside it
    (a dot, the name, a random part and :data:`TEMPORARY_MARK`; see
    :func:`remove_stale_temporaries`), fsync, rename
    and fsync the folder, so a
    killed process never leaves a truncated file behind, and a crash of the system does not
    lose a file once this returns. With ``replace=False`` a file already at ``path`` is never
    replaced, even by another process writing it at the same moment: the temporary file is
    hard-linked into place, which fails with :class:`FileExistsError` if ``path`` exists."""
    path = Path(path)
    try:
        fd, tmp = _locked_temporary(path)
    except OSError as exc:
        raise _named(exc, path) from None
    handle = os.fdopen(fd, "wb")
    try:
        if hasattr(os, "fchmod"):  # not on Windows before Python 3.13
            os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        chunks = (
            [text.encode("utf-8")]
            if isinstance(text, str)
            else [text]
            if isinstance(text, bytes | bytearray | memoryview)
            else text
        )
        for chunk in chunks:
            handle.write(chunk)
        handle.flush()
        os.fsync(handle.fileno())
        if fcntl is None:  # pragma: no cover - Windows renames no file held open
            handle.close()
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
        _sync_folder(path.parent)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _named(exc, path) from None
        raise
    finally:
        handle.close()  # and the lock with it, once the file is in place


def _locked_temporary(path: Path) -> tuple[int, str]:
    """A new temporary file for ``path`` (:data:`TEMPORARY_MARK`), open and held with a
    ``flock`` while it is written, so that :func:`remove_stale_temporaries` in another process
    passes it by. A sweep that took it between its making and its lock has removed it: then
    another is made."""
    while True:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_MARK, dir=path.parent)
        if fcntl is None:  # pragma: no cover - Windows: nothing is locked
            return fd, tmp
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # waits only while a sweep holds it to remove it
            with suppress(FileNotFoundError):
                if os.stat(tmp).st_ino == os.fstat(fd).st_ino:
                    return fd, tmp
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # swept away before it was held: its name is free again


def _sync_folder(folder: Path) -> None:
    """fsync ``folder``, so that a file just renamed or linked into it stays there after a
    power loss or a crash of the system (the file's own fsync does not cover its name)."""
    if fcntl is None:  # pragma: no cover - Windows cannot open a folder to sync it
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a folder that cannot be read: the file is written
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - a file system that cannot sync folders
        pass  # the file is in place and its own data synced: not a failure to write it
    finally:
        os.close(fd)


def _link_new(tmp: str, path: Path) -> None:
    """Put the written file ``tmp`` at ``path`` unless something is there already."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename (a small race)
        if path.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(tmp, path)
        return
    Path(tmp).unlink()


TEMPORARY_MARK: Final = ".ohhell-tmp"
"""How the temporary files of :func:`write_atomic` end, after a dot, the name, a dot and
:func:`tempfile.mkstemp`'s eight random characters (``.game-1.json.k3j_x9a2.ohhell-tmp``): a
mark no person or editor gives a file, so that a sweep removes those and nothing a user put
beside the files (vim's ``.game-1.json.swp``, a ``.game-1.json.bak``, a
``.game-1.json.original``)."""
_TEMPORARY_END = re.compile(r"\.[a-z0-9_]{8}" + re.escape(TEMPORARY_MARK))


def remove_stale_temporaries(folder: Path, pattern: str) -> list[Path]:
    """Remove the temporary files :func:`write_atomic` left in ``folder`` for files named by
    ``pattern`` (a glob, ``game-*.json``) when its process was killed between creating one and
    renaming it into place (SIGKILL gives no chance to clean up): a file the writer never
    reported as written: a dot, such a name, a dot, mkstemp's eight random characters and
    :data:`TEMPORARY_MARK`, and nothing else beside them (vim's ``.game-1.json.swp`` and a
    user's ``.game-1.json.original`` stay). Returns those removed. One that another process is
    writing now is held by it (:func:`write_atomic` locks its temporary file), and passed by.
    """
    removed = []
    for stale in sorted(Path(folder).glob(f".{pattern}.*{TEMPORARY_MARK}")):
        cut = len(stale.name) - 9 - len(TEMPORARY_MARK)
        name, end = stale.name[:cut], stale.name[cut:]
        if not (_TEMPORARY_END.fullmatch(end) and fnmatch(name, f".{pattern}")):
            continue  # not one of ours
        with suppress(FileNotFoundError, InUseError):
            _remove_unheld(stale)
            removed.append(stale)
    return removed


def _remove_unheld(stale: Path) -> None:
    """Remove ``stale`` unless a live process holds it (:class:`InUseError`): a writer that
    was killed held it no longer."""
    if fcntl is None:  # pragma: no cover - Windows: nothing is locked
        stale.unlink()
        return
    try:  # not waiting on a pipe that has the name, nor following a link
        fd = os.open(stale, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.EACCES, errno.EPERM):
            raise
        stale.unlink()  # a link (no writer's: they are files), or one this user may not read:
        return  # removed as ever
    try:
        hold_exclusively(fd, stale)
        stale.unlink()  # while held: a writer that lost it to this sweep makes another
    finally:
        os.close(fd)
