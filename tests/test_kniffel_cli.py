"""``companion kniffel best | check | advise`` end to end through the real front door."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kniffel_support import XDG, german_lexicon

from companion.cli import main
from companion.games.kniffel.pad import BOXES

TOREICH = "T2 O3 R2 E1 I1 C4 H3"


@pytest.fixture(autouse=True)
def _cache(monkeypatch: pytest.MonkeyPatch) -> None:
    german_lexicon()  # builds the shared cache once
    monkeypatch.setenv("XDG_CACHE_HOME", str(XDG))


@pytest.fixture
def small(tmp_path: Path) -> Path:
    f = tmp_path / "words.txt"
    f.write_text("Tor\nEi\nich\nChor\nreicht\nOhr\nHort\nes\nan\nAbdruck\n", encoding="utf-8")
    return f


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["kniffel", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_best_json_has_every_box(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", "--dice", TOREICH, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["roll"] == TOREICH
    assert set(data["boxes"]) == {b.value for b in BOXES}
    assert data["boxes"]["chance"]["score"] == 16
    assert data["boxes"]["full_house"]["score"] == 25
    assert data["boxes"]["street"] == {"score": None, "words": [], "dice": [], "joker": None,
                                       "open": True}
    assert data["boxes"]["pair_of_words"]["score"] >= 9
    assert data["ranking"][0]["box"] == "full_house"


def test_best_readable_table_and_open_boxes(
    capsys: pytest.CaptureFixture[str], small: Path
) -> None:
    code, out, _ = run(capsys, "best", "--dice", TOREICH, "--words", str(small),
                       "--open", "four,chance")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert "CHOR" in lines["four"] and "12" in lines["four"]
    assert "(filled)" in lines["two"]
    assert "best entries: chance 16, four 12" in out


def test_batch_is_json_lines_in_order_with_errors_marked(
    capsys: pytest.CaptureFixture[str], small: Path, tmp_path: Path
) -> None:
    batch = tmp_path / "rolls.txt"
    batch.write_text(f"{TOREICH}\n\nT2 O3\nA1 B3 D2 R2 U2 C4 K4\n", encoding="utf-8")
    code, out, err = run(capsys, "best", "--batch", str(batch), "--words", str(small))
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["roll"] for r in rows] == [TOREICH, "T2 O3", "A1 B3 D2 R2 U2 C4 K4"]
    assert rows[1]["line"] == 3 and "7 dice" in rows[1]["error"]
    assert rows[2]["boxes"]["kniffel"]["words"] == ["Abdruck"]
    assert code == 2 and err.count("\n") == 1 and err.startswith("companion: error:")


def test_check_scores_the_rule_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--dice", TOREICH, "--box", "pair_of_words",
                       "--words", "TOR,EI")
    assert code == 0 and out.startswith("pair_of_words: 9 points")
    code, out, _ = run(capsys, "check", "--dice", "I1 C4 H3 E1 S2 A1 N2", "--box",
                       "three_words", "--words", "ICH ES AN", "--json")
    data = json.loads(out)
    assert code == 0 and data["allowed"] and data["score"] == 14


def test_check_says_why_not(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--dice", TOREICH, "--box", "three", "--words", "CHOR")
    assert code == 1 and out.startswith("not allowed:") and "3-letter" in out
    code, out, _ = run(capsys, "check", "--dice", TOREICH, "--box", "three", "--words", "CHOR",
                       "--json")
    assert code == 1 and json.loads(out)["code"] == "wrong_length"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["check", "--dice", TOREICH, "--box", "four", "--words", "HAUS"], "cannot lay HAUS"),
        (["check", "--dice", TOREICH, "--box", "seven", "--words", "TOR"], "unknown box"),
        (["best", "--dice", "T2 O3 R2"], "7 dice"),
        (["best", "--dice", "T2 O3 R2 E1 I1 C4 %"], "bad die"),
        (["best", "--dice", TOREICH, "--open", "two,nine"], "unknown box"),
        (["best", "--dice", TOREICH, "--words", "/nonexistent/list.txt"], "/nonexistent"),
        (["advise", "--dice", "H3 H3 E1 I1 C4 T2 R2", "--rolls-left", "1"], "cannot throw"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("companion: error:") and says in err and err.count("\n") == 1


def test_advise_json(capsys: pytest.CaptureFixture[str], small: Path) -> None:
    code, out, _ = run(capsys, "advise", "--dice", TOREICH, "--rolls-left", "1", "--words",
                       str(small), "--open", "four,kniffel", "--samples", "4", "--json")
    assert code == 0
    data = json.loads(out)
    best = data["best"]
    assert best["expected"] == max(o["expected"] for o in data["options"])
    assert best["expected"] >= data["stand"]["expected"] == 12  # CHOR in four now
    assert [TOREICH.split()[i] for i in best["keep"]] == best["keep_dice"]
    code, out, _ = run(capsys, "advise", "--dice", TOREICH, "--rolls-left", "2", "--words",
                       str(small), "--samples", "4")
    assert code == 0
    assert "expected best entry" in out or "keep all seven" in out
