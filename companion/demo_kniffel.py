"""The Wort-Kniffel rounds of ``companion demo``: rendered throws of the seven letter dice,
replayed through the camera, the dice reader, the rules, the hourglass and the phones.

A whole game (eleven rounds for two players) is rendered once with :mod:`vision.synth.dice`
into a recorded session (cached like the Mörder round). The replay camera holds each throw until
the table has taken the one before, so a slow machine never skips a throw. The simulated
players do what people at the table do: after their last throw one of them types the entry on
the phone (the best box for the throw, with its words), and when the camera misreads a die or
asks about one, someone puts it right on the phone after a moment.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KNIFFEL_PLAYERS = ("Ada", "Bruno")
ROUNDS = 11
SESSION_VERSION = 1
MOVING_S = 0.3  # recorded spacing of frames while the dice roll
STILL_S = 0.5  # and once they rest


@dataclass(frozen=True)
class Throw:
    """One recorded throw: the table's turn and throw, the dice at rest, and the index of the
    first recorded frame of the throw (the dice still rolling)."""

    turn: int
    throw: int
    roll: str
    first: int


def session_key(seed: int, size: tuple[int, int]) -> str:
    text = f"kniffel:{SESSION_VERSION}:{seed}:{size}:{KNIFFEL_PLAYERS}"
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def render_session(seed: int, folder: Path, size: tuple[int, int],
                   progress: Callable[[int, int], None] | None = None,
                   rounds: int = ROUNDS) -> Path:
    """Render the game's throws into ``folder`` (JPEG frames, timing and ``script.json``)."""
    from companion.games.kniffel.dice import DEFAULT_DICE
    from vision.sources import SESSION_FILE, SessionWriter
    from vision.synth.dice import iter_throws

    if (folder / SESSION_FILE).is_file():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    turns = rounds * len(KNIFFEL_PLAYERS)
    throws: list[dict[str, Any]] = []
    t, index = 0.0, 0
    with SessionWriter(partial) as writer:
        for frame in iter_throws(DEFAULT_DICE, seed, turns=turns, size=size):
            if frame.truth is None and (not throws or throws[-1]["rest"]):
                throws.append({"turn": frame.turn, "throw": frame.throw, "roll": None,
                               "first": index, "rest": False})
            if frame.truth is not None and not throws[-1]["rest"]:
                throws[-1].update(roll=str(frame.roll), rest=True)
                if progress:
                    progress(frame.turn + 1, turns)
            t += MOVING_S if frame.truth is None else STILL_S
            writer.add(frame.image, t)
            index += 1
    (partial / "script.json").write_text(json.dumps({
        "seed": seed, "players": list(KNIFFEL_PLAYERS),
        "throws": [{k: v for k, v in x.items() if k != "rest"} for x in throws]}), encoding="utf-8")
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    partial.rename(folder)
    return folder


def load_throws(folder: Path) -> list[Throw]:
    data = json.loads((folder / "script.json").read_text(encoding="utf-8"))
    return [Throw(int(x["turn"]), int(x["throw"]), str(x["roll"]), int(x["first"]))
            for x in data["throws"]]


def best_entry(view: dict[str, Any]) -> dict[str, Any]:
    """What a good player writes for the throw on the table: the best open box with its words,
    or a zero in the box worth least when nothing fits (the phone's ``enter``/``zero``)."""
    from companion.games.kniffel.dice import DEFAULT_DICE, Roll
    from companion.games.kniffel.pad import Box
    from companion.games.kniffel.solver import best_boxes, rank
    from companion.resources import resource

    me = view["players"][view["seat"]]
    open_boxes = [Box(b) for b, v in me["boxes"].items() if v is None]
    if view.get("roll") and not view.get("time_up"):
        roll = Roll.parse(view["roll"], DEFAULT_DICE)
        ranked = rank(best_boxes(roll, resource("lexicon"), open_boxes).values(), me["upper"])
        if ranked:
            best = ranked[0].entry
            return {"action": "enter", "box": best.box.value,
                    "words": [p.word for p in best.plays]}
    cheapest = min(open_boxes, key=lambda b: (not b.is_upper, list(Box).index(b)))
    return {"action": "zero", "box": cheapest.value}


