"""The JSON and streaming API: state, live events, actions, history, camera, QR code.

Reading is open to every phone on the LAN; changing the table goes through
:func:`web.auth.require_pin`. Long-lived streams (server-sent events, the MJPEG camera) each
hold a slot (a camera view also a waitress thread), so both are counted and refused with a 503 when full rather than
letting phones starve the server.
"""

from __future__ import annotations

import io
import ipaddress
import json
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import Blueprint, Response, request

from companion.errors import InputError
from companion.games.base import Refused, RuleError
from companion.store import StoreError
from web import protocol
from web.actions import clean_action
from web.auth import require_pin
from web.errors import json_error
from web.replay import replay_game
from web.state import Slots, web_state

_log = logging.getLogger(__name__)

bp = Blueprint("api", __name__, url_prefix="/api")

NO_STORE = {"Cache-Control": "no-store"}
MJPEG_BOUNDARY = "frame"
# how often a waiting live stream looks up to see whether the server is shutting down
STREAM_POLL_S = 1.0
MJPEG_KEEPALIVE_S = 2.0


def _busy(what: str) -> Response:
    err = json_error(503, "busy", f"too many {what} open at once; try again shortly",
                     retry_after=5)
    err.headers["Retry-After"] = "5"
    return err


def is_busy(exc: BaseException) -> bool:
    """The runtime's "all stream slots taken"."""
    return isinstance(exc, protocol.Busy)


def client_gone() -> Callable[[], bool]:
    """Whether this request's client has hung up (waitress tells, given a request lookahead;
    elsewhere, such as the test client, a write to a gone client ends the stream instead)."""
    check = request.environ.get("waitress.client_disconnected")
    if callable(check):
        return lambda: bool(check())
    return lambda: False


def sse_message(payload: dict[str, Any]) -> str:
    """One server-sent event: a single ``data:`` line of compact JSON (JSON has no newlines)."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    version = payload.get("version")
    head = f"id: {version}\n" if isinstance(version, int) else ""
    return f"{head}data: {data}\n\n"


@bp.get("/state")
def state() -> Any:
    return Response(
        json.dumps(web_state().runtime.snapshot(), ensure_ascii=False),
        mimetype="application/json",
        headers=NO_STORE,
    )


class _Stream:
    """Releases a stream's slot and subscription exactly once, whoever finishes first."""

    def __init__(self, slots: Slots, release: Callable[[], None]) -> None:
        self._slots = slots
        self._release = release
        self._done = threading.Lock()
        self._closed = False

    def close(self) -> None:
        with self._done:
            if self._closed:
                return
            self._closed = True
        try:
            self._release()
        finally:
            self._slots.give_back()


@bp.get("/events")
def events() -> Any:
    """Server-sent events: the current state at once, then one message per change."""
    ws = web_state()
    if not ws.streams.try_take():
        return _busy("live pages")
    try:
        manager: AbstractContextManager[protocol.Subscription] = ws.runtime.subscribe()
        subscription = manager.__enter__()
    except BaseException as exc:
        ws.streams.give_back()
        if is_busy(exc):
            return _busy("live pages")
        raise
    def release() -> None:
        manager.__exit__(None, None, None)

    stream = _Stream(ws.streams, release)
    heartbeat = ws.config.heartbeat_s
    runtime = ws.runtime
    closing = ws.closing
    gone = client_gone()

    def generate() -> Iterator[str]:
        yield "retry: 3000\n\n"
        first = runtime.snapshot()
        seen = first.get("version")
        yield sse_message(first)
        beat_at = time.monotonic() + heartbeat
        while not closing.is_set() and not gone():
            wait = min(STREAM_POLL_S, max(0.0, beat_at - time.monotonic()))
            message = subscription.get(timeout=wait)
            if message is None:
                if time.monotonic() >= beat_at:
                    yield ": heartbeat\n\n"
                    beat_at = time.monotonic() + heartbeat
                continue
            version = message.get("version")
            if isinstance(version, int) and isinstance(seen, int) and version <= seen:
                continue  # already in the first snapshot (subscribed before it was taken)
            seen = version
            yield sse_message(message)

    response = Response(
        generate(),
        mimetype="text/event-stream",
        headers={**NO_STORE, "X-Accel-Buffering": "no"},
    )
    response.call_on_close(stream.close)
    return response


