"""``companion vision read-grid`` and ``teach`` end to end, errors included."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games.moerder.board import Board
from vision import synth


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("photos")
    style = synth.styles("train")[4]
    layout = synth.make_layout(style, 91, (1280, 960), glare=False)
    board = synth.random_board(np.random.default_rng(91), face_up=14)
    full = synth.random_board(np.random.default_rng(92), face_up=36)
    out = {}
    for name, b in (("table", board), ("reference", Board()), ("teach", full)):
        img, _ = synth.render_table(b, style, 91, layout=layout, frame=len(out))
        out[name] = d / f"{name}.jpg"
        cv2.imwrite(str(out[name]), img)
    (d / "board.txt").write_text(f"{board}\n{full}\n", encoding="utf-8")
    out["boards"] = d / "board.txt"
    return out


def test_read_grid_json(photos: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "read-grid", str(photos["table"]), "--reference",
                 str(photos["reference"]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"grid", "cells", "corners", "ms", "load_ms"}
    assert cv2.getNumThreads() == 1  # a read runs on one core, OpenCV's pool left idle
    assert data["load_ms"] > 0  # making the reader is reported, beside the read
    truth = Board.parse(photos["boards"].read_text(encoding="utf-8").split()[0])
    rows = data["grid"].split("/")
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    assert len(data["cells"]) == 6 and all(len(r) == 6 for r in data["cells"])
    assert len(data["corners"]) == 4
    wrong = 0
    for i, t in enumerate(truth.cells):
        cell = data["cells"][i // 6][i % 6]
        assert set(cell) == {"state", "letter", "rotation", "confidence"}
        assert (cell["state"] == "hidden") == (t is None)
        wrong += data["grid"].replace("/", "")[i] not in ("?", "." if t is None else t.value)
    assert wrong <= 1  # the letter model may slip on one letter; the grid and backs may not


def test_read_grid_text_and_debug_image(photos: dict[str, Path], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "debug.png"
    assert main(["vision", "read-grid", str(photos["table"]), "--debug-out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and all(len(r) == 6 for r in lines[:6])
    img = cv2.imread(str(out))
    assert img is not None and img.shape == cv2.imread(str(photos["table"])).shape


def test_teach_then_read_with_the_profile(photos: dict[str, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    full = photos["boards"].read_text(encoding="utf-8").split()[1]
    profile = tmp_path / "tiles.npz"
    assert main(["vision", "teach", str(photos["teach"]), "--letters", full, "--reference",
                 str(photos["reference"]), "-o", str(profile)]) == 0
    assert "taught" in capsys.readouterr().out and profile.is_file()
    assert main(["vision", "read-grid", str(photos["table"]), "--profile", str(profile),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    truth = Board.parse(photos["boards"].read_text(encoding="utf-8").split()[0])
    got = data["grid"].replace("/", "")
    right = sum(g == ("." if t is None else t.value) for g, t in zip(got, truth.cells))
    assert right >= 33  # taught on this very set: nearly everything is read


@pytest.mark.parametrize("case", ["missing", "not-image", "no-grid", "bad-letters",
                                  "bad-profile"])
def test_errors_are_one_line_and_exit_2(case: str, photos: dict[str, Path], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    argv = {
        "missing": ["vision", "read-grid", str(tmp_path / "nope.jpg")],
        "not-image": ["vision", "read-grid", str(text)],
        "no-grid": ["vision", "read-grid", str(blank)],
        "bad-letters": ["vision", "teach", str(photos["teach"]), "--letters", "MMMMMMMM"],
        "bad-profile": ["vision", "read-grid", str(photos["table"]), "--profile", str(text)],
    }[case]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("companion: error: ")
