"""``companion search``: files in, exit codes, one-line errors, JSON out; the moves file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.search.house import House
from companion.games.search.record import MoveLine, Record, RecordError, StartLine, parse_record
from companion.games.search.events import Move
from companion.games.search.rules import DotRule, Options, Phase, apply, legal, new_state
from companion.games.search.solver import brute_force

SMALL = """search 3x4
    1   2   3   .
1   1a  2b  3c  1d
2   2e  3a  3f  2b
3   3d  1c  2f  3e
"""


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text(SMALL)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["search", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_house_command_writes_the_text_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "house", "--seed", "5")
    assert code == 0 and House.parse(out) == House.generate(5)
    target = tmp_path / "h.txt"
    assert run(capsys, "house", "--seed", "5", "-o", str(target))[0] == 0
    assert House.parse(target.read_text()) == House.generate(5)


def test_sheet_command_writes_pdf_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str], small: Path) -> None:
    pdf, svg = tmp_path / "house.pdf", tmp_path / "house.svg"
    assert run(capsys, "sheet", "--seed", "3", "-o", str(pdf))[0] == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    assert run(capsys, "sheet", "--house", str(small), "-o", str(svg), "--players", "Ann", "Bob")[0] == 0
    assert "<svg" in svg.read_text() and "Ann" in svg.read_text()
    code, _, err = run(capsys, "sheet", "--seed", "3", "-o", str(tmp_path / "house.png"))
    assert code == 2 and err.count("\n") == 1 and ".pdf or .svg" in err


def test_sheet_to_txt_writes_the_house_that_check_and_best_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, pdf = tmp_path / "house.txt", tmp_path / "house.pdf"
    code, _, err = run(capsys, "sheet", "--seed", "7", "-o", str(text))
    assert code == 0 and "house as text" in err
    assert House.parse(text.read_text()) == House.generate(7)
    assert run(capsys, "sheet", "--seed", "7", "-o", str(pdf))[0] == 0  # the same house, printed
    code, out, _ = run(capsys, "best", "--house", str(text), "--starts", "C3", "F8",
                       "--nodes", "2000", "--json")
    assert code == 0 and "best" in json.loads(out)


def test_best_with_starts_matches_brute_force(capsys: pytest.CaptureFixture[str], small: Path) -> None:
    code, out, err = run(capsys, "best", "--house", str(small), "--starts", "A1", "C3", "--json")
    assert code == 0
    report = json.loads(out)
    house = House.parse(SMALL)
    truth = brute_force(new_state(house, ["a", "b"], Options(), [house.room("A1"), house.room("C3")]))
    assert report["best"] == report["bound"] == truth and report["exact"]
    assert report["hint"]["room"] == report["line"][0]["room"]
    assert "searched" in err  # progress and the closing figure go to stderr
    code, out, _ = run(capsys, "best", "--house", str(small), "--starts", "A1", "C3")
    assert code == 0 and f"best team score {truth} (proved)" in out


def test_best_reports_the_bound_when_it_stops_early(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    house = tmp_path / "h.txt"
    house.write_text(str(House.generate(1)))
    code, out, _ = run(capsys, "best", "--house", str(house), "--starts", "C3", "F8", "--nodes", "50", "--json")
    report = json.loads(out)
    assert code == 0 and report["stopped"] and report["best"] <= report["bound"]
    assert report["nodes"] == 50


def test_check_accepts_a_legal_game(capsys: pytest.CaptureFixture[str], tmp_path: Path, small: Path) -> None:
    house = House.parse(SMALL)
    s = new_state(house, ["Ann", "Bob"], Options(), [house.room("A1"), house.room("C3")])
    moves = []
    while s.phase is Phase.PLAY:
        room = house.name(legal(s)[0][0])
        moves.append(f"{s.players[s.turn].name}: {room}")
        s = apply(s, Move(s.turn, room)).state
    record = tmp_path / "game.txt"
    record.write_text("players Ann Bob\nstart A1\nstart C3\n" + "\n".join(moves) + "\n")
    code, out, _ = run(capsys, "check", "--house", str(small), "--moves", str(record), "--json")
    report = json.loads(out)
    assert code == 0 and report["refused"] is None and report["over"]
    assert report["moves_accepted"] == len(moves)
    assert report["tracks"] == {"Ann": s.tracks[0], "Bob": s.tracks[1]}
    assert report["best"]["best"] >= report["score"]
    code, out, _ = run(capsys, "check", "--house", str(small), "--moves", str(record))
    assert code == 0 and "game over" in out


def test_check_stops_at_a_refused_move(capsys: pytest.CaptureFixture[str], tmp_path: Path, small: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("players Ann Bob\nstart 1 1\nstart 3 3\nA2   # not the corridor\n")
    code, out, _ = run(capsys, "check", "--house", str(small), "--moves", str(record))
    assert code == 1 and "must_take_corridor" in out and "line 4" in out
    code, out, _ = run(capsys, "check", "--house", str(small), "--moves", str(record), "--json")
    assert code == 1 and json.loads(out)["refused"]["code"] == "must_take_corridor"


@pytest.mark.parametrize(
    ("house_text", "moves_text", "fragment"),
    [
        ("search 3x4\n", "start A1\nstart C3\n", "room lines"),
        (SMALL, "start A1\nstart C3\nA1 B2 C3\n", "line 3"),
        (SMALL, "start A1\nstart B2\n", "start refused"),
        (SMALL, "B2\n", "no start lines"),
        (SMALL, "start A1\nstart C3\nZed: B2\n", "no player named"),
        (SMALL, "rule sideways\n", "rule match"),
        (SMALL, "players A B\nstart A1\n", "2 players but 1 start"),
    ],
)
def test_bad_files_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, house_text: str, moves_text: str, fragment: str
) -> None:
    house, moves = tmp_path / "h.txt", tmp_path / "m.txt"
    house.write_text(house_text)
    moves.write_text(moves_text)
    code, out, err = run(capsys, "check", "--house", str(house), "--moves", str(moves))
    assert code == 2 and out == ""
    assert err.startswith("companion: error: ") and err.count("\n") == 1
    assert fragment in err


def test_missing_and_binary_files_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, small: Path) -> None:
    code, _, err = run(capsys, "best", "--house", str(tmp_path / "none.txt"), "--starts", "A1", "C3")
    assert code == 2 and "No such file" in err
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, "best", "--house", str(blob), "--starts", "A1", "C3")
    assert code == 2 and "UTF-8" in err
    code, _, err = run(capsys, "best", "--house", str(small), "--starts", "A1", "Q9")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "best", "--house", str(small), "--starts", "A1", "B2")
    assert code == 2 and err.count("\n") == 1


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC", min_size=1, max_size=6)
rooms = st.builds(lambda r, c: f"{r}{c}", st.sampled_from("ABCDEFGH"), st.integers(1, 11))


@st.composite
def records(draw: st.DrawFn) -> Record:
    players = draw(st.one_of(st.none(), st.lists(names, min_size=2, max_size=4, unique=True)))
    n = len(players) if players else draw(st.integers(2, 4))
    starts = []
    for i in range(n):
        if draw(st.booleans()):
            starts.append(StartLine(0, (draw(st.integers(1, 6)), draw(st.integers(1, 6))), None))
        else:
            starts.append(StartLine(0, None, draw(rooms)))
    who = st.one_of(st.none(), st.sampled_from(players)) if players else st.none()
    moves = draw(st.lists(st.builds(lambda p, r: MoveLine(0, p, r), who, rooms), max_size=12))
    options = Options(draw(st.sampled_from(list(DotRule))), draw(st.booleans()))
    return Record(tuple(players) if players else None, options, tuple(starts), tuple(moves))


def _strip(record: Record) -> Record:
    return Record(
        record.players,
        record.options,
        tuple(StartLine(0, s.cards, s.room) for s in record.starts),
        tuple(MoveLine(0, m.player, m.room) for m in record.moves),
    )


@settings(max_examples=100, deadline=None)
@given(records())
def test_moves_file_round_trips(record: Record) -> None:
    text = str(record)
    assert _strip(parse_record(text)) == record
    assert str(parse_record(text)) == text


def test_moves_file_errors_name_the_line() -> None:
    with pytest.raises(RecordError, match="line 2"):
        parse_record("start A1\nstart\n")
    with pytest.raises(RecordError, match="line 3"):
        parse_record("start A1\nB2\nstart C3\n")
    with pytest.raises(RecordError, match="same name"):
        parse_record("players a a\n")


def test_a_zero_time_limit_still_answers_with_a_game_and_a_bound(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from companion.stopwatch import Stopwatch

    assert Stopwatch(0).expired() and not Stopwatch(None).expired()
    house = tmp_path / "h.txt"
    house.write_text(str(House.generate(2)))
    code, out, _ = run(
        capsys, "best", "--house", str(house), "--starts", "C3", "F8", "--time-limit", "0", "--json"
    )
    report = json.loads(out)
    assert code == 0 and report["best"] <= report["bound"]
    assert report["line"] and report["hint"]["room"] == report["line"][0]["room"]
