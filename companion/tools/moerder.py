"""``companion moerder``: analyse a Finde den Mörder table, or measure the solver's speed.

    companion moerder analyse --board 'MÖRDER/....../....../....../....../.....X' [--json]
    companion moerder analyse --batch boards.txt        # one board a line -> JSON Lines
    companion moerder bench [--json]

A board is six rows top to bottom joined by ``/``, six tiles each: ``M Ö R D E`` (``O`` for
``Ö``), ``X`` the victim, ``.`` face down. In the drawing, the chains and error messages a cell
is named as on the phone: column letter, then row number (``A1`` top left, ``F6`` bottom
right); in JSON cells are ``[row, col]`` from 0. p_end is seeded (``--seed``), so the same
board gives the same figures, alone or in a batch.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from companion.errors import InputError
from companion.games.moerder.board import SIZE, Board, BoardError, cell_name
from companion.inputs import read_text

if TYPE_CHECKING:
    from companion.games.moerder.solver import Analysis

DEFAULT_SEED = 0
SE_RANGE = (1e-4, 0.5)  # --se: 1e-4 takes some 25 million draws, a few seconds
MAX_BOARDS, MAX_POSITIONS = 1_000_000, 1000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "moerder",
        help="Finde den Mörder: analyse a table, measure the solver",
        description="Finde den Mörder: chains on a table, whether one can still appear, "
        "and the chance that one stands at the end (the quitter's bet is 1 - p_end).",
    )
    sub = parser.add_subparsers(dest="moerder_command", metavar="COMMAND")

    analyse = sub.add_parser(
        "analyse",
        help="chains, possible and p_end for a board",
        description="Analyse a board given as six rows joined by '/' (M Ö/O R D E, X victim, "
        ". face down).",
    )
    source = analyse.add_mutually_exclusive_group(required=True)
    source.add_argument("--board", help="the board in notation, e.g. 'MÖRDER/....../...'")
    source.add_argument(
        "--batch",
        metavar="FILE",
        help="a file with one board a line ('-' for stdin); prints one JSON object a line",
    )
    analyse.add_argument("--json", action="store_true", help="print one JSON object")
    analyse.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed for p_end sampling")
    analyse.add_argument(
        "--se", type=_se, default=0.005,
        help=f"target standard error of p_end ({SE_RANGE[0]}-{SE_RANGE[1]})"
    )
    analyse.set_defaults(func=_analyse)

    bench = sub.add_parser(
        "bench",
        help="measure chain checks per second and the time to p_end",
        description="Measure full-table chain checks per second and the time for p_end to "
        "reach a standard error of 0.005 (the figures bench/moerder_bench.py prints).",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--boards", type=_up_to(MAX_BOARDS), default=200_000,
                       help=f"tables per run (at most {MAX_BOARDS:,}: some 320 bytes each)")
    bench.add_argument("--positions", type=_up_to(MAX_POSITIONS), default=20,
                       help=f"mid-game tables (at most {MAX_POSITIONS})")
    bench.set_defaults(func=_bench)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be above 0")
    return value


def _se(text: str) -> float:
    """A standard error the sampler can reach: below the range it needs more draws than a
    float counts (1e-300 divided by zero); above it p_end says nothing."""
    value = _positive_float(text)
    if not SE_RANGE[0] <= value <= SE_RANGE[1]:
        raise argparse.ArgumentTypeError(f"must be {SE_RANGE[0]}-{SE_RANGE[1]}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _up_to(most: int) -> Callable[[str], int]:
    """A whole number 1..``most``: a bench's sizes are held in memory at once."""
    def parse(text: str) -> int:
        value = _positive_int(text)
        if value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most:,}")
        return value
    return parse


def _analyse(args: argparse.Namespace) -> int:
    import numpy as np

    from companion.games.moerder.solver import analyse

    if args.board is not None:
        board = Board.parse(args.board)
        report = analyse(board, np.random.default_rng(args.seed), target_se=args.se)
        if args.json:
            print(json.dumps(report.to_json(), ensure_ascii=False))
        else:
            print(draw(report))
        return 0
    return _batch(args.batch, args.seed, args.se, sys.stdout)


def _batch(name: str, seed: int, se: float, out: TextIO) -> int:
    import numpy as np

    from companion.games.moerder.solver import analyse
    from companion.progress import progress

    boards = read_batch(name)
    for board in progress(boards, total=len(boards), label="boards"):
        report = analyse(board, np.random.default_rng(seed), target_se=se)
        out.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    out.flush()
    return 0


def read_batch(name: str) -> list[Board]:
    """Every board of a batch file, checked before any is analysed; blank lines are skipped.

    Raises :class:`InputError` naming the line of the first bad board.
    """
    lines = read_text(name).splitlines()
    boards = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            boards.append(Board.parse(line))
        except BoardError as exc:
            raise InputError(f"{name}: line {number}: {exc}") from None
    return boards


def draw(report: Analysis) -> str:
    """The board in the terminal, chain tiles in brackets, then the figures."""
    board = report.board
    marked = {cell for chain in report.chains for cell in chain}
    lines = ["     " + "".join(f" {'ABCDEF'[c]} " for c in range(SIZE))]
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            ch = _char(board, (r, c))
            row.append(f"[{ch}]" if (r, c) in marked else f" {ch} ")
        lines.append(f"  {r + 1}  " + "".join(row))
    lines.append("")
    n = len(report.chains)
    lines.append(f"chains: {n}" + ("" if n else " (none on the table)"))
    for i, chain in enumerate(report.chains[:10], start=1):
        lines.append(
            f"  {i}. "
            + " · ".join(f"{_char(board, cell)} {cell_name(cell)}" for cell in chain)
        )
    if n > 10:
        lines.append(f"  … and {n - 10} more")
    if report.chains:
        lines.append("possible: yes (a chain stands on the table)")
    elif report.possible:
        lines.append("possible: yes (a chain can still appear)")
    else:
        lines.append("possible: no (no chain can appear any more)")
    est = report.estimate
    how = "exact" if est.exact else f"± {est.se:.4f} standard error, {est.samples:,} sampled deals"
    lines.append(f"p_end: {est.p:.4f} ({how}); the quitter's bet wins with {1 - est.p:.4f}")
    rem = report.remaining
    letters = "  ".join(f"{k} {v}" for k, v in rem.items() if k != "X")
    lines.append(f"unseen: {letters}  victim {rem['X']}")
    return "\n".join(lines)


def _char(board: Board, cell: tuple[int, int]) -> str:
    tile = board[cell]
    return "·" if tile is None else tile.value


def _bench(args: argparse.Namespace) -> int:
    from companion.tools.moerder_bench import format_report, run

    live = sys.stderr.isatty()

    def step(what: str) -> None:
        if live:
            sys.stderr.write(f"\rbench  {what:<30}")
            sys.stderr.flush()

    figures = run(seed=args.seed, boards=args.boards, positions=args.positions, step=step)
    if live:
        sys.stderr.write("\r" + " " * 40 + "\r")
    if args.json:
        print(json.dumps(figures))
    else:
        print(format_report(figures))
    return 0
