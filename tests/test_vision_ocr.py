"""Tesseract kept in the reading process (``vision.ocr``): the same words and boxes as the
``tesseract`` program gives, from one model loaded once; bad input and a missing language
are clear errors; the process ends quietly."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import ocr

ROOT = Path(__file__).resolve().parents[1]
LINES = ("Summe oben", "Bonus bei 63", "Gesamt unten", "Chance")


def _strip(lines: tuple[str, ...] = LINES) -> np.ndarray:
    """Printed lines, dark on white, one under another as a pad's labels are stacked."""
    img = np.full((60 * len(lines) + 30, 420), 255, np.uint8)
    for k, text in enumerate(lines):
        cv2.putText(img, text, (15, 60 * k + 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    return img


def test_the_engine_is_loaded_in_the_process_where_tesseract_is_installed() -> None:
    # the setup installs tesseract-ocr, which brings its C library: the slow way (a program
    # started a call) must not be what runs here
    assert ocr._engine("deu") is not None


def test_words_are_read_with_their_boxes_on_their_lines() -> None:
    got = ocr.words(_strip())
    assert [w.text for w in got] == " ".join(LINES).split()
    for w in got:
        line = [k for k, text in enumerate(LINES) if w.text in text.split()][0]
        assert 60 * line + 20 <= w.top + w.height / 2 <= 60 * line + 55
        assert w.line == line
        assert w.width > 10 and 50 < w.conf <= 100


def test_the_same_words_and_boxes_as_the_tesseract_program() -> None:
    img = _strip()
    here, there = ocr.words(img), ocr._by_program(img, "deu", 6)
    # the program prints the confidence as a whole number
    assert [(w.text, w.left, w.top, w.width, w.height, w.line) for w in here] == [
        (w.text, w.left, w.top, w.width, w.height, w.line) for w in there]
    assert all(abs(a.conf - b.conf) <= 1 for a, b in zip(here, there, strict=True))
    letter = np.full((160, 160), 255, np.uint8)
    cv2.putText(letter, "R", (40, 125), cv2.FONT_HERSHEY_SIMPLEX, 3.5, 0, 8)
    single = ocr.words(letter, psm=10)
    assert [w.text for w in single] == ["R"]
    assert [w.text for w in ocr._by_program(letter, "deu", 10)] == ["R"]


def test_reads_from_several_threads_are_taken_one_at_a_time() -> None:
    images = [_strip(LINES[k:] + LINES[:k]) for k in range(len(LINES))]
    got: dict[int, list[str]] = {}

    def read(k: int) -> None:
        got[k] = [w.text for w in ocr.words(images[k])]

    threads = [threading.Thread(target=read, args=(k,)) for k in range(len(images))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(len(images)):
        assert got[k] == " ".join(LINES[k:] + LINES[:k]).split()


def test_a_blank_image_has_no_words() -> None:
    assert ocr.words(np.full((80, 300), 255, np.uint8)) == []


@pytest.mark.parametrize("image", [np.zeros((40, 40, 3), np.uint8), np.zeros((40, 40), np.float32),
                                   np.zeros((0, 40), np.uint8)])
def test_what_is_not_a_grey_image_is_refused(image: np.ndarray) -> None:
    with pytest.raises(ocr.OcrError, match="8-bit grey"):
        ocr.words(image)


def test_a_language_without_a_model_is_a_clear_error() -> None:
    with pytest.raises(ocr.OcrError, match="no model for language 'xqz'"):
        ocr.words(_strip(), lang="xqz")


def test_the_process_ends_without_tesseract_complaining() -> None:
    # the model is freed before the interpreter ends; else Tesseract's cache prints a
    # "LEAK" warning on stderr as a CLI exits
    code = ("import numpy as np; from vision import ocr; "
            "print(len(ocr.words(np.full((50, 50), 255, np.uint8))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "0"
    assert "LEAK" not in done.stderr and done.stderr.strip() == ""
