"""The letter-dice renderer: deterministic, its truth matches its pixels, and a played sequence
keeps kept dice still and throws only what the dice set can throw."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.kniffel.dice import DEFAULT_DICE, DiceSet, Face, Roll
from vision.synth import dice
from vision.synth.dice_faces import DiceStyle, face_image
from vision.synth.dice_scene import square
from vision.synth.styles import Table

SMALL = (820, 616)
ROLL = Roll.parse("T2 O3 R2 E1 I1 C4 *")


def _quad(t: dice.DieTruth) -> np.ndarray:
    return np.array(t.corners, np.float32)


def _dark_table_style() -> DiceStyle:
    """A style whose table is far darker than any face, so a face's pixels are easy to find."""
    base = dice.dice_style(4)
    return DiceStyle(name="dark-table", font=base.font, face=(235, 240, 242), ink=(20, 20, 20),
                     table=Table.PLAIN, table_colour=(40, 40, 40), felt=(30, 30, 30),
                     radius=0.1, shadow=0.3)


def test_same_seed_same_pixels_and_another_seed_differs() -> None:
    a = dice.render_throw(ROLL.faces, seed=3)
    b = dice.render_throw(ROLL.faces, seed=3)
    c = dice.render_throw(ROLL.faces, seed=4)
    assert a.image.shape == (1232, 1640, 3) and a.image.dtype == np.uint8
    assert np.array_equal(a.image, b.image)
    assert a.truth == b.truth
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_truth_lies_inside_the_image_and_tops_never_overlap(seed: int) -> None:
    scene = dice.render_throw(ROLL.faces, seed=seed, tray=seed == 2, hand=seed == 5)
    h, w = scene.image.shape[:2]
    assert len(scene.truth) == 7
    for t in scene.truth:
        q = _quad(t)
        assert np.all((q >= 0) & (q < [w, h])), t
        sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
        assert np.all((sides > 55) & (sides < 115)), sides  # about 60-110 px at 1640x1232
        assert np.allclose(q.mean(axis=0), t.center, atol=0.5)
        assert 0 <= t.rotation < 360
    for i, a in enumerate(scene.truth):
        for b in scene.truth[i + 1 :]:
            area, _ = cv2.intersectConvexConvex(_quad(a), _quad(b))
            assert area < 1.0, (a, b)


@pytest.mark.parametrize("count", [1, 4, 7])
def test_truth_names_the_faces_asked_in_order(count: int) -> None:
    faces = ROLL.faces[:count]
    scene = dice.render_throw(faces, seed=count, size=SMALL)
    assert tuple(t.face for t in scene.truth) == faces
    assert [t.die for t in scene.truth] == list(range(count))
    joker = [t for t in scene.truth if t.letter == "*"]
    assert all(t.value == 0 for t in joker)


def test_a_throw_has_one_to_seven_dice() -> None:
    with pytest.raises(ValueError):
        dice.render_throw((), seed=1, size=SMALL)
    with pytest.raises(ValueError):
        dice.render_throw(ROLL.faces + ROLL.faces[:1], seed=1, size=SMALL)


def test_the_top_face_is_where_the_truth_says_and_reads_the_right_way_up() -> None:
    """Rectified by its truth corners, each face matches its flat drawing best unturned:
    corners, centre and rotation in the truth are those of the pixels."""
    style = _dark_table_style()
    dst = np.array([[0, 0], [99, 0], [99, 99], [0, 99]], np.float32)
    for seed in (7, 8):
        scene = dice.render_throw(ROLL.faces, seed=seed, style=style)
        gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
        for t in scene.truth:
            m = cv2.getPerspectiveTransform(_quad(t), dst)
            seen = cv2.warpPerspective(gray, m, (100, 100)).astype(np.float32)
            assert np.median(seen) > 120, t  # the light face, not the dark table
            flat = cv2.cvtColor(face_image(t.face, 100, style), cv2.COLOR_BGR2GRAY)
            def match(k: int) -> float:
                ref = np.rot90(flat, k).astype(np.float32)
                return float(np.corrcoef(seen[8:92, 8:92].ravel(), ref[8:92, 8:92].ravel())[0, 1])
            scores = [match(k) for k in range(4)]
            assert scores[0] > 0.8, (t, scores)
            if t.letter != "*":  # the diamond looks the same after a half turn
                assert scores[0] > max(scores[1:]) + 0.1, (t, scores)


def test_motion_blur_smears_the_dice() -> None:
    sharp = dice.render_throw(ROLL.faces, seed=9, size=SMALL)
    moving = dice.render_throw(ROLL.faces, seed=9, size=SMALL, blur=0.8)
    def edges(img: np.ndarray) -> float:
        return float(np.abs(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY),
                                          cv2.CV_32F)).mean())
    assert edges(moving.image) < edges(sharp.image)
    assert moving.truth == sharp.truth  # the same throw, only smeared


