"""``companion search``: make a house and its sheet, check a played game, find the best play.

- ``companion search house --seed N [-o FILE]``: a house in the text format.
- ``companion search sheet (--seed N | --house FILE) -o house.pdf|house.svg|house.txt
  [--players ...]``: the printed sheet, or by the suffix ``.txt`` the house in the text format
  that ``check`` and ``best`` read (the same as ``house``), so one seed gives both.
- ``companion search check --house FILE --moves FILE [--json]``: referee a written game
  (format in :mod:`.record`); exit 0 when every move is legal, 1 at the first refused move.
- ``companion search best --house FILE (--moves FILE | --starts C7 E2) [--json]``: the best
  team score from the position (after the moves, if given), the proved bound, the best line
  and the hint for the player on turn.

Bad input (unreadable house, malformed moves file) is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.errors import InputError
from companion.games.base import Refused
from companion.games.search.errors import SearchError
from companion.games.search.events import Move
from companion.games.search.house import House
from companion.games.search.record import Record, parse_record, start_state
from companion.games.search.rules import (
    MAX_PLAYERS,
    DotRule,
    Options,
    Phase,
    SearchState,
    apply,
    legal,
    new_state,
    team_score,
)
from companion.inputs import check_names, read_text
from companion.stopwatch import Stopwatch

DEFAULT_SECONDS = 20.0


class SearchInputError(InputError, SearchError):
    """A file or argument the search commands cannot use."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "search", help="Search (Sackson): houses, sheets, referee and best play"
    )
    sub = parser.add_subparsers(dest="search_command", metavar="SUBCOMMAND")

    house = sub.add_parser("house", help="make a house from a seed, in the text format")
    house.add_argument("--seed", type=int, required=True)
    house.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    house.set_defaults(func=_house)

    sheet = sub.add_parser("sheet", help="print a sheet: the house and the score tracks")
    src = sheet.add_mutually_exclusive_group(required=True)
    src.add_argument("--seed", type=int, help="a new house from this seed")
    src.add_argument("--house", type=Path, help="a house in the text format")
    sheet.add_argument("-o", "--output", type=Path, required=True,
                       help="a .pdf or .svg sheet, or .txt: the house as text for check/best")
    sheet.add_argument(
        "--players", nargs="+", default=None, metavar="NAME",
        help="names for the score tracks (default: four unnamed tracks)",
    )
    sheet.set_defaults(func=_sheet)

    check = sub.add_parser("check", help="referee a written game, move by move")
    check.add_argument("--house", type=Path, required=True, help="a house in the text format")
    check.add_argument("--moves", type=Path, required=True, help="a moves file (docs/search.md)")
    check.add_argument("--json", action="store_true", help="one JSON object on stdout")
    _limits(check)
    check.add_argument(
        "--no-best", action="store_true", help="skip comparing with the best possible game"
    )
    check.set_defaults(func=_check)

    best = sub.add_parser("best", help="the best team score from a position")
    best.add_argument("--house", type=Path, required=True, help="a house in the text format")
    pos = best.add_mutually_exclusive_group(required=True)
    pos.add_argument("--moves", type=Path, help="a moves file: the position after its moves")
    pos.add_argument("--starts", nargs="+", metavar="ROOM", help="start rooms, one per player")
    best.add_argument(
        "--rule", choices=[r.value for r in DotRule], default=DotRule.MATCH.value,
        help="with --starts: the dot rule (default match)",
    )
    best.add_argument("--json", action="store_true", help="one JSON object on stdout")
    _limits(best)
    best.set_defaults(func=_best)


def _limits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time-limit", type=float, default=DEFAULT_SECONDS, metavar="SECONDS",
        help=f"stop searching after this long and report the bound proved (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument("--nodes", type=int, default=None, help="stop after this many positions")


# --- reading input ------------------------------------------------------------------------------


def _read(path: Path) -> str:
    # an InputError, not a SearchError, so the callers do not name the file twice
    return read_text(path)


def _load_house(path: Path) -> House:
    try:
        return House.parse(_read(path))
    except SearchError as exc:
        raise SearchInputError(f"{path}: {exc}") from None


