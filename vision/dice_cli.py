"""``companion vision read-dice``: find and read every letter die in a photo.

    companion vision read-dice PHOTO [--set FILE] [--profile FILE] [--debug-out PNG] [--json]
    companion vision teach PHOTO --dice --letters "T O R E I C H" [-o FILE]   (vision.cli)

``--set FILE`` is the table's dice set as JSON: a list of seven dice, each a string of six
faces like ``"T2 S2 E1 L2 B3 K4"`` (``*`` the diamond); it gives a read letter its value
when the die prints no value digit or it cannot be read.
JSON out: ``{"dice": [{"letter": "E", "value": 1, "value_from": "digit", "center": [x, y],
"corners": [[x, y] x4], "confidence": 0.93}], "ms": 12.3}``; ``?`` is an unsure letter,
``value`` is null when unknown; ``value_from`` says where the value came from: ``digit``
(printed on the die), ``set``, ``digit-not-set`` (printed, and the set says otherwise: the
print counts), ``rule`` (the diamond, 0) or null.
A file that is no image, a bad set or an unwritable debug path is one line and exit code 2.

The group ``vision`` itself is registered by ``vision.cli``, which calls ``add_commands``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import InputError
from companion.inputs import check_image, check_image_out, load_json, read_text
from vision import VisionError, on_one_core


class ReadDiceError(VisionError):
    """Bad input to read-dice (not an image, a bad dice set)."""


def add_commands(vision_subparsers: Any) -> None:
    """Add ``read-dice`` to the ``vision`` group's sub-parsers."""
    p = vision_subparsers.add_parser(
        "read-dice", help="find and read every letter die in a photo",
        description="Find every letter die in PHOTO (loose or in a tray, any angle) and read its "
        "top face: A-Z, * for the diamond, ? when unsure.")
    p.add_argument("photo", metavar="PHOTO", help="photo of the table (JPEG, PNG…)")
    p.add_argument("--set", metavar="FILE", dest="dice_set",
                   help="the dice set as JSON: seven strings of six faces, e.g. \"T2 S2 E1 L2 B3 K4\"; "
                   "gives the value of a die whose value digit is not printed or not readable")
    p.add_argument("--debug-out", metavar="PNG", help="write the photo with the dice and letters drawn")
    p.add_argument("--json", action="store_true", help="print JSON (dice, ms)")
    p.add_argument("--profile", metavar="FILE", help="a reader taught the table's own dice (vision teach --dice)")
    p.set_defaults(func=run_read_dice)


DEFAULT_DICE_PROFILE = "dice-profile.npz"


def run_teach_dice(args: argparse.Namespace) -> int:
    from vision.dice import teach
    from vision.dice_read import SYMBOLS

    letters = args.letters.replace(",", " ").upper().split()
    if not letters or any(len(x) != 1 or x not in SYMBOLS for x in letters):
        raise ReadDiceError("--letters: the dice's letters left to right, A-Z or *, e.g. 'T O R E I C H'")
    output = args.output or DEFAULT_DICE_PROFILE
    reader = teach(_load_photo(args.photo), letters)
    try:
        reader.save(output)
    except OSError as exc:
        raise ReadDiceError(f"{output}: cannot write the profile ({exc.strerror or exc})") from None
    print(f"taught {len(letters)} faces ({' '.join(letters)}) -> {output}")
    return 0


def load_dice_set(path: str) -> Any:
    """A ``DiceSet`` from a JSON file, refused in one line when it is not one."""
    from companion.games.kniffel.dice import DiceError, DiceSet

    try:
        data = load_json(read_text(path, max_bytes=64 * 1024, max_line=None), path)
    except OSError as exc:
        raise ReadDiceError(f"{path}: cannot read the dice set ({exc.strerror or exc})") from None
    if not isinstance(data, list) or not all(isinstance(d, str) for d in data):
        raise ReadDiceError(f"{path}: a dice set is a JSON list of seven strings of six faces")
    try:
        return DiceSet.parse(data)
    except DiceError as exc:
        raise ReadDiceError(f"{path}: {exc}") from None


def _load_photo(path: str) -> Any:
    import cv2
    import numpy as np

    try:
        check_image(path)
    except InputError as exc:
        raise ReadDiceError(str(exc)) from None
    data = np.fromfile(path, dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ReadDiceError(f"{path}: not an image OpenCV can read")
    return img


def run_read_dice(args: argparse.Namespace) -> int:
    from vision.dice import draw, read_dice

    if args.debug_out:
        check_image_out(args.debug_out)  # before the slow part, so a typo costs nothing
    dice_set = load_dice_set(args.dice_set) if args.dice_set else None
    on_one_core()
    image = _load_photo(args.photo)
    models = None
    if args.profile:
        from vision.dice import DiceModels
        from vision.dice_read import DiceReaderError

        try:
            models = DiceModels.load(args.profile)
        except DiceReaderError as exc:
            raise ReadDiceError(str(exc).splitlines()[0]) from None
    found = read_dice(image, dice_set, models=models)
    if args.debug_out:
        import cv2

        if not cv2.imwrite(args.debug_out, draw(image, found)):
            raise ReadDiceError(f"{args.debug_out}: cannot write the debug image")
    if args.json:
        print(json.dumps(found.to_json(), ensure_ascii=False))
        return 0
    for d in found.dice:
        value = "" if d.value is None else f"  value {d.value} ({d.value_from})"
        print(f"{d.letter}  at {d.center[0]:.0f},{d.center[1]:.0f}  confidence {d.confidence:.2f}{value}")
    unsure = sum(d.letter == "?" for d in found.dice)
    print(f"({len(found.dice)} dice, {unsure} unsure, {found.ms:.0f} ms)")
    return 0


__all__ = ["ReadDiceError", "add_commands", "load_dice_set", "run_read_dice", "run_teach_dice"]