def test_bench_styles_use_fonts_the_reader_never_trained_on() -> None:
    train = {dice.dice_style(s, "train").font for s in range(30)}
    bench = {dice.dice_style(s, "bench").font for s in range(30)}
    assert train and bench and not train & bench
    assert bench <= set(dice.die_fonts("bench"))
    scene = dice.render_throw(ROLL.faces, seed=1, size=SMALL, split="bench")
    assert scene.style.startswith("dice-bench-")


def _odd_set() -> DiceSet:
    """A set in which every face names its die, so a face can only come from one die."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    dice_ = [" ".join(f"{letters[(6 * d + k) % 26]}{d + 1}" for k in range(6)) for d in range(7)]
    dice_[6] = "W7 X7 Y7 Z7 Q7 *"
    return DiceSet.parse(dice_)


@pytest.mark.parametrize("dice_set", [DEFAULT_DICE, _odd_set()], ids=["default", "odd"])
def test_a_sequence_keeps_kept_dice_still_and_throws_only_what_the_set_can(
    dice_set: DiceSet,
) -> None:
    frames = dice.throw_sequence(dice_set, seed=2, turns=2, throws=3, moving=2, still=2,
                                 size=SMALL)
    assert len(frames) == 2 * 3 * (2 + 2)
    rests = [f for f in frames if f.truth is not None]
    assert all(f.note.endswith(("rolling",)) for f in frames if f.truth is None)
    for f in rests:
        roll = f.roll
        assert roll is not None and dice_set.assign(roll) is not None
        assert f.truth is not None
        for d, t in enumerate(f.truth):
            assert t.die == d and t.face in dice_set.dice[d]
    kept_any = False
    for before, after in zip(rests[::2], rests[2::2]):
        if after.turn != before.turn:
            assert after.throw == 0 and after.kept == ()
            continue
        assert after.throw == before.throw + 1 and 1 <= len(after.kept) <= 6
        assert before.truth is not None and after.truth is not None
        for d in after.kept:
            assert after.truth[d] == before.truth[d]  # same face, same corners, same turn
        kept_any = True
    assert kept_any


def test_still_frames_are_identical_and_moving_frames_have_no_truth() -> None:
    frames = dice.throw_sequence(DEFAULT_DICE, seed=5, turns=1, throws=2, moving=2, still=3,
                                 size=SMALL)
    for throw in (0, 1):
        mine = [f for f in frames if f.throw == throw]
        assert [f.truth is None for f in mine] == [True, True, False, False, False]
        stills = mine[2:]
        assert all(np.array_equal(s.image, stills[0].image) for s in stills)
        assert not np.array_equal(mine[0].image, stills[0].image)  # a hand, dice in flight
    again = dice.throw_sequence(DEFAULT_DICE, seed=5, turns=1, throws=2, moving=2, still=3,
                                size=SMALL)
    assert all(np.array_equal(a.image, b.image) for a, b in zip(frames, again))


def test_random_roll_is_throwable() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        assert DEFAULT_DICE.assign(dice.random_roll(DEFAULT_DICE, rng)) is not None


def test_sample_writer_writes_pngs(tmp_path: Path) -> None:
    assert dice.main(["--out", str(tmp_path), "--n", "2", "--seed", "10"]) == 0
    files = sorted(tmp_path.glob("throw_*.png"))
    assert [p.name for p in files] == ["throw_0010.png", "throw_0011.png"]
    img = cv2.imread(str(files[0]))
    assert img is not None and img.shape == (1232, 1640, 3)


@pytest.mark.parametrize("tray", [False, True])
def test_every_landing_keeps_tops_in_the_image_and_apart(tray: bool) -> None:
    """Placement alone, over many seeds and sizes (cheap: nothing is drawn)."""
    for seed in range(120):
        size = ((1640, 1232), (1280, 960), (1920, 1080))[seed % 3]
        layout = dice.dice_layout(seed, size, tray=tray)
        rng = np.random.default_rng(seed)
        kept = dice.place_dice(3, layout, rng)
        poses = kept + dice.place_dice(4, layout, rng, fixed=kept)
        tops = [layout.lift(square(p, layout.side / 2), layout.side).astype(np.float32)
                for p in poses]
        assert 55 * size[0] / 1640 < layout.top < 115 * size[0] / 1640
        for i, q in enumerate(tops):
            assert np.all((q >= 0) & (q < size)), (seed, q)
            for other in tops[i + 1 :]:
                assert cv2.intersectConvexConvex(q, other)[0] < 1.0, seed
