"""``companion vision read-letter``: single image, JSON, batch in order, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import glyphs, letters_cli  # noqa: E402


def _run(argv: list[str]) -> int:
    """Through ``companion vision`` once the vision group exists, else the module's own main."""
    import importlib.util

    if importlib.util.find_spec("vision.cli") is not None:
        from companion.cli import main

        return main(["vision", *argv])
    return letters_cli.main(argv)


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    # a plain face of an unseen family (these tests are about the command, not hard styles)
    fonts = sorted(glyphs.font_paths("test"), key=lambda f: glyphs.font_label(f) != "Carlito Regular")
    if not fonts:
        pytest.skip("no test fonts installed")
    d = tmp_path_factory.mktemp("letters")
    out: dict[str, Path] = {}
    for name, letter, rot in (("oe90", "Ö", 90), ("r180", "R", 180), ("m0", "M", 0), ("e270", "E", 270), ("k0", "K", 0)):
        p = d / f"{name}.png"
        cv2.imwrite(str(p), glyphs.render_glyph(letter, fonts[0], 72, (25, 25, 25), (225, 225, 225), rotation=rot))
        out[name] = p
    junk = d / "junk.png"
    junk.write_bytes(b"this is not a picture")
    out["junk"] = junk
    return out


def test_text_output(images: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["read-letter", str(images["r180"])]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R") and "rotation 180" in out


def test_json_output_with_alphabet(images: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["read-letter", str(images["oe90"]), "--alphabet", "MÖRDE", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["letter"] == "Ö" and row["rotation"] == 90
    assert 0.0 <= row["confidence"] <= 1.0
    assert all(c in "MÖRDE" for c, _ in row["candidates"])


def test_letter_outside_alphabet_is_reported_unsure(images: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["read-letter", str(images["k0"]), "--alphabet", "MÖRDE", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["letter"] is None


def test_unsure_under_an_alphabet_says_what_the_crop_reads_without_it(
        images: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["read-letter", str(images["m0"]), "--alphabet", "XYZ"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("? (unsure") and "without --alphabet it reads M" in out


@pytest.mark.parametrize("alphabet", ["ß", "MÖRDEß", "ﬁ", "M1"])
def test_letters_the_model_does_not_know_are_refused(
        images: dict[str, Path], capsys: pytest.CaptureFixture[str], alphabet: str) -> None:
    # upper-casing "ß" gives "SS", letters the model knows: it must not answer for those
    assert _run(["read-letter", str(images["m0"]), "--alphabet", alphabet]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: the letter model knows only") and err.count("\n") == 1


def test_batch_is_json_lines_in_order(images: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    order = ["m0", "oe90", "e270", "r180"]
    listfile = tmp_path / "list.txt"
    listfile.write_text("# crops\n" + "\n".join(str(images[k]) for k in order) + "\n\n")
    assert _run(["read-letter", "--batch", str(listfile), "--alphabet", "MÖRDE"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["image"] for r in rows] == [str(images[k]) for k in order]
    assert [(r["letter"], r["rotation"]) for r in rows] == [("M", 0), ("Ö", 90), ("E", 270), ("R", 180)]


def test_batch_with_unreadable_file_goes_on_and_exits_2(images: dict[str, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    listfile = tmp_path / "list.txt"
    listfile.write_text(f"{images['junk']}\n{images['m0']}\n")
    assert _run(["read-letter", "--batch", str(listfile)]) == 2
    cap = capsys.readouterr()
    rows = [json.loads(line) for line in cap.out.splitlines()]
    assert "error" in rows[0] and rows[1]["letter"] == "M"
    assert "1 of 2" in cap.err


@pytest.mark.parametrize(
    "argv_tail",
    [
        ["{junk}"],
        ["{missing}"],
        ["{m0}", "--alphabet", "M1"],
        [],
        ["{m0}", "--batch", "{m0}"],
        ["--batch", "{missing}"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(images: dict[str, Path], tmp_path: Path, argv_tail: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    subs = {"junk": str(images["junk"]), "missing": str(tmp_path / "missing.png"), "m0": str(images["m0"])}
    argv = ["read-letter", *(a.format(**subs) for a in argv_tail)]
    assert _run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion: error:") and "\n" not in err and "Traceback" not in err


def test_a_taught_model_is_used_with_model(images: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.letters import LetterReader

    crop = cv2.imread(str(images["k0"]))
    path = tmp_path / "taught.npz"
    LetterReader.load().taught([(crop, "K")]).save(path)
    assert _run(["read-letter", str(images["k0"]), "--model", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["letter"] == "K"
    np.testing.assert_equal(path.exists(), True)
