"""The dashboard's front door: an asyncio listener in front of waitress.

waitress alone had two limits a guest on the LAN could reach: every connection, even one that
never finishes its request line, counted against one process-wide cap (100), so one machine
with ~100 idle sockets locked every phone out; and every live page held a worker thread, so
live pages were capped at a handful. Here each accepted connection costs a few kilobytes in
one event loop instead:

- a per-address cap refuses the excess of one address at once with a 503 (other addresses
  never wait behind it), and the request head must arrive within ``header_timeout_s``;
- the server-sent events (``GET /api/events``) are served from the loop itself: one thread
  subscribes to the table once and the loop writes each change to every live page, so a
  live page holds no thread at all;
- every other request is passed, one request per connection (``Connection: close``), to
  waitress listening on loopback, with the client's address in ``X-Forwarded-For`` (which
  waitress trusts from loopback only), so the Flask app, its PIN limiter per address, CSRF
  and headers run exactly as before. The camera's MJPEG stays there: it is bounded by
  ``max_camera_streams`` and needs the login.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

from web.config import WebConfig
from web.protocol import TableAPI

_log = logging.getLogger(__name__)

# request heads larger than this are refused (waitress's own default is 256 KiB; no phone
# sends more than a few cookies)
MAX_HEAD = 32 * 1024
# a live page whose unsent output grows past this is a phone that stopped reading: dropped
MAX_BACKLOG = 256 * 1024
# the hub looks this often whether it should stop
HUB_POLL_S = 0.5
_DROP = frozenset({b"connection", b"keep-alive", b"x-forwarded-for", b"x-forwarded-host",
                   b"x-forwarded-proto", b"x-forwarded-port", b"x-forwarded-by", b"forwarded",
                   b"proxy-connection"})


def _response(code: int, reason: str, word: str, text: str,
              extra: Mapping[str, str] | None = None) -> bytes:
    body = json.dumps({"error": word, "message": text}).encode()
    head = [f"HTTP/1.1 {code} {reason}", "Content-Type: application/json",
            f"Content-Length: {len(body)}", "Connection: close", "Cache-Control: no-store"]
    head += [f"{k}: {v}" for k, v in (extra or {}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


def sse_bytes(payload: dict[str, Any]) -> bytes:
    """The same event text as :func:`web.api.sse_message`, encoded once for every page."""
    from web.api import sse_message

    return sse_message(payload).encode("utf-8")


class _Page:
    """One live page: its transport and the newest version it was sent."""

    __slots__ = ("seen", "writer")

    def __init__(self, writer: asyncio.StreamWriter, seen: object) -> None:
        self.writer = writer
        self.seen = seen


class Front:
    """The listener, the live pages and the one thread that follows the table."""

    def __init__(self, runtime: TableAPI, config: WebConfig, backend_port: int,
                 headers: Mapping[str, str], sock: socket.socket) -> None:
        self._runtime = runtime
        self._config = config
        self._backend_port = backend_port
        self._security = dict(headers)
        self._sock = sock
        self._per_address: dict[str, int] = {}
        self._connections = 0
        self._pages: set[_Page] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="web-front", daemon=True)
        self._hub = threading.Thread(target=self._follow, name="web-hub", daemon=True)

    # --- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(10)
        self._hub.start()

    def close(self) -> None:
        """Stop accepting, end every live page and connection, then the loop and the hub."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._thread.is_alive():
            fut = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
            with contextlib.suppress(Exception):
                fut.result(timeout=5)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        self._hub.join(timeout=5)

    @property
    def live_pages(self) -> int:
        return len(self._pages)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(
            self._serve, sock=self._sock, limit=MAX_HEAD, backlog=1024))
        heartbeat = self._loop.create_task(self._heartbeat())
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            heartbeat.cancel()
            with contextlib.suppress(Exception):
                self._loop.run_until_complete(asyncio.sleep(0))
            self._loop.close()

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for page in list(self._pages):
            page.writer.close()
        self._pages.clear()
        for task in asyncio.all_tasks(self._loop):
            if task is not asyncio.current_task() and task.get_coro() is not None:
                task.cancel()

    # --- the table's changes, to every live page ------------------------------------------

    def _follow(self) -> None:
        """One subscription for all live pages: a change is encoded once, written N times.

        If the table's stream slots are all taken (camera views), it tries again shortly
        rather than leaving the live pages without changes for good."""
        from web.api import is_busy

        while not self._stop.is_set():
            try:
                with self._runtime.subscribe() as sub:
                    while not self._stop.is_set():
                        message = sub.get(timeout=HUB_POLL_S)
                        if message is not None:
                            self._hand_over(message)
            except Exception as exc:
                if not is_busy(exc):
                    _log.exception("the live-page hub stopped; live pages get no more changes")
                    return
                self._stop.wait(HUB_POLL_S)

    def _hand_over(self, message: dict[str, Any]) -> None:
        data = sse_bytes(message)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            self._loop.call_soon_threadsafe(self._broadcast, message.get("version"), data)

    def _broadcast(self, version: object, data: bytes) -> None:
        for page in list(self._pages):
            if isinstance(version, int) and isinstance(page.seen, int) and version <= page.seen:
                continue  # already in the page's first snapshot
            page.seen = version
            self._write(page, data)

    def _write(self, page: _Page, data: bytes) -> None:
        transport = page.writer.transport
        if transport.is_closing() or transport.get_write_buffer_size() > MAX_BACKLOG:
            self._pages.discard(page)
            transport.abort()
            return
        page.writer.write(data)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self._config.heartbeat_s)
            for page in list(self._pages):
                self._write(page, b": heartbeat\n\n")

    # --- connections ----------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        held = self._per_address.get(address, 0)
        if held >= self._config.max_per_address:
            # refused before reading anything: the excess of one address costs no wait
            writer.write(_response(503, "Service Unavailable", "busy",
                                   "too many connections from your address",
                                   {"Retry-After": "5"}))
            await self._finish(writer)
            return
        self._per_address[address] = held + 1
        self._connections += 1
        try:
            await self._handle(reader, writer, address)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            pass
        except asyncio.CancelledError:
            pass  # the server is shutting down; its loop stops right after
        finally:
            left = self._per_address[address] - 1
            if left:
                self._per_address[address] = left
            else:
                del self._per_address[address]
            self._connections -= 1
            writer.close()

    async def _finish(self, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer.drain(), 2)
        writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      address: str) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"),
                                          self._config.header_timeout_s)
        except asyncio.TimeoutError:
            writer.write(_response(408, "Request Timeout", "timeout",
                                   "the request did not arrive in time"))
            await self._finish(writer)
            return
        except asyncio.LimitOverrunError:
            writer.write(_response(431, "Request Header Fields Too Large", "too_large",
                                   "the request head is too large"))
            await self._finish(writer)
            return
        lines = head[:-4].split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
            writer.write(_response(400, "Bad Request", "bad_request", "not an HTTP/1 request"))
            await self._finish(writer)
            return
        method, target = parts[0], parts[1]
        if method == b"GET" and target.split(b"?", 1)[0] == b"/api/events":
            await self._live_page(reader, writer)
            return
        kept = [line for line in lines[1:]
                if line.split(b":", 1)[0].strip().lower() not in _DROP]
        kept += [b"Connection: close", b"X-Forwarded-For: " + address.encode("ascii")]
        await self._pass_on(b"\r\n".join([lines[0], *kept]) + b"\r\n\r\n", reader, writer)

    async def _live_page(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        """``GET /api/events``: the state at once, then every change (see the module doc)."""
        if len(self._pages) >= self._config.max_streams:
            writer.write(_response(503, "Service Unavailable", "busy",
                                   "too many live pages open at once; try again shortly",
                                   {"Retry-After": "5"}))
            await self._finish(writer)
            return
        head = ["HTTP/1.1 200 OK", "Content-Type: text/event-stream; charset=utf-8",
                "Cache-Control: no-store", "X-Accel-Buffering: no", "Connection: close"]
        head += [f"{k}: {v}" for k, v in self._security.items()]
        first = self._runtime.snapshot()
        page = _Page(writer, first.get("version"))
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
                     + b"retry: 3000\n\n" + sse_bytes(first))
        self._pages.add(page)
        try:
            # a live page sends nothing more; end of input is the phone leaving
            while await reader.read(4096):
                pass
        finally:
            self._pages.discard(page)

    async def _pass_on(self, head: bytes, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> None:
        """One request to waitress and its answer back; ends after ``idle_timeout_s`` silence."""
        try:
            b_reader, b_writer = await asyncio.open_connection("127.0.0.1", self._backend_port)
        except OSError:
            writer.write(_response(503, "Service Unavailable", "busy", "the server is stopping"))
            await self._finish(writer)
            return
        b_writer.write(head)
        idle = self._config.idle_timeout_s
        last = [time.monotonic()]

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while True:
                data = await src.read(65536)
                if not data:
                    return
                last[0] = time.monotonic()
                dst.write(data)
                await dst.drain()

        upload = asyncio.ensure_future(pump(reader, b_writer))
        answer = asyncio.ensure_future(pump(b_reader, writer))
        try:
            while not answer.done():
                wait = last[0] + idle - time.monotonic()
                if wait <= 0:
                    break
                await asyncio.wait({answer}, timeout=wait)
            await writer.drain()
        finally:
            upload.cancel()
            answer.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.gather(upload, answer, return_exceptions=True)
            b_writer.transport.abort()
