"""Huge, endless and malformed inputs: one line on stderr, exit 2, bounded time and memory.

Each case runs the real command in a subprocess with its address space capped, so a
regression shows as a refusal that did not happen (MemoryError, a kill) rather than as a
machine that swaps.
"""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from companion.errors import InputError
from companion.inputs import excerpt, json_depth, load_json, read_text, reduction

ROOT = Path(__file__).resolve().parent.parent
MEMORY = 1024 * 1024 * 1024  # address space; Python with numpy/OpenCV maps far more than it uses
TIMEOUT_S = 60  # a bound on a hung child, not a timing claim


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*argv: str, cwd: Path | None = None, stdin: str = "/dev/null"
        ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(stdin, "rb") as fh:
        return subprocess.run(
            [sys.executable, "-m", "companion.cli", *argv], capture_output=True, text=True,
            cwd=cwd or ROOT, env=env, preexec_fn=_cap, timeout=TIMEOUT_S, check=False,
            stdin=fh,
        )


def refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    err = result.stderr
    assert result.returncode == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("companion: error: "), err
    assert len(err) < 300, err
    for word in words:
        assert word in err, err
    return err


def png_claiming(width: int, height: int) -> bytes:
    """A valid PNG header with a huge IHDR and a tiny IDAT: small on disk, huge decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@pytest.fixture()
def deep_json(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text("[" * 1500 + "]" * 1500, encoding="utf-8")
    return path


@pytest.fixture()
def long_line(tmp_path: Path) -> Path:
    path = tmp_path / "long.txt"
    path.write_text("a" * 300_000 + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def huge_png(tmp_path: Path) -> Path:
    path = tmp_path / "huge.png"
    path.write_bytes(png_claiming(30000, 30000))
    return path


# --- endless files ------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ("kniffel", "best", "--batch", "/dev/zero"),
    ("moerder", "analyse", "--batch", "/dev/zero"),
    ("search", "check", "--house", "/dev/zero", "--moves", "/dev/zero"),
    ("search", "best", "--house", "/dev/zero", "--starts", "a"),
    ("murdero", "score", "/dev/zero"),
    ("serialkiller", "replay", "/dev/zero"),
    ("vision", "read-letter", "--batch", "/dev/zero"),
])
def test_an_endless_file_is_refused(argv: tuple[str, ...]) -> None:
    refused(run(*argv), "/dev/zero")


@pytest.mark.parametrize("argv", [
    ("murdero", "score", "-"), ("serialkiller", "replay", "-"),
    ("moerder", "analyse", "--batch", "-"), ("kniffel", "best", "--batch", "-"),
])
def test_an_endless_stdin_is_refused(argv: tuple[str, ...]) -> None:
    refused(run(*argv, stdin="/dev/zero"), "larger than")


@pytest.mark.parametrize("argv", [
    ("vision", "read-grid", "/dev/zero"),
    ("vision", "read-letter", "/dev/zero"),
])
def test_an_endless_device_is_not_an_image(argv: tuple[str, ...]) -> None:
    refused(run(*argv), "/dev/zero", "not a regular file")


# --- long lines, deep JSON ----------------------------------------------------------------------


@pytest.mark.parametrize("tool", [("kniffel", "best", "--batch"), ("moerder", "analyse", "--batch")])
def test_a_300kb_line_is_refused_with_a_short_excerpt(tool: tuple[str, ...], long_line: Path) -> None:
    err = refused(run(*tool, str(long_line)), str(long_line), "line 1")
    assert "a" * 60 + "…" in err and "a" * 61 not in err


def test_a_300kb_house_line_is_refused(long_line: Path) -> None:
    refused(run("search", "check", "--house", str(long_line), "--moves", str(long_line)),
            str(long_line), "line 1")


@pytest.mark.parametrize("tool", [("murdero", "score"), ("serialkiller", "replay")])
def test_json_nested_1500_deep_is_refused(tool: tuple[str, ...], deep_json: Path) -> None:
    refused(run(*tool, str(deep_json)), str(deep_json), "nested")


# --- images -------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ("vision", "read-grid"), ("vision", "read-letter"), ("vision", "teach", "--letters", "/".join(["......"] * 6)),
])
def test_a_png_claiming_30000_squared_is_refused_before_decoding(
    argv: tuple[str, ...], huge_png: Path
) -> None:
    assert huge_png.stat().st_size < 1000
    refused(run(*argv, str(huge_png)), str(huge_png), "megapixels")


@pytest.mark.parametrize("argv", [("vision", "read-pad"), ("kniffel", "pad-check")])
def test_a_photo_pillow_only_warns_about_is_still_one_line(
    argv: tuple[str, ...], tmp_path: Path
) -> None:
    """12000x9000 lies between Pillow's warning (89 MP) and its own refusal (179 MP): its
    warning must not come before the one line."""
    path = tmp_path / "phone-panorama.png"
    path.write_bytes(png_claiming(12000, 9000))
    refused(run(*argv, str(path)), str(path), "12000x9000", "megapixels")


def test_a_48_mp_phone_jpeg_is_decoded_small_by_the_pad_readers(tmp_path: Path) -> None:
    """A phone's 48 MP JPEG is over the limit decoded whole (the tile grid decodes it so),
    but the pad readers bring every photo down to 1640 px and decode it straight at a
    quarter of its sides: it is read (here: no table on a blank page), not refused."""
    from PIL import Image

    path = tmp_path / "phone-48mp.jpg"
    Image.new("L", (8000, 6000), 230).save(path, "JPEG")
    refused(run("vision", "read-grid", str(path)), str(path), "8000x6000", "megapixels")
    refused(run("vision", "read-pad", str(path)), "no table")
    refused(run("kniffel", "pad-check", str(path)), "marker")


def test_a_jpeg_is_decoded_at_the_reduction_that_keeps_the_side_read() -> None:
    assert [reduction(w, h, 1640) for w, h in (
        (1640, 1232), (3264, 2448), (4000, 3000), (3000, 4000), (8000, 6000), (16320, 12240),
        (40000, 30000))] == [1, 1, 2, 2, 4, 8, 8]


@pytest.mark.parametrize("brand", [b"heic", b"mif1"])
def test_a_phone_s_heic_photo_is_named_and_the_way_out_said(brand: bytes,
                                                             tmp_path: Path) -> None:
    """An iPhone saves HEIC unless told otherwise (an ISO media box heads it); an AVIF, in
    the same box, is read (OpenCV decodes it)."""
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(b"\x00\x00\x00\x18ftyp" + brand + b"\x00" * 200)
    refused(run("vision", "read-pad", str(photo)), str(photo), "HEIC", "JPEG")
    other = tmp_path / "other.bin"
    other.write_bytes(b"\x00\x00\x00\x18ftypisom" + b"\x00" * 200)  # a video's box
    assert "HEIC" not in refused(run("kniffel", "pad-check", str(other)), "not an image")
    from PIL import Image, features

    if features.check("avif"):  # Pillow's wheels write it
        avif = tmp_path / "IMG_0002.avif"
        Image.new("RGB", (640, 480), (230, 230, 230)).save(avif)
        refused(run("vision", "read-pad", str(avif)), "no table")  # decoded and read


def test_a_truncated_photo_is_one_line_not_a_decoders_complaint(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    whole = tmp_path / "whole.png"
    cv2.imwrite(str(whole), np.random.default_rng(1).integers(0, 255, (120, 160, 3), np.uint8))
    cut = tmp_path / "cut.png"
    data = whole.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    refused(run("vision", "read-grid", str(cut)), str(cut), "truncated")


def test_a_reference_photo_is_checked_too(huge_png: Path, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    small = tmp_path / "small.png"
    assert cv2.imwrite(str(small), np.zeros((8, 8, 3), np.uint8))
    refused(run("vision", "read-grid", str(small), "--reference", str(huge_png)), str(huge_png))


@pytest.mark.parametrize("argv", [
    ("vision", "read-pad"), ("vision", "read-pad", "--sums"), ("kniffel", "pad-check"),
    ("vision", "read-grid"), ("vision", "read-grid", "--reference", "{photo}"),
])
@pytest.mark.parametrize("shape", [(5, 20000, 3), (20000, 3, 3)])
def test_a_sliver_of_a_photo_is_one_line(argv: tuple[str, ...], shape: tuple[int, ...],
                                         tmp_path: Path) -> None:
    """A photo a few pixels wide and thousands long: brought down to the camera's size it
    once became no pixels wide, and OpenCV's assertion ended the command."""
    import cv2
    import numpy as np

    photo = tmp_path / "sliver.png"
    assert cv2.imwrite(str(photo), np.full(shape, 255, np.uint8))
    refused(run(*(a.format(photo=photo) for a in argv), str(photo)))


