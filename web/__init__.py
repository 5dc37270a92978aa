"""The dashboard: the table runtime's HTTP face, on every phone on the LAN.

``create_app(runtime, config)`` builds a Flask app around any object keeping to
:class:`web.protocol.TableAPI` (the real one is ``companion.table.Table``); ``config`` is
the ``[web]`` section. Nothing lives in module globals: each app holds its own runtime,
limiter and stream counts, so tests build one app each. Served by :class:`Server` (an asyncio
front door, :mod:`web.front`, before waitress with threads), never Flask's development server
and never in debug mode, in the same process as the runtime so the camera is opened once.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from types import TracebackType
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from web.config import WebConfig, WebConfigError
from web.errors import WebError, json_error
from web.limiter import AttemptLimiter
from web.protocol import TableAPI

__all__ = ["Server", "WebConfig", "WebConfigError", "WebError", "create_app", "serve"]

_log = logging.getLogger(__name__)

SESSION_COOKIE = "companion_session"
_HERE = Path(__file__).resolve().parent


def create_app(
    runtime: TableAPI,
    config: Mapping[str, Any] | None = None,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Flask:
    """The dashboard app for ``runtime``; ``config`` is the ``[web]`` section (unknown keys
    are refused by name). ``clock`` drives the login rate limit (tests pass their own)."""
    from web import api, auth, pages
    from web.state import EXTENSION, Slots, WebState

    settings = WebConfig.from_mapping(config)
    secret = runtime.session_secret()
    if not isinstance(secret, str) or len(secret) < 32:
        raise WebError("the runtime's session secret must be at least 32 characters")

    app = Flask(__name__, static_folder="static", template_folder="templates")
    from web.bounded_json import bounded_json

    app.json = bounded_json(app)  # deep bodies: a 400, not a RecursionError
    app.config.update(
        SECRET_KEY=secret,
        SESSION_COOKIE_NAME=SESSION_COOKIE,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        # The LAN dashboard is plain HTTP; a Secure cookie would never be sent back.
        SESSION_COOKIE_SECURE=False,
        PERMANENT_SESSION_LIFETIME=timedelta(hours=settings.session_hours),
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_AS_ASCII=False,
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=False,
        TEMPLATES_AUTO_RELOAD=False,
        SEND_FILE_MAX_AGE_DEFAULT=300,
    )
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    renderers = tuple(sorted(p.stem for p in (_HERE / "static" / "js" / "games").glob("*.js")))
    words = tuple(sorted(p.stem for p in (_HERE / "static" / "js" / "words").glob("*.js")))
    parts = tuple(sorted(p.stem for p in (_HERE / "static" / "js" / "parts").glob("*.js")))
    digest = hashlib.sha1(usedforsecurity=False)
    for path in sorted(p for p in (_HERE / "static").rglob("*") if p.is_file()):
        digest.update(path.read_bytes())
    asset_version = digest.hexdigest()[:10]
    app.extensions[EXTENSION] = WebState(
        runtime=runtime,
        config=settings,
        limiter=AttemptLimiter(settings.login_attempts, settings.login_window_s, clock,
                               global_attempts=settings.login_global_per_minute),
        streams=Slots(settings.max_streams),
        cameras=Slots(settings.max_camera_streams),
        renderers=renderers,
        words=words,
        parts=parts,
        asset_version=asset_version,
        clock=clock,
    )
    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    from web import analysis  # solver answers for game pages (hint, review), off-thread

    analysis.install(app)
    auth.install(app)
    pages.install(app)
    _install_error_handlers(app)

    @app.after_request
    def _headers(response: Any) -> Any:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
            "form-action 'self'; base-uri 'none'",
        )
        return response

    return app


def _security_headers(app: Flask) -> dict[str, str]:
    """The headers ``create_app`` puts on every answer, read from the app itself so the live
    pages served by :mod:`web.front` carry exactly the same ones."""
    names = ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
             "Content-Security-Policy")
    reply = app.test_client().get("/api/not-a-route")
    return {name: reply.headers[name] for name in names if name in reply.headers}


def _wants_json() -> bool:
    if request.path.startswith("/api/") or request.is_json:
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json"


def _install_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        code = exc.code or 500
        word = (exc.name or "error").lower().replace(" ", "_")
        if _wants_json():
            return json_error(code, word, exc.description or exc.name or "error")
        from flask import render_template

        return render_template("error.html", code=code, reason=exc.name), code

    @app.errorhandler(Exception)
    def _crash(exc: Exception) -> Any:
        # A bug must not take the table down or show a traceback to a phone.
        _log.exception("unhandled error on %s %s", request.method, request.path)
        return json_error(500, "internal", "the companion hit an internal error; see its log")


# channel_request_lookahead > 0 makes waitress keep reading a connection while its request
# runs, so a phone that closed its camera view is noticed (environ["waitress.client_disconnected"])
# and its stream ends within a second. waitress listens on loopback only, behind web.front,
# which is the only client it trusts for X-Forwarded-For (the phone's address, for the PIN
# limiter); the front does the per-address cap and the timeouts, so waitress's own connection
# cap is far above anything the front lets through.
_WAITRESS: dict[str, Any] = {
    "ident": "companion",
    "channel_timeout": 60,
    "channel_request_lookahead": 1,
    "clear_untrusted_proxy_headers": True,
    "trusted_proxy": "127.0.0.1",
    "trusted_proxy_count": 1,
    "trusted_proxy_headers": {"x-forwarded-for"},
    "connection_limit": 2000,
    "asyncore_use_poll": True,
}


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 8) -> None:
    """Serve ``app`` until interrupted (the runtime runs in other threads)."""
    stop = threading.Event()
    with Server(app, host, port, threads) as server:
        _log.info("dashboard on %s (%d threads)", server.url, threads)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass


class Server:
    """The dashboard's server in background threads, as a context manager.

    The public socket belongs to :class:`web.front.Front` (asyncio: per-address cap, head and
    idle timeouts, live pages without a thread each); everything else goes to waitress on a
    loopback port. ``port=0`` picks a free port; :attr:`port` and :attr:`url` tell which.
    ``close()`` is idempotent and stops accepting, then ends the serving threads.
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0,
                 threads: int = 8) -> None:
        import socket

        from waitress.server import create_server

        from web.front import Front
        from web.state import EXTENSION

        self._state = app.extensions[EXTENSION]
        self._server = create_server(app, host="127.0.0.1", port=0, threads=threads,
                                     **_WAITRESS)
        sock = socket.create_server((host, port), reuse_port=False, backlog=1024)
        self.host = host
        self.port = int(sock.getsockname()[1])
        self._front = Front(self._state.runtime, self._state.config,
                            int(self._server.effective_port), _security_headers(app), sock)
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)
        self._closed = False

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    @property
    def live_pages(self) -> int:
        """Live pages open now (the bench and the tests wait on it)."""
        return self._front.live_pages

    def _run(self) -> None:
        try:
            self._server.run()
        except OSError as exc:  # closed under it while in select()
            if not self._closed:
                _log.error("web server stopped: %s", exc)

    def start(self) -> Server:
        self._thread.start()
        self._front.start()
        return self

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        from waitress import wasyncore

        # The front first (no new connections, live pages end), then the camera streams (they
        # hold worker threads), then the workers, then waitress's sockets, which ends its loop.
        self._front.close()
        self._state.closing.set()
        self._server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(self._server._map)
        self._thread.join(timeout=5)

    def __enter__(self) -> Server:
        if not self._thread.is_alive():
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
