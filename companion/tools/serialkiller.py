"""``companion serialkiller replay GAME.json [--json]``: a game's events, its states and winner.

GAME.json holds the set-up and the event log (``companion.games.serialkiller.rules`` lists the
events)::

    {"setup": {"players": ["Ann", "Bob"], "first": null},
     "events": [{"type": "first_draw", "player": "Ann", "card": "KH"}, ...]}

An ``undo`` event takes back the event before it, as at the table. Example:
``docs/examples/serialkiller-game.json``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import InputError
from companion.games.base import AnyEffect, Refused, RuleError, Timeline, Undo
from companion.games.serialkiller import GAME, SKState, view
from companion.games.serialkiller.errors import SerialKillerError
from companion.inputs import load_json, read_text


class ReplayError(SerialKillerError, InputError):
    """A GAME.json that cannot be replayed: unreadable, or an event the rules refuse."""


def register(subparsers: Any) -> None:
    group = subparsers.add_parser("serialkiller", help="Serial Killer: replay a recorded game")
    sub = group.add_subparsers(dest="serialkiller_command", metavar="COMMAND")
    replay = sub.add_parser("replay", help="a game's events -> its states and the winner")
    replay.add_argument("game", metavar="GAME.json", help="set-up and events ('-' for stdin)")
    replay.add_argument("--json", action="store_true", help="print JSON for machines")
    replay.set_defaults(func=_replay)


def replay(data: Any, where: str = "game") -> list[tuple[Any, SKState, tuple[AnyEffect, ...]]]:
    """Fold the log; each step is (event, state after it, effects). Raises :class:`ReplayError`."""
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise ReplayError(f"{where}: expected an object with 'setup' and a list of 'events'")
    if "game" in data:  # a table's export (`companion export`, the history's Export JSON)
        if data["game"] != GAME.name:
            raise ReplayError(f"{where}: an export of {data['game']!r}, not of Serial Killer")
        events = [e.get("event") if isinstance(e, dict) and "event" in e else e for e in data["events"]]
        data = {"setup": data.get("setup", {}), "events": events}
    unknown = set(data) - {"setup", "events"}
    if unknown:
        raise ReplayError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    try:
        timeline = Timeline.start(GAME, data.get("setup", {}))
    except RuleError as exc:
        raise ReplayError(f"{where}: setup: {exc}") from None
    steps: list[tuple[Any, SKState, tuple[AnyEffect, ...]]] = []
    for n, raw in enumerate(data["events"], start=1):
        try:
            event = GAME.decode(raw)
            timeline, effects = timeline.push(event)
        except Refused as exc:
            raise ReplayError(
                f"{where}: event {n} {_describe(raw)}: refused ({exc.code}): {exc}"
            ) from None
        except RuleError as exc:
            raise ReplayError(f"{where}: event {n}: {exc}") from None
        if isinstance(event, Undo):
            steps.pop()  # the undone step never happened; Timeline already dropped its state
            continue
        steps.append((event, timeline.state, effects))
    return steps


def _describe(raw: Any) -> str:
    if isinstance(raw, dict):
        rest = " ".join(f"{k}={v}" for k, v in raw.items() if k != "type")
        return f"({raw.get('type')}{' ' + rest if rest else ''})"
    return repr(raw)


def _effect_text(effect: AnyEffect) -> str:
    d = effect.data
    texts = {
        "first_tie": lambda: f"tie for first: {', '.join(d['players'])} draw again",
        "first_player": lambda: f"{d['player']} goes first",
        "turn": lambda: f"turn {d['turn']}: {d['name']} draws {d['draws']}",
        "kill": lambda: f"{d['player']} kills: {d['card']} into grave {d['grave']}",
        "missed": lambda: f"{d['player']} misses: {d['card']} into grave {d['grave']}",
        "corpse_held": lambda: f"{d['player']} holds the corpse {d['card']}",
        "informant_held": lambda: f"{d['player']} holds the informant {d['card']}",
        "corpse_buried": lambda: f"{d['player']} buries {d['card']} in grave {d['grave']}",
        "informed": lambda: f"{d['player']} informs on {d['target']} (grave {d['grave']})",
        "discredited": lambda: f"{d['player']} discredits a clue, back to {d['clues']}",
        "clue_found": lambda: f"police find a clue on {d['player']} ({d['why']}): {d['clues']} left",
        "arrested": lambda: f"{d['player']} is ARRESTED",
        "reshuffle": lambda: f"all graves full: {d['cards']} cards reshuffled",
        "winner": lambda: f"{d['name']} is the last killer on the loose and WINS",
    }
    make = texts.get(effect.kind)
    return make() if make else effect.kind


def _replay(args: argparse.Namespace) -> int:
    text = read_text(args.game, max_line=None)
    where = "stdin" if args.game == "-" else args.game
    try:
        data = load_json(text, where)
    except InputError as exc:
        raise ReplayError(str(exc)) from None
    steps = replay(data, where)
    final = steps[-1][1] if steps else GAME.new(data.get("setup", {}))
    if args.json:
        out = {
            "states": [
                {
                    "event": GAME.encode(event),
                    "effects": [{"kind": e.kind, **e.data} for e in effects],
                    "state": view(state),
                }
                for event, state, effects in steps
            ],
            "final": view(final),
            "winner": final.winner,
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for n, (event, _state, effects) in enumerate(steps, start=1):
        said = "; ".join(_effect_text(e) for e in effects if e.kind != "signal") or "-"
        body = " ".join(str(v) for k, v in GAME.encode(event).items() if k != "type" and v is not None)
        print(f"{n:4d}  {GAME.encode(event)['type']:<10} {body:<8} {said}")
    v = view(final)
    print()
    for grave in v["graves"]:
        print(
            f"grave {grave['number']}: {' '.join(grave['cards']) or '(empty)'}{'' if grave['open'] else '  [full]'}"
        )
    for p in v["players"]:
        status = "arrested" if p["arrested"] else f"{p['clues']} clues"
        held = f", holds {' '.join(p['held'])}" if p["held"] else ""
        print(f"{p['name']}: {status}{held}")
    print(f"winner: {final.winner}" if final.winner else f"no winner yet ({final.phase.value})")
    return 0