def _letter_model(tmp_path: Path, kind: str) -> Path:
    """A letter model file gone wrong in one way."""
    import json
    import zipfile

    import numpy as np

    models = ROOT / "vision" / "models"
    with np.load(models / "letters.npz") as z:
        onnx, meta = z["onnx"], json.loads(str(z["meta"]))
    path = tmp_path / f"{kind}.npz"
    if kind == "bomb":  # 2 MB on disk, 210 MB unpacked: its directory says so
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf, \
                zf.open("onnx.npy", "w", force_zip64=True) as fh:
            for _ in range(210):
                fh.write(bytes(2**20))
        return path
    if kind == "deep":
        meta = "[" * 100_000 + "]" * 100_000
    elif kind == "cold":
        meta["temperature"] = 0
    elif kind == "digits":  # another reader's network under the letter model's meta
        with np.load(models / "pad_digits.npz") as z:
            onnx = z["onnx"]
    np.savez_compressed(path, onnx=onnx, meta=np.array(json.dumps(meta) if kind != "deep"
                                                       else meta))
    if kind == "damaged":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("kind", ["bomb", "damaged", "deep", "cold", "digits"])
def test_a_model_file_gone_wrong_is_one_line(kind: str, tmp_path: Path) -> None:
    """Each once ended in a traceback, or (the bomb) in 4 GB of memory."""
    import cv2
    import numpy as np

    crop = tmp_path / "crop.png"
    cv2.imwrite(str(crop), np.full((64, 64, 3), 200, np.uint8))
    model = _letter_model(tmp_path, kind)
    refused(run("vision", "read-letter", "--model", str(model), str(crop)), "letter")
    if kind == "bomb":
        refused(run("vision", "read-grid", "--profile", str(model), str(crop)), "unpacks")


