"""Solver answers a game's page asks for (a hint, the end-of-game review), off the request
thread.

``GET /api/analysis/<kind>`` works on the table's current game: the game's analyser (a pure,
node-limited function of the view) runs on one background worker per app, results are kept
per position, and a page gets ``200`` with the answer, or ``202 {"status": "working"}`` when
it is not ready within a short wait (the page asks again). So a slow search never holds a
waitress thread for long, and many phones asking about the same position share one search.
Games register here by name, like the history advisors in :mod:`web.replay`.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify

from companion.games.base import RuleError
from web.errors import json_error
from web.state import web_state

bp = Blueprint("analysis", __name__, url_prefix="/api/analysis")

EXTENSION = "companion.analysis"
WAIT_S = 1.5  # how long a request waits for its answer before saying "working"
KEEP = 32  # answers kept (positions); the oldest goes first

# (view) -> key of what the answer depends on; (view) -> the JSON answer
Analyser = tuple[Callable[[Mapping[str, Any]], str], Callable[[Mapping[str, Any]], dict[str, Any]]]


def _search() -> dict[str, Analyser]:
    from companion.games.search import advice

    def hint(view: Mapping[str, Any]) -> dict[str, Any]:
        return advice.hint_json(advice.state_from_view(view))

    def review(view: Mapping[str, Any]) -> dict[str, Any]:
        return advice.review_json(advice.state_from_view(view))

    return {"hint": (advice.position_key, hint), "review": (advice.position_key, review)}


_GAMES: dict[str, Callable[[], dict[str, Analyser]]] = {"search": _search}


class Worker:
    """One daemon thread doing the searches in turn; futures kept per key."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Future[dict[str, Any]], Callable[[], dict[str, Any]]]] = (
            queue.Queue()
        )
        self._done: OrderedDict[str, Future[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None  # started by the first question

    def _run(self) -> None:
        while True:
            future, work = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(work())
            except Exception as exc:  # the page gets the reason; the worker lives on
                future.set_exception(exc)

    def submit(self, key: str, work: Callable[[], dict[str, Any]]) -> Future[dict[str, Any]]:
        with self._lock:
            future = self._done.get(key)
            if future is not None:
                self._done.move_to_end(key)
                return future
            future = Future()
            self._done[key] = future
            while len(self._done) > KEEP:
                self._done.popitem(last=False)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="analysis", daemon=True)
                self._thread.start()
        self._jobs.put((future, work))
        return future


def install(app: Flask) -> None:
    app.extensions[EXTENSION] = Worker()
    app.register_blueprint(bp)


@bp.get("/<kind>")
def analyse(kind: str) -> Any:
    snap = web_state().runtime.snapshot()
    game, view = snap.get("game"), snap.get("view")
    make = _GAMES.get(game) if isinstance(game, str) else None
    if make is None or not isinstance(view, Mapping):
        return json_error(404, "no_analysis", f"the game {game!r} has no analysis")
    analysers = make()
    if kind not in analysers:
        return json_error(404, "no_analysis", f"{game} has no {kind!r}; known: "
                          + ", ".join(sorted(analysers)))
    key_of, work = analysers[kind]
    try:
        key = f"{game}|{kind}|{key_of(view)}"
    except (KeyError, TypeError, ValueError) as exc:
        return json_error(409, "not_ready", f"the game cannot be analysed now: {exc}")
    worker: Worker = current_app.extensions[EXTENSION]
    future = worker.submit(key, lambda: work(view))
    try:
        answer = future.result(timeout=WAIT_S)
    except FutureTimeout:
        response = jsonify({"status": "working", "retry_after": 1})
        response.status_code = 202
        response.headers["Cache-Control"] = "no-store"
        return response
    except RuleError as exc:
        return json_error(409, "not_ready", str(exc))
    response = jsonify({"status": "done", "kind": kind, "game": game,
                        "version": snap.get("version"), **answer})
    response.headers["Cache-Control"] = "no-store"
    return response
