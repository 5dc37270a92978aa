"""``companion vision read-letter``: read one cropped letter (or a list of them) from files.

    companion vision read-letter IMAGE [--alphabet LETTERS] [--json] [--model PATH]
    companion vision read-letter --batch LISTFILE [--alphabet LETTERS] [--model PATH]

``--batch`` reads one image path per line (blank lines and lines starting with # are
skipped; relative paths are relative to the list file) and writes JSON Lines to stdout in the
same order, with progress on stderr. An image that cannot be read gives a line with
``error`` instead of a reading; the run goes on and exits 2 at the end.

The group ``vision`` itself is registered by ``vision.cli``, which calls ``add_commands``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import InputError
from companion.inputs import OneLineParser, check_file, check_image, read_text
from vision import VisionError

EXIT_USAGE = 2


class ReadLetterError(VisionError):
    """Bad input to read-letter (a file that is no image, a bad list or alphabet)."""


def add_commands(vision_subparsers: Any) -> None:
    """Add ``read-letter`` to the ``vision`` group's sub-parsers."""
    p = vision_subparsers.add_parser(
        "read-letter",
        help="read one cropped letter (a tile or cube face, any rotation)",
        description="Read a single letter A-Z, Ä, Ö, Ü from a cropped image, in any of 4 rotations.",
    )
    p.add_argument("image", nargs="?", help="image file of one tile or cube face")
    p.add_argument("--batch", metavar="LISTFILE", help="file with one image path a line; JSON Lines out")
    p.add_argument("--alphabet", metavar="LETTERS", help='only these letters, e.g. "MÖRDE"')
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--model", metavar="PATH", help="a letter model (e.g. one saved by teach)")
    p.set_defaults(func=run_read_letter)


def _imread(path: Path) -> Any:
    import cv2
    import numpy as np

    try:
        check_image(path)
    except InputError as exc:
        raise ReadLetterError(str(exc)) from None
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        raise ReadLetterError(f"{path}: cannot open ({exc.strerror or exc})") from exc
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ReadLetterError(f"{path}: not an image OpenCV can read")
    return img


def _as_dict(reading: Any) -> dict[str, Any]:
    return {
        "letter": reading.letter,
        "rotation": reading.rotation,
        "confidence": reading.confidence,
        "candidates": [[c, s] for c, s in reading.candidates],
    }


def _outside(reader: Any, crop: Any, alphabet: str | None) -> str:
    """A "?" under ``--alphabet`` is often a clear letter the alphabet leaves out: say which,
    so the answer does not read as a failure of the reader."""
    if alphabet is None:
        return ""
    free = reader.read(crop)
    if free.letter is None:
        return ""
    return f"; without --alphabet it reads {free.letter}, confidence {free.confidence:.2f}"


def run_read_letter(args: argparse.Namespace) -> int:
    from companion.progress import progress
    from vision.letters import LetterError, LetterReader

    if (args.image is None) == (args.batch is None):
        raise ReadLetterError("give either IMAGE or --batch LISTFILE")
    try:
        if args.model is not None:
            check_file(args.model)
        reader = LetterReader.load(args.model)
        if args.alphabet is not None:
            reader.read_many([], args.alphabet)  # check the alphabet before any work
    except LetterError as exc:
        raise ReadLetterError(str(exc)) from exc

    if args.image is not None:
        crop = _imread(Path(args.image))
        reading = reader.read(crop, args.alphabet)
        if args.json:
            print(json.dumps(_as_dict(reading), ensure_ascii=False))
        elif reading.letter is None:
            best = ", ".join(f"{c} {s:.2f}" for c, s in reading.candidates) or "nothing"
            print(f"? (unsure; best: {best}{_outside(reader, crop, args.alphabet)})")
        else:
            print(f"{reading.letter}  rotation {reading.rotation}  confidence {reading.confidence:.2f}")
        return 0

    listfile = Path(args.batch)
    try:
        lines = read_text(listfile).splitlines()
    except OSError as exc:
        raise ReadLetterError(f"{listfile}: cannot read the list ({exc.strerror or exc})") from exc
    paths = [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]
    failed = 0
    for name in progress(paths, len(paths), "read-letter"):
        path = Path(name)
        if not path.is_absolute():
            path = listfile.parent / path
        try:
            row = {"image": name, **_as_dict(reader.read(_imread(path), args.alphabet))}
        except (ReadLetterError, LetterError) as exc:
            failed += 1
            row = {"image": name, "error": str(exc)}
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    if failed:
        print(f"companion: error: {failed} of {len(paths)} images could not be read", file=sys.stderr)
        return EXIT_USAGE
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry (``python -m vision.letters_cli read-letter ...``), same behaviour."""
    parser = OneLineParser(prog="vision")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (ValueError, OSError) as exc:
        print(f"companion: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