def _load_record(path: Path) -> Record:
    try:
        return parse_record(_read(path))
    except SearchError as exc:
        raise SearchInputError(f"{path}: {exc}") from None


# --- house and sheet ----------------------------------------------------------------------------


def _house(args: argparse.Namespace) -> int:
    text = str(House.generate(args.seed))
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def _sheet(args: argparse.Namespace) -> int:
    from companion.games.search import sheet

    house = House.generate(args.seed) if args.house is None else _load_house(args.house)
    players = tuple(args.players) if args.players else ("",) * MAX_PLAYERS
    if len(players) > MAX_PLAYERS:
        raise SearchInputError(f"at most {MAX_PLAYERS} score tracks fit on a sheet")
    check_names(players, "--players")
    suffix = args.output.suffix.lower()
    if suffix not in (".pdf", ".svg", ".txt"):
        raise SearchInputError(
            f"{args.output}: the sheet is written as .pdf or .svg, the house as text as .txt")
    if suffix == ".txt":  # what `check --house` and `best --house` read
        args.output.write_text(str(house), encoding="utf-8")
        print(f"wrote {args.output} (the house as text)", file=sys.stderr)
        return 0
    title = f"seed {args.seed}" if args.seed is not None else args.house.name
    document = sheet.svg(house, players, title=title)
    if suffix == ".svg":
        args.output.write_text(document, encoding="utf-8")
    else:
        args.output.write_bytes(sheet_pdf(document))
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


# --- solving ------------------------------------------------------------------------------------


def _solve(state: SearchState, args: argparse.Namespace) -> tuple[Any, float]:
    from companion.games.search.solver import Progress, solve

    watch = Stopwatch(max(0.0, args.time_limit))
    live = sys.stderr.isatty()

    def report(p: Progress) -> None:
        if live:
            best = "-" if p.best is None else p.best
            sys.stderr.write(
                f"\rsearching  {p.nodes} positions  best {best}  "
                f"{watch.elapsed:.0f}s"
            )
            sys.stderr.flush()

    solution = solve(
        state,
        node_limit=args.nodes,
        should_stop=watch.expired,
        on_progress=report,
        check_every=1000,
    )
    seconds = watch.elapsed
    if live:
        sys.stderr.write("\n")
    verdict = "proved best" if solution.exact else "stopped early"
    print(
        f"searched {solution.nodes} positions in {seconds:.1f}s: {verdict}", file=sys.stderr
    )
    return solution, seconds


def _line(state: SearchState, rooms: Any) -> list[dict[str, Any]]:
    out = []
    for room in rooms:
        name = state.house.name(room)
        player = state.turn
        state = apply(state, Move(player, name)).state
        out.append({"player": player, "name": _name(state, player), "room": name})
    return out


def _name(state: SearchState, player: int) -> str:
    return state.players[player].name


