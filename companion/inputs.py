"""Bounds on everything a person or a file hands the companion, kept in one place.

A Pi has little memory: one endless file (``/dev/zero``), a 300 KB line, JSON nested a
thousand deep or a tiny PNG that claims 30000x30000 pixels must be refused with one line
naming the file, long before it costs gigabytes or ends in a traceback. Every tool reads
through these helpers so the limits are the same everywhere and documented once.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from companion.errors import InputError

# Real inputs are far below these: a batch of boards or rolls, a house, a moves file or a
# hand is kilobytes; a JSON game log a few hundred KB.
MAX_TEXT_BYTES = 4 * 1024 * 1024
MAX_LINE_CHARS = 4096
MAX_JSON_DEPTH = 64
# An image file and its pixels: the 12 MP camera is 36 MB decoded; 40 MP (120 MB as BGR)
# leaves room for a copy while staying under the 300 MB a tool may use.
MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000
EXCERPT_CHARS = 60
_CHUNK = 64 * 1024


def excerpt(value: str, limit: int = EXCERPT_CHARS) -> str:
    """A bad value quoted so one line stays one short line, whatever the input was."""
    flat = " ".join(value.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


def read_text(
    name: str | Path,
    *,
    max_bytes: int = MAX_TEXT_BYTES,
    max_line: int | None = MAX_LINE_CHARS,
    stdin: IO[bytes] | None = None,
) -> str:
    """A UTF-8 text file (``-`` for stdin), read in chunks so an endless one stops at the limit.

    ``max_line`` is None for formats (JSON) where one long line is normal.
    """
    where = "stdin" if str(name) == "-" else str(name)
    chunks: list[bytes] = []
    if str(name) == "-":
        # a replaced sys.stdin (tests, embedding) may be text only
        source: IO[Any] = getattr(sys.stdin, "buffer", sys.stdin) if stdin is None else stdin
        _read_chunks(source, chunks, max_bytes, where)
    else:
        with open(name, "rb") as fh:
            _read_chunks(fh, chunks, max_bytes, where)
    data = b"".join(chunks)
    del chunks
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{where}: line {at}: not UTF-8 text") from None
    if max_line is not None:
        for number, line in enumerate(text.splitlines(), start=1):
            if len(line) > max_line:
                raise InputError(
                    f"{where}: line {number}: longer than {max_line} characters "
                    f"({excerpt(line)!r})"
                )
    return text


def _read_chunks(fh: IO[Any], chunks: list[bytes], max_bytes: int, where: str) -> None:
    size = 0
    while True:
        got = fh.read(_CHUNK)
        chunk = got.encode("utf-8") if isinstance(got, str) else got
        if not chunk:
            return
        size += len(chunk)
        if size > max_bytes:
            raise InputError(f"{where}: larger than {max_bytes // 1024} KB; not read")
        chunks.append(chunk)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """The deepest nesting of ``text``, measured without recursion (strings skipped)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    steps = (1 if c in "[{" else -1 for c in brackets)
    return max(itertools.accumulate(steps, initial=0))


