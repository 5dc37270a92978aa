"""``companion moerder``: analyse one board or a batch, bench, and clear errors with exit 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.games.moerder.board import Board
from companion.games.moerder.chain import find_chains
from companion.games.moerder.solver import p_end, possible

REPO = Path(__file__).resolve().parent.parent
TOP = "MÖRDER/....../....../....../....../.....X"
OPEN = "M.R.../.Ö..D./..E.../R...../....../......"
DEAD = "MÖ.DE./MMMMMM/RRRRRR/ÖÖDDEE/ÖÖDDEE/ÖÖDDEE"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_analyse_json_has_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["moerder", "analyse", "--board", OPEN, "--json"], capsys)
    assert code == 0 and err == ""
    report = json.loads(out)
    board = Board.parse(OPEN)
    assert report["chains"] == [] and report["chain_count"] == 0
    assert report["possible"] is possible(board) is True
    expected = p_end(board, np.random.default_rng(0))
    assert report["p_end"] == expected.p and report["p_end_se"] == expected.se
    assert 0 < report["p_end"] < 1 and 0 < report["p_end_se"] <= 0.005
    assert report["remaining"] == {"M": 6, "Ö": 6, "R": 5, "D": 6, "E": 6, "X": 1}


def test_analyse_json_lists_chains_as_row_col_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    board = "MÖRDER/.Ö..../....../....../....../......"
    code, out, _ = run(["moerder", "analyse", "--board", board, "--json"], capsys)
    report = json.loads(out)
    expected = [[list(c) for c in chain] for chain in find_chains(Board.parse(board))]
    assert code == 0 and report["chains"] == expected and report["chain_count"] == 2
    assert report["p_end"] == 1.0


def test_analyse_draws_the_board_with_the_chain_marked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["moerder", "analyse", "--board", TOP.replace("Ö", "O")], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split() == ["1", "[M][Ö][R][D][E][R]"]
    assert lines[6].split() == ["6", "·", "·", "·", "·", "·", "X"]
    assert "chains: 1" in out and "p_end: 1.0000 (exact)" in out
    # cells are named as on the phone: column letter, then row number
    assert "M A1 · Ö B1 · R C1 · D D1 · E E1 · R F1" in out and "M1,1" not in out
    assert out.splitlines()[0].split() == ["A", "B", "C", "D", "E", "F"]
    code, out, _ = run(["moerder", "analyse", "--board", DEAD], capsys)
    assert "possible: no" in out and "p_end: 0.0000 (exact)" in out and "[" not in out


@pytest.mark.parametrize(
    ("board", "fragment"),
    [
        ("MÖRDER/..Z.../....../....../....../......", "cell C2 (row 2, column 3)"),
        ("MÖRDER/....../....../....../......", "6 rows"),
        ("MMMMMM/MM..../....../....../....../......", "8 M tiles"),
    ],
)
def test_bad_board_is_one_line_and_exit_2(
    board: str, fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["moerder", "analyse", "--board", board], capsys)
    assert code == 2 and out == ""
    assert err.startswith("companion: error: ") and fragment in err
    assert err.count("\n") == 1


def test_batch_prints_json_lines_in_order_like_single_boards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "boards.txt"
    path.write_text(f"{OPEN}\n\n{TOP}\n{DEAD}\n", encoding="utf-8")
    code, out, err = run(["moerder", "analyse", "--batch", str(path), "--seed", "3"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert [json.loads(line)["board"] for line in lines] == [OPEN, TOP, DEAD]
    for board, line in zip((OPEN, TOP, DEAD), lines):
        _, single, _ = run(
            ["moerder", "analyse", "--board", board, "--json", "--seed", "3"], capsys
        )
        assert json.loads(line) == json.loads(single)


def test_batch_names_the_bad_line_and_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "boards.txt"
    path.write_text(f"{TOP}\n{OPEN}\nMÖRDER/....../....../...Q../....../......\n", encoding="utf-8")
    code, out, err = run(["moerder", "analyse", "--batch", str(path)], capsys)
    assert code == 2 and out == ""
    assert "line 3" in err and "row 4, column 4" in err and err.count("\n") == 1


def test_batch_from_stdin_and_a_missing_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{TOP}\n"))
    code, out, _ = run(["moerder", "analyse", "--batch", "-"], capsys)
    assert code == 0 and json.loads(out)["chain_count"] == 1
    code, out, err = run(["moerder", "analyse", "--batch", str(tmp_path / "nope.txt")], capsys)
    assert code == 2 and "nope.txt" in err


def test_board_and_batch_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["moerder", "analyse", "--board", TOP, "--batch", "x"])
    assert info.value.code == 2


def test_bench_json_reports_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["moerder", "bench", "--json", "--boards", "3000", "--positions", "2"], capsys
    )
    assert code == 0
    figures = json.loads(out)
    assert figures["boards"] == 3000 and figures["positions"] == 2
    for key in ("boards_per_s", "p_end_ms", "p_end_ms_max", "p_end_ms_worst"):
        assert figures[key] > 0
    assert 0.5 < figures["chain_share"] < 1


def test_bench_script_runs_the_same_measurement() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "moerder_bench.py"),
            "--boards",
            "2000",
            "--positions",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    assert "boards/s" in result.stdout and "p_end to ±0.005" in result.stdout