@bp.post("/action")
@require_pin
def action() -> Any:
    body = request.get_json(silent=True) if request.is_json else None
    if body is None:
        return json_error(400, "bad_body", 'send a JSON object like {"action": "next"} '
                          "with Content-Type: application/json")
    try:
        cleaned = clean_action(body)
    except InputError as exc:
        return json_error(400, "bad_action", str(exc))
    runtime = web_state().runtime
    try:
        snapshot = runtime.submit(cleaned)
    except Refused as exc:
        details = json.loads(json.dumps(exc.details, default=str))
        return json_error(409, "refused", exc.reason, code=exc.code, details=details)
    except (InputError, RuleError) as exc:
        return json_error(400, "bad_action", str(exc))
    except StoreError as exc:  # the log cannot be written: nothing happened, try again later
        return json_error(503, "log_unavailable", str(exc))
    _log.info("action %s from %s", cleaned["action"], request.remote_addr)
    return Response(
        json.dumps({"ok": True, "state": snapshot}, ensure_ascii=False),
        mimetype="application/json",
        headers=NO_STORE,
    )


@bp.get("/history")
def history() -> Any:
    return Response(json.dumps({"games": web_state().runtime.history()}, ensure_ascii=False),
                    mimetype="application/json", headers=NO_STORE)


@bp.get("/history/<int:game_id>")
def replay(game_id: int) -> Any:
    """A game step by step: each event with the game's view after it (and the advisor's
    figures once the game is over, or while the advisor is switched on)."""
    ws = web_state()
    try:
        result = replay_game(ws, game_id)
    except KeyError:
        return json_error(404, "unknown_game", f"no game with id {game_id}")
    return Response(json.dumps(result, ensure_ascii=False), mimetype="application/json",
                    headers=NO_STORE)


@bp.get("/export/<int:game_id>")
def export(game_id: int) -> Any:
    try:
        data = web_state().runtime.export(game_id)
    except KeyError:
        return json_error(404, "unknown_game", f"no game with id {game_id}")
    return Response(
        json.dumps(data, ensure_ascii=False, indent=2),
        mimetype="application/json",
        headers={**NO_STORE,
                 "Content-Disposition": f'attachment; filename="companion-game-{game_id}.json"'},
    )


def _frames_or_error() -> tuple[Iterator[bytes], bytes] | Response:
    runtime = web_state().runtime
    camera = runtime.snapshot().get("camera") or {}
    if camera.get("status") == "none":
        return json_error(503, "camera_unavailable", camera.get("message") or "no camera attached")
    if camera.get("status") == "lost":  # its last picture is stale: never shown as the table now
        return json_error(503, "camera_lost", camera.get("message") or "the camera is lost")
    try:
        frames = runtime.frames()
        first = next(frames)
    except StopIteration:
        return json_error(503, "camera_unavailable", "the camera shows no picture")
    except (OSError, RuntimeError, ValueError) as exc:
        if is_busy(exc):
            return _busy("camera views")
        _log.warning("camera view unavailable: %s", exc)
        return json_error(503, "camera_unavailable", "the camera shows no picture")
    return frames, first


def _close(frames: Iterator[bytes]) -> None:
    close = getattr(frames, "close", None)
    if callable(close):
        close()


@bp.get("/camera.jpg")
@require_pin
def camera_still() -> Any:
    got = _frames_or_error()
    if isinstance(got, Response):
        return got
    frames, first = got
    _close(frames)
    return Response(first, mimetype="image/jpeg", headers=NO_STORE)


