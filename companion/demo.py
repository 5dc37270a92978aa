"""``companion demo``: a whole table with no hardware, the first thing a newcomer runs.

A game of Finde den Mörder is played out by the real rules (seeded), rendered frame by frame
with :mod:`vision.synth` into a recorded session (cached, so the second start is instant), and
replayed through the whole pipeline: the replay camera, the vision reader, the rules, the
event log in a temporary database, gpiozero's MockFactory panel and the web dashboard.

Simulated players sit at the table: they press their (mock) buttons as people would — a short
press for Next once their tile lies face up, a long press to claim MÖRDER when the word stands
on the table — so the console shows the LED and buzzer answering. When a phone takes over
(any action other than settings or answering a prompt), the demo hands the table to it: the
camera is detached and the players stop pressing. The phone gives the table back by leaving it
alone: once its game is over and no phone has acted for five minutes, the next round starts.
Rounds alternate between the camera games (Finde den Mörder and Wort-Kniffel,
:mod:`companion.demo_kniffel`). It loops until stopped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.moerder.board import CELLS, Board, Tile

_log = logging.getLogger(__name__)

PLAYERS = ("Ada", "Bruno", "Clara")
SCRIPT_VERSION = 2
# a plain, common tile face: the demo shows the pipeline, not the reader's hardest case
DEMO_STYLE = "LiberationSans-Regular"
TURN_S = 3.0  # seconds of recording per turn at speed 1
STILL_AT = (0.6, 1.2)  # still frames after the hand, within a turn
DEFAULT_SIZE = (960, 720)


@dataclass(frozen=True)
class Script:
    """A game played out by the rules: the board after each turn (0 = all face down)."""

    seed: int
    players: tuple[str, ...]
    boards: tuple[Board, ...]
    claim: bool  # the last turn ends in a valid claim (else: played to the last tile)


HIDDEN = "."


def _tile(ch: str) -> str | None:
    return None if ch == HIDDEN else ch


def play_out(seed: int, players: Sequence[str] = PLAYERS) -> Script:
    """The turns of one game: tiles in a seeded order, the victim's neighbours with it."""
    import numpy as np

    from companion.games.moerder import GAME, Next, TurnTile
    from companion.games.moerder.chain import find_chains

    rng = np.random.default_rng([seed, 11])
    pool = [t for t in (Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E) for _ in range(7)] + [Tile.VICTIM]
    order = [int(i) for i in rng.permutation(CELLS)]
    tiles = [pool[int(i)] for i in rng.permutation(CELLS)]
    state = GAME.new({"players": list(players), "first": 0})
    boards = [state.board]
    for cell in order:
        if state.board.cells[cell] is not None:
            continue
        state = GAME.apply(state, TurnTile(divmod(cell, 6), tiles[cell])).state
        while state.pending:
            c = state.pending[0]
            state = GAME.apply(state, TurnTile(c, tiles[c[0] * 6 + c[1]])).state
        boards.append(state.board)
        if find_chains(state.board, limit=1):
            return Script(seed, tuple(players), tuple(boards), True)
        if all(t is not None for t in state.board.cells):
            break
        state = GAME.apply(state, Next()).state
    return Script(seed, tuple(players), tuple(boards), False)


def choose_script(seed: int, min_turns: int = 12, max_turns: int = 24) -> Script:
    """The first game from ``seed`` on that is worth watching: a claim after a while, a victim."""
    for s in range(seed, seed + 500):
        script = play_out(s)
        victim = any(Tile.VICTIM in b.cells for b in script.boards)
        if script.claim and victim and min_turns <= len(script.boards) - 1 <= max_turns:
            return script
    return play_out(seed)


