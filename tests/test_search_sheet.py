"""The printed sheet: SVG content, and the PDF drawn to pixels by poppler's pdftoppm."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from companion.games.search import sheet
from companion.tools.search import sheet_pdf
from companion.games.search.house import House

SVG = "{http://www.w3.org/2000/svg}"
DPI = 100


def test_svg_holds_rooms_dots_corridors_triangles_and_tracks() -> None:
    house = House.generate(7)
    root = ET.fromstring(sheet.svg(house, ("Ann", "Bob", "Cy")))
    rects = root.iter(f"{SVG}rect")
    side = f"{sheet.grid_box(house)[2]:.2f}".rstrip("0").rstrip(".")
    rooms = [r for r in rects if r.get("width") == side and r.get("height") == side]
    assert len(rooms) == 88
    circles = list(root.iter(f"{SVG}circle"))
    corridor_ends = [c for c in circles if c.get("r") == "0.55"]
    dots = [c for c in circles if c.get("r") != "0.55"]
    assert len(dots) == house.total_dots
    assert len(corridor_ends) == 88
    assert len(list(root.iter(f"{SVG}path"))) == 44  # one curve per corridor
    assert len(list(root.iter(f"{SVG}polygon"))) == 12  # six row and six column triangles
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for name in ("Ann", "Bob", "Cy"):
        assert name in texts
    # one box per dot of the house on each track, numbered
    assert texts.count(str(house.total_dots)) >= 3
    # each corridor tag is written in exactly its two rooms
    tags = {}
    for t in root.iter(f"{SVG}text"):
        if t.get("font-size") == "2.9" and t.text:
            tags.setdefault(t.text, 0)
            tags[t.text] += 1
    assert len(tags) == 44 and set(tags.values()) == {2}


def test_names_are_escaped() -> None:
    root = ET.fromstring(sheet.svg(House.generate(1), ("<Ann & Bob>",)))
    assert "<Ann & Bob>" in [t.text for t in root.iter(f"{SVG}text")]


def _pgm(path: Path) -> np.ndarray:
    data = path.read_bytes()
    parts = data.split(maxsplit=4)
    assert parts[0] == b"P5"
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4][: width * height], dtype=np.uint8).reshape(height, width)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")
def test_pdf_renders_a_house_grid_and_tracks(tmp_path: Path) -> None:
    house = House.generate(7)
    pdf = tmp_path / "house.pdf"
    pdf.write_bytes(sheet_pdf(sheet.svg(house, ("Ann", "Bob"))))
    assert pdf.read_bytes().startswith(b"%PDF")
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(DPI), "-singlefile", str(pdf), str(tmp_path / "page")],
        check=True,
    )
    img = _pgm(tmp_path / "page.pgm")
    h, w = img.shape
    assert abs(w / h - 210 / 297) < 0.01  # one A4 page
    dark = img < 128
    assert 0.02 < dark.mean() < 0.5  # ink, but not a black page

    def px(mm: float) -> int:
        return round(mm * DPI / 25.4)

    x0, y0, cell = sheet.grid_box(house)
    grid = dark[px(y0) - 2 : px(y0 + 8 * cell) + 3, px(x0) - 2 : px(x0 + 11 * cell) + 3]
    # the walls: 9 horizontal and 12 vertical lines running across the whole house
    def lines(profile: np.ndarray) -> int:
        full = profile > 0.85
        return int(np.sum(full[1:] & ~full[:-1]) + full[0])

    assert lines(grid.mean(axis=1)) == 9
    assert lines(grid.mean(axis=0)) == 12
    # below the house: the tracks' boxes hold ink; above the title: white margin
    tracks = dark[px(y0 + 8 * cell + 10) :, :]
    assert tracks.mean() > 0.01
    assert not dark[: px(5), :].any()
