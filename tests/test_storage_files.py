"""Crash-safe writing and one writer per folder (:mod:`ohhell.storage_files`)."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ohhell import storage_files
from ohhell.storage_files import (
    TEMPORARY_MARK,
    InUseError,
    append_json_line,
    broken_link,
    hold_in_process,
    read_limited,
    release_inherited_locks,
    remove_stale_temporaries,
    sole_writer,
    write_atomic,
)


def test_write_atomic_replaces_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    write_atomic(path, "first")
    write_atomic(path, "second")
    assert path.read_text(encoding="utf-8") == "second"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]  # no temporary left


def test_write_atomic_writes_bytes_of_any_kind_and_chunks_one_after_another(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    for data in (b"ab", bytearray(b"ab"), memoryview(b"ab")):
        write_atomic(path, data)
        assert path.read_bytes() == b"ab"
    write_atomic(path, (chunk for chunk in (b"a", b"", b"bc")))
    assert path.read_bytes() == b"abc"

    def failing() -> Iterator[bytes]:
        yield b"x"
        raise OSError(5, "Input/output error")

    with pytest.raises(OSError, match="Input/output error"):
        write_atomic(path, failing())  # a source that fails part-way: the file is as it was
    assert path.read_bytes() == b"abc" and [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize("replace", [True, False])
def test_write_atomic_syncs_the_folder_after_the_file_is_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replace: bool
) -> None:
    """The file's own fsync does not make its name durable: after the rename (or the link)
    the folder is synced too, so a crash of the system cannot lose a file reported written,
    such as a tournament's journal with every line appended to it."""
    import os
    import stat

    synced: list[tuple[bool, bool]] = []  # (a folder, the file in place by then)
    real_fsync = os.fsync
    path = tmp_path / "journal.jsonl"

    def fsync(fd: int) -> None:
        synced.append((stat.S_ISDIR(os.fstat(fd).st_mode), path.exists()))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_atomic(path, "{}\n", replace=replace)
    assert synced == [(False, False), (True, True)]


def test_write_atomic_keeps_the_usual_permissions(tmp_path: Path) -> None:
    import os

    path = tmp_path / "record.json"
    write_atomic(path, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_atomic_can_refuse_to_replace(tmp_path: Path) -> None:
    """``replace=False``: a file already there is kept, and the new text is not left about."""
    path = tmp_path / "game-1.json"
    write_atomic(path, "first", replace=False)
    with pytest.raises(FileExistsError) as error:
        write_atomic(path, "second", replace=False)
    assert error.value.filename == str(path)
    assert path.read_text(encoding="utf-8") == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["game-1.json"]


def test_stale_temporaries_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    """A writer killed between making its temporary file and renaming it leaves the file;
    the next writer of those names removes it, and nothing else."""
    stale = [".game-3.json.x1y2z3ab.ohhell-tmp", ".game-4.json.q_9zz0ab.ohhell-tmp"]
    for name in (*stale, "game-2.json", ".other.json.ab.ohhell-tmp"):
        (tmp_path / name).write_text("{", encoding="utf-8")
    removed = remove_stale_temporaries(tmp_path, "game-*.json")
    assert [p.name for p in removed] == stale
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".other.json.ab.ohhell-tmp",
        "game-2.json",
    ]


def test_a_sweep_removes_only_what_write_atomic_leaves(tmp_path: Path) -> None:
    """Only a dot, the name, a dot, mkstemp's eight random characters and ``.ohhell-tmp``:
    not vim's swap file of a record open in the editor, nor a user's hidden backups beside it
    (``.game-1.json.original`` has eight letters after the name, as mkstemp's part has: it
    was once taken for one and deleted)."""
    mine = [
        ".game-1.json.swp", ".game-1.json.orig", ".game-1.json.bak.abcdefgh", ".game-notes.txt",
        ".game-1.json.original", ".game-1.json.bak_2024", ".game-1.json.archived",
        ".game-1.json.ohhell-tmp", ".game-1.json.abcdefgh.ohhell-tmp.bak",
    ]  # fmt: skip
    for name in mine:
        (tmp_path / name).write_text("keep", encoding="utf-8")
    fd, name = tempfile.mkstemp(  # as write_atomic makes
        prefix=".game-2.json.", suffix=TEMPORARY_MARK, dir=tmp_path
    )
    os.close(fd)  # and a SIGKILL before its rename leaves
    leftover = Path(name)
    assert remove_stale_temporaries(tmp_path, "game-*.json") == [leftover]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(mine)


def test_a_failed_write_names_the_file_asked_for(tmp_path: Path) -> None:
    """Not the temporary file it goes through, which the user never named."""
    missing = tmp_path / "no" / "such" / "deals.json"
    with pytest.raises(FileNotFoundError) as error:
        write_atomic(missing, "x")
    assert error.value.filename == str(missing)
    folder = tmp_path / "report.json"
    folder.mkdir()  # a folder where the file goes: the rename fails
    with pytest.raises(IsADirectoryError) as error:
        write_atomic(folder, "x")
    assert error.value.filename == str(folder)
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary left


