"""``companion kniffel pad`` and ``pad-check``: print the Gewinnkarte, read a photo of it.

Kept apart from the other Kniffel tools because it needs OpenCV and cairo, which are
imported inside the handlers so ``companion --help`` stays instant.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.errors import InputError
from companion.games.kniffel.dice import DEFAULT_DICE, DiceError, DiceSet
from companion.inputs import check_image, check_names, excerpt

MAX_NAMES_CHARS = 200
MAX_DICE_CHARS = 400  # seven dice of six faces, spaced: about 130
UNREAD_BELOW = 0.5  # below this a sum's reading is shown as a guess


def register(sub: Any) -> None:
    pad = sub.add_parser("pad", help="print the Wort-Kniffel score pad (PDF or PNG)",
                         description="Print a Gewinnkarte with corner markers the companion "
                         "reads back with 'pad-check'.")
    pad.add_argument("--players", default="Spieler 1,Spieler 2",
                     help="comma-separated names, 1-4 (default two players)")
    pad.add_argument("--games", type=int, default=3, help="games on one pad, 1-3 (default 3)")
    pad.add_argument("-o", "--output", type=Path, required=True, help="a .pdf or .png file")
    pad.set_defaults(func=_pad)

    check = sub.add_parser("pad-check", help="read a photo of the pad: boxes and sums",
                           description="Find the pad's markers, read every box and compare "
                           "each written sum with the sum of the boxes read.")
    check.add_argument("photo", help="a photo (PNG, JPEG…) of a pad printed by 'pad'")
    check.add_argument("--model", type=Path, help="digit model (.npz) instead of the shipped one")
    check.add_argument("--dice", metavar="FACES",
                       help="the table's own dice set, if not the built-in one: seven dice of "
                       "six faces, dice apart by ';' (\"T2 S2 E1 L2 B3 K4; O3 A1 ...\"); a "
                       "box is read knowing what these dice can make")
    check.add_argument("--json", action="store_true", help="JSON output")
    check.set_defaults(func=_pad_check)


def _pad(args: argparse.Namespace) -> int:
    from vision.kniffel_pad import sheet
    from vision.kniffel_pad.layout import Layout

    if len(args.players) > MAX_NAMES_CHARS:
        raise InputError(f"--players: longer than {MAX_NAMES_CHARS} characters")
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    check_names(names, "--players")
    layout = Layout(len(names), args.games)
    out: Path = args.output
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise InputError(f"{excerpt(str(out))}: the pad is written as .pdf or .png")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"{excerpt(str(parent))}: no such folder")
    sheet.write(out, layout, names)
    return 0


def _dice(spec: str | None) -> DiceSet:
    if spec is None:
        return DEFAULT_DICE
    if len(spec) > MAX_DICE_CHARS:
        raise InputError(f"--dice: longer than {MAX_DICE_CHARS} characters")
    try:
        return DiceSet.parse(spec.split(";"))  # each die's spaces are the parser's
    except DiceError as exc:
        raise InputError(f"--dice: {exc}") from None


def _pad_check(args: argparse.Namespace) -> int:
    from vision.kniffel_pad.digits import DigitReader
    from vision.kniffel_pad.reader import read_pad
    from vision.photo import READ_SIDE, load_image

    dice = _dice(args.dice)
    reduce = check_image(args.photo, side=READ_SIDE)
    reader = DigitReader.load(args.model)
    t0 = time.perf_counter()
    image = load_image(args.photo, reduce)  # a phone's JPEG: about the size read
    result = read_pad(image, reader, dice)
    result = replace(result, ms=(time.perf_counter() - t0) * 1000.0)  # decoding included
    view = result.view()
    if args.json:
        print(json.dumps(view, ensure_ascii=False))
    else:
        _print(view)
    return 0


def _written(check: dict[str, Any]) -> str:
    """A sum as read: '-' for an empty box, a '?' after a reading that is a guess and alone
    when nothing could be read (the player should know it was not checked, not that it is
    missing or wrong)."""
    value = "" if check["written"] is None else str(check["written"])
    if check["confidence"] < UNREAD_BELOW:
        return value + "?"
    return value or "-"


def _should_be(check: dict[str, Any]) -> str:
    """What a sum flagged wrong adds up to, with a '?' when a box it adds is a guess."""
    if check["ok"] is not False:
        return ""
    return f" (should be {check['computed']}{'' if check['sure'] else '?'})"


def _print(view: dict[str, Any]) -> None:
    print(f"pad: {view['layout']['players']} player(s) x {view['layout']['games']} game(s), "
          f"read in {view['ms']} ms")
    for col in view["players"]:
        filled = sum(1 for b in col["boxes"].values() if b["value"] is not None or b["struck"])
        if filled == 0 and all(s["written"] is None for s in col["sums"].values()):
            continue
        sums = "  ".join(f"{k} {_written(s)}{_should_be(s)}" for k, s in col["sums"].items())
        print(f"game {col['game'] + 1} player {col['player'] + 1}: {filled} boxes; {sums}")
