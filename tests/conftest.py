"""Shared test helpers (import them with ``from tests.conftest import ...``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def in_ci() -> bool:
    """Whether the tests run in CI: ``CI`` set to true, 1 or yes (as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require(module: str) -> None:
    """Import ``module`` or skip the calling test (or, called at a module's top, the module)
    with a clear reason, except in CI (:func:`in_ci`), where a missing test dependency is an
    error (no test is silently skipped in CI)."""
    try:
        __import__(module)
    except ImportError as exc:
        if in_ci():
            raise
        pytest.skip(
            f"{module} is not installed ({exc}); install the extra: pip install -e '.[dev]'",
            allow_module_level=True,
        )


try:
    from hypothesis import settings as _hypothesis_settings
except ImportError:  # pragma: no cover - the property tests require it themselves
    pass
else:  # a property failure in CI prints the blob that replays it (@reproduce_failure)
    _hypothesis_settings.register_profile("ci", print_blob=True)
    if in_ci():
        _hypothesis_settings.load_profile("ci")


def _fail_skip_in_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every test must run: {report.longrepr}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> Iterator[None]:
    """In CI every test runs: a skip from any source (a bare ``pytest.skip``, a ``skipif``, an
    ``importorskip``) fails the run there, saying why it would have been skipped. (A wrapper,
    so that the report is a failure before the session counts it.)"""
    _fail_skip_in_ci(report)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_collectreport(report: pytest.CollectReport) -> Iterator[None]:
    """The same for a whole module skipped while it is collected."""
    _fail_skip_in_ci(report)
    return (yield)


def run_script(
    path: str, *args: str, needs: Sequence[str] = (), timeout: float = 300, expect: int = 0
) -> subprocess.CompletedProcess[str]:
    """Run a project script (``benchmarks/x.py``, ``examples/y.py``) with this Python and check
    its exit status; ``needs`` lists the modules it requires (see :func:`require`)."""
    for module in needs:
        require(module)
    completed = subprocess.run(
        [sys.executable, str(ROOT / path), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert completed.returncode == expect, completed.stderr
    return completed


def run_python(code: str, *, timeout: float = 120) -> str:
    """Run ``code`` in a fresh interpreter (this Python, nothing imported yet); its stdout,
    stripped. The test fails with the interpreter's stderr if the code raises."""
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=False
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.strip()


def run_benchmark(
    path: str, tmp_path: Path, *args: str, needs: Sequence[str] = (), timeout: float = 300
) -> tuple[str, dict[str, Any]]:
    """Run a benchmark's ``--quick`` smoke version; its printed report and its JSON figures."""
    figures = tmp_path / "figures.json"
    completed = run_script(
        path, "--quick", *args, "--json", str(figures), needs=needs, timeout=timeout
    )
    return completed.stdout, json.loads(figures.read_text(encoding="utf-8"))


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command (:mod:`ohhell.cli.stopping`)."""


def signals_at_their_defaults() -> None:
    """For ``preexec_fn``: the stop signals at their defaults in the child, as in a command
    started at a terminal. The tests may run where they are ignored (``nohup`` ignores SIGHUP,
    a non-interactive shell's background job ``pytest ... &`` ignores SIGINT), and a child
    inherits that, and an ignored signal stays ignored by the commands."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


@pytest.fixture
def default_stop_handlers() -> Iterator[None]:
    """The stop signals at Python's defaults in this process for the test (Ctrl-C raising
    ``KeyboardInterrupt``), whatever the tests were started under; restored after."""
    before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


@contextmanager
def running_until_saved(command: Sequence[str], journal: Path) -> Iterator[subprocess.Popen[str]]:
    """``command`` in its own process group (SIGINT as at a terminal), yielded once its
    ``journal`` holds a header and two saved lines; killed with its group on leaving if it is
    still running. The stop tests send it a signal with ``os.killpg``."""
    process = subprocess.Popen(
        list(command),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=signals_at_their_defaults,
    )
    try:
        while not (journal.exists() and journal.read_bytes().count(b"\n") >= 3):
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
        with process:  # closes the pipes that a test which only waited left open
            pass
