"""Tesseract as a single-letter reader (psm 10, German), for comparison and second opinions.

Tesseract reads upright text; a turned letter is read by trying the four turns and keeping
the one Tesseract is surest of. Imported lazily: the table does not need Tesseract to run.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.letters import LETTERS, LetterReading
from vision.ocr import words

_TURN_BACK = {  # undo a clockwise turn of the letter
    0: None,
    90: cv2.ROTATE_90_COUNTERCLOCKWISE,
    180: cv2.ROTATE_180,
    270: cv2.ROTATE_90_CLOCKWISE,
}


_LOOKS_LIKE = {"0": "O", "1": "I", "|": "I", "5": "S", "8": "B", "ß": "B"}


def _prepare(crop: np.ndarray) -> np.ndarray:
    """Dark letter on white, about 100 px tall, with a white margin: what Tesseract likes."""
    g = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    g = cv2.resize(g, (100, 100), interpolation=cv2.INTER_CUBIC)
    mid = g[20:80, 20:80]
    med = float(np.median(mid))
    lo, hi = np.percentile(mid, (2, 98))
    if (hi - med) > (med - lo):  # light letter on dark face
        g = 255 - g
    _, bw = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return cv2.copyMakeBorder(bw, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=255)


def read_upright(crop: np.ndarray, alphabet: str | None = None, lang: str = "deu",
                 ) -> tuple[str | None, float]:
    """Tesseract's single letter for an upright crop, with its confidence (0..1)."""
    allowed = alphabet.upper() if alphabet else LETTERS
    # No tessedit_char_whitelist: with non-ASCII letters in it (ÄÖÜ) Tesseract 5 returns
    # nothing at all. Case is folded instead, and digits that are letter shapes are mapped.
    read = words(_prepare(crop), lang=lang, psm=10)
    best: tuple[str | None, float] = (None, 0.0)
    for word in read:
        t = _LOOKS_LIKE.get(word.text.upper(), word.text.upper())
        if len(t) == 1 and t in allowed and word.conf / 100.0 > best[1]:
            best = (t, word.conf / 100.0)
    return best


def read(crop: np.ndarray, alphabet: str | None = None, turns: bool = True) -> LetterReading:
    """Best of the four turns (or upright only when ``turns`` is False)."""
    best: tuple[str | None, int, float] = (None, 0, 0.0)
    for rot in (0, 90, 180, 270) if turns else (0,):
        code = _TURN_BACK[rot]
        img = crop if code is None else cv2.rotate(crop, code)
        letter, conf = read_upright(img, alphabet)
        if letter is not None and conf > best[2]:
            best = (letter, rot, conf)
    return LetterReading(best[0], best[1], round(best[2], 4))