def load_json(text: str, where: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parsed JSON, or an :class:`InputError` naming ``where``; depth is checked first so
    a deep document never reaches the recursive parser."""
    depth = json_depth(text)
    if depth > max_depth:
        raise InputError(f"{where}: JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise InputError(f"{where}: JSON nested too deep") from None


def check_names(names: Sequence[str], option: str) -> None:
    """Names printed on a sheet: no control character (an escape, a delete), which no SVG or
    PDF may hold, and which stopped the sheet's writer with an XML parse error."""
    for name in names:
        if not name.isprintable():
            raise InputError(f"{option}: {excerpt(repr(name))} holds a control character")


def check_file(name: str | Path, *, max_bytes: int = MAX_IMAGE_BYTES) -> Path:
    """A binary file another library will read whole (a profile, a model), refused by size
    first, so ``/dev/zero`` or a huge file never reaches it."""
    path = Path(name)
    if not path.is_file():
        why = "not a regular file" if path.exists() else "no such file"
        raise InputError(f"{excerpt(str(path), 300)}: {why}")
    if path.stat().st_size > max_bytes:
        raise InputError(f"{excerpt(str(path), 300)}: larger than {max_bytes // (1024 * 1024)} MB")
    return path


def check_image(name: str | Path, *, max_pixels: int = MAX_IMAGE_PIXELS,
                side: int | None = None) -> int:
    """Refuse an image by its header, before any decoder allocates its pixels. ``side``: the
    long side the reader brings every photo down to; a JPEG then need not be decoded whole
    (:func:`reduction`), and the limit is on the pixels it will be decoded to. Returns that
    reduction (1: decoded whole)."""
    from PIL import Image, UnidentifiedImageError

    path = check_file(name)
    try:
        with warnings.catch_warnings():  # Pillow warns of 90-180 MP: we refuse it below
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as img:  # lazy: reads the header only
                width, height = img.size
                jpeg = img.format in ("JPEG", "MPO")  # MPO: a phone's JPEG with a preview
                k = reduction(width, height, side) if jpeg and side else 1
    except Image.DecompressionBombError:  # Pillow's own, far higher, limit
        raise InputError(
            f"{path}: more than {max_pixels // 1_000_000} megapixels; not decoded"
        ) from None
    except UnidentifiedImageError:
        if _heif(path):
            raise InputError(f"{path}: a HEIC photo, which this reader cannot decode; "
                             "take it as JPEG (on an iPhone: Camera, Formats, Most "
                             "Compatible)") from None
        raise InputError(f"{path}: not an image with a readable size") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise InputError(f"{path}: not a readable image ({excerpt(str(exc))})") from None
    if (width // k) * (height // k) > max_pixels:
        raise InputError(
            f"{path}: {width}x{height} pixels, more than {max_pixels // 1_000_000} megapixels; "
            "not decoded"
        )
    try:  # the file's own checksums, without decoding: a truncated file is refused here in
        # one line, before a decoder prints its own complaint to stderr
        with Image.open(path) as img:
            img.verify()
    except (OSError, ValueError, SyntaxError) as exc:
        raise InputError(f"{path}: a damaged or truncated image ({excerpt(str(exc))})") from None
    return k


def _heif(path: Path) -> bool:
    """Is the file a HEIF container (HEIC)? iPhones save photos so by default, and neither
    OpenCV nor Pillow decodes it (an AVIF, the same container, both do: it never gets here)."""
    with open(path, "rb") as fh:
        head = fh.read(12)
    return head[4:8] == b"ftyp" and head[8:12] in (
        b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1")


def reduction(width: int, height: int, side: int) -> int:
    """The largest of libjpeg's own reductions (1/2, 1/4, 1/8) that leaves a photo's long
    side at least ``side``: it decodes a JPEG straight to that size, at a fraction of the
    time and memory of decoding it whole and then shrinking it (a 12 MP phone photo: half
    the time; a 48 MP one: a sixteenth of the pixels)."""
    k = 1
    while k < 8 and max(width, height) // (2 * k) >= side:
        k *= 2
    return k


def check_folder(name: str | Path) -> Path:
    """A file to be written into a folder that exists: a typo should not create folders."""
    path = Path(name)
    if not path.parent.is_dir():
        raise InputError(f"{excerpt(str(path.parent))}: no such folder")
    return path


def check_image_out(name: str | Path) -> Path:
    """A path an image may be written to: an extension this OpenCV has a writer for (the
    list differs from build to build: the wheel here writes no .exr), in a folder that
    exists (a typo should not create folders anywhere)."""
    import cv2

    path = Path(name)
    if not path.suffix or not cv2.haveImageWriter(f"x{path.suffix.lower()}"):
        raise InputError(f"{excerpt(str(path))}: cannot write this kind of image (use .png or .jpg)")
    check_folder(path)
    return path


class OneLineParser(argparse.ArgumentParser):
    """Argument errors as the one line every other refusal is, without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"companion: error: {' '.join(message.split())}\n")


__all__ = ["MAX_IMAGE_PIXELS", "MAX_JSON_DEPTH", "MAX_LINE_CHARS", "MAX_TEXT_BYTES",
           "OneLineParser", "check_file", "check_folder", "check_image", "check_image_out",
           "excerpt", "json_depth", "load_json", "read_text", "reduction"]
