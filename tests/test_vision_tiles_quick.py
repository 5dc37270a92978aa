"""Reading quickly changes no reading: cells measured as one stack are each cell measured
alone, a read imports nothing once its reader is made, and without a reference the backs
found are not read a second time."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.moerder.board import Board
from vision import synth
from vision.grid import locate
from tiles_support import Scene, letters, scene  # noqa: F401 (fixtures)
from vision.letters import LetterReader, LetterReading
from vision.observation import crops_of
from vision.tiles import TileReader, TileSettings, against_reference, cell_ref, look
from vision.tiles.appearance import looks, shift_sim
from vision.tiles.reference import cell_refs, compare
from vision.tiles.settings import DEFAULT_SETTINGS



def test_a_frame_measured_as_one_stack_is_each_cell_measured_alone(scene: Scene) -> None:
    """The cells are measured together for speed; no cell's measure may depend on its
    neighbours in the stack (a blur reaching into the next crop would)."""
    _, _, _, img, ref = scene
    crops = crops_of(img, locate(img))[:12] + [np.full((70, 66, 3), 255, np.uint8)]
    s = TileSettings()
    together = looks(crops, s)
    for crop, both in zip(crops, together, strict=True):
        alone = look(crop, s)
        for f in ("chroma", "pattern", "detail", "fine"):
            np.testing.assert_allclose(getattr(both, f), getattr(alone, f), atol=1e-4)
        for f in ("light", "texture", "spread", "glare", "coarse", "ink", "lines"):
            assert getattr(both, f) == pytest.approx(getattr(alone, f), abs=1e-4)
    # the reference's cells: the verdicts of all at once are those of each alone
    backs = crops_of(ref, locate(img))[:12]
    refs = cell_refs(backs, s)
    for r, b in zip(refs, backs, strict=True):
        np.testing.assert_allclose(r.fine, cell_ref(b, s).fine, atol=1e-4)
    crossed = compare(refs, crops[:12], s)
    assert [v for v, _ in crossed] == [against_reference(r, c, s)
                                       for r, c in zip(refs, crops[:12], strict=True)]


def test_the_shift_tolerant_match_is_opencvs_normalised_correlation(scene: Scene) -> None:
    """The match of two faces' fine structure is computed as one matrix product with each
    window's norm from integral images; it must still be OpenCV's normalised correlation of
    one face's middle, in each of its four turns, over every shift of the other."""
    _, _, _, img, _ = scene
    s = TileSettings()
    seen = looks(crops_of(img, locate(img))[:8], s)
    m = s.shift
    for a in seen:
        for b in seen:
            assert a.fine is not None and b.fine is not None
            middles = [np.ascontiguousarray(np.rot90(b.fine, k)[m:-m, m:-m]) for k in range(4)]
            want = max(float(cv2.matchTemplate(a.fine, t, cv2.TM_CCOEFF_NORMED).max())
                       for t in middles)
            assert shift_sim(a, b, s) == pytest.approx(want, abs=2e-4)
    # a face without structure (its fine part one level all over) is like no face: a window's
    # mean drops out of the product only up to rounding, which must not be scaled up
    flat = dataclasses.replace(seen[0], fine=np.full_like(seen[0].fine, 7.0))
    assert all(shift_sim(flat, b, s) == pytest.approx(0.0, abs=1e-6) for b in seen)


def test_a_read_imports_nothing_once_its_reader_is_made(scene: Scene,
                                                        letters: LetterReader) -> None:
    """What a process pays once (imports the libraries make on first use, such as numpy.ma
    behind a float median) is paid when the reader is made, never inside a frame's read."""
    _, _, _, img, ref = scene
    code = (
        "import sys, cv2, numpy as np\n"
        "from vision.observation import read_grid\n"
        "from vision.tiles import TileReader\n"
        "from vision.letters import LetterReader\n"
        "tiles = TileReader(LetterReader.load())\n"
        "img, ref = (np.load(sys.argv[1])[k] for k in ('img', 'ref'))\n"
        "before = set(sys.modules)\n"
        "read_grid(img, tiles, reference=ref)\n"
        "print(sorted(set(sys.modules) - before))\n")
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/frames.npz"
        np.savez(path, img=img, ref=ref)
        out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True,
                             check=True, cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "[]"


def test_without_a_reference_the_backs_found_are_not_read_in_four_turns(
        letters: LetterReader) -> None:
    """A second look (four passes of the network) is for cells in doubt; a face-down cell
    the back inferred from the frame explains is not one, whatever its first look said (on
    this patterned back the first look is unsure of most backs: 15 of them were read in four
    turns, 60 passes)."""
    style = synth.styles("bench")[3]
    layout = synth.make_layout(style, 61, (1640, 1232), glare=False)
    board = synth.random_board(np.random.default_rng(61), face_up=18)
    img, _ = synth.render_table(board, style, 61, layout=layout)
    crops = crops_of(img, locate(img))
    cell_of = {id(c): i for i, c in enumerate(crops)}
    looked: list[int] = []
    asked: list[int | None] = []  # cells of the back's group, as they are and blurred

    class Counting(LetterReader):
        def read_again(self, many: Sequence[np.ndarray],
                       alphabet: str | None = None) -> list[LetterReading]:
            cells = [cell_of.get(id(c)) for c in many]
            if None in cells:  # a crop blurred: the group asked before it is the back
                asked.append(cells[0])
            else:
                looked.extend(c for c in cells if c is not None)
            return super().read_again(many, alphabet)

    counting = Counting(letters.net, letters.prototypes, letters.proto_labels,
                        letters.min_confidence, second_look=letters.second_look)
    got = TileReader(counting).read(crops)
    assert "".join(c.char for c in got) == str(board).replace("/", "")
    assert all(board.cells[i] is not None for i in looked), looked
    # the printed backs were asked of the reader once, a few of them, before they were
    # taken for the back (dots on a grained face would read as nothing at first sight too)
    assert 0 < len(asked) <= DEFAULT_SETTINGS.group_sample
    assert all(i is not None and board.cells[i] is None for i in asked), asked
