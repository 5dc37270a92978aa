"""The ``companion`` command: one front door, one sub-command group per tool.

Each group lives beside the code it drives and exposes ``register(subparsers)``, which adds its
parser and sets ``func`` (``args -> exit code``). Modules import heavy libraries (OpenCV,
Flask…) inside their handlers, so ``companion --help`` stays instant.

Errors people cause (a bad board, a missing file) are one line on stderr and exit code 2;
anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError
from companion.inputs import OneLineParser, excerpt

# Modules that add sub-commands, in the order ``--help`` lists them. A group's module is
# imported only if it exists, so a checkout in the middle of a change still runs.
_COMMAND_MODULES = (
    "companion.commands",  # run, demo, export: the table itself
    "companion.tools.moerder",
    "companion.tools.kniffel",
    "companion.tools.murdero",
    "companion.tools.serialkiller",
    "companion.tools.search",
    "vision.cli",
    "web.board.cli",  # board: the club's room, read from the broker
)

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="companion",
        description="Table Companion: referee, scorer and timer for games on a real table.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        # a group called without its sub-command: show the group's help, as a usage error
        _subparser(parser, args.command).print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = func(args)
    except (ValueError, OSError, CompanionError) as exc:
        # CompanionError: raised on purpose, with a message meant for a person (a pin map
        # the hardware refuses at start, an event log that cannot be opened)
        print(f"companion: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return code


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            chosen: argparse.ArgumentParser = action.choices[name]
            return chosen
    return parser


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{excerpt(str(exc.filename), 300)}: {exc.strerror or exc}"
    # a message may quote the input; a long quote must not make the line unreadable
    return excerpt(str(exc), 300) or type(exc).__name__


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
