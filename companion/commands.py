"""``companion run``, ``companion demo`` and ``companion export``: the table itself.

``run`` is the Pi service (systemd/companion.service starts it): camera, panel, rules, log and
dashboard in one process, so the camera is opened once. It tells systemd when it is ready and
pings the watchdog while the table loop is alive (``sd_notify`` over ``$NOTIFY_SOCKET``,
written by hand: one datagram, no extra dependency).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, InputError

_log = logging.getLogger(__name__)
SPEEDS = (0.1, 100.0)  # demo --speed: a tenth of real time to a hundred times it


def register(subparsers: Any) -> None:
    run = subparsers.add_parser("run", help="run the table (the Pi service)")
    run.add_argument("--config", type=Path, default=None,
                     help="settings file (default /etc/companion/config.toml)")
    run.add_argument("-v", "--verbose", action="store_true", help="log more")
    run.set_defaults(func=cmd_run)

    demo = subparsers.add_parser(
        "demo", help="a rendered game through the whole pipeline, no hardware needed"
    )
    demo.add_argument("--port", type=int, default=8000, help="dashboard port (0 = any free)")
    demo.add_argument("--host", default="0.0.0.0", help="address to serve on")
    demo.add_argument("--speed", type=float, default=1.0, help="replay speed (2 = twice as fast)")
    demo.add_argument("--db", type=Path, default=None, help="keep the event log in this file")
    demo.add_argument("--seed", type=int, default=7, help="which game to play")
    demo.add_argument("--rounds", type=int, default=0, help="stop after N games (0 = loop)")
    demo.add_argument("--quiet", action="store_true", help="no LED/buzzer console lines")
    demo.add_argument("--game", choices=("moerder", "kniffel"), default=None,
                      help="play only this game (default: the camera games take turns)")
    demo.add_argument("--mqtt", default=None, metavar="URL",
                      help="publish to a club's broker, mqtt://[USER[:PASS]@]HOST:PORT "
                           "(password also from $COMPANION_CLUB_PASSWORD)")
    demo.add_argument("--table", default="demo", help="this table's name in the club")
    demo.set_defaults(func=cmd_demo)

    export = subparsers.add_parser("export", help="one game's set-up and events as JSON")
    export.add_argument("game", type=int, metavar="GAME", help="the game's id (see the history)")
    export.add_argument("--config", type=Path, default=None)
    export.add_argument("--db", type=Path, default=None,
                        help="the event log, e.g. a demo's (default: the service's, from config)")
    export.add_argument("-o", "--output", type=Path, default=None, help="write to a file")
    export.set_defaults(func=cmd_export)

    pin = subparsers.add_parser(
        "pin", help="roll a new PIN for the table (every phone is logged out)")
    pin.add_argument("--new", action="store_true", required=True,
                     help="choose a new PIN, print it once and store only its hash")
    pin.add_argument("--config", type=Path, default=None)
    pin.add_argument("--db", type=Path, default=None, help="the event log (default: config)")
    pin.set_defaults(func=cmd_pin)


# --- systemd -----------------------------------------------------------------------------------


def sd_notify(message: str, environ: Any = None) -> bool:
    """Send ``message`` (``READY=1``, ``WATCHDOG=1``…) to systemd; False when not under it."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        _log.warning("sd_notify %s: %s", message, exc)
        return False
    return True


