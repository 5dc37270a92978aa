"""Murdero's JSON: hand entries and events round-trip; the score command's output and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.base import EventError
from companion.games.murdero import (
    GAME,
    Action,
    Case,
    Colour,
    Ending,
    HandCorrected,
    HandEnd,
    HandEntered,
    NewGame,
    PlayerHand,
    decode_hand,
    encode_hand,
)
from companion.games.murdero.cards import card_token, deck

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "docs" / "examples" / "murdero-hand.json"

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
tokens = st.sampled_from(sorted({card_token(c) for c in deck()}))
cases = st.builds(
    Case,
    st.sampled_from(list(Colour)),
    st.lists(st.integers(1, 5), max_size=8).map(tuple),
    st.none() | st.integers(2, 5),
)
players = st.builds(
    PlayerHand,
    names,
    st.lists(cases, max_size=3).map(tuple),
    st.lists(
        st.sampled_from([a for a in Action if a.kind.value == "permanent" and a is not Action.JOKER]),
        max_size=3,
    ).map(tuple),
    st.lists(tokens, max_size=9).map(tuple),
)
hands = st.builds(
    HandEnd,
    st.lists(players, min_size=1, max_size=4).map(tuple),
    st.sampled_from(list(Ending)),
    st.none() | st.lists(names, max_size=2).map(tuple),
)


@settings(derandomize=True, max_examples=80)
@given(hands)
def test_hand_round_trips_through_json(hand: HandEnd) -> None:
    assert decode_hand(json.loads(json.dumps(encode_hand(hand)))) == hand


@settings(derandomize=True, max_examples=60)
@given(
    st.one_of(
        st.builds(HandEntered, hands),
        st.builds(HandCorrected, st.integers(1, 50), hands),
        st.builds(
            NewGame, st.none() | st.lists(names, max_size=4).map(tuple), st.none() | st.booleans()
        ),
    )
)
def test_events_round_trip(event: object) -> None:
    assert GAME.decode(json.loads(json.dumps(GAME.encode(event)))) == event


def test_held_cards_are_written_canonically() -> None:
    hand = decode_hand(
        {"players": [{"name": "A", "held": ["red 3", "g5", "The Don's Alibi"]}], "ended_by": "overtime"}
    )
    assert hand.players[0].held == ("R3", "G5", "the_dons_alibi")


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [
        ({"players": []}, "missing field 'ended_by'"),
        ({"players": [{"nam": "A"}], "ended_by": "case"}, "players[0]: missing field 'name'"),
        (
            {"players": [{"name": "A", "cases": [{"cards": [1]}]}], "ended_by": "case"},
            "cases[0]: missing field 'colour'",
        ),
        (
            {
                "players": [{"name": "A", "cases": [{"colour": "pink", "cards": [1]}]}],
                "ended_by": "case",
            },
            "'pink' is not one of",
        ),
        (
            {
                "players": [{"name": "A", "cases": [{"colour": "red", "cards": ["1"]}]}],
                "ended_by": "case",
            },
            "expected a whole number",
        ),
        ({"players": [{"name": "A", "held": ["R9"]}], "ended_by": "case"}, "'R9' is not a card"),
        (
            {"players": [{"name": "A", "permanents": ["jokr"]}], "ended_by": "case"},
            "'jokr' is not one of",
        ),
        ({"players": [], "ended_by": "won"}, "'won' is not one of"),
        ([1, 2], "expected a JSON object"),
    ],
)
def test_bad_hand_json_says_what_is_wrong(obj: object, fragment: str) -> None:
    with pytest.raises(EventError) as info:
        decode_hand(obj)  # type: ignore[arg-type]
    assert fragment in str(info.value)


# --- the command line ----------------------------------------------------------------------------


def test_cli_scores_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["murdero", "score", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "winner(s): Ann" in out
    assert "Ann: 60 points" in out and "Bob: 6 points" in out and "Cid: 5 points" in out
    assert "won the hand: case points doubled (31 x 2 = 62)" in out


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["murdero", "score", str(EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winners"] == ["Ann"] and data["pairs"] is False
    for side in data["sides"]:
        assert sum(line["points"] for line in side["lines"]) == side["points"]
    assert {s["label"]: s["points"] for s in data["sides"]} == {"Ann": 60, "Bob": 6, "Cid": 5}


def test_cli_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = {
        "pairs": True,
        "players": [
            {"name": n, "cases": [{"colour": "red", "cards": [1, 2, 3, 4, 5]}] if n == "Ann" else []}
            for n in ["Ann", "Bob", "Cid", "Dee"]
        ],
        "ended_by": "case",
    }
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(entry))
    assert main(["murdero", "score", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {s["label"]: s["points"] for s in data["sides"]} == {"Ann & Cid": 30, "Bob & Dee": 0}


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{not json", "not JSON"),
        ("[]", "must be a JSON object"),
        (
            '{"players": [{"name": "A", "cases": [{"colour": "red", "cards": [2]}]}, {"name": "B"}], "ended_by": "overtime"}',
            "Crime Scene",
        ),
        ('{"players": [{"name": "A"}, {"name": "B"}], "ended_by": "case"}', "no one has a winning case"),
        ('{"pairs": "yes", "players": [], "ended_by": "case"}', "pairs must be true or false"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, fragment: str
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(content)
    assert main(["murdero", "score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: ") and fragment in err
    assert err.count("\n") == 1


def test_cli_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["murdero", "score", "/nonexistent/hand.json"]) == 2
    assert "No such file" in capsys.readouterr().err


GAME_LOG = REPO / "docs" / "examples" / "murdero-game.json"


def test_cli_names_a_game_log_and_what_to_run_instead(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["murdero", "score", str(GAME_LOG)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a game log" in err and "missing field" not in err
    assert f"companion murdero score {GAME_LOG} --hand N" in err


def test_cli_scores_one_hand_of_a_game_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads(GAME_LOG.read_text())
    # the log corrects its second hand: the hand scored is the corrected one, as at the table
    corrected = next(e["hand"] for e in log["events"]
                     if e["type"] == "hand_corrected" and e["number"] == 2)
    assert main(["murdero", "score", str(GAME_LOG), "--hand", "2", "--json"]) == 0
    from_log = json.loads(capsys.readouterr().out)
    alone = tmp_path / "hand.json"  # the same hand on its own scores the same
    alone.write_text(json.dumps({**corrected, "pairs": log["setup"].get("pairs", False)}))
    assert main(["murdero", "score", str(alone), "--json"]) == 0
    by_itself = json.loads(capsys.readouterr().out)
    points = {s["label"]: s["points"] for s in from_log["sides"]}
    assert points == {s["label"]: s["points"] for s in by_itself["sides"]}
    assert main(["murdero", "score", str(GAME_LOG), "--hand", "9"]) == 2
    assert "the log has hands 1 to" in capsys.readouterr().err


def test_cli_reads_a_tables_export_of_murdero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads(GAME_LOG.read_text())
    export = {"format": 1, "id": 4, "game": "murdero", "setup": log["setup"],
              "events": [{"seq": i, "event": e} for i, e in enumerate(log["events"], start=1)]}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    assert main(["murdero", "score", str(path)]) == 2
    assert "a game log" in capsys.readouterr().err
    assert main(["murdero", "score", str(path), "--hand", "1"]) == 0
    assert "points" in capsys.readouterr().out
    path.write_text(json.dumps({**export, "game": "search"}))
    assert main(["murdero", "score", str(path)]) == 2
    assert "not of Murdero" in capsys.readouterr().err
