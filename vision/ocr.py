"""Tesseract in the reading process: one engine a language, loaded once and kept.

pytesseract starts the ``tesseract`` program for every call, and each start loads the
language's model again: about 125 ms of one core before a word is read, on a strip of a
pad's 10 printed labels as on a strip of 40. Through Tesseract's own C library (``libtesseract``,
which the ``tesseract-ocr`` package brings) the model is loaded by the first call only, and a
strip costs what reading it costs; the words and their boxes are the same.

Where the library cannot be loaded (a Tesseract built without it), the words come from
pytesseract as before, slower but the same. The engine is not thread-safe: calls are taken
one at a time. Its OpenMP threads follow ``OMP_THREAD_LIMIT`` as read when the library is
first loaded (:func:`vision.on_one_core` sets it).
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import threading
from dataclasses import dataclass

import numpy as np

from vision import VisionError

_RIL_TEXTLINE, _RIL_WORD = 2, 3  # Tesseract's PageIteratorLevel for lines and words
_LIBRARY = ("libtesseract.so.5", "libtesseract.so")


class OcrError(VisionError):
    """Tesseract is missing, has no model for the language, or failed."""


@dataclass(frozen=True)
class Word:
    """A word Tesseract read, with its box in the image's pixels, its confidence (0..100, as
    Tesseract gives it) and the line of text it is on (counted from 0 in reading order: a
    label printed on two lines is two lines, not one run of words)."""

    text: str
    left: int
    top: int
    width: int
    height: int
    conf: float
    line: int


def words(gray: np.ndarray, lang: str = "deu", psm: int = 6) -> list[Word]:
    """The words in a grey image, in Tesseract's reading order."""
    if gray.ndim != 2 or gray.dtype != np.uint8 or min(gray.shape) < 1:
        raise OcrError("Tesseract reads an 8-bit grey image")
    engine = _engine(lang)
    if engine is None:
        return _by_program(gray, lang, psm)
    return engine.read(np.ascontiguousarray(gray), psm)


class _Engine:
    """One TessBaseAPI, its model loaded for one language."""

    def __init__(self, lib: ctypes.CDLL, lang: str) -> None:
        self._lib = lib
        self._lock = threading.Lock()
        self._api = lib.TessBaseAPICreate()
        if lib.TessBaseAPIInit3(self._api, None, lang.encode()) != 0:
            lib.TessBaseAPIDelete(self._api)
            raise OcrError(f"Tesseract has no model for language {lang!r} "
                           "(install tesseract-ocr-" + lang + ")")
        # Tesseract reads a line again as white on black when it is unsure of it; every
        # image given here is dark print on light (the pad's label strips and the letter
        # crops are made so), and that second reading cost a tenth of the time on the pad
        # bench's 23 label strips, the words read the same
        lib.TessBaseAPISetVariable(self._api, b"tessedit_do_invert", b"0")
        atexit.register(self.close)

    def read(self, gray: np.ndarray, psm: int) -> list[Word]:
        lib = self._lib
        with self._lock:
            if self._api is None:
                raise OcrError("Tesseract was closed")
            lib.TessBaseAPISetPageSegMode(self._api, psm)
            lib.TessBaseAPISetImage(self._api, gray.ctypes.data, gray.shape[1], gray.shape[0],
                                    1, gray.strides[0])
            if lib.TessBaseAPIRecognize(self._api, None) != 0:
                raise OcrError("Tesseract could not read the image")
            it = lib.TessBaseAPIGetIterator(self._api)
            try:
                return self._words(it) if it else []
            finally:
                if it:
                    lib.TessResultIteratorDelete(it)
                lib.TessBaseAPIClear(self._api)

    def _words(self, it: int) -> list[Word]:
        lib = self._lib
        out = []
        box = [ctypes.c_int() for _ in range(4)]
        line = -1
        while True:
            page = lib.TessResultIteratorGetPageIteratorConst(it)
            line += bool(lib.TessPageIteratorIsAtBeginningOf(page, _RIL_TEXTLINE))
            text = lib.TessResultIteratorGetUTF8Text(it, _RIL_WORD)
            if text:
                word = ctypes.string_at(text).decode("utf-8", "replace")
                lib.TessDeleteText(text)
                lib.TessPageIteratorBoundingBox(page, _RIL_WORD, *map(ctypes.byref, box))
                x0, y0, x1, y1 = (b.value for b in box)
                out.append(Word(word, x0, y0, x1 - x0, y1 - y0,
                                float(lib.TessResultIteratorConfidence(it, _RIL_WORD)),
                                max(line, 0)))
            if not lib.TessResultIteratorNext(it, _RIL_WORD):
                return out

    def close(self) -> None:
        """Free the model before the interpreter ends (else Tesseract's cache complains of a
        leak on stderr as the process exits)."""
        with self._lock:
            if self._api is not None:
                self._lib.TessBaseAPIEnd(self._api)
                self._lib.TessBaseAPIDelete(self._api)
                self._api = None


