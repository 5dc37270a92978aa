"""Serial Killer's JSON: events round-trip; the replay command's output and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.base import EventError
from companion.games.serialkiller import GAME, Bury, Discredit, Draw, EndTurn, FirstDraw, Hold, Inform
from companion.games.serialkiller.cards import FULL_DECK, Card, CardError, canonical

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "docs" / "examples" / "serialkiller-game.json"

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
cards = st.sampled_from(sorted(str(c) for c in FULL_DECK))
spellings = st.tuples(cards, st.sampled_from(["plain", "lower", "symbol", "ten"])).map(
    lambda t: {
        "plain": t[0],
        "lower": t[0].lower(),
        "symbol": t[0][:-1] + SYMBOLS[t[0][-1]],
        "ten": t[0].replace("10", "T"),
    }[t[1]]
)
names = st.text(min_size=1, max_size=10)
graves = st.none() | st.integers(1, 6)
events = st.one_of(
    st.builds(FirstDraw, names, spellings),
    st.builds(Draw, spellings),
    st.just(Hold()),
    st.builds(Bury, graves),
    st.builds(Inform, names, graves),
    st.builds(Discredit, graves),
    st.just(EndTurn()),
)


@settings(derandomize=True, max_examples=150)
@given(events)
def test_events_round_trip_through_json(event: object) -> None:
    assert GAME.decode(json.loads(json.dumps(GAME.encode(event)))) == event


@settings(derandomize=True, max_examples=100)
@given(spellings)
def test_card_spellings_read_the_same_card(token: str) -> None:
    card = Card.parse(token)
    assert card in FULL_DECK and Card.parse(str(card)) == card and canonical(token) == str(card)


@pytest.mark.parametrize("token", ["1H", "11S", "KX", "K", "", "QHH", "joker"])
def test_non_cards_are_refused(token: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        Card.parse(token)
    with pytest.raises(EventError, match="not a card"):
        GAME.decode({"type": "draw", "card": token})


def test_cli_replays_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serialkiller", "replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Ann goes first" in out and out.rstrip().endswith("winner: Bob")
    assert "Ann is ARRESTED" in out


def test_cli_json_states_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serialkiller", "replay", str(EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    log = json.loads(EXAMPLE.read_text())
    assert len(data["states"]) == len(log["events"])
    assert data["winner"] == "Bob" and data["final"]["winner_name"] == "Bob" and data["final"]["winner"] == 1
    assert [s["event"] for s in data["states"]] == log["events"]
    assert all(len(s["state"]["graves"]) == 6 for s in data["states"])


def test_cli_undo_in_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = {
        "setup": {"players": ["Ann", "Bob"], "first": "Ann"},
        "events": [{"type": "draw", "card": "KH"}, {"type": "undo"}, {"type": "draw", "card": "2S"}],
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(log))
    assert main(["serialkiller", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["event"]["card"] for s in data["states"]] == ["2S"]
    assert data["final"]["graves"][0]["cards"] == ["2S"] and data["winner"] is None


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("nope", "not JSON"),
        ('{"setup": {"players": ["A", "B"]}}', "list of 'events'"),
        ('{"setup": {"players": ["A"]}, "events": []}', "2 to 6 players"),
        (
            '{"setup": {"players": ["A", "B"], "first": "A"}, "events": [{"type": "draw", "card": "KH"}, {"type": "draw", "card": "KH"}]}',
            "event 2 (draw card=KH): refused (card_not_in_stack)",
        ),
        (
            '{"setup": {"players": ["A", "B"], "first": "A"}, "events": [{"type": "fly"}]}',
            "unknown event type",
        ),
        (
            '{"setup": {"players": ["A", "B"], "first": "A"}, "events": [{"type": "undo"}]}',
            "nothing to undo",
        ),
        ('{"setup": {"players": ["A", "B"]}, "events": [], "extra": 1}', "unknown field(s) extra"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, fragment: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(content)
    assert main(["serialkiller", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: ") and fragment in err and err.count("\n") == 1


def test_one_root_exception() -> None:
    from companion.errors import CompanionError, InputError
    from companion.games.serialkiller import SerialKillerError
    from companion.tools.serialkiller import ReplayError

    assert issubclass(CardError, SerialKillerError) and issubclass(ReplayError, SerialKillerError)
    assert issubclass(ReplayError, InputError)
    assert issubclass(SerialKillerError, CompanionError) and issubclass(SerialKillerError, ValueError)


def test_group_without_command_shows_help(capsys: pytest.CaptureFixture[str]) -> None:
    # a group without its sub-command is a usage error (exit 2) that names the sub-commands
    assert main(["serialkiller"]) == 2
    assert "replay" in capsys.readouterr().err
