"""The tournament's worker pool stopped in its awkward moments: each case runs in a process of
its own, so that a stop that hangs fails the test instead of holding the test run."""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import textwrap
from pathlib import Path

import pytest
from tests.conftest import run_script

from ohhell.tournament.duplicate import stops_deferred

# A worker killed midway through sending a result: a result over 16 KiB goes down the pipe in
# two writes, its length and then its bytes, and the worker below dies between the two (its
# length promises 100,000 bytes; 100 come). The executor's manager thread, reading the rest,
# waited for ever, and so did ``stop_pool``, holding the tournament's --out folder.
HALF_SENT = textwrap.dedent(
    """
    import os, signal, struct, sys, threading
    from concurrent.futures import ProcessPoolExecutor

    from ohhell.tournament.duplicate import stop_pool, worker_context

    def die_halfway_through_sending():
        frame = sys._getframe()
        while frame.f_code.co_name != "_process_worker":  # the executor's loop in the worker
            frame = frame.f_back
        writer = frame.f_locals["result_queue"]._writer
        os.write(writer.fileno(), struct.pack("!i", 100_000) + bytes(100))
        os.kill(os.getpid(), signal.SIGKILL)

    if __name__ == "__main__":
        pool = ProcessPoolExecutor(max_workers=2, mp_context=worker_context())
        pool.submit(die_halfway_through_sending)
        manager = pool._executor_manager_thread
        manager.join(timeout=2)  # it is reading the half-sent result: it never ends alone
        assert manager.is_alive(), "the manager thread did not wait for the rest"
        stopping = threading.Thread(target=stop_pool, args=(pool,), daemon=True)
        stopping.start()
        stopping.join(timeout=60)
        if stopping.is_alive():
            print("stop_pool waited for ever", flush=True)
            os._exit(3)
        print("stopped", flush=True)
    """
)


def test_a_pool_whose_worker_died_halfway_through_sending_a_result_stops(tmp_path: Path) -> None:
    done = _run(tmp_path, "half_sent", HALF_SENT)  # exits 3 if stop_pool waited for ever
    assert done.stdout == "stopped\n"


def _run(tmp_path: Path, name: str, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run as a script file (a fork server's workers import the functions of its main
    module from it), which must exit with status 0."""
    script = tmp_path / f"{name}.py"
    script.write_text(code)
    return run_script(str(script), timeout=180)  # an absolute path stays itself


# A stop (here SIGTERM, as a terminal's Ctrl-C or ``kill`` would be) that comes while a worker
# is being started: the fork server has been asked for it and forks it, but its number has not
# come back. Raised there, the stop left a worker no one knew of, which failed on its own
# (the pool's semaphores gone) and printed a traceback after the tournament's last words.
STOPPED_WHILE_STARTING = textwrap.dedent(
    """
    import os, signal
    from multiprocessing import forkserver

    from ohhell.engine import Rules, Schedule
    from ohhell.tournament import generate_deal_sets
    from ohhell.tournament.duplicate import Matchup, run_tournament, worker_context

    def stop(signum, frame):
        raise KeyboardInterrupt

    real_read_signed = forkserver.read_signed  # how a worker's number comes back
    sent = []

    def read_signed(fd):
        if not sent:  # the first worker asked for, not yet known
            sent.append(signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)
        return real_read_signed(fd)

    if __name__ == "__main__":
        assert worker_context().get_start_method() == "forkserver"
        signal.signal(signal.SIGTERM, stop)
        forkserver.read_signed = read_signed
        rules = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2))
        matchup = Matchup(rules=rules, candidate="heuristic", baseline="random", seed=5)
        try:
            run_tournament(matchup, generate_deal_sets(rules, 8, seed=11), jobs=2)
        except KeyboardInterrupt:
            print("stopped", flush=True)
    """
)


def test_a_stop_while_a_worker_starts_leaves_no_worker_behind(tmp_path: Path) -> None:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork server on this platform (Windows)")
    done = _run(tmp_path, "stopped_while_starting", STOPPED_WHILE_STARTING)
    assert done.stdout == "stopped\n"
    assert "Traceback" not in done.stderr, done.stderr  # communicate() waited for every copy


def test_a_stop_waits_for_the_section_then_acts() -> None:
    """:func:`stops_deferred` notes a stop that comes inside and hands it to the handler it
    would have met as the section ends, once however many came; nothing is lost."""
    heard: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: heard.append(signum))
    try:
        with stops_deferred():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
            assert heard == []
        assert heard == [signal.SIGTERM]
        signal.raise_signal(signal.SIGTERM)  # the handler is back
        assert heard == [signal.SIGTERM, signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, before)


@pytest.mark.usefixtures("default_stop_handlers")  # Ctrl-C not ignored (`pytest &` ignores it)
def test_a_stop_deferred_still_ends_the_section_with_its_exception() -> None:
    with pytest.raises(KeyboardInterrupt) as stopped, stops_deferred():
        signal.raise_signal(signal.SIGINT)
        raise OSError("the section's own error")
    assert isinstance(stopped.value.__context__, OSError)


def test_an_ignored_signal_stays_ignored_while_stops_are_deferred() -> None:
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stops_deferred():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            signal.raise_signal(signal.SIGHUP)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


# ``ohhell tournament`` starts the fork server with Ctrl-C blocked: Ctrl-C reaches the whole
# foreground group, and the fork server, importing what it preloads, and each worker, until
# its initializer ignores Ctrl-C, printed a KeyboardInterrupt traceback when it came early.
FORK_SERVER_MASK = textwrap.dedent(
    """
    import signal
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import forkserver

    from ohhell.tournament.duplicate import start_fork_server, worker_context

    def blocked():
        return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])

    if __name__ == "__main__":
        start_fork_server()
        assert not blocked(), "Ctrl-C still blocked in the main process"
        server = forkserver._forkserver._forkserver_pid
        with open(f"/proc/{server}/status") as status:
            masks = dict(line.split(":\\t") for line in status.read().splitlines())
        assert int(masks["SigBlk"], 16) & (1 << (signal.SIGINT - 1)), masks["SigBlk"]
        with ProcessPoolExecutor(max_workers=1, mp_context=worker_context()) as pool:
            assert pool.submit(blocked).result(), "a worker it forked hears Ctrl-C"
        start_fork_server()  # running already: left as it is
        assert forkserver._forkserver._forkserver_pid == server
        print("blocked", flush=True)
    """
)


def test_the_fork_server_and_its_workers_are_born_deaf_to_ctrl_c(tmp_path: Path) -> None:
    if not Path("/proc/self/status").exists():
        pytest.skip("reads a process's signal mask from /proc (Linux)")
    done = _run(tmp_path, "fork_server_mask", FORK_SERVER_MASK)
    assert done.stdout == "blocked\n"