def watchdog_interval(environ: Any = None) -> float | None:
    """Half of systemd's WatchdogSec, in seconds (``$WATCHDOG_USEC``), or None without one."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(int(usec) / 2e6, 0.05)
    except ValueError:
        return None


# --- run ---------------------------------------------------------------------------------------


def _open_store(path: str | Path) -> Any:
    """The event log, or a one-line error (a damaged or newer file is a setting to fix)."""
    from companion.store import Store, StoreError

    try:
        return Store(path)
    except StoreError as exc:
        raise InputError(str(exc)) from None


def _logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )


def cmd_run(args: argparse.Namespace) -> int:
    from companion import config as config_mod
    from companion import memory
    from companion.store import new_pin
    from companion.table import Table
    from vision.sources import open_source

    memory.tune()  # before the table's threads exist
    _logging(args.verbose)
    cfg = config_mod.load(args.config)
    club_settings(cfg.section("club"))  # a bad [club]: one line before the camera opens
    table = cfg.section("table")
    web_cfg = cfg.section("web")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with _open_store(table["database"]) as store:
        if not store.has_pin():
            pin = new_pin()
            store.set_pin(pin)
            print(f"PIN: {pin}  (the table PIN, chosen now at first start; it is stored hashed)",
                  flush=True)
        source = open_source(cfg.section("camera"))
        reader = vision_reader(cfg.section("vision")) if source is not None else None
        word_index()
        with club(cfg.section("club"), store), \
                Table(cfg, store, source=source, reader=reader) as runtime:
            import web

            app = web.create_app(runtime, web_cfg)
            server = web.Server(app, web_cfg["host"], web_cfg["port"], web_cfg["threads"])
            with server:
                print(f"Dashboard: http://{_lan_address()}:{server.port}/", flush=True)
                sd_notify("READY=1\nSTATUS=table running")
                period = watchdog_interval() if cfg.section("service")["watchdog"] else None
                while not stop.wait(period or 1.0):
                    if period is not None and runtime.alive:
                        sd_notify("WATCHDOG=1")  # only while the table loop is alive
                sd_notify("STOPPING=1")
    return 0


def word_index() -> None:
    """Build Wort-Kniffel's word index before the table runs, when it is not on disk yet.

    The first build reads the word list and the word-class lexicons (seconds on this
    machine, longer on a Pi); done by the first Wort-Kniffel game it would hold the table's
    thread past a phone's patience. It runs apart (:func:`_apart`); the game later reads the
    index from the disk cache in a fraction of a second."""
    from companion.wordlist import WordListError, index_cached

    try:
        if index_cached():
            return
    except WordListError as exc:  # no word list: Wort-Kniffel says so when it starts
        _log.warning("word index: %s", exc)
        return
    print("Building the German word index once (Wort-Kniffel) …", flush=True)
    try:
        _apart("building the word index", _build_word_index)
    except CompanionError as exc:
        _log.warning("word index: %s; the first game builds it", exc)


def _build_word_index() -> None:
    from companion.wordlist import load_lexicon

    load_lexicon(progress_to=sys.stdout)


def vision_reader(settings: dict[str, Any]) -> Any:
    """The vision pipeline as the table's reader: the tile grid or the loose dice, whichever
    the game on the table reads."""
    from companion.table.camera import DiceReader, GridReader, Readers

    def dice() -> DiceReader:
        from vision.kniffel_pad.watch import PadWatch

        return DiceReader(settings, pad=PadWatch.create(settings))  # the score pad beside them

    return Readers({"grid": lambda: GridReader(settings), "dice": dice})


def club_settings(section: dict[str, Any]) -> Any:
    """The ``[club]`` settings checked (``ClubError``, one line, for a bad one); None: no club."""
    from companion.club import ClubSettings

    return ClubSettings.from_section(section)


@contextmanager
def club(section: dict[str, Any], store: Any) -> Iterator[Any]:
    """The club's publisher beside the table while it runs (nothing without a broker)."""
    from companion.club import ClubPublisher

    settings = club_settings(section)
    if settings is None:
        yield None
        return
    publisher = ClubPublisher(settings, store).start()
    print(f"Club: table {settings.table} publishes to {settings.broker.url}", flush=True)
    try:
        yield publisher
    finally:
        publisher.close()


# --- demo --------------------------------------------------------------------------------------


