"""``companion board``: the club's board, reading a broker and serving the room's page.

``--broker mqtt://HOST:PORT`` (``mqtts://`` for TLS); the board's broker user from
``--username`` or the URL, its password from ``$COMPANION_BOARD_PASSWORD`` (never on the
command line, where ``ps`` shows it to everyone on the machine) or the URL.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import threading
from typing import Any

from companion.errors import InputError


def register(subparsers: Any) -> None:
    board = subparsers.add_parser("board", help="the club's board: every table live, the standings")
    board.add_argument("--broker", required=True, metavar="URL",
                       help="the club's MQTT broker, mqtt://HOST:PORT or mqtts://HOST:PORT")
    board.add_argument("--port", type=int, default=8080, help="page port (0 = any free)")
    board.add_argument("--host", default="0.0.0.0", help="address to serve on")
    board.add_argument("--username", default=None,
                       help="the board's broker user (password: $COMPANION_BOARD_PASSWORD)")
    board.add_argument("--client-id", default="companion-board",
                       help="the board's session on the broker (one per board)")
    board.add_argument("--language", choices=("de", "en"), default="de",
                       help="the page's language when the browser names none")
    board.set_defaults(func=cmd_board)


def cmd_board(args: argparse.Namespace) -> int:
    from companion.club.settings import Broker, parse_broker
    from web.board import BoardServer, create_app
    from web.board.listen import Listener
    from web.board.model import Board

    broker = parse_broker(args.broker, "--broker")
    if not 0 <= args.port <= 65535:
        raise InputError("--port must be 0–65535")
    user = args.username or broker.username
    password = os.environ.get("COMPANION_BOARD_PASSWORD", "") or broker.password
    broker = Broker(broker.host, broker.port, broker.tls, user, password)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    board = Board()
    listener = Listener(broker, board, args.client_id).start()
    try:
        app = create_app(board, lambda: listener.connected, args.language)
        with BoardServer(app, args.host, args.port) as server:
            print(f"Board: {server.url} (reading {broker.url})", flush=True)
            while not stop.wait(1.0):
                pass
    finally:
        listener.close()
    return 0