def _best(args: argparse.Namespace) -> int:
    house = _load_house(args.house)
    if args.moves is not None:
        record = _load_record(args.moves)
        state = _play(house, record, strict=True)[0]
    else:
        try:
            rooms = [house.room(s) for s in args.starts]
        except SearchError as exc:
            raise SearchInputError(str(exc)) from None
        if not 2 <= len(rooms) <= MAX_PLAYERS:
            raise SearchInputError(f"give 2-{MAX_PLAYERS} start rooms, got {len(rooms)}")
        try:
            state = new_state(
                house, [f"P{i + 1}" for i in range(len(rooms))], Options(DotRule(args.rule)), rooms
            )
        except SearchError as exc:
            raise SearchInputError(str(exc)) from None
    solution, seconds = _solve(state, args)
    moves, way = legal(state)
    hint = None
    if moves and solution.line:
        hint = {
            "player": state.turn,
            "name": _name(state, state.turn),
            "room": house.name(solution.line[0]),
            "by": way.value,
        }
    report = {
        "tracks": list(state.tracks),
        "score_now": team_score(state.tracks),
        "over": state.phase is Phase.OVER,
        "best": solution.best,
        "bound": solution.bound,
        "exact": solution.exact,
        "stopped": solution.stopped,
        "nodes": solution.nodes,
        "seconds": round(seconds, 3),
        "hint": hint,
        "line": _line(state, solution.line),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    if state.phase is Phase.OVER:
        print(f"the game is over: team score {report['score_now']}")
        return 0
    span = (
        f"best team score {solution.best} (proved)"
        if solution.exact
        else f"best team score found {solution.best}; no game scores more than {solution.bound}"
    )
    print(span)
    if hint is not None:
        print(f"hint: {hint['name']} to {hint['room']} ({hint['by']})")
    print("line: " + " ".join(f"{m['name']}:{m['room']}" for m in report["line"]))
    return 0


# --- checking -----------------------------------------------------------------------------------


def _play(
    house: House, record: Record, strict: bool
) -> tuple[SearchState, SearchState, list[dict[str, Any]], dict[str, Any] | None]:
    """(position reached, start position, accepted moves, first refusal or None)."""
    try:
        start = start_state(house, record)
    except SearchError as exc:
        raise SearchInputError(str(exc)) from None
    state = start
    done: list[dict[str, Any]] = []
    for i, move in enumerate(record.moves, start=1):
        refused: Refused | None = None
        if move.player is not None:
            names = [p.name for p in state.players]
            if move.player not in names:
                raise SearchInputError(f"line {move.line}: no player named {move.player!r}")
            player = names.index(move.player)
        else:
            player = state.turn
        try:
            outcome = apply(state, Move(player, move.room))
        except Refused as exc:
            refused = exc
        if refused is not None:
            problem = {
                "move": i,
                "line": move.line,
                "room": move.room,
                "player": player,
                "code": refused.code,
                "reason": refused.reason,
            }
            if strict:
                raise SearchInputError(
                    f"line {move.line}: move {i} ({move.room}) refused: {refused.reason}"
                )
            return state, start, done, problem
        lost = [e.data["player"] for e in outcome.effects if e.kind == "turn_lost"]
        state = outcome.state
        done.append(
            {
                "move": i,
                "player": player,
                "room": move.room,
                "track": state.players[player].track,
                "lost_turns": lost,
            }
        )
    return state, start, done, None


def _check(args: argparse.Namespace) -> int:
    house = _load_house(args.house)
    record = _load_record(args.moves)
    state, start, done, problem = _play(house, record, strict=False)
    names = [p.name for p in state.players]
    report: dict[str, Any] = {
        "moves_accepted": len(done),
        "refused": problem,
        "tracks": dict(zip(names, state.tracks)),
        "score": team_score(state.tracks),
        "over": state.phase is Phase.OVER,
        "win": state.phase is Phase.OVER and team_score(state.tracks) > 0,
        "turn": None if state.phase is Phase.OVER else names[state.turn],
    }
    if problem is None and not args.no_best:
        solution, seconds = _solve(start, args)
        report["best"] = {
            "best": solution.best,
            "bound": solution.bound,
            "exact": solution.exact,
            "nodes": solution.nodes,
            "seconds": round(seconds, 3),
        }
    if args.json:
        print(json.dumps(report))
        return 1 if problem else 0
    for m in done:
        lost = f"  ({', '.join(names[q] for q in m['lost_turns'])} lose a turn)" if m["lost_turns"] else ""
        print(f"{m['move']:3d}. {names[m['player']]}: {m['room']}  track {m['track']}{lost}")
    if problem is not None:
        print(
            f"move {problem['move']} (line {problem['line']}), {names[problem['player']]} to "
            f"{problem['room']}: refused [{problem['code']}] {problem['reason']}"
        )
        return 1
    status = "game over" if report["over"] else f"{report['turn']} to move"
    tracks = ", ".join(f"{n} {t}" for n, t in report["tracks"].items())
    print(f"{status}; tracks: {tracks}; team score {report['score']}")
    if "best" in report:
        b = report["best"]
        if b["exact"]:
            print(f"best possible from these starts: {b['best']}")
        else:
            print(f"best found from these starts: {b['best']} (no game beats {b['bound']})")
    return 0


def sheet_pdf(document: str) -> bytes:
    """The SVG sheet as PDF bytes, drawn by cairo."""
    import cairosvg  # heavy, and only the sheet needs it

    data: bytes = cairosvg.svg2pdf(bytestring=document.encode("utf-8"))
    return data