def cmd_demo(args: argparse.Namespace) -> int:
    from companion import memory

    memory.tune()  # before the table's threads exist
    import segno
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion import config as config_mod
    from companion import demo, demo_kniffel
    from companion.store import new_pin
    from companion.table import Table

    if not SPEEDS[0] <= args.speed <= SPEEDS[1]:  # nan too; 1e-308 stalled the camera's clock
        raise InputError(f"--speed must be {SPEEDS[0]:g}-{SPEEDS[1]:g}")
    if not 0 <= args.port <= 65535:
        raise InputError("--port must be 0–65535")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    if args.mqtt:  # a bad address or name: one line before anything is rendered
        from companion.club.settings import check_name, parse_broker

        parse_broker(args.mqtt, "--mqtt")
        check_name(args.table, "--table")
    games = (args.game,) if args.game else ("moerder", "kniffel")
    script, folder, kniffel = _demo_sessions(args, games)

    tmp = tempfile.TemporaryDirectory(prefix="companion-demo-")
    db = args.db or Path(tmp.name) / "demo.sqlite"
    cfg = config_mod.load(None, environ={})  # the demo ignores /etc: it must run anywhere
    first = ("kniffel", list(demo_kniffel.KNIFFEL_PLAYERS)) if games[0] == "kniffel" else (
        "moerder", list(script.players))
    cfg = cfg.replace("table", database=str(db), game=first[0], players=first[1], advisor=True,
                      reminder_s=0.0)
    cfg = cfg.replace("camera", source="replay", device=str(folder))
    cfg = cfg.replace("hardware", pin_factory="mock")
    cfg = cfg.replace("web", host=args.host, port=args.port)
    if args.mqtt:
        cfg = cfg.replace("club", broker=args.mqtt, table=args.table,
                          password=os.environ.get("COMPANION_CLUB_PASSWORD", ""))
    club_settings(cfg.section("club"))  # a bad address or name: one line, before rendering
    if args.port and args.host in ("0.0.0.0", ""):  # the QR on the page: the LAN address
        cfg = cfg.replace("web", public_url=f"http://{_lan_address()}:{args.port}/")
    echo = None if args.quiet else (lambda line: print(f"  [table] {line}", flush=True))
    factory = MockFactory(pin_class=MockPWMPin)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        with _open_store(db) as store:
            pin = new_pin()
            store.set_pin(pin)
            reader = vision_reader(cfg.section("vision"))
            with club(cfg.section("club"), store), \
                    Table(cfg, store, pin_factory=factory, echo=echo) as runtime:
                import web

                web_cfg = cfg.section("web")
                app = web.create_app(runtime, web_cfg)
                with web.Server(app, web_cfg["host"], web_cfg["port"], web_cfg["threads"]) as srv:
                    host = _lan_address() if web_cfg["host"] in ("0.0.0.0", "") else web_cfg["host"]
                    url = f"http://{host}:{srv.port}/"
                    print(f"Dashboard: {url}", flush=True)
                    print(f"PIN: {pin}", flush=True)
                    try:
                        segno.make(url, error="l").terminal(compact=True)
                    except (OSError, ValueError):
                        pass
                    print("Ctrl+C stops the demo.", flush=True)
                    director = demo.Director(runtime, script, folder, reader, factory,
                                             speed=args.speed, rounds=args.rounds,
                                             say=lambda line: print(line, flush=True),
                                             games=games, kniffel=kniffel).start()
                    try:
                        while not stop.wait(0.5):
                            if args.rounds and not director._thread.is_alive():
                                break
                    finally:
                        director.close()
    except KeyboardInterrupt:
        pass
    finally:
        tmp.cleanup()
    return 0


def _demo_sessions(args: argparse.Namespace, games: tuple[str, ...]) -> tuple[Any, Path, Path | None]:
    """The Mörder script and the recorded sessions the demo plays, rendered once (cached)."""
    from companion import demo, demo_kniffel

    script = demo.choose_script(args.seed)
    folder = demo.cache_dir() / demo.session_key(script, demo.DEFAULT_SIZE)
    if "moerder" in games and not (folder / "session.json").is_file():
        print(f"Rendering the demo game ({len(script.boards) - 1} turns) once into {folder} …",
              flush=True)
        _apart(f"rendering the demo session into {folder}", _render_moerder, args.seed, folder)
    kniffel = None
    if "kniffel" in games and (not args.rounds or args.rounds > games.index("kniffel")):
        word_index()
        kniffel = demo.cache_dir() / demo_kniffel.session_key(args.seed, demo.DEFAULT_SIZE)
        if not (kniffel / "session.json").is_file():
            print(f"Rendering the Wort-Kniffel throws once into {kniffel} …", flush=True)
            _apart(f"rendering the demo session into {kniffel}", _render_kniffel, args.seed,
                   kniffel)
    return script, folder, kniffel


