"""The club's board: every table live and the tournament's standings, for the room.

It reads the broker (``listen``), keeps the room in memory (``model``), ranks the finished
games (``standings``) and serves one page and ``/api/tables`` with the dashboard's look
(``web/static/css/app.css``). It holds no secret and takes no action: a wall screen and any
phone on the LAN only look. Started by ``companion board`` (``cli``).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from web.board.labels import labels
from web.board.model import Board

__all__ = ["Board", "BoardServer", "create_app"]

_log = logging.getLogger(__name__)
_WEB = Path(__file__).resolve().parent.parent
POLL_MS = 1000  # how often the page asks for the room (the board's own delay is far less)


def create_app(board: Board, status: Any = None, language: str = "de") -> Flask:
    """The board's pages for ``board``; ``status()`` says whether the broker is reachable."""
    from web.i18n import choose_language

    app = Flask(__name__, static_folder=str(_WEB / "static"),
                template_folder=str(Path(__file__).resolve().parent / "templates"))
    app.config.update(JSON_AS_ASCII=False, SEND_FILE_MAX_AGE_DEFAULT=300)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    def connected() -> bool:
        return True if status is None else bool(status())

    @app.get("/")
    def page() -> ResponseReturnValue:
        lang = choose_language(request.args.get("lang"), request.cookies.get("lang"),
                               list(request.accept_languages.values()), language)
        other = "en" if lang == "de" else "de"
        response = app.make_response(render_template(
            "board.html", lang=lang, other_lang=other, labels=labels(lang), poll_ms=POLL_MS))
        if request.args.get("lang") == lang:
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Strict")
        return response

    @app.get("/api/tables")
    def tables() -> ResponseReturnValue:
        response = jsonify({"tables": board.tables(), "standings": board.standings(),
                            "broker": {"connected": connected()}})
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.after_request
    def headers(response: Any) -> Any:
        response.headers.setdefault(
            "Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    return app


class BoardServer:
    """The board's pages served by waitress in a thread; ``port=0`` picks a free port."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8080,
                 threads: int = 4) -> None:
        from waitress.server import create_server

        self._server = create_server(app, host=host, port=port, threads=threads,
                                     channel_timeout=60, ident="companion-board")
        self.host = host
        self.port = int(self._server.effective_port)
        self._thread = threading.Thread(target=self._server.run, name="board-web", daemon=True)

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    def __enter__(self) -> BoardServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.close()
        self._thread.join(timeout=5.0)
