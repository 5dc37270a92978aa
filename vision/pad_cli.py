"""``companion vision read-pad``: find every score table in a photo and read every cell.

    companion vision read-pad PHOTO [--text] [--sums] [--debug-out PNG] [--json] [--model FILE]

JSON out: ``{"tables": [{"rows": R, "cols": C, "corners": [[x, y] x4], "cells": [[{"value":
int|null, "struck": bool, "text": str|null, "confidence": 0..1}, ...], ...]}, ...], "ms": ...}``
(tables top to bottom; a merged cell carries ``span`` where it is read and ``merged`` where it
is covered, see docs/vision-pad.md). With ``--sums`` (which reads the printed labels) the
JSON also carries ``"sums"``: every sum row's cell, written against what its parts add up to
(``vision.pad.sums``). ``ms`` is the whole read from the file's decoding on (the networks'
loading aside); a phone's JPEG is decoded straight at about the size it is read at (a half,
a quarter or an eighth of its sides), corners are still in the file's own pixels, and the
debug image is drawn at the size decoded. A file that is no image, a photo without a table or an
unwritable debug path is one line and exit code 2. The group ``vision`` is registered by
``vision.cli``, which calls ``add_commands``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from companion.errors import InputError
from companion.inputs import check_file, check_image, check_image_out
from vision import on_one_core


def add_commands(vision_subparsers: Any) -> None:
    """Add ``read-pad`` to the ``vision`` group's sub-parsers."""
    p = vision_subparsers.add_parser(
        "read-pad", help="read every table of a score pad photo (no markers needed)",
        description="Find the printed or hand-ruled tables in PHOTO and read every cell: a "
        "handwritten number, a struck box (value 0), printed text, or blank.")
    p.add_argument("photo", metavar="PHOTO", help="photo of the pad (JPEG, PNG…)")
    p.add_argument("--text", action="store_true",
                   help="read the printed cells with Tesseract too (slower; a Kniffel "
                   "card's rows then say what their boxes may hold)")
    p.add_argument("--sums", action="store_true",
                   help="check every sum row against its parts (reads the labels: slower)")
    p.add_argument("--debug-out", metavar="PNG", help="write the photo with cells and readings")
    p.add_argument("--json", action="store_true", help="print JSON (tables, cells, ms)")
    p.add_argument("--model", metavar="FILE", help="digit model (default: the shipped one)")
    p.set_defaults(func=run_read_pad)


def run_read_pad(args: argparse.Namespace) -> int:
    import cv2

    from vision.kniffel_pad.digits import DigitReader
    from vision.photo import READ_SIDE, load_image
    from vision.pad import draw, read_pad
    from vision.pad.sums import check, settle

    if args.debug_out:
        check_image_out(args.debug_out)  # before the slow part, so a typo costs nothing
    if args.model:
        check_file(args.model)
    reduce = check_image(args.photo, side=READ_SIDE)
    reader = DigitReader.load(args.model)
    on_one_core()
    t0 = time.perf_counter()
    image = load_image(args.photo, reduce)  # a phone's JPEG decoded at about the size read
    read = read_pad(image, reader, text=args.text or args.sums)
    if args.sums:
        read = settle(read)  # the numbers the sums leave no choice about
    found = read.decoded(reduce, (time.perf_counter() - t0) * 1000.0)
    sums = check(found) if args.sums else None
    if args.debug_out and not cv2.imwrite(args.debug_out, draw(image, read)):
        raise InputError(f"{args.debug_out}: cannot write the debug image")
    view = found.view()
    if sums is not None:
        view["sums"] = [s.view() for s in sums]
    if args.json:
        print(json.dumps(view, ensure_ascii=False))
        return 0
    for k, t in enumerate(found.tables, start=1):
        print(f"table {k}: {t.rows} x {t.cols}")
        for row in t.cells:
            print("  " + " | ".join(_cell(c) for c in row))
    for s in sums or ():
        if s.ok is False:
            doubt = "" if s.sure else "?"
            print(f"table {s.table + 1}, row {s.row + 1}, column {s.col + 1} ({s.label}): "
                  f"{s.written} written, should be {s.computed}{doubt}")
    if sums is not None and not sums:
        print("no sum rows found (none of the labels read says Summe, gesamt or total)")
    elif sums is not None and not any(s.ok is False for s in sums):
        print(f"every written sum adds up ({sum(s.ok is True for s in sums)} checked)")
    print(f"({found.ms:.0f} ms)")
    return 0


def _cell(c: Any) -> str:
    if c.merged is not None:
        return "<"
    if c.text is not None:
        return c.text.replace("\n", " / ") or "T"
    if c.struck:
        return "X"
    return "" if c.value is None else str(c.value)


__all__ = ["add_commands", "run_read_pad"]