def _apart(what: str, work: Any, *args: Any) -> None:
    """Do a one-off heavy job (the word index's first build, a demo session's renders) in a
    child process: it takes over 100 MB that the long-running table or demo would otherwise
    keep, since a Python process rarely gives memory back; what it leaves on disk is all
    that is needed of it."""
    import multiprocessing

    child = multiprocessing.get_context("spawn").Process(target=work, args=args)
    child.start()
    child.join()
    if child.exitcode != 0:
        raise CompanionError(f"{what} failed (exit {child.exitcode})")


def _render_moerder(seed: int, folder: Path) -> None:
    from companion import demo

    script = demo.choose_script(seed)
    _rendered(lambda step: demo.render_session(script, folder, progress=step),
              2 * len(script.boards) - 1, "frames")


def _render_kniffel(seed: int, folder: Path) -> None:
    from companion import demo, demo_kniffel

    turns = demo_kniffel.ROUNDS * len(demo_kniffel.KNIFFEL_PLAYERS)
    _rendered(lambda step: demo_kniffel.render_session(
        seed, folder, demo.DEFAULT_SIZE, progress=step), turns, "turns")


def _rendered(render: Any, total: int, unit: str) -> None:
    """Run ``render(step)`` with a progress line counting ``total`` ``unit``."""
    from companion.progress import progress

    ticks = iter(progress(range(total), total, unit))

    def step(done: int, _total: int) -> None:
        next(ticks, None)

    render(step)
    for _ in ticks:
        pass


def _lan_address() -> str:
    """This machine's address on the LAN (what a phone types), else localhost."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("10.255.255.255", 1))  # no packet is sent: it only picks a route
            address = str(sock.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return address if not address.startswith("0.") else "127.0.0.1"


# --- export ------------------------------------------------------------------------------------


def _log_choice(args: argparse.Namespace) -> tuple[Path, str]:
    """The event log to read and where its name came from: ``--db``, else the settings (the
    service's log, not a demo's: the demo keeps its own temporary one unless given --db)."""
    from companion import config as config_mod

    if args.db is not None:
        return Path(args.db), "--db"
    where = f"--config {args.config}" if args.config is not None else "the settings"
    return Path(config_mod.load(args.config).section("table")["database"]), (
        f"the table service's log, from {where}")


def _existing_log(args: argparse.Namespace) -> tuple[Path, str]:
    """The event log ``--db`` names, else the settings' one, and where that came from; it
    must exist (a typo must not create an empty log somewhere)."""
    db, source = _log_choice(args)
    if not db.is_file():
        hint = "" if args.db is not None else "; --db FILE names another log"
        raise InputError(f"{db}: no event log there ({source}){hint}")
    return db, source


def cmd_export(args: argparse.Namespace) -> int:
    """Says on stderr which log it read: without ``--db`` that is the service's log, and a
    newcomer who played the demo expects the demo's game there."""
    db, source = _existing_log(args)
    with _open_store(db) as store:
        try:
            data = store.export(args.game)
        except KeyError:
            hint = "" if args.db is not None else (
                "; --db FILE names another log (the demo keeps its games only with --db)")
            raise InputError(f"no game {args.game} in {db} ({source}){hint}") from None
    print(f"game {args.game} read from {db} ({source})", file=sys.stderr)
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if args.output is not None:
        args.output.write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    """A new PIN, made on the device itself: someone who learnt the old one (or guessed at
    it) is out, and so is every phone logged in with it, also on a table running now."""
    with _open_store(_existing_log(args)[0]) as store:
        pin = store.roll_pin()
    sys.stdout.write(f"PIN: {pin}\nEvery phone logged in before is logged out.\n")
    return 0