def test_debug_out_with_an_unknown_extension_is_refused(huge_png: Path) -> None:
    refused(run("vision", "read-grid", str(huge_png), "--debug-out", "x.weird"), "x.weird")


@pytest.mark.parametrize("dice", [False, True])
def test_teach_into_a_missing_folder_is_refused_and_not_created(dice: bool,
                                                               tmp_path: Path) -> None:
    """Teaching made the folders of a mistyped -o path; only the default one is made."""
    import cv2
    import numpy as np

    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 200, np.uint8))
    argv = ("--dice", "--letters", "ABCDEFG") if dice else ("--letters", "/".join(["......"] * 6))
    refused(run("vision", "teach", *argv, "-o", str(tmp_path / "typo" / "p.npz"), str(photo)),
            "no such folder")
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("tool", [("vision", "read-grid"), ("vision", "read-dice"),
                                  ("vision", "read-pad")])
def test_debug_out_of_a_kind_opencv_cannot_write_is_refused_first(tool: tuple[str, ...],
                                                                  huge_png: Path) -> None:
    """.exr and .pxm were on the list of kinds, but this OpenCV writes neither: the read ran,
    then its writer's assertion ended it."""
    for kind in ("exr", "pxm"):
        refused(run(*tool, str(huge_png), "--debug-out", f"x.{kind}"), f"x.{kind}")


def test_debug_out_in_a_missing_folder_is_refused_and_not_created(
    huge_png: Path, tmp_path: Path
) -> None:
    refused(run("vision", "read-grid", str(huge_png), "--debug-out", "missing/folder/x.png",
                cwd=tmp_path), "missing/folder")
    assert not (tmp_path / "missing").exists()


# --- numbers that ask for too much -------------------------------------------------------------


@pytest.mark.parametrize(("argv", "words"), [
    (("kniffel", "advise", "--dice", "T2 O3 R2 E1 I1 C4 H3", "--rolls-left", "2",
      "--samples", "99999999999999999999"), ("--samples", "2000")),
    (("moerder", "analyse", "--board", "/".join(["MÖRDE."] + ["......"] * 5), "--se", "1e-300"),
     ("--se",)),
    (("moerder", "analyse", "--board", "/".join(["MÖRDE."] + ["......"] * 5), "--se", "1e-160"),
     ("--se",)),
    (("moerder", "bench", "--boards", "99999999999999", "--positions", "1"), ("--boards",)),
])
def test_a_size_beyond_what_memory_or_time_holds_is_refused(argv: tuple[str, ...],
                                                            words: tuple[str, ...]) -> None:
    """Each ran on for minutes and gigabytes, or ended in a traceback (a division by zero,
    an overflow, numpy's own memory error)."""
    refused(run(*argv), *words)