def render_session(
    script: Script,
    folder: Path,
    size: tuple[int, int] = DEFAULT_SIZE,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Render the script as a recorded session (JPEG frames + timing) into ``folder``.

    Each turn: a frame with a hand over the grid, then the table still (two frames, the
    second a copy: a still table looks the same twice). Reused when already complete.
    """
    from vision import synth
    from vision.sources import SESSION_FILE, SessionWriter

    if (folder / SESSION_FILE).is_file():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    style = demo_style()
    layout = synth.make_layout(style, script.seed, size)
    total = 2 * len(script.boards) - 1
    done = 0
    entries: list[dict[str, Any]] = []
    with SessionWriter(partial) as writer:
        for turn, board in enumerate(script.boards):
            t0 = turn * TURN_S
            if turn > 0:
                img, _ = synth.render_table(script.boards[turn - 1], style, script.seed,
                                            layout=layout, hand=True, frame=2 * turn)
                writer.add(img, t0)
                done += 1
                if progress:
                    progress(done, total)
            img, truth = synth.render_table(board, style, script.seed, layout=layout,
                                            frame=2 * turn + 1)
            for k, dt in enumerate(STILL_AT):
                writer.add(img, t0 + dt)
            entries.append({"turn": turn, "board": str(board),
                            "rotations": list(truth.rotations)})
            done += 1
            if progress:
                progress(done, total)
    (partial / "script.json").write_text(
        json.dumps({"seed": script.seed, "players": list(script.players), "turns": entries}),
        encoding="utf-8",
    )
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    partial.rename(folder)
    return folder


def demo_style() -> Any:
    from vision import synth

    styles = synth.styles("train")
    named = [s for s in styles if s.name.endswith("-" + DEMO_STYLE)]
    return named[0] if named else styles[0]


def first_frame(turn: int) -> int:
    """Index of the first recorded frame of ``turn`` (turn 0: two stills; then three a turn)."""
    return 0 if turn <= 0 else 2 + 3 * (turn - 1)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "companion" / "demo"


def session_key(script: Script, size: tuple[int, int]) -> str:
    text = f"{SCRIPT_VERSION}:{script.seed}:{size}:{[str(b) for b in script.boards]}"
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def on_phone(runtime: Any, say: Callable[[str], None], what: str, body: dict[str, Any]) -> bool:
    """Act on the phone as a person at the table would, saying so; False when refused."""
    from companion.games.base import Refused

    say(f"demo: someone at the table {what}")
    try:
        runtime.submit(body, source="demo")
    except (Refused, ValueError) as exc:
        say(f"demo: the table refused that: {exc}")
        return False
    return True


class Director:
    """Plays the simulated players and starts round after round (a thread of its own)."""

    def __init__(
        self,
        runtime: Any,
        script: Script,
        session: Path,
        reader: Any,
        factory: Any,
        speed: float = 1.0,
        pause_s: float = 6.0,
        rounds: int = 0,
        say: Callable[[str], None] = print,
        games: Sequence[str] = ("moerder",),
        kniffel: Path | None = None,
        give_back_s: float = 300.0,
    ) -> None:
        self.runtime = runtime
        self.script = script
        self.session = session
        self.reader = reader
        self.factory = factory
        self.speed = speed
        self.pause_s = pause_s
        self.rounds = rounds
        self.say = say
        self.games = tuple(games)
        self.kniffel = kniffel  # the recorded Wort-Kniffel session, when it plays
        # a phone that took the table gives it back by leaving it alone this long, its game over
        self.give_back_s = give_back_s
        self._phone_at: float | None = None
        self._seen: Any = None
        self.stop = threading.Event()
        self.round = 0
        self.game_id: int | None = None  # the game of the director's last round
        self._thread = threading.Thread(target=self._run, name="demo-director", daemon=True)

    def start(self) -> Director:
        self._thread.start()
        return self

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        try:
            sitting_back = False
            while not self.stop.is_set() and (self.rounds == 0 or self.round < self.rounds):
                if self._phone_plays():
                    if not sitting_back:
                        self.say("demo: a phone is playing; the players sit back until it ends")
                    sitting_back = True
                    self.stop.wait(0.2)  # the players sit back until the phone's game is over
                    continue
                sitting_back = False
                self.round += 1
                if self._play_round():
                    self.stop.wait(self.pause_s / max(self.speed, 0.1))
        except Exception:
            _log.exception("the demo director failed")

    def _phone_plays(self) -> bool:
        """A phone has the table: it started the game in progress (not the director), and that
        game is not over, or a phone acted within ``give_back_s``. A finished game is not a
        table given back: the people may look at it, undo, or start the next one."""
        snap = self.runtime.snapshot()
        self._note_phone(snap)
        if self.game_id is not None and snap["game_id"] != self.game_id and not snap["table"]["over"]:
            return True
        return self._phone_at is not None and time.monotonic() - self._phone_at < self.give_back_s

    def _note_phone(self, snap: dict[str, Any]) -> bool:
        """Remember when a phone last took a hand in the game; True when this one did."""
        if self._phone_took(snap) and snap.get("version") != self._seen:
            self._seen, self._phone_at = snap.get("version"), time.monotonic()
            return True
        return False

    def _play_round(self) -> bool:
        """One round; False when a phone took the table before it began."""
        from vision.sources import ReplaySource

        rt = self.runtime
        snap = rt.snapshot()
        if self._kniffel_turn(snap):
            return self._play_kniffel(snap)
        resumed = self.game_id is None and self._ours(snap)
        if not resumed:  # the first round plays the game the table started (or was playing)
            started = self._new_round(snap, "moerder",
                                      {"players": list(self.script.players), "first": 0})
            if started is None:
                return False
            snap = started
        game_id = self.game_id = snap["game_id"]
        self.say(f"demo: round {self.round} (game {game_id}): "
                 f"{', '.join(self.script.players)} sit down")
        camera = ReplaySource(self.session, speed=self.speed)
        # a round carried on after a restart starts from the turn it had reached
        camera.hold(first_frame(int(snap["view"].get("turn_number", 0)) + 1 if resumed else 1))
        # the camera watches this game only: the runtime takes it off when another one starts
        if not rt.attach_camera(camera, self.reader, game_id=game_id):
            self.say("demo: a phone started a game; the players sit back")
            return True  # the director sits back until that game is over, then deals again
        handed = False
        acted: tuple[int, int, Any] | None = None
        ended_at: float | None = None
        self._asked_at: float | None = None
        self._refusals = 0
        truth = "".join(HIDDEN if t is None else t.value for t in self.script.boards[-1].cells)
        patience = 0.8 / max(self.speed, 0.1)  # people look at the phone after a moment
        while not self.stop.is_set():
            snap = rt.snapshot()
            if snap["game_id"] != game_id:
                # A phone started another game (any game: its end need not be Mörder's
                # "over"), and the runtime took the camera off as it began. The round is
                # over; the director sits back until that game ends and then attaches the
                # camera to its next round, so the camera does not stay away for good.
                if not handed:
                    self.say("demo: a phone started a game; the players sit back")
                return True
            view = snap["view"] or {}
            if self._note_phone(snap) and not handed:
                handed = True
                self.say("demo: a phone took over the table; the players sit back")
                rt.detach_camera("the demo handed the table to a phone")
            if view.get("phase") == "over":
                return True
            if snap["camera"]["status"] == "none" and not handed and snap["camera"]["message"]:
                ended_at = ended_at or time.monotonic()
                if time.monotonic() - ended_at > 10 / max(self.speed, 0.1):
                    return True  # the recording ended without an end of game: next round
            if handed:
                self.stop.wait(0.2)
                continue
            # players turn the next tile only once the table has moved on to their turn
            camera.hold(first_frame(int(view.get("turn_number", 0)) + 1))
            board = str(view.get("board", "")).replace("/", "")
            wrong = [i for i, ch in enumerate(board) if ch != HIDDEN and ch != truth[i]]
            if not self._put_right(snap, view, board, wrong, truth, patience):
                return True  # the game and the table drifted apart: start over
            if view.get("phase") in ("playing", "final_look") and not wrong:
                key = (int(view.get("turn_number", 0)), int(view.get("turn", 0)), view.get("phase"))
                ready = view.get("tile_turned_this_turn") and not view.get("pending")
                if view.get("phase") == "final_look":
                    ready = True
                if ready and key != acted:
                    acted = key
                    self._press(int(view["turn"]), self._chain_on(view.get("board")))
            self.stop.wait(0.1)
        return True

    def _kniffel_turn(self, snap: dict[str, Any]) -> bool:
        """Whether this round is Wort-Kniffel: the games take turns, and a Wort-Kniffel game
        of the demo's players left unfinished (a restart) is carried on first."""
        from companion.demo_kniffel import KNIFFEL_PLAYERS

        if self.kniffel is None:
            return False
        if self.game_id is None and snap.get("game") == "kniffel" and not snap["table"]["over"]:
            return [p["name"] for p in snap["players"]] == list(KNIFFEL_PLAYERS)
        return self.games[(self.round - 1) % len(self.games)] == "kniffel"

    def _play_kniffel(self, snap: dict[str, Any]) -> bool:
        from companion.demo_kniffel import KNIFFEL_PLAYERS, KniffelRound

        assert self.kniffel is not None
        rt = self.runtime
        if not (self.game_id is None and snap.get("game") == "kniffel"
                and not snap["table"]["over"]):
            started = self._new_round(snap, "kniffel", {"players": list(KNIFFEL_PLAYERS)})
            if started is None:
                return False
            snap = started
        game_id = self.game_id = snap["game_id"]
        self.say(f"demo: round {self.round} (game {game_id}, Wort-Kniffel): "
                 f"{', '.join(KNIFFEL_PLAYERS)} sit down")
        played = KniffelRound(rt, self.kniffel, self.reader, self.speed, self.stop, self.say)
        if not played.play(game_id, self._note_phone):
            self.say("demo: a phone took over the table; the players sit back")
            rt.detach_camera("the demo handed the table to a phone")
        return True

    def _new_round(self, snap: dict[str, Any], game: str,
                   setup: dict[str, Any]) -> dict[str, Any] | None:
        """Start the round's game over the one looked at (a phone's game started meanwhile
        stays); None when a phone was first."""
        from companion.errors import InputError

        try:
            started: dict[str, Any] = self.runtime.submit(
                {"action": "new_game", "game": game, "replaces": snap["game_id"], "setup": setup},
                source="demo")
        except InputError as exc:
            self.round -= 1
            self.say(f"demo: a phone started a game first; the players sit back ({exc})")
            return None
        except TimeoutError:  # the table is busy (a resource loading): the next loop tries again
            self.round -= 1
            return None
        return started

    def _phone_took(self, snap: dict[str, Any]) -> bool:
        """A phone acted on the table other than to put the camera right."""
        last = snap.get("last") or {}
        return (last.get("source") == "web" and last.get("kind") == "effects"
                and last.get("action") not in ("resolve", "correct", "throw", "settings"))

    def _ours(self, snap: dict[str, Any]) -> bool:
        """The game in progress is this script's round: its game and players, not over, and
        every face-up tile where the script has it. So a demo killed mid-round and started
        again on the same log carries on with that round instead of abandoning it."""
        view = snap.get("view") or {}
        if snap.get("game") != "moerder" or view.get("phase") == "over":
            return False
        if [p["name"] for p in snap["players"]] != list(self.script.players):
            return False
        truth = "".join(HIDDEN if t is None else t.value for t in self.script.boards[-1].cells)
        board = str(view.get("board", "")).replace("/", "")
        return len(board) == len(truth) and all(ch in (HIDDEN, truth[i]) for i, ch in enumerate(board))

    def _put_right(self, snap: dict[str, Any], view: dict[str, Any], board: str,
                   wrong: list[int], truth: str, patience: float) -> bool:
        """The people at the table read the dashboard and put the camera right, after a
        moment: they answer its question, or correct a tile the phone shows wrong. False when
        the table refused them three times (the game and the table drifted apart)."""
        prompt = snap["prompt"]
        if prompt is None and not wrong:
            self._asked_at = None
            return True
        self._asked_at = self._asked_at or time.monotonic()
        if time.monotonic() - self._asked_at < patience:
            return True
        self._asked_at = None
        if prompt is None:
            i = wrong[0]
            body = {"action": "correct", "cell": list(divmod(i, 6)), "tile": _tile(truth[i])}
            self._phone(f"sees {board[i]} on the phone and corrects it", body,
                        {f"{i // 6},{i % 6}": truth[i]})
            return True
        # they tell the phone what lies on the table now: the question's cells and any tile
        # of this turn the game does not have yet (the camera missed it)
        turn = min(int(view.get("turn_number", 1)), len(self.script.boards) - 1)
        now = self.script.boards[turn].cells
        cells = {r * 6 + c for r, c in prompt["cells"]}
        cells |= {i for i, t in enumerate(now) if t is not None and board[i] == HIDDEN}
        answer = {f"{i // 6},{i % 6}": None if now[i] is None else now[i].value
                  for i in sorted(cells)}
        _log.debug("prompt %s at turn %s on %s", prompt, view.get("turn_number"), view.get("board"))
        if not self._phone("answers the camera's question", {"action": "resolve", "cells": answer},
                           answer):
            self._refusals += 1
            if self._refusals >= 3:
                self.say("demo: the table and the game disagree; starting over")
                return False
        return True

    def _phone(self, what: str, body: dict[str, Any], cells: dict[str, Any]) -> bool:
        shown = ", ".join(f"({k}) {v if v is not None else 'face down'}" for k, v in cells.items())
        return on_phone(self.runtime, self.say, f"{what}: {shown}", body)

    def _chain_on(self, board: Any) -> bool:
        from companion.games.moerder.chain import find_chains

        return isinstance(board, str) and bool(find_chains(Board.parse(board), limit=1))

    def _press(self, seat: int, claim: bool) -> None:
        """Press a seat's (mock) button like a person: a tap for Next, held for a claim."""
        self.stop.wait(0.3 / max(self.speed, 0.1))  # a moment to look at the table
        pins = self.runtime.pins
        pin = self.factory.pin(pins.buttons[seat])
        down = pins.long_press_s + 0.15 if claim else 0.1
        if pins.pull_up:
            pin.drive_low()
            time.sleep(down)
            pin.drive_high()
        else:
            pin.drive_high()
            time.sleep(down)
            pin.drive_low()