_engines: dict[str, _Engine | None] = {}
_made = threading.Lock()


def _engine(lang: str) -> _Engine | None:
    with _made:
        if lang not in _engines:
            lib = _library()
            _engines[lang] = None if lib is None else _Engine(lib, lang)
        return _engines[lang]


def _library() -> ctypes.CDLL | None:
    names = [*_LIBRARY, ctypes.util.find_library("tesseract")]
    for name in filter(None, names):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        return _typed(lib)
    return None


def _typed(lib: ctypes.CDLL) -> ctypes.CDLL:
    """The C API's signatures: without them ctypes passes 64-bit pointers as 32-bit ints."""
    p, i, s = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    signatures = {
        "TessBaseAPICreate": ([], p),
        "TessBaseAPIInit3": ([p, s, s], i),
        "TessBaseAPISetVariable": ([p, s, s], i),
        "TessBaseAPISetPageSegMode": ([p, i], None),
        "TessBaseAPISetImage": ([p, p, i, i, i, i], None),
        "TessBaseAPIRecognize": ([p, p], i),
        "TessBaseAPIGetIterator": ([p], p),
        "TessBaseAPIClear": ([p], None),
        "TessBaseAPIEnd": ([p], None),
        "TessBaseAPIDelete": ([p], None),
        "TessResultIteratorGetUTF8Text": ([p, i], p),
        "TessResultIteratorGetPageIteratorConst": ([p], p),
        "TessResultIteratorConfidence": ([p, i], ctypes.c_float),
        "TessResultIteratorNext": ([p, i], i),
        "TessResultIteratorDelete": ([p], None),
        "TessPageIteratorBoundingBox": ([p, i] + [ctypes.POINTER(i)] * 4, i),
        "TessPageIteratorIsAtBeginningOf": ([p, i], i),
        "TessDeleteText": ([p], None),
    }
    for name, (args, result) in signatures.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, result
    return lib


def _by_program(gray: np.ndarray, lang: str, psm: int) -> list[Word]:
    try:
        import pytesseract

        data = pytesseract.image_to_data(gray, lang=lang, config=f"--psm {psm}",
                                         output_type=pytesseract.Output.DICT)
    except (ImportError, OSError, RuntimeError) as exc:  # TesseractError is a RuntimeError
        raise OcrError(f"Tesseract failed: {exc}") from exc
    lines: dict[tuple[int, int, int], int] = {}
    out = []
    for k, t in enumerate(data["text"]):
        if str(t).strip():
            at = (int(data["block_num"][k]), int(data["par_num"][k]), int(data["line_num"][k]))
            out.append(Word(str(t).strip(), int(data["left"][k]), int(data["top"][k]),
                            int(data["width"][k]), int(data["height"][k]),
                            float(data["conf"][k]), lines.setdefault(at, len(lines))))
    return out


__all__ = ["OcrError", "Word", "words"]