def test_a_murdero_export_without_a_list_of_events_is_one_line(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    export.write_text('{"game": "murdero", "events": 5}', encoding="utf-8")
    refused(run("murdero", "score", str(export)), "events", "list")


@pytest.mark.parametrize("argv", [
    ("kniffel", "pad", "--players", "\x7f,\x1b[31m", "-o", "{tmp}/pad.png"),
    ("search", "sheet", "--seed", "1", "-o", "{tmp}/sheet.pdf", "--players", "\x1b", "B"),
])
def test_a_name_with_a_control_character_is_refused(argv: tuple[str, ...],
                                                    tmp_path: Path) -> None:
    """No SVG or PDF holds an escape or a delete: the sheet's writer stopped in an XML
    parse error (and an SVG was written that no viewer opens)."""
    refused(run(*(a.format(tmp=tmp_path) for a in argv)), "--players", "control character")
    assert not list(tmp_path.iterdir())


def test_a_pin_map_the_hardware_refuses_ends_run_in_one_line(tmp_path: Path) -> None:
    """The hardware's own error (a GPIO used twice) came as a traceback at start; the run's
    log lines before it stay, the refusal is the last line."""
    settings = tmp_path / "companion.toml"
    settings.write_text(f'[table]\ndatabase = "{tmp_path / "log.db"}"\n[camera]\n'
                        'source = "none"\n[hardware]\npin_factory = "mock"\n'
                        "buttons = [5, 5]\nleds = [6, 7]\n", encoding="utf-8")
    result = run("run", "--config", str(settings))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == "companion: error: hardware: GPIO5 is used twice"


@pytest.mark.parametrize("host", ["a" * 70, "tisch..club"])
def test_a_broker_host_no_resolver_takes_is_refused(host: str) -> None:
    """A label of 70 characters passed the check; the client's thread then died on it and
    the board stayed "connecting" for ever."""
    refused(run("board", "--broker", f"mqtt://{host}:1"), "no host name")


# --- argparse -----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ("kniffel", "nosuch"), ("moerder", "analyse", "--se", "x", "--board", "y"), ("--nope",),
    ("vision", "read-grid"),
])
def test_argument_errors_are_one_line_without_usage(argv: tuple[str, ...]) -> None:
    err = refused(run(*argv))
    assert "usage:" not in err


# --- the helpers themselves ---------------------------------------------------------------------


def test_excerpt_is_short_and_on_one_line() -> None:
    assert excerpt("x" * 100) == "x" * 60 + "…"
    assert excerpt("a\nb") == "a b"


def test_depth_ignores_brackets_inside_strings() -> None:
    assert json_depth('{"a": "[[[[[[", "b": [1, {"c": "\\"]]"}]}') == 3
    assert load_json('{"a": "[[[["}', "x") == {"a": "[[[["}


def test_not_json_names_the_place() -> None:
    with pytest.raises(InputError, match=r"^here: not JSON"):
        load_json("{", "here")


def test_text_over_the_limit_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text("ab\n" * 100, encoding="utf-8")
    with pytest.raises(InputError, match="big.txt: larger than"):
        read_text(path, max_bytes=100)
    bad = tmp_path / "latin.txt"
    bad.write_bytes(b"ok\n\xff\n")
    with pytest.raises(InputError, match="latin.txt: line 2: not UTF-8"):
        read_text(bad)


def test_a_word_list_with_a_300kb_line_is_refused(long_line: Path) -> None:
    refused(run("kniffel", "best", "--no-cache", "--words", str(long_line), "--dice", "T2 O3 R2 E1 I1 C4 H3"),
            str(long_line), "line 1")


def test_a_long_bad_roll_is_quoted_short(tmp_path: Path) -> None:
    batch = tmp_path / "rolls.txt"
    batch.write_text("Q" * 4000 + "\n", encoding="utf-8")
    result = run("kniffel", "best", "--batch", str(batch))
    refused(result, str(batch), "line 1")
    assert len(result.stdout) < 1000