class _FramePump:
    """Reads the runtime's frames in a thread of its own, keeping only the newest.

    The runtime's iterator blocks until a new frame comes, which may be never (camera lost).
    Pumping it elsewhere lets the response re-send its last picture now and then, so waitress
    notices a phone that went away and frees its worker thread, whatever the camera does.
    """

    END = b""

    def __init__(self, frames: Iterator[bytes]) -> None:
        self._frames = frames
        self._latest: queue.Queue[bytes] = queue.Queue(maxsize=1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mjpeg-pump", daemon=True)
        self._thread.start()

    def _offer(self, jpeg: bytes) -> None:
        while True:
            try:
                self._latest.put_nowait(jpeg)
                return
            except queue.Full:
                try:
                    self._latest.get_nowait()  # drop the older frame nobody sent yet
                except queue.Empty:
                    pass

    def _run(self) -> None:
        try:
            for jpeg in self._frames:
                if self._stop.is_set():
                    break
                self._offer(jpeg)
        except Exception as exc:  # a camera fault ends this view, never the server
            _log.warning("camera view ended: %s", exc)
        finally:
            _close(self._frames)  # frees the runtime's stream slot
            self._offer(self.END)

    def get(self, timeout: float) -> bytes | None:
        """The newest frame, ``END`` when the camera view is over, ``None`` after ``timeout``."""
        try:
            return self._latest.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop(self) -> None:
        self._stop.set()


@bp.get("/camera.mjpg")
@require_pin
def camera() -> Any:
    """The camera with the lattice drawn, as MJPEG; the page drops it when hidden."""
    ws = web_state()
    if not ws.cameras.try_take():
        return _busy("camera views")
    try:
        got = _frames_or_error()
    except BaseException:
        ws.cameras.give_back()
        raise
    if isinstance(got, Response):
        ws.cameras.give_back()
        return got
    frames, first = got
    runtime = ws.runtime
    pumps = [_FramePump(frames)]  # the current one; replaced when the runtime's frames end
    stream = _Stream(ws.cameras, lambda: pumps[-1].stop())
    closing = ws.closing
    gone = client_gone()
    # re-send the last picture at least this often (a lost camera sends nothing new)
    keepalive = min(ws.config.heartbeat_s, MJPEG_KEEPALIVE_S)

    def reopen() -> _FramePump | None:
        """The runtime ends its frames after a silence; while a camera is attached, follow it
        again (it may come back), else the view is over."""
        try:
            if (runtime.snapshot().get("camera") or {}).get("status") == "none":
                return None
            return _FramePump(runtime.frames())
        except (OSError, RuntimeError, ValueError) as exc:
            _log.info("camera view not reopened: %s", exc)
            return None

    def part(jpeg: bytes) -> bytes:
        head = (f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                f"Content-Length: {len(jpeg)}\r\n\r\n")
        return head.encode() + jpeg + b"\r\n"

    def generate() -> Iterator[bytes]:
        last = first
        yield part(first)
        while not closing.is_set() and not gone():
            jpeg = pumps[-1].get(timeout=keepalive)
            if jpeg == _FramePump.END:
                again = reopen()
                if again is None:
                    return
                pumps.append(again)
                del pumps[:-1]
                continue
            if jpeg is not None:
                last = jpeg
            yield part(last)

    response = Response(
        generate(),
        mimetype=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
        headers=NO_STORE,
    )
    response.call_on_close(stream.close)
    return response


def dashboard_url() -> str:
    """The address phones should open: the configured one, else this request's, with a
    loopback host replaced by the machine's LAN address (a phone can't open localhost)."""
    configured = web_state().config.public_url
    if configured:
        return configured
    parts = urlsplit(request.host_url)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        lan = lan_address()
        if lan:
            netloc = lan + (f":{parts.port}" if parts.port else "")
            return urlunsplit((parts.scheme, netloc, "/", "", ""))
    return urlunsplit((parts.scheme, parts.netloc, "/", "", ""))


def lan_address() -> str | None:
    """This machine's address on the LAN, found by routing (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def qr_svg(url: str) -> str:
    qr = segno.make(url, error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True,
            dark="#1d1a16", light="#ffffff", title="QR code: " + url)
    return out.getvalue().decode()


@bp.get("/qr.svg")
def qr() -> Any:
    return Response(qr_svg(dashboard_url()), mimetype="image/svg+xml", headers=NO_STORE)


@bp.get("/games")
def games() -> Any:
    """The games a new game can be started with, and which have their own page."""
    from web.pages import available_games

    renderers = set(web_state().renderers)
    return {"games": [{**g, "page": g["name"] in renderers} for g in available_games()]}


@bp.get("/info")
def info() -> Any:
    """What the page needs besides the state: the address to share, the live-stream limits."""
    ws = web_state()
    return {"url": dashboard_url(), "heartbeat_s": ws.config.heartbeat_s,
            "renderers": list(ws.renderers)}