class KniffelRound:
    """One demo game of Wort-Kniffel on the table (run on the director's thread)."""

    def __init__(self, runtime: Any, folder: Path, reader: Any, speed: float,
                 stop: threading.Event, say: Callable[[str], None]) -> None:
        self.runtime, self.folder, self.reader = runtime, folder, reader
        self.speed, self.stop, self.say = speed, stop, say
        self.throws = load_throws(folder)
        self._by_turn: dict[tuple[int, int], Throw] = {(x.turn, x.throw): x for x in self.throws}
        self._waiting_since: float | None = None
        from vision.sources import load_session

        self._frames = len(load_session(folder))

    def _hold_for(self, turn: int, rolls: int) -> int:
        """The frame to hold before: the table has ``rolls`` throws of ``turn``; the next throw
        of the recording may play, not the one after it. The last frame stays on the table
        (a recording that ended would take the camera's open question with it)."""
        nxt = self._by_turn.get((turn, rolls + 1)) or self._by_turn.get((turn + 1, 0))
        return self._frames if nxt is None else nxt.first

    def play(self, game_id: int, handed: Callable[[dict[str, Any]], bool]) -> bool:
        """Play until the game is over (True) or a phone takes the table (False)."""
        from vision.sources import ReplaySource

        rt = self.runtime
        snap = rt.snapshot()
        view = snap["view"] or {}
        turn, rolls = int(view.get("turn", 0)), int(view.get("rolls", 0))
        # a game carried on after a restart starts from the throw it had, never an older one
        start = self._by_turn.get((turn, max(rolls - 1, 0)))
        camera = ReplaySource(self.folder, speed=self.speed, start=start.first if start else 0)
        camera.hold(self._hold_for(turn, rolls))
        if not rt.attach_camera(camera, self.reader, game_id=game_id):
            return False
        patience = 1.0 / max(self.speed, 0.1)
        acted: tuple[int, int] | None = None
        while not self.stop.is_set():
            snap = rt.snapshot()
            view = snap["view"] or {}
            if snap["game_id"] != game_id or handed(snap):
                return False
            if view.get("finished"):
                return True
            turn, rolls = int(view["turn"]), int(view["rolls"])
            camera.hold(self._hold_for(turn, rolls))
            planned = self._by_turn.get((turn, rolls - 1)) if rolls else None
            if not self._put_right(snap, view, planned, patience):
                self.stop.wait(0.1)
                continue
            last_throw = rolls > 0 and (turn, rolls) not in self._by_turn
            if (last_throw or view.get("time_up")) and acted != (turn, rolls):
                acted = (turn, rolls)
                self.stop.wait(0.8 / max(self.speed, 0.1))  # a moment to find the words
                now = rt.snapshot()["view"] or {}
                if (now.get("turn"), now.get("rolls")) == (turn, rolls) and not now.get("finished"):
                    self._phone("writes the entry on the phone", best_entry(now))
            self.stop.wait(0.1)
        return True

    def _put_right(self, snap: dict[str, Any], view: dict[str, Any], planned: Throw | None,
                   patience: float) -> bool:
        """People look at the phone: they answer the camera's question, or correct a die the
        phone shows wrong, after a moment. True when the table has the throw as it lies."""
        prompt = snap.get("prompt")
        wrong = (planned is not None and view.get("roll") is not None
                 and sorted(str(view["roll"]).split()) != sorted(planned.roll.split()))
        if prompt is None and not wrong:
            self._waiting_since = None
            return True
        self._waiting_since = self._waiting_since or time.monotonic()
        if time.monotonic() - self._waiting_since < patience:
            return False
        self._waiting_since = None
        turn, rolls = int(view["turn"]), int(view["rolls"])
        now = self.runtime.snapshot()["view"] or {}
        if (now.get("turn"), now.get("rolls")) != (turn, rolls):
            return False  # the camera took a throw meanwhile: look again before tapping
        if prompt is not None:
            lying = self._by_turn.get((turn, rolls))
            if lying is not None:
                self._phone("answers the camera's question", {"action": "throw", "dice": lying.roll})
            return False
        assert planned is not None
        self._phone("corrects a die on the phone",
                    {"action": "throw", "dice": planned.roll, "fix": True})
        return False

    def _phone(self, what: str, body: dict[str, Any]) -> None:
        from companion.demo import on_phone

        detail = body.get("dice") or " ".join([body.get("box", ""), *body.get("words", [])])
        on_phone(self.runtime, self.say, f"{what}: {detail}", body)
