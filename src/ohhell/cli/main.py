"""The ``ohhell`` command. Each subcommand lives in its own module with ``register(subparsers)``.

Errors the project raises on purpose (:class:`~ohhell.engine.OhHellError`) and file errors are
turned into one line on stderr and a non-zero exit status here, at one boundary: never a
traceback.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from ohhell import __version__
from ohhell.cli.stopping import Stop, stopped_by_signals
from ohhell.cli.streams import StandardOutputError, say, standard_output_named

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_ERROR = 1
EXIT_BROKEN_PIPE = 128 + 13
"""A reader that went away (``| head``): the status of a process that SIGPIPE ends, as for
``cat``, so that ``set -o pipefail`` does not take it for a bad input's 1."""


def reader_gone() -> int:
    """After a ``BrokenPipeError`` on standard output: point it at /dev/null, so that flushing
    it at exit does not fail again, and give the status to exit with,
    :data:`EXIT_BROKEN_PIPE`."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_BROKEN_PIPE


def subcommands() -> tuple[ModuleType, ...]:
    """The commands' modules, imported when :func:`main` runs, not with this module: importing
    them (the bots, the engine) takes a good part of a second, and a Ctrl-C then must end the
    command quietly, as it does later, not with a traceback from the import."""
    from ohhell.cli import advise, replay, rules_cmd, simulate, tournament

    return (simulate, replay, rules_cmd, tournament, advise)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, but what it prints to standard output (``--help``, ``--version``)
    is written as everything else the commands print: argparse drops a failed write without a
    word, so ``ohhell --help > /dev/full`` ended with 0 having printed nothing."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        stdout = sys.stdout
        if message and id(file) == id(stdout):  # (``is`` would narrow stdout's type)
            if stdout is None:  # started with >&-
                raise StandardOutputError(errno.EBADF, "it is closed: >&-")
            stdout.write(message)
            stdout.flush()  # here, where it is reported, not at exit
        else:
            super()._print_message(message, file)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ohhell",
        description="Oh Hell, the trick-taking card game: simulate, replay and check games.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"ohhell {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in subcommands():
        module.register(subparsers)
    for command in subparsers.choices.values():  # its own usage for its own errors (below)
        command.set_defaults(command_parser=command)
        command.allow_abbrev = False  # --see is not --seed: a new option could take it over
    return parser


def _printable_anywhere() -> None:
    """Under a terminal whose encoding cannot show some text (a Latin-1 locale and a seat
    named with an emoji), print an escape (``\\U0001f600``) for it instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _without_stderr() -> None:
    """Started without standard error (``2>&-``, which Python shows as ``sys.stderr is
    None``), drop the messages: ``print(file=None)`` would send them to standard output,
    into what another program reads."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - open for the life of the process


def main(argv: Sequence[str] | None = None) -> int:
    _without_stderr()
    _printable_anywhere()
    stop = Stop()  # SIGTERM and SIGHUP end any command as Ctrl-C does, from its first step:
    with stopped_by_signals(stop):  # importing the commands takes a good part of a second
        try:
            parser = build_parser()  # imports the commands
            with standard_output_named():  # --help and --version print
                args, unknown = parser.parse_known_args(argv)
        except KeyboardInterrupt:
            say(f"ohhell: {stop.how}")
            return stop.exit_status
        except BrokenPipeError:
            return reader_gone()
        except StandardOutputError as exc:
            say(f"ohhell: error: cannot write to standard output ({exc.strerror})")
            return EXIT_ERROR
        if unknown:  # the command's usage, not the top-level one, says what it takes
            args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        return _run(args, stop)


def _run(args: argparse.Namespace, stop: Stop) -> int:
    """The command ``args`` names, its errors said in one line (see the module docstring)."""
    from ohhell.engine import OhHellError  # imported with the commands, just now

    if sys.stdout is None:  # started with >&-: a game played and recorded, never reported
        say(
            f"ohhell {args.command}: error: standard output is closed (>&-): nothing could be"
            " printed; redirect it to /dev/null to discard what the command prints"
        )
        return EXIT_ERROR
    try:
        with standard_output_named():
            code: int = args.run(args)
    except OhHellError as exc:
        say(f"ohhell {args.command}: error: {exc}")
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader went away (``ohhell replay --json game.json | head``): not worth a message.
        return reader_gone()
    except StandardOutputError as exc:
        say(f"ohhell {args.command}: error: cannot write to standard output ({exc.strerror})")
        return EXIT_ERROR
    except OSError as exc:
        say(
            f"ohhell {args.command}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(
                ": "
            )
        )
        return EXIT_ERROR
    except KeyboardInterrupt:
        say(f"ohhell {args.command}: {stop.how}")
        return stop.exit_status
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