def test_a_folder_has_one_writer_at_a_time(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    with sole_writer(folder) as held:
        assert held == folder
        assert folder.is_dir()
        with (
            pytest.raises(InUseError, match="is in use by another process"),
            sole_writer(folder),
        ):
            pass  # pragma: no cover - never entered
        assert folder.is_dir()  # the refused holder removed nothing
    with sole_writer(folder):  # free again once the holder is done
        pass
    assert folder.is_dir()


def test_a_killed_holder_leaves_no_lock(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    with subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from ohhell.storage_files import sole_writer\n"
            f"with sole_writer({str(folder)!r}):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(120)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline() == "held\n"
            with pytest.raises(InUseError), sole_writer(folder):
                pass  # pragma: no cover - never entered
        finally:
            holder.kill()
            holder.wait(timeout=30)
    with sole_writer(folder):  # the system dropped the dead process's lock
        pass


def test_a_refused_command_leaves_no_folder_it_made(tmp_path: Path) -> None:
    made = tmp_path / "new"
    with pytest.raises(ValueError, match="bad input"), sole_writer(made):
        raise ValueError("bad input")
    assert not made.exists()

    written = tmp_path / "written"
    with pytest.raises(ValueError, match="stopped after writing"), sole_writer(written):
        (written / "journal.jsonl").write_text("{}\n", encoding="utf-8")
        raise ValueError("stopped after writing")
    assert (written / "journal.jsonl").exists()  # what was written stays

    deep = tmp_path / "a" / "b" / "c"
    with pytest.raises(ValueError, match="bad input"), sole_writer(deep):
        raise ValueError("bad input")
    assert not (tmp_path / "a").exists()  # nor the parents it made for it
    winding = tmp_path / "x" / ".." / "x2" / "y"
    with pytest.raises(ValueError, match="bad input"), sole_writer(winding):
        raise ValueError("bad input")
    assert not (tmp_path / "x").exists() and not (tmp_path / "x2").exists()

    existing = tmp_path / "existing"
    existing.mkdir()
    with pytest.raises(ValueError, match="bad input"), sole_writer(existing):
        raise ValueError("bad input")
    assert existing.is_dir()  # a folder it did not make is never removed


def test_a_file_is_not_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text("{}", encoding="utf-8")
    with (
        pytest.raises(NotADirectoryError, match=r"report\.json is a file, not a folder"),
        sole_writer(path),
    ):
        pass  # pragma: no cover - never entered
    assert path.read_text(encoding="utf-8") == "{}"


def test_a_forked_worker_closes_only_the_locked_file_not_what_took_its_number(
    tmp_path: Path,
) -> None:
    """A held descriptor closed without ``forget_held`` leaves its number behind; a pipe opened
    after may get that number, and a forked worker must not close the pipe for it."""
    handle = (tmp_path / "journal.jsonl").open("a+b")
    hold_in_process(handle.fileno(), tmp_path / "journal.jsonl")
    number = handle.fileno()
    handle.close()  # dropped without forget_held, as a journal left to the collector is
    read_end, write_end = os.pipe()
    try:
        if number not in (read_end, write_end):  # the number went elsewhere: move it back
            os.dup2(read_end, number)
            os.close(read_end)
            read_end = number
        release_inherited_locks()  # as a worker does
        os.fstat(read_end)  # still open
        os.fstat(write_end)
    finally:
        os.close(read_end)
        os.close(write_end)
    held = os.open(tmp_path / "held.jsonl", os.O_RDWR | os.O_CREAT)
    hold_in_process(held, tmp_path / "held.jsonl")
    release_inherited_locks()  # the locked file itself is closed
    with pytest.raises(OSError):
        os.fstat(held)


def test_read_limited_refuses_a_stream_past_the_limit_too() -> None:
    """Standard input (``replay -``) is held to the limit as a file is: read past it, not
    cut at it and taken for a whole input."""
    assert read_limited(io.BytesIO(b"x" * 10), 10, "game record") == b"x" * 10
    with pytest.raises(ValueError, match=r"larger than any game record \(over 10 bytes\)"):
        read_limited(io.BytesIO(b"x" * 11), 10, "game record")


def test_append_json_line_syncs_the_line_to_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal line is on disk, whole, when the call returns (a deal set reported saved)."""
    synced: list[bytes] = []
    real_fsync = os.fsync
    path = tmp_path / "journal.jsonl"

    def fsync(fd: int) -> None:
        synced.append(path.read_bytes())  # what the file holds when it is synced
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with path.open("ab") as handle:
        append_json_line(handle, {"a": 1})
        assert synced == [b'{"a":1}\n']


def test_a_stop_signal_leaves_no_folder_it_made(tmp_path: Path) -> None:
    """Ctrl-C (a ``KeyboardInterrupt``, not an ``Exception``) before anything is written takes
    back the folder too, as a refused command does."""
    made = tmp_path / "a" / "new"
    with pytest.raises(KeyboardInterrupt), sole_writer(made):
        raise KeyboardInterrupt
    assert not (tmp_path / "a").exists()


def test_a_link_to_a_folder_is_a_folder_to_write_into(tmp_path: Path) -> None:
    """Only a link to nothing is broken: ``--out`` may be a link to a folder that is there."""
    (tmp_path / "real").mkdir()
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "real")
    assert broken_link(link) is None
    with sole_writer(link) as held:
        write_atomic(held / "game-1.json", "{}", replace=False)
    assert (tmp_path / "real" / "game-1.json").read_text(encoding="utf-8") == "{}"
    (tmp_path / "gone").mkdir()
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "gone")
    (tmp_path / "gone").rmdir()
    assert (
        broken_link(dangling)
        == f"{dangling} is a symbolic link to {tmp_path / 'gone'}, which does not exist"
    )


def test_without_hard_links_a_file_there_is_still_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``replace=False`` on a file system without hard links (``os.link`` refused): the file
    is put in place by a rename, but only where nothing is there yet."""

    def no_link(src: object, dst: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_link)
    path = tmp_path / "deals.json"
    write_atomic(path, "first", replace=False)
    assert path.read_text(encoding="utf-8") == "first"
    with pytest.raises(FileExistsError) as error:
        write_atomic(path, "second", replace=False)
    assert error.value.filename == str(path)
    assert path.read_text(encoding="utf-8") == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["deals.json"]  # no temporary left


def test_a_folder_let_go_is_forgotten_by_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once :func:`sole_writer` is left, a worker forked later does not close the descriptor
    that took its number, even one open on the same folder."""
    numbers: list[int] = []
    real_hold = storage_files.hold_in_process

    def hold(fd: int, path: Path) -> None:
        numbers.append(fd)
        real_hold(fd, path)

    monkeypatch.setattr(storage_files, "hold_in_process", hold)
    with sole_writer(tmp_path / "out"):
        pass
    again = os.open(tmp_path / "out", os.O_RDONLY)  # the same folder, not held
    try:
        if again != numbers[0]:  # at the number the held descriptor had
            os.dup2(again, numbers[0])
            os.close(again)
            again = numbers[0]
        release_inherited_locks()  # as a worker forked now does
        assert stat.S_ISDIR(os.fstat(again).st_mode)  # still open
    finally:
        os.close(again)


def test_a_sweep_passes_by_a_temporary_file_a_live_writer_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tournaments saving one deal file at once: the second one's sweep removed the
    first one's temporary file while it was being written, and the first failed. A writer
    holds its temporary file locked; what a sweep removes is what no live process holds."""
    target = tmp_path / "deals.json"
    seen: list[list[str]] = []
    real_mkstemp = tempfile.mkstemp

    def mkstemp_then_sweep(*args: object, **kwargs: object) -> tuple[int, str]:
        made = real_mkstemp(*args, **kwargs)  # type: ignore[call-overload]
        if not seen:  # the first: a sweep takes it before the writer holds it
            removed = remove_stale_temporaries(tmp_path, "deals.json")
            seen.append([p.name for p in removed])
        return made  # type: ignore[no-any-return]

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_sweep)

    def sweep_while_held(chunks: list[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            held = sorted(p.name for p in tmp_path.glob(f".deals.json.*{TEMPORARY_MARK}"))
            seen.append(
                held
                + ["swept:"]
                + [p.name for p in remove_stale_temporaries(tmp_path, "deals.json")]
            )
            yield chunk

    write_atomic(target, sweep_while_held([b"[1,", b"2]"]))
    assert target.read_bytes() == b"[1,2]"
    assert len(seen[0]) == 1  # swept before it was held: the writer made another
    assert seen[1][1:] == seen[2][1:] == ["swept:"]  # held while written: passed by
    assert not list(tmp_path.glob(f"*{TEMPORARY_MARK}"))


def test_what_is_in_the_way_is_named_for_what_it_is(tmp_path: Path) -> None:
    """A pipe given as a folder was "a file", a folder at a journal's name "a device or a
    pipe", and a loop of links "a link to the next one, which does not exist"."""
    from ohhell.storage_files import kind_of

    pipe, loop = tmp_path / "pipe", tmp_path / "a"
    os.mkfifo(pipe)
    loop.symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(loop)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert [kind_of(tmp_path / name) for name in ("pipe", "a", "file", "nothing")] == [
        "a pipe (FIFO)",
        "a loop of symbolic links",
        "a file",
        "nothing",
    ]
    assert kind_of(tmp_path) == "a folder" and kind_of(Path("/dev/null")) == "a device"
    for folder, error, said in (
        (pipe, NotADirectoryError, r"pipe is a pipe \(FIFO\), not a folder$"),
        (loop, FileNotFoundError, r"a is a loop of symbolic links$"),
    ):
        with pytest.raises(error, match=said), sole_writer(folder):
            pass  # pragma: no cover - never entered
    assert broken_link(loop) == f"{loop} is a loop of symbolic links"
